"""Average precision (AP); its mean over queries is MAP.

    AP = (1 / R) * sum_{i : rel_i > 0} P@i

where ``R`` is the number of relevant ids in the qrels (retrieved or not) and
the sum runs over the ranks of the relevant ids retrieved. Voorhees & Harman
(eds.), "TREC: Experiment and Evaluation in Information Retrieval", MIT Press
2005; trec_eval ``map`` / ir_measures ``AP``.

With a cutoff ``k`` (AP@k, trec_eval ``map_cut_k``) only ranks ≤ k are summed
and the denominator stays ``R`` (not ``min(k, R)``). For ``[0, 1, 0, 1, 1]``
with three relevant: ``AP = (1/2 + 2/4 + 3/5) / 3 ≈ 0.533``. With ``R = 0``
AP is undefined and we return ``None`` (trec_eval reports 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ._common import checked_top, is_relevant, n_relevant


def average_precision(
    ranking: Sequence[str], qrels: Mapping[str, int], k: int | None = None
) -> float | None:
    """Return AP (AP@k with ``k``), or ``None`` when no id in ``qrels`` is relevant.

    Args:
        ranking: distinct ids, best first.
        qrels: id → grade; grade > 0 is relevant.
        k: cutoff (``None``: the whole ranking).
    """
    ranked = checked_top(ranking, k)
    total = n_relevant(qrels)
    if total == 0:
        return None
    found = 0
    precision_sum = 0.0
    for rank, doc in enumerate(ranked, start=1):
        if is_relevant(qrels, doc):
            found += 1
            precision_sum += found / rank
    return precision_sum / total
