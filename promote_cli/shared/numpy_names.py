"""NumPy's type codes (``b1``, ``i8`` int64, ``c8`` complex64, ``g`` longdouble), in which its
table is written, and the releases of ml_dtypes whose answers with NumPy were measured. The
numpy policy's notation is this column with NumPy's own reader (``np.dtype()``'s spellings,
``promote_cli/frameworks/numpy/spellings.py``)."""

from promote_cli.notations import Column

# The releases of ml_dtypes measured with NumPy 2.4.6 (``ml_dtypes-<release>.json``; 0.5 is
# 0.5.4, the last of the 0.5 series), oldest first; ``-O ml_dtypes=true`` is the newest. The
# older ones are measured apart (``measured/ml_dtypes-0.5``, ``measured/ml_dtypes-0.6``).
ML_RELEASES = ("0.5", "0.6", "0.7")

COLUMN = Column(
    "numpy",
    "NumPy type codes",
    "NumPy type codes: kind letter + item size in bytes (c8 = complex64, g = longdouble)",
    labels="""
bool         b1
int8         i1
int16        i2
int32        i4
int64        i8
uint8        u1
uint16       u2
uint32       u4
uint64       u8
float16      f2
float32      f4
float64      f8
longdouble   g
complex64    c8
complex128   c16
clongdouble  G
""",
    aliases="bool ?",
)
