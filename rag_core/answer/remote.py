"""Generation through an OpenAI-compatible endpoint (``generation.model = openai:MODEL``).

The stage the in-process generator makes, from a server: greedy (``temperature: 0``),
streamed into the same ``on_text`` listener, cached by endpoint, model, prompt and
decoding parameters. ``params`` record what was sent (``sent_as``: token ids, text or
chat messages), where the prompt's tokens were counted (``tokenizer_source``: ``local``,
``server`` or ``unknown``), our count and the server's ``usage.prompt_tokens``
(``prompt_tokens_ours``, ``prompt_tokens_server``, ``prompt_tokens_match``), the
server's ``system_fingerprint`` and the time to the first piece of text.

A failed request is a stage result: ``unavailable`` with
``generation.endpoint_failed`` naming the endpoint (its URL, which never holds a key)
and the cause (``rag_core.models.endpoint``). Enforced citations go to the server's
constrained decoding (``generation.endpoint_grammar``, :mod:`.endpoint_grammar`): a
llama.cpp GBNF ``grammar`` or a vLLM regex; ``params["citations"]`` is ``enforced`` only
when the rule was sent *and* the answer follows it, else ``free`` with a note saying why
(no grammar for this server, the server refused the field, or ignored it).

Cache key: ``sha256(["endpoint", url, model, ids sha256 | sha256(system, user),
max_new_tokens, "greedy"])``, plus ``["enforced", grammar kind, GRAMMAR_VERSION,
SERVER_RULE_VERSION, sources]`` when a grammar is sent; a server's fingerprint, when given,
is stored with the answer and shown on replay.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from rag_core.config import GenerationConfig
from rag_core.hashing import ids_sha256, sha256_text
from rag_core.models.endpoint import EndpointError, EndpointGenerator
from rag_core.models.endpoint.generator import EndpointReply, is_refusal
from rag_core.models.store import JsonStore
from rag_core.types import ContextStage, GenerationStage, Notice
from rag_core.wording import declare, english, joined, notice

from .citations import GRAMMAR_VERSION
from .context import CONTEXT_FALLBACK_TOKENIZER
from .endpoint_grammar import SERVER_RULE_VERSION, follows_rule, grammar_fields, kind_of_server
from .prompt import refusal_of

#: Why an endpoint made no answer (``GenerationStage.notice``): ``cause`` is the
#: endpoint's own notice (``rag_core.models.endpoint``).
GENERATION_ENDPOINT_FAILED = declare("generation.endpoint_failed", "endpoint", "cause")
#: The context stage's caveat when the server's tokenizer is unknown (replaces the
#: fallback tokenizer's notice).
CONTEXT_ENDPOINT_TOKENIZER_UNKNOWN = declare("context.endpoint_tokenizer_unknown", "tokenizer")

#: Declared in ``rag_core.answer.generation`` too (the same codes, raised here for endpoints).
GENERATION_WRONG_TOKENIZER = declare("generation.wrong_tokenizer", "tokenizer", "model")
GENERATION_FAILED = declare("generation.failed", "kind", "error")
GENERATION_REPLAYED = declare("generation.replayed", "seconds")
GENERATION_MAX_TOKENS = declare("generation.max_tokens_reached", "limit")

#: What an endpoint's answer says (``GenerationStage.notice``): how many tokens came from
#: where, our prompt count beside the server's, and why citations fell back to free.
ENDPOINT_SPEED = declare("endpoint.speed", "tokens", "seconds", "endpoint")
ENDPOINT_COUNT_EQUAL = declare("endpoint.count.equal", "ours", "server")
ENDPOINT_COUNT_DIFFERENT = declare("endpoint.count.different", "ours", "server")
ENDPOINT_COUNT_UNREPORTED = declare("endpoint.count.unreported", "ours")
ENDPOINT_COUNT_APPROXIMATE = declare("endpoint.count.approximate", "ours", "server")
ENDPOINT_COUNT_APPROXIMATE_UNREPORTED = declare("endpoint.count.approximate_unreported", "ours")
ENDPOINT_FREE_NO_GRAMMAR = declare("endpoint.citations_free.no_grammar", "endpoint", "grammar")
ENDPOINT_FREE_GRAMMAR_NONE = declare("endpoint.citations_free.grammar_none", "endpoint")
ENDPOINT_FREE_NOT_FOLLOWED = declare("endpoint.citations_free.not_followed", "endpoint", "kind")
ENDPOINT_FREE_REFUSED = declare(
    "endpoint.citations_free.refused", "endpoint", "kind", "status", "detail"
)
#: A citations note stored as text by an older version (a cached answer's).
ENDPOINT_NOTE = declare("endpoint.note", "text")

DECODING = "greedy"


def endpoint_cache_key(
    endpoint: str, model: str, prompt_hash: str, max_new_tokens: int, cite: list[Any] | None = None
) -> str:
    """``sha256(["endpoint", endpoint, model, prompt_hash, max_new_tokens, "greedy", *cite])``
    (``cite``: ``["enforced", kind, grammar version, server rule version, sources]`` when
    a grammar is sent)."""
    payload = json.dumps(
        ["endpoint", endpoint, model, prompt_hash, max_new_tokens, DECODING, *(cite or [])]
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def grammar_kind(generator: EndpointGenerator, setting: str) -> str:
    """The grammar kind to send: ``setting`` itself, or for ``auto`` what the server's
    ``/props`` and ``/version`` say (:func:`.endpoint_grammar.kind_of_server`)."""
    if setting != "auto":
        return setting
    return kind_of_server(*generator.server_reports())


def _stored_note(rec: dict[str, Any]) -> Notice | None:
    """The citations note of a stored reply: its notice, or (stored as text by an older
    version) the text as ``endpoint.note``."""
    stored = rec.get("citations_notice")
    if isinstance(stored, dict) and isinstance(stored.get("params"), dict):
        try:
            return notice(str(stored.get("code")), **stored["params"])
        except ValueError:
            pass
    text = rec.get("citations_note")
    return notice(ENDPOINT_NOTE, text=str(text)) if text else None


def _failed(generator: EndpointGenerator, cause: Notice, params: dict[str, Any]) -> GenerationStage:
    why = notice(GENERATION_ENDPOINT_FAILED, endpoint=generator.client.url, cause=cause)
    return GenerationStage("unavailable", generator.model_id, notice=why, params=params)


@dataclass(frozen=True)
class _Rule:
    """The citation rule as this request sends it (``extra`` empty: none is sent).

    Attributes:
        sources: The source numbers a citation may name.
        refusal: The exact refusal sentence of the prompt.
        kind: The grammar kind sent (``none`` when no rule is sent).
        extra: The request fields carrying the rule.
        why_free: Why enforced citations run free before any request (``no_grammar``,
            ``grammar_none``), else None.
        note: The notice saying ``why_free``.
    """

    sources: list[int]
    refusal: str
    kind: str
    extra: dict[str, Any]
    why_free: str | None = None
    note: Notice | None = None

    def cache_part(self) -> list[Any] | None:
        """What of the rule enters the cache key (None when no rule is sent)."""
        if not self.extra:
            return None
        return ["enforced", self.kind, GRAMMAR_VERSION, SERVER_RULE_VERSION, self.sources]


def _rule(context: ContextStage, cfg: GenerationConfig, generator: EndpointGenerator) -> _Rule:
    """The rule to send for ``cfg.citations`` and ``cfg.endpoint_grammar``."""
    sources = sorted({s.n for s in context.sources if s.n is not None})
    refusal = refusal_of(context.system_text)
    kind = "none"
    if cfg.citations == "enforced" and sources:
        try:
            kind = grammar_kind(generator, cfg.endpoint_grammar)
        except Exception:  # noqa: BLE001 - an unreadable probe means: no grammar
            kind = "none"
    extra = grammar_fields(kind, sources, refusal)
    if cfg.citations != "enforced" or extra:
        return _Rule(sources, refusal, kind, extra)
    url = generator.client.url
    if cfg.endpoint_grammar == "none":
        why, note = "grammar_none", notice(ENDPOINT_FREE_GRAMMAR_NONE, endpoint=url)
    else:
        why = "no_grammar"
        note = notice(ENDPOINT_FREE_NO_GRAMMAR, endpoint=url, grammar=cfg.endpoint_grammar)
    return _Rule(sources, refusal, kind, extra, why, note)


def _complete(
    generator: EndpointGenerator, request: dict[str, Any], rule: _Rule
) -> tuple[EndpointReply, dict[str, Any]]:
    """The reply, and how its citations came out: ``citations`` (``enforced`` only when the
    rule was sent and the answer follows it), the note saying why not (``citations_note``
    in English, ``citations_notice`` as code and params) and ``citations_why``."""
    if not rule.extra:
        return generator.complete(**request), {"citations": "free"}
    try:
        reply = generator.complete(**request, extra=rule.extra)
    except EndpointError as exc:
        if not is_refusal(exc):
            raise
        note = notice(
            ENDPOINT_FREE_REFUSED,
            endpoint=generator.client.url,
            kind=rule.kind,
            status=exc.notice.params.get("status"),
            detail=exc.notice.params.get("detail", ""),
        )
        return generator.complete(**request), _free(note, "refused")
    if follows_rule(reply.text, rule.sources, rule.refusal):
        return reply, {"citations": "enforced", "cite_sources": rule.sources}
    note = notice(ENDPOINT_FREE_NOT_FOLLOWED, endpoint=generator.client.url, kind=rule.kind)
    return reply, _free(note, "ignored")


def _free(note: Notice, why: str) -> dict[str, Any]:
    """The stored fields of an answer whose enforced citations ran free."""
    return {
        "citations": "free",
        "citations_note": english(note),
        "citations_notice": {"code": note.code, "params": dict(note.params)},
        "citations_why": why,
    }


def _record(
    reply: EndpointReply, generator: EndpointGenerator, ours: int, ids_sent: bool
) -> dict[str, Any]:
    """The stored form of one reply (what a replay shows)."""
    return {
        "answer": reply.text,
        "seconds": reply.seconds,
        "output_tokens": reply.completion_tokens,
        "input_tokens": ours if ids_sent else reply.prompt_tokens,
        "model_id": generator.model_id,
        "endpoint": generator.client.url,
        "sent_as": reply.sent_as,
        "prompt_tokens_ours": ours,
        "prompt_tokens_server": reply.prompt_tokens,
        "first_token_seconds": None
        if reply.first_token_seconds is None
        else round(reply.first_token_seconds, 4),
        "finish_reason": reply.finish_reason,
        "fingerprint": reply.fingerprint,
    }


def generate_remote(
    context: ContextStage,
    cfg: GenerationConfig,
    generator: EndpointGenerator,
    store: JsonStore,
    params: dict[str, Any],
    notes: list[Notice],
    *,
    use_cache: bool = True,
    on_text: Callable[[str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> GenerationStage:
    """The generation stage from ``generator``'s server (module docstring).

    ``context`` was measured with ``generator`` when it is :attr:`~EndpointGenerator.exact`
    (its ids are sent), else with the fallback tokenizer (the messages are sent).
    """
    params.update(
        endpoint=generator.client.url,
        tokenizer_source=generator.tokenizer_source,
        dtype=None,
    )
    if generator.exact and not _measured_with(context, generator):
        return _wrong_tokenizer(context, generator, params)
    ids = list(context.input_ids) if generator.exact else None
    prompt_hash = _prompt_hash(context, ids)
    rule = _rule(context, cfg, generator)
    if rule.why_free is not None and rule.note is not None:
        params["citations_why"] = rule.why_free
        notes = [*notes, rule.note]
    key = endpoint_cache_key(
        generator.client.url,
        generator.served_model,
        prompt_hash,
        cfg.max_new_tokens,
        rule.cache_part(),
    )
    if use_cache:
        hit = store.get(key)
        if isinstance(hit, dict):
            return _stage(generator, hit, params, notes, cached=True)
    request = _request(context, ids, cfg, on_text, cancelled)
    try:
        reply, cited = _complete(generator, request, rule)
    except EndpointError as exc:
        return _failed(generator, exc.notice, params)
    except Exception as exc:  # noqa: BLE001 - a failed generation is a stage result, not a crash
        return _crashed(generator, exc, params)
    record = _reply_record(reply, generator, context, ids, cited, rule)
    store.put(key, record)
    return _stage(generator, record, params, notes, cached=False)


def _measured_with(context: ContextStage, generator: EndpointGenerator) -> bool:
    """Whether ``context`` was measured with ``generator``'s own tokenizer (its ids can be sent)."""
    return context.tokenizer is not None and context.tokenizer.startswith(generator.model_id)


