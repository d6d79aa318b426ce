"""MLX: ``mlx.core``'s promotion, JAX's lattice with weak bounds materialised
(``promotion.py``)."""

from promote_cli.framework import Condition, Expressions, Framework
from promote_cli.notations import Column

FRAMEWORK = Framework(
    name="mlx",
    title="MLX",
    source="mlx.core.add / mlx.core.result_type (MLX 0.32.4), measured on CPU",
    version="0.32.4",
    notation="mlx",
    prefixes=("mlx.core", "mx"),
    column=Column(
        "mlx",
        "MLX",
        "MLX's dtype names (mlx.core.int8, mlx.core.bool_), the canonical names",
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
bfloat16
float16
float32
float64
complex64
""",
        aliases="bool bool_",
    ),
    install="mlx[cpu]",
    in_extra=True,
    expressions=Expressions(
        namespaces=("mx", "mlx.core"),
        aliases=(
            ("power", "pow"),
            ("left_shift", "bitwise_left_shift"),
            ("arctan2", "atan2"),
            ("cumsum", "cumulative_sum"),
        ),
        checked=True,
        # every array and Python scalar is read as truth values.
        where=Condition(
            measured="MLX 0.32.4, 2026-12-07",
        ),
        # mx.sum and mx.prod of a 0-d array return it, no accumulator (MLX 0.32.4: a 0-d
        # int8's sum is int8, a vector's int32)
        keeps_0d=("sum", "prod"),
    ),
)
