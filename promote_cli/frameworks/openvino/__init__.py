"""OpenVINO: the ``ConvertPromoteTypes-14`` operation, ordered rules with attributes
(``promotion.py``)."""

from promote_cli.framework import Framework
from promote_cli.notations import Column
from promote_cli.options import Option

# Every element type ConvertPromoteTypes knows: those it promotes, the rest, and dynamic.
ELEMENT_TYPES = (
    *("bool", "uint1", "uint4", "uint8", "uint16", "uint32", "uint64"),
    *("int4", "int8", "int16", "int32", "int64"),
    *("float8_e4m3fn", "float8_e5m2", "bfloat16", "float16", "float32", "float64"),
    *("uint2", "uint3", "uint6", "nf4", "float4_e2m1fn", "float8_e8m0fnu", "string", "dynamic"),
)

FRAMEWORK = Framework(
    name="openvino",
    title="OpenVINO",
    source="ConvertPromoteTypes-14 (spec and src/core/src/op/convert_promote_types.cpp)",
    version="2026.4.1",
    notation="openvino",
    column=Column(
        "openvino",
        "OpenVINO",
        "OpenVINO element types: kind letter + size in bits",
        labels="""
bool            boolean
int4            i4
int8            i8
int16           i16
int32           i32
int64           i64
uint1           u1
uint2           u2
uint4           u4
uint8           u8
uint16          u16
uint32          u32
uint64          u64
float4_e2m1fn   f4e2m1
float8_e4m3fn   f8e4m3
float8_e5m2     f8e5m2
float8_e8m0fnu  f8e8m0
bfloat16        bf16
float16         f16
float32         f32
float64         f64
uint3           u3
uint6           u6
nf4
string
dynamic
""",
        # OpenVINO IR files name precisions FP16, FP32 (<port precision="FP16">).
        aliases="""
float16  fp16
float32  fp32
float64  fp64
bool     bool
""",
    ),
    options=(
        Option(
            "promote_unsafe",
            "bool",
            False,
            "allow bit-widening, u64 x signed and lossy promotions (else they raise)",
        ),
        Option(
            "pytorch_scalar_promotion",
            "bool",
            False,
            "a 0-d input of the same kind takes the dimensioned input's type",
        ),
        Option(
            "u64_integer_promotion_target",
            "dtype",
            "float32",
            "result of u64 with a signed integer (promote_unsafe=true); any element type",
            choices=ELEMENT_TYPES,
        ),
    ),
    install="openvino",
    in_extra=True,
    operations="the OpenVINO specification defines how two element types promote, not what any"
    " operation returns",
)
