"""Answers destroyed by a chunking: gold needles that no chunk holds whole.

    destroyed = |{n in needles : relevant_chunks(n) = ∅}|

A needle (gold span) makes a chunk relevant only when the chunk's content
contains it entirely. A needle cut by a chunk boundary, and not restored by
overlap, has no relevant chunk anywhere in the index: its recall ceiling is 0
whatever the retriever, reranker or model (the "blind cut" failure).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

PerNeedle = Mapping[str, Collection[str]] | Sequence[Collection[str]]


def destroyed_needles(relevant_by_needle: PerNeedle) -> tuple[str | int, ...]:
    """Return the needles (in input order) whose set of relevant chunk ids is empty.

    Args:
        relevant_by_needle: for each needle, the ids of the chunks that contain
            it whole over the *whole* chunking (not only retrieved chunks) —
            either a mapping needle id → ids (the needle ids are returned) or a
            sequence of id collections (their positions are returned).
    """
    items: list[tuple[str | int, Collection[str]]]
    if isinstance(relevant_by_needle, Mapping):
        items = list(relevant_by_needle.items())
    elif isinstance(relevant_by_needle, Sequence) and not isinstance(relevant_by_needle, str):
        items = list(enumerate(relevant_by_needle))
    else:
        raise ValueError(
            "relevant_by_needle must map needle id → relevant chunk ids, or list one "
            f"collection of chunk ids per needle; got {type(relevant_by_needle).__name__}"
        )
    for needle, chunks in items:
        if isinstance(chunks, str) or not isinstance(chunks, Collection):
            raise ValueError(
                f"needle {needle!r}: expected a collection of chunk ids, got {chunks!r}"
            )
    return tuple(needle for needle, chunks in items if len(chunks) == 0)


def answers_destroyed(relevant_by_needle: PerNeedle) -> int:
    """Count the needles with zero relevant chunks (see :func:`destroyed_needles`)."""
    return len(destroyed_needles(relevant_by_needle))
