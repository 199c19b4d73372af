"""Gold from labels: a question's shipped needles merged with its labels, qrels per chunking.

:func:`gold_for` is the one rule (a label on a needle's span overrides its grade, grade 0
removes it, other labels add spans); :func:`qrels_for` turns it into TREC qrels of one
chunking, and :func:`stale_labels` finds labels whose document changed since.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..formats.questions import queries_of
from ..types import Chunk, Document, Needle, Question
from .labels import Label
from .relevance import grades_for, locate


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
                    key=needle.key,  # the same words: a label of the needle's own span
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
    "gold_for",
    "qrels_for",
    "stale_labels",
]
