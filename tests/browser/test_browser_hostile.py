"""Hostile input and many sessions in a real browser (headless Debian chromium, as
tests/test_browser.py).

* Markdown in document ids, titles, sections, a question, an
  annotator and a note is shown as text: no request leaves the app's own
  origin (every other request is intercepted and recorded) and no link
  carries a document-supplied address.
* a model path in the address is refused with one message, the same
  whether the path exists or not.
* one annotator in two tabs: a stale "Change label" asks before overwriting.
* 4 sessions × 5 saves, interleaved: every stored event equals what
  its session showed, and every save showed its confirmation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
from helpers.browser import MARKS, WAIT_MS, serve, wait_idle

from rag_core.gold.store import LabelStore

pytestmark = MARKS
EVIL = "evil.example"
HOSTILE_DOCS = {
    "rows.jsonl": (
        '{"id": "[idlink](https://evil.example/id)", "title": "[t](https://evil.example/t) '
        ':red[red] $\\\\sum$", "text": "Zebrafish tank notes: the tank holds 42 litres. See '
        'https://evil.example/bare and www.evil.example."}\n{"id": '
        '"![p](http://127.0.0.1:8799/x.png)", "title": "https://evil.example/title", "text": '
        '"Zebrafish food is given twice a day, mail ops@evil.example."}\n'
    ),
    "[f](evil.example).md": (
        "# [h1](https://evil.example/h1)\n\n## [sec](https://evil.example/sec) :red[x]\n\n"
        "The zebrafish tank filter is cleaned weekly. ![i](http://127.0.0.1:8799/y.png)\n"
    ),
}


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("data")


@pytest.fixture(scope="module")
def hserver(tmp_path_factory, data_dir) -> Iterator[str]:
    with serve(
        tmp_path_factory.mktemp("server") / "streamlit.log", RAG_INSPECTOR_DATA=str(data_dir)
    ) as url:
        yield url


def _guarded(browser, base: str):
    """A context whose requests outside ``base`` are aborted and recorded."""
    context = browser.new_context(viewport={"width": 1400, "height": 1800})
    outside: list[str] = []

    def route(r):
        if r.request.url.startswith(base) or r.request.url.startswith("data:"):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    return context, outside


def _links_ok(page, base: str) -> list[str]:
    """Every link's href that leaves the app (a scheme other than the app's own URL, or
    ``//host``)."""
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
    return [
        h
        for h in hrefs
        if h.startswith("//")
        or (re.match(r"[a-z][a-z0-9+.-]*:", h, re.I) and not h.startswith(base))
    ]


JOINER = "\u2060"


def _text(page) -> str:
    """The page's visible text without the invisible word joiners that break autolinks."""
    return page.locator("[data-testid=stApp]").inner_text().replace(JOINER, "")


def _assert_inert(page, base: str) -> None:
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
    assert [h for h in hrefs if (EVIL in h or "8799" in h) and not h.startswith("#")] == []
    assert page.locator("img[src*='x.png'], img[src*='y.png']").count() == 0
    assert _links_ok(page, base) == []


