"""The label store's SQLite schema, its version steps, and its rows as records.

Schema 2 (this one) gives every event a ``track``: ``own`` (an annotator's own labels: the
label's state for that annotator) or ``adjudicated`` (the adjudicated gold, a state of its own
written by whoever adjudicates). Schema 1 had no track: the current state of a label was its
latest event whoever wrote it. A schema-1 store is stepped to 2 when opened
(:func:`step_1_to_2`) without touching one of its events: the column is added (``NULL`` in the
old rows), and a ``migrations`` row records the step and the one annotator the old events are
read as (:func:`legacy_owner`): the name they carry when they carry one, the names joined by
``+`` when several wrote, ``""`` (anonymous) when none did.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from dataclasses import dataclass
from typing import Any

from .labels import Label, LabelEvent, label_id_for, utc_now

SCHEMA_VERSION = 2

#: The tracks an event belongs to: an annotator's own state, or the adjudicated one.
OWN, ADJUDICATED = "own", "adjudicated"

#: Schema 1 as it was written (a new store runs it, then the step to 2: the statements a
#: schema-1 store gets).
SCHEMA_1 = """
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

_STEP_2 = """
ALTER TABLE events ADD COLUMN track TEXT CHECK (track IS NULL OR track IN ('own', 'adjudicated'));
CREATE TABLE migrations (
    from_version INTEGER NOT NULL,
    to_version   INTEGER NOT NULL,
    migrated_at  TEXT    NOT NULL,
    legacy_owner TEXT    NOT NULL,
    n_events     INTEGER NOT NULL
);
CREATE TRIGGER migrations_append_only_update BEFORE UPDATE ON migrations
BEGIN SELECT RAISE(ABORT, 'migrations are append-only'); END;
CREATE TRIGGER migrations_append_only_delete BEFORE DELETE ON migrations
BEGIN SELECT RAISE(ABORT, 'migrations are append-only'); END;
"""


def _run(con: sqlite3.Connection, script: str) -> None:
    for statement in script.split(";\n"):
        if statement.strip():
            con.execute(statement)


def create(con: sqlite3.Connection) -> None:
    """A new store at schema 2 (inside the caller's transaction); nothing is migrated."""
    _run(con, SCHEMA_1)
    _run(con, _STEP_2)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def legacy_owner(con: sqlite3.Connection) -> str:
    """The one annotator schema-1 events are read as: the name they carry (``""``: anonymous),
    or the names joined by ``+`` when several annotators wrote them."""
    names = sorted(
        r[0]
        for r in con.execute(
            "SELECT DISTINCT annotator FROM events WHERE kind != 'undo' AND annotator != ''"
        )
    )
    return "+".join(names)


def step_1_to_2(con: sqlite3.Connection) -> None:
    """Schema 1 → 2 (inside the caller's transaction): a column and a table added, no event
    rewritten; the step and the old events' annotator are recorded in ``migrations``."""
    owner = legacy_owner(con)
    n_events = int(con.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    _run(con, _STEP_2)
    con.execute("INSERT INTO migrations VALUES (1, 2, ?, ?, ?)", (utc_now(), owner, n_events))
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


@dataclass(frozen=True)
class Migration:
    """A schema step the store went through: when, and whose state the old events became."""

    from_version: int
    to_version: int
    migrated_at: str
    legacy_owner: str
    n_events: int


def migrations(con: sqlite3.Connection) -> tuple[Migration, ...]:
    """The store's recorded schema steps, oldest first."""
    rows = con.execute("SELECT * FROM migrations ORDER BY rowid").fetchall()
    return tuple(Migration(*tuple(r)) for r in rows)


@dataclass(frozen=True, kw_only=True)
class NewEvent:
    """An event to append: its kind and track, the labeled span, and what it says
    (:func:`insert` adds the label id and when it was recorded)."""

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
    track: str = OWN

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


def insert(con: sqlite3.Connection, event: NewEvent) -> int:
    """Append ``event`` with its span's label id, recorded now; returns its event id."""
    label_id = label_id_for(
        event.question_set, event.question_id, event.doc_id, event.start, event.end
    )
    cur = con.execute(
        "INSERT INTO events (kind, label_id, question_set, question_id, doc_id, span_start, "
        "span_end, text, grade, note, annotator, created_at, recorded_at, target, track) "
        "VALUES (:kind, :label_id, :question_set, :question_id, :doc_id, :start, :end, "
        ":text, :grade, :note, :annotator, :created_at, :recorded_at, :target, :track)",
        {**dataclasses.asdict(event), "label_id": label_id, "recorded_at": utc_now()},
    )
    if cur.lastrowid is None:  # sqlite3 sets it after every INSERT
        raise RuntimeError("the label insert returned no row id")
    return int(cur.lastrowid)


#: Dataclass field → column where the names differ.
_COLUMN = {"start": "span_start", "end": "span_end"}


def owner_of(row: sqlite3.Row, legacy: str) -> str:
    """Whose state event ``row`` belongs to: its annotator (schema-1 events: ``legacy``); ``""``
    for an adjudication (the adjudicated state is nobody's own)."""
    track = row["track"]
    if track is None:
        return legacy
    return row["annotator"] if track == OWN else ""


def _record(cls: type, row: sqlite3.Row, legacy: str) -> Any:
    computed = {"owner": owner_of(row, legacy), "adjudicated": row["track"] == ADJUDICATED}
    return cls(
        **{
            f.name: computed[f.name] if f.name in computed else row[_COLUMN.get(f.name, f.name)]
            for f in dataclasses.fields(cls)
        }
    )


def label_of(row: sqlite3.Row, legacy: str) -> Label:
    """The :class:`Label` a current event row stands for."""
    return _record(Label, row, legacy)


def event_of(row: sqlite3.Row, legacy: str) -> LabelEvent:
    """The :class:`LabelEvent` of a row."""
    return _record(LabelEvent, row, legacy)


def state_key(row: sqlite3.Row, legacy: str) -> tuple[str, str]:
    """``(track, owner)``: the state a row's event counts in (undo events: their target's)."""
    return (row["track"] or OWN, owner_of(row, legacy))


__all__ = [
    "ADJUDICATED",
    "Migration",
    "NewEvent",
    "OWN",
    "SCHEMA_VERSION",
    "create",
    "event_of",
    "insert",
    "label_of",
    "legacy_owner",
    "migrations",
    "owner_of",
    "state_key",
    "step_1_to_2",
]
