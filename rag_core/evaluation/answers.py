"""Answer-level evaluation: what the user finally sees, over a whole question set.

Each question runs the full pipeline (:func:`rag_core.pipeline.run`, generation
on) and is scored on its answer:

* answerable questions: **answered correctly**
  (:func:`~rag_core.evaluation.answer_marks.answered_correctly`),
  **false refusal** (the system refused);
* unanswerable questions: **bluff** (the system answered), **correct refusal**;
* **claim level** (RAGChecker-style, Ru et al. 2024, "RAGChecker: A
  Fine-grained Framework for Diagnosing Retrieval-Augmented Generation",
  on our own support verdicts — :mod:`rag_core.answer.support`): the share of claims
  supported, supported-and-cited, uncited, unsupported, with an invalid
  citation; **hallucinated numbers** (numbers of the answer found in no
  source); **context utilisation** (share of gold needles in the prompt
  that a supported claim rests on);
* per failed answerable question, the **single loss stage**
  (:data:`~rag_core.evaluation.answer_marks.LOSS_STAGES`,
  :func:`~rag_core.evaluation.answer_marks.loss_stage`): the first stage of
  :func:`rag_core.gold.diagnosis.gold_view` that lost the gold, else ``unused`` (gold in
  the prompt, no supported claim rests on it), else ``unsupported`` (a supported claim rests
  on the gold, yet the answer does not state its key content).

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
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .. import models  # models.get_* read at call time: the one place a model is swapped
from ..config import PipelineConfig
from ..config_checks import is_endpoint_model
from ..formats.questions import queries_of
from ..index import CorpusIndex
from ..models import ModelUnavailable, TextGenerator
from ..pipeline import run
from ..pipeline.answering import endpoint_generator
from ..types import Notice, Question, Trace, to_jsonable
from ..wording import declare, english, notice
from .answer_marks import (
    CLAIM_SHARES,
    LOSS_STAGES,
    MIN_TERM_RECALL,
    RULE_VERSION,
    AnswerRow,
    answer_row,
)
from .run import evaluate_config
from .stats import ALPHA, holm, paired_proportions, wilson_interval

#: Why an answer evaluation has no generator (it falls back to the retrieval metrics).
GENERATOR_OFF = declare("answers.generator_off")
GENERATOR_UNAVAILABLE = declare("answers.generator_unavailable", "model", "reason")
#: A question whose answer could not be made (once per generation status).
GENERATION_PROBLEM = declare("answers.generation_problem", "status", "why")

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
