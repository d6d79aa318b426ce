"""Write the numpy policy's ``ml_dtypes`` tables from the installed NumPy and ml_dtypes.

With ml_dtypes imported NumPy holds its types (bfloat16, float8_*, int4 ...) as legacy user
DTypes, and two of NumPy's answers about them are not derived from anything promote can see
without NumPy: ``np.result_type``'s pair cells (which casts ml_dtypes registers as safe) and
what real ``a + b`` gives (the ufunc's loop search, which differs from ``result_type`` and
depends on the order of the operands). So the policy's rules for them are two tables, taken
from NumPy over every ordered pair of operands with an ml_dtypes type (NumPy's own dtypes, the
ml_dtypes ones and the Python scalars ``True``, ``1``, ``1.0``, ``1j``) and kept as the rules'
data, ``promote_cli/shared/ml_dtypes-<release>.json`` (one file per release of ml_dtypes: each
release registers its types in another order, so their legacy type numbers, kept there too, and many
answers differ), with the versions they were taken from: ``promote pair`` answers without
importing NumPy. Like any rule they are checked against the numpy measurements (``measured/``)
by the offline tests, and against the installed NumPy by a test.

Write the installed release's tables with ``python -m promote_cli.frameworks.numpy.ml_gen``
(``python -m promote_cli.regenerate`` runs it with every other generator); an older release's
from an environment that has it, ``/path/to/python -m promote_cli.frameworks.numpy.ml_gen``
with this checkout on its ``PYTHONPATH``.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

from promote_cli import atomic
from promote_cli.dtypes import CATALOGUE
from promote_cli.halftable import REFUSED

# The tables live beside NumPy's promotion, which reads them (promote_cli/shared/).
HERE = Path(__file__).resolve().parents[2] / "shared"

# How an operand is keyed in the measured tables: a dtype by its name, a Python scalar as
# promote's weak name, a Python bool as P(bool).
PYTHON_SCALARS = {"P(bool)": True, "int*": 1, "float*": 1.0, "complex*": 1j}

ML_TYPES = tuple(t.name for t in CATALOGUE.values() if t.numpy and hasattr(ml_dtypes, t.name))
RELEASE = ".".join(ml_dtypes.__version__.split(".")[:2])
FILE = HERE / f"ml_dtypes-{RELEASE}.json"
BUILTIN = tuple(
    t.name for t in CATALOGUE.values() if t.numpy and t.name not in ML_TYPES and hasattr(np, t.name)
)


def _dtype(name: str) -> Any:
    return np.dtype(getattr(ml_dtypes, name) if name in ML_TYPES else getattr(np, name))


def _name(dt: Any) -> str:
    platform = {np.dtype(np.longdouble): "longdouble", np.dtype(np.clongdouble): "clongdouble"}
    return platform.get(dt, dt.name)


def _reason(exc: TypeError) -> str:
    """NumPy's message, first sentence, each DType class named as promote names it."""
    text = str(exc).strip().splitlines()[0].split(". ")[0].rstrip(".")
    text = re.sub(r"<class 'numpy\.dtype\[(\w+)\]'>", r"\1", text)
    text = re.sub(r"<class 'numpy\.dtypes\.(\w+)DType'>", lambda m: m.group(1).lower(), text)
    return f"{type(exc).__name__}: {text}"


def _measure(fn: Callable[[Any, Any], Any], of: Callable[[str], Any]) -> list[str]:
    """``fn`` over every ordered pair with an ml_dtypes type, one line each: ``a b result``,
    or ``a b × reason`` where NumPy raised."""
    keys = (*BUILTIN, *ML_TYPES, *PYTHON_SCALARS)
    lines = []
    for a, b in itertools.product(keys, keys):
        if a not in ML_TYPES and b not in ML_TYPES:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = fn(of(a), of(b))
        except TypeError as exc:  # DTypePromotionError and UFuncTypeError are TypeErrors
            lines.append(f"{a} {b} {REFUSED} {_reason(exc)}")
            continue
        lines.append(f"{a} {b} {_name(out if isinstance(out, np.dtype) else out.dtype)}")
    return lines


def _dtype_or_value(key: str) -> Any:
    return PYTHON_SCALARS[key] if key in PYTHON_SCALARS else _dtype(key)


def _array_or_value(key: str) -> Any:
    return PYTHON_SCALARS[key] if key in PYTHON_SCALARS else np.zeros(2, _dtype(key))


def numbers() -> dict[str, int]:
    """Each ml_dtypes type and its legacy user type number (registration order)."""
    return {t: _dtype(t).num for t in ML_TYPES}


def render() -> str:
    """The tables' file: the versions, the type numbers, then ``np.result_type(a, b)`` and
    ``a + b`` on arrays of shape (2,) (a Python scalar as itself), one pair a line."""
    tables: dict[str, Any] = {
        "numpy": np.__version__,
        "ml_dtypes": ml_dtypes.__version__,
        "numbers": numbers(),
        "result_type": _measure(np.result_type, _dtype_or_value),
        "add": _measure(lambda a, b: a + b, _array_or_value),
    }
    lines = ["{"]
    for i, (key, value) in enumerate(tables.items()):
        comma = "," if i < len(tables) - 1 else ""
        if isinstance(value, (str, dict)):
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}{comma}")
            continue
        lines.append(f"  {json.dumps(key)}: [")
        lines += [f"    {json.dumps(v, ensure_ascii=False)}," for v in value]
        lines[-1] = lines[-1].rstrip(",")
        lines.append(f"  ]{comma}")
    return "\n".join([*lines, "}", ""])


def main() -> int:
    from promote_cli.frameworks.numpy import ML_RELEASES
    from promote_cli.frameworks.numpy.promotion import ML_TYPES as MODELLED

    if RELEASE not in ML_RELEASES or not set(ML_TYPES) <= set(MODELLED):
        print(
            f"ml_dtypes {ml_dtypes.__version__} is not a release the numpy policy models"
            f" ({', '.join(ML_RELEASES)}); add it to ML_RELEASES in"
            " promote_cli/frameworks/numpy/__init__.py",
            file=sys.stderr,
        )
        return 1
    text = render()
    if not FILE.exists() or FILE.read_text(encoding="utf-8") != text:
        atomic.replace_file(FILE, text.encode())
        print(f"wrote {FILE}")
    else:
        print(f"{FILE}: unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
