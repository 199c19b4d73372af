"""Label files: the JSON Lines a store exports and imports, validated line by line.

One label per line, fields :data:`JSONL_FIELDS` (what :meth:`LabelStore.export_jsonl
<rag_core.gold.store.LabelStore.export_jsonl>` writes); :func:`parse_labels_jsonl` checks
every line before anything is written, with the guard's JSON depth and integer caps.

A line belongs to its ``annotator``'s own labels, or — with ``"state": "adjudicated"`` (written
only on such lines) — to the adjudicated gold, ``annotator`` then naming who adjudicated: an
import keeps both.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ..formats.guard import AT, at, json_line, line
from ..types import Document
from ..wording import declare, refused, unworded
from .labels import Label, check_grade, check_name, check_span, check_text, label_id_for, utc_now

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
#: Every field a line may have: :data:`JSONL_FIELDS`, then ``state`` (adjudicated lines only).
KNOWN_FIELDS: tuple[str, ...] = (*JSONL_FIELDS, "state")
#: ``state`` values of a line → the store's track (``rag_core.gold.schema``).
LINE_STATES: dict[str, str] = {"annotator": "own", "adjudicated": "adjudicated"}
_REQUIRED = ("question_set", "question_id", "doc_id", "start", "end", "text", "grade")

#: Why a label file was refused (``label.*``).
CREATED_AT_NOT_STRING = declare("label.created_at.not_string", "value")
CREATED_AT_INVALID = declare("label.created_at.invalid", "value")
IMPORT_NOT_TEXT = declare("label.import.not_text", "type")
IMPORT_NOT_OBJECT = declare("label.import.not_object", "type")
IMPORT_UNKNOWN_FIELDS = declare("label.import.unknown_fields", "unknown", "known")
IMPORT_MISSING_FIELDS = declare("label.import.missing_fields", "missing")
IMPORT_UNKNOWN_DOCUMENT = declare("label.import.unknown_document", "doc")
IMPORT_WRONG_ID = declare("label.import.wrong_id", "label", "expected")
IMPORT_SAME_SPAN = declare("label.import.same_span", "first")
IMPORT_BAD_STATE = declare("label.import.bad_state", "value", "choices")


def parse_labels_jsonl(
    text: str,
    *,
    docs: Mapping[str, Document | str] | None = None,
    source: str = "<labels.jsonl>",
) -> list[dict[str, Any]]:
    """Validate every line of a labels JSONL file; return the records.

    Raises ``ValueError("<source> line N: reason")`` at the first bad line.
    Blank lines are skipped. Missing ``note``/``annotator`` default to
    ``""``, a missing ``created_at`` to now, a missing ``state`` to ``annotator``. Each record
    carries the store's ``track`` for its state.
    """
    if not isinstance(text, str):
        raise at(source, IMPORT_NOT_TEXT, type=type(text).__name__)
    records: list[dict[str, Any]] = []
    first_line: dict[tuple[str, str, str], int] = {}
    now = utc_now()
    for no, text_line in enumerate(text.splitlines(), 1):
        if not text_line.strip():
            continue
        where = line(source, no)
        row = json_line(text_line, where)  # depth and integer caps before parsing
        if not isinstance(row, dict):
            raise at(where, IMPORT_NOT_OBJECT, type=type(row).__name__)
        unknown = sorted(set(row) - set(KNOWN_FIELDS))
        if unknown:
            raise at(
                where,
                IMPORT_UNKNOWN_FIELDS,
                unknown=", ".join(unknown),
                known=", ".join(KNOWN_FIELDS),
            )
        missing = [f for f in _REQUIRED if f not in row]
        if missing:
            raise at(where, IMPORT_MISSING_FIELDS, missing=", ".join(missing))
        try:
            for f in ("question_set", "question_id"):
                check_name(row[f], f)
            check_span(row["doc_id"], row["start"], row["end"], row["text"])
            if docs is not None:
                doc = docs.get(row["doc_id"])
                if doc is None:
                    raise refused(IMPORT_UNKNOWN_DOCUMENT, doc=repr(row["doc_id"]))
                check_span(row["doc_id"], row["start"], row["end"], row["text"], doc)
            check_grade(row["grade"])
            note = check_text(row.get("note", ""), "note")
            annotator = check_text(row.get("annotator", ""), "annotator")
            created_at = row.get("created_at", now)
            _check_timestamp(created_at)
            state = _line_state(row.get("state", "annotator"))
            expected = label_id_for(
                row["question_set"], row["question_id"], row["doc_id"], row["start"], row["end"]
            )
            if "label_id" in row and row["label_id"] != expected:
                raise refused(IMPORT_WRONG_ID, label=repr(row["label_id"]), expected=repr(expected))
        except ValueError as exc:  # the line's problem, placed at the line
            raise refused(AT, where=where, problem=unworded(exc)) from None
        track = LINE_STATES[state]
        once = (track, annotator if track == "own" else "", expected)
        if once in first_line:
            raise at(where, IMPORT_SAME_SPAN, first=first_line[once])
        first_line[once] = no
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
                "track": track,
            }
        )
    return records


def _line_state(state: Any) -> str:
    """A line's ``state``: one of :data:`LINE_STATES`, else refused."""
    if not isinstance(state, str) or state not in LINE_STATES:
        raise refused(IMPORT_BAD_STATE, value=repr(state), choices=", ".join(LINE_STATES))
    return state


def _check_timestamp(value: Any) -> None:
    if not isinstance(value, str):
        raise refused(CREATED_AT_NOT_STRING, value=repr(value))
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise refused(CREATED_AT_INVALID, value=repr(value)) from None


def label_lines(labels: Sequence[Label]) -> str:
    """``labels`` as JSON Lines (fields :data:`JSONL_FIELDS`, in that order, and ``state`` on
    adjudicated labels): a label file. ``annotator`` is whose state an annotator's label is part
    of (its owner), for an adjudicated one who adjudicated."""
    lines = []
    for lab in labels:
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
            "annotator": lab.annotator if lab.adjudicated else (lab.owner or lab.annotator),
            "created_at": lab.created_at,
        }
        if lab.adjudicated:
            record["state"] = "adjudicated"
        lines.append(json.dumps(record, ensure_ascii=False) + "\n")
    return "".join(lines)


__all__ = [
    "JSONL_FIELDS",
    "KNOWN_FIELDS",
    "LINE_STATES",
    "label_lines",
    "parse_labels_jsonl",
]
