"""The run plan: the per-config work of a run, done once and shared by every question of a set."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..config import PipelineConfig
from ..index import CorpusIndex, Progress
from ..retrieval.dense import DenseIndex
from ..retrieval.sparse import SparseIndex, SparseResult
from ..retrieval.sparse.analyzers import get_analyzer
from ..types import IndexStamp, Notice
from ..wording import NoticeError, declare, english, notice
from .answering import STAGES_NOT_RUN_RETRIEVAL_ONLY, AnswerStages, not_run

#: A chunking of a loaded corpus that holds no chunk at all (nothing to search).
NO_CHUNKS = declare("plan.no_chunks", "signature", "n")


@dataclass(frozen=True)
class SparseRoute:
    """What one sparse retriever (method and analyzer) searches with."""

    index: SparseIndex
    #: the analyzer function: text -> terms
    analyze: Callable[[str], list[str]]
    #: the list's params as the Trace shows them
    params: dict[str, Any]
    idf_form: str
    n_docs: int


class RunPlan:
    """The per-config work of :func:`run`, done once and shared by every question of a set.

    Holds the chunking, the resolved dense model, the config as a dict and,
    built on first use, each sparse retriever's index, analyzer and params,
    and the index stamp. :func:`run` makes one per call; :func:`run_many`
    one per question set, which is where an evaluation saves the lookups.
    """

    def __init__(
        self, config: PipelineConfig, corpus: CorpusIndex, progress: Progress | None = None
    ) -> None:
        t = time.perf_counter()
        self.config = config
        self.corpus = corpus
        self.chunking = corpus.chunking(config.chunker, progress)
        #: time the chunking lookup (or build) took, in milliseconds
        self.chunking_ms = (time.perf_counter() - t) * 1000
        if not self.chunking.chunks:
            raise NoticeError(
                notice(NO_CHUNKS, signature=self.chunking.signature, n=len(corpus.documents))
            )
        # files and rows the corpus load skipped are listed with every answer over it
        self.load_notices: tuple[Notice, ...] = tuple(getattr(corpus, "load_notices", ()))
        #: the embedder dense retrieval uses and why (``auto``: by the corpus's languages)
        self.dense_model, self.dense_why = corpus.dense_choice(config.retrieval.dense_model)
        self.dense_reason = english(self.dense_why)
        #: the chunking's diagnostics, window facts those of the corpus's embedder
        self.diagnostics = corpus.windowed(config.chunker, config.retrieval.dense_model)
        self.config_dict = config.to_dict()
        self._sparse: dict[tuple[str, str], SparseRoute] = {}
        self._stamp: tuple[Any, IndexStamp] | None = None
        self.method_specs = config.retrieval.method_specs
        #: chunk and document id per chunking position
        self.chunk_ids = [c.chunk_id for c in self.chunking.chunks]
        self.doc_ids = [c.doc_id for c in self.chunking.chunks]
        #: the three answer stages of a run that stops at the gate (the same for every question)
        self.stop_gate: AnswerStages = not_run(config, notice(STAGES_NOT_RUN_RETRIEVAL_ONLY))
        #: per sparse retriever, question -> (its terms, the kernel's result), see :meth:`prefetch`
        self._found: dict[tuple[str, str], dict[str, tuple[list[str], SparseResult]]] = {}

    def sparse(self, method: str, analyzer: str) -> SparseRoute:
        """The index, analyzer and params of one sparse retriever (built on first use)."""
        key = (method, analyzer)
        if key not in self._sparse:
            rcfg = self.config.retrieval
            index = self.corpus.sparse(self.config.chunker, method, analyzer, rcfg)
            analyze = get_analyzer(analyzer, ngram_min=rcfg.ngram_min, ngram_max=rcfg.ngram_max)
            params: dict[str, Any] = {}
            if method == "bm25":
                params = {"variant": rcfg.bm25_variant, "k1": rcfg.k1, "b": rcfg.b}
                if rcfg.bm25_variant in ("l", "plus"):
                    params["delta"] = rcfg.delta
                if rcfg.bm25_variant == "okapi":
                    params["epsilon"] = rcfg.epsilon
            if analyzer == "char":
                params["ngram"] = [rcfg.ngram_min, rcfg.ngram_max]
            self._sparse[key] = SparseRoute(index, analyze, params, index.idf_form, index.n_docs)
        return self._sparse[key]

    def prefetch(self, questions: Sequence[str]) -> None:
        """Run every sparse retriever's kernel on ``questions`` now, one after the other.

        The same calls :func:`retrieve` would make, grouped: the kernel (numpy
        over the postings) runs back to back with warm caches instead of
        between the Python of other stages, which costs it about 15% (measured
        in bench/README.md). :func:`retrieve` reads them by question text (a
        repeated question is searched once) until the next prefetch.
        """
        self._found = {}
        for method, analyzer in self.method_specs:
            if method in ("bm25", "tfidf"):
                found: dict[str, tuple[list[str], SparseResult]] = {}
                for q in questions:
                    if q in found:
                        continue
                    try:
                        found[q] = self._search_now(method, str(analyzer), q)
                    except Exception:  # noqa: BLE001 - raised again by retrieve, in its turn
                        continue
                self._found[(method, str(analyzer))] = found

    def search(self, method: str, analyzer: str, question: str) -> tuple[list[str], SparseResult]:
        """``(question terms, kernel result)`` of one sparse retriever: the prefetched ones
        (:meth:`prefetch`) or computed now."""
        found = self._found.get((method, analyzer))
        if found is not None and question in found:
            return found[question]
        return self._search_now(method, analyzer, question)

    def _search_now(
        self, method: str, analyzer: str, question: str
    ) -> tuple[list[str], SparseResult]:
        route = self.sparse(method, analyzer)
        terms = route.analyze(question)
        return terms, route.index.search(terms, self.config.retrieval.k)

    def stamp(self, dense_index: DenseIndex | None) -> IndexStamp:
        """The Trace's index stamp (rebuilt only when the dense index changes)."""
        dense_stamp = dense_index.stamp if dense_index is not None else None
        if self._stamp is None or self._stamp[0] is not dense_stamp:
            self._stamp = (dense_stamp, self.corpus.stamp(self.config.chunker, dense_stamp))
        return self._stamp[1]
