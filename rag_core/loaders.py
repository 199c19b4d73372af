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

A file (or row) that cannot be loaded becomes a :class:`FailedDocument` with a
reason; it never stops the other files. Counts are computed from what loaded.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from .types import Block, Document, FailedDocument, LoadReport

MB = 1024 * 1024
#: Default size cap per file.
DEFAULT_MAX_BYTES = 20 * MB
#: How many leading bytes are checked for NUL bytes (binary detection).
BINARY_PROBE = 8192

TEXT_EXTENSIONS = (".md", ".markdown", ".txt")
HTML_EXTENSIONS = (".html", ".htm")
ROW_EXTENSIONS = (".csv", ".json", ".jsonl")
SUPPORTED_EXTENSIONS = tuple(sorted(TEXT_EXTENSIONS + HTML_EXTENSIONS + ROW_EXTENSIONS))

UNDECODABLE = "not text in UTF-8, UTF-8-BOM or CP949/EUC-KR"


class LoadError(Exception):
    """A whole file cannot be loaded; the message is the failure reason."""


# ----------------------------------------------------------------- text basics


def canonicalize(text: str) -> str:
    """Canonical form of a text: CRLF and lone CR become LF, then Unicode NFC."""
    return unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))


def decode_bytes(data: bytes) -> str:
    """Decode bytes as UTF-8, UTF-8 with BOM, then CP949 (a superset of EUC-KR).

    Raises:
        LoadError: when no encoding decodes the bytes strictly.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            pass
    for encoding in ("utf-8", "cp949", "euc-kr"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise LoadError(UNDECODABLE)


def _size_reason(max_bytes: int) -> str:
    if max_bytes >= MB:
        return f"larger than the {max_bytes / MB:g} MB cap"
    return f"larger than the {max_bytes} byte cap"


def _unsupported_reason(ext: str) -> str:
    shown = ext if ext else "(no extension)"
    return f"unsupported file type {shown}; supported: {', '.join(SUPPORTED_EXTENSIONS)}"


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
    if not body.strip():
        raise LoadError("empty")
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

#: Elements whose whole subtree is invisible.
HTML_DROPPED = frozenset({"script", "style", "nav", "noscript", "template", "svg", "head"})
#: Elements without an end tag.
HTML_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
     "source", "track", "wbr"}
)
#: Elements whose text becomes a paragraph of their own kind.
HTML_BLOCKS = frozenset(
    {"p", "li", "dt", "dd", "pre", "blockquote", "caption", "figcaption", "div",
     "h1", "h2", "h3", "h4", "h5", "h6", "address"}
)
#: Containers: they break paragraphs; their loose text is recorded as ``div``.
HTML_CONTAINERS = frozenset(
    {"body", "main", "article", "section", "header", "footer", "aside", "form", "ul", "ol",
     "dl", "figure", "fieldset", "details", "summary", "table", "thead", "tbody", "tfoot",
     "html"}
)


def _is_hidden(attrs: list[tuple[str, str | None]]) -> bool:
    for key, value in attrs:
        if key == "hidden":
            return True
        if key == "style" and value and re.search(r"display\s*:\s*none", value, re.I):
            return True
    return False


class _VisibleText(HTMLParser):
    """Collect visible text as ``(kind, text)`` paragraphs (see :func:`parse_html`)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
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
        if self._row is not None:
            if any(self._row):
                self.paragraphs.append(("tr", " | ".join(self._row)))
        self._row = None

    # -- parser callbacks
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "meta":
            d = {k: (v or "") for k, v in attrs}
            name = d.get("name", "").lower()
            if name in ("source", "version") and "content" in d:
                self.meta[name] = d["content"].strip()
            return
        if tag == "title" and not any(t == "svg" for t, _ in self._stack):
            self._in_title = True
        skipping = tag in HTML_DROPPED or _is_hidden(attrs)
        if tag in HTML_VOID:
            if tag == "br" and not self._skip:
                self._text("\n" if self._pre else " ")
            return
        self._stack.append((tag, skipping))
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
        if tag == "title":
            self._in_title = False
        if tag in HTML_VOID:
            return
        if not any(t == tag for t, _ in self._stack):
            return  # stray end tag
        while self._stack:
            open_tag, skipping = self._stack.pop()
            self._end(open_tag, skipping)
            if open_tag == tag:
                break

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
        if self._in_title:
            self.title_parts.append(data)
            return
        if self._skip:
            return
        self._text(data)

    def close(self) -> None:
        super().close()
        while self._stack:
            self._end(*self._stack.pop())
        self._close_row()
        self._flush()


