"""The answer stages: context, generation and support for the candidates the gate kept."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import suppress
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, NamedTuple

from .. import models  # models.get_* read at call time: the one place a model is swapped
from ..answer.checkfile import SUPPORT_JUDGE_UNAVAILABLE, answer_reading, own_layout
from ..answer.context import build_context
from ..answer.gate import GATE_REFUSED_NO_CANDIDATES
from ..answer.generation import GENERATION_OFF, generate
from ..answer.lookback import Layout
from ..answer.remote import approximate_counts
from ..answer.support import SUPPORT_SKIPPED_NO_ANSWER, check_support
from ..answer.views import prepare_sources
from ..config import PipelineConfig
from ..config_checks import is_endpoint_model
from ..index import CorpusIndex, Progress
from ..models import AnyGenerator, EndpointGenerator, ModelUnavailable, PromptTokenizer
from ..models.endpoint import EndpointError
from ..models.errors import MODEL_UNAVAILABLE
from ..types import Chunk, ContextStage, GateStage, GenerationStage, Notice, SupportStage
from ..wording import declare, notice
from .timing import timed

#: Why a stage was not run (``<Stage>.notice``); ``gate`` is the gate's own notice.
CONTEXT_SKIPPED_GATE = declare("context.skipped.gate_refused", "gate")
GENERATION_SKIPPED_GATE = declare("generation.skipped.gate_refused", "gate")
GENERATION_MODEL_UNAVAILABLE = declare("generation.model_unavailable", "model", "reason")
SUPPORT_SKIPPED_GENERATION = declare("support.skipped.generation", "status")
STAGES_NOT_RUN_RETRIEVAL_ONLY = declare("stages.not_run.retrieval_only")
#: What the answer stages are doing (a ``Progress`` message).
PROGRESS_LOADING_GENERATOR = declare("progress.loading_generator", "model")
PROGRESS_GENERATING = declare("progress.generating", "model")

#: ``listener(event, value)``: see :func:`rag_core.pipeline.run`.
Listener = Callable[[str, Any], None]


def skipped_context(config: PipelineConfig, reason: Notice) -> ContextStage:
    c = config.context
    return ContextStage("skipped", c.policy, c.ordering, c.budget_tokens, (), notice=reason)


def skipped_generation(
    config: PipelineConfig, reason: Notice, status: str = "skipped"
) -> GenerationStage:
    return GenerationStage(status, config.generation.model, notice=reason)  # type: ignore[arg-type]


def skipped_support(reason: Notice) -> SupportStage:
    return SupportStage("skipped", notice=reason)


class AnswerStages(NamedTuple):
    """The three stages after the gate, by name."""

    context: ContextStage
    generation: GenerationStage
    support: SupportStage


def not_run(config: PipelineConfig, reason: Notice) -> AnswerStages:
    """Context, generation and support all ``skipped`` for ``reason``."""
    return AnswerStages(
        skipped_context(config, reason),
        skipped_generation(config, reason),
        skipped_support(reason),
    )


@dataclass(frozen=True)
class Prepared:
    """The context stage's result and what the answer stages need from it: the loaded generator
    (None when off or missing) and why it is missing; ``skipped``: all three stages when the
    gate refused (nothing else to run); ``ms``: what the stage measured, in milliseconds
    (``model_load`` when a generator is named, then ``context``; none when skipped)."""

    context: ContextStage
    generator: AnyGenerator | None = None
    problem: Notice | None = None
    skipped: AnswerStages | None = None
    ms: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Answered:
    """Generation and support, and the milliseconds each took (``generation``, ``support``)."""

    generation: GenerationStage
    support: SupportStage
    ms: Mapping[str, float]


def context_stage(
    config: PipelineConfig,
    question: str,
    gate: GateStage,
    corpus: CorpusIndex,
    progress: Progress | None = None,
    chunks: Mapping[str, Chunk] | None = None,
    listener: Listener | None = None,
) -> Prepared:
    """The context of the kept candidates, measured with the generator's tokenizer (loaded here:
    the listener is told ``("preparing", {"model", "once"})`` first) or the named fallback.

    ``chunks``: the chunk table (default: the chunking's; with imported runs also their extra
    chunks); ``listener``: see :func:`rag_core.pipeline.run`.
    """
    if gate.refused:
        why = gate.notice if gate.notice is not None else notice(GATE_REFUSED_NO_CANDIDATES)
        skipped = AnswerStages(
            skipped_context(config, notice(CONTEXT_SKIPPED_GATE, gate=why)),
            skipped_generation(config, notice(GENERATION_SKIPPED_GATE, gate=why)),
            skipped_support(notice(SUPPORT_SKIPPED_NO_ANSWER)),
        )
        return Prepared(skipped.context, skipped=skipped)

    ms: dict[str, float] = {}
    generator: AnyGenerator | None = None
    gen_problem: Notice | None = None
    if config.generation.model != "none":
        (generator, gen_problem), ms["model_load"] = timed(
            _load_generator, config, progress, listener
        )
    table = chunks if chunks is not None else corpus.chunking(config.chunker).by_id
    (context, failed), ms["context"] = timed(
        _context, config, question, gate, table, corpus, generator
    )
    if failed is not None:  # the endpoint's tokenizer failed on this prompt: no generator
        generator, gen_problem = None, failed
    return Prepared(context, generator, gen_problem, ms=ms)


def _context(
    config: PipelineConfig,
    question: str,
    gate: GateStage,
    table: Mapping[str, Chunk],
    corpus: CorpusIndex,
    generator: AnyGenerator | None,
) -> tuple[ContextStage, Notice | None]:
    """The context stage itself: the budgeted prompt of the kept candidates, and why the
    generator cannot be used when its endpoint's tokenizer failed on this prompt."""
    build = partial(
        build_context,
        question,
        gate.kept,
        table,
        corpus.docs,
        config.context,
        dropped_by_gate=gate.rejected,
    )
    try:
        context = build(tokenizer=_context_tokenizer(generator))
    except EndpointError as exc:  # the server's tokenizer failed on this prompt: measured with
        # the stated fallback, and the generator is unavailable, named by its endpoint
        context = approximate_counts(build(tokenizer=models.fallback_prompt_tokenizer()))
        return context, exc.at(config.generation.endpoint)
    if generator is not None and not generator.exact:
        context = approximate_counts(context)  # an endpoint whose tokenizer is unknown
    return context, None


