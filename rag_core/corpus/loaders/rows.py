"""Rows (``.csv``, ``.json`` array of objects, ``.jsonl``) → one Document per row.

A row has ``id``/``text`` (optional ``title``, ``source``, ``version``; other fields are
metadata), or is a BEIR ``corpus.jsonl`` row with ``_id``/``title``/``text``. A bad row is
a failed row; the rows after it still load. JSON nesting deeper than
:data:`~rag_core.formats.guard.MAX_JSON_DEPTH` and integers longer than
:data:`~rag_core.formats.guard.MAX_INT_DIGITS` digits are refused before parsing (the
guard's checks), and the ``csv`` field limit is raised to the file's size.
"""

from __future__ import annotations

import csv
import json
import re
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from ...formats import guard
from ...types import Document, FailedDocument, Notice
from ...wording import declare, notice
from ..decoding import LoadError, is_blank
from ._common import (
    AT,
    MAX_INT_DIGITS,
    MAX_JSON_DEPTH,
    NO_BUDGET,
    Budget,
    canonicalize,
    fail_at,
)
from .markdown import markdown_blocks

#: Why a row (or a whole row file) failed (``load.*``).
ROW_NOT_OBJECT = declare("load.row.not_object", "kind")
ROW_NO_ID = declare("load.row.no_id")
ROW_BAD_ID = declare("load.row.bad_id", "value")
ROW_NO_TEXT = declare("load.row.no_text")
ROW_BAD_TEXT = declare("load.row.bad_text", "kind")
ROW_EMPTY_TEXT = declare("load.row.empty_text")
JSON_LONG_NUMBER = guard.JSON_LONG_NUMBER
JSON_TOO_DEEP = guard.JSON_TOO_DEEP
JSON_INVALID = declare("load.json.invalid", "error")
JSON_INVALID_AT = declare("load.json.invalid_at", "error", "line")
JSON_EXPECTED_COMMA = declare("load.json.expected_comma", "line")
JSON_NOT_ARRAY = declare("load.json.not_array", "kind")
CSV_ERROR = declare("load.csv.error", "error")
CSV_HEADER = declare("load.csv.header", "problem")
CSV_NO_COLUMNS = declare("load.csv.no_columns", "found")
CSV_NO_COLUMNS_NONE = declare("load.csv.no_columns.none")
CSV_TOO_MANY_CELLS = declare("load.csv.too_many_cells", "cells", "columns")
CSV_BAD_QUOTE = declare("load.csv.bad_quote", "more")
CSV_BAD_QUOTE_ONE = declare("load.csv.bad_quote.one")
CSV_TOO_MANY_BAD_QUOTES = declare("load.csv.too_many_bad_quotes", "limit")

_ROW_FIELDS = ("id", "_id", "title", "text", "source", "version")


def _row_document(row: Any, where: Notice, path: str) -> Document:
    """One row (a mapping) → Document; raises LoadError with the reason."""
    if not isinstance(row, Mapping):
        raise fail_at(where, ROW_NOT_OBJECT, kind=type(row).__name__)
    raw_id = row.get("_id", row.get("id"))
    if raw_id is None or (isinstance(raw_id, str) and not raw_id.strip()):
        raise fail_at(where, ROW_NO_ID)
    if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)):
        raise fail_at(where, ROW_BAD_ID, value=repr(raw_id))
    doc_id = str(raw_id).strip()
    text = row.get("text")
    if text is None:
        raise fail_at(where, ROW_NO_TEXT)
    if not isinstance(text, str):
        raise fail_at(where, ROW_BAD_TEXT, kind=type(text).__name__)
    text = canonicalize(text)
    if is_blank(text):
        raise fail_at(where, ROW_EMPTY_TEXT)
    title = row.get("title")
    title = canonicalize(str(title)).strip() if title not in (None, "") else ""
    metadata = {str(k): v for k, v in row.items() if k not in _ROW_FIELDS and v not in (None, "")}
    return Document(
        doc_id=doc_id,
        title=title or doc_id,
        text=text,
        source=str(row.get("source") or ""),
        version=str(row.get("version") or ""),
        path=path,
        format="row",
        blocks=markdown_blocks(text),
        metadata=metadata,
    )


_DECODER = json.JSONDecoder(parse_int=guard.capped_int)
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
_JSON_TOKEN_OR_COMMA = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{},]')
_WS = re.compile(r"\s*")


def _skip_ws(text: str, pos: int) -> int:
    """Index of the first non-whitespace character at or after ``pos``."""
    m = _WS.match(text, pos)
    return m.end() if m else pos  # r"\s*" always matches; the else only narrows the type


