"""Gold evidence ↔ chunks: which chunks hold a needle entirely.

A chunk is relevant to a needle when its ``content`` contains the needle's
span entirely: ``chunk.start <= needle.start`` and ``needle.end <= chunk.end``
in the document's canonical text (equivalent to
``needle.text in chunk.content`` at that position). Labels are document
spans, so they survive re-chunking.

Chunks are indexed per document and sorted by ``start``; a needle's
candidates are found by bisection, so a whole question set against a corpus'
chunks takes milliseconds.

Document-level gold (qrels of a BEIR/TREC set, ``Needle.origin == "qrels"``)
names a whole document: its span is the whole text and *every* chunk of the
document is relevant (a document is found when any of its chunks is).
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..types import DOC_LEVEL, Chunk, Document, Needle


def is_document_level(needle: Needle) -> bool:
    """True for a qrels judgement of a whole document (not a text span)."""
    return needle.origin == DOC_LEVEL


def locate(doc_text: str, needle: Needle) -> tuple[int, int] | None:
    """The needle's ``(start, end)`` in ``doc_text``, or None when absent.

    Uses ``needle.start``/``needle.end`` when both are set and
    ``doc_text[start:end] == needle.text``; otherwise finds the text. A needle
    of a question set must occur exactly once — when it occurs several times
    the first occurrence is returned (the corpus validator reports it).
    """
    if is_document_level(needle):
        return 0, len(doc_text)
    if needle.start is not None and needle.end is not None:
        s, e = needle.start, needle.end
        if 0 <= s <= e <= len(doc_text) and doc_text[s:e] == needle.text:
            return s, e
    if not needle.text:
        return None
    i = doc_text.find(needle.text)
    return (i, i + len(needle.text)) if i >= 0 else None


@dataclass(frozen=True)
class _DocChunks:
    starts: list[int]
    chunks: list[Chunk]
    max_len: int

    def containing(self, s: int, e: int) -> list[Chunk]:
        """Chunks with ``start <= s`` and ``end >= e`` (in start order)."""
        hi = bisect.bisect_right(self.starts, s)
        lo = bisect.bisect_left(self.starts, e - self.max_len)
        return [c for c in self.chunks[lo:hi] if c.end >= e]


class ChunkLookup:
    """Chunks indexed by document and start, for containment queries."""

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        per_doc: dict[str, list[Chunk]] = defaultdict(list)
        for c in chunks:
            per_doc[c.doc_id].append(c)
        self._docs: dict[str, _DocChunks] = {}
        for doc_id, lst in per_doc.items():
            lst.sort(key=lambda c: (c.start, c.end, c.ordinal))
            self._docs[doc_id] = _DocChunks(
                [c.start for c in lst], lst, max(c.end - c.start for c in lst)
            )

    def of_doc(self, doc_id: str) -> list[Chunk]:
        """Every chunk of ``doc_id`` (in start order)."""
        entry = self._docs.get(doc_id)
        return list(entry.chunks) if entry else []

    def containing(self, doc_id: str, start: int, end: int) -> list[Chunk]:
        """Chunks of ``doc_id`` whose ``[start, end)`` holds ``[start, end)`` of the needle."""
        entry = self._docs.get(doc_id)
        return entry.containing(start, end) if entry else []


def _text_of(doc: Document | str | None) -> str | None:
    if doc is None:
        return None
    return doc if isinstance(doc, str) else doc.text


def relevant_chunk_ids(
    chunks: Sequence[Chunk],
    needles: Sequence[Needle],
    docs_by_id: Mapping[str, Document | str],
    lookup: ChunkLookup | None = None,
) -> tuple[tuple[str, ...], ...]:
    """Per needle, the ids of the chunks whose content contains it entirely.

    A document-level needle (:func:`is_document_level`) gets every chunk of
    its document. A needle whose document is unknown or whose text is not found gets ``()``.
    ``lookup``: ``ChunkLookup(chunks)``, built once by a caller that asks for many needle sets.
    """
    lookup = lookup if lookup is not None else ChunkLookup(chunks)
    out: list[tuple[str, ...]] = []
    for n in needles:
        text = _text_of(docs_by_id.get(n.doc_id))
        span = locate(text, n) if text is not None else None
        if span is None:
            out.append(())
            continue
        found = (
            lookup.of_doc(n.doc_id) if is_document_level(n) else lookup.containing(n.doc_id, *span)
        )
        hits = sorted(found, key=lambda c: c.ordinal)
        out.append(tuple(c.chunk_id for c in hits))
    return tuple(out)


def grades_for(
    chunks: Sequence[Chunk],
    needles: Sequence[Needle],
    docs_by_id: Mapping[str, Document | str],
    per_needle: Sequence[Sequence[str]] | None = None,
) -> dict[str, int]:
    """``{chunk_id: grade}``: the highest grade among the needles a chunk contains.

    Chunks containing no needle are absent (not relevant). ``per_needle``:
    :func:`relevant_chunk_ids` of the same arguments, when the caller has it already.
    """
    if per_needle is None:
        per_needle = relevant_chunk_ids(chunks, needles, docs_by_id)
    grades: dict[str, int] = {}
    for n, ids in zip(needles, per_needle, strict=True):
        for cid in ids:
            if n.grade > grades.get(cid, -(10**9)):
                grades[cid] = n.grade
    return grades
