"""The project's documentation site (docs/) as a reader meets it: built with the README's command
(``sphinx-build -W``), a page per policy and per pair of policies, the CLI reference generated
from the click commands, and the "side by side" page driven in headless Chromium (Debian's
chromium and chromium-driver through selenium): its answers must be ``promote pair``'s."""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import subprocess
import sys
from itertools import combinations
from pathlib import Path
from urllib.parse import urlparse

import pytest
from table_parsers import HtmlTable, html_tables

from promote_cli import frameworks
from promote_cli.errors import PromotionError
from promote_cli.vocabulary import FUNCTIONS

pytest.importorskip("sphinx", reason="the docs extra is not installed (pip install -e '.[docs]')")
pytest.importorskip("sphinx_click", reason="the docs extra is not installed")

DOCS = Path(__file__).resolve().parents[2] / "docs"
HIGHLIGHT = (204, 242, 204)  # #ccf2cc


# ``site``, the built site, is tests/conftest.py's: built once per run, beside the other tests.


def test_every_policy_has_a_page_with_its_table_and_every_pair_a_comparison(site):
    for name in frameworks.names():
        page = (site / "_generated" / "policies" / f"{name}.html").read_text(encoding="utf-8")
        assert any("promotion-table" in t.classes for t in html_tables(page)), name
        assert frameworks.get(name).title in page
    for a, b in combinations(frameworks.names(), 2):
        assert (site / "_generated" / "compare" / f"{a}-vs-{b}.html").is_file()


def _declaring() -> dict[str, str]:
    """The policies with per-operation rules, by name -> title (what the pages must show)."""
    out = {}
    for name in frameworks.names():
        with contextlib.suppress(PromotionError):
            out[name] = frameworks.operations(frameworks.get(name)).policy.title
    return out


def _op_tables(site: Path, op: str) -> dict[str, HtmlTable]:
    page = (site / "_generated" / "ops" / f"{op}.html").read_text(encoding="utf-8")
    tables = [t for t in html_tables(page) if "promotion-table" in t.classes]
    # the directive names the policy in a class: promotion-table promotion-<policy>
    return {
        c.removeprefix("promotion-"): t
        for t in tables
        for c in t.classes
        if c.startswith("promotion-") and c != "promotion-table"
    }


def test_every_operation_has_a_page_with_the_table_of_every_policy_with_operations(site):
    declaring = _declaring()
    assert {"numpy", "torch", "jax"} <= set(declaring)
    for op in FUNCTIONS:
        tables = _op_tables(site, op)
        # tensorflow has no left shift: said in words, no table of refusals
        declared = [frameworks.operations(frameworks.get(n)) for n in declaring]
        want = {d.policy.name for d in declared if d.rule(op, d.policy.resolve_options()).function}
        assert set(tables) == want, op


def test_op_pages_show_numpy_sqrt_of_int8_as_float16_and_torch_divide_as_float32(site):
    head, row = _op_tables(site, "sqrt")["numpy"].rows
    assert len(head) == len(row)
    sqrt = {col: text for (col, _), (text, _) in zip(head[1:], row[1:], strict=True)}
    assert (sqrt["int8"], sqrt["uint8"], sqrt["int16"], sqrt["float32"]) == (
        "float16",
        "float16",
        "float32",
        "float32",
    )
    divide = _op_tables(site, "divide")["torch"].cells()
    assert divide[("int32", "int32")] == ("float32", False)
    assert divide[("int64", "float16")] == ("float16", False)
    divide = _op_tables(site, "divide")["numpy"].cells()
    assert divide[("int32", "int32")] == ("float64", False)
    # a reduction: torch.sum of uint8 accumulates in int64
    head, row = _op_tables(site, "sum")["torch"].rows
    assert dict(zip([c for c, _ in head], [t for t, _ in row], strict=True))["uint8"] == "int64"


def test_op_pages_name_each_framework_function_and_what_a_framework_lacks(site):
    page = (site / "_generated" / "ops" / "divide.html").read_text(encoding="utf-8")
    assert "torch.true_divide" in page and "np.divide" in page and "jnp.divide" in page
    page = (site / "_generated" / "ops" / "bitwise_left_shift.html").read_text(encoding="utf-8")
    assert "TensorFlow has no bitwise_left_shift function: tnp has no left shift" in page


