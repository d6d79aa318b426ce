"""JAX's ``jit`` option: eager (the default) and inside ``jax.jit`` differ only where
``jnp.power`` looks at its exponent's value. Each expected value was observed on JAX 0.10.2 (the
call in the comment, run eagerly at a prompt and as ``jax.jit(lambda x, y: x ** y)(a, e)``);
every cell of ``pow``, ``**`` and ``**=`` with a 0-d array is also compared with the checked-in
measurements of both settings by ``tests/measured/test_measured.py``."""

from __future__ import annotations

import pytest

from promote_cli import frameworks, promote
from promote_cli.errors import PromotionError
from promote_cli.verify.cases import operation_cases


@pytest.mark.parametrize(
    ("args", "eager", "jitted"),
    [
        # jnp.ones(3, jnp.int16) ** jnp.array(2, jnp.int32): int16 eagerly (the concrete
        # exponent takes lax.integer_pow), int32 under jax.jit (the tracer promotes)
        (("**", "int16", "S(int32)"), "int16", "int32"),
        (("pow", "int16", "S(int32)"), "int16", "int32"),
        (("**=", "int16", "S(int32)"), "int16", "int32"),
        # jnp.ones(3, bool) ** jnp.array(2, jnp.uint8): the bool base is made int32 eagerly
        (("**", "bool", "S(uint8)"), "int32", "uint8"),
        # jnp.ones(3, jnp.uint8) ** jnp.array(2, jnp.int16)
        (("**", "uint8", "S(int16)"), "uint8", "int16"),
        (("**", "int8", "S(uint64)"), "int8", "float64"),
        # jnp.array(2, jnp.uint8) ** jnp.array(2, jnp.int32): the base's type eagerly
        (("**", "S(uint8)", "S(int32)"), "uint8", "int32"),
        # jnp.power(2, jnp.array(2, jnp.int8)): a weak int eagerly (int64, weak_type=True)
        (("pow", "int", "S(int8)"), "int*", "int8"),
        (("pow", "float", "S(uint64)"), "float*", "float64"),
        (("pow", "P(bool)", "S(int8)"), "int32", "int8"),
        # a bool or a 4-bit 0-d exponent is not taken as an int: the same either way
        (("**", "int8", "S(bool)"), "int8", "int8"),
        # the exponent of a 1-d array is not concrete enough either (operator.index refuses it)
        (("**", "int16", "int32"), "int32", "int32"),
        # a float base with an integer exponent is not promoted either way
        (("**", "float16", "S(int64)"), "float16", "float16"),
    ],
)
def test_a_0d_integer_exponent_is_a_python_int_only_eagerly(args, eager, jitted):
    op, a, b = args
    assert promote(a, b, policy="jax", op=op) == eager
    assert promote(a, b, policy="jax", op=op, jit=False) == eager
    assert promote(a, b, policy="jax", op=op, jit=True) == jitted


def test_a_4bit_0d_exponent_is_refused_either_way():
    # jnp.ones(3, jnp.int8) ** jnp.array(2, ml_dtypes.int4): TypePromotionError both ways
    for jit in (False, True):
        with pytest.raises(PromotionError, match="4-bit integers"):
            promote("int8", "S(int4)", policy="jax", op="**", jit=jit)


@pytest.mark.parametrize(
    ("args", "eager", "jitted"),
    [
        # jax_enable_x64 off: jnp.ones(3, jnp.int16) ** jnp.array(2, jnp.int32)
        (("**", "int16", "S(int32)"), "int16", "int32"),
        (("**", "bool", "S(uint8)"), "int32", "uint8"),
        # jnp.power(2, jnp.array(2, jnp.int8)): int32, weak_type=True, eagerly
        (("pow", "int", "S(int8)"), "int*", "int8"),
        (("**", "uint8", "S(int16)"), "uint8", "int16"),
    ],
)
def test_without_x64_the_exponent_differs_the_same_way(args, eager, jitted):
    op, a, b = args
    assert promote(a, b, policy="jax", op=op, x64=False) == eager
    assert promote(a, b, policy="jax", op=op, x64=False, jit=True) == jitted


def test_a_promotion_has_no_jit_difference(run):
    # jnp.result_type never looks at a value: a 0-d array promotes as an array
    for jit in ("false", "true"):
        assert run("pair", "int16", "S(int32)", "-p", "jax", "-O", f"jit={jit}").stdout == (
            "i4 (int32)\n"
        )


def test_the_acceptance_lines(run):
    eager = run("op", "**", "int16", "S(int32)", "-p", "jax", "-O", "jit=false")
    jitted = run("op", "**", "int16", "S(int32)", "-p", "jax", "-O", "jit=true")
    assert (eager.exit_code, eager.stdout) == (0, "i2 (int16)\n")
    assert (jitted.exit_code, jitted.stdout) == (0, "i4 (int32)\n")


def test_expr_raises_to_a_reduction_eagerly_as_an_int(run):
    # x = jnp.ones((2, 2), jnp.int16); y = jnp.ones((2, 2), jnp.int32); x ** jnp.sum(y) is
    # int16 at a prompt (the sum is a concrete 0-d int64) and int64 inside jax.jit
    eager = run("expr", "x ** sum(y)", "x=int16", "y=int32", "-p", "jax")
    jitted = run("expr", "x ** sum(y)", "x=int16", "y=int32", "-p", "jax", "-O", "jit=true")
    assert eager.stdout.splitlines()[-1].split() == ["x", "**", "sum(y)", "int16"]
    assert jitted.stdout.splitlines()[-1].split() == ["x", "**", "sum(y)", "int64"]


def test_table_and_diff_show_the_setting(run):
    args = ("--op", "pow", "-t", "i2,S(i4)")
    table = run("table", "-p", "jax", *args, "-O", "jit=true").stdout
    assert "jit=true" in table
    diff = run("diff", "jax", "jax", "-O", "right:jit=true", *args)
    assert diff.exit_code == 1
    assert "i2 (int16) x S(i4 (int32))" in diff.stdout
    assert "1 of 4 cells differ" in diff.stdout


def test_only_the_power_is_asked_about_0d_arrays():
    rules = frameworks.operations(frameworks.get("jax"))
    asked = {
        name
        for name, cases in operation_cases(rules)
        if any(x.category == "S" for case in cases for x in case)
    }
    assert asked == {"pow", "**", "**="}
