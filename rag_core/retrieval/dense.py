"""Dense retrieval: exact cosine over every chunk, with a stamp that forbids mixing models.

Vectors are L2-normalised, so for a query ``q`` and chunk ``c``:
``cos(q, c) = q · c`` and the cosine distance ``1 − cos = ‖q − c‖² / 2``
(the identity the tests check on real vectors). The index is a plain
``(n, d)`` float32 matrix: one matrix-vector product scores all chunks, so
any candidate — found by BM25 or dense — can be given its distance.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rag_core.config import PIPELINE_VERSION
from rag_core.hashing import sha256_pairs
from rag_core.models.embcache import EmbeddingCache, embed_cached
from rag_core.models.embedders import Embedder, l2_normalise
from rag_core.types import Chunk, IndexStamp, Notice
from rag_core.wording import declare, notice

#: ``retrieval.dense_model = auto`` picks one of these by the corpus' languages.
AUTO_MULTILINGUAL = "e5-small"
AUTO_ENGLISH = "minilm"
#: A document counts as Korean when at least this share of its letters is Hangul.
KOREAN_SHARE = 0.3


def hangul_share(text: str) -> float:
    """Hangul syllables and jamo / all letters of ``text`` (0 when it has no letter)."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return 0.0
    ko = sum(
        1
        for ch in letters
        if "\uac00" <= ch <= "\ud7a3" or "\u1100" <= ch <= "\u11ff" or "\u3130" <= ch <= "\u318f"
    )
    return ko / len(letters)


def korean_documents(texts: Sequence[str]) -> int:
    """How many of ``texts`` are Korean (``hangul_share >= KOREAN_SHARE``)."""
    return sum(1 for t in texts if hangul_share(t) >= KOREAN_SHARE)


#: Why ``auto`` chose the embedder it did (``CorpusIndex.dense_choice``).
DENSE_CHOICE_KOREAN = declare("dense.choice.korean", "korean", "documents", "model", "english")
DENSE_CHOICE_ENGLISH = declare("dense.choice.english", "documents", "model")
DENSE_CHOICE_SET = declare("dense.choice.set", "model")


def choose_dense_model(texts: Sequence[str]) -> tuple[str, Notice]:
    """``(model, why)`` for ``dense_model = auto``.

    A corpus with at least one Korean document (``hangul_share >= KOREAN_SHARE``)
    gets the multilingual :data:`AUTO_MULTILINGUAL` (multilingual-e5-small; the
    English MiniLM maps Korean text to unrelated neighbours); an English-only
    corpus keeps :data:`AUTO_ENGLISH` (MiniLM).
    """
    n_ko = korean_documents(texts)
    if n_ko:
        return AUTO_MULTILINGUAL, notice(
            DENSE_CHOICE_KOREAN,
            korean=n_ko,
            documents=len(texts),
            model=AUTO_MULTILINGUAL,
            english=AUTO_ENGLISH,
        )
    return AUTO_ENGLISH, notice(DENSE_CHOICE_ENGLISH, documents=len(texts), model=AUTO_ENGLISH)


def _fingerprint(chunks: Sequence[Chunk]) -> str:
    """sha256 over ``chunk_id`` and embedded ``text`` of every chunk, in order."""
    return sha256_pairs((c.chunk_id, c.text) for c in chunks)


