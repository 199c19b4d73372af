"""``blind``: a cut every ``target`` characters, blind to the text."""

from __future__ import annotations

from ..config import ChunkerConfig
from ..types import Document
from .base import CHUNKERS, SectionIndex, Span


@CHUNKERS.register("blind")
def blind_spans(doc: Document, cfg: ChunkerConfig) -> list[Span]:
    """Own spans ``[i·target, (i+1)·target)`` over the whole text (the last shorter).

    Content is the raw slice (no trimming); whitespace-only spans are skipped.
    The section is the ``## `` section in which the span starts.
    """
    text = doc.text
    index = SectionIndex(text)
    out: list[Span] = []
    for start in range(0, len(text), cfg.target):
        end = min(start + cfg.target, len(text))
        if text[start:end].strip():
            out.append(Span(start, end, index.title_at(start)))
    return out
