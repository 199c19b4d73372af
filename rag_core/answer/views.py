"""What the support check knows of a claim and of a source (:mod:`rag_core.answer.support`
judges one against the other): a claim's judged text, terms, names, numbers, negation, days and
— for a short answer — its values; a source's sentences with their terms, numbers and negation,
its 1–3-sentence windows and their vectors, read without the pieces of words its chunk's edges
cut in two. Sentence vectors are encoded once per process (:func:`encode_cached`)."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from threading import Lock
from typing import Any

import numpy as np

from rag_core.answer.claims import judged_start, strip_citations
from rag_core.answer.evidence import (
    Window,
    analyzer_for,
    entity_terms,
    has_negation,
    is_unit,
    quantities_in,
    quote_units,
    terms,
    windows,
)
from rag_core.answer.schedule import closures, day_spans
from rag_core.types import ContextStage, Source

#: A claim with numbers and at most this many words besides the question's, its numbers and
#: their units is a short answer: it states its values — the numbers the question does not —
#: about what was asked ("2022년에는 내국인 관광객이 1명을 찾은 해가 되었다"). A source that
#: does not state each value in a sentence sharing a word with the claim backs it no more than
#: :data:`~rag_core.answer.support.NO_TERMS_P` (:func:`~rag_core.answer.support.values_unstated`),
#: whatever else of the question it repeats.
VALUE_ANSWER_WORDS = 2


# ----------------------------------------------------------- vector cache

_VEC_CACHE: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
_VEC_LOCK = Lock()
#: Sentence vectors kept per process (about 150 MB at 384 float32 dimensions).
VEC_CACHE_SIZE = 100_000


def encode_cached(embedder: Any, texts: Sequence[str]) -> np.ndarray:
    """Unit vectors of ``texts`` (``embedder.encode_queries``), each text encoded once per
    process: an LRU keyed by ``(model id, sha256(text))``."""
    mid = str(getattr(embedder, "model_id", id(embedder)))
    keys = [(mid, hashlib.sha256(t.encode("utf-8")).hexdigest()) for t in texts]
    with _VEC_LOCK:
        have = {k: _VEC_CACHE[k] for k in keys if k in _VEC_CACHE}
        for k in have:
            _VEC_CACHE.move_to_end(k)
    todo = list(dict.fromkeys(i for i, k in enumerate(keys) if k not in have))
    todo_texts: dict[tuple[str, str], str] = {}
    for i in todo:
        todo_texts.setdefault(keys[i], texts[i])
    if todo_texts:
        vecs = np.asarray(embedder.encode_queries(list(todo_texts.values())), dtype=np.float32)
        with _VEC_LOCK:
            for k, v in zip(todo_texts, vecs, strict=True):
                have[k] = v
                _VEC_CACHE[k] = v
            while len(_VEC_CACHE) > VEC_CACHE_SIZE:
                _VEC_CACHE.popitem(last=False)
    if not keys:
        return np.zeros((0, 0), dtype=np.float32)
    return np.stack([have[k] for k in keys])


# ----------------------------------------------------------------- pieces


@dataclass(frozen=True)
class ClaimView:
    """What the checker knows of one claim."""

    start: int
    end: int
    text: str  # its judged part (lead-ins skipped), citations removed, whitespace collapsed
    analyzer: str
    answer_terms: frozenset[str]
    question_terms: frozenset[str]
    entities: frozenset[str]
    quantities: tuple[tuple[str, str, str | None], ...]
    negated: bool
    #: Each day phrase of a claim that something happens on those days (none in a negated
    #: claim or one that says they are closed): its text and days (:mod:`.schedule`).
    days: tuple[tuple[str, frozenset[int]], ...] = ()
    #: A short answer's values (:data:`VALUE_ANSWER_WORDS`), as ``(value, unit)``; empty for
    #: any other claim.
    values: tuple[tuple[str, str | None], ...] = ()
    #: The claim's terms other than its numbers and their units: what it states them about.
    about: frozenset[str] = frozenset()


@dataclass(frozen=True)
class SourceView:
    """A source quote cut into sentences with their terms and numbers."""

    source: Source
    sentence_terms: tuple[frozenset[str], ...]
    sentence_numbers: tuple[frozenset[tuple[str, str | None]], ...]
    sentence_negated: tuple[bool, ...]
    stated_negated: tuple[bool, ...]  # the unit states a negation explicitly (a record's false)
    all_terms: frozenset[str]
    positive_terms: frozenset[str]  # terms of the units that are not negated
    all_numbers: frozenset[tuple[str, str | None]]
    windows: tuple[Window, ...]
    vectors: np.ndarray | None  # unit vector per window, or None without an embedder
    #: Per unit: the days it says are closed, with the terms of what is closed.
    closures: tuple[tuple[tuple[frozenset[int], frozenset[str]], ...], ...] = ()


def claim_view(answer: str, a: int, b: int, question_terms: frozenset[str] | None) -> ClaimView:
    """The claim ``answer[a:b]``, judged on what it asserts (:func:`judged_start` skips lead-ins
    such as "Based on the passages,"): its answer terms (its terms minus the question's, all of
    them when it only restates the question), the question's terms, names, numbers, negation."""
    raw = answer[a:b]
    text = " ".join(strip_citations(raw[judged_start(raw) :]).split())
    analyzer = analyzer_for(text)
    t = terms(text, analyzer)
    q = question_terms or frozenset()
    novel = t - q
    ents = entity_terms(text) if analyzer == "unicode" else frozenset()
    negated = has_negation(text)
    shut = frozenset().union(*(x.days for x in closures(text)))
    days = () if negated else tuple((text[s:e], d) for s, e, d in day_spans(text) if d - shut)
    quantities = tuple(quantities_in(text))
    own = terms(" ".join(w for w, _v, _u in quantities), analyzer)
    about = frozenset(x for x in t - own if not (quantities and is_unit(x)))
    short = bool(q) and len(about - q) <= VALUE_ANSWER_WORDS
    # a number the question states ("WD-8412" of "How often should the WD-8412 be descaled?")
    # says what is asked about, not the answer
    values = tuple((v, u) for w, v, u in quantities if not terms(w, analyzer) <= q) if short else ()
    return ClaimView(
        a, b, text, analyzer, novel or t, q, ents, quantities, negated, days, values, about
    )


