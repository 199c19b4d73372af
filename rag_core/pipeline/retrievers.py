"""The retrievers: one driver per ``retrieval.methods`` entry, by name in :data:`RETRIEVERS`.

A driver takes a :class:`Request` (the question, the run's plan, the list's name and
analyzer, the imported runs) and returns what it made (:class:`Retrieved`): the list, and the
dense index or the chunks outside the chunking it brought. To add
a retriever: write its kernel under ``rag_core/retrieval/``, a driver here, register it
under its method name, and list the name in ``rag_core.config.RETRIEVAL_METHODS``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .. import models  # models.get_* read at call time: the one place a model is swapped
from ..config import PipelineConfig
from ..index import CorpusIndex, Progress
from ..models import ModelUnavailable
from ..registry import Registry
from ..retrieval.dense import DenseIndex
from ..retrieval.qdrant import (
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
from ..retrieval.runs import ExternalRun, resolve_hits
from ..retrieval.sparse.analyzers import auto_segments
from ..types import AnalyzerView, Chunk, Chunking, Hit, Notice, RetrieverList, StageStatus
from ..wording import declare, notice
from .plan import RunPlan

#: Why a retriever list is empty or unavailable (``RetrieverList.notice``).
RUN_NOT_LOADED = declare("run.not_loaded", "tag", "loaded")
RUN_NO_QUERY_ID = declare("run.no_query_id", "tag")
RUN_NO_HITS = declare("run.no_hits", "tag", "query_id")
RUN_EMPTY = declare("run.empty", "tag")
#: ``reason`` is the loader's own notice (``ModelUnavailable.notice``).
RETRIEVER_MODEL_UNAVAILABLE = declare("retriever.model_unavailable", "model", "reason")
RETRIEVER_NO_SHARED_TERM = declare("retriever.no_shared_term")
QDRANT_NO_POINTS = declare("qdrant.no_points")
QDRANT_FOREIGN_HITS = declare("qdrant.foreign_hits", "foreign", "found", "signature", "example")
QDRANT_DISTANCE_SCORES = declare("qdrant.distance_scores", "distance")
#: Two of the above at once (``first`` and ``second`` are notices).
QDRANT_TWO_NOTES = declare("qdrant.two_notes", "first", "second")


@dataclass(frozen=True)
class Request:
    """What a retriever driver is given for one list of one question."""

    question: str
    plan: RunPlan
    #: the list's name (``bm25:char``, ``dense:MODEL``, ``run:TAG``…)
    name: str
    method: str
    #: the analyzer of a sparse list, the tag of an imported run, None otherwise
    analyzer: str | None
    progress: Progress | None = None
    runs: Mapping[str, ExternalRun] | None = None
    query_id: str | None = None


@dataclass(frozen=True)
class Retrieved:
    """A driver's list, for the dense one its index and every chunk's cosine, for an imported
    run the chunks its hits name that the chunking lacks (whole documents, external texts)."""

    list: RetrieverList
    dense_index: DenseIndex | None = None
    cosines: Any = None
    extra: Mapping[str, Chunk] = field(default_factory=dict)


#: Retriever drivers by ``retrieval.methods`` name.
RETRIEVERS: Registry[Callable[[Request], Retrieved]] = Registry("retriever")


@RETRIEVERS.register("tfidf")
@RETRIEVERS.register("bm25")  # the one closest to the function registers first
def sparse_list(req: Request) -> Retrieved:
    """A BM25 or TF-IDF list: the plan's kernel result (prefetched or run now) and the
    analyzer view of the query's terms."""
    plan, method, analyzer, question = req.plan, req.method, str(req.analyzer), req.question
    route = plan.sparse(method, analyzer)
    q_tokens, found = plan.search(method, analyzer, question)
    hits = _plan_hits(plan, found.indices, found.scores)
    view = AnalyzerView(
        analyzer=analyzer,
        idf_form=route.idf_form,
        n_docs=route.n_docs,
        terms=route.index.term_stats(q_tokens),
        segments=_auto_segments(question) if analyzer == "auto" else (),
    )
    empty = None if hits else notice(RETRIEVER_NO_SHARED_TERM)
    return Retrieved(
        RetrieverList(
            req.name,
            method,
            analyzer,
            hits,
            found.n_candidates,
            notice=empty,
            analyzer_view=view,
            params=route.params,
        )
    )


