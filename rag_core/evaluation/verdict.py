"""The lecture's verdict on one Trace: where the gold was lost, or whether the system should
have refused — as far as a viewer has seen.

A lecture reveals the pipeline in steps (the candidates, the prompt, the answer), so the
verdict is read up to a stage (:data:`SEEN`) and never tells what a later step shows: after
the candidates only, a gold that the budget will cut is still ``kept``. Everything comes
from the Trace and the question's gold: the loss stage of
:func:`rag_core.gold.diagnosis.gold_view` (``trace.gold``), the gate's refusal, the
context's cut question, and for an out-of-domain question the answer-evaluation rule
:func:`rag_core.evaluation.answer_marks.refused`. Whether the answer itself answers the question
is a separate mark (:func:`rag_core.evaluation.answer_marks.answer_mark`).

Also the scenarios' yardstick: a scenario's configuration A must give a
:data:`FAILURES` verdict and its baseline B a :data:`SUCCESSES` one
(``tests/core/test_scenarios_ab.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..types import Notice, Question, Trace
from .answer_marks import refused

#: What a viewer has seen, in pipeline order: the candidates (chunking → gate), the prompt
#: (context), the answer.
SEEN: tuple[str, ...] = ("gate", "context", "answer")

#: Loss stages of ``GoldView.lost_at`` that the candidates view shows.
CANDIDATE_STAGES: tuple[str, ...] = ("corpus", "chunking", "retrieval", "fusion", "rerank", "gate")

#: Verdict kinds (:attr:`Verdict.kind`).
KINDS: tuple[str, ...] = (
    "no_gold",  # nothing to judge: a free question, or no gold needle
    "lost",  # the gold was lost at ``stage`` (``notices`` say why, one per lost needle)
    "question_cut",  # the budget cut the question itself (stage ``context``)
    "kept",  # so far the gold survives: the gate kept it at ``rank`` (the prompt not yet seen)
    "sent",  # the gold reached the prompt as source ``[source]``
    "should_refuse",  # out of domain, yet ``kept`` candidates passed (stage gate) or it answered
    "refused",  # out of domain and refused: by the gate, or by the model (stage ``answer``)
)
#: The kinds that show a failure, and the kinds of a working pipeline.
FAILURES: tuple[str, ...] = ("lost", "question_cut", "should_refuse")
SUCCESSES: tuple[str, ...] = ("sent", "refused")


@dataclass(frozen=True)
class Verdict:
    """One verdict line. ``answerable`` is None for a free question (no set question)."""

    kind: str
    stage: str
    answerable: bool | None
    notices: tuple[Notice, ...] = ()
    rank: int | None = None
    source: int | None = None
    kept: int = 0

    @property
    def failed(self) -> bool:
        return self.kind in FAILURES


def _best(values: tuple[int | None, ...] | None) -> int | None:
    found = [v for v in values or () if v is not None]
    return min(found) if found else None


def verdict(trace: Trace, question: Question | None = None, *, seen: str = "answer") -> Verdict:
    """The verdict on ``trace`` as far as ``seen`` (one of :data:`SEEN`).

    ``question``: the set question asked; None for free text (then ``trace.gold``, if
    any, is an answerable question's gold).
    """
    if seen not in SEEN:
        raise ValueError(f"seen = {seen!r} is not valid; valid choices: {', '.join(SEEN)}")
    upto = SEEN.index(seen)
    if question is not None and not question.answerable:
        return _out_of_domain(trace, upto)
    gold = trace.gold
    if gold is None:
        return Verdict("no_gold", "", None if question is None else True)
    lost = gold.lost_at
    whys = tuple(
        n
        for n, loss in zip(gold.needle_notices, gold.needle_losses, strict=False)
        if n is not None and loss == lost
    )
    if lost in CANDIDATE_STAGES:
        return Verdict("lost", lost, True, whys)
    kept = _best(gold.stage_ranks.get("gate"))
    if upto == 0 or trace.context.status == "skipped":  # not seen, or not run (stop_after)
        return Verdict("kept", "gate", True, rank=kept)
    if trace.context.question_cut:
        return Verdict("question_cut", "context", True, rank=kept)
    if lost == "context":
        return Verdict("lost", "context", True, whys, rank=kept)
    source = _best(gold.stage_ranks.get("context"))
    return Verdict("sent", "context", True, rank=kept, source=source)


def _out_of_domain(trace: Trace, upto: int) -> Verdict:
    """An unanswerable question: refused by the gate or the model, or it should have been."""
    kept = len(trace.gate.kept)
    if trace.gate.refused:
        return Verdict("refused", "gate", False)
    if upto < SEEN.index("answer") or trace.generation.status != "ok":
        return Verdict("should_refuse", "gate", False, kept=kept)
    if refused(trace):
        return Verdict("refused", "answer", False, kept=kept)
    return Verdict("should_refuse", "answer", False, kept=kept)
