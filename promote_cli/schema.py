"""The JSON vocabulary every command's ``--json`` (and ``table --format json``) speaks.

One object per run. Its head is ``{"schema": 1, "command": ..., "policy": ..., "notation": ...,
"options": {...}}``; inside it the same three shapes recur wherever a command has them:

- an *operand*: ``{"label", "canonical", "category"}`` (``category`` is ``D``, ``S`` or ``P``);
- an *outcome*: ``{"result", "label", "refused", "rule", "reason", "unsafe_result",
  "materialised"}``, where ``result`` is the canonical name (null when refused), ``reason`` is
  the sentence that explains the result or the refusal, worded in the run's notation, and
  ``materialised`` is, for a weak result (``float*``), the dtype it becomes as an array under
  the run's options (null otherwise);
- option values as canonical values (``true``, ``"float32"``).

``SCHEMA`` changes only when a field is renamed or removed; new fields may appear.
docs/guide/json.md documents it, and tests/commands/test_json_schema.py checks every
command against it.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from promote_cli.operands import label

if TYPE_CHECKING:
    from promote_cli.api import Request
    from promote_cli.engine import Outcome, Policy
    from promote_cli.errors import PromotionError
    from promote_cli.notations import Notation
    from promote_cli.operands import Operand

SCHEMA = 1


def head(command: str, req: Request) -> dict[str, Any]:
    """The fields every command's object starts with."""
    return {
        "schema": SCHEMA,
        "command": command,
        "policy": req.policy.name,
        "notation": req.notation.name,
        "options": dict(req.options),
    }


def operand(op: Operand, nota: Notation) -> dict[str, Any]:
    return {"label": label(op, nota, plain=True), "canonical": op.dtype, "category": op.category}


def outcome(out: Outcome, nota: Notation) -> dict[str, Any]:
    """A result or a refusal: the one shape every command gives an answer."""
    if out.refused:
        return refusal(out.rule, out.text(nota), out.unsafe_result)
    return {
        "result": out.result,
        "label": None if out.result is None else nota.label(out.result),
        "refused": False,
        "rule": out.rule,
        "reason": out.text(nota),
        "unsafe_result": out.unsafe_result,
        "materialised": materialised(out),
    }


def refusal(rule: str, reason: str, unsafe_result: str | None = None) -> dict[str, Any]:
    """A refusal, wherever it is reported (a cell, a conversion, a framework's error): the
    outcome shape with ``result`` null and ``refused`` true; ``rule`` says which rule refused
    (``framework`` for what a framework raised) and ``reason`` why, in the run's notation."""
    return {
        "result": None,
        "label": None,
        "refused": True,
        "rule": rule,
        "reason": reason,
        "unsafe_result": unsafe_result,
        "materialised": None,
    }


# The rule of what a framework answered (``framework``): its own, not one of promote's.
FRAMEWORK = "framework"


def framework(result: str | None, error: str, nota: Notation) -> dict[str, Any]:
    """What a framework answered when ``promote verify`` asked it, in the outcome shape: its
    dtype, or the refusal it raised (``rule`` is ``framework``, ``reason`` its message)."""
    if result is None:
        return refusal(FRAMEWORK, error or "the framework raised")
    return {
        "result": result,
        "label": nota.label(result),
        "refused": False,
        "rule": FRAMEWORK,
        "reason": "what the framework returned",
        "unsafe_result": None,
        "materialised": None,
    }


def materialised(out: Outcome) -> str | None:
    """The dtype a weak result becomes as an array (canonical), or None."""
    return None if out.materialised is None else out.materialised.dtype


def raised(exc: PromotionError) -> dict[str, Any]:
    """A refusal raised rather than returned (``promote convert``'s): the same shape."""
    if not exc.rule:
        raise ValueError(f"a refusal without a rule: {exc.reason}")
    return refusal(exc.rule, exc.reason, exc.unsafe_result)


def side(policy: Policy, options: dict[str, Any]) -> dict[str, Any]:
    """One side of a comparison: its policy and options."""
    return {"policy": policy.name, "options": dict(options)}


def dumps(obj: Any) -> str:
    """The text a command prints: indented, UTF-8 as is, a final newline. A string holding a
    surrogate (a file name whose bytes are not UTF-8, as Python keeps them) has it written as
    a JSON escape (``"\\udcff"``), so the text is always valid UTF-8 and ``json.loads`` gives
    the name back as Python read it (``os.fsencode`` gives its bytes)."""
    text = json.dumps(obj, indent=2, ensure_ascii=False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


_SURROGATE = re.compile("[\ud800-\udfff]")
