"""Every refusal of the label store, of a label and of a label file is a ``NoticeError`` with a
``label.*`` (or ``file.offset.*``) code whose English is, byte for byte, the message the CLI
printed before the refusals had codes."""

from __future__ import annotations

import json
import pickle
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rag_core.formats import guard
from rag_core.gold import label_files
from rag_core.gold import labels as L
from rag_core.gold.states import StateLabels, parse_state
from rag_core.gold.store import SCHEMA_VERSION, LabelStore, LabelStoreError, StaleLabel
from rag_core.types import Notice
from rag_core.wording import CODES, NoticeError, english, notice

DOC = "Mount Halla rises 1,947 m. Roe deer live on its slopes."
GOOD = {
    "question_set": "set",
    "question_id": "q9",
    "doc_id": "halla",
    "start": 0,
    "end": 5,
    "text": "Mount",
    "grade": 2,
}


def _line(**over: Any) -> str:
    return json.dumps({**GOOD, **over})


def _parse(text: str, docs: dict[str, str] | None = None) -> Callable[[], object]:
    return lambda: label_files.parse_labels_jsonl(text, docs=docs, source="labels.jsonl")


#: (case, the call, its old message, the code of the notice or of its problem under load.at).
REFUSED: list[tuple[str, Callable[[], object], str, str]] = [
    (
        "offset not an integer",
        lambda: guard.offset("0", "start"),
        "start must be an integer; got '0'",
        "file.offset.not_integer",
    ),
    (
        "offset a bool",
        lambda: guard.offset(True, "end"),
        "end must be an integer; got True",
        "file.offset.not_integer",
    ),
    (
        "offset negative",
        lambda: guard.offset(-3, "start"),
        "start = -3 must be >= 0",
        "file.offset.negative",
    ),
    (
        "offset over 2**63",
        lambda: guard.offset(2**63, "start"),
        "start = 9223372036854775808 is out of range (0 … 2**63 − 1)",
        "file.offset.out_of_range",
    ),
    (
        "offset of 401 digits",
        lambda: guard.offset(10**400, "end"),
        "end = 401 digits is out of range (0 … 2**63 − 1)",
        "file.offset.out_of_range",
    ),
    (
        "empty name",
        lambda: L.check_name(" ", "question_id"),
        "question_id must be a non-empty string; got ' '",
        "label.not_a_name",
    ),
    (
        "name not a string",
        lambda: L.check_name(3, "doc_id"),
        "doc_id must be a non-empty string; got 3",
        "label.not_a_name",
    ),
    (
        "grade 4",
        lambda: L.check_grade(4),
        "grade = 4 is not valid; valid grades: 0, 1, 2, 3 (0 = judged not relevant)",
        "label.grade_invalid",
    ),
    (
        "grade a string",
        lambda: L.check_grade("1"),
        "grade = '1' is not valid; valid grades: 0, 1, 2, 3 (0 = judged not relevant)",
        "label.grade_invalid",
    ),
    (
        "empty span",
        lambda: L.check_span("d", 5, 5, ""),
        "start = 5 must be smaller than end = 5",
        "label.span.empty",
    ),
    (
        "text not a string",
        lambda: L.check_span("d", 0, 5, 5),
        "text must be a string; got 5",
        "label.not_a_string",
    ),
    (
        "span outside",
        lambda: L.check_span("halla", 0, 500, "x" * 500, DOC),
        "span 0:500 lies outside document 'halla' (55 characters)",
        "label.span.outside",
    ),
    (
        "text not matching, cut to 60 characters",
        lambda: L.check_span("halla", 0, 5, "x" * 80, "y" * 100),
        "text does not match document 'halla' at 0:5: the label has '"
        + "x" * 59
        + "…', the document has 'yyyyy'",
        "label.span.text_mismatch",
    ),
    (
        "text length",
        lambda: L.check_span("halla", 0, 5, "abc"),
        "text has 3 characters but the span 0:5 has 5",
        "label.span.length_mismatch",
    ),
    (
        "note not a string",
        lambda: L.check_text(3, "note"),
        "note must be a string; got 3",
        "label.not_a_string",
    ),
    (
        "created_at not a string",
        lambda: label_files._check_timestamp(3),
        "created_at must be an ISO 8601 string; got 3",
        "label.created_at.not_string",
    ),
    (
        "not text",
        lambda: label_files.parse_labels_jsonl(b"x", source="labels.jsonl"),  # type: ignore[arg-type]
        "labels.jsonl: expected text, got bytes",
        "label.import.not_text",
    ),
    (
        "not an object",
        _parse("[1, 2]"),
        "labels.jsonl line 1: a label must be a JSON object, not list",
        "label.import.not_object",
    ),
    (
        "unknown fields",
        _parse(json.dumps({"colour": "red", "zz": 1})),
        (
            "labels.jsonl line 1: unknown field(s) colour, zz; known: label_id, question_set, "
            "question_id, doc_id, start, end, text, grade, note, annotator, created_at, state"
        ),
        "label.import.unknown_fields",
    ),
    (
        "missing fields",
        _parse(json.dumps({"question_set": "set"})),
        "labels.jsonl line 1: missing field(s) question_id, doc_id, start, end, text, grade",
        "label.import.missing_fields",
    ),
    (
        "offset in a file",
        _parse(_line(end=10**40)),
        "labels.jsonl line 1: end = 41 digits is out of range (0 … 2**63 − 1)",
        "file.offset.out_of_range",
    ),
    (
        "annotator not a string",
        _parse(_line(annotator=[1])),
        "labels.jsonl line 1: annotator must be a string; got [1]",
        "label.not_a_string",
    ),
    (
        "created_at a number",
        _parse(_line(created_at=5)),
        "labels.jsonl line 1: created_at must be an ISO 8601 string; got 5",
        "label.created_at.not_string",
    ),
    (
        "created_at not a timestamp",
        _parse(_line(created_at="yesterday")),
        "labels.jsonl line 1: created_at 'yesterday' is not an ISO 8601 timestamp",
        "label.created_at.invalid",
    ),
    (
        "unknown document",
        _parse(_line(doc_id="nowhere"), {"halla": DOC}),
        "labels.jsonl line 1: document 'nowhere' is not in the corpus",
        "label.import.unknown_document",
    ),
    (
        "label_id of another span",
        _parse(_line(label_id="0000000000000000")),
        (
            "labels.jsonl line 1: label_id '0000000000000000' does not belong to this question and "
            f"span (expected {L.label_id_for('set', 'q9', 'halla', 0, 5)!r}); was the line edited?"
        ),
        "label.import.wrong_id",
    ),
    (
        "same span twice",
        _parse(_line() + "\n\n" + _line()),
        "labels.jsonl line 3: the same question and span as line 1 (one line per label)",
        "label.import.same_span",
    ),
    (
        "a state that is not one",
        _parse(_line(state="final")),
        "labels.jsonl line 1: state 'final' is not one of: annotator, adjudicated",
        "label.import.bad_state",
    ),
    (
        "a gold state that is not one",
        lambda: parse_state("merge:mean"),
        (
            "gold state 'merge:mean' is not one of: default, adjudicated, annotator:NAME, "
            "merge:latest, merge:max, merge:min"
        ),
        "label.state.invalid",
    ),
    (
        "an annotator without labels",
        lambda: StateLabels().resolve("annotator:kim", strict=True),
        "no labels of annotator 'kim' (annotators: none)",
        "label.state.unknown_annotator",
    ),
]