def test_document_markdown_is_text_and_nothing_is_fetched(hserver, browser, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    paths = []
    for name, text in HOSTILE_DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
        paths.append(str(docs / name))
    context, outside = _guarded(browser, hserver)
    page = context.new_page()
    question = "zebrafish tank https://evil.example/q [ql](https://evil.example/ql)"
    page.goto(f"{hserver}/inspect?" + urlencode({"corpus": "upload", "q": question, "lang": "en"}))
    wait_idle(page)
    page.locator(".st-key-uploads input[type=file]").set_input_files(paths)
    page.get_by_text("Indexed 3 documents").wait_for(timeout=WAIT_MS, state="attached")
    wait_idle(page)
    page.get_by_role("heading", name="② Retrieval").wait_for(timeout=WAIT_MS)
    _assert_inert(page, hserver)
    assert "[ql](https://evil.example/ql)" in _text(page)  # the question, as typed

    page.get_by_role("link", name="Chunks").click()
    page.get_by_role("heading", name="Chunks").wait_for(timeout=WAIT_MS)
    wait_idle(page)
    for label in (
        "[idlink](https://evil.example/id)",
        "![p](http://127.0.0.1:8799/x.png)",
        "[f](evil.example)",
    ):
        page.locator("[data-testid=stMain] [data-testid=stSelectbox]").first.click()
        page.get_by_role("option", name=label, exact=False).first.click()
        wait_idle(page)
        _assert_inert(page, hserver)
        heading = page.locator(
            "[data-testid=stMain] h3", has_text="Chunk boundaries over the document"
        )
        assert label in heading.first.inner_text().replace(
            JOINER, ""
        )  # the id as typed, brackets and all
    assert ":red[x]" in _text(page)  # a section with a directive, as text
    assert outside == [], sorted(set(outside))
    context.close()


def test_annotator_and_note_markdown_is_text(hserver, browser):
    context, outside = _guarded(browser, hserver)
    page = context.new_page()
    page.goto(f"{hserver}/label?lang=en&qset=en&qid=en-eval-05")
    wait_idle(page)
    who = "[who](https://evil.example/who) https://evil.example/bare"
    page.get_by_role("textbox", name="Annotator", exact=True).fill(who)
    page.get_by_role("textbox", name="Annotator", exact=True).press("Enter")
    wait_idle(page)
    page.get_by_role("textbox", name="Note", exact=True).fill(
        "![n](http://127.0.0.1:8799/x.png) www.evil.example"
    )
    page.get_by_role("textbox", name="Note", exact=True).press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Save label").click()
    page.get_by_text("Saved: characters", exact=False).wait_for(timeout=WAIT_MS)
    wait_idle(page)
    assert who in _text(page)
    _assert_inert(page, hserver)
    assert outside == [], sorted(set(outside))
    context.close()


def test_a_model_path_in_the_address_is_refused_the_same_whether_it_exists(hserver, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    seen = []
    for probe in ("../../etc/passwd", "/etc", "/no/such/model-folder"):
        page.goto(
            f"{hserver}/?"
            + urlencode({"lang": "en", "generation.model": probe, "retrieval.dense_model": probe})
        )
        wait_idle(page)
        alerts = page.locator("[data-testid=stSidebar] [data-testid=stAlert]")
        texts = sorted(t for t in alerts.all_inner_texts() if "not accepted from the address" in t)
        assert len(texts) == 2, texts
        assert not any(probe in t for t in texts)
        seen.append(texts)
        assert page.get_by_text("exists but could not be loaded", exact=False).count() == 0
    assert seen[0] == seen[1] == seen[2]
    page.close()


def _label_page(browser, base: str, who: str, qid: str):
    context = browser.new_context(viewport={"width": 1400, "height": 1800})
    page = context.new_page()
    page.goto(f"{base}/label?lang=en&qset=en&qid={qid}")
    wait_idle(page)
    page.get_by_role("textbox", name="Annotator", exact=True).fill(who)
    page.get_by_role("textbox", name="Annotator", exact=True).press("Enter")
    wait_idle(page)
    return context, page


def _grade(page, g: int) -> None:
    names = {
        0: "0 · not relevant",
        1: "1 · relevant",
        2: "2 · highly relevant",
        3: "3 · the complete answer",
    }
    page.get_by_text(names[g], exact=True).click()
    wait_idle(page)


def test_two_tabs_a_stale_change_asks_before_overwriting(hserver, browser, data_dir):
    store = LabelStore(data_dir / "labels.sqlite3")
    qid = "en-eval-06"
    # one annotator in two tabs (each annotator has labels of their own: another name in tab B
    # would label beside A, not over A)
    ca, a = _label_page(browser, hserver, "two-tabs", qid)
    a.get_by_role("button", name="Save label").click()
    a.get_by_text("Saved: characters", exact=False).wait_for(timeout=WAIT_MS)
    wait_idle(a)
    cb, b = _label_page(browser, hserver, "two-tabs", qid)  # B shows grade 1
    _grade(b, 3)
    _grade(a, 2)
    a.get_by_role("button", name="Change label").click()
    a.get_by_text("Label changed: grade 2.", exact=False).wait_for(timeout=WAIT_MS)
    b.get_by_role("button", name="Change label").click()
    b.get_by_text("changed this span's label since it was shown", exact=False).wait_for(
        timeout=WAIT_MS
    )
    wait_idle(b)
    mine = list(store.current("en", qid))
    assert [x.grade for x in mine] == [2]  # not overwritten
    b.get_by_role("button", name="Overwrite").click()
    b.get_by_text("Label changed: grade 3.", exact=False).wait_for(timeout=WAIT_MS)
    assert [(x.grade, x.annotator) for x in store.current("en", qid)] == [(3, "two-tabs")]
    assert [e.kind for e in store.history("en", qid)] == ["add", "change", "change"]
    ca.close()
    cb.close()


SELECTED = re.compile(r"Selected: (\S+) · characters (\d+)–(\d+)")


def test_four_sessions_five_saves_each_store_exactly_what_they_showed(hserver, browser, data_dir):
    store = LabelStore(data_dir / "labels.sqlite3")
    sessions = [_label_page(browser, hserver, f"load-{i}", f"en-eval-0{i + 1}") for i in range(4)]
    shown: dict[str, list[tuple[str, int, int, int, str]]] = {}
    for j in range(5):
        for i, (_, page) in enumerate(sessions):
            note = f"s{i}-save{j}"
            page.get_by_role("textbox", name="Note", exact=True).fill(note)
            page.get_by_role("textbox", name="Note", exact=True).press("Enter")
        for _, page in sessions:
            wait_idle(page)
            _grade(page, j % 4)
        for _, page in sessions:  # the five saves of this round, sent together
            page.get_by_role("button", name=re.compile("^(Save|Change) label$")).click()
        for i, (_, page) in enumerate(sessions):
            confirm = "Saved: characters" if j == 0 else f"Label changed: grade {j % 4}."
            page.get_by_text(confirm, exact=False).wait_for(timeout=WAIT_MS)
            wait_idle(page)
            m = SELECTED.search(page.locator("[data-testid=stMain]").inner_text())
            assert m, "the selected span is shown"
            shown.setdefault(f"en-eval-0{i + 1}", []).append(
                (m.group(1), int(m.group(2)), int(m.group(3)), j % 4, f"s{i}-save{j}")
            )
    for _, page in sessions:
        page.context.close()
    for i in range(4):
        qid = f"en-eval-0{i + 1}"
        events = [e for e in store.history("en", qid) if e.annotator == f"load-{i}"]
        assert [(e.doc_id, e.start, e.end, e.grade, e.note) for e in events] == shown[qid]
        assert [e.kind for e in events] == ["add"] + ["change"] * 4
