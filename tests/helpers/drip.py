"""A raw HTTP server of the tests' own on 127.0.0.1 that drips its answer one byte at a time.

Each byte restarts a client's per-read timeout, so only a total deadline ends the wait:
the case a bounded-wait test needs (a Qdrant or endpoint that "answers" forever).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def drip_server(every_s: float) -> Iterator[str]:
    """Yield ``http://127.0.0.1:PORT`` of a server that answers any request with a JSON head
    promising 100,000 bytes, then one space every ``every_s`` seconds until the test ends."""
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    stop = threading.Event()

    def serve(conn: socket.socket) -> None:
        with conn:
            try:
                conn.recv(65536)
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 100000\r\n\r\n"
                )
                while not stop.wait(every_s):
                    conn.sendall(b" ")
            except OSError:
                pass

    def accept() -> None:
        srv.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.getsockname()[1]}"
    finally:
        stop.set()
        srv.close()
