"""Recall@k: the share of the relevant items found in the top k.

    Recall@k = |{d in top-k : rel(d) > 0}| / |{d : rel(d) > 0}|

trec_eval ``recall_k`` / ir_measures ``R@k``. A query with no relevant item
has no recall (0/0): it is *not judged*, and we return ``None``, never 0
(trec_eval reports 0 there and so drags the mean down).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from ._common import checked_top, is_relevant, n_relevant


def recall(ranking: Sequence[str], qrels: Mapping[str, int], k: int | None = None) -> float | None:
    """Return the fraction of relevant ids in the first ``k``, or ``None`` if none is relevant.

    Args:
        ranking: distinct ids, best first.
        qrels: id → grade; grade > 0 is relevant.
        k: cutoff (``None``: the whole ranking).
    """
    ranked = checked_top(ranking, k)
    total = n_relevant(qrels)
    if total == 0:
        return None
    return sum(1 for d in ranked if is_relevant(qrels, d)) / total


def unit_recall(
    ranking: Sequence[str], units: Sequence[Collection[str]], k: int | None = None
) -> float | None:
    """Recall over gold *units* (needles), each satisfied by any of its chunks.

        Recall@k = |{u : u ∩ top-k ≠ ∅}| / |units|

    A needle is one piece of evidence however many chunks contain it (with
    overlap, a needle in the overlap region lies in two chunks): counting
    chunks would make an overlapping chunking look worse at recall for
    retrieving the same evidence. A unit with no chunk (destroyed by the
    chunking) can never be found, so it still counts in the denominator.
    Equals trec_eval ``recall_k`` on qrels whose items are the needles and a
    run where each chunk stands for the needles it holds.

    Args:
        ranking: distinct chunk ids, best first.
        units: per needle, the chunk ids containing it (possibly empty).
        k: cutoff (``None``: the whole ranking).
    """
    ranked = checked_top(ranking, k)
    if not units:
        return None
    found = set(ranked)
    return sum(1 for u in units if found.intersection(u)) / len(units)
