"""Answer-level evaluation: what the user finally sees, over a whole question set.

Each question runs the full pipeline (:func:`rag_core.pipeline.run`, generation
on) and is scored on its answer:

* answerable questions: **answered correctly** (:func:`answered_correctly`),
  **false refusal** (the system refused);
* unanswerable questions: **bluff** (the system answered), **correct refusal**;
* **claim level** (RAGChecker-style, Ru et al. 2024, "RAGChecker: A
  Fine-grained Framework for Diagnosing Retrieval-Augmented Generation",
  on our own support verdicts — :mod:`rag_core.answer.support`): the share of claims
  supported, supported-and-cited, uncited, unsupported, with an invalid
  citation; **hallucinated numbers** (numbers of the answer found in no
  source); **context utilisation** (share of gold needles in the prompt
  that a supported claim rests on);
* per failed answerable question, the **single loss stage** (:data:`LOSS_STAGES`,
  :func:`loss_stage`): the first stage of :func:`rag_core.gold.diagnosis.gold_view`
  that lost the gold, else ``unused`` (gold in the prompt, no supported claim
  rests on it), else ``unsupported`` (a supported claim rests on the gold, yet
  the answer does not state its key content).

Every rate carries its ``k``, ``n`` and a 95% Wilson interval; a rate over no
item is ``None``, never 0. Generations are cached by prompt ids
(:mod:`rag_core.answer.generation`), so a re-run replays. The JSON of
:meth:`AnswerEvaluation.to_dict` holds no timing or cache flag, so two runs of
the same inputs give byte-identical JSON; :func:`result_hash` names the inputs
(config, corpus fingerprint, generator weights sha256, question set, rule).

Messages are codes (``reason`` fields); the pages word them from ``ui/i18n.py``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .. import models  # models.get_* read at call time: the one place a model is swapped
from ..answer.support import is_refusal, quantities_in, quantity_in, strip_citations, terms
from ..config import PipelineConfig, is_endpoint_model
from ..formats.questions import queries_of
from ..index import CorpusIndex
from ..models import ModelUnavailable, TextGenerator
from ..pipeline import run
from ..pipeline.answering import endpoint_generator
from ..types import Needle, Notice, Question, Trace, to_jsonable
from ..wording import declare, english, notice
from .run import evaluate_config
from .stats import ALPHA, holm, paired_proportions, wilson_interval

#: Why an answer evaluation has no generator (it falls back to the retrieval metrics).
GENERATOR_OFF = declare("answers.generator_off")
GENERATOR_UNAVAILABLE = declare("answers.generator_unavailable", "model", "reason")
#: A question whose answer could not be made (once per generation status).
GENERATION_PROBLEM = declare("answers.generation_problem", "status", "why")

#: Version of the scoring rules below; part of the result hash.
#: answers-2: an answer the length cap cut off (:func:`cut_off`) is never correct.
RULE_VERSION = "answers-2"

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
    """Why :func:`answered_correctly` said yes or no, per needle."""

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

    Per needle:

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

    The answer is correct iff every needle is satisfied (a question with
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
    for needle in needles:
        nums = [(w, v, u) for w, v, u in quantities_in(needle.text) if v not in q_values]
        if nums:
            hit = tuple(w for w, v, u in nums if quantity_in(v, u, found))
            rules.append("number")
            ok.append(bool(hit) and not refused)
            keys.append(tuple(w for w, _v, _u in nums))
            matched.append(hit)
            recalls.append(None)
            missing.append(())
            continue
        analyzer = "kiwi" if _HANGUL.search(needle.text) else "unicode"
        nterms = terms(needle.text, analyzer)
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


# ---------------------------------------------------------------- aggregation


def rate(k: int, n: int) -> dict[str, Any] | None:
    """``{"k", "n", "rate", "low", "high"}`` with the 95% Wilson interval; None when ``n = 0``."""
    if n == 0:
        return None
    low, high = wilson_interval(k, n)
    return {"k": k, "n": n, "rate": k / n, "low": low, "high": high}


def summarise(rows: Sequence[AnswerRow]) -> dict[str, Any]:
    """Rates (with ``k``, ``n``, Wilson interval), loss-stage counts and the funnel.

    * answered correctly, false refusal: over answerable queries;
    * bluff, correct refusal: over unanswerable queries;
    * claim shares: over all claims of all answers (claims of one answer are
      not independent, so the interval is optimistic — ``n`` says how many);
    * hallucinated numbers: numbers in no source over all numbers stated;
      answers with one: over answered queries;
    * context utilisation: gold needles a supported claim rests on over gold
      needles in the prompt (answerable queries with a generated answer).
    """
    ans = [r for r in rows if r.answerable]
    una = [r for r in rows if not r.answerable]
    tot: dict[str, int] = {}
    for r in rows:
        for k, v in r.counts.items():
            tot[k] = tot.get(k, 0) + v
    answered = [r for r in rows if not r.refused]
    failed = [r for r in ans if not r.correct]
    losses = {s: sum(r.loss_stage == s for r in failed) for s in LOSS_STAGES}
    return {
        "n_queries": len(rows),
        "n_answerable": len(ans),
        "n_unanswerable": len(una),
        "rates": {
            "answered_correctly": rate(sum(bool(r.correct) for r in ans), len(ans)),
            "false_refusal": rate(sum(r.refused for r in ans), len(ans)),
            "bluff": rate(sum(not r.refused for r in una), len(una)),
            "correct_refusal": rate(sum(r.refused for r in una), len(una)),
            **{f"claims_{k}": rate(tot.get(k, 0), tot.get("claims", 0)) for k in CLAIM_SHARES},
            "hallucinated_numbers": rate(tot.get("numbers_in_no_source", 0), tot.get("numbers", 0)),
            "answers_with_hallucinated_number": rate(
                sum(r.counts["numbers_in_no_source"] > 0 for r in answered), len(answered)
            ),
            "context_utilisation": rate(tot.get("gold_used", 0), tot.get("gold_in_prompt", 0)),
        },
        "n_failed": len(failed),
        "loss_stages": losses,
        "funnel": funnel(losses, len(ans)),
    }


def funnel(losses: dict[str, int], n_answerable: int) -> list[dict[str, Any]]:
    """From "asked" to "answered correctly": how many answerable queries survive each stage.

    ``[{"stage": "asked", "remaining": n}, {"stage": s, "lost": k, "remaining": n − Σk}, …,
    {"stage": "answered_correctly", "remaining": …}]``.
    """
    out: list[dict[str, Any]] = [{"stage": "asked", "lost": 0, "remaining": n_answerable}]
    left = n_answerable
    for s in LOSS_STAGES:
        left -= losses.get(s, 0)
        out.append({"stage": s, "lost": losses.get(s, 0), "remaining": left})
    out.append({"stage": "answered_correctly", "lost": 0, "remaining": left})
    return out


# ---------------------------------------------------------------- the run


def result_hash(
    config: dict[str, Any],
    corpus_fingerprint: str,
    model_sha256: str | None,
    questions: Sequence[Question],
    phrasings: str,
) -> str:
    """``sha256`` of the JSON ``[config, corpus fingerprint, model sha256, questions, phrasings,
    rule]``.

    Equal hashes mean equal inputs; with greedy decoding, equal results.
    """
    payload = json.dumps(
        [
            to_jsonable(config),
            corpus_fingerprint,
            model_sha256,
            [to_jsonable(q) for q in questions],
            phrasings,
            RULE_VERSION,
            MIN_TERM_RECALL,
        ],
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class AnswerEvaluation:
    """One config's answers over one question set (see module docstring).

    ``status``: ``complete``, ``partial`` (cancelled: ``rows`` hold the
    queries done) or ``retrieval_only`` (the generator is unavailable;
    ``retrieval`` holds :func:`rag_core.evaluation.run.evaluate_config`'s report and
    ``reason`` the code ``generator_unavailable`` with ``message`` the
    loader's reason).
    """

    status: str
    config: dict[str, Any]
    result_hash: str
    n_planned: int
    rows: tuple[AnswerRow, ...]
    summary: dict[str, Any]
    model: str | None
    model_sha256: str | None
    corpus_fingerprint: str
    reason: str = ""
    message: str = field(init=False, default="")  # ``notice`` in English
    retrieval: dict[str, Any] | None = None
    #: ``notices`` in English, one for one.
    warnings: tuple[str, ...] = field(init=False, default=())
    #: Why there is no generator, for the pages; not in the JSON.
    notice: Notice | None = None
    #: What went wrong on the way (``answers.generation_problem``); not in the JSON.
    notices: tuple[Notice, ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", english(self.notice) if self.notice else "")
        object.__setattr__(self, "warnings", tuple(map(english, self.notices)))

    def to_dict(self) -> dict[str, Any]:
        """Deterministic JSON form (no timing, no cache flag)."""
        return {
            "status": self.status,
            "result_hash": self.result_hash,
            "reason": self.reason,
            "message": self.message,
            "config": self.config,
            "model": self.model,
            "model_sha256": self.model_sha256,
            "corpus_fingerprint": self.corpus_fingerprint,
            "n_planned": self.n_planned,
            "n_done": len(self.rows),
            "summary": self.summary,
            "per_query": [to_jsonable(r) for r in self.rows],
            "retrieval": self.retrieval,
            "warnings": list(self.warnings),
        }

    def to_json(self) -> str:
        """``to_dict`` as JSON with sorted keys (byte-identical for equal inputs)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True, indent=None)


