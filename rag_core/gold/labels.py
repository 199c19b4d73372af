"""Gold labels as document spans, in a store that never loses one.

A label says: for question ``question_id`` of set ``question_set``, the
characters ``[start, end)`` of document ``doc_id``'s canonical text are
evidence of grade 0–3 (0 = judged not relevant). Because a label is a span
of the document, not a chunk, it survives any re-chunking: a chunk is
relevant when its content contains the span (see :mod:`rag_core.gold.relevance`).
A (question, span) without a label is *not judged* — a state of its own,
never a zero. The label keeps the span's ``text`` as it was when labeled, so
a document that changed since is detectable (:func:`stale_labels`).

Storage is SQLite (stdlib ``sqlite3``):

* **Append-only events.** Every add, change, import and undo is a new row
  of ``events``; triggers refuse ``UPDATE`` and ``DELETE``. The current
  state of a label is its latest event that no ``undo`` event points at, so
  the history shows who labeled what and when, undo included.
* **WAL journal, ``synchronous=FULL``.** A commit is on disk (the WAL is
  fsynced) before ``add`` returns; a process killed at any moment leaves a
  store that opens with every committed label. Readers never block the one
  writer and the writer never blocks readers.
* **One short ``BEGIN IMMEDIATE`` transaction per write**, with a busy
  timeout, so two processes (or two browser sessions) writing at once queue
  instead of failing or overwriting each other.
* **A connection per operation**, so one ``LabelStore`` may be shared by
  threads (Streamlit's ``st.cache_resource``).
* **Versioned schema** (``PRAGMA user_version``); a store written by a newer
  schema is refused, never silently rewritten.

The store lives in a data directory outside the source tree:
``$RAG_INSPECTOR_DATA/labels.sqlite3``, else
``$XDG_DATA_HOME/rag-inspector/labels.sqlite3``, else
``~/.local/share/rag-inspector/labels.sqlite3`` (:func:`default_store_path`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..formats.guard import AT, at, json_line, line, offset
from ..formats.questions import queries_of
from ..formats.trec import format_qrels
from ..types import Chunk, Document, Needle, Notice, Question
from ..wording import NoticeError, declare, notice, refused, unworded
from .relevance import grades_for, locate

SCHEMA_VERSION = 1
GRADES: tuple[int, ...] = (0, 1, 2, 3)
#: Seconds a writer waits for another writer's transaction before giving up.
BUSY_TIMEOUT_S = 30.0
#: Fields of one JSONL label line (``export_jsonl`` writes them in this order).
JSONL_FIELDS: tuple[str, ...] = (
    "label_id",
    "question_set",
    "question_id",
    "doc_id",
    "start",
    "end",
    "text",
    "grade",
    "note",
    "annotator",
    "created_at",
)
_REQUIRED = ("question_set", "question_id", "doc_id", "start", "end", "text", "grade")

_SCHEMA = """
CREATE TABLE events (
    event_id     INTEGER PRIMARY KEY AUTOINCREMENT,
    kind         TEXT    NOT NULL CHECK (kind IN ('add', 'change', 'import', 'undo')),
    label_id     TEXT    NOT NULL,
    question_set TEXT    NOT NULL,
    question_id  TEXT    NOT NULL,
    doc_id       TEXT    NOT NULL,
    span_start   INTEGER NOT NULL CHECK (span_start >= 0),
    span_end     INTEGER NOT NULL,
    text         TEXT    NOT NULL,
    grade        INTEGER CHECK (grade BETWEEN 0 AND 3),
    note         TEXT    NOT NULL DEFAULT '',
    annotator    TEXT    NOT NULL DEFAULT '',
    created_at   TEXT    NOT NULL,
    recorded_at  TEXT    NOT NULL,
    target       INTEGER REFERENCES events (event_id),
    CHECK (span_end > span_start),
    CHECK ((kind = 'undo') = (target IS NOT NULL)),
    CHECK (kind = 'undo' OR grade IS NOT NULL)
);
CREATE INDEX events_label ON events (label_id);
CREATE INDEX events_question ON events (question_set, question_id);
CREATE UNIQUE INDEX events_undone_once ON events (target) WHERE target IS NOT NULL;
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'label events are append-only'); END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'label events are append-only'); END;
"""


#: Why a label, a span, a label file or the store was refused (``label.*``; English in
#: ``rag_core.wording``, the pages' wording in ``ui/text.py``).
STALE = declare("label.stale", "label", "expected", "now")
NOT_A_NAME = declare("label.not_a_name", "what", "value")
NOT_A_STRING = declare("label.not_a_string", "what", "value")
GRADE_INVALID = declare("label.grade_invalid", "value")
SPAN_NEGATIVE_START = declare("label.span.negative_start", "start")
SPAN_EMPTY = declare("label.span.empty", "start", "end")
SPAN_OUTSIDE = declare("label.span.outside", "start", "end", "doc", "length")
SPAN_TEXT_MISMATCH = declare(
    "label.span.text_mismatch", "doc", "start", "end", "label_text", "doc_text"
)
SPAN_LENGTH_MISMATCH = declare("label.span.length_mismatch", "length", "start", "end", "span")
CREATED_AT_NOT_STRING = declare("label.created_at.not_string", "value")
CREATED_AT_INVALID = declare("label.created_at.invalid", "value")
STORE_IS_DIRECTORY = declare("label.store.is_directory", "path")
STORE_NO_DIRECTORY = declare("label.store.no_directory", "folder", "error")
STORE_CANNOT_OPEN = declare("label.store.cannot_open", "path", "error")
STORE_NOT_SQLITE = declare("label.store.not_sqlite", "path", "error")
STORE_BUSY = declare("label.store.busy", "path", "error")
STORE_UNREADABLE = declare("label.store.unreadable", "path", "error")
STORE_FAILED = declare("label.store.failed", "path", "error")
STORE_NO_WAL = declare("label.store.no_wal", "path", "mode")
STORE_NOT_LABELS = declare("label.store.not_labels", "path", "tables")
STORE_NEWER_SCHEMA = declare("label.store.newer_schema", "path", "version", "supported")
STORE_NO_EVENTS = declare("label.store.no_events", "path")
STORE_CANNOT_INITIALISE = declare("label.store.cannot_initialise", "path", "error")
CHANGE_NOTHING = declare("label.change.nothing")
NO_CURRENT = declare("label.no_current", "label")
UNDO_NO_TARGET = declare("label.undo.no_target")
UNDO_NOTHING_LABEL = declare("label.undo.nothing.label", "label")
UNDO_NOTHING_ANNOTATOR = declare("label.undo.nothing.annotator", "annotator")
UNDO_NOTHING_BOTH = declare("label.undo.nothing.both", "label", "annotator")
IMPORT_NOT_TEXT = declare("label.import.not_text", "type")
IMPORT_NOT_OBJECT = declare("label.import.not_object", "type")
IMPORT_UNKNOWN_FIELDS = declare("label.import.unknown_fields", "unknown", "known")
IMPORT_MISSING_FIELDS = declare("label.import.missing_fields", "missing")
IMPORT_UNKNOWN_DOCUMENT = declare("label.import.unknown_document", "doc")
IMPORT_WRONG_ID = declare("label.import.wrong_id", "label", "expected")
IMPORT_SAME_SPAN = declare("label.import.same_span", "first")


class LabelStoreError(NoticeError):
    """The store cannot be opened or written (a clear one-line reason, ``label.store.*``)."""


class StaleLabel(NoticeError):
    """A write expected a label's state that another writer has since replaced (nothing written).

    ``current`` is the label as it is now (None: no current label).
    """

    def __init__(self, label_id: str, expected: int | None, current: Label | None) -> None:
        now = current.event_id if current is not None else None
        super().__init__(notice(STALE, label=repr(label_id), expected=expected, now=now))
        self.label_id = label_id
        self.expected = expected
        self.current = current

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.label_id, self.expected, self.current))


#: ``expected_event`` default of :meth:`LabelStore.add` / :meth:`LabelStore.change`: no check.
ANY_EVENT = -1


# ------------------------------------------------------------------ records


@dataclass(frozen=True)
class Label:
    """The current state of one labeled span (its latest event not undone).

    ``created_at`` and ``annotator`` belong to that latest event; ``kind``
    says which kind of event it was (add, change or import).
    """

    label_id: str
    question_set: str
    question_id: str
    doc_id: str
    start: int
    end: int
    text: str
    grade: int
    note: str
    annotator: str
    created_at: str
    event_id: int
    kind: str


@dataclass(frozen=True)
class LabelEvent:
    """One row of the append-only history.

    ``grade`` is ``None`` for an undo; ``target`` is the event an undo
    reverts; ``undone_by`` the undo event that reverted this one (if any).
    ``created_at`` is when the label was made (for imports: as the file
    says), ``recorded_at`` when this store wrote the event.
    """

    event_id: int
    kind: str
    label_id: str
    question_set: str
    question_id: str
    doc_id: str
    start: int
    end: int
    text: str
    grade: int | None
    note: str
    annotator: str
    created_at: str
    recorded_at: str
    target: int | None = None
    undone_by: int | None = None


@dataclass(frozen=True)
class ImportReport:
    """What an import did: lines read, labels added, changed and already equal."""

    n_lines: int
    added: int
    changed: int
    unchanged: int
    version: int


# ---------------------------------------------------------------- helpers


def default_store_path() -> Path:
    """``$RAG_INSPECTOR_DATA/labels.sqlite3``, else the XDG data dir, else ``~/.local/share``."""
    env = os.environ.get("RAG_INSPECTOR_DATA", "").strip()
    if env:
        return Path(env).expanduser() / "labels.sqlite3"
    xdg = os.environ.get("XDG_DATA_HOME", "").strip()
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "rag-inspector" / "labels.sqlite3"


def question_set_name(path: str | Path) -> str:
    """The name a question-set file is labeled under: its stem (``ko.jsonl`` → ``ko``)."""
    return Path(path).stem


def label_id_for(question_set: str, question_id: str, doc_id: str, start: int, end: int) -> str:
    """Stable id of a (question, span): first 16 hex digits of sha256 over its key.

    The same span of the same question has the same id in every store, so an
    export imported elsewhere lands on the same labels.
    """
    key = "\x1f".join((question_set, question_id, doc_id, str(start), str(end)))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise refused(NOT_A_NAME, what=what, value=repr(value))
    return value


def _int(value: Any, what: str) -> int:
    """An offset: an integer within SQLite's range (``rag_core.formats.guard.offset``)."""
    return offset(value, what)


