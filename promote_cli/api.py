"""The Python API, and the one place where what a user typed becomes objects.

``request`` resolves names once: the policy object, the notation, the options parsed in that
notation, the operands read in it. Everything below (render, compare, graph, npy, verify) takes
the resulting ``Request`` and never looks a name up again. ``promote``, ``promote_many`` and
``matrix`` are the library's entry points; the CLI builds its ``Request`` with the same
``request``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from promote_cli import frameworks
from promote_cli.engine import Matrix, Outcome, Policy
from promote_cli.engine import matrix as _matrix
from promote_cli.errors import PromotionError, UsageError
from promote_cli.notations import Notation, read_dtype
from promote_cli.operands import NUMPY_SCALAR, PYTHON, Operand, label, parse
from promote_cli.options import format_options
from promote_cli.record import Record

if TYPE_CHECKING:
    from promote_cli.asked import Asked
    from promote_cli.evaluation import Question

# What a spelling may be besides a string: a dtype object (np.float16, torch.bfloat16 ...).
DTypeLike = Any
_PYTHON_TYPES = {bool: "bool", int: "int*", float: "float*", complex: "complex*"}


class Request(Record):
    """One question, resolved: ``operands`` None means the policy's default table; ``asked``
    the operation(s) asked about (``--op``), None for the promotion itself."""

    policy: Policy
    notation: Notation
    options: Mapping[str, Any]  # every option of the policy, parsed
    operands: tuple[Operand, ...] | None = None
    chain: bool = False  # the chain question, ((a + b) + c), rather than result_type
    asked: Asked | None = None

    def outcome(self) -> Outcome:
        """The answer for the operands: the framework's own n-ary ``result_type``, or with
        ``chain`` the left-associated binary operators ``((a + b) + c)`` on real arrays; with
        an operation, its output."""
        if self.asked is not None:
            return self.explain()[0]
        if self.operands is None:
            raise UsageError("no operands were given")
        if self.chain:
            return self.policy.chain(self.operands, self.options)
        return self.policy.result_type(self.operands, self.options)

    def explain(self) -> tuple[Outcome, Outcome | None]:
        """The operation's output for the operands, and the promotion it started from (None
        when it was refused before promoting)."""
        if self.asked is None:
            raise UsageError("no operation was asked")
        if self.operands is None:
            raise UsageError("no operands were given")
        return self.asked.answer(self.operands, self.options)

    def cell(self, a: Operand, b: Operand) -> Outcome:
        """One cell of the request's table: ``a`` x ``b`` promoted as ``promote pair`` answers
        them (a valued Python scalar checked), or the operation's output."""
        if self.asked is not None:
            return self.asked.cell(a, b, self.options)
        return self.policy.pair(a, b, self.options)

    def table_operands(self) -> tuple[Operand, ...]:
        """The operands a table asks about: those given, else the operation's or the policy's
        whole set."""
        if self.operands is not None:
            return self.operands
        return self.policy.operands() if self.asked is None else self.asked.operands()

    def matrix(self, asked: Sequence[Operand] | None = None) -> Matrix:
        """Every pair of ``asked`` (default: the operands, else the policy's default table); a
        table of one-operand operations has one row per operation instead."""
        if self.asked is not None and self.asked.rows:
            from promote_cli.asked import row_matrix

            cols = asked if asked is not None else self.table_operands()
            return row_matrix(self.asked, cols, self.options, self.policy)
        ops = asked if asked is not None else self.operands
        if ops is None:
            ops = tuple(Operand.of(t) for t in self.policy.default_types)
        return _matrix(self.policy, ops, ops, self.options, self.cell)

    def beside(self, other: Policy) -> Request:
        """The same question asked of ``other`` at its default options, in this notation."""
        asked = None if self.asked is None else bind(other, self.asked.spec)
        return Request(other, self.notation, other.resolve_options(), self.operands, False, asked)

    def options_text(self) -> str:
        """``x64=true, strict=false``: every option, dtypes in the request's notation."""
        return format_options(self.policy.options, self.options, self.notation)

    def changed_options(self) -> list[str]:
        """``NAME=VALUE`` for each option not at its default, as ``-O`` reads it back."""
        return [
            f"{o.name}={o.text(self.options[o.name], self.notation)}"
            for o in self.policy.options
            if self.options[o.name] != o.default
        ]

    def command(self, verb: str, *head: str, tail: Sequence[str] = ()) -> str:
        """The command line that asks this request again: ``promote VERB --policy P HEAD
        [--types ...] [--notation N] [-O NAME=VALUE ...] TAIL``. Names are spelled as promote
        prints them, so two ways of typing one request give one line."""
        words = ["promote", verb, "--policy", self.policy.spelling, *head]
        if self.asked is not None:
            words += ["--op", self.asked.spec]
        if self.operands is not None:
            words += [
                "--types",
                ",".join(label(op, self.notation, plain=True) for op in self.operands),
            ]
        if self.notation != frameworks.notation_of(self.policy):
            words += ["--notation", self.notation.name]
        for setting in self.changed_options():
            words += ["-O", setting]
        return " ".join(map(shell_quote, [*words, *tail]))


