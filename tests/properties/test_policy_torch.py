"""The torch policy: PyTorch's documented examples and its stated rules (every cell against
torch itself is ``promote verify``'s conformance test in test_verify)."""

from __future__ import annotations

import itertools

import pytest

from promote_cli import PromotionError, api, promote, promote_many
from promote_cli.frameworks.torch.promotion import DEFAULT_TYPES, TABLE
from promote_cli.rules import NO_KERNEL
from promote_cli.vocabulary import ACCUMULATE, INT_TO_FLOAT, SAME

# "Type promotion" examples of PyTorch's Tensor Attributes page (int_tensor is int32,
# long_zerodim a 0-d int64, 5 a Python int ...), and the two of torch.result_type's page.
DOC_EXAMPLES = [
    (["int", "int"], "int64"),  # torch.add(5, 5)
    (["int32", "int"], "int32"),  # int_tensor + 5: the scalar is of no higher category
    (["int32", "S(int64)"], "int32"),  # int_tensor + long_zerodim
    (["int64", "int32"], "int64"),  # long_tensor + int_tensor
    (["bool", "int64"], "int64"),
    (["bool", "uint8"], "uint8"),
    (["float32", "float64"], "float64"),
    (["complex64", "complex128"], "complex128"),
    (["bool", "int32"], "int32"),
    (["int64", "float32"], "float32"),  # another kind: big enough for the float only
    (["int32", "float"], "float32"),  # result_type(tensor([1, 2], dtype=int), 1.0)
    (["uint8", "S(int64)"], "uint8"),  # result_type(tensor([1, 2], dtype=uint8), tensor(1))
]


@pytest.mark.parametrize(("operands", "want"), DOC_EXAMPLES)
def test_pytorch_documentation_examples(operands, want):
    assert promote_many(operands, policy="torch") == want


@pytest.mark.parametrize(
    ("operands", "want"),
    [
        # The category rule the page states: a zero-dim tensor of a higher category decides.
        (["int8", "S(float64)"], "float64"),
        (["float16", "S(float64)"], "float16"),
        # A floating scalar has the default dtype (float32). The complex cells below are what
        # torch 2.13 answers: a complex of a weaker category keeps a float tensor's precision.
        (["int64", "float"], "float32"),
        (["float16", "complex"], "complex32"),
        (["int8", "complex"], "complex64"),
        (["bfloat16", "S(complex128)"], "complex64"),
        # n-ary: each category is promoted first, so this is not a left fold of pairs.
        (["int8", "S(float16)", "S(float64)"], "float64"),
    ],
)
def test_categories(operands, want):
    assert promote_many(operands, policy="torch") == want


def test_uint16_to_64_promote_only_with_floats_and_themselves():
    for u in ("uint16", "uint32", "uint64"):
        assert promote(u, u, policy="torch") == u
        for f in ("float16", "bfloat16", "float32", "float64"):
            assert promote(u, f, policy="torch") == f
        for other in ("bool", "uint8", "int8", "int64", "complex64", "uint16", "uint32"):
            if other != u:
                with pytest.raises(PromotionError, match="only with floating types"):
                    promote(u, other, policy="torch")


def test_float8_never_promotes_and_bf16_with_f16_is_f32():
    assert promote("bfloat16", "float16", policy="torch") == "float32"
    eights = [t for t in DEFAULT_TYPES if t.startswith("float8")]
    assert len(eights) == 5
    for a, b in itertools.product(eights, DEFAULT_TYPES):
        if a != b:
            with pytest.raises(PromotionError, match="float8"):
                promote(a, b, policy="torch")


def test_stored_half_is_c10s_table_with_torch_2_14s_bcomplex32_row():
    # 13 x 13 in torch 2.13; 2.14 adds bcomplex32 (outside 2.13's universe, so unread there)
    assert len(TABLE.order) == 14 and len(TABLE.cells) == 196
    # c10's table: bool with bfloat16 is bfloat16, complex32 with float64 is complex128.
    assert TABLE.cells["bool", "bfloat16"] == "bfloat16"
    assert TABLE.cells["complex32", "float64"] == "complex128"
    assert TABLE.cells["bcomplex32", "float16"] == "complex64"  # measured, 2.14.1 and 2.15.0


def test_python_scalars_alone():
    assert promote("int", "float", policy="torch") == "float32"
    assert promote("P(bool)", "P(bool)", policy="torch") == "bool"
    assert promote("P(bool)", "int8", policy="torch") == "int8"


def test_torch_spellings_are_read(run):
    result = run("pair", "torch.half", "torch.cdouble", "--policy", "torch")
    assert (result.exit_code, result.stdout) == (0, "complex128\n")
    result = run("pair", "uint16", "int8", "--policy", "torch")
    assert result.exit_code == 1
    assert "only with floating types" in result.stdout


# Where PyTorch runs a call although its kernel lacks the promoted type, and where it does not
# (measured, torch 2.13.0, CPU; the operands as verify asks them: tensors of two elements, a
# Python scalar given no value is 1): float8's mul has no path for one number second; pow
# returns before its kernel for an exponent of 0 or 1 or a base of 1 (not True); 1j / x is
# x.reciprocal() * 1j; cumsum copies a 0-d tensor.
@pytest.mark.parametrize(
    ("op", "args", "want", "rule"),
    [
        ("*", ["float8_e5m2", "float8_e5m2"], "float8_e5m2", SAME.value),
        ("multiply", ["S(int8)", "float8_e4m3fn"], "float8_e4m3fn", SAME.value),
        ("*", ["float8_e5m2", "S(int8)"], "float8_e5m2", NO_KERNEL),
        ("*", ["S(float8_e5m2)", "S(float8_e5m2)"], "float8_e5m2", NO_KERNEL),
        ("*", ["int", "float8_e5m2"], "float8_e5m2", NO_KERNEL),  # t.__rmul__(1)
        ("**", ["float8_e5m2", "int"], "float8_e5m2", SAME.value),  # t ** 1 copies
        ("**", ["float8_e5m2", "int:300"], "float8_e5m2", NO_KERNEL),
        ("pow", ["uint16", "bool:false"], "uint16", SAME.value),  # t ** False fills
        ("**", ["int", "S(uint64)"], "uint64", SAME.value),  # 1 ** t fills
        ("**", ["bool:true", "uint16"], "uint16", NO_KERNEL),  # True is no 1 to pow
        ("**", ["int:255", "uint16"], "uint16", NO_KERNEL),
        ("/", ["complex:1e300j", "float16"], "complex32", INT_TO_FLOAT.value),
        ("divide", ["complex", "S(float16)"], "complex32", INT_TO_FLOAT.value),
        ("/", ["complex", "S(complex32)"], "complex32", NO_KERNEL),  # no reciprocal
        ("cumulative_sum", ["S(complex32)"], "complex32", ACCUMULATE.value),
        ("cumulative_sum", ["float8_e5m2"], "float8_e5m2", NO_KERNEL),
    ],
)
def test_a_kernel_the_promoted_type_lacks_is_reached_or_skipped(op, args, want, rule):
    out = api.request("torch", operands=args, op=op).outcome()
    assert (out.result, out.rule) == (want, rule), out
