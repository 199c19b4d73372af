"""The one flow: ``PipelineConfig`` + question → :func:`run` → ``Trace``.

Stages run in order (docs/ARCHITECTURE.md) — chunking, retrieval (+ fusion), rerank, gate,
context, generation, support — and every stage's full output lands in the
Trace, survivors or not. A stage whose model is missing is recorded as
``unavailable`` with the reason; every other stage still runs. When the gate
refuses, context/generation/support are ``skipped`` and the model is never
called.
"""

from __future__ import annotations

import time
import unicodedata
from collections import ChainMap, Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from .answer.gate import apply_gate
from .config import PipelineConfig
from .corpus.index import Chunking, CorpusIndex, Progress
from .types import (
    AnalyzerView,
    BaseField,
    Chunk,
    Column,
    ContextStage,
    GateStage,
    GenerationStage,
    GoldView,
    Hit,
    Hits,
    IndexStamp,
    LazyMapping,
    LazyTuple,
    Needle,
    Question,
    RerankStage,
    RetrievalStage,
    RetrieverList,
    SupportStage,
    Trace,
    hit_column,
)

if TYPE_CHECKING:
    from .retrieval.dense import DenseIndex
    from .retrieval.runs import ExternalRun
    from .retrieval.sparse import SparseIndex, SparseResult

#: ``listener(event, value)``: see :func:`run`.
Listener = Callable[[str, Any], None]

#: Questions whose sparse kernels :func:`run_many` runs together (see :meth:`RunPlan.prefetch`).
PREFETCH_BLOCK = 64

#: Longest question accepted (characters). Longer input is an error, not a prompt.
MAX_QUESTION_CHARS = 2000

_KNOWN_SCRIPTS = {"LATIN", "HANGUL", "DIGIT"}
NO_LETTERS = "the question has no letters or digits: word analyzers will find nothing"


def no_chunks_message(n_documents: int, signature: str) -> str:
    """What to say when a chunking of a loaded corpus holds no chunk at all (nothing to search)."""
    return (
        f"the chunker {signature} made no chunk from the {n_documents} loaded document(s): "
        "their text is only heading lines (never chunk content) or blocks the rule drops; "
        "there is nothing to search — upload documents with body text, or pick another chunker"
    )


def validate_question(question: Any) -> tuple[str, tuple[str, ...]]:
    """Clean a question; raise ``ValueError`` for unusable input.

    Returns the NFC-normalised, stripped question and warnings (e.g. a script
    the corpus does not use).
    """
    if not isinstance(question, str):
        raise ValueError(f"the question must be text, not {type(question).__name__}")
    q = unicodedata.normalize("NFC", question).replace("\r\n", "\n").strip()
    if not q:
        raise ValueError("the question is empty; type a question or pick one from a question set")
    if len(q) > MAX_QUESTION_CHARS:
        raise ValueError(
            f"the question is {len(q):,} characters long; the limit is {MAX_QUESTION_CHARS:,} "
            "characters (paste a question, not a document)"
        )
    warnings: list[str] = []
    if q.isascii():  # the common case: digits and Latin letters only, both known scripts
        if not any(map(str.isalnum, q)):
            warnings.append(NO_LETTERS)
        return q, tuple(warnings)
    scripts = Counter(map(_script, filter(str.isalnum, q)))
    if not scripts:
        warnings.append(NO_LETTERS)
    else:
        script, n = scripts.most_common(1)[0]
        if script not in _KNOWN_SCRIPTS and n / sum(scripts.values()) >= 0.5:
            warnings.append(
                f"the question is mostly in {script.title()} script; the sample corpus is Korean "
                "and English, so word analyzers will likely find no candidates"
            )
    return q, tuple(warnings)


@lru_cache(maxsize=65536)
def _script(ch: str) -> str:
    """The Unicode script word of ``ch``'s name (``HANGUL``, ``LATIN``…), memoised per character."""
    if ch.isdigit():
        return "DIGIT"
    try:
        return unicodedata.name(ch).split()[0]
    except ValueError:
        return "UNKNOWN"


# ------------------------------------------------------------------ retrieval