def check_grade(grade: Any) -> int:
    """``grade`` as an int in 0–3, else ``ValueError`` (``label.grade_invalid``)."""
    if isinstance(grade, bool) or not isinstance(grade, int) or grade not in GRADES:
        raise refused(GRADE_INVALID, value=repr(grade))
    return grade


def check_span(
    doc_id: str,
    start: Any,
    end: Any,
    text: Any,
    doc: Document | str | None = None,
) -> None:
    """Validate a span: ``0 <= start < end``, within ``doc``, ``text == doc.text[start:end]``.

    Without ``doc`` only the shape is checked (``len(text) == end - start``).
    """
    _name(doc_id, "doc_id")
    start = _int(start, "start")
    end = _int(end, "end")
    if start < 0:
        raise refused(SPAN_NEGATIVE_START, start=start)
    if start >= end:
        raise refused(SPAN_EMPTY, start=start, end=end)
    if not isinstance(text, str):
        raise refused(NOT_A_STRING, what="text", value=repr(text))
    if doc is not None:
        doc_text = doc if isinstance(doc, str) else doc.text
        if end > len(doc_text):
            raise refused(
                SPAN_OUTSIDE, start=start, end=end, doc=repr(doc_id), length=len(doc_text)
            )
        actual = doc_text[start:end]
        if text != actual:
            raise refused(
                SPAN_TEXT_MISMATCH,
                doc=repr(doc_id),
                start=start,
                end=end,
                label_text=_short(text),
                doc_text=_short(actual),
            )
    elif len(text) != end - start:
        raise refused(
            SPAN_LENGTH_MISMATCH, length=len(text), start=start, end=end, span=end - start
        )


