"""The html output in a real browser: headless Chromium loads the page, a small script reads
the DOM and computed styles, and the test checks the highlight colour of every cell and the
table's size. Skipped, saying why, when no Chromium is installed (CI installs Debian's
``chromium``)."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess

import pytest
from model import table_for
from seeds import jax_table

from promote_cli import render

pytestmark = pytest.mark.browser

HIGHLIGHT = "rgb(204, 242, 204)"  # #ccf2cc, the seed's green
PROBE = """
<script>
  const t = document.getElementById("types");
  const box = t.getBoundingClientRect();
  const rows = [...t.rows].map(r => [...r.cells].map(c => {
    const b = c.getBoundingClientRect();
    return {tag: c.tagName, text: c.textContent, bg: getComputedStyle(c).backgroundColor,
            weight: getComputedStyle(c).fontWeight, w: b.width, h: b.height};
  }));
  const out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify({rows, width: box.width, height: box.height,
                                    viewport: window.innerWidth});
  document.body.appendChild(out);
</script>
"""


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no Chromium on PATH (Debian: apt-get install chromium)")


def _probe(page: str, tmp_path) -> dict:
    """Load ``page`` (with the probe script appended) and return what the script measured."""
    browser = _chromium()
    target = tmp_path / "page.html"
    if "</body>" in page:
        page = page.replace("</body>", PROBE + "</body>")
    else:  # a fragment, embedded the way the JAX page embeds it
        page = f'<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>{page}{PROBE}'
        page += "</body></html>"
    target.write_text(page, encoding="utf-8")
    proc = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",  # CI runs as root in a container
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1200,1000",
            "--virtual-time-budget=5000",
            "--dump-dom",
            target.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    m = re.search(r'<pre id="probe">(.*?)</pre>', proc.stdout, re.S)
    assert m, f"Chromium gave no probe (exit {proc.returncode}): {proc.stderr[-2000:]}"
    return json.loads(html.unescape(m.group(1)))


@pytest.mark.parametrize("standalone", [False, True], ids=["fragment", "standalone"])
def test_jax_table_in_chromium_highlights_exactly_the_seed_green_cells(tmp_path, standalone):
    seed_header, seed_cells = jax_table()
    page = render.render(table_for("jax"), "html", standalone=standalone)
    got = _probe(page, tmp_path)
    rows = got["rows"]

    assert len(rows) == 16 and all(len(r) == 16 for r in rows)
    assert [c["tag"] for c in rows[0]] == ["TH"] * 16
    assert [c["text"] for c in rows[0][1:]] == seed_header
    wrong = []
    for row in rows[1:]:
        label = row[0]["text"]
        assert row[0]["bg"] != HIGHLIGHT and int(row[0]["weight"]) >= 700, label
        for col, cell in zip(seed_header, row[1:], strict=True):
            want_text, green = seed_cells[label, col]
            got_green = cell["bg"] == HIGHLIGHT
            if (cell["text"], got_green) != (want_text, green):
                wrong.append(f"{label} x {col}: want {want_text} green={green}, got {cell}")
    assert not wrong
    # Every cell has a real box, rows are even, and the table fits the window.
    assert all(c["w"] > 5 and c["h"] > 5 for r in rows for c in r)
    heights = {round(c["h"]) for r in rows for c in r}
    assert max(heights) - min(heights) <= 1
    assert 0 < got["width"] <= got["viewport"] and got["height"] > 16 * 10


def test_refused_cells_render_the_cross(tmp_path):
    got = _probe(render.render(table_for("ascend"), "html"), tmp_path)
    rows = got["rows"]
    assert len(rows) == 17 and all(len(r) == 17 for r in rows)
    header = [c["text"] for c in rows[0]]
    u16 = next(r for r in rows if r[0]["text"] == "u16")
    assert u16[header.index("f32")]["text"] == "×"
    assert not any(c["bg"] == HIGHLIGHT for r in rows for c in r)  # no diff asked for