def parse_html(text: str, stem: str, *, path: str = "") -> Document:
    """Build a Document from HTML: visible text only, one paragraph per block.

    Dropped: ``script``, ``style``, ``nav``, ``noscript``, ``template``, ``svg``,
    ``head`` and any element with a ``hidden`` attribute (or an inline
    ``display: none`` style). Each block element becomes a paragraph separated
    by a blank line; headings become ``#``-heading lines (``## `` for ``h2``);
    a table row becomes one line with cells joined by `` | ``; whitespace is
    collapsed except inside ``pre``. ``Document.blocks`` records each
    paragraph's span and tag.
    """
    parser = _VisibleText()
    parser.feed(canonicalize(text))
    parser.close()
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
    if not body.strip():
        raise LoadError("empty: no visible text")
    title = " ".join("".join(parser.title_parts).split())
    if not title:
        first_h1 = next((b for b in blocks if b.kind == "h1"), None)
        title = body[first_h1.start : first_h1.end].lstrip("#").strip() if first_h1 else stem
    return Document(
        doc_id=stem,
        title=unicodedata.normalize("NFC", title),
        text=body,
        source=parser.meta.get("source", ""),
        version=parser.meta.get("version", ""),
        path=path,
        format="html",
        blocks=tuple(blocks),
    )


# ---------------------------------------------------------------------- rows

_ROW_FIELDS = ("id", "_id", "title", "text", "source", "version")


def _row_document(row: Any, where: str, path: str) -> Document:
    """One row (a mapping) → Document; raises LoadError with the reason."""
    if not isinstance(row, Mapping):
        raise LoadError(f"{where}: not a JSON object (got {type(row).__name__})")
    raw_id = row.get("_id", row.get("id"))
    if raw_id is None or (isinstance(raw_id, str) and not raw_id.strip()):
        raise LoadError(f"{where}: missing 'id' (or BEIR '_id')")
    if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)):
        raise LoadError(f"{where}: 'id' must be a string or an integer, not {raw_id!r}")
    doc_id = str(raw_id).strip()
    text = row.get("text")
    if text is None:
        raise LoadError(f"{where}: missing 'text'")
    if not isinstance(text, str):
        raise LoadError(f"{where}: 'text' must be a string, not {type(text).__name__}")
    text = canonicalize(text)
    if not text.strip():
        raise LoadError(f"{where}: empty 'text'")
    title = row.get("title")
    title = canonicalize(str(title)).strip() if title not in (None, "") else ""
    metadata = {
        str(k): v for k, v in row.items() if k not in _ROW_FIELDS and v not in (None, "")
    }
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


