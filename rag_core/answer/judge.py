"""The support judge: the generator asked whether a source supports a claim, its ``P(yes)``
stacked on the head's ``p_supported`` (:meth:`.support_head.SupportHead.with_judge`)."""

from __future__ import annotations

from dataclasses import replace

from rag_core.answer.support_head import SupportHead
from rag_core.models.generators import TextGenerator
from rag_core.types import Evidence

JUDGE_SYSTEM = "You check facts. Reply with one word: yes or no."


def judge_prompt(claim: str, source_text: str) -> str:
    """The user turn that asks the judge whether ``source_text`` supports ``claim``."""
    return (
        f"Source:\n{source_text}\n\nClaim: {claim}\n\nDoes the source support the claim? Answer "
        "yes or no."
    )


def judge_support(judge: TextGenerator, claim: str, source_text: str) -> float:
    """``P(yes)`` of ``judge`` (a generator's ``p_yes(system, user)``) for "does the source
    support the claim?"."""
    return float(judge.p_yes(JUDGE_SYSTEM, judge_prompt(claim, source_text)))


def apply_judge(ev: Evidence, claim: str, judge: TextGenerator, head: SupportHead) -> Evidence:
    """``ev`` with the judge's ``P(yes)`` on its window stacked on ``p_supported``."""
    j = judge_support(judge, claim, ev.sentence)
    p = head.with_judge(ev.p_supported if ev.p_supported is not None else ev.score, j)
    return replace(ev, judge=round(j, 4), p_supported=round(p, 4), score=round(p, 4))
