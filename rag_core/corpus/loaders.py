"""Load documents from files, uploads and BEIR folders into canonical text.

Every loader produces :class:`~rag_core.types.Document` objects whose ``text``
is *canonical*: Unicode NFC with ``\\n`` newlines (:func:`canonicalize`). Every
offset in the project (blocks, chunks, needles, citations) refers to it.

Formats:

- Markdown / plain text (``.md``, ``.markdown``, ``.txt``), with an optional
  front-matter block of ``key: value`` lines between two ``---`` lines;
- HTML (``.html``, ``.htm``): visible text only, one paragraph per block
  element, headings written as ``#``-heading lines;
- rows (``.csv``, ``.json`` array of objects, ``.jsonl``): one document per row
  with ``id``/``text`` (optional ``title``, ``source``, ``version``), or a BEIR
  ``corpus.jsonl`` row with ``_id``/``title``/``text``.

Bytes are decoded by :mod:`rag_core.corpus.decoding` (BOMs, UTF-8, CP949, then
``charset-normalizer``); the encoding used is reported per file in
``LoadReport.files``.

A file (or row) that cannot be loaded becomes a :class:`FailedDocument` with a
one-line reason; it never stops the other files, and no exception leaves
:func:`load_bytes` / :func:`load_file` for bad content: JSON nesting deeper than
:data:`MAX_JSON_DEPTH` and integers longer than :data:`MAX_INT_DIGITS` digits
are refused before parsing, the ``csv`` field limit is raised to the file's
size, a file over its time budget (:data:`DEFAULT_TIME_BUDGET_S`) fails, and
anything unexpected is caught at the file boundary and named. Counts are
computed from what loaded.
"""

from __future__ import annotations

import csv
import json
import re
import threading
import time
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from ..formats import guard
from ..formats.questions import json_rows
from ..types import Block, Document, FailedDocument, LoadedFile, LoadReport, Notice
from ..wording import declare, english, notice

# BINARY, BINARY_PROBE, UNDECODABLE, LoadError and decode_bytes are re-exported for callers
from .decoding import BINARY, BINARY_PROBE, UNDECODABLE, LoadError, decode, decode_bytes, is_blank  # noqa: F401

MB = 1024 * 1024
#: Default size cap per file.
DEFAULT_MAX_BYTES = 20 * MB
#: Default wall-clock budget for loading one file, in seconds; a file over it is a failure.
DEFAULT_TIME_BUDGET_S = 60.0
#: JSON nesting deeper than this is refused before parsing (``rag_core.formats.guard``).
MAX_JSON_DEPTH = guard.MAX_JSON_DEPTH
#: A JSON integer with more digits than this is refused (``rag_core.formats.guard``).
MAX_INT_DIGITS = guard.MAX_INT_DIGITS

TEXT_EXTENSIONS = (".md", ".markdown", ".txt")
HTML_EXTENSIONS = (".html", ".htm")
ROW_EXTENSIONS = (".csv", ".json", ".jsonl")
SUPPORTED_EXTENSIONS = tuple(sorted(TEXT_EXTENSIONS + HTML_EXTENSIONS + ROW_EXTENSIONS))

#: Why a file or row failed, and a load's notes (``load.*``; English in ``rag_core.wording``).
AT = guard.AT
EMPTY = declare("load.empty")
EMPTY_HTML = declare("load.empty_html")
BLANK = declare("load.blank")
OVER_BUDGET = declare("load.over_budget", "seconds", "elapsed")
TOO_LARGE_MB = declare("load.too_large_mb", "mb")
TOO_LARGE_BYTES = declare("load.too_large_bytes", "size")
UNSUPPORTED = declare("load.unsupported", "ext", "supported")
UNSUPPORTED_NO_EXT = declare("load.unsupported.no_extension", "supported")
CANNOT_READ = declare("load.cannot_read", "error")
CRASHED = declare("load.crashed", "error")
NOT_A_FILE = declare("load.not_a_file")
DUPLICATE = declare("load.duplicate", "doc_id", "where")
DUPLICATE_EARLIER = declare("load.duplicate.earlier", "doc_id")
NOTE_OPEN_NAV = declare("load.note.open_nav")
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
BEIR_NO_FOLDER = declare("load.beir.no_folder", "folder")
BEIR_LACKS = declare("load.beir.lacks", "folder", "name")
BEIR_BAD_SPLIT = declare("load.beir.bad_split", "split")
BEIR_NO_QRELS = declare("load.beir.no_qrels", "folder", "split")
BEIR_NO_QRELS_SPLITS = declare("load.beir.no_qrels_splits", "folder", "split", "splits")
BEIR_BAD_QUERY = declare("load.beir.bad_query")
BEIR_QRELS_CELLS = declare("load.beir.qrels_cells", "found")


def _fail(code: str, **params: Any) -> LoadError:
    """The :class:`LoadError` of a declared ``code`` with ``params`` (to ``raise``)."""
    return LoadError(notice(code, **params))


def _fail_at(where: str | Notice, code: str, **params: Any) -> LoadError:
    """``<where>: <problem>``: a row's (or a file's) :class:`LoadError`."""
    return LoadError(notice(AT, where=where, problem=notice(code, **params)))


_line = guard.line


