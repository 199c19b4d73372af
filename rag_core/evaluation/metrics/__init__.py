"""Rank metrics, one file per metric, looked up by name.

=========  ===================  =======================================
name       keys                 file
=========  ===================  =======================================
``hit``    ``hit@k``            :mod:`.hit` (success@k)
``recall`` ``recall@k``         :mod:`.recall`
``p``      ``p@k``              :mod:`.precision`
``rr``     ``rr``               :mod:`.rr` (mean: MRR)
``ndcg``   ``ndcg@k``           :mod:`.ndcg` (gain binary / exp / linear)
``ap``     ``ap``               :mod:`.ap` (mean: MAP)
=========  ===================  =======================================

plus :func:`answers_destroyed` (:mod:`.destroyed`), a property of a chunking
rather than of a ranking.

Conventions follow trec_eval / pytrec_eval (checked against both pytrec_eval
and ir_measures in ``tests/test_metrics.py``) with one deliberate difference:
a query with no relevant id is *not judged* — its recall, nDCG and AP are
``None`` and it is left out of every mean — where trec_eval scores it 0.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import repeat
from typing import Any

from ...registry import Registry
from ._common import MetricFn, check_k, check_ranking, n_relevant, rank_by_score
from .ap import average_precision
from .destroyed import answers_destroyed, destroyed_needles
from .hit import hit
from .ndcg import GAINS, dcg, discount, ndcg
from .precision import precision
from .recall import recall, unit_recall
from .rr import first_relevant_rank, reciprocal_rank

METRICS: Registry[MetricFn] = Registry("metric")
METRICS.add("hit", hit)
METRICS.add("recall", recall)
METRICS.add("p", precision)
METRICS.add("rr", reciprocal_rank)
METRICS.add("ndcg", ndcg)
METRICS.add("ap", average_precision)

#: Metrics reported at each cutoff k (``name@k``), in output order.
CUT_METRICS: tuple[str, ...] = ("hit", "recall", "p", "ndcg")
#: Metrics reported once, over the whole ranking.
UNCUT_METRICS: tuple[str, ...] = ("rr", "ap")

Ranking = Sequence[str]
Qrels = Mapping[str, int]


def metric_key(name: str, k: int | None = None) -> str:
    """Output key of a metric: ``ndcg@10`` for a cut metric, ``rr`` for an uncut one."""
    METRICS.get(name)
    if name in CUT_METRICS:
        check_k(k, required=True)
        return f"{name}@{k}"
    if k is not None:
        raise ValueError(f"metric {name!r} is reported without a cutoff; got k={k!r}")
    return name


def parse_metric_key(key: str) -> tuple[str, int | None]:
    """Inverse of :func:`metric_key`: ``"recall@20"`` → ``("recall", 20)``."""
    name, sep, cut = key.partition("@")
    if not sep:
        METRICS.get(name)
        if name in CUT_METRICS:
            raise ValueError(f"metric key {key!r} needs a cutoff, e.g. {name}@10")
        return name, None
    if name not in CUT_METRICS:
        raise ValueError(f"metric key {key!r}: only {', '.join(CUT_METRICS)} take a cutoff")
    if not cut.isdigit() or int(cut) < 1:
        raise ValueError(f"metric key {key!r}: cutoff must be a positive integer")
    return name, int(cut)


def check_ks(ks: Sequence[int]) -> tuple[int, ...]:
    """Validate cutoffs; return them sorted and without repeats."""
    if isinstance(ks, (str, bytes)) or not isinstance(ks, Sequence) or len(ks) == 0:
        raise ValueError(f"ks must be a non-empty sequence of positive integers; got {ks!r}")
    for k in ks:
        check_k(k)
    return tuple(sorted(set(ks)))


def metric_keys(ks: Sequence[int]) -> tuple[str, ...]:
    """All output keys for cutoffs ``ks``, in the order :func:`evaluate_ranking` uses."""
    cuts = check_ks(ks)
    return tuple(f"{name}@{k}" for name in CUT_METRICS for k in cuts) + UNCUT_METRICS


def evaluate_ranking(
    ranking: Ranking,
    qrels: Qrels,
    ks: Sequence[int],
    gain: str = "binary",
    *,
    judged: bool | None = None,
) -> dict[str, float | None]:
    """All metrics of one ranking: ``hit@k``, ``recall@k``, ``p@k``, ``ndcg@k``, ``rr``, ``ap``.

    Args:
        ranking: distinct ids, best first.
        qrels: id → grade for this query; grade > 0 is relevant.
        ks: cutoffs for the cut metrics.
        gain: nDCG gain (``binary``, ``exp``, ``linear``).
        judged: ``None`` (default): the query is judged when ``qrels`` holds a
            relevant id, otherwise every value is ``None`` (*not judged*).
            ``True``: the query has gold evidence even if no id here is
            relevant (e.g. its needle was destroyed by the chunking), so every
            value is 0.0 — its recall ceiling. ``False``: every value is ``None``.
    """
    cuts = check_ks(ks)
    keys = tuple(f"{name}@{k}" for name in CUT_METRICS for k in cuts) + UNCUT_METRICS
    check_ranking(ranking)
    gain_fn = GAINS.get(gain)
    total = n_relevant(qrels)
    if judged is False or (total == 0 and not judged):
        return dict.fromkeys(keys)
    if total == 0:
        return dict.fromkeys(keys, 0.0)
    # One pass over the ranking: the ranks and grades of the relevant ids. Each
    # metric below is its own module's formula restricted to those ranks (an
    # irrelevant rank adds 0 to every sum), summed in the same order, so the
    # values are bit-for-bit those of hit(), recall(), precision(), ndcg(),
    # reciprocal_rank() and average_precision() (checked in tests/test_metrics.py).
    found = [
        (rank, grade)
        for rank, grade in enumerate(map(qrels.get, ranking, repeat(0)), 1)
        if grade > 0
    ]
    ideal_gains = sorted((gain_fn(g) for g in qrels.values() if g > 0), reverse=True)
    out: dict[str, float | None] = {}
    for k in cuts:
        out[f"hit@{k}"] = 1.0 if found and found[0][0] <= k else 0.0
    n_at = [sum(1 for rank, _ in found if rank <= k) for k in cuts]
    for k, n in zip(cuts, n_at, strict=True):
        out[f"recall@{k}"] = n / total
    for k, n in zip(cuts, n_at, strict=True):
        out[f"p@{k}"] = n / k
    for k in cuts:
        ideal = dcg(ideal_gains[:k])
        out[f"ndcg@{k}"] = (
            None
            if ideal == 0.0
            else sum(gain_fn(g) * discount(r) for r, g in found if r <= k) / ideal
        )
    out["rr"] = 1.0 / found[0][0] if found else 0.0
    precision_sum = 0.0
    for n, (rank, _) in enumerate(found, 1):
        precision_sum += n / rank
    out["ap"] = precision_sum / total
    return out


def as_ranking(qid: str, entry: Ranking | Mapping[str, float]) -> list[str]:
    """A run entry as a ranked list: scores are ranked by :func:`rank_by_score`."""
    if isinstance(entry, Mapping):
        return rank_by_score(entry)
    if isinstance(entry, (str, bytes)) or not isinstance(entry, Sequence):
        raise ValueError(
            f"run entry for query {qid!r} must be a ranked list of ids or a mapping "
            f"id → score; got {type(entry).__name__}"
        )
    return list(entry)


def mean_or_none(values: Sequence[float | None]) -> float | None:
    """``fsum`` mean of the non-``None`` values; ``None`` when there are none."""
    kept = [v for v in values if v is not None]
    return math.fsum(kept) / len(kept) if kept else None


def evaluate_run(
    run: Mapping[str, Ranking | Mapping[str, float]],
    qrels: Mapping[str, Qrels],
    ks: Sequence[int],
    gain: str = "binary",
) -> dict[str, Any]:
    """Per-query metrics and their means for a whole run.

    A run entry is either a ranked list of ids or a mapping id → score; scores
    are ranked as trec_eval ranks them (score descending, ties by id
    descending — see :func:`rank_by_score`).

    Means are over the queries of ``qrels`` with at least one relevant id. A
    judged query missing from the run counts as an empty ranking (0 on every
    metric). Queries with no relevant id in ``qrels``, and queries of the run
    absent from ``qrels``, are *not judged*: their values are ``None``, they
    are listed under ``"not_judged"`` and left out of the means.

    Returns:
        ``{"per_query": {qid: {key: value}}, "mean": {key: value},
        "n_queries": judged count, "not_judged": [qid, ...]}``.
    """
    keys = metric_keys(ks)
    rankings = {qid: as_ranking(qid, entry) for qid, entry in run.items()}
    per_query: dict[str, dict[str, float | None]] = {}
    not_judged: list[str] = []
    for qid in list(qrels) + [q for q in rankings if q not in qrels]:
        grades = qrels.get(qid, {})
        values = evaluate_ranking(rankings.get(qid, []), grades, ks, gain)
        per_query[qid] = values
        if values[keys[0]] is None:
            not_judged.append(qid)
    skipped = set(not_judged)
    judged = [qid for qid in per_query if qid not in skipped]
    mean = {key: mean_or_none([per_query[q][key] for q in judged]) for key in keys}
    return {
        "per_query": per_query,
        "mean": mean,
        "n_queries": len(judged),
        "not_judged": not_judged,
    }


__all__ = [
    "unit_recall",
    "CUT_METRICS",
    "GAINS",
    "METRICS",
    "UNCUT_METRICS",
    "MetricFn",
    "answers_destroyed",
    "as_ranking",
    "average_precision",
    "check_ks",
    "destroyed_needles",
    "evaluate_ranking",
    "evaluate_run",
    "first_relevant_rank",
    "hit",
    "mean_or_none",
    "metric_key",
    "metric_keys",
    "ndcg",
    "parse_metric_key",
    "precision",
    "rank_by_score",
    "recall",
    "reciprocal_rank",
]
