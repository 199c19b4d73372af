"""The label store: labels of one SQLite file, kept as an append-only history.

Storage is SQLite (stdlib ``sqlite3``):

* **Append-only events.** Every add, change, import and undo is a new row
  of ``events``; triggers refuse ``UPDATE`` and ``DELETE``. The history
  shows who labeled what and when, undo included.
* **A state per annotator, and an adjudicated one.** An event belongs to its
  annotator's own labels or to the adjudicated gold (its ``track``,
  :mod:`rag_core.gold.schema`). A label's current state *for an annotator* is
  their latest event on its span that no ``undo`` event points at, so a second
  annotator never overwrites the first; what reads gold names the state it reads
  (:mod:`rag_core.gold.states`: one annotator, adjudicated, or a merge rule).
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
  schema is refused, never silently rewritten; a schema-1 store is stepped to 2
  with no event rewritten, its events read as one annotator and the step
  recorded (:attr:`LabelStore.migrations`).

The store lives in a data directory outside the source tree:
``$RAG_INSPECTOR_DATA/labels.sqlite3``, else
``$XDG_DATA_HOME/rag-inspector/labels.sqlite3``, else
``~/.local/share/rag-inspector/labels.sqlite3`` (:func:`default_store_path`).
"""

from __future__ import annotations

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
from . import schema
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
from .schema import ADJUDICATED, OWN, SCHEMA_VERSION, Migration, NewEvent
from .states import GoldState, Resolved, StateLabels, label_order

#: Seconds a writer waits for another writer's transaction before giving up.
BUSY_TIMEOUT_S = 30.0

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


def default_store_path() -> Path:
    """``$RAG_INSPECTOR_DATA/labels.sqlite3``, else the XDG data dir, else ``~/.local/share``."""
    env = os.environ.get("RAG_INSPECTOR_DATA", "").strip()
    if env:
        return Path(env).expanduser() / "labels.sqlite3"
    xdg = os.environ.get("XDG_DATA_HOME", "").strip()
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "rag-inspector" / "labels.sqlite3"