def _list_name(method: str, analyzer: str | None, model: str) -> str:
    return f"dense:{model}" if method == "dense" else f"{method}:{analyzer}"


def qdrant_list(config: PipelineConfig, question: str, chunking: Chunking) -> RetrieverList:
    """The Qdrant collection's top ``k`` for ``question``, as one retriever list.

    Hits keep Qdrant's scores; a ``Cosine`` collection also gives each hit its
    cosine distance ``1 − score`` (so the gate can use it). Hits are matched
    to the loaded chunks by chunk id; hits that are not chunks of the loaded
    corpus (another corpus or chunker built the collection) are left out and
    counted in the message. Any problem — no server, no collection, a missing
    payload field, a dimension mismatch, a missing model — gives a list with
    status ``unavailable``/``error`` and the reason; other retrievers run on.
    """
    from .models import ModelUnavailable, get_embedder
    from .retrieval.qdrant import (
        QdrantError,
        QdrantTarget,
        check_dimension,
        check_model,
        collection_facts,
        connect,
        distance_of,
        higher_is_better,
        search,
    )

    rcfg = config.retrieval
    name = f"qdrant:{rcfg.qdrant_collection}"
    try:
        target = QdrantTarget(url=rcfg.qdrant_url, path=rcfg.qdrant_path)
        facts = collection_facts(connect(target), target, rcfg.qdrant_collection)
        embedder = get_embedder(rcfg.qdrant_model)
        check_dimension(facts, embedder)
        found, facts = search(
            target,
            rcfg.qdrant_collection,
            embedder.encode_queries([question])[0],
            rcfg.k,
            text_field=rcfg.qdrant_text_field,
            doc_field=rcfg.qdrant_doc_field,
            facts=facts,
        )
        check_model(found, rcfg.qdrant_collection, embedder)
    except QdrantError as exc:
        return RetrieverList(
            name,
            "qdrant",
            None,
            (),
            0,
            status=exc.kind,  # type: ignore[arg-type]
            message=str(exc),
            model=rcfg.qdrant_model,
        )
    except ModelUnavailable as exc:
        return RetrieverList(
            name,
            "qdrant",
            None,
            (),
            0,
            status="unavailable",
            message=str(exc),
            model=rcfg.qdrant_model,
        )
    params: dict[str, Any] = {
        "where": target.where,
        "distance": facts.distance,
        "points": facts.points,
        "dimension": facts.dimension,
    }
    hits: list[Hit] = []
    foreign = [h for h in found if h.chunk_id not in chunking.by_id]
    for h in found:
        if h.chunk_id in chunking.by_id:
            hits.append(
                Hit(
                    chunk_id=h.chunk_id,
                    doc_id=h.doc_id,
                    rank=len(hits) + 1,
                    score=h.score,
                    distance=distance_of(facts, h.score),
                )
            )
    message = "" if hits else "0 candidates: the collection returned no point"
    if foreign:
        message = (
            f"{len(foreign)} of {len(found)} hits are not chunks of the loaded corpus with chunker "
            f"{chunking.signature} (e.g. {foreign[0].chunk_id!r}) and were left out: build the "
            "collection from this corpus and chunker (python -m rag_core index qdrant …)"
        )
    if hits and not higher_is_better(facts):
        message = " ".join(
            filter(
                None,
                (
                    message,
                    (
                        f"scores are Qdrant's {facts.distance} distances (lower is better, as "
                        "Qdrant ranks them); score-based fusion and gate.min_score read them as "
                        "similarities: prefer fusion.method = rrf"
                    ),
                ),
            )
        )
    status: Literal["error", "ok"] = "error" if foreign and not hits else "ok"
    return RetrieverList(
        name,
        "qdrant",
        None,
        tuple(hits),
        facts.points,
        status=status,
        message=message,
        model=embedder.model_id,
        params=params,
    )


