"""The app in a real browser: headless Debian chromium driven by Playwright.

What ``AppTest`` cannot see: the HTML the browser builds. One test uploads
documents full of script payloads and renders Inspect and Chunks, asserting
nothing ran; one smoke test screenshots Inspect and checks the stage
headings are on screen; one opens a Qdrant collection (embedded local mode)
of the sample corpus and finds its list beside BM25's. These serve the real
``serve.py`` (``app.py`` with its start-up warm-up, as ``make run``) on a free port
(generation off, to stay fast). The lecture tests (also ``slow``) serve the default
configuration, real generator included, and measure the four panes against 1280×720 and
1920×1080 screens.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from helpers.app import PAYLOAD_LINES, STAGE_HEADINGS_EN, write_payload_docs
from helpers.browser import MARKS, WAIT_MS, full_page_shot, wait_idle

pytestmark = MARKS


def test_script_payloads_in_documents_and_question_never_run(server, browser, tmp_path):
    docs = write_payload_docs(tmp_path)
    (docs / "payload-rows.jsonl").write_text(
        '{"id": "row-1", "title": "<img src=x onerror=window.__xss=1>", "text": "zebrafish tank '
        + PAYLOAD_LINES[2].replace('"', '\\"')
        + '"}\n',
        encoding="utf-8",
    )

    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    question = (
        "zebrafish tank <script>window.__xss=1</script> <img src=x onerror=window.__xss=1> "
        "[click me](javascript:window.__xss=1)"
    )
    from urllib.parse import urlencode

    # a bad config value carrying a payload comes back in a warning: shown as text too
    bad = "<img src=x onerror=window.__xss=1>"
    page.goto(
        f"{server}/inspect?"
        + urlencode({"corpus": "upload", "q": question, "lang": "en", "retrieval.analyzer": bad})
    )
    wait_idle(page)
    page.locator(".st-key-uploads input[type=file]").set_input_files(
        [str(p) for p in sorted(docs.iterdir())]
    )
    page.get_by_text("Indexed 3 documents").wait_for(timeout=WAIT_MS, state="attached")
    wait_idle(page)
    page.get_by_role("heading", name="② Retrieval").wait_for(timeout=WAIT_MS)
    # the payloads are on the page as text, not as elements
    assert page.get_by_text("window.__xss = 1; alert('script')", exact=False).count() >= 1
    assert page.locator("[data-testid=stMain] script").count() == 0
    assert page.locator("[data-testid=stMain] img[src=x]").count() == 0
    assert page.locator("[data-testid=stMain] svg[onload]").count() == 0
    assert page.locator("a[href^='javascript']").count() == 0
    assert (
        page.get_by_text("onerror=window.__xss=1", exact=False).count() >= 1
    )  # the warning, as text

    page.get_by_role("link", name="Chunks").click()
    page.get_by_role("heading", name="Chunks").wait_for(timeout=WAIT_MS)
    wait_idle(page)
    for doc_label in ("payload-notes", "payload-plain", "row-1"):
        page.locator("[data-testid=stMain] [data-testid=stSelectbox]").first.click()
        page.get_by_role("option", name=doc_label, exact=False).first.click()
        wait_idle(page)
        assert page.locator(".ri-doc").count() == 1
        assert page.locator(".ri-doc script, .ri-doc img, .ri-doc svg").count() == 0
    assert page.get_by_text("onerror=", exact=False).count() >= 1
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert dialogs == []
    page.close()


def test_the_server_warms_before_it_serves_and_then_shows_the_stages(tmp_path, browser):
    """``serve.py``'s start-up hook says its line before the server answers anyone (its health
    check included); the first page then finds the stages built."""
    from helpers.browser import serve

    from ui.warm import READY, STARTING

    log = tmp_path / "streamlit.log"
    with serve(log) as url:
        text = log.read_text(errors="replace")
        assert STARTING in text and READY in text, text[-2000:]
        line = next(x for x in text.splitlines() if READY in x)
        assert "the sample corpus's stages" in line and "generator" not in line, line
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{url}/inspect?lang=en")
        page.get_by_role("heading", name="② Retrieval").wait_for(timeout=WAIT_MS)
        page.close()


def test_smoke_inspect_shows_every_stage(server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1400, "height": 2400})
    page.goto(f"{server}/?lang=en")
    wait_idle(page)
    for name in STAGE_HEADINGS_EN:
        heading = page.get_by_role("heading", name=name)
        heading.wait_for(timeout=WAIT_MS)
        heading.scroll_into_view_if_needed()
        assert heading.is_visible(), name
    page.evaluate("window.scrollTo(0, 0)")
    full_page_shot(page, tmp_path, "inspect.png")
    page.close()


def test_inspect_shows_a_qdrant_list(server, browser, tmp_path):
    """A Qdrant collection (embedded local mode) of the sample corpus shows as its own retriever
    list."""
    from urllib.parse import urlencode

    from rag_core.config import PipelineConfig
    from rag_core.index import load_corpus_index
    from rag_core.retrieval import qdrant as rq

    corpus = load_corpus_index()
    chunker = PipelineConfig().chunker
    chunking = corpus.chunking(chunker)
    dense = corpus.dense(chunker, "minilm")
    path = tmp_path / "qdrant"
    rq.build_collection(
        rq.QdrantTarget(path=str(path)),
        "sample",
        chunking.chunks,
        dense.vectors,
        model_id=dense.stamp.embedding_model,
        chunker_signature=chunking.signature,
    )
    rq.close_all()  # the app's process opens the folder next (local mode locks it)

    page = browser.new_page(viewport={"width": 1400, "height": 2000})
    page.goto(
        f"{server}/inspect?"
        + urlencode(
            {
                "lang": "en",
                "q": "What is the meaning of E21?",
                "retrieval.methods": "bm25,qdrant",
                "retrieval.qdrant_path": str(path),
                "retrieval.qdrant_collection": "sample",
            }
        )
    )
    wait_idle(page)
    page.get_by_role("heading", name="② Retrieval").wait_for(timeout=WAIT_MS)
    table = page.locator("[data-list='qdrant:sample']")
    table.wait_for(timeout=WAIT_MS)
    assert table.locator("tbody tr").count() >= 1
    assert page.get_by_text("Qdrant score (Cosine)", exact=False).count() >= 1
    assert (
        page.locator("[data-list='bm25:auto']").count() == 1
    )  # beside our own list (default analyzer)
    if os.environ.get("RAG_SCREENSHOT_DIR"):
        table.scroll_into_view_if_needed()
        page.screenshot(path=str(Path(os.environ["RAG_SCREENSHOT_DIR"]) / "inspect-qdrant.png"))
    page.close()


# ------------------------------------------------------------------ lecture view

LECTURE_PANES = ("candidates", "prompt", "answer", "claims")
SCREENS = ((1280, 720), (1920, 1080))


def _fits_one_screen(page, where: str) -> None:
    """Every pane's bounding box lies inside the viewport, and nothing scrolls the page."""
    vw, vh = page.viewport_size["width"], page.viewport_size["height"]
    for name in LECTURE_PANES:
        box = page.locator(f"[data-pane={name}]").bounding_box()
        assert box is not None, (where, name)
        assert box["x"] >= 0 and box["y"] >= 0, (where, name, box)
        assert box["x"] + box["width"] <= vw and box["y"] + box["height"] <= vh, (
            where,
            name,
            box,
            vw,
            vh,
        )
        assert box["width"] >= vw / 8, (where, name, box)  # side by side, each a real column
    overflow = page.evaluate(
        "[...document.querySelectorAll('[data-testid=stMain], html, body')]"
        ".map(e => e.scrollHeight - e.clientHeight)"
    )
    assert max(overflow) <= 1, (where, overflow)


