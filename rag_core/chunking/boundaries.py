"""``boundaries``: paragraphs packed within ``## `` sections, sentence fallback.

The rule:

1. Sections are the ``## `` heading lines; the heading line is not content;
   text before the first heading is a section with an empty title (kept).
2. Within a section, a paragraph is a maximal run of non-empty lines
   (a line with at least one character; regex :data:`PARAGRAPH`).
3. Paragraphs are packed into a chunk while the span from the chunk's first
   paragraph start to the new paragraph's end stays ``<= target``.
4. A paragraph longer than ``target`` closes the open chunk and is split into
   sentences (:data:`SENTENCE`: non-``.!?`` characters, then ``.!?``
   characters, then whitespace), packed the same way among themselves; a
   sentence longer than ``target`` stays one piece (never cut). The last
   sentence chunk is closed with its paragraph: the next paragraph opens a new
   chunk.
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
#: A sentence: non-terminators, terminators, trailing whitespace.
SENTENCE = re.compile(r"[^.!?]*[.!?]*\s*")


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


def sentence_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Non-empty :data:`SENTENCE` matches inside ``text[start:end]``."""
    return [m.span() for m in SENTENCE.finditer(text, start, end) if m.end() > m.start()]


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
            units: list[tuple[int, int]] = []
            for a, b in sentence_spans(text, s, e):
                if b - a <= target:
                    units.append((a, b))
                    continue
                for pa, pb, cut in hard_pieces(text, a, b, target):
                    units.append((pa, pb))
                    if cut and hard is not None:
                        hard.add(pb)
            out.extend(pack(units, target))
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
