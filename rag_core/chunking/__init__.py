"""Chunkers: documents → :class:`~rag_core.types.Chunk` spans, by named strategy.

Strategies (``config.CHUNK_STRATEGIES``), each a pure function in its module
registered in :data:`CHUNKERS`: ``blind``, ``boundaries``, ``tokens``, ``html``.
:func:`chunk_document` applies the options every strategy shares:

- ``overlap`` N chars (blind, boundaries, html): every chunk but a document's
  first starts N characters before its own words,
  ``start = max(0, own_start - N)``; ``tokens`` overlaps by tokens instead.
- ``header``: ``text = "[Title > Section]\\n" + content`` (``[Title]\\n``
  without a section); the header is never part of ``content``.

Invariant: ``doc.text[chunk.start:chunk.end] == chunk.content``, always.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..config import CHUNK_STRATEGIES, ChunkerConfig
from ..types import Chunk, Document

# Registration order = config.CHUNK_STRATEGIES order (keep these lines in this order).
# isort: off
from . import blind  # noqa: F401
from . import boundaries  # noqa: F401
from . import tokens  # noqa: F401
from . import html  # noqa: F401

# isort: on
from dataclasses import replace

from ..models.tokenizer import count_tokens
from .base import CHUNKERS, Span, make_header, sections
from .diagnostics import diagnose
from .html import skipped_blocks
from .tokens import token_windows

__all__ = [
    "CHUNKERS",
    "Span",
    "chunk_corpus",
    "chunk_document",
    "diagnose",
    "make_header",
    "sections",
    "skipped_blocks",
    "token_windows",
]

if CHUNKERS.names() != CHUNK_STRATEGIES:  # pragma: no cover - wiring check
    raise RuntimeError(
        f"chunkers {CHUNKERS.names()} do not match config.CHUNK_STRATEGIES {CHUNK_STRATEGIES}"
    )


def _build(doc: Document, cfg: ChunkerConfig) -> list[Chunk]:
    spans = CHUNKERS.get(cfg.strategy)(doc, cfg)
    signature = cfg.signature
    out: list[Chunk] = []
    for ordinal, span in enumerate(spans):
        if span.start is not None:
            start = span.start
        elif ordinal == 0:
            start = span.own_start
        else:
            start = max(0, span.own_start - cfg.overlap)
        header = make_header(doc.title, span.section) if cfg.header else ""
        content = doc.text[start : span.end]
        out.append(
            Chunk(
                chunk_id=f"{doc.doc_id}::{signature}::{ordinal:04d}",
                doc_id=doc.doc_id,
                ordinal=ordinal,
                start=start,
                end=span.end,
                own_start=span.own_start,
                content=content,
                text=header + content,
                section=span.section,
                header=header,
                tokens=None,
                hard_cut=span.hard_cut,
            )
        )
    return out


def _with_tokens(chunks: list[Chunk]) -> list[Chunk]:
    counts = count_tokens([c.text for c in chunks])
    return [replace(c, tokens=n) for c, n in zip(chunks, counts, strict=True)]


def chunk_document(
    doc: Document, cfg: ChunkerConfig, *, count_tokens: bool = True
) -> tuple[Chunk, ...]:
    """Chunk one document with ``cfg``; ``tokens`` = embedding tokens of ``text``.

    Args:
        doc: a loaded document (canonical text).
        cfg: strategy, target, overlap, header, min_chars.
        count_tokens: count each chunk's ``text`` tokens (incl. [CLS]/[SEP]);
            ``tokens`` is None when False.
    """
    chunks = _build(doc, cfg)
    return tuple(_with_tokens(chunks) if count_tokens and chunks else chunks)


def chunk_corpus(
    docs: Iterable[Document],
    cfg: ChunkerConfig,
    *,
    count_tokens: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Chunk, ...]:
    """Chunk every document (in the given order); tokens counted in one batch.

    ``progress(done, total)`` is called after each document.
    """
    docs = list(docs)
    chunks: list[Chunk] = []
    for i, doc in enumerate(docs, 1):
        chunks.extend(_build(doc, cfg))
        if progress is not None:
            progress(i, len(docs))
    if count_tokens and chunks:
        chunks = _with_tokens(chunks)
    return tuple(chunks)
