"""Threshold tuning: what a refusal threshold and a max-kept do to a question set.

Two steps, so that a slider costs microseconds:

1. :func:`rag_core.evaluation.sweep_collect.collect` runs every query (each phrasing, or one)
   once through the pipeline up to the gate — with the gate *open* (no threshold, no
   max-kept) — and records each query's ranked candidates: the value the
   gate would compare (cosine distance ``1 − cos`` when dense retrieval ran,
   else the final score) and whether the candidate is a gold chunk (its
   content contains a gold span entirely; answerable questions only).
2. Pure functions replay the gate on those candidates for any threshold
   ``t`` and max-kept ``M`` with the pipeline gate's own rule
   (:func:`rag_core.answer.gate.gate_verdicts`): walking in rank order, a
   candidate is rejected when its distance is above ``t`` (or its score
   below ``t``); the others are kept until ``M`` are kept. The query is
   *answered* when something is kept, else refused.

Each query falls in one of five outcomes (a refusal-threshold table, with
the answerable side split by whether gold reached the kept set):

* answerable: ``answered_with_gold`` (a kept candidate is gold),
  ``answered_without_gold``, ``refused_answerable``;
* unanswerable: ``bluffed`` (answered anyway), ``refused_unanswerable``.

Counts are per query (a phrasing is a query). Rates carry a Wilson 95%
interval (:func:`rag_core.evaluation.stats.wilson_interval`): with 30 out-of-domain
queries, 2 bluffs is "between 1.8% and 21%", not "6.7%".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median
from typing import TYPE_CHECKING, Any, Literal

from ..answer.gate import gate_verdicts
from ..formats.ranges import parse_range
from ..types import Notice
from ..wording import declare
from .stats import risk_coverage, wilson_interval

if TYPE_CHECKING:
    pass

Metric = Literal["distance", "score"]
METRIC_CHOICES: tuple[str, ...] = ("auto", "distance", "score")
OUTCOMES: tuple[str, ...] = (
    "answered_with_gold",
    "answered_without_gold",
    "refused_answerable",
    "bluffed",
    "refused_unanswerable",
)
#: Distance thresholds swept when no query has a candidate (else :func:`default_thresholds`
#: follows the distances observed: they depend on the embedder — MiniLM's best distances
#: lie around 0.4–0.8, e5-small's around 0.05–0.25).
DEFAULT_DISTANCE_RANGE = "0.45:0.8:0.025"
#: The steps a default distance sweep may take: the finest that covers the data in at most
#: :data:`MAX_DEFAULT_CUTS` thresholds.
DISTANCE_STEPS = (0.005, 0.01, 0.02, 0.025, 0.05, 0.1)
MAX_DEFAULT_CUTS = 21
DEFAULT_MAX_KEPT = 4
#: Notice codes of :func:`~rag_core.evaluation.sweep_collect.collect`. ``sweep.no_distance``: dense
#: retrieval was asked for but gave no cosine distances (``reason``: its lists' messages, or the
#: notice ``sweep.no_distance.unknown``), so scores are swept. ``sweep.final_score``: thresholds
#: apply to the final score; ``which`` (a notice) names it: the fused or the retriever's score,
#: after rerank ``method`` or not.
NOTICE_NO_DISTANCE = declare("sweep.no_distance", "reason")
NOTICE_NO_DISTANCE_UNKNOWN = declare("sweep.no_distance.unknown")
NOTICE_FINAL_SCORE = declare("sweep.final_score", "which")
SCORE_FUSED = declare("sweep.score.fused")
SCORE_SINGLE = declare("sweep.score.single")
SCORE_FUSED_RERANKED = declare("sweep.score.fused_reranked", "method")
SCORE_SINGLE_RERANKED = declare("sweep.score.single_reranked", "method")


# ------------------------------------------------------------------ records


@dataclass(frozen=True)
class Candidate:
    """One ranked candidate of one query, as the gate sees it.

    ``value`` is the cosine distance (lower is better) or the score (higher
    is better), whichever :attr:`SweepData.metric` says.
    """

    chunk_id: str
    doc_id: str
    rank: int
    value: float
    gold: bool


@dataclass(frozen=True)
class QueryCandidates:
    """One query's candidates in final rank order (after rerank, before the gate).

    ``gold_in_chunking`` is False for an answerable question whose every
    gold span the chunking destroyed (its recall ceiling is 0) and for
    unanswerable questions.
    """

    query_id: str
    question_id: str
    text: str
    answerable: bool
    candidates: tuple[Candidate, ...]
    gold_in_chunking: bool
    lang: str = ""
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class SweepData:
    """Every query's open-gate candidates for one config and question set."""

    metric: Metric
    higher_is_better: bool
    queries: tuple[QueryCandidates, ...]
    n_answerable: int
    n_unanswerable: int
    depth: int
    phrasings: str
    chunker_signature: str
    config: dict[str, Any]
    seconds: float
    warnings: tuple[Notice, ...] = ()