def failed_document(path: str, why: Notice) -> FailedDocument:
    """A :class:`FailedDocument` whose reason is ``why`` in English."""
    return FailedDocument(path, english(why), why)


class _Budget:
    """A per-file deadline, checked by the parsers between units of work."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.start = time.perf_counter()
        self.deadline = None if seconds is None else self.start + seconds
        self._calls = 63  # the first check reads the clock

    def check(self) -> None:
        """Raise :class:`LoadError` once the deadline has passed (the clock is read every 64th
        call)."""
        self._calls += 1
        if (
            self.deadline is not None
            and not self._calls & 63
            and time.perf_counter() > self.deadline
        ):
            elapsed = time.perf_counter() - self.start
            raise _fail(OVER_BUDGET, seconds=self.seconds, elapsed=elapsed)

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start


_NO_BUDGET = _Budget(None)


# ----------------------------------------------------------------- text basics


def canonicalize(text: str) -> str:
    """Canonical form of a text: CRLF and lone CR become LF, then Unicode NFC."""
    return unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))


def _size_reason(max_bytes: int) -> Notice:
    if max_bytes >= MB:
        return notice(TOO_LARGE_MB, mb=max_bytes / MB)
    return notice(TOO_LARGE_BYTES, size=max_bytes)


def _unsupported_reason(ext: str) -> Notice:
    supported = ", ".join(SUPPORTED_EXTENSIONS)
    if not ext:
        return notice(UNSUPPORTED_NO_EXT, supported=supported)
    return notice(UNSUPPORTED, ext=ext, supported=supported)


# ------------------------------------------------------------------ markdown

_FRONT_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$")
_MD_HEADING = re.compile(r"#{1,6}(?:[ \t]|$)")
_FENCE = re.compile(r"\s{0,3}(```|~~~)")


def parse_front_matter(text: str) -> tuple[dict[str, str], str]:
    """Split a leading ``---`` block of ``key: value`` lines off ``text``.

    Returns ``(fields, rest)`` where ``rest`` has its leading blank lines
    stripped. Text without a (closed) front-matter block is returned whole
    with empty fields.
    """
    if not text.startswith("---\n"):
        return {}, text
    lines = text.split("\n")
    fields: dict[str, str] = {}
    for i in range(1, len(lines)):
        line = lines[i]
        if line.strip() == "---":
            rest = "\n".join(lines[i + 1 :])
            return fields, re.sub(r"^(?:[ \t]*\n)+", "", rest)
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _FRONT_KEY.match(line)
        if not m:
            return {}, text  # not a front-matter block after all
        value = m.group(2).strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        fields[m.group(1).lower()] = value
    return {}, text


def _line_spans(text: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of every line, ``end`` excluding the newline."""
    pos = 0
    n = len(text)
    while pos <= n:
        nl = text.find("\n", pos)
        if nl < 0:
            if pos < n:
                yield pos, n
            return
        yield pos, nl
        pos = nl + 1


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def markdown_blocks(text: str) -> tuple[Block, ...]:
    """Paragraph-like blocks of Markdown/plain text.

    Rules: a heading line (``#`` … ``######``) is its own block ``h1``..``h6``;
    a fenced code block (```` ``` ```` or ``~~~``) is one ``pre`` block; a run of
    lines starting with ``|`` is one ``table`` block; any other maximal run of
    non-blank lines is a ``p`` block. Block spans are trimmed of surrounding
    whitespace.
    """
    blocks: list[Block] = []
    lines = list(_line_spans(text))
    i = 0
    run_start: int | None = None
    run_end = 0
    run_kind = "p"

    def close_run() -> None:
        nonlocal run_start
        if run_start is not None:
            s, e = _trimmed(text, run_start, run_end)
            if s < e:
                blocks.append(Block(s, e, run_kind))
        run_start = None

    while i < len(lines):
        s, e = lines[i]
        line = text[s:e]
        stripped = line.strip()
        if not stripped:
            close_run()
            i += 1
            continue
        fence = _FENCE.match(line)
        if fence:
            close_run()
            marker = fence.group(1)
            j = i + 1
            while j < len(lines) and not text[lines[j][0] : lines[j][1]].strip().startswith(marker):
                j += 1
            last = min(j, len(lines) - 1)
            bs, be = _trimmed(text, s, lines[last][1])
            blocks.append(Block(bs, be, "pre"))
            i = last + 1
            continue
        if _MD_HEADING.match(line):
            close_run()
            level = len(line) - len(line.lstrip("#"))
            bs, be = _trimmed(text, s, e)
            blocks.append(Block(bs, be, f"h{level}"))
            i += 1
            continue
        kind = "table" if line.lstrip().startswith("|") else "p"
        if run_start is not None and kind != run_kind:
            close_run()
        if run_start is None:
            run_start, run_kind = s, kind
        run_end = e
        i += 1
    close_run()
    return tuple(blocks)


def _first_heading(text: str) -> str:
    for s, e in _line_spans(text):
        line = text[s:e]
        if line.startswith("# "):
            return line[2:].strip()
    return ""


def parse_markdown(text: str, stem: str, *, path: str = "", fmt: str = "md") -> Document:
    """Build a Document from Markdown/plain text (front matter removed)."""
    fields, body = parse_front_matter(canonicalize(text))
    if is_blank(body):
        raise _fail(EMPTY)
    title = fields.pop("title", "").strip() or _first_heading(body) or stem
    source = fields.pop("source", "").strip()
    version = fields.pop("version", "").strip()
    return Document(
        doc_id=stem,
        title=title,
        text=body,
        source=source,
        version=version,
        path=path,
        format=fmt,
        blocks=markdown_blocks(body),
        metadata=dict(fields),
    )