def _wrong_tokenizer(
    context: ContextStage, generator: EndpointGenerator, params: dict[str, Any]
) -> GenerationStage:
    """The error stage of a context measured with another tokenizer than the exact server's."""
    why = notice(GENERATION_WRONG_TOKENIZER, tokenizer=context.tokenizer, model=generator.model_id)
    return GenerationStage("error", generator.model_id, notice=why, params=params)


def _prompt_hash(context: ContextStage, ids: list[int] | None) -> str:
    """The prompt's part of the cache key: the ids' sha256, else that of (system, user)."""
    if ids is not None:
        return ids_sha256(ids)
    return sha256_text(json.dumps([context.system_text, context.user_text]))


def _request(
    context: ContextStage,
    ids: list[int] | None,
    cfg: GenerationConfig,
    on_text: Callable[[str], None] | None,
    cancelled: Callable[[], bool] | None,
) -> dict[str, Any]:
    """The arguments of ``generator.complete``: the ids and their text, else the messages."""
    return {
        "ids": ids,
        "prompt_text": context.actual_input_text if ids is not None else None,
        "messages": None
        if ids is not None
        else [
            {"role": "system", "content": context.system_text},
            {"role": "user", "content": context.user_text},
        ],
        "max_new_tokens": cfg.max_new_tokens,
        "on_text": on_text,
        "cancelled": cancelled,
    }


