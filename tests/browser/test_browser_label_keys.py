"""The Label page in a real browser: five spans graded with the number keys and saved with Enter
(keys only), each opening the next pooled candidate, the five labels checked in the store; then a
span chosen by dragging the mouse over the document, saved with keys pressed in the document's
frame, stored as exactly the text the browser selected."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from helpers.browser import GRADE_SHOWN_JS, MARKS, WAIT_MS, full_page_shot, serve, wait_idle
from helpers.paths import ROOT

from rag_core.config import PipelineConfig
from rag_core.evaluation.pooling import DEFAULT_POOL_RETRIEVERS, pool_question
from rag_core.formats.questions import load_questions
from rag_core.gold.store import LabelStore
from rag_core.index import load_corpus_index

pytestmark = MARKS

EN = load_questions(ROOT / "sample_corpus" / "questions" / "en.jsonl")
GRADES = (2, 0, 3, 1, 0)
#: The excerpt's frame (the page has other components: the key queue, the annotator's memory).
EXCERPT = "iframe[data-testid=stCustomComponentV1][title*=span_select]"


@pytest.fixture(scope="module")
def label_server(tmp_path_factory) -> Iterator[tuple[str, LabelStore]]:
    """The app with generation off and a label store of its own."""
    data = tmp_path_factory.mktemp("label-data")
    with serve(
        tmp_path_factory.mktemp("label-server") / "streamlit.log", RAG_INSPECTOR_DATA=str(data)
    ) as url:
        yield url, LabelStore(data / "labels.sqlite3")


def test_five_spans_graded_and_saved_with_keys_only(label_server, browser, tmp_path):
    base, store = label_server
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{base}/label?lang=en&qset=en&qid={EN[0].id}")
    wait_idle(page)
    page.get_by_role("button", name="Save and next").wait_for(timeout=WAIT_MS)
    # at 1280 px nothing runs off the side, and the editor sits next to the document
    main = page.locator("[data-testid=stMain]")
    assert main.evaluate("m => m.scrollWidth <= m.clientWidth")
    # the excerpt scrolls to the picked span inside its own box: the page stays at its top
    assert main.evaluate("m => m.scrollTop") == 0
    assert page.locator("h1").first.bounding_box()["y"] >= 0
    frame = page.frame_locator(EXCERPT).first
    assert frame.locator("#root").evaluate(PICK_SHOWN_JS)
    doc_box = page.locator(EXCERPT).first.bounding_box()
    save_box = page.get_by_role("button", name="Save and next").bounding_box()
    assert save_box["x"] > doc_box["x"] + doc_box["width"]
    assert abs(save_box["y"] - doc_box["y"]) < 600
    name = page.get_by_role("textbox", name="Annotator")
    name.fill("keys")
    name.press("Enter")
    wait_idle(page)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for g in GRADES:
        page.keyboard.press(str(g))
        page.wait_for_function(GRADE_SHOWN_JS, arg=f"{g} ·", timeout=WAIT_MS)
        wait_idle(page)
        page.keyboard.press("Enter")
        wait_idle(page)
    corpus = load_corpus_index()
    pool = pool_question(
        PipelineConfig(), EN[0], corpus, retrievers=DEFAULT_POOL_RETRIEVERS, depth=10
    )
    chunks = corpus.chunking(PipelineConfig().chunker).by_id
    want = [chunks[e.item] for e in pool.entries[: len(GRADES)]]
    got = sorted(store.current(), key=lambda lab: lab.event_id)
    assert [(lab.question_id, lab.doc_id, lab.start, lab.end, lab.grade) for lab in got] == [
        (EN[0].id, c.doc_id, c.start, c.end, g) for c, g in zip(want, GRADES, strict=True)
    ]
    assert {lab.annotator for lab in got} == {"keys"}

    # a span chosen with the mouse: drag over 40 characters of the excerpt
    frame.locator("#root").wait_for(timeout=WAIT_MS)
    ends = frame.locator("#root").evaluate(DRAG_ENDS_JS)  # scrolls the excerpt to its top
    iframe = page.locator(EXCERPT).first
    iframe.scroll_into_view_if_needed()
    box = iframe.bounding_box()
    page.mouse.move(box["x"] + ends[0], box["y"] + ends[1])
    page.mouse.down()
    page.mouse.move(box["x"] + ends[2], box["y"] + ends[3], steps=8)
    page.mouse.up()
    # the text dragged over (the selection itself is gone once the fragment redraws the excerpt)
    selected = ends[4].strip()
    assert len(selected) >= 20
    wait_idle(page)
    page.get_by_role("spinbutton", name="End").wait_for(timeout=WAIT_MS)  # range mode opened
    # the keys work with the focus in the excerpt's frame (as after a drag): a click there
    # selects nothing and keeps the span
    frame.locator("#root").click(position={"x": 2, "y": 2})
    assert page.evaluate("document.activeElement.title").endswith("label_span_select")
    page.keyboard.press("2")
    page.wait_for_function(GRADE_SHOWN_JS, arg="2 ·", timeout=WAIT_MS)
    wait_idle(page)
    page.keyboard.press("Enter")
    wait_idle(page)
    (mouse,) = [lab for lab in store.current() if lab.text == selected]
    doc = corpus.docs[mouse.doc_id]
    assert doc.text[mouse.start : mouse.end] == selected and mouse.grade == 2
    full_page_shot(page, tmp_path, "label-keys-1280.png")
    page.close()


#: In the component's frame: the picked span lies inside the excerpt's visible box.
PICK_SHOWN_JS = """root => {
  const pick = root.querySelector(".ri-pick");
  if (!pick) return false;
  const r = root.getBoundingClientRect(), p = pick.getBoundingClientRect();
  return p.top >= r.top - 1 && p.top < r.bottom;
}"""

#: In the component's frame, its excerpt scrolled to the top: viewport points just inside the
#: first and the 40th character of the excerpt's first long text run, and those 40 characters
#: (x0, y0, x1, y1, text).
DRAG_ENDS_JS = """root => {
  root.scrollTop = 0;
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let n;
  while ((n = walk.nextNode()) && n.data.trim().length < 60) {}
  const i = n.data.search(/\\S/);
  const r = document.createRange();
  r.setStart(n, i); r.setEnd(n, i + 1);
  const a = r.getBoundingClientRect();
  r.setStart(n, i + 39); r.setEnd(n, i + 40);
  const b = r.getBoundingClientRect();
  const text = n.data.slice(i, i + 40);
  return [a.left + 1, a.top + a.height / 2, b.right - 1, b.top + b.height / 2, text];
}"""
