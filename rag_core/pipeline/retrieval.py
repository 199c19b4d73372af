"""The retrieval stage: every configured retriever (:data:`~.retrievers.RETRIEVERS`), fused.

With one usable list its hits are passed on; with several, ``fusion`` combines them. When
dense retrieval ran, every passed-on hit carries its cosine distance (the gate may read it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ..config import PipelineConfig
from ..index import CorpusIndex, Progress
from ..retrieval.dense import DenseIndex
from ..retrieval.fusion import fuse
from ..retrieval.runs import ExternalRun
from ..types import Chunk, RetrievalStage, RetrieverList
from .plan import RunPlan
from .retrievers import RETRIEVERS, Request


@dataclass(frozen=True)
class Retrieval:
    """What the retrieval stage makes: its part of the Trace, the dense index (None when dense
    did not run) later stages attach cosine distances with, and the chunks imported runs' hits
    name that the chunking lacks (whole documents, external texts), in the order first named."""

    stage: RetrievalStage
    dense_index: DenseIndex | None = None
    extra: Mapping[str, Chunk] = field(default_factory=dict)


def _list_name(method: str, analyzer: str | None, model: str) -> str:
    return f"dense:{model}" if method == "dense" else f"{method}:{analyzer}"


def retrieve(
    config: PipelineConfig,
    question: str,
    corpus: CorpusIndex,
    *,
    progress: Progress | None = None,
    runs: Mapping[str, ExternalRun] | None = None,
    query_id: str | None = None,
    plan: RunPlan | None = None,
) -> Retrieval:
    """Run every configured retriever and fuse their lists (see :class:`Retrieval`).

    ``run:TAG`` retrievers read ``runs[TAG]`` at ``query_id``. ``plan``: the config's
    :class:`RunPlan` (made here when not given).
    """
    rcfg = config.retrieval
    plan = plan if plan is not None else RunPlan(config, corpus, progress)
    chunking = plan.chunking
    lists: list[RetrieverList] = []
    dense_index: DenseIndex | None = None
    dense_cos = None
    extra: dict[str, Chunk] = {}
    for method, analyzer in plan.method_specs:
        request = Request(
            question,
            plan,
            _list_name(method, analyzer, plan.dense_model),
            method,
            analyzer,
            progress=progress,
            runs=runs,
            query_id=query_id,
        )
        got = RETRIEVERS.get(method)(request)
        lists.append(got.list)
        extra.update(got.extra)
        if got.dense_index is not None:
            dense_index = got.dense_index
        if got.cosines is not None:
            dense_cos = got.cosines

    usable = [lst for lst in lists if lst.status == "ok"]
    fused = None
    if len(usable) > 1:
        fused = fuse(
            [(lst.name, lst.hits) for lst in usable],
            config.fusion.method,
            k=rcfg.k,
            rrf_k=config.fusion.rrf_k,
            alpha=config.fusion.alpha,
        )
        final = fused.hits
    else:
        final = usable[0].hits if usable else ()
    if dense_cos is not None:
        position = chunking.position
        final = tuple(
            replace(h, distance=float(1.0 - dense_cos[position[h.chunk_id]]))
            if h.chunk_id in position
            else h  # a run's whole document or external text: no vector in the dense index
            for h in final
        )
        if fused is not None:
            fused = replace(fused, hits=final)
    stage = RetrievalStage(lists=tuple(lists), fused=fused, hits=final)
    return Retrieval(stage, dense_index=dense_index, extra=extra)
