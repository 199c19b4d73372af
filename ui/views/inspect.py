"""The Inspect view model: which of a Trace's warnings belong to the corpus load, and whether
enforced citations fell back to free ones."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rag_core.types import GenerationStage


def split_warnings(
    warnings: Sequence[str], load_warnings: Iterable[str]
) -> tuple[list[str], list[str]]:
    """``(other, skipped)``: the Trace's warnings that are not the corpus load's, in order,
    and those that are (one line per file or row the load skipped; ``CorpusIndex.load_warnings``
    lists them, so nothing is recognised by its wording)."""
    load = set(load_warnings)
    return [w for w in warnings if w not in load], [w for w in warnings if w in load]


def citations_fell_back(config: Mapping[str, Any], generation: GenerationStage) -> bool:
    """True when the config asked for enforced citations and the generator ran with free ones.

    Read from data: the Trace's config (``generation.citations``) against the citation
    mode the generation stage records in its ``params``, not from its message's wording.
    """
    asked = config.get("generation", {}).get("citations")
    return (
        generation.status == "ok"
        and asked == "enforced"
        and generation.params.get("citations") == "free"
    )