# ---------------------------------------------------------------------- html

#: Elements whose whole subtree is invisible. ``head`` is not among them: its end
#: tag is optional in HTML5, and what it may hold is invisible anyway (``title`` is
#: read as the title; ``style``/``script`` are dropped; ``meta``/``link`` are void).
HTML_DROPPED = frozenset({"script", "style", "nav", "noscript", "template", "svg"})
#: Start tags that cannot be inside a ``nav`` (HTML5: no ``main`` descendant), so
#: they end an unclosed one.
HTML_ENDS_NAV = frozenset({"main"})
#: Elements without an end tag.
HTML_VOID = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    }
)
#: Elements whose text becomes a paragraph of their own kind.
HTML_BLOCKS = frozenset(
    {
        "p",
        "li",
        "dt",
        "dd",
        "pre",
        "blockquote",
        "caption",
        "figcaption",
        "div",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "address",
    }
)
#: Containers: they break paragraphs; their loose text is recorded as ``div``.
HTML_CONTAINERS = frozenset(
    {
        "body",
        "main",
        "article",
        "section",
        "header",
        "footer",
        "aside",
        "form",
        "ul",
        "ol",
        "dl",
        "figure",
        "fieldset",
        "details",
        "summary",
        "table",
        "thead",
        "tbody",
        "tfoot",
        "html",
    }
)


def _is_hidden(attrs: list[tuple[str, str | None]]) -> bool:
    for key, value in attrs:
        if key == "hidden":
            return True
        if key == "style" and value and re.search(r"display\s*:\s*none", value, re.I):
            return True
    return False


