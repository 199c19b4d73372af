"""The one flow: ``PipelineConfig`` + question → :func:`run` → ``Trace``.

Stages run in DESIGN.md order — chunking, retrieval (+ fusion), rerank, gate,
context, generation, support — and every stage's full output lands in the
Trace, survivors or not. A stage whose model is missing is recorded as
``unavailable`` with the reason; every other stage still runs. When the gate
refuses, context/generation/support are ``skipped`` and the model is never
called.
"""

from __future__ import annotations

import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from .config import PipelineConfig
from .gate import apply_gate
from .index import CorpusIndex, Progress
from .types import (
    ContextStage,
    GateStage,
    GenerationStage,
    Hit,
    Needle,
    Question,
    RerankStage,
    RetrievalStage,
    RetrieverList,
    SupportStage,
    Trace,
)

#: ``listener(event, value)``: see :func:`run`.
Listener = Callable[[str, Any], None]

#: Longest question accepted (characters). Longer input is an error, not a prompt.
MAX_QUESTION_CHARS = 2000

_KNOWN_SCRIPTS = {"LATIN", "HANGUL", "DIGIT"}


def validate_question(question: Any) -> tuple[str, tuple[str, ...]]:
    """Clean a question; raise ``ValueError`` for unusable input.

    Returns the NFC-normalised, stripped question and warnings (e.g. a script
    the corpus does not use).
    """
    if not isinstance(question, str):
        raise ValueError(f"the question must be text, not {type(question).__name__}")
    q = unicodedata.normalize("NFC", question).replace("\r\n", "\n").strip()
    if not q:
        raise ValueError("the question is empty; type a question or pick one from a question set")
    if len(q) > MAX_QUESTION_CHARS:
        raise ValueError(
            f"the question is {len(q):,} characters long; the limit is {MAX_QUESTION_CHARS:,} "
            "characters (paste a question, not a document)"
        )
    warnings: list[str] = []
    scripts = Counter(_script(ch) for ch in q if ch.isalnum())
    if not scripts:
        warnings.append("the question has no letters or digits: word analyzers will find nothing")
    else:
        script, n = scripts.most_common(1)[0]
        if script not in _KNOWN_SCRIPTS and n / sum(scripts.values()) >= 0.5:
            warnings.append(
                f"the question is mostly in {script.title()} script; the sample corpus is Korean and "
                "English, so word analyzers will likely find no candidates"
            )
    return q, tuple(warnings)


def _script(ch: str) -> str:
    if ch.isdigit():
        return "DIGIT"
    try:
        return unicodedata.name(ch).split()[0]
    except ValueError:
        return "UNKNOWN"


# ------------------------------------------------------------------ retrieval


def _list_name(method: str, analyzer: str | None, model: str) -> str:
    return f"dense:{model}" if method == "dense" else f"{method}:{analyzer}"


