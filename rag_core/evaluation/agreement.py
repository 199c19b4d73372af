"""How far annotators agree: weighted Cohen's κ, Krippendorff's α, span F1, with intervals.

The unit is a **document span overlap** (:mod:`rag_core.gold.units`): the labels of one question
and one document whose spans overlap, chained; an annotator's grade of a unit is the highest
grade among their labels in it. Only questions that two or more annotators labeled are counted
(a question one annotator has not reached is not a disagreement). Per pair of annotators:

* **weighted Cohen's κ** on the grades of units both judged (Cohen 1968): with the confusion
  matrix :math:`O` of A's grade × B's grade, :math:`E` the outer product of its margins over
  :math:`n`, and weights :math:`w_{ij} = (i-j)^2` (``quadratic``) or :math:`|i-j|`
  (``linear``) on the 0–3 scale, :math:`\\kappa = 1 - \\sum w O / \\sum w E`
  (scikit-learn's ``cohen_kappa_score(labels=[0, 1, 2, 3], weights=...)``);
* **Krippendorff's α (ordinal)** on the same units (Krippendorff 2011, "Computing
  Krippendorff's Alpha-Reliability"): from the coincidence matrix :math:`o_{ck}` with
  margins :math:`n_c`, :math:`\\delta^2_{ck} = (\\sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2` and
  :math:`\\alpha = 1 - (n - 1) \\sum o_{ck} \\delta^2_{ck} / \\sum n_c n_k \\delta^2_{ck}`;
* **span F1**: the characters each marked (every judged span, any grade) as sets,
  :math:`2|A \\cap B| / (|A| + |B|)` pooled over the questions;
* the **share of units only one judged**.

Overall: α over every annotator's grades of every unit (missing where one did not judge it),
κ and span F1 as the mean over pairs (Light's κ), the share of units judged by one annotator.
Intervals are the percentile bootstrap over questions (:data:`BOOTSTRAP_RESAMPLES` resamples,
seed :data:`BOOTSTRAP_SEED`): each resample draws questions with replacement and recomputes
every figure from their summed counts.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from ..gold.labels import GRADES, Label
from ..gold.units import QKey, Unit, question_annotators, units_of
from ..wording import declare, refused
from .stats import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED

#: κ weightings (scikit-learn's names).
KAPPA_WEIGHTS: tuple[str, ...] = ("quadratic", "linear")
K = len(GRADES)

AGREE_WEIGHTS = declare("agree.weights", "value", "choices")
AGREE_FEW = declare("agree.few_annotators", "n", "names")


@dataclass(frozen=True)
class Figure:
    """A figure with its bootstrap interval (None: undefined — no unit, or no variation)."""

    value: float | None
    low: float | None = None
    high: float | None = None


def figure_text(
    fig: Figure, percent: bool = False, *, places: int = 3, undefined: str = "undefined"
) -> str:
    """``0.812 [0.701, 0.893]`` at ``places`` decimals (``percent``: the same precision as a
    percentage, ``81.2% [...]``); ``undefined`` without a value."""
    if fig.value is None:
        return undefined

    def one(x: float) -> str:
        return f"{x:.{places - 2}%}" if percent else f"{x:.{places}f}"

    if fig.low is None or fig.high is None:
        return one(fig.value)
    return f"{one(fig.value)} [{one(fig.low)}, {one(fig.high)}]"


@dataclass(frozen=True)
class PairAgreement:
    """Annotators ``a`` and ``b`` on the questions both labeled."""

    a: str
    b: str
    n_questions: int
    n_units: int
    n_both: int
    only_a: int
    only_b: int
    kappa: Figure
    alpha: Figure
    span_f1: Figure
    only_one: Figure
    #: ``confusion[i][j]``: units A graded ``i`` and B graded ``j``.
    confusion: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class QuestionAgreement:
    """One question: its units, how many every annotator judged alike, and its span F1."""

    question_set: str
    question_id: str
    annotators: tuple[str, ...]
    n_units: int
    n_agree: int
    only_one: int
    grade_differs: int
    span_f1: float | None

    @property
    def disagreement(self) -> float:
        """The share of its units that do not agree."""
        return (self.n_units - self.n_agree) / max(self.n_units, 1)


@dataclass(frozen=True)
class Agreement:
    """Agreement of a question set's annotators: per pair, overall, per question (most
    disagreeing first)."""

    annotators: tuple[str, ...]
    weights: str
    pairs: tuple[PairAgreement, ...]
    alpha: Figure
    kappa: Figure
    span_f1: Figure
    only_one: Figure
    n_questions: int
    n_units: int
    #: Questions only one annotator labeled (not counted).
    single: int
    questions: tuple[QuestionAgreement, ...]
    resamples: int
    seed: int
    confidence: float


# ------------------------------------------------------------------ formulas on counts


def _weights(weights: str) -> np.ndarray:
    i, j = np.meshgrid(np.arange(K), np.arange(K), indexing="ij")
    return (i - j) ** 2 if weights == "quadratic" else np.abs(i - j)


def kappa_of(confusion: np.ndarray, weights: str = "quadratic") -> np.ndarray:
    """Weighted κ of confusion matrices (``(..., K, K)``); NaN where undefined."""
    w = _weights(weights)
    o = np.asarray(confusion, dtype=float)
    n = o.sum(axis=(-1, -2))
    e = o.sum(axis=-1)[..., :, None] * o.sum(axis=-2)[..., None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        e = e / n[..., None, None]
        return 1.0 - (w * o).sum(axis=(-1, -2)) / (w * e).sum(axis=(-1, -2))


def _ordinal_delta(margins: np.ndarray) -> np.ndarray:
    """:math:`\\delta^2_{ck}` of the ordinal metric for margins ``(..., K)``."""
    cum = np.cumsum(margins, axis=-1)
    c, k = np.meshgrid(np.arange(K), np.arange(K), indexing="ij")
    lo, hi = np.minimum(c, k), np.maximum(c, k)
    between = cum[..., hi] - np.where(lo > 0, cum[..., np.maximum(lo - 1, 0)], 0.0)
    return (between - (margins[..., c] + margins[..., k]) / 2.0) ** 2


def alpha_of(coincidence: np.ndarray) -> np.ndarray:
    """Ordinal α of coincidence matrices (``(..., K, K)``); NaN where undefined."""
    o = np.asarray(coincidence, dtype=float)
    margins = o.sum(axis=-1)
    n = margins.sum(axis=-1)
    delta = _ordinal_delta(margins)
    observed = (o * delta).sum(axis=(-1, -2))
    expected = (margins[..., :, None] * margins[..., None, :] * delta).sum(axis=(-1, -2))
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1.0 - (n - 1.0) * observed / expected


def coincidences(grades: Sequence[Sequence[int]]) -> np.ndarray:
    """The coincidence matrix of units' grades (each unit: the grades of those who judged it;
    units judged once are not pairable and add nothing)."""
    o = np.zeros((K, K))
    for values in grades:
        m = len(values)
        if m < 2:
            continue
        for x in range(m):
            for y in range(m):
                if x != y:
                    o[values[x], values[y]] += 1.0 / (m - 1)
    return o


def _f1(inter: np.ndarray, size_a: np.ndarray, size_b: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return 2.0 * inter / (size_a + size_b)


# ------------------------------------------------------------------ per question counts


@dataclass(frozen=True)
class _Counts:
    """What one question adds to each figure (summed over resampled questions)."""

    confusion: dict[tuple[str, str], np.ndarray]
    chars: dict[tuple[str, str], tuple[int, int, int]]  # |A ∩ B|, |A|, |B|
    units: dict[tuple[str, str], tuple[int, int, int]]  # units, only A, only B
    coincidence: np.ndarray
    n_units: int
    only_one: int


def _chars(units: Sequence[Unit], who: str) -> set[tuple[str, int]]:
    return {(u.doc_id, i) for u in units for i in u.chars(who)}


def _question_counts(units: Sequence[Unit], names: Sequence[str]) -> _Counts:
    confusion, chars, counts = {}, {}, {}
    for a, b in combinations(names, 2):
        mine = [u for u in units if a in u.labels or b in u.labels]
        conf = np.zeros((K, K))
        for u in mine:
            ga, gb = u.grade(a), u.grade(b)
            if ga is not None and gb is not None:
                conf[ga, gb] += 1
        ca, cb = _chars(mine, a), _chars(mine, b)
        confusion[(a, b)] = conf
        chars[(a, b)] = (len(ca & cb), len(ca), len(cb))
        only_a = sum(1 for u in mine if b not in u.labels)
        only_b = sum(1 for u in mine if a not in u.labels)
        counts[(a, b)] = (len(mine), only_a, only_b)
    grades = [[g for g in (u.grade(w) for w in names) if g is not None] for u in units]
    return _Counts(
        confusion,
        chars,
        counts,
        coincidences(grades),
        len(units),
        sum(1 for u in units if len(u.labels) == 1),
    )


def _question_row(q: QKey, units: Sequence[Unit], names: Sequence[str]) -> QuestionAgreement:
    both = [u for u in units if len(u.labels) >= 2]
    cs = [_chars(units, w) for w in names]
    inter = set.intersection(*cs) if cs else set()
    total = sum(len(c) for c in cs)
    f1 = len(names) * len(inter) / total if total else None  # Dice over every annotator
    return QuestionAgreement(
        q[0],
        q[1],
        tuple(names),
        len(units),
        sum(1 for u in units if u.agrees(names)),
        sum(1 for u in units if len(u.labels) == 1),
        sum(1 for u in both if len({u.grade(w) for w in u.labels}) > 1),
        f1 if len(names) == 2 else None,
    )


# ------------------------------------------------------------------ the whole set


def _figure(values: np.ndarray, point: float, confidence: float) -> Figure:
    if not np.isfinite(point):
        return Figure(None)
    ok = values[np.isfinite(values)]
    if ok.size == 0:
        return Figure(float(point))
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(ok, [tail, 100.0 - tail])
    return Figure(float(point), float(low), float(high))


def _resample_weights(n: int, resamples: int, seed: int) -> np.ndarray:
    """``(resamples + 1, n)`` question multiplicities: the data itself first, then each
    resample (questions drawn with replacement)."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, n, size=(resamples, n))
    w = np.zeros((resamples + 1, n))
    w[0] = 1.0
    np.add.at(w, (np.repeat(np.arange(1, resamples + 1), n), draws.ravel()), 1.0)
    return w


