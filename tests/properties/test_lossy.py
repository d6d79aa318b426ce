"""Lossy cells: the catalogue's float formats against ml_dtypes' finfo, and every verdict on
an input of 16 bits or fewer against a brute-force cast of every bit pattern."""

from __future__ import annotations

import itertools
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from promote_cli import api, frameworks
from promote_cli.check import check, table_operands
from promote_cli.dtypes import CATALOGUE
from promote_cli.lossy import IMAG, NAN, fits, float_format, loss


def np_dtype(name: str) -> np.dtype:
    return np.dtype(getattr(ml_dtypes, name)) if hasattr(ml_dtypes, name) else np.dtype(name)


NUMPY_TYPES = [n for n, t in CATALOGUE.items() if t.numpy]
FLOATS = [n for n in NUMPY_TYPES if CATALOGUE[n].kind == "float"]
SMALL = [n for n in NUMPY_TYPES if (CATALOGUE[n].bits or 0) <= 16]


def exact(value) -> Fraction:
    if isinstance(value, np.longdouble):
        return Fraction(*value.as_integer_ratio())
    return Fraction(float(value))


@pytest.mark.parametrize("name", FLOATS)
def test_each_float_format_has_ml_dtypes_range_and_specials(name):
    fmt = float_format(name)
    info = ml_dtypes.finfo(np_dtype(name))
    assert fmt.max == exact(info.max)
    assert fmt.true_min == exact(info.smallest_subnormal)
    assert fmt.emin == info.minexp
    assert fmt.precision == info.nmant + 1
    dt = np_dtype(name)
    specials = np.array([np.inf, np.nan], dtype=np.float64).astype(dt).astype(np.float64)
    assert bool(np.isinf(specials[0])) == fmt.inf
    assert bool(np.isnan(specials[1])) == fmt.nan


def every_value(name: str) -> np.ndarray:
    """Every value of a type of 16 bits or fewer, from every bit pattern, as float64."""
    t = CATALOGUE[name]
    dt = np_dtype(name)
    if t.kind == "bool":
        return np.array([0.0, 1.0])
    if dt.itemsize == 1:
        raw = np.arange(256, dtype=np.uint8).view(dt)
    else:
        raw = np.arange(2**16, dtype=np.uint16).view(dt)
    with np.errstate(invalid="ignore"):
        return raw.astype(np.float64)


def brute_force_loses(source: str, target: str) -> bool:
    """Whether some value of ``source`` changes when cast to ``target``: every value, held
    exactly as float64, is cast and read back in a type that holds every value of the target
    exactly (longdouble), then compared; NaN staying NaN and -0 becoming 0 are no change."""
    x = every_value(source)
    tgt = np_dtype(target)
    with np.errstate(all="ignore"):
        y = x.astype(tgt)
        if tgt.kind == "c" or target == "complex32":
            back = y.astype(np.clongdouble)
        elif tgt.type.__module__.startswith("ml_dtypes"):
            back = y.astype(np.float64).astype(np.longdouble)
        else:
            back = y.astype(np.longdouble)
    real, imag = np.real(back), np.imag(back)
    same = ((real == x) | (np.isnan(x) & np.isnan(real))) & (imag == 0)
    return not bool(same.all())


PAIRS = [(s, t) for s in SMALL for t in NUMPY_TYPES if s != t]


@pytest.mark.parametrize("source", SMALL)
def test_loss_agrees_with_every_bit_pattern(source):
    wrong = [
        (source, t, loss(source, t))
        for t in NUMPY_TYPES
        if t != source and (loss(source, t) is not None) != brute_force_loses(source, t)
    ]
    assert wrong == []


def test_the_example_value_is_a_value_of_the_source_that_the_target_changes():
    for source, target in PAIRS:
        lost = loss(source, target)
        if lost is None or isinstance(lost.value, str):
            continue
        assert fits(lost.value, source), (source, target, lost)
        assert not fits(lost.value, target), (source, target, lost)
        if lost.becomes is not None:  # the rounded value is what the cast really gives
            cast = np.array([float(lost.value)]).astype(np_dtype(target))
            got = np.real(cast.astype(np.complex128))[0]
            assert Fraction(float(got)) == lost.becomes, lost


def test_pytorch_users_257_and_numpy_int32_into_float32():
    canonical = frameworks.notation("canonical")
    assert loss("int32", "bfloat16").text(canonical) == "int32 257 -> bfloat16 256"
    assert loss("int32", "float32").text(canonical) == "int32 2**24 + 1 -> float32 16777216"
    assert loss("int16", "float32") is None  # 16-bit integers fit float32's 24-bit significand
    assert loss("uint16", "int16").what == "out of range"
    assert loss("int8", "uint8").what == "negative into unsigned"
    assert loss("float16", "int32").text(canonical) == "float16 1.5 -> int32 1"
    assert loss("complex64", "float64").value == IMAG
    assert loss("float8_e5m2", "float8_e4m3fn").value != NAN  # rounding shows first


@pytest.mark.parametrize("name", frameworks.names())
def test_every_policys_lossy_cells_among_small_inputs_agree_with_brute_force(name):
    req = api.request(name)
    report = check(req, table_operands(req.policy, True), limit=0)
    listed = {
        (side_op.dtype, cell.result)
        for cell in report.lossy
        for side, side_op in (("a", cell.a), ("b", cell.b))
        if side in dict(cell.losses)
    }
    numeric = {n for n in NUMPY_TYPES}
    for a, b in itertools.product(report.operands, repeat=2):
        out = req.policy.promote(a, b, req.options)
        if out.refused or out.result not in numeric:
            continue
        for op in (a, b):
            if op.dtype in SMALL and op.category != "P" and op.dtype != out.result:
                want = brute_force_loses(op.dtype, out.result)
                assert ((op.dtype, out.result) in listed) == want, (a, b, out.result)
