"""The Inspect view model: which of a Trace's warnings belong to the corpus load."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def split_warnings(
    warnings: Sequence[str], load_warnings: Iterable[str]
) -> tuple[list[str], list[str]]:
    """``(other, skipped)``: the Trace's warnings that are not the corpus load's, in order,
    and those that are (one line per file or row the load skipped; ``CorpusIndex.load_warnings``
    lists them, so nothing is recognised by its wording)."""
    load = set(load_warnings)
    return [w for w in warnings if w not in load], [w for w in warnings if w in load]
