"""Generation: greedy decoding from exactly the ids the context stage built, cached on disk.

Statuses: ``ok`` (generated or replayed), ``skipped`` (generation off, the
context was skipped or holds no source — the model is not called, and
seconds, tokens and hashes are None, never 0), ``unavailable`` (the model's
files are missing; the reason is in ``message``) and ``error`` (anything
else that went wrong, with its message).

With ``cfg.citations = enforced`` decoding is constrained by
:class:`rag_core.answer.citations.CitationLogitsProcessor` over the numbers of the
sources sent (an endpoint: the server's grammar, ``rag_core.answer.endpoint_grammar``);
a generator that cannot take a logits processor (not a local
transformers model) falls back to ``free`` and ``message`` says so
(``params["citations"]`` is the mode actually used).

Results are stored under the key ``sha256(model id, weights sha256, ids
sha256, max_new_tokens, "greedy")`` plus, when enforced, ``"enforced"``, the
grammar version and the source numbers, plus ``"dtype=bfloat16"`` for a
model that computes in bfloat16 (``generation.dtype``; float32 keys are the
ones written before the dtype existed), in ``<cache>/generations.sqlite``;
greedy decoding is deterministic for a given dtype, so a replay returns the
stored answer instantly with ``cached=True`` (``seconds`` stays the original
generate-only time). ``params`` record the dtype used, ``cut`` (the
``max_new_tokens`` cap, not the model, ended the answer) and, for a local
model, ``prefill_seconds`` (call to first new token), ``decode_seconds``
(the rest) and their tokens per second (``rag_core.models.timing``).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rag_core.config import GenerationConfig
from rag_core.hashing import ids_sha256
from rag_core.models import (
    AnyGenerator,
    EndpointGenerator,
    LocalGenerator,
    ModelUnavailable,
    cache_root,
    get_generator,
)
from rag_core.models.errors import Cancelled
from rag_core.models.generators import Generator
from rag_core.models.readings import Segments
from rag_core.models.store import JsonStore, shared_store
from rag_core.models.timing import rates
from rag_core.types import ContextStage, GenerationStage, Notice
from rag_core.wording import declare, joined, notice

from .citations import GRAMMAR_VERSION, citation_processor
from .prompt import REFUSAL_TEXT, refusal_of
from .remote import generate_remote

#: Why no answer was made (``GenerationStage.notice``); the pipeline declares the same
#: ``generation.off`` for the stage it skips itself.
GENERATION_OFF = declare("generation.off")
GENERATION_NO_PROMPT = declare("generation.no_prompt", "why")
GENERATION_CONTEXT_STATUS = declare("generation.context_status", "status")
GENERATION_NO_SOURCE_FITS = declare("generation.no_source_fits")
GENERATION_WRONG_TOKENIZER = declare("generation.wrong_tokenizer", "tokenizer", "model")
GENERATION_IDS_ALTERED = declare("generation.ids_altered")
GENERATION_FAILED = declare("generation.failed", "kind", "error")
#: What a made answer's stage says (``GenerationStage.notice``; ``message`` is its English):
#: how fast it came, or that it was replayed, then what the answer could not have.
GENERATION_SPEED = declare("generation.speed", "tokens", "seconds", "rate")
GENERATION_SPEED_PREFILL = declare(
    "generation.speed.prefill", "tokens", "seconds", "rate", "prefill_seconds", "prefill_rate"
)
GENERATION_SPEED_PREFILL_DECODE = declare(
    "generation.speed.prefill_decode",
    "tokens",
    "seconds",
    "rate",
    "prefill_seconds",
    "prefill_rate",
    "decode_rate",
)
GENERATION_MAX_TOKENS = declare("generation.max_tokens_reached", "limit")
GENERATION_REPLAYED = declare("generation.replayed", "seconds")
GENERATION_NOT_ENFORCED = declare("generation.citations_not_enforced", "model")


def _stage(status: str, model: str | None, why: Notice, **fields: Any) -> GenerationStage:
    """A stage that made no answer, saying why."""
    return GenerationStage(status, model, notice=why, **fields)  # type: ignore[arg-type]


DECODING = "greedy"


def generation_store(cache_dir: str | Path | None) -> JsonStore:
    """The generations cache (``generations.sqlite`` under ``cache_dir``), one per process."""
    path = Path(cache_dir) if cache_dir is not None else cache_root()
    return shared_store(path / "generations.sqlite")


def cache_key(
    model_id: str,
    file_sha256: str | None,
    ids_hash: str,
    max_new_tokens: int,
    citations: str = "free",
    sources: Sequence[int] = (),
    dtype: str = "float32",
) -> str:
    """``sha256`` of ``[model_id, file_sha256, ids_hash, max_new_tokens, "greedy"]`` + the citation
    mode + the dtype.

    ``enforced`` appends ``"enforced"``, the grammar's version
    (:data:`rag_core.answer.citations.GRAMMAR_VERSION`) and the source numbers a citation may
    use; ``free`` appends nothing, so its keys are those written before the
    mode existed and earlier free generations still replay. A dtype other
    than ``float32`` appends ``"dtype=<name>"``; float32 appends nothing, so
    keys written before the dtype existed (all float32) still replay, and a
    bfloat16 answer is never returned for float32 or the other way round.
    """
    if citations not in ("free", "enforced"):
        raise ValueError(f"citations = {citations!r} is not valid; valid choices: free, enforced")
    if not isinstance(dtype, str) or not dtype or dtype == "auto":
        raise ValueError(f"dtype = {dtype!r} must be the concrete dtype used (float32, bfloat16)")
    cite = [citations, GRAMMAR_VERSION, list(sources)] if citations == "enforced" else []
    precision = [] if dtype == "float32" else [f"dtype={dtype}"]
    payload = json.dumps(
        [model_id, file_sha256, ids_hash, max_new_tokens, DECODING, *cite, *precision]
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def generator_dtype(generator: AnyGenerator) -> str:
    """The dtype a loaded generator computes in (``float32`` for one that does not say)."""
    return generator.dtype or "float32"


def generate(
    context: ContextStage,
    cfg: GenerationConfig,
    *,
    generator: AnyGenerator | None = None,
    cache_dir: str | Path | None = None,
    use_cache: bool = True,
    on_text: Callable[[str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    read: Segments | None = None,
) -> GenerationStage:
    """Generate an answer from ``context.input_ids`` (see module docstring).

    Steps: skip when there is nothing to send, load the generator, check the
    ids are this model's, replay from the cache, or generate and store.

    Args:
        context: The built context; its ``input_ids`` are sent as they are.
        cfg: ``model``, ``max_new_tokens``, ``citations`` and ``dtype``.
        generator: A loaded generator; None loads ``cfg.model`` in ``cfg.dtype``.
        cache_dir: Folder of ``generations.sqlite`` (default: the user cache).
        use_cache: False forces a fresh generation (the result is still stored).
        on_text: Receives the answer's text piece by piece while a fresh
            generation runs (not called on a cache replay).
        cancelled: Asked while the answer is made; once true, a local model raises
            :class:`~rag_core.models.errors.Cancelled` within a layer's time (even during
            the prompt's forward pass: ``rag_core.models.generators.interruptible``) and an
            endpoint generator (``openai:MODEL``, ``rag_core.answer.remote``) closes the
            request. Nothing of a cancelled generation is stored.
        read: Where the sources and the question lie in ``context.input_ids``: a fresh local
            generation also reads its answer on the way (``Generator.generate_ids``'s
            ``segments``), for the support check (:func:`rag_core.answer.checkfile.own_layout`).
    """
    params: dict[str, Any] = {
        "max_new_tokens": cfg.max_new_tokens,
        "decoding": DECODING,
        "citations": cfg.citations,
    }
    skipped = _nothing_to_send(context, cfg, params)
    if skipped is not None:
        return skipped
    if generator is None:
        try:
            generator = get_generator(cfg.model, dtype=cfg.dtype)
        except ModelUnavailable as exc:
            return _stage("unavailable", cfg.model, exc.notice, params=params)
    request = _Request(context, cfg, cache_dir, use_cache, on_text, cancelled, read)
    if isinstance(generator, EndpointGenerator):  # a server: rag_core.answer.remote
        return _by_endpoint(request, generator, params)
    return _locally(request, generator, params)


@dataclass(frozen=True)
class _Request:
    """What :func:`generate` was asked, handed on to its steps."""

    context: ContextStage
    cfg: GenerationConfig
    cache_dir: str | Path | None
    use_cache: bool
    on_text: Callable[[str], None] | None
    cancelled: Callable[[], bool] | None
    read: Segments | None = None


def _by_endpoint(
    request: _Request, generator: EndpointGenerator, params: dict[str, Any]
) -> GenerationStage:
    """Have a server make the answer (``rag_core.answer.remote``); raise Cancelled once closed."""
    cancelled = request.cancelled
    stage = generate_remote(
        request.context,
        request.cfg,
        generator,
        generation_store(request.cache_dir),
        params,
        [],
        use_cache=request.use_cache,
        on_text=request.on_text,
        cancelled=cancelled,
    )
    if cancelled is not None and cancelled():  # the request was closed: nothing to show
        raise Cancelled
    return stage


def _locally(
    request: _Request, generator: LocalGenerator, params: dict[str, Any]
) -> GenerationStage:
    """Check the ids are this local model's, then replay from the cache or generate and store."""
    context, cfg = request.context, request.cfg
    params["dtype"] = generator_dtype(generator)
    wrong = _wrong_ids(context, generator, params)
    if wrong is not None:
        return wrong
    mode, sources, notes = _citation_mode(context, cfg, generator, params)
    ids = list(context.input_ids)
    key = _answer_key(generator, context, cfg, mode, sources, params["dtype"])
    store = generation_store(request.cache_dir)
    if request.use_cache:
        replayed = _replay(store, key, generator, ids, params, notes)
        if replayed is not None:
            return replayed
    refusal = refusal_of(context.system_text)
    return _fresh(
        store,
        key,
        generator,
        ids,
        cfg,
        mode,
        sources,
        params,
        notes,
        request.on_text,
        refusal,
        request.cancelled,
        request.read,
    )