def agreement(
    own: Mapping[str, Sequence[Label]],
    *,
    annotators: Sequence[str] | None = None,
    weights: str = "quadratic",
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    confidence: float = 0.95,
) -> Agreement:
    """Agreement of ``annotators`` (default: every one in ``own``, annotator → their labels).

    Raises:
        ValueError: an unknown weighting, or fewer than two annotators.
    """
    if weights not in KAPPA_WEIGHTS:
        raise refused(AGREE_WEIGHTS, value=repr(weights), choices=", ".join(KAPPA_WEIGHTS))
    names = tuple(sorted(annotators if annotators is not None else own))
    if len(names) < 2:
        raise refused(AGREE_FEW, n=len(names), names=", ".join(map(repr, names)) or "none")
    mine = {w: tuple(own.get(w, ())) for w in names}
    present = question_annotators(mine)
    scope = sorted(q for q, who in present.items() if len(who) >= 2)
    by_q: dict[QKey, list[Unit]] = {q: [] for q in scope}
    for u in units_of(mine):
        if u.question in by_q:
            by_q[u.question].append(u)
    counts = [_question_counts(by_q[q], present[q]) for q in scope]
    rows = sorted(
        (_question_row(q, by_q[q], present[q]) for q in scope),
        key=lambda r: (-r.disagreement, -(r.n_units - r.n_agree), r.question_set, r.question_id),
    )
    w = _resample_weights(len(scope), resamples if scope else 0, seed)
    done = [_pair(a, b, counts, w, weights, confidence) for a, b in combinations(names, 2)]
    pairs = tuple(p for p, _ in done)
    # Light's κ and the mean span F1: per resample, the mean over pairs
    with warnings.catch_warnings():  # a resample where every pair is undefined: NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        kappa = np.nanmean(np.array([k for _, (k, _) in done]), axis=0)
        f1 = np.nanmean(np.array([f for _, (_, f) in done]), axis=0)
    means = (_figure(kappa[1:], kappa[0], confidence), _figure(f1[1:], f1[0], confidence))
    return _whole(names, weights, pairs, means, counts, w, confidence, rows, present, seed)


