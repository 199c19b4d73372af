"""On-disk embedding cache keyed by (model id, sha256 of the embedded text).

One SQLite file (``<cache>/embeddings.sqlite``) holds a row per
``(model_id, text_sha256)`` with the float32 vector as a blob. SQLite
transactions make every write atomic and safe across threads and processes
(WAL journal, a fresh connection per call). Because the key is the text,
not the chunk id, switching chunkers back and forth embeds only texts never
seen before: identical chunks under two chunkers share one row.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence
from contextlib import closing
from pathlib import Path

import numpy as np

from rag_core.hashing import sha256_text
from rag_core.models import cache_root

_SCHEMA = """
CREATE TABLE IF NOT EXISTS embeddings (
    model_id TEXT NOT NULL,
    text_sha256 TEXT NOT NULL,
    dim INTEGER NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model_id, text_sha256)
) WITHOUT ROWID
"""

#: SQLite's default limit on host parameters is 999 (older builds); stay under it.
_BATCH = 900


class EmbeddingCache:
    """Vectors by ``(model_id, sha256(text))`` in one SQLite file.

    Args:
        path: The SQLite file (created with its folder on first use).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with closing(self._connect()) as con, con:
            con.execute("PRAGMA journal_mode=WAL")
            con.execute(_SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=60, isolation_level="DEFERRED")

    def get_many(
        self, model_id: str, texts: Sequence[str], dim: int
    ) -> tuple[np.ndarray, list[int]]:
        """Look up ``texts``; returns ``(vectors, missing)``.

        ``vectors`` is ``(len(texts), dim)`` float32 with zero rows where
        nothing was cached; ``missing`` lists those row indices.
        """
        keys = [sha256_text(t) for t in texts]
        out = np.zeros((len(texts), dim), dtype=np.float32)
        found: dict[str, np.ndarray] = {}
        distinct = list(dict.fromkeys(keys))
        with closing(self._connect()) as con:
            for lo in range(0, len(distinct), _BATCH):
                part = distinct[lo : lo + _BATCH]
                marks = ",".join("?" * len(part))
                rows = con.execute(
                    f"SELECT text_sha256, dim, vector FROM embeddings "
                    f"WHERE model_id = ? AND text_sha256 IN ({marks})",
                    [model_id, *part],
                ).fetchall()
                for sha, d, blob in rows:
                    if d == dim and len(blob) == 4 * dim:
                        found[sha] = np.frombuffer(blob, dtype=np.float32)
        missing = []
        for i, k in enumerate(keys):
            vec = found.get(k)
            if vec is None:
                missing.append(i)
            else:
                out[i] = vec
        return out, missing

    def put_many(self, model_id: str, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Store one vector per text (one transaction; existing rows are replaced)."""
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(texts):
            raise ValueError(
                f"put_many got {len(texts)} texts but vectors of shape {tuple(vectors.shape)}"
            )
        dim = vectors.shape[1]
        rows = [(model_id, sha256_text(t), dim, vectors[i].tobytes()) for i, t in enumerate(texts)]
        with closing(self._connect()) as con, con:
            con.executemany(
                (
                    "INSERT OR REPLACE INTO embeddings (model_id, text_sha256, dim, vector) VALUES "
                    "(?, ?, ?, ?)"
                ),
                rows,
            )

    def count(self, model_id: str | None = None) -> int:
        """Rows stored (for one model, or all)."""
        with closing(self._connect()) as con:
            if model_id is None:
                return int(con.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0])
            return int(
                con.execute(
                    "SELECT COUNT(*) FROM embeddings WHERE model_id = ?", [model_id]
                ).fetchone()[0]
            )


def embed_cached(
    embed: Callable[[list[str]], np.ndarray],
    model_id: str,
    dim: int,
    texts: Sequence[str],
    cache: EmbeddingCache | None,
) -> tuple[np.ndarray, int]:
    """Vectors for ``texts``, embedding only those the cache lacks (distinct texts once).

    Args:
        embed: Encodes a list of texts to ``(n, dim)``.
        model_id: Cache key part (the embedder's id).
        dim: Vector dimension.
        texts: The texts, in order.
        cache: None to embed everything.

    Returns:
        ``(vectors, n_embedded)``.
    """
    texts = list(texts)
    if cache is None:
        return embed(texts), len(texts)
    vectors, missing = cache.get_many(model_id, texts, dim)
    if missing:
        todo = list(dict.fromkeys(texts[i] for i in missing))
        fresh = embed(todo)
        by_text = {t: fresh[j] for j, t in enumerate(todo)}
        for i in missing:
            vectors[i] = by_text[texts[i]]
        cache.put_many(model_id, todo, fresh)
        return vectors, len(todo)
    return vectors, 0


_DEFAULT: dict[Path, EmbeddingCache] = {}
_DEFAULT_LOCK = threading.Lock()


def default_cache() -> EmbeddingCache:
    """The process-wide cache at ``<cache dir>/embeddings.sqlite``."""
    path = cache_root() / "embeddings.sqlite"
    with _DEFAULT_LOCK:
        if path not in _DEFAULT:
            _DEFAULT[path] = EmbeddingCache(path)
        return _DEFAULT[path]
