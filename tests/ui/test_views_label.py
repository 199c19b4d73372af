"""The Label page's view model (``ui.label.view``, ``origins``, ``spans``, ``saving``, ``files``)
on small inline fixtures, without Streamlit.

Session state is a plain dict; each transition's :class:`~ui.label.view.Change`
is compared with the keys it must set and drop, written out.
"""

from __future__ import annotations

import pytest

from rag_core.chunking.diagnostics import diagnose
from rag_core.config import PipelineConfig, preset
from rag_core.evaluation.pooling import Pool, PoolEntry
from rag_core.gold.labels import label_id_for
from rag_core.gold.store import LabelStore
from rag_core.types import Chunk, Chunking, Document, Needle, Notice, Question
from ui import state as S
from ui.label import files, origins, saving, spans
from ui.label import keys as K
from ui.label import view as vm
from ui.label.view import Change, Msg, say

# "Alpha one." 0–10 · "Beta two." 11–20 · "Gamma three." 21–33
D1 = Document("d1", "One", "Alpha one. Beta two. Gamma three.")
# "Delta four." 0–11 · "Epsilon five." 12–25
D2 = Document("d2", "Two", "Delta four. Epsilon five.")
D3 = Document("d3", "Blank", "   ")  # no chunk, no sentence
DOCS = {"d1": D1, "d2": D2, "d3": D3}


def chunk(doc: Document, ordinal: int, start: int, end: int) -> Chunk:
    text = doc.text[start:end]
    return Chunk(f"{doc.doc_id}#{ordinal}", doc.doc_id, ordinal, start, end, start, text, text)


CHUNKS = (chunk(D1, 0, 0, 20), chunk(D1, 1, 21, 33), chunk(D2, 0, 0, 25))
CHUNKING = Chunking(
    "test",
    CHUNKS,
    {c.chunk_id: c for c in CHUNKS},
    {c.chunk_id: i for i, c in enumerate(CHUNKS)},
    diagnose(DOCS, CHUNKS),
)
Q1 = Question(
    "q1",
    "en",
    "What is beta?",
    ("What is beta?", "Beta?"),
    (Needle("d1", "Beta two."),),
    tags=("greek",),
)
Q2 = Question("q2", "en", "What is delta?", needles=(Needle("d2", "Delta four."),))
Q3 = Question("q3", "en", "Nothing?", answerable=False)
QSETS = {"en": (Q1, Q2, Q3), "ko": (Q3,)}
#: Pool positions 1 and 2: the second and first chunk of d1.
CANDIDATES = {1: CHUNKS[1], 2: CHUNKS[0]}


@pytest.fixture
def store(tmp_path) -> LabelStore:
    return LabelStore(tmp_path / "labels.sqlite3")


def add(
    store: LabelStore, qid: str, doc: Document, start: int, end: int, grade: int, who: str = "ann"
):
    return store.add(
        "en", qid, doc.doc_id, start, end, grade, text=doc.text[start:end], annotator=who, doc=doc
    )


def after(state: dict, change: Change) -> dict:
    out = dict(state)
    vm.apply(out, change)
    return out


# ------------------------------------------------------------------ plumbing


def test_apply_drops_then_sets():
    state = {"a": 1, "b": 2, "c": 3}
    vm.apply(state, Change({"b": 20, "d": 4}, ("a", "b", "zz")))
    assert state == {"b": 20, "c": 3, "d": 4}


def test_say_words_nested_messages_and_passes_strings():
    msg = Msg(
        "lab.span_judged",
        {"grade": 2, "who": "ann", "when": "2026-01-01", "kind": Msg("lab.kind.change")},
    )
    assert "grade 2" in vm.say(msg, "en") and vm.say(Msg("lab.kind.change"), "en") in vm.say(
        msg, "en"
    )
    assert vm.say("as is", "en") == "as is"
    assert vm.say(Msg("lab.stale_kept", {"grade": 2}), "en") == "Kept the current label (grade 2)."


# ------------------------------------------------------------- store, annotator


def test_annotator_is_the_typed_name_stripped():
    assert vm.annotator({K.K_LAB_ANNOTATOR: "  ann "}) == "ann"
    assert vm.annotator({K.K_LAB_ANNOTATOR: None}) == ""
    assert vm.annotator({}) == ""


def test_store_box_starts_on_the_store_in_use(tmp_path):
    assert vm.store_box({}, tmp_path / "x.sqlite3") == Change(
        {K.K_LAB_STORE_W: str(tmp_path / "x.sqlite3")}
    )
    assert vm.store_box({K.K_LAB_STORE_W: "typed"}, tmp_path / "x.sqlite3") == Change()


def test_use_store_switches_only_to_a_store_that_opens(tmp_path):
    good = tmp_path / "new" / "labels.sqlite3"
    assert vm.use_store({K.K_LAB_STORE_W: f"  {good} "}) == vm.Outcome(
        Change({K.K_LAB_STORE_PATH: str(good)}), rerun=True
    )
    bad = vm.use_store({K.K_LAB_STORE_W: str(tmp_path)})  # a directory
    assert bad.change == Change() and not bad.rerun
    assert isinstance(bad.error, Msg) and bad.error.key == "lab.store_error"
    assert bad.error.fields["error"].code == "label.store.is_directory"  # worded by the page
    assert "is a directory, not a file" in say(bad.error, "en")
    assert "파일이 아니라 폴더입니다" in say(bad.error, "ko")


