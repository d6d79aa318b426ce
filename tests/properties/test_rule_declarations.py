"""Operation rules are declarations: data only, naming their framework's own functions by key,
applied by ``walk.answer`` as an ordered list of named steps that ``--explain`` names."""

from __future__ import annotations

import ast
import inspect
import json
from collections.abc import Iterator, Mapping
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import promote_cli
from promote_cli import api, frameworks, rules, steps, vocabulary, walk
from promote_cli.cli import cli
from promote_cli.engine import remembering
from promote_cli.errors import PromotionError, UsageError
from promote_cli.operands import PYTHON, Operand
from promote_cli.verify import driver

FRAMEWORKS_DIR = Path(promote_cli.__file__).parent / "frameworks"


def declared() -> Iterator[tuple[str, rules.Operations]]:
    """Every framework's operation declarations."""
    for name in frameworks.names():
        try:
            yield name, frameworks.operations(frameworks.get(name))
        except PromotionError:
            continue


def every_rule_table(found: rules.Operations) -> list[Mapping[str, rules.Rule]]:
    tables = [found.rules]
    if found.by_setting is not None:
        tables += list(found.by_setting.rules.values())
    return tables


def callables(value: Any, path: str) -> Iterator[str]:
    """The path of each callable inside a declaration: its fields, keys, values and items."""
    if callable(value):
        yield path
    elif isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple
        for field in value._fields:
            yield from callables(getattr(value, field), f"{path}.{field}")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from callables(key, f"{path}[{key!r}] (key)")
            yield from callables(item, f"{path}[{key!r}]")
    elif isinstance(value, (tuple, list, frozenset, set)):
        for i, item in enumerate(value):
            yield from callables(item, f"{path}[{i}]")


def test_no_declaration_holds_a_callable():
    walked = 0
    for name, found in declared():
        # The policy is the framework's promotion (an object with methods), not a declaration.
        without_policy = found._replace(policy=None)
        assert list(callables(without_policy, name)) == [], name
        walked += 1
    # every framework whose entry does not say why it declares no operations
    assert walked == sum(not e.operations for e in frameworks.entries()) >= 10


def test_the_walk_finds_a_callable_where_one_hides():
    # The walk above would see a function anywhere a declaration can hold one.
    hidden = rules.Rule("f", cells={(rules.D("int8"),): rules.NO_KERNEL}, overrides={"int8": len})  # type: ignore[dict-item]
    assert list(callables(hidden, "rule")) == ["rule.overrides['int8']"]


def referenced(found: rules.Operations) -> tuple[set[str], set[str]]:
    """The pair rules and special cases ``found``'s rules name, under every setting."""
    pairs, specials = set(), set()
    if found.one_operand_pair:
        pairs.add(found.one_operand_pair)
    for table in every_rule_table(found):
        pairs |= {r.pair for r in table.values() if r.pair}
        specials |= {r.special for r in table.values() if r.special}
        specials |= {r.value_special for r in table.values() if r.value_special}
    return pairs, specials


@pytest.mark.parametrize("name", [n for n, _ in declared()])
def test_every_named_function_exists_and_every_defined_one_is_named(name):
    found = frameworks.operations(frameworks.get(name))
    package = found.policy.package
    own_pairs, own_specials = rules.pairs(package), rules.specials(package)
    pairs, specials = referenced(found)
    assert pairs == set(own_pairs), name
    assert specials == set(own_specials), name
    # A key is its function's name, so a reader finds the code from the rule.
    for key, pair in own_pairs.items():
        assert pair.promote.__name__ == key
    for key, special in own_specials.items():
        assert special.__name__ == key
    # Every public function of pairs.py and specials.py is registered: none is left behind.
    for module, registry in (("pairs", own_pairs), ("specials", own_specials)):
        path = FRAMEWORKS_DIR / found.policy.package.rpartition(".")[2] / f"{module}.py"
        if not path.exists():
            assert registry == {}
            continue
        loaded = import_module(f"{found.policy.package}.{module}")
        public = {
            n
            for n, f in vars(loaded).items()
            if inspect.isfunction(f) and f.__module__ == loaded.__name__ and not n.startswith("_")
        }
        assert public == set(registry), (name, module)


