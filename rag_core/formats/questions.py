"""Question sets: JSON Lines with id, lang, question, phrasings, needles, answerable, tags."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..types import Needle, Notice, Question
from ..wording import NoticeError, declare, notice, refused
from .guard import at, json_line, line, nfc

REQUIRED = ("id", "question")
KNOWN = ("id", "lang", "question", "phrasings", "needles", "answerable", "tags")
#: A needle's fields; ``key`` (optional: a string or a list of them) is the part(s) of ``text``
#: a correct answer must state.
NEEDLE_KEYS = {"doc_id", "text", "key"}

NOT_OBJECT = declare("qset.not_object", "kind")
FIELD_MISSING = declare("qset.field_missing", "key")
UNKNOWN_FIELDS = declare("qset.unknown_fields", "unknown", "known")
BAD_PHRASINGS = declare("qset.bad_phrasings")
BAD_NEEDLE = declare("qset.bad_needle", "index")
BAD_NEEDLE_KEY = declare("qset.bad_needle_key", "index")
BAD_ANSWERABLE = declare("qset.bad_answerable")
NO_NEEDLE = declare("qset.no_needle")
BAD_TAGS = declare("qset.bad_tags")
DUPLICATE_ID = declare("qset.duplicate_id", "qid")
NO_FILE = declare("qset.no_file", "path")
NOT_UTF8 = declare("qset.not_utf8", "path")
BAD_PHRASING_CHOICE = declare("qset.bad_phrasing_choice", "value", "n")


def _refused(where: str | Notice, code: str, **params: object) -> NoticeError:
    """The refusal of one row: ``<where>: <problem>``, or the problem alone without ``where``."""
    return at(where, code, **params) if where else refused(code, **params)


def question_from_dict(row: Any, where: str | Notice = "") -> Question:
    """Validate one row; raise a ``ValueError`` (:class:`~rag_core.wording.NoticeError`) naming
    ``where`` (a name, or :func:`~rag_core.formats.guard.line`) and the problem."""
    if not isinstance(row, dict):
        raise _refused(where, NOT_OBJECT, kind=type(row).__name__)
    for key in REQUIRED:
        if not isinstance(row.get(key), str) or not row[key].strip():
            raise _refused(where, FIELD_MISSING, key=key)
    unknown = sorted(set(row) - set(KNOWN))
    if unknown:
        raise _refused(where, UNKNOWN_FIELDS, unknown=", ".join(unknown), known=", ".join(KNOWN))
    phrasings = row.get("phrasings", [])
    if not isinstance(phrasings, list) or not all(
        isinstance(p, str) and p.strip() for p in phrasings
    ):
        raise _refused(where, BAD_PHRASINGS)
    needles = []
    for i, n in enumerate(row.get("needles", [])):
        if (
            not isinstance(n, dict)
            or not isinstance(n.get("doc_id"), str)
            or not isinstance(n.get("text"), str)
            or not n["text"].strip()
        ):
            raise _refused(where, BAD_NEEDLE, index=i)
        text, key = nfc(n["text"]), n.get("key", [])  # as the corpus text
        parts = [key] if isinstance(key, str) else key
        if (
            not isinstance(parts, list)
            or not all(isinstance(k, str) and k.strip() and nfc(k) in text for k in parts)
            or set(n) - NEEDLE_KEYS
        ):
            raise _refused(where, BAD_NEEDLE_KEY, index=i)
        needles.append(Needle(n["doc_id"], text, key=tuple(nfc(k) for k in parts)))
    answerable = row.get("answerable", True)
    if not isinstance(answerable, bool):
        raise _refused(where, BAD_ANSWERABLE)
    if answerable and not needles:
        raise _refused(where, NO_NEEDLE)
    tags = row.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise _refused(where, BAD_TAGS)
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
    for no, text in enumerate(lines, 1):
        if not text.strip():
            continue
        yield no, json_line(text, line(source, no))  # depth and integer caps first


def parse_questions(lines: Iterable[str], source: str = "<questions>") -> tuple[Question, ...]:
    """Parse JSON Lines; the first bad line raises ``ValueError`` with its number."""
    out: list[Question] = []
    seen: set[str] = set()
    for no, row in json_rows(lines, source):
        q = question_from_dict(row, line(source, no))
        if q.id in seen:
            raise at(line(source, no), DUPLICATE_ID, qid=q.id)
        seen.add(q.id)
        out.append(q)
    return tuple(out)


def load_questions(path: str | Path) -> tuple[Question, ...]:
    """Load one ``.jsonl`` question set."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise refused(NO_FILE, path=str(p)) from None
    except UnicodeDecodeError:
        raise refused(NOT_UTF8, path=str(p)) from None
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
        raise NoticeError(
            notice(BAD_PHRASING_CHOICE, value=phrasings, n=len(question.phrasings))
        ) from None