def evaluate_answers(
    config: PipelineConfig,
    questions: Sequence[Question],
    corpus: CorpusIndex,
    *,
    phrasings: str = "question",
    progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    generator_loader: Callable[[str], Any] | None = None,
    on_row: Callable[[AnswerRow], None] | None = None,
    concurrency: int = 1,
) -> AnswerEvaluation:
    """Run every question (answerable or not) through the full pipeline and score its answer.

    Args:
        config: The configuration (its generator is used; ``"none"`` falls back).
        questions: The question set; needs at least one question.
        corpus: The loaded corpus.
        phrasings: Which texts to ask (:func:`rag_core.formats.questions.queries_of`);
            default the question only, one generation each.
        progress: ``(done, total)`` after each query.
        should_stop: Checked before each query; True stops the run and the
            result is ``partial`` with the queries done so far.
        generator_loader: ``name -> generator`` (default
            :func:`rag_core.models.get_generator`), to check availability.
        on_row: Called with each scored row as it is done (a page keeps
            them so a cancelled run can still be shown, see :func:`assemble`).
        concurrency: Questions in flight at once (threads; worth it against an
            endpoint generator, whose server batches them). Rows, progress and
            ``on_row`` still come in question order, so the result is the same
            as with 1; a stop lets the questions in flight finish.
    """
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise ValueError(f"concurrency = {concurrency!r} must be an integer >= 1")
    questions = list(questions)
    if not questions:
        raise ValueError(
            "the question set is empty: add questions (JSON Lines) to evaluate answers"
        )
    loader = generator_loader or (
        partial(endpoint_generator, config)
        if is_endpoint_model(config.generation.model)
        else models.get_generator
    )
    generator, problem = _load_generator(config, loader)
    if problem is not None:
        return _retrieval_only(config, questions, corpus, phrasings, progress, problem)
    jobs = [(q, qid, text) for q in questions for qid, text in queries_of(q, phrasings)]
    rows: list[AnswerRow] = []
    warnings: dict[str, Notice] = {}

    def one(job: tuple[Question, str, str]) -> Trace:
        q, _qid, text = job
        return run(config, text, corpus, gold=q if q.needles else None)

    status = "complete"
    for i, (job, trace) in enumerate(_in_order(jobs, one, concurrency, should_stop)):
        if trace is None:
            status = "partial"
            break
        q, qid, _text = job
        if trace.generation.status not in ("ok", "skipped"):
            warnings.setdefault(trace.generation.status, _generation_problem(trace))
        if q.answerable and trace.gold is None:
            raise ValueError(f"question {q.id!r} is answerable but has no needle")
        rows.append(answer_row(trace, q, qid))
        if on_row is not None:
            on_row(rows[-1])
        if progress:
            progress(i + 1, len(jobs))
    return assemble(
        config,
        questions,
        corpus,
        rows,
        generator,
        phrasings=phrasings,
        status=status,
        notices=tuple(warnings.values()),
    )


