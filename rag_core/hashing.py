"""Content fingerprints (standard library only, so any module may import it cheaply)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable


def sha256_pairs(pairs: Iterable[tuple[str, str]]) -> str:
    """Hex sha256 over ``(id, text)`` pairs, in order: ``id NUL text SOH`` each, UTF-8."""
    h = hashlib.sha256()
    for key, text in pairs:
        h.update(key.encode("utf-8"))
        h.update(b"\0")
        h.update(text.encode("utf-8"))
        h.update(b"\1")
    return h.hexdigest()