def shell_quote(word: str) -> str:
    """``word`` as a POSIX shell reads it back, always on one line: ``shlex.quote``, or for a
    word with a control character or a ``>`` (a file name with a newline, or ``-->``, which would
    end the header comment an html or Markdown table starts with) bash's ``$'...'`` with those
    characters as ``\\xNN`` escapes."""
    import shlex  # tables only: a pair or an op does not pay for it

    if word.isprintable() and ">" not in word:
        return shlex.quote(word)
    body = "".join(_ansi_c(ch) for ch in word)
    return f"$'{body}'"


def shell_split(line: str) -> list[str]:
    """The words of a command line :func:`shell_quote` wrote (``$'...'`` included); raises
    ``ValueError`` for an unbalanced quote. (A word holding ``$'`` itself may be split wrongly:
    the caller then sees another command, never a wrong equality.)"""
    import shlex

    plain = re.sub(
        _ANSI_C,
        lambda m: shlex.quote(
            m.group(1).encode("latin-1", "backslashreplace").decode("unicode_escape")
        ),
        line,
    )
    return shlex.split(plain)


_ANSI_C = r"\$'((?:[^'\\]|\\.)*)'"  # compiled by ``re`` on first use, as few runs need it


def _ansi_c(ch: str) -> str:
    if ch in "\\'":
        return "\\" + ch
    if ch == ">" or (ord(ch) < 0x100 and not ch.isprintable()):
        return f"\\x{ord(ch):02x}"
    return ch if ch.isprintable() else repr(ch)[1:-1]  # \u202e ...


def request(
    policy: str | Policy = "jax",
    *,
    notation: str | Notation | None = None,
    options: Mapping[str, Any] | None = None,
    operands: Sequence[DTypeLike] | None = None,
    chain: bool = False,
    op: str | None = None,
) -> Request:
    """Resolve a question once: the policy by name or TOML file (``resolve``), the notation
    (default: the policy's own), the options and the operand spellings both read in that
    notation. An operand may also be a dtype object of NumPy, ml_dtypes, PyTorch, JAX or
    TensorFlow, or Python's ``int``, ``float``, ``complex`` or ``bool`` (a Python scalar); a
    Python scalar with its value is spelled ``"int:300"``. ``chain`` asks the chain question
    (see ``promote_many``). With ``op`` (an operation of ``promote_cli.vocabulary``) the policy is
    seen through that operation: each answer is the operation's output dtype; a list of
    one-operand operations (``"sqrt,exp,sum"``, ``"unary"``, ``"reductions"``) makes a table
    with one row per operation (``tablemodel.build``, ``compare.diff``) and answers no single
    question. ``op`` and ``chain`` together are a usage error: an operation answers one call,
    not a chain."""
    if op is not None and chain:
        raise UsageError(
            f"the chain question asks about ((a + b) + c) with the + operator; op {op!r} asks"
            f" about one {op} call: ask one of them"
        )
    pol = resolve(policy) if isinstance(policy, str) else policy
    asked = None if op is None else bind(pol, op, len(operands) if operands else 0)
    if isinstance(notation, Notation):
        nota = notation
    else:
        nota = frameworks.notation(notation) if notation else frameworks.notation_of(pol)
    opts = pol.resolve_options(options, nota)
    ops = None
    if operands is not None:
        ops = tuple(_operand(x, nota) for x in operands)
    return Request(pol, nota, opts, ops, chain, asked)


