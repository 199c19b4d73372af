"""HTTP and server-sent-event requests to one OpenAI-compatible server (``http.client``: one
connection per request, events read as they arrive).

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
import os
import socket
import ssl
import threading
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ...config import check_endpoint_url, check_key_env
from ...modelnames import key_env_usable
from ...types import Notice
from ...wording import declare, notice

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
