"""``openai:MODEL`` as a generator: the prompt tokenizer it found, the judge's ``P(yes)``, the
streamed greedy completion (:class:`EndpointGenerator`, :func:`make_endpoint_generator`).

Every shape a reply can take is read, not trusted: a field of the wrong type is
``endpoint.malformed`` naming the field, an answer longer than :data:`MAX_ANSWER_CHARS` is
``endpoint.answer_too_long`` (the request is closed at once), a ``top_logprobs`` value that is
not a finite number ≤ 0 is ``endpoint.bad_logprob``; no reply raises anything but
:class:`~.client.EndpointError`.
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...config_checks import ENDPOINT_PREFIX as PREFIX
from ...config_checks import is_endpoint_model
from ...wording import declare, notice
from ..generators import PLAIN_TEMPLATE
from .client import (
    DONE,
    ENDPOINT_HTTP_ERROR,
    ENDPOINT_MALFORMED,
    ENDPOINT_TRUNCATED,
    EndpointClient,
    EndpointError,
    Timeouts,
)
from .tokenizer import ServerTokenizer

#: The server returned no ``top_logprobs`` for the judge's one token.
ENDPOINT_NO_LOGPROBS = declare("endpoint.no_logprobs")
ENDPOINT_BAD_LOGPROB = declare("endpoint.bad_logprob", "token", "value")
ENDPOINT_ANSWER_TOO_LONG = declare("endpoint.answer_too_long", "cap")

#: The longest answer read from a server (characters; ``generation.max_new_tokens`` ≤ 2,048
#: tokens is about 8,000): a server that does not stop at ``max_tokens`` is cut off here.
MAX_ANSWER_CHARS = 20_000
#: The longest ``system_fingerprint`` kept (characters).
_FINGERPRINT_CHARS = 200
#: A logprob a little above 0 is float rounding and reads as 0; above this it is refused.
_LOGPROB_SLACK = 1e-6


@dataclass
class EndpointReply:
    """What one request returned: the text, the server's counts and what was sent."""

    text: str
    prompt_tokens: int | None
    completion_tokens: int | None
    finish_reason: str | None
    fingerprint: str | None
    sent_as: str
    seconds: float
    first_token_seconds: float | None


def is_refusal(exc: EndpointError) -> bool:
    """Did the server refuse the request's form (HTTP 400/422), not fail on it?"""
    return exc.notice.code == ENDPOINT_HTTP_ERROR and exc.notice.params.get("status") in (400, 422)


