"""OpenVINO: its rows in the guide's tables (``promote_cli.framework.Guide``)."""

from promote_cli.framework import Guide

GUIDE = Guide(
    source="`ConvertPromoteTypes-14`: the spec and `convert_promote_types.cpp`",
    kind="ordered rules",
    reproduces=(
        "`ConvertPromoteTypes-14` as the spec and `convert_promote_types.cpp` define it (OpenVINO "
        "2026.4), its attributes as options"
    ),
    operands="`D(t)`, `S(t)` (with `pytorch_scalar_promotion`); no Python scalars",
    nary="no n-ary function: the fold a graph of pairwise nodes computes",
    chain="the same fold (the sum of two 0-d inputs is 0-d)",
    asked=(
        "a real `opset14.convert_promote_types` node on `Parameter`s of shape `[]` (`S`) or `[2]` "
        "(`D`); its output element type, or the error it raises"
    ),
    tried="`promote_unsafe` x `pytorch_scalar_promotion` x 26 targets",
    options=(
        (
            "promote_unsafe",
            (
                "allow bit-widening, `u64 x signed` and lossy promotions; when false they are "
                "refused, and the refusal says what `true` would give"
            ),
        ),
        (
            "pytorch_scalar_promotion",
            (
                "a 0-d input `S(t)` of the same kind as a dimensioned input takes the dimensioned "
                "input's type"
            ),
        ),
        (
            "u64_integer_promotion_target",
            "the result of `u64` with a signed integer (with `promote_unsafe=true`)",
        ),
    ),
)
