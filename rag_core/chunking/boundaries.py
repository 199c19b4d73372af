"""``boundaries``: paragraphs packed within ``## `` sections, sentence fallback.

The rule:

1. Sections are the ``## `` heading lines; the heading line is not content;
   text before the first heading is a section with an empty title (kept).
2. Within a section, a paragraph is a maximal run of non-empty lines
   (a line with at least one character; regex :data:`PARAGRAPH`).
3. Paragraphs are packed into a chunk while the span from the chunk's first
   paragraph start to the new paragraph's end stays ``<= target``.
4. A paragraph longer than ``target`` closes the open chunk and is split into
   sentences (:data:`SENTENCE`: up to a run of the full-width ``。！？．`` or
   half-width ``｡``, so Chinese and Japanese text without spaces has sentences
   too, or of ASCII ``.!?`` followed by whitespace, so a decimal point does not
   end one; then whitespace). A sentence still longer than ``target`` is split
   at its line breaks (:data:`LINE`), a line still longer at its spaces
   (:data:`WORD`), and a word still longer is cut every ``target`` characters
   (:func:`~rag_core.chunking.base.hard_pieces`, ``Span.hard_cut``). These
   pieces are packed the same way among themselves, so no chunk's own span is
   longer than ``target``. The last of them is closed with its paragraph: the
   next paragraph opens a new chunk.
5. Content is the packed span trimmed of surrounding whitespace; offsets are
   positions found in the document, never accumulated lengths.
"""

from __future__ import annotations

import re

from ..config import ChunkerConfig
from ..types import Document
from .base import CHUNKERS, Span, hard_pieces, sections

#: A maximal run of non-empty lines.
PARAGRAPH = re.compile(r"[^\n]+(?:\n[^\n]+)*")
#: A sentence: the shortest run up to a full-width terminator run, or up to an ASCII one (and
#: closing quotes or brackets) followed by whitespace or the end, then trailing whitespace. A
#: decimal point ("3.1", "0.05") is followed by no whitespace and ends nothing, as in
#: :func:`rag_core.text.sentence_spans`.
SENTENCE = re.compile(r"[\s\S]*?(?:[。！？．｡]+|[.!?]+[\"'”’)\]]*(?=\s|\Z)|\Z)\s*")
#: A line with its line break.
LINE = re.compile(r"[^\n]*\n?")
#: A word (run of non-whitespace) with the whitespace after it.
WORD = re.compile(r"\S+\s*")
#: How a piece longer than the target is split, finest last (then :func:`hard_pieces`).
LEVELS = (SENTENCE, LINE, WORD)


def pack(units: list[tuple[int, int]], target: int) -> list[tuple[int, int]]:
    """Greedy packing: extend while ``new_end - first_start <= target``."""
    out: list[tuple[int, int]] = []
    cur: list[int] | None = None
    for s, e in units:
        if cur is None:
            cur = [s, e]
        elif e - cur[0] <= target:
            cur[1] = e
        else:
            out.append((cur[0], cur[1]))
            cur = [s, e]
    if cur is not None:
        out.append((cur[0], cur[1]))
    return out


def split_units(
    text: str, start: int, end: int, target: int, hard: set[int] | None = None, level: int = 0
) -> list[tuple[int, int]]:
    """``text[start:end]`` in pieces of at most ``target`` chars (rule 4).

    Split by ``LEVELS[level]`` (sentences, lines, words), each piece still over
    ``target`` by the next level, and a word over it by :func:`hard_pieces`;
    ``hard`` collects the ends of hard-cut pieces.
    """
    if end - start <= target:
        return [(start, end)]
    if level == len(LEVELS):
        out: list[tuple[int, int]] = []
        for pa, pb, cut in hard_pieces(text, start, end, target):
            out.append((pa, pb))
            if cut and hard is not None:
                hard.add(pb)
        return out
    out = []
    for m in LEVELS[level].finditer(text, start, end):
        if m.end() > m.start():
            out.extend(split_units(text, m.start(), m.end(), target, hard, level + 1))
    return out


def section_spans(
    text: str, start: int, end: int, target: int, hard: set[int] | None = None
) -> list[tuple[int, int]]:
    """Packed (untrimmed) spans of one section body ``text[start:end]``.

    ``hard`` collects the ends of hard-cut pieces (a span ending there was cut mid-word).
    """
    out: list[tuple[int, int]] = []
    open_units: list[tuple[int, int]] = []
    for m in PARAGRAPH.finditer(text, start, end):
        s, e = m.span()
        if e - s > target:
            out.extend(pack(open_units, target))
            open_units = []
            out.extend(pack(split_units(text, s, e, target, hard), target))
        else:
            open_units.append((s, e))
    out.extend(pack(open_units, target))
    return out


@CHUNKERS.register("boundaries")
def boundary_spans(doc: Document, cfg: ChunkerConfig) -> list[Span]:
    """Spans of the boundaries rule (module docstring), trimmed of whitespace."""
    text = doc.text
    out: list[Span] = []
    hard: set[int] = set()
    for sec in sections(text):
        for s, e in section_spans(text, sec.body_start, sec.end, cfg.target, hard):
            cut = e in hard
            while s < e and text[s].isspace():
                s += 1
            while e > s and text[e - 1].isspace():
                e -= 1
            if s < e:
                out.append(Span(s, e, sec.title, hard_cut=cut))
    return out