@RETRIEVERS.register("dense")
def dense_list(req: Request) -> Retrieved:
    """Exact cosine over the chunk vectors of the plan's dense model (built on first use)."""
    plan = req.plan
    config, corpus, chunking = plan.config, plan.corpus, plan.chunking
    dense_index = None
    try:
        dense_index = corpus.dense(config.chunker, plan.dense_model, req.progress)
        dense_cos = dense_index.cosines(req.question)
    except ModelUnavailable as exc:
        unavailable = _empty_list(
            req.name,
            req.method,
            "unavailable",
            notice(RETRIEVER_MODEL_UNAVAILABLE, model=exc.name, reason=exc.notice),
            model=plan.dense_model,
            params={"model_choice": plan.dense_reason},
            choice=plan.dense_why,
        )
        return Retrieved(unavailable, dense_index=dense_index)
    order = _top_indices(dense_cos, config.retrieval.k)
    # numpy arithmetic, as the distances given to fused hits later (same float32 rounding)
    hits = _plan_hits(plan, order, dense_cos[order], (1.0 - dense_cos[order]).tolist())
    found = RetrieverList(
        req.name,
        req.method,
        None,
        hits,
        len(chunking.chunks),
        model=dense_index.stamp.embedding_model,
        params={"similarity": "cosine", "normalized": True, "model_choice": plan.dense_reason},
        choice=plan.dense_why,
    )
    return Retrieved(found, dense_index=dense_index, cosines=dense_cos)


@RETRIEVERS.register("qdrant")
def qdrant_driver(req: Request) -> Retrieved:
    """The configured Qdrant collection (:func:`qdrant_list`)."""
    return Retrieved(qdrant_list(req.plan.config, req.question, req.plan.chunking))


@RETRIEVERS.register("run")
def run_driver(req: Request) -> Retrieved:
    """An imported run, read at the request's query id (:func:`run_list`)."""
    plan = req.plan
    found, extra = run_list(
        req.name, str(req.analyzer), plan.config, plan.corpus, plan.chunking, req.runs, req.query_id
    )
    return Retrieved(found, extra=extra)


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
    rcfg = config.retrieval
    name = f"qdrant:{rcfg.qdrant_collection}"
    try:
        target = QdrantTarget(url=rcfg.qdrant_url, path=rcfg.qdrant_path)
        facts = collection_facts(connect(target), target, rcfg.qdrant_collection)
        embedder = models.get_embedder(rcfg.qdrant_model)
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
    except (QdrantError, ModelUnavailable) as exc:
        if isinstance(exc, QdrantError):
            status, why = exc.kind, exc.notice
        else:
            why = notice(RETRIEVER_MODEL_UNAVAILABLE, model=exc.name, reason=exc.notice)
            status = "unavailable"
        return _empty_list(name, "qdrant", status, why, model=rcfg.qdrant_model)  # type: ignore[arg-type]
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
    ok: Literal["error", "ok"] = "error" if foreign and not hits else "ok"
    said = _qdrant_notice(len(found), hits, foreign, facts, chunking.signature)
    return RetrieverList(
        name,
        "qdrant",
        None,
        tuple(hits),
        facts.points,
        status=ok,
        notice=said,
        model=embedder.model_id,
        params=params,
    )


