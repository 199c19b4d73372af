"""The one flow: ``PipelineConfig`` + question → :func:`run` → ``Trace``.

The stages, in order, each with its driver module in this package:

1. question — :mod:`.question` (``validate_question``);
2. plan — :mod:`.plan` (``RunPlan``: the chunking and the per-config lookups);
3. retrieval (+ fusion) — :mod:`.retrieval`, one driver per method in :mod:`.retrievers`;
4. rerank — :mod:`.reranking`;
5. gate — ``rag_core.answer.gate.apply_gate``;
6. context, generation, support — :mod:`.answering`;
7. the Trace — :mod:`.trace` (the chunk table, the gold at every stage); each stage's
   milliseconds are measured beside its result (:mod:`.timing`).

Every stage's full output lands in the Trace, survivors or not. A stage whose model is
missing is recorded as ``unavailable`` with the reason; every other stage still runs. When
the gate refuses, context/generation/support are ``skipped`` and the model is never called.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, Iterator, Mapping, Sequence

from ..answer.gate import apply_gate
from ..config import PipelineConfig
from ..index import CorpusIndex, Progress
from ..models.errors import Cancelled as Cancelled  # re-exported: rag_core.pipeline.Cancelled
from ..retrieval.runs import ExternalRun
from ..types import Chunk, GateStage, Needle, Notice, Question, Stages, Trace
from ..wording import declare, notice
from .answering import (
    AnswerStages,
    Listener,
    answer_stages,
    context_stage,
    skipped_generation,
    skipped_support,
)
from .plan import RunPlan
from .question import validate_question
from .reranking import rerank_stage
from .retrieval import Retrieval, retrieve
from .timing import rounded_ms, timed
from .trace import gold_at_stages, referenced_chunks

#: What ``stop_after`` may name: the last stage run (``gate``: no context; ``context``: the
#: prompt is built and measured, no answer; ``support``: everything).
STOP_AFTER = ("gate", "context", "support")
#: Why generation and support were not run when ``stop_after="context"``.
STAGES_NOT_RUN_AFTER_CONTEXT = declare("stages.not_run.after_context")


#: Questions whose sparse kernels :func:`run_many` runs together (see :meth:`RunPlan.prefetch`).
PREFETCH_BLOCK = 64


def run(
    config: PipelineConfig,
    question: str,
    corpus: CorpusIndex,
    *,
    gold: Question | Sequence[Needle] | None = None,
    progress: Progress | None = None,
    stop_after: str = "support",
    listener: Listener | None = None,
    runs: Mapping[str, ExternalRun] | None = None,
    query_id: str | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Trace:
    """Run one question through every stage and return the full ``Trace``.

    Args:
        config: the pipeline configuration.
        question: the user's question (validated: non-empty, ≤ MAX_QUESTION_CHARS).
        corpus: the loaded corpus and its index cache.
        gold: a question-set entry (or needles) to mark gold at every stage.
        progress: optional ``(message, fraction)`` callback for long work.
        stop_after: the last stage to run (:data:`STOP_AFTER`): ``"gate"`` skips
            context/generation/support (evaluation), ``"context"`` builds the prompt but
            generates nothing (generation and support ``skipped``), ``"support"`` runs all.
        listener: optional ``listener(event, value)``, told, in order:
            ``("preparing", {"model": name, "once": bool})`` before a generator is loaded
            (``once``: a one-time conversion comes first); ``("stages", trace)`` once the
            context is built and before the model is called, with the Trace
            ``stop_after="context"`` returns (so a page can draw every model-free stage while
            the answer is made); ``("prompt", {"tokens": n, "model_id": id, "dtype": d})``
            just before the model is called; ``("text", piece)`` for each piece of a freshly
            generated answer (a cache replay sends none). A listener may raise
            :class:`Cancelled` to abandon the run.
        runs: imported runs by tag (:class:`rag_core.retrieval.runs.ExternalRun`) for
            the ``run:TAG`` retrievers of ``config``.
        query_id: the query id those runs are read at (default: ``gold.id``).
        cancelled: optional; asked while the answer is made (between the model's layers, even
            in the prompt's forward pass): once true, the run raises :class:`Cancelled`
            (``rag_core.answer.generation.generate``). A listener can only raise at its next
            event; this ends a long prefill too.
    """
    if stop_after not in STOP_AFTER:
        raise ValueError(
            f"stop_after = {stop_after!r} is not valid; valid choices: {', '.join(STOP_AFTER)}"
        )
    question, notices = validate_question(question)
    plan = RunPlan(config, corpus, progress)
    if query_id is None and isinstance(gold, Question):
        query_id = gold.id
    return _run_planned(
        plan,
        question,
        notices,
        plan.chunking_ms,
        gold=gold,
        progress=progress,
        stop_after=stop_after,
        listener=listener,
        runs=runs,
        query_id=query_id,
        cancelled=cancelled,
    )


def run_many(
    config: PipelineConfig,
    questions: Sequence[str],
    corpus: CorpusIndex,
    *,
    stop_after: str = "gate",
    runs: Mapping[str, ExternalRun] | None = None,
    query_ids: Sequence[str | None] | None = None,
) -> Iterator[Trace]:
    """:func:`run` for each question of a set, in order: the same Traces, made faster.

    The per-config work (chunking and index lookups, the dense model choice,
    analyzers, the config dict, the index stamp) is done once for the set
    (:class:`RunPlan`), not once per question. The Traces of one call share
    one ``config`` dict (read-only, as every part of a Trace). Timings: the
    first Trace carries the chunking lookup, the others 0 for it.

    Args:
        config, corpus, stop_after, runs: as for :func:`run`.
        questions: the question texts (each validated as by :func:`run`).
        query_ids: per question, the id the ``run:TAG`` retrievers read (default: none).

    Yields:
        One Trace per question, as ``run(config, q, corpus, stop_after=stop_after,
        runs=runs, query_id=qid)`` returns it (timings aside).
    """
    if stop_after not in ("gate", "support"):
        raise ValueError(f"stop_after = {stop_after!r} is not valid; valid choices: gate, support")
    if query_ids is not None and len(query_ids) != len(questions):
        raise ValueError(
            f"query_ids has {len(query_ids)} ids for {len(questions)} questions; "
            "give one per question"
        )
    plan: RunPlan | None = None
    for start in range(0, len(questions), PREFETCH_BLOCK):
        block = questions[start : start + PREFETCH_BLOCK]
        checked: list[tuple[str, tuple[Notice, ...]] | None] = []
        for text in block:  # an invalid question raises when its turn comes, below
            try:
                checked.append(validate_question(text))
            except ValueError:
                checked.append(None)
        chunking_ms = 0.0
        if plan is None:
            plan = RunPlan(config, corpus)
            chunking_ms = plan.chunking_ms
        plan.prefetch([c[0] for c in checked if c is not None])
        for i, text, valid in zip(range(start, start + len(block)), block, checked, strict=True):
            question, notices = valid if valid is not None else validate_question(text)
            yield _run_planned(
                plan,
                question,
                notices,
                chunking_ms,
                stop_after=stop_after,
                runs=runs,
                query_id=query_ids[i] if query_ids is not None else None,
            )
            chunking_ms = 0.0


def _run_planned(
    plan: RunPlan,
    question: str,
    notices: tuple[Notice, ...],
    chunking_ms: float,
    *,
    gold: Question | Sequence[Needle] | None = None,
    progress: Progress | None = None,
    stop_after: str = "support",
    listener: Listener | None = None,
    runs: Mapping[str, ExternalRun] | None = None,
    query_id: str | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Trace:
    """:func:`run` after the question is validated and the plan made (see there).

    ``notices``: the question's warnings; the gate's (a rule it could not apply) is added.
    """
    config, corpus, chunking = plan.config, plan.corpus, plan.chunking
    timings: dict[str, float] = {"chunking": chunking_ms}
    found, timings["retrieval"] = timed(
        retrieve,
        config,
        question,
        corpus,
        progress=progress,
        runs=runs,
        query_id=query_id,
        plan=plan,
    )
    table: Mapping[str, Chunk] = (
        ChainMap(dict(found.extra), chunking.by_id) if found.extra else chunking.by_id
    )
    rerank, timings["rerank"] = timed(
        rerank_stage, config, question, found.stage.hits, corpus, found.dense_index, table
    )
    gate, timings["gate"] = timed(apply_gate, rerank.hits, config.gate)
    notices = _warnings(notices, gate, plan.load_notices)

    def finish(answer: AnswerStages, ms: Mapping[str, float]) -> Trace:
        stages = Stages(
            retrieval=found.stage,
            rerank=rerank,
            gate=gate,
            context=answer.context,
            generation=answer.generation,
            support=answer.support,
        )
        return _trace(plan, question, found, table, stages, ms, gold=gold, notices=notices)

    if stop_after == "gate":
        return finish(plan.stop_gate, timings)
    prepared = context_stage(config, question, gate, corpus, progress, table, listener)
    timings.update(prepared.ms)
    if prepared.skipped is not None:  # the gate refused: nothing more to run
        return finish(prepared.skipped, timings)
    if stop_after == "context" or (listener is not None and prepared.generator is not None):
        why = notice(STAGES_NOT_RUN_AFTER_CONTEXT)
        staged = finish(
            AnswerStages(prepared.context, skipped_generation(config, why), skipped_support(why)),
            timings,
        )
        if stop_after == "context":
            return staged
        if listener is not None:
            listener("stages", staged)
    answered = answer_stages(config, question, prepared, corpus, progress, listener, cancelled)
    timings.update(answered.ms)
    return finish(AnswerStages(prepared.context, answered.generation, answered.support), timings)


def _trace(
    plan: RunPlan,
    question: str,
    found: Retrieval,
    table: Mapping[str, Chunk],
    stages: Stages,
    timings: Mapping[str, float],
    *,
    gold: Question | Sequence[Needle] | None,
    notices: tuple[Notice, ...],
) -> Trace:
    """The Trace of a run's stages: the gold at every stage, the chunk table (``found.extra``:
    an imported run's chunks outside the chunking), the stamp (of ``found.dense_index``), the
    timings with their total."""
    gview = gold_at_stages(plan, gold, found.extra, stages)
    chunks = referenced_chunks(plan, stages.retrieval, stages.context, gview, found.extra, table)
    return Trace(
        question=question,
        config=plan.config_dict,
        index_stamp=plan.stamp(found.dense_index),
        chunking=plan.diagnostics,
        retrieval=stages.retrieval,
        rerank=stages.rerank,
        gate=stages.gate,
        context=stages.context,
        generation=stages.generation,
        support=stages.support,
        chunks=chunks,
        timings_ms=rounded_ms({**timings, "total": sum(timings.values())}),
        gold=gview,
        notices=notices,
    )


def _warnings(
    notices: tuple[Notice, ...], gate: GateStage, load_notices: tuple[Notice, ...]
) -> tuple[Notice, ...]:
    """A Trace's ``notices``: the question's, the corpus load's lines, then a gate rule that
    could not apply."""
    said = (*notices, *load_notices)
    if gate.notice is not None and not gate.refused:
        said = (*said, gate.notice)
    return said


def final_ranking(trace: Trace) -> list[str]:
    """The ranked chunk ids the metrics score: after rerank, before the gate."""
    return [h.chunk_id for h in trace.rerank.hits]
