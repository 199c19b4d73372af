"""Label store: span labels as append-only events that survive crashes and concurrent writers."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.paths import ROOT

from rag_core.formats.trec import parse_qrels
from rag_core.gold.label_files import JSONL_FIELDS, parse_labels_jsonl
from rag_core.gold.labels import Label, label_id_for, question_set_name
from rag_core.gold.merge import gold_for, qrels_for, stale_labels
from rag_core.gold.store import SCHEMA_VERSION, LabelStore, LabelStoreError, default_store_path
from rag_core.types import Needle, Question

REPO = ROOT
DOC = "Mount Halla rises 1,947 m. Roe deer live on its slopes. The crater lake is Baengnokdam."


def span(text: str, doc: str = DOC) -> tuple[int, int]:
    i = doc.index(text)
    return i, i + len(text)


@pytest.fixture()
def store(tmp_path):
    return LabelStore(tmp_path / "data" / "labels.sqlite3")


def add(store: LabelStore, phrase: str, grade: int, qid: str = "q1", **kw) -> Label:
    s, e = span(phrase)
    return store.add("set", qid, "halla", s, e, grade, text=phrase, doc=DOC, **kw)


# ---------------------------------------------------------------- storage


def test_store_is_wal_full_sync_and_versioned(store):
    con = sqlite3.connect(store.path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    con.close()
    # synchronous is per connection: check the one the store opens
    con = store._connect()
    assert con.execute("PRAGMA synchronous").fetchone()[0] == 2  # 2 = FULL
    con.close()


def test_default_path_is_outside_the_source_tree(monkeypatch, tmp_path):
    monkeypatch.setenv("RAG_INSPECTOR_DATA", str(tmp_path / "d"))
    assert default_store_path() == tmp_path / "d" / "labels.sqlite3"
    monkeypatch.delenv("RAG_INSPECTOR_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_store_path() == tmp_path / "xdg" / "rag-inspector" / "labels.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    path = default_store_path()
    assert path == Path.home() / ".local" / "share" / "rag-inspector" / "labels.sqlite3"
    assert REPO not in path.parents


def test_events_are_append_only(store):
    add(store, "1,947 m", 2)
    con = sqlite3.connect(store.path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        con.execute("UPDATE events SET grade = 0")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        con.execute("DELETE FROM events")
    con.close()
    assert store.current()[0].grade == 2


def test_refuses_foreign_and_newer_files(tmp_path):
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(LabelStoreError, match=re.escape(f"{junk} is not a label store")):
        LabelStore(junk)
    other = tmp_path / "other.sqlite3"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    with pytest.raises(
        LabelStoreError,
        match=re.escape(f"{other} is a SQLite database but not a label store (tables: t)"),
    ):
        LabelStore(other)
    newer = tmp_path / "newer.sqlite3"
    LabelStore(newer)
    con = sqlite3.connect(newer)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    with pytest.raises(
        LabelStoreError, match=re.escape(f"has schema version {SCHEMA_VERSION + 1}")
    ):
        LabelStore(newer)
    with pytest.raises(LabelStoreError, match="is a directory"):
        LabelStore(tmp_path)


# ---------------------------------------------------------- label lifecycle


def test_add_change_undo_and_history(store):
    v0 = store.version()
    first = add(store, "1,947 m", 2, annotator="ana", note="height")
    assert first.label_id == label_id_for("set", "q1", "halla", *span("1,947 m"))
    assert (first.grade, first.note, first.annotator, first.kind) == (2, "height", "ana", "add")
    v1 = store.version()
    changed = store.change(first.label_id, grade=3, annotator="bo")
    assert (changed.grade, changed.note, changed.annotator) == (3, "height", "bo")
    v2 = store.version()
    assert store.get(first.label_id).grade == 3

    undone = store.undo(annotator="bo")  # bo's last event: the change
    assert undone.event_id == changed.event_id and undone.undone_by is not None
    assert store.get(first.label_id).grade == 2  # back to ana's grade
    v3 = store.version()
    assert v0 < v1 < v2 < v3

    store.undo(label_id=first.label_id, annotator="ana")
    assert store.get(first.label_id) is None  # not judged again
    assert store.current() == ()
    kinds = [(e.kind, e.annotator, e.grade) for e in store.history()]
    assert kinds == [
        ("add", "ana", 2),
        ("change", "bo", 3),
        ("undo", "bo", None),
        ("undo", "ana", None),
    ]
    with pytest.raises(ValueError, match=re.escape("nothing to undo for annotator 'bo'")):
        store.undo(annotator="bo")
    with pytest.raises(ValueError, match=re.escape("undo needs a label_id or an annotator")):
        store.undo()
    with pytest.raises(
        ValueError, match=re.escape(f"label {first.label_id!r} has no current state")
    ):
        store.change(first.label_id, grade=1)


def test_relabeling_a_span_keeps_one_label(store):
    a = add(store, "Roe deer", 1, annotator="ana")
    b = add(store, "Roe deer", 3, annotator="bo")
    assert a.label_id == b.label_id
    assert [(lab.grade, lab.annotator) for lab in store.current()] == [(3, "bo")]
    assert len(store.history(label_id=a.label_id)) == 2


def test_not_judged_is_not_zero(store):
    add(store, "Roe deer", 0, qid="q1")  # judged: not relevant
    judged, not_judged = store.progress("set", ["q1", "q2", "q3"])
    assert judged == ("q1",)
    assert not_judged == ("q2", "q3")
    assert store.current("set", "q2") == ()  # no label: not judged, not grade 0
    assert store.current("set", "q1")[0].grade == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"start": 5, "end": 5}, "start = 5 must be smaller than end = 5"),
        ({"start": -1}, "start = -1 must be >= 0"),
        (
            {"end": len(DOC) + 3, "text": DOC[0:] + "abc"},
            f"span 0:{len(DOC) + 3} lies outside document 'halla' ({len(DOC)} characters)",
        ),
        (
            {"grade": 4},
            "grade = 4 is not valid; valid grades: 0, 1, 2, 3 (0 = judged not relevant)",
        ),
        ({"grade": True}, "grade = True is not valid"),
        (
            {"text": "Mount Hall"},
            (
                "text does not match document 'halla' at 0:5: the label has 'Mount Hall', "
                "the document has 'Mount'"
            ),
        ),
        ({"question_id": " "}, "question_id must be a non-empty string; got ' '"),
    ],
)
def test_add_validation(store, kwargs, message):
    args = {
        "question_set": "set",
        "question_id": "q1",
        "doc_id": "halla",
        "start": 0,
        "end": 5,
        "grade": 1,
        "text": "Mount",
        "doc": DOC,
    }
    args.update(kwargs)
    with pytest.raises(ValueError, match=re.escape(message)):
        store.add(**args)
    assert store.version() == 0  # nothing written


def test_add_without_doc_checks_the_text_length(store):
    with pytest.raises(ValueError, match=re.escape("text has 3 characters but the span 0:5 has 5")):
        store.add("set", "q1", "halla", 0, 5, 1, text="abc")


def test_question_set_name():
    assert question_set_name("sample_corpus/questions/ko.jsonl") == "ko"


# ------------------------------------------------------------ JSONL round trip


def test_export_import_round_trip(store, tmp_path):
    add(store, "1,947 m", 3, annotator="ana", note="the height")
    add(store, "Roe deer", 0, annotator="bo")
    text = store.export_jsonl()
    rows = [json.loads(line) for line in text.splitlines()]
    assert all(tuple(r) == JSONL_FIELDS for r in rows)

    other = LabelStore(tmp_path / "other.sqlite3")
    rep = other.import_jsonl(text, docs={"halla": DOC})
    assert (rep.n_lines, rep.added, rep.changed, rep.unchanged) == (2, 2, 0, 0)

    def state(s):
        return [
            (lab.label_id, lab.grade, lab.note, lab.annotator, lab.created_at, lab.text)
            for lab in s.current()
        ]

    assert state(other) == state(store)
    again = other.import_jsonl(text)
    assert (again.added, again.changed, again.unchanged) == (0, 0, 2)
    assert again.version == rep.version  # nothing written the second time

    rows[0]["grade"] = 1
    rep3 = other.import_jsonl("\n".join(json.dumps(r) for r in rows))
    assert (rep3.added, rep3.changed, rep3.unchanged) == (0, 1, 1)


def _good_line(**over) -> str:
    s, e = span("Roe deer")
    row = {
        "question_set": "set",
        "question_id": "q9",
        "doc_id": "halla",
        "start": s,
        "end": e,
        "text": "Roe deer",
        "grade": 2,
    }
    row.update(over)
    return json.dumps(row)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("{not json", "line 3: not valid JSON"),
        ("[1, 2]", "line 3: a label must be a JSON object, not list"),
        (_good_line(grade=5), "line 3: grade = 5 is not valid"),
        (_good_line(colour="red"), "line 3: unknown field(s) colour"),
        (
            json.dumps({"question_set": "set"}),
            "line 3: missing field(s) question_id, doc_id, start, end, text, grade",
        ),
        (
            _good_line(label_id="0000000000000000"),
            "line 3: label_id '0000000000000000' does not belong",
        ),
        (
            _good_line(question_id="q1", start=0, end=5, text="Mount"),
            "line 3: the same question and span as line 1",
        ),
        (_good_line(start=0, end=8), "line 3: text does not match document 'halla' at 0:8"),
        (_good_line(doc_id="nowhere"), "line 3: document 'nowhere' is not in the corpus"),
        (
            _good_line(created_at="yesterday"),
            "line 3: created_at 'yesterday' is not an ISO 8601 timestamp",
        ),
    ],
)
def test_malformed_import_changes_nothing(store, bad, message):
    add(store, "1,947 m", 2, annotator="ana")
    before = (store.version(), store.history(), store.export_jsonl())
    first = json.dumps(
        {
            "question_set": "set",
            "question_id": "q1",
            "doc_id": "halla",
            "start": 0,
            "end": 5,
            "text": "Mount",
            "grade": 1,
        }
    )
    text = "\n".join([first, _good_line(), bad, _good_line(question_id="q10")])
    with pytest.raises(ValueError, match=re.escape(f"labels.jsonl {message}")):
        store.import_jsonl(text, docs={"halla": DOC}, source="labels.jsonl")
    assert (store.version(), store.history(), store.export_jsonl()) == before


def test_parse_skips_blank_lines_and_fills_defaults():
    records = parse_labels_jsonl("\n" + _good_line() + "\n\n")
    assert len(records) == 1
    assert (records[0]["note"], records[0]["annotator"]) == ("", "")


# ----------------------------------------------------------------- gold


def test_gold_for_merges_needles_and_labels():
    needle_a = Needle("halla", "1,947 m")
    needle_b = Needle("halla", "Baengnokdam")
    q = Question(id="q1", lang="en", question="How high is Halla?", needles=(needle_a, needle_b))
    s_a, e_a = span("1,947 m")
    s_b, e_b = span("Baengnokdam")
    s_c, e_c = span("Roe deer")
    labels = [
        Label(
            label_id_for("set", "q1", "halla", s_a, e_a),
            "set",
            "q1",
            "halla",
            s_a,
            e_a,
            "1,947 m",
            3,
            "",
            "ana",
            "t",
            1,
            "add",
        ),
        Label(
            label_id_for("set", "q1", "halla", s_b, e_b),
            "set",
            "q1",
            "halla",
            s_b,
            e_b,
            "Baengnokdam",
            0,
            "",
            "ana",
            "t",
            2,
            "add",
        ),
        Label(
            label_id_for("set", "q1", "halla", s_c, e_c),
            "set",
            "q1",
            "halla",
            s_c,
            e_c,
            "Roe deer",
            1,
            "",
            "ana",
            "t",
            3,
            "add",
        ),
        Label("x", "set", "q2", "halla", s_c, e_c, "Roe deer", 3, "", "ana", "t", 4, "add"),
    ]
    gold = gold_for(q, labels, {"halla": DOC})
    assert gold == (
        Needle("halla", "1,947 m", s_a, e_a, grade=3, origin="needle+label"),  # grade overridden
        Needle("halla", "Roe deer", s_c, e_c, grade=1, origin="label"),  # added
    )  # Baengnokdam: grade 0 removed it; q2's label does not count
    assert gold_for(q, [], {"halla": DOC}) == (needle_a, needle_b)
    assert gold_for(q, labels, question_set="other") == (needle_a, needle_b)
    # a label of a keyed needle's own span keeps what the answer must state
    keyed = Question(
        id="q1",
        lang="en",
        question=q.question,
        needles=(Needle("halla", "1,947 m", key=("1,947",)),),
    )
    assert gold_for(keyed, labels, {"halla": DOC})[0].key == ("1,947",)


def test_qrels_for_chunking_matches_brute_force(tiny_corpus):
    from rag_core.config import ChunkerConfig

    doc = tiny_corpus.docs["jeju"]
    chunks = tiny_corpus.chunking(ChunkerConfig(strategy="blind", target=60, overlap=20)).chunks
    phrases = {"해발 1,947m": 2, "노루가 많이 산다": 0, "백록담": 3}
    labels = []
    for phrase, grade in phrases.items():
        s = doc.text.index(phrase)
        labels.append(
            Label(
                label_id_for("s", "q", "jeju", s, s + len(phrase)),
                "s",
                "q",
                "jeju",
                s,
                s + len(phrase),
                phrase,
                grade,
                "",
                "",
                "t",
                1,
                "add",
            )
        )
    q = Question(
        id="q",
        lang="ko",
        question="한라산 높이?",
        phrasings=("a", "b"),
        needles=(Needle("jeju", "남한에서 가장 높은 산"),),
    )
    qrels = qrels_for(chunks, [q], tiny_corpus.docs, labels, phrasings="all")
    assert set(qrels) == {"q#0", "q#1"}
    # brute force: every chunk against every gold span by offsets
    spans = [(doc.text.index(n.text), doc.text.index(n.text) + len(n.text), 1) for n in q.needles]
    spans += [(lab.start, lab.end, lab.grade) for lab in labels]
    expected = {}
    for c in chunks:
        contained = [g for s, e, g in spans if c.doc_id == "jeju" and c.start <= s and e <= c.end]
        if contained:
            expected[c.chunk_id] = max(contained)
    assert qrels["q#0"] == expected == qrels["q#1"]
    assert {0, 2, 3} <= set(expected.values())  # a judged-not-relevant chunk is written as 0
    # the text written is what the TREC reader reads back
    from rag_core.formats.trec import format_qrels

    assert parse_qrels(format_qrels(qrels).splitlines()) == qrels


def test_export_qrels_from_store(store, tiny_corpus):
    from rag_core.config import ChunkerConfig

    doc = tiny_corpus.docs["kv"]
    phrase = "E21 means the water inlet is blocked"
    s = doc.text.index(phrase)
    store.add("manual", "m1", "kv", s, s + len(phrase), 2, text=phrase, doc=doc)
    chunks = tiny_corpus.chunking(ChunkerConfig()).chunks
    q = Question(id="m1", lang="en", question="What is E21?", needles=(Needle("kv", "Error E17"),))
    text = store.export_qrels(
        chunks, [q], tiny_corpus.docs, question_set="manual", phrasings="question"
    )
    qrels = parse_qrels(text.splitlines())
    holding = [
        c.chunk_id for c in chunks if c.doc_id == "kv" and c.start <= s and s + len(phrase) <= c.end
    ]
    needle_at = doc.text.index("Error E17")
    needle_chunks = [
        c.chunk_id
        for c in chunks
        if c.doc_id == "kv" and c.start <= needle_at and needle_at + len("Error E17") <= c.end
    ]
    expected = dict.fromkeys(needle_chunks, 1)
    for cid in holding:
        expected[cid] = max(expected.get(cid, 0), 2)
    assert qrels == {"m1": expected}


def test_stale_labels_detects_changed_documents(store):
    lab = add(store, "Roe deer", 2)
    assert stale_labels([lab], {"halla": DOC}) == ()
    assert stale_labels([lab], {"halla": DOC.replace("Roe deer", "Red deer")}) == (lab,)
    assert stale_labels([lab], {}) == (lab,)


# ------------------------------------------------------------ concurrency


def _writer(path: str, worker: int, n: int, go) -> None:
    store = LabelStore(path)
    go.wait(30)
    for i in range(n):
        store.add("set", f"w{worker}", "doc", i, i + 1, 1 + i % 3, text="x", annotator=f"w{worker}")


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    path = str(tmp_path / "labels.sqlite3")
    LabelStore(path)
    ctx = multiprocessing.get_context("fork")
    go = ctx.Event()
    procs = [ctx.Process(target=_writer, args=(path, w, 500, go)) for w in (1, 2)]
    for p in procs:
        p.start()
    go.set()
    for p in procs:
        p.join(180)
    assert [p.exitcode for p in procs] == [0, 0]
    store = LabelStore(path)
    labels = store.current()
    assert len(labels) == 1000
    assert {lab.question_id for lab in labels} == {"w1", "w2"}
    assert len(store.history()) == 1000
    assert store.version() == 1000
    assert store.integrity() == "ok"


_LOOP = """
import sys
from rag_core.gold.store import LabelStore
store = LabelStore(sys.argv[1])
for i in range(1_000_000):
    store.add("set", "q", "doc", i, i + 1, 1, text="x")
    print(i + 1, flush=True)
