"""HTTP and server-sent-event requests to one OpenAI-compatible server (``http.client``: one
connection per request, events read as they arrive).

**Failures are data.** Every failure raises :class:`EndpointError` whose ``notice``
names the cause (unreachable, TLS, 401/403, 404, 429, 5xx, malformed or cut body,
timeout, cancelled); the message never holds the API key: the key is read from the
environment variable named by ``generation.api_key_env`` at request time, sent only
in the ``Authorization`` header, and scrubbed from any text a server echoes back.

**Timeouts.** ``connect`` bounds the TCP (and TLS) connection, ``first_token`` the wait
from the request to the first event (a keep-alive comment does not count: the clock is not
restarted by bytes, only stopped by an event), ``total`` the whole request (default 120 s):
a watchdog shuts the socket down at either deadline, so a server that drips one byte at a
time, or only says ``: keep-alive``, cannot hold a request past it.

**Sizes.** A reply is read through the input boundary: server-sent events are split on the
blank line in one pass over the bytes (:class:`_EventSplitter`: linear in the reply's
length), one event may hold at most :data:`MAX_EVENT_BYTES`, a JSON reply at most
:data:`MAX_REPLY_BYTES`, and every JSON value goes through
:func:`rag_core.formats.guard.json_line` (its nesting depth and integer length caps) before
it is parsed; a reply over a cap is refused at the cap, without reading the rest.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import ssl
import threading
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ...config_checks import check_endpoint_url, check_key_env
from ...formats.guard import JSON_INVALID_COLUMN, json_line
from ...modelnames import key_env_usable
from ...types import Notice
from ...wording import NoticeError, declare, notice

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
ENDPOINT_EVENT_TOO_LARGE = declare("endpoint.event_too_large", "cap")
ENDPOINT_REPLY_TOO_LARGE = declare("endpoint.reply_too_large", "route", "cap")
#: ``endpoint {endpoint}: {cause}``: an endpoint's failure where the message must name it.
ENDPOINT_AT = declare("endpoint.at", "endpoint", "cause")

#: The largest server-sent event read (bytes); a real one is a few hundred bytes.
MAX_EVENT_BYTES = 1 << 20
#: The largest JSON reply read (bytes): ``/tokenize`` with pieces of a long prompt is ~1 MB.
MAX_REPLY_BYTES = 16 << 20
#: How much of a streamed reply one read takes (bytes).
_READ_BYTES = 65536

#: The longest error body quoted in a message (characters).
_DETAIL_CHARS = 200


@dataclass(frozen=True)
class Timeouts:
    """Seconds: the TCP/TLS ``connect``, the wait for the ``first_token``, the ``total`` request."""

    connect: float = 5.0
    first_token: float = 60.0
    total: float = 120.0


class EndpointError(Exception):
    """A request to an endpoint failed; ``notice`` says why (never with the API key)."""

    def __init__(self, cause: Notice) -> None:
        self.notice = cause
        super().__init__(cause.code)

    def at(self, url: str) -> Notice:
        """``endpoint URL: cause`` (:data:`ENDPOINT_AT`), for a message that must name it."""
        return notice(ENDPOINT_AT, endpoint=url, cause=self.notice)


def _scrub(text: str, secret: str | None, limit: int = _DETAIL_CHARS) -> str:
    """``text`` with ``secret`` replaced by ``***``, then cut to ``limit`` characters: the
    whole text is scrubbed before any cut, so no cut can leave the key's first characters."""
    if secret:
        text = text.replace(secret, "***")
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Watchdog:
    """Shuts a socket down at the total deadline, at the first-token deadline until
    :meth:`first_came`, or when ``cancelled()`` turns true, so that a blocked read returns;
    :attr:`reason` says which (``total``, ``first_token``, ``cancelled``) or None. Bytes that
    arrive (keep-alive comments) move neither deadline."""

    POLL_S = 0.1

    def __init__(
        self,
        seconds: float,
        cancelled: Callable[[], bool] | None = None,
        first: float | None = None,
    ) -> None:
        self.reason: str | None = None
        now = time.monotonic()
        self._deadline = now + max(seconds, 0.0)
        self._first = None if first is None else now + max(first, 0.0)
        self._cancelled = cancelled
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="endpoint-watchdog", daemon=True)

    def arm(self, sock: socket.socket | None) -> None:
        self._sock = sock
        self._thread.start()

    def first_came(self) -> None:
        """The first event came: the first-token deadline no longer applies."""
        with self._lock:
            self._first = None

    def _watch(self) -> None:
        while True:
            with self._lock:
                first = self._first
            nearest = self._deadline if first is None else min(first, self._deadline)
            if self._done.wait(min(self.POLL_S, max(nearest - time.monotonic(), 0))):
                return
            now = time.monotonic()
            if now >= self._deadline:  # the total first: it rules when both are due
                self._fire("total")
                return
            with self._lock:
                if self._first is not None and now >= self._first:
                    self._fire("first_token")
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
        spent = time.monotonic() - t0
        dog = _Watchdog(total - spent, cancelled, min(self.timeouts.first_token, total) - spent)
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
        if dog.reason == "first_token" or isinstance(exc, (TimeoutError, socket.timeout)):
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
        """One JSON request → the decoded body (at most :data:`MAX_REPLY_BYTES`, through the
        guard's depth and integer caps). The first-token deadline ends with the reply's
        headers; each read of the body then waits at most ``first_token`` seconds."""
        conn, resp, dog, key = self._open(method, route, body, model=model)
        dog.first_came()
        try:
            raw = resp.read(MAX_REPLY_BYTES + 1)
        except BaseException as exc:  # noqa: BLE001 - mapped to a cause, or re-raised as is
            raise self._read_failure(exc, dog, key) from None
        finally:
            dog.cancel()
            conn.close()
        if len(raw) > MAX_REPLY_BYTES:
            raise EndpointError(notice(ENDPOINT_REPLY_TOO_LARGE, route=route, cap=MAX_REPLY_BYTES))
        return _json_value(raw, route, key, "not JSON", 120)

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
        events = _EventSplitter(MAX_EVENT_BYTES)
        waiting = True  # for the first event
        try:
            while chunk := resp.read1(_READ_BYTES):
                for event in events.feed(chunk):
                    data = _sse_data(event)
                    if data is None:  # a comment (``: keep-alive``) or an empty event
                        continue
                    if waiting:  # the first event came: the total deadline rules
                        waiting = False
                        dog.first_came()
                        if conn.sock is not None:
                            conn.sock.settimeout(None)
                    if data.strip() == "[DONE]":
                        yield DONE
                        return
                    yield self._event(data, route, key)
            self._ended(events.rest(), dog, key)  # cleanly between events, or not
        except GeneratorExit:
            raise
        except BaseException as exc:  # noqa: BLE001 - mapped to a cause, or re-raised as is
            raise self._read_failure(exc, dog, key) from None
        finally:
            dog.cancel()
            conn.close()

    def _ended(self, rest: bytes, dog: _Watchdog, key: str | None) -> None:
        """The body ended with ``rest`` unread: fine when nothing is left, else why not."""
        if dog.reason is not None:
            raise self._read_failure(ConnectionError(), dog, key)
        rest = rest.strip()
        if rest and _sse_data(rest) is None:
            head = _scrub(rest.decode("utf-8", "replace"), key, 80)
            raise EndpointError(notice(ENDPOINT_MALFORMED, what=f"not an SSE stream: {head!r}"))
        if rest:
            raise EndpointError(notice(ENDPOINT_TRUNCATED))

    def _event(self, data: str, route: str, key: str | None) -> Any:
        obj = _json_value(data, route, key, "an SSE event is not JSON", 80)
        if isinstance(obj, dict) and "error" in obj:
            detail = _scrub(json.dumps(obj["error"], ensure_ascii=False), key)
            raise EndpointError(notice(ENDPOINT_SERVER_ERROR, status=200, detail=detail))
        return obj


