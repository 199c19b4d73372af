"""A small OpenAI-compatible HTTP server of the tests' own, on 127.0.0.1, that can misbehave.

It speaks the routes an endpoint generator uses — ``GET /v1/models``, ``POST
/v1/completions`` and ``/v1/chat/completions`` (JSON or server-sent events), and
optionally a char-level ``/tokenize``/``/detokenize`` in vLLM's or llama.cpp's shape —
and injects one fault per test (``FakeOpenAI.fault``): ``hang``, ``drip``, ``status:N``,
``garbage``, ``cut``, ``bad_event``, ``ids_refused``, ``slow_pieces``,
``no_done``, and three that echo the ``Authorization`` header where a message quotes the
reply: ``echo_models:N`` (``GET /v1/models`` answers N ``Z`` then the header, not JSON),
``echo_event:N`` (one SSE event of N ``Z`` then the header, not JSON) and ``echo_tail:N``
(HTTP N whose first 4,096 bytes end inside the header). Every request is recorded
(``requests``: method, path, headers, body) so a test can check what was sent.

Hostile replies (issue 38): ``event:JSON`` (that text as the stream's first event, then the
answer), ``big_event:N`` (one event of N bytes, then the answer), ``endless_line:N`` (a
``data:`` line of N bytes that never ends, written 1 MiB at a time), ``tiny_events:N`` (N
one-character events, ``x`` and a blank line, before the answer), ``char_events:N`` (N
events of one character of text each, before the answer), ``keepalive`` (only
``: keep-alive`` comments, forever), ``token_strs:JSON`` (vLLM's ``token_strs`` of a
``/tokenize`` with pieces), ``judge_top:JSON`` (the judge's first-token ``top_logprobs``) and
``big_models:N`` (a ``GET /v1/models`` body of N bytes), ``tokenize_long`` (``/tokenize``
answers the probe's short texts, then HTTP 503 for a text over 100 characters).
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ANSWER_PIECES = ("Hallasan ", "is 1,947 m ", "high [1].")


def render(system: str, user: str) -> str:
    """The fake's chat template (the same toy template as ``helpers.fakes.CharGenerator``)."""
    return f"<s>{system}</s><u>{user}</u><a>"


def _padded_echo(fault: str, headers: Any) -> bytes:
    """``Z`` × N (``fault`` = ``name:N``), a space, then the request's ``Authorization``."""
    pad = int(fault.split(":")[1])
    return f"{'Z' * pad} {headers.get('Authorization', '')}".encode()


class FakeOpenAI:
    """Start with ``with FakeOpenAI() as srv:``; ``srv.url`` is the ``…/v1`` base URL."""

    def __init__(
        self,
        *,
        models: tuple[str, ...] = ("tiny",),
        tokenize: str | None = None,
        fault: str | None = None,
        pieces: tuple[str, ...] = ANSWER_PIECES,
        usage_offset: int = 0,
        reports: dict[str, Any] | None = None,
        yes_if: str | None = None,
    ) -> None:
        self.yes_if = yes_if  # the judge says yes only to a request holding this text
        self.models = models
        self.reports = reports or {}  # GET route → JSON body (``/props``, ``/version``)
        self.tokenize = tokenize  # None, "vllm" or "llama.cpp"
        self.fault = fault
        self.pieces = pieces
        self.usage_offset = usage_offset
        self.requests: list[dict[str, Any]] = []
        self.disconnected = threading.Event()
        self.inflight = 0
        self.max_inflight = 0
        self._count = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        return type("Handler", (_Handler,), {"fake": self})


