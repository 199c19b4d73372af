"""HTML (``.html``, ``.htm``) → a Document of its visible text, one paragraph per block.

Parsed with the forgiving stdlib :class:`html.parser.HTMLParser` (see :func:`parse_html`).
"""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser

from ...types import Block, Document, Notice
from ...wording import declare, notice
from ..decoding import is_blank
from ._common import NO_BUDGET, Budget, canonicalize, fail

#: Why an HTML file failed, and its load note (``load.*``).
EMPTY_HTML = declare("load.empty_html")
NOTE_OPEN_NAV = declare("load.note.open_nav")

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

    def __init__(self, budget: Budget = NO_BUDGET, *, keep_nav: bool = False) -> None:
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
    return parse_html_with_notes(text, stem, path=path)[0]


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


def parse_html_with_notes(
    text: str, stem: str, *, path: str = "", budget: Budget = NO_BUDGET
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
        raise fail(EMPTY_HTML)
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
