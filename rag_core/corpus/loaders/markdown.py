"""Markdown and plain text (``.md``, ``.markdown``, ``.txt``) → a Document with its blocks.

An optional front-matter block of ``key: value`` lines between two ``---`` lines gives the
title, source and version (the rest is metadata); :func:`markdown_blocks` finds the
paragraph-like blocks (headings, fenced code, tables, paragraphs).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...types import Block, Document
from ..decoding import is_blank
from ._common import EMPTY, canonicalize, fail

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
        raise fail(EMPTY)
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
