"""MindSpore: ``mindspore.ops.add`` (PyNative, CPU), a table with scalar rules
(``promotion.py``)."""

from promote_cli.framework import Condition, Expressions, Framework
from promote_cli.notations import Column

FRAMEWORK = Framework(
    name="mindspore",
    title="MindSpore",
    source="mindspore.ops.add (MindSpore 2.10.0, PyNative, CPU), measured; the aclnn table",
    version="2.10.0",
    notation="mindspore",
    prefixes=("mindspore", "ms"),
    column=Column(
        "mindspore",
        "MindSpore",
        "MindSpore's dtype names (mindspore.float16, printed Float16); its aliases byte,"
        " ubyte, short, ushort, intc, uintc, long, intp, uintp, half, single, double, cfloat,"
        " cdouble are read too",
        labels="""
bool
int8
int16
int32
int64
uint8
uint16
uint32
uint64
float8_e4m3fn
float8_e5m2
bfloat16
float16
float32
float64
complex64
complex128
""",
        # MindSpore prints Float32, UInt16 ...: case folding reads those; its float8 names are
        # aliases.
        aliases="""
bool           bool_
int8           byte
uint8          ubyte
int16          short
uint16         ushort
int32          intc
uint32         uintc
int64          long intp
uint64         uintp
float16        half
float32        single
float64        double
complex64      cfloat
complex128     cdouble
float8_e4m3fn  Float8E4M3FN
float8_e5m2    Float8E5M2
""",
    ),
    install="mindspore",
    in_extra=True,
    expressions=Expressions(
        namespaces=("mindspore.ops", "ops", "Tensor"),
        checked=True,
        # ops.where is the Select kernel, which has none for another condition.
        where=Condition(
            dtypes=("bool",),
            raises="TypeError: Select CPU operator[Select] fail! Unsupported data type!",
            scalars=(),
            scalar=(
                'TypeError: Failed calling Select with "Select()(condition=..., input=Tensor,'
                ' other=Tensor)"'
            ),
            measured="MindSpore 2.10.0, 2026-12-07",
        ),
        # MindSpore 2.10: float16_tensor * 0-d float64 tensor is float16 (float64 with a
        # 2 x 2 one), int8_tensor * 0-d int32 tensor has no CPU Mul kernel; the same for / and
        # their functions and updates; + - // % ** and the comparisons promote as with arrays
        scalar_ops=("*", "/", "multiply", "divide", "*=", "/="),
        scalar_ops_why="MindSpore's * and / take a 0-d tensor as a scalar (float16_tensor *"
        " 0-d float64 tensor is float16), which its operations' rules, measured on 1-d"
        " tensors, do not model",
    ),
)