@dataclass
class DenseIndex:
    """Normalised chunk vectors with the stamp of what built them.

    Attributes:
        chunk_ids: Row order of :attr:`vectors`.
        vectors: ``(n, d)`` float32, rows of unit length.
        stamp: Model id, dimension, normalisation, chunker signature, pipeline version.
        embedder: The embedder used (queries given as text are encoded with it).
        token_counts: Embedding-tokenizer tokens of each chunk's ``text``.
        over_window: Chunk ids whose ``text`` exceeds the model window
            (silently truncated when ``embedder.truncates``).
        embedded: Texts actually encoded by this build (the rest came from the cache).
        build_seconds: Wall time of :meth:`build`.
    """

    chunk_ids: tuple[str, ...]
    vectors: np.ndarray
    stamp: IndexStamp
    embedder: Embedder | None = None
    token_counts: tuple[int, ...] = ()
    over_window: tuple[str, ...] = ()
    embedded: int = 0
    build_seconds: float = 0.0

    @classmethod
    def build(
        cls,
        chunks: Sequence[Chunk],
        embedder: Embedder,
        *,
        chunker_signature: str,
        cache: EmbeddingCache | None = None,
        progress: Callable[[int, int], None] | None = None,
        batch_size: int = 32,
    ) -> DenseIndex:
        """Embed every chunk's ``text`` (header included) with ``embedder``.

        Args:
            chunks: The chunks, in index order.
            embedder: Any :class:`~rag_core.models.embedders.Embedder`.
            chunker_signature: ``ChunkerConfig.signature`` of the chunking.
            cache: Embedding cache; only texts it lacks are encoded.
            progress: ``progress(done, total)`` over the texts being encoded.
            batch_size: Encoder batch size.
        """
        t0 = time.perf_counter()
        chunks = list(chunks)
        texts = [c.text for c in chunks]
        ids = tuple(c.chunk_id for c in chunks)
        if len(set(ids)) != len(ids):
            raise ValueError("chunk ids are not unique; a dense index needs one row per chunk")

        def encode(batch: list[str]) -> np.ndarray:
            return embedder.encode_passages(batch, batch_size=batch_size, progress=progress)

        vectors, embedded = embed_cached(
            encode, embedder.model_id, embedder.dimension, texts, cache
        )
        if progress and not embedded:
            progress(len(texts), len(texts))
        counts = tuple(embedder.count_tokens(texts)) if texts else ()
        over = tuple(cid for cid, n in zip(ids, counts, strict=True) if n > embedder.max_tokens)
        stamp = IndexStamp(
            pipeline_version=PIPELINE_VERSION,
            chunker_signature=chunker_signature,
            corpus_fingerprint=_fingerprint(chunks),
            n_documents=len({c.doc_id for c in chunks}),
            n_chunks=len(chunks),
            embedding_model=embedder.model_id,
            dimension=embedder.dimension,
            normalized=True,
        )
        return cls(
            chunk_ids=ids,
            vectors=l2_normalise(vectors)
            if len(texts)
            else np.zeros((0, embedder.dimension), np.float32),
            stamp=stamp,
            embedder=embedder,
            token_counts=counts,
            over_window=over,
            embedded=embedded,
            build_seconds=time.perf_counter() - t0,
        )

    # ------------------------------------------------------------- checks
    def check_compatible(self, embedder: Any) -> None:
        """Raise ``ValueError`` unless ``embedder`` is the model this index was built with."""
        got_id = getattr(embedder, "model_id", None)
        got_dim = getattr(embedder, "dimension", None)
        if got_id != self.stamp.embedding_model or got_dim != self.stamp.dimension:
            raise ValueError(
                f"index built with {self.stamp.embedding_model} (d={self.stamp.dimension}) but "
                f"queried with {got_id} (d={got_dim}); rebuild the index with the query model "
                "or query with the index model"
            )

    # ------------------------------------------------------------- scoring
    def query_vector(self, query: str | np.ndarray, embedder: Embedder | None = None) -> np.ndarray:
        """The unit query vector: ``query`` encoded (as a query) or a given vector checked."""
        if isinstance(query, str):
            if not query.strip():
                raise ValueError("the query is empty; dense retrieval needs text to embed")
            enc = embedder or self.embedder
            if enc is None:
                raise ValueError(
                    "this index has no embedder attached; pass a query vector or an embedder"
                )
            self.check_compatible(enc)
            return enc.encode_queries([query])[0]
        vec = np.asarray(query, dtype=np.float32).reshape(-1)
        if vec.shape[0] != self.vectors.shape[1]:
            raise ValueError(
                f"query vector has dimension {vec.shape[0]} but the index "
                f"({self.stamp.embedding_model}) has dimension {self.vectors.shape[1]}"
            )
        return l2_normalise(vec[None, :])[0]

    def cosines(self, query: str | np.ndarray, embedder: Embedder | None = None) -> np.ndarray:
        """``cos(q, c)`` for every chunk, in :attr:`chunk_ids` order (``(n,)`` float32)."""
        return self.vectors @ self.query_vector(query, embedder)

    def distances(self, query: str | np.ndarray, embedder: Embedder | None = None) -> np.ndarray:
        """Cosine distance ``1 − cos`` for every chunk."""
        return 1.0 - self.cosines(query, embedder)

    def search(
        self, query: str | np.ndarray, k: int, embedder: Embedder | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Top-``k`` rows by cosine, ties by row order: ``(indices, cosines)``."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k = {k!r} must be an integer >= 1")
        cos = self.cosines(query, embedder)
        order = np.argsort(-cos, kind="stable")[:k]
        return order, cos[order]

    def __len__(self) -> int:
        return len(self.chunk_ids)
