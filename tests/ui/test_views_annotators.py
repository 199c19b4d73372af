"""The Label page's keyboard queue and adjudication queue as view models (issue 41, issue 38 item
7): presses handled in order and acknowledged, none lost, the ones that cannot be handled refused
with a message; adjudication by ``a``/``b``/a grade written as adjudication events, one decision
per unit, undo."""

from __future__ import annotations

import pytest

from rag_core.gold.store import LabelStore
from rag_core.types import Chunk, Document, Question
from ui.label import adjudicate as adj
from ui.label import keys as K
from ui.label import presses
from ui.label.view import Msg, apply

DOC = Document("d1", "One", "Alpha one. Beta two. Gamma three. Delta four.")
CHUNKS = [
    Chunk(f"d1#{i}", "d1", i, s, e, s, DOC.text[s:e], DOC.text[s:e])
    for i, (s, e) in enumerate(((0, 10), (11, 20), (21, 33), (34, 45)))
]
CANDIDATES = {1: CHUNKS[0], 2: CHUNKS[1], 3: CHUNKS[2], 4: CHUNKS[3]}
QSETS = {"en": (Question("q1", "en", "Alpha?"), Question("q2", "en", "Beta?"))}
DOCS = {"d1": DOC}


@pytest.fixture
def store(tmp_path) -> LabelStore:
    return LabelStore(tmp_path / "labels.sqlite3")


def state(**more) -> dict:
    return {
        K.K_LAB_QSET: "en",
        K.K_LAB_QID: "q1",
        K.K_LAB_CAND: 1,
        K.K_LAB_DOC: "d1",
        K.K_LAB_CHUNK: "d1#0",
        K.K_LAB_MODE: "chunk",
        K.K_LAB_GRADE: 1,
        K.K_LAB_NOTE: "",
        K.K_LAB_ANNOTATOR: "ann",
        K.K_LAB_SPAN: ("en", "q1", "d1", 0, 10),
        **more,
    }


def presses_of(*keys: str, first: int = 1) -> dict:
    return {"keys": [{"seq": first + i, "key": k} for i, k in enumerate(keys)], "nonce": 1}


SPAN = ("en", "q1", "d1", 0, 10)


def test_keys_pressed_faster_than_a_rerun_are_all_handled_in_order(store):
    """Grade, Enter, grade, Enter … sent as one batch: four labels, each with its grade."""
    s = state(**{K.K_LAB_KEYS: presses_of("2", "Enter", "0", "Enter", "3", "Enter", "Enter")})
    change = presses.press_label_keys(s, store, DOCS, CANDIDATES, QSETS, "q2")
    apply(s, change)
    got = [(lab.start, lab.grade) for lab in sorted(store.mine("ann"), key=lambda x: x.event_id)]
    assert got == [(0, 2), (11, 0), (21, 3), (34, 3)]
    assert s[K.K_LAB_KEYS_ACK] == 7 and K.K_LAB_KEYS_MSG not in s
    # after the last candidate the next question opened: Enter went past the pool, and the
    # keys after it would wait for that question's pool
    assert s[K.K_LAB_QID] == "q2"


def test_the_span_is_read_from_the_state_not_from_the_run_that_drew_the_component(store):
    """Two batches: the second arrives after a run that rerun the page before drawing the
    component; its Enter saves the candidate the first batch opened, not the first span again."""
    s = state(**{K.K_LAB_KEYS: presses_of("2", "Enter")})
    apply(s, presses.press_label_keys(s, store, DOCS, CANDIDATES, QSETS, "q2"))
    assert s[K.K_LAB_SPAN] == ("en", "q1", "d1", 11, 20)
    s[K.K_LAB_KEYS] = presses_of("2", "Enter", "0", "Enter")
    apply(s, presses.press_label_keys(s, store, DOCS, CANDIDATES, QSETS, "q2"))
    assert [(x.start, x.grade) for x in store.mine("ann")] == [(0, 2), (11, 0)]
    assert presses.span_shown({**s, K.K_LAB_QID: "q2"}, DOCS) is None  # another question's