def _too_deep(
    text: str, start: int = 0, end: int | None = None, top: int = 0
) -> list[tuple[int, int]]:
    """Spans of the values at nesting level ``top`` + 1 that nest deeper than
    :data:`MAX_JSON_DEPTH`.

    One pass over the brackets outside strings (a value left open runs to ``end``);
    a text with at most :data:`MAX_JSON_DEPTH` brackets is not scanned at all.
    """
    end = len(text) if end is None else end
    if text.count("[", start, end) + text.count("{", start, end) <= MAX_JSON_DEPTH:
        return []
    spans: list[tuple[int, int]] = []
    depth, value_start, deep = 0, start, False
    for m in _JSON_TOKEN.finditer(text, start, end):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth == top + 1:
                value_start, deep = m.start(), False
            if depth - top > MAX_JSON_DEPTH:
                deep = True
        elif c in "]}":
            depth -= 1
            if depth == top and deep:
                spans.append((value_start, m.end()))
                deep = False
    if deep:
        spans.append((value_start, end))
    return spans


def _json_value(text: str, pos: int, where: str | Notice) -> tuple[Any, int]:
    """``raw_decode`` one value with the integer cap; the reasons say ``where``.

    Raises:
        LoadError: an integer over the cap, or nesting the parser cannot follow.
        json.JSONDecodeError: the text is not JSON.
    """
    try:
        return _DECODER.raw_decode(text, pos)
    except guard.NumberTooLong as exc:
        raise fail_at(where, JSON_LONG_NUMBER, digits=exc.digits, cap=MAX_INT_DIGITS) from None
    except RecursionError:
        raise _deep_reason(where) from None


def _deep_reason(where: str | Notice) -> LoadError:
    return fail_at(where, JSON_TOO_DEEP, depth=MAX_JSON_DEPTH)


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _json_array_items(
    text: str, name: str, budget: Budget = NO_BUDGET
) -> Iterator[tuple[int, Any]]:
    """Yield ``(line number, element or LoadError)`` of a JSON array, element by element.

    An element nested deeper than :data:`MAX_JSON_DEPTH` or holding an integer
    over :data:`MAX_INT_DIGITS` digits is a failed row; the elements after it
    still load.
    """
    pos = _skip_ws(text, 0)
    if not text.startswith("[", pos):
        deep = _too_deep(text)
        if deep:
            raise _deep_reason(guard.line(name, _line_of(text, deep[0][0])))
        try:
            value = json.loads(text, parse_int=guard.capped_int)
        except guard.NumberTooLong as exc:
            raise fail_at(name, JSON_LONG_NUMBER, digits=exc.digits, cap=MAX_INT_DIGITS) from None
        except json.JSONDecodeError as exc:
            raise fail_at(name, JSON_INVALID_AT, error=exc.msg, line=exc.lineno) from None
        raise fail_at(name, JSON_NOT_ARRAY, kind=type(value).__name__)
    deep_at = dict(_too_deep(text, pos, top=1))
    pos = _skip_ws(text, pos + 1)
    if text.startswith("]", pos):
        return
    while True:
        budget.check()
        line = _line_of(text, pos)
        if pos in deep_at:
            if deep_at[pos] >= len(text):
                raise _deep_reason(guard.line(name, line))
            yield line, _deep_reason(guard.line(name, line))
            pos = deep_at[pos]
        else:
            try:
                value, pos = _json_value(text, pos, guard.line(name, line))
            except json.JSONDecodeError as exc:
                raise fail_at(name, JSON_INVALID_AT, error=exc.msg, line=exc.lineno) from None
            except LoadError as exc:
                yield line, exc
                pos = _skip_value(text, pos)
            else:
                yield line, value
        pos = _skip_ws(text, pos)
        if text.startswith(",", pos):
            pos = _skip_ws(text, pos + 1)
            continue
        if text.startswith("]", pos):
            return
        raise fail_at(name, JSON_EXPECTED_COMMA, line=_line_of(text, pos))


def _skip_value(text: str, pos: int) -> int:
    """End of the JSON value at ``pos`` (used after a row failed on a long number)."""
    depth = 0
    for m in _JSON_TOKEN_OR_COMMA.finditer(text, pos):
        c = m.group()
        if c in "[{":
            depth += 1
        elif c in "]}":
            if depth == 0:
                return m.start()
            depth -= 1
            if depth == 0:
                return m.end()
        elif c == "," and depth == 0:
            return m.start()
    return len(text)


def _jsonl_rows(text: str, name: str, budget: Budget) -> Iterator[tuple[int, Any]]:
    for no, line in enumerate(text.split("\n"), 1):
        budget.check()
        if not line.strip():
            continue
        where = guard.line(name, no)
        if _too_deep(line):
            yield no, _deep_reason(where)
            continue
        try:
            value, end = _json_value(line, _skip_ws(line, 0), where)
            if line[end:].strip():
                raise fail_at(where, JSON_INVALID, error="Extra data")
            yield no, value
        except json.JSONDecodeError as exc:
            yield no, fail_at(where, JSON_INVALID, error=exc.msg)
        except LoadError as exc:
            yield no, exc


_csv_limit_lock = threading.Lock()
#: A malformed quote is recovered from this many times per file; then the rest is reported.
MAX_CSV_RECOVERIES = 100


