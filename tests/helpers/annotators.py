"""Two simulated annotators of a question set (issue 41's fixture).

Annotator A copies the shipped needles' spans; their grades are drawn from 1–3 (the shipped
needles are all grade 1, and one grade for everything leaves κ nothing to measure). Annotator B
copies A, then — with a fixed seed — shifts a third of the spans by a quarter of their length
(they still overlap A's, so each needle stays one unit) and changes a fifth of the grades to
another one of 0–3. Both are written to a store through a JSONL import that keeps the annotator.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rag_core.gold.labels import GRADES
from rag_core.gold.relevance import locate
from rag_core.gold.store import LabelStore
from rag_core.types import Document, Question

A, B = "ann-a", "ann-b"


@dataclass(frozen=True)
class Judged:
    """One needle as the two annotators labeled it."""

    question_id: str
    doc_id: str
    a_span: tuple[int, int]
    a_grade: int
    b_span: tuple[int, int]
    b_grade: int

    @property
    def disagree(self) -> bool:
        return self.a_span != self.b_span or self.a_grade != self.b_grade


def simulate(
    questions: Sequence[Question], docs: Mapping[str, Document], seed: int = 0
) -> list[Judged]:
    """The two annotators' labels of every needle found in ``docs`` (question order)."""
    rng = random.Random(seed)
    found = []
    for q in questions:
        for n in q.needles:
            doc = docs.get(n.doc_id)
            span = locate(doc.text, n) if doc is not None else None
            if span is not None and (q.id, n.doc_id, span) not in {f[:3] for f in found}:
                found.append((q.id, n.doc_id, span, rng.choice((1, 2, 3))))
    shifted = set(rng.sample(range(len(found)), len(found) // 3))
    changed = set(rng.sample(range(len(found)), len(found) // 5))
    out = []
    for i, (qid, doc_id, (s, e), grade) in enumerate(found):
        b_span, b_grade = (s, e), grade
        if i in shifted:
            step = max(1, (e - s) // 4)
            n_chars = len(docs[doc_id].text)
            b_span = (s + step, e + step) if e + step <= n_chars else (s - step, e - step)
        if i in changed:
            b_grade = rng.choice([g for g in GRADES if g != grade])
        out.append(Judged(qid, doc_id, (s, e), grade, b_span, b_grade))
    return out


def lines(judged: Sequence[Judged], docs: Mapping[str, Document], question_set: str) -> str:
    """Both annotators' labels as one label file (each line names its annotator)."""
    rows = []
    for j in judged:
        text = docs[j.doc_id].text
        for who, (s, e), grade in ((A, j.a_span, j.a_grade), (B, j.b_span, j.b_grade)):
            rows.append(
                {
                    "question_set": question_set,
                    "question_id": j.question_id,
                    "doc_id": j.doc_id,
                    "start": s,
                    "end": e,
                    "text": text[s:e],
                    "grade": grade,
                    "annotator": who,
                }
            )
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def labeled_store(
    store: LabelStore,
    questions: Sequence[Question],
    docs: Mapping[str, Document],
    question_set: str,
    seed: int = 0,
) -> list[Judged]:
    """``store`` with both annotators' labels of ``questions``; returns what they labeled."""
    judged = simulate(questions, docs, seed)
    store.import_jsonl(lines(judged, docs, question_set), docs=docs)
    return judged