def _answer_key(
    generator: LocalGenerator,
    context: ContextStage,
    cfg: GenerationConfig,
    mode: str,
    sources: Sequence[int],
    dtype: str,
) -> str:
    """The generation cache's key of this generator's answer to ``context`` (:func:`cache_key`);
    :func:`generate` stores under it and :func:`is_stored` looks it up."""
    return cache_key(
        generator.model_id,
        generator.file_sha256,
        context.ids_sha256 or "",
        cfg.max_new_tokens,
        mode,
        sources,
        dtype,
    )


def is_stored(
    context: ContextStage,
    cfg: GenerationConfig,
    generator: AnyGenerator,
    cache_dir: str | Path | None = None,
) -> bool:
    """Would :func:`generate` replay the answer to ``context`` from the generation cache (no
    model call)? False when there is nothing to send, for an endpoint generator (its replies are
    keyed by the server) and for ids that are not this generator's."""
    params: dict[str, Any] = {"max_new_tokens": cfg.max_new_tokens, "citations": cfg.citations}
    if _nothing_to_send(context, cfg, params) is not None or isinstance(
        generator, EndpointGenerator
    ):
        return False
    params["dtype"] = generator_dtype(generator)
    if _wrong_ids(context, generator, params) is not None:
        return False
    mode, sources, _ = _citation_mode(context, cfg, generator, params)
    key = _answer_key(generator, context, cfg, mode, sources, params["dtype"])
    return generation_store(cache_dir).get(key) is not None


