"""Content fingerprints (standard library only, so any module may import it cheaply)."""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Sequence


def sha256_pairs(pairs: Iterable[tuple[str, str]]) -> str:
    """Hex sha256 over ``(id, text)`` pairs, in order: ``id NUL text SOH`` each, UTF-8."""
    h = hashlib.sha256()
    for key, text in pairs:
        h.update(key.encode("utf-8"))
        h.update(b"\0")
        h.update(text.encode("utf-8"))
        h.update(b"\1")
    return h.hexdigest()


def sha256_text(text: str) -> str:
    """Hex sha256 of ``text`` encoded as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def ids_sha256(ids: Sequence[int]) -> str:
    """Hex sha256 of token ids as little-endian int32 bytes (reproducible from a Trace)."""
    return hashlib.sha256(struct.pack(f"<{len(ids)}i", *ids)).hexdigest()