def _code(n: Notice) -> str:
    """The code of ``n``, or of its problem when it is placed (``load.at``)."""
    return _code(n.params["problem"]) if n.code == guard.AT else n.code


@pytest.mark.parametrize(("case", "call", "message", "code"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_refusal_is_a_notice_whose_english_is_the_old_message(case, call, message, code):
    with pytest.raises(NoticeError) as info:
        call()
    assert str(info.value) == message
    assert english(info.value.notice) == message
    assert _code(info.value.notice) == code


@pytest.fixture()
def store(tmp_path: Path) -> LabelStore:
    return LabelStore(tmp_path / "s.sqlite3")


def test_store_writes_refused_with_the_old_messages(store):
    lab = store.add("set", "q1", "halla", 0, 5, 1, text="Mount", doc=DOC, annotator="ana")
    cases: list[tuple[Callable[[], object], str, str]] = [
        (
            lambda: store.change(lab.label_id),
            "change needs a new grade or a new note (both are None)",
            "label.change.nothing",
        ),
        (
            lambda: store.change("zzz", grade=1),
            "label 'zzz' has no current state (unknown id, or every event undone)",
            "label.no_current",
        ),
        (
            lambda: store.undo(),
            "undo needs a label_id or an annotator (whose last event to revert)",
            "label.undo.no_target",
        ),
        (
            lambda: store.undo(label_id="zzz"),
            "nothing to undo for label 'zzz'",
            "label.undo.nothing.label",
        ),
        (
            lambda: store.undo(annotator="bo"),
            "nothing to undo for annotator 'bo'",
            "label.undo.nothing.annotator",
        ),
        (
            lambda: store.undo(label_id="zzz", annotator="bo"),
            "nothing to undo for label 'zzz' and annotator 'bo'",
            "label.undo.nothing.both",
        ),
    ]
    for call, message, code in cases:
        with pytest.raises(NoticeError) as info:
            call()
        assert (str(info.value), info.value.notice.code) == (message, code)
    assert store.version() == 1  # nothing written


def test_a_stale_label_is_a_notice_that_keeps_its_attributes_and_pickles(store):
    lab = store.add("set", "q1", "halla", 0, 5, 1, text="Mount", doc=DOC)
    with pytest.raises(StaleLabel) as info:
        store.add("set", "q1", "halla", 0, 5, 2, text="Mount", doc=DOC, expected_event=None)
    exc = info.value
    assert isinstance(exc, NoticeError) and exc.notice.code == "label.stale"
    assert str(exc) == (
        f"label {lab.label_id!r} changed since it was shown (expected event None, now "
        f"{lab.event_id}); nothing was written"
    )
    assert (exc.label_id, exc.expected, exc.current) == (lab.label_id, None, lab)
    again = pickle.loads(pickle.dumps(exc))
    assert (type(again), str(again), again.current) == (StaleLabel, str(exc), lab)
    gone = StaleLabel("nonexistent", 7, None)
    assert str(gone) == (
        "label 'nonexistent' changed since it was shown (expected event 7, now None); "
        "nothing was written"
    )


def test_stores_that_cannot_be_opened_are_refused_with_the_old_messages(tmp_path):
    folder = tmp_path / "dir"
    folder.mkdir()
    a_file = tmp_path / "file"
    a_file.write_text("x")
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all, definitely not" * 100)
    other = tmp_path / "other.sqlite3"
    con = sqlite3.connect(other)
    con.execute("create table t(x)")
    con.commit()
    con.close()
    newer = tmp_path / "newer.sqlite3"
    LabelStore(newer)
    con = sqlite3.connect(newer)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    no_events = tmp_path / "noev.sqlite3"
    con = sqlite3.connect(no_events)
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    cases = [
        (folder, f"label store {folder} is a directory, not a file", "label.store.is_directory"),
        (
            a_file / "sub" / "s.sqlite3",
            f"cannot create the label store directory {a_file / 'sub'}: Not a directory",
            "label.store.no_directory",
        ),
        (
            junk,
            f"{junk} is not a label store (not a SQLite database: file is not a database)",
            "label.store.not_sqlite",
        ),
        (
            other,
            f"{other} is a SQLite database but not a label store (tables: t)",
            "label.store.not_labels",
        ),
        (
            newer,
            (
                f"label store {newer} has schema version {SCHEMA_VERSION + 1}; this program "
                f"reads up to {SCHEMA_VERSION} — update rag_core, the store is left as is"
            ),
            "label.store.newer_schema",
        ),
        (
            no_events,
            f"{no_events} has no events table: not a label store",
            "label.store.no_events",
        ),
    ]
    for path, message, code in cases:
        with pytest.raises(LabelStoreError) as info:
            LabelStore(path)
        assert isinstance(info.value, NoticeError) and isinstance(info.value, ValueError)
        assert (str(info.value), info.value.notice.code) == (message, code)


#: The refusals SQLite itself provokes (a busy or broken file, a disk without WAL): their
#: English, built as the old f-strings built it.
SQLITE_ONLY: dict[str, tuple[dict[str, str], str]] = {
    "label.store.cannot_open": (
        {"path": "/d/s", "error": "unable to open database file"},
        "cannot open label store /d/s: unable to open database file",
    ),
    "label.store.busy": (
        {"path": "/d/s", "error": "database is locked"},
        "label store /d/s is busy or unreadable (database is locked); try again",
    ),
    "label.store.unreadable": (
        {"path": "/d/s", "error": "disk I/O error"},
        "label store /d/s is unreadable: disk I/O error",
    ),
    "label.store.failed": (
        {"path": "/d/s", "error": "disk I/O error"},
        "label store /d/s: disk I/O error",
    ),
    "label.store.cannot_initialise": (
        {"path": "/d/s", "error": "disk I/O error"},
        "cannot initialise label store /d/s: disk I/O error",
    ),
    "label.store.no_wal": (
        {"path": "/d/s", "mode": "delete"},
        (
            "label store /d/s: SQLite refused WAL mode (journal_mode = delete); put the store on a "
            "local disk"
        ),
    ),
}


@pytest.mark.parametrize("code", sorted(SQLITE_ONLY))
def test_refusals_sqlite_provokes_read_as_before(code):
    params, message = SQLITE_ONLY[code]
    assert english(notice(code, **params)) == message


def test_every_label_code_has_a_case_here():
    covered = {r[3] for r in REFUSED} | set(SQLITE_ONLY)
    covered |= {
        "label.change.nothing",
        "label.no_current",
        "label.undo.no_target",
        "label.undo.nothing.label",
        "label.undo.nothing.annotator",
        "label.undo.nothing.both",
        "label.stale",
        "label.store.is_directory",
        "label.store.no_directory",
        "label.store.not_sqlite",
        "label.store.not_labels",
        "label.store.newer_schema",
        "label.store.no_events",
        "label.span.negative_start",  # unreachable through offset(): checked below
        "file.offset.digits",  # inside file.offset.out_of_range
    }
    ours = {c for c in CODES if c.startswith(("label.", "file.offset."))}
    assert ours == covered
    assert english(notice(L.SPAN_NEGATIVE_START, start=-1)) == "start = -1 must be >= 0"
