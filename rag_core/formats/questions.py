"""Question sets: JSON Lines with id, lang, question, phrasings, needles, answerable, tags."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..types import Needle, Question
from .guard import json_line, nfc

REQUIRED = ("id", "question")
KNOWN = ("id", "lang", "question", "phrasings", "needles", "answerable", "tags")


def question_from_dict(row: Any, where: str = "") -> Question:
    """Validate one row; raise ``ValueError`` naming ``where`` and the problem."""
    at = f"{where}: " if where else ""
    if not isinstance(row, dict):
        raise ValueError(f"{at}a question must be a JSON object, not {type(row).__name__}")
    for key in REQUIRED:
        if not isinstance(row.get(key), str) or not row[key].strip():
            raise ValueError(f"{at}field {key!r} is missing or empty")
    unknown = sorted(set(row) - set(KNOWN))
    if unknown:
        raise ValueError(f"{at}unknown field(s) {', '.join(unknown)}; known: {', '.join(KNOWN)}")
    phrasings = row.get("phrasings", [])
    if not isinstance(phrasings, list) or not all(
        isinstance(p, str) and p.strip() for p in phrasings
    ):
        raise ValueError(f"{at}'phrasings' must be a list of non-empty strings")
    needles = []
    for i, n in enumerate(row.get("needles", [])):
        if (
            not isinstance(n, dict)
            or not isinstance(n.get("doc_id"), str)
            or not isinstance(n.get("text"), str)
            or not n["text"].strip()
        ):
            raise ValueError(f"{at}needle {i} must be an object with non-empty 'doc_id' and 'text'")
        needles.append(Needle(doc_id=n["doc_id"], text=nfc(n["text"])))  # as the corpus text
    answerable = row.get("answerable", True)
    if not isinstance(answerable, bool):
        raise ValueError(f"{at}'answerable' must be true or false")
    if answerable and not needles:
        raise ValueError(f"{at}an answerable question needs at least one needle")
    tags = row.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise ValueError(f"{at}'tags' must be a list of strings")
    return Question(
        id=row["id"],
        lang=str(row.get("lang", "")),
        question=nfc(row["question"].strip()),
        phrasings=tuple(nfc(p.strip()) for p in phrasings),
        needles=tuple(needles),
        answerable=answerable,
        tags=tuple(tags),
    )


def json_rows(lines: Iterable[str], source: str) -> Iterator[tuple[int, Any]]:
    """``(line number, parsed value)`` of each non-blank JSON Lines line, 1-based, lazily.

    Raises:
        ValueError: a line is not valid JSON (``source line N: ...``).
    """
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        yield no, json_line(line, f"{source} line {no}")  # depth and integer caps first


def parse_questions(lines: Iterable[str], source: str = "<questions>") -> tuple[Question, ...]:
    """Parse JSON Lines; the first bad line raises ``ValueError`` with its number."""
    out: list[Question] = []
    seen: set[str] = set()
    for no, row in json_rows(lines, source):
        q = question_from_dict(row, f"{source} line {no}")
        if q.id in seen:
            raise ValueError(f"{source} line {no}: duplicate question id {q.id!r}")
        seen.add(q.id)
        out.append(q)
    return tuple(out)


def load_questions(path: str | Path) -> tuple[Question, ...]:
    """Load one ``.jsonl`` question set."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ValueError(f"question set {p} does not exist") from None
    except UnicodeDecodeError:
        raise ValueError(f"question set {p} is not UTF-8 text") from None
    return parse_questions(text.splitlines(), source=p.name)


def queries_of(question: Question, phrasings: str = "all") -> tuple[tuple[str, str], ...]:
    """``(query_id, text)`` pairs: the question and/or its phrasings.

    ``phrasings``: ``"question"`` (the question only), ``"all"`` (each
    phrasing, or the question when it has none), or an index ``"0"``, ``"1"``.
    """
    if phrasings == "question" or not question.phrasings:
        return ((question.id, question.question),)
    if phrasings == "all":
        return tuple((f"{question.id}#{i}", p) for i, p in enumerate(question.phrasings))
    try:
        i = int(phrasings)
        return ((f"{question.id}#{i}", question.phrasings[i]),)
    except (ValueError, IndexError):
        raise ValueError(
            f"phrasings = {phrasings!r} is not valid; valid choices: question, all, "
            f"or an index below {len(question.phrasings)}"
        ) from None