def test_inside_is_under_the_root(tmp_path):
    assert vm.inside(tmp_path / "a" / "b.sqlite3", tmp_path)
    assert not vm.inside(tmp_path.parent / "elsewhere.sqlite3", tmp_path)


# ------------------------------------------------------------------- question


def test_the_page_follows_the_sidebar_when_it_moves():
    state = {S.K_QSET: "en", K.K_LAB_QSET: "en", K.K_LAB_QID: "q1", K.K_LAB_SIDEBAR: ("en", "q1")}
    assert vm.follow_sidebar(state, QSETS, Q2) == Change(
        {K.K_LAB_QSET: "en", K.K_LAB_QID: "q2", K.K_LAB_SIDEBAR: ("en", "q2")}
    )


def test_the_page_keeps_its_own_question_while_the_sidebar_stays():
    state = {S.K_QSET: "en", K.K_LAB_QSET: "en", K.K_LAB_QID: "q3", K.K_LAB_SIDEBAR: ("en", "q1")}
    assert vm.follow_sidebar(state, QSETS, Q1) == Change({K.K_LAB_SIDEBAR: ("en", "q1")})


def test_without_a_sidebar_question_unknown_set_and_id_fall_back_to_the_first():
    state = {S.K_QSET: "other", K.K_LAB_QSET: "gone", K.K_LAB_QID: "gone"}
    assert vm.follow_sidebar(state, QSETS, Q1) == Change(
        {K.K_LAB_SIDEBAR: None, K.K_LAB_QSET: "en", K.K_LAB_QID: "q1"}
    )
    state = {K.K_LAB_QSET: "ko", K.K_LAB_QID: "q1"}  # q1 is not in set ko
    assert vm.follow_sidebar(state, QSETS, None) == Change(
        {K.K_LAB_SIDEBAR: None, K.K_LAB_QID: "q3"}
    )


def test_follow_makes_the_page_question_the_sidebars():
    state = {K.K_LAB_QSET: "en", K.K_LAB_QID: "q1"}
    sidebar = {S.K_QMODE: "set", S.K_QSET: "en", S.K_QPHRASING: 0}
    assert vm.follow(state, QSETS, "q2") == Change(
        {K.K_LAB_QID: "q2", **sidebar, S.K_QID: "q2", K.K_LAB_SIDEBAR: ("en", "q2")}
    )
    assert vm.follow(state, QSETS) == Change(
        {**sidebar, S.K_QID: "q1", K.K_LAB_SIDEBAR: ("en", "q1")}
    )
    moved = {K.K_LAB_QSET: "ko", K.K_LAB_QID: "q1"}  # the set changed: its first question
    assert vm.follow(moved, QSETS) == Change(
        {
            K.K_LAB_QID: "q3",
            S.K_QMODE: "set",
            S.K_QSET: "ko",
            S.K_QID: "q3",
            S.K_QPHRASING: 0,
            K.K_LAB_SIDEBAR: ("ko", "q3"),
        }
    )


@pytest.mark.parametrize(
    ("not_judged", "current", "expected"),
    [
        (("a", "c", "d"), "b", "c"),  # the next one after b
        (("a", "b"), "c", "a"),  # none after: the first
        (("b",), "b", None),  # only the current one is left
        ((), "a", None),
    ],
)
def test_next_unjudged(not_judged, current, expected):
    assert vm.next_unjudged(("a", "b", "c", "d"), not_judged, current) == expected


def test_question_view_of_a_judged_question(store):
    lab = add(store, "q1", D1, 11, 20, 2)
    qv = vm.question_view(store, "en", QSETS["en"], "q1", DOCS, "ann")
    assert qv.question == Q1
    assert qv.options == {
        "q1": "q1 · What is beta?",
        "q2": "q2 · What is delta?",
        "q3": "q3 · Nothing?",
    }
    assert (qv.judged, qv.total, qv.share, qv.next_id) == (1, 3, 1 / 3, "q2")
    assert qv.phrasings == "0: What is beta? · 1: Beta?"
    assert qv.facts == (
        Msg("lab.q_judged", {"n": 1}),
        Msg("lab.answerable"),
        Msg("lab.tags", {"tags": "greek"}),
    )
    assert qv.labels == (lab,)
    # the label on the needle's span overrides it
    assert qv.gold == (Needle("d1", "Beta two.", 11, 20, grade=2, origin="needle+label"),)


def test_question_view_shows_only_the_annotators_own_labels(store):
    add(store, "q1", D1, 11, 20, 3, who="other")
    qv = vm.question_view(store, "en", QSETS["en"], "q1", DOCS, "ann")
    assert qv.labels == () and qv.judged == 0  # blind: another's grade is not shown
    assert qv.gold == (Needle("d1", "Beta two."),)  # the shipped needle, untouched by it


def test_question_view_of_a_question_not_judged(store):
    qv = vm.question_view(store, "en", QSETS["en"], "q3", DOCS)
    assert (qv.judged, qv.next_id, qv.phrasings, qv.labels, qv.gold) == (0, "q1", "", (), ())
    assert qv.facts == (Msg("lab.q_not_judged"), Msg("lab.unanswerable"))


