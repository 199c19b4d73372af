"""Layout of every page at 1280×720, 1280×800 and 1920×1080, in Korean and in English.

One served app (generation off, ``generation.model=none``) and one headless chromium; each
page is opened once per language and the viewport resized through the three screens. In the
page a script looks for (a) horizontal overflow (the document wider than the window, or a
visible element, not clipped by a scrolling ancestor, whose right edge passes the viewport),
(b) text of one column of a row painted over a sibling column, (c) in the Lecture panes
a clipped scroll container hiding the prompt's budget-cut marker, (f) a Lecture pane whose
content scrolls inside it, (g) text in the main area cut off by an ellipsis and (h) a table
column squeezed to a character or two a line, (i) a legend chip broken over two lines; (d) a
dialog on arrival (``/inspect`` opened Streamlit's "Page not found") and (e) a Python exception.
Compare and Lecture are opened with a configuration B too. Screenshots go to
``$RAG_LAYOUT_SHOTS`` (else pytest's temporary folder; the path is printed).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

import pytest
from helpers.browser import MARKS, wait_idle

pytestmark = MARKS

#: Compare's configuration B in the tests: another chunking and a hybrid retrieval (one column
#: more per side), as the URL writes it.
B = quote("chunker.preset=B; retrieval.methods=bm25,dense", safe="")
#: The app's root (its default page), every page under pages/, Lecture with a hard cut deep in
#: the prompt (the budget-cut scenario's policy: its cut marker must be on screen), Compare with
#: a configuration B, and Lecture in large text showing that B.
PATHS = ("", "inspect", "check", "chunks", "compare", "scenarios", "lecture", "label",
         "evaluate", "threshold",
         "lecture?context.policy=hard-cut&context.budget_tokens=400",
         f"compare?b={B}", f"lecture?b={B}&side=b&big=1")  # fmt: skip
SCREENS = ((1280, 720), (1280, 800), (1920, 1080))

#: The in-page script: a list of defects, each a short string naming the element.
FIND_DEFECTS = "\n".join(
    line
    for line in (Path(__file__).parent / "layout_defects.js").read_text("utf-8").splitlines()
    if not line.startswith("//")  # its heading comment: Playwright takes the function as is
)


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("RAG_LAYOUT_SHOTS") or tmp_path_factory.mktemp("layout-shots"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"layout screenshots in {folder}")
    return folder


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("path", PATHS)
def test_no_overflow_or_overlap_on_any_screen(server, browser, shots, path, lang):
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(f"{server}/{path}{'&' if '?' in path else '?'}lang={lang}&generation.model=none")
    label = (path or "app").replace("?", "-").replace("&", "-").replace("=", "-")
    wait_idle(page)
    found: list[str] = []
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(600)  # charts and columns re-lay themselves out
        where = f"{path or 'app'} {lang} {width}x{height}"
        page.screenshot(path=str(shots / f"{label}-{lang}-{width}x{height}.png"))
        found += [f"{where}: {d}" for d in page.evaluate(FIND_DEFECTS)]
    page.close()
    assert not found, "\n".join(found)
