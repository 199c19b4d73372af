"""Label in a real browser with two annotators (issues 41, 40 item 1, 38 item 7): exports after
keyboard saves hold every label; 50 key presses 60 ms apart lose none; B cannot see A's grade
before saving; one adjudication by keys."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.browser import GRADE_SHOWN_JS, MARKS, WAIT_MS, serve, wait_idle
from helpers.paths import ROOT

from rag_core.config import PipelineConfig
from rag_core.formats.questions import load_questions
from rag_core.gold.store import LabelStore
from rag_core.index import load_corpus_index

pytestmark = MARKS

EN = load_questions(ROOT / "sample_corpus" / "questions" / "en.jsonl")


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Iterator[tuple[str, LabelStore]]:
    data = tmp_path_factory.mktemp("annot-data")
    with serve(
        tmp_path_factory.mktemp("annot-server") / "streamlit.log", RAG_INSPECTOR_DATA=str(data)
    ) as url:
        yield url, LabelStore(data / "labels.sqlite3")


def open_label(browser, base: str, who: str, qid: str):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{base}/label?lang=en&qset=en&qid={qid}")
    wait_idle(page)
    name = page.get_by_role("textbox", name="Annotator")
    name.fill(who)
    name.press("Enter")
    wait_idle(page)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    return page


def until(check, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.5)


def test_exports_after_five_keyboard_saves_hold_all_five(app, browser, tmp_path):
    base, store = app
    page = open_label(browser, base, "exporter", EN[1].id)
    for g in (2, 0, 3, 1, 2):
        page.keyboard.press(str(g))
        page.keyboard.press("Enter")
        wait_idle(page)
    until(lambda: len(store.mine("exporter", "en")) == 5)
    mine = {(lab.doc_id, lab.start, lab.end, lab.grade) for lab in store.mine("exporter", "en")}
    with page.expect_download(timeout=WAIT_MS) as got:
        page.get_by_role("button", name="Download labels (JSONL spans)").click()
    assert got.value.suggested_filename == "labels-en-annotator-exporter.jsonl"
    text = Path(got.value.path()).read_text(encoding="utf-8")
    lines = [json.loads(x) for x in text.splitlines()]
    assert {(r["doc_id"], r["start"], r["end"], r["grade"]) for r in lines} == mine
    with page.expect_download(timeout=WAIT_MS) as got:
        page.get_by_role("button", name="Download TREC qrels", exact=False).click()
    qrels = Path(got.value.path()).read_text(encoding="utf-8")
    assert got.value.suggested_filename.endswith("-annotator-exporter.txt")
    corpus = load_corpus_index()
    chunks = corpus.chunking(PipelineConfig().chunker).chunks
    want = store.export_qrels(
        chunks, EN, corpus.docs, question_set="en", state="annotator:exporter"
    )
    assert qrels == want and len({line.split()[2] for line in want.splitlines()}) >= 5
    assert page.get_by_text("5 labels of 1 questions", exact=False).count() >= 1
    page.close()


def test_fifty_key_presses_60_ms_apart_lose_none(app, browser):
    """Each press reaches the queue, also those made while a rerun remounts its frame (3 of 25
    saves when the keys were button shortcuts, 24 of 25 with the listener in the frame)."""
    base, store = app
    page = open_label(browser, base, "fast", EN[2].id)
    keys = ["1", "Enter"] * 25
    for k in keys:
        page.keyboard.press(k)
        page.wait_for_timeout(60)
    until(lambda: len(store.history(annotator="fast")) >= 25, 240)
    wait_idle(page)
    events = store.history(annotator="fast")
    assert len(events) == 25 and {e.grade for e in events} == {1}
    assert len({e.label_id for e in events}) == 25  # each Enter saved the next candidate
    assert page.get_by_text("keys not handled", exact=False).count() == 0
    assert page.get_by_text("keys refused", exact=False).count() == 0
    page.close()


def test_a_refused_key_press_says_so(app, browser):
    """Enter without an annotator's name saves nothing and says so; the grade key before it is
    applied."""
    base, store = app
    page = browser.new_page(viewport={"width": 1280, "height": 800})  # a new browser profile
    page.goto(f"{base}/label?lang=en&qset=en&qid={EN[3].id}")
    wait_idle(page)
    page.get_by_text("Enter your name above to save labels.").first.wait_for(timeout=WAIT_MS)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    before = len(store.history())
    page.keyboard.press("2")
    page.keyboard.press("Enter")
    said = page.locator("[data-testid=stAlert]").filter(has_text="1 keys not handled")
    said.wait_for(timeout=WAIT_MS)
    assert "no name or no span" in said.inner_text()
    wait_idle(page)
    assert page.wait_for_function(GRADE_SHOWN_JS, arg="2 ·", timeout=WAIT_MS)
    assert len(store.history()) == before
    page.close()


def test_b_cannot_see_a_grade_before_saving_their_own(app, browser):
    base, store = app
    qid = EN[10].id  # a question the other tests' annotators do not reach
    a = open_label(browser, base, "ann-a", qid)
    a.get_by_role("textbox", name="Note").fill("a-private-note")
    a.evaluate("document.activeElement && document.activeElement.blur()")
    wait_idle(a)
    a.keyboard.press("3")
    a.keyboard.press("Enter")
    until(lambda: len(store.mine("ann-a", "en", qid)) == 1)
    a.close()
    b = open_label(browser, base, "ann-b", qid)
    text = b.locator("[data-testid=stMain]").inner_text()
    assert "ann-a" not in text and "a-private-note" not in text
    review = b.locator("[data-testid=stCheckbox]").filter(has_text="Review: every annotator")
    assert review.locator("input").is_disabled()
    b.keyboard.press("1")
    b.keyboard.press("Enter")
    until(lambda: len(store.mine("ann-b", "en", qid)) == 1)
    wait_idle(b)
    review.locator("label").click()
    wait_idle(b)
    assert "ann-a" in b.locator("[data-testid=stMain]").inner_text()
    b.close()


def test_one_adjudication_by_keys(app, browser):
    base, store = app
    qid = EN[10].id  # ann-a graded 3 and ann-b graded 1 the same first candidate
    page = open_label(browser, base, "judge", qid)
    page.get_by_text("Adjudicate", exact=True).click()
    wait_idle(page)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("b")
    until(lambda: len(store.snapshot("en").adjudications) == 1)
    (x,) = store.snapshot("en").adjudications
    (b_label,) = store.mine("ann-b", "en", qid)
    assert (x.start, x.end, x.grade, x.annotator) == (b_label.start, b_label.end, 1, "judge")
    wait_idle(page)
    assert page.get_by_text("1 of 1 disagreements adjudicated").count() == 1
    page.close()