def bind(policy: Policy, spec: str, operands: int = 0) -> Asked:
    """The operations ``spec`` names, as ``policy`` declares them (``-`` given one of
    ``operands`` is unary minus); a refusal when it declares none
    (``frameworks.operations``)."""
    from promote_cli.asked import Asked, canonical_spec, named

    found = named(spec, operands)
    return Asked(canonical_spec(spec), found, frameworks.operations(policy))


def resolve(name: str) -> Policy:
    """The policy ``name`` stands for: a built-in by name, or the policy a TOML file declares
    when the name is a path (``./mine.toml``, ``docs/policy.toml``)."""
    if frameworks.looks_like_file(name):
        from pathlib import Path

        from promote_cli import policyfile

        return policyfile.load(Path(name))
    return frameworks.get(name)


def _operand(given: DTypeLike, nota: Notation) -> Operand:
    """``given`` as an operand: a spelling read in ``nota``, or a framework's dtype object.

    Dtype objects are recognised by the package their class, or a class it derives from, comes
    from and the name they carry, never by importing the framework (asking ``import torch`` of
    a user who passed a NumPy dtype would cost seconds): a NumPy dtype, an ml_dtypes one
    included, has ``.name`` (``float16``, ``bfloat16``); a scalar type of NumPy, ml_dtypes or
    ``jax.numpy`` is a class named after its dtype; ``torch.float16`` prints as
    ``torch.float16``; TensorFlow's ``tf.float16`` has ``.name``."""
    if isinstance(given, Operand):
        return given
    if isinstance(given, str):
        return parse(given, nota)
    if isinstance(given, type) and given in _PYTHON_TYPES:
        return Operand(_PYTHON_TYPES[given], PYTHON)
    name = _dtype_name(given)
    if name is None:
        if isinstance(given, (bool, int, float, complex)):
            # promote(np.uint8, 300): a Python value is an operand spelled with its kind.
            from promote_cli.operands import value_text

            kind = type(given).__name__
            bare = "P(bool)" if kind == "bool" else kind  # bool alone is the dtype
            raise UsageError(
                f"{given!r} is a Python {kind} value, not a dtype: spell it"
                f" '{kind}:{value_text(given)}' (that value, checked as the framework's"
                f" operation checks it) or '{bare}' (a Python {kind} that fits)"
            )
        if hasattr(given, "dtype") and hasattr(given, "shape"):
            raise UsageError(f"an array ({type(given).__name__}) is not a dtype: pass its .dtype")
        raise UsageError(
            f"cannot read {given!r} ({type(given).__name__}) as a dtype: give a name"
            " ('float16'), a NumPy or ml_dtypes dtype or scalar type, a torch, jax or"
            " tensorflow dtype, or int, float, complex, bool"
        )
    try:
        return Operand.of(read_dtype(name, frameworks.notation("canonical")))
    except UsageError:
        raise UsageError(
            f"{given!r} is a dtype promote does not know ({name}{_made_by(given)})"
        ) from None


