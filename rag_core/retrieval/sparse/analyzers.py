"""Analyzers: how text becomes the terms a sparse index counts.

Every analyzer is a function ``str -> list[str]`` registered under one of the
names in :data:`rag_core.config.ANALYZERS`. Input text is expected to be NFC
already (the loaders canonicalise it), so no Unicode normalisation happens here.

- ``ascii``: lowercase, then the runs of ``[a-z0-9]+`` — every non-ASCII
  letter (Korean included) is a separator, so Korean text yields no terms.
- ``unicode``: lowercase, then the runs of ``\\w+`` (Unicode word characters):
  punctuation is dropped but a Korean particle stays glued to its noun
  (``한라산의`` is one term, different from ``한라산은``).
- ``whitespace``: lowercase, then ``str.split()``: punctuation stays glued.
- ``char``: character n-grams, ``ngram_min``..``ngram_max`` (default 2–4),
  taken inside each lowercased whitespace token (no n-gram crosses a space);
  a token shorter than ``ngram_min`` is kept whole. This is the definition
  used for the peer rows of ``shared/datasets/BASELINES.md``.
- ``kiwi``: Korean morphemes from kiwipiepy (Kim 2024, https://github.com/bab2min/Kiwi),
  forms lowercased, keeping the content tags in :data:`KIWI_CONTENT_TAGS`
  (nouns, pronouns, numerals, verb/adjective stems, roots, foreign words,
  numbers, hanja, adverbs, determiners, irregular stems included); particles
  and endings are dropped, so ``한라산의`` and ``한라산은`` both yield ``한라산``.
- ``auto`` (the default): the text is cut into runs of Hangul and runs of
  everything else (:func:`script_runs`); Hangul runs go to
  :data:`AUTO_HANGUL` (``kiwi`` morphemes, chosen over character 2-grams by
  measurement: ``bench/korean_default.py``, docs/MODELS.md), the rest to
  ``unicode``. English text therefore gets exactly the ``unicode`` terms.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache, partial
from typing import Any

from rag_core.formats import guard
from rag_core.registry import Registry

Analyzer = Callable[[str], list[str]]

#: Kiwi part-of-speech tags kept by the ``kiwi`` analyzer (Sejong tag set as
#: kiwipiepy reports it). kiwipiepy marks some verb/adjective stems as regular
#: or irregular (``VV-R``, ``VV-I``, ``VA-I``: ``걷`` of ``걸었다``, ``아름답``
#: of ``아름다운``); we keep them as their base tag. The peer rows of
#: ``shared/datasets/BASELINES.md`` matched tags exactly and so dropped them:
#: on AutoRAG-ko that rule gives nDCG@10 0.9314 and ours 0.9278 (same
#: recall; within the ±0.03 noise of 114 queries). ``bench/beir.py`` shows both.
KIWI_CONTENT_TAGS = frozenset(
    {"NNG", "NNP", "NNB", "NR", "NP", "VV", "VA", "XR", "SL", "SN", "SH", "MAG", "MM"}
)

_ASCII_RE = re.compile(r"[a-z0-9]+")
#: Hangul syllables, jamo and compatibility jamo.
_HANGUL_RUN = re.compile(r"[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]+")
#: What ``auto`` does with Hangul runs: ``kiwi`` or ``bigram`` (character 2-grams).
AUTO_HANGUL = "kiwi"
_WORD_RE = re.compile(r"\w+")

#: A factory per analyzer name: ``factory(ngram_min=..., ngram_max=...) -> Analyzer``.
ANALYZER_FACTORIES: Registry[Callable[..., Analyzer]] = Registry("analyzer")


def ascii_terms(text: str) -> list[str]:
    """Lowercased runs of ``[a-z0-9]+``."""
    return _ASCII_RE.findall(text.lower())


def unicode_terms(text: str) -> list[str]:
    """Lowercased runs of Unicode word characters ``\\w+``."""
    return _WORD_RE.findall(text.lower())


def whitespace_terms(text: str) -> list[str]:
    """Lowercased ``str.split()`` tokens (punctuation stays attached)."""
    return text.lower().split()


def char_ngrams(text: str, ngram_min: int = 2, ngram_max: int = 4) -> list[str]:
    """All n-grams, ``ngram_min <= n <= ngram_max``, inside each lowercased whitespace token.

    A token shorter than ``ngram_min`` is kept whole, so a one-letter word
    still counts. For each token the n-grams are listed by n, then by position.

    Args:
        text: The text to cut.
        ngram_min: Shortest n-gram (>= 1).
        ngram_max: Longest n-gram (>= ``ngram_min``).

    Returns:
        The n-grams with repetitions (term frequencies are meaningful).
    """
    out: list[str] = []
    for tok in text.lower().split():
        size = len(tok)
        if size < ngram_min:
            out.append(tok)
            continue
        for n in range(ngram_min, min(ngram_max, size) + 1):
            out.extend(tok[i : i + n] for i in range(size - n + 1))
    return out


# ------------------------------------------------------------------ kiwi

_KIWI: Any = None
KIWI_LOCK = threading.Lock()


def kiwi_instance() -> Any:
    """The process-wide Kiwi instance (created once; the model ships in kiwipiepy_model).

    One worker thread: on a small shared machine a second worker made batch
    analysis slower, not faster. Calls on it are serialised by a lock.
    """
    global _KIWI
    if _KIWI is None:
        with KIWI_LOCK:
            if _KIWI is None:
                try:
                    # lazy: an optional heavy dependency, imported on first use
                    from kiwipiepy import Kiwi
                except ImportError as exc:  # pragma: no cover - depends on the install
                    raise ValueError(
                        "the kiwi analyzer needs kiwipiepy and kiwipiepy_model "
                        f"(pip install kiwipiepy kiwipiepy_model): {exc}"
                    ) from None
                _KIWI = Kiwi(num_workers=1)
    return _KIWI


def _kiwi_keep(tag: str) -> bool:
    return tag.partition("-")[0] in KIWI_CONTENT_TAGS


def _kiwi_forms(tokens: Iterable[Any]) -> list[str]:
    return [t.form.lower() for t in tokens if _kiwi_keep(t.tag)]


def kiwi_terms(text: str) -> list[str]:
    """Lowercased forms of the content morphemes Kiwi finds in ``text``."""
    return kiwi_terms_many([text])[0]


def kiwi_terms_many(texts: Sequence[str]) -> list[list[str]]:
    """:func:`kiwi_terms` for many texts in one batched Kiwi call (faster for indexing).

    Input guard: a run of more than :data:`rag_core.formats.guard.MAX_RUN` non-space
    characters (a spaceless line) is hard-cut into pieces of that length before Kiwi sees
    it (:func:`~rag_core.formats.guard.run_pieces`), so no call gets an unbounded lattice;
    a text's terms are its pieces' terms in order. Text with spaces is passed whole.
    """
    out: list[list[str]] = [[] for _ in texts]
    owner: list[int] = []
    pieces: list[str] = []
    for i, text in enumerate(texts):
        for piece in guard.run_pieces(text) if text.strip() else ():
            if piece.strip():
                owner.append(i)
                pieces.append(piece)
    if not pieces:
        return out
    for i, forms in zip(owner, _kiwi_forms_cached(pieces), strict=True):
        out[i].extend(forms)
    return out


#: Part of every stored analysis's key: bump when what :func:`_kiwi_forms` keeps changes.
KIWI_TERMS_VERSION = "1"


@lru_cache(maxsize=1)
def _kiwi_terms_salt() -> str:
    """What an analysis depends on besides its text: versions and the kept tags."""
    from importlib.metadata import version

    tags = ",".join(sorted(KIWI_CONTENT_TAGS))
    return f"{KIWI_TERMS_VERSION}|{version('kiwipiepy')}|{version('kiwipiepy_model')}|{tags}|"


def _kiwi_terms_key(piece: str) -> str:
    return hashlib.sha256((_kiwi_terms_salt() + piece).encode("utf-8")).hexdigest()


def _kiwi_forms_cached(pieces: Sequence[str]) -> list[list[str]]:
    """:func:`_kiwi_forms` of each piece's analysis, each piece analysed once per machine: the
    forms are kept in ``<cache>/kiwi_terms.sqlite`` (keyed by the piece, the kiwipiepy and model
    versions and the kept tags), so a restarted app indexes a Korean corpus without loading
    Kiwi (about 1.5 s) or analysing it again (about 3 s for the sample corpus's chunks)."""
    from rag_core.models import cache_root
    from rag_core.models.store import shared_store

    if _KIWI is not None and not type(_KIWI).__module__.startswith("kiwipiepy"):
        # a stand-in analyser (the tests'): its analyses are never stored nor looked up
        with KIWI_LOCK:
            return [_kiwi_forms(t) for t in _KIWI.tokenize(list(pieces))]
    store = shared_store(cache_root() / "kiwi_terms.sqlite")
    keys = [_kiwi_terms_key(p) for p in pieces]
    known = store.get_many(keys)
    todo = list(dict.fromkeys(p for p, k in zip(pieces, keys, strict=True) if k not in known))
    if todo:
        kiwi = kiwi_instance()
        with KIWI_LOCK:  # one analysis at a time on the shared instance
            results = list(kiwi.tokenize(todo))
        fresh = {_kiwi_terms_key(p): _kiwi_forms(t) for p, t in zip(todo, results, strict=True)}
        store.put_many(fresh)
        known.update(fresh)
    return [list(known[k]) for k in keys]


# ------------------------------------------------------------------ auto


def script_runs(text: str) -> list[tuple[str, bool]]:
    """``(run, is_hangul)`` pieces of ``text`` in order; their concatenation is ``text``."""
    out: list[tuple[str, bool]] = []
    pos = 0
    for m in _HANGUL_RUN.finditer(text):
        if m.start() > pos:
            out.append((text[pos : m.start()], False))
        out.append((m.group(0), True))
        pos = m.end()
    if pos < len(text):
        out.append((text[pos:], False))
    return out


def hangul_bigrams(run: str) -> list[str]:
    """Character 2-grams of one Hangul run (a one-character run is kept whole)."""
    run = run.lower()
    return [run] if len(run) < 2 else [run[i : i + 2] for i in range(len(run) - 1)]


def auto_segments(text: str, hangul: str = AUTO_HANGUL) -> list[tuple[str, str, list[str]]]:
    """What ``auto`` does, run by run: ``(run, analyzer used, terms)``.

    Hangul runs: ``hangul`` (``kiwi`` morphemes or ``bigram``); every other
    run: ``unicode``. Runs that yield no term (spaces, punctuation) are omitted.
    """
    if hangul not in ("kiwi", "bigram"):
        raise ValueError(f"hangul = {hangul!r} is not valid; valid choices: kiwi, bigram")
    runs = script_runs(text)
    ko = [r for r, h in runs if h]
    ko_terms = kiwi_terms_many(ko) if hangul == "kiwi" and ko else [hangul_bigrams(r) for r in ko]
    out: list[tuple[str, str, list[str]]] = []
    j = 0
    for run, is_ko in runs:
        if is_ko:
            terms, name = ko_terms[j], hangul
            j += 1
        else:
            terms, name = unicode_terms(run), "unicode"
        if terms:
            out.append((run, name, terms))
    return out


def auto_terms(text: str, hangul: str = AUTO_HANGUL) -> list[str]:
    """The ``auto`` analyzer: every run's terms, in order (see :func:`auto_segments`)."""
    return [t for _run, _name, terms in auto_segments(text, hangul) for t in terms]


def auto_terms_many(texts: Sequence[str], hangul: str = AUTO_HANGUL) -> list[list[str]]:
    """:func:`auto_terms` for many texts, with one batched Kiwi call over all Hangul runs."""
    runs = [script_runs(t) for t in texts]
    ko = [r for rs in runs for r, h in rs if h]
    if hangul == "kiwi":
        ko_terms = kiwi_terms_many(ko) if ko else []
    elif hangul == "bigram":
        ko_terms = [hangul_bigrams(r) for r in ko]
    else:
        raise ValueError(f"hangul = {hangul!r} is not valid; valid choices: kiwi, bigram")
    it = iter(ko_terms)
    return [[t for r, h in rs for t in (next(it) if h else unicode_terms(r))] for rs in runs]


# -------------------------------------------------------------- registry

ANALYZER_FACTORIES.add("auto", lambda **_: auto_terms)
ANALYZER_FACTORIES.add("ascii", lambda **_: ascii_terms)
ANALYZER_FACTORIES.add("unicode", lambda **_: unicode_terms)
ANALYZER_FACTORIES.add("whitespace", lambda **_: whitespace_terms)
ANALYZER_FACTORIES.add(
    "char",
    lambda ngram_min=2, ngram_max=4, **_: partial(
        char_ngrams, ngram_min=ngram_min, ngram_max=ngram_max
    ),
)
ANALYZER_FACTORIES.add("kiwi", lambda **_: kiwi_terms)


def _check_ngrams(ngram_min: int, ngram_max: int) -> None:
    for name, value in (("ngram_min", ngram_min), ("ngram_max", ngram_max)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} = {value!r} must be an integer >= 1")
    if ngram_max < ngram_min:
        raise ValueError(f"ngram_max = {ngram_max} must be >= ngram_min = {ngram_min}")


def get_analyzer(name: str, *, ngram_min: int = 2, ngram_max: int = 4) -> Analyzer:
    """The analyzer registered under ``name``.

    Args:
        name: One of :data:`rag_core.config.ANALYZERS`.
        ngram_min: Shortest n-gram (``char`` only).
        ngram_max: Longest n-gram (``char`` only).

    Raises:
        ValueError: Unknown name (the message lists the valid ones) or bad n-gram sizes.
    """
    factory = ANALYZER_FACTORIES.get(name)
    _check_ngrams(ngram_min, ngram_max)
    return factory(ngram_min=ngram_min, ngram_max=ngram_max)


def analyze_many(
    name: str, texts: Sequence[str], *, ngram_min: int = 2, ngram_max: int = 4
) -> list[list[str]]:
    """Analyse many texts; ``kiwi`` runs as one batched call.

    Returns:
        One term list per text, in order; ``analyze_many(n, ts)[i] == get_analyzer(n)(ts[i])``.
    """
    analyzer = get_analyzer(name, ngram_min=ngram_min, ngram_max=ngram_max)
    if name == "kiwi":
        return kiwi_terms_many(list(texts))
    if name == "auto":
        return auto_terms_many(list(texts))
    return [analyzer(t) for t in texts]
