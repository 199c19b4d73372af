"""The answer stages: context, generation and support for the candidates the gate kept."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from .. import models  # models.get_* read at call time: the one place a model is swapped
from ..answer.context import build_context
from ..answer.generation import generate
from ..answer.support import check_support
from ..config import PipelineConfig
from ..index import CorpusIndex, Progress
from ..models import ModelUnavailable
from ..types import Chunk, ContextStage, GateStage, GenerationStage, SupportStage

#: ``listener(event, value)``: see :func:`rag_core.pipeline.run`.
Listener = Callable[[str, Any], None]


def skipped_context(config: PipelineConfig, reason: str) -> ContextStage:
    c = config.context
    return ContextStage("skipped", c.policy, c.ordering, c.budget_tokens, (), message=reason)


def skipped_generation(
    config: PipelineConfig, reason: str, status: str = "skipped"
) -> GenerationStage:
    return GenerationStage(status, config.generation.model, message=reason)  # type: ignore[arg-type]


def not_run(
    config: PipelineConfig, reason: str
) -> tuple[ContextStage, GenerationStage, SupportStage]:
    """Context, generation and support all ``skipped`` for ``reason``."""
    return (
        skipped_context(config, reason),
        skipped_generation(config, reason),
        SupportStage("skipped", message=reason),
    )


def model_stages(
    config: PipelineConfig,
    question: str,
    gate: GateStage,
    corpus: CorpusIndex,
    progress: Progress | None = None,
    timings: dict[str, float] | None = None,
    chunks: Mapping[str, Chunk] | None = None,
    listener: Listener | None = None,
) -> tuple[ContextStage, GenerationStage, SupportStage]:
    """Context, generation and support for the kept candidates.

    ``chunks``: see :func:`rerank_stage`; ``listener``: see :func:`run`.
    """
    timings = timings if timings is not None else {}
    if gate.refused:
        reason = f"gate refused: {gate.reason}"
        return (
            skipped_context(config, reason),
            skipped_generation(config, reason + " — the model was not called"),
            SupportStage("skipped", message="no answer to check"),
        )

    chunking = corpus.chunking(config.chunker)
    generator = None
    gen_problem = ""
    if config.generation.model != "none":
        t = time.perf_counter()
        if progress:
            progress(f"loading generator {config.generation.model}", 0.0)
        try:
            generator = models.get_generator(config.generation.model, dtype=config.generation.dtype)
        except ModelUnavailable as exc:
            gen_problem = str(exc)
        timings["model_load"] = (time.perf_counter() - t) * 1000

    t = time.perf_counter()
    context = build_context(
        question,
        gate.kept,
        chunks if chunks is not None else chunking.by_id,
        corpus.docs,
        config.context,
        tokenizer=generator if generator is not None else models.fallback_prompt_tokenizer(),
        dropped_by_gate=gate.rejected,
    )
    timings["context"] = (time.perf_counter() - t) * 1000

    t = time.perf_counter()
    if config.generation.model == "none":
        generation = skipped_generation(config, "generation is off (generation.model = none)")
    elif generator is None:
        generation = skipped_generation(config, gen_problem, status="unavailable")
    else:
        if progress:
            progress(f"generating with {config.generation.model}", 0.5)
        on_text = None
        if listener is not None:
            listener(
                "prompt",
                {
                    "tokens": len(context.input_ids),
                    "model_id": generator.model_id,
                    "dtype": getattr(generator, "dtype", None),
                },
            )
            on_text = partial(listener, "text")
        generation = generate(context, config.generation, generator=generator, on_text=on_text)
    timings["generation"] = (time.perf_counter() - t) * 1000

    t = time.perf_counter()
    if generation.status == "ok" and generation.answer is not None:
        try:
            embedder = models.get_embedder("minilm")
        except ModelUnavailable:
            embedder = None
        support = check_support(
            generation.answer, context, config.support, embedder=embedder, question=question
        )
    else:
        support = SupportStage(
            "skipped", message=f"no answer to check (generation {generation.status})"
        )
    timings["support"] = (time.perf_counter() - t) * 1000
    return context, generation, support