def _short(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


#: Dataclass field → column where the names differ.
_COLUMN = {"start": "span_start", "end": "span_end"}


def _from_row(cls: type, row: sqlite3.Row) -> Any:
    """Build ``cls`` (Label or LabelEvent) from a row holding a column for each of its fields."""
    return cls(**{f.name: row[_COLUMN.get(f.name, f.name)] for f in dataclasses.fields(cls)})


def _label(row: sqlite3.Row) -> Label:
    return _from_row(Label, row)


def _event(row: sqlite3.Row) -> LabelEvent:
    return _from_row(LabelEvent, row)


def _sort_key(label: Label) -> tuple[str, str, str, int, int]:
    return (label.question_set, label.question_id, label.doc_id, label.start, label.end)


# ------------------------------------------------------------------- store


class LabelStore:
    """Labels of one SQLite file (created on first use, with its directory).

    Args:
        path: the store file; default :func:`default_store_path`.
        timeout: seconds a write waits for a concurrent writer.
    """

    def __init__(self, path: str | Path | None = None, *, timeout: float = BUSY_TIMEOUT_S) -> None:
        self.path = Path(path).expanduser() if path is not None else default_store_path()
        self.timeout = float(timeout)
        if self.path.is_dir():
            raise LabelStoreError(notice(STORE_IS_DIRECTORY, path=str(self.path)))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LabelStoreError(
                notice(STORE_NO_DIRECTORY, folder=str(self.path.parent), error=exc.strerror)
            ) from None
        self._init()

    def __repr__(self) -> str:
        return f"LabelStore({str(self.path)!r})"

    def _error(self, code: str, exc: sqlite3.Error) -> LabelStoreError:
        """``code`` about this store with SQLite's own words as ``error`` (to ``raise``)."""
        return LabelStoreError(notice(code, path=str(self.path), error=str(exc)))

    # -- connections ---------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        try:
            con = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._error(STORE_CANNOT_OPEN, exc) from None
        try:
            con.row_factory = sqlite3.Row
            con.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            # synchronous is per connection: FULL fsyncs the WAL at every commit.
            con.execute("PRAGMA synchronous = FULL")
        except sqlite3.OperationalError as exc:
            con.close()
            raise self._error(STORE_CANNOT_OPEN, exc) from None
        except sqlite3.DatabaseError as exc:
            con.close()
            raise self._error(STORE_NOT_SQLITE, exc) from None
        return con

    @contextmanager
    def _tx(self, write: bool) -> Iterator[sqlite3.Connection]:
        """One transaction on a fresh connection; ``BEGIN IMMEDIATE`` for writes.

        Commits on success, rolls back on any exception (nothing half-written).
        """
        con = self._connect()
        try:
            try:
                con.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            except sqlite3.OperationalError as exc:
                raise self._error(STORE_BUSY, exc) from None
            except sqlite3.DatabaseError as exc:
                raise self._error(STORE_UNREADABLE, exc) from None
            try:
                yield con
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as exc:
            raise self._error(STORE_FAILED, exc) from None
        finally:
            con.close()

    def _init(self) -> None:
        con = self._connect()
        try:
            try:
                mode = con.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            except sqlite3.DatabaseError as exc:
                raise self._error(STORE_NOT_SQLITE, exc) from None
            if str(mode).lower() != "wal":
                raise LabelStoreError(notice(STORE_NO_WAL, path=str(self.path), mode=mode))
            con.execute("BEGIN IMMEDIATE")
            try:
                version = con.execute("PRAGMA user_version").fetchone()[0]
                tables = {
                    r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                }
                if version == 0:
                    if tables - {"sqlite_sequence"}:
                        raise LabelStoreError(
                            notice(
                                STORE_NOT_LABELS,
                                path=str(self.path),
                                tables=", ".join(sorted(tables)),
                            )
                        )
                    for statement in _SCHEMA.split(";\n"):
                        if statement.strip():
                            con.execute(statement)
                    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                elif version > SCHEMA_VERSION:
                    raise LabelStoreError(
                        notice(
                            STORE_NEWER_SCHEMA,
                            path=str(self.path),
                            version=version,
                            supported=SCHEMA_VERSION,
                        )
                    )
                elif "events" not in tables:
                    raise LabelStoreError(notice(STORE_NO_EVENTS, path=str(self.path)))
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as exc:
            raise self._error(STORE_CANNOT_INITIALISE, exc) from None
        finally:
            con.close()

    # -- reads ---------------------------------------------------------------
    _SELECT = (
        "SELECT e.*, u.event_id AS undone_by FROM events e "
        "LEFT JOIN events u ON u.target = e.event_id"
    )

    def _rows(
        self,
        con: sqlite3.Connection,
        question_set: str | None = None,
        question_id: str | None = None,
        label_id: str | None = None,
    ) -> list[sqlite3.Row]:
        where, params = [], []
        for column, value in (
            ("question_set", question_set),
            ("question_id", question_id),
            ("label_id", label_id),
        ):
            if value is not None:
                where.append(f"e.{column} = ?")
                params.append(value)
        sql = self._SELECT + (" WHERE " + " AND ".join(where) if where else "")
        sql += " ORDER BY e.event_id"
        return con.execute(sql, params).fetchall()

    @staticmethod
    def _current_of(rows: Sequence[sqlite3.Row]) -> dict[str, sqlite3.Row]:
        """label_id → its latest event that is not an undo and not undone (rows in event order)."""
        latest: dict[str, sqlite3.Row] = {}
        for row in rows:
            if row["kind"] != "undo" and row["undone_by"] is None:
                latest[row["label_id"]] = row
        return latest

    def current(
        self, question_set: str | None = None, question_id: str | None = None
    ) -> tuple[Label, ...]:
        """Current labels (optionally of one set / one question), sorted by question and span."""
        with self._tx(write=False) as con:
            rows = self._rows(con, question_set, question_id)
        return tuple(sorted((_label(r) for r in self._current_of(rows).values()), key=_sort_key))

    def get(self, label_id: str) -> Label | None:
        """The current state of one label, or None (unknown, or every event undone)."""
        with self._tx(write=False) as con:
            rows = self._rows(con, label_id=label_id)
        row = self._current_of(rows).get(label_id)
        return _label(row) if row is not None else None

    def history(
        self,
        question_set: str | None = None,
        question_id: str | None = None,
        *,
        label_id: str | None = None,
        annotator: str | None = None,
    ) -> tuple[LabelEvent, ...]:
        """Every event (oldest first), optionally filtered."""
        with self._tx(write=False) as con:
            rows = self._rows(con, question_set, question_id, label_id)
        events = (_event(r) for r in rows)
        return tuple(e for e in events if annotator is None or e.annotator == annotator)

    def progress(
        self, question_set: str, question_ids: Sequence[str]
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """``(judged, not_judged)`` question ids, in the order given.

        A question is judged when it has at least one current manual label
        (grade 0 included: "not relevant" is a judgement). Shipped needles do
        not count — they were not judged in this store.
        """
        judged_ids = {lab.question_id for lab in self.current(question_set)}
        judged = tuple(q for q in question_ids if q in judged_ids)
        not_judged = tuple(q for q in question_ids if q not in judged_ids)
        return judged, not_judged

    def version(self) -> int:
        """A number that grows with every write (the latest event id; 0 when empty).

        Events are never deleted and ids never reused (AUTOINCREMENT), so
        ``(store path, version)`` is a sound cache key for anything computed
        from the labels.
        """
        with self._tx(write=False) as con:
            row = con.execute("SELECT MAX(event_id) FROM events").fetchone()
        return int(row[0] or 0)

    def integrity(self) -> str:
        """SQLite's ``PRAGMA integrity_check``: ``"ok"`` for a sound file."""
        with self._tx(write=False) as con:
            return "; ".join(r[0] for r in con.execute("PRAGMA integrity_check"))

    # -- writes --------------------------------------------------------------
    @staticmethod
    def _insert(
        con: sqlite3.Connection,
        kind: str,
        question_set: str,
        question_id: str,
        doc_id: str,
        start: int,
        end: int,
        text: str,
        grade: int | None,
        note: str,
        annotator: str,
        created_at: str,
        target: int | None = None,
    ) -> int:
        cur = con.execute(
            "INSERT INTO events (kind, label_id, question_set, question_id, doc_id, span_start, "
            "span_end, text, grade, note, annotator, created_at, recorded_at, target) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                kind,
                label_id_for(question_set, question_id, doc_id, start, end),
                question_set,
                question_id,
                doc_id,
                start,
                end,
                text,
                grade,
                note,
                annotator,
                created_at,
                _now(),
                target,
            ),
        )
        if cur.lastrowid is None:  # sqlite3 sets it after every INSERT
            raise RuntimeError("the label insert returned no row id")
        return int(cur.lastrowid)

    def _fetch_label(self, con: sqlite3.Connection, event_id: int) -> Label:
        row = con.execute(self._SELECT + " WHERE e.event_id = ?", (event_id,)).fetchone()
        return _label(row)

    def add(
        self,
        question_set: str,
        question_id: str,
        doc_id: str,
        start: int,
        end: int,
        grade: int,
        *,
        text: str,
        note: str = "",
        annotator: str = "",
        doc: Document | str | None = None,
        expected_event: int | None = ANY_EVENT,
    ) -> Label:
        """Label ``doc_id[start:end]`` for a question with ``grade`` (0–3).

        Labeling a span that already has a label records a new event for
        the same ``label_id`` (its grade/note now win). With ``doc`` the
        span is checked against the document text. ``expected_event`` is the
        span's label version the writer saw (its ``event_id``; None: not
        labelled); when the store holds another, nothing is written.

        Raises:
            ValueError: bad ids, span, text or grade (nothing is written).
            StaleLabel: ``expected_event`` is not the current version.
        """
        _name(question_set, "question_set")
        _name(question_id, "question_id")
        check_span(doc_id, start, end, text, doc)
        check_grade(grade)
        _text_field(note, "note")
        _text_field(annotator, "annotator")
        with self._tx(write=True) as con:
            if expected_event != ANY_EVENT:
                lid = label_id_for(question_set, question_id, doc_id, start, end)
                self._check_expected(con, lid, expected_event)
            event_id = self._insert(
                con,
                "add",
                question_set,
                question_id,
                doc_id,
                start,
                end,
                text,
                grade,
                note,
                annotator,
                _now(),
            )
            return self._fetch_label(con, event_id)

    def _check_expected(self, con: sqlite3.Connection, label_id: str, expected: int | None) -> None:
        """Raise :class:`StaleLabel` when ``label_id``'s current event is not ``expected``
        (inside the write lock)."""
        row = self._current_of(self._rows(con, label_id=label_id)).get(label_id)
        now = row["event_id"] if row is not None else None
        if now != expected:
            raise StaleLabel(label_id, expected, _label(row) if row is not None else None)

    def change(
        self,
        label_id: str,
        grade: int | None = None,
        note: str | None = None,
        *,
        annotator: str = "",
        expected_event: int | None = ANY_EVENT,
    ) -> Label:
        """Change the grade and/or note of a current label (a new event).

        With ``expected_event`` (the version the writer saw) a label changed
        meanwhile raises :class:`StaleLabel` and nothing is written.
        """
        if grade is None and note is None:
            raise refused(CHANGE_NOTHING)
        if grade is not None:
            check_grade(grade)
        if note is not None:
            _text_field(note, "note")
        _text_field(annotator, "annotator")
        with self._tx(write=True) as con:
            if expected_event != ANY_EVENT:
                self._check_expected(con, label_id, expected_event)
            row = self._current_of(self._rows(con, label_id=label_id)).get(label_id)
            if row is None:
                raise refused(NO_CURRENT, label=repr(label_id))
            event_id = self._insert(
                con,
                "change",
                row["question_set"],
                row["question_id"],
                row["doc_id"],
                row["span_start"],
                row["span_end"],
                row["text"],
                row["grade"] if grade is None else grade,
                row["note"] if note is None else note,
                annotator,
                _now(),
            )
            return self._fetch_label(con, event_id)

    def undo(self, label_id: str | None = None, annotator: str | None = None) -> LabelEvent:
        """Revert the latest not-yet-undone event of ``label_id`` and/or ``annotator``.

        The label falls back to its previous event (or to *not judged* when
        none is left). The undo is itself an event, recorded under
        ``annotator`` (or ``""``). Returns the reverted event.
        """
        if label_id is None and annotator is None:
            raise refused(UNDO_NO_TARGET)
        with self._tx(write=True) as con:
            rows = self._rows(con, label_id=label_id)
            candidates = [
                r
                for r in rows
                if r["kind"] != "undo"
                and r["undone_by"] is None
                and (annotator is None or r["annotator"] == annotator)
            ]
            if not candidates:
                raise NoticeError(_nothing_to_undo(label_id, annotator))
            target = candidates[-1]
            self._insert(
                con,
                "undo",
                target["question_set"],
                target["question_id"],
                target["doc_id"],
                target["span_start"],
                target["span_end"],
                target["text"],
                None,
                "",
                annotator or "",
                _now(),
                target=target["event_id"],
            )
            row = con.execute(
                self._SELECT + " WHERE e.event_id = ?", (target["event_id"],)
            ).fetchone()
        return _event(row)

    # -- JSONL ---------------------------------------------------------------
    def export_jsonl(self, question_set: str | None = None) -> str:
        """Current labels as JSON Lines (fields :data:`JSONL_FIELDS`), by question and span."""
        lines = []
        for lab in self.current(question_set):
            record = {
                "label_id": lab.label_id,
                "question_set": lab.question_set,
                "question_id": lab.question_id,
                "doc_id": lab.doc_id,
                "start": lab.start,
                "end": lab.end,
                "text": lab.text,
                "grade": lab.grade,
                "note": lab.note,
                "annotator": lab.annotator,
                "created_at": lab.created_at,
            }
            lines.append(json.dumps(record, ensure_ascii=False) + "\n")
        return "".join(lines)

    def import_jsonl(
        self,
        text: str,
        *,
        docs: Mapping[str, Document | str] | None = None,
        source: str = "<labels.jsonl>",
    ) -> ImportReport:
        """Import labels written by :meth:`export_jsonl` — all or nothing.

        Every line is validated first (JSON object, known fields, ids, span,
        grade, ``label_id`` matching its span, no span twice; with ``docs``
        the text must match the document). The first bad line raises
        ``ValueError`` naming the line and the reason, and the store is left
        exactly as it was. Then one transaction records an ``import`` event
        for each label that is new or differs (grade, note or text) from the
        current state; equal labels are left alone, so importing the same
        file twice changes nothing the second time.
        """
        records = parse_labels_jsonl(text, docs=docs, source=source)
        added = changed = unchanged = 0
        with self._tx(write=True) as con:
            current = self._current_of(self._rows(con))
            for rec in records:
                lid = label_id_for(
                    rec["question_set"], rec["question_id"], rec["doc_id"], rec["start"], rec["end"]
                )
                row = current.get(lid)
                if row is not None and (row["grade"], row["note"], row["text"]) == (
                    rec["grade"],
                    rec["note"],
                    rec["text"],
                ):
                    unchanged += 1
                    continue
                self._insert(
                    con,
                    "import",
                    rec["question_set"],
                    rec["question_id"],
                    rec["doc_id"],
                    rec["start"],
                    rec["end"],
                    rec["text"],
                    rec["grade"],
                    rec["note"],
                    rec["annotator"],
                    rec["created_at"],
                )
                if row is None:
                    added += 1
                else:
                    changed += 1
            version = int(con.execute("SELECT MAX(event_id) FROM events").fetchone()[0] or 0)
        return ImportReport(len(records), added, changed, unchanged, version)

    # -- qrels ---------------------------------------------------------------
    def export_qrels(
        self,
        chunks: Sequence[Chunk],
        questions: Sequence[Question],
        docs: Mapping[str, Document | str],
        *,
        question_set: str | None = None,
        phrasings: str = "all",
        escape: bool = False,
    ) -> str:
        """TREC qrels of ``questions`` for one chunking (see :func:`qrels_for`)."""
        qrels = qrels_for(
            chunks,
            questions,
            docs,
            self.current(question_set),
            question_set=question_set,
            phrasings=phrasings,
        )
        return format_qrels(qrels, escape=escape)


def _nothing_to_undo(label_id: str | None, annotator: str | None) -> Notice:
    """ "Nothing to undo" for a label, an annotator or both (at least one is given)."""
    if label_id is not None and annotator is not None:
        return notice(UNDO_NOTHING_BOTH, label=repr(label_id), annotator=repr(annotator))
    if label_id is not None:
        return notice(UNDO_NOTHING_LABEL, label=repr(label_id))
    return notice(UNDO_NOTHING_ANNOTATOR, annotator=repr(annotator))


def _text_field(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise refused(NOT_A_STRING, what=what, value=repr(value))
    return value


# -------------------------------------------------------------- JSONL parse


def parse_labels_jsonl(
    text: str,
    *,
    docs: Mapping[str, Document | str] | None = None,
    source: str = "<labels.jsonl>",
) -> list[dict[str, Any]]:
    """Validate every line of a labels JSONL file; return the records.

    Raises ``ValueError("<source> line N: reason")`` at the first bad line.
    Blank lines are skipped. Missing ``note``/``annotator`` default to
    ``""``, a missing ``created_at`` to now.
    """
    if not isinstance(text, str):
        raise at(source, IMPORT_NOT_TEXT, type=type(text).__name__)
    records: list[dict[str, Any]] = []
    first_line: dict[str, int] = {}
    now = _now()
    for no, text_line in enumerate(text.splitlines(), 1):
        if not text_line.strip():
            continue
        where = line(source, no)
        row = json_line(text_line, where)  # depth and integer caps before parsing
        if not isinstance(row, dict):
            raise at(where, IMPORT_NOT_OBJECT, type=type(row).__name__)
        unknown = sorted(set(row) - set(JSONL_FIELDS))
        if unknown:
            raise at(
                where,
                IMPORT_UNKNOWN_FIELDS,
                unknown=", ".join(unknown),
                known=", ".join(JSONL_FIELDS),
            )
        missing = [f for f in _REQUIRED if f not in row]
        if missing:
            raise at(where, IMPORT_MISSING_FIELDS, missing=", ".join(missing))
        try:
            for f in ("question_set", "question_id"):
                _name(row[f], f)
            check_span(row["doc_id"], row["start"], row["end"], row["text"])
            if docs is not None:
                doc = docs.get(row["doc_id"])
                if doc is None:
                    raise refused(IMPORT_UNKNOWN_DOCUMENT, doc=repr(row["doc_id"]))
                check_span(row["doc_id"], row["start"], row["end"], row["text"], doc)
            check_grade(row["grade"])
            note = _text_field(row.get("note", ""), "note")
            annotator = _text_field(row.get("annotator", ""), "annotator")
            created_at = row.get("created_at", now)
            _check_timestamp(created_at)
            expected = label_id_for(
                row["question_set"], row["question_id"], row["doc_id"], row["start"], row["end"]
            )
            if "label_id" in row and row["label_id"] != expected:
                raise refused(IMPORT_WRONG_ID, label=repr(row["label_id"]), expected=repr(expected))
        except ValueError as exc:  # the line's problem, placed at the line
            raise refused(AT, where=where, problem=unworded(exc)) from None
        if expected in first_line:
            raise at(where, IMPORT_SAME_SPAN, first=first_line[expected])
        first_line[expected] = no
        records.append(
            {
                "question_set": row["question_set"],
                "question_id": row["question_id"],
                "doc_id": row["doc_id"],
                "start": row["start"],
                "end": row["end"],
                "text": row["text"],
                "grade": row["grade"],
                "note": note,
                "annotator": annotator,
                "created_at": created_at,
            }
        )
    return records


def _check_timestamp(value: Any) -> None:
    if not isinstance(value, str):
        raise refused(CREATED_AT_NOT_STRING, value=repr(value))
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise refused(CREATED_AT_INVALID, value=repr(value)) from None


# -------------------------------------------------------------- gold spans


def _doc_text(docs: Mapping[str, Document | str] | None, doc_id: str) -> str | None:
    if docs is None:
        return None
    doc = docs.get(doc_id)
    if doc is None:
        return None
    return doc if isinstance(doc, str) else doc.text


def gold_for(
    question: Question,
    store_labels: Sequence[Label],
    docs: Mapping[str, Document | str] | None = None,
    *,
    question_set: str | None = None,
) -> tuple[Needle, ...]:
    """Gold evidence of a question: its shipped needles merged with manual labels.

    * A shipped needle with no label on its span stays as is
      (``origin="needle"``, grade 1).
    * A label on the same span as a needle (same document and same text,
      or the same offsets when ``docs`` lets the needle be located)
      overrides its grade (``origin="needle+label"``); grade 0 removes it.
    * Any other label with grade ≥ 1 adds a gold span (``origin="label"``,
      with ``start``/``end``). Grade-0 labels are judged-not-relevant
      spans: they are not gold.

    Only labels of ``question.id`` (and of ``question_set`` when given) count.
    """
    labels = [
        lab
        for lab in store_labels
        if lab.question_id == question.id
        and (question_set is None or lab.question_set == question_set)
    ]
    used: set[str] = set()
    out: list[Needle] = []
    for needle in question.needles:
        text = _doc_text(docs, needle.doc_id)
        span = locate(text, needle) if text is not None else None
        match = next(
            (
                lab
                for lab in labels
                if lab.label_id not in used
                and lab.doc_id == needle.doc_id
                and (lab.text == needle.text or (span is not None and (lab.start, lab.end) == span))
            ),
            None,
        )
        if match is None:
            out.append(needle)
            continue
        used.add(match.label_id)
        if match.grade > 0:
            out.append(
                Needle(
                    doc_id=needle.doc_id,
                    text=match.text,
                    start=match.start,
                    end=match.end,
                    grade=match.grade,
                    origin="needle+label",
                )
            )
    for lab in labels:
        if lab.label_id in used or lab.grade <= 0:
            continue
        out.append(
            Needle(
                doc_id=lab.doc_id,
                text=lab.text,
                start=lab.start,
                end=lab.end,
                grade=lab.grade,
                origin="label",
            )
        )
    return tuple(out)


def qrels_for(
    chunks: Sequence[Chunk],
    questions: Sequence[Question],
    docs: Mapping[str, Document | str],
    labels: Sequence[Label],
    *,
    question_set: str | None = None,
    phrasings: str = "all",
) -> dict[str, dict[str, int]]:
    """``{query_id: {chunk_id: grade}}`` for one chunking.

    A chunk is relevant when its content contains a gold span
    (:func:`gold_for`) entirely; its grade is the maximum over the spans it
    contains. A chunk that contains only grade-0 labeled spans is written
    with grade 0 (judged not relevant). Query ids follow
    :func:`rag_core.formats.questions.queries_of` with ``phrasings`` — the ids an
    ``eval`` run uses — so the qrels match its TREC run. Questions with no
    judged chunk are left out (not judged).
    """
    order = {c.chunk_id: i for i, c in enumerate(chunks)}
    out: dict[str, dict[str, int]] = {}
    for q in questions:
        gold = gold_for(q, labels, docs, question_set=question_set)
        grades = grades_for(chunks, gold, docs)
        zeros = [
            Needle(lab.doc_id, lab.text, lab.start, lab.end, grade=0, origin="label")
            for lab in labels
            if lab.question_id == q.id
            and lab.grade == 0
            and (question_set is None or lab.question_set == question_set)
        ]
        for cid in grades_for(chunks, zeros, docs):
            grades.setdefault(cid, 0)
        if not grades:
            continue
        ordered = dict(sorted(grades.items(), key=lambda kv: order.get(kv[0], len(order))))
        for qid, _text in queries_of(q, phrasings):
            out[qid] = dict(ordered)
    return out


def stale_labels(labels: Sequence[Label], docs: Mapping[str, Document | str]) -> tuple[Label, ...]:
    """Labels whose text no longer matches their document at their offsets (or is gone)."""
    out = []
    for lab in labels:
        text = _doc_text(docs, lab.doc_id)
        if text is None or text[lab.start : lab.end] != lab.text:
            out.append(lab)
    return tuple(out)


__all__ = [
    "BUSY_TIMEOUT_S",
    "GRADES",
    "ImportReport",
    "JSONL_FIELDS",
    "Label",
    "LabelEvent",
    "LabelStore",
    "LabelStoreError",
    "SCHEMA_VERSION",
    "check_grade",
    "check_span",
    "default_store_path",
    "gold_for",
    "label_id_for",
    "parse_labels_jsonl",
    "qrels_for",
    "question_set_name",
    "stale_labels",
]
