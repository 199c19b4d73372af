"""``tokens``: windows of ``target`` embedding tokens overlapping by ``overlap`` tokens.

Windows are cut over the embedding tokenizer's tokens (no special tokens);
each chunk's char span runs from its first token's start to its last token's
end as the tokenizer's offset mapping gives them (never from decode).

WordPiece maps a word longer than ``max_input_chars_per_word`` (100 for
MiniLM) to a single ``[UNK]`` spanning the whole word — a 2 MB line without
spaces would be one token and one chunk. Such a word is cut into pieces of
that many characters, each tokenized on its own (:func:`split_long_words`);
a window ending inside it is a *hard cut* (``Chunk.hard_cut``). A piece can
still be one ``[UNK]``: WordPiece counts a word's length after its normalizer
(a Hangul syllable is 2–3 jamo) and gives ``[UNK]`` for a word with any
unknown piece (alone, 9,702 of the 11,172 Hangul syllables are ``[UNK]`` to
MiniLM).

The count shown is the real one: ``Chunk.tokens`` is always the encoder's
count of the chunk's text (:func:`rag_core.chunking.chunk_document`, with
[CLS]/[SEP] and the header), and the chunk is cut so that this is the count
its window held (up to a word that a window edge splits, re-tokenized alone).
A window never joins two pieces of a cut word (:func:`piece_windows`): joined
again in one chunk they are one over-long word, which the encoder reads as
one ``[UNK]`` (a spaceless Korean line cut in windows of 256 pieces gave
chunks of 25,600 characters counted as 3 tokens). So each piece ends a chunk,
and a window over a spaceless run holds at most one piece.
"""

from __future__ import annotations

import bisect

from ..config import ChunkerConfig
from ..models.tokenizer import max_word_chars, piece_offsets, token_offsets
from ..types import Document
from .base import CHUNKERS, SectionIndex, Span


def split_long_words(
    text: str, offsets: list[tuple[int, int]], max_chars: int, tokenize: object
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int]]:
    """Offsets with every token longer than ``max_chars`` chars re-tokenized in ``max_chars``
    pieces.

    ``tokenize(pieces)`` returns each piece's offsets relative to the piece.
    Returns the new offsets, the ``(start, end)`` of every word so split (a
    window ending strictly inside one cuts that word: a hard cut), and the
    index (into the new offsets) of the first token of every piece but a
    word's first (the breaks a window must not span).
    """
    if all(e - s <= max_chars for s, e in offsets):
        return offsets, [], []
    out: list[tuple[int, int]] = []
    words: list[tuple[int, int]] = []
    breaks: list[int] = []
    for s, e in offsets:
        if e - s <= max_chars:
            out.append((s, e))
            continue
        words.append((s, e))
        starts = list(range(s, e, max_chars))
        pieces = [text[a : min(a + max_chars, e)] for a in starts]
        for i, (a, rel) in enumerate(zip(starts, tokenize(pieces), strict=True)):  # type: ignore[operator]
            if i:
                breaks.append(len(out))
            out.extend((a + x, a + y) for x, y in rel if y > x)
    return out, words, breaks


def token_windows(n_tokens: int, window: int, overlap: int) -> list[tuple[int, int]]:
    """Token windows ``[start, end)`` with ``step = window - overlap``.

    Windows start at ``0, step, 2·step, …`` while the previous window did not
    reach the end, so there are ``ceil((n - overlap) / step)`` of them for
    ``n > window`` (1 for ``0 < n <= window``, 0 for ``n = 0``), and the tokens
    indexed (with repeats) sum to ``Σ (end - start)``.

    Raises:
        ValueError: ``n_tokens < 0``, ``window < 1`` or not ``0 <= overlap < window``.
    """
    for name, value in (("n_tokens", n_tokens), ("window", window), ("overlap", overlap)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name} = {value!r} must be an integer")
    if n_tokens < 0:
        raise ValueError(f"n_tokens = {n_tokens} must be >= 0")
    if window < 1:
        raise ValueError(f"window = {window} must be >= 1")
    if not 0 <= overlap < window:
        raise ValueError(f"overlap = {overlap} must be >= 0 and smaller than window = {window}")
    step = window - overlap
    out: list[tuple[int, int]] = []
    start = 0
    while n_tokens > 0:
        end = min(start + window, n_tokens)
        out.append((start, end))
        if end >= n_tokens:
            break
        start += step
    return out


def piece_windows(
    n_tokens: int, window: int, overlap: int, breaks: list[int]
) -> list[tuple[int, int]]:
    """:func:`token_windows` over each run of tokens between ``breaks``.

    A break ``b`` (``0 < b < n_tokens``) is a token index no window spans: one
    window ends at ``b`` and the next starts there (no overlap across it).
    """
    edges = [0, *sorted({b for b in breaks if 0 < b < n_tokens}), n_tokens]
    out: list[tuple[int, int]] = []
    for a, b in zip(edges, edges[1:], strict=False):
        out.extend((a + s, a + e) for s, e in token_windows(b - a, window, overlap))
    return out


@CHUNKERS.register("tokens")
def token_spans(doc: Document, cfg: ChunkerConfig) -> list[Span]:
    """One span per token window; ``cfg.target``/``cfg.overlap`` count tokens.

    Windows do not span the pieces of a cut word (:func:`piece_windows`).

    ``own_start`` is the char start of the first token not shared with the
    previous window. Jamo word-pieces of one Hangul syllable share its char
    span, so a window edge inside a syllable makes neighbouring chunks share
    that character.
    """
    offsets, words, breaks = split_long_words(
        doc.text, token_offsets(doc.text), max_word_chars(), piece_offsets
    )
    word_starts = [w[0] for w in words]

    def inside_word(pos: int) -> bool:
        i = bisect.bisect_right(word_starts, pos) - 1
        return i >= 0 and words[i][0] < pos < words[i][1]

    index = SectionIndex(doc.text)
    out: list[Span] = []
    prev_end = 0
    for i, (s, e) in enumerate(piece_windows(len(offsets), cfg.target, cfg.overlap, breaks)):
        start = offsets[s][0]
        end = offsets[e - 1][1]
        own = start if i == 0 else offsets[prev_end][0]
        prev_end = e
        out.append(Span(own, end, index.title_at(own), start=start, hard_cut=inside_word(end)))
    return out
