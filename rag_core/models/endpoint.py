"""A generator behind an OpenAI-compatible server: ``openai:MODEL`` at ``generation.endpoint``.

Any server that speaks the OpenAI completions/chat API works (vLLM, llama.cpp's
``llama-server``, Ollama's ``/v1``, TGI, LM Studio, ``transformers serve``, hosted
APIs). The client is the standard library's ``http.client``: one connection per
request, server-sent events read as they arrive.

**The prompt's tokens.** The product shows the exact prompt ids sent. An
:class:`EndpointGenerator` knows them in one of three ways (``tokenizer_source``):

* ``local`` — ``generation.tokenizer`` names a hub id or folder, loaded offline with
  ``AutoTokenizer``; the prompt is its chat template, rendered and tokenised here
  exactly as for an in-process model;
* ``server`` — the server's own ``/tokenize`` (vLLM: ``{"tokens": [...], "count": n}``;
  llama.cpp: ``{"tokens": [...]}``) and its template (llama.cpp ``/apply-template``, or
  vLLM ``/tokenize`` of the messages then ``/detokenize``);
* ``unknown`` — neither: the context stage counts with the stated fallback tokenizer,
  the messages go to ``/v1/chat/completions`` and the server applies its own template.

With known ids the request is ``/v1/completions`` with ``prompt`` = the list of ids
(vLLM, llama.cpp, OpenAI accept it); a server that refuses ids (HTTP 400/422, e.g.
``transformers serve``) gets the same prompt as text. The response's
``usage.prompt_tokens`` is compared with our count (``params`` of the stage).

**Failures are data.** Every failure raises :class:`EndpointError` whose ``notice``
names the cause (unreachable, TLS, 401/403, 404, 429, 5xx, malformed or cut body,
timeout, cancelled); the message never holds the API key: the key is read from the
environment variable named by ``generation.api_key_env`` at request time, sent only
in the ``Authorization`` header, and scrubbed from any text a server echoes back.

**Timeouts.** ``connect`` bounds the TCP (and TLS) connection, ``first_token`` the wait
from the request to the first piece of text, ``total`` the whole request: a watchdog
shuts the socket down at the total deadline, so a server that drips one byte at a
time cannot hold a request past it.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import math
import os
import re
import socket
import ssl
import threading
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..config import ENDPOINT_PREFIX as PREFIX
from ..config import check_endpoint_url, check_key_env, is_endpoint_model
from ..modelnames import key_env_usable
from ..types import Notice
from ..wording import declare, notice
from .generators import PLAIN_TEMPLATE

#: Why a request failed (``EndpointError.notice``).
ENDPOINT_UNREACHABLE = declare("endpoint.unreachable", "error")
ENDPOINT_TLS = declare("endpoint.tls", "error")
ENDPOINT_AUTH = declare("endpoint.auth", "status", "key_env")
ENDPOINT_NO_MODEL = declare("endpoint.no_model", "model", "status")
ENDPOINT_RATE_LIMITED = declare("endpoint.rate_limited", "retry_after")
ENDPOINT_SERVER_ERROR = declare("endpoint.server_error", "status", "detail")
ENDPOINT_HTTP_ERROR = declare("endpoint.http_error", "status", "detail")
ENDPOINT_MALFORMED = declare("endpoint.malformed", "what")
ENDPOINT_TRUNCATED = declare("endpoint.truncated")
ENDPOINT_TIMEOUT = declare("endpoint.timeout", "which", "seconds")
ENDPOINT_KEY_UNSET = declare("endpoint.key_unset", "key_env")
ENDPOINT_CANCELLED = declare("endpoint.cancelled")
ENDPOINT_NO_LOGPROBS = declare("endpoint.no_logprobs")

#: The longest error body quoted in a message (characters).
_DETAIL_CHARS = 200


@dataclass(frozen=True)
class Timeouts:
    """Seconds: the TCP/TLS ``connect``, the wait for the ``first_token``, the ``total`` request."""

    connect: float = 5.0
    first_token: float = 60.0
    total: float = 300.0


class EndpointError(Exception):
    """A request to an endpoint failed; ``notice`` says why (never with the API key)."""

    def __init__(self, cause: Notice) -> None:
        self.notice = cause
        super().__init__(cause.code)


def _scrub(text: str, secret: str | None, limit: int = _DETAIL_CHARS) -> str:
    """``text`` with ``secret`` replaced by ``***``, then cut to ``limit`` characters: the
    whole text is scrubbed before any cut, so no cut can leave the key's first characters."""
    if secret:
        text = text.replace(secret, "***")
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Watchdog:
    """Shuts a socket down at a deadline, or when ``cancelled()`` turns true, so that a
    blocked read returns; :attr:`reason` says which (``total``, ``cancelled``) or None."""

    POLL_S = 0.1

    def __init__(self, seconds: float, cancelled: Callable[[], bool] | None = None) -> None:
        self.reason: str | None = None
        self._deadline = time.monotonic() + max(seconds, 0.0)
        self._cancelled = cancelled
        self._sock: socket.socket | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="endpoint-watchdog", daemon=True)

    def arm(self, sock: socket.socket | None) -> None:
        self._sock = sock
        self._thread.start()

    def _watch(self) -> None:
        while not self._done.wait(min(self.POLL_S, max(self._deadline - time.monotonic(), 0))):
            if time.monotonic() >= self._deadline:
                self._fire("total")
                return
            if self._cancelled is not None and self._cancelled():
                self._fire("cancelled")
                return

    def _fire(self, reason: str) -> None:
        self.reason = reason
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)

    def cancel(self) -> None:
        self._done.set()


