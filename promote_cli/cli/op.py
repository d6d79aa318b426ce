"""``promote op``: the dtype one operation returns, answered in the policy's notation."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from promote_cli import api, fit
from promote_cli.api import Request
from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK, Command, _options, _several
from promote_cli.engine import Outcome
from promote_cli.errors import PromotionError, UsageError
from promote_cli.notations import display
from promote_cli.operands import label
from promote_cli.vocabulary import FUNCTION, UNARY, Operation, operation


# ``-=``, ``-x`` and ``--`` look like options to click: an unknown option is taken as an
# argument here, so operators are written as they are (a misspelt option is then refused as
# one, in ``command``).
@click.command("op", cls=Command, context_settings={"ignore_unknown_options": True})
@click.argument("name", metavar="NAME")
@click.argument("operands", nargs=-1, required=True, metavar="A [B]")
@_options.several_policies
@_options.policy_file
@_options.options
@_options.notation
@_options.as_json
@click.option("--explain", is_flag=True, help="Name the operation's rule and its promotion.")
def command(name, operands, policy, policy_file, option_values, notation, as_json, explain) -> int:
    """The dtype operation NAME returns for A (unary operations, reductions) or A and B
    (binary operations; where's two values), as the policy's framework computes it.

    \b
    promote op sqrt int8 -p numpy             # float16
    promote op divide int32 int32 -p torch    # float32
    promote op sum uint8 -p jax -O x64=false  # u4 (uint32)
    promote op mean int32 -p array-api        # refused: floating-point only
    promote op += int8 float32 -p numpy       # refused: same_kind casting
    promote op '*' bool int8 -p torch         # int8
    promote op - int8 -p jax                  # i1 (int8): unary minus

    NAME is an array API function name or a Python operator: + - * / // % ** @
    & | ^ << >> == != < <= > >=, a unary - + ~ with one operand, or an augmented
    assignment (+= -= ...; the dtype of the left name afterwards, or the
    refusal). Quote the ones your shell reads (* | ^ < > &); `promote ops` lists
    them all. Prints the output dtype; a refusal prints its reason and exits 1.
    A cell the framework has no CPU kernel for prints the dtype rule's answer
    and says so. With several policies (-p numpy,torch,jax or -p all), a row
    each, in the canonical notation; exits 1 if any refuses.
    """
    for given in (name, *operands):
        looks_like_option = given.startswith("--") or (given[:1] == "-" and given[1:2].isalpha())
        if looks_like_option and given != "-x":
            raise click.NoSuchOption(given)
    several = _several.named(policy) if policy_file is None else None
    if several is not None:
        return _rows(several, name, operands, option_values, notation, as_json, explain)
    given, policy = policy, _options.chosen(policy, policy_file)
    asking = dict(
        notation=notation, options=_options.parse_options(option_values), operands=operands
    )
    try:
        req = api.request(policy, op=name, **asking)
    except PromotionError as exc:  # a policy that declares no operations
        _options.say_default(given, policy_file)
        if not as_json:
            raise
        # The same object as an answer, its outcome the refusal (rule "no-operations").
        return _json(api.request(policy, **asking), operands, name, None, exc)
    pol, nota, asked = req.policy, req.notation, req.asked
    assert asked is not None and req.operands is not None
    out, promoted = req.explain()
    _options.say_default(given, policy_file)
    op = asked.single()
    rule = asked.rules.rule(op.name, req.options)
    if as_json:
        return _json(req, operands, op.name, rule.function, out)
    verdict = "refused" if out.refused else _result(out, nota)
    if explain:
        call = _call(op, [label(x, nota) for x in req.operands])
        _say(f"policy: {pol.name} ({req.options_text() or 'no options'})")
        if op.syntax == FUNCTION:
            _say(
                f"operation: {name} = {rule.function or 'absent'} (kind: {rule.applied_kind.value})"
            )
        else:
            called = rule.function or "absent"
            _say(f"operator: {_call(op, ['a', 'b'])} = {called} (kind: {rule.applied_kind.value})")
        if promoted is not None:
            pair = asked.rules.promotion_text(rule, op)
            start = "refused" if promoted.result is None else display(promoted.result, nota)
            ins = " x ".join(label(x, nota) for x in (req.operands * 2)[:2])
            _say(f"promotion ({pair}): {ins} -> {start} ({promoted.rule})")
        _say(f"{call} -> {verdict}")
        _say(f"rule: {out.rule}: {out.text(nota)}")
        _say(f"step: {_step(out.decided_by, rule)}")
        return EXIT_DIFFERENT if out.refused else EXIT_OK
    if out.refused:
        _say(f"refused: {out.text(nota)}")
        return EXIT_DIFFERENT
    _say(verdict)
    return EXIT_OK


def _rows(names, name, operands, option_values, notation, as_json, explain) -> int:
    """``-p numpy,torch`` or ``-p all``: a row per policy and option setting; a policy that
    declares no operations (OpenVINO, Ascend) is a row saying so."""
    if explain:
        raise UsageError("--explain says why one policy answered: name one with -p")

    def ask(pol, options, nota):
        asking = dict(notation=nota, options=options, operands=operands)
        try:
            req = api.request(pol, op=name, **asking)
        except PromotionError as exc:
            return api.request(pol, **asking), exc
        return req, req.explain()[0]

    found = _several.rows(names, option_values, notation, ask)
    asked = _call(operation(name, len(operands)), list(operands))

    def body(row):
        req, out = row.req, row.out
        function = None
        if req.asked is not None:
            function = req.asked.rules.rule(req.asked.single().name, req.options).function
        return _body(req, operands, name, function, out)

    return _several.report("op", asked, found, as_json, body)


def _json(
    req: Request,
    spellings: Sequence[str],
    op: str,
    function: str | None,
    out: Outcome | PromotionError,
) -> int:
    """``--json``: the request, the operation and its outcome (or the refusal raised)."""
    from promote_cli import schema

    body = _body(req, spellings, op, function, out)
    click.echo(schema.dumps(body), nl=False)
    return EXIT_DIFFERENT if body["refused"] else EXIT_OK


def _body(
    req: Request,
    spellings: Sequence[str],
    op: str,
    function: str | None,
    out: Outcome | PromotionError,
) -> dict:
    """One request's ``--json`` object: the request, the operation and its outcome (or the
    refusal raised)."""
    from promote_cli import schema

    assert req.operands is not None
    nota = req.notation
    answer = schema.outcome(out, nota) if isinstance(out, Outcome) else schema.raised(out)
    body = {
        **schema.head("op", req),
        "op": op,
        "function": function,
        "operands": [
            {"spelling": s, **schema.operand(x, nota)}
            for s, x in zip(spellings, req.operands, strict=True)
        ],
        **answer,
        "step": out.decided_by if isinstance(out, Outcome) else None,
    }
    return body


def _call(op: Operation, given: Sequence[str]) -> str:
    """How user code writes the call: ``divide(int32, int32)``, ``int8 += float32``, ``-int8``."""
    if op.syntax == FUNCTION:
        return f"{op.name}({', '.join(given)})"
    if op.arity == UNARY:
        return f"{op.name[0]}{given[0]}"
    return f"{given[0]} {op.name} {given[1]}"


def _step(name: str, rule) -> str:
    """``kind: the operation's kind applied ...``: the step of ``STEPS`` that decided, with
    the framework's own function it ran, if any."""
    from promote_cli.steps import STEP

    value = ", ".join(w for w in (rule.value, rule.value_special) if w)
    own = {"special": rule.special, "promote": rule.pair, "value": value}.get(name)
    return f"{name}{f' ({own})' if own else ''}: {STEP[name].says}"


def _result(out, nota) -> str:
    """``f4 (float32)``; a weak result says what it becomes, a kernel gap says it is one."""
    text = display(out.result, nota)
    if out.rule == "no-kernel":
        return f"{text} (no CPU kernel: the call raises on the CPU)"
    return f"{text} ({out.weak_note()})" if out.weak_note() else text


def _say(line: str) -> None:
    """One line of the answer; on a terminal, broken at word boundaries to fit it (a long
    reason or explanation), whole when piped."""
    click.echo("\n".join(fit.wrap(line, fit.terminal_width(sys.stdout))))
