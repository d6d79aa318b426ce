"""The Python API reads the dtype objects users already hold, without
importing any framework to recognise them."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

import promote_cli
from promote_cli import api
from promote_cli.dtypes import CATALOGUE
from promote_cli.errors import PromotionError, UsageError

np = pytest.importorskip("numpy")
ml_dtypes = pytest.importorskip("ml_dtypes")


def test_numpy_scalar_types_and_dtypes():
    assert promote_cli.promote(np.float16, np.float32, policy="numpy") == "float32"
    assert promote_cli.promote(np.dtype("f2"), np.dtype("i1"), policy="numpy") == "float16"
    # NumPy's own answer, to show the policy was asked with these types: int8 x uint8 -> int16.
    assert promote_cli.promote(np.int8, np.dtype(np.uint8), policy="numpy") == "int16"
    assert promote_cli.promote(np.bool_, np.longdouble, policy="numpy") == "longdouble"


def test_ml_dtypes_types_and_dtypes():
    assert promote_cli.promote(ml_dtypes.bfloat16, np.float16, policy="jax") == "float32"
    assert promote_cli.promote(np.dtype(ml_dtypes.bfloat16), np.int8, policy="jax") == "bfloat16"
    assert promote_cli.promote(ml_dtypes.int4, ml_dtypes.int4, policy="jax") == "int4"


# The catalogue's ml_dtypes types the installed ml_dtypes has (0.5.4 lacks int1, uint1 and
# complex32).
_ML_TYPES = sorted(
    name
    for name, entry in CATALOGUE.items()
    if entry.numpy and isinstance(getattr(ml_dtypes, name, None), type)
)


@pytest.mark.parametrize("name", _ML_TYPES)
def test_every_ml_dtypes_object_is_read_by_its_name(name):
    # Up to ml_dtypes 0.6 NumPy makes the class of np.dtype(ml_dtypes.bfloat16)
    # (numpy.dtype[bfloat16]); from 0.7 ml_dtypes does (ml_dtypes.bfloat16): both are numpy.dtype.
    scalar = getattr(ml_dtypes, name)
    for given in (scalar, np.dtype(scalar), np.zeros(2, scalar).dtype):
        req = api.request("numpy", options={"ml_dtypes": True}, operands=[given])
        assert req.operands is not None and req.operands[0].dtype == name, given


def test_ml_dtypes_dtypes_promote_under_the_numpy_policy():
    # NumPy 2.4.6 with ml_dtypes 0.6.0 and 0.7.0 alike: np.result_type(int4, int8) is int8,
    # np.result_type(bfloat16, float32) float32, np.result_type(float8_e4m3fn, float32) float32.
    def numpy(a, b):
        return promote_cli.promote(a, b, policy="numpy", ml_dtypes=True)

    assert numpy(np.dtype(ml_dtypes.int4), np.int8) == "int8"
    assert numpy(np.dtype(ml_dtypes.bfloat16), np.dtype(np.float32)) == "float32"
    assert numpy(np.zeros(3, ml_dtypes.float8_e4m3fn).dtype, np.float32) == "float32"
    assert numpy(ml_dtypes.bfloat16, np.dtype(ml_dtypes.bfloat16)) == "bfloat16"


def test_ml_dtypes_bcomplex32_is_the_catalogues_torch_type_that_numpy_lacks():
    # bcomplex32 came in ml_dtypes 0.6; the catalogue has it since torch 2.14 has it too, and
    # the numpy policy, which measured no ml_dtypes complex type, refuses it in one line.
    if not hasattr(ml_dtypes, "bcomplex32"):
        pytest.skip(f"ml_dtypes {ml_dtypes.__version__} has no bcomplex32")
    for given in (ml_dtypes.bcomplex32, np.dtype(ml_dtypes.bcomplex32)):
        with pytest.raises(PromotionError, match="NumPy has no bcomplex32 type"):
            promote_cli.promote(given, np.float32, policy="numpy", ml_dtypes=True)


@pytest.mark.parametrize("name", ["float8_e5m3fnu"])
def test_an_ml_dtypes_type_promote_has_never_seen_is_one_line_naming_it(name):
    # float8_e5m3fnu came in ml_dtypes 0.7; the catalogue does not have it.
    if not hasattr(ml_dtypes, name):
        pytest.skip(f"ml_dtypes {ml_dtypes.__version__} has no {name}")
    scalar = getattr(ml_dtypes, name)
    for given in (scalar, np.dtype(scalar)):
        with pytest.raises(UsageError) as caught:
            promote_cli.promote(given, np.float32, policy="numpy", ml_dtypes=True)
        message = str(caught.value)
        assert "\n" not in message
        assert f"does not know ({name}, from ml_dtypes {ml_dtypes.__version__})" in message


def test_python_types_are_python_scalars():
    # JAX: a Python float is weak, so float16 survives; NumPy (NEP 50) likewise.
    assert promote_cli.promote(np.float16, float, policy="jax") == "float16"
    assert promote_cli.promote(int, float, policy="jax") == "float*"
    assert promote_cli.promote(np.int8, int, policy="numpy") == "int8"
    assert promote_cli.promote(bool, np.int8, policy="jax") == "int8"


def test_objects_mix_with_spellings_in_the_policy_notation():
    # "i8" is read in JAX's notation (int64); the object is read by its own name.
    assert promote_cli.promote("i8", np.float16, policy="jax") == "float16"
    assert promote_cli.promote_many([np.uint8, "i1", np.float16], policy="jax") == "float16"
    assert promote_cli.matrix("numpy", [np.int8, np.uint8]).cell(0, 1).result == "int16"


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (object(), "cannot read <object object"),
        (3, "3 is a Python int value, not a dtype: spell it 'int:3'"),
        ("nonsense", "unknown dtype 'nonsense'"),
    ],
)
def test_anything_else_is_a_usage_error_saying_what_is_accepted(given, message):
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)")):
        promote_cli.promote(given, np.float32)


@pytest.mark.parametrize(
    ("value", "spelled"),
    [(300, "'int:300'"), (-1, "'int:-1'"), (1e300, "'float:1e+300'"), (True, "'bool:true'")],
)
def test_a_python_value_is_told_its_spelling(value, spelled):
    # promote(np.uint8, 300) means "uint8 + 300": the error names the spelling that asks it,
    # and that spelling is then answered as NumPy's operation answers it.
    with pytest.raises(UsageError, match=re.escape(f"not a dtype: spell it {spelled}")):
        promote_cli.promote(np.uint8, value, policy="numpy")
    with pytest.raises(promote_cli.PromotionError, match="300 out of bounds for uint8"):
        promote_cli.promote(np.uint8, "int:300", policy="numpy")


def test_an_array_is_told_to_pass_its_dtype():
    with pytest.raises(UsageError, match=r"pass its \.dtype"):
        promote_cli.promote(np.zeros(2), np.float32)


def test_a_numpy_dtype_promote_does_not_know_names_it():
    with pytest.raises(UsageError, match=r"does not know \(void16, from numpy "):
        promote_cli.promote(np.dtype("V2"), np.float32, policy="numpy")


def test_torch_dtypes():
    torch = pytest.importorskip("torch")
    assert promote_cli.promote(torch.float16, torch.bfloat16, policy="torch") == "float32"
    assert promote_cli.promote(torch.uint8, torch.int8, policy="torch") == "int16"
    assert promote_cli.promote(torch.bool, torch.complex32, policy="torch") == "complex32"
    with pytest.raises(UsageError, match=r"torch\.quint8"):
        promote_cli.promote(torch.quint8, torch.float32, policy="torch")


def test_jax_numpy_scalar_types():
    jnp = pytest.importorskip("jax.numpy")
    assert promote_cli.promote(jnp.bfloat16, jnp.float16, policy="jax") == "float32"
    assert promote_cli.promote(jnp.uint64, jnp.int8, policy="jax") == "float64"
    assert promote_cli.promote(jnp.dtype("int8"), jnp.bool_, policy="jax") == "int8"


def test_tensorflow_dtypes():
    tf = pytest.importorskip("tensorflow")
    assert promote_cli.promote(tf.int8, tf.uint8, policy="tensorflow") == "int16"
    assert promote_cli.promote(tf.bfloat16, tf.float16, policy="tensorflow") == "float32"
    with pytest.raises(UsageError, match="qint8"):
        promote_cli.promote(tf.qint8, tf.float32, policy="tensorflow")


_FRAMEWORKS = ("torch", "jax", "tensorflow", "mlx", "paddle")


def _imports_after(setup: str, call: str) -> set[str]:
    """The framework modules a fresh interpreter gained from ``call`` alone."""
    code = textwrap.dedent(f"""
        import sys
        {setup}
        before = set(sys.modules)
        import promote_cli
        {call}
        gained = set(sys.modules) - before
        print(" ".join(sorted({{m.partition(".")[0] for m in gained}} & set({_FRAMEWORKS!r}))))
    """)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return set(done.stdout.split())


def test_recognising_numpy_and_ml_dtypes_objects_imports_no_framework():
    gained = _imports_after(
        "import numpy as np, ml_dtypes",
        "assert promote_cli.promote(ml_dtypes.bfloat16, np.float16, policy='jax') == 'float32'",
    )
    assert gained == set()


def test_recognising_torch_dtypes_imports_no_other_framework():
    pytest.importorskip("torch")
    gained = _imports_after(
        "import torch",
        "assert promote_cli.promote(torch.float16, torch.int8, policy='jax') == 'float16'",
    )
    assert gained == set()
