"""The guards every reader of a user's file applies before it trusts a field.

One place for the limits that keep a hostile or broken file from crashing or
stalling a reader: JSON nesting and integer length checked *before* the parser
sees them (Python's ``json`` recurses once per level and raises
``RecursionError`` past about 1,000; ``int()`` of a 400-digit literal works, but
``2 ** grade`` or ``float(score)`` of it then hangs or overflows), relevance
grades as small ASCII-digit integers (``int()`` also reads ``1_0`` as 10 and
Arabic-Indic digits), scores as finite floats, offsets within SQLite's integer
range, and NFC normalisation of ids and text. Each refusal is a ``ValueError``
whose message is one line naming the place (``file line N``) and the rule.

Readers that use it: question sets and BEIR ``queries.jsonl``
(:func:`rag_core.formats.questions.json_rows`), TREC and BEIR qrels
(:mod:`rag_core.formats.trec`, the BEIR folder loader), JSONL runs
(:mod:`rag_core.retrieval.runs`), label imports (:mod:`rag_core.gold.labels`); the
document loaders (:mod:`rag_core.corpus.loaders`) share its limits.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from typing import Any

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

_GRADE = re.compile(r"-?[0-9]+", re.ASCII)
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


class _NumberTooLong(Exception):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def capped_int(literal: str) -> int:
    """``json`` ``parse_int`` hook: refuse more than :data:`MAX_INT_DIGITS` digits before
    ``int()`` runs."""
    digits = len(literal) - literal.startswith("-")
    if digits > MAX_INT_DIGITS:
        raise _NumberTooLong(digits)
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


def json_line(line: str, where: str) -> Any:
    """Parse one JSON value (a JSON Lines line) with the depth and integer caps.

    Raises:
        ValueError: ``where: …`` — nested deeper than :data:`MAX_JSON_DEPTH`, an
            integer over :data:`MAX_INT_DIGITS` digits, or not valid JSON.
    """
    if json_depth(line) > MAX_JSON_DEPTH:
        raise ValueError(f"{where}: JSON nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(line, parse_int=capped_int)
    except _NumberTooLong as exc:
        raise ValueError(
            f"{where}: a number with {exc.digits} digits (the cap is {MAX_INT_DIGITS})"
        ) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise ValueError(f"{where}: JSON nested deeper than {MAX_JSON_DEPTH} levels") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from None


def grade(raw: Any, where: str, what: str = "grade") -> int:
    """A relevance grade: an integer written in ASCII digits (an optional ``-``: trec_eval
    reads a negative grade as judged not relevant), at most :data:`MAX_GRADE` in size.

    ``1_0``, ``+1``, ``1.0``, Arabic-Indic or full-width digits and a 400-digit
    number are refused; a JSON integer (not a bool) is checked the same way.
    """
    if isinstance(raw, bool):
        raise ValueError(f"{where}: {what} {raw!r} is not an integer")
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, str) and _GRADE.fullmatch(raw.strip()):
        text = raw.strip()
        digits = len(text) - text.startswith("-")
        if digits > 6:  # refused before int(): a 400-digit grade is never converted
            raise ValueError(
                f"{where}: {what} of {digits} digits is out of range (|grade| ≤ {MAX_GRADE})"
            )
        value = int(text)
    else:
        shown = raw if not isinstance(raw, str) or len(raw) <= 40 else raw[:40] + "…"
        raise ValueError(
            f"{where}: {what} {shown!r} is not an integer in ASCII digits "
            f"(a grade is a small integer such as 0, 1, 2)"
        )
    if abs(value) > MAX_GRADE:
        size = f"{len(str(abs(value)))} digits" if abs(value) > 10**6 else f"{value}"
        raise ValueError(f"{where}: {what} {size} is out of range (|grade| ≤ {MAX_GRADE})")
    return value


def finite_float(raw: Any, where: str, what: str = "score") -> float:
    """``raw`` as a finite float (a bool is not a number; a huge integer is not finite)."""
    if isinstance(raw, bool):
        raise ValueError(f"{where}: {what} {raw!r} is not a number")
    try:
        value = float(raw)
    except OverflowError:
        raise ValueError(f"{where}: {what} is not finite (an integer too large)") from None
    except (TypeError, ValueError):
        shown = raw if not isinstance(raw, str) or len(raw) <= 40 else raw[:40] + "…"
        raise ValueError(f"{where}: {what} {shown!r} is not a number") from None
    if not math.isfinite(value):
        shown = raw if not isinstance(raw, str) or len(raw) <= 40 else raw[:40] + "…"
        raise ValueError(f"{where}: {what} {shown!r} is not finite")
    return value


def offset(raw: Any, what: str) -> int:
    """A character offset: an integer (not a bool) in 0 … :data:`MAX_OFFSET`."""
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ValueError(f"{what} must be an integer; got {raw!r}")
    if raw < 0:
        raise ValueError(f"{what} = {raw!r} must be >= 0")
    if raw > MAX_OFFSET:
        size = f"{len(str(raw))} digits" if raw > 10**30 else repr(raw)
        raise ValueError(f"{what} = {size} is out of range (0 … 2**63 − 1)")
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
    "capped_int",
    "finite_float",
    "grade",
    "json_depth",
    "json_line",
    "nfc",
    "offset",
    "run_pieces",
]
