"""Streamlit-free view model of the Check page: inputs → rows → support stages → marks."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rag_core.answer.checkfile import (
    MAX_ANSWER_CHARS,
    MAX_CLAIMS,
    MAX_CONTEXT_CHARS,
    MAX_CONTEXTS,
    MAX_CONTEXTS_CHARS,
    MAX_QUESTION_CHARS,
    Row,
    RowError,
    check_limits,
    check_row,
    embedder_for,
    judge_for,
    parse_bytes,
)
from rag_core.answer.support import flags
from rag_core.config import PipelineConfig, SupportConfig
from rag_core.models.generators import TextGenerator
from rag_core.types import Claim, Notice, SupportStage
from ui.html import Mark
from ui.trace_view import is_evidence, signal_text, support_threshold

#: The caps on one row the page states (``rag_core.answer.checkfile``).
LIMITS = {
    "answer": MAX_ANSWER_CHARS,
    "claims": MAX_CLAIMS,
    "contexts": MAX_CONTEXTS,
    "context": MAX_CONTEXT_CHARS,
    "all": MAX_CONTEXTS_CHARS,
    "question": MAX_QUESTION_CHARS,
}

#: A line of ``---`` between pasted contexts. Blanks around it are spaces and tabs only: ``\s*``
#: would also run over newlines, and from every line start of a run of blank lines (quadratic:
#: 40,000 empty lines took 3 s).
_SEP = re.compile(r"^[^\S\n]*---+[^\S\n]*$", re.MULTILINE)


def split_contexts(text: str) -> tuple[str, ...]:
    """Pasted contexts: separated by a ``---`` line; empty pieces dropped."""
    return tuple(p.strip() for p in _SEP.split(text) if p.strip())


def pasted_row(question: str, contexts: str, answer: str) -> Row | None:
    """The pasted inputs as a row (None when the answer or every context is empty).

    Raises:
        RowProblem: A cap of a row is passed (``rag_core.answer.checkfile.check_limits``).
    """
    ctxs = split_contexts(contexts)
    if not answer.strip() or not ctxs:
        return None
    row = Row("pasted", question.strip(), ctxs, answer)
    check_limits(row)
    return row


def uploaded_rows(data: bytes, name: str) -> tuple[list[Row], list[RowError]]:
    """Rows of an uploaded JSONL file and the lines that could not be read (decoded as the
    corpus loaders decode a file: BOM, UTF-8, CP949, UTF-16, CP1252 …)."""
    rows: list[Row] = []
    errors: list[RowError] = []
    for item in parse_bytes(data, name):
        if isinstance(item, RowError):
            errors.append(item)
        else:
            rows.append(item)
    return rows, errors


def check(
    row: Row, cfg: SupportConfig, embedder: Any = "auto", judge: TextGenerator | None = None
) -> SupportStage:
    """The support stage of ``row`` with the embedder its contexts' language gets (and
    ``judge``, asked when ``cfg.judge`` is on)."""
    emb = embedder_for(row.contexts) if embedder == "auto" else embedder
    return check_row(row, cfg, embedder=emb, judge=judge)


def judge(config: PipelineConfig) -> tuple[TextGenerator | None, Notice | None]:
    """The sidebar's generator as the judge (``support.judge``), or why there is none."""
    return judge_for(config.generation.model, config.generation.dtype)


@dataclass(frozen=True)
class Counts:
    """Judged claims and how many flag the answer."""

    judged: int
    bad: int

    @property
    def flagged(self) -> bool:
        return self.bad > 0


def counts(stage: SupportStage) -> Counts:
    judged = [c for c in stage.claims if c.verdict != "not-a-claim"]
    bad = [c for c in judged if flags(c)]
    return Counts(len(judged), len(bad))


def evidence_marks(stage: SupportStage, selected: int | None, n: int) -> list[Mark]:
    """Marks on context ``n`` for every sentence of the selected claim's evidence windows, in
    the claim's verdict colour, the best outlined; a window that neither backs nor contradicts
    the claim is not painted (``ui.trace_view.is_evidence``)."""
    if selected is None or not (0 <= selected < len(stage.claims)):
        return []
    claim = stage.claims[selected]
    min_p = support_threshold(stage, {})
    windows = [e for e in claim.evidence if is_evidence(e, min_p)]
    best = max((e.score for e in windows), default=None)
    out = []
    for e in windows:
        if e.n != n:
            continue
        cls = f"ri-ev ri-v-{claim.verdict}" + (" ri-ev-best" if e.score == best else "")
        out += [Mark(a, b, cls, f"p {e.score:.2f}") for a, b in e.spans or ((e.start, e.end),)]
    return out


def p_label(p: float | None) -> str:
    return "—" if p is None else f"{p:.2f}"


def claim_rows(stage: SupportStage) -> Sequence[tuple[int, str, str, str]]:
    """``(index, verdict, p, text)`` per claim, for the table under the answer."""
    return [(i, c.verdict, p_label(c.p_supported), c.text) for i, c in enumerate(stage.claims)]


def claim_signals(claim: Claim, lang: str) -> str:
    """What moved the claim's best source's ``p_supported`` most (``Evidence.signals``)."""
    best = max(claim.evidence, key=lambda e: e.score, default=None)
    return signal_text(best.signals, lang) if best is not None else ""
