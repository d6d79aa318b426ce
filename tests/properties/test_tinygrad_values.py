"""tinygrad's operations given a Python scalar's value (``promote op << int8 int:-1 -p tinygrad``).
Each expected value was observed on tinygrad 0.14.0 (PYTHON device, realised with ``.data()``:
the call in the comment); every valued cell is also compared with the checked-in measurements by
``tests/measured/test_measured.py``."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("args", "want"),
    [
        # Tensor.ones(2, dtype=dtypes.int8) << -1: ValueError "negative shift count"
        (("<<", "int8", "int:-1"), "negative shift count"),
        # int8 << 128: 128 wraps to -128 in int8, the same ValueError
        (("<<", "int8", "int:128"), "negative shift count"),
        (("bitwise_left_shift", "int32", "int:2147483648"), "negative shift count"),
        # a = Tensor.ones(2, dtype=dtypes.int16); a >>= -129: ValueError
        ((">>=", "int16", "int:-129"), "negative shift count"),
        # bool >> 2**31: the count wraps as int32 (int*): ValueError
        ((">>", "bool", "int:2147483648"), "negative shift count"),
        # Tensor.ones(2, dtype=dtypes.int64) << (2**63 - 1): MemoryError
        (("<<", "int64", "int:9223372036854775807"), "MemoryError"),
        # uint64 << -1: -1 wraps to 2**64 - 1: MemoryError
        (("<<=", "uint64", "int:-1"), "MemoryError"),
        # Tensor.ones(2, dtype=dtypes.int8) ** -1 and -1 ** it: RuntimeError "base needs to be
        # float"
        (("**", "int8", "int:-1"), "base needs to be float"),
        (("pow", "int:-129", "uint64"), "base needs to be float"),
    ],
)
def test_a_value_tinygrad_cannot_take_is_refused_in_its_words(run, args, want):
    done = run("op", *args, "-p", "tinygrad")
    assert done.exit_code == 1, done.output
    assert done.output.startswith("refused:") and want in done.output


@pytest.mark.parametrize(
    ("args", "want"),
    [
        # Tensor.ones(2, dtype=dtypes.uint8) + 300 -> uint8 (300 wraps to 44, never checked)
        (("+", "uint8", "int:300"), "uint8"),
        (("*=", "int8", "int:18446744073709551616"), "int8"),
        # uint8 << -1 -> uint8 (-1 wraps to 255, a positive count)
        (("<<", "uint8", "int:-1"), "uint8"),
        # int64 >> (2**63 - 1) -> int64: a right shift folds any positive count
        ((">>", "int64", "int:9223372036854775807"), "int64"),
        # int64 << 2**32 -> int64 (the 2**32-bit fold succeeds)
        (("<<", "int64", "int:4294967296"), "int64"),
        # int16 << 2**31 -> int16 (2**31 wraps to 0 in int16)
        (("<<", "int16", "int:2147483648"), "int16"),
        # Tensor.ones(2, dtype=dtypes.float32) ** -1 -> float32
        (("**", "float32", "int:-1"), "float32"),
    ],
)
def test_a_value_tinygrad_wraps_gives_the_types_answer(run, args, want):
    done = run("op", *args, "-p", "tinygrad")
    assert done.exit_code == 0, done.output
    assert done.output.strip() == want


def test_a_count_whose_fold_depends_on_memory_is_not_answered(run):
    # int64 << 2**40 folds vmin << 2**40 in Python ints: MemoryError or not as memory allows
    done = run("op", "<<", "int64", "int:1099511627776", "-p", "tinygrad")
    assert done.exit_code == 1
    assert "not answered" in done.output
