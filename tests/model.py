"""Building a table model the way the CLI does: one request, resolved once, then built."""

from __future__ import annotations

from promote_cli import api, tablemodel


def table_for(policy, types=None, *, notation=None, diff_against=None, command="", **options):
    req = api.request(policy, notation=notation, options=options, operands=types)
    return tablemodel.build(req, api.compared(req, diff_against), command)