def _in_order(
    jobs: Sequence[Any],
    work: Callable[[Any], Trace],
    concurrency: int,
    should_stop: Callable[[], bool] | None,
) -> Iterator[tuple[Any, Trace | None]]:
    """``(job, work(job))`` in job order with up to ``concurrency`` jobs running; a last
    ``(None, None)`` when ``should_stop()`` turned true before every job was started."""
    stopped = False
    if concurrency == 1:
        for job in jobs:
            if should_stop is not None and should_stop():
                stopped = True
                break
            yield job, work(job)
    else:
        with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="answers") as pool:
            running: deque[tuple[Any, Future[Trace]]] = deque()
            queue = iter(jobs)
            while True:
                while not stopped and len(running) < concurrency:
                    if should_stop is not None and should_stop():
                        stopped = True
                        break
                    job = next(queue, None)
                    if job is None:
                        break
                    running.append((job, pool.submit(work, job)))
                if not running:
                    break
                job, future = running.popleft()
                yield job, future.result()
    if stopped:
        yield None, None


def _load_generator(
    config: PipelineConfig, loader: Callable[[str], Any]
) -> tuple[Any, Notice | None]:
    """The configured generator, or None and why not (off, or the loader's notice)."""
    if config.generation.model == "none":
        return None, notice(GENERATOR_OFF)
    try:
        return loader(config.generation.model), None
    except ModelUnavailable as exc:
        return None, notice(GENERATOR_UNAVAILABLE, model=exc.name, reason=exc.notice)