class _VisibleText(HTMLParser):
    """Collect visible text as ``(kind, text)`` paragraphs (see :func:`parse_html`).

    Linear in the input: the open elements are counted by tag, so a stray end
    tag (one with no open element of its name) is ignored in O(1) instead of a
    scan of the open-element stack (``<span>``×n + ``</i>``×n was quadratic).
    """

    def __init__(self, budget: _Budget = _NO_BUDGET, *, keep_nav: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self._budget = budget
        self._dropped = HTML_DROPPED - {"nav"} if keep_nav else HTML_DROPPED
        self._open: dict[str, int] = {}  # tag -> how many are on the stack
        self.unclosed_nav = False
        self.paragraphs: list[tuple[str, str]] = []
        self.title_parts: list[str] = []
        self.meta: dict[str, str] = {}
        self._stack: list[tuple[str, bool]] = []  # (tag, opened a skipped subtree)
        self._skip = 0
        self._in_title = False
        self._buf: list[str] = []
        self._kinds: list[str] = []  # open block kinds, innermost last
        self._pre = 0
        self._row: list[str] | None = None  # cells of the open table row
        self._cell: list[str] | None = None

    # -- paragraph plumbing
    def _current_kind(self) -> str:
        return self._kinds[-1] if self._kinds else "div"

    def _flush(self, kind: str | None = None) -> None:
        if not self._buf:
            return
        raw = "".join(self._buf)
        self._buf = []
        kind = kind or self._current_kind()
        if kind == "pre":
            text = raw[1:] if raw.startswith("\n") else raw
            text = text.rstrip()
            if not text.strip():
                return
            lines = text.split("\n")
            while lines and not lines[0].strip():
                lines.pop(0)
            text = "\n".join(lines)
        else:
            text = " ".join(raw.split())
        if not text:
            return
        if kind[0] == "h" and kind[1:].isdigit():
            text = "#" * int(kind[1:]) + " " + text
        self.paragraphs.append((kind, text))

    def _close_cell(self) -> None:
        if self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
        self._cell = None

    def _close_row(self) -> None:
        self._close_cell()
        if self._row is not None and any(self._row):
            self.paragraphs.append(("tr", " | ".join(self._row)))
        self._row = None

    # -- parser callbacks
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._budget.check()
        if tag in HTML_ENDS_NAV:
            while self._open.get("nav"):
                self.handle_endtag("nav")
        if tag == "meta":
            d = {k: (v or "") for k, v in attrs}
            name = d.get("name", "").lower()
            if name in ("source", "version") and "content" in d:
                self.meta[name] = d["content"].strip()
            return
        if tag == "title" and not self._open.get("svg"):
            self._in_title = True
        skipping = tag in self._dropped or _is_hidden(attrs)
        if tag in HTML_VOID:
            if tag == "br" and not self._skip:
                self._text("\n" if self._pre else " ")
            return
        self._stack.append((tag, skipping))
        self._open[tag] = self._open.get(tag, 0) + 1
        if skipping:
            self._skip += 1
            return
        if self._skip:
            return
        if tag == "tr":
            self._close_row()
            self._row = []
        elif tag in ("td", "th"):
            if self._row is None:
                self._row = []
            self._close_cell()
            self._cell = []
        elif self._row is not None or self._cell is not None:
            return  # everything inside a table row is cell text
        elif tag in HTML_BLOCKS or tag in HTML_CONTAINERS:
            if tag == "table":
                self._close_row()
            self._flush()
            self._kinds.append(tag if tag in HTML_BLOCKS else "div")
            if tag == "pre":
                self._pre += 1

    def handle_endtag(self, tag: str) -> None:
        self._budget.check()
        if tag == "title":
            self._in_title = False
        if tag in HTML_VOID:
            return
        if not self._open.get(tag):
            return  # stray end tag
        while self._stack:
            open_tag = self._pop()
            if open_tag == tag:
                break

    def _pop(self) -> str:
        open_tag, skipping = self._stack.pop()
        self._open[open_tag] -= 1
        self._end(open_tag, skipping)
        return open_tag

    def _end(self, tag: str, skipping: bool) -> None:
        if skipping:
            self._skip -= 1
            return
        if self._skip:
            return
        if tag in ("td", "th"):
            self._close_cell()
        elif tag == "tr":
            self._close_row()
        elif tag == "table":
            self._close_row()
            if self._kinds:
                self._kinds.pop()
        elif self._row is not None:
            return
        elif tag in HTML_BLOCKS or tag in HTML_CONTAINERS:
            self._flush()
            if self._kinds:
                self._kinds.pop()
            if tag == "pre":
                self._pre -= 1

    def _text(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        elif self._row is not None:
            if data.strip():  # text in a row outside any cell: make it a cell
                self._cell = [data]
        else:
            self._buf.append(data)

    def handle_data(self, data: str) -> None:
        self._budget.check()
        if self._in_title:
            self.title_parts.append(data)
            return
        if self._skip:
            return
        self._text(data)

    def close(self) -> None:
        super().close()
        self.unclosed_nav = self._open.get("nav", 0) > 0 and "nav" in self._dropped
        while self._stack:
            self._pop()
        self._close_row()
        self._flush()


def parse_html(text: str, stem: str, *, path: str = "") -> Document:
    """Build a Document from HTML: visible text only, one paragraph per block.

    Dropped: ``script``, ``style``, ``nav``, ``noscript``, ``template``, ``svg``
    and any element with a ``hidden`` attribute (or an inline ``display: none``
    style). Each block element becomes a paragraph separated by a blank line;
    headings become ``#``-heading lines (``## `` for ``h2``); a table row
    becomes one line with cells joined by `` | ``; whitespace is collapsed
    except inside ``pre``. ``Document.blocks`` records each paragraph's span and
    tag. Markup is parsed with the forgiving stdlib :class:`html.parser.HTMLParser`:
    unclosed elements end at their parent's end tag or at the end of the file,
    stray end tags are ignored, optional end tags (``</head>``, ``</p>``,
    ``</li>``) may be left out. A ``<main>`` start tag ends an open ``nav``
    (HTML5 allows no ``main`` inside one); a ``nav`` still open at the end of
    the file swallowed the page, so it is parsed again with its text kept.
    """
    return _parse_html(text, stem, path=path)[0]


def _escape_open_tail(text: str) -> str:
    """Write every ``<`` after the last ``>`` as ``&lt;``.

    With no ``>`` left, each ``<`` there opens a construct that never ends; the
    stdlib parser of CPython 3.11 rescans to the end of the text for each of
    them — quadratic (``"<a " * 70_000`` took over 9 s of CPU; later CPython
    releases fixed such cases, CVE-2025-6069) — and then emits them as text
    anyway. Escaping them up front gives the same text in one pass.
    """
    first = text.find("<", text.rfind(">") + 1)
    return text if first < 0 else text[:first] + text[first:].replace("<", "&lt;")


def _parse_html(
    text: str, stem: str, *, path: str = "", budget: _Budget = _NO_BUDGET
) -> tuple[Document, tuple[Notice, ...]]:
    """:func:`parse_html` with a time budget; also returns notes for the load report."""
    text = _escape_open_tail(canonicalize(text))
    notes: tuple[Notice, ...] = ()
    parser = _VisibleText(budget)
    parser.feed(text)
    parser.close()
    if parser.unclosed_nav:
        parser = _VisibleText(budget, keep_nav=True)
        parser.feed(text)
        parser.close()
        notes = (notice(NOTE_OPEN_NAV),)
    parts: list[str] = []
    blocks: list[Block] = []
    pos = 0
    for kind, para in parser.paragraphs:
        para = unicodedata.normalize("NFC", para)
        if parts:
            parts.append("\n\n")
            pos += 2
        parts.append(para)
        blocks.append(Block(pos, pos + len(para), kind))
        pos += len(para)
    body = "".join(parts)
    if is_blank(body):
        raise _fail(EMPTY_HTML)
    title = " ".join("".join(parser.title_parts).split())
    if not title:
        first_h1 = next((b for b in blocks if b.kind == "h1"), None)
        title = body[first_h1.start : first_h1.end].lstrip("#").strip() if first_h1 else stem
    doc = Document(
        doc_id=stem,
        title=unicodedata.normalize("NFC", title),
        text=body,
        source=parser.meta.get("source", ""),
        version=parser.meta.get("version", ""),
        path=path,
        format="html",
        blocks=tuple(blocks),
    )
    return doc, notes


# ---------------------------------------------------------------------- rows

_ROW_FIELDS = ("id", "_id", "title", "text", "source", "version")


def _row_document(row: Any, where: Notice, path: str) -> Document:
    """One row (a mapping) → Document; raises LoadError with the reason."""
    if not isinstance(row, Mapping):
        raise _fail_at(where, ROW_NOT_OBJECT, kind=type(row).__name__)
    raw_id = row.get("_id", row.get("id"))
    if raw_id is None or (isinstance(raw_id, str) and not raw_id.strip()):
        raise _fail_at(where, ROW_NO_ID)
    if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)):
        raise _fail_at(where, ROW_BAD_ID, value=repr(raw_id))
    doc_id = str(raw_id).strip()
    text = row.get("text")
    if text is None:
        raise _fail_at(where, ROW_NO_TEXT)
    if not isinstance(text, str):
        raise _fail_at(where, ROW_BAD_TEXT, kind=type(text).__name__)
    text = canonicalize(text)
    if is_blank(text):
        raise _fail_at(where, ROW_EMPTY_TEXT)
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


