"""Late-interaction reranker over MiniLM token embeddings ("ColBERT-style").

``maxsim(q, c) = Σ_{i ∈ q} max_{j ∈ c} cos(E_q[i], E_c[j])`` — for every
query word piece, its best-matching word piece of the chunk, summed
(Khattab & Zaharia 2020, ColBERT, https://arxiv.org/abs/2004.12832).

Honest label: the token vectors come from an off-the-shelf bi-encoder
(all-MiniLM-L6-v2, trained for mean-pooled sentence vectors), used
ColBERT-style — not a trained ColBERT, whose token vectors are trained for
exactly this sum. ``[CLS]``/``[SEP]`` are left out; the chunk side is the
embedded ``text`` (header included when the chunker adds one), truncated
at the model window like the pooled vector.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

from rag_core.models import get_embedder
from rag_core.rerank import Reranked, register_reranker
from rag_core.rerank._shared import by_score, hit_chunks
from rag_core.types import Chunk, Hit
from rag_core.wording import declare, notice

#: A hit's note: its MaxSim score and over how many word pieces of the question.
RERANK_MAXSIM_SCORE = declare("rerank.maxsim_score", "score", "pieces")

LABEL = "maxsim (MiniLM token vectors used ColBERT-style; not a trained ColBERT)"


def maxsim_score(q_tokens: np.ndarray, c_tokens: np.ndarray) -> float:
    """``Σ_i max_j q_i · c_j`` for unit-length rows (0.0 when either side is empty)."""
    if q_tokens.size == 0 or c_tokens.size == 0:
        return 0.0
    return float((q_tokens @ c_tokens.T).max(axis=1).sum())


@register_reranker("maxsim", LABEL)
def rerank_maxsim(
    query: str,
    hits: Sequence[Hit],
    chunks: Mapping[str, Chunk],
    *,
    embedder: Any = None,
    **_: Any,
) -> Reranked:
    """Order the shortlist by :func:`maxsim_score`; ties keep retrieval order.

    Args:
        embedder: An embedder with per-token vectors, or its name (default ``minilm``).
    """
    emb = (
        get_embedder(embedder or "minilm")
        if embedder is None or isinstance(embedder, str)
        else embedder
    )
    if not getattr(emb, "supports_token_embeddings", False):
        raise ValueError(
            f"maxsim needs per-token embeddings and {emb.name} gives pooled vectors only; use "
            "minilm"
        )
    texts = [c.text for c in hit_chunks(hits, chunks)]
    q = emb.token_embeddings(query)
    # token_embeddings_many is not part of the Embedder protocol (only MiniLM has it; checked above)
    docs = cast(Any, emb).token_embeddings_many(texts) if texts else []
    scores = [maxsim_score(q, d) for d in docs]
    return by_score(
        scores,
        lambda s: notice(RERANK_MAXSIM_SCORE, score=s, pieces=len(q)),
        {"label": LABEL, "model": emb.model_id, "query_tokens": len(q)},
    )