def _citation_mode(
    context: ContextStage, cfg: GenerationConfig, generator: LocalGenerator, params: dict[str, Any]
) -> tuple[str, list[int], list[Notice]]:
    """The citation mode actually used (``free`` when the generator cannot enforce), the source
    numbers a citation may use and the notes saying so; records both in ``params``."""
    notes: list[Notice] = []
    mode = cfg.citations
    if mode == "enforced" and not generator.takes_logits_processors:
        mode = "free"
        params["citations"] = "free"
        notes.append(notice(GENERATION_NOT_ENFORCED, model=generator.model_id))
    sources = sorted({s.n for s in context.sources if s.n is not None})
    if mode == "enforced":
        params["cite_sources"] = sources
    return mode, sources, notes


def _nothing_to_send(
    context: ContextStage, cfg: GenerationConfig, params: dict[str, Any]
) -> GenerationStage | None:
    """A ``skipped`` stage when generation is off or the context holds no source, else None."""
    if cfg.model == "none":
        return _stage("skipped", None, notice(GENERATION_OFF), params=params)
    if context.status != "ok" or not context.input_ids:
        if context.notice is not None:
            why = context.notice
        elif context.notices and len(context.notices) == 1:
            why = context.notices[0]
        else:
            why = notice(GENERATION_CONTEXT_STATUS, status=context.status)
        return _stage("skipped", cfg.model, notice(GENERATION_NO_PROMPT, why=why), params=params)
    if not any(s.n is not None for s in context.sources):
        return _stage("skipped", cfg.model, notice(GENERATION_NO_SOURCE_FITS), params=params)
    return None


