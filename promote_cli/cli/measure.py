"""``promote measure``: ask the installed frameworks and write their answers down as package data
(``promote_cli/frameworks/<name>/measured/``), the offline proof of the rules."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from promote_cli import frameworks
from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK, Command, _options
from promote_cli.errors import PromotionError, UsageError


@click.command("measure", cls=Command)
@click.argument("names", nargs=-1, metavar="[FRAMEWORK ...]")
@click.option("--all", "every", is_flag=True, help="Measure every framework that has an oracle.")
@_options.options
@click.option(
    "--require",
    is_flag=True,
    help="Fail (exit 1) when a framework is not installed, instead of skipping it.",
)
@click.option(
    "--into",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    metavar="DIR",
    help="Write the files under DIR/<framework>/ instead of the package's own directories.",
)
@click.option(
    "--python",
    "python",
    default=None,
    metavar="PATH",
    help="Measure the framework of another environment: its oracle runs under the Python"
    " interpreter PATH.",
)
@click.option(
    "--timeout",
    type=float,
    callback=lambda ctx, param, value: _timeout(value),
    default=None,
    metavar="SECONDS",
    help="How long the framework may take to import, and to answer one batch of questions"
    " (default: its own limit); it is then asked in a worker process of its own.",
)
def command(names, every, require, into, python, timeout, option_values) -> int:
    """Ask frameworks every question promote verify asks and write the answers down.

    Pairs under every option setting, the random triples under both n-ary questions, valued
    Python scalars, every case of every operation and NumPy's spellings, with the framework's
    version and the date, as JSON beside the framework's rules: the tests compare every policy
    with these files without any framework installed. A file whose answers did not change is
    left as it is. A framework that is not installed is skipped unless --require is given.
    -O selects settings measured apart, on another version (numpy -O promotion=legacy, with
    --python naming an environment with NumPy 1.26; it also measures NEP 50's cells in NumPy
    1.26's three promotion states, nep50.json).
    """
    from promote_cli.cli.verify import _progress
    from promote_cli.verify import measured
    from promote_cli.verify.workers import FrameworkFailed

    if every and names:
        raise UsageError("give framework names or --all, not both")
    if not names and not every:
        raise UsageError("name the frameworks to measure, or give --all")
    chosen = [e.name for e in frameworks.entries() if not e.oracle] if every else list(names)
    for name in chosen:
        entry = frameworks.entry(name)
        if entry.oracle:
            raise UsageError(f"{name} has no oracle to measure: {entry.oracle}")
    given = _options.parse_options(option_values)
    if given and len(chosen) != 1:
        raise UsageError("-O applies to one framework: promote measure NAME -O OPTION=VALUE")
    pinned: dict[str, object] = {}
    if given:
        from promote_cli.verify.driver import parse_pinned

        policy = frameworks.get(chosen[0])
        unknown = [n for n in given if n not in {o.name for o in policy.options}]
        if unknown:
            raise UsageError(f"{chosen[0]} has no option {unknown[0]!r}")
        pinned = parse_pinned(policy, given)
    if python is not None:
        from promote_cli.verify.workers import interpreter

        python = interpreter(python)
    failed = False
    with _progress(enabled=sys.stderr.isatty()) as progress_for:
        for name in chosen:
            try:
                done = measured.measure(name, into, progress_for(name), python, pinned, timeout)
            except ImportError as exc:
                from promote_cli.errors import exhausted
                from promote_cli.verify.driver import install_hint

                if exhausted(exc):  # installed, but the process ran out of memory importing it
                    raise

                tail = "; --require was given" if require else ", skipped"
                hint = install_hint(frameworks.entry(name))
                click.echo(f"{name}: not installed{tail} ({exc}; to install it: {hint})")
                failed = failed or require
                continue
            except FrameworkFailed as exc:  # a crash or a hang in the framework's own code
                click.echo(f"{name}: the framework failed, not promote; nothing written: {exc}")
                failed = True
                continue
            except PromotionError as exc:  # pragma: no cover - a registry without rules
                raise UsageError(exc.reason) from None
            click.echo(done)
            if python and not into:
                for line in _states(name, pinned, python):
                    click.echo(line)
    return EXIT_DIFFERENT if failed else EXIT_OK


def _states(name: str, pinned: dict[str, object], python: str) -> list[str]:
    """Each pinned setting measured apart whose entry names a ``states`` module (numpy's
    ``nep50``): that module's ``measure`` of every cell of the diff between the default and the
    setting (``compare.diff_operands``, values included), under ``python``."""
    from importlib import import_module

    from promote_cli import api
    from promote_cli.compare import VALUES, diff_operands

    entry = frameworks.entry(name)
    done = []
    for apart in entry.measured_apart:
        if not apart.states or str(pinned.get(apart.option)) != apart.value:
            continue
        default = api.request(name)
        other = api.request(name, options={apart.option: apart.value})
        module = import_module(f"{entry.package}.{apart.states}")
        done.append(module.measure(python, diff_operands(default, other, VALUES)))
    return done


def _timeout(value: float | None) -> float | None:
    """``--timeout``, checked as ``promote verify`` checks it."""
    from promote_cli.cli.verify import _seconds

    return _seconds(value)
