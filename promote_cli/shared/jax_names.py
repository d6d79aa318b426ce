"""JAX's names of its types: its byte notation (``i8`` is int64, ``c8`` complex128; ``i*``,
``f*``, ``c*`` the weak types), in which JAX's lattice is declared (``jax_lattice``) and the
jax policy reads and prints."""

from promote_cli.notations import Column

COLUMN = Column(
    "jax",
    "JAX",
    "JAX's byte notation: kind letter + size in bytes (complex: bytes per component);"
    " i*, f*, c* are weakly typed Python scalars",
    labels="""
bool        b1
int8        i1
int16       i2
int32       i4
int64       i8
uint8       u1
uint16      u2
uint32      u4
uint64      u8
bfloat16    bf
float16     f2
float32     f4
float64     f8
complex64   c4
complex128  c8
int*        i*
float*      f*
complex*    c*
""",
    # The prose of JAX's page writes signed integers with an "s".
    aliases="""
int8   s1
int16  s2
int32  s4
int64  s8
""",
)