class EndpointGenerator:
    """``openai:MODEL`` at an endpoint, with the prompt tokenizer it could find.

    Used by the context stage as its tokenizer when :attr:`exact` (ids known);
    otherwise the context counts with the fallback tokenizer and :meth:`complete`
    sends the messages to the chat route.
    """

    is_fallback = False

    def __init__(
        self,
        name: str,
        client: EndpointClient,
        *,
        local_tokenizer: Any = None,
        server_tokenizer: ServerTokenizer | None = None,
    ) -> None:
        if not is_endpoint_model(name) or not name[len(PREFIX) :].strip():
            raise ValueError(f"endpoint model {name!r} must be openai:MODEL")
        self.name = name
        self.model_id = name
        self.served_model = name[len(PREFIX) :]
        self.client = client
        self.dtype: str | None = None
        self.file_sha256: str | None = None
        self._local = local_tokenizer
        self._server = server_tokenizer
        self.tokenizer_source = (
            "local" if local_tokenizer is not None else "server" if server_tokenizer else "unknown"
        )
        self.exact = self.tokenizer_source != "unknown"
        self.chat_template = (
            getattr(local_tokenizer, "chat_template", None) if local_tokenizer is not None else None
        )
        self._lock = threading.RLock()
        self._ids_refused = False
        self._reports: tuple[Any, Any] | None = None

    @property
    def template_label(self) -> str:
        if self.tokenizer_source == "server":
            return "server tokenizer and template"
        if self.chat_template:
            return "chat template"
        return "plain template (tokenizer has no chat template)"

    # ---- the PromptTokenizer interface (exact modes only)

    def prompt_text(self, system: str, user: str) -> str:
        if self._server is not None:
            return self._server.render(system, user)
        if self._local is None:
            raise ValueError(f"{self.name}: the server's tokenizer is unknown")
        if not self.chat_template:
            return PLAIN_TEMPLATE.format(system=system, user=user)
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        with self._lock:
            return str(
                self._local.apply_chat_template(
                    messages, tokenize=False, add_generation_prompt=True
                )
            )

    def encode(self, text: str) -> list[int]:
        if self._server is not None:
            return self._server.encode(text)
        with self._lock:
            return list(self._local(text, add_special_tokens=False, verbose=False)["input_ids"])

    def encode_offsets(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        if self._server is not None:
            return self._server.encode_offsets(text)
        with self._lock:
            enc = self._local(
                text, add_special_tokens=False, return_offsets_mapping=True, verbose=False
            )
        return list(enc["input_ids"]), [tuple(o) for o in enc["offset_mapping"]]

    def decode(self, ids: Sequence[int], *, skip_special_tokens: bool = False) -> str:
        if self._server is not None:
            return self._server.decode(ids)
        with self._lock:
            return str(self._local.decode(list(ids), skip_special_tokens=skip_special_tokens))

    # ---- the judge interface (rag_core.answer.support, ``support.judge``)

    def p_yes(self, system: str, user: str) -> float:
        """``P(yes) = Σ p(yes) / (Σ p(yes) + Σ p(no))`` over the first answer token's
        ``top_logprobs`` (tokens that read ``yes``/``no`` once stripped and lower-cased); 0.5
        when neither is among them.

        Raises:
            EndpointError: The request failed, the server returned no logprobs
                (``endpoint.no_logprobs``) or one that is not a log-probability
                (``endpoint.bad_logprob``).
        """
        common = {"model": self.served_model, "max_tokens": 1, "temperature": 0}
        if self.exact:
            ids = self.encode(self.prompt_text(system, user))
            prompt: Any = ids if not self._ids_refused else self.decode(ids)
            body = self.client.request_json(
                "POST",
                "/v1/completions",
                {**common, "prompt": prompt, "logprobs": 20},
                model=self.served_model,
            )
            top = _completion_top(body)
        else:
            messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
            body = self.client.request_json(
                "POST",
                "/v1/chat/completions",
                {**common, "messages": messages, "logprobs": True, "top_logprobs": 20},
                model=self.served_model,
            )
            top = _chat_top(body)
        if not top:
            raise EndpointError(notice(ENDPOINT_NO_LOGPROBS))
        probs = {tok: _probability(tok, lp) for tok, lp in top.items()}
        yes = sum(p for tok, p in probs.items() if tok.strip().lower() == "yes")
        no = sum(p for tok, p in probs.items() if tok.strip().lower() == "no")
        return yes / (yes + no) if yes + no > 0 else 0.5

    # ---- constrained decoding (rag_core.answer.endpoint_grammar)

    def server_reports(self) -> tuple[Any, Any]:
        """The bodies of ``GET /props`` (llama.cpp) and ``GET /version`` (vLLM), None where
        the route failed; asked once per generator."""
        with self._lock:
            if self._reports is None:
                found: list[Any] = []
                for route in ("/props", "/version"):
                    try:
                        found.append(self.client.request_json("GET", route, model=self.model_id))
                    except EndpointError:
                        found.append(None)
                self._reports = (found[0], found[1])
            return self._reports

    # ---- requests

    def complete(
        self,
        *,
        ids: Sequence[int] | None,
        prompt_text: str | None,
        messages: list[dict[str, str]] | None,
        max_new_tokens: int,
        on_text: Callable[[str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> EndpointReply:
        """Greedy (``temperature: 0``) completion, streamed (``extra``: more request fields,
        e.g. a grammar, ``rag_core.answer.endpoint_grammar``).

        ``ids`` go to ``/v1/completions`` as a list of ints; a server that refuses them
        (HTTP 400/422) gets ``prompt_text`` on the same route; without ids,
        ``messages`` go to ``/v1/chat/completions``. ``on_text`` receives each piece;
        if it raises, the request is closed (cancelled) and the error re-raised.
        """
        common = {
            "model": self.served_model,
            "max_tokens": max_new_tokens,
            "temperature": 0,
            "stream": True,
            "stream_options": {"include_usage": True},
            **(extra or {}),
        }
        refused = False
        if ids is not None and not self._ids_refused:
            try:
                return self._stream(
                    "/v1/completions",
                    {**common, "prompt": list(ids)},
                    "token ids",
                    on_text,
                    cancelled,
                )
            except EndpointError as exc:
                if not is_refusal(exc):
                    raise
                refused = True
        if ids is not None and prompt_text is not None:
            reply = self._stream(
                "/v1/completions", {**common, "prompt": prompt_text}, "text", on_text, cancelled
            )
        elif messages is None:
            raise ValueError("nothing to send: no ids, no prompt text, no messages")
        else:
            reply = self._stream(
                "/v1/chat/completions",
                {**common, "messages": messages},
                "chat messages",
                on_text,
                cancelled,
            )
        # Remembered only once the same request as text was taken: with ``extra`` fields a
        # refusal may have been of those (a grammar), not of the ids.
        self._ids_refused = self._ids_refused or refused
        return reply

    def _stream(
        self,
        route: str,
        body: dict[str, Any],
        sent_as: str,
        on_text: Callable[[str], None] | None,
        cancelled: Callable[[], bool] | None,
    ) -> EndpointReply:
        t0 = time.perf_counter()
        first: float | None = None
        said = _Said()
        chat = route.endswith("chat/completions")
        done = False
        events = self.client.stream_events(
            route, body, model=self.served_model, cancelled=cancelled
        )
        with contextlib.closing(events):  # on_text raising closes the request at once
            for event in events:
                if event == DONE:
                    done = True
                    continue
                _take(event, chat, said, on_text)
                if first is None and said.pieces:
                    first = time.perf_counter() - t0
        if not done and said.finish is None:  # no [DONE] and no finish_reason: it was cut
            raise EndpointError(notice(ENDPOINT_TRUNCATED))
        return EndpointReply(
            text="".join(said.pieces).strip(),
            prompt_tokens=_count(said.usage.get("prompt_tokens")),
            completion_tokens=_count(said.usage.get("completion_tokens")),
            finish_reason=said.finish,
            fingerprint=said.fingerprint,
            sent_as=sent_as,
            seconds=time.perf_counter() - t0,
            first_token_seconds=first,
        )


@dataclass
class _Said:
    """What a streamed reply has said so far."""

    pieces: list[str] = field(default_factory=list)
    chars: int = 0
    usage: dict[str, Any] = field(default_factory=dict)
    finish: str | None = None
    fingerprint: str | None = None


def _malformed(what: str) -> EndpointError:
    return EndpointError(notice(ENDPOINT_MALFORMED, what=what))


def _take(event: Any, chat: bool, said: _Said, on_text: Callable[[str], None] | None) -> None:
    """Read one SSE object into ``said``: its text pieces (handed to ``on_text``), usage,
    finish reason and fingerprint; a field of the wrong type is ``endpoint.malformed``."""
    if not isinstance(event, dict):
        raise _malformed("an SSE event is not an object")
    if isinstance(event.get("usage"), dict):
        said.usage.update(event["usage"])
    fingerprint = event.get("system_fingerprint")
    if isinstance(fingerprint, (str, int)) and not isinstance(fingerprint, bool) and fingerprint:
        said.fingerprint = str(fingerprint)[:_FINGERPRINT_CHARS]
    choices = event.get("choices")
    if choices is None:
        return
    if not isinstance(choices, list):
        raise _malformed("choices is not a list")
    for choice in choices:
        if not isinstance(choice, dict):
            raise _malformed("a choice is not an object")
        piece = _piece(choice, chat)
        if piece:
            said.chars += len(piece)
            if said.chars > MAX_ANSWER_CHARS:
                raise EndpointError(notice(ENDPOINT_ANSWER_TOO_LONG, cap=MAX_ANSWER_CHARS))
            said.pieces.append(piece)
            if on_text is not None:
                on_text(piece)
        reason = choice.get("finish_reason")
        if reason is not None and not isinstance(reason, str):
            raise _malformed("finish_reason is not a string")
        said.finish = reason or said.finish


def _piece(choice: dict[str, Any], chat: bool) -> str | None:
    """The text one choice adds (``delta.content`` for chat, ``text`` for completions)."""
    if chat:
        delta = choice.get("delta")
        if delta is None:
            return None
        if not isinstance(delta, dict):
            raise _malformed("a delta is not an object")
        piece = delta.get("content")
    else:
        piece = choice.get("text")
    if piece is not None and not isinstance(piece, str):
        raise _malformed("text is not a string")
    return piece


def _completion_top(body: Any) -> dict[str, Any]:
    """``{token: logprob}`` of the first token of a ``/v1/completions`` reply (empty: none)."""
    try:
        top = body["choices"][0]["logprobs"]["top_logprobs"][0]
    except (KeyError, IndexError, TypeError):
        return {}
    return {str(k): v for k, v in top.items()} if isinstance(top, dict) else {}


def _chat_top(body: Any) -> dict[str, Any]:
    """``{token: logprob}`` of the first token of a ``/v1/chat/completions`` reply."""
    try:
        rows = body["choices"][0]["logprobs"]["content"][0]["top_logprobs"]
        return {str(r["token"]): r["logprob"] for r in rows}
    except (KeyError, IndexError, TypeError):
        return {}


def _probability(token: str, logprob: Any) -> float:
    """``exp(logprob)`` of a JSON number that is a log-probability (finite or −inf, ≤ 0 up to
    rounding); anything else is ``endpoint.bad_logprob``."""
    real = isinstance(logprob, (int, float)) and not isinstance(logprob, bool)
    if not real or logprob != logprob or logprob > _LOGPROB_SLACK:  # NaN is not itself
        shown = repr(logprob)
        shown = shown if len(shown) <= 40 else shown[:39] + "…"
        raise EndpointError(notice(ENDPOINT_BAD_LOGPROB, token=token[:40], value=shown))
    return math.exp(min(max(logprob, -1000), 0))  # exp(-1000) is 0.0; no float() of a huge int


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def make_endpoint_generator(
    name: str,
    url: str,
    *,
    api_key_env: str = "",
    tokenizer: str = "",
    timeouts: Timeouts | None = None,
    load_tokenizer: Callable[[str], Any] | None = None,
) -> EndpointGenerator:
    """An :class:`EndpointGenerator` with the best tokenizer found.

    ``tokenizer`` (a hub id or folder, loaded by ``load_tokenizer``) wins; else the
    server's ``/tokenize`` when it answers; else ``unknown``. Nothing is asked of the
    server for the model itself here: a wrong model fails on the request.

    Raises:
        ModelUnavailable: ``tokenizer`` names a tokenizer that cannot be loaded offline.
        ValueError: The URL or key variable name is not valid.
    """
    client = EndpointClient(url, api_key_env, timeouts)
    served = name[len(PREFIX) :] if is_endpoint_model(name) else name
    if tokenizer.strip():
        if load_tokenizer is None:
            raise ValueError("a tokenizer name was given but no loader")
        return EndpointGenerator(name, client, local_tokenizer=load_tokenizer(tokenizer.strip()))
    server = ServerTokenizer(client, served)
    if server.probe():
        return EndpointGenerator(name, client, server_tokenizer=server)
    return EndpointGenerator(name, client)
