"""Honest uncertainty for retrieval metrics: intervals, paired tests.

Everything here is a pure function over plain numbers (per-query values,
counts, distances); nothing calls the pipeline.

* :func:`wilson_interval` — Wilson score interval for a proportion.
* :func:`bootstrap_interval` — percentile bootstrap of a mean.
* :func:`mean_with_interval` — a mean and its interval as one record
  (:func:`mean_with_wilson_of_floats`: the same, for metric values we made).
* :func:`metric_intervals` — the interval each metric's data calls for (Wilson for
  per-query 0/1 values, a percentile bootstrap for graded ones), with a question's
  phrasings averaged into one value first (:func:`cluster_means`).
* :func:`sign_test` / :func:`paired_compare` — exact two-sided sign test on
  the queries where two configurations disagree.

The thresholds a refusal-threshold sweep tries are parsed by
:func:`rag_core.formats.ranges.parse_range`.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from statistics import NormalDist
from typing import Any, Literal

import numpy as np
from scipy.stats import binomtest

#: ``auto``: Wilson when every (per-question) value is 0 or 1, else the percentile bootstrap.
INTERVAL_METHODS: tuple[str, ...] = ("auto", "wilson", "bootstrap")
#: Resamples and seed of the bootstrap intervals of an evaluation (the same data, the same
#: interval; 2,000 resamples put the 2.5 % and 97.5 % quantiles within about ±0.1 standard
#: error of their limit).
BOOTSTRAP_RESAMPLES = 2_000
BOOTSTRAP_SEED = 0
ALPHA = 0.05


# ------------------------------------------------------------------ intervals


def _check_confidence(confidence: float) -> None:
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, (int, float))
        or not (0.0 < confidence < 1.0)
    ):
        raise ValueError(
            f"confidence must be a number strictly between 0 and 1; got {confidence!r}"
        )


def z_value(confidence: float = 0.95) -> float:
    """Two-sided normal quantile ``z = Φ⁻¹(1/2 + confidence/2)`` (1.95996… for 0.95)."""
    _check_confidence(confidence)
    return NormalDist().inv_cdf(0.5 + 0.5 * confidence)


def wilson_interval(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``p̂ = successes / n``.

    Wilson, "Probable inference, the law of succession, and statistical
    inference", JASA 22 (1927); in Newcombe's form (Stat. Med. 17, 1998),
    which for integer ``successes`` is computed by
    ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``; a float
    ``successes`` (a summed mean, below) takes the formula written out::

        center = (2·n·p̂ + z²) / (2·(n + z²))
        delta  = z · sqrt(4·n·p̂·(1 − p̂) + z²) / (2·(n + z²))
        [center − delta, center + delta], with low = 0 at p̂ = 0 and high = 1 at p̂ = 1

    ``successes`` may be a float: for the mean of per-query values in [0, 1]
    (recall@k, nDCG@k, AP…) pass their sum. That treats the mean as if it were
    a proportion of ``n`` Bernoulli trials — exact for 0/1 metrics (Hit@k,
    and Recall@k with one relevant item), and a common, slightly conservative
    approximation otherwise (a [0, 1] variable has variance at most p̂(1 − p̂)).

    Args:
        successes: number (or summed value) of successes, ``0 ≤ successes ≤ n``.
        n: number of trials (queries), ``n ≥ 1``.
        confidence: two-sided confidence level, 0.95 by default.

    Returns:
        ``(low, high)``.
    """
    _check_confidence(confidence)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise ValueError(f"n must be an integer number of trials; got {n!r}")
    if n < 1:
        raise ValueError(
            f"a Wilson interval needs at least one trial; got n = {n} (no judged queries?)"
        )
    if isinstance(successes, bool) or not isinstance(successes, (int, float, np.number)):
        raise ValueError(f"successes must be a number; got {successes!r}")
    if not math.isfinite(successes) or not 0 <= successes <= n:
        raise ValueError(f"successes must lie between 0 and n = {n}; got {successes!r}")
    n = int(n)
    if isinstance(successes, (int, np.integer)):
        ci = binomtest(int(successes), n).proportion_ci(
            confidence_level=confidence, method="wilson"
        )
        return float(ci.low), float(ci.high)
    z = z_value(confidence)
    p = float(successes) / n
    denom = 2.0 * (n + z * z)
    center = (2.0 * n * p + z * z) / denom
    delta = z / denom * math.sqrt(4.0 * n * p * (1.0 - p) + z * z)
    low = 0.0 if successes == 0 else max(0.0, center - delta)
    high = 1.0 if successes == n else min(1.0, center + delta)
    return low, high


