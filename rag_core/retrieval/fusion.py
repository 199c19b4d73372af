"""Fusion: several ranked lists of hits become one.

Each method is a pure function registered in :data:`FUSERS` under a name of
:data:`rag_core.config.FUSION_METHODS`. A method maps the input lists to, per
candidate, the contribution of each list that contains it; the fused score is
the sum of those contributions (summed in list order). **A candidate absent
from a list gets nothing from that list** (contribution 0, not recorded), so
appearing in more lists can only help.

Order of the fused list: fused score descending; ties broken deterministically
by (1) the best (smallest) rank the candidate has in any input list, (2) the
position of the first input list that contains it, (3) ``chunk_id``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rag_core.registry import Registry
from rag_core.types import FusionResult, Hit

#: ``fn(lists, rrf_k=..., alpha=...) -> {list name: {chunk_id: contribution}}``
Fuser = Callable[..., dict[str, dict[str, float]]]

FUSERS: Registry[Fuser] = Registry("fusion method")

NamedList = tuple[str, Sequence[Hit]]


# ------------------------------------------------------------ normalisers


def minmax_normalise(scores: Sequence[float]) -> list[float]:
    """``(s − min)/(max − min)``; a list whose scores are all equal gives 1.0 to each."""
    if not scores:
        return []
    lo, hi = min(scores), max(scores)
    if hi == lo:
        return [1.0] * len(scores)
    return [(s - lo) / (hi - lo) for s in scores]


def zscore_normalise(scores: Sequence[float]) -> list[float]:
    """``(s − mean)/std`` with the population std (``ddof = 0``); std 0 gives 0 to each."""
    if not scores:
        return []
    n = len(scores)
    mean = sum(scores) / n
    std = math.sqrt(sum((s - mean) ** 2 for s in scores) / n)
    if std == 0:
        return [0.0] * n
    return [(s - mean) / std for s in scores]


# ---------------------------------------------------------------- methods


@FUSERS.register("rrf")
def rrf_contributions(
    lists: Sequence[NamedList], *, rrf_k: int = 60, **_: float
) -> dict[str, dict[str, float]]:
    """Reciprocal Rank Fusion: ``score(d) = Σ_lists 1/(rrf_k + rank_list(d))``.

    Cormack, Clarke & Büttcher, "Reciprocal rank fusion outperforms Condorcet
    and individual rank learning methods", SIGIR 2009 (``rrf_k = 60``).
    Uses each hit's 1-based ``rank``.
    """
    out = {}
    for name, hits in lists:
        out[name] = {h.chunk_id: 1.0 / (rrf_k + h.rank) for h in hits}
    return out


@FUSERS.register("minmax")
def minmax_contributions(lists: Sequence[NamedList], **_: float) -> dict[str, dict[str, float]]:
    """CombSUM over min-max normalised scores: ``Σ_lists (s − min)/(max − min)``.

    Fox & Shaw, "Combination of multiple searches", TREC-2 1994 (CombSUM);
    Lee, SIGIR 1997 (min-max normalisation). min/max are taken over each
    list's own hits; a list with all-equal scores gives 1.0 to each hit.
    """
    return _normalised(lists, minmax_normalise)


@FUSERS.register("zscore")
def zscore_contributions(lists: Sequence[NamedList], **_: float) -> dict[str, dict[str, float]]:
    """CombSUM over z-scores: ``Σ_lists (s − mean)/std`` (std 0 gives 0).

    Montague & Aslam, "Relevance score normalization for metasearch", CIKM
    2001 (z-score normalisation). mean/std over each list's own hits.
    """
    return _normalised(lists, zscore_normalise)


def _normalised(
    lists: Sequence[NamedList], normalise: Callable[[Sequence[float]], list[float]]
) -> dict[str, dict[str, float]]:
    """Per list, chunk id → that list's scores passed through ``normalise``."""
    out = {}
    for name, hits in lists:
        norm = normalise([h.score for h in hits])
        out[name] = dict(zip((h.chunk_id for h in hits), norm, strict=True))
    return out


@FUSERS.register("weighted")
def weighted_contributions(
    lists: Sequence[NamedList], *, alpha: float = 0.5, **_: float
) -> dict[str, dict[str, float]]:
    """Convex combination of two min-max normalised lists: ``α·mm(s₁) + (1 − α)·mm(s₂)``.

    Exactly two lists: ``alpha`` weighs the first. (Min-max as in
    :func:`minmax_contributions`.)
    """
    if len(lists) != 2:
        names = ", ".join(name for name, _ in lists)
        raise ValueError(
            f"weighted fusion needs exactly 2 lists, got {len(lists)} ({names}); "
            "use rrf, minmax or zscore for another number of lists"
        )
    mm = minmax_contributions(lists)
    first, second = lists[0][0], lists[1][0]
    return {
        first: {c: alpha * v for c, v in mm[first].items()},
        second: {c: (1.0 - alpha) * v for c, v in mm[second].items()},
    }