"""


def test_kill_9_during_writes_keeps_every_committed_label(tmp_path):
    path = tmp_path / "labels.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-c", _LOOP, str(path)], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    reported = 0
    deadline = time.monotonic() + 120
    try:
        while reported < 60 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            reported = int(line)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        rest = proc.stdout.read()  # lines printed (after their commit) before the kill landed
        proc.wait()
    reported = max([reported] + [int(x) for x in rest.split()])
    assert proc.returncode == -signal.SIGKILL
    assert reported >= 60
    store = LabelStore(path)
    assert store.integrity() == "ok"
    n = len(store.current())
    assert reported <= n <= reported + 1  # at most the one commit it had no time to report


def test_a_write_expecting_an_older_version_raises_stale_and_writes_nothing(tmp_path):
    from rag_core.gold.store import StaleLabel

    store = LabelStore(tmp_path / "s.sqlite3")
    text = "Hallasan is 1,947 m high."
    first = store.add("en", "q1", "jeju", 0, 9, 1, text=text[:9], expected_event=None)
    second = store.change(first.label_id, grade=2, expected_event=first.event_id)
    with pytest.raises(StaleLabel) as info:
        store.change(first.label_id, grade=3, expected_event=first.event_id)
    assert info.value.current.grade == 2 and info.value.current.event_id == second.event_id
    with pytest.raises(StaleLabel):
        store.add(
            "en", "q1", "jeju", 0, 9, 3, text=text[:9], expected_event=None
        )  # it is labelled now
    assert [e.kind for e in store.history()] == ["add", "change"]
    assert store.change(first.label_id, grade=3, expected_event=second.event_id).grade == 3
