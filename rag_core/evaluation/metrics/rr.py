"""Reciprocal rank (RR); its mean over queries is MRR.

    RR = 1 / rank of the first relevant item   (0 if none is retrieved)

Voorhees, "The TREC-8 Question Answering Track Report" (1999). trec_eval
``recip_rank`` / ir_measures ``RR``; with a cutoff ``k`` (ir_measures ``RR@k``,
the MS MARCO "MRR@10") a first relevant item below rank ``k`` scores 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ._common import check_ranking, checked_top, is_relevant


def first_relevant_rank(ranking: Sequence[str], qrels: Mapping[str, int]) -> int | None:
    """1-based rank of the first relevant id, or ``None`` when none is retrieved."""
    check_ranking(ranking)
    for rank, doc in enumerate(ranking, start=1):
        if is_relevant(qrels, doc):
            return rank
    return None


def reciprocal_rank(
    ranking: Sequence[str], qrels: Mapping[str, int], k: int | None = None
) -> float:
    """Return ``1 / rank`` of the first relevant id within the first ``k``, else 0.0.

    Args:
        ranking: distinct ids, best first.
        qrels: id → grade; grade > 0 is relevant.
        k: cutoff (``None``: the whole ranking).
    """
    rank = first_relevant_rank(checked_top(ranking, k), qrels)
    return 0.0 if rank is None else 1.0 / rank