def test_a_rule_naming_a_missing_function_fails_on_use():
    found = frameworks.operations(frameworks.get("tensorflow"))
    broken_rules = {**found.rules, "add": found.rules["add"]._replace(pair="nope")}
    # its rules differ by mode (by_setting): the broken ones answer every mode here
    broken = found._replace(rules=broken_rules, by_setting=None)
    with pytest.raises(KeyError, match="nope"):
        walk.answer(broken, "add", (Operand("int8"), Operand("int8")), {"mode": "all"})


# One call per step that can decide, and what it answers: (policy, operation, operands,
# options, result or None for a refusal, rule). ``materialise`` never decides: it amends.
DECIDED_BY = {
    # tnp has no left shift at all
    "absent": ("tensorflow", "bitwise_left_shift", ["int8", "int8"], {}, None, "absent"),
    # np.matmul takes no 0-d array
    "takes": ("numpy", "matmul", ["S(int8)", "int8"], {}, None, "shape"),
    # 1 & mx.ones((2,), mx.int8): mx.array has no __rand__ (TypeError)
    "reflected": ("mlx", "&", ["int", "int8"], {}, None, "signature"),
    # torch's 4-bit integers are storage, not arithmetic
    "outside": ("torch", "add", ["int4", "int8"], {}, None, "op-refuses-operand"),
    # torch.sub refuses a Python bool
    "refuses-operand": ("torch", "subtract", ["int8", "P(bool)"], {}, None, "op-refuses-operand"),
    # MindSpore's remainder runs a Mul that does not convert bool to uint16 (measured)
    "cells": ("mindspore", "remainder", ["uint16", "bool"], {}, None, "op-refuses-operand"),
    # jnp.power by a Python int: lax.integer_pow keeps the base's int8
    "special": ("jax", "pow", ["int8", "P(bool)"], {}, "int8", "integer-pow"),
    # tnp's add promotes with np.result_type, which has no bfloat16 x float16
    # np.result_type(bfloat16, float16) raises with ml_dtypes 0.6 (float32 with 0.7)
    "promote": ("tensorflow", "add", ["bfloat16", "float16"], {"ml_dtypes": "0.6"}, None, "numpy"),
    # torch.matmul does not promote
    "same-dtype": ("torch", "matmul", ["int8", "int16"], {}, None, "same-dtype"),
    # np.ones(2, np.uint8) + 300: OverflowError "Python integer 300 out of bounds for uint8"
    "value": ("numpy", "+", ["uint8", "int:300"], {}, None, "value"),
    # the array API's mean takes floats only
    "refuses": ("array-api", "mean", ["int32"], {}, None, "op-refuses"),
    # NumPy has no bool loop for square: the bool is cast to int8
    "override": ("numpy", "square", ["bool"], {}, "int8", "same"),
    # each of int8 and uint8 fits float16, NumPy's loop operand by operand
    "operandwise": ("numpy", "atan2", ["int8", "uint8"], {}, "float16", "int-to-float"),
    # true division of integers is the default float
    "kind": ("torch", "divide", ["int32", "int32"], {}, "float32", "int-to-float"),
    # torch's CPU has no uint16 add
    "no-kernel": ("torch", "add", ["uint16", "uint16"], {}, "uint16", "no-kernel"),
}


def test_every_step_but_materialise_has_an_example():
    assert set(DECIDED_BY) == {s.name for s in walk.STEPS} - {"materialise"}


@pytest.mark.parametrize("step", list(DECIDED_BY))
def test_the_outcome_names_the_step_that_decided(step):
    policy, op, args, opts, result, rule = DECIDED_BY[step]
    out = api.request(policy, operands=args, op=op, options=opts).outcome()
    assert (out.result, out.rule, out.decided_by) == (result, rule, step)