def test_gold_rows_locate_needles_then_list_grade_zero_labels(store):
    zero = add(store, "q1", D1, 0, 10, 0)
    gold = (
        Needle("d1", "Beta two."),
        Needle("d2", "Epsilon five.", 12, 25, grade=3, origin="label"),
        Needle("gone", "lost text"),
    )
    assert origins.gold_rows(gold, (zero,), DOCS) == (
        origins.GoldRow("needle", "d1", (11, 20), 1, "Beta two."),
        origins.GoldRow("label", "d2", (12, 25), 3, "Epsilon five."),
        origins.GoldRow("needle", "gone", None, 1, "lost text"),
        origins.GoldRow("zero", "d1", (0, 10), 0, "Alpha one."),
    )


# ----------------------------------------------------------------------- pool


def test_pool_defaults_only_when_unset():
    assert origins.pool_defaults({}) == Change(
        {K.K_LAB_POOL_RETRIEVERS: ["bm25:unicode", "bm25:char", "tfidf:char"]}
    )
    assert origins.pool_defaults({K.K_LAB_POOL_RETRIEVERS: []}) == Change()


def test_pool_request_reads_the_widgets():
    state = {
        K.K_LAB_POOL_RETRIEVERS: ["bm25:char"],
        K.K_LAB_POOL_DEPTH: 7.0,
        K.K_LAB_POOL_ORDER: "shuffle",
        K.K_LAB_POOL_SEED: 3,
    }
    assert origins.pool_request(state) == origins.PoolRequest(("bm25:char",), 7, "shuffle", 3)
    assert origins.pool_request({**state, K.K_LAB_POOL_RETRIEVERS: None}).retrievers == ()


def test_gold_origins_maps_each_chunk_to_the_origins_it_contains():
    gold = (
        Needle("d1", "Beta two."),  # inside d1#0 only
        Needle("d1", "Alpha one.", 0, 10, grade=2, origin="label"),  # d1#0 again
        Needle("d1", "Alpha one.", 0, 10, grade=1, origin="label"),  # same origin: listed once
        Needle("d1", "Beta two. Gamma", 11, 26, origin="label"),  # crosses the cut: no chunk
        Needle("d2", "Epsilon five.", 12, 25, origin="needle+label"),
    )
    assert origins.gold_origins(CHUNKS, gold, DOCS) == {
        "d1#0": ("needle", "label"),
        "d2#0": ("needle+label",),
    }
    assert origins.gold_origins(CHUNKS, (), DOCS) == {}


def pool(order: str = "rank", unavailable: tuple[str, ...] = ()) -> Pool:
    entries = (
        PoolEntry("d1#1", 1, 1, (("bm25@0", 1),)),
        PoolEntry("d1#0", 2, 2, (("bm25@0", 2), ("tfidf@0", 3))),
    )
    runs = {"bm25@0": ("d1#1", "d1#0"), "tfidf@0": ("d2#0", "d1#0")}
    return Pool("q1", entries, runs, 10, order, 0, "test", unavailable)


def test_pool_view_rows_carry_ranks_gold_and_zero_labels(store):
    zero = add(store, "q1", D1, 0, 10, 0)
    view = origins.pool_view(
        pool(unavailable=("dense: no model",)), CHUNKING, Q1.needles, (zero,), DOCS
    )
    assert view.rows == (
        origins.PoolRow(1, 1, "bm25@0#1", CHUNKS[1], (), 0),
        origins.PoolRow(2, 2, "bm25@0#2, tfidf@0#3", CHUNKS[0], ("needle",), 1),
    )
    assert [r.gold for r in view.rows] == [False, True]
    assert view.by_rank
    assert view.candidates == {1: CHUNKS[1], 2: CHUNKS[0]}
    assert view.options == {
        1: "#1 · d1 #1 · Gamma three.",
        2: "#2 · d1 #0 · Alpha one. Beta two.",
    }
    assert view.warnings == (Msg("lab.pool.unavailable", {"message": "dense: no model"}),)
    assert view.facts == Msg("lab.pool.facts", {"n": 2, "runs": 2, "depth": 10, "sig": "test"})


def test_pool_view_without_a_pool_and_in_shuffled_order():
    assert origins.pool_view(None, CHUNKING, (), (), DOCS) == origins.PoolView(
        (), True, {}, {}, (), None
    )
    assert not origins.pool_view(pool("shuffle"), CHUNKING, (), (), DOCS).by_rank


# --------------------------------------------------------------- span picking


def pick(state: dict, labels=(), candidates=CANDIDATES, qid: str = "q1") -> spans.SpanPick:
    return spans.pick_span(state, "en", qid, candidates, DOCS, CHUNKING, labels)


def on_chunk(chunk: str, start: int, end: int) -> dict:
    """The state keys of a page open on q1 at ``chunk`` (``d1[start:end]``) in chunk mode."""
    return {
        K.K_LAB_FOR: ("en", "q1"),
        K.K_LAB_DOC: "d1",
        K.K_LAB_CHUNK: chunk,
        K.K_LAB_MODE: "chunk",
        K.K_LAB_LAST: ("d1", start, end),
        K.K_LAB_SPAN: ("en", "q1", "d1", start, end),
    }


