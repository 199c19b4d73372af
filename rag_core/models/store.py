"""A small persistent key → JSON store in SQLite (generation, judge and Kiwi-term caches).

Writes are single transactions (atomic; safe across threads and processes
with a fresh connection per call and a WAL journal).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Mapping, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

#: How long opening a store keeps retrying while another connection holds the file.
OPEN_TIMEOUT_S = 60.0


class JsonStore:
    """``get(key)`` / ``put(key, value)`` with JSON values in one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Switching to WAL can fail at once with SQLITE_BUSY while another connection
        # (thread or process) holds the file: SQLite does not always wait for it, so retry.
        deadline = time.monotonic() + OPEN_TIMEOUT_S
        while True:
            try:
                with closing(self._connect()) as con, con:
                    con.execute("PRAGMA journal_mode=WAL")
                    con.execute(
                        "CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
                    )
                return
            except sqlite3.OperationalError as exc:
                busy = getattr(exc, "sqlite_errorcode", None) in (
                    sqlite3.SQLITE_BUSY,
                    sqlite3.SQLITE_LOCKED,
                )
                if not busy or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=60)

    def get(self, key: str) -> Any | None:
        """The stored value, or None."""
        with closing(self._connect()) as con:
            row = con.execute("SELECT value FROM kv WHERE key = ?", [key]).fetchone()
        if row is None:
            return None
        try:
            return json.loads(row[0])
        except ValueError:
            return None

    def put(self, key: str, value: Any) -> None:
        """Store ``value`` (JSON-serialisable) under ``key``, replacing any old value."""
        text = json.dumps(value, ensure_ascii=False)
        with closing(self._connect()) as con, con:
            con.execute("INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)", [key, text])

    def get_many(self, keys: Sequence[str]) -> dict[str, Any]:
        """The stored values of those ``keys`` that are present (one query per 500 keys)."""
        out: dict[str, Any] = {}
        unique = list(dict.fromkeys(keys))
        with closing(self._connect()) as con:
            for i in range(0, len(unique), 500):
                part = unique[i : i + 500]
                marks = ",".join("?" * len(part))
                query = f"SELECT key, value FROM kv WHERE key IN ({marks})"
                for key, text in con.execute(query, part):
                    try:
                        out[key] = json.loads(text)
                    except ValueError:
                        continue
        return out

    def put_many(self, items: Mapping[str, Any]) -> None:
        """:meth:`put` of every item, in one transaction."""
        rows = [(k, json.dumps(v, ensure_ascii=False)) for k, v in items.items()]
        with closing(self._connect()) as con, con:
            con.executemany("INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)", rows)

    def recent(self, n: int) -> list[Any]:
        """The ``n`` values written last, newest first (a replaced key counts as written anew)."""
        with closing(self._connect()) as con:
            rows = con.execute(
                "SELECT value FROM kv ORDER BY rowid DESC LIMIT ?", [int(n)]
            ).fetchall()
        out = []
        for (text,) in rows:
            try:
                out.append(json.loads(text))
            except ValueError:
                continue
        return out


_OPEN: dict[Path, JsonStore] = {}
_OPEN_LOCK = threading.Lock()


def shared_store(path: str | Path) -> JsonStore:
    """The process's one :class:`JsonStore` for ``path``, opened on first use.

    Opened under a lock, so threads that ask at once (the app's script thread and
    its pipeline thread) share one store instead of each creating the file.
    """
    key = Path(path)
    with _OPEN_LOCK:
        store = _OPEN.get(key)
        if store is None:
            store = _OPEN[key] = JsonStore(key)
    return store