def answer_stages(
    config: PipelineConfig,
    question: str,
    prepared: Prepared,
    corpus: CorpusIndex,
    progress: Progress | None = None,
    listener: Listener | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Answered:
    """Generation from the prepared context, then the support check of its answer
    (``cancelled``: see :func:`rag_core.answer.generation.generate`)."""
    context, generator = prepared.context, prepared.generator
    # the reader's own answer is read by the pass that writes it, under the prompt it was given
    layout = own_layout(config.support, generator, context, question)
    # the sources' side of the support check is made while the answer is written (a cancelled
    # generation does not wait for it)
    pool = ThreadPoolExecutor(1)
    warm = pool.submit(_warm_support, config, context, generator, corpus)
    try:
        generation, generation_ms = timed(
            _generation,
            config,
            context,
            generator,
            prepared.problem,
            progress,
            listener,
            cancelled,
            layout,
        )
        wait([warm])
    finally:
        pool.shutdown(wait=False)
    support, support_ms = timed(
        _support, config, question, context, generation, generator, corpus, layout
    )
    return Answered(generation, support, {"generation": generation_ms, "support": support_ms})


def _support_embedder(config: PipelineConfig, corpus: CorpusIndex) -> Any:
    """The corpus's own embedder (e5 for a corpus with Korean documents), None when missing."""
    try:
        return models.get_embedder(corpus.dense_choice(config.retrieval.dense_model)[0])
    except ModelUnavailable:
        return None


def _warm_support(
    config: PipelineConfig,
    context: ContextStage,
    generator: AnyGenerator | None,
    corpus: CorpusIndex,
) -> None:
    """:func:`rag_core.answer.views.prepare_sources` when an answer is coming (a warm-up:
    whatever fails here is left for the support check itself to meet and report)."""
    if generator is None or config.generation.model == "none" or context.status != "ok":
        return
    # only a cache warm-up: whatever fails here, the check itself meets and reports
    with suppress(Exception):
        prepare_sources(context, _support_embedder(config, corpus))


def _context_tokenizer(generator: AnyGenerator | None) -> PromptTokenizer:
    """What measures the prompt: the generator (in-process, or an endpoint whose tokenizer is
    known), else the stated fallback."""
    if generator is not None and generator.exact:
        return generator
    return models.fallback_prompt_tokenizer()


def endpoint_generator(config: PipelineConfig, name: str | None = None) -> EndpointGenerator:
    """The endpoint generator ``config.generation`` describes (``name`` defaults to its model).

    Raises:
        ModelUnavailable: The named tokenizer cannot be loaded here.
    """
    g = config.generation
    return models.get_endpoint_generator(
        name or g.model,
        g.endpoint,
        api_key_env=g.api_key_env,
        tokenizer=g.tokenizer,
        timeouts=models.Timeouts(g.connect_timeout_s, g.first_token_timeout_s, g.total_timeout_s),
    )


def _load_generator(
    config: PipelineConfig, progress: Progress | None, listener: Listener | None = None
) -> tuple[AnyGenerator | None, Notice | None]:
    """The configured generator (None when missing; ``generation.model`` is not ``none``) and,
    when missing, why.

    ``listener`` is told ``("preparing", {"model": name, "once": bool})`` first; ``once``: a
    bundled model that is not converted yet (the load converts it, once per machine)."""
    name = config.generation.model
    if listener is not None:
        listener("preparing", {"model": name, "once": not models.prepared(name)})
    if progress:
        progress(notice(PROGRESS_LOADING_GENERATOR, model=name), 0.0)
    generator: AnyGenerator | None = None
    problem: Notice | None = None
    g = config.generation
    try:
        if is_endpoint_model(g.model):  # a server (rag_core.models.endpoint)
            generator = endpoint_generator(config)
        else:
            generator = models.get_generator(g.model, dtype=g.dtype, progress=progress)
    except ModelUnavailable as exc:
        problem = notice(GENERATION_MODEL_UNAVAILABLE, model=exc.name, reason=exc.notice)
    return generator, problem


def _generation(
    config: PipelineConfig,
    context: ContextStage,
    generator: AnyGenerator | None,
    problem: Notice | None,
    progress: Progress | None,
    listener: Listener | None,
    cancelled: Callable[[], bool] | None = None,
    layout: Layout | None = None,
) -> GenerationStage:
    """The generation stage: off, unavailable (with ``problem``), or the model's answer (the
    listener is told of the prompt first and then of each new piece of text)."""
    if config.generation.model == "none":
        return skipped_generation(config, notice(GENERATION_OFF))
    if generator is None:
        why = problem or notice(MODEL_UNAVAILABLE, detail=config.generation.model)
        return skipped_generation(config, why, status="unavailable")
    if progress:
        progress(notice(PROGRESS_GENERATING, model=config.generation.model), 0.5)
    on_text = None
    if listener is not None:
        listener(
            "prompt",
            {
                "tokens": len(context.input_ids),
                "model_id": generator.model_id,
                "dtype": generator.dtype,
            },
        )
        on_text = partial(listener, "text")
    return generate(
        context,
        config.generation,
        generator=generator,
        on_text=on_text,
        cancelled=cancelled,
        read=layout.segments if layout is not None else None,
    )


def _support(
    config: PipelineConfig,
    question: str,
    context: ContextStage,
    generation: GenerationStage,
    generator: AnyGenerator | None,
    corpus: CorpusIndex,
    layout: Layout | None = None,
) -> SupportStage:
    """The support check of an answer with the corpus's own embedder (e5 for a corpus with
    Korean documents) and, when ``support.judge`` is on, the generator as judge; else skipped.
    ``layout``: the generation prompt's, when the reader wrote the answer (its readings are
    already recorded), else None."""
    if generation.status != "ok" or generation.answer is None:
        return skipped_support(notice(SUPPORT_SKIPPED_GENERATION, status=generation.status))
    embedder = _support_embedder(config, corpus)
    judge = generator if config.support.judge else None
    no_judge: Notice | None = None
    reading = answer_reading(config.support, question, context.sources, generation.answer, layout)
    check = partial(
        check_support,
        generation.answer,
        context,
        config.support,
        embedder=embedder,
        reading=reading,
    )
    try:
        support = check(judge=judge, question=question)
    except EndpointError as exc:  # an endpoint judge failed: judged without it, and why
        support = check(judge=None, question=question)
        no_judge = notice(
            SUPPORT_JUDGE_UNAVAILABLE,
            model=config.generation.model,
            reason=exc.at(config.generation.endpoint),
        )
    if no_judge is not None:  # judged without it: say so instead of the summary
        support = replace(support, notice=no_judge)
    return support