#: State of a page already open on q1, chunk d1#0, so that a test changes one thing.
SETTLED = {**on_chunk("d1#0", 0, 20), K.K_LAB_CAND: 2, K.K_LAB_GRADE: 1, K.K_LAB_NOTE: ""}


def test_a_new_question_drops_the_old_span_and_opens_its_first_candidate():
    old = {
        **SETTLED,
        K.K_LAB_FOR: ("en", "q0"),
        K.K_LAB_SENT: 4,
        K.K_LAB_START: 5,
        K.K_LAB_END: 9,
        K.K_LAB_FIND: "x",
        K.K_LAB_OCCS: ((1, 2),),
        K.K_LAB_FLASH: Msg("lab.unchanged"),
        K.K_LAB_GRADE: 3,
        K.K_LAB_NOTE: "old",
    }
    p = pick(old)
    # the first candidate (position 1) is d1#1, 21–33
    assert p.change == Change(
        {**on_chunk("d1#1", 21, 33), K.K_LAB_CAND: 1, K.K_LAB_NOTE: ""},
        (
            K.K_LAB_FLASH,
            K.K_LAB_SAVE_ERROR,
            K.K_LAB_SENT,
            K.K_LAB_START,
            K.K_LAB_END,
            K.K_LAB_FIND,
            K.K_LAB_OCCS,
        ),
    )
    assert (p.doc, p.mode, p.start, p.end, p.ok, p.existing, p.bad) == (
        D1,
        "chunk",
        21,
        33,
        True,
        None,
        None,
    )
    assert p.flash == Msg("lab.unchanged")
    assert p.picker == K.K_LAB_CHUNK
    assert p.options == {
        "d1#0": "#0 · 0–20 · Alpha one. Beta two.",
        "d1#1": "#1 · 21–33 · Gamma three.",
    }


def test_a_new_question_without_candidates_opens_the_first_document():
    p = pick({}, candidates={})
    assert p.change == Change(
        {**on_chunk("d1#0", 0, 20), K.K_LAB_NOTE: "", K.K_LAB_GRADE: 1},
        # dropped, then set again: only the keys left unset stay dropped
        (
            K.K_LAB_FLASH,
            K.K_LAB_SAVE_ERROR,
            K.K_LAB_CAND,
            K.K_LAB_SENT,
            K.K_LAB_START,
            K.K_LAB_END,
            K.K_LAB_FIND,
            K.K_LAB_OCCS,
        ),
    )


def test_a_settled_page_changes_nothing_but_its_one_shot_messages():
    p = pick({**SETTLED, K.K_LAB_SAVE_ERROR: "bad note"})
    assert p.change == Change({K.K_LAB_LAST: ("d1", 0, 20)}, (K.K_LAB_FLASH, K.K_LAB_SAVE_ERROR))
    assert (p.start, p.end, p.save_error, p.flash) == (0, 20, "bad note", None)


def test_invalid_candidate_document_and_mode_fall_back():
    p = pick({**SETTLED, K.K_LAB_CAND: 99, K.K_LAB_DOC: "gone", K.K_LAB_MODE: "nonsense"})
    assert {k: p.change.values[k] for k in (K.K_LAB_CAND, K.K_LAB_DOC, K.K_LAB_MODE)} == {
        K.K_LAB_CAND: 1,
        K.K_LAB_DOC: "d1",
        K.K_LAB_MODE: "chunk",
    }


def test_another_document_opens_on_its_first_chunk_or_says_it_has_none():
    p = pick({**SETTLED, K.K_LAB_DOC: "d2"})
    assert (p.change.values[K.K_LAB_CHUNK], p.start, p.end) == ("d2#0", 0, 25)
    blank = pick({**SETTLED, K.K_LAB_DOC: "d3"})
    assert (blank.empty, blank.options, blank.ok, blank.bad) == (
        Msg("lab.no_chunks"),
        {},
        False,
        None,
    )
    assert K.K_LAB_LAST not in blank.change.values  # an empty span is not remembered


def test_the_chunk_holding_the_last_span_is_picked():
    p = pick({**SETTLED, K.K_LAB_CHUNK: None, K.K_LAB_LAST: ("d1", 25, 30)})
    assert (p.change.values[K.K_LAB_CHUNK], p.start, p.end) == ("d1#1", 21, 33)


def test_sentence_mode_opens_on_the_sentence_of_the_last_span():
    p = pick({**SETTLED, K.K_LAB_MODE: "sentence", K.K_LAB_LAST: ("d1", 12, 15)})
    assert p.change.values[K.K_LAB_SENT] == 1  # "Beta two." holds offset 12
    assert (p.start, p.end) == (11, 20)
    assert p.picker == K.K_LAB_SENT
    assert p.options == {
        0: "1 · 0–10 · Alpha one.",
        1: "2 · 11–20 · Beta two.",
        2: "3 · 21–33 · Gamma three.",
    }
    # no last span in this document: the picked chunk's start is the anchor (d1#1 starts at 21)
    p = pick(
        {**SETTLED, K.K_LAB_MODE: "sentence", K.K_LAB_CHUNK: "d1#1", K.K_LAB_LAST: ("d2", 0, 5)}
    )
    assert (p.change.values[K.K_LAB_SENT], p.start, p.end) == (2, 21, 33)