def _json_array_items(text: str, name: str) -> Iterator[tuple[int, Any]]:
    """Yield ``(line number, element)`` of a JSON array, element by element."""
    decoder = json.JSONDecoder()
    ws = re.compile(r"\s*")
    pos = ws.match(text, 0).end()
    if not text.startswith("[", pos):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LoadError(f"{name}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
        raise LoadError(
            f"{name}: a JSON file must hold an array of objects, not a {type(value).__name__}"
        )
    pos = ws.match(text, pos + 1).end()
    if text.startswith("]", pos):
        return
    while True:
        line = text.count("\n", 0, pos) + 1
        try:
            value, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise LoadError(f"{name}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
        yield line, value
        pos = ws.match(text, pos).end()
        if text.startswith(",", pos):
            pos = ws.match(text, pos + 1).end()
            continue
        if text.startswith("]", pos):
            return
        line = text.count("\n", 0, pos) + 1
        raise LoadError(f"{name}: not valid JSON (expected ',' or ']' at line {line})")


def parse_rows(
    text: str, name: str, ext: str, *, path: str = ""
) -> tuple[list[Document], list[FailedDocument]]:
    """Rows of a CSV / JSON array / JSONL file → documents and failed rows.

    Failed rows are reported as ``"<file> line N: reason"``; good rows still load.
    """
    text = text.lstrip("\ufeff")
    docs: list[Document] = []
    failed: list[FailedDocument] = []
    rows: Iterable[tuple[int, Any]]
    if ext == ".jsonl":
        def jsonl_rows() -> Iterator[tuple[int, Any]]:
            for no, line in enumerate(text.split("\n"), 1):
                if not line.strip():
                    continue
                try:
                    yield no, json.loads(line)
                except json.JSONDecodeError as exc:
                    yield no, LoadError(f"{name} line {no}: not valid JSON ({exc.msg})")
        rows = jsonl_rows()
    elif ext == ".json":
        rows = _json_array_items(text, name)
    else:
        reader = csv.reader(io.StringIO(text, newline=""))
        header = next(reader, [])
        columns = [c.strip() for c in header]
        if not ({"id", "_id"} & set(columns)) or "text" not in columns:
            raise LoadError(
                f"{name}: CSV header must name 'id' and 'text' columns; "
                f"found: {', '.join(c for c in columns if c) or 'nothing'}"
            )

        def csv_rows() -> Iterator[tuple[int, Any]]:
            start = reader.line_num + 1
            for cells in reader:
                no, start = start, reader.line_num + 1
                if not any(c.strip() for c in cells):
                    continue
                if len(cells) > len(columns):
                    yield no, LoadError(
                        f"{name} line {no}: {len(cells)} cells "
                        f"but the header has {len(columns)} columns"
                    )
                    continue
                yield no, {c: v for c, v in zip(columns, cells) if c}
        rows = csv_rows()
    for no, row in rows:
        if isinstance(row, LoadError):
            failed.append(FailedDocument(path or name, str(row)))
            continue
        try:
            docs.append(_row_document(row, f"{name} line {no}", path))
        except LoadError as exc:
            failed.append(FailedDocument(path or name, str(exc)))
    return docs, failed


# ------------------------------------------------------------------ entry points


def _stem(name: str) -> str:
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    return base[: base.rfind(".")] if "." in base[1:] else base


def _ext(name: str) -> str:
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    i = base.rfind(".")
    return base[i:].lower() if i > 0 else ""


def _finish(docs: Iterable[Document], failed: Iterable[FailedDocument]) -> LoadReport:
    """Drop duplicate doc ids (as failures) and sort documents by doc_id."""
    seen: dict[str, Document] = {}
    failures = list(failed)
    for doc in docs:
        if doc.doc_id in seen:
            where = seen[doc.doc_id].path or "an earlier file"
            failures.append(
                FailedDocument(
                    doc.path or doc.doc_id,
                    f"duplicate doc_id {doc.doc_id!r} (already loaded from {where})",
                )
            )
            continue
        seen[doc.doc_id] = doc
    documents = tuple(sorted(seen.values(), key=lambda d: d.doc_id))
    return LoadReport(documents=documents, failed=tuple(failures))


def _load(
    name: str, data: bytes | None, path: str, size: int, max_bytes: int, read: Any
) -> tuple[list[Document], list[FailedDocument]]:
    """Apply the checks in order (type, size, binary, empty, decoding) and parse."""
    shown = path or name
    ext = _ext(name)
    if ext not in SUPPORTED_EXTENSIONS:
        return [], [FailedDocument(shown, _unsupported_reason(ext))]
    if size > max_bytes:
        return [], [FailedDocument(shown, _size_reason(max_bytes))]
    try:
        if data is None:
            data = read()
        if b"\x00" in data[:BINARY_PROBE]:
            raise LoadError("binary file")
        if not data.strip():
            raise LoadError("empty")
        text = decode_bytes(data)
        if not text.strip().lstrip("\ufeff").strip():
            raise LoadError("empty")
        stem = _stem(name)
        if ext in TEXT_EXTENSIONS:
            fmt = "txt" if ext == ".txt" else "md"
            return [parse_markdown(text, stem, path=path, fmt=fmt)], []
        if ext in HTML_EXTENSIONS:
            return [parse_html(text, stem, path=path)], []
        base = name.replace("\\", "/").rsplit("/", 1)[-1]
        docs, failed = parse_rows(text, base, ext, path=path)
        return docs, failed
    except LoadError as exc:
        return [], [FailedDocument(shown, str(exc))]
    except OSError as exc:
        return [], [FailedDocument(shown, f"cannot read: {exc.strerror or exc}")]


def load_bytes(name: str, data: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> LoadReport:
    """Load an upload: ``name`` gives the extension and the doc id (its stem)."""
    if not isinstance(data, (bytes, bytearray)):
        raise ValueError(f"data for {name!r} must be bytes, not {type(data).__name__}")
    docs, failed = _load(name, bytes(data), "", len(data), max_bytes, None)
    return _finish(docs, failed)


def load_file(path: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> LoadReport:
    """Load one file (a row file may yield many documents)."""
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError as exc:
        return LoadReport((), (FailedDocument(str(p), f"cannot read: {exc.strerror or exc}"),))
    if not p.is_file():
        return LoadReport((), (FailedDocument(str(p), "not a file"),))
    docs, failed = _load(p.name, None, str(p), size, max_bytes, p.read_bytes)
    return _finish(docs, failed)


def load_paths(paths: Iterable[str | Path], *, max_bytes: int = DEFAULT_MAX_BYTES) -> LoadReport:
    """Load several files; duplicate doc ids after the first become failures."""
    docs: list[Document] = []
    failed: list[FailedDocument] = []
    for path in paths:
        report = load_file(path, max_bytes=max_bytes)
        # keep the file's own order so "first loaded wins" follows the given order
        docs.extend(report.documents)
        failed.extend(report.failed)
    return _finish(docs, failed)


def _walk(root: Path) -> list[Path]:
    out: list[Path] = []
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).parts
        if any(part.startswith(".") for part in rel):
            continue
        if any(part == "questions" for part in rel[:-1]) or (p.is_dir()):
            continue
        if p.is_file():
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
        raise ValueError(f"split = {split!r} must be a name like test, dev or train")
    nested = root / "qrels" / f"{split}.tsv"
    if nested.is_file():
        return nested
    flat = root / "qrels.tsv"
    if flat.is_file():
        return flat
    splits = sorted(p.stem for p in (root / "qrels").glob("*.tsv")) if (root / "qrels").is_dir() else []
    found = f"; splits present: {', '.join(splits)}" if splits else ""
    raise ValueError(f"BEIR folder {str(root)!r} lacks qrels/{split}.tsv and qrels.tsv{found}")


def _with_title(doc: Document) -> Document:
    """``title + "\n\n" + text`` as the document text (Pyserini's BEIR "flat" contents).

    A row without a title gets its doc id as title (see :func:`_row_document`);
    such a document keeps its text as is.
    """
    if not doc.title or doc.title == doc.doc_id:
        return doc
    text = f"{doc.title}\n\n{doc.text}"
    return Document(
        doc_id=doc.doc_id, title=doc.title, text=text, source=doc.source, version=doc.version,
        path=doc.path, format=doc.format, blocks=markdown_blocks(text), metadata=doc.metadata,
    )


def load_beir(
    directory: str | Path,
    *,
    split: str = "test",
    title_in_text: bool = False,
) -> tuple[LoadReport, dict[str, str], dict[str, dict[str, int]]]:
    """Load a BEIR folder: ``corpus.jsonl``, ``queries.jsonl``, ``qrels/<split>.tsv`` or ``qrels.tsv``.

    Returns:
        ``(corpus report, {query id: text}, {query id: {doc id: grade}})``.
        The qrels file has a header line and ``query-id\tcorpus-id\tscore``
        rows (ids may contain spaces). ``qrels/<split>.tsv`` is used when it
        exists, else ``qrels.tsv``. The corpus is loaded without the size cap
        (a BEIR corpus is chosen on purpose, not uploaded). With
        ``title_in_text`` a document's text is ``title + "\n\n" + text`` (what
        BEIR's and Pyserini's BM25 baselines index; offsets refer to it).

    Raises:
        ValueError: a missing folder or file, or a malformed query / qrels line (named).
    """
    root = Path(directory)
    if not root.is_dir():
        raise ValueError(f"BEIR folder {str(root)!r} does not exist or is not a folder")
    corpus = root / "corpus.jsonl"
    queries_path = root / "queries.jsonl"
    for p in (corpus, queries_path):
        if not p.is_file():
            raise ValueError(f"BEIR folder {str(root)!r} lacks {p.name}")
    qrels_path = beir_qrels_path(root, split)
    report = load_file(corpus, max_bytes=max(DEFAULT_MAX_BYTES, corpus.stat().st_size))
    if title_in_text:
        report = LoadReport(tuple(_with_title(d) for d in report.documents), report.failed)
    queries: dict[str, str] = {}
    query_lines = decode_bytes(queries_path.read_bytes()).lstrip("\ufeff").split("\n")
    for no, line in enumerate(query_lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{queries_path.name} line {no}: not valid JSON ({exc.msg})") from None
        if not isinstance(row, dict) or "_id" not in row or not isinstance(row.get("text"), str):
            raise ValueError(f"{queries_path.name} line {no}: a query needs '_id' and 'text'")
        queries[str(row["_id"])] = canonicalize(row["text"])
    qrels: dict[str, dict[str, int]] = {}
    qrels_lines = decode_bytes(qrels_path.read_bytes()).lstrip("\ufeff").split("\n")
    for no, line in enumerate(qrels_lines, 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        cells = line.split("\t")
        if no == 1 and cells[0].strip().lower() in ("query-id", "query_id", "qid"):
            continue
        if len(cells) != 3:
            raise ValueError(
                f"{qrels_path.name} line {no}: expected 3 tab-separated cells "
                f"(query-id, corpus-id, score), found {len(cells)}"
            )
        try:
            score = int(cells[2])
        except ValueError:
            raise ValueError(
                f"{qrels_path.name} line {no}: score {cells[2]!r} is not an integer"
            ) from None
        qrels.setdefault(cells[0], {})[cells[1]] = score
    return report, queries, qrels