def _stack(counts: Sequence[_Counts], pick: Callable[[_Counts], Any]) -> np.ndarray:
    return np.array([pick(c) for c in counts], dtype=float)


def _pair(
    a: str,
    b: str,
    counts: Sequence[_Counts],
    w: np.ndarray,
    weights: str,
    confidence: float,
) -> tuple[PairAgreement, tuple[np.ndarray, np.ndarray]]:
    """The pair's figures, and its κ and span F1 on the data and every resample."""

    def get(c: _Counts, field: str, default: object) -> object:
        return getattr(c, field).get((a, b), default)

    zeros = np.zeros((K, K))
    conf = _stack(counts, lambda c: get(c, "confusion", zeros)).reshape(len(counts), K * K)
    chars = _stack(counts, lambda c: get(c, "chars", (0, 0, 0))).reshape(len(counts), 3)
    units = _stack(counts, lambda c: get(c, "units", (0, 0, 0))).reshape(len(counts), 3)
    conf_r = (w @ conf).reshape(-1, K, K)
    # coincidences of two coders judging every unit: o = C + Cᵀ
    kappa = kappa_of(conf_r, weights)
    alpha = alpha_of(conf_r + np.swapaxes(conf_r, -1, -2))
    ch = w @ chars
    f1 = _f1(ch[:, 0], ch[:, 1], ch[:, 2])
    un = w @ units
    with np.errstate(divide="ignore", invalid="ignore"):
        only = (un[:, 1] + un[:, 2]) / un[:, 0]
    n_q = sum(1 for c in counts if (a, b) in c.units and c.units[(a, b)][0] > 0)
    total = conf_r[0]
    pair = PairAgreement(
        a,
        b,
        n_q,
        int(un[0, 0]),
        int(total.sum()),
        int(un[0, 1]),
        int(un[0, 2]),
        _figure(kappa[1:], kappa[0], confidence),
        _figure(alpha[1:], alpha[0], confidence),
        _figure(f1[1:], f1[0], confidence),
        _figure(only[1:], only[0], confidence),
        tuple(tuple(int(x) for x in row) for row in total),
    )
    return pair, (kappa, f1)