class EndpointClient:
    """JSON and server-sent-event requests to one OpenAI-compatible server.

    Args:
        url: The base URL (``http(s)://host:port/v1``); ``/tokenize`` and the other
            non-OpenAI routes are looked up at the server's root.
        api_key_env: Name of the environment variable holding the key ("" for none).
        timeouts: :class:`Timeouts`.
    """

    def __init__(self, url: str, api_key_env: str = "", timeouts: Timeouts | None = None) -> None:
        self.url = check_endpoint_url(url)
        self.api_key_env = check_key_env(api_key_env)
        self.timeouts = timeouts or Timeouts()
        parts = urlsplit(self.url)
        self._https = parts.scheme == "https"
        self._host = parts.hostname or ""
        self._port = parts.port
        self._base_path = parts.path.rstrip("/")
        root = self._base_path
        self._root_path = root[: -len("/v1")] if root.endswith("/v1") else root

    def __repr__(self) -> str:  # never the key
        return f"EndpointClient({self.url!r}, api_key_env={self.api_key_env!r})"

    # ------------------------------------------------------------- plumbing

    def _key(self) -> str | None:
        """The key, read now; one rule for every request (``modelnames.key_env_usable``): a
        variable another endpoint is listed with, or on a shared server one this endpoint is
        not listed with, reads the same as an unset one."""
        if not self.api_key_env:
            return None
        value = os.environ.get(self.api_key_env)
        if not value or not key_env_usable(self.url, self.api_key_env):
            raise EndpointError(notice(ENDPOINT_KEY_UNSET, key_env=self.api_key_env))
        return value

    def _path(self, route: str) -> str:
        """``/v1/…`` routes under the base URL; others (``/tokenize``) at the server's root."""
        if route.startswith("/v1/"):
            return self._base_path + route[3:]
        return self._root_path + route

    def _connect(self, timeout: float) -> http.client.HTTPConnection:
        try:
            if self._https:
                conn: http.client.HTTPConnection = http.client.HTTPSConnection(
                    self._host, self._port, timeout=timeout, context=ssl.create_default_context()
                )
            else:
                conn = http.client.HTTPConnection(self._host, self._port, timeout=timeout)
            conn.connect()
        except ssl.SSLError as exc:
            raise EndpointError(notice(ENDPOINT_TLS, error=_scrub(str(exc), None))) from None
        except TimeoutError:
            raise EndpointError(
                notice(ENDPOINT_TIMEOUT, which="connect", seconds=timeout)
            ) from None
        except OSError as exc:
            raise EndpointError(
                notice(ENDPOINT_UNREACHABLE, error=_scrub(f"{type(exc).__name__}: {exc}", None))
            ) from None
        return conn

    def _open(
        self,
        method: str,
        route: str,
        body: Any,
        *,
        model: str = "",
        cancelled: Callable[[], bool] | None = None,
    ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse, _Watchdog, str | None]:
        """Send one request; the connection, its response (status 2xx), the armed watchdog and
        the key (for scrubbing). Raises :class:`EndpointError` for every failure."""
        key = self._key()
        t0 = time.monotonic()
        total = self.timeouts.total
        conn = self._connect(min(self.timeouts.connect, total))
        dog = _Watchdog(total - (time.monotonic() - t0), cancelled)
        dog.arm(conn.sock)
        if conn.sock is not None:  # until the first byte of the reply
            conn.sock.settimeout(min(self.timeouts.first_token, total))
        headers = {"Accept": "application/json, text/event-stream", "User-Agent": "rag-inspector"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        payload = None
        if body is not None:
            payload = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        try:
            conn.request(method, self._path(route), body=payload, headers=headers)
            resp = conn.getresponse()
            if not 200 <= resp.status < 300:
                raw = resp.read(4096)
                text = raw.decode("utf-8", "replace")
                if key and len(raw) == 4096:  # the read may have cut a key: drop that tail
                    text = text.replace(key, "***")[: -len(key)]
                detail = _scrub(text, key)
                raise EndpointError(self._status_notice(resp, detail, model))
        except BaseException as exc:  # noqa: BLE001 - mapped to a cause, or re-raised as is
            dog.cancel()
            conn.close()
            raise self._read_failure(exc, dog, key) from None
        return conn, resp, dog, key

    def _status_notice(self, resp: http.client.HTTPResponse, detail: str, model: str) -> Notice:
        status = int(resp.status)
        if status in (401, 403):
            return notice(ENDPOINT_AUTH, status=status, key_env=self.api_key_env or "(none)")
        if status == 404:
            return notice(ENDPOINT_NO_MODEL, model=model or "?", status=status)
        if status == 429:
            return notice(ENDPOINT_RATE_LIMITED, retry_after=resp.getheader("Retry-After") or "?")
        if status >= 500:
            return notice(ENDPOINT_SERVER_ERROR, status=status, detail=detail or resp.reason)
        return notice(ENDPOINT_HTTP_ERROR, status=status, detail=detail or resp.reason)

    def _read_failure(self, exc: BaseException, dog: _Watchdog, key: str | None) -> BaseException:
        """The :class:`EndpointError` a failed read means (other exceptions pass unchanged)."""
        if isinstance(exc, EndpointError):
            return exc
        if dog.reason == "total":
            return EndpointError(
                notice(ENDPOINT_TIMEOUT, which="total", seconds=self.timeouts.total)
            )
        if dog.reason == "cancelled":
            return EndpointError(notice(ENDPOINT_CANCELLED))
        if isinstance(exc, (TimeoutError, socket.timeout)):
            return EndpointError(
                notice(ENDPOINT_TIMEOUT, which="first_token", seconds=self.timeouts.first_token)
            )
        if isinstance(exc, ssl.SSLError):
            return EndpointError(notice(ENDPOINT_TLS, error=_scrub(str(exc), key)))
        if isinstance(
            exc, (http.client.IncompleteRead, http.client.RemoteDisconnected, ConnectionError)
        ):
            return EndpointError(notice(ENDPOINT_TRUNCATED))
        if isinstance(exc, (http.client.HTTPException, OSError)):
            return EndpointError(
                notice(ENDPOINT_MALFORMED, what=_scrub(f"{type(exc).__name__}: {exc}", key))
            )
        return exc

    # --------------------------------------------------------------- public

    def request_json(self, method: str, route: str, body: Any = None, *, model: str = "") -> Any:
        """One JSON request → the decoded body."""
        conn, resp, dog, key = self._open(method, route, body, model=model)
        try:
            raw = resp.read()
        except BaseException as exc:  # noqa: BLE001 - mapped to a cause, or re-raised as is
            raise self._read_failure(exc, dog, key) from None
        finally:
            dog.cancel()
            conn.close()
        try:
            return json.loads(raw.decode("utf-8"))
        except ValueError:  # UnicodeDecodeError is one
            head = _scrub(raw.decode("utf-8", "replace"), key, 120)
            raise EndpointError(notice(ENDPOINT_MALFORMED, what=f"not JSON: {head!r}")) from None

    def stream_events(
        self,
        route: str,
        body: Any,
        *,
        model: str = "",
        cancelled: Callable[[], bool] | None = None,
    ) -> Generator[Any, None, None]:
        """POST ``body`` (with ``stream: true``) and yield each SSE ``data:`` JSON object.

        Yields :data:`DONE` for ``data: [DONE]`` and stops; a body that ends between events
        just stops (some servers, e.g. ``transformers serve``, send no ``[DONE]``: the caller
        checks that a ``finish_reason`` came), one that ends inside an event is
        ``truncated``, one that is no SSE at all ``malformed``. The
        first-token timeout runs until the first event, the total one throughout; when
        ``cancelled()`` turns true the connection is shut (the server sees the client go
        and stops generating) and ``cancelled`` is raised. Closing the generator early
        closes the connection too.
        """
        conn, resp, dog, key = self._open("POST", route, body, model=model, cancelled=cancelled)
        buffer = b""
        try:
            while True:
                chunk = resp.read1(65536)
                if not chunk:  # the body ended: cleanly between events, or not
                    if dog.reason is not None:
                        raise self._read_failure(ConnectionError(), dog, key)
                    rest = buffer.strip()
                    if rest and _sse_data(rest) is None:
                        head = _scrub(rest.decode("utf-8", "replace"), key, 80)
                        what = f"not an SSE stream: {head!r}"
                        raise EndpointError(notice(ENDPOINT_MALFORMED, what=what))
                    if rest:
                        raise EndpointError(notice(ENDPOINT_TRUNCATED))
                    return
                buffer = (buffer + chunk).replace(b"\r\n", b"\n")
                while b"\n\n" in buffer:
                    event, buffer = buffer.split(b"\n\n", 1)
                    data = _sse_data(event)
                    if data is None:
                        continue
                    if data.strip() == "[DONE]":
                        yield DONE
                        return
                    yield self._event(data, key)
                    if conn.sock is not None:  # the first token came: the total deadline rules
                        conn.sock.settimeout(None)
        except GeneratorExit:
            raise
        except BaseException as exc:  # noqa: BLE001 - mapped to a cause, or re-raised as is
            raise self._read_failure(exc, dog, key) from None
        finally:
            dog.cancel()
            conn.close()

    def _event(self, data: str, key: str | None) -> Any:
        try:
            obj = json.loads(data)
        except ValueError:
            what = f"an SSE event is not JSON: {_scrub(data, key, 80)!r}"
            raise EndpointError(notice(ENDPOINT_MALFORMED, what=what)) from None
        if isinstance(obj, dict) and "error" in obj:
            detail = _scrub(json.dumps(obj["error"], ensure_ascii=False), key)
            raise EndpointError(notice(ENDPOINT_SERVER_ERROR, status=200, detail=detail))
        return obj


#: What :meth:`EndpointClient.stream_events` yields for ``data: [DONE]``.
DONE = "[DONE]"


def _sse_data(event: bytes) -> str | None:
    """The joined ``data:`` lines of one SSE event (None for a comment or keep-alive)."""
    lines = [line[5:].lstrip(b" ") for line in event.split(b"\n") if line.startswith(b"data:")]
    if not lines:
        return None
    return b"\n".join(lines).decode("utf-8", "replace")


def list_models(url: str, api_key_env: str = "", *, timeout: float = 5.0) -> list[str]:
    """The model ids a server offers (``GET /v1/models`` → ``data[].id``), sorted.

    Raises:
        EndpointError: The server could not be asked (its notice says why).
        ValueError: ``url`` or ``api_key_env`` is not valid.
    """
    client = EndpointClient(url, api_key_env, Timeouts(timeout, timeout, timeout))
    body = client.request_json("GET", "/v1/models")
    rows = body.get("data") if isinstance(body, dict) else None
    if not isinstance(rows, list):
        raise EndpointError(notice(ENDPOINT_MALFORMED, what="/v1/models has no data list"))
    return sorted({str(r["id"]) for r in rows if isinstance(r, dict) and r.get("id")})


# ------------------------------------------------------------------ tokenizers


def _int_list(value: Any) -> list[int] | None:
    """Token ids from a /tokenize body: ints, or llama.cpp's ``{"id": …, "piece": …}`` rows."""
    if not isinstance(value, list):
        return None
    out = []
    for v in value:
        if isinstance(v, dict):
            v = v.get("id")
        if isinstance(v, bool) or not isinstance(v, int):
            return None
        out.append(v)
    return out


def _byte_decoder() -> dict[str, int]:
    """GPT-2's byte-level BPE alphabet inverted: each printable stand-in char → its byte."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs, strict=True)}


_BYTE_DECODER = _byte_decoder()
_SP_BYTE = re.compile(r"<0x([0-9A-Fa-f]{2})>\Z")


def _piece_bytes(pieces: Sequence[str]) -> list[bytes] | None:
    """Each token string as the bytes it stands for: byte-level BPE (``Ġ`` = space) when every
    char is in that alphabet, else SentencePiece (``▁`` = space, ``<0x0A>`` = one byte)."""
    if all(ch in _BYTE_DECODER for p in pieces for ch in p):
        return [bytes(_BYTE_DECODER[ch] for ch in p) for p in pieces]
    out = []
    for p in pieces:
        m = _SP_BYTE.match(p)
        out.append(bytes([int(m.group(1), 16)]) if m else p.replace("\u2581", " ").encode("utf-8"))
    return out


def offsets_from_pieces(text: str, pieces: Sequence[str]) -> list[tuple[int, int]] | None:
    """Character spans of tokens in ``text`` from their token strings, or None when the
    strings do not spell ``text`` exactly (then no span is guessed)."""
    for raw in (_piece_bytes(pieces), [p.encode("utf-8") for p in pieces]):
        if raw is None:
            continue
        joined = b"".join(raw)
        lead = 1 if joined.startswith(b" ") and not text.startswith(" ") else 0
        if joined[lead:] != text.encode("utf-8"):
            continue
        spans, pos, prev = [], 0, 0
        for chunk in raw:
            pos += len(chunk)
            end = len(joined[lead : max(pos, lead)].decode("utf-8", "ignore"))
            spans.append((prev, end))
            prev = end
        return spans
    return None


class ServerTokenizer:
    """The server's own tokenizer and chat template over HTTP (vLLM and llama.cpp shapes).

    Exact ids and counts; character offsets (per-source token counts, the hard cut) come
    from the token strings the server returns (llama.cpp ``with_pieces``, vLLM
    ``return_token_strs``), checked to spell the text exactly. A server whose pieces do not
    spell the text is not used as a tokenizer (:meth:`probe` fails): no span is guessed.
    """

    #: Texts whose ids are remembered (the context stage encodes the same prompt often).
    MEMO = 256

    def __init__(self, client: EndpointClient, model: str) -> None:
        self.client = client
        self.model = model
        self.kind = ""
        self._memo: dict[tuple[str, bool], Any] = {}
        self._lock = threading.Lock()

    def _tokenize(self, text: str, *, pieces: bool = False) -> Any:
        with self._lock:
            hit = self._memo.get((text, pieces))
        if hit is not None:
            return hit
        body = self.client.request_json(
            "POST",
            "/tokenize",
            {
                "model": self.model,
                "prompt": text,
                "content": text,
                "add_special_tokens": False,
                "add_special": False,
                "with_pieces": pieces,
                "return_token_strs": pieces,
            },
            model=self.model,
        )
        with self._lock:
            if len(self._memo) >= self.MEMO:
                self._memo.clear()
            self._memo[(text, pieces)] = body
        return body

    def probe(self) -> bool:
        """Whether the server tokenises, spells its pieces and renders templates (sets
        :attr:`kind`)."""
        try:
            ids = _int_list(self._tokenize("probe").get("tokens"))
            if not ids:
                return False
            self.encode_offsets("Hello, world.\n안녕하세요 [1]")
            self.render("s", "u")
        except (EndpointError, AttributeError, ValueError):
            return False
        return True

    def render(self, system: str, user: str) -> str:
        """The chat template over a system and a user turn, generation prompt appended."""
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        if self.kind in ("", "llama.cpp"):
            try:
                body = self.client.request_json(
                    "POST", "/apply-template", {"messages": messages}, model=self.model
                )
                if isinstance(body, dict) and isinstance(body.get("prompt"), str):
                    self.kind = "llama.cpp"
                    return str(body["prompt"])
            except EndpointError:
                if self.kind == "llama.cpp":
                    raise
        body = self.client.request_json(
            "POST",
            "/tokenize",
            {"model": self.model, "messages": messages, "add_generation_prompt": True},
            model=self.model,
        )
        ids = _int_list(body.get("tokens") if isinstance(body, dict) else None)
        if ids is None:
            raise EndpointError(notice(ENDPOINT_MALFORMED, what="/tokenize of messages"))
        self.kind = "vllm"
        return self.decode(ids)

    def encode(self, text: str) -> list[int]:
        body = self._tokenize(text)
        ids = _int_list(body.get("tokens") if isinstance(body, dict) else None)
        if ids is None:
            raise EndpointError(notice(ENDPOINT_MALFORMED, what="/tokenize has no token list"))
        return ids

    def encode_offsets(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        body = self._tokenize(text, pieces=True)
        rows = body.get("tokens") if isinstance(body, dict) else None
        ids = _int_list(rows)
        if ids is None:
            raise EndpointError(notice(ENDPOINT_MALFORMED, what="/tokenize has no token list"))
        if rows and all(isinstance(r, dict) for r in rows):
            pieces = [r.get("piece") for r in rows]
        else:
            pieces = body.get("token_strs") or []
        spans = None
        if len(pieces) == len(ids) and all(isinstance(p, str) for p in pieces):
            spans = offsets_from_pieces(text, pieces)
        if spans is None:
            raise EndpointError(
                notice(ENDPOINT_MALFORMED, what="/tokenize pieces do not spell the text")
            )
        return ids, spans

    def decode(self, ids: Sequence[int]) -> str:
        body = self.client.request_json(
            "POST", "/detokenize", {"model": self.model, "tokens": list(ids)}, model=self.model
        )
        if isinstance(body, dict):
            for field in ("prompt", "content"):
                if isinstance(body.get(field), str):
                    return str(body[field])
        raise EndpointError(notice(ENDPOINT_MALFORMED, what="/detokenize has no text"))


# ------------------------------------------------------------------ generator


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
    is_endpoint = True
    takes_logits_processors = False
    measures_first_token = False

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
        self.dtype = None
        self.file_sha256 = None
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
            EndpointError: The request failed, or the server returned no logprobs
                (``endpoint.no_logprobs``).
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
        yes = sum(math.exp(lp) for tok, lp in top.items() if tok.strip().lower() == "yes")
        no = sum(math.exp(lp) for tok, lp in top.items() if tok.strip().lower() == "no")
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
        pieces: list[str] = []
        usage: dict[str, Any] = {}
        finish, fingerprint = None, None
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
                finish = self._take(event, chat, pieces, usage, on_text, finish)
                if first is None and pieces:
                    first = time.perf_counter() - t0
                fingerprint = event.get("system_fingerprint") or fingerprint
        if not done and finish is None:  # no [DONE] and no finish_reason: it was cut
            raise EndpointError(notice(ENDPOINT_TRUNCATED))
        return EndpointReply(
            text="".join(pieces).strip(),
            prompt_tokens=_count(usage.get("prompt_tokens")),
            completion_tokens=_count(usage.get("completion_tokens")),
            finish_reason=finish,
            fingerprint=str(fingerprint) if fingerprint else None,
            sent_as=sent_as,
            seconds=time.perf_counter() - t0,
            first_token_seconds=first,
        )

    @staticmethod
    def _take(
        event: Any,
        chat: bool,
        pieces: list[str],
        usage: dict[str, Any],
        on_text: Callable[[str], None] | None,
        finish: str | None,
    ) -> str | None:
        """Read one SSE object: its text pieces (handed to ``on_text``), usage and finish."""
        if not isinstance(event, dict):
            raise EndpointError(notice(ENDPOINT_MALFORMED, what="an SSE event is not an object"))
        if isinstance(event.get("usage"), dict):
            usage.update(event["usage"])
        for choice in event.get("choices") or ():
            if not isinstance(choice, dict):
                raise EndpointError(notice(ENDPOINT_MALFORMED, what="a choice is not an object"))
            piece = (choice.get("delta") or {}).get("content") if chat else choice.get("text")
            if piece:
                if not isinstance(piece, str):
                    raise EndpointError(notice(ENDPOINT_MALFORMED, what="text is not a string"))
                pieces.append(piece)
                if on_text is not None:
                    on_text(piece)
            finish = choice.get("finish_reason") or finish
        return finish


def _completion_top(body: Any) -> dict[str, float]:
    """``{token: logprob}`` of the first token of a ``/v1/completions`` reply (empty: none)."""
    try:
        top = body["choices"][0]["logprobs"]["top_logprobs"][0]
    except (KeyError, IndexError, TypeError):
        return {}
    return {str(k): float(v) for k, v in top.items()} if isinstance(top, dict) else {}


def _chat_top(body: Any) -> dict[str, float]:
    """``{token: logprob}`` of the first token of a ``/v1/chat/completions`` reply."""
    try:
        rows = body["choices"][0]["logprobs"]["content"][0]["top_logprobs"]
        return {str(r["token"]): float(r["logprob"]) for r in rows}
    except (KeyError, IndexError, TypeError, ValueError):
        return {}


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
