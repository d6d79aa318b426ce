"""The facts of the seed documents (the published tables promote must reproduce), for the tests.

The documents live beside the clone in ../shared/seeds and are not part of the repository; their
facts are, in tests/data/seed_facts.json: the cells of the JAX table with its green cells, the
cells of the Ascend table, and the OpenVINO spec's examples and attribute defaults, each with the
file name, title and sha256 of the document they were extracted from. The golden tests read that
file and compare promote against it, never against promote's own output.

The extractors below read the facts from the documents themselves, so the file is regenerated,
never edited by hand::

    python tests/seeds.py            # exit 1 and name the documents whose facts differ
    python tests/seeds.py --write    # rewrite tests/data/seed_facts.json from the documents

and tests/properties/test_seed_facts.py checks the file against the documents whenever they are
there.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import re
import sys
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
FACTS = Path(__file__).resolve().parent / "data" / "seed_facts.json"

Cells = dict[tuple[str, str], tuple[str, bool]]


# --- extraction from the documents -------------------------------------------------------------


class _Table(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[tuple[str, bool]]] = []
        self._cell: list[str] | None = None
        self._green = False

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
            self._green = ("class", "d") in attrs

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(("".join(self._cell).strip(), self._green))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def parse_html_table(html: str) -> tuple[list[str], Cells]:
    """(column labels, {(row label, col label): (cell text, has class="d")})."""
    parser = _Table()
    parser.feed(html)
    header = [text for text, _ in parser.rows[0][1:]]
    cells = {}
    for row in parser.rows[1:]:
        label = row[0][0]
        for col, (text, green) in zip(header, row[1:], strict=True):
            cells[label, col] = (text, green)
    return header, cells


def _title(text: str) -> str:
    """The document's first heading: an rst title (a line underlined with '=') or a '# ' line."""
    lines = text.splitlines()
    for line, under in itertools.pairwise(lines):
        if line.startswith("# "):
            return line[2:].strip()
        if line.strip() and re.fullmatch(r"=+", under) and len(under) >= len(line.strip()):
            return line.strip()
    raise ValueError("the document has no title")


def extract_jax(text: str) -> dict:
    start = text.index('<table id="types">')
    header, cells = parse_html_table(text[start : text.index("</table>", start) + len("</table>")])
    rows = list(dict.fromkeys(r for r, _ in cells))
    return {
        "columns": header,
        "rows": [[r, *(cells[r, c][0] for c in header)] for r in rows],
        "green": {r: cols for r in rows if (cols := [c for c in header if cells[r, c][1]])},
    }


def extract_ascend(text: str) -> dict:
    lines = [line for line in text.splitlines() if line.startswith("|")]
    split = [[c.strip().strip("*") for c in line.strip().strip("|").split("|")] for line in lines]
    header = split[0][1:]
    for row in split[2:]:
        if len(row) != len(header) + 1:
            raise ValueError(f"Ascend table row {row[0]!r} has {len(row) - 1} cells")
    return {"columns": header, "rows": split[2:]}


_EXAMPLE = re.compile(r"^ +\* ``ConvertPromoteTypes\((.+?), (.+?)\) -> (\w+)``")
_GROUP = re.compile(r"^\* (.+)$")
_ATTRIBUTE = re.compile(r"^\* \*(\w+)\*$")
_DEFAULT = re.compile(r"^ +\* \*\*Default value\*\*: (?:element::)?(\S+)$")
_SETTING = re.compile(r"\*(\w+)\* (?:will be )?set to ``(\w+)``")


def _value(text: str) -> bool | str:
    return {"true": True, "false": False}.get(text, text)


def _group_attributes(heading: str) -> tuple[dict, dict | None]:
    """(attributes under which the group's results hold, attributes under which they raise).

    The spec lists its examples under three headings: default attributes; "cause exceptions
    when *promote_unsafe* will be set to ``false``" (so the result holds with the opposite
    setting); and "with *pytorch_scalar_promotion* set to ``true``".
    """
    settings = {name: _value(v) for name, v in _SETTING.findall(heading)}
    if "default values" in heading and not settings:
        return {}, None
    if "exception" in heading and len(settings) == 1:
        ((name, value),) = settings.items()
        return {name: not value}, settings
    if settings and "exception" not in heading:
        return settings, None
    raise ValueError(f"unrecognised OpenVINO example heading: {heading!r}")