def _whole(
    names: tuple[str, ...],
    weights: str,
    pairs: tuple[PairAgreement, ...],
    means: tuple[Figure, Figure],
    counts: Sequence[_Counts],
    w: np.ndarray,
    confidence: float,
    rows: Sequence[QuestionAgreement],
    present: Mapping[QKey, Sequence[str]],
    seed: int,
) -> Agreement:
    coinc = _stack(counts, lambda c: c.coincidence).reshape(len(counts), K * K)
    alpha = alpha_of((w @ coinc).reshape(-1, K, K))
    units = _stack(counts, lambda c: (c.n_units, c.only_one)).reshape(len(counts), 2)
    un = w @ units
    with np.errstate(divide="ignore", invalid="ignore"):
        only = un[:, 1] / un[:, 0]

    return Agreement(
        annotators=names,
        weights=weights,
        pairs=pairs,
        alpha=_figure(alpha[1:], alpha[0], confidence),
        kappa=means[0],
        span_f1=means[1],
        only_one=_figure(only[1:], only[0], confidence),
        n_questions=len(counts),
        n_units=int(un[0, 0]) if len(un) else 0,
        single=sum(1 for who in present.values() if len(who) == 1),
        questions=tuple(rows),
        resamples=len(w) - 1,
        seed=seed,
        confidence=confidence,
    )


__all__ = [
    "Agreement",
    "Figure",
    "KAPPA_WEIGHTS",
    "PairAgreement",
    "QuestionAgreement",
    "agreement",
    "alpha_of",
    "coincidences",
    "figure_text",
    "kappa_of",
]
