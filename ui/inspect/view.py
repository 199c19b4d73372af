"""The Inspect view model: which of a Trace's warnings belong to the corpus load."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rag_core.types import Trace

from ..i18n import said


def split_warnings(
    warnings: Sequence[str], load_warnings: Iterable[str]
) -> tuple[list[str], list[str]]:
    """``(other, skipped)``: the Trace's warnings that are not the corpus load's, in order,
    and those that are (one line per file or row the load skipped; ``CorpusIndex.load_warnings``
    lists them, so nothing is recognised by its wording)."""
    load = set(load_warnings)
    return [w for w in warnings if w not in load], [w for w in warnings if w in load]


def warning_text(warning: str, trace: Trace, lang: str) -> str:
    """A Trace warning in ``lang``. The pipeline copies a gate's reason that did not refuse
    (its rule was not applied) into the warnings; that one is worded from the gate's notice.
    The question's and the load's warnings are not coded yet and show as the core wrote them."""
    gate = trace.gate
    if gate.notice is not None and not gate.refused and warning == gate.reason:
        return said(gate, lang)
    return warning