def retrieve(
    config: PipelineConfig,
    question: str,
    corpus: CorpusIndex,
    *,
    progress: Progress | None = None,
) -> tuple[RetrievalStage, Any]:
    """Run every configured retriever and fuse their lists.

    Returns the stage and the dense index (or None) so later stages can
    attach a cosine distance to any candidate.
    """
    from .fusion import fuse
    from .models import ModelUnavailable
    from .sparse.analyzers import get_analyzer
    from .types import AnalyzerView

    rcfg = config.retrieval
    chunking = corpus.chunking(config.chunker, progress)
    lists: list[RetrieverList] = []
    dense_index = None
    dense_cos = None
    dense_model, dense_reason = corpus.dense_choice(rcfg.dense_model)
    for method, analyzer in rcfg.method_specs:
        name = _list_name(method, analyzer, dense_model)
        if method == "dense":
            try:
                dense_index = corpus.dense(config.chunker, dense_model, progress)
                dense_cos = dense_index.cosines(question)
            except ModelUnavailable as exc:
                lists.append(
                    RetrieverList(name, method, None, (), 0, status="unavailable", message=str(exc),
                                  model=dense_model, params={"model_choice": dense_reason})
                )
                continue
            order = _top_indices(dense_cos, rcfg.k)
            hits = tuple(
                Hit(
                    chunk_id=chunking.chunks[i].chunk_id,
                    doc_id=chunking.chunks[i].doc_id,
                    rank=r,
                    score=float(dense_cos[i]),
                    distance=float(1.0 - dense_cos[i]),
                )
                for r, i in enumerate(order, 1)
            )
            lists.append(
                RetrieverList(name, method, None, hits, len(chunking.chunks), model=dense_index.stamp.embedding_model,
                              params={"similarity": "cosine", "normalized": True, "model_choice": dense_reason})
            )
            continue
        index = corpus.sparse(config.chunker, method, analyzer, rcfg)
        q_tokens = get_analyzer(analyzer, ngram_min=rcfg.ngram_min, ngram_max=rcfg.ngram_max)(question)
        idx, scores, n_candidates = index.search(q_tokens, rcfg.k)
        hits = tuple(
            Hit(
                chunk_id=chunking.chunks[int(i)].chunk_id,
                doc_id=chunking.chunks[int(i)].doc_id,
                rank=r,
                score=float(s),
            )
            for r, (i, s) in enumerate(zip(idx, scores), 1)
        )
        view = AnalyzerView(
            analyzer=analyzer,
            idf_form=index.idf_form,
            n_docs=index.n_docs,
            terms=tuple(index.term_stats(q_tokens)),
            segments=_auto_segments(question) if analyzer == "auto" else (),
        )
        params: dict[str, Any] = {}
        if method == "bm25":
            params = {"variant": rcfg.bm25_variant, "k1": rcfg.k1, "b": rcfg.b}
            if rcfg.bm25_variant in ("l", "plus"):
                params["delta"] = rcfg.delta
            if rcfg.bm25_variant == "okapi":
                params["epsilon"] = rcfg.epsilon
        if analyzer == "char":
            params["ngram"] = [rcfg.ngram_min, rcfg.ngram_max]
        message = "" if hits else "0 candidates: no chunk shares a term with the query"
        lists.append(
            RetrieverList(name, method, analyzer, hits, n_candidates, message=message,
                          analyzer_view=view, params=params)
        )

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
        final = tuple(
            replace(h, distance=float(1.0 - dense_cos[chunking.position[h.chunk_id]])) for h in final
        )
        if fused is not None:
            fused = replace(fused, hits=final)
    return RetrievalStage(lists=tuple(lists), fused=fused, hits=final), dense_index


def _auto_segments(question: str) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    from .sparse.analyzers import auto_segments

    return tuple((run.strip(), name, tuple(terms)) for run, name, terms in auto_segments(question))


def _top_indices(scores: Any, k: int) -> list[int]:
    """Indices of the k largest scores, ties broken by position (stable)."""
    import numpy as np

    scores = np.asarray(scores)
    k = min(k, len(scores))
    if k <= 0:
        return []
    part = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
    return sorted(part.tolist(), key=lambda i: (-scores[i], i))


# --------------------------------------------------------------------- rerank


def rerank_stage(
    config: PipelineConfig,
    question: str,
    hits: Sequence[Hit],
    corpus: CorpusIndex,
    dense_index: Any = None,
) -> RerankStage:
    """Reorder the top ``rerank.shortlist`` candidates with the configured reranker."""
    from .models import ModelUnavailable
    from .rerank import RERANK_LABELS, rerank

    rc = config.rerank
    label = RERANK_LABELS.get(rc.method, rc.method)
    chunking = corpus.chunking(config.chunker)
    extra: dict[str, Any] = {}
    if rc.method == "mmr" and dense_index is not None:
        extra["vectoriser"] = _dense_vectoriser(dense_index)
    try:
        out, info = rerank(
            rc.method,
            question,
            hits,
            chunking.by_id,
            shortlist=rc.shortlist,
            mmr_lambda=rc.mmr_lambda,
            model=rc.model,
            generator=config.generation.model,
            dense_index=dense_index,
            corpus=corpus,
            chunker=config.chunker,
            **extra,
        )
    except ModelUnavailable as exc:
        kept = tuple(replace(h, prev_rank=h.rank, retrieval_score=h.score) for h in hits)
        return RerankStage(rc.method, label, "unavailable", kept, rc.shortlist, message=str(exc))
    return RerankStage(
        method=rc.method,
        label=info.get("label", label),
        status="ok",
        hits=tuple(out),
        shortlist=min(rc.shortlist, len(hits)),
        message=info.get("message", ""),
        model=info.get("model"),
        params={k: v for k, v in info.items() if k not in ("label", "message", "model")},
    )