def _shown(page) -> list[str]:
    return [page.locator(f"[data-pane={n}]").get_attribute("data-shown") for n in LECTURE_PANES]


def _lecture_on_every_screen(page, url: str, where: str) -> None:
    """``url`` in Korean and in English at 1280×720 and 1920×1080: the four panes fit."""
    for lang in ("ko", "en"):
        for width, height in SCREENS:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(re.sub(r"([?&])lang=\w+", rf"\1lang={lang}", url))
            wait_idle(page)
            page.locator("[data-pane=claims]").wait_for(timeout=WAIT_MS)
            _fits_one_screen(page, f"{where} {lang} {width}x{height}")


@pytest.mark.slow
def test_lecture_default_question_fits_one_screen_and_steps_in_order(server_gen, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    _lecture_on_every_screen(page, f"{server_gen}/lecture?lang=en", "default")
    assert _shown(page) == ["1", "1", "1", "1"]
    # step-through: a prepared link opens at step 1; → and the button reveal the panes in pipeline
    # order
    page.goto(f"{server_gen}/lecture?lang=en&step=1")
    wait_idle(page)
    assert _shown(page) == ["1", "0", "0", "0"]
    assert page.get_by_text("What will the model say?").count() == 1
    page.keyboard.press("ArrowRight")
    wait_idle(page)
    assert _shown(page) == ["1", "1", "0", "0"]
    assert "step=2" in page.url
    page.get_by_role("button", name="Next stage").click()
    wait_idle(page)
    assert _shown(page) == ["1", "1", "1", "0"]
    assert "step=3" in page.url
    page.keyboard.press("ArrowRight")
    wait_idle(page)
    assert _shown(page) == ["1", "1", "1", "1"]
    assert "step=" not in page.url
    page.keyboard.press("ArrowLeft")
    wait_idle(page)
    assert _shown(page) == ["1", "1", "1", "0"]
    _fits_one_screen(page, "step 3")
    page.close()


@pytest.mark.slow
def test_lecture_from_a_scenario_card_fits_and_exports(server_gen, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 720}, accept_downloads=True)
    page.goto(f"{server_gen}/scenarios?lang=en")
    wait_idle(page)
    page.locator(".st-key-scn-irrelevant-sources-lecture button").click()
    page.locator("[data-pane=claims]").wait_for(timeout=WAIT_MS)
    wait_idle(page)
    assert "/lecture" in page.url and "step=1" in page.url and "qid=en-inf-01" in page.url
    assert _shown(page) == ["1", "0", "0", "0"]
    for expected in (["1", "1", "0", "0"], ["1", "1", "1", "0"], ["1", "1", "1", "1"]):
        page.get_by_role("button", name="Next stage").click()
        wait_idle(page)
        assert _shown(page) == expected
    url = page.url
    _lecture_on_every_screen(page, url, "scenario")
    # the slide exports: HTML without script, PNG from headless chromium
    page.get_by_role("button", name="Save as slide").click()
    with page.expect_download() as dl:
        page.get_by_role("button", name="HTML slide").click()
    document = Path(dl.value.path()).read_text(encoding="utf-8")
    assert "<script" not in document.lower() and 'data-pane="claims"' in document
    with page.expect_download(timeout=WAIT_MS) as dl:
        page.get_by_role("button", name="PNG slide").click()
    png = Path(dl.value.path()).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("RAG_SCREENSHOT_DIR"):
        Path(os.environ["RAG_SCREENSHOT_DIR"], "lecture.png").write_bytes(png)
    page.close()