@dataclass(frozen=True)
class Rate:
    """``k`` of ``n`` with its Wilson 95% interval."""

    k: int
    n: int
    rate: float
    low: float
    high: float


@dataclass(frozen=True)
class GateCounts:
    """The five outcomes at one threshold and max-kept (``threshold=None``: no threshold)."""

    threshold: float | None
    max_kept: int | None
    answered_with_gold: int
    answered_without_gold: int
    refused_answerable: int
    bluffed: int
    refused_unanswerable: int
    n_answerable: int
    n_unanswerable: int
    gold_rate: Rate | None  # answered_with_gold / n_answerable
    bluff_rate: Rate | None  # bluffed / n_unanswerable


@dataclass(frozen=True)
class QueryOutcome:
    """What the gate does to one query at one setting."""

    query_id: str
    question_id: str
    text: str
    answerable: bool
    best: float | None
    n_kept: int
    first_gold_rank: int | None  # rank of the first gold candidate (kept or not)
    gold_kept: bool
    outcome: str


@dataclass(frozen=True)
class BestDistribution:
    """The best candidate's value per query, per group (for overlapping histograms).

    For distances the worst answerable query is the one with the *largest*
    best distance and the best unanswerable the *smallest*; for scores the
    other way round. ``separable`` is True when a threshold exists that
    answers every answerable query and refuses every unanswerable one;
    ``overlap`` is the ``(low, high)`` range where the groups mix (None when
    separable or a group is empty).
    """

    metric: Metric
    higher_is_better: bool
    answerable: tuple[float | None, ...]
    unanswerable: tuple[float | None, ...]
    answerable_ids: tuple[str, ...]
    unanswerable_ids: tuple[str, ...]
    worst_answerable: float | None
    worst_answerable_id: str | None
    best_unanswerable: float | None
    best_unanswerable_id: str | None
    separable: bool | None
    overlap: tuple[float, float] | None


@dataclass(frozen=True)
class SweepReport:
    """A sweep table plus the distributions: what the CLI prints and the page draws."""

    metric: Metric
    higher_is_better: bool
    max_kept: int | None
    thresholds: tuple[float, ...]
    rows: tuple[GateCounts, ...]
    no_threshold: GateCounts
    distribution: BestDistribution
    n_queries: int
    n_answerable: int
    n_unanswerable: int
    depth: int
    phrasings: str
    chunker_signature: str
    config: dict[str, Any]
    seconds_collect: float
    warnings: tuple[Notice, ...] = ()


# ------------------------------------------------------------------ checks


def _check_threshold(threshold: Any) -> float | None:
    if threshold is None:
        return None
    if (
        isinstance(threshold, bool)
        or not isinstance(threshold, (int, float))
        or not math.isfinite(threshold)
    ):
        raise ValueError(f"threshold must be a finite number or None; got {threshold!r}")
    return float(threshold)


def _check_max_kept(max_kept: Any) -> int | None:
    if max_kept is None:
        return None
    if isinstance(max_kept, bool) or not isinstance(max_kept, int) or max_kept < 1:
        raise ValueError(
            f"max_kept must be a positive integer or None (no limit); got {max_kept!r}"
        )
    return max_kept


