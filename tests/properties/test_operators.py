"""Python's operators and augmented assignment (``a + b``, ``-a``, ``a += b``) as ``promote op``
answers them. Each expected value below was observed on the real framework (numpy 2.4.6,
torch 2.13.0, jax 0.10.2, array-api-strict 2.6.1, mlx 0.32.4: the call in the comment); every
cell is also compared with the checked-in measurements by ``tests/measured/test_measured.py``."""

from __future__ import annotations

import json

import pytest

from promote_cli import promote, promote_many
from promote_cli.errors import PromotionError, UsageError
from promote_cli.vocabulary import AUGMENTED, FUNCTIONS, OPERATOR, OPERATOR_FORMS, operation


@pytest.mark.parametrize(
    ("args", "want"),
    [
        # np.ones(2, uint8) + np.ones(2, int8) -> int16
        (("+", "uint8", "int8", "-p", "numpy"), "int16"),
        # -np.ones(2, uint8) -> uint8; ~np.ones(2, bool) -> bool
        (("-", "uint8", "-p", "numpy"), "uint8"),
        (("~", "bool", "-p", "numpy"), "bool"),
        # a = torch.ones(2, dtype=torch.uint8); a += torch.ones(2, dtype=torch.int8): uint8
        (("+=", "uint8", "int8", "-p", "torch"), "uint8"),
        # torch.ones(2, dtype=torch.bool) * torch.ones(2, dtype=torch.int8) -> int8
        (("*", "bool", "int8", "-p", "torch"), "int8"),
        # x = jnp.ones(2, jnp.int8); x += jnp.ones(2, jnp.float32): float32 (a new array)
        (("+=", "int8", "float32", "-p", "jax", "--notation", "canonical"), "float32"),
        # +jnp.ones(2, bool) -> bool (jnp.positive takes the bool jnp.negative refuses)
        (("-x", "bool", "-p", "jax"), "refused"),
        (("+x", "bool", "-p", "jax", "--notation", "canonical"), "bool"),
        # a = mx.ones((2,), mx.int8); a += mx.ones((2,), mx.float32): a is still a, float32
        (("+=", "int8", "float32", "-p", "mlx"), "float32"),
        # mx.ones((2,), mx.int8) & 1 -> int8
        (("&", "int8", "int", "-p", "mlx"), "int8"),
        # xp.ones(2, dtype=xp.int16) += xp.ones(2, dtype=xp.int8): int16, in place
        (("+=", "int16", "int8", "-p", "array-api"), "int16"),
    ],
)
def test_an_operator_answers_what_the_framework_gave(run, args, want):
    done = run("op", *args)
    if want == "refused":
        assert done.exit_code == 1, done.output
        assert done.output.startswith("refused: ")
    else:
        assert done.exit_code == 0, done.output
        assert done.output.strip().split(" ")[0] == want


@pytest.mark.parametrize(
    ("args", "said"),
    [
        # np.ones(2, int8) += np.ones(2, float32): UFuncTypeError "Cannot cast ufunc 'add'
        # output from dtype('float32') to dtype('int8') with casting rule 'same_kind'"
        (("+=", "int8", "float32", "-p", "numpy"), "casting rule 'same_kind'"),
        # np.ones(2, uint8) += np.ones(2, int8): the int16 result is a higher kind
        (("+=", "uint8", "int8", "-p", "numpy"), "int16 result"),
        # torch int8 += float32: "result type Float can't be cast to the desired output type Char"
        (("+=", "int8", "float32", "-p", "torch"), "canCast"),
        # +torch.ones(2, dtype=torch.bool): "The `+` operator, on a bool tensor is not supported."
        (("+x", "bool", "-p", "torch"), "torch.Tensor.__pos__ does not accept bool"),
        # xp.ones(2, dtype=xp.int8) += xp.ones(2, dtype=xp.int16): "Cannot perform __iadd__"
        (("+=", "int8", "int16", "-p", "array-api"), "keeps x1's dtype"),
        # xp.ones(2, dtype=xp.int8) @ xp.ones(2, dtype=xp.float32): TypeError (xp.matmul gives
        # float32: NumPy promotes there)
        (("@", "int8", "float32", "-p", "array-api"), "refused"),
        # mx.ones((2,), mx.int8) /= ...: "In place division cannot cast to non-floating point type"
        (("/=", "int8", "int8", "-p", "mlx"), "refuses an array of int8 on its left"),
        # 1 & mx.ones((2,), mx.int8): TypeError, mlx.core.array has no __rand__
        (("&", "int", "int8", "-p", "mlx"), "mx.array has no __rand__"),
        (("&=", "int", "int8", "-p", "mlx"), "mx.array has no __rand__"),
        # Keras has no array type of its own
        (("+", "int8", "int8", "-p", "keras"), "Keras 3 has no + operator"),
    ],
)
def test_an_operator_the_framework_refuses_is_refused_saying_why(run, args, said):
    done = run("op", *args)
    assert done.exit_code == 1, done.output
    assert done.output.startswith("refused: ") and said in done.output, done.output


