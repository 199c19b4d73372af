"""Precision@k: the share of the top k that is relevant.

    P@k = |{d in top-k : rel(d) > 0}| / k

trec_eval convention (``P_k``, ir_measures ``P@k``): the denominator is ``k``
even when fewer than ``k`` items were retrieved, so a short list is penalised.
Without a cutoff the denominator is the length of the ranking (0 → 0.0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ._common import checked_top, is_relevant


def precision(ranking: Sequence[str], qrels: Mapping[str, int], k: int | None = None) -> float:
    """Return the number of relevant ids among the first ``k``, divided by ``k``.

    Args:
        ranking: distinct ids, best first.
        qrels: id → grade; grade > 0 is relevant.
        k: cutoff (``None``: divide by ``len(ranking)``).
    """
    ranked = checked_top(ranking, k)
    denominator = len(ranking) if k is None else k
    if denominator == 0:
        return 0.0
    return sum(1 for d in ranked if is_relevant(qrels, d)) / denominator