def test_presses_already_handled_are_not_handled_twice(store):
    s = state(**{K.K_LAB_KEYS: presses_of("2", "Enter"), K.K_LAB_KEYS_ACK: 2})
    assert presses.pending(s) == []
    apply(s, presses.press_label_keys(s, store, DOCS, CANDIDATES, QSETS, "q2"))
    assert store.version() == 0


def test_keys_after_a_question_change_stay_queued(store):
    one = {1: CHUNKS[0]}
    s = state(**{K.K_LAB_KEYS: presses_of("2", "Enter", "3", "Enter")})
    apply(s, presses.press_label_keys(s, store, DOCS, one, QSETS, "q2"))
    assert s[K.K_LAB_QID] == "q2" and s[K.K_LAB_KEYS_ACK] == 2  # "3", Enter wait for q2's pool
    assert presses.pending(s) == [(3, "3"), (4, "Enter")]
    assert len(store.mine("ann")) == 1


def test_enter_without_a_name_or_a_span_is_refused_with_a_message(store):
    s = state(**{K.K_LAB_ANNOTATOR: " ", K.K_LAB_KEYS: presses_of("Enter", "2")})
    apply(s, presses.press_label_keys(s, store, DOCS, CANDIDATES, QSETS, "q2"))
    assert s[K.K_LAB_KEYS_MSG] == (Msg("lab.keys.refused", {"n": 1}),)
    assert s[K.K_LAB_GRADE] == 2 and s[K.K_LAB_KEYS_ACK] == 2 and store.version() == 0
    s = state(**{K.K_LAB_KEYS: presses_of("Enter"), K.K_LAB_SPAN: ("en", "q1", "d1", 5, 99)})
    apply(s, presses.press_label_keys(s, store, DOCS, CANDIDATES, QSETS, "q2"))
    assert s[K.K_LAB_KEYS_MSG] == (Msg("lab.keys.refused", {"n": 1}),)


def test_a_stale_save_stops_the_batch_and_says_how_many_keys_it_refused(store):
    store.add("en", "q1", "d1", 0, 10, 1, text=DOC.text[0:10], annotator="ann")  # another tab
    s = state(**{K.K_LAB_KEYS: presses_of("Enter", "2", "Enter"), K.K_LAB_SEEN: (SPAN, None)})
    apply(s, presses.press_label_keys(s, store, DOCS, CANDIDATES, QSETS, "q2"))
    assert s[K.K_LAB_STALE] == (SPAN, 1, "")  # the page asks about the stale edit
    assert s[K.K_LAB_KEYS_MSG] == (Msg("lab.keys.refused", {"n": 2}),)
    assert s[K.K_LAB_KEYS_ACK] == 3 and len(store.history()) == 1


def test_a_full_component_queue_is_said(store):
    s = state(**{K.K_LAB_KEYS: {"keys": [], "refused": 3}})
    apply(s, presses.press_label_keys(s, store, DOCS, CANDIDATES, QSETS, "q2"))
    assert s[K.K_LAB_KEYS_MSG] == (Msg("lab.keys.full", {"n": 3}),)
    assert s[K.K_LAB_KEYS_REFUSED] == 3
    # the component counts its refusals of the session: the next batch says the rise only, and
    # a refusal of that batch is said beside it, neither hiding the other
    s[K.K_LAB_KEYS] = {"keys": presses_of("Enter")["keys"], "refused": 5}
    s[K.K_LAB_SPAN] = None
    apply(s, presses.press_label_keys(s, store, DOCS, CANDIDATES, QSETS, "q2"))
    assert s[K.K_LAB_KEYS_MSG] == (
        Msg("lab.keys.full", {"n": 3}),
        Msg("lab.keys.full", {"n": 5 - 3}),
        Msg("lab.keys.refused", {"n": 1}),
    )
    assert s[K.K_LAB_KEYS_REFUSED] == 5


def test_malformed_component_values_handle_nothing(store):
    for value in (None, "x", {"keys": "x"}, {"keys": [{"seq": True, "key": "2"}, {"seq": 1}]}):
        assert presses.pending({K.K_LAB_KEYS: value}) == []


# ------------------------------------------------------------------ adjudication


