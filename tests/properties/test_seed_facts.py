"""The in-repository seed facts (tests/data/seed_facts.json) are what the seed documents say.

The golden tests read the facts file so that a plain clone tests alone; this test re-extracts the
facts from the documents whenever they are beside the clone (../shared/seeds) and fails, naming
the document, when either side has changed.
"""

from __future__ import annotations

import pytest
from seeds import DOCUMENTS, FACTS, SEEDS, dumps, extract, facts


def test_seed_facts_file_is_what_the_seed_documents_say():
    if not SEEDS.is_dir():
        pytest.skip(
            "seed documents not beside the clone at ../shared/seeds;"
            f" the in-repo copy in tests/data/{FACTS.name} is used"
        )
    fresh, kept = extract(SEEDS), facts()
    regenerate = "regenerate with `python tests/seeds.py --write` and review the diff"
    changed = [
        f"{file} changed since its facts were extracted"
        f" (sha256 {kept[name]['source']['sha256']}, now {fresh[name]['source']['sha256']})"
        for name, (file, _, _) in DOCUMENTS.items()
        if fresh[name]["source"]["sha256"] != kept[name]["source"]["sha256"]
    ]
    assert not changed, "; ".join(changed) + f"; {regenerate}"
    differ = [
        f"{path}: {FACTS.name} has {have!r}, {DOCUMENTS[path.split('.')[0]][0]} gives {want!r}"
        for path, have, want in _differences("", kept, fresh)
    ]
    assert not differ, "\n".join(differ)
    assert FACTS.read_text(encoding="utf-8") == dumps(fresh), (
        f"{FACTS.name} was edited; {regenerate}"
    )


def _differences(path: str, have, want):
    """(path, have, want) for each leaf where two JSON values differ."""
    if isinstance(have, dict) and isinstance(want, dict):
        for key in {**have, **want}:
            yield from _differences(f"{path}.{key}".lstrip("."), have.get(key), want.get(key))
    elif isinstance(have, list) and isinstance(want, list) and len(have) == len(want):
        for i, (h, w) in enumerate(zip(have, want, strict=True)):
            yield from _differences(f"{path}[{i}]", h, w)
    elif have != want:
        yield path, have, want
