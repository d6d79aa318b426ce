"""What a framework declares about itself: its registry entry.

Each directory ``promote_cli/frameworks/<name>/`` holds one framework: its entry
(``__init__.py``: a ``Framework``, plain data), its promotion rules (``promotion.py``), its
operation rules (``operations.py``), its oracle (``oracle.py``), its measurements
(``measured/``) and its rows in the guide's tables (``guide.py``: a ``Guide``). The registry
(``promote_cli.frameworks``) is the list of those directories; the command line's help,
``--policy`` choices, notations, the documentation set, the guide's tables and ``promote
verify`` all read the entries, and nothing else lists frameworks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promote_cli.notations import CANONICAL, Column
from promote_cli.options import Option
from promote_cli.record import Record

# How a framework's dtype objects carry their name (``promote_cli.promote(np.float16, ...)``),
# recognised by the module their type comes from, never by importing the framework.
CLASS_NAMED = "class"  # a scalar type named after its dtype: np.float16, jnp.int8
NAME_ATTRIBUTE = "name"  # an object whose .name is the dtype's: np.dtype("f2"), tf.float16
PRINTED = "str"  # an object that prints as module.name: torch.float16


class DTypeObjects(Record):
    module: str  # the top-level module their type comes from
    how: str  # CLASS_NAMED, NAME_ATTRIBUTE or PRINTED


class MeasuredApart(Record):
    """Option settings measured apart from the entry's own set: those with ``option`` at
    ``value``, measured on another version (NumPy's ``promotion=legacy``, which only NumPy 1.x
    has) or too costly to ask with every other setting (TensorFlow's ``function=true``: every
    operation traced). Their measurements are their own set (``measured/<option>-<value>/``,
    a bool spelled ``true``) naming ``version``; ``promote verify`` and ``promote measure`` ask
    them only when ``-O option=value`` pins them (usually with ``--python`` naming an
    environment that has that version)."""

    option: str
    value: str | bool
    version: str
    # A module of the framework's directory that also measures, in the framework's own states,
    # every cell of ``promote diff`` between the default and this setting: its ``measure(python,
    # operands)`` runs after ``promote measure -O option=value --python`` (numpy: ``nep50``,
    # NumPy 1.26's legacy, weak and weak_and_warn); "" when there is none.
    states: str = ""

    @property
    def directory(self) -> str:
        value = str(self.value).lower() if isinstance(self.value, bool) else self.value
        return f"{self.option}-{value}"


class Condition(Record):
    """What ``where(condition, x1, x2)`` takes as its condition, measured by running it with a
    condition of every type, 2-d and 0-d, and a Python bool, int, float and complex
    (``measured``: the release and the date): the dtypes of an array condition it takes (None:
    every dtype, read as truth values), and what it raises at another (``raises``, the
    framework's words); the kinds of Python scalar condition it takes, and what it raises at
    another (``scalar``). Only ``x1`` and ``x2`` promote; the condition decides no type."""

    dtypes: tuple[str, ...] | None = None
    raises: str = ""
    scalars: tuple[str, ...] = ("bool", "int", "float", "complex")
    scalar: str = ""
    measured: str = ""


class Tensors(Record):
    """The arrays a framework's functions take and return under one setting of its option
    ``Expressions.tensors_option``, where it has no array type of its own (Keras 3: each
    backend's tensors). Their operators, reduction methods, ``.astype(T)``, ``.T`` and indexing
    are the backend's own: answered by ``policy``'s rules under ``options`` (``("x64",
    False)``) where those are exactly what the tensors do, after the measured facts below; not
    answered where promote has no rules for them (``operators`` says why).

    ``value``: the option's value (``"jax"``); ``astype``, ``transpose``: why ``x.astype(T)``
    and ``.T`` raise ("" when they are ``policy``'s); ``methods``: the reduction methods the
    tensors have (None: ``policy``'s; each other one raises AttributeError); ``absent``: the
    operators they lack, which raise TypeError whatever the operands (``<<``); ``mixed``: the
    binary operators that raise for two tensors of different dtypes, ``mixed_why`` why
    (TensorFlow without NumPy behaviour); ``one_dtype``: whether ``policy``'s rules hold only for
    operators of tensors of one dtype; ``scalars``: where a binary operator makes its Python
    scalar a tensor of the other operand's dtype (TensorFlow), the dtypes each kind of scalar
    (``bool``, ``int``, ``float``, ``complex``) is made (another raises, ``scalars_why`` says
    why), ``int_ranges`` the dtypes that take an int only in ``[lo, hi)`` (the others any int),
    ``scalar_unanswered`` the (operator, dtype) pairs where that was not measured to hold;
    ``operators``: why the operators
    promote does not answer by ``policy`` are not answered; ``unrun``: the types the framework
    makes no tensor of there (a name bound to one raises, saying ``unrun_why``; no random
    program binds one); ``where``: the conditions ``where`` takes of them, where they are not
    the framework's own (:class:`Condition`)."""

    value: str
    policy: str = ""
    options: tuple[tuple[str, Any], ...] = ()
    astype: str = ""
    transpose: str = ""
    methods: tuple[str, ...] | None = None
    absent: tuple[str, ...] = ()
    mixed: tuple[str, ...] = ()
    mixed_why: str = ""
    one_dtype: bool = False
    scalars: tuple[tuple[str, tuple[str, ...]], ...] = ()
    int_ranges: tuple[tuple[str, int, int], ...] = ()
    scalars_why: str = ""
    scalar_unanswered: tuple[tuple[str, str], ...] = ()
    operators: str = ""
    unrun: tuple[str, ...] = ()
    unrun_why: str = ""
    where: Condition | None = None


class Expressions(Record):
    """What ``promote expr`` reads of code written for a framework, and whether it answers it.

    ``namespaces``: the module names its functions are called through (``np``, ``numpy``);
    ``aliases``: its own names of the array API's functions (``("power", "pow")``: NumPy's
    ``np.power`` is the array API's ``pow``), each one it has; ``checked``: whether random
    programs run by the framework itself agree with ``promote expr`` node by node
    (``tests/commands/test_expr.py``); a framework not checked is refused as a column.
    ``partial_index``: why indexing a matrix with fewer indices than it has dimensions
    (``x[0]``) raises, when it does ("" when it gives a row); ``keeps_0d``: the reductions
    that return a 0-d array as it is, in its own dtype (MLX's ``sum`` of a 0-d int8 array is
    int8, of a vector int32); ``complex_cast``: why ``x.astype(T)`` of a complex array to a
    type that is not complex raises, when it does ("" when it casts); ``transpose``: why ``.T``
    of an array that is not a matrix (0-d, a row) raises, when it does ("" when it is the
    array); ``unrun``: the types no name of a random program is bound to, because the
    framework cannot make an array of them, or makes another type for them (their operations
    are checked apart, by ``promote verify``); ``weak_tensors``: whether an operation whose
    rules give a weak type returns an array that is weakly typed, of any shape, which its rules
    name as the Python-scalar operand of that type (TensorFlow's WeakTensor: ``int8_tensor +
    1.5`` is a ``float64*`` WeakTensor of shape 2 x 2); ``methods``: the reduction methods
    its arrays have, of ``.sum()``, ``.mean()``, ``.max()``, ``.prod()`` and ``.argmax()``
    (None: all five; each one measured present with hasattr): calling another raises
    AttributeError; ``scalar_ops``: the operations that take a 0-d array as a scalar, which
    its operations' rules (measured on arrays of one shape) do not model: a node of one of
    them with a 0-d operand is not answered, saying ``scalar_ops_why``; ``no_literals``: why
    its random programs carry no literal, where its operations take values ("" when they do;
    its valued operations are checked cell by cell by ``promote verify``); ``weak_arrays``:
    whether an operation whose rules give a weak type returns an array of that weak type,
    which later operations promote as the weak type (tinygrad's ``dtypes.weakint`` tensor:
    ``floor(bool_tensor) + int8_tensor`` is int8), but a reduction, which returns the weak
    type's default (``(int8_tensor + 1.5).sum()`` is float32); ``weak_kept``: whether a
    one-operand function that is not a reduction keeps a weakly typed array's flag, its result
    weakly typed of the type its rules give (JAX's lax functions carry ``weak_type``:
    ``square(int32_array - uint64_array)`` is a weak float64 array, which a float8_e5m2 array
    takes as it takes a Python float; ``sum`` drops the flag); ``float_inside``: the
    operations of two arrays that compute an integer result in float inside a lazy graph,
    whose realisation fails or not with the operations around them: a node of one of them
    whose answer is bool or an integer is not answered, saying ``float_inside_why``;
    ``realised``: the refusals the framework makes only when its lazy graph is realised, as
    ``(operation, decided_by, built)``: the operation's refusal decided by its rule's
    ``decided_by`` (``refuses``, ``special``) builds an array of the dtype ``built`` answers
    (another operation, or "" for its left operand's dtype), and the line goes on; it raises
    where the code realises it, after the line is built, at the first such node (a node that
    raises as it is built raises first); ``tensors_option``, ``tensors``: where the
    framework has no array type of its own, the option naming whose tensors its functions
    return (``backend``) and those tensors under each of its values (:class:`Tensors`);
    ``where``: the conditions its ``where`` takes (:class:`Condition`)."""

    namespaces: tuple[str, ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()
    checked: bool = False
    partial_index: str = ""
    keeps_0d: tuple[str, ...] = ()
    complex_cast: str = ""
    transpose: str = ""
    unrun: tuple[str, ...] = ()
    weak_tensors: bool = False
    methods: tuple[str, ...] | None = None
    scalar_ops: tuple[str, ...] = ()
    scalar_ops_why: str = ""
    no_literals: str = ""
    weak_arrays: bool = False
    weak_kept: bool = False
    float_inside: tuple[str, ...] = ()
    float_inside_why: str = ""
    realised: tuple[tuple[str, str, str], ...] = ()
    tensors_option: str = ""
    tensors: tuple[Tensors, ...] = ()
    where: Condition = Condition()

    def tensors_under(self, opts: Mapping[str, Any]) -> Tensors | None:
        """The tensors the framework's functions return under ``opts`` (None: it has arrays
        of its own)."""
        if not self.tensors_option:
            return None
        value = opts[self.tensors_option]
        return next(t for t in self.tensors if t.value == value)


class Guide(Record):
    """A framework's rows in the guide's tables (``docs/guide/*.md``), in Markdown: written
    beside its rules, in ``guide.py`` (``GUIDE``), and read by ``docs/figures.py``, which
    writes each table with a row per framework of the registry. Only what the registry does
    not already say is here: its name, notation, options' defaults and oracle come from its
    entry.

    ``source``: where its rules come from, as the policies page says it; ``kind``: how they
    are declared (``lattice``, ``table + scalar rules``); ``reproduces``: what it reproduces,
    with the versions; ``operands``: the operands it distinguishes (``D(t)``, ``S(t)``,
    Python scalars); ``options``: each option's meaning, ``(name, meaning)`` in the entry's
    order, every option once; ``nary``, ``chain``: how it answers ``promote pair A B C``
    (its own n-ary function) and ``--chain`` (the binary operator, step by step); ``asked``:
    what ``promote verify`` asks the framework, ``tried``: the option settings it tries (""
    for a framework without an oracle: its entry says why)."""

    source: str
    kind: str
    reproduces: str
    operands: str
    nary: str
    chain: str
    asked: str = ""
    tried: str = ""
    options: tuple[tuple[str, str], ...] = ()


# NumPy's names of the array API's functions, which ``jax.numpy`` copies (each one measured
# present in both: ``hasattr(np, "power")``).
NUMPY_SPELLINGS = (
    ("power", "pow"),
    ("absolute", "abs"),
    ("true_divide", "divide"),
    ("mod", "remainder"),
    ("fmod", "remainder"),
    ("bitwise_not", "bitwise_invert"),
    ("invert", "bitwise_invert"),
    ("left_shift", "bitwise_left_shift"),
    ("arctan2", "atan2"),
    ("amax", "max"),
    ("cumsum", "cumulative_sum"),
)


class Framework(Record):
    name: str  # the policy's name on the command line: ``--policy array-api``
    title: str  # how prose names it: "Array API standard"
    source: str  # where the rules come from, one line
    version: str  # the version its rules were measured on ("" when nothing runs it here)
    notation: str  # the notation its policy reads and prints (its own column's, or canonical)
    prefixes: tuple[str, ...] = ()  # module prefixes a user may paste: np.float16, torch.half
    dtype_objects: tuple[DTypeObjects, ...] = ()  # its dtype objects the Python API reads
    column: Column | None = None  # the notation it contributes, when it has one of its own
    dialect: str = ""  # a column whose reader its notation reads first ("numpy": np.dtype())
    options: tuple[Option, ...] = ()
    install: str = ""  # what ``pip install`` names for its oracle ("tensorflow-cpu")
    in_extra: bool = False  # whether the ``conformance`` extra installs it
    oracle: str = ""  # why it has no oracle ("" when it has one: ``oracle.py``)
    operations: str = ""  # why it declares no operations ("" when it does: ``operations.py``)
    measured_apart: tuple[MeasuredApart, ...] = ()  # settings measured apart (MeasuredApart)
    # Other packages whose release the measurements depend on, (distribution, version), where
    # no option names it: Keras's NumPy backend converts with ml_dtypes (its bfloat16).
    measured_with: tuple[tuple[str, str], ...] = ()
    expressions: Expressions = Expressions()  # what ``promote expr`` reads of its code

    @property
    def declared_in(self) -> Column:
        """The column its rules are written in: its own, or the canonical names."""
        return self.column or CANONICAL

    @property
    def package(self) -> str:
        """Its directory's module path: ``promote_cli.frameworks.array_api``."""
        return f"promote_cli.frameworks.{self.name.replace('-', '_')}"