def test_operations_index_lists_the_vocabulary_with_each_policys_function(site):
    page = (site / "_generated" / "ops" / "index.html").read_text(encoding="utf-8")
    [table] = [t for t in html_tables(page) if "promote-wide" in t.classes]
    declaring = _declaring()
    head = [text for text, _ in table.rows[0]]
    assert head == ["operation", "arity", "what it computes", *declaring]
    rows = {row[0][0]: [text for text, _ in row] for row in table.rows[1:]}
    assert list(rows) == list(FUNCTIONS)
    assert rows["divide"][:2] == ["divide", "binary"]
    assert rows["divide"][3 + list(declaring).index("torch")] == "torch.true_divide"
    assert rows["bitwise_left_shift"][3 + list(declaring).index("tensorflow")] == "none"
    assert rows["sum"][1] == "reduction"
    for op in FUNCTIONS:
        assert f'href="{op}.html"' in page, op
    # and the site's table of contents reaches it
    assert 'href="_generated/ops/index.html"' in (site / "index.html").read_text(encoding="utf-8")


def test_cli_reference_lists_every_command_of_the_lazy_group(site):
    from promote_cli.cli import COMMANDS

    page = (site / "cli.html").read_text(encoding="utf-8")
    for name in COMMANDS:
        assert f'id="promote-{name}"' in page, name
    assert "--diff-against" in page and "--dtype-a" in page


def _landscape(site: Path) -> HtmlTable:
    page = (site / "index.html").read_text(encoding="utf-8")
    [table] = [t for t in html_tables(page) if "promote-landscape" in t.classes]
    return table


def _answers(a: str, b: str) -> tuple[set[str], list[str]]:
    """The distinct answers of the policies that know both types, as ``promote pair``
    prints them (canonical), and the policies that lack one."""
    said, lacking = set(), []
    for name in frameworks.names():
        universe = frameworks.get(name).universe
        if a not in universe or b not in universe:
            lacking.append(name)
            continue
        printed = pair(a, b, "-p", name)
        said.add("refused" if printed.startswith("refused") else printed.split(" (")[0])
    return said, lacking


def test_the_front_page_names_every_framework_and_maps_where_they_agree(site):
    page = (site / "index.html").read_text(encoding="utf-8")
    first = page[page.index("<p>") : page.index("</p>")]
    for name in frameworks.names():
        assert frameworks.get(name).title in first, name
    table = _landscape(site)
    types = [text for text, _ in table.rows[0][1:]]
    assert {"bool", "int8", "uint64", "bfloat16", "float16", "float32", "complex128"} <= set(types)
    assert [row[0][0] for row in table.rows[1:]] == types
    # every cell links to the side by side page for its pair
    links = re.findall(
        r'<td class="promote-n(\d)"><a href="choose\.html#a=([\w]+)&amp;b=([\w]+)"', page
    )
    assert len(links) == len(types) ** 2
    cells = {(a, b): int(n) for n, a, b in links}
    # its colour class is how many different answers `promote pair` gives there
    for a, b in [("int8", "uint64"), ("float16", "bfloat16"), ("int8", "int8")]:
        said, lacking = _answers(a, b)
        assert cells[a, b] == min(len(said), 5), (a, b, said)
        title = re.search(rf'href="choose\.html#a={a}&amp;b={b}" title="([^"]*)"', page).group(1)
        assert all(answer in title for answer in said)
        assert all(name in title for name in lacking)


def test_every_framework_page_carries_its_notes(site):
    for name in frameworks.names():
        directory = frameworks.entry(name).package.replace(".", "/")
        notes = DOCS.parent / directory / "notes.md"
        assert notes.is_file(), f"{name} has no {directory}/notes.md"
        page = (site / "_generated" / "policies" / f"{name}.html").read_text(encoding="utf-8")
        assert 'id="notes"' in page, name
    page = (site / "_generated" / "policies" / "openvino.html").read_text(encoding="utf-8")
    assert "The spec’s typo" in page or "The spec's typo" in page


def test_the_guide_shows_the_figures_computed_at_build_time(site):
    page = (site / "guide" / "verify.html").read_text(encoding="utf-8")
    # The verify-cells figure's total pair cells (its "all" row is bold; the last run's line,
    # from docs/verified.json, says the same number in plain text)
    assert "<strong>224,545</strong>" in page  # JAX: 8 settings of 68 operands, 36,992; ONNX 3,136
    page = (site / "guide" / "check.html").read_text(encoding="utf-8")
    assert "lossy cells" in page and "no: 240 of 32,768" in page  # jax's associativity


# --- in Chromium ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        pytest.skip("no chromium/chromedriver on PATH (Debian: apt-get install chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (
        "--headless",
        "--no-sandbox",  # CI runs as root in a container
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--window-size=1300,1600",
        f"--user-data-dir={tmp_path_factory.mktemp('profile')}",
    ):
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path=driver)
    with webdriver.Chrome(options=options, service=service) as chrome:
        yield chrome


def answers_for(chrome, page: Path, chosen: list[str]) -> dict[str, tuple[str, str]]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    chrome.get(page.as_uri())
    for key, name in zip("abc", [*chosen, "(none)"], strict=False):
        Select(chrome.find_element(By.ID, f"promote-{key}")).select_by_visible_text(name)
    rows = chrome.find_elements(By.CSS_SELECTOR, "#promote-answers tbody tr")
    return {
        row.get_attribute("data-policy"): (
            row.find_element(By.CLASS_NAME, "result").text,
            row.find_element(By.CLASS_NAME, "why").text,
        )
        for row in rows
    }