def _dense_vectoriser(dense_index: Any) -> Callable[[str, Sequence[Any]], tuple[Any, dict[str, Any]]]:
    """MMR vectors from the dense index (instead of TF-IDF) when dense retrieval ran."""
    row = {cid: i for i, cid in enumerate(dense_index.chunk_ids)}

    def dense_vectors(query: str, chunks: Sequence[Any]) -> tuple[Any, dict[str, Any]]:
        return dense_index.query_vector(query), {c.chunk_id: dense_index.vectors[row[c.chunk_id]] for c in chunks}

    dense_vectors.__name__ = f"dense ({dense_index.stamp.embedding_model})"
    return dense_vectors


# ------------------------------------------------------------- model stages


def _skipped_context(config: PipelineConfig, reason: str) -> ContextStage:
    c = config.context
    return ContextStage("skipped", c.policy, c.ordering, c.budget_tokens, (), message=reason)


def _skipped_generation(config: PipelineConfig, reason: str, status: str = "skipped") -> GenerationStage:
    return GenerationStage(status, config.generation.model, message=reason)  # type: ignore[arg-type]


def model_stages(
    config: PipelineConfig,
    question: str,
    gate: GateStage,
    corpus: CorpusIndex,
    progress: Progress | None = None,
    timings: dict[str, float] | None = None,
    listener: Listener | None = None,
) -> tuple[ContextStage, GenerationStage, SupportStage]:
    """Context, generation and support for the kept candidates (``listener``: see :func:`run`)."""
    timings = timings if timings is not None else {}
    if gate.refused:
        reason = f"gate refused: {gate.reason}"
        return (
            _skipped_context(config, reason),
            _skipped_generation(config, reason + " — the model was not called"),
            SupportStage("skipped", message="no answer to check"),
        )
    from .context import build_context
    from .generation import generate
    from .models import ModelUnavailable, get_embedder, get_generator
    from .support import check_support

    chunking = corpus.chunking(config.chunker)
    generator = None
    gen_problem = ""
    if config.generation.model != "none":
        t = time.perf_counter()
        if progress:
            progress(f"loading generator {config.generation.model}", 0.0)
        try:
            generator = get_generator(config.generation.model)
        except ModelUnavailable as exc:
            gen_problem = str(exc)
        timings["model_load"] = (time.perf_counter() - t) * 1000

    t = time.perf_counter()
    context = build_context(
        question,
        gate.kept,
        chunking.by_id,
        corpus.docs,
        config.context,
        generator=generator,
        dropped_by_gate=gate.rejected,
    )
    timings["context"] = (time.perf_counter() - t) * 1000

    t = time.perf_counter()
    if config.generation.model == "none":
        generation = _skipped_generation(config, "generation is off (generation.model = none)")
    elif generator is None:
        generation = _skipped_generation(config, gen_problem, status="unavailable")
    else:
        if progress:
            progress(f"generating with {config.generation.model}", 0.5)
        on_text = None
        if listener is not None:
            listener("prompt", {"tokens": len(context.input_ids), "model_id": generator.model_id})
            on_text = partial(listener, "text")
        generation = generate(context, config.generation, generator=generator, on_text=on_text)
    timings["generation"] = (time.perf_counter() - t) * 1000

    t = time.perf_counter()
    if generation.status == "ok" and generation.answer is not None:
        try:
            embedder = get_embedder("minilm")
        except ModelUnavailable:
            embedder = None
        support = check_support(
            generation.answer, context, config.support, embedder=embedder, question=question
        )
    else:
        support = SupportStage("skipped", message=f"no answer to check (generation {generation.status})")
    timings["support"] = (time.perf_counter() - t) * 1000
    return context, generation, support


