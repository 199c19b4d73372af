"""Diagnostics of one chunking of a corpus (docs/ARCHITECTURE.md, stage catalogue).

- chunk count, chars of ``content`` and embedding tokens of ``text`` (min/mean/max);
- ``over_window``: chunks whose ``text`` has more word-pieces (incl. [CLS]/[SEP])
  than the encoder window — the encoder silently truncates them;
- ``header_tokens``: tokens spent on contextual headers. Measured as the
  word-pieces of the header string alone, without special tokens. For the
  WordPiece tokenizer this is exact: the header ends with ``\\n`` and BERT
  pre-tokenizes on whitespace and punctuation, so
  ``tokens(header + content) = tokens(header) + tokens(content)``;
  ``header_token_share = header_tokens / total_tokens``;
- ``destroyed``: gold needles no chunk's content holds entirely, with the chunk
  boundaries (``own_start``/``end``) strictly inside the needle (``cut_at``).
  Reasons: ``split`` (chunks overlap the needle but none holds it whole),
  ``skipped`` (no chunk touches it: a block the html rule dropped for
  ``min_chars``, or a heading line, which boundaries never chunks);
- ``not_in_corpus``: needles whose document is unknown or whose text is not
  found — no chunking loss, so neither in ``destroyed`` nor in ``n_needles``;
- ``n_hard_cuts``: chunks a chunker ended mid-word because the text had no
  boundary at the target (a spaceless line; see ``Chunk.hard_cut``);
- ``n_skipped_blocks``: for the html strategy, paragraph-like blocks shorter
  than ``min_chars`` that became no chunk.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from ..gold.relevance import locate
from ..models.tokenizer import ENCODER_WINDOW, count_tokens
from ..types import Chunk, ChunkingDiagnostics, Document, Needle, NeedleLoss
from .html import PARAGRAPH_KINDS, document_blocks


def _strategy(chunk: Chunk) -> str:
    parts = chunk.chunk_id.rsplit("::", 2)
    return parts[1].split("-", 1)[0] if len(parts) == 3 else ""


def _skipped_block_count(docs: Mapping[str, Document], chunks: Sequence[Chunk]) -> int:
    """Paragraph-like blocks that are no chunk's own span (html strategy only)."""
    if not chunks or any(_strategy(c) != "html" for c in chunks):
        return 0
    own = {(c.doc_id, c.own_start, c.end) for c in chunks}
    return sum(
        1
        for doc in docs.values()
        for b in document_blocks(doc)
        if b.kind in PARAGRAPH_KINDS and (doc.doc_id, b.start, b.end) not in own
    )


def needle_loss(
    doc: Document | None, needle: Needle, doc_chunks: Sequence[Chunk]
) -> NeedleLoss | None:
    """Why ``needle`` is in no chunk of ``doc_chunks`` (sorted by start), or None when it is."""
    if doc is None:
        return NeedleLoss(needle.doc_id, needle.text, None, None, (), "not in corpus")
    span = locate(doc.text, needle)
    if span is None:
        return NeedleLoss(needle.doc_id, needle.text, None, None, (), "not in corpus")
    s, e = span
    starts = [c.start for c in doc_chunks]
    upto = bisect.bisect_right(starts, s)
    if any(c.end >= e for c in doc_chunks[:upto]):
        return None
    touching = [c for c in doc_chunks if c.start < e and c.end > s]
    cuts = sorted({p for c in doc_chunks for p in (c.own_start, c.end) if s < p < e})
    reason = "split" if touching else "skipped"
    return NeedleLoss(needle.doc_id, needle.text, s, e, tuple(cuts), reason)


def diagnose(
    docs: Iterable[Document] | Mapping[str, Document],
    chunks: Sequence[Chunk],
    *,
    needles: Sequence[Needle] = (),
    window: int = ENCODER_WINDOW,
) -> ChunkingDiagnostics:
    """Facts about one chunking (module docstring).

    Args:
        docs: the chunked documents (a sequence or ``{doc_id: doc}``).
        chunks: their chunks; token fields are None when any chunk has no count.
        needles: gold needles to check for destruction.
        window: the encoder window in word-pieces (special tokens included).
    """
    if isinstance(window, bool) or not isinstance(window, int) or window < 1:
        raise ValueError(f"window = {window!r} must be a positive integer")
    by_id = dict(docs) if isinstance(docs, Mapping) else {d.doc_id: d for d in docs}
    chars = [len(c.content) for c in chunks]
    counted = bool(chunks) and all(c.tokens is not None for c in chunks)
    tokens = [int(c.tokens or 0) for c in chunks] if counted else []
    over = tuple(c.chunk_id for c, n in zip(chunks, tokens, strict=False) if n > window)
    header_tokens: int | None = None
    total_tokens: int | None = None
    share: float | None = None
    if counted:
        headers = sorted({c.header for c in chunks if c.header})
        per_header = dict(zip(headers, count_tokens(headers, special=False), strict=True))
        header_tokens = sum(per_header.get(c.header, 0) for c in chunks)
        total_tokens = sum(tokens)
        share = header_tokens / total_tokens if total_tokens else 0.0
    per_doc: dict[str, list[Chunk]] = defaultdict(list)
    for c in chunks:
        per_doc[c.doc_id].append(c)
    for lst in per_doc.values():
        lst.sort(key=lambda c: (c.start, c.end))
    losses = [
        loss
        for n in needles
        if (loss := needle_loss(by_id.get(n.doc_id), n, per_doc.get(n.doc_id, []))) is not None
    ]
    destroyed = tuple(x for x in losses if x.reason != "not in corpus")
    missing = tuple(x for x in losses if x.reason == "not in corpus")
    return ChunkingDiagnostics(
        n_chunks=len(chunks),
        n_documents=len(by_id),
        chars_min=min(chars) if chars else 0,
        chars_mean=sum(chars) / len(chars) if chars else 0.0,
        chars_max=max(chars) if chars else 0,
        tokens_min=min(tokens) if counted else None,
        tokens_mean=sum(tokens) / len(tokens) if counted else None,
        tokens_max=max(tokens) if counted else None,
        encoder_window=window,
        over_window=over,
        header_tokens=header_tokens,
        total_tokens=total_tokens,
        header_token_share=share,
        destroyed=destroyed,
        n_needles=len(needles) - len(missing),
        n_skipped_blocks=_skipped_block_count(by_id, chunks),
        not_in_corpus=missing,
        n_hard_cuts=sum(1 for c in chunks if c.hard_cut),
    )