@pytest.mark.parametrize("step", list(DECIDED_BY))
def test_explain_and_json_name_the_step_that_decided(step):
    policy, op, args, opts, result, _ = DECIDED_BY[step]
    settings = [w for k, v in opts.items() for w in ("-O", f"{k}={v}")]
    runner = CliRunner()
    explained = runner.invoke(cli, ["op", op, *args, "-p", policy, *settings, "--explain"])
    assert explained.exit_code == (0 if result else 1), explained.output
    last = explained.output.splitlines()[-1]
    assert last.startswith(f"step: {step}"), last
    assert last.endswith(steps.STEP[step].says)
    as_json = runner.invoke(cli, ["op", op, *args, "-p", policy, *settings, "--json"])
    assert json.loads(as_json.output)["step"] == step


def test_explain_names_the_frameworks_own_function_that_decided():
    runner = CliRunner()
    special = runner.invoke(cli, ["op", "pow", "int8", "P(bool)", "-p", "jax", "--explain"])
    assert special.output.splitlines()[-1].startswith("step: special (integer_pow): ")
    pair = runner.invoke(
        cli, ["op", "add", "bf16", "f16", "-p", "tensorflow", "-O", "ml_dtypes=0.6", "--explain"]
    )
    assert pair.output.splitlines()[-1].startswith("step: promote (numpy_result_type): ")
    assert "promotion (np.result_type): bf16 x f16 -> refused (numpy)" in pair.output


def _recorded_walks(monkeypatch) -> list[str]:
    """The names of the steps ``answer`` runs, in the order it runs them, from now on."""
    walked: list[str] = []

    def recording(step: steps.Step) -> steps.Step:
        def check(cell):
            walked.append(step.name)
            return step.check(cell)

        return step._replace(check=check)

    monkeypatch.setattr(walk, "STEPS", tuple(recording(s) for s in walk.STEPS))
    return walked


def test_answer_walks_the_steps_in_their_declared_order(monkeypatch):
    names = [s.name for s in walk.STEPS]
    walked = _recorded_walks(monkeypatch)
    for step, (policy, op, args, opts, _, _) in DECIDED_BY.items():
        walked.clear()
        api.request(policy, operands=args, op=op, options=opts).outcome()
        # A step that sets the output lets the later ones look at it (no-kernel last); any
        # other that decides ends the walk. A cell with a Python scalar's value walks its types
        # (once for all its values), then the value step, which alone sees the value.
        if step == "value":
            assert walked[-1] == "value" and "value" not in walked[:-1], walked
            walked.pop()
        assert walked == sorted(set(walked), key=names.index), (step, walked)
        sets_output = step in ("override", "operandwise", "kind")
        assert walked[-1] == ("no-kernel" if sets_output or step == "value" else step), walked
        assert step in walked or step == "value"


def test_a_rule_walks_only_the_steps_that_can_decide_its_cells(monkeypatch):
    walked = _recorded_walks(monkeypatch)

    def walk(policy: str, op: str, *args: str) -> list[str]:
        walked.clear()
        api.request(policy, operands=list(args), op=op).outcome()
        return list(walked)

    # torch.add declares no special, override or refusal of its own: it is promoted, its kind
    # applied, and its missing kernels looked at; torch's 1- to 7-bit types are refused first
    # (outside), and an operator's reflection is not asked of a function.
    assert walk("torch", "add", "uint16", "uint16") == ["outside", "promote", "kind", "no-kernel"]
    # np.square declares an override (bool -> int8); a one-operand operation checks that its
    # operand is an array (takes).
    assert walk("numpy", "square", "bool") == [
        "takes",
        "outside",
        "promote",
        "override",
        "kind",
        "no-kernel",
    ]
    # torch's true division declares measured cells (a complex scalar and float16 runs).
    assert walk("torch", "divide", "int32", "int32") == [
        "outside",
        "cells",
        "promote",
        "kind",
        "no-kernel",
    ]
    # An operator asks whether a Python scalar on its left is reflected.
    assert walk("numpy", "+", "int", "uint8")[0] == "reflected"