def test_sentence_mode_keeps_a_valid_sentence_and_resets_an_invalid_one():
    p = pick({**SETTLED, K.K_LAB_MODE: "sentence", K.K_LAB_SENT: 2})
    assert K.K_LAB_SENT not in p.change.values and (p.start, p.end) == (21, 33)
    p = pick({**SETTLED, K.K_LAB_MODE: "sentence", K.K_LAB_SENT: 7, K.K_LAB_LAST: ("d1", 0, 20)})
    assert p.change.values[K.K_LAB_SENT] == 0
    blank = pick({**SETTLED, K.K_LAB_MODE: "sentence", K.K_LAB_DOC: "d3"})
    assert blank.empty == Msg("lab.no_sentences") and not blank.ok


def test_range_mode_opens_on_the_last_span_else_the_chunk_else_the_start():
    p = pick({**SETTLED, K.K_LAB_MODE: "range", K.K_LAB_LAST: ("d1", 11, 20)})
    assert (p.picker, p.options, p.start, p.end) == ("", {}, 11, 20)
    assert (p.change.values[K.K_LAB_START], p.change.values[K.K_LAB_END]) == (11, 20)
    p = pick({**SETTLED, K.K_LAB_MODE: "range", K.K_LAB_CHUNK: "d1#1", K.K_LAB_LAST: None})
    assert (p.start, p.end) == (21, 33)
    # a document without chunks and without a last span: its first min(n, 200) characters
    p = pick(
        {
            **SETTLED,
            K.K_LAB_MODE: "range",
            K.K_LAB_DOC: "d3",
            K.K_LAB_CHUNK: None,
            K.K_LAB_LAST: None,
        }
    )
    assert (p.start, p.end, p.ok) == (0, 3, True)


def test_range_offsets_are_clamped_to_the_document_and_a_bad_range_is_a_message():
    p = pick({**SETTLED, K.K_LAB_MODE: "range", K.K_LAB_START: -5, K.K_LAB_END: 500})
    assert (p.change.values[K.K_LAB_START], p.change.values[K.K_LAB_END]) == (0, 33)
    p = pick({**SETTLED, K.K_LAB_MODE: "range", K.K_LAB_START: 20, K.K_LAB_END: 10})
    assert not p.ok and p.existing is None
    assert p.bad == Msg("lab.bad_span", {"start": 20, "end": 10, "n": 33})
    assert p.change.values[K.K_LAB_SPAN] == ("en", "q1", "d1", 20, 10)
    assert K.K_LAB_LAST not in p.change.values


def test_range_find_results_none_one_and_many():
    base = {**SETTLED, K.K_LAB_MODE: "range", K.K_LAB_START: 0, K.K_LAB_END: 5, K.K_LAB_FIND: "zzz"}
    p = pick({**base, K.K_LAB_OCCS: ()})
    assert p.find_none and p.occ_options == {}
    p = pick({**base, K.K_LAB_OCCS: ((0, 5),)})
    assert not p.find_none and p.occ_options == {}
    p = pick({**base, K.K_LAB_OCCS: ((0, 5), (12, 17)), K.K_LAB_OCC: 9})
    assert p.occ_options == {0: "0–5", 1: "12–17"} and p.change.values[K.K_LAB_OCC] == 0
    p = pick({**base, K.K_LAB_FIND: "", K.K_LAB_OCCS: ()})  # an empty box says nothing
    assert not p.find_none


def test_a_new_span_shows_its_label_and_the_same_span_keeps_the_edit(store):
    lab = store.add(
        "en", "q1", "d1", 0, 20, 3, text=D1.text[0:20], note="kept", annotator="ann", doc=D1
    )
    p = pick({**SETTLED, K.K_LAB_SPAN: None}, labels=(lab,))
    assert p.existing == lab
    assert (p.change.values[K.K_LAB_GRADE], p.change.values[K.K_LAB_NOTE]) == (3, "kept")
    p = pick({**SETTLED, K.K_LAB_GRADE: 2, K.K_LAB_NOTE: "typing"}, labels=(lab,))
    assert K.K_LAB_GRADE not in p.change.values and K.K_LAB_NOTE not in p.change.values
    p = pick({**SETTLED, K.K_LAB_GRADE: 9})  # not a grade
    assert p.change.values[K.K_LAB_GRADE] == 1


def test_open_candidate_find_and_pick_occurrence_callbacks():
    assert spans.open_candidate({K.K_LAB_CAND: 2}, CANDIDATES) == Change(
        {K.K_LAB_DOC: "d1", K.K_LAB_CHUNK: "d1#0", K.K_LAB_MODE: "chunk"}
    )
    assert spans.open_candidate({K.K_LAB_CAND: 5}, CANDIDATES) == Change()
    text = "one two one"
    assert spans.find({K.K_LAB_FIND: "one"}, text) == Change(
        {K.K_LAB_OCCS: ((0, 3), (8, 11)), K.K_LAB_START: 0, K.K_LAB_END: 3, K.K_LAB_OCC: 0}
    )
    assert spans.find({K.K_LAB_FIND: "six"}, text) == Change({K.K_LAB_OCCS: ()})
    assert spans.find({}, text) == Change({K.K_LAB_OCCS: ()})
    found = ((0, 3), (8, 11))
    assert spans.pick_occurrence({K.K_LAB_OCCS: found, K.K_LAB_OCC: 1}) == Change(
        {K.K_LAB_START: 8, K.K_LAB_END: 11}
    )
    assert spans.pick_occurrence({K.K_LAB_OCCS: found, K.K_LAB_OCC: 2}) == Change()
    assert spans.pick_occurrence({}) == Change()


