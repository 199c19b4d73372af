"""The label store keeps a state per annotator and an adjudicated one (issue 41): a second
annotator no longer overwrites the first, gold names the state it reads, a schema-1 store is
stepped to 2 without one event rewritten and read as one annotator, and exports and imports keep
whose labels they are."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from rag_core.gold import schema
from rag_core.gold.labels import label_id_for
from rag_core.gold.states import GoldState, StateLabels, annotator_state, parse_state
from rag_core.gold.store import SCHEMA_VERSION, LabelStore, StaleLabel

DOC = "Mount Halla rises 1,947 m. Roe deer live on its slopes. The crater lake is Baengnokdam."


def span(text: str) -> tuple[int, int]:
    i = DOC.index(text)
    return i, i + len(text)


@pytest.fixture()
def store(tmp_path):
    return LabelStore(tmp_path / "labels.sqlite3")


def add(store: LabelStore, phrase: str, grade: int, who: str, **kw):
    s, e = span(phrase)
    return store.add("set", "q1", "halla", s, e, grade, text=phrase, doc=DOC, annotator=who, **kw)


def grades(labels) -> list[tuple[str, int]]:
    return [(lab.text, lab.grade) for lab in labels]


def test_each_annotator_has_a_state_of_their_own(store):
    add(store, "1,947 m", 2, "ana")
    add(store, "1,947 m", 3, "bo")  # the same span: bo's own label, ana's stays
    add(store, "Roe deer", 1, "bo")
    assert grades(store.mine("ana")) == [("1,947 m", 2)]
    assert grades(store.mine("bo")) == [("1,947 m", 3), ("Roe deer", 1)]
    assert grades(store.current(state="annotator:ana")) == [("1,947 m", 2)]
    assert grades(store.current(state="merge:latest")) == [("1,947 m", 3), ("Roe deer", 1)]
    assert grades(store.current(state="merge:min")) == [("1,947 m", 2), ("Roe deer", 1)]
    assert grades(store.current(state="merge:max")) == [("1,947 m", 3), ("Roe deer", 1)]
    resolved = store.resolve()  # two annotators, nothing adjudicated: the stated merge rule
    assert resolved.state == GoldState("merge", "latest")
    assert store.snapshot().annotators == ("ana", "bo")
    # ana's judged progress is hers: bo's second label is not ana's judgement
    assert store.progress("set", ["q1", "q2"], state="annotator:ana") == (("q1",), ("q2",))
    with pytest.raises(
        ValueError, match=re.escape("no labels of annotator 'cy' (annotators: 'ana', 'bo')")
    ):
        store.snapshot().resolve("annotator:cy", strict=True)
    assert store.current(state="annotator:cy") == ()


def test_optimistic_versions_are_checked_within_an_annotators_state(store):
    first = add(store, "Roe deer", 1, "ana", expected_event=None)
    # bo has never labeled the span: expecting "not labeled" is right for him
    bo = add(store, "Roe deer", 2, "bo", expected_event=None)
    with pytest.raises(StaleLabel):  # ana's own label did change? no: bo's write is not hers
        add(store, "Roe deer", 3, "ana", expected_event=None)
    changed = store.change(first.label_id, grade=0, annotator="ana", expected_event=first.event_id)
    assert changed.grade == 0 and store.get(first.label_id, annotator="bo").grade == 2
    assert store.get(first.label_id).event_id == changed.event_id  # the latest of anyone's
    assert bo.owner == "bo" and not bo.adjudicated


def test_adjudication_is_a_state_of_its_own_and_the_default_once_present(store):
    add(store, "1,947 m", 2, "ana")
    add(store, "1,947 m", 3, "bo")
    add(store, "Roe deer", 1, "ana")
    add(store, "Roe deer", 1, "bo")  # agreed
    add(store, "crater lake", 2, "ana")  # only ana judged it: a disagreement
    before = store.resolve(state="adjudicated")
    assert before.adjudicated.settled == 0 and before.adjudicated.pending == 2
    # pending units are read by the highest grade, agreed ones as they are
    assert grades(before.labels) == [("1,947 m", 3), ("Roe deer", 1), ("crater lake", 2)]
    s, e = span("1,947 m")
    adj = store.add(
        "set", "q1", "halla", s, e, 2, text="1,947 m", annotator="judge", note="A", adjudicate=True
    )
    assert adj.adjudicated and adj.owner == "" and adj.annotator == "judge"
    assert store.mine("judge") == ()  # an adjudication is nobody's own label
    resolved = store.resolve()
    assert resolved.state == GoldState("adjudicated")
    assert resolved.adjudicated.settled == 1 and resolved.adjudicated.pending == 1
    assert grades(resolved.labels) == [("1,947 m", 2), ("Roe deer", 1), ("crater lake", 2)]
    undone = store.undo(annotator="judge", track="adjudicated")
    assert undone.event_id == adj.event_id and undone.adjudicated
    assert store.resolve().state == GoldState("merge", "latest")
    with pytest.raises(ValueError, match=re.escape("nothing to undo for annotator 'judge'")):
        store.undo(annotator="judge", track="adjudicated")


def test_states_are_specs_and_parse_back():
    for spec in ("default", "adjudicated", "annotator:kim", "annotator:", "merge:max"):
        assert parse_state(spec).spec == spec
    assert parse_state(None) == GoldState()
    assert annotator_state("x").spec == "annotator:x"
    snap = StateLabels()
    assert snap.resolve().labels == () and snap.default() == GoldState("merge", "latest")
    assert [c.spec for c in snap.choices()] == ["merge:latest", "merge:max", "merge:min"]


def _lid(start: int, end: int) -> str:
    return label_id_for("set", "q1", "halla", start, end)


def _v1_store(path, events):
    con = sqlite3.connect(path)
    con.executescript(schema.SCHEMA_1)
    for kind, start, end, grade, who, target in events:
        con.execute(
            "INSERT INTO events (kind, label_id, question_set, question_id, doc_id, span_start, "
            "span_end, text, grade, note, annotator, created_at, recorded_at, target) "
            "VALUES (?, ?, 'set', 'q1', 'halla', ?, ?, ?, ?, '', ?, '2025-01-01T00:00:00+00:00', "
            "'2025-01-01T00:00:00+00:00', ?)",
            (kind, _lid(start, end), start, end, DOC[start:end], grade, who, target),
        )
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()


def _rows(path):
    con = sqlite3.connect(path)
    rows = con.execute(
        "SELECT event_id, kind, label_id, span_start, span_end, grade, annotator, target "
        "FROM events ORDER BY event_id"
    ).fetchall()
    con.close()
    return rows


def test_a_schema_1_store_is_stepped_to_2_without_rewriting_an_event(tmp_path):
    path = tmp_path / "v1.sqlite3"
    s, e = span("Roe deer")
    _v1_store(
        path,
        [
            ("add", s, e, 1, "kim", None),
            ("change", s, e, 3, "kim", None),
            ("add", 0, 5, 2, "kim", None),
            ("undo", 0, 5, None, "", 3),
        ],
    )
    before = _rows(path)
    store = LabelStore(path)
    assert _rows(path)[: len(before)] == before  # no event rewritten
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    assert con.execute("SELECT COUNT(*) FROM events WHERE track IS NULL").fetchone()[0] == 4
    con.close()
    (step,) = store.migrations
    assert (step.from_version, step.to_version, step.legacy_owner) == (1, 2, "kim")
    assert step.n_events == 4
    assert grades(store.mine("kim")) == [("Roe deer", 3)]  # read as one annotator: kim
    add(store, "Roe deer", 2, "kim")  # kim goes on in the same state
    add(store, "Roe deer", 0, "lee")
    assert grades(store.mine("kim")) == [("Roe deer", 2)]
    assert store.snapshot().annotators == ("kim", "lee")
    assert len(LabelStore(path).migrations) == 1  # opened again: no second step


def test_a_schema_1_store_several_wrote_is_read_as_one_joint_annotator(tmp_path):
    path = tmp_path / "v1.sqlite3"
    s, e = span("Roe deer")
    _v1_store(path, [("add", s, e, 1, "kim", None), ("change", s, e, 3, "lee", None)])
    store = LabelStore(path)
    assert store.migrations[0].legacy_owner == "kim+lee"
    (lab,) = store.current()
    assert (lab.owner, lab.annotator, lab.grade) == ("kim+lee", "lee", 3)  # schema 1's rule kept


def test_exports_and_imports_keep_annotators_and_adjudications(store, tmp_path):
    add(store, "1,947 m", 2, "ana", note="height")
    add(store, "1,947 m", 3, "bo")
    s, e = span("1,947 m")
    store.add("set", "q1", "halla", s, e, 3, text="1,947 m", annotator="judge", adjudicate=True)
    ana = store.export_jsonl(state="annotator:ana")
    adj = store.export_jsonl(state="adjudicated")
    assert [json.loads(x)["annotator"] for x in ana.splitlines()] == ["ana"]
    (line,) = [json.loads(x) for x in adj.splitlines()]
    assert (line["annotator"], line["state"], line["grade"]) == ("judge", "adjudicated", 3)
    every = ana + store.export_jsonl(state="annotator:bo") + adj
    other = LabelStore(tmp_path / "other.sqlite3")
    rep = other.import_jsonl(every)
    assert (rep.added, rep.changed, rep.unchanged) == (3, 0, 0)
    assert grades(other.mine("ana")) == [("1,947 m", 2)]
    assert grades(other.mine("bo")) == [("1,947 m", 3)]
    assert other.resolve().state == GoldState("adjudicated")
    assert [lab.annotator for lab in other.current()] == ["judge"]
    again = other.import_jsonl(every)
    assert (again.added, again.changed, again.unchanged) == (0, 0, 3)
    qrels = store.export_qrels([], [], {"halla": DOC}, question_set="set", state="annotator:bo")
    assert qrels == ""  # no chunk, no qrels line: the state is passed through without error