#: ``(index, analyzer function, list params, idf form, n docs)`` of one sparse retriever.
_SparseRoute: TypeAlias = "tuple[SparseIndex, Callable[[str], list[str]], dict[str, Any], str, int]"


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
            raise ValueError(no_chunks_message(len(corpus.documents), self.chunking.signature))
        # files and rows the corpus load skipped are listed with every answer over it
        self.load_warnings: tuple[str, ...] = tuple(getattr(corpus, "load_warnings", ()))
        self.dense_model, self.dense_reason = corpus.dense_choice(config.retrieval.dense_model)
        self.config_dict = config.to_dict()
        self._sparse: dict[tuple[str, str], _SparseRoute] = {}
        self._stamp: tuple[Any, IndexStamp] | None = None
        self.method_specs = config.retrieval.method_specs
        #: chunk and document id per chunking position
        self.chunk_ids = [c.chunk_id for c in self.chunking.chunks]
        self.doc_ids = [c.doc_id for c in self.chunking.chunks]
        #: every chunk as one hit, for its ids: a retriever's hits are taken from it (every
        #: take replaces ``rank`` and ``score``, which are placeholders here)
        self.all_chunks = Hits(
            len(self.chunk_ids),
            {
                "chunk_id": self.chunk_ids,
                "doc_id": self.doc_ids,
                "rank": range(1, len(self.chunk_ids) + 1),
                "score": range(len(self.chunk_ids)),
            },
        )
        self.stop_gate: tuple[ContextStage, GenerationStage, SupportStage] | None = None
        #: per sparse retriever, question -> (its terms, the kernel's result), see :meth:`prefetch`
        self._found: dict[tuple[str, str], dict[str, tuple[list[str], SparseResult]]] = {}

    def sparse(self, method: str, analyzer: str) -> _SparseRoute:
        """``(index, analyzer function, list params, idf form, n docs)`` of one sparse retriever."""
        key = (method, analyzer)
        if key not in self._sparse:
            from .retrieval.sparse.analyzers import get_analyzer

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
            self._sparse[key] = (index, analyze, params, index.idf_form, index.n_docs)
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
        index, analyze, *_ = self.sparse(method, analyzer)
        terms = analyze(question)
        return terms, index.search(terms, self.config.retrieval.k)

    def stamp(self, dense_index: DenseIndex | None) -> IndexStamp:
        """The Trace's index stamp (rebuilt only when the dense index changes)."""
        dense_stamp = dense_index.stamp if dense_index is not None else None
        if self._stamp is None or self._stamp[0] is not dense_stamp:
            self._stamp = (dense_stamp, self.corpus.stamp(self.config.chunker, dense_stamp))
        return self._stamp[1]


def _run_list(
    name: str,
    tag: str,
    config: PipelineConfig,
    corpus: CorpusIndex,
    chunking: Chunking,
    runs: Mapping[str, ExternalRun] | None,
    query_id: str | None,
    extra: dict[str, Chunk],
) -> RetrieverList:
    """The retriever list of an imported run (``run:TAG``), see :mod:`rag_core.retrieval.runs`."""
    from .retrieval.runs import resolve_hits

    run_ = (runs or {}).get(tag)
    if run_ is None:
        loaded = ", ".join(sorted(runs or {})) or "none"
        return RetrieverList(
            name,
            "run",
            None,
            (),
            0,
            status="unavailable",
            message=f"no run tagged {tag!r} is loaded (loaded: {loaded})",
        )
    run_hits = run_.for_query(query_id)
    if run_hits is None:
        why = "this question has no query id" if query_id is None else f"query id {query_id!r}"
        return RetrieverList(
            name,
            "run",
            None,
            (),
            0,
            status="unavailable",
            message=f"run {tag!r} has no hits for {why}",
            params={"source": run_.source},
        )
    hits, more = resolve_hits(
        run_hits, config.retrieval.k, chunking, corpus.docs, corpus.doc_chunk_ids(config.chunker)
    )
    extra.update(more)
    outside = sum(1 for h in hits if h.chunk_id in more)
    no_text = sum(1 for h in hits if h.note == "text unavailable")
    params: dict[str, Any] = {"source": run_.source, "tag": tag}
    if outside:
        params["outside_chunking"] = outside
    if no_text:
        params["text_unavailable"] = no_text
    message = "" if hits else f"run {tag!r} lists no hit for this query"
    return RetrieverList(name, "run", None, hits, len(run_hits), message=message, params=params)


