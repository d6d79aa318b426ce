"""PaddlePaddle: the eager ``x + y`` (``phi/common/type_promotion.h``), a table with category
rules (``promotion.py``)."""

from promote_cli.framework import Condition, Expressions, Framework
from promote_cli.notations import Column

FRAMEWORK = Framework(
    name="paddle",
    title="PaddlePaddle",
    source="phi/common/type_promotion.h and the eager x + y (Paddle 3.3.1, CPU), measured",
    version="3.3.1",
    notation="paddle",
    prefixes=("paddle",),
    column=Column(
        "paddle",
        "PaddlePaddle",
        "PaddlePaddle's dtype names (paddle.float16); short, long, half, double, cfloat,"
        " cdouble are read too. paddle.uint16 prints as bfloat16 in Paddle; here uint16 is"
        " uint16",
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
        aliases="""
int16       short
int64       long
float16     half
float64     double
complex64   cfloat
complex128  cdouble
""",
    ),
    install="paddlepaddle",
    in_extra=True,
    expressions=Expressions(
        namespaces=("paddle",),
        aliases=(
            ("true_divide", "divide"),
            ("mod", "remainder"),
            ("bitwise_not", "bitwise_invert"),
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
        # paddle.where.
        where=Condition(
            dtypes=("bool",),
            raises="ValueError: The `condition` is expected to be a boolean Tensor",
            scalars=(),
            scalar="AttributeError: a Python scalar has no attribute 'shape'",
            measured="Paddle 3.3.1, 2026-12-07",
        ),
        no_literals=(
            "a literal may be an integer tensor's exponent, and Paddle's integer pow never"
            " returns for some (x ** -1): a program cannot be timed out of its worker, so its"
            " valued operations are checked cell by cell instead, each power in a forked copy"
        ),
    ),
)