def _dtype_name(given: Any) -> str | None:
    """The canonical-style name a framework's dtype object carries, or None: each framework's
    entry says how its objects carry it (``Framework.dtype_objects``)."""
    from promote_cli.framework import CLASS_NAMED, NAME_ATTRIBUTE, PRINTED

    is_class = isinstance(given, type)
    owner = given if is_class else type(given)
    # The packages of its class and of the classes it derives from: an object is read by what
    # it is, whoever made its class. np.dtype(ml_dtypes.bfloat16) is a numpy.dtype whose class
    # NumPy made (numpy.dtype[bfloat16]) up to ml_dtypes 0.6, and ml_dtypes made from 0.7.
    roots = {str(getattr(c, "__module__", "")).partition(".")[0] for c in _bases(owner)}
    for entry in frameworks.entries():
        for way in entry.dtype_objects:
            if way.module not in roots or is_class != (way.how == CLASS_NAMED):
                continue
            if way.how == CLASS_NAMED:
                return given.__name__
            if way.how == NAME_ATTRIBUTE:
                name = getattr(given, "name", None)
                if isinstance(name, str):
                    return name
            if way.how == PRINTED and str(given).startswith(f"{way.module}."):
                return str(given)
    return None


def _made_by(given: Any) -> str:
    """``, from ml_dtypes 0.7.0``: the package and version of the scalar type a dtype object
    stands for (a NumPy dtype's ``.type``), when it says one (a type newer than promote's
    catalogue: ml_dtypes 0.7's float8_e5m3fnu). The package is imported already."""
    import sys

    scalar = getattr(given, "type", None)
    scalar = scalar if isinstance(scalar, type) else given if isinstance(given, type) else None
    package = str(getattr(scalar, "__module__", "")).partition(".")[0]
    version = getattr(sys.modules.get(package), "__version__", None)
    return f", from {package} {version}" if isinstance(version, str) else ""


def _bases(owner: Any) -> tuple[Any, ...]:
    """``owner`` and the classes it derives from (itself alone when it has no MRO to read)."""
    mro = getattr(owner, "__mro__", None)
    return tuple(mro) if isinstance(mro, tuple) else (owner,)


def neighbour(policy: Policy, given: str | None) -> Policy | None:
    """The policy a table compares ``policy`` with: ``given`` by name, ``"none"`` for nothing,
    None for the policy's own documentation's choice (JAX's page compares with NumPy)."""
    if given is None:
        return frameworks.get(policy.compared_with) if policy.compared_with else None
    given = given.strip()
    return None if given.lower() == "none" else resolve(given)


def compared(req: Request, given: str | None) -> Request | None:
    """The same question asked of the policy a table of ``req`` compares with (``neighbour``),
    at its default options; None when it compares with nothing. A policy's documentation
    compares its promotion table only: an operation's table is compared when one is named."""
    if given is None and req.asked is not None:
        return None
    other = neighbour(req.policy, given)
    return None if other is None else req.beside(other)


def outcome(
    spellings: Sequence[DTypeLike],
    *,
    policy: str = "jax",
    notation: str | None = None,
    chain: bool = False,
    **options: Any,
) -> Outcome:
    """The outcome (result or refusal) of the operands: the policy's n-ary ``result_type``, or
    with ``chain`` its left-associated binary operators (see ``promote_many``)."""
    req = request(policy, notation=notation, options=options, operands=spellings, chain=chain)
    return req.outcome()


def promote(
    a: DTypeLike,
    b: DTypeLike,
    *,
    policy: str = "jax",
    notation: str | None = None,
    op: str | None = None,
    **options: Any,
) -> str:
    """The canonical name ``a`` and ``b`` promote to under ``policy``; with ``op`` (a binary
    operation such as ``"divide"``, or ``"where"`` with its two value operands) the dtype that
    operation returns (a comparison: ``bool``).

    ``a`` and ``b`` are spellings (``"f16"``, ``"S(int8)"``, ``"float"``) or dtype objects
    (``np.float16``, ``np.dtype("f2")``, ``ml_dtypes.bfloat16``, ``torch.bfloat16``,
    ``jnp.int8``, ``tf.float16``; ``float`` for a Python scalar). Weak results are ``int*``,
    ``float*``, ``complex*``. Raises ``PromotionError`` when the
    policy refuses, ``UsageError`` (a ``ValueError``) for an unknown name or option.
    """
    return promote_many([a, b], policy=policy, notation=notation, op=op, **options)