def retrieve(
    config: PipelineConfig,
    question: str,
    corpus: CorpusIndex,
    *,
    progress: Progress | None = None,
    runs: Mapping[str, ExternalRun] | None = None,
    query_id: str | None = None,
    extra: dict[str, Chunk] | None = None,
    plan: RunPlan | None = None,
) -> tuple[RetrievalStage, DenseIndex | None]:
    """Run every configured retriever and fuse their lists.

    Returns the stage and the dense index (or None) so later stages can
    attach a cosine distance to any candidate. ``run:TAG`` retrievers read
    ``runs[TAG]`` at ``query_id``; the chunks their hits name that the
    chunking lacks (whole documents, external texts) are added to ``extra``.
    ``plan``: the config's :class:`RunPlan` (made here when not given).
    """
    rcfg = config.retrieval
    plan = plan if plan is not None else RunPlan(config, corpus, progress)
    chunking = plan.chunking
    lists: list[RetrieverList] = []
    dense_index = None
    dense_cos = None
    extra = extra if extra is not None else {}
    dense_model, dense_reason = plan.dense_model, plan.dense_reason
    for method, analyzer in plan.method_specs:
        name = _list_name(method, analyzer, dense_model)
        if method == "run":
            lists.append(
                _run_list(name, str(analyzer), config, corpus, chunking, runs, query_id, extra)
            )
            continue
        if method == "dense":
            from .models import ModelUnavailable

            try:
                dense_index = corpus.dense(config.chunker, dense_model, progress)
                dense_cos = dense_index.cosines(question)
            except ModelUnavailable as exc:
                lists.append(
                    RetrieverList(
                        name,
                        method,
                        None,
                        (),
                        0,
                        status="unavailable",
                        message=str(exc),
                        model=dense_model,
                        params={"model_choice": dense_reason},
                    )
                )
                continue
            order = _top_indices(dense_cos, rcfg.k)
            # numpy arithmetic, as the distances given to fused hits below (same float32 rounding)
            hits = _plan_hits(
                plan, order, dense_cos[order], distance=(1.0 - dense_cos[order]).tolist()
            )
            lists.append(
                RetrieverList(
                    name,
                    method,
                    None,
                    hits,
                    len(chunking.chunks),
                    model=dense_index.stamp.embedding_model,
                    params={
                        "similarity": "cosine",
                        "normalized": True,
                        "model_choice": dense_reason,
                    },
                )
            )
            continue
        if method == "qdrant":
            lists.append(qdrant_list(config, question, chunking))
            continue
        index, _, params, idf_form, n_docs = plan.sparse(method, str(analyzer))
        q_tokens, found = plan.search(method, str(analyzer), question)
        hits = _plan_hits(plan, found.indices, found.scores)
        view = AnalyzerView(
            analyzer=str(analyzer),
            idf_form=idf_form,
            n_docs=n_docs,
            terms=LazyTuple(partial(index.term_stats, q_tokens)),
            segments=_auto_segments(question) if analyzer == "auto" else (),
        )
        message = "" if hits else "0 candidates: no chunk shares a term with the query"
        lists.append(
            RetrieverList(
                name,
                method,
                analyzer,
                hits,
                found.n_candidates,
                message=message,
                analyzer_view=view,
                params=params,
            )
        )

    usable = [lst for lst in lists if lst.status == "ok"]
    fused = None
    if len(usable) > 1:
        from .retrieval.fusion import fuse

        fused = fuse(
            [(lst.name, lst.hits) for lst in usable],
            config.fusion.method,
            k=rcfg.k,
            rrf_k=config.fusion.rrf_k,
            alpha=config.fusion.alpha,
        )
        final = fused.hits
    else:
        final = usable[0].hits if usable else ()
    if dense_cos is not None:
        position = chunking.position
        distances = [
            float(1.0 - dense_cos[position[cid]])
            if cid in position
            else old  # a run's whole document or external text: no vector in the dense index
            for cid, old in zip(
                hit_column(final, "chunk_id"), hit_column(final, "distance"), strict=True
            )
        ]
        final = Hits.of(final).take(range(len(final)), distance=distances)
        if fused is not None:
            fused = replace(fused, hits=final)
    return RetrievalStage(lists=tuple(lists), fused=fused, hits=final), dense_index