# ---------------------------------------------------------- the gate, replayed


def kept_candidates(
    candidates: Sequence[Candidate],
    threshold: float | None,
    max_kept: int | None,
    higher_is_better: bool,
) -> tuple[Candidate, ...]:
    """What the gate keeps: in rank order, candidates passing ``threshold``, at most ``max_kept``.

    The rule is :func:`rag_core.answer.gate.gate_verdicts`, the one the pipeline's
    gate applies (a candidate past the cut is rejected even when it ranks
    above one that passes).
    """
    threshold = _check_threshold(threshold)
    max_kept = _check_max_kept(max_kept)
    verdicts = gate_verdicts(
        [c.value for c in candidates], threshold, max_kept, higher_is_better=higher_is_better
    )
    return tuple(c for c, v in zip(candidates, verdicts, strict=True) if v == "kept")


def best_value(candidates: Sequence[Candidate], higher_is_better: bool) -> float | None:
    """The best value among the candidates (min distance / max score), None when there are none."""
    if not candidates:
        return None
    values = [c.value for c in candidates]
    return max(values) if higher_is_better else min(values)


def classify(answerable: bool, kept: Sequence[Candidate]) -> str:
    """One of :data:`OUTCOMES` for a query given what the gate kept."""
    if answerable:
        if not kept:
            return "refused_answerable"
        return "answered_with_gold" if any(c.gold for c in kept) else "answered_without_gold"
    return "bluffed" if kept else "refused_unanswerable"


def outcomes(
    data: SweepData, threshold: float | None, max_kept: int | None
) -> tuple[QueryOutcome, ...]:
    """Per query: best value, kept count, first gold rank and outcome at one setting."""
    out = []
    for q in data.queries:
        kept = kept_candidates(q.candidates, threshold, max_kept, data.higher_is_better)
        first_gold = next((c.rank for c in q.candidates if c.gold), None)
        out.append(
            QueryOutcome(
                query_id=q.query_id,
                question_id=q.question_id,
                text=q.text,
                answerable=q.answerable,
                best=best_value(q.candidates, data.higher_is_better),
                n_kept=len(kept),
                first_gold_rank=first_gold,
                gold_kept=any(c.gold for c in kept),
                outcome=classify(q.answerable, kept),
            )
        )
    return tuple(out)


def rate(k: int, n: int) -> Rate | None:
    """``k/n`` with its Wilson 95% interval; None when ``n = 0``."""
    if n == 0:
        return None
    low, high = wilson_interval(k, n)
    return Rate(k=k, n=n, rate=k / n, low=low, high=high)


def counts_at(data: SweepData, threshold: float | None, max_kept: int | None) -> GateCounts:
    """Count the five outcomes at one threshold and max-kept (the sliders)."""
    threshold = _check_threshold(threshold)
    max_kept = _check_max_kept(max_kept)
    tally = dict.fromkeys(OUTCOMES, 0)
    for o in outcomes(data, threshold, max_kept):
        tally[o.outcome] += 1
    n_ans = sum(tally[k] for k in OUTCOMES[:3])
    n_un = sum(tally[k] for k in OUTCOMES[3:])
    return GateCounts(
        threshold=threshold,
        max_kept=max_kept,
        n_answerable=n_ans,
        n_unanswerable=n_un,
        gold_rate=rate(tally["answered_with_gold"], n_ans),
        bluff_rate=rate(tally["bluffed"], n_un),
        **tally,
    )


def sweep_table(
    data: SweepData, thresholds: Sequence[float], max_kept: int | None
) -> tuple[GateCounts, ...]:
    """:func:`counts_at` for each threshold, in the order given."""
    if isinstance(thresholds, (str, bytes)) or not thresholds:
        raise ValueError(f"thresholds must be a non-empty list of numbers; got {thresholds!r}")
    return tuple(counts_at(data, t, max_kept) for t in thresholds)


