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
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import repeat
from typing import Any

from ...formats.trec import as_ranking
from ...registry import Registry
from ._common import MetricFn, check_k, check_ranking
from .ap import average_precision
from .destroyed import answers_destroyed, destroyed_needles
from .hit import hit
from .ndcg import GAINS, Gain, binary_gain, dcg, discount, ndcg
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


def parse_metric_key(key: str) -> tuple[str, int | None]:
    """A metric's output key (``ndcg@10`` for a cut metric, ``rr`` for an uncut one) split:
    ``"recall@20"`` → ``("recall", 20)``."""
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


def _cuts_and_keys(ks: Sequence[int]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    cuts = check_ks(ks)
    return cuts, tuple(f"{name}@{k}" for name in CUT_METRICS for k in cuts) + UNCUT_METRICS


@lru_cache(maxsize=256)
def _checked_cuts(
    ks: tuple[int, ...], types: tuple[type, ...]
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """``(cuts, keys)`` for cutoffs ``ks`` whose element types are ``types`` (a cache key only)."""
    return _cuts_and_keys(ks)


def cuts_and_keys(ks: Sequence[int]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """:func:`check_ks` and :func:`metric_keys` in one call, cached per list or tuple of cutoffs.

    The cache key holds each cutoff's type, so ``[True]`` or ``[1.0]`` is checked
    (and refused) like ``[1]`` is accepted; a bad ``ks`` raises :func:`check_ks`'s error.
    """
    if type(ks) is tuple or type(ks) is list:
        try:
            return _checked_cuts(tuple(ks), tuple(map(type, ks)))
        except (TypeError, ValueError):  # unhashable or bad cutoffs: check_ks words the error
            pass
    return _cuts_and_keys(ks)


def metric_keys(ks: Sequence[int]) -> tuple[str, ...]:
    """All output keys for cutoffs ``ks``, in the order :func:`evaluate_ranking` uses."""
    return cuts_and_keys(ks)[1]


#: Ranks up to this have their :func:`discount` in a table.
_DISCOUNT_TABLE = 1000


@lru_cache(maxsize=64)
def _discounts(last: int) -> tuple[float, ...]:
    """:func:`discount` of ranks 0 … ``last``, indexed by rank (index 0 unused)."""
    return (0.0,) + tuple(discount(rank) for rank in range(1, last + 1))


#: Per cutoff: ``k``, IDCG@k and the keys of hit@k, recall@k, p@k and nDCG@k.
_Cut = tuple[int, float, str, str, str, str]


@lru_cache(maxsize=1024)
def _plan(
    gain_fn: Gain, grades: tuple[int, ...], types: tuple[type, ...], cuts: tuple[int, ...]
) -> tuple[tuple[_Cut, ...], dict[str, float | None], tuple[float, ...]]:
    """What :func:`evaluate_checked` needs for one set of relevant grades and cutoffs.

    Args:
        gain_fn: the nDCG gain.
        grades: the grades > 0 of the qrels, in any order.
        types: the type of each grade (a cache key only: ``1`` and ``1.0`` are equal keys).
        cuts: checked cutoffs.

    Returns:
        ``(per_cut, blank, discounts)``: per cutoff its IDCG and keys
        (:data:`_Cut`); every value of a ranking with no relevant id, in
        :func:`evaluate_ranking`'s key order (``0 / total``, ``0 / k``,
        ``0 / IDCG``, ``None`` where IDCG is 0; callers copy it);
        :func:`discount` by rank up to the largest cutoff (at most
        :data:`_DISCOUNT_TABLE`).
    """
    ideal_gains = sorted((gain_fn(g) for g in grades), reverse=True)
    ideals = [dcg(ideal_gains[:k]) for k in cuts]
    per_cut = tuple(
        (k, ideal, f"hit@{k}", f"recall@{k}", f"p@{k}", f"ndcg@{k}")
        for k, ideal in zip(cuts, ideals, strict=True)
    )
    blank: dict[str, float | None] = {}
    for name in ("hit", "recall", "p"):
        blank.update((f"{name}@{k}", 0.0) for k in cuts)
    blank.update(
        (f"ndcg@{k}", None if ideal == 0.0 else sum(()) / ideal)
        for k, ideal in zip(cuts, ideals, strict=True)
    )
    blank.update(dict.fromkeys(UNCUT_METRICS, 0.0))
    return per_cut, blank, _discounts(min(cuts[-1], _DISCOUNT_TABLE))


@lru_cache(maxsize=256)
def _binary_plan(
    total: int, cuts: tuple[int, ...]
) -> tuple[tuple[_Cut, ...], dict[str, float | None], tuple[float, ...]]:
    """:func:`_plan` for the binary gain, which sees only how many grades are relevant."""
    return _plan(binary_gain, (1,) * total, (int,) * total, cuts)


#: Up to this many ids both in the qrels and in the ranking, their ranks are found
#: with ``ranking.index``; above it, by one pass over the ranking.
_INDEX_LOOKUPS = 8


def evaluate_checked(
    ranking: Ranking,
    qrels: Qrels,
    cuts: tuple[int, ...],
    keys: tuple[str, ...],
    gain: str = "binary",
    judged: bool | None = None,
) -> tuple[dict[str, float | None], int | None]:
    """:func:`evaluate_ranking` for cutoffs already checked, and the first relevant rank.

    Args:
        ranking, qrels, gain, judged: as for :func:`evaluate_ranking`.
        cuts, keys: what :func:`cuts_and_keys` returns for the cutoffs.

    Returns:
        ``(values, rank)``: the values :func:`evaluate_ranking` returns, and
        the 1-based rank of the first relevant id (:func:`first_relevant_rank`),
        ``None`` when none is retrieved or the query is not judged.
    """
    if isinstance(ranking, (str, bytes)):
        check_ranking(ranking)
    distinct = set(ranking)
    if len(distinct) != len(ranking):
        check_ranking(ranking)  # raises, naming the repeated id
    gain_fn = GAINS.get(gain)
    relevant = [grade for grade in qrels.values() if grade > 0]
    total = len(relevant)
    if judged is False or (total == 0 and not judged):
        return dict.fromkeys(keys), None
    if total == 0:
        return dict.fromkeys(keys, 0.0), None
    # The ranks and grades of the relevant ids, in rank order. Each metric below
    # is its own module's formula restricted to those ranks (an irrelevant rank
    # adds 0 to every sum), summed in the same order, so the values are
    # bit-for-bit those of hit(), recall(), precision(), ndcg(),
    # reciprocal_rank() and average_precision() (checked in tests/test_metrics.py).
    common = qrels.keys() & distinct
    found: list[tuple[int, int]]
    if len(common) <= _INDEX_LOOKUPS:
        index = ranking.index
        found = sorted([(index(doc) + 1, grade) for doc in common if (grade := qrels[doc]) > 0])
    else:
        found = [
            (rank, grade)
            for rank, grade in enumerate(map(qrels.get, ranking, repeat(0)), 1)
            if grade > 0
        ]
    if gain_fn is binary_gain:
        per_cut, blank, discounts = _binary_plan(total, cuts)
    else:
        grades = tuple(sorted(relevant))
        per_cut, blank, discounts = _plan(gain_fn, grades, tuple(map(type, grades)), cuts)
    out = blank.copy()
    if not found:
        return out, None
    ranks = [rank for rank, _ in found]
    first = ranks[0]
    last = cuts[-1]
    if last < len(discounts):
        terms = [gain_fn(grade) * discounts[rank] for rank, grade in found if rank <= last]
    else:
        terms = [gain_fn(grade) * discount(rank) for rank, grade in found if rank <= last]
    # A cutoff above which no relevant id is ranked keeps its blank values.
    for k, ideal, hit_key, recall_key, p_key, ndcg_key in reversed(per_cut):
        if k < first:
            break
        n = bisect_right(ranks, k)  # relevant ids in the top k
        out[hit_key] = 1.0
        out[recall_key] = n / total
        out[p_key] = n / k
        if ideal != 0.0:
            out[ndcg_key] = sum(terms[:n]) / ideal
    out["rr"] = 1.0 / first
    precision_sum = 0.0
    for n, rank in enumerate(ranks, 1):
        precision_sum += n / rank
    out["ap"] = precision_sum / total
    return out, first


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
    cuts, keys = cuts_and_keys(ks)
    return evaluate_checked(ranking, qrels, cuts, keys, gain, judged)[0]


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
    descending — see :func:`rag_core.formats.trec.rank_by_score`).

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
    "average_precision",
    "check_ks",
    "cuts_and_keys",
    "destroyed_needles",
    "evaluate_checked",
    "evaluate_ranking",
    "evaluate_run",
    "first_relevant_rank",
    "hit",
    "mean_or_none",
    "metric_keys",
    "ndcg",
    "parse_metric_key",
    "precision",
    "recall",
    "reciprocal_rank",
]
