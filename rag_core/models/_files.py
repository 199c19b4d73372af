"""Cache directory, offline switches, file locks and atomic writes.

Everything the models write (the assembled GGUF, the converted generator,
embedding and generation caches) lives under one user cache directory:
``$RAG_INSPECTOR_CACHE`` when set, else ``~/.cache/rag-inspector``.

Nothing here reaches the network. :func:`ensure_offline` sets
``HF_HUB_OFFLINE``/``TRANSFORMERS_OFFLINE`` unless the user opted in to
downloads with ``RAG_INSPECTOR_ALLOW_DOWNLOAD=1``; loaders also pass
``local_files_only`` so the switch holds even when ``huggingface_hub`` was
imported before the variables were set.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from ..types import Notice

#: ``progress(message, fraction)`` with ``0 <= fraction <= 1`` — the same convention as
#: ``rag_core.index.Progress`` and ``st.progress(value, text)``; ``message`` is a notice
#: (``rag_core.wording.english`` words it in English, the pages in their language).
Progress = Callable[[Notice, float], None]

CACHE_ENV = "RAG_INSPECTOR_CACHE"
ALLOW_DOWNLOAD_ENV = "RAG_INSPECTOR_ALLOW_DOWNLOAD"


def cache_root() -> Path:
    """The user cache directory (created on first use)."""
    raw = os.environ.get(CACHE_ENV, "").strip()
    root = Path(raw).expanduser() if raw else Path.home() / ".cache" / "rag-inspector"
    root.mkdir(parents=True, exist_ok=True)
    return root


def downloads_allowed() -> bool:
    """True only when the user set ``RAG_INSPECTOR_ALLOW_DOWNLOAD=1``."""
    return os.environ.get(ALLOW_DOWNLOAD_ENV, "").strip().lower() in ("1", "true", "yes")


def ensure_offline() -> None:
    """Switch the Hugging Face libraries offline unless downloads were allowed."""
    if not downloads_allowed():
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def quiet_transformers() -> None:
    """Silence transformers' per-load progress bars and advisory warnings (stderr noise)."""
    try:
        # lazy: an optional heavy dependency, imported on first use
        from transformers.utils import logging as hf_logging
    except ImportError:  # pragma: no cover
        return
    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()


def sha256_file(path: Path, chunk: int = 1 << 22) -> str:
    """Hex sha256 of a file's bytes, read in 4 MiB blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive inter-process lock on ``path`` (``fcntl.flock``; a no-op without fcntl).

    Used around slow one-time work (GGUF assembly, conversion) so that two
    processes starting at once do it once: the second waits, then finds the
    result. Writes are also atomic (temp + rename), so a platform without
    ``fcntl`` still never sees a half-written file — the last rename wins.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    with open(path, "a+b") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to a temp file next to ``path``, fsync, then rename over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """:func:`atomic_write_bytes` for UTF-8 text."""
    atomic_write_bytes(path, text.encode("utf-8"))