def _plan_hits(plan: RunPlan, indices: Any, scores: Any, **columns: Column) -> Hits:
    """Ranked hits at chunking ``indices`` with ``scores`` (arrays or lists), as columns.

    Chunk and document ids are picked from the plan's lists on first read;
    ``columns`` adds fields (e.g. ``distance``).
    """
    idx = indices.tolist() if hasattr(indices, "tolist") else list(indices)
    vals = scores.tolist() if hasattr(scores, "tolist") else list(scores)
    return plan.all_chunks.take(idx, rank=range(1, len(idx) + 1), score=vals, **columns)


def _auto_segments(question: str) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    from .retrieval.sparse.analyzers import auto_segments

    return tuple((run.strip(), name, tuple(terms)) for run, name, terms in auto_segments(question))


def _top_indices(scores: Any, k: int) -> list[int]:
    """Indices of the k largest scores, ties broken by position (stable)."""
    import numpy as np

    scores = np.asarray(scores)
    k = min(k, len(scores))
    if k <= 0:
        return []
    part = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
    return sorted(part.tolist(), key=lambda i: (-scores[i], i))


# --------------------------------------------------------------------- rerank


def rerank_stage(
    config: PipelineConfig,
    question: str,
    hits: Sequence[Hit],
    corpus: CorpusIndex,
    dense_index: DenseIndex | None = None,
    chunks: Mapping[str, Chunk] | None = None,
) -> RerankStage:
    """Reorder the top ``rerank.shortlist`` candidates with the configured reranker.

    ``chunks``: the chunk table (default: the chunking's; with imported runs
    also their whole documents and external texts).
    """
    from .rerank import RERANK_LABELS, rerank

    rc = config.rerank
    label = RERANK_LABELS.get(rc.method, rc.method)
    table = chunks if chunks is not None else corpus.chunking(config.chunker).by_id
    extra: dict[str, Any] = {}
    if rc.method == "mmr" and dense_index is not None:
        position = corpus.chunking(config.chunker).position
        if all(cid in position for cid in hit_column(hits, "chunk_id")[: rc.shortlist]):
            extra["vectoriser"] = _dense_vectoriser(dense_index)
    try:
        out, info = rerank(
            rc.method,
            question,
            hits,
            table,
            shortlist=rc.shortlist,
            mmr_lambda=rc.mmr_lambda,
            model=rc.model,
            generator=config.generation.model,
            dense_index=dense_index,
            corpus=corpus,
            chunker=config.chunker,
            **extra,
        )
    except Exception as exc:
        from .models import ModelUnavailable  # imported when a reranker fails, not per query

        if not isinstance(exc, ModelUnavailable):
            raise
        kept = Hits.of(hits).take(
            range(len(hits)), prev_rank=BaseField("rank"), retrieval_score=BaseField("score")
        )
        return RerankStage(rc.method, label, "unavailable", kept, rc.shortlist, message=str(exc))
    return RerankStage(
        method=rc.method,
        label=info.get("label", label),
        status="ok",
        hits=out,
        shortlist=min(rc.shortlist, len(hits)),
        message=info.get("message", ""),
        model=info.get("model"),
        params={k: v for k, v in info.items() if k not in ("label", "message", "model")},
    )


def _dense_vectoriser(
    dense_index: DenseIndex,
) -> Callable[[str, Sequence[Any]], tuple[Any, dict[str, Any]]]:
    """MMR vectors from the dense index (instead of TF-IDF) when dense retrieval ran."""
    row = {cid: i for i, cid in enumerate(dense_index.chunk_ids)}

    def dense_vectors(query: str, chunks: Sequence[Any]) -> tuple[Any, dict[str, Any]]:
        return dense_index.query_vector(query), {
            c.chunk_id: dense_index.vectors[row[c.chunk_id]] for c in chunks
        }

    dense_vectors.__name__ = f"dense ({dense_index.stamp.embedding_model})"
    return dense_vectors


# ------------------------------------------------------------- model stages


def _skipped_context(config: PipelineConfig, reason: str) -> ContextStage:
    c = config.context
    return ContextStage("skipped", c.policy, c.ordering, c.budget_tokens, (), message=reason)