def _json_value(raw: bytes | str, route: str, key: str | None, label: str, limit: int) -> Any:
    """One JSON value of ``route``'s reply through the guard (``rag_core.formats.guard``):
    nested too deep or an over-long integer is that refusal; anything else that is not
    JSON is quoted, scrubbed of the key, as ``label: '…'``."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        return json_line(text, route)
    except NoticeError as exc:
        problem = exc.notice.params.get("problem")
        if isinstance(problem, Notice) and problem.code != JSON_INVALID_COLUMN:
            raise EndpointError(notice(ENDPOINT_MALFORMED, what=exc.notice)) from None
    except UnicodeDecodeError:
        pass
    shown = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    head = _scrub(shown, key, limit)
    raise EndpointError(notice(ENDPOINT_MALFORMED, what=f"{label}: {head!r}"))


class _EventSplitter:
    """Server-sent events from a byte stream in one pass (linear in its length).

    Each read's line ends are normalised once (CRLF and a lone CR become LF; when a read ends
    in CR, an LF that starts the next is its pair and dropped) and split on the blank line once;
    the unfinished event is kept as its pieces and joined once, when its blank line comes. An
    event longer than ``cap`` bytes is refused as soon as it is (``endpoint.event_too_large``),
    before more of it is read.
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._parts: list[bytes] = []
        self._size = 0
        self._cr = False

    def feed(self, chunk: bytes) -> list[bytes]:
        """The events ``chunk`` completes, in order."""
        if self._cr and chunk.startswith(b"\n"):  # the LF of a CRLF the last read ended in
            chunk = chunk[1:]
        self._cr = chunk.endswith(b"\r")
        chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        events: list[bytes] = []
        if self._parts and self._parts[-1].endswith(b"\n") and chunk.startswith(b"\n"):
            events.append(self._finish(b"")[:-1])  # the blank line straddles two reads
            chunk = chunk[1:]
        pieces = chunk.split(b"\n\n")
        if len(pieces) > 1:
            events.append(self._finish(pieces[0]))
            events.extend(pieces[1:-1])
        if pieces[-1]:
            self._parts.append(pieces[-1])
            self._size += len(pieces[-1])
            self._check(self._size)
        return events

    def rest(self) -> bytes:
        """What is left when the stream ends (an unfinished event, or nothing)."""
        return b"".join(self._parts)

    def _finish(self, tail: bytes) -> bytes:
        event = b"".join(self._parts) + tail
        self._parts, self._size = [], 0
        self._check(len(event))
        return event

    def _check(self, size: int) -> None:
        if size > self.cap:
            raise EndpointError(notice(ENDPOINT_EVENT_TOO_LARGE, cap=self.cap))


#: What :meth:`EndpointClient.stream_events` yields for ``data: [DONE]``.
DONE = "[DONE]"


def _sse_data(event: bytes) -> str | None:
    """The joined ``data:`` lines of one SSE event (None for a comment or keep-alive)."""
    if b"data:" not in event:
        return None
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
