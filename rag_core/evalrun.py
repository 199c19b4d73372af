"""Run a question set through a config and score the rankings.

Retrieval metrics need no generation call: each query runs the pipeline up
to the gate (``stop_after="gate"``) and the ranked list after rerank is scored
against the gold chunks — the chunks whose content contains a gold needle
entirely. Answers destroyed by the chunking are counted separately: for those
questions the recall ceiling is 0 whatever the retriever.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .config import PipelineConfig
from .index import CorpusIndex
from .questions import queries_of
from .types import Question


@dataclass(frozen=True)
class ConfigEvaluation:
    """One config over one question set."""

    config: dict[str, Any]
    chunker_signature: str
    ks: tuple[int, ...]
    n_questions: int
    n_queries: int
    result: Any  # rag_core.evaluation.EvalResult
    rankings: dict[str, tuple[str, ...]]
    gold: dict[str, dict[str, int]]
    query_text: dict[str, str]
    question_of: dict[str, str]
    tags: dict[str, tuple[str, ...]]
    destroyed: tuple[str, ...]  # query ids whose every gold needle is destroyed

    @property
    def means(self) -> Any:
        return self.result.means

    def to_dict(self) -> dict[str, Any]:
        """JSON form: means with intervals, per-query rows, answers destroyed."""
        from .types import to_jsonable

        res = self.result
        per_query = {
            qid: {
                "question_id": self.question_of[qid],
                "text": self.query_text[qid],
                "first_gold_rank": res.first_gold_rank.get(qid),
                "destroyed": qid in self.destroyed,
                **res.per_query[qid],
            }
            for qid in res.per_query
        }
        return {
            "config": self.config,
            "chunker_signature": self.chunker_signature,
            "ks": list(self.ks),
            "n_questions": self.n_questions,
            "n_queries": self.n_queries,
            "interval": res.interval,
            "means": to_jsonable(res.means),
            "answers_destroyed": len(self.destroyed),
            "destroyed": list(self.destroyed),
            "per_query": per_query,
        }


def evaluate_config(
    config: PipelineConfig,
    questions: Sequence[Question],
    corpus: CorpusIndex,
    *,
    ks: Sequence[int] = (1, 4, 8, 20),
    phrasings: str = "all",
    gain: str = "binary",
    progress: Callable[[int, int], None] | None = None,
    labels: Sequence[Any] = (),
    question_set: str | None = None,
) -> ConfigEvaluation:
    """Score the retrieval of every answerable question (each phrasing a query).

    ``labels`` (from :class:`rag_core.labels.LabelStore`) add to or override
    the shipped needles (see :func:`rag_core.labels.gold_for`); graded labels
    give graded relevance.
    """
    from .evaluation import evaluate_queries
    from .pipeline import run
    from .relevance import relevant_chunk_ids

    depth = max(ks)
    cfg = replace(config, retrieval=replace(config.retrieval, k=max(depth, config.retrieval.k)))
    chunking = corpus.chunking(cfg.chunker)
    if labels:
        from .labels import gold_for

        questions = [
            replace(q, needles=gold_for(q, labels, corpus.docs, question_set=question_set))
            for q in questions
        ]
    answerable = [q for q in questions if q.answerable and q.needles]
    if not answerable:
        raise ValueError("the question set has no answerable question with gold needles to score")
    rankings: dict[str, tuple[str, ...]] = {}
    gold: dict[str, dict[str, int]] = {}
    texts: dict[str, str] = {}
    question_of: dict[str, str] = {}
    tags: dict[str, tuple[str, ...]] = {}
    destroyed: list[str] = []
    units: dict[str, list[set[str]]] = {}
    jobs = [(q, qid, text) for q in answerable for qid, text in queries_of(q, phrasings)]
    for i, (q, qid, text) in enumerate(jobs):
        per_needle = relevant_chunk_ids(chunking.chunks, q.needles, corpus.docs)
        grades: dict[str, int] = {}
        for needle, ids in zip(q.needles, per_needle):
            for cid in ids:
                grades[cid] = max(grades.get(cid, 0), needle.grade)
        units[qid] = [set(ids) for ids in per_needle]
        if all(not ids for ids in per_needle):
            destroyed.append(qid)
        trace = run(cfg, text, corpus, stop_after="gate")
        rankings[qid] = tuple(h.chunk_id for h in trace.rerank.hits[:depth])
        gold[qid] = grades
        texts[qid] = text
        question_of[qid] = q.id
        tags[qid] = (f"lang:{q.lang}",) + tuple(q.tags)
        if progress:
            progress(i + 1, len(jobs))
    # Every answerable question is judged: one whose needles the chunking
    # destroyed scores 0 (its recall ceiling) instead of leaving the means.
    result = evaluate_queries(rankings, gold, ks, gain=gain, judged=set(rankings), units=units)
    return ConfigEvaluation(
        config=cfg.to_dict(),
        chunker_signature=chunking.signature,
        ks=tuple(ks),
        n_questions=len(answerable),
        n_queries=len(jobs),
        result=result,
        rankings=rankings,
        gold=gold,
        query_text=texts,
        question_of=question_of,
        tags=tags,
        destroyed=tuple(destroyed),
    )


def compare_configs(a: ConfigEvaluation, b: ConfigEvaluation) -> dict[str, Any]:
    """Paired sign test per metric over the queries both evaluated."""
    from .evaluation import compare_results

    return compare_results(a.result, b.result)