def readable(src: Source) -> str:
    """``src.quote`` with the pieces of words its chunk's edges cut in two blanked
    (:attr:`~rag_core.types.Source.torn`: the "1" of a "1,380만" cut after its first digit is no
    number the document states); the same offsets, and the quote itself when nothing else is
    left."""
    a, b = src.torn
    q = src.quote
    text = " " * a + q[a : len(q) - b] + " " * b if a or b else q
    return text if text.strip() else q


def source_view(src: Source, analyzer: str, embedder: Any) -> SourceView:
    """Sentences, terms, numbers and window vectors of ``src`` (vectors from the cache), read
    from :func:`readable`."""
    text = readable(src)
    units = quote_units(text, src.lead)
    texts = [u.text for u in units]
    st = tuple(terms(t, analyzer, stated=True) for t in texts)
    sn = tuple(frozenset((v, u) for _w, v, u in quantities_in(t)) for t in texts)
    wins = tuple(windows(text, lead=src.lead))
    negated = tuple(has_negation(u.text) if u.negated is None else u.negated for u in units)
    positive = [t for t, n in zip(st, negated, strict=True) if not n]
    vectors = None
    if embedder is not None and texts:
        sv = encode_cached(embedder, texts)
        wv = np.stack([sv[w.first : w.last + 1].sum(axis=0) for w in wins])
        vectors = wv / np.maximum(np.linalg.norm(wv, axis=1, keepdims=True), 1e-12)
    return SourceView(
        src,
        st,
        sn,
        negated,
        tuple(u.negated is True for u in units),
        frozenset().union(*st) if st else frozenset(),
        frozenset().union(*positive) if positive else frozenset(),
        frozenset().union(*sn) if sn else frozenset(),
        wins,
        vectors,
        tuple(tuple((x.days, terms(x.scope, analyzer)) for x in closures(t)) for t in texts),
    )


def prepare_sources(context: ContextStage, embedder: Any) -> None:
    """Warm what the check of *any* answer over ``context``'s included sources reads: each
    source's sentence terms under the analyzer its own text calls for (:func:`terms` is cached)
    and its sentence vectors (:func:`encode_cached`). None of it depends on the answer, so the
    pipeline runs this while the answer is being written and the verdicts follow the last
    token without the sources' encoding (about 1 s for three Korean sources here)."""
    for src in context.sources:
        if src.n is not None and src.quote.strip():
            source_view(src, analyzer_for(src.quote), embedder)
