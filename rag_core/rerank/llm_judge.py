"""Pointwise LLM relevance: ``P("yes")`` from the generator for a fixed yes/no question.

For each shortlisted chunk the generator reads :data:`JUDGE_SYSTEM` and a
user turn holding the question and the chunk content, and the score is
``P(yes) = Σ p(yes-spellings) / (Σ p(yes-spellings) + Σ p(no-spellings))``
from its next-token distribution after the assistant turn opens
(:meth:`rag_core.models.Generator.yes_probability`; the pointwise
"yes/no" relevance prompt of Nogueira et al. 2020, monoT5,
https://arxiv.org/abs/2003.06713, applied to a chat model).

One forward pass per chunk (seconds each with the bundled 0.5B model on a
CPU), hence the default shortlist of :data:`DEFAULT_SHORTLIST`. Scores are
cached on disk by ``(model id, weights sha256, sha256 of the prompt ids)``
so a repeated question costs nothing.

**On an endpoint** (``generation.model = openai:MODEL``) the judge is the server's:
``P(yes)`` from the first answer token's ``logprobs``/``top_logprobs``
(:meth:`rag_core.models.endpoint.generator.EndpointGenerator.p_yes`, the support judge's own),
cached by ``(endpoint, model, sha256 of system and user turn)``. A server that returns no
logprobs, or fails, is refused, not guessed: the stage is ``unavailable`` with
``rerank.endpoint_judge`` naming the endpoint and the cause, and the shortlist keeps its
retrieval order.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rag_core.hashing import ids_sha256, sha256_text
from rag_core.models import (
    DEFAULT_GENERATOR,
    AnyGenerator,
    EndpointGenerator,
    LocalGenerator,
    ModelUnavailable,
    cache_root,
    get_generator,
)
from rag_core.models.endpoint import EndpointError
from rag_core.models.store import JsonStore, shared_store
from rag_core.rerank import Reranked, register_reranker
from rag_core.rerank._shared import by_score, hit_chunks
from rag_core.types import Chunk, Hit
from rag_core.wording import declare, notice

#: Why an endpoint judge gave no scores (``cause``: the endpoint's own notice).
RERANK_ENDPOINT_JUDGE = declare("rerank.endpoint_judge", "endpoint", "cause")

DEFAULT_SHORTLIST = 8
#: A hit's note: the judge's P(yes).
RERANK_JUDGE_SCORE = declare("rerank.judge_score", "score")

LABEL = "llm-judge (generator's P(yes) for 'does this passage answer the question?')"
JUDGE_SYSTEM = "You judge search results. Reply with one word: yes or no."


def judge_prompt(question: str, passage: str) -> str:
    """The user turn of the relevance question."""
    return (
        f"Question: {question}\n\nPassage:\n{passage}\n\n"
        "Does the passage contain the answer to the question? Answer yes or no."
    )


def _store(cache_dir: str | Path | None) -> JsonStore:
    return shared_store(
        (Path(cache_dir) if cache_dir is not None else cache_root()) / "judge.sqlite"
    )


def judge_scores(
    generator: AnyGenerator,
    question: str,
    passages: Sequence[str],
    *,
    cache_dir: str | Path | None = None,
) -> tuple[list[float], int]:
    """``P(yes)`` per passage and how many came from the cache."""
    store = _store(cache_dir)
    out, hits = [], 0
    for p in passages:
        if isinstance(generator, EndpointGenerator):
            key, compute = _endpoint_score(generator, question, p)
        else:
            key, compute = _local_score(generator, question, p)
        cached = store.get(key)
        if cached is not None:
            out.append(float(cached))
            hits += 1
            continue
        prob = compute()
        store.put(key, prob)
        out.append(prob)
    return out, hits


def _key(parts: list[Any]) -> str:
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def _local_score(generator: LocalGenerator, question: str, passage: str) -> tuple[str, Any]:
    """The cache key of one passage's ``P(yes)`` from a local model, and how to compute it."""
    ids = generator.prompt_ids(JUDGE_SYSTEM, judge_prompt(question, passage))
    # float32 keys are those written before dtypes existed; others name their dtype
    dtype = generator.dtype
    precision = [] if dtype == "float32" else [f"dtype={dtype}"]
    key = _key([generator.model_id, generator.file_sha256, ids_sha256(ids), *precision])
    return key, lambda: generator.yes_probability(ids)


def _endpoint_score(generator: EndpointGenerator, question: str, passage: str) -> tuple[str, Any]:
    """The cache key of one passage's ``P(yes)`` from an endpoint's logprobs (module
    docstring), and how to compute it, which raises ``ModelUnavailable``
    (``rerank.endpoint_judge``) when the server fails or returns no logprobs."""
    user = judge_prompt(question, passage)
    key = _key(
        [
            "endpoint",
            generator.client.url,
            generator.served_model,
            sha256_text(json.dumps([JUDGE_SYSTEM, user])),
        ]
    )

    def compute() -> float:
        try:
            return float(generator.p_yes(JUDGE_SYSTEM, user))
        except EndpointError as exc:
            why = notice(RERANK_ENDPOINT_JUDGE, endpoint=generator.client.url, cause=exc.notice)
            raise ModelUnavailable(generator.model_id, why) from None

    return key, compute


@register_reranker("llm-judge", LABEL)
def rerank_llm_judge(
    query: str,
    hits: Sequence[Hit],
    chunks: Mapping[str, Chunk],
    *,
    generator: AnyGenerator | None = None,
    cache_dir: str | Path | None = None,
    **_: Any,
) -> Reranked:
    """Order the shortlist by the judge's ``P(yes)``; ties keep retrieval order.

    Args:
        generator: A loaded generator (an endpoint one too); None: the bundled Qwen.
        cache_dir: Folder of ``judge.sqlite`` (default: the user cache).
    """
    if generator is None:
        generator = get_generator(DEFAULT_GENERATOR)
    passages = [c.content for c in hit_chunks(hits, chunks)]
    scores, cached = judge_scores(generator, query, passages, cache_dir=cache_dir)
    return by_score(
        scores,
        lambda s: notice(RERANK_JUDGE_SCORE, score=s),
        {
            "label": LABEL,
            "model": generator.model_id,
            "cached": cached,
            "prompt": JUDGE_SYSTEM,
        },
    )
