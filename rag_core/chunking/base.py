"""Shared pieces of the chunkers: spans, sections, the registry.

A chunker is a pure function ``(doc, cfg) -> list[Span]`` that says where each
chunk's *own* words are (``own_start``, ``end``) and which ``## `` section it
belongs to. :func:`rag_core.chunking.chunk_document` turns spans into
:class:`~rag_core.types.Chunk` objects, applying the ``overlap`` and ``header``
options the same way for every strategy.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..config import ChunkerConfig
from ..registry import Registry
from ..types import Document


@dataclass(frozen=True)
class Span:
    """Where one chunk's own words lie in ``doc.text``.

    ``start`` is ``None`` when the shared char ``overlap`` option decides it;
    a chunker that overlaps by its own unit (``tokens``) sets it.
    """

    own_start: int
    end: int
    section: str = ""
    start: int | None = None
    hard_cut: bool = False  # ends mid-word: no boundary at the target


def hard_pieces(text: str, start: int, end: int, limit: int) -> list[tuple[int, int, bool]]:
    """``text[start:end]`` with every word (run of non-whitespace) longer than
    ``limit`` chars cut into ``limit``-char pieces.

    Returns ``(start, end, hard)`` pieces covering the span in order; ``hard``
    marks a piece that ends mid-word. Text without such a word is one piece.
    """
    if limit < 1:
        raise ValueError(f"limit = {limit} must be >= 1")
    out: list[tuple[int, int, bool]] = []
    pos = start
    for m in re.finditer(rf"\S{{{limit + 1},}}", text[start:end]):
        ws, we = start + m.start(), start + m.end()
        if ws > pos:
            out.append((pos, ws, False))
        for p in range(ws, we, limit):
            out.append((p, min(p + limit, we), p + limit < we))
        pos = we
    if end > pos:
        out.append((pos, end, False))
    return out


Chunker = Callable[[Document, ChunkerConfig], list[Span]]

#: Chunkers by name (the names of ``config.CHUNK_STRATEGIES``).
CHUNKERS: Registry[Chunker] = Registry("chunker")

#: A section heading: a line starting with ``## ``.
SECTION_HEADING = re.compile(r"^## (.*)$", re.M)


@dataclass(frozen=True)
class Section:
    """A ``## `` section: ``heading_start`` is the heading line's start (or 0),
    ``body_start`` where its text begins (after the heading line), ``end``
    where the next heading line starts (or the text's end)."""

    title: str
    heading_start: int
    body_start: int
    end: int


def sections(text: str) -> list[Section]:
    """Split ``text`` at ``## `` heading lines.

    Text before the first heading (possibly empty) is a section with an empty
    title; the heading line itself belongs to no section body.
    """
    heads = list(SECTION_HEADING.finditer(text))
    out: list[Section] = []
    first = heads[0].start() if heads else len(text)
    out.append(Section("", 0, 0, first))
    for i, m in enumerate(heads):
        body = min(m.end() + 1, len(text))
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        out.append(Section(m.group(1).strip(), m.start(), body, end))
    return out


class SectionIndex:
    """``title_at(pos)``: the ``## `` section a position falls in (by heading line start)."""

    def __init__(self, text: str) -> None:
        secs = sections(text)
        self._starts = [s.heading_start for s in secs]
        self._titles = [s.title for s in secs]

    def title_at(self, pos: int) -> str:
        return self._titles[bisect.bisect_right(self._starts, pos) - 1]


def make_header(title: str, section: str) -> str:
    """Contextual header: ``[Title > Section]\\n``, or ``[Title]\\n`` without a section."""
    title = " ".join(title.split())
    section = " ".join(section.split())
    return f"[{title} > {section}]\n" if section else f"[{title}]\n"