def _skipped_generation(
    config: PipelineConfig, reason: str, status: str = "skipped"
) -> GenerationStage:
    return GenerationStage(status, config.generation.model, message=reason)  # type: ignore[arg-type]


def model_stages(
    config: PipelineConfig,
    question: str,
    gate: GateStage,
    corpus: CorpusIndex,
    progress: Progress | None = None,
    timings: dict[str, float] | None = None,
    chunks: Mapping[str, Chunk] | None = None,
    listener: Listener | None = None,
) -> tuple[ContextStage, GenerationStage, SupportStage]:
    """Context, generation and support for the kept candidates.

    ``chunks``: see :func:`rerank_stage`; ``listener``: see :func:`run`.
    """
    timings = timings if timings is not None else {}
    if gate.refused:
        reason = f"gate refused: {gate.reason}"
        return (
            _skipped_context(config, reason),
            _skipped_generation(config, reason + " — the model was not called"),
            SupportStage("skipped", message="no answer to check"),
        )
    from .answer.context import build_context
    from .answer.generation import generate
    from .answer.support import check_support
    from .models import ModelUnavailable, get_embedder, get_generator

    chunking = corpus.chunking(config.chunker)
    generator = None
    gen_problem = ""
    if config.generation.model != "none":
        t = time.perf_counter()
        if progress:
            progress(f"loading generator {config.generation.model}", 0.0)
        try:
            generator = get_generator(config.generation.model)
        except ModelUnavailable as exc:
            gen_problem = str(exc)
        timings["model_load"] = (time.perf_counter() - t) * 1000

    t = time.perf_counter()
    context = build_context(
        question,
        gate.kept,
        chunks if chunks is not None else chunking.by_id,
        corpus.docs,
        config.context,
        generator=generator,
        dropped_by_gate=gate.rejected,
    )
    timings["context"] = (time.perf_counter() - t) * 1000

    t = time.perf_counter()
    if config.generation.model == "none":
        generation = _skipped_generation(config, "generation is off (generation.model = none)")
    elif generator is None:
        generation = _skipped_generation(config, gen_problem, status="unavailable")
    else:
        if progress:
            progress(f"generating with {config.generation.model}", 0.5)
        on_text = None
        if listener is not None:
            listener("prompt", {"tokens": len(context.input_ids), "model_id": generator.model_id})
            on_text = partial(listener, "text")
        generation = generate(context, config.generation, generator=generator, on_text=on_text)
    timings["generation"] = (time.perf_counter() - t) * 1000

    t = time.perf_counter()
    if generation.status == "ok" and generation.answer is not None:
        try:  # the corpus's own embedder (e5 for a corpus with Korean documents)
            embedder = get_embedder(corpus.dense_choice(config.retrieval.dense_model)[0])
        except ModelUnavailable:
            embedder = None
        support = check_support(
            generation.answer,
            context,
            config.support,
            embedder=embedder,
            judge=generator if config.support.judge else None,
            question=question,
        )
    else:
        support = SupportStage(
            "skipped", message=f"no answer to check (generation {generation.status})"
        )
    timings["support"] = (time.perf_counter() - t) * 1000
    return context, generation, support


# ----------------------------------------------------------------------- run


def run(
    config: PipelineConfig,
    question: str,
    corpus: CorpusIndex,
    *,
    gold: Question | Sequence[Needle] | None = None,
    progress: Progress | None = None,
    stop_after: str = "support",
    listener: Listener | None = None,
    runs: Mapping[str, ExternalRun] | None = None,
    query_id: str | None = None,
) -> Trace:
    """Run one question through every stage and return the full ``Trace``.

    Args:
        config: the pipeline configuration.
        question: the user's question (validated: non-empty, ≤ MAX_QUESTION_CHARS).
        corpus: the loaded corpus and its index cache.
        gold: a question-set entry (or needles) to mark gold at every stage.
        progress: optional ``(message, fraction)`` callback for long work.
        stop_after: ``"gate"`` to skip context/generation/support (evaluation).
        listener: optional ``listener(event, value)`` told ``("prompt", {"tokens": n,
            "model_id": id})`` just before the model is called and ``("text", piece)``
            for each piece of a freshly generated answer (a cache replay sends none).
        runs: imported runs by tag (:class:`rag_core.retrieval.runs.ExternalRun`) for
            the ``run:TAG`` retrievers of ``config``.
        query_id: the query id those runs are read at (default: ``gold.id``).
    """
    if stop_after not in ("gate", "support"):
        raise ValueError(f"stop_after = {stop_after!r} is not valid; valid choices: gate, support")
    question, warnings = validate_question(question)
    plan = RunPlan(config, corpus, progress)
    if query_id is None and isinstance(gold, Question):
        query_id = gold.id
    return _run_planned(
        plan,
        question,
        warnings,
        plan.chunking_ms,
        gold=gold,
        progress=progress,
        stop_after=stop_after,
        listener=listener,
        runs=runs,
        query_id=query_id,
    )


