"""tinygrad: ``least_upper_dtype`` over ``promo_lattice``, a lattice with a tie-break
(``promotion.py``)."""

from promote_cli.framework import Framework
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
)