def pair(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", "pair", *args, "-n", "canonical"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout.strip()


@pytest.mark.browser
def test_side_by_side_page_answers_bfloat16_x_float16_as_promote_pair(site, browser):
    got = answers_for(browser, site / "choose.html", ["bfloat16", "float16"])
    assert list(got) == list(frameworks.names())
    for name, (result, why) in got.items():
        printed = pair("bfloat16", "float16", "-p", name)
        shown = f"refused: {why}" if result == "refused" else result
        assert shown == printed, name


@pytest.mark.browser
def test_side_by_side_page_answers_three_dtypes_as_promote_pair(site, browser):
    # uint64 x int8 x float16: JAX's weak float16 (not a fold), a fold's float64 elsewhere.
    got = answers_for(browser, site / "choose.html", ["uint64", "int8", "float16"])
    for name, (result, _) in got.items():
        printed = pair("uint64", "int8", "float16", "-p", name)
        assert result == printed.split(":")[0], name
    assert got["jax"][0] == "float16" and got["numpy"][0] == "float64"


@pytest.mark.browser
def test_screenshot_of_a_policy_page_shows_the_highlight_colour(site, browser):
    pil = pytest.importorskip("PIL.Image", reason="Pillow is not installed")
    browser.get((site / "_generated" / "policies" / "jax.html").as_uri())
    table = browser.find_element("css selector", "table.promotion-table")
    image = pil.open(io.BytesIO(table.screenshot_as_png)).convert("RGB")
    colours = {colour for _, colour in image.getcolors(maxcolors=1 << 20)}
    assert HIGHLIGHT in colours
    # and on a comparison page: JAX's table over the types NumPy has too, NumPy's answers differing
    browser.get((site / "_generated" / "compare" / "jax-vs-numpy.html").as_uri())
    table = browser.find_element("css selector", "table.promotion-table")
    image = pil.open(io.BytesIO(table.screenshot_as_png)).convert("RGB")
    assert HIGHLIGHT in {colour for _, colour in image.getcolors(maxcolors=1 << 20)}


@pytest.mark.browser
def test_the_side_by_side_page_opens_on_the_pair_its_address_names(site, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get((site / "choose.html").as_uri() + "#a=int8&b=uint64")
    chosen = [
        Select(browser.find_element(By.ID, f"promote-{k}")).first_selected_option.text
        for k in "abc"
    ]
    assert chosen == ["int8", "uint64", "(none)"]
    rows = browser.find_elements(By.CSS_SELECTOR, "#promote-answers tbody tr")
    got = {
        r.get_attribute("data-policy"): r.find_element(By.CLASS_NAME, "result").text for r in rows
    }
    assert got["numpy"] == pair("int8", "uint64", "-p", "numpy") == "float64"
    # a choice is written back into the address, for a bookmark or a link
    Select(browser.find_element(By.ID, "promote-c")).select_by_visible_text("float16")
    assert browser.execute_script("return location.hash") == "#a=int8&b=uint64&c=float16"


@pytest.mark.browser
def test_a_landscape_cell_opens_the_side_by_side_page_for_its_pair(site, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get((site / "index.html").as_uri())
    browser.find_element(By.CSS_SELECTOR, 'a[href="choose.html#a=float16&b=bfloat16"]').click()
    assert browser.current_url.endswith("choose.html#a=float16&b=bfloat16")
    chosen = [
        Select(browser.find_element(By.ID, f"promote-{k}")).first_selected_option.text for k in "ab"
    ]
    assert chosen == ["float16", "bfloat16"]


@pytest.mark.browser
def test_lattice_drawings_keep_their_size_and_fit_where_they_can(site, browser):
    # Shrunk to the text column, JAX's lattice (1714 pt wide) had 6-pixel labels: a drawing
    # keeps its natural size and scrolls; most, drawn bottom to top, fit the column.
    fits = 0
    for name in ("jax", "tensorflow", "array-api", "mlx", "tinygrad"):
        browser.get((site / "_generated" / "policies" / f"{name}.html").as_uri())
        drawing = browser.find_element("css selector", "object.promotion-lattice")
        data = drawing.get_attribute("data")  # the property: an absolute file:// URL
        svg = Path(urlparse(data).path) if data.startswith("file:") else site / data
        natural = float(re.search(r'<svg width="([\d.]+)pt"', svg.read_text()).group(1)) * 4 / 3
        assert abs(drawing.size["width"] - natural) <= 2, name
        column = browser.find_element("css selector", "div.body").size["width"]
        fits += natural <= column
    assert fits >= 4