def run_many(
    config: PipelineConfig,
    questions: Sequence[str],
    corpus: CorpusIndex,
    *,
    stop_after: str = "gate",
    runs: Mapping[str, ExternalRun] | None = None,
    query_ids: Sequence[str | None] | None = None,
) -> Iterator[Trace]:
    """:func:`run` for each question of a set, in order: the same Traces, made faster.

    The per-config work (chunking and index lookups, the dense model choice,
    analyzers, the config dict, the index stamp) is done once for the set
    (:class:`RunPlan`), not once per question. The Traces of one call share
    one ``config`` dict (read-only, as every part of a Trace). Timings: the
    first Trace carries the chunking lookup, the others 0 for it.

    Args:
        config, corpus, stop_after, runs: as for :func:`run`.
        questions: the question texts (each validated as by :func:`run`).
        query_ids: per question, the id the ``run:TAG`` retrievers read (default: none).

    Yields:
        One Trace per question, as ``run(config, q, corpus, stop_after=stop_after,
        runs=runs, query_id=qid)`` returns it (timings aside).
    """
    if stop_after not in ("gate", "support"):
        raise ValueError(f"stop_after = {stop_after!r} is not valid; valid choices: gate, support")
    if query_ids is not None and len(query_ids) != len(questions):
        raise ValueError(
            f"query_ids has {len(query_ids)} ids for {len(questions)} questions; "
            "give one per question"
        )
    plan: RunPlan | None = None
    for start in range(0, len(questions), PREFETCH_BLOCK):
        block = questions[start : start + PREFETCH_BLOCK]
        checked: list[tuple[str, tuple[str, ...]] | None] = []
        for text in block:  # an invalid question raises when its turn comes, below
            try:
                checked.append(validate_question(text))
            except ValueError:
                checked.append(None)
        chunking_ms = 0.0
        if plan is None:
            plan = RunPlan(config, corpus)
            chunking_ms = plan.chunking_ms
        plan.prefetch([c[0] for c in checked if c is not None])
        for i, text, valid in zip(range(start, start + len(block)), block, checked, strict=True):
            question, warnings = valid if valid is not None else validate_question(text)
            yield _run_planned(
                plan,
                question,
                warnings,
                chunking_ms,
                stop_after=stop_after,
                runs=runs,
                query_id=query_ids[i] if query_ids is not None else None,
            )
            chunking_ms = 0.0