class _Handler(BaseHTTPRequestHandler):
    """The fake's routes; ``fake`` is set per server (:meth:`FakeOpenAI._handler`)."""

    fake: FakeOpenAI
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def _json(self, status: int, obj: Any) -> None:
        raw = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_GET(self) -> None:
        self.fake.requests.append(
            {"method": "GET", "path": self.path, "headers": dict(self.headers)}
        )
        fault = self.fake.fault or ""
        if self.path == "/v1/models" and fault.startswith("echo_models:"):
            return self._raw(200, _padded_echo(fault, self.headers))
        if self.path == "/v1/models" and fault.startswith("big_models:"):
            pad = int(fault.split(":")[1])
            return self._raw(200, b'{"data": [], "pad": "' + b"x" * pad + b'"}')
        if self.path == "/v1/models":
            self._json(200, {"object": "list", "data": [{"id": m} for m in self.fake.models]})
        elif self.path in self.fake.reports:
            self._json(200, self.fake.reports[self.path])
        else:
            self._json(404, {"error": "no route"})

    def _raw(self, status: int, raw: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_POST(self) -> None:
        n = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(n) or b"{}")
        self.fake.requests.append(
            {
                "method": "POST",
                "path": self.path,
                "headers": dict(self.headers),
                "body": body,
            }
        )
        if self.path in ("/tokenize", "/detokenize", "/apply-template"):
            return self._tokenizer_route(body)
        if self.path not in ("/v1/completions", "/v1/chat/completions"):
            return self._json(404, {"error": "no route"})
        fault = self.fake.fault or ""
        if fault.startswith("echo_tail:"):  # the 4,096th byte falls inside the key
            echo = self.headers.get("Authorization", "")
            pad = b" " * (4096 - len("Bearer ") - 6)
            return self._raw(int(fault.split(":")[1]), pad + echo.encode() + b" " * 100)
        if fault.startswith("status:"):
            status = int(fault.split(":")[1])
            # a hostile server echoes the Authorization header back
            echo = self.headers.get("Authorization", "")
            self.send_response(status)
            if status == 429:
                self.send_header("Retry-After", "7")
            raw = json.dumps({"error": {"message": f"nope {echo}"}}).encode()
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)
            return None
        if body.get("model") not in self.fake.models:
            return self._json(404, {"error": {"message": f"model {body.get('model')} not found"}})
        if fault == "ids_refused" and not isinstance(body.get("prompt", ""), str):
            return self._json(400, {"detail": "prompt must be a string."})
        grammar = {"grammar", "guided_regex", "structured_outputs"} & set(body)
        if fault == "grammar_refused" and grammar:
            return self._json(400, {"error": {"message": f"unknown field {grammar}"}})
        if fault == "hang":
            time.sleep(30)
            return None
        if fault == "garbage":
            raw = b"<html>502 bad gateway</html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)
            return None
        if not body.get("stream"):
            return self._judge(body)
        with self.fake._count:
            self.fake.inflight += 1
            self.fake.max_inflight = max(self.fake.max_inflight, self.fake.inflight)
        try:
            self._stream(body)
        finally:
            with self.fake._count:
                self.fake.inflight -= 1
        return None

    def _prompt_tokens(self, body: dict[str, Any]) -> int:
        prompt = body.get("prompt")
        if isinstance(prompt, list):
            return len(prompt)
        if isinstance(prompt, str):
            return len(prompt)
        msgs = body.get("messages") or []
        return len(render(msgs[0]["content"], msgs[1]["content"])) if len(msgs) == 2 else 0

    def _stream(self, body: dict[str, Any]) -> None:
        chat = self.path.endswith("chat/completions")
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        fault = self.fake.fault or ""

        def send(obj: Any) -> None:
            self.wfile.write(f"data: {json.dumps(obj)}\n\n".encode())
            self.wfile.flush()

        try:
            if fault == "drip":
                while True:  # one byte of a comment line every 0.2 s, forever
                    self.wfile.write(b":")
                    self.wfile.flush()
                    time.sleep(0.2)
            if fault.startswith("echo_event:"):
                self.wfile.write(b"data: " + _padded_echo(fault, self.headers) + b"\n\n")
                self.wfile.flush()
                return
            if fault == "bad_event":
                self.wfile.write(b"data: {not json\n\n")
                self.wfile.flush()
                return
            if self._hostile(fault, chat):
                return
            for i, piece in enumerate(self.fake.pieces):
                choice = (
                    {"index": 0, "delta": {"content": piece}, "finish_reason": None}
                    if chat
                    else {"index": 0, "text": piece, "finish_reason": None}
                )
                send({"id": "x", "system_fingerprint": "fp-1", "choices": [choice]})
                if fault == "cut" and i == 0:
                    return
                if fault == "slow_pieces":
                    time.sleep(0.3)
            done = (
                {"index": 0, "delta": {}, "finish_reason": "stop"}
                if chat
                else {"index": 0, "text": "", "finish_reason": "stop"}
            )
            send({"id": "x", "choices": [done]})
            prompt_tokens = self._prompt_tokens(body) + self.fake.usage_offset
            send(
                {
                    "id": "x",
                    "choices": [],
                    "usage": {
                        "prompt_tokens": prompt_tokens,
                        "completion_tokens": len(self.fake.pieces),
                        "total_tokens": prompt_tokens + len(self.fake.pieces),
                    },
                }
            )
            if fault != "no_done":
                self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.fake.disconnected.set()

    def _hostile(self, fault: str, chat: bool) -> bool:
        """The hostile stream faults (module docstring); True when the reply is over."""
        name, _, arg = fault.partition(":")
        if name == "keepalive":
            while True:
                self.wfile.write(b": keep-alive\n\n")
                self.wfile.flush()
                time.sleep(0.1)
        if name == "endless_line":
            block, left = b"x" * (1 << 20), int(arg)
            self.wfile.write(b"data: ")
            while left > 0:
                self.wfile.write(block[:left])
                left -= len(block)
            return True
        if name == "event":
            self.wfile.write(b"data: " + arg.encode() + b"\n\n")
        elif name == "big_event":
            pad = int(arg) - len('{"choices": [{"index": 0, "text": ""}]}')
            text = "x" * max(pad, 0)
            obj = {"index": 0, "delta": {"content": text}} if chat else {"index": 0, "text": text}
            self.wfile.write(b"data: " + json.dumps({"choices": [obj]}).encode() + b"\n\n")
        elif name == "tiny_events":
            self.wfile.write(b"x\n\n" * int(arg))
        elif name == "char_events":
            obj = {"index": 0, "delta": {"content": "x"}} if chat else {"index": 0, "text": "x"}
            self.wfile.write(f"data: {json.dumps({'choices': [obj]})}\n\n".encode() * int(arg))
        self.wfile.flush()
        return False

    def _judge(self, body: dict[str, Any]) -> None:
        """A one-token reply with top logprobs: P(yes) = e^-0.2 / (e^-0.2 + e^-1.8)."""
        if self.fake.fault == "no_logprobs":
            return self._json(200, {"choices": [{"index": 0, "text": "yes"}]})
        top = {"yes": -0.2, " no": -1.8, "maybe": -3.0}
        if self.fake.yes_if is not None and self.fake.yes_if not in json.dumps(body):
            top = {"yes": -1.8, " no": -0.2, "maybe": -3.0}
        if (self.fake.fault or "").startswith("judge_top:"):
            top = json.loads(self.fake.fault.partition(":")[2])
        if self.path.endswith("chat/completions"):
            rows = [{"token": k, "logprob": v} for k, v in top.items()]
            choice: dict[str, Any] = {
                "index": 0,
                "message": {"role": "assistant", "content": "yes"},
                "logprobs": {"content": [{"token": "yes", "top_logprobs": rows}]},
            }
        else:
            choice = {"index": 0, "text": "yes", "logprobs": {"top_logprobs": [top]}}
        return self._json(200, {"choices": [choice]})

    def _tokenizer_route(self, body: dict[str, Any]) -> None:
        if self.fake.tokenize is None:
            return self._json(404, {"detail": "Not Found"})
        if self.path == "/apply-template":
            if self.fake.tokenize != "llama.cpp":
                return self._json(404, {"detail": "Not Found"})
            m = body["messages"]
            return self._json(200, {"prompt": render(m[0]["content"], m[1]["content"])})
        if self.path == "/detokenize":
            text = "".join(chr(i) for i in body.get("tokens", []))
            key = "prompt" if self.fake.tokenize == "vllm" else "content"
            return self._json(200, {key: text})
        if "messages" in body:
            m = body["messages"]
            text = render(m[0]["content"], m[1]["content"])
        else:
            text = body.get("prompt") if self.fake.tokenize == "vllm" else body.get("content")
        if self.fake.fault == "tokenize_long" and len(str(text)) > 100:
            return self._json(503, {"detail": "tokenizer worker died"})
        ids = [ord(c) for c in str(text)]
        if self.fake.tokenize == "vllm":
            out: dict[str, Any] = {"count": len(ids), "max_model_len": 4096, "tokens": ids}
            if body.get("return_token_strs"):
                out["token_strs"] = [chr(i) for i in ids]
                if (self.fake.fault or "").startswith("token_strs:"):
                    out["token_strs"] = json.loads(self.fake.fault.partition(":")[2])
            return self._json(200, out)
        if body.get("with_pieces"):
            rows = [{"id": i, "piece": chr(i)} for i in ids]
            return self._json(200, {"tokens": rows})
        return self._json(200, {"tokens": ids})
