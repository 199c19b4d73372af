"""A sweep's data: every query of a question set run once through the pipeline up to the gate,
with the gate open, and its ranked candidates recorded
(:class:`~rag_core.evaluation.sweep.SweepData`; :mod:`rag_core.evaluation.sweep` replays the
gate on them for any threshold and max-kept)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ..config import GateConfig
from ..formats.questions import queries_of
from ..types import Hit, Notice, Question
from ..wording import notice
from .run import merge_labels, run_queries
from .sweep import (
    METRIC_CHOICES,
    NOTICE_FINAL_SCORE,
    NOTICE_NO_DISTANCE,
    NOTICE_NO_DISTANCE_UNKNOWN,
    SCORE_FUSED,
    SCORE_FUSED_RERANKED,
    SCORE_SINGLE,
    SCORE_SINGLE_RERANKED,
    Candidate,
    Metric,
    QueryCandidates,
    SweepData,
)

if TYPE_CHECKING:
    from ..config import PipelineConfig
    from ..gold.labels import Label
    from ..index import CorpusIndex
    from ..retrieval.runs import ExternalRun


def collect(
    config: PipelineConfig,
    questions: Sequence[Question],
    corpus: CorpusIndex,
    *,
    phrasings: str = "all",
    labels: Sequence[Label] = (),
    question_set: str | None = None,
    metric: str = "auto",
    progress: Callable[[int, int], None] | None = None,
    runs: Mapping[str, ExternalRun] | None = None,
) -> SweepData:
    """Run every query with the gate open and record its ranked candidates.

    Args:
        config: a ``PipelineConfig``; its gate (``max_distance``,
            ``min_score``, ``max_kept``) is cleared, everything else is used
            as is (``retrieval.k`` is the candidate depth).
        questions: a question set with answerable and/or unanswerable questions.
        corpus: a ``CorpusIndex``.
        phrasings: ``all`` | ``question`` | an index (see ``queries_of``).
        labels: current manual labels (``LabelStore.current()``), merged
            with the shipped needles by :func:`rag_core.gold.merge.gold_for`.
        question_set: only labels of this set count (None: any set).
        metric: ``auto`` (distance when every candidate carries a cosine
            distance, else score), ``distance`` or ``score``.
        progress: ``(done, total)`` callback.
        runs: imported runs by tag for ``run:TAG`` retrievers (read at each query id).
    """
    if metric not in METRIC_CHOICES:
        raise ValueError(
            f"metric = {metric!r} is not valid; valid choices: {', '.join(METRIC_CHOICES)}"
        )
    if not questions:
        raise ValueError("the question set is empty: nothing to sweep")
    t0 = time.perf_counter()
    cfg = replace(config, gate=GateConfig())
    chunking = corpus.chunking(cfg.chunker)
    merged = merge_labels(questions, labels, corpus.docs, question_set)
    jobs = [(q, qid, text) for q in merged for qid, text in queries_of(q, phrasings)]
    raw, dense_messages = _ranked(cfg, jobs, corpus, runs, progress)
    have_distance = any(hits for *_, hits, _ in raw) and all(
        h.distance is not None for *_, hits, _ in raw for h in hits
    )
    chosen = _chosen_metric(metric, have_distance)
    warnings = _sweep_notices(cfg, chosen, have_distance, dense_messages)
    queries = [_query_candidates(row, chosen) for row in raw]
    return SweepData(
        metric=chosen,
        higher_is_better=chosen == "score",
        queries=tuple(queries),
        n_answerable=sum(1 for q in queries if q.answerable),
        n_unanswerable=sum(1 for q in queries if not q.answerable),
        depth=cfg.retrieval.k,
        phrasings=phrasings,
        chunker_signature=chunking.signature,
        config=cfg.to_dict(),
        seconds=time.perf_counter() - t0,
        warnings=tuple(warnings),
    )


#: One swept query: its question, query id and text, ranked hits and gold chunk ids.
_Row = tuple[Question, str, str, Sequence[Hit], frozenset[str]]


def _ranked(
    cfg: PipelineConfig,
    jobs: Sequence[tuple[Question, str, str]],
    corpus: CorpusIndex,
    runs: Mapping[str, ExternalRun] | None,
    progress: Callable[[int, int], None] | None,
) -> tuple[list[_Row], set[str]]:
    """Every job's reranked candidates with the gate open, and the messages of dense lists
    that did not run."""
    raw: list[_Row] = []
    dense_messages: set[str] = set()
    for qr in run_queries(cfg, jobs, corpus, runs=runs, progress=progress):
        for lst in qr.trace.retrieval.lists:
            if lst.method == "dense" and lst.status != "ok":
                dense_messages.add(lst.message or f"dense retrieval {lst.status}")
        # a gold chunk holds a gold span of the question (labels merged)
        gold_ids = frozenset(qr.grades)
        raw.append((qr.question, qr.query_id, qr.text, qr.trace.rerank.hits, gold_ids))
    return raw, dense_messages


def _chosen_metric(metric: str, have_distance: bool) -> Metric:
    """``auto`` → distance when every candidate carries one, else score; ``distance`` needs
    distances."""
    if metric == "auto":
        return "distance" if have_distance else "score"
    if metric == "distance" and not have_distance:
        raise ValueError(
            "metric = 'distance' needs dense retrieval: the candidates carry no cosine distance "
            "(add dense to retrieval.methods, or use metric = 'score')"
        )
    return metric  # type: ignore[return-value]


def _sweep_notices(
    cfg: PipelineConfig, chosen: Metric, have_distance: bool, dense_messages: set[str]
) -> list[Notice]:
    """What the sweep says: dense asked for but no distances; thresholds on the final score."""
    warnings: list[Notice] = []
    wants_dense = any(m == "dense" for m, _ in cfg.retrieval.method_specs)
    if wants_dense and not have_distance:
        messages = "; ".join(sorted(dense_messages))
        reason: str | Notice = messages or notice(NOTICE_NO_DISTANCE_UNKNOWN)
        warnings.append(notice(NOTICE_NO_DISTANCE, reason=reason))
    if chosen == "score":
        fused = len(cfg.retrieval.method_specs) > 1
        method = cfg.rerank.method
        if method == "none":
            which = notice(SCORE_FUSED if fused else SCORE_SINGLE)
        else:
            which = notice(SCORE_FUSED_RERANKED if fused else SCORE_SINGLE_RERANKED, method=method)
        warnings.append(notice(NOTICE_FINAL_SCORE, which=which))
    return warnings


def _query_candidates(row: _Row, chosen: Metric) -> QueryCandidates:
    """One query's ranked candidates with the swept value (distance or score) and gold marks."""
    q, qid, text, hits, gold_ids = row
    cands = tuple(
        Candidate(
            chunk_id=h.chunk_id,
            doc_id=h.doc_id,
            rank=r,
            value=float(h.distance if chosen == "distance" else h.score),  # type: ignore[arg-type]
            gold=h.chunk_id in gold_ids,
        )
        for r, h in enumerate(hits, 1)
    )
    return QueryCandidates(
        query_id=qid,
        question_id=q.id,
        text=text,
        answerable=q.answerable,
        candidates=cands,
        gold_in_chunking=bool(gold_ids),
        lang=q.lang,
        tags=q.tags,
    )