def _crashed(
    generator: EndpointGenerator, exc: Exception, params: dict[str, Any]
) -> GenerationStage:
    """The error stage of a request that failed other than as an :class:`EndpointError`
    (named by its endpoint all the same)."""
    crash = notice(GENERATION_FAILED, kind=type(exc).__name__, error=str(exc)[:200])
    why = notice(GENERATION_ENDPOINT_FAILED, endpoint=generator.client.url, cause=crash)
    return GenerationStage("error", generator.model_id, notice=why, params=params)


def _reply_record(
    reply: EndpointReply,
    generator: EndpointGenerator,
    context: ContextStage,
    ids: list[int] | None,
    cited: dict[str, Any],
    rule: _Rule,
) -> dict[str, Any]:
    """What the cache stores of a fresh reply: :func:`_record`, its citations and grammar."""
    ours = len(ids) if ids is not None else len(context.input_ids)
    return {
        **_record(reply, generator, ours, ids is not None),
        "citations_note": None,
        "citations_notice": None,
        "citations_why": None,
        **cited,
        "grammar": rule.kind if rule.extra else None,
    }


def _stage(
    generator: EndpointGenerator,
    rec: dict[str, Any],
    params: dict[str, Any],
    notes: list[Notice],
    *,
    cached: bool,
) -> GenerationStage:
    """An ``ok`` stage of one stored or fresh reply, with both prompt counts in ``params``."""
    ours, server = rec.get("prompt_tokens_ours"), rec.get("prompt_tokens_server")
    exact = generator.exact
    match = (ours == server) if (exact and server is not None) else None
    out = {
        **params,
        "sent_as": rec.get("sent_as"),
        "prompt_tokens_ours": ours,
        "prompt_tokens_ours_exact": exact,
        "prompt_tokens_server": server,
        "prompt_tokens_match": match,
        "first_token_seconds": rec.get("first_token_seconds"),
        "finish_reason": rec.get("finish_reason"),
        "cut": rec.get("finish_reason") == "length",
        "system_fingerprint": rec.get("fingerprint"),
        "citations": rec.get("citations") or "free",
        "endpoint_grammar": rec.get("grammar"),
        "citations_why": rec.get("citations_why") or params.get("citations_why"),
    }
    if rec.get("cite_sources") is not None:
        out["cite_sources"] = rec["cite_sources"]
    stored = _stored_note(rec)
    if stored is not None:
        notes = [*notes, stored]
    seconds = float(rec.get("seconds") or 0.0)
    said = [
        notice(GENERATION_REPLAYED, seconds=seconds)
        if cached
        else notice(
            ENDPOINT_SPEED,
            tokens=rec.get("output_tokens") or "?",
            seconds=seconds,
            endpoint=generator.client.url,
        )
    ]
    if rec.get("finish_reason") == "length":
        said.append(notice(GENERATION_MAX_TOKENS, limit=params.get("max_new_tokens")))
    said.append(_count(ours, server, exact, match))
    why = joined([*said, *notes])
    return GenerationStage(
        "ok",
        generator.model_id,
        answer=rec.get("answer"),
        seconds=seconds,
        input_tokens=rec.get("input_tokens"),
        output_tokens=rec.get("output_tokens"),
        params=out,
        cached=cached,
        notice=why,
    )