def _asked_of_every_walk() -> Iterator[tuple[rules.Operations, str, tuple[Operand, ...], dict]]:
    """Cells of every framework's operations: each operation on a spread of its policy's
    operands (a type no operation takes among them where there is one, each Python scalar,
    and a value where the operations take one), the operations taking the framework's option
    settings in turn."""
    for name in frameworks.names():
        try:
            rules = frameworks.operations(frameworks.get(name))
        except PromotionError:
            continue
        every = rules.policy.operands()
        arrays = [x for x in every if x.category != PYTHON]
        outside = [x for x in arrays if rules.types is not None and x.dtype not in rules.types]
        spread = [*arrays[:: max(1, len(arrays) // 3)][:3], *outside[:1]]
        spread += [x for x in every if x.category == PYTHON]
        if rules.values:
            spread.append(Operand("int*", PYTHON, 300))
        settings = list(driver.settings(rules.policy))
        for i, op in enumerate(vocabulary.VOCABULARY.values()):
            opts = settings[i % len(settings)]
            for a in spread:
                for b in [None] if vocabulary.takes_one(op) else spread:
                    yield rules, op.name, (a,) if b is None else (a, b), opts


def test_a_rule_s_walk_answers_every_cell_as_the_walk_of_every_step(monkeypatch):
    # A step a rule's walk leaves out (Step.applies) must be one whose check returns None for
    # every cell of that rule: asked with every step walked, each cell answers the same.
    def asked() -> list[str]:
        out = []
        with remembering():
            for rules, name, operands, opts in _asked_of_every_walk():
                try:
                    out.append(repr(walk.answer(rules, name, operands, opts)[0]))
                except UsageError as exc:
                    out.append(f"UsageError: {exc}")
        return out

    planned = asked()
    monkeypatch.setattr(walk, "walk_of", lambda rules, rule, op, values: walk.STEPS)
    assert asked() == planned
    assert len(planned) > 30_000


def test_the_declared_order_decides_where_two_steps_apply(monkeypatch):
    # NumPy's square of a bool: its override (int8) applies, and so would its kind (bool).
    def square_of_bool():
        out = api.request("numpy", operands=["bool"], op="square").outcome()
        return out.result, out.decided_by

    assert square_of_bool() == ("int8", "override")
    steps = list(walk.STEPS)
    kind = steps.pop([s.name for s in steps].index("kind"))
    steps.insert([s.name for s in steps].index("override"), kind)
    monkeypatch.setattr(walk, "STEPS", tuple(steps))
    assert square_of_bool() == ("bool", "kind")


@pytest.mark.parametrize("name", ["jax", "keras"])
def test_option_dependent_declarations_cover_every_setting(name):
    found = frameworks.operations(frameworks.get(name))
    assert found.by_setting is not None
    for opts in driver.settings(found.policy):
        assert set(found.under(opts)) == set(vocabulary.VOCABULARY), opts
        assert isinstance(found.maps_under(opts), rules.Maps), opts
    default = found.policy.resolve_options()
    assert found.under(default) is found.rules
    assert found.maps_under(default) == found.maps


def test_an_override_to_a_kind_reads_the_setting_asked():
    # Keras's TensorFlow ceil of an int64 is floatx itself (its "X"), whatever floatx is.
    for floatx in ("float32", "float16", "bfloat16"):
        got = promote_cli.promote_many(["int64"], policy="keras", op="ceil", floatx=floatx)
        assert got == floatx


def test_no_framework_module_imports_a_private_name_of_another():
    # What two modules share is public; a private module of a package's own is not a name.
    root = FRAMEWORKS_DIR.parent.parent
    for path in sorted(FRAMEWORKS_DIR.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                where = root / node.module.replace(".", "/")
                private = [
                    a.name
                    for a in node.names
                    if a.name.startswith("_") and not (where / f"{a.name}.py").exists()
                ]
                assert not private, f"{path.relative_to(FRAMEWORKS_DIR)}: {node.module} {private}"