def test_judged_caption():
    assert spans.judged(None) == Msg("lab.span_not_judged")


def test_excerpt_marks_and_window(store):
    lab = add(store, "q1", D1, 0, 10, 2, who="")
    other = add(store, "q2", D2, 0, 11, 1)
    p = pick({**SETTLED, K.K_LAB_MODE: "range", K.K_LAB_START: 21, K.K_LAB_END: 33})
    gold = (Needle("d1", "Beta two."), Needle("d2", "Delta four."))
    assert spans.excerpt_marks(p, gold, (lab, other)) == (
        spans.MarkSpec(11, 20, "ri-gold", Msg("lab.origin.needle")),
        spans.MarkSpec(0, 10, "ri-lab ri-g2", Msg("lab.mark_label", {"grade": 2, "who": "—"})),
        spans.MarkSpec(21, 33, "ri-pick", Msg("lab.mark_pick")),
    )
    assert spans.excerpt_window(p, whole=True) == (0, 33)
    assert spans.excerpt_window(p, whole=False) == (
        max(0, 21 - spans.EXCERPT_MARGIN),
        min(33, 33 + spans.EXCERPT_MARGIN),
    )
    bad = pick({**SETTLED, K.K_LAB_MODE: "range", K.K_LAB_START: 30, K.K_LAB_END: 3})
    assert spans.excerpt_window(bad, whole=False) == (0, min(33, 0 + spans.EXCERPT_MARGIN))


# ---------------------------------------------------------------------- saving

KEY = ("en", "q1", "d1", 11, 20)


def test_write_adds_changes_or_leaves_unchanged(store):
    assert saving.write(store, KEY, D1, None, 2, "n", "ann", None) == Msg(
        "lab.saved", {"grade": 2, "start": 11, "end": 20}
    )
    (lab,) = store.current()
    assert saving.write(store, KEY, D1, lab, 2, "n", "ann", lab.event_id) == Msg("lab.unchanged")
    assert saving.write(store, KEY, D1, lab, 3, "n", "ann", lab.event_id) == Msg(
        "lab.changed", {"grade": 3}
    )
    assert [e.kind for e in store.history()] == ["add", "change"]


def test_save_callback_writes_against_the_version_shown(store):
    state = {K.K_LAB_GRADE: 2, K.K_LAB_NOTE: "n", K.K_LAB_ANNOTATOR: " ann "}
    assert saving.save(state, store, KEY, D1) == Change(
        {K.K_LAB_FLASH: Msg("lab.saved", {"grade": 2, "start": 11, "end": 20})}, (K.K_LAB_SEEN,)
    )
    (lab,) = store.current()
    assert (lab.grade, lab.note, lab.annotator) == (2, "n", "ann")


def test_save_callback_without_a_name_writes_nothing(store):
    assert saving.save({K.K_LAB_GRADE: 2, K.K_LAB_ANNOTATOR: "  "}, store, KEY, D1) == Change()
    assert store.version() == 0


def test_save_callback_refuses_a_label_changed_since_it_was_shown(store):
    shown = add(store, "q1", D1, 11, 20, 1)
    store.change(shown.label_id, grade=2, annotator="ann")  # the same annotator's other tab
    state = {
        K.K_LAB_GRADE: 3,
        K.K_LAB_NOTE: "",
        K.K_LAB_ANNOTATOR: "ann",
        K.K_LAB_SEEN: (KEY, shown.event_id),
    }
    assert saving.save(state, store, KEY, D1) == Change({K.K_LAB_STALE: (KEY, 3, "")})
    assert [x.grade for x in store.current()] == [2]


def test_another_annotators_label_never_makes_a_save_stale(store):
    """Blind labeling: each annotator saves into their own state; both labels stay."""
    shown = add(store, "q1", D1, 11, 20, 1, who="other")
    state = {
        K.K_LAB_GRADE: 3,
        K.K_LAB_NOTE: "",
        K.K_LAB_ANNOTATOR: "ann",
        K.K_LAB_SEEN: (KEY, None),  # ann saw no label of her own there
    }
    assert saving.save(state, store, KEY, D1).values[K.K_LAB_FLASH].key == "lab.saved"
    assert [x.grade for x in store.mine("other")] == [1] and shown.owner == "other"
    assert [x.grade for x in store.mine("ann")] == [3]


def test_save_callback_reports_a_refused_write(store):
    state = {K.K_LAB_GRADE: 7, K.K_LAB_NOTE: "", K.K_LAB_ANNOTATOR: "ann"}
    change = saving.save(state, store, KEY, D1)
    assert list(change.values) == [K.K_LAB_SAVE_ERROR] and change.drop == ()
    refusal = change.values[K.K_LAB_SAVE_ERROR]  # the notice: the page words it
    assert say(refusal, "en").startswith("grade = 7 is not valid")
    assert say(refusal, "ko").startswith("등급 = 7: 올바른 등급이 아닙니다")
    assert store.version() == 0


