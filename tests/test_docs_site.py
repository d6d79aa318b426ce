"""The project's documentation site (docs/) as a reader meets it: built with the README's command
(``sphinx-build -W``), a page per policy and per pair of policies, the CLI reference generated
from the click commands, and the "side by side" page driven in headless Chromium (Debian's
chromium and chromium-driver through selenium): its answers must be ``promote pair``'s."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import time
from itertools import combinations
from pathlib import Path

import pytest
from table_parsers import html_tables

from promote_cli import policies

pytest.importorskip("sphinx", reason="the docs extra is not installed (pip install -e '.[docs]')")
pytest.importorskip("sphinx_click", reason="the docs extra is not installed")

DOCS = Path(__file__).resolve().parents[1] / "docs"
HIGHLIGHT = (204, 242, 204)  # #ccf2cc


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed (Debian: apt-get install graphviz)")
    out = tmp_path_factory.mktemp("site") / "html"
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", str(DOCS), str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert time.monotonic() - start < 120  # the bar is a minute on the CI machine
    return out


def test_every_policy_has_a_page_with_its_table_and_every_pair_a_comparison(site):
    for name in policies.names():
        page = (site / "_generated" / "policies" / f"{name}.html").read_text(encoding="utf-8")
        assert any("promotion-table" in t.classes for t in html_tables(page)), name
        assert policies.get(name).title in page
    for a, b in combinations(policies.names(), 2):
        assert (site / "_generated" / "compare" / f"{a}-vs-{b}.html").is_file()


def test_cli_reference_lists_every_command_of_the_lazy_group(site):
    from promote_cli.cli import COMMANDS

    page = (site / "cli.html").read_text(encoding="utf-8")
    for name in COMMANDS:
        assert f'id="promote-{name}"' in page, name
    assert "--diff-against" in page and "--dtype-a" in page


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
    assert list(got) == list(policies.names())
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
