"""Cross-encoder reranker: ``sentence_transformers.CrossEncoder`` scores (question, chunk) pairs.

No cross-encoder weights are bundled (none exist offline here): the user
names a hub id (e.g. ``cross-encoder/ms-marco-MiniLM-L-6-v2``) or a local
folder in ``rerank.model``; when its files are absent the stage is
``unavailable`` with the reason (:class:`rag_core.models.ModelUnavailable`).
The score is ``CrossEncoder.predict``'s output for the pair — for a
single-label model the sigmoid of its logit, in (0, 1); higher is more
relevant. The chunk side is its ``content``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rag_core.models import get_cross_encoder
from rag_core.rerank import Reranked, register_reranker
from rag_core.rerank._shared import by_score, hit_chunks
from rag_core.types import Chunk, Hit
from rag_core.wording import declare, notice

#: A hit's note: its cross-encoder score.
RERANK_CROSS_ENCODER_SCORE = declare("rerank.cross_encoder_score", "score")

LABEL = "cross-encoder (sentence-transformers CrossEncoder on question–chunk pairs)"


@register_reranker("cross-encoder", LABEL)
def rerank_cross_encoder(
    query: str,
    hits: Sequence[Hit],
    chunks: Mapping[str, Chunk],
    *,
    model: Any = "",
    **_: Any,
) -> Reranked:
    """Order the shortlist by the cross-encoder's score; ties keep retrieval order.

    Args:
        model: A hub id or local folder, or a loaded ``CrossEncoderModel``.
    """
    if isinstance(model, str):
        if not model.strip():
            raise ValueError(
                "rerank.model is empty: the cross-encoder reranker needs a hub id or a local path "
                "(e.g. cross-encoder/ms-marco-MiniLM-L-6-v2)"
            )
        model = get_cross_encoder(model)
    passages = [c.content for c in hit_chunks(hits, chunks)]
    scores = model.score(query, passages)
    return by_score(
        scores,
        lambda s: notice(RERANK_CROSS_ENCODER_SCORE, score=s),
        {"label": LABEL, "model": model.model_id},
    )