def _generation_problem(trace: Trace) -> Notice:
    """``generation <status>: <why>``: a question whose answer could not be made."""
    gen = trace.generation
    why = gen.notice if gen.notice is not None else gen.message
    return notice(GENERATION_PROBLEM, status=gen.status, why=why)


def _retrieval_only(
    config: PipelineConfig,
    questions: Sequence[Question],
    corpus: CorpusIndex,
    phrasings: str,
    progress: Callable[[int, int], None] | None,
    problem: Notice,
) -> AnswerEvaluation:
    """Without a generator: the retrieval evaluation of the answerable questions, and why."""
    cfg_dict = config.to_dict()
    retrieval = None
    if any(q.answerable and q.needles for q in questions):
        retrieval = evaluate_config(
            config, questions, corpus, phrasings=phrasings, progress=progress
        ).to_dict()
    return AnswerEvaluation(
        status="retrieval_only",
        config=cfg_dict,
        result_hash=result_hash(cfg_dict, corpus.fingerprint, None, questions, phrasings),
        n_planned=0,
        rows=(),
        summary=summarise(()),
        model=config.generation.model,
        model_sha256=None,
        corpus_fingerprint=corpus.fingerprint,
        reason="generator_unavailable",
        retrieval=retrieval,
        notice=problem,
    )


def assemble(
    config: PipelineConfig,
    questions: Sequence[Question],
    corpus: CorpusIndex,
    rows: Sequence[AnswerRow],
    generator: TextGenerator | None,
    *,
    phrasings: str = "question",
    status: str = "complete",
    notices: Sequence[Notice] = (),
) -> AnswerEvaluation:
    """An :class:`AnswerEvaluation` of ``rows`` (all of them, or the ones done before a cancel);
    ``notices``: what went wrong on the way (``warnings`` is their English)."""
    if status not in ("complete", "partial"):
        raise ValueError(f"status = {status!r} is not valid; valid choices: complete, partial")
    sha = generator.file_sha256 if generator is not None else None
    planned = sum(len(queries_of(q, phrasings)) for q in questions)
    return AnswerEvaluation(
        status=status,
        config=config.to_dict(),
        result_hash=result_hash(config.to_dict(), corpus.fingerprint, sha, questions, phrasings),
        n_planned=planned,
        rows=tuple(rows),
        summary=summarise(rows),
        model=generator.model_id if generator is not None else config.generation.model,
        model_sha256=sha,
        corpus_fingerprint=corpus.fingerprint,
        notices=tuple(notices),
    )


# ---------------------------------------------------------------- comparison


#: Paired metrics of :func:`compare_answers` (per answerable / unanswerable query).
PAIRED_METRICS: tuple[str, ...] = ("answered_correctly", "correct_refusal")


def compare_answers(a: AnswerEvaluation, b: AnswerEvaluation) -> dict[str, Any]:
    """Paired A vs B per query: exact McNemar, paired difference with 95% CI, MDE, Holm.

    ``answered_correctly`` over the answerable queries both ran,
    ``correct_refusal`` over the unanswerable ones; the Holm-adjusted p-values
    account for reading both at once. The top-level keys repeat
    ``answered_correctly`` (the headline). Wording is left to the UI (codes:
    ``verdict`` is ``a_better``, ``b_better`` or ``not_distinguishable``).
    """
    rb = {r.query_id: r for r in b.rows}
    per: dict[str, Any] = {}
    for metric in PAIRED_METRICS:
        answerable = metric == "answered_correctly"
        xa = {
            r.query_id: _success(r)
            for r in a.rows
            if r.answerable == answerable and r.query_id in rb
        }
        xb = {q: _success(rb[q]) for q in xa}
        if not xa:
            continue
        per[metric] = to_jsonable(paired_proportions(xa, xb))
    adjusted = holm({k: v["p"] for k, v in per.items()}) if per else {}
    for k, v in per.items():
        v["p_holm"] = adjusted[k]
        v["verdict"] = (
            "not_distinguishable"
            if v["p_holm"] >= ALPHA
            else ("a_better" if v["difference"] > 0 else "b_better")
        )
    head = per.get("answered_correctly") or {}
    return {**head, "metrics": per, "alpha": ALPHA}


def _success(row: AnswerRow) -> bool:
    return bool(row.correct) if row.answerable else row.refused