def promote_many(
    spellings: Sequence[DTypeLike],
    *,
    policy: str = "jax",
    notation: str | None = None,
    chain: bool = False,
    op: str | None = None,
    **options: Any,
) -> str:
    """Like ``promote`` for two or more operands. Two questions, which differ:

    - default: the framework's own n-ary function, all operands at once (``np.result_type``,
      NumPy's sequence algorithm, not a fold; ``jnp.result_type``, the lattice's least upper
      bound; torch's n-ary elementwise ops such as ``torch.addcmul(a, b, c)`` ...), or the
      left fold of pairs it computes where it has none (Paddle's ``+``, a graph of OpenVINO's
      nodes): each framework's ``guide.py`` says which (docs/guide/pair.md's table).
    - ``chain=True``: left-associated binary operators on real arrays, ``((a + b) + c)``: each
      step is the binary operator, two Python scalars meet in Python first (``True + True`` is
      the int 2), the intermediate is an array (0-d only when every input so far was; weakly
      typed in JAX, Keras on JAX, TensorFlow and tinygrad when the step's result is), and
      operator refusals count
      (TensorFlow's ``uint8 + True``, array-api's ``+`` on bool arrays).

    A valued Python scalar (``"int:300"``, ``"float:1e300"``) is refused where the
    framework's operation raises for it, in both questions. The reason of a refusal is
    worded in ``notation``.

    With ``op``, a third question: the dtype that operation returns,
    ``promote_many(["int8"], op="sqrt")`` for a unary operation or a reduction (``argmax``: its
    index dtype), two operands for a binary one. A cell the framework's CPU has no kernel for
    still gets the dtype rule's answer (its ``Outcome.rule`` is ``no-kernel``: see
    ``promote_cli.vocabulary``). ``op`` takes no ``chain``; it takes a valued Python scalar in every
    binary operation, operator and augmented assignment (``Operations.values``, measured),
    checked as the operation's rule says (``Rule.value``); in a one-operand operation or
    ``where``, a value is a usage error (not measured)."""
    req = request(
        policy, notation=notation, options=options, operands=spellings, chain=chain, op=op
    )
    out = req.outcome()
    if out.result is None:
        raise PromotionError(out.text(req.notation), rule=out.rule, unsafe_result=out.unsafe_result)
    return out.result


def matrix(
    policy: str,
    types: Sequence[DTypeLike] | None = None,
    *,
    notation: str | None = None,
    **options: Any,
) -> Matrix:
    """The table of ``types`` x ``types`` (default: the policy's default table)."""
    return request(policy, notation=notation, options=options, operands=types).matrix()


