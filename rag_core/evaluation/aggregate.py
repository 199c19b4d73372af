"""Aggregate per-query rankings into metrics with intervals, comparisons and breakdowns.

Pure aggregation for the ``eval`` CLI and the Evaluate page: the caller runs
the pipeline, turns gold needles/spans into chunk grades, and passes plain
rankings and grades here. Nothing in this module calls the pipeline.

Judged or not: a query is judged when it has gold evidence. By default that
means at least one chunk with a grade > 0. A query whose needles were all
destroyed by the chunking has no relevant chunk yet *is* judged — pass it in
``judged`` so it scores 0 (its recall ceiling) instead of vanishing from the
means, which would flatter the chunker that destroyed it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from .metrics import (
    CUT_METRICS,
    METRICS,
    cuts_and_keys,
    evaluate_checked,
    unit_recall,
)
from .stats import (
    INTERVAL_METHODS,
    MeanWithInterval,
    PairedComparison,
    cluster_means,
    metric_intervals,
    paired_compare,
)

MetricValues = dict[str, float | None]


@dataclass(frozen=True)
class EvalResult:
    """Metrics of one configuration over one question set.

    Attributes:
        ks: the cutoffs, ascending.
        gain: nDCG gain used.
        metrics: output keys in order (``hit@1`` … ``rr``, ``ap``).
        per_query: qid → key → value (``None`` for a not-judged query).
        means: key → mean with interval over the judged queries (``None`` when
            no query is judged).
        n_queries: number of judged queries (the ``n`` of every interval).
        not_judged: qids left out of the means.
        first_gold_rank: qid → 1-based rank of the first relevant chunk in
            the full ranking, ``None`` when not retrieved (or not judged).
        interval: ``auto`` (per metric: Wilson when every value is 0 or 1, else the
            percentile bootstrap; the method is in each mean's ``method``),
            ``wilson`` or ``bootstrap``.
        clusters: query id → question id. When a question has several phrasings,
            every mean, interval and paired test is over questions, each question's
            phrasings averaged first (the phrasings are not independent samples).
    """

    ks: tuple[int, ...]
    gain: str
    metrics: tuple[str, ...]
    per_query: dict[str, MetricValues]
    means: dict[str, MeanWithInterval | None]
    n_queries: int
    not_judged: tuple[str, ...]
    first_gold_rank: dict[str, int | None]
    interval: str = "auto"
    clusters: dict[str, str] | None = None

    @property
    def judged(self) -> tuple[str, ...]:
        """qids of the judged queries, in input order."""
        skipped = set(self.not_judged)
        return tuple(q for q in self.per_query if q not in skipped)


def _summaries(
    per_query: Mapping[str, MetricValues],
    qids: Sequence[str],
    keys: Sequence[str],
    interval: str,
    clusters: Mapping[str, str] | None = None,
) -> dict[str, MeanWithInterval | None]:
    """Per metric the mean and interval over ``qids``; with ``clusters`` (query id →
    question id) over questions, each question's phrasings averaged first."""
    grouped = clusters is not None and len({clusters.get(q, q) for q in qids}) < len(qids)
    columns: dict[str, list[float]] = {}
    for key in keys:
        values = {q: v for q in qids if (v := per_query[q][key]) is not None}
        if values:
            columns[key] = list(cluster_means(values, clusters if grouped else None).values())
    done = metric_intervals(columns, interval, unit="question" if grouped else "query")
    return {key: done.get(key) for key in keys}


def evaluate_queries(
    rankings: Mapping[str, Sequence[str]],
    gold: Mapping[str, Mapping[str, int]],
    ks: Sequence[int],
    gain: str = "binary",
    *,
    judged: Collection[str] | None = None,
    interval: str = "auto",
    units: Mapping[str, Sequence[Collection[str]]] | None = None,
    clusters: Mapping[str, str] | None = None,
) -> EvalResult:
    """Evaluate per-query rankings against per-query chunk grades.

    Args:
        rankings: qid → ranked chunk ids (best first). A qid of ``gold``
            missing here counts as an empty ranking.
        gold: qid → chunk id → grade (> 0 relevant), already derived from the
            needles/spans for the chunking in use.
        ks: cutoffs for hit/recall/p/ndcg.
        gain: nDCG gain, ``binary`` / ``exp`` / ``linear``.
        judged: qids that have gold evidence even when no chunk is relevant
            (answers destroyed): they score 0 rather than being not judged.
            ``None``: judged means at least one relevant chunk.
        interval: ``auto`` (default: per metric, Wilson for 0/1 values, else the
            percentile bootstrap), ``wilson`` or ``bootstrap`` for the means.
        units: qid → per gold needle the chunk ids containing it. When given
            for a judged qid, ``recall@k`` counts needles found (see
            :func:`rag_core.evaluation.metrics.recall.unit_recall`) instead of chunks, so
            Recall@k differs from Hit@k only for multi-evidence questions.
        clusters: query id → question id (a question's phrasings); the means,
            intervals and (:func:`compare_results`) paired tests are then over
            questions, each question's phrasings averaged first.

    Returns:
        An :class:`EvalResult`; queries are ordered as in ``gold``, then any
        extra qids of ``rankings`` (which are not judged).
    """
    if interval not in INTERVAL_METHODS:
        raise ValueError(
            f"unknown interval method {interval!r}; valid choices: {', '.join(INTERVAL_METHODS)}"
        )
    cuts, keys = cuts_and_keys(ks)
    judged_set = set(judged) if judged is not None else set()
    per_query: dict[str, MetricValues] = {}
    first_gold: dict[str, int | None] = {}
    not_judged: list[str] = []
    empty: dict[str, int] = {}
    for qid in list(gold) + [q for q in rankings if q not in gold]:
        entry = rankings.get(qid, ())
        ranking = entry if type(entry) is list else list(entry)  # nothing below changes it
        values, first_gold[qid] = evaluate_checked(
            ranking, gold.get(qid, empty), cuts, keys, gain, qid in judged_set or None
        )
        per_query[qid] = values
        if values[keys[0]] is None:
            not_judged.append(qid)
        elif units is not None and qid in units:
            for k in cuts:
                values[f"recall@{k}"] = unit_recall(ranking, units[qid], k)
    skipped = set(not_judged)
    scored = [q for q in per_query if q not in skipped]
    return EvalResult(
        ks=cuts,
        gain=gain,
        metrics=keys,
        per_query=per_query,
        means=_summaries(per_query, scored, keys, interval, clusters),
        n_queries=len(scored),
        not_judged=tuple(not_judged),
        first_gold_rank=first_gold,
        interval=interval,
        clusters=dict(clusters) if clusters is not None else None,
    )


def compare_results(
    a: EvalResult, b: EvalResult, *, label_a: str = "A", label_b: str = "B"
) -> dict[str, PairedComparison]:
    """Paired sign test per metric between two results over the same questions.

    Only queries judged in both results take part; metrics are those both
    results report (e.g. the common cutoffs). With ``clusters`` (query id →
    question id) the pairs are questions, each the mean of its phrasings.
    """
    judged_b = set(b.judged)
    common = [q for q in a.judged if q in judged_b]
    if not common:
        raise ValueError(
            f"no query is judged in both results ({a.n_queries} vs {b.n_queries} judged): "
            "nothing to compare"
        )
    out: dict[str, PairedComparison] = {}
    clusters = a.clusters if a.clusters is not None else b.clusters
    for key in a.metrics:
        if key not in b.metrics:
            continue
        # judged on both sides, so every value is a number (None marks "not judged");
        # a question's phrasings are one paired unit (their mean), not several
        out[key] = paired_compare(
            cluster_means({q: cast(float, a.per_query[q][key]) for q in common}, clusters),
            cluster_means({q: cast(float, b.per_query[q][key]) for q in common}, clusters),
            label_a=label_a,
            label_b=label_b,
            unit="question" if clusters else "query",
        )
    if not out:
        raise ValueError("the two results share no metric (different cutoffs?)")
    return out


def breakdown(
    result: EvalResult, tags_by_query: Mapping[str, Sequence[str]]
) -> dict[str, dict[str, MeanWithInterval]]:
    """Means with intervals per tag (language, query type, failure mode…).

    A query counts under every tag it carries; not-judged queries are left
    out. A tag whose queries are all not judged maps to an empty dict.
    Tags are listed in order of first appearance.
    """
    skipped = set(result.not_judged)
    members: dict[str, list[str]] = {}
    for qid, tags in tags_by_query.items():
        if isinstance(tags, str):
            raise ValueError(f"tags of query {qid!r} must be a list of strings, not a string")
        for tag in tags:
            members.setdefault(tag, [])
            if qid in result.per_query and qid not in skipped:
                members[tag].append(qid)
    out: dict[str, dict[str, MeanWithInterval]] = {}
    for tag, qids in members.items():
        summary = _summaries(
            result.per_query, qids, result.metrics, result.interval, result.clusters
        )
        out[tag] = {key: value for key, value in summary.items() if value is not None}
    return out


def curve(
    result: EvalResult, name: str = "recall"
) -> tuple[tuple[int, MeanWithInterval | None], ...]:
    """``(k, mean with interval)`` for a cut metric at every k — the recall@k curve and its band."""
    METRICS.get(name)
    if name not in CUT_METRICS:
        raise ValueError(
            f"metric {name!r} has no cutoff; curves exist for {', '.join(CUT_METRICS)}"
        )
    return tuple((k, result.means[f"{name}@{k}"]) for k in result.ks)


def per_query_rows(result: EvalResult) -> list[dict[str, object]]:
    """One flat row per query (qid, judged, first_gold_rank, every metric) for tables and CSV."""
    skipped = set(result.not_judged)
    return [
        {
            "qid": qid,
            "judged": qid not in skipped,
            "first_gold_rank": result.first_gold_rank[qid],
            **values,
        }
        for qid, values in result.per_query.items()
    ]


__all__ = [
    "EvalResult",
    "breakdown",
    "compare_results",
    "curve",
    "evaluate_queries",
    "per_query_rows",
]
