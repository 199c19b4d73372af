"""What one answered Trace is, by the rules of the answer-level evaluation
(:mod:`rag_core.evaluation.answers` runs them over a question set): answered correctly
(:func:`answered_correctly`), refused, cut off by the length cap, its mark, the single stage
that lost the gold (:data:`LOSS_STAGES`, :func:`loss_stage`), its claim counts and its row."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..answer.support import is_refusal, quantities_in, quantity_in, strip_citations, terms
from ..types import Needle, Question, Trace

#: Version of the scoring rules below; part of the result hash.
#: answers-2: an answer the length cap cut off (:func:`cut_off`) is never correct.
#: answers-3: a needle's ``key`` (the parts the answer must state) is read instead of the needle.
#: answers-4: powers of ten (``2 \times 10^{-4}``) and Korean myriad numbers (``2만 5천``) are
#: read by their value (:func:`rag_core.answer.evidence.quantities_in`).
RULE_VERSION = "answers-4"

#: Share of a needle's content terms the answer must state (non-numeric needles).
#: Calibrated on ``sample_corpus/calibration/answer_labels.jsonl`` with
#: ``bench/calibrate_answers.py`` (docs/MODELS.md, "Answered correctly").
MIN_TERM_RECALL = 0.65

#: Loss stages in pipeline order; every failed answerable question gets exactly one.
LOSS_STAGES: tuple[str, ...] = (
    "corpus",  # not in corpus
    "chunking",  # destroyed by chunking
    "retrieval",  # not retrieved
    "fusion",  # fused out
    "rerank",  # reranked out
    "gate",  # gated (or the gate refused)
    "context",  # cut by the budget
    "unused",  # in the prompt but no supported claim rests on it
    "unsupported",  # answered, a supported claim rests on the gold, key content missing
)

#: Claim verdict shares (RAGChecker-style). ``supported`` pools every verdict
#: a source backs (:data:`SUPPORTED_VERDICTS`); ``supported_cited`` is the
#: cited source backing it.
CLAIM_SHARES: tuple[str, ...] = (
    "supported",
    "supported_cited",
    "uncited",
    "unsupported",
    "invalid_citation",
)

_HANGUL = re.compile(r"[\uac00-\ud7a3]")


# ------------------------------------------------------------ answered correctly


@dataclass(frozen=True)
class CorrectnessJudgement:
    """Why :func:`answered_correctly` said yes or no, per needle (per part of a needle's key)."""

    correct: bool
    rule: tuple[str, ...]  # per needle: "number" or "terms"
    satisfied: tuple[bool, ...]
    key_numbers: tuple[tuple[str, ...], ...]  # per needle, as written
    matched_numbers: tuple[tuple[str, ...], ...]
    term_recall: tuple[float | None, ...]  # per needle (None for the number rule)
    missing_terms: tuple[tuple[str, ...], ...]


def answered_correctly(
    answer: str | None,
    needles: Sequence[Needle],
    question: str = "",
    *,
    min_term_recall: float = MIN_TERM_RECALL,
) -> CorrectnessJudgement:
    """Does ``answer`` state the key content of every gold needle?

    Per needle, on each part of its ``key`` (what the answer must state; the whole needle
    when it has none, :attr:`rag_core.types.Needle.key`):

    * **number rule** — the needle's *key numbers* are its numbers and codes
      (:func:`rag_core.answer.support.quantities_in`: ``2,401``, ``6.9``, ``E17``,
      ``4,000미터``) that the question does not already contain. When there is
      one, the needle is satisfied iff the answer states at least one of them
      with the same value and a compatible unit
      (:func:`rag_core.answer.support.quantity_in`: ``4,000 m`` ≠ ``4,000종``).
    * **term rule** — otherwise, the needle's content terms (the support
      check's :func:`rag_core.answer.support.terms`: Kiwi morphemes for Korean,
      lowercased words minus stopwords for English) minus the question's
      terms; satisfied iff ``|needle ∩ answer| / |needle| ≥ min_term_recall``
      (all needle terms when the question repeats every one).

    The answer is correct iff every needle (every part of its key) is satisfied (a question with
    several needles needs all of them, as :mod:`rag_core.gold.diagnosis` assumes).
    An empty answer or a refusal (:func:`rag_core.answer.support.is_refusal`) is
    never correct. Citations are removed before matching.

    ``min_term_recall`` was calibrated on labelled generated answers
    (``bench/calibrate_answers.py``); the numbers rule follows the exact-match
    habit of extractive QA scoring (SQuAD EM, Rajpurkar et al. 2016) on the
    number alone.
    """
    if not 0.0 <= min_term_recall <= 1.0:
        raise ValueError(f"min_term_recall must lie in [0, 1]; got {min_term_recall!r}")
    if not needles:
        raise ValueError("answered_correctly needs at least one gold needle")
    text = strip_citations(answer or "")
    refused = not text.strip() or is_refusal(text)
    found = {(v, u) for _w, v, u in quantities_in(text)}
    q_values = {v for _w, v, _u in quantities_in(question)}
    rules: list[str] = []
    ok: list[bool] = []
    keys: list[tuple[str, ...]] = []
    matched: list[tuple[str, ...]] = []
    recalls: list[float | None] = []
    missing: list[tuple[str, ...]] = []
    for key in (part for needle in needles for part in needle.key or (needle.text,)):
        nums = [(w, v, u) for w, v, u in quantities_in(key) if v not in q_values]
        if nums:
            hit = tuple(w for w, v, u in nums if quantity_in(v, u, found))
            rules.append("number")
            ok.append(bool(hit) and not refused)
            keys.append(tuple(w for w, _v, _u in nums))
            matched.append(hit)
            recalls.append(None)
            missing.append(())
            continue
        analyzer = "kiwi" if _HANGUL.search(key) else "unicode"
        nterms = terms(key, analyzer)
        novel = nterms - terms(question, analyzer) if question else nterms
        nterms = novel or nterms
        aterms = terms(text, analyzer)
        recall = len(nterms & aterms) / len(nterms) if nterms else 0.0
        rules.append("terms")
        ok.append(recall >= min_term_recall and not refused)
        keys.append(())
        matched.append(())
        recalls.append(round(recall, 4))
        missing.append(tuple(sorted(nterms - aterms)))
    return CorrectnessJudgement(
        correct=all(ok) and not refused,
        rule=tuple(rules),
        satisfied=tuple(ok),
        key_numbers=tuple(keys),
        matched_numbers=tuple(matched),
        term_recall=tuple(recalls),
        missing_terms=tuple(missing),
    )


# ----------------------------------------------------------------- per query


def refused(trace: Trace) -> bool:
    """Did the system decline to answer?

    Yes when the gate refused, when no answer was generated (nothing fit the
    prompt), or when the answer makes no checked claim and says the sources do
    not hold the answer. An answer with at least one claim is an answer, even
    if it also apologises.
    """
    gen = trace.generation
    if trace.gate.refused or gen.status != "ok" or not (gen.answer or "").strip():
        return True
    checked = [c for c in trace.support.claims if c.verdict != "not-a-claim"]
    return not checked and is_refusal(gen.answer or "")


def cut_off(trace: Trace) -> bool:
    """Did ``generation.max_new_tokens``, not the model, end the answer
    (``GenerationStage.params["cut"]``)? Such an answer is never counted correct: its last
    sentence may lack the verb or the number that makes it one."""
    g = trace.generation
    return g.status == "ok" and bool(g.params.get("cut", False))


def outcome(answerable: bool, is_refused: bool, correct: bool) -> str:
    """``correct`` / ``wrong`` / ``false_refusal`` (answerable) or ``bluff`` /
    ``correct_refusal``."""
    if answerable:
        if is_refused:
            return "false_refusal"
        return "correct" if correct else "wrong"
    return "correct_refusal" if is_refused else "bluff"


#: The answer's own mark (:func:`answer_mark`): the outcomes of :func:`outcome`, an answer
#: the length cap cut off, or not judged.
ANSWER_MARKS: tuple[str, ...] = (
    "correct",
    "wrong",
    "cut_off",
    "false_refusal",
    "bluff",
    "correct_refusal",
    "not_judged",
)


def answer_mark(trace: Trace, question: Question | None = None) -> str:
    """Does the system's reply answer the question? One of :data:`ANSWER_MARKS`.

    The same rules Evaluate's answer metrics use: :func:`refused`, then
    :func:`answered_correctly` against the gold needles, combined by
    :func:`outcome`. It is apart from the claims' support verdicts on purpose:
    a claim can be faithful to a source and still not answer the question.

    ``question``: the set question asked (its ``answerable`` flag and needles);
    without it the Trace's own gold (``trace.gold``) counts as an answerable
    question's needles. ``not_judged`` when there is nothing to judge against
    (no gold, or an answerable question without needles) or no answer was made
    while the gate let candidates through (generation off or unavailable); ``cut_off`` for an
    answer to an answerable question that the length cap ended (:func:`cut_off`).
    """
    if question is None and trace.gold is None:
        return "not_judged"
    answerable = question.answerable if question is not None else True
    needles = question.needles if question is not None else ()
    if not needles and trace.gold is not None:
        needles = trace.gold.needles
    if answerable and not needles:
        return "not_judged"
    if not trace.gate.refused and trace.generation.status != "ok":
        return "not_judged"
    is_refused = refused(trace)
    if answerable and not is_refused and cut_off(trace):
        return "cut_off"  # never "answers the question", whatever its first words say
    correct = False
    if answerable and not is_refused:
        correct = answered_correctly(trace.generation.answer, needles, trace.question).correct
    return outcome(answerable, is_refused, correct)


#: Verdicts of a claim some source in the prompt supports (cited or not).
SUPPORTED_VERDICTS = ("supported", "supported-elsewhere", "uncited")


def backing_sources(trace: Trace) -> set[int]:
    """The source numbers ``[n]`` that back at least one supported claim of the answer.

    A claim with a verdict in :data:`SUPPORTED_VERDICTS` rests on each source
    whose evidence passes the support rule recorded in the support stage's
    params (:func:`rag_core.answer.support.check_support`: ``p_supported ≥ min_p``; traces
    from before ``min_p``: ``overlap ≥ min_overlap``,
    ``cosine ≥ min_cosine`` when measured, no missing number, judge ≥ its
    threshold when asked) — read from the verdicts, so the free and the
    enforced citation modes count alike.
    """
    sup = trace.support
    if sup.status != "ok":
        return set()
    p = sup.params
    out: set[int] = set()
    for c in sup.claims:
        if c.verdict not in SUPPORTED_VERDICTS:
            continue
        for e in c.evidence:
            if "min_p" in p and e.p_supported is not None:
                if e.p_supported >= p["min_p"]:
                    out.add(e.n)
            elif (
                e.overlap >= p.get("min_overlap", 0.0)
                and (e.cosine is None or e.cosine >= p.get("min_cosine", -1.0))
                and not e.missing_numbers
                and (e.judge is None or e.judge >= p.get("judge_threshold", 0.0))
            ):
                out.add(e.n)
    return out


def gold_in_prompt(trace: Trace) -> list[tuple[int, bool]]:
    """Per gold needle that reached the prompt: ``(source n, a supported claim rests on it)``."""
    gv = trace.gold
    if gv is None or trace.context.status != "ok":
        return []
    used = backing_sources(trace)
    ns = gv.stage_ranks.get("context", ())
    out = []
    for loss, n in zip(gv.needle_losses, ns, strict=False):
        if loss in ("", "answer") and n is not None:
            out.append((n, n in used))
    return out


def loss_stage(trace: Trace) -> str:
    """The one stage of :data:`LOSS_STAGES` where a failed answerable query lost its gold.

    The earliest retrieval-side loss of :func:`rag_core.gold.diagnosis.gold_view`
    when it names one (corpus … context); a refusing gate with the gold still
    ranked is ``gate``; once every needle reached the prompt: ``unused`` when
    some needle's source backs no supported claim (:func:`gold_in_prompt`, or
    no answer was generated), else ``unsupported`` — the answer rests on the
    gold yet misses its key content.
    """
    gv = trace.gold
    if gv is None:
        raise ValueError("loss_stage needs a trace run with gold needles (run(..., gold=question))")
    lost = gv.lost_at
    if lost and lost != "answer":
        return lost
    if trace.gate.refused:
        return "gate"
    if trace.generation.status != "ok" or trace.context.status != "ok":
        return "unused"
    gold = gold_in_prompt(trace)
    if not gold or not all(used for _n, used in gold):
        return "unused"
    return "unsupported"


def claim_counts(trace: Trace) -> dict[str, int]:
    """Counts behind :data:`CLAIM_SHARES`, hallucinated numbers and utilisation for one query.

    Read generically from the support verdicts, so free and enforced
    citation modes count the same way: ``supported_cited`` is the verdict
    ``supported`` (a cited source backs the claim); ``supported`` adds
    ``supported-elsewhere`` and ``uncited`` (a source backs it, the citation
    is wrong or missing).
    """
    claims = tuple(
        c
        for c in (trace.support.claims if trace.support.status == "ok" else ())
        if c.verdict != "not-a-claim"  # refusals, framing: never judged, never counted
    )
    verdicts = [c.verdict for c in claims]
    n_numbers = sum(len(c.numbers) for c in claims)
    n_halluc = sum(len(c.numbers_in_no_source) for c in claims)
    out = {
        "claims": len(claims),
        "supported": sum(v in SUPPORTED_VERDICTS for v in verdicts),
        "supported_cited": verdicts.count("supported"),
        "uncited": verdicts.count("uncited"),
        "unsupported": verdicts.count("unsupported"),
        "invalid_citation": verdicts.count("invalid-citation"),
        "numbers": n_numbers,
        "numbers_in_no_source": n_halluc,
    }
    gold = (
        gold_in_prompt(trace)
        if trace.generation.status == "ok" and trace.support.status == "ok"
        else []
    )
    out["gold_in_prompt"] = len(gold)
    out["gold_used"] = sum(used for _n, used in gold)
    return out


@dataclass(frozen=True)
class AnswerRow:
    """One query's answer, verdicts and outcome."""

    query_id: str
    question_id: str
    text: str
    answerable: bool
    answer: str | None
    generation_status: str
    refused: bool
    correct: bool | None  # None for unanswerable questions
    outcome: str
    loss_stage: str | None  # set for every failed answerable query
    judgement: CorrectnessJudgement | None
    counts: dict[str, int]
    claims: tuple[dict[str, Any], ...]
    prompt_ids_sha256: str | None


def answer_row(trace: Trace, question: Question, query_id: str) -> AnswerRow:
    """Score one traced query (see module docstring)."""
    is_refused = refused(trace)
    judgement = None
    correct: bool | None = None
    if question.answerable:
        judgement = answered_correctly(
            None if is_refused else trace.generation.answer, question.needles, trace.question
        )
        correct = judgement.correct and not is_refused and not cut_off(trace)
    kind = outcome(question.answerable, is_refused, bool(correct))
    stage = loss_stage(trace) if question.answerable and not correct else None
    claims = tuple(
        {
            "text": c.text,
            "verdict": c.verdict,
            "citations": list(c.citations),
            "numbers_in_no_source": list(c.numbers_in_no_source),
            "reason": c.reason,
        }
        for c in (trace.support.claims if trace.support.status == "ok" else ())
    )
    return AnswerRow(
        query_id=query_id,
        question_id=question.id,
        text=trace.question,
        answerable=question.answerable,
        answer=trace.generation.answer,
        generation_status=trace.generation.status,
        refused=is_refused,
        correct=correct,
        outcome=kind,
        loss_stage=stage,
        judgement=judgement,
        counts=claim_counts(trace),
        claims=claims,
        prompt_ids_sha256=trace.context.ids_sha256,
    )
