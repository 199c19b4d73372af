"""The label store: labels of one SQLite file, kept as an append-only history.

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
import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..formats.trec import format_qrels
from ..types import Chunk, Document, Notice, Question
from ..wording import NoticeError, declare, notice, refused
from .label_files import label_lines, parse_labels_jsonl
from .labels import (
    Label,
    LabelEvent,
    check_grade,
    check_name,
    check_span,
    check_text,
    label_id_for,
    utc_now,
)
from .merge import qrels_for

SCHEMA_VERSION = 1
#: Seconds a writer waits for another writer's transaction before giving up.
BUSY_TIMEOUT_S = 30.0

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

#: Why the store refused a write or could not be opened (``label.*``).
#: Why a label, a span, a label file or the store was refused (``label.*``; English in
#: ``rag_core.wording``, the pages' wording in ``ui/text.py``).
STALE = declare("label.stale", "label", "expected", "now")
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


@dataclass(frozen=True)
class ImportReport:
    """What an import did: lines read, labels added, changed and already equal."""

    n_lines: int
    added: int
    changed: int
    unchanged: int
    version: int


@dataclass(frozen=True, kw_only=True)
class NewEvent:
    """An event to append: its kind, the labeled span, and what it says (:meth:`LabelStore._insert`
    adds the label id and when it was recorded)."""

    kind: str
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
    target: int | None = None

    @classmethod
    def on(cls, row: sqlite3.Row, **fields: Any) -> NewEvent:
        """An event on the span of stored event ``row``: its grade and note unless ``fields``
        give others."""
        stored = {"grade": row["grade"], "note": row["note"]}
        return cls(
            question_set=row["question_set"],
            question_id=row["question_id"],
            doc_id=row["doc_id"],
            start=row["span_start"],
            end=row["span_end"],
            text=row["text"],
            **{**stored, **fields},
        )


def default_store_path() -> Path:
    """``$RAG_INSPECTOR_DATA/labels.sqlite3``, else the XDG data dir, else ``~/.local/share``."""
    env = os.environ.get("RAG_INSPECTOR_DATA", "").strip()
    if env:
        return Path(env).expanduser() / "labels.sqlite3"
    xdg = os.environ.get("XDG_DATA_HOME", "").strip()
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "rag-inspector" / "labels.sqlite3"


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
    def _insert(con: sqlite3.Connection, event: NewEvent) -> int:
        """Append ``event`` with its span's label id, recorded now; returns its event id."""
        label_id = label_id_for(
            event.question_set, event.question_id, event.doc_id, event.start, event.end
        )
        cur = con.execute(
            "INSERT INTO events (kind, label_id, question_set, question_id, doc_id, span_start, "
            "span_end, text, grade, note, annotator, created_at, recorded_at, target) "
            "VALUES (:kind, :label_id, :question_set, :question_id, :doc_id, :start, :end, "
            ":text, :grade, :note, :annotator, :created_at, :recorded_at, :target)",
            {**dataclasses.asdict(event), "label_id": label_id, "recorded_at": utc_now()},
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
        check_name(question_set, "question_set")
        check_name(question_id, "question_id")
        check_span(doc_id, start, end, text, doc)
        check_grade(grade)
        check_text(note, "note")
        check_text(annotator, "annotator")
        with self._tx(write=True) as con:
            if expected_event != ANY_EVENT:
                lid = label_id_for(question_set, question_id, doc_id, start, end)
                self._check_expected(con, lid, expected_event)
            event = NewEvent(
                kind="add",
                question_set=question_set,
                question_id=question_id,
                doc_id=doc_id,
                start=start,
                end=end,
                text=text,
                grade=grade,
                note=note,
                annotator=annotator,
                created_at=utc_now(),
            )
            event_id = self._insert(con, event)
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
            check_text(note, "note")
        check_text(annotator, "annotator")
        with self._tx(write=True) as con:
            if expected_event != ANY_EVENT:
                self._check_expected(con, label_id, expected_event)
            row = self._current_of(self._rows(con, label_id=label_id)).get(label_id)
            if row is None:
                raise refused(NO_CURRENT, label=repr(label_id))
            event = NewEvent.on(
                row,
                kind="change",
                grade=row["grade"] if grade is None else grade,
                note=row["note"] if note is None else note,
                annotator=annotator,
                created_at=utc_now(),
            )
            event_id = self._insert(con, event)
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
            undo = NewEvent.on(
                target,
                kind="undo",
                grade=None,
                note="",
                annotator=annotator or "",
                created_at=utc_now(),
                target=target["event_id"],
            )
            self._insert(con, undo)
            row = con.execute(
                self._SELECT + " WHERE e.event_id = ?", (target["event_id"],)
            ).fetchone()
        return _event(row)

    # -- JSONL ---------------------------------------------------------------
    def export_jsonl(self, question_set: str | None = None) -> str:
        """Current labels as JSON Lines (fields :data:`~rag_core.gold.label_files.JSONL_FIELDS`),
        by question and span."""
        return label_lines(self.current(question_set))

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
                self._insert(con, NewEvent(kind="import", **rec))
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


__all__ = [
    "ANY_EVENT",
    "BUSY_TIMEOUT_S",
    "ImportReport",
    "LabelStore",
    "LabelStoreError",
    "SCHEMA_VERSION",
    "StaleLabel",
    "default_store_path",
]
