"""Recorded gate candidates for the sweep tests: ``query(...)`` rows and ``data_of(...)`` sets."""

from __future__ import annotations

from rag_core.evaluation.sweep import Candidate, QueryCandidates, SweepData


def cands(values, gold=()):
    return tuple(
        Candidate(chunk_id=f"c{i}", doc_id="d", rank=i, value=v, gold=i in gold)
        for i, v in enumerate(values, 1)
    )


def data_of(queries, metric="distance"):
    return SweepData(
        metric=metric,
        higher_is_better=metric == "score",
        queries=tuple(queries),
        n_answerable=sum(q.answerable for q in queries),
        n_unanswerable=sum(not q.answerable for q in queries),
        depth=8,
        phrasings="all",
        chunker_signature="test",
        config={},
        seconds=0.0,
    )


def query(qid, values, gold=(), answerable=True):
    return QueryCandidates(qid, qid, f"text {qid}", answerable, cands(values, gold), bool(gold))
