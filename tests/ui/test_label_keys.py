"""Annotation at keyboard speed: grade keys, save-and-next (Enter), the mouse selection's range,
and the page flow.

The view-model transitions run on small inline fixtures with a dict as session state; the page
flow runs through ``AppTest`` (it clicks the buttons the shortcuts press; the keys themselves are
pressed in ``tests/browser/test_browser_label_keys.py``).
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from helpers.app import make_app, ok
from helpers.paths import ROOT

from rag_core.config import PipelineConfig
from rag_core.evaluation.pooling import DEFAULT_POOL_RETRIEVERS, pool_question
from rag_core.formats.questions import load_questions
from rag_core.gold.store import LabelStore
from rag_core.index import load_corpus_index
from rag_core.types import Chunk, Document, Question
from ui import state as S
from ui.label import keys as K
from ui.label import saving, spans
from ui.label import view as vm

DOC = Document("d1", "One", "Alpha one. Beta two. Gamma three.")
C0 = Chunk("d1#0", "d1", 0, 0, 10, 0, DOC.text[0:10], DOC.text[0:10])
C1 = Chunk("d1#1", "d1", 1, 11, 20, 11, DOC.text[11:20], DOC.text[11:20])
#: Pool positions 1 and 3 (a pool's positions need not be consecutive).
CANDIDATES = {1: C0, 3: C1}
QSETS = {"en": (Question("q1", "en", "Alpha?"), Question("q2", "en", "Beta?"))}
EN = load_questions(ROOT / "sample_corpus" / "questions" / "en.jsonl")


@pytest.fixture
def store(tmp_path) -> LabelStore:
    return LabelStore(tmp_path / "labels.sqlite3")


def on(cand: int, chunk: Chunk, grade: int, who: str = "ann") -> dict:
    return {
        K.K_LAB_QSET: "en",
        K.K_LAB_QID: "q1",
        K.K_LAB_CAND: cand,
        K.K_LAB_DOC: "d1",
        K.K_LAB_CHUNK: chunk.chunk_id,
        K.K_LAB_MODE: "chunk",
        K.K_LAB_GRADE: grade,
        K.K_LAB_NOTE: "",
        K.K_LAB_ANNOTATOR: who,
    }


def test_a_grade_key_sets_the_grade_and_nothing_else():
    assert spans.set_grade({}, 2) == vm.Change({K.K_LAB_GRADE: 2})
    with pytest.raises(ValueError, match="grade must be one of"):
        spans.set_grade({}, 4)


def test_the_next_candidate_follows_pool_order():
    assert saving.next_candidate(1, CANDIDATES) == 3
    assert saving.next_candidate(3, CANDIDATES) is None
    assert saving.next_candidate(None, CANDIDATES) == 1
    assert saving.next_candidate(2, CANDIDATES) == 3


def test_save_and_next_writes_the_label_and_opens_the_next_candidate(store):
    state = on(1, C0, 2)
    change = saving.save_and_next(
        state, store, ("en", "q1", "d1", 0, 10), DOC, CANDIDATES, QSETS, "q2"
    )
    (lab,) = store.current()
    assert (lab.question_id, lab.doc_id, lab.start, lab.end, lab.grade) == ("q1", "d1", 0, 10, 2)
    assert change.values[K.K_LAB_FLASH] == vm.Msg("lab.saved", {"grade": 2, "start": 0, "end": 10})
    assert (change.values[K.K_LAB_CAND], change.values[K.K_LAB_CHUNK]) == (3, "d1#1")
    assert change.values[K.K_LAB_MODE] == "chunk"
    assert K.K_LAB_QID not in change.values  # still the same question


def test_save_and_next_after_the_last_candidate_opens_the_next_question(store):
    state = on(3, C1, 0)
    change = saving.save_and_next(
        state, store, ("en", "q1", "d1", 11, 20), DOC, CANDIDATES, QSETS, "q2"
    )
    assert [lab.grade for lab in store.current()] == [0]
    assert change.values[K.K_LAB_QID] == "q2"
    assert (change.values[S.K_QSET], change.values[S.K_QID]) == ("en", "q2")  # the sidebar follows


def test_an_unnamed_save_and_next_writes_nothing_and_stays(store):
    state = on(1, C0, 2, who="  ")
    change = saving.save_and_next(
        state, store, ("en", "q1", "d1", 0, 10), DOC, CANDIDATES, QSETS, "q2"
    )
    assert store.current() == ()
    assert K.K_LAB_CAND not in change.values and K.K_LAB_QID not in change.values


def test_a_stale_save_and_next_asks_and_stays(store):
    key = ("en", "q1", "d1", 0, 10)
    state = {**on(1, C0, 2), K.K_LAB_SEEN: (key, None)}  # this session saw no label there
    store.add("en", "q1", "d1", 0, 10, 1, text=DOC.text[0:10], annotator="ann")  # another tab
    change = saving.save_and_next(state, store, key, DOC, CANDIDATES, QSETS, "q2")
    assert change.values[K.K_LAB_STALE] == (key, 2, "")
    assert K.K_LAB_CAND not in change.values
    assert [lab.grade for lab in store.current()] == [1]  # the other tab's label stays


# ------------------------------------------------------------------ mouse selection

TRICKY = Document(
    "t1", "Tricky", "Café <b>&amp;</b> 한국어 😀 emoji\nline two. <script>x</script> end."
)


class _Text(HTMLParser):
    """The text a browser's ``textContent`` gives for markup (entities decoded)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.parts.append(data)