def _as_values(values: Iterable[float], what: str = "values") -> list[float]:
    out: list[float] = []
    for i, v in enumerate(values):
        if v is None or isinstance(v, bool) or not isinstance(v, (int, float, np.number)):
            raise ValueError(
                f"{what}[{i}] must be a number; got {v!r} (drop not-judged queries first)"
            )
        if not math.isfinite(v):
            raise ValueError(f"{what}[{i}] must be finite; got {v!r}")
        out.append(float(v))
    if not out:
        raise ValueError(f"{what} is empty: nothing to summarise (no judged queries?)")
    return out


def bootstrap_interval(
    values: Sequence[float],
    confidence: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values``.

    Efron & Tibshirani, "An Introduction to the Bootstrap" (1993), ch. 13:
    resample the values with replacement ``n_resamples`` times, take each
    resample's mean, and report the ``(1 − c)/2`` and ``(1 + c)/2`` quantiles.
    Uses a local ``numpy.random.default_rng(seed)``: the same seed gives the
    same interval. An alternative to Wilson for non-binary metrics.
    """
    _check_confidence(confidence)
    data = np.asarray(_as_values(values), dtype=float)
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 1:
        raise ValueError(f"n_resamples must be a positive integer; got {n_resamples!r}")
    rng = np.random.default_rng(seed)
    n = data.size
    means = np.empty(n_resamples, dtype=float)
    batch = max(1, 2_000_000 // n)  # bound memory: at most ~2M indices at once
    for start in range(0, n_resamples, batch):
        stop = min(n_resamples, start + batch)
        idx = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = data[idx].mean(axis=1)
    alpha = 1.0 - confidence
    low, high = np.quantile(means, [alpha / 2.0, 1.0 - alpha / 2.0])
    return float(low), float(high)


@dataclass(frozen=True)
class MeanWithInterval:
    """A mean over ``n`` queries with its interval ``[low, high]`` and how it was made."""

    mean: float
    low: float
    high: float
    n: int
    method: str
    confidence: float = 0.95
    #: What ``n`` counts: ``query`` or ``question`` (a question's phrasings averaged first).
    unit: str = "query"
    #: Bootstrap resamples (0 for Wilson).
    n_resamples: int = 0


def mean_with_interval(
    values: Sequence[float],
    method: str = "wilson",
    confidence: float = 0.95,
    *,
    n_resamples: int = 10_000,
    seed: int = 0,
) -> MeanWithInterval:
    """Mean of per-query values with a Wilson (default) or bootstrap interval.

    Args:
        values: per-query values (judged queries only; ``None`` is rejected).
            For ``wilson`` every value must lie in [0, 1].
        method: ``"wilson"`` or ``"bootstrap"``.
        confidence: two-sided confidence level.
        n_resamples, seed: bootstrap settings.
    """
    if method not in INTERVAL_METHODS:
        raise ValueError(
            f"unknown interval method {method!r}; valid choices: {', '.join(INTERVAL_METHODS)}"
        )
    data = _as_values(values)
    total = math.fsum(data)
    mean = total / len(data)
    if method == "wilson":
        bad = [v for v in data if not 0.0 <= v <= 1.0]
        if bad:
            raise ValueError(
                f"a Wilson interval needs values in [0, 1]; got {bad[0]!r} (use method='bootstrap')"
            )
        return _wilson_mean(total, len(data), confidence)
    low, high = bootstrap_interval(data, confidence, n_resamples, seed)
    return MeanWithInterval(
        mean=mean,
        low=low,
        high=high,
        n=len(data),
        method=method,
        confidence=confidence,
        n_resamples=n_resamples,
    )


def _wilson_mean(total: float, n: int, confidence: float = 0.95) -> MeanWithInterval:
    """The mean ``total / n`` of ``n`` checked values in [0, 1] with its Wilson interval."""
    low, high = wilson_interval(min(total, float(n)), n, confidence)
    return MeanWithInterval(
        mean=total / n, low=low, high=high, n=n, method="wilson", confidence=confidence
    )


def mean_with_wilson_of_floats(values: list[float]) -> MeanWithInterval:
    """:func:`mean_with_interval` (``wilson``, 95 %) of values known to be Python floats.

    For values our own metrics made (per-query metric values, never ``None``):
    skips the per-value type checks and gives the same record, bit for bit.
    Values that are not all finite and in [0, 1], or none at all, go through
    :func:`mean_with_interval` and get its error.
    """
    if not values or not min(values) >= 0.0 or not max(values) <= 1.0:
        return mean_with_interval(values)
    total = math.fsum(values)
    if not math.isfinite(total):  # a NaN slips past min() and max()
        return mean_with_interval(values)
    return _wilson_mean(total, len(values))


# ------------------------------------------- the interval each metric's data calls for


def cluster_means(
    values: Mapping[str, float], clusters: Mapping[str, str] | None = None
) -> dict[str, float]:
    """Per cluster (a question), the mean of its queries' values (its phrasings).

    The phrasings of one question are not independent samples: counting them
    as separate queries shrinks every interval by about √(phrasings). Averaging
    them first makes the question the unit (each question weighs the same), as in
    a cluster-level analysis (Donner & Klar, "Design and Analysis of Cluster
    Randomization Trials", 2000, ch. 5). ``clusters`` maps a query id to its
    cluster; a query it lacks is its own cluster. Clusters keep first-seen order.
    """
    groups: dict[str, list[float]] = {}
    for qid, v in values.items():
        key = clusters.get(qid, qid) if clusters is not None else qid
        groups.setdefault(key, []).append(v)
    return {k: (vs[0] if len(vs) == 1 else math.fsum(vs) / len(vs)) for k, vs in groups.items()}


def is_binary(values: Iterable[float]) -> bool:
    """Every value is exactly 0 or 1 (a per-query success): a proportion, Wilson applies."""
    return all(v == 0.0 or v == 1.0 for v in values)


def metric_intervals(
    columns: Mapping[str, Sequence[float]],
    method: str = "auto",
    confidence: float = 0.95,
    *,
    n_resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    unit: str = "query",
) -> dict[str, MeanWithInterval]:
    """Mean and interval of each metric's values (one value per query or per question).

    ``auto`` decides from the data: a metric whose values are all 0 or 1 (hit@k,
    recall@k of a one-needle question, a question whose phrasings agree) is a
    proportion and gets the Wilson score interval; any other (nDCG, RR, AP, P@k,
    phrasing averages) gets the percentile bootstrap of the mean
    (:func:`bootstrap_interval`, ``n_resamples`` resamples, ``seed``), whose
    width follows the data's own spread — a Wilson interval of a graded metric
    treats the sum as a count of successes and can be many times too wide or
    too narrow. ``wilson`` forces Wilson (values in [0, 1]); ``bootstrap``
    forces the bootstrap. Columns of the same length share the resampled
    indices: each column's interval equals ``bootstrap_interval(column, …)``.
    """
    if method not in INTERVAL_METHODS:
        raise ValueError(
            f"unknown interval method {method!r}; valid choices: {', '.join(INTERVAL_METHODS)}"
        )
    if unit not in ("query", "question"):
        raise ValueError(f"unit = {unit!r} is not valid; valid choices: query, question")
    _check_confidence(confidence)
    out: dict[str, MeanWithInterval] = {}
    boot: dict[int, dict[str, np.ndarray]] = {}
    for key, raw in columns.items():
        data = raw if type(raw) is list and all(type(v) is float for v in raw) else None
        values = data if data is not None else _as_values(raw, key)
        if not values:
            raise ValueError(f"{key} is empty: nothing to summarise (no judged queries?)")
        if method == "wilson" or (method == "auto" and is_binary(values)):
            m = mean_with_wilson_of_floats(values)
            if confidence != 0.95:
                m = mean_with_interval(values, "wilson", confidence)
            out[key] = replace(m, unit=unit)
        else:
            boot.setdefault(len(values), {})[key] = np.asarray(values, dtype=float)
    for n, group in boot.items():
        for key, (low, high) in _shared_bootstrap(group, n, confidence, n_resamples, seed).items():
            data_arr = group[key]
            out[key] = MeanWithInterval(
                mean=math.fsum(data_arr.tolist()) / n,
                low=low,
                high=high,
                n=n,
                method="bootstrap",
                confidence=confidence,
                unit=unit,
                n_resamples=n_resamples,
            )
    return {key: out[key] for key in columns}


def _shared_bootstrap(
    group: Mapping[str, np.ndarray], n: int, confidence: float, n_resamples: int, seed: int
) -> dict[str, tuple[float, float]]:
    """:func:`bootstrap_interval` of every column of length ``n`` from one stream of
    resampled indices (the same indices ``bootstrap_interval`` draws for ``seed``)."""
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 1:
        raise ValueError(f"n_resamples must be a positive integer; got {n_resamples!r}")
    rng = np.random.default_rng(seed)
    keys = list(group)
    means = np.empty((len(keys), n_resamples), dtype=float)
    batch = max(1, 2_000_000 // n)
    for start in range(0, n_resamples, batch):
        stop = min(n_resamples, start + batch)
        idx = rng.integers(0, n, size=(stop - start, n))
        for row, key in enumerate(keys):
            means[row, start:stop] = group[key][idx].mean(axis=1)
    alpha = 1.0 - confidence
    out = {}
    for row, key in enumerate(keys):
        low, high = np.quantile(means[row], [alpha / 2.0, 1.0 - alpha / 2.0])
        out[key] = (float(low), float(high))
    return out


# --------------------------------------------------------------- paired tests


def sign_test(wins: int, losses: int) -> float:
    """Exact two-sided sign test on the discordant pairs (ties already dropped).

        p = min(1, 2 · P(X ≤ min(wins, losses))),  X ~ Binomial(wins + losses, 1/2)

    Dixon & Mood, "The statistical sign test", JASA 41 (1946). Computed by
    ``scipy.stats.binomtest(wins, wins + losses, 0.5).pvalue`` (the tests keep
    the exact-integer sum above as its oracle).
    ``wins + losses = 0`` (no discordant pair) gives ``p = 1.0``.
    """
    counts = []
    for name, value in (("wins", wins), ("losses", losses)):
        try:
            if isinstance(value, bool):
                raise TypeError
            count = operator.index(value)
        except TypeError:
            raise ValueError(f"{name} must be a non-negative integer; got {value!r}") from None
        if count < 0:
            raise ValueError(f"{name} must be a non-negative integer; got {value!r}")
        counts.append(count)
    w, lo = counts
    n = w + lo
    if n == 0:
        return 1.0
    return float(min(1.0, binomtest(w, n, 0.5).pvalue))


Verdict = Literal["a_better", "b_better", "not_distinguishable"]


@dataclass(frozen=True)
class PairedComparison:
    """Two configurations on the same queries: wins/losses/ties of A against B and the sign test.

    ``verdict`` is the code of the conclusion; the UI (``ui/i18n.py``) and the
    CLI word it in one sentence from these fields and ``label_a``/``label_b``.
    """

    wins: int
    losses: int
    ties: int
    n: int
    p: float
    mean_a: float
    mean_b: float
    mean_diff: float
    verdict: Verdict
    alpha: float = ALPHA
    label_a: str = "A"
    label_b: str = "B"
    #: What one pair is: a query, or a question (its phrasings averaged into one value).
    unit: Literal["query", "question"] = "query"


def format_p(p: float) -> str:
    """Print a p-value as the lecture notes do: ``0.79``, ``0.0129`` → ``0.013``, ``0.0015``.

    Two decimals from 0.1 up, two significant digits below, ``< 0.0001`` at the bottom.
    """
    if p < 1e-4:
        return "< 0.0001"
    if p >= 0.1:
        return f"= {p:.2f}"
    return f"= {p:.2g}"


def paired_compare(
    a: Mapping[str, float],
    b: Mapping[str, float],
    *,
    eps: float = 1e-12,
    alpha: float = ALPHA,
    label_a: str = "A",
    label_b: str = "B",
    unit: Literal["query", "question"] = "query",
) -> PairedComparison:
    """Paired comparison of per-query values of configuration A and B (``unit``: what a key
    of ``a`` and ``b`` stands for, a query or a question whose phrasings were averaged).

    Only queries present in both mappings count. A query is a win when
    ``a − b > eps``, a loss when ``a − b < −eps``, otherwise a tie; ties are
    dropped and :func:`sign_test` runs on wins and losses. The verdict names a
    winner only when ``p < alpha``; otherwise the two are "not distinguishable
    on these n queries" — whatever the means say.
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1; got {alpha!r}")
    if unit not in ("query", "question"):
        raise ValueError(f"unit = {unit!r} is not valid; valid choices: query, question")
    if not math.isfinite(eps) or eps < 0:
        raise ValueError(f"eps must be a non-negative number; got {eps!r}")
    common = [q for q in a if q in b]
    if not common:
        raise ValueError(
            f"no query in common between {label_a} ({len(a)} queries) and {label_b} "
            f"({len(b)} queries): nothing to compare"
        )
    va = _as_values((a[q] for q in common), f"{label_a} values")
    vb = _as_values((b[q] for q in common), f"{label_b} values")
    wins = losses = ties = 0
    for x, y in zip(va, vb, strict=True):
        if x - y > eps:
            wins += 1
        elif y - x > eps:
            losses += 1
        else:
            ties += 1
    n = len(common)
    p = sign_test(wins, losses)
    mean_a = math.fsum(va) / n
    mean_b = math.fsum(vb) / n
    verdict: Verdict
    if p < alpha and wins > losses:
        verdict = "a_better"
    elif p < alpha and losses > wins:
        verdict = "b_better"
    else:
        verdict = "not_distinguishable"
    return PairedComparison(
        wins=wins,
        losses=losses,
        ties=ties,
        n=n,
        p=p,
        mean_a=mean_a,
        mean_b=mean_b,
        mean_diff=mean_a - mean_b,
        verdict=verdict,
        alpha=alpha,
        label_a=label_a,
        label_b=label_b,
        unit=unit,
    )


__all__ = [
    "ALPHA",
    "INTERVAL_METHODS",
    "MeanWithInterval",
    "PairedComparison",
    "BOOTSTRAP_RESAMPLES",
    "BOOTSTRAP_SEED",
    "bootstrap_interval",
    "cluster_means",
    "format_p",
    "is_binary",
    "metric_intervals",
    "mean_with_interval",
    "mean_with_wilson_of_floats",
    "paired_compare",
    "sign_test",
    "wilson_interval",
    "z_value",
]


# ---------------------------------------------------- paired proportions (answers)


@dataclass(frozen=True)
class PairedProportions:
    """A vs B on the same items, each scored success (1) or failure (0).

    ``difference = p_A − p_B = (b − c) / n`` with its Wald interval for paired
    proportions; ``p`` the exact McNemar p-value; ``mde`` the minimum
    detectable difference (see :func:`minimum_detectable_effect`).

    Exact McNemar (McNemar, Psychometrika 12, 1947; the "exact" variant of
    ``statsmodels.stats.contingency_tables.mcnemar``): under H0 (equal success rates)
    ``b ~ Binomial(b + c, 1/2)``, so it is :func:`sign_test` on the discordant pairs::

        p = min(1, 2 · P(X ≤ min(b, c))),  X ~ Binomial(b + c, 1/2)
    """

    n: int
    both: int  # a
    only_a: int  # b
    only_b: int  # c
    neither: int  # d
    p_a: float
    p_b: float
    difference: float
    low: float
    high: float
    p: float
    mde: float
    confidence: float = 0.95


def paired_difference_interval(
    only_a: int, only_b: int, n: int, confidence: float = 0.95
) -> tuple[float, float, float]:
    """``(d, low, high)`` for ``d = p_A − p_B = (b − c) / n`` on ``n`` paired items.

    Wald interval for the difference of paired proportions (Agresti,
    *Categorical Data Analysis*, 3rd ed., §11.1.1; statsmodels' ``mcnemar``
    companion ``confint_paired``-style)::

        se = sqrt((b + c) − (b − c)² / n) / n
        d ± z · se, clipped to [−1, 1]
    """
    _check_confidence(confidence)
    for name, v in (("only_a", only_a), ("only_b", only_b), ("n", n)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{name} must be a non-negative integer; got {v!r}")
    if n == 0 or only_a + only_b > n:
        raise ValueError(f"need 0 < n and only_a + only_b ≤ n; got n={n}, {only_a}+{only_b}")
    d = (only_a - only_b) / n
    se = math.sqrt(max(0.0, (only_a + only_b) - (only_a - only_b) ** 2 / n)) / n
    z = z_value(confidence)
    return d, max(-1.0, d - z * se), min(1.0, d + z * se)


def minimum_detectable_effect(
    n: int, discordant: int, alpha: float = ALPHA, power: float = 0.8
) -> float:
    """Smallest difference of paired proportions a two-sided test at ``alpha`` finds with ``power``.

    Connor's sample size for McNemar's test (Biometrics 43, 1987),
    ``n = (z_{1−α/2}·sqrt(ψ) + z_{power}·sqrt(ψ − δ²))² / δ²`` with discordance
    ``ψ = discordant / n``, solved for ``δ`` with ``δ² ≪ ψ``::

        δ = (z_{1−α/2} + z_{power}) · sqrt(ψ / n)

    "With n paired questions and this discordance, a difference smaller than
    δ cannot be told apart from noise." ``discordant = 0`` gives the bound for
    one discordant pair (ψ = 1/n), since an observed 0 does not prove 0.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive integer; got {n!r}")
    if isinstance(discordant, bool) or not isinstance(discordant, int) or not 0 <= discordant <= n:
        raise ValueError(f"discordant must be an integer in [0, n={n}]; got {discordant!r}")
    if not 0.0 < alpha < 1.0 or not 0.0 < power < 1.0:
        raise ValueError(
            f"alpha and power must lie strictly between 0 and 1; got {alpha!r}, {power!r}"
        )
    psi = max(discordant, 1) / n
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    return z * math.sqrt(psi / n)


def paired_proportions(
    a: Mapping[str, bool], b: Mapping[str, bool], confidence: float = 0.95
) -> PairedProportions:
    """Paired comparison of per-item successes of A and B over the items both scored."""
    common = [k for k in a if k in b]
    if not common:
        raise ValueError("no item in common between A and B: nothing to compare")
    both = sum(bool(a[k]) and bool(b[k]) for k in common)
    only_a = sum(bool(a[k]) and not b[k] for k in common)
    only_b = sum(not a[k] and bool(b[k]) for k in common)
    n = len(common)
    d, low, high = paired_difference_interval(only_a, only_b, n, confidence)
    return PairedProportions(
        n=n,
        both=both,
        only_a=only_a,
        only_b=only_b,
        neither=n - both - only_a - only_b,
        p_a=(both + only_a) / n,
        p_b=(both + only_b) / n,
        difference=d,
        low=low,
        high=high,
        p=sign_test(only_a, only_b),
        mde=minimum_detectable_effect(n, only_a + only_b, 1 - confidence),
        confidence=confidence,
    )


def holm(pvalues: Mapping[str, float] | Sequence[float]) -> Any:
    """Holm's step-down adjusted p-values (Holm, Scand. J. Statist. 6, 1979).

    Sort ``p_(1) ≤ … ≤ p_(m)``; ``p̃_(i) = max_{j ≤ i} min(1, (m − j + 1) · p_(j))``.
    Equal to ``statsmodels.stats.multitest.multipletests(p, method="holm")[1]``.
    Returns the same shape as given (a dict or a list).
    """
    keys = list(pvalues) if isinstance(pvalues, Mapping) else list(range(len(pvalues)))
    values = [pvalues[k] for k in keys]  # type: ignore[index]
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= v <= 1.0:
            raise ValueError(f"p-values must be numbers in [0, 1]; got {v!r}")
    m = len(values)
    order = sorted(range(m), key=lambda i: (values[i], i))
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * values[i]))
        adjusted[i] = running
    if isinstance(pvalues, Mapping):
        return dict(zip(keys, adjusted, strict=True))
    return adjusted


# ------------------------------------------------------------------ risk–coverage


def risk_coverage(
    n_total: int, n_answered: int, n_answered_wrong: int
) -> dict[str, dict[str, float] | None]:
    """Coverage = answered / all, risk = wrong-or-bluffed / answered, each with Wilson 95%.

    Geifman & El-Yaniv, "Selective classification for deep neural networks"
    (NeurIPS 2017): the risk–coverage trade-off of a reject option. A rate
    over no item is None.
    """
    out: dict[str, dict[str, float] | None] = {}
    for name, k, n in (("coverage", n_answered, n_total), ("risk", n_answered_wrong, n_answered)):
        if n == 0:
            out[name] = None
            continue
        if not 0 <= k <= n:
            raise ValueError(f"{name}: need 0 ≤ k ≤ n; got k={k}, n={n}")
        low, high = wilson_interval(k, n)
        out[name] = {"k": k, "n": n, "rate": k / n, "low": low, "high": high}
    return out


__all__ += [
    "PairedProportions",
    "holm",
    "minimum_detectable_effect",
    "paired_difference_interval",
    "paired_proportions",
    "risk_coverage",
]
