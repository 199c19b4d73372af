"""Normalised discounted cumulative gain, nDCG@k.

    DCG@k  = sum_{i=1..k} gain(rel_i) / log2(i + 1)
    IDCG@k = DCG@k of the ideal ranking: every judged id sorted by gain, descending
    nDCG@k = DCG@k / IDCG@k

Järvelin & Kekäläinen, "Cumulated gain-based evaluation of IR techniques",
ACM TOIS 20(4), 2002 (discounted cumulated gain); Burges et al., "Learning to
rank using gradient descent", ICML 2005 (the exponential gain ``2^rel − 1``).

Gains (selectable by name, :data:`GAINS`):

* ``binary`` — 1 for a grade > 0, else 0;
* ``exp`` — ``2^rel − 1`` for a grade > 0 (graded relevance, Burges et al.);
* ``linear`` — the grade itself, the trec_eval ``ndcg`` default.

The ideal comes from the qrels, not from the retrieved list, and is cut at
``k`` too — pytrec_eval's ``ndcg_cut_k`` convention. So with two relevant ids
and the binary gain, ``[1, 0, 1]`` gives
``(1/log2(2) + 1/log2(4)) / (1/log2(2) + 1/log2(3)) ≈ 0.9197`` and
``[0, 1, 0]`` gives ``(1/log2(3)) / (1/log2(2) + 1/log2(3)) ≈ 0.3869``.
A query without a relevant id has IDCG = 0: nDCG is undefined and we return
``None`` (trec_eval reports 0).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from ...registry import Registry
from ._common import checked_top, top

Gain = Callable[[int], float]

GAINS: Registry[Gain] = Registry("gain")


@GAINS.register("binary")
def binary_gain(grade: int) -> float:
    """1 for a relevant grade (> 0), else 0."""
    return 1.0 if grade > 0 else 0.0


@GAINS.register("exp")
def exp_gain(grade: int) -> float:
    """``2^grade − 1`` for a relevant grade (> 0), else 0 (Burges et al. 2005)."""
    return float(2**grade - 1) if grade > 0 else 0.0


@GAINS.register("linear")
def linear_gain(grade: int) -> float:
    """The grade itself for a relevant grade (> 0), else 0 (trec_eval's ``ndcg``)."""
    return float(grade) if grade > 0 else 0.0


def discount(rank: int) -> float:
    """``1 / log2(rank + 1)`` for a 1-based rank."""
    return 1.0 / math.log2(rank + 1)


def dcg(gains: Sequence[float]) -> float:
    """Discounted cumulative gain of gains listed in rank order."""
    return sum(g * discount(rank) for rank, g in enumerate(gains, start=1))


def ndcg(
    ranking: Sequence[str],
    qrels: Mapping[str, int],
    k: int | None = None,
    gain: str = "binary",
) -> float | None:
    """Return nDCG@k of ``ranking``, or ``None`` when no id in ``qrels`` is relevant.

    Args:
        ranking: distinct ids, best first.
        qrels: id → grade; grade > 0 is relevant.
        k: cutoff for both the ranking and the ideal (``None``: no cutoff).
        gain: ``"binary"``, ``"exp"`` or ``"linear"``.
    """
    ranked = checked_top(ranking, k)
    gain_fn = GAINS.get(gain)
    ideal_gains = sorted((gain_fn(g) for g in qrels.values() if g > 0), reverse=True)
    ideal = dcg(top(ideal_gains, k))
    if ideal == 0.0:
        return None
    return dcg([gain_fn(qrels.get(d, 0)) for d in ranked]) / ideal
