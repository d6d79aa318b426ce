"""Keras 3: ``keras.backend.result_type`` per backend and floatx, and ``keras.ops.add`` on each
backend for the operations and the chain (``promotion.py``); for ``promote expr``, the tensors
``keras.ops`` return on each backend (``_TENSORS``, measured: ``notes.md``)."""

from promote_cli.framework import NUMPY_SPELLINGS, Condition, Expressions, Framework, Tensors
from promote_cli.options import Option

BACKENDS = ("tensorflow", "jax", "torch", "numpy", "openvino")
FLOATX = ("float32", "float16", "bfloat16")

# The binary operators of tf.Tensor, which take two tensors of one dtype only: "*" is not among
# them (a bool tensor's * is logical_and, which takes an int8 one).
_TF_MIXED = ("+", "-", "/", "//", "%", "**", "@", "&", "|", "^", "==", "!=", "<", "<=", ">", ">=")
# What tf.Tensor's binary operators make a Python scalar (a tensor of the other operand's
# dtype), measured with every operator but << >> @ on every type, both sides, 22 values.
_TF_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_TF_FLOATS = ("bfloat16", "float16", "float32", "float64")
_TF_SCALARS = (
    ("bool", ("bool", "int32", "int64", "uint64", "float16", "float32", "float64", "complex128")),
    ("int", (*_TF_INTS, *_TF_FLOATS, "complex64", "complex128")),
    ("float", (*_TF_FLOATS, "complex64", "complex128")),
    ("complex", ("complex64", "complex128")),
)
# float16, float32, float64 and complex128 take any int; these only an int64's (uint64's)
_TF_INT_RANGES = (
    *((t, -(2**63), 2**63) for t in _TF_INTS if t != "uint64"),
    ("uint64", 0, 2**64),
    ("bfloat16", -(2**63), 2**63),
    ("complex64", -(2**63), 2**63),
)
_TENSORS = (
    # a jax.Array: Keras does not turn on x64
    Tensors("jax", "jax", (("x64", False),)),
    # a NumPy array (a NumPy scalar: a reduction's), ml_dtypes' for bfloat16 and float8
    Tensors("numpy", "numpy", (("ml_dtypes", "0.6"),)),  # measured with ml_dtypes 0.6.0
    Tensors(
        "torch",
        "torch",
        astype="torch.Tensor has no .astype() (AttributeError): cast with ops.cast",
        unrun=("uint64",),
        unrun_why="Keras makes no tensor of it on torch (ValueError)",
    ),
    # tf.Tensor without NumPy behaviour (Keras does not turn it on): its operators on two
    # tensors of one dtype are the tensorflow policy's (measured: every operator, every type)
    Tensors(
        "tensorflow",
        "tensorflow",
        astype="tf.Tensor has no .astype() (AttributeError): Keras does not turn on NumPy"
        " behaviour; cast with ops.cast",
        transpose="tf.Tensor has no .T (AttributeError): Keras does not turn on NumPy"
        " behaviour; use ops.transpose",
        methods=(),
        absent=("<<", ">>", "+x"),
        mixed=_TF_MIXED,
        mixed_why="tf.Tensor's operators take two tensors of one dtype only"
        " (InvalidArgumentError): Keras does not turn on NumPy behaviour",
        one_dtype=True,
        scalars=_TF_SCALARS,
        int_ranges=_TF_INT_RANGES,
        scalars_why="tf.Tensor's operators make a Python scalar a tensor of the other"
        " operand's dtype, or raise (Keras does not turn on NumPy behaviour)",
        # a bool tensor's * is logical_and, which makes the scalar a bool its own way
        scalar_unanswered=(("*", "bool"),),
        operators="tf.Tensor's * of a bool tensor (logical_and) and of two dtypes is not"
        " modelled: call the ops. function",
        unrun=("float8_e4m3fn", "float8_e5m2"),
        unrun_why="Keras makes no tf.Tensor of it (TypeError)",
    ),
    Tensors(
        "openvino",
        astype="OpenVINOKerasTensor has no .astype() (AttributeError): cast with ops.cast",
        transpose="OpenVINOKerasTensor has no .T (AttributeError): use ops.transpose",
        methods=(),
        absent=("<<", ">>", "+x"),
        operators="OpenVINOKerasTensor's operators align their operands' types their own"
        " way (align_operand_types), which promote does not model: call the ops. function",
        unrun=("complex64", "complex128"),
        unrun_why="Keras makes no OpenVINO tensor of it (KeyError)",
        # a Python complex has no OpenVINO constant
        where=Condition(
            scalars=("bool", "int", "float"),
            scalar="TypeError: The necessary overload for constant was not found",
            measured="Keras 3.15.1 on OpenVINO, 2026-12-07",
        ),
    ),
)

FRAMEWORK = Framework(
    name="keras",
    title="Keras 3",
    source="keras.backend.result_type; keras.ops.add per backend (Keras 3.15.1)",
    version="3.15.1",
    notation="canonical",
    prefixes=("keras",),
    options=(
        Option(
            "backend",
            "choice",
            "tensorflow",
            "KERAS_BACKEND: tensorflow (Keras's default), jax, torch, numpy or openvino",
            choices=BACKENDS,
        ),
        Option(
            "floatx",
            "choice",
            "float32",
            "keras.config.floatx(): the width of weak results (float32, float16, bfloat16)",
            choices=FLOATX,
        ),
    ),
    install="keras",
    in_extra=True,
    # its NumPy backend makes a bfloat16 array of a Python int through ml_dtypes, whose 0.7
    # takes ints 0.6 refused: measured with 0.6.0 (a live test skips with another release)
    measured_with=(("ml_dtypes", "0.6.0"),),
    expressions=Expressions(
        namespaces=("ops", "keras.ops"),
        # NumPy's spellings, but invert: keras.ops has no invert (measured: hasattr)
        aliases=tuple(a for a in NUMPY_SPELLINGS if a[0] != "invert"),
        checked=True,
        # keras.ops return the backend's tensors: their operators, methods, astype, .T and
        # indexing are the backend's (measured on each backend, notes.md).
        tensors_option="backend",
        tensors=_TENSORS,
        # every array and Python scalar is read as truth values, on every backend
        where=Condition(measured="Keras 3.15.1 on each backend, 2026-12-07"),
    ),
)