def test_the_selectable_excerpt_is_the_document_text_escaped_and_offset_by_its_base():
    from ui.label import widgets as lr

    pick = spans.SpanPick(
        vm.Change(), TRICKY, "range", {}, {}, False, None, 6, 20, None, None, None
    )
    marks = (spans.MarkSpec(6, 20, "ri-pick", vm.Msg("lab.mark_pick")),)
    for whole in (True, False):
        markup = str(lr.excerpt(pick, marks, whole, "en"))
        parsed = _Text()
        parsed.feed(markup)
        lo, hi = spans.excerpt_window(pick, whole)
        # the component counts code points of this text from the excerpt's base: the same
        # numbers as Python's offsets into Document.text
        assert "".join(parsed.parts) == TRICKY.text[lo:hi]
        assert set(parsed.tags) <= {"div", "span"}  # "<b>" and "<script>" stayed text
    piece = "한국어 😀 emoji"
    start = TRICKY.text.index(piece)
    change = spans.mouse_span(
        {K.K_LAB_DOC: "t1"}, {"t1": TRICKY}, {"doc": "t1", "start": start, "end": start + 12}
    )
    s, e = change.values[K.K_LAB_START], change.values[K.K_LAB_END]
    assert TRICKY.text[s:e] == piece
    assert change.values[K.K_LAB_MODE] == "range" and change.drop == (K.K_LAB_OCCS,)


def test_a_mouse_selection_is_trimmed_and_checked():
    docs = {"d1": DOC}
    state = {K.K_LAB_DOC: "d1"}
    # " Beta two. " with the spaces around it: the range is the words
    change = spans.mouse_span(state, docs, {"doc": "d1", "start": 10, "end": 21})
    assert (change.values[K.K_LAB_START], change.values[K.K_LAB_END]) == (11, 20)
    for bad in (
        None,
        {"doc": "d2", "start": 0, "end": 3},  # not the open document
        {"doc": "d1", "start": 5, "end": 5},
        {"doc": "d1", "start": 0, "end": len(DOC.text) + 1},
        {"doc": "d1", "start": "0", "end": 3},
        {"doc": "d1", "start": True, "end": 3},
        {"doc": "d1", "start": 10, "end": 11},  # a space only
    ):
        assert spans.mouse_span(state, docs, bad) == vm.Change(), bad


# ------------------------------------------------------------------ the page


@pytest.fixture(autouse=True)
def data(monkeypatch, tmp_path) -> Path:
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")
    monkeypatch.setenv("RAG_INSPECTOR_DATA", str(tmp_path / "data"))
    return tmp_path / "data" / "labels.sqlite3"


def test_grade_keys_and_save_and_next_label_the_pool_in_order(entry, data):
    at = make_app(entry, {"lang": "en", "qset": "en", "qid": EN[0].id}, page="label")
    at = at.text_input(key=K.K_LAB_ANNOTATOR).set_value("keys").run()
    grades = [3, 0, 2]
    for g in grades:
        at.button(key=f"{K.K_LAB_GRADE_KEY}.{g}").click().run()
        assert at.radio(key=K.K_LAB_GRADE).value == g
        at.button(key=K.K_LAB_SAVE_NEXT).click().run()
        ok(at)
    corpus = load_corpus_index()
    pool = pool_question(
        PipelineConfig(), EN[0], corpus, retrievers=DEFAULT_POOL_RETRIEVERS, depth=10
    )
    chunks = corpus.chunking(PipelineConfig().chunker).by_id
    want = [chunks[e.item] for e in pool.entries[: len(grades)]]
    got = sorted(LabelStore(data).current(), key=lambda lab: lab.event_id)
    assert [(lab.doc_id, lab.start, lab.end, lab.grade) for lab in got] == [
        (c.doc_id, c.start, c.end, g) for c, g in zip(want, grades, strict=True)
    ]
    assert at.session_state[K.K_LAB_CAND] == pool.entries[len(grades)].position