def _raise_csv_field_limit(n: int) -> None:
    """Raise the ``csv`` module's field size limit (process-wide, default 131,072) to ``n``."""
    with _csv_limit_lock:
        if csv.field_size_limit() < n:
            csv.field_size_limit(n)


class _LineFeed:
    """An iterator over physical lines that tells how many were consumed."""

    def __init__(self, lines: Sequence[str], index: int) -> None:
        self.lines = lines
        self.index = index

    def __iter__(self) -> _LineFeed:
        return self

    def __next__(self) -> str:
        if self.index >= len(self.lines):
            raise StopIteration
        self.index += 1
        return self.lines[self.index - 1]


def _strict_ok(lines: Sequence[str]) -> bool:
    try:
        for _ in csv.reader(lines, strict=True):
            pass
    except csv.Error:
        return False
    return True


def _csv_records(
    text: str, name: str, budget: Budget
) -> Iterator[tuple[int, list[str] | LoadError]]:
    """``(line number, cells or LoadError)`` of every CSV record.

    A quoted cell may span lines. When a record spanning several lines does not
    parse under ``strict`` quoting rules, its quote was left open (or closed in
    the wrong place) and it swallowed the rows after it: the record is
    reported and reading resumes on its next line.
    """
    _raise_csv_field_limit(len(text) + 1)
    lines = text.split("\n")
    lines = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    pos, recoveries = 0, 0
    while pos < len(lines):
        feed = _LineFeed(lines, pos)
        reader = csv.reader(feed)
        pos = len(lines)
        while True:
            budget.check()
            start = feed.index
            try:
                cells = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                yield start + 1, fail_at(guard.line(name, start + 1), CSV_ERROR, error=str(exc))
                pos = feed.index
                break
            span = feed.index - start
            if span > 1 and not _strict_ok(lines[start : feed.index]):
                recoveries += 1
                if recoveries > MAX_CSV_RECOVERIES:
                    yield (
                        start + 1,
                        fail_at(
                            guard.line(name, start + 1),
                            CSV_TOO_MANY_BAD_QUOTES,
                            limit=MAX_CSV_RECOVERIES,
                        ),
                    )
                    return
                more = span - 1
                at = guard.line(name, start + 1)
                bad = fail_at(at, CSV_BAD_QUOTE, more=more) if more != 1 else None
                yield start + 1, bad or fail_at(at, CSV_BAD_QUOTE_ONE)
                pos = start + 1
                break
            yield start + 1, cells


def parse_rows(
    text: str, name: str, ext: str, *, path: str = "", budget: Budget = NO_BUDGET
) -> tuple[list[Document], list[FailedDocument]]:
    """Rows of a CSV / JSON array / JSONL file → documents and failed rows.

    Failed rows are reported as ``"<file> line N: reason"``; good rows still load.
    JSON nesting deeper than :data:`MAX_JSON_DEPTH` and integers longer than
    :data:`MAX_INT_DIGITS` digits are refused before they reach the parser.
    """
    text = text.lstrip("\ufeff")
    docs: list[Document] = []
    failed: list[FailedDocument] = []
    rows: Iterable[tuple[int, Any]]
    if ext == ".jsonl":
        rows = _jsonl_rows(text, name, budget)
    elif ext == ".json":
        rows = _json_array_items(text, name, budget)
    else:
        records = _csv_records(text, name, budget)
        first = next(records, None)  # the header record
        header: list[str] | LoadError = [] if first is None else first[1]
        if isinstance(header, LoadError):
            problem = header.notice.params.get("problem", header.notice)
            raise LoadError(notice(AT, where=name, problem=notice(CSV_HEADER, problem=problem)))
        columns = [c.strip() for c in header]
        if not ({"id", "_id"} & set(columns)) or "text" not in columns:
            found = ", ".join(c for c in columns if c)
            if not found:
                raise fail_at(name, CSV_NO_COLUMNS_NONE)
            raise fail_at(name, CSV_NO_COLUMNS, found=found)

        def csv_rows() -> Iterator[tuple[int, Any]]:
            for no, cells in records:
                if isinstance(cells, LoadError):
                    yield no, cells
                    continue
                if not any(c.strip() for c in cells):
                    continue
                if len(cells) > len(columns):
                    yield (
                        no,
                        fail_at(
                            guard.line(name, no),
                            CSV_TOO_MANY_CELLS,
                            cells=len(cells),
                            columns=len(columns),
                        ),
                    )
                    continue
                yield no, {c: v for c, v in zip(columns, cells, strict=False) if c}

        rows = csv_rows()
    for no, row in rows:
        if isinstance(row, LoadError):
            failed.append(FailedDocument(path or name, row.notice))
            continue
        try:
            docs.append(_row_document(row, guard.line(name, no), path))
        except LoadError as exc:
            failed.append(FailedDocument(path or name, exc.notice))
    return docs, failed
