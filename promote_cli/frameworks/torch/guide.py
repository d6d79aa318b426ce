"""PyTorch: its rows in the guide's tables (``promote_cli.framework.Guide``)."""

from promote_cli.framework import Guide

GUIDE = Guide(
    source="`torch.promote_types` / `result_type` (torch 2.13)",
    kind="table + category rules",
    reproduces=(
        "`torch.promote_types` and `torch.result_type` (torch 2.13; 2.14 and 2.15 measured apart)"
    ),
    operands="`D(t)`, `S(t)`, Python `P(bool)`, `int`, `float`, `complex`",
    nary="the n-ary elementwise ops (`torch.addcmul(a, b, c)`): categories over all operands",
    chain=(
        "a fold; the intermediate is dimensioned when an input was, else 0-d: `int32 "
        "S(complex128) bfloat16` is complex64 at once, complex128 as a chain"
    ),
    asked=(
        "`torch.promote_types` for two dimensioned operands; `torch.result_type` on tensors of "
        "shape `(1,)` / `()` and Python scalars otherwise"
    ),
    tried="`release`: the installed torch's only",
    options=(
        (
            "release",
            (
                "the torch release answered, as measured on its CPU wheel: `2.13` (2.13.0, the "
                "pinned and tested version), `2.14` (2.14.1: bcomplex32, which a bfloat16 tensor "
                "with a lower-category complex scalar gives, with almost no kernel) or `2.15` "
                "(2.15.0: also `maximum`/`minimum` of uint16/32/64); `true` is the newest, there "
                "is no `false`; `promote verify` asks the installed release"
            ),
        ),
    ),
)