def _wrong_ids(
    context: ContextStage, generator: LocalGenerator, params: dict[str, Any]
) -> GenerationStage | None:
    """An ``error`` stage when the context was not measured with this model's tokenizer or its
    ids were altered, else None."""
    if context.tokenizer is None or not context.tokenizer.startswith(generator.model_id):
        why = notice(
            GENERATION_WRONG_TOKENIZER, tokenizer=context.tokenizer, model=generator.model_id
        )
        return _stage("error", generator.model_id, why, params=params)
    if ids_sha256(list(context.input_ids)) != context.ids_sha256:
        return _stage("error", generator.model_id, notice(GENERATION_IDS_ALTERED), params=params)
    return None


#: Timing fields stored with a generation and copied into the stage's params.
TIMING_KEYS = ("prefill_seconds", "decode_seconds", "prefill_tokens_per_s", "decode_tokens_per_s")


def _replay(
    store: JsonStore,
    key: str,
    generator: LocalGenerator,
    ids: list[int],
    params: dict[str, Any],
    notes: list[Notice],
) -> GenerationStage | None:
    """The stored generation under ``key`` as an ``ok`` stage with ``cached=True``, or None."""
    t0 = time.perf_counter()
    hit = store.get(key)
    if hit is None:
        return None
    timing = {k: hit[k] for k in TIMING_KEYS if hit.get(k) is not None}
    cut = bool(hit.get("cut", False))
    capped = [notice(GENERATION_MAX_TOKENS, limit=params["max_new_tokens"])] if cut else []
    said = joined([notice(GENERATION_REPLAYED, seconds=hit["seconds"]), *capped, *notes])
    return GenerationStage(
        "ok",
        generator.model_id,
        answer=hit["answer"],
        seconds=hit["seconds"],
        input_tokens=len(ids),
        output_tokens=hit["output_tokens"],
        model_sha256=generator.file_sha256,
        params={
            **params,
            **timing,
            "cut": cut,
            "replay_ms": round((time.perf_counter() - t0) * 1000, 2),
        },
        cached=True,
        notice=said,
    )


def _fresh(
    store: JsonStore,
    key: str,
    generator: LocalGenerator,
    ids: list[int],
    cfg: GenerationConfig,
    mode: str,
    sources: list[int],
    params: dict[str, Any],
    notes: list[Notice],
    on_text: Callable[[str], None] | None,
    refusal: str = REFUSAL_TEXT,
    cancelled: Callable[[], bool] | None = None,
    read: Segments | None = None,
) -> GenerationStage:
    """Generate now (timing prefill and decode where the generator can), store, and report
    (``refusal``: what the enforced grammar lets the answer be instead of cited sentences)."""
    kwargs: dict[str, Any] = {}
    if on_text is not None and generator.takes_logits_processors:
        kwargs["on_text"] = on_text
    timing: dict[str, Any] = {}
    if generator.measures_first_token:
        kwargs["timing"] = timing
    if cancelled is not None and generator.takes_cancelled:
        kwargs["cancelled"] = cancelled
    if read is not None and isinstance(generator, Generator):  # reads its answer as it writes
        kwargs["segments"] = read
    processor = None
    try:
        if mode == "enforced":
            processor = citation_processor(
                generator, sources, len(ids), cfg.max_new_tokens, refusal
            )
            kwargs["logits_processors"] = [processor]
        answer, new_ids, seconds = generator.generate_ids(ids, cfg.max_new_tokens, **kwargs)
    except Exception as exc:  # noqa: BLE001 - a failed generation is a stage result, not a crash
        why = notice(GENERATION_FAILED, kind=type(exc).__name__, error=str(exc))
        return _stage(
            "error", generator.model_id, why, params=params, model_sha256=generator.file_sha256
        )
    if timing:
        timing.update(
            rates(len(ids), len(new_ids), timing["prefill_seconds"], timing["decode_seconds"])
        )
        timing = {k: round(v, 4) if isinstance(v, float) else v for k, v in timing.items()}
    stopped = bool(new_ids) and new_ids[-1] in generator.eos_ids
    # enforced: the grammar closes a sentence near the cap, so "stopped" proves nothing there
    cut = processor.cut if processor is not None else not stopped
    store.put(
        key,
        {
            "answer": answer,
            "seconds": seconds,
            "output_tokens": len(new_ids),
            "new_ids": new_ids,
            "input_tokens": len(ids),
            "model_id": generator.model_id,
            "citations": mode,
            "dtype": params["dtype"],
            "cut": cut,
            **timing,
        },
    )
    said = joined([*_speed(new_ids, seconds, timing, cfg.max_new_tokens, cut), *notes])
    return GenerationStage(
        "ok",
        generator.model_id,
        answer=answer,
        seconds=seconds,
        input_tokens=len(ids),
        output_tokens=len(new_ids),
        model_sha256=generator.file_sha256,
        params={**params, **timing, "cut": cut},
        cached=False,
        notice=said,
    )


