"""TensorFlow: the new type promotion (``flexible_dtypes``), a lattice with weak types
(``promotion.py``)."""

from promote_cli.framework import (
    NAME_ATTRIBUTE,
    Condition,
    DTypeObjects,
    Expressions,
    Framework,
    MeasuredApart,
)
from promote_cli.notations import Column
from promote_cli.options import Option

FRAMEWORK = Framework(
    name="tensorflow",
    title="TensorFlow",
    source="flexible_dtypes (TensorFlow 2.21) and the TF-NumPy type promotion guide",
    version="2.21.0",
    notation="tensorflow",
    prefixes=("tf", "tensorflow"),
    dtype_objects=(DTypeObjects("tensorflow", NAME_ATTRIBUTE),),  # tf.float16
    column=Column(
        "tensorflow",
        "TensorFlow",
        "TensorFlow's type-promotion guide: kind + bits (b = bool, i8 = int8, c128 ="
        " complex128); i32*, i64*, f32*, f64*, c128* are weak types (Python scalars,"
        " WeakTensors)",
        labels="""
bool         b
int8         i8
int16        i16
int32        i32
int64        i64
uint8        u8
uint16       u16
uint32       u32
uint64       u64
bfloat16     bf16
float16      f16
float32      f32
float64      f64
complex64    c64
complex128   c128
string
int32*       i32*
int64*       i64*
float32*     f32*
float64*     f64*
complex128*  c128*
""",
        # TensorFlow's own source names bool _b8.
        aliases="bool b8",
    ),
    options=(
        Option(
            "mode",
            "choice",
            "all",
            "dtype_conversion_mode: all, safe (refuses precision loss and bit-widening), or"
            " legacy (TF-NumPy's np.result_type, before the new type promotion)",
            choices=("all", "safe", "legacy"),
        ),
        Option(
            "ml_dtypes",
            "release",
            "0.7",
            "the release of ml_dtypes installed beside TensorFlow (its bfloat16 is ml_dtypes'):"
            " np.result_type, which tnp's arithmetic and mode=legacy call, answers as that"
            " release makes NumPy answer",
            choices=("0.6", "0.7"),
            package="ml_dtypes",
        ),
        Option(
            "function",
            "bool",
            False,
            "whether the operation runs inside tf.function (its tensors traced, Python scalars"
            " constants of the trace) rather than eagerly: a Python int's conversion differs"
            " there",
        ),
    ),
    # ml_dtypes 0.6's legacy answers are measured apart, with TensorFlow 2.21.0 and ml_dtypes
    # 0.6.0 (the entry's own set has 0.7.0's); verify asks the installed release.
    # function=true, every operation traced (several times an eager call's cost), is measured
    # apart too, with TensorFlow 2.21.0 and ml_dtypes 0.7.0, beside the entry's set.
    measured_apart=(
        MeasuredApart(option="ml_dtypes", value="0.6", version="2.21.0"),
        MeasuredApart(option="function", value=True, version="2.21.0"),
    ),
    install="tensorflow-cpu",
    in_extra=True,
    expressions=Expressions(
        namespaces=("tnp", "tf.experimental.numpy", "tf"),
        aliases=(
            ("power", "pow"),
            ("absolute", "abs"),
            ("true_divide", "divide"),
            ("mod", "remainder"),
            ("bitwise_not", "bitwise_invert"),
            ("arctan2", "atan2"),
            ("amax", "max"),
            ("cumsum", "cumulative_sum"),
        ),
        checked=True,
        # every array and Python scalar is read as truth values.
        where=Condition(
            measured="TensorFlow 2.21.0 (tnp.where), 2026-12-07",
        ),
        # int8_tensor + 1.5 is a float64* WeakTensor: its rules' Python-scalar operand
        weak_tensors=True,
        # NumPy behaviour gives tf.Tensor .mean() and .max(), not .sum(), .prod() or .argmax()
        methods=("mean", "max"),
        # tf.ones makes no string tensor (its operations are checked apart, on ["a", "a"])
        unrun=("string",),
    ),
)
