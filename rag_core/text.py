"""Text helpers every layer may use: sentence spans and near-duplicate shingles.

Standard library only. The context stage cuts sources at :func:`sentence_spans`,
the support check splits answers into claims with it, the Label page offers its
sentences as spans to label; the context stage drops near-duplicates by the
:func:`containment` of their :func:`shingles`.
"""

from __future__ import annotations

import re

#: Characters per shingle of :func:`shingles` (char 5-grams).
SHINGLE = 5

_SENT_END = re.compile(r"[.!?。！？]+[\"'”’)\]]*(?=\s|$)|\n")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of ``text``, whitespace trimmed.

    A sentence ends at a run of ``. ! ? 。 ！ ？`` (plus closing quotes or
    brackets) followed by whitespace or the end, or at a newline. Korean
    declarative endings (``…다.``, ``…요.``, ``…니다.``) end with a period
    and are covered; a decimal point (``1.5``) is not followed by
    whitespace and does not split.
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENT_END.finditer(text):
        _add_trimmed(text, start, m.end(), spans)
        start = m.end()
    _add_trimmed(text, start, len(text), spans)
    return spans


def _add_trimmed(text: str, a: int, b: int, out: list[tuple[int, int]]) -> None:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    if b > a:
        out.append((a, b))


def sentence_cut(text: str, limit: int) -> int:
    """The largest sentence end ``<= limit`` in ``text`` (0 when none)."""
    best = 0
    for _a, b in sentence_spans(text):
        if b <= limit:
            best = b
        else:
            break
    return best


def shingles(text: str, n: int = SHINGLE) -> frozenset[str]:
    """Char ``n``-grams of the lowercased, whitespace-collapsed text (the text itself if
    shorter)."""
    norm = " ".join(text.lower().split())
    if len(norm) <= n:
        return frozenset([norm]) if norm else frozenset()
    return frozenset(norm[i : i + n] for i in range(len(norm) - n + 1))


def containment(a: frozenset[str], b: frozenset[str]) -> float:
    """``|A ∩ B| / min(|A|, |B|)``: 1.0 when one text's shingles lie inside the other's."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))