def _speed(
    new_ids: list[int], seconds: float, timing: dict[str, Any], limit: int, cut: bool
) -> list[Notice]:
    """How fast the answer came ("12 tokens in 3.1 s (3.9 tokens/s; prefill 2.6 s at 370
    tokens/s, decode 11.2 tokens/s)"), then, when ``max_new_tokens`` cut the answer (the
    model did not end it), that it did."""
    facts: dict[str, Any] = {
        "tokens": len(new_ids),
        "seconds": seconds,
        "rate": len(new_ids) / max(seconds, 1e-9),
    }
    code = GENERATION_SPEED
    if timing.get("prefill_tokens_per_s"):
        code = GENERATION_SPEED_PREFILL
        facts["prefill_seconds"] = timing["prefill_seconds"]
        facts["prefill_rate"] = timing["prefill_tokens_per_s"]
        if timing.get("decode_tokens_per_s"):
            code = GENERATION_SPEED_PREFILL_DECODE
            facts["decode_rate"] = timing["decode_tokens_per_s"]
    parts = [notice(code, **facts)]
    return [*parts, notice(GENERATION_MAX_TOKENS, limit=limit)] if cut else parts


#: How many of the latest generations calibrate :func:`estimate_seconds`.
ESTIMATE_RUNS = 20


def estimate_seconds(
    prompt_tokens: int,
    model_id: str,
    *,
    cache_dir: str | Path | None = None,
    runs: int = ESTIMATE_RUNS,
    dtype: str | None = None,
) -> tuple[float, int] | None:
    """``(seconds, n_runs)``: the expected generation time for a prompt of ``prompt_tokens``.

    Ratio estimator over this machine's latest ``runs`` generations of
    ``model_id`` (as stored in the generation cache): ``Σ seconds / Σ
    input_tokens × prompt_tokens``. Prefill dominates on CPU (a 931-token
    prompt costs ~10 s on 2 cores, docs/MODELS.md), so time grows with the
    prompt. ``dtype`` (``float32``, ``bfloat16``) keeps only the generations
    made in that precision (rows stored before the dtype existed are
    float32). None when no generation of this model was measured yet.
    """
    if isinstance(prompt_tokens, bool) or not isinstance(prompt_tokens, int) or prompt_tokens < 0:
        raise ValueError(f"prompt_tokens = {prompt_tokens!r} must be an integer >= 0")
    rows = [
        r
        for r in generation_store(cache_dir).recent(runs * 5)
        if isinstance(r, dict)
        and r.get("model_id") == model_id
        and r.get("input_tokens")
        and r.get("seconds")
        and (dtype is None or r.get("dtype", "float32") == dtype)
    ][:runs]
    if not rows:
        return None
    rate = sum(float(r["seconds"]) for r in rows) / sum(int(r["input_tokens"]) for r in rows)
    return rate * prompt_tokens, len(rows)
