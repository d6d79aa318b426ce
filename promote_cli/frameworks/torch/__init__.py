"""PyTorch: ``torch.promote_types`` and ``torch.result_type``'s categories (``promotion.py``)."""

from promote_cli.framework import (
    PRINTED,
    Condition,
    DTypeObjects,
    Expressions,
    Framework,
    MeasuredApart,
)
from promote_cli.notations import Column
from promote_cli.options import Option

# The torch releases measured (CPU wheels), oldest first. 2.13 (2.13.0) is the default, the
# entry's own measured set and the version the tests pin (constraints.txt); 2.14 (2.14.1) and
# 2.15 (2.15.0) are measured apart (``measured/release-2.14``, ``measured/release-2.15``).
RELEASES = ("2.13", "2.14", "2.15")

FRAMEWORK = Framework(
    name="torch",
    title="PyTorch",
    source="torch.promote_types / torch.result_type (torch 2.13, c10 promoteTypes)",
    version="2.13.0",
    notation="torch",
    prefixes=("torch",),
    dtype_objects=(DTypeObjects("torch", PRINTED),),  # torch.float16
    column=Column(
        "torch",
        "PyTorch",
        "PyTorch's dtype names (torch.float16 is float16, torch.complex32 is complex32); its"
        " aliases half, double, long, short, cfloat, cdouble, chalf are read too",
        labels="""
bool
int1
int2
int4
int8
int16
int32
int64
uint1
uint2
uint4
uint8
uint16
uint32
uint64
float8_e4m3fn
float8_e4m3fnuz
float8_e5m2
float8_e5m2fnuz
float8_e8m0fnu
bfloat16
float16
float32
float64
complex32
complex64
complex128
bcomplex32
uint3
uint6
int3
int5
int6
int7
uint5
uint7
float4_e2m1fn_x2
""",
    ),
    options=(
        Option(
            "release",
            "release",
            "2.13",
            "the torch release answered, as measured on its CPU wheel: 2.13 (the default, the"
            " pinned and tested version), 2.14 (bcomplex32: a bfloat16 tensor with a complex"
            " scalar of a lower category) or 2.15 (also maximum and minimum of uint16/32/64)",
            choices=RELEASES,
            package="torch",
        ),
    ),
    # verify asks the installed release; 2.14's and 2.15's answers are their own sets.
    measured_apart=(
        MeasuredApart(option="release", value="2.14", version="2.14.1"),
        MeasuredApart(option="release", value="2.15", version="2.15.0"),
    ),
    install="torch",
    expressions=Expressions(
        namespaces=("torch",),
        aliases=(
            ("absolute", "abs"),
            ("true_divide", "divide"),
            ("fmod", "remainder"),
            ("bitwise_not", "bitwise_invert"),
            ("arctan2", "atan2"),
            ("amax", "max"),
            ("cumsum", "cumulative_sum"),
            ("neg", "negative"),
            ("mul", "multiply"),
            ("sub", "subtract"),
            ("div", "divide"),
            ("eq", "equal"),
            ("lt", "less"),
        ),
        checked=True,
        # a uint8 condition is still taken.
        where=Condition(
            dtypes=("bool", "uint8"),
            raises="RuntimeError: where expected condition to be a boolean tensor",
            scalars=(),
            scalar="TypeError: where() received an invalid combination of arguments",
            measured="torch 2.13.0, 2026-12-07",
        ),
    ),
)
