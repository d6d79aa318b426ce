"""tinygrad: ``least_upper_dtype`` over ``promo_lattice``, a lattice with a tie-break
(``promotion.py``)."""

from promote_cli.framework import Condition, Expressions, Framework
from promote_cli.notations import Column

FRAMEWORK = Framework(
    name="tinygrad",
    title="tinygrad",
    source="tinygrad.dtype.promo_lattice / least_upper_dtype (tinygrad 0.14.0)",
    version="0.14.0",
    notation="tinygrad",
    prefixes=("tinygrad.dtypes", "dtypes"),
    column=Column(
        "tinygrad",
        "tinygrad",
        "tinygrad's dtypes: canonical names, fp8e4m3 (= float8_e4m3fn, OCP E4M3FN), fp8e5m2,"
        " fp8e4m3fnuz, fp8e5m2fnuz; its C aliases char, uchar, short, ushort, uint (uint32),"
        " long, ulong, half, double are read; weakint and weakfloat are int* and float*",
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
float8_e4m3fn    fp8e4m3
float8_e4m3fnuz  fp8e4m3fnuz
float8_e5m2      fp8e5m2
float8_e5m2fnuz  fp8e5m2fnuz
bfloat16
float16
float32
float64
""",
        # tinygrad also calls int32 ``int`` and float32 ``float``: those two words stay
        # promote's Python scalars. Its ``uint`` is uint32 where NumPy's is uint64.
        aliases="""
int8     char
uint8    uchar
int16    short
uint16   ushort
uint32   uint
int64    long
uint64   ulong
float16  half
float64  double
int*     weakint
float*   weakfloat
""",
    ),
    install="tinygrad",
    in_extra=True,
    expressions=Expressions(
        # tinygrad's functions are Tensor's methods (Tensor.add(x, y), x.add(y)); tinygrad
        # 0.14.0 has none at its top level
        namespaces=("Tensor",),
        # each one measured hasattr(Tensor, name), and the array API's name measured absent
        aliases=(
            ("sub", "subtract"),
            ("mul", "multiply"),
            ("div", "divide"),
            ("mod", "remainder"),
            ("eq", "equal"),
            ("lshift", "bitwise_left_shift"),
            ("neg", "negative"),
            ("bitwise_not", "bitwise_invert"),
            ("cumsum", "cumulative_sum"),
        ),
        checked=True,
        # cond.where(x, y).
        where=Condition(
            dtypes=("bool",),
            raises="RuntimeError: where cond must be bool",
            scalars=(),
            scalar=(
                "AttributeError: a Python scalar has no attribute 'ufix' (where is a tensor's"
                " method)"
            ),
            measured="tinygrad 0.14.0, 2026-12-07",
        ),
        # tinygrad 0.14.0: .T of a 0-d tensor or a row raises IndexError (list index out of
        # range); x[0] of a matrix is a row; a 0-d tensor's sum accumulates as a matrix's
        transpose="tinygrad's .T of a tensor that is not a matrix raises IndexError",
        # floor(bool_tensor) is a weakint tensor, and weakint + int8 is int8; its sum int32
        weak_arrays=True,
        # int32_tensor ** int32_tensor computes in float inside the graph and casts to int32:
        # realised, ~(that) fails ("UOp verification failed ... Ops.XOR dtypes.float"), that +
        # int32_tensor too, that + 1 does not
        # float_tensor & int_tensor is built lazily, as float, and refused when its value is
        # read ("UOp verification failed ... Ops.AND dtypes.float"), int8_tensor & 1.5 (float*)
        # too, and so is 1 << int32_tensor (int*); a float shift is refused as it is built
        # ("shift operands must be int"), as is an update that does not fit
        realised=(
            *((op, "refuses", "+") for op in ("&", "|", "^")),
            *((op, "refuses", "+=") for op in ("&=", "|=", "^=")),
            ("bitwise_and", "refuses", "add"),
            ("~x", "refuses", "-x"),
            ("bitwise_invert", "refuses", "negative"),
            *((op, "special", "") for op in ("<<", ">>", "<<=", ">>=", "bitwise_left_shift")),
        ),
        float_inside=("pow", "**", "**="),
        float_inside_why="tinygrad computes a pow of two integer tensors in float inside its"
        " graph: whether realising a graph that holds one fails depends on the operations"
        " around it, which promote does not model",
    ),
)