def expr_request(
    code: str,
    bindings: Mapping[str, Any],
    policies: Sequence[str | Policy],
    options: Mapping[str, Any] | None = None,
) -> Question:
    """Resolve ``promote expr``'s question: the code parsed, each binding read as an operand
    (``"int8"``, ``"S(int8)"``, a dtype object), each policy with the options that are its.
    An option ``NAME`` goes to every policy that has it (one none has is a usage error);
    ``POLICY:NAME`` to that policy only."""
    from promote_cli.evaluation import Column, Question, checked
    from promote_cli.program import parse

    program = parse(code)
    nota = frameworks.notation("canonical")
    bound = {}
    for name, given in bindings.items():
        if not name.isidentifier():
            raise UsageError(f"{name!r} is not a Python name: bind names as x=int8")
        x = bound[name] = _operand(given, nota)
        if x.category == NUMPY_SCALAR or (x.value is not None and x.category != PYTHON):
            raise UsageError(
                f"{name}={given}: bind an array (x=int8), a 0-d array (x=S(int8)) or a Python"
                " scalar (n=int, n=int:300); a NumPy scalar or a held value is not modelled here"
            )
    unused = [n for n in program.reads if n not in bound]
    if unused:
        raise UsageError(f"{unused[0]} is not bound: give {unused[0]}=TYPE (x=int8, x=S(int8))")
    pols = [resolve(p) if isinstance(p, str) else p for p in policies]
    if not pols:
        raise UsageError("name a policy: -p numpy,torch")
    answered = checked()
    for pol in pols:
        if pol.name in answered:
            continue
        why = (
            "the arrays an expression passes from node to node are not checked against the"
            " framework yet (promote op answers each operation)"
        )
        try:
            frameworks.operations(pol)
        except PromotionError as exc:  # nothing to answer a node with (OpenVINO, a policy file)
            why = str(exc)
        raise UsageError(f"promote expr answers {', '.join(answered)}: under {pol.name}, {why}")
    given = dict(options or {})
    mine: list[dict[str, Any]] = [{} for _ in pols]
    for key, value in given.items():
        who, sep, name = str(key).rpartition(":")
        owners = [
            i
            for i, p in enumerate(pols)
            if (not sep or who in (p.name, p.spelling)) and name in {o.name for o in p.options}
        ]
        if not owners:
            where = who if sep else "none of " + ", ".join(p.name for p in pols)
            raise UsageError(f"-O {key}: {where} has no option {name!r} (see `promote policies`)")
        for i in owners:
            mine[i][name] = value
    columns = []
    for pol, opts in zip(pols, mine, strict=True):
        resolved = pol.resolve_options(opts, nota)
        changed = tuple(
            f"{o.name}={o.text(resolved[o.name], nota)}"
            for o in pol.options
            if resolved[o.name] != o.default
        )
        columns.append(Column(pol, resolved, changed))
    return Question(program, bound, tuple(columns))


def expr_steps(
    code: str, bindings: Mapping[str, DTypeLike], policy: str | Policy = "numpy", **options: Any
) -> list[Any]:
    """Every node of ``code`` (Python source: expressions, assignments, ``x += ...``) under
    ``policy``, with each name bound to an operand (``{"x": "int8", "w": "S(uint8)"}``), in
    evaluation order: ``promote_cli.evaluation.Step`` records (the node, the operand it gives, the
    operation's outcome). The evaluation stops at a node that raises: its step holds the
    refusal and no operand, the steps after it neither."""
    question = expr_request(code, bindings, [policy], options)
    return question.answers()[0]


def expr(
    code: str, bindings: Mapping[str, DTypeLike], policy: str | Policy = "numpy", **options: Any
) -> str:
    """The dtype ``code``'s final value has under ``policy`` (names bound as in
    :func:`expr_steps`): ``"float32"``; a Python scalar result is spelled as promote reads it
    (``"P(int)"``). A node that raises is a ``PromotionError`` naming it; a node promote does
    not answer under ``policy`` (a literal's value its operation is not checked with) a
    ``UsageError``.

    >>> expr("x / 2 + w.sum()", {"x": "int8", "w": "uint8"}, policy="torch")
    'float32'
    """
    from promote_cli.evaluation import unanswered

    question = expr_request(code, bindings, [policy], options)
    steps = question.answers()[0]
    nota = frameworks.notation("canonical")
    for step in steps:
        if step.operand is None and step.outcome is not None:
            node = step.node
            if unanswered(step):  # promote does not answer it: not the framework's refusal
                where = f"line {node.line}, column {node.column}"
                raise UsageError(f"{where}: {step.outcome.text(nota)}")
            raise PromotionError(
                f"{' '.join(node.text.split())} (line {node.line}, column {node.column}):"
                f" {step.outcome.text(nota)}",
                rule=step.outcome.rule,
            )
    final = steps[question.program.final].operand
    assert final is not None
    return label(final, nota, plain=True) if final.category == PYTHON else final.dtype
