"""``promote pair``: one question, answered in the policy's notation."""

from __future__ import annotations

import sys

import click

from promote_cli import api, fit
from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK, Command, _options, _several
from promote_cli.engine import worded
from promote_cli.errors import UsageError
from promote_cli.notations import display
from promote_cli.operands import inner, label


@click.command("pair", cls=Command)
@click.argument("operands", nargs=-1, required=True, metavar="A B [C ...]")
@_options.several_policies
@_options.policy_file
@_options.options
@_options.notation
@_options.as_json
@click.option(
    "--chain",
    is_flag=True,
    help="Answer ((A + B) + C) on real arrays instead of the framework's n-ary result_type.",
)
@click.option(
    "--explain", is_flag=True, help="Say which rule decided, and why (each step of a chain)."
)
def command(operands, policy, policy_file, option_values, notation, as_json, chain, explain) -> int:
    """Promote A and B, or more operands. Two questions, which differ for three
    or more:

    \b
    default  the framework's own promotion function, all operands at once
             (np.result_type, NumPy's sequence algorithm; jnp.result_type;
             torch's n-ary ops such as addcmul(a, b, c) ...), or the left
             fold of pairs it computes where it has none (paddle's +, a
             graph of openvino nodes): the guide's pair page says each.
    --chain  ((A + B) + C) with the binary operator on real arrays: two
             Python scalars add in Python first, the intermediate is an
             array (weak in jax, keras on jax, tensorflow and tinygrad when
             the step's result is), operator refusals count.

    An operand is a dtype (f16, bfloat16, i8 ...), S(t) for a 0-d tensor, D(t)
    for a dimensioned one, or a Python scalar: int, float, complex, P(bool);
    with its value int:300, float:1e300, complex:1j, bool:true (refused where
    the framework's operation raises for that value); N(t) a NumPy scalar, and
    S(t)=300 / N(t)=300 with a value (numpy: -O promotion=legacy casts by value).
    Prints the result; a refusal prints its reason and exits 1. With several
    policies (-p numpy,torch,jax or -p all), a row each, in the canonical
    notation; -O x64=true,false adds a row per value; exits 1 if any refuses.
    """
    if len(operands) < 2:
        raise UsageError("pair needs two operands, e.g. promote pair f16 bf16")
    several = _several.named(policy) if policy_file is None else None
    if several is not None:
        return _rows(several, operands, option_values, notation, as_json, chain, explain)
    given, policy = policy, _options.chosen(policy, policy_file)
    req = api.request(
        policy,
        notation=notation,
        options=_options.parse_options(option_values),
        operands=operands,
        chain=chain,
    )
    final = req.outcome()
    _options.say_default(given, policy_file)
    nota = req.notation
    read = req.operands
    assert read is not None, "a pair request always holds its operands"

    if as_json:
        from promote_cli import schema

        click.echo(schema.dumps(_body(req, operands, final)), nl=False)
        return EXIT_DIFFERENT if final.refused else EXIT_OK

    misread = [
        f"{s} as {op.dtype}"
        for s, op in zip(operands, read, strict=True)
        if nota.family.ambiguous(inner(s))
    ]
    if misread:
        where = f"{nota.name} notation{', ' + nota.reader_title if nota.reader_title else ''}"
        note = f"note: read {', '.join(misread)} ({where})"
        click.echo("\n".join(fit.wrap(note, fit.terminal_width(sys.stderr))), err=True)
    if explain:
        _say(f"policy: {req.policy.name} ({req.options_text() or 'no options'})")
        asked = (" + " if chain else " x ").join(label(op, nota) for op in read)
        verdict = "refused" if final.refused else _result(final, nota)
        _say(f"{asked} -> {verdict}")
        for number, step in enumerate(final.steps, 1):
            _say(f"step {number}: {worded(step, nota)}")
        _say(f"rule: {final.rule}: {final.text(nota)}")
        return EXIT_DIFFERENT if final.refused else EXIT_OK
    if final.refused:
        _say(f"refused: {final.text(nota)}")
        return EXIT_DIFFERENT
    _say(_result(final, nota))
    return EXIT_OK


def _rows(names, operands, option_values, notation, as_json, chain, explain) -> int:
    """``-p numpy,torch`` or ``-p all``: a row per policy and option setting."""
    if explain:
        raise UsageError("--explain says why one policy answered: name one with -p")

    def ask(pol, options, nota):
        req = api.request(pol, notation=nota, options=options, operands=operands, chain=chain)
        return req, req.outcome()

    found = _several.rows(names, option_values, notation, ask)
    asked = (" + " if chain else " x ").join(operands)
    return _several.report("pair", asked, found, as_json, lambda r: _body(r.req, operands, r.out))


def _body(req, spellings, final) -> dict:
    """One request's ``--json`` object: its head, its operands and the outcome."""
    from promote_cli import schema

    nota = req.notation
    inputs = [
        {"spelling": s, **schema.operand(op, nota)}
        for s, op in zip(spellings, req.operands, strict=True)
    ]
    body = {**schema.head("pair", req), "operands": inputs, **schema.outcome(final, nota)}
    if req.chain:
        body["steps"] = [worded(step, nota) for step in final.steps]
    return body


def _result(out, nota) -> str:
    """``f8 (float64)``; a weak result says what it becomes: ``f* (weak; float64 with x64)``."""
    text = display(out.result, nota)
    return f"{text} ({out.weak_note()})" if out.weak_note() else text


def _say(line: str) -> None:
    """One line of the answer; on a terminal, broken at word boundaries to fit it (a long
    reason or explanation), whole when piped."""
    click.echo("\n".join(fit.wrap(line, fit.terminal_width(sys.stdout))))
