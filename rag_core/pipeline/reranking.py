"""The rerank stage: the configured reranker over the top ``rerank.shortlist`` candidates."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from .. import models  # models.get_* read at call time: the one place a model is swapped
from ..config import PipelineConfig
from ..config_checks import is_endpoint_model
from ..index import CorpusIndex
from ..models import DEFAULT_GENERATOR, AnyGenerator, ModelUnavailable
from ..rerank import RERANK_LABELS, rerank
from ..retrieval.dense import DenseIndex
from ..types import Chunk, Hit, RerankStage
from ..wording import declare, notice
from .answering import endpoint_generator

#: ``reason`` is the loader's own notice (``ModelUnavailable.notice``).
RERANK_MODEL_UNAVAILABLE = declare("rerank.model_unavailable", "model", "reason")


def rerank_stage(
    config: PipelineConfig,
    question: str,
    hits: Sequence[Hit],
    corpus: CorpusIndex,
    dense_index: DenseIndex | None = None,
    chunks: Mapping[str, Chunk] | None = None,
) -> RerankStage:
    """Reorder the top ``rerank.shortlist`` candidates with the configured reranker.

    ``chunks``: the chunk table (default: the chunking's; with imported runs
    also their whole documents and external texts).
    """
    rc = config.rerank
    label = RERANK_LABELS.get(rc.method, rc.method)
    table = chunks if chunks is not None else corpus.chunking(config.chunker).by_id
    extra: dict[str, Any] = {}
    if rc.method == "mmr" and dense_index is not None:
        position = corpus.chunking(config.chunker).position
        if all(h.chunk_id in position for h in hits[: rc.shortlist]):
            extra["vectoriser"] = _dense_vectoriser(dense_index)
    try:
        out, info = rerank(
            rc.method,
            question,
            hits,
            table,
            shortlist=rc.shortlist,
            mmr_lambda=rc.mmr_lambda,
            model=rc.model,
            generator=_judge(config) if rc.method == "llm-judge" else None,
            dense_index=dense_index,
            corpus=corpus,
            chunker=config.chunker,
            **extra,
        )
    except ModelUnavailable as exc:
        kept = tuple(replace(h, prev_rank=h.rank, retrieval_score=h.score) for h in hits)
        why = notice(RERANK_MODEL_UNAVAILABLE, model=exc.name, reason=exc.notice)
        return RerankStage(rc.method, label, "unavailable", kept, rc.shortlist, notice=why)
    return RerankStage(
        method=rc.method,
        label=info.get("label", label),
        status="ok",
        hits=out,
        shortlist=min(rc.shortlist, len(hits)),
        model=info.get("model"),
        params={k: v for k, v in info.items() if k not in ("label", "model")},
    )


def _judge(config: PipelineConfig) -> AnyGenerator:
    """The LLM judge: the endpoint's generator for ``openai:MODEL``, else the configured local
    one (the bundled Qwen when generation is off: the judge needs a model).

    Raises:
        ModelUnavailable: The model is missing (the stage is then ``unavailable``).
    """
    name = config.generation.model
    if is_endpoint_model(name):
        return endpoint_generator(config)
    return models.get_generator(DEFAULT_GENERATOR if name == "none" else name)


def _dense_vectoriser(
    dense_index: DenseIndex,
) -> Callable[[str, Sequence[Any]], tuple[Any, dict[str, Any]]]:
    """MMR vectors from the dense index (instead of TF-IDF) when dense retrieval ran."""
    row = {cid: i for i, cid in enumerate(dense_index.chunk_ids)}

    def dense_vectors(query: str, chunks: Sequence[Any]) -> tuple[Any, dict[str, Any]]:
        return dense_index.query_vector(query), {
            c.chunk_id: dense_index.vectors[row[c.chunk_id]] for c in chunks
        }

    dense_vectors.__name__ = f"dense ({dense_index.stamp.embedding_model})"
    return dense_vectors
