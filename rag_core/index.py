"""`CorpusIndex`: documents plus lazily built chunkings and retriever indexes.

Everything derived from the documents is memoised by its signature (chunker
signature, analyzer, BM25 parameters, embedding model), so moving a slider that
does not change the index — k, threshold, budget — costs a lookup, and
switching back to an earlier chunking costs nothing. Memo entries are only
ever added, never changed, and each is built once under a per-key lock, so one
``CorpusIndex`` may be shared by concurrent sessions (as the app's
``st.cache_resource`` does).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from . import models  # models.get_* read at call time: the one place a model is swapped
from .chunking import chunk_corpus
from .chunking.diagnostics import diagnose
from .config import PIPELINE_VERSION, ChunkerConfig, RetrievalConfig
from .corpus import SAMPLE_CORPUS
from .corpus.loaders import load_corpus, load_notices
from .formats.guard import AT
from .formats.questions import load_questions
from .hashing import sha256_pairs
from .models.embcache import default_cache
from .models.tokenizer import TokenizerUnavailable, unknown_chars
from .retrieval.dense import DENSE_CHOICE_SET, DenseIndex, choose_dense_model, korean_documents
from .retrieval.sparse import SparseIndex, build_sparse_index
from .retrieval.sparse.analyzers import analyze_many
from .types import (
    Chunking,
    ChunkingDiagnostics,
    Document,
    FailedDocument,
    IndexStamp,
    LoadReport,
    Needle,
    Notice,
    Question,
)
from .wording import NoticeError, declare, english, joined, notice, refused

#: ``progress(message, fraction)``: what is being done, as a notice, and how far (0 to 1).
Progress = Callable[[Notice, float], None]

#: What the index is building (a :data:`Progress` message).
PROGRESS_CHUNKING = declare("progress.chunking", "signature")
PROGRESS_EMBEDDING = declare("progress.embedding", "chunks", "model")


def corpus_fingerprint(documents: Sequence[Document]) -> str:
    """sha256 over (doc_id, text) of every document, first 16 hex digits."""
    return sha256_pairs((d.doc_id, d.text) for d in documents)[:16]


#: A corpus in which no document loaded (``failed`` the first files or rows, and why).
NO_DOCUMENT = declare("index.no_document", "name")
NO_DOCUMENT_FAILED = declare("index.no_document_failed", "name", "n", "failed")
MORE_FAILED = declare("index.more_failed", "n")


def no_document(name: str, failed: Sequence[FailedDocument], shown: int = 3) -> NoticeError:
    """The refusal of a corpus without a loadable document, naming its first failures."""
    if not failed:
        return refused(NO_DOCUMENT, name=name)
    parts = [notice(AT, where=f.path, problem=f.notice) for f in failed[:shown]]
    if len(failed) > shown:
        parts.append(notice(MORE_FAILED, n=len(failed) - shown))
    return refused(NO_DOCUMENT_FAILED, name=name, n=len(failed), failed=joined(parts))


class CorpusIndex:
    """Documents of one corpus and every index built over them."""

    def __init__(
        self,
        report: LoadReport,
        *,
        name: str = "corpus",
        questions: Sequence[Question] = (),
    ) -> None:
        if not report.documents:
            raise no_document(name, report.failed)
        self.name = name
        self.report = report
        self.documents: tuple[Document, ...] = report.documents
        self.failed: tuple[FailedDocument, ...] = report.failed
        self.docs: dict[str, Document] = {d.doc_id: d for d in report.documents}
        self.questions: tuple[Question, ...] = tuple(questions)
        # distinct gold needles (two questions may share one) for the chunking diagnostics;
        # document-level judgements (qrels) cannot be destroyed by a chunking and are left out
        self.needles: tuple[Needle, ...] = tuple(
            {
                (n.doc_id, n.text): n
                for q in self.questions
                for n in q.needles
                if n.doc_id in self.docs and n.origin != "qrels"
            }.values()
        )
        self.fingerprint = corpus_fingerprint(self.documents)
        #: One line per file or row that did not load (shown with every Trace of this corpus).
        self.load_notices: tuple[Notice, ...] = load_notices(report)
        self.load_warnings: tuple[str, ...] = tuple(map(english, self.load_notices))
        self._memo: dict[Any, Any] = {}
        self._locks: dict[Any, threading.Lock] = {}
        self._guard = threading.Lock()

    # -- memo ------------------------------------------------------------
    def _once(self, key: Any, build: Callable[[], Any]) -> Any:
        if key in self._memo:
            return self._memo[key]
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._memo:
                self._memo[key] = build()
        return self._memo[key]

    # -- chunking ----------------------------------------------------------
    def chunking(self, cfg: ChunkerConfig, progress: Progress | None = None) -> Chunking:
        """Chunk every document with ``cfg`` (memoised by signature)."""

        def build() -> Chunking:
            def step(done: int, total: int) -> None:
                if progress:
                    progress(
                        notice(PROGRESS_CHUNKING, signature=cfg.signature), done / max(total, 1)
                    )

            chunks = tuple(chunk_corpus(self.documents, cfg, progress=step))
            diag = diagnose(self.documents, chunks, needles=self.needles)
            return Chunking(
                signature=cfg.signature,
                chunks=chunks,
                by_id={c.chunk_id: c for c in chunks},
                position={c.chunk_id: i for i, c in enumerate(chunks)},
                diagnostics=diag,
            )

        return self._once(("chunking", cfg), build)

    def doc_chunk_ids(self, cfg: ChunkerConfig) -> dict[str, tuple[str, ...]]:
        """``{doc_id: chunk ids in order}`` of one chunking (memoised)."""

        def build() -> dict[str, tuple[str, ...]]:
            out: dict[str, list[str]] = {}
            for c in self.chunking(cfg).chunks:
                out.setdefault(c.doc_id, []).append(c.chunk_id)
            return {d: tuple(ids) for d, ids in out.items()}

        return self._once(("doc_chunks", cfg), build)

    # -- sparse --------------------------------------------------------------
    def tokens(
        self, chunker: ChunkerConfig, analyzer: str, rcfg: RetrievalConfig
    ) -> list[list[str]]:
        """Analyzed chunk texts (memoised: changing k1/b does not re-tokenize)."""
        key = ("tokens", chunker, analyzer, _ngram(analyzer, rcfg))
        return self._once(
            key,
            lambda: analyze_many(
                analyzer,
                self.chunking(chunker).texts(),
                ngram_min=rcfg.ngram_min,
                ngram_max=rcfg.ngram_max,
            ),
        )

    def sparse(
        self, chunker: ChunkerConfig, method: str, analyzer: str, rcfg: RetrievalConfig
    ) -> SparseIndex:
        """A BM25 or TF-IDF index over the chunk texts."""
        params: dict[str, Any] = {}
        if method == "bm25":
            params = {
                "variant": rcfg.bm25_variant,
                "k1": rcfg.k1,
                "b": rcfg.b,
                "delta": rcfg.delta,
                "epsilon": rcfg.epsilon,
            }
        key = (
            "sparse",
            chunker,
            method,
            analyzer,
            _ngram(analyzer, rcfg),
            tuple(sorted(params.items())),
        )
        return self._once(
            key, lambda: build_sparse_index(method, self.tokens(chunker, analyzer, rcfg), **params)
        )

    # -- dense ---------------------------------------------------------------
    def korean_documents(self) -> int:
        """How many documents are Korean (``rag_core.retrieval.dense.korean_documents``)."""
        return self._once(
            ("korean_documents",), lambda: korean_documents([d.text for d in self.docs.values()])
        )

    def dense_choice(self, model: str) -> tuple[str, Notice]:
        """``(model, why)``: ``auto`` resolved by the corpus' languages
        (``rag_core.retrieval.dense.choose_dense_model``)."""
        if model != "auto":
            return model, notice(DENSE_CHOICE_SET, model=model)
        return self._once(
            ("dense_choice",), lambda: choose_dense_model([d.text for d in self.docs.values()])
        )

    def dense(
        self, chunker: ChunkerConfig, model: str, progress: Progress | None = None
    ) -> DenseIndex:
        """A dense exact-cosine index (raises ``ModelUnavailable`` if the model is missing)."""
        model = self.dense_choice(model)[0]

        def build() -> DenseIndex:
            embedder = models.get_embedder(model)
            chunking = self.chunking(chunker)

            def step(done: int, total: int) -> None:
                if progress:
                    progress(
                        notice(PROGRESS_EMBEDDING, chunks=len(chunking.chunks), model=model),
                        done / max(total, 1),
                    )

            return DenseIndex.build(
                chunking.chunks,
                embedder,
                chunker_signature=chunking.signature,
                cache=default_cache(),
                progress=step,
            )

        return self._once(("dense", chunker, model), build)

    def window_counts(
        self, chunker: ChunkerConfig, model: str
    ) -> tuple[int, tuple[int, ...]] | None:
        """Embedder ``model``'s window and its token counts of the chunking's chunks (in chunk
        order, special tokens included); None for MiniLM (the chunkers' own counts,
        ``Chunk.tokens``) or when that embedder is not here (memoised)."""
        model = self.dense_choice(model)[0]
        if model == "minilm":  # the chunkers' own tokenizer and window
            return None

        def build() -> tuple[int, tuple[int, ...]] | None:
            try:
                embedder = models.get_embedder(model)
            except models.ModelUnavailable:
                return None
            chunks = self.chunking(chunker).chunks
            counts = embedder.count_tokens([c.text for c in chunks]) if chunks else []
            return int(embedder.max_tokens), tuple(int(n) for n in counts)

        return self._once(("window_counts", chunker, model), build)

    def unknown_chars(self, chunker: ChunkerConfig, model: str) -> tuple[int, int] | None:
        """``(unknown, total)`` characters of the chunking's texts that reach embedder ``model``
        (``auto``: the corpus's) as ``[UNK]``, when it is MiniLM, whose tokenizer the chunkers
        also count with (:func:`rag_core.models.tokenizer.unknown_chars`); None for another
        embedder or without the tokenizer (memoised)."""
        if self.dense_choice(model)[0] != "minilm":
            return None

        def build() -> tuple[int, int] | None:
            try:
                return unknown_chars([c.text for c in self.chunking(chunker).chunks])
            except TokenizerUnavailable:
                return None

        return self._once(("unknown_chars", chunker), build)

    def windowed(self, chunker: ChunkerConfig, model: str) -> ChunkingDiagnostics:
        """The chunking's diagnostics with the facts of embedder ``model`` (``auto``: the
        corpus's, :meth:`dense_choice`): its ``max_tokens`` as ``encoder_window``, the chunks its
        own tokenizer counts beyond it as ``over_window``, and its counts' min/mean/max as the
        token range (memoised).

        The chunkers count with MiniLM's word pieces against its 256; an e5 corpus is embedded
        with another tokenizer and a 512-token window, so those facts are recounted with it
        (the header share stays in MiniLM's word pieces). When that embedder is not here, the
        chunker's own facts stay (they are MiniLM's).
        """
        diag = self.chunking(chunker).diagnostics
        counted = self.window_counts(chunker, model)
        if counted is None:
            return diag

        def build() -> ChunkingDiagnostics:
            window, counts = counted
            chunks = self.chunking(chunker).chunks
            over = tuple(c.chunk_id for c, n in zip(chunks, counts, strict=True) if n > window)
            return replace(
                diag,
                encoder_window=window,
                over_window=over,
                tokens_min=min(counts) if counts else None,
                tokens_mean=sum(counts) / len(counts) if counts else None,
                tokens_max=max(counts) if counts else None,
            )

        return self._once(("windowed", chunker, self.dense_choice(model)[0]), build)

    def stamp(self, chunker: ChunkerConfig, dense_stamp: IndexStamp | None = None) -> IndexStamp:
        chunking = self.chunking(chunker)
        return IndexStamp(
            pipeline_version=PIPELINE_VERSION,
            chunker_signature=chunking.signature,
            corpus_fingerprint=self.fingerprint,
            n_documents=len(self.documents),
            n_chunks=len(chunking.chunks),
            embedding_model=getattr(dense_stamp, "embedding_model", None),
            dimension=getattr(dense_stamp, "dimension", None),
            normalized=getattr(dense_stamp, "normalized", None),
        )


def _ngram(analyzer: str, rcfg: RetrievalConfig) -> tuple[int, int] | None:
    return (rcfg.ngram_min, rcfg.ngram_max) if analyzer == "char" else None


def load_corpus_index(
    path: str | Path | None = None, *, questions: Sequence[Question] | None = None
) -> CorpusIndex:
    """Load a corpus directory (default: the bundled sample) into a ``CorpusIndex``.

    The question sets under ``<dir>/questions/*.jsonl`` are loaded too unless
    ``questions`` is given, so chunking diagnostics can count destroyed answers.
    """
    root = Path(path) if path is not None else SAMPLE_CORPUS
    if not root.exists():
        raise ValueError(f"corpus directory {root} does not exist")
    report = load_corpus(root)
    if questions is None:
        qs: list[Question] = []
        qdir = root / "questions"
        if qdir.is_dir():
            for f in sorted(qdir.glob("*.jsonl")):
                qs.extend(load_questions(f))
        questions = qs
    return CorpusIndex(report, name=root.name, questions=questions)
