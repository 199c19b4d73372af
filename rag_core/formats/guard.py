"""The guards every reader of a user's file applies before it trusts a field.

One place for the limits that keep a hostile or broken file from crashing or
stalling a reader: JSON nesting and integer length checked *before* the parser
sees them (Python's ``json`` recurses once per level and raises
``RecursionError`` past about 1,000; ``int()`` of a 400-digit literal works, but
``2 ** grade`` or ``float(score)`` of it then hangs or overflows), relevance
grades as small ASCII-digit integers (``int()`` also reads ``1_0`` as 10 and
Arabic-Indic digits), scores as finite floats, offsets within SQLite's integer
range, and NFC normalisation of ids and text. Each refusal is a ``ValueError``
whose message is one line naming the place (``file line N``) and the rule; the readers'
refusals are :class:`~rag_core.wording.NoticeError` s whose notice is :data:`AT` (the place
and the rule as codes, worded in Korean or English by the pages).

Readers that use it: question sets and BEIR ``queries.jsonl``
(:func:`rag_core.formats.questions.json_rows`), TREC and BEIR qrels
(:mod:`rag_core.formats.trec`, the BEIR folder loader), JSONL runs
(:mod:`rag_core.retrieval.runs`), label files (:mod:`rag_core.gold.label_files`); the
document loaders (:mod:`rag_core.corpus.loaders`) share its limits and its integer check.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from typing import Any

from ..types import Notice
from ..wording import NoticeError, declare, notice, refused

#: JSON nesting deeper than this is refused before parsing (a row needs 2 or 3 levels).
MAX_JSON_DEPTH = 64
#: A JSON integer with more digits than this is refused (Python refuses over 4,300).
MAX_INT_DIGITS = 1000
#: The largest relevance grade read from qrels (``2 ** grade`` is the exp gain:
#: 2 ** 100 is still an exact float; real collections grade 0–4).
MAX_GRADE = 100
#: Character offsets (label ``start``/``end``) must fit SQLite's 64-bit integers.
MAX_OFFSET = 2**63 - 1
#: The longest run of non-space characters a morphological analyzer is handed whole; a longer
#: run (a spaceless line: no Korean word is this long) is hard-cut into pieces of this length,
#: as the chunkers hard-cut a line without a boundary.
MAX_RUN = 256
_LONG_RUN = re.compile(rf"(?<!\S)\S{{{MAX_RUN + 1},}}")  # from a run start: linear

#: ``<where>: <problem>`` and ``<file> line N``: how a refusal names its place.
AT = declare("load.at", "where", "problem")
LINE = declare("load.line", "name", "line")
JSON_TOO_DEEP = declare("load.json.too_deep", "depth")
JSON_LONG_NUMBER = declare("load.json.long_number", "digits", "cap")
JSON_INVALID_COLUMN = declare("file.json.invalid_column", "error", "column")
#: What a number is (``what`` of :func:`grade` and :func:`finite_float`).
WHAT = {name: declare(f"file.what.{name}") for name in ("grade", "score")}
GRADE_NOT_INTEGER = declare("file.grade.not_integer", "what", "value")
GRADE_TOO_MANY_DIGITS = declare("file.grade.too_many_digits", "what", "digits", "limit")
GRADE_NOT_ASCII = declare("file.grade.not_ascii", "what", "value")
GRADE_OUT_OF_RANGE = declare("file.grade.out_of_range", "what", "value", "limit")
GRADE_OUT_OF_RANGE_DIGITS = declare("file.grade.out_of_range_digits", "what", "digits", "limit")
NUMBER_NOT_A_NUMBER = declare("file.number.not_a_number", "what", "value")
NUMBER_TOO_LARGE = declare("file.number.too_large", "what")
NUMBER_NOT_FINITE = declare("file.number.not_finite", "what", "value")
#: Why a character offset (a label's ``start``/``end``) was refused (:func:`offset`).
OFFSET_NOT_INTEGER = declare("file.offset.not_integer", "what", "value")
OFFSET_NEGATIVE = declare("file.offset.negative", "what", "value")
OFFSET_OUT_OF_RANGE = declare("file.offset.out_of_range", "what", "size")
OFFSET_DIGITS = declare("file.offset.digits", "digits")


def at(where: str | Notice, code: str, **params: Any) -> NoticeError:
    """The refusal ``<where>: <problem>`` (to ``raise``): ``problem`` is the declared ``code``
    with ``params``; ``where`` a file name or :func:`line`."""
    return refused(AT, where=where, problem=notice(code, **params))


def line(name: str, number: int) -> Notice:
    """``<file> line N``: where a refusal is."""
    return notice(LINE, name=name, line=number)


def _what(what: str) -> Notice | str:
    """``grade``/``score`` as a code (another name is a field name, shown as written)."""
    return notice(WHAT[what]) if what in WHAT else what


_GRADE = re.compile(r"-?[0-9]+", re.ASCII)
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


class NumberTooLong(Exception):
    """Raised by :func:`capped_int`: a JSON integer of ``digits`` digits, over the cap."""

    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def capped_int(literal: str) -> int:
    """``json`` ``parse_int`` hook: refuse more than :data:`MAX_INT_DIGITS` digits before
    ``int()`` runs."""
    digits = len(literal) - literal.startswith("-")
    if digits > MAX_INT_DIGITS:
        raise NumberTooLong(digits)
    return int(literal)


def json_depth(text: str) -> int:
    """The deepest bracket nesting of ``text`` outside strings, in one linear pass; a text
    with at most :data:`MAX_JSON_DEPTH` brackets is not scanned (their count, an upper
    bound, is returned)."""
    brackets = text.count("[") + text.count("{")
    if brackets <= MAX_JSON_DEPTH:
        return brackets
    depth = deepest = 0
    for m in _JSON_TOKEN.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def json_line(line: str, where: str | Notice) -> Any:
    """Parse one JSON value (a JSON Lines line) with the depth and integer caps.

    Raises:
        ValueError: ``where: …`` — nested deeper than :data:`MAX_JSON_DEPTH`, an
            integer over :data:`MAX_INT_DIGITS` digits, or not valid JSON.
    """
    if json_depth(line) > MAX_JSON_DEPTH:
        raise at(where, JSON_TOO_DEEP, depth=MAX_JSON_DEPTH)
    try:
        return json.loads(line, parse_int=capped_int)
    except NumberTooLong as exc:
        raise at(where, JSON_LONG_NUMBER, digits=exc.digits, cap=MAX_INT_DIGITS) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise at(where, JSON_TOO_DEEP, depth=MAX_JSON_DEPTH) from None
    except json.JSONDecodeError as exc:
        raise at(where, JSON_INVALID_COLUMN, error=exc.msg, column=exc.colno) from None


def grade(raw: Any, where: str | Notice, what: str = "grade") -> int:
    """A relevance grade: an integer written in ASCII digits (an optional ``-``: trec_eval
    reads a negative grade as judged not relevant), at most :data:`MAX_GRADE` in size.

    ``1_0``, ``+1``, ``1.0``, Arabic-Indic or full-width digits and a 400-digit
    number are refused; a JSON integer (not a bool) is checked the same way.
    """
    said = _what(what)
    if isinstance(raw, bool):
        raise at(where, GRADE_NOT_INTEGER, what=said, value=repr(raw))
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, str) and _GRADE.fullmatch(raw.strip()):
        text = raw.strip()
        digits = len(text) - text.startswith("-")
        if digits > 6:  # refused before int(): a 400-digit grade is never converted
            raise at(where, GRADE_TOO_MANY_DIGITS, what=said, digits=digits, limit=MAX_GRADE)
        value = int(text)
    else:
        raise at(where, GRADE_NOT_ASCII, what=said, value=_shown(raw))
    if abs(value) > 10**6:
        digits = len(str(abs(value)))
        raise at(where, GRADE_OUT_OF_RANGE_DIGITS, what=said, digits=digits, limit=MAX_GRADE)
    if abs(value) > MAX_GRADE:
        raise at(where, GRADE_OUT_OF_RANGE, what=said, value=value, limit=MAX_GRADE)
    return value


def finite_float(raw: Any, where: str | Notice, what: str = "score") -> float:
    """``raw`` as a finite float (a bool is not a number; a huge integer is not finite)."""
    said = _what(what)
    if isinstance(raw, bool):
        raise at(where, NUMBER_NOT_A_NUMBER, what=said, value=repr(raw))
    try:
        value = float(raw)
    except OverflowError:
        raise at(where, NUMBER_TOO_LARGE, what=said) from None
    except (TypeError, ValueError):
        raise at(where, NUMBER_NOT_A_NUMBER, what=said, value=_shown(raw)) from None
    if not math.isfinite(value):
        raise at(where, NUMBER_NOT_FINITE, what=said, value=_shown(raw))
    return value


def _shown(raw: Any) -> str:
    """``repr`` of ``raw``, a string cut to 40 characters first."""
    return repr(raw if not isinstance(raw, str) or len(raw) <= 40 else raw[:40] + "…")


def offset(raw: Any, what: str) -> int:
    """A character offset: an integer (not a bool) in 0 … :data:`MAX_OFFSET`; ``what`` names
    the field (``start``, ``end``), shown as written.

    Raises:
        NoticeError: ``file.offset.*`` (not an integer, negative, out of range).
    """
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise refused(OFFSET_NOT_INTEGER, what=what, value=repr(raw))
    if raw < 0:
        raise refused(OFFSET_NEGATIVE, what=what, value=repr(raw))
    if raw > MAX_OFFSET:
        size = notice(OFFSET_DIGITS, digits=len(str(raw))) if raw > 10**30 else repr(raw)
        raise refused(OFFSET_OUT_OF_RANGE, what=what, size=size)
    return raw


def run_pieces(text: str, max_run: int = MAX_RUN) -> list[str]:
    """``text`` cut so that no piece holds a run of more than ``max_run`` non-space characters.

    Text without such a run is one piece, unchanged (the common case: one regex scan). A
    longer run is hard-cut every ``max_run`` characters; the pieces concatenate to ``text``.
    """
    if max_run < 1:
        raise ValueError(f"max_run = {max_run!r} must be an integer >= 1")
    long_run = _LONG_RUN if max_run == MAX_RUN else re.compile(rf"(?<!\S)\S{{{max_run + 1},}}")
    cuts: list[int] = []
    for m in long_run.finditer(text):
        cuts.extend(range(m.start() + max_run, m.end(), max_run))
    if not cuts:
        return [text]
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]


def nfc(text: str) -> str:
    """``text`` in Unicode NFC (the form the corpus text is stored in): an NFD id or
    needle then matches its NFC twin."""
    return unicodedata.normalize("NFC", text)


__all__ = [
    "MAX_GRADE",
    "MAX_INT_DIGITS",
    "MAX_JSON_DEPTH",
    "MAX_OFFSET",
    "MAX_RUN",
    "NumberTooLong",
    "capped_int",
    "finite_float",
    "grade",
    "json_depth",
    "json_line",
    "nfc",
    "offset",
    "run_pieces",
]