def test_edit_of_asks_about_a_stale_edit_of_this_span(store):
    shown = add(store, "q1", D1, 11, 20, 1)
    now = store.change(shown.label_id, grade=2, annotator="ann")  # in another tab
    state = {
        K.K_LAB_GRADE: 1,
        K.K_LAB_NOTE: "",
        K.K_LAB_SEEN: (KEY, shown.event_id),
        K.K_LAB_STALE: (KEY, 3, "mine"),
    }
    edit = saving.edit_of(state, store, KEY, now)
    assert edit == saving.Edit(
        3,
        "mine",
        now.event_id,
        shown.event_id,
        Msg("lab.stale_edit", {"seen": "1", "now": 2, "who": "ann"}),
        (2, ""),
        Change(),
    )


def test_edit_of_forgets_a_stale_edit_of_another_span(store):
    state = {K.K_LAB_GRADE: 2, K.K_LAB_NOTE: "x", K.K_LAB_STALE: (("en", "q1", "d1", 0, 5), 3, "")}
    assert saving.edit_of(state, store, KEY, None) == saving.Edit(
        2, "x", None, None, None, (1, ""), Change(drop=(K.K_LAB_STALE,))
    )


def test_overwrite_writes_over_the_current_version(store):
    shown = add(store, "q1", D1, 11, 20, 1)
    now = store.change(shown.label_id, grade=2, annotator="ann")  # in another tab
    edit = saving.Edit(
        3, "mine", now.event_id, shown.event_id, Msg("lab.stale_edit"), (2, ""), Change()
    )
    assert saving.overwrite(store, KEY, D1, now, edit, "ann") == vm.Outcome(
        Change({K.K_LAB_FLASH: Msg("lab.changed", {"grade": 3})}, (K.K_LAB_STALE, K.K_LAB_SEEN)),
        rerun=True,
    )
    assert [(x.grade, x.annotator) for x in store.current()] == [(3, "ann")]


def test_overwrite_asks_again_when_changed_once_more(store):
    shown = add(store, "q1", D1, 11, 20, 1)
    now = store.change(shown.label_id, grade=2, annotator="ann")  # in another tab
    store.change(shown.label_id, grade=1, annotator="ann")  # again, after this run read it
    edit = saving.Edit(
        3, "mine", now.event_id, shown.event_id, Msg("lab.stale_edit"), (2, ""), Change()
    )
    assert saving.overwrite(store, KEY, D1, now, edit, "ann") == vm.Outcome(
        Change({K.K_LAB_STALE: (KEY, 3, "mine"), K.K_LAB_SEEN: (KEY, now.event_id)}), rerun=True
    )
    assert [x.grade for x in store.current()] == [1]


def test_keep_current_and_remember_seen(store):
    assert saving.keep_current(2, "n") == Change(
        {K.K_LAB_GRADE: 2, K.K_LAB_NOTE: "n", K.K_LAB_FLASH: Msg("lab.stale_kept", {"grade": 2})},
        (K.K_LAB_STALE,),
    )
    lab = add(store, "q1", D1, 11, 20, 1)
    assert saving.remember_seen({}, KEY, lab) == Change({K.K_LAB_SEEN: (KEY, lab.event_id)})
    assert saving.remember_seen({}, KEY, None) == Change({K.K_LAB_SEEN: (KEY, None)})
    waiting = {K.K_LAB_STALE: (KEY, 3, ""), K.K_LAB_SEEN: (KEY, 7)}
    assert saving.remember_seen(waiting, KEY, lab) == Change({K.K_LAB_SEEN: (KEY, 7)})


def test_undo_this_label_and_my_last_event(store):
    lab = add(store, "q1", D1, 11, 20, 1)
    out = saving.undo(store, lab, True, "ann")
    assert out == vm.Outcome(
        Change(
            {K.K_LAB_FLASH: Msg("lab.undone", {"kind": "add", "doc": "d1", "start": 11, "end": 20})}
        ),
        rerun=True,
    )
    assert store.current() == ()
    refused = saving.undo(store, None, False, "bob")
    assert refused == vm.Outcome(
        error=Notice("label.undo.nothing.annotator", {"annotator": "'bob'"})
    )
    assert say(refused.error, "en") == "nothing to undo for annotator 'bob'"
    assert say(refused.error, "ko") == "라벨러 'bob'에게는 취소할 것이 없습니다"


# ------------------------------------------------------------ labels, progress


def test_label_options_and_open_label(store):
    lab = add(store, "q1", D1, 11, 20, 1)
    assert vm.label_options((lab,)) == {lab.label_id: "d1 11–20 · Beta two."}
    assert spans.open_label({K.K_LAB_PICK: lab.label_id}, (lab,)) == Change(
        {
            K.K_LAB_DOC: "d1",
            K.K_LAB_MODE: "range",
            K.K_LAB_START: 11,
            K.K_LAB_END: 20,
            K.K_LAB_FIND: "",
        }
    )
    assert spans.open_label({K.K_LAB_PICK: "gone"}, (lab,)) == Change()


