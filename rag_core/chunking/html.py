"""``html``: one chunk per paragraph-like block with at least ``min_chars`` characters.

Blocks come from the loader (:attr:`Document.blocks`: HTML elements, or the
paragraphs/tables/code blocks of Markdown). Headings are never chunks; a
block shorter than ``min_chars`` is skipped — visibly lost, which
:func:`skipped_blocks` and the diagnostics report.
"""

from __future__ import annotations

from ..config import ChunkerConfig
from ..corpus.loaders import markdown_blocks
from ..types import Block, Document
from .base import CHUNKERS, Span

#: Block kinds that can become chunks (headings cannot).
PARAGRAPH_KINDS = frozenset(
    {
        "p",
        "li",
        "tr",
        "td",
        "th",
        "pre",
        "blockquote",
        "dd",
        "dt",
        "div",
        "table",
        "caption",
        "figcaption",
        "address",
    }
)


def document_blocks(doc: Document) -> tuple[Block, ...]:
    """The loader's blocks, or Markdown blocks computed from the text when absent."""
    if doc.blocks or not doc.text:
        return doc.blocks

    return markdown_blocks(doc.text)


def _classify(doc: Document, cfg: ChunkerConfig) -> tuple[list[Span], list[Block]]:
    kept: list[Span] = []
    skipped: list[Block] = []
    section = ""
    for block in document_blocks(doc):
        if block.kind == "h2":
            section = doc.text[block.start : block.end].lstrip("#").strip()
        elif block.kind in PARAGRAPH_KINDS:
            if block.end - block.start >= cfg.min_chars:
                kept.append(Span(block.start, block.end, section))
            else:
                skipped.append(block)
    return kept, skipped


@CHUNKERS.register("html")
def html_spans(doc: Document, cfg: ChunkerConfig) -> list[Span]:
    """Paragraph-like blocks of ``>= min_chars`` chars; section = nearest preceding h2."""
    return _classify(doc, cfg)[0]


def skipped_blocks(doc: Document, cfg: ChunkerConfig) -> tuple[Block, ...]:
    """Paragraph-like blocks the html rule dropped for being shorter than ``min_chars``."""
    return tuple(_classify(doc, cfg)[1])