def two_annotators(store: LabelStore) -> None:
    add = store.add
    t = DOC.text
    add("en", "q1", "d1", 0, 10, 2, text=t[0:10], annotator="ana")
    add("en", "q1", "d1", 0, 10, 3, text=t[0:10], annotator="bo")  # grades differ
    add("en", "q1", "d1", 11, 20, 1, text=t[11:20], annotator="ana")
    add("en", "q1", "d1", 11, 20, 1, text=t[11:20], annotator="bo")  # agreed
    add("en", "q1", "d1", 21, 33, 2, text=t[21:33], annotator="ana")  # only ana
    add("en", "q1", "d1", 35, 45, 1, text=t[35:45], annotator="ana")
    add("en", "q1", "d1", 34, 45, 1, text=t[34:45], annotator="bo")  # spans differ


def test_the_queue_holds_the_disagreements_and_keys_settle_them(store):
    two_annotators(store)
    s: dict = {}
    view = adj.queue_view(store, "en", s)
    assert [(it.unit.start, it.unit.end) for it in view.items] == [(0, 10), (21, 33), (34, 45)]
    assert view.done == 0 and view.pos == 0 and adj.pair(s, view.annotators) == ("ana", "bo")
    s[K.K_LAB_KEYS] = presses_of("b", "a", "3")

    def act(st, k):
        return adj.act(st, k, store, adj.queue_view(store, "en", st), "judge", DOCS)

    apply(s, presses.press_adjudication_keys(s, act))
    adjudicated = store.snapshot("en").adjudications
    assert [(x.start, x.end, x.grade, x.annotator) for x in adjudicated] == [
        (0, 10, 3, "judge"),  # B's
        (21, 33, 2, "judge"),  # A's
        (35, 45, 3, "judge"),  # grade 3 on A's span
    ]
    assert adj.queue_view(store, "en", {}).done == 3
    resolved = store.resolve("en")
    assert resolved.state.spec == "adjudicated" and resolved.adjudicated.pending == 0


def test_a_unit_holds_one_decision_and_undo_reverts_the_last(store):
    two_annotators(store)
    s: dict = {K.K_LAB_ADJ_NOTE: "checked the source"}
    apply(s, adj.take(s, store, adj.queue_view(store, "en", s), "a", "judge", DOCS))
    assert s[K.K_LAB_ADJ_FLASH] == Msg("lab.adj.took", {"who": "ana"})
    first = store.snapshot("en").adjudications
    assert [(x.grade, x.note) for x in first] == [(2, "checked the source")]
    s[K.K_LAB_ADJ_POS] = 0  # back to the first unit: take B's instead
    apply(s, adj.take(s, store, adj.queue_view(store, "en", s), "b", "judge", DOCS))
    assert [x.grade for x in store.snapshot("en").adjudications] == [3]
    apply(s, adj.undo_last(s, store, "judge"))
    assert s[K.K_LAB_ADJ_FLASH].key == "lab.adj.undone"
    assert store.snapshot("en").adjudications == ()


def test_not_judged_taken_is_grade_zero_and_nothing_without_a_name(store):
    two_annotators(store)
    s: dict = {K.K_LAB_ADJ_POS: 1}  # the unit only ana judged
    apply(s, adj.take(s, store, adj.queue_view(store, "en", s), "b", "judge", DOCS))
    (x,) = store.snapshot("en").adjudications
    assert (x.start, x.end, x.grade) == (21, 33, 0)
    s = {}
    apply(s, adj.take(s, store, adj.queue_view(store, "en", s), "a", "", DOCS))
    assert s[K.K_LAB_ADJ_FLASH] == Msg("lab.adj.cannot")


def test_review_rows_side_by_side(store):
    two_annotators(store)
    names, rows = adj.review_rows(store, "en", "q1", DOCS)
    assert names == ("ana", "bo")
    assert [(r.start, r.cells, r.agree) for r in rows] == [
        (0, ("0–10: 2", "0–10: 3"), False),
        (11, ("11–20: 1", "11–20: 1"), True),
        (21, ("21–33: 2", "—"), False),
        (34, ("35–45: 1", "34–45: 1"), False),
    ]
