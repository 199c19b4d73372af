"""Hit@k (success@k): did any relevant item make the top k?

    Hit@k = 1 if |{d in top-k : rel(d) > 0}| >= 1 else 0

Also called success@k (trec_eval ``success_k``, ir_measures ``Success@k``)
or "hit rate" once averaged over queries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ._common import checked_top, is_relevant


def hit(ranking: Sequence[str], qrels: Mapping[str, int], k: int | None = None) -> float:
    """Return 1.0 when a relevant id is among the first ``k``, else 0.0.

    Args:
        ranking: distinct ids, best first.
        qrels: id → grade; grade > 0 is relevant.
        k: cutoff (``None``: the whole ranking).
    """
    return 1.0 if any(is_relevant(qrels, d) for d in checked_top(ranking, k)) else 0.0
