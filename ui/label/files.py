"""The Label page's exports (label JSONL, TREC qrels of a chunking) and its label import; no
Streamlit."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rag_core.config import PRESETS, ChunkerConfig, preset
from rag_core.gold.states import GoldState
from rag_core.gold.store import LabelStore
from rag_core.types import Chunk, Document, Question
from rag_core.wording import unworded

from .keys import K_LAB_IMP_FLASH
from .view import Change, Msg, Outcome

#: Chunkings a qrels export may use: the sidebar's, or a preset's.
EXPORT_CHUNKINGS = ("sidebar", *PRESETS)


@dataclass(frozen=True)
class ExportPlan:
    """Which sets an export covers, the file-name stem, and the JSONL export's set (None: all)."""

    sets: tuple[str, ...]
    stem: str
    jsonl_set: str | None


def export_plan(scope: str, qset: str, names: Sequence[str]) -> ExportPlan:
    """``scope`` "set": the page's set; "all": every set."""
    if scope == "set":
        return ExportPlan((qset,), qset, qset)
    return ExportPlan(tuple(names), "all", None)


def export_chunker(choice: str, sidebar: ChunkerConfig) -> ChunkerConfig:
    """The chunking a qrels export uses: the sidebar's or a preset's."""
    return sidebar if choice == "sidebar" else preset(choice).chunker


def qrels_text(
    store: LabelStore,
    chunks: Sequence[Chunk],
    qsets: Mapping[str, Sequence[Question]],
    plan: ExportPlan,
    docs: Mapping[str, Document],
    phrasings: str,
    escape: bool,
    state: GoldState | None = None,
) -> str:
    """TREC qrels of the plan's sets for ``chunks`` from the labels of ``state``
    (``LabelStore.export_qrels``, set by set)."""
    return "".join(
        store.export_qrels(
            chunks,
            qsets[name],
            docs,
            question_set=name,
            phrasings=phrasings,
            escape=escape,
            state=state,
        )
        for name in plan.sets
    )


def state_slug(state: GoldState) -> str:
    """A gold state as a file-name part: ``annotator-kim``, ``adjudicated``, ``merge-max``
    (characters other than letters, digits, ``-``, ``_`` and ``.`` become ``_``)."""
    raw = state.spec.replace(":", "-").rstrip("-") or "default"
    return re.sub(r"[^\w.-]", "_", raw)[:80]


def import_labels(
    store: LabelStore, name: str, data: bytes, docs: Mapping[str, Document] | None
) -> Outcome:
    """Import an uploaded JSONL file (checked against ``docs`` if given); nothing on a bad file."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        reason = Msg("lab.imp.not_utf8", {"name": name, "error": exc.reason, "byte": exc.start})
        return Outcome(error=Msg("lab.imp.bad", {"reason": reason}))
    try:
        rep = store.import_jsonl(text, docs=docs, source=name)
    except ValueError as exc:
        return Outcome(error=Msg("lab.imp.bad", {"reason": unworded(exc)}))
    done = Msg(
        "lab.imp.ok",
        {
            "lines": rep.n_lines,
            "added": rep.added,
            "changed": rep.changed,
            "unchanged": rep.unchanged,
        },
    )
    return Outcome(Change({K_LAB_IMP_FLASH: done}), rerun=True)