def extract_openvino(text: str) -> dict:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Examples ("))
    stop = next(i for i, line in enumerate(lines) if line.startswith("**Attributes**"))
    examples: list[dict] = []
    group: tuple[dict, dict | None] | None = None
    for line in lines[start:stop]:
        if heading := _GROUP.match(line):
            group = _group_attributes(heading.group(1))
        elif example := _EXAMPLE.match(line):
            assert group is not None, f"example before any heading: {line!r}"
            lhs, rhs, result = example.groups()
            attributes, raises_with = group
            examples.append(
                {
                    "lhs": lhs,
                    "rhs": rhs,
                    "result": result,
                    "attributes": attributes,
                    "raises_with": raises_with,
                }
            )

    defaults: dict[str, bool | str] = {}
    attribute = None
    for line in lines[stop:]:
        if line.startswith("**Inputs**"):
            break
        if match := _ATTRIBUTE.match(line):
            attribute = match.group(1)
        elif (match := _DEFAULT.match(line)) and attribute:
            defaults[attribute] = _value(match.group(1))

    ir = []
    for title, block in re.findall(
        r"^\*\*Example \d+: (.+?)\*\*\n(.*?)</layer>", text, re.MULTILINE | re.DOTALL
    ):
        data = re.search(r"<data (.*?)/>", block).group(1)  # type: ignore[union-attr]
        inputs = re.search(r"<input>(.*?)</input>", block, re.DOTALL).group(1)  # type: ignore[union-attr]
        outputs = re.search(r"<output>(.*?)</output>", block, re.DOTALL).group(1)  # type: ignore[union-attr]
        ir.append(
            {
                "title": title,
                "attributes": {k: _value(v) for k, v in re.findall(r'(\w+)="([^"]*)"', data)},
                "inputs": re.findall(r'precision="(\w+)"', inputs),
                "outputs": re.findall(r'precision="(\w+)"', outputs),
            }
        )
    return {"attribute_defaults": defaults, "pair_examples": examples, "ir_examples": ir}


# Each document: its file, what is taken from it, and the extractor that takes it.
DOCUMENTS = {
    "jax": (
        "000_f6b1d9dd375287d2.txt",
        'the 15x15 jnp.promote_types table (<table id="types">) in JAX\'s byte notation: column'
        " labels, rows as [row label, cells...], and per row the columns of its cells with"
        ' class="d" (green)',
        extract_jax,
    ),
    "openvino": (
        "001_34173b5ff53a4d2d.txt",
        "every ConvertPromoteTypes(lhs, rhs) -> result example as written (types unnormalised),"
        " with the attributes under which its result holds and under which the spec says it"
        " raises; the three attributes' default values; the three IR examples' <data>"
        " attributes and input/output precisions",
        extract_openvino,
    ),
    "ascend": (
        "002_81c5b8d8debb6727.txt",
        "the 16x16 aclnn type-deduction table (表 1) in Ascend notation: column labels and rows"
        " as [row label, cells...]; × marks a pair the API refuses",
        extract_ascend,
    ),
}


def extract(folder: Path = SEEDS) -> dict:
    """The facts of every document in ``folder``, each with its provenance."""
    out: dict = {
        "about": (
            "Facts extracted from the seed documents (../shared/seeds) by tests/seeds.py;"
            " regenerate with `python tests/seeds.py --write`, never edit by hand."
        )
    }
    for name, (file, what, extractor) in DOCUMENTS.items():
        raw = (folder / file).read_bytes()
        text = raw.decode("utf-8")
        out[name] = {
            "source": {
                "file": file,
                "title": _title(text),
                "sha256": hashlib.sha256(raw).hexdigest(),
                "extracted": what,
            },
            **extractor(text),
        }
    return out


def dumps(facts: dict) -> str:
    """JSON with each table row, and anything else short, on one line."""

    def dump(value, indent: str) -> str:
        inner = indent + "  "
        flat = json.dumps(value, ensure_ascii=False)
        if len(indent) + len(flat) <= 100:
            return flat
        if isinstance(value, dict):
            items = [
                f"{inner}{json.dumps(k, ensure_ascii=False)}: {dump(v, inner)}"
                for k, v in value.items()
            ]
            return "{\n" + ",\n".join(items) + f"\n{indent}}}"
        if isinstance(value, list) and any(isinstance(v, list | dict) for v in value):
            return "[\n" + ",\n".join(inner + dump(v, inner) for v in value) + f"\n{indent}]"
        return flat

    return dump(facts, "") + "\n"


# --- what the tests read ------------------------------------------------------------------------


@cache
def facts() -> dict:
    """The in-repository facts (tests/data/seed_facts.json)."""
    return json.loads(FACTS.read_text(encoding="utf-8"))


def _cells(table: dict) -> dict[tuple[str, str], str]:
    return {
        (row[0], c): text
        for row in table["rows"]
        for c, text in zip(table["columns"], row[1:], strict=True)
    }


def jax_table() -> tuple[list[str], Cells]:
    """The seed's 15x15 jnp.promote_types table in JAX byte notation, with its green cells."""
    table = facts()["jax"]
    green = {(r, c) for r, cols in table["green"].items() for c in cols}
    return list(table["columns"]), {k: (text, k in green) for k, text in _cells(table).items()}


def ascend_table() -> tuple[list[str], dict[tuple[str, str], str]]:
    """The seed's 16x16 aclnn table in Ascend notation; refused cells are '×'."""
    table = facts()["ascend"]
    return list(table["columns"]), _cells(table)


def openvino_examples() -> list[dict]:
    """Every ``ConvertPromoteTypes(lhs, rhs) -> result`` example of the spec, as written, with
    ``attributes`` (under which ``result`` holds) and ``raises_with`` (None, or the attributes
    under which the spec says the operation raises instead)."""
    return facts()["openvino"]["pair_examples"]


def openvino_ir_examples() -> list[dict]:
    """The spec's IR examples: ``attributes`` of <data>, ``inputs`` and ``outputs`` precisions."""
    return facts()["openvino"]["ir_examples"]


def openvino_attribute_defaults() -> dict[str, bool | str]:
    """The spec's default value of each attribute, as written (``f32``, not ``element::f32``)."""
    return facts()["openvino"]["attribute_defaults"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python tests/seeds.py",
        description=f"Check (or --write) {FACTS.relative_to(FACTS.parents[2])} against the"
        " seed documents.",
    )
    parser.add_argument("--seeds", type=Path, default=SEEDS, help=f"default: {SEEDS}")
    parser.add_argument("--write", action="store_true", help="rewrite the facts file")
    args = parser.parse_args(argv)
    if not args.seeds.is_dir():
        print(f"error: no seed documents at {args.seeds}", file=sys.stderr)
        return 2
    fresh = extract(args.seeds)
    if args.write:
        FACTS.parent.mkdir(exist_ok=True)
        FACTS.write_text(dumps(fresh), encoding="utf-8")
        print(f"wrote {FACTS}")
        return 0
    stale = [name for name in DOCUMENTS if facts().get(name) != fresh[name]]
    for name in stale:
        print(f"{name}: {FACTS.name} differs from {DOCUMENTS[name][0]}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