def test_augmented_assignment_says_how_the_name_lands(run):
    how = {}
    for policy in ("numpy", "torch", "jax", "array-api", "mlx"):
        done = run("op", "+=", "int16", "int8", "-p", policy, "--json")
        how[policy] = json.loads(done.output)["rule"]
    assert how == {
        "numpy": "in-place",
        "torch": "in-place",
        "jax": "rebinds",
        "array-api": "in-place",
        "mlx": "replaces",
    }
    # x = 1; x += np.ones(2, np.int8): Python computes x + a and binds x to it
    done = run("op", "+=", "int", "int8", "-p", "numpy", "--json")
    assert json.loads(done.output)["rule"] == "rebinds"


def test_a_0d_array_cannot_take_a_larger_result_in_place(run):
    # a = np.ones((), np.int8); a += np.ones(2, np.int8): "non-broadcastable output operand"
    done = run("op", "+=", "S(int8)", "int8", "-p", "numpy")
    assert done.exit_code == 1 and "0-d array" in done.output


def test_minus_and_plus_with_one_operand_are_the_unary_operators():
    assert operation("-", 1).name == "-x"
    assert operation("-", 2).name == "-"
    assert operation("~").name == "~x"
    assert promote_many(["int8"], policy="numpy", op="-") == "int8"


def test_operators_that_look_like_options_need_no_double_dash(run):
    for args in (
        ("-=", "int8", "int8", "-p", "numpy"),
        ("-x", "int8", "-p", "numpy"),
        ("-", "int8", "-p", "numpy"),
        ("-p", "numpy", "--", "-=", "int8", "int8"),
    ):
        done = run("op", *args)
        assert done.exit_code == 0 and done.output.strip() == "int8", (args, done.output)
    done = run("op", "add", "int8", "int8", "--explian")
    assert done.exit_code == 2
    assert "No such option '--explian'" in done.output


def test_explain_writes_the_call_as_code(run):
    done = run("op", "+=", "int8", "float32", "-p", "numpy", "--explain")
    assert "operator: a += b = np.ndarray.__iadd__" in done.output
    assert "int8 += float32 -> refused" in done.output
    assert "step: update:" in done.output
    done = run("op", "-", "uint8", "-p", "numpy", "--explain")
    assert "-uint8 -> uint8" in done.output


def test_the_python_api_takes_operators():
    assert promote("int16", "int8", policy="torch", op="+=") == "int16"
    with pytest.raises(PromotionError, match="same_kind"):
        promote("int8", "float32", policy="numpy", op="+=")


def test_an_operator_and_its_augmented_form_take_a_value(run):
    # np.ones(2, np.uint8) + 300: OverflowError "Python integer 300 out of bounds for uint8";
    # a = np.ones(2, np.uint8); a += 300: the same
    done = run("op", "+", "uint8", "int:300", "-p", "numpy")
    assert done.exit_code == 1 and "OverflowError" in done.output
    with pytest.raises(PromotionError, match="OverflowError"):
        promote("uint8", "int:300", policy="numpy", op="+=")
    # a = np.ones(2, np.uint8); a += 255: uint8, in place
    assert promote("uint8", "int:255", policy="numpy", op="+=") == "uint8"
    # unary minus takes an array only: a value is still a usage error
    with pytest.raises(UsageError, match="not checked against a Python scalar's value"):
        promote_many(["int:300"], policy="numpy", op="-x")


def test_every_operator_has_its_augmented_form_but_comparisons_and_matmul():
    binary = [n for n, o in OPERATOR_FORMS.items() if o.syntax == OPERATOR]
    augmented = [n for n, o in OPERATOR_FORMS.items() if o.syntax == AUGMENTED]
    assert binary == [
        *("+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>"),
        *("==", "!=", "<", "<=", ">", ">=", "-x", "+x", "~x"),
    ]
    assert augmented == ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>="]
    assert len(FUNCTIONS) == 39
