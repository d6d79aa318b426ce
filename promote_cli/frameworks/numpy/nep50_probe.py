"""Run under NumPy 1.24-1.26 (``nep50.measure`` sends this file's text to another interpreter;
it imports nothing of promote): each cell of NEP 50's diff asked in the three promotion states
``np._set_promotion_state`` knows, ``legacy``, ``weak`` and ``weak_and_warn``.

Reads from stdin a JSON list of operands, each ``[category, dtype, value]`` (category ``D`` a
dimensioned array, ``S`` a 0-d array, ``N`` a NumPy scalar, ``P`` a Python scalar; ``value``
tagged ``["int", "300"]``, ``["float", "inf"]``, ``["complex", re, im]``, ``["bool", true]``),
and writes a JSON object: NumPy's version and, per state, the answer of every ordered pair
(rows then columns) and the warnings it emitted.

A cell is what ``promote pair A B`` answers: ``np.result_type(a, b)``'s dtype, refused when it
raises, or when ``a + b`` raises on real operands (a Python int that does not fit, an object
array NumPy 1.x makes of a Python int beyond uint64). Its warnings are those of ``a + b``, the
user's code, when NumPy is asked (an operand is not a Python scalar); those of
``np.result_type`` for two Python scalars (which Python adds itself).
"""

import json
import sys
import warnings


def _value(tagged):
    kind = tagged[0]
    if kind == "int":
        return int(tagged[1])
    if kind == "float":
        return float(tagged[1])
    if kind == "complex":
        return complex(float(tagged[1]), float(tagged[2]))
    return bool(tagged[1])


def _name(np, dt):
    if dt.kind == "O":
        raise TypeError(f"NumPy made an object array (dtype {dt}), not a number type")
    platform = {np.dtype(np.longdouble): "longdouble", np.dtype(np.clongdouble): "clongdouble"}
    return platform.get(dt, dt.name)


def _refused(exc):
    return f"refused: {type(exc).__name__}: {exc}"


def cell(np, a, b):
    """(answer, warning texts) of one cell in the current promotion state."""
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        try:
            answer = _name(np, np.result_type(a["rt"], b["rt"]))
        except Exception as exc:  # NumPy's refusals are of several types
            answer = _refused(exc)
    if a["python"] and b["python"]:
        return answer, [f"{w.category.__name__}: {w.message}" for w in said]
    with warnings.catch_warnings(record=True) as said, np.errstate(all="ignore"):
        warnings.simplefilter("always")
        try:
            _name(np, np.asarray(a["op"] + b["op"]).dtype)
        except Exception as exc:
            answer = _refused(exc)
    return answer, [
        f"{w.category.__name__}: {w.message}"
        for w in said
        if not issubclass(w.category, RuntimeWarning)  # an overflow to inf
    ]


def operand(np, spec):
    category, dtype, tagged = spec
    value = _value(tagged)
    if category == "P":
        return {"rt": value, "op": value, "python": True}
    dt = np.dtype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if category == "D":
            return {"rt": dt, "op": np.ones(2, dt), "python": False}
        held = np.array(value, dt)
    scalar = held if category == "S" else held[()]
    return {"rt": scalar, "op": scalar, "python": False}


def main():
    import numpy as np

    specs = json.load(sys.stdin)
    before = np._get_promotion_state()
    out = {"version": np.__version__, "states": {}}
    try:
        for state in ("legacy", "weak", "weak_and_warn"):
            np._set_promotion_state(state)
            ops = [operand(np, s) for s in specs]
            answers, warned = [], []
            for i, a in enumerate(ops):
                row = []
                for j, b in enumerate(ops):
                    answer, texts = cell(np, a, b)
                    row.append(answer)
                    warned += [[i, j, t] for t in texts]
                answers.append(row)
            out["states"][state] = {"answers": answers, "warnings": warned}
    finally:
        np._set_promotion_state(before)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
