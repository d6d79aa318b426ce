"""Sphinx configuration of promote's documentation: ``sphinx-build -W docs docs/_build/html``.

The per-policy pages, the comparisons, the front page's landscape, the guide's figures and the
answers of the "side by side" page are written by ``generate.py`` when the build starts, into
``_generated/`` (ignored by git). The guide (``guide/*.md``) and each framework's notes
(``frameworks/<name>.md``, included in its generated page) are MyST Markdown.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generate  # docs/ is on the path only from here

from promote_cli import __version__

project = "promote"
author = "the promote authors"
copyright = "the promote authors"
version = release = __version__

extensions = ["myst_parser", "promote_cli.sphinx", "sphinx_click"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_heading_anchors = 3  # [Safety](convert.md#safety) links a heading of another page
graphviz_output_format = "svg"  # crisp, and selectable text
html_theme = "alabaster"
html_static_path = ["_static", "_generated/static"]
html_css_files = ["promote-choose.css", "promote-site.css"]
html_theme_options = {"page_width": "1200px", "sidebar_width": "220px"}
# Included, never pages of their own: each framework's notes (into its generated page) and the
# figures the build computes (into the guide's pages).
exclude_patterns = ["_build", "frameworks", "_generated/figures"]


def _escape_bars(app, ctx, lines):
    # Option help is plain text on a terminal but reStructuredText here: a descr such as |V2
    # would start a substitution.
    lines[:] = [re.sub(r"(?<!\\)\|", r"\\|", line) for line in lines]


def setup(app):
    # before the static path is checked and the sources are read
    app.connect("config-inited", lambda app, config: generate.write())
    app.connect("sphinx-click-process-options", _escape_bars)
