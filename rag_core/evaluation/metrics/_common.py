"""Shared checks and helpers for the rank metrics.

Conventions (those of trec_eval / pytrec_eval):

* ``qrels`` maps a document (or chunk) id to an integer grade; a grade
  ``<= 0`` is *not relevant*, and an id absent from ``qrels`` is not relevant.
  Whether a query is judged at all is decided above this level.
* A ranking is a sequence of distinct ids, best first; rank 1 is the first.
* A cutoff ``k`` is a positive ``int``; ``None`` means the whole ranking.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class MetricFn(Protocol):
    """Signature shared by every metric in :data:`rag_core.evaluation.metrics.METRICS`."""

    def __call__(
        self, ranking: Sequence[str], qrels: Mapping[str, int], k: int | None = None
    ) -> float | None: ...


def check_k(k: int | None, *, required: bool = False) -> None:
    """Raise ``ValueError`` unless ``k`` is a positive int (or ``None`` when allowed)."""
    if k is None:
        if required:
            raise ValueError("cutoff k is required; got None")
        return
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"cutoff k must be a positive integer; got {k!r}")


def check_ranking(ranking: Sequence[str]) -> None:
    """Raise ``ValueError`` for a bare string or a ranking that repeats an id.

    trec_eval refuses a run with a duplicated document for one query; so do we,
    since a repeated id would be counted twice by precision and recall.
    """
    if isinstance(ranking, (str, bytes)):
        raise ValueError(f"a ranking must be a sequence of ids, not a single string ({ranking!r})")
    if len(set(ranking)) == len(ranking):  # the common case, checked in C (every metric calls this)
        return
    seen: set[str] = set()
    for doc in ranking:
        if doc in seen:
            raise ValueError(f"ranking lists id {doc!r} more than once")
        seen.add(doc)


def checked_top(ranking: Sequence[str], k: int | None) -> Sequence[str]:
    """Check ``k`` and ``ranking`` (:func:`check_k`, :func:`check_ranking`), then :func:`top`."""
    check_k(k)
    check_ranking(ranking)
    return top(ranking, k)


def top(ranking: Sequence[T], k: int | None) -> Sequence[T]:
    """The first ``k`` ids of ``ranking`` (all of them when ``k`` is None)."""
    return ranking if k is None else ranking[:k]


def is_relevant(qrels: Mapping[str, int], doc: str) -> bool:
    """True when ``doc`` has a grade above 0 in ``qrels``."""
    return qrels.get(doc, 0) > 0


def n_relevant(qrels: Mapping[str, int]) -> int:
    """Number of ids with a grade above 0."""
    return sum(1 for grade in qrels.values() if grade > 0)