#: ``(track, owner)``: the state an event counts in (see ``rag_core.gold.schema.state_key``).
StateKey = tuple[str, str]


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
                self._schema(con)
                steps = schema.migrations(con)
                self._legacy = steps[0].legacy_owner if steps else ""
                self.migrations: tuple[Migration, ...] = steps
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as exc:
            raise self._error(STORE_CANNOT_INITIALISE, exc) from None
        finally:
            con.close()

    def _schema(self, con: sqlite3.Connection) -> None:
        """Create the schema, or step a schema-1 store to 2 (no event rewritten), or refuse."""
        version = con.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version == 0:
            if tables - {"sqlite_sequence"}:
                raise LabelStoreError(
                    notice(STORE_NOT_LABELS, path=str(self.path), tables=", ".join(sorted(tables)))
                )
            schema.create(con)
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
        elif version == 1:
            schema.step_1_to_2(con)

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

    def _current_of(self, rows: Sequence[sqlite3.Row]) -> dict[tuple[StateKey, str], sqlite3.Row]:
        """``((track, owner), label_id)`` → its latest event that is not an undo and not undone
        (rows in event order): each state's current label of each span."""
        latest: dict[tuple[StateKey, str], sqlite3.Row] = {}
        for row in rows:
            if row["kind"] != "undo" and row["undone_by"] is None:
                latest[(schema.state_key(row, self._legacy), row["label_id"])] = row
        return latest

    def _label(self, row: sqlite3.Row) -> Label:
        return schema.label_of(row, self._legacy)

    def snapshot(
        self, question_set: str | None = None, question_id: str | None = None
    ) -> StateLabels:
        """Every state's current labels (optionally of one set / one question)."""
        with self._tx(write=False) as con:
            rows = self._rows(con, question_set, question_id)
        own: dict[str, list[Label]] = {}
        adjudications: list[Label] = []
        for ((track, owner), _), row in self._current_of(rows).items():
            if track == ADJUDICATED:
                adjudications.append(self._label(row))
            else:
                own.setdefault(owner, []).append(self._label(row))
        return StateLabels(
            {who: tuple(sorted(labs, key=label_order)) for who, labs in sorted(own.items())},
            tuple(sorted(adjudications, key=label_order)),
        )

    def resolve(
        self,
        question_set: str | None = None,
        question_id: str | None = None,
        *,
        state: str | GoldState | None = None,
    ) -> Resolved:
        """The labels of one state (see :mod:`rag_core.gold.states`) and the state they are."""
        return self.snapshot(question_set, question_id).resolve(state)

    def current(
        self,
        question_set: str | None = None,
        question_id: str | None = None,
        *,
        state: str | GoldState | None = None,
    ) -> tuple[Label, ...]:
        """Current labels of ``state`` (default: :meth:`StateLabels.default`), optionally of one
        set / one question, sorted by question and span."""
        return self.resolve(question_set, question_id, state=state).labels

    def mine(
        self, annotator: str, question_set: str | None = None, question_id: str | None = None
    ) -> tuple[Label, ...]:
        """``annotator``'s own current labels (none yet: empty)."""
        return self.snapshot(question_set, question_id).own.get(annotator, ())

    def get(self, label_id: str, *, annotator: str | None = None) -> Label | None:
        """The current label of one span: ``annotator``'s, else the latest of any annotator's
        (None: unknown, or every event undone)."""
        with self._tx(write=False) as con:
            rows = self._rows(con, label_id=label_id)
        found = [
            (row["event_id"], row)
            for ((track, owner), _), row in self._current_of(rows).items()
            if track == OWN and (annotator is None or owner == annotator)
        ]
        return self._label(max(found)[1]) if found else None

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
        events = (schema.event_of(r, self._legacy) for r in rows)
        return tuple(e for e in events if annotator is None or e.annotator == annotator)

    def progress(
        self,
        question_set: str,
        question_ids: Sequence[str],
        *,
        state: str | GoldState | None = None,
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """``(judged, not_judged)`` question ids, in the order given.

        A question is judged when it has at least one current manual label of ``state``
        (grade 0 included: "not relevant" is a judgement). Shipped needles do
        not count — they were not judged in this store.
        """
        judged_ids = {lab.question_id for lab in self.current(question_set, state=state)}
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
    def _fetch_label(self, con: sqlite3.Connection, event_id: int) -> Label:
        row = con.execute(self._SELECT + " WHERE e.event_id = ?", (event_id,)).fetchone()
        return self._label(row)

    def _state_row(
        self, con: sqlite3.Connection, label_id: str, key: StateKey
    ) -> tuple[sqlite3.Row | None, sqlite3.Row | None]:
        """``(the span's current row in state key, its latest current row of any own state)``."""
        current = self._current_of(self._rows(con, label_id=label_id))
        own = [r for ((track, _), _), r in current.items() if track == OWN]
        latest = max(own, key=lambda r: r["event_id"]) if own else None
        return current.get((key, label_id)), latest

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
        adjudicate: bool = False,
    ) -> Label:
        """Label ``doc_id[start:end]`` for a question with ``grade`` (0–3), in ``annotator``'s
        own state (``adjudicate``: in the adjudicated state, ``annotator`` adjudicating).

        Labeling a span that already has a label in that state records a new event for
        the same ``label_id`` (its grade/note now win). With ``doc`` the
        span is checked against the document text. ``expected_event`` is the
        span's label version the writer saw in that state (its ``event_id``; None: not
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
        track = ADJUDICATED if adjudicate else OWN
        with self._tx(write=True) as con:
            if expected_event != ANY_EVENT:
                lid = label_id_for(question_set, question_id, doc_id, start, end)
                self._check_expected(con, lid, expected_event, self._key(track, annotator))
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
                track=track,
            )
            event_id = schema.insert(con, event)
            return self._fetch_label(con, event_id)

    @staticmethod
    def _key(track: str, annotator: str) -> StateKey:
        return (track, annotator if track == OWN else "")

    def _check_expected(
        self, con: sqlite3.Connection, label_id: str, expected: int | None, key: StateKey
    ) -> None:
        """Raise :class:`StaleLabel` when ``label_id``'s current event in state ``key`` is not
        ``expected`` (inside the write lock)."""
        row, _ = self._state_row(con, label_id, key)
        now = row["event_id"] if row is not None else None
        if now != expected:
            raise StaleLabel(label_id, expected, self._label(row) if row is not None else None)

    def change(
        self,
        label_id: str,
        grade: int | None = None,
        note: str | None = None,
        *,
        annotator: str = "",
        expected_event: int | None = ANY_EVENT,
        adjudicate: bool = False,
    ) -> Label:
        """Change the grade and/or note of a label in ``annotator``'s state (a new event); a span
        they have not labeled starts from its latest label of any annotator.

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
        key = self._key(ADJUDICATED if adjudicate else OWN, annotator)
        with self._tx(write=True) as con:
            if expected_event != ANY_EVENT:
                self._check_expected(con, label_id, expected_event, key)
            mine, latest = self._state_row(con, label_id, key)
            row = mine if mine is not None else latest
            if row is None:
                raise refused(NO_CURRENT, label=repr(label_id))
            event = NewEvent.on(
                row,
                kind="change",
                grade=row["grade"] if grade is None else grade,
                note=row["note"] if note is None else note,
                annotator=annotator,
                created_at=utc_now(),
                track=key[0],
            )
            event_id = schema.insert(con, event)
            return self._fetch_label(con, event_id)

    def undo(
        self,
        label_id: str | None = None,
        annotator: str | None = None,
        *,
        track: str | None = None,
    ) -> LabelEvent:
        """Revert the latest not-yet-undone event of ``label_id`` and/or ``annotator`` (of one
        ``track`` when given: ``own`` labels or ``adjudicated`` ones).

        The label falls back to its previous event in that state (or to *not judged* when
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
                and (track is None or (r["track"] or OWN) == track)
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
                track=target["track"] or OWN,
            )
            schema.insert(con, undo)
            row = con.execute(
                self._SELECT + " WHERE e.event_id = ?", (target["event_id"],)
            ).fetchone()
        return schema.event_of(row, self._legacy)

    # -- JSONL ---------------------------------------------------------------
    def export_jsonl(
        self, question_set: str | None = None, *, state: str | GoldState | None = None
    ) -> str:
        """Current labels of ``state`` as JSON Lines (fields
        :data:`~rag_core.gold.label_files.JSONL_FIELDS`), by question and span."""
        return label_lines(self.current(question_set, state=state))

    def import_jsonl(
        self,
        text: str,
        *,
        docs: Mapping[str, Document | str] | None = None,
        source: str = "<labels.jsonl>",
    ) -> ImportReport:
        """Import labels written by :meth:`export_jsonl` — all or nothing.

        Every line is validated first (JSON object, known fields, ids, span,
        grade, ``label_id`` matching its span, no span twice in one state; with ``docs``
        the text must match the document). The first bad line raises
        ``ValueError`` naming the line and the reason, and the store is left
        exactly as it was. Then one transaction records an ``import`` event
        for each label that is new or differs (grade, note or text) from the
        current label of its state — its ``annotator``'s own, or the adjudicated one for a
        line with ``"state": "adjudicated"`` —; equal labels are left alone, so importing the
        same file twice changes nothing the second time.
        """
        records = parse_labels_jsonl(text, docs=docs, source=source)
        added = changed = unchanged = 0
        with self._tx(write=True) as con:
            current = self._current_of(self._rows(con))
            for rec in records:
                track = rec.pop("track")
                lid = label_id_for(
                    rec["question_set"], rec["question_id"], rec["doc_id"], rec["start"], rec["end"]
                )
                row = current.get((self._key(track, rec["annotator"]), lid))
                if row is not None and (row["grade"], row["note"], row["text"]) == (
                    rec["grade"],
                    rec["note"],
                    rec["text"],
                ):
                    unchanged += 1
                    continue
                schema.insert(con, NewEvent(kind="import", track=track, **rec))
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
        state: str | GoldState | None = None,
    ) -> str:
        """TREC qrels of ``questions`` for one chunking from the labels of ``state`` (see
        :func:`qrels_for`)."""
        qrels = qrels_for(
            chunks,
            questions,
            docs,
            self.current(question_set, state=state),
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