def distribution(data: SweepData) -> BestDistribution:
    """Best value per query for each group, the extremes, and where the groups overlap."""
    hib = data.higher_is_better
    ans = [(q.query_id, best_value(q.candidates, hib)) for q in data.queries if q.answerable]
    una = [(q.query_id, best_value(q.candidates, hib)) for q in data.queries if not q.answerable]
    ans_vals = [(i, v) for i, v in ans if v is not None]
    una_vals = [(i, v) for i, v in una if v is not None]
    # the answerable query the gate finds hardest to admit, the unanswerable easiest
    worst_a = (min if hib else max)(ans_vals, key=lambda iv: iv[1], default=None)
    best_u = (max if hib else min)(una_vals, key=lambda iv: iv[1], default=None)

    def refused_side(u: float, a: float) -> bool:
        """True when the unanswerable extreme ``u`` lies strictly beyond the answerable ``a``."""
        return u < a if hib else u > a

    separable: bool | None = None
    if ans and una:
        if any(v is None for _, v in ans):
            separable = False  # an answerable query with no candidate is always refused
        elif best_u is None:
            separable = True  # no unanswerable query has any candidate
        else:
            separable = refused_side(best_u[1], worst_a[1])  # type: ignore[index]
    overlap: tuple[float, float] | None = None
    if worst_a is not None and best_u is not None and not refused_side(best_u[1], worst_a[1]):
        lo, hi = sorted((worst_a[1], best_u[1]))
        overlap = (lo, hi)
    return BestDistribution(
        metric=data.metric,
        higher_is_better=hib,
        answerable=tuple(v for _, v in ans),
        unanswerable=tuple(v for _, v in una),
        answerable_ids=tuple(i for i, _ in ans),
        unanswerable_ids=tuple(i for i, _ in una),
        worst_answerable=worst_a[1] if worst_a else None,
        worst_answerable_id=worst_a[0] if worst_a else None,
        best_unanswerable=best_u[1] if best_u else None,
        best_unanswerable_id=best_u[0] if best_u else None,
        separable=separable,
        overlap=overlap,
    )


def default_thresholds(data: SweepData, n: int = 21) -> tuple[float, ...]:
    """Thresholds to sweep when none are given.

    Both follow the best values observed (the value that decides whether a query is
    refused), since their scale depends on the embedder or retriever. Distances: from the
    lowest best distance rounded down to the highest rounded up, in the finest step of
    :data:`DISTANCE_STEPS` that needs at most :data:`MAX_DEFAULT_CUTS` thresholds
    (``0.45:0.8:0.025`` when no query has a candidate). Scores: ``n`` evenly spaced values
    from the lowest to the highest best score, rounded to 4 significant digits.
    """
    bests = (best_value(q.candidates, data.higher_is_better) for q in data.queries)
    values = [v for v in bests if v is not None]
    if data.metric == "distance":
        return (
            distance_cuts(min(values), max(values))
            if values
            else parse_range(DEFAULT_DISTANCE_RANGE)
        )
    if not values:
        return (0.0,)
    lo, hi = min(values), max(values)
    if hi == lo:
        return (float(f"{lo:.4g}"),)
    return tuple(dict.fromkeys(float(f"{lo + (hi - lo) * i / (n - 1):.4g}") for i in range(n)))


def distance_cuts(lo: float, hi: float) -> tuple[float, ...]:
    """Round distance thresholds covering ``lo``–``hi``: ``⌊lo/s⌋·s … ⌈hi/s⌉·s`` in steps ``s``,
    the smallest of :data:`DISTANCE_STEPS` giving at most :data:`MAX_DEFAULT_CUTS` values."""
    if hi < lo:
        raise ValueError(f"distance range {lo}–{hi} is empty; give lo <= hi")
    for step in DISTANCE_STEPS:
        first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
        if last - first + 1 <= MAX_DEFAULT_CUTS:
            break
    return tuple(round(i * step, 6) for i in range(first, max(last, first) + 1))


def value_range(data: SweepData) -> tuple[float, float] | None:
    """``(lowest, highest)`` value over every candidate of every query; None when there are none.

    A threshold at the permissive end of this range lets every candidate
    pass, one beyond the strict end refuses every query: the span a
    threshold slider needs.
    """
    values = [c.value for q in data.queries for c in q.candidates]
    if not values:
        return None
    return min(values), max(values)


