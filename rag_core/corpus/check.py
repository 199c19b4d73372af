"""Validate the bundled corpus and its question sets (``python -m rag_core corpus check``).

The sample corpus is source code of this project; this is its type checker.
It proves the counts the corpus promises, that ids are unique, that every
needle occurs exactly once in the whole corpus (in its own document) and never
in a heading line, that phrasings are non-empty and that every document loads
with a title, a source and a version.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..formats.questions import load_questions
from ..types import Document, Question
from . import SAMPLE_CORPUS
from .loaders import load_corpus

#: What the corpus promises (issue: sample_corpus).
REQUIREMENTS = {
    "documents": 15,
    "characters": 150_000,
    "ko_documents": 5,
    "en_answerable_two_phrasings": 40,
    "ko_answerable_two_phrasings": 20,
    "multi_needle": 5,
    "unanswerable": 30,
    "unanswerable_near_topic": 20,
    "unanswerable_unrelated": 10,
}


@dataclass(frozen=True)
class CorpusReport:
    ok: bool
    counts: dict[str, int]
    problems: tuple[str, ...]
    failed_documents: tuple[str, ...] = ()
    needles_checked: int = 0
    extra: dict[str, object] = field(default_factory=dict)

    def summary(self) -> str:
        lines = [f"corpus check: {'OK' if self.ok else 'FAILED'}"]
        lines += [f"  {k}: {v}" for k, v in self.counts.items()]
        lines.append(f"  needles checked: {self.needles_checked}")
        lines += [f"  problem: {p}" for p in self.problems]
        return "\n".join(lines)


def heading_lines(text: str) -> list[tuple[int, int]]:
    """Spans of lines starting with ``#`` (Markdown headings)."""
    spans, pos = [], 0
    for line in text.split("\n"):
        if line.lstrip().startswith("#"):
            spans.append((pos, pos + len(line)))
        pos += len(line) + 1
    return spans


def check_questions(
    docs: dict[str, Document], questions: list[Question]
) -> tuple[list[str], dict[str, int], int]:
    """Needle and question-set checks; returns problems, counts, needles checked."""
    problems: list[str] = []
    ids = Counter(q.id for q in questions)
    problems += [f"question id {i!r} is used {n} times" for i, n in ids.items() if n > 1]
    checked = 0
    for q in questions:
        if not q.question.strip():
            problems.append(f"{q.id}: empty question")
        if any(not p.strip() for p in q.phrasings):
            problems.append(f"{q.id}: empty phrasing")
        if q.answerable and len(q.phrasings) < 2:
            problems.append(
                f"{q.id}: answerable question with {len(q.phrasings)} phrasing(s), need 2"
            )
        if not q.answerable and q.needles:
            problems.append(f"{q.id}: unanswerable question with needles")
        for n in q.needles:
            checked += 1
            doc = docs.get(n.doc_id)
            if doc is None:
                problems.append(f"{q.id}: needle names unknown document {n.doc_id!r}")
                continue
            own = doc.text.count(n.text)
            if own != 1:
                problems.append(
                    f"{q.id}: needle {n.text!r} occurs {own} times in {n.doc_id} (need 1)"
                )
            elsewhere = [
                d.doc_id for d in docs.values() if d.doc_id != n.doc_id and n.text in d.text
            ]
            if elsewhere:
                problems.append(f"{q.id}: needle {n.text!r} also occurs in {', '.join(elsewhere)}")
            at = doc.text.find(n.text)
            if at >= 0 and any(
                s <= at < e or s < at + len(n.text) <= e for s, e in heading_lines(doc.text)
            ):
                problems.append(f"{q.id}: needle {n.text!r} is in a heading line")
    two = [q for q in questions if q.answerable and len(q.phrasings) >= 2]
    unans = [q for q in questions if not q.answerable]
    counts = {
        "questions": len(questions),
        "en_answerable_two_phrasings": sum(q.lang == "en" for q in two),
        "ko_answerable_two_phrasings": sum(q.lang == "ko" for q in two),
        "multi_needle": sum(len(q.needles) >= 2 for q in questions),
        "unanswerable": len(unans),
        "unanswerable_near_topic": sum("near-topic" in q.tags for q in unans),
        "unanswerable_unrelated": sum("unrelated" in q.tags for q in unans),
        "unanswerable_languages": len({q.lang for q in unans}),
        "literal_match": sum("literal-match" in q.tags for q in questions),
    }
    return problems, counts, checked


def check_corpus(root: Path | None = None) -> CorpusReport:
    """Run every check on ``root`` (default: the bundled ``sample_corpus``)."""
    root = root or SAMPLE_CORPUS
    problems: list[str] = []
    report = load_corpus(root)
    failed = tuple(f"{f.path}: {f.reason}" for f in report.failed)
    problems += [f"document failed to load: {f}" for f in failed]
    docs = {d.doc_id: d for d in report.documents}
    for d in report.documents:
        for attr in ("title", "source", "version"):
            if not getattr(d, attr).strip():
                problems.append(f"document {d.doc_id} has no {attr}")
    questions: list[Question] = []
    qdir = root / "questions"
    for f in sorted(qdir.glob("*.jsonl")) if qdir.is_dir() else []:
        try:
            questions.extend(load_questions(f))
        except ValueError as exc:
            problems.append(str(exc))
    qproblems, counts, checked = check_questions(docs, questions)
    problems += qproblems
    counts = {
        "documents": report.n_documents,
        "characters": report.n_chars,
        "ko_documents": sum(d.metadata.get("lang") == "ko" for d in report.documents),
        "en_documents": sum(d.metadata.get("lang") == "en" for d in report.documents),
        **counts,
    }
    for key, need in REQUIREMENTS.items():
        if counts.get(key, 0) < need:
            problems.append(f"{key} = {counts.get(key, 0)}, need at least {need}")
    if counts["unanswerable_languages"] < 2:
        problems.append("unanswerable questions must come in both languages")
    if counts["literal_match"] < 1:
        problems.append("no literal-match question (an exact corpus phrase without an answer)")
    return CorpusReport(
        ok=not problems,
        counts=counts,
        problems=tuple(problems),
        failed_documents=failed,
        needles_checked=checked,
    )