# ------------------------------------------------------------------- fuse


@dataclass
class _Cand:
    doc_id: str
    distance: float | None
    best_rank: int
    first_list: int


def _validate(lists: Sequence[NamedList], k: int, rrf_k: int, alpha: float) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k = {k!r} must be an integer >= 1")
    if isinstance(rrf_k, bool) or not isinstance(rrf_k, int) or rrf_k < 0:
        raise ValueError(f"rrf_k = {rrf_k!r} must be an integer >= 0")
    if not isinstance(alpha, (int, float)) or not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha = {alpha!r} must be a number between 0 and 1")
    if not lists:
        raise ValueError("fusion needs at least one list of hits")
    names = [name for name, _ in lists]
    if len(set(names)) != len(names):
        raise ValueError(f"list names must be distinct, got {names}")
    for name, hits in lists:
        ids = [h.chunk_id for h in hits]
        if len(set(ids)) == len(ids):
            continue
        seen = set()
        for cid in ids:
            if cid in seen:
                raise ValueError(f"list {name!r} holds chunk {cid!r} twice")
            seen.add(cid)


def fuse(
    lists: Sequence[tuple[str, Sequence[Hit]]],
    method: str,
    *,
    k: int,
    rrf_k: int = 60,
    alpha: float = 0.5,
) -> FusionResult:
    """Fuse rank-ordered lists of hits into one list of at most ``k`` hits.

    Args:
        lists: ``(list name, hits)`` pairs; each list in rank order, ``rank`` 1-based.
        method: A name of :data:`FUSERS` (``rrf``, ``minmax``, ``zscore``, ``weighted``).
        k: How many fused hits to keep.
        rrf_k: The RRF constant (``rrf`` only).
        alpha: Weight of the first list (``weighted`` only).

    Returns:
        A :class:`FusionResult` whose hits carry rank 1..k, the fused score,
        ``list_ranks`` and ``contributions`` (lists containing the hit only;
        contributions sum to the score), the first ``distance`` any input gave
        the chunk, and ``union`` = number of distinct candidates over all inputs.

    Raises:
        ValueError: Unknown method, bad ``k``/``rrf_k``/``alpha``, duplicate list
            names or a chunk twice in one list, ``weighted`` without exactly 2 lists.
    """
    fuser = FUSERS.get(method)
    _validate(lists, k, rrf_k, alpha)
    contributions = fuser(lists, rrf_k=rrf_k, alpha=alpha)

    cands: dict[str, _Cand] = {}
    ranks: dict[str, dict[str, int]] = {}
    for pos, (name, hits) in enumerate(lists):
        for h in hits:
            c = cands.get(h.chunk_id)
            if c is None:
                cands[h.chunk_id] = _Cand(h.doc_id, h.distance, h.rank, pos)
                ranks[h.chunk_id] = {}
            else:
                c.best_rank = min(c.best_rank, h.rank)
                if c.distance is None:
                    c.distance = h.distance
            ranks[h.chunk_id][name] = h.rank

    rows = []
    for cid, c in cands.items():
        contrib = {
            name: contributions[name][cid] for name, _ in lists if cid in contributions[name]
        }
        score = 0.0
        for v in contrib.values():
            score += v
        rows.append((score, c, cid, contrib))
    rows.sort(key=lambda r: (-r[0], r[1].best_rank, r[1].first_list, r[2]))

    hits = tuple(
        Hit(
            chunk_id=cid,
            doc_id=c.doc_id,
            rank=rank,
            score=score,
            distance=c.distance,
            list_ranks=ranks[cid],
            contributions=contrib,
        )
        for rank, (score, c, cid, contrib) in enumerate(rows[:k], start=1)
    )
    params: dict[str, float | int] = {"k": k}
    if method == "rrf":
        params["rrf_k"] = rrf_k
    if method == "weighted":
        params["alpha"] = alpha
    return FusionResult(
        method=method,
        hits=hits,
        union=len(cands),
        inputs=tuple(name for name, _ in lists),
        params=params,
    )


__all__ = [
    "FUSERS",
    "fuse",
    "minmax_normalise",
    "rrf_contributions",
    "zscore_normalise",
]
