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
    parse_metric_key,
    unit_recall,
)
from .stats import (
    INTERVAL_METHODS,
    MeanWithInterval,
    PairedComparison,
    mean_with_interval,
    mean_with_wilson_of_floats,
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
        interval: ``wilson`` or ``bootstrap``.
    """

    ks: tuple[int, ...]
    gain: str
    metrics: tuple[str, ...]
    per_query: dict[str, MetricValues]
    means: dict[str, MeanWithInterval | None]
    n_queries: int
    not_judged: tuple[str, ...]
    first_gold_rank: dict[str, int | None]
    interval: str = "wilson"

    @property
    def judged(self) -> tuple[str, ...]:
        """qids of the judged queries, in input order."""
        skipped = set(self.not_judged)
        return tuple(q for q in self.per_query if q not in skipped)


def _summaries(
    per_query: Mapping[str, MetricValues], qids: Sequence[str], keys: Sequence[str], interval: str
) -> dict[str, MeanWithInterval | None]:
    out: dict[str, MeanWithInterval | None] = {}
    rows = [per_query[q] for q in qids]
    for key in keys:
        values = [v for row in rows if (v := row[key]) is not None]
        if not values:
            out[key] = None
        elif interval == "wilson":  # metric values are Python floats: skip the per-value checks
            out[key] = mean_with_wilson_of_floats(values)
        else:
            out[key] = mean_with_interval(values, interval)
    return out


def evaluate_queries(
    rankings: Mapping[str, Sequence[str]],
    gold: Mapping[str, Mapping[str, int]],
    ks: Sequence[int],
    gain: str = "binary",
    *,
    judged: Collection[str] | None = None,
    interval: str = "wilson",
    units: Mapping[str, Sequence[Collection[str]]] | None = None,
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
        interval: ``wilson`` (default) or ``bootstrap`` for the means.
        units: qid → per gold needle the chunk ids containing it. When given
            for a judged qid, ``recall@k`` counts needles found (see
            :func:`rag_core.evaluation.metrics.recall.unit_recall`) instead of chunks, so
            Recall@k differs from Hit@k only for multi-evidence questions.

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
        means=_summaries(per_query, scored, keys, interval),
        n_queries=len(scored),
        not_judged=tuple(not_judged),
        first_gold_rank=first_gold,
        interval=interval,
    )


def compare_results(
    a: EvalResult, b: EvalResult, *, label_a: str = "A", label_b: str = "B"
) -> dict[str, PairedComparison]:
    """Paired sign test per metric between two results over the same questions.

    Only queries judged in both results take part; metrics are those both
    results report (e.g. the common cutoffs).
    """
    judged_b = set(b.judged)
    common = [q for q in a.judged if q in judged_b]
    if not common:
        raise ValueError(
            f"no query is judged in both results ({a.n_queries} vs {b.n_queries} judged): "
            "nothing to compare"
        )
    out: dict[str, PairedComparison] = {}
    for key in a.metrics:
        if key not in b.metrics:
            continue
        # judged on both sides, so every value is a number (None marks "not judged")
        out[key] = paired_compare(
            {q: cast(float, a.per_query[q][key]) for q in common},
            {q: cast(float, b.per_query[q][key]) for q in common},
            label_a=label_a,
            label_b=label_b,
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
        summary = _summaries(result.per_query, qids, result.metrics, result.interval)
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


def means_table(result: EvalResult) -> list[dict[str, object]]:
    """One row per metric: key, name, k, mean, low, high, n (``None`` where not judged)."""
    rows: list[dict[str, object]] = []
    for key in result.metrics:
        name, k = parse_metric_key(key)
        m = result.means[key]
        rows.append(
            {
                "metric": key,
                "name": name,
                "k": k,
                "mean": m.mean if m else None,
                "low": m.low if m else None,
                "high": m.high if m else None,
                "n": m.n if m else 0,
            }
        )
    return rows


__all__ = [
    "EvalResult",
    "breakdown",
    "compare_results",
    "curve",
    "evaluate_queries",
    "means_table",
    "per_query_rows",
]