class _NumberTooLong(Exception):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _parse_int(literal: str) -> int:
    """``json`` integer hook: refuse more than :data:`MAX_INT_DIGITS` digits before ``int()``."""
    digits = len(literal) - literal.startswith("-")
    if digits > MAX_INT_DIGITS:
        raise _NumberTooLong(digits)
    return int(literal)


_DECODER = json.JSONDecoder(parse_int=_parse_int)
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
    except _NumberTooLong as exc:
        raise _fail_at(where, JSON_LONG_NUMBER, digits=exc.digits, cap=MAX_INT_DIGITS) from None
    except RecursionError:
        raise _deep_reason(where) from None


def _deep_reason(where: str | Notice) -> LoadError:
    return _fail_at(where, JSON_TOO_DEEP, depth=MAX_JSON_DEPTH)


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _json_array_items(
    text: str, name: str, budget: _Budget = _NO_BUDGET
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
            raise _deep_reason(_line(name, _line_of(text, deep[0][0])))
        try:
            value = json.loads(text, parse_int=_parse_int)
        except _NumberTooLong as exc:
            raise _fail_at(name, JSON_LONG_NUMBER, digits=exc.digits, cap=MAX_INT_DIGITS) from None
        except json.JSONDecodeError as exc:
            raise _fail_at(name, JSON_INVALID_AT, error=exc.msg, line=exc.lineno) from None
        raise _fail_at(name, JSON_NOT_ARRAY, kind=type(value).__name__)
    deep_at = dict(_too_deep(text, pos, top=1))
    pos = _skip_ws(text, pos + 1)
    if text.startswith("]", pos):
        return
    while True:
        budget.check()
        line = _line_of(text, pos)
        if pos in deep_at:
            if deep_at[pos] >= len(text):
                raise _deep_reason(_line(name, line))
            yield line, _deep_reason(_line(name, line))
            pos = deep_at[pos]
        else:
            try:
                value, pos = _json_value(text, pos, _line(name, line))
            except json.JSONDecodeError as exc:
                raise _fail_at(name, JSON_INVALID_AT, error=exc.msg, line=exc.lineno) from None
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
        raise _fail_at(name, JSON_EXPECTED_COMMA, line=_line_of(text, pos))


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


def _jsonl_rows(text: str, name: str, budget: _Budget) -> Iterator[tuple[int, Any]]:
    for no, line in enumerate(text.split("\n"), 1):
        budget.check()
        if not line.strip():
            continue
        where = _line(name, no)
        if _too_deep(line):
            yield no, _deep_reason(where)
            continue
        try:
            value, end = _json_value(line, _skip_ws(line, 0), where)
            if line[end:].strip():
                raise _fail_at(where, JSON_INVALID, error="Extra data")
            yield no, value
        except json.JSONDecodeError as exc:
            yield no, _fail_at(where, JSON_INVALID, error=exc.msg)
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
    text: str, name: str, budget: _Budget
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
                yield start + 1, _fail_at(_line(name, start + 1), CSV_ERROR, error=str(exc))
                pos = feed.index
                break
            span = feed.index - start
            if span > 1 and not _strict_ok(lines[start : feed.index]):
                recoveries += 1
                if recoveries > MAX_CSV_RECOVERIES:
                    yield (
                        start + 1,
                        _fail_at(
                            _line(name, start + 1),
                            CSV_TOO_MANY_BAD_QUOTES,
                            limit=MAX_CSV_RECOVERIES,
                        ),
                    )
                    return
                more = span - 1
                at = _line(name, start + 1)
                bad = _fail_at(at, CSV_BAD_QUOTE, more=more) if more != 1 else None
                yield start + 1, bad or _fail_at(at, CSV_BAD_QUOTE_ONE)
                pos = start + 1
                break
            yield start + 1, cells


def parse_rows(
    text: str, name: str, ext: str, *, path: str = "", budget: _Budget = _NO_BUDGET
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
                raise _fail_at(name, CSV_NO_COLUMNS_NONE)
            raise _fail_at(name, CSV_NO_COLUMNS, found=found)

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
                        _fail_at(
                            _line(name, no),
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
            failed.append(failed_document(path or name, row.notice))
            continue
        try:
            docs.append(_row_document(row, _line(name, no), path))
        except LoadError as exc:
            failed.append(failed_document(path or name, exc.notice))
    return docs, failed


# ------------------------------------------------------------------ entry points


def _stem(name: str) -> str:
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    return base[: base.rfind(".")] if "." in base[1:] else base


def _ext(name: str) -> str:
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    i = base.rfind(".")
    return base[i:].lower() if i > 0 else ""


def _finish(
    docs: Iterable[Document], failed: Iterable[FailedDocument], files: Iterable[LoadedFile] = ()
) -> LoadReport:
    """Drop duplicate doc ids (as failures) and sort documents by doc_id."""
    seen: dict[str, Document] = {}
    failures = list(failed)
    for doc in docs:
        if doc.doc_id in seen:
            where = seen[doc.doc_id].path
            why = (
                notice(DUPLICATE, doc_id=doc.doc_id, where=where)
                if where
                else notice(DUPLICATE_EARLIER, doc_id=doc.doc_id)
            )
            failures.append(failed_document(doc.path or doc.doc_id, why))
            continue
        seen[doc.doc_id] = doc
    documents = tuple(sorted(seen.values(), key=lambda d: d.doc_id))
    infos = tuple(files)
    if len(infos) == 1:  # one file: its counts are the report's, duplicates included
        infos = (replace(infos[0], n_documents=len(documents), n_failed=len(failures)),)
    return LoadReport(documents=documents, failed=tuple(failures), files=infos)


def _cannot_read(exc: OSError) -> Notice:
    return notice(CANNOT_READ, error=str(exc.strerror or exc))


def _one_line(exc: BaseException) -> str:
    """``Type: message`` on one line, at most 200 characters."""
    text = " ".join(str(exc).split())
    text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return text if len(text) <= 200 else text[:199] + "…"


def _parse(
    name: str, data: bytes, path: str, budget: _Budget
) -> tuple[list[Document], list[FailedDocument], str, tuple[Notice, ...]]:
    """Decode and parse one file's bytes; raises LoadError for a whole-file failure."""
    ext = _ext(name)
    decoded = decode(data)
    notes = decoded.notes
    if is_blank(decoded.text):
        raise _Refused(notice(BLANK), decoded.encoding)
    stem = _stem(name)
    try:
        if ext in TEXT_EXTENSIONS:
            fmt = "txt" if ext == ".txt" else "md"
            return (
                [parse_markdown(decoded.text, stem, path=path, fmt=fmt)],
                [],
                decoded.encoding,
                notes,
            )
        if ext in HTML_EXTENSIONS:
            doc, html_notes = _parse_html(decoded.text, stem, path=path, budget=budget)
            return [doc], [], decoded.encoding, notes + html_notes
        base = name.replace("\\", "/").rsplit("/", 1)[-1]
        docs, failed = parse_rows(decoded.text, base, ext, path=path, budget=budget)
        return docs, failed, decoded.encoding, notes
    except LoadError as exc:
        raise _Refused(exc.notice, decoded.encoding) from None


class _Refused(LoadError):
    """A whole-file failure after decoding (keeps the encoding for the report)."""

    def __init__(self, why: Notice, encoding: str) -> None:
        super().__init__(why)
        self.encoding = encoding

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.notice, self.encoding))


def _load(
    name: str,
    data: bytes | None,
    path: str,
    size: int,
    max_bytes: int,
    read: Any,
    time_budget_s: float | None = DEFAULT_TIME_BUDGET_S,
) -> tuple[list[Document], list[FailedDocument], LoadedFile]:
    """Apply the checks in order (type, size, binary, empty, decoding) and parse.

    This is the one guard at the file boundary: any exception (a parser bug, a
    ``RecursionError``, ``MemoryError``) becomes this file's failure reason, so
    the other files of a batch still load.
    """
    shown = path or name
    budget = _Budget(time_budget_s)
    encoding = ""
    notes: tuple[Notice, ...] = ()
    docs: list[Document] = []
    failed: list[FailedDocument] = []
    ext = _ext(name)
    try:
        if ext not in SUPPORTED_EXTENSIONS:
            raise LoadError(_unsupported_reason(ext))
        if size > max_bytes:
            raise LoadError(_size_reason(max_bytes))
        if data is None:
            data = read()
        if not data.strip():
            raise _fail(EMPTY)
        docs, failed, encoding, notes = _parse(name, data, path, budget)
        budget.check()
    except _Refused as exc:
        encoding = exc.encoding
        docs, failed = [], [failed_document(shown, exc.notice)]
    except LoadError as exc:
        docs, failed = [], [failed_document(shown, exc.notice)]
    except OSError as exc:
        docs, failed = [], [failed_document(shown, _cannot_read(exc))]
    except Exception as exc:  # noqa: BLE001 — the upload boundary: report, never raise
        docs, failed = [], [failed_document(shown, notice(CRASHED, error=_one_line(exc)))]
    info = LoadedFile(
        shown,
        encoding,
        len(docs),
        len(failed),
        round(budget.elapsed, 4),
        tuple(map(english, notes)),
        notes,
    )
    return docs, failed, info


def _check_budget(time_budget_s: float | None) -> None:
    if time_budget_s is not None and not time_budget_s > 0:
        raise ValueError(
            f"time_budget_s = {time_budget_s!r} must be a positive number of seconds or None"
        )


def load_bytes(
    name: str,
    data: bytes,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    time_budget_s: float | None = DEFAULT_TIME_BUDGET_S,
) -> LoadReport:
    """Load an upload: ``name`` gives the extension and the doc id (its stem).

    Never raises for bad content: every problem is a ``FailedDocument``; a file
    taking longer than ``time_budget_s`` seconds to parse is one too.
    """
    if not isinstance(data, (bytes, bytearray)):
        raise ValueError(f"data for {name!r} must be bytes, not {type(data).__name__}")
    _check_budget(time_budget_s)
    docs, failed, info = _load(name, bytes(data), "", len(data), max_bytes, None, time_budget_s)
    return _finish(docs, failed, [info])


def load_batch(
    files: Sequence[tuple[str, bytes]],
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    time_budget_s: float | None = DEFAULT_TIME_BUDGET_S,
) -> LoadReport:
    """Load uploaded ``(name, bytes)`` pairs; a file that fails never stops the others."""
    return merge_reports(
        [load_bytes(n, d, max_bytes=max_bytes, time_budget_s=time_budget_s) for n, d in files]
    )


def merge_reports(reports: Sequence[LoadReport]) -> LoadReport:
    """Concatenate reports in order; a doc id seen before becomes a failure (first wins).

    A one-file report's counts move a document dropped as a duplicate from
    loaded to failed, so the per-file lines add up to the whole.
    """
    seen: set[str] = set()
    files: list[LoadedFile] = []
    for r in reports:
        dup = sum(d.doc_id in seen for d in r.documents)
        seen.update(d.doc_id for d in r.documents)
        if dup and len(r.files) == 1:
            f = r.files[0]
            files.append(replace(f, n_documents=f.n_documents - dup, n_failed=f.n_failed + dup))
        else:
            files.extend(r.files)
    return _finish(
        [d for r in reports for d in r.documents],
        [f for r in reports for f in r.failed],
        files,
    )


def load_file(
    path: str | Path,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    time_budget_s: float | None = DEFAULT_TIME_BUDGET_S,
) -> LoadReport:
    """Load one file (a row file may yield many documents)."""
    _check_budget(time_budget_s)
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError as exc:
        failure = failed_document(str(p), _cannot_read(exc))
        return LoadReport((), (failure,), (LoadedFile(str(p), n_failed=1),))
    if not p.is_file():
        return LoadReport(
            (),
            (failed_document(str(p), notice(NOT_A_FILE)),),
            (LoadedFile(str(p), n_failed=1),),
        )
    docs, failed, info = _load(p.name, None, str(p), size, max_bytes, p.read_bytes, time_budget_s)
    return _finish(docs, failed, [info])


def load_paths(
    paths: Iterable[str | Path],
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    time_budget_s: float | None = DEFAULT_TIME_BUDGET_S,
) -> LoadReport:
    """Load several files; duplicate doc ids after the first become failures."""
    # keep the files' own order so "first loaded wins" follows the given order
    return merge_reports(
        [load_file(p, max_bytes=max_bytes, time_budget_s=time_budget_s) for p in paths]
    )


def _walk(root: Path) -> list[Path]:
    """Files under ``root``, sorted; a dangling link is kept (it is reported, not skipped)."""
    out: list[Path] = []
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).parts
        if any(part.startswith(".") for part in rel):
            continue
        if any(part == "questions" for part in rel[:-1]) or (p.is_dir()):
            continue
        if p.is_file() or p.is_symlink():
            out.append(p)
    return out


