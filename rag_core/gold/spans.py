"""Choosing a document span to label: exact occurrences, sentences, labels inside a span.

Labels are document spans ``[start, end)`` of a document's canonical text
(see :mod:`rag_core.gold.labels`). An annotator picks one as a chunk (its
``start``/``end``), a sentence (:func:`rag_core.text.sentence_spans`, the splitter the
context stage uses) or an exact character range — typed, or found by
pasting the evidence text (:func:`occurrences`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..formats.guard import nfc
from ..text import sentence_spans

if TYPE_CHECKING:
    from .labels import Label

#: At most this many occurrences are listed (a common word is not a span).
MAX_OCCURRENCES = 50


def occurrences(
    text: str, fragment: str, limit: int = MAX_OCCURRENCES
) -> tuple[tuple[int, int], ...]:
    """``(start, end)`` of every occurrence of ``fragment`` in ``text`` (overlapping ones too).

    At most ``limit`` are returned, in document order. An empty fragment
    has no occurrence.
    """
    if not isinstance(fragment, str) or not isinstance(text, str):
        raise ValueError("text and fragment must be strings")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit must be a positive integer; got {limit!r}")
    fragment = nfc(fragment)  # the document text is NFC: an NFD fragment finds its twin
    if not fragment:
        return ()
    out: list[tuple[int, int]] = []
    at = text.find(fragment)
    while at != -1 and len(out) < limit:
        out.append((at, at + len(fragment)))
        at = text.find(fragment, at + 1)
    return tuple(out)


def sentence_containing(text: str, offset: int) -> int | None:
    """Index (into :func:`~rag_core.text.sentence_spans`) of the sentence holding ``offset``,
    else the next one.

    None when no sentence starts at or after ``offset`` and none holds it.
    """
    spans = sentence_spans(text)
    for i, (s, e) in enumerate(spans):
        if s <= offset < e or s >= offset:
            return i
    return None


def labels_within(labels: Sequence[Label], doc_id: str, start: int, end: int) -> tuple[Label, ...]:
    """The labels of ``doc_id`` whose span lies entirely inside ``[start, end)``.

    These are the labels that make a chunk with that span relevant (a chunk
    is relevant when its content contains a labeled span; grade 0 marks it
    judged not relevant).
    """
    return tuple(
        lab for lab in labels if lab.doc_id == doc_id and start <= lab.start and lab.end <= end
    )


def label_on(labels: Sequence[Label], doc_id: str, start: int, end: int) -> Label | None:
    """The label on exactly this span, or None (the span is not judged)."""
    for lab in labels:
        if lab.doc_id == doc_id and lab.start == start and lab.end == end:
            return lab
    return None


__all__ = [
    "MAX_OCCURRENCES",
    "label_on",
    "labels_within",
    "occurrences",
    "sentence_containing",
]
