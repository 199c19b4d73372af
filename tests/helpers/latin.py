"""Latin-script sentences in a page's text: what a Korean page must not show from the core."""

from __future__ import annotations

import re

#: Proper nouns, library and formula names a Korean page may show in Latin script.
ALLOWED = ("scikit-learn", "tf-idf", "Okapi", "BM25", "Lucene", "MiniLM", "Qdrant")

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def latin_sentences(text: str, min_words: int = 4) -> list[str]:
    """The runs of ``min_words`` or more Latin words in ``text`` (punctuation around a word is
    allowed; any other token ends the run)."""
    runs: list[str] = []
    cur: list[str] = []
    for token in [*text.split(), "\x00"]:
        word = token.strip("([{\"'“”‘’").rstrip(".,;:!?)]}\"'“”’")
        if _WORD.fullmatch(word) and word not in ALLOWED:
            cur.append(word)
            continue
        if len(cur) >= min_words and sum(len(w) > 1 for w in cur) >= min_words - 1:
            runs.append(" ".join(cur))
        cur = []
    return runs