def load_directory(directory: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> LoadReport:
    """Load every file under ``directory`` (recursive, sorted paths).

    Hidden files and folders (names starting with ``.``) and any folder named
    ``questions`` are skipped; files of unsupported types become failures.
    """
    root = Path(directory)
    if not root.is_dir():
        raise ValueError(f"{str(root)!r} is not a directory")
    return load_paths(_walk(root), max_bytes=max_bytes)


def load_corpus(directory: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> LoadReport:
    """Load a corpus folder: ``dir/docs`` if present, a BEIR ``corpus.jsonl``, else ``dir``.

    A path to a single file loads that file.
    """
    root = Path(directory)
    if root.is_file():
        return load_file(root, max_bytes=max_bytes)
    if not root.is_dir():
        raise ValueError(f"corpus {str(root)!r} is neither a directory nor a file")
    if (root / "docs").is_dir():
        return load_directory(root / "docs", max_bytes=max_bytes)
    if (root / "corpus.jsonl").is_file():
        return load_file(root / "corpus.jsonl", max_bytes=max_bytes)
    return load_directory(root, max_bytes=max_bytes)


def beir_qrels_path(root: Path, split: str = "test") -> Path:
    """``qrels/<split>.tsv`` when it exists, else ``qrels.tsv`` (both BEIR layouts)."""
    if not isinstance(split, str) or not split.strip() or "/" in split or "\\" in split:
        raise _fail(BEIR_BAD_SPLIT, split=repr(split))
    nested = root / "qrels" / f"{split}.tsv"
    if nested.is_file():
        return nested
    flat = root / "qrels.tsv"
    if flat.is_file():
        return flat
    splits = (
        sorted(p.stem for p in (root / "qrels").glob("*.tsv")) if (root / "qrels").is_dir() else []
    )
    folder = repr(str(root))
    if splits:
        raise _fail(BEIR_NO_QRELS_SPLITS, folder=folder, split=split, splits=", ".join(splits))
    raise _fail(BEIR_NO_QRELS, folder=folder, split=split)


def _with_title(doc: Document) -> Document:
    """``title + "\n\n" + text`` as the document text (Pyserini's BEIR "flat" contents).

    A row without a title gets its doc id as title (see :func:`_row_document`);
    such a document keeps its text as is.
    """
    if not doc.title or doc.title == doc.doc_id:
        return doc
    text = f"{doc.title}\n\n{doc.text}"
    return Document(
        doc_id=doc.doc_id,
        title=doc.title,
        text=text,
        source=doc.source,
        version=doc.version,
        path=doc.path,
        format=doc.format,
        blocks=markdown_blocks(text),
        metadata=doc.metadata,
    )


def load_beir(
    directory: str | Path,
    *,
    split: str = "test",
    title_in_text: bool = False,
    duplicates: dict[str, int] | None = None,
    time_budget_s: float | None = None,
) -> tuple[LoadReport, dict[str, str], dict[str, dict[str, int]]]:
    """Load a BEIR folder: ``corpus.jsonl``, ``queries.jsonl``, ``qrels/<split>.tsv`` or
    ``qrels.tsv``.

    Returns:
        ``(corpus report, {query id: text}, {query id: {doc id: grade}})``.
        The qrels file has a header line and ``query-id\tcorpus-id\tscore``
        rows (ids may contain spaces). ``qrels/<split>.tsv`` is used when it
        exists, else ``qrels.tsv``. The corpus is loaded without the size cap
        and, unless ``time_budget_s`` is given (an uploaded zip's corpus), without
        the time budget (a BEIR folder is chosen on purpose).
        With ``title_in_text`` a document's text is ``title + "\n\n" + text``
        (what BEIR's and Pyserini's BM25 baselines index; offsets refer to it).

        A query id or a (query, document) judgement that repeats keeps its first
        line; with ``duplicates`` (a dict) the repeats are counted into it under
        ``documents`` (corpus rows whose ``_id`` repeats: failures of the report),
        ``queries`` and ``judgements``, so the caller can say how many were dropped.

    Raises:
        ValueError: a missing folder or file, or a malformed query / qrels line (named).
    """
    corpus, queries_path, qrels_path = _beir_files(Path(directory), split)
    _check_budget(time_budget_s)
    report = load_file(
        corpus, max_bytes=max(DEFAULT_MAX_BYTES, corpus.stat().st_size), time_budget_s=time_budget_s
    )
    if title_in_text:
        report = LoadReport(
            tuple(_with_title(d) for d in report.documents), report.failed, report.files
        )
    queries, repeated_queries = _beir_queries(queries_path)
    qrels, repeated_judgements = _beir_qrels(qrels_path)
    if duplicates is not None:
        duplicates["documents"] = sum(
            f.notice is not None and f.notice.code in (DUPLICATE, DUPLICATE_EARLIER)
            for f in report.failed
        )
        duplicates["queries"] = repeated_queries
        duplicates["judgements"] = repeated_judgements
    return report, queries, qrels


def _beir_files(root: Path, split: str) -> tuple[Path, Path, Path]:
    """The corpus, queries and qrels files of BEIR folder ``root``; ``ValueError`` naming the
    one missing."""
    if not root.is_dir():
        raise _fail(BEIR_NO_FOLDER, folder=repr(str(root)))
    corpus = root / "corpus.jsonl"
    queries_path = root / "queries.jsonl"
    for p in (corpus, queries_path):
        if not p.is_file():
            raise _fail(BEIR_LACKS, folder=repr(str(root)), name=p.name)
    return corpus, queries_path, beir_qrels_path(root, split)


def _beir_queries(path: Path) -> tuple[dict[str, str], int]:
    """``queries.jsonl`` → ``{query id: text}`` (the first line of a repeated id) and how many
    lines repeated one."""
    queries: dict[str, str] = {}
    repeated = 0
    lines = decode_bytes(path.read_bytes()).lstrip("\ufeff").split("\n")
    for no, row in json_rows(lines, path.name):
        if not isinstance(row, dict) or "_id" not in row or not isinstance(row.get("text"), str):
            raise _fail_at(_line(path.name, no), BEIR_BAD_QUERY)
        qid = str(row["_id"])
        if qid in queries:
            repeated += 1
            continue
        queries[qid] = canonicalize(row["text"])
    return queries, repeated


def _beir_qrels(path: Path) -> tuple[dict[str, dict[str, int]], int]:
    """A BEIR ``qrels.tsv`` (an optional header, then ``query-id<TAB>corpus-id<TAB>score``) →
    ``{query id: {doc id: grade}}`` (a repeated judgement keeps its first line) and how many
    lines repeated one."""
    qrels: dict[str, dict[str, int]] = {}
    repeated = 0
    lines = decode_bytes(path.read_bytes()).lstrip("\ufeff").split("\n")
    for no, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        cells = line.split("\t")
        if no == 1 and cells[0].strip().lower() in ("query-id", "query_id", "qid"):
            continue
        if len(cells) != 3:
            raise _fail_at(_line(path.name, no), BEIR_QRELS_CELLS, found=len(cells))
        score = guard.grade(cells[2], _line(path.name, no), "score")
        judged = qrels.setdefault(cells[0], {})
        if cells[1] in judged:
            repeated += 1
            continue
        judged[cells[1]] = score
    return qrels, repeated