def _qdrant_notice(
    n_found: int, hits: list[Hit], foreign: list[Any], facts: Any, signature: str
) -> Notice | None:
    """What a Qdrant list says: no point, the foreign hits left out, scores that are distances."""
    said = None if hits else notice(QDRANT_NO_POINTS)
    if foreign:
        said = notice(
            QDRANT_FOREIGN_HITS,
            foreign=len(foreign),
            found=n_found,
            signature=signature,
            example=foreign[0].chunk_id,
        )
    if hits and not higher_is_better(facts):
        distances = notice(QDRANT_DISTANCE_SCORES, distance=facts.distance)
        said = distances if said is None else notice(QDRANT_TWO_NOTES, first=said, second=distances)
    return said


def run_list(
    name: str,
    tag: str,
    config: PipelineConfig,
    corpus: CorpusIndex,
    chunking: Chunking,
    runs: Mapping[str, ExternalRun] | None,
    query_id: str | None,
) -> tuple[RetrieverList, dict[str, Chunk]]:
    """The retriever list of an imported run (``run:TAG``), see :mod:`rag_core.retrieval.runs`,
    and the chunks its hits name that the chunking lacks (whole documents, external texts)."""
    run_ = (runs or {}).get(tag)
    if run_ is None:
        loaded = ", ".join(sorted(runs or {})) or "none"
        return _empty_list(
            name, "run", "unavailable", notice(RUN_NOT_LOADED, tag=tag, loaded=loaded)
        ), {}
    run_hits = run_.for_query(query_id)
    if run_hits is None:
        why = (
            notice(RUN_NO_QUERY_ID, tag=tag)
            if query_id is None
            else notice(RUN_NO_HITS, tag=tag, query_id=query_id)
        )
        return _empty_list(name, "run", "unavailable", why, params={"source": run_.source}), {}
    hits, more = resolve_hits(
        run_hits, config.retrieval.k, chunking, corpus.docs, corpus.doc_chunk_ids(config.chunker)
    )
    outside = sum(1 for h in hits if h.chunk_id in more)
    no_text = sum(1 for h in hits if h.note == "text unavailable")
    params: dict[str, Any] = {"source": run_.source, "tag": tag}
    if outside:
        params["outside_chunking"] = outside
    if no_text:
        params["text_unavailable"] = no_text
    empty = None if hits else notice(RUN_EMPTY, tag=tag)
    return RetrieverList(
        name,
        "run",
        None,
        hits,
        len(run_hits),
        notice=empty,
        params=params,
    ), more


def _empty_list(
    name: str, method: str, status: StageStatus, why: Notice, **more: Any
) -> RetrieverList:
    """A list with no hit and no candidate, of ``status`` (unavailable, error) for reason
    ``why``; ``more``: its other fields (model, params, choice)."""
    return RetrieverList(name, method, None, (), 0, status=status, notice=why, **more)


def _plan_hits(
    plan: RunPlan, indices: Any, scores: Any, distances: list[float] | None = None
) -> tuple[Hit, ...]:
    """Ranked hits, rank 1 first, of the chunks at chunking positions ``indices`` with
    ``scores`` (numpy arrays or lists) and optionally their cosine ``distances``."""
    idx = indices.tolist() if hasattr(indices, "tolist") else list(indices)
    vals = scores.tolist() if hasattr(scores, "tolist") else list(scores)
    dists = distances if distances is not None else [None] * len(idx)
    ids, docs = plan.chunk_ids, plan.doc_ids
    return tuple(
        Hit(ids[i], docs[i], rank, score, distance)
        for rank, (i, score, distance) in enumerate(zip(idx, vals, dists, strict=True), start=1)
    )


def _auto_segments(question: str) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    return tuple((run.strip(), name, tuple(terms)) for run, name, terms in auto_segments(question))


def _top_indices(scores: Any, k: int) -> list[int]:
    """Indices of the k largest scores, ties broken by position (stable)."""
    scores = np.asarray(scores)
    k = min(k, len(scores))
    if k <= 0:
        return []
    part = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
    return sorted(part.tolist(), key=lambda i: (-scores[i], i))