def _count(ours: Any, server: Any, exact: bool, match: bool | None) -> Notice:
    """Our prompt count beside the server's ``usage.prompt_tokens``."""
    if not exact:
        if server is None:
            return notice(ENDPOINT_COUNT_APPROXIMATE_UNREPORTED, ours=ours)
        return notice(ENDPOINT_COUNT_APPROXIMATE, ours=ours, server=server)
    if server is None:
        return notice(ENDPOINT_COUNT_UNREPORTED, ours=ours)
    return notice(
        ENDPOINT_COUNT_EQUAL if match else ENDPOINT_COUNT_DIFFERENT, ours=ours, server=server
    )


def approximate_counts(context: ContextStage) -> ContextStage:
    """``context`` with the fallback tokenizer's caveat replaced by
    ``context.endpoint_tokenizer_unknown`` (the server's tokenizer is unknown)."""
    if not context.notices:
        return context
    notices = tuple(
        notice(CONTEXT_ENDPOINT_TOKENIZER_UNKNOWN, tokenizer=n.params.get("tokenizer", "?"))
        if n.code == CONTEXT_FALLBACK_TOKENIZER
        else n
        for n in context.notices
    )
    return replace(context, notices=notices)


__all__ = [
    "CONTEXT_ENDPOINT_TOKENIZER_UNKNOWN",
    "GENERATION_ENDPOINT_FAILED",
    "approximate_counts",
    "endpoint_cache_key",
    "generate_remote",
]