def midpoint_threshold(data: SweepData) -> float | None:
    """A starting threshold: halfway between the median best value of each group.

        t₀ = (median(best of answerable) + median(best of unanswerable)) / 2

    Queries without candidates are left out. None when either group has no
    query with a candidate. A place to start moving the slider from, not a
    recommendation: the right point depends on what a bluff costs.
    """
    hib = data.higher_is_better
    bests = [(q.answerable, best_value(q.candidates, hib)) for q in data.queries]
    groups = [[v for a, v in bests if a is wanted and v is not None] for wanted in (True, False)]
    if not all(groups):
        return None
    return (median(groups[0]) + median(groups[1])) / 2


def report(
    data: SweepData,
    thresholds: Sequence[float] | None = None,
    max_kept: int | None = DEFAULT_MAX_KEPT,
) -> SweepReport:
    """The sweep table, the no-threshold row and the distributions as one record."""
    cuts = tuple(default_thresholds(data) if thresholds is None else thresholds)
    max_kept = _check_max_kept(max_kept)
    return SweepReport(
        metric=data.metric,
        higher_is_better=data.higher_is_better,
        max_kept=max_kept,
        thresholds=cuts,
        rows=sweep_table(data, cuts, max_kept),
        no_threshold=counts_at(data, None, max_kept),
        distribution=distribution(data),
        n_queries=len(data.queries),
        n_answerable=data.n_answerable,
        n_unanswerable=data.n_unanswerable,
        depth=data.depth,
        phrasings=data.phrasings,
        chunker_signature=data.chunker_signature,
        config=data.config,
        seconds_collect=data.seconds,
        warnings=data.warnings,
    )


# ------------------------------------------------------------------- risk–coverage


def risk_coverage_at(counts: GateCounts) -> dict[str, Any]:
    """Coverage and risk of the gate at one setting, each with its Wilson 95% interval.

    coverage = answered / all queries, where answered = the gate passed at
    least one candidate to the generator (``answered_with_gold +
    answered_without_gold + bluffed``); risk = (``answered_without_gold +
    bluffed``) / answered — answers the generator must give without the gold
    in its prompt. This is the retrieval-level risk of the reject option
    (Geifman & El-Yaniv 2017, see :func:`rag_core.evaluation.stats.risk_coverage`); the
    answer-level risk needs generated answers (:mod:`rag_core.evaluation.answers`).
    """
    answered = counts.answered_with_gold + counts.answered_without_gold + counts.bluffed
    wrong = counts.answered_without_gold + counts.bluffed
    rc = risk_coverage(counts.n_answerable + counts.n_unanswerable, answered, wrong)
    return {"threshold": counts.threshold, "max_kept": counts.max_kept, **rc}


def operating_point(
    data: SweepData, threshold: float | None, max_kept: int | None
) -> dict[str, Any]:
    """ "Export this operating point": the setting and its expected coverage and risk
    (JSON-ready)."""
    counts = counts_at(data, threshold, max_kept)
    return {
        "metric": data.metric,
        "higher_is_better": data.higher_is_better,
        **risk_coverage_at(counts),
        "n_answerable": counts.n_answerable,
        "n_unanswerable": counts.n_unanswerable,
        "phrasings": data.phrasings,
        "chunker_signature": data.chunker_signature,
        "config": data.config,
        "interval": "wilson 95%",
    }


__all__ = [
    "BestDistribution",
    "Candidate",
    "DEFAULT_DISTANCE_RANGE",
    "DEFAULT_MAX_KEPT",
    "GateCounts",
    "METRIC_CHOICES",
    "OUTCOMES",
    "QueryCandidates",
    "QueryOutcome",
    "Rate",
    "SweepData",
    "SweepReport",
    "best_value",
    "classify",
    "counts_at",
    "default_thresholds",
    "distribution",
    "kept_candidates",
    "midpoint_threshold",
    "outcomes",
    "rate",
    "report",
    "sweep_table",
    "value_range",
]
__all__ += ["operating_point", "risk_coverage_at"]