# ----------------------------------------------------------------------- run


def run(
    config: PipelineConfig,
    question: str,
    corpus: CorpusIndex,
    *,
    gold: Question | Sequence[Needle] | None = None,
    progress: Progress | None = None,
    stop_after: str = "support",
    listener: Listener | None = None,
) -> Trace:
    """Run one question through every stage and return the full ``Trace``.

    Args:
        config: the pipeline configuration.
        question: the user's question (validated: non-empty, ≤ MAX_QUESTION_CHARS).
        corpus: the loaded corpus and its index cache.
        gold: a question-set entry (or needles) to mark gold at every stage.
        progress: optional ``(message, fraction)`` callback for long work.
        stop_after: ``"gate"`` to skip context/generation/support (evaluation).
        listener: optional ``listener(event, value)`` told ``("prompt", {"tokens": n,
            "model_id": id})`` just before the model is called and ``("text", piece)``
            for each piece of a freshly generated answer (a cache replay sends none).
    """
    from .diagnosis import gold_view

    if stop_after not in ("gate", "support"):
        raise ValueError(f"stop_after = {stop_after!r} is not valid; valid choices: gate, support")
    question, warnings = validate_question(question)
    timings: dict[str, float] = {}

    t = time.perf_counter()
    chunking = corpus.chunking(config.chunker, progress)
    timings["chunking"] = (time.perf_counter() - t) * 1000

    t = time.perf_counter()
    retrieval, dense_index = retrieve(config, question, corpus, progress=progress)
    timings["retrieval"] = (time.perf_counter() - t) * 1000

    t = time.perf_counter()
    rerank = rerank_stage(config, question, retrieval.hits, corpus, dense_index)
    timings["rerank"] = (time.perf_counter() - t) * 1000

    t = time.perf_counter()
    gate = apply_gate(rerank.hits, config.gate)
    timings["gate"] = (time.perf_counter() - t) * 1000
    if gate.reason and not gate.refused:
        warnings = warnings + (gate.reason,)

    if stop_after == "gate":
        reason = "not run (retrieval-only evaluation)"
        context = _skipped_context(config, reason)
        generation = _skipped_generation(config, reason)
        support = SupportStage("skipped", message=reason)
    else:
        context, generation, support = model_stages(config, question, gate, corpus, progress, timings, listener)

    needles: tuple[Needle, ...] = ()
    if isinstance(gold, Question):
        needles = gold.needles
    elif gold:
        needles = tuple(gold)
    gview = (
        gold_view(needles, corpus, chunking, retrieval, rerank, gate, context, generation, support)
        if needles
        else None
    )

    referenced: set[str] = set()
    for lst in retrieval.lists:
        referenced.update(h.chunk_id for h in lst.hits)
    referenced.update(h.chunk_id for h in retrieval.hits)
    referenced.update(s.chunk_id for s in context.sources)
    if gview:
        for ids in gview.chunk_ids:
            referenced.update(ids)
    chunks = {cid: chunking.by_id[cid] for cid in sorted(referenced, key=chunking.position.__getitem__)}

    stamp = corpus.stamp(config.chunker, dense_index.stamp if dense_index is not None else None)
    timings["total"] = sum(v for k, v in timings.items() if k != "total")
    return Trace(
        question=question,
        config=config.to_dict(),
        index_stamp=stamp,
        chunking=chunking.diagnostics,
        retrieval=retrieval,
        rerank=rerank,
        gate=gate,
        context=context,
        generation=generation,
        support=support,
        chunks=chunks,
        timings_ms={k: round(v, 3) for k, v in timings.items()},
        gold=gview,
        warnings=warnings,
    )


def final_ranking(trace: Trace) -> list[str]:
    """The ranked chunk ids the metrics score: after rerank, before the gate."""
    return [h.chunk_id for h in trace.rerank.hits]