def _run_planned(
    plan: RunPlan,
    question: str,
    warnings: tuple[str, ...],
    chunking_ms: float,
    *,
    gold: Question | Sequence[Needle] | None = None,
    progress: Progress | None = None,
    stop_after: str = "support",
    listener: Listener | None = None,
    runs: Mapping[str, ExternalRun] | None = None,
    query_id: str | None = None,
) -> Trace:
    """:func:`run` after the question is validated and the plan made (see there)."""
    config, corpus, chunking = plan.config, plan.corpus, plan.chunking
    warnings = warnings + plan.load_warnings
    timings: dict[str, float] = {"chunking": chunking_ms}

    t = time.perf_counter()
    extra: dict[str, Chunk] = {}
    retrieval, dense_index = retrieve(
        config,
        question,
        corpus,
        progress=progress,
        runs=runs,
        query_id=query_id,
        extra=extra,
        plan=plan,
    )
    timings["retrieval"] = (time.perf_counter() - t) * 1000
    table: Mapping[str, Chunk] = ChainMap(extra, chunking.by_id) if extra else chunking.by_id

    t = time.perf_counter()
    rerank = rerank_stage(config, question, retrieval.hits, corpus, dense_index, table)
    timings["rerank"] = (time.perf_counter() - t) * 1000

    t = time.perf_counter()
    gate = apply_gate(rerank.hits, config.gate)
    timings["gate"] = (time.perf_counter() - t) * 1000
    if gate.reason and not gate.refused:
        warnings = warnings + (gate.reason,)

    if stop_after == "gate":
        if plan.stop_gate is None:  # the same three skipped stages for every question
            reason = "not run (retrieval-only evaluation)"
            plan.stop_gate = (
                _skipped_context(config, reason),
                _skipped_generation(config, reason),
                SupportStage("skipped", message=reason),
            )
        context, generation, support = plan.stop_gate
    else:
        context, generation, support = model_stages(
            config, question, gate, corpus, progress, timings, table, listener
        )

    needles: tuple[Needle, ...] = ()
    if isinstance(gold, Question):
        needles = gold.needles
    elif gold:
        needles = tuple(gold)
    gview = None
    if needles:
        from .gold.diagnosis import gold_view

        gold_chunks = _WithExtra(chunking.chunks + tuple(extra.values())) if extra else chunking
        gview = gold_view(
            needles, corpus, gold_chunks, retrieval, rerank, gate, context, generation, support
        )

    # the chunks the stages name, gathered when first read (a page, the JSON), not per query
    chunks = LazyMapping(partial(_referenced_chunks, plan, retrieval, context, gview, extra, table))

    stamp = plan.stamp(dense_index)
    timings["total"] = sum(timings.values())
    return Trace(
        question=question,
        config=plan.config_dict,
        index_stamp=stamp,
        chunking=chunking.diagnostics,
        retrieval=retrieval,
        rerank=rerank,
        gate=gate,
        context=context,
        generation=generation,
        support=support,
        chunks=chunks,
        timings_ms=LazyMapping(partial(_rounded_ms, timings)),
        gold=gview,
        warnings=warnings,
    )


def _rounded_ms(timings: Mapping[str, float]) -> dict[str, float]:
    """A Trace's stage timings as shown: milliseconds to 3 decimals (rounded when first read)."""
    return {k: round(v, 3) for k, v in timings.items()}


def _referenced_chunks(
    plan: RunPlan,
    retrieval: RetrievalStage,
    context: ContextStage,
    gview: GoldView | None,
    extra: Mapping[str, Chunk],
    table: Mapping[str, Chunk],
) -> dict[str, Chunk]:
    """The Trace's chunk table: every chunk a retriever list, the fused list, the context or
    the gold view names, in chunking order (a run's extra chunks after the chunking's)."""
    chunking = plan.chunking
    referenced: set[str] = set()
    for lst in retrieval.lists:
        referenced.update(hit_column(lst.hits, "chunk_id"))
    referenced.update(hit_column(retrieval.hits, "chunk_id"))
    referenced.update(s.chunk_id for s in context.sources)
    if gview:
        for ids in gview.chunk_ids:
            referenced.update(ids)
    if extra:
        position: Mapping[str, int] = ChainMap(
            {cid: len(chunking.position) + i for i, cid in enumerate(extra)}, chunking.position
        )
        return {cid: table[cid] for cid in sorted(referenced, key=position.__getitem__)}
    # chunking order: sort the positions (ints) and read the chunks there
    cids, chunks = plan.chunk_ids, chunking.chunks
    return {cids[p]: chunks[p] for p in sorted(map(chunking.position.__getitem__, referenced))}


class _WithExtra:
    """A chunk list for :func:`rag_core.gold.diagnosis.gold_view` (``.chunks``) with a run's
    extra chunks."""

    def __init__(self, chunks: tuple[Chunk, ...]) -> None:
        self.chunks = chunks


def final_ranking(trace: Trace) -> list[str]:
    """The ranked chunk ids the metrics score: after rerank, before the gate."""
    return [h.chunk_id for h in trace.rerank.hits]
