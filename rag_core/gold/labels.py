"""Gold labels as document spans: the label, its id and the checks every writer applies.

A label says: for question ``question_id`` of set ``question_set``, the
characters ``[start, end)`` of document ``doc_id``'s canonical text are
evidence of grade 0–3 (0 = judged not relevant). Because a label is a span
of the document, not a chunk, it survives any re-chunking: a chunk is
relevant when its content contains the span (see :mod:`rag_core.gold.relevance`).
A (question, span) without a label is *not judged* — a state of its own,
never a zero. The label keeps the span's ``text`` as it was when labeled, so
a document that changed since is detectable
(:func:`rag_core.gold.merge.stale_labels`).

This module is the label itself: its records (:class:`Label`, :class:`LabelEvent`), its id
(:func:`label_id_for`) and the checks every writer applies (:func:`check_span`,
:func:`check_grade`). The store is :mod:`rag_core.gold.store`, label files
:mod:`rag_core.gold.label_files`, and the merge with shipped needles
:mod:`rag_core.gold.merge`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..formats.guard import offset
from ..types import Document
from ..wording import declare, refused

GRADES: tuple[int, ...] = (0, 1, 2, 3)

#: Why a label or a span was refused (``label.*``; English in ``rag_core.wording``, the
#: pages' wording in ``ui/text.py``).
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


@dataclass(frozen=True)
class Label:
    """The current state of one labeled span (its latest event not undone).

    ``created_at`` and ``annotator`` belong to that latest event; ``kind``
    says which kind of event it was (add, change or import). ``owner`` is whose state the
    label is part of (an annotator's; ``""`` for the adjudicated state, whose labels have
    ``adjudicated`` set and the adjudicator as ``annotator``).
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
    owner: str = ""
    adjudicated: bool = False


@dataclass(frozen=True)
class LabelEvent:
    """One row of the append-only history.

    ``grade`` is ``None`` for an undo; ``target`` is the event an undo
    reverts; ``undone_by`` the undo event that reverted this one (if any).
    ``created_at`` is when the label was made (for imports: as the file
    says), ``recorded_at`` when this store wrote the event. ``owner`` and ``adjudicated``
    say which state it counts in (as for :class:`Label`).
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
    owner: str = ""
    adjudicated: bool = False


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


def utc_now() -> str:
    """Now in UTC, ISO 8601 with milliseconds (when an event was made or recorded)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def check_name(value: Any, what: str) -> str:
    """``value`` when it is a non-blank string (a set, question or document id), else refused."""
    if not isinstance(value, str) or not value.strip():
        raise refused(NOT_A_NAME, what=what, value=repr(value))
    return value


def check_text(value: Any, what: str) -> str:
    """``value`` when it is a string (a note, an annotator), else refused."""
    if not isinstance(value, str):
        raise refused(NOT_A_STRING, what=what, value=repr(value))
    return value


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
    check_name(doc_id, "doc_id")
    start = offset(start, "start")
    end = offset(end, "end")
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


__all__ = [
    "GRADES",
    "Label",
    "LabelEvent",
    "check_grade",
    "check_name",
    "check_span",
    "check_text",
    "label_id_for",
    "question_set_name",
    "utc_now",
]