def test_set_progress_and_stale_warning(store):
    add(store, "q1", D1, 11, 20, 1)
    add(store, "q2", D2, 0, 11, 0)
    assert vm.set_progress(store, QSETS, "ann") == (
        vm.SetProgress("en", 2, 1, 3),
        vm.SetProgress("ko", 0, 1, 1),
    )
    assert [p.share for p in vm.set_progress(store, QSETS, "ann")] == [f"{2 / 3:.0%}", "0%"]
    # another annotator's progress is theirs (blind labeling)
    assert vm.set_progress(store, QSETS, "bo")[0] == vm.SetProgress("en", 0, 3, 3)
    assert vm.stale_warning(store.current(), DOCS) is None
    edited = {**DOCS, "d1": Document("d1", "One", "Alpha one. Beta TWO. Gamma three.")}
    (q1,) = store.current("en", "q1")
    assert vm.stale_warning(store.current(), edited) == Msg(
        "lab.stale", {"n": 1, "ids": "q1 d1 11–20"}
    )
    assert q1.doc_id == "d1"
    assert (
        vm.stale_warning(store.current(), {"d2": D2}) is None
    )  # labels of documents not loaded are not listed


# ------------------------------------------------------------- export, import


def test_export_plan_and_chunker():
    assert files.export_plan("set", "en", ["en", "ko"]) == files.ExportPlan(("en",), "en", "en")
    assert files.export_plan("all", "en", ["en", "ko"]) == files.ExportPlan(
        ("en", "ko"), "all", None
    )
    sidebar = PipelineConfig().chunker
    assert files.export_chunker("sidebar", sidebar) == sidebar
    assert files.export_chunker("B", sidebar) == preset("B").chunker
    assert files.EXPORT_CHUNKINGS[0] == "sidebar"


def test_qrels_text_joins_the_sets(store):
    add(store, "q1", D1, 11, 20, 2)
    plan = files.export_plan("all", "en", ["en", "ko"])
    text = files.qrels_text(store, CHUNKS, QSETS, plan, DOCS, "question", False)
    # q1: its label (grade 2) on the needle's span; q2: its shipped needle; q3 and set ko: nothing
    assert text.splitlines() == ["q1 0 d1#0 2", "q2 0 d2#0 1"]


def test_import_labels_refuses_bad_files_and_reports_a_good_one(store):
    bad = files.import_labels(store, "l.jsonl", b"\xff\xfe\x00bad", DOCS)
    assert isinstance(bad.error, Msg) and bad.error.key == "lab.imp.bad" and not bad.rerun
    assert say(bad.error, "en").startswith("Nothing imported — l.jsonl: not UTF-8 text (")
    assert "l.jsonl: UTF-8 텍스트가 아닙니다" in say(bad.error, "ko")
    line = (
        '{"question_set": "en", "question_id": "q1", "doc_id": "d1", "start": 11, "end": 20, '
        '"text": "Beta two.", "grade": %d}\n'
    )
    refused = files.import_labels(store, "l.jsonl", (line % 7).encode(), DOCS)
    assert isinstance(refused.error, Msg) and refused.error.key == "lab.imp.bad"
    assert "l.jsonl line 1: grade = 7 is not valid" in say(refused.error, "en")
    assert "l.jsonl 1행: 등급 = 7: 올바른 등급이 아닙니다" in say(refused.error, "ko")
    assert store.version() == 0
    good = files.import_labels(store, "l.jsonl", (line % 2).encode("utf-8-sig"), DOCS)
    assert good == vm.Outcome(
        Change(
            {
                K.K_LAB_IMP_FLASH: Msg(
                    "lab.imp.ok", {"lines": 1, "added": 1, "changed": 0, "unchanged": 0}
                )
            }
        ),
        rerun=True,
    )
    (lab,) = store.current()
    assert lab.label_id == label_id_for("en", "q1", "d1", 11, 20)


def test_a_fresh_session_the_browser_refilled_keeps_the_typed_note(store):
    """After a server restart the browser reconnects with its widgets' values and no other
    session keys: the candidate, chunk, grade and typed note stay (the stored label's note
    used to replace the typed one, and the next save stored the old note)."""
    lab = store.add("en", "q1", "d1", 0, 20, 1, text=D1.text[0:20], note="stored", doc=D1)
    refilled = {
        K.K_LAB_CAND: 2,
        K.K_LAB_DOC: "d1",
        K.K_LAB_CHUNK: "d1#0",
        K.K_LAB_MODE: "chunk",
        K.K_LAB_GRADE: 3,
        K.K_LAB_NOTE: "typed before the restart",
    }
    p = pick(refilled, labels=(lab,))
    state = after(refilled, p.change)
    assert (p.start, p.end, p.existing) == (0, 20, lab)
    assert state[K.K_LAB_NOTE] == "typed before the restart" and state[K.K_LAB_GRADE] == 3
    assert state[K.K_LAB_CAND] == 2 and state[K.K_LAB_SPAN] == ("en", "q1", "d1", 0, 20)
    # the next span picked in that session shows its own stored label, as before
    moved = after(state, pick({**state, K.K_LAB_CHUNK: "d1#1"}, labels=(lab,)).change)
    assert moved[K.K_LAB_NOTE] == "" and moved[K.K_LAB_SPAN] == ("en", "q1", "d1", 21, 33)
    # a first visit (no widget value yet) still opens on the stored label
    first = after({}, pick({}, labels=(lab,), candidates={2: CHUNKS[0]}).change)
    assert first[K.K_LAB_NOTE] == "stored"
