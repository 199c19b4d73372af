"""The Inspect view model: a Trace's warnings, worded, and those of the corpus load."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rag_core.types import Trace

from ..i18n import notice_text


def split_warnings(
    warnings: Sequence[str], load_warnings: Iterable[str]
) -> tuple[list[str], list[str]]:
    """``(other, skipped)``: the Trace's warnings that are not the corpus load's, in order,
    and those that are (one line per file or row the load skipped; ``CorpusIndex.load_warnings``
    lists them, so nothing is recognised by its wording)."""
    load = set(load_warnings)
    return [w for w in warnings if w not in load], [w for w in warnings if w in load]


def warning_lines(trace: Trace, lang: str) -> list[str]:
    """The question's and the gate's warnings (``Trace.notices``) in ``lang``."""
    return [notice_text(n, lang) for n in trace.notices]
