"""The short names of Huawei CANN's aclnn mutual type-deduction table (``s8`` = int8, ``c32`` =
complex32) and its ``aclDataType`` enum names: the notation of the ``ascend`` policy, and the
spelling in which both Ascend's table and MindSpore's (the aclnn table with one difference) are
stored."""

from promote_cli.notations import Column

COLUMN = Column(
    "ascend",
    "Ascend",
    "Huawei Ascend aclnn short forms (s8 = int8, c32 = complex32) and ACL_* enum names",
    labels="""
bool
int8        s8
int16       s16
int32       s32
int64       s64
uint8       u8
uint16      u16
uint32      u32
uint64      u64
bfloat16    bf16
float16     f16
float32     f32
float64     f64
complex32   c32
complex64   c64
complex128  c128
""",
    # aclDataType's enum names.
    aliases="""
float32     acl_float
float16     acl_float16
float64     acl_double
bfloat16    acl_bf16
int8        acl_int8
uint8       acl_uint8
int16       acl_int16
uint16      acl_uint16
int32       acl_int32
uint32      acl_uint32
int64       acl_int64
uint64      acl_uint64
bool        acl_bool
complex32   acl_complex32
complex64   acl_complex64
complex128  acl_complex128
""",
)
