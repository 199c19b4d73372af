"""BM25: the formulas, the index, and peer checks against rank-bm25 and bm25s."""

from __future__ import annotations

import math
import random
import re

import numpy as np
import pytest
import rank_bm25

from rag_core.config import BM25_VARIANTS
from rag_core.retrieval.sparse import (
    BM25Index,
    SparseIndex,
    analyze_many,
    build_sparse_index,
    get_analyzer,
)
from rag_core.retrieval.sparse.postings import top_k
from rag_core.retrieval.sparse.scoring import (
    BM25_VARIANTS as VARIANT_REGISTRY,
)
from rag_core.retrieval.sparse.scoring import (
    idf_bm25l,
    idf_bm25plus,
    idf_lucene,
    idf_okapi,
    length_norm,
    tf_bm25l,
    tf_bm25plus,
    tf_okapi,
)

HAND = [
    "the cat sat on the mat".split(),
    "the dog sat".split(),
    "a cat and a dog and a bird".split(),
    "the the the".split(),
    "bird song at dawn".split(),
    [],
]


def random_corpus(seed: int, n_docs: int, vocab: int = 60, max_len: int = 25):
    """Zipf-like random corpus from a local generator."""
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(vocab)]
    weights = [1.0 / (i + 1) for i in range(vocab)]
    docs = [rng.choices(words, weights, k=rng.randint(1, max_len)) for _ in range(n_docs)]
    queries = [
        rng.choices(words, weights, k=rng.randint(1, 6)) + ["unseen"] * (i % 2) for i in range(20)
    ]
    return docs, queries


# --------------------------------------------------------------- formulas


def test_hand_calculation():
    n, df, k1, b, avgdl, dl, tf = 100, 9, 1.2, 0.75, 100, 150, 3
    idf = idf_lucene(df, n)
    k = length_norm(dl, avgdl, k1, b)
    contribution = idf * tf_okapi(tf, dl, avgdl, k1, b)
    assert idf == pytest.approx(math.log(1 + (100 - 9 + 0.5) / (9 + 0.5)))
    assert k == pytest.approx(1.2 * (1 - 0.75 + 0.75 * 150 / 100))
    assert contribution == pytest.approx(
        math.log(1 + (100 - 9 + 0.5) / (9 + 0.5)) * 3 * (1.2 + 1) / (3 + 1.65)
    )
    # the rounded figures of the hand calculation: 2.364 · 1.419 ≈ 3.354 (the product is
    # 3.3545, truncated); unrounded the contribution is 3.3551, so check it to within 1.5e-3.
    tf_part = 3 * (1.2 + 1) / (3 + 1.65)
    assert round(float(idf), 3) == 2.364
    assert round(float(k), 2) == 1.65
    assert round(tf_part, 3) == 1.419
    assert float(contribution) == pytest.approx(3.354, abs=1.5e-3)


def test_okapi_idf_floor_uses_mean_before_flooring():
    df = np.array([1, 5, 6, 9])
    n = 10
    raw = [math.log((n - d + 0.5) / (d + 0.5)) for d in df]
    floor = 0.25 * sum(raw) / len(raw)
    expected = [r if r >= 0 else floor for r in raw]
    np.testing.assert_allclose(idf_okapi(df, n, 0.25), expected)
    assert idf_okapi(np.array([5]), 10)[0] == 0.0  # exactly half: 0, not floored


def test_other_idf_forms():
    assert idf_bm25l(3, 10) == pytest.approx(math.log(11) - math.log(3.5))
    assert idf_bm25plus(3, 10) == pytest.approx(math.log(11 / 3))
    assert idf_lucene(10, 10) > 0  # lucene idf never reaches 0


def test_tf_parts():
    k1, b, avgdl, dl, d = 1.5, 0.75, 10.0, 20.0, 0.5
    ctd = 2 / (1 - b + b * dl / avgdl)
    assert tf_bm25l(2, dl, avgdl, k1, b, d) == pytest.approx(
        2 * (k1 + 1) * (ctd + d) / (k1 + ctd + d)
    )
    assert tf_bm25plus(0, dl, avgdl, k1, b, d) == pytest.approx(d)  # δ even without the term
    assert tf_okapi(0, dl, avgdl, k1, b) == 0


def test_variant_registry_matches_config():
    assert VARIANT_REGISTRY.names() == BM25_VARIANTS


def test_unknown_variant_message():
    with pytest.raises(
        ValueError,
        match=re.escape("unknown BM25 variant 'bm25x'; valid choices: okapi, l, plus, lucene"),
    ):
        BM25Index.build(HAND, variant="bm25x")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"k1": -1.0}, "k1 = -1.0 is out of range; it must be >= 0.0"),
        ({"b": 1.5}, "b = 1.5 is out of range; it must be between 0.0 and 1.0"),
        ({"delta": float("nan")}, "delta = nan must be a finite number"),
    ],
)
def test_bad_parameters(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        BM25Index.build(HAND, **kwargs)


def test_bad_corpus():
    with pytest.raises(ValueError, match=re.escape("cannot build a sparse index over 0 documents")):
        BM25Index.build([])
    with pytest.raises(ValueError, match=re.escape("document 0 is a string, not a list of terms")):
        BM25Index.build(["a plain string"])
    index = BM25Index.build(HAND)
    with pytest.raises(ValueError, match=re.escape("query_tokens is a string")):
        index.scores("cat")


# ---------------------------------------------------------- naive oracle


def naive_lucene(docs, query, k1=1.2, b=0.75):
    """Textbook loop: Σ_t idf(t)·tf·(k1+1)/(tf + k1(1 − b + b|d|/avgdl))."""
    n = len(docs)
    avgdl = sum(len(d) for d in docs) / n
    out = []
    for d in docs:
        s = 0.0
        for t in query:
            df = sum(1 for x in docs if t in x)
            tf = d.count(t)
            if df == 0 or tf == 0:
                continue
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            s += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(d) / avgdl))
        out.append(s)
    return np.array(out)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lucene_equals_naive_loop(seed):
    docs, queries = random_corpus(seed, 40)
    index = BM25Index.build(docs, variant="lucene")
    for q in queries:
        np.testing.assert_allclose(index.scores(q), naive_lucene(docs, q), rtol=0, atol=1e-9)


# ---------------------------------------------------------- peer: rank-bm25


PEER_PARAMS = [(1.5, 0.75), (1.2, 0.75), (0.9, 0.4), (2.0, 1.0)]


@pytest.mark.parametrize("seed", [11, 12, 13])
@pytest.mark.parametrize(("k1", "b"), PEER_PARAMS)
def test_okapi_equals_rank_bm25(seed, k1, b):
    docs, queries = random_corpus(seed, 80)
    ref = rank_bm25.BM25Okapi(docs, k1=k1, b=b, epsilon=0.25)
    index = BM25Index.build(docs, variant="okapi", k1=k1, b=b, epsilon=0.25)
    for q in queries:
        np.testing.assert_allclose(index.scores(q), ref.get_scores(q), rtol=0, atol=1e-6)


def test_okapi_hand_corpus_with_negative_and_zero_idf():
    # "the" is in 4 of 7 docs: raw idf < 0, floored to ε·mean idf as rank-bm25 does
    docs = HAND + [["the", "end"]]
    ref = rank_bm25.BM25Okapi(docs)
    index = BM25Index.build(docs, variant="okapi", k1=1.5, b=0.75, epsilon=0.25)
    assert math.log((7 - 4 + 0.5) / (4 + 0.5)) < 0
    assert index.idf[index.vocab["the"]] == pytest.approx(0.25 * ref.average_idf, abs=1e-12)
    for q in (["the"], ["the", "cat"], ["cat", "cat", "dog"], ["zebra"], ["bird", "the", "a"]):
        np.testing.assert_allclose(index.scores(q), ref.get_scores(q), rtol=0, atol=1e-6)
    for term, tid in index.vocab.items():
        assert index.idf[tid] == pytest.approx(ref.idf[term], abs=1e-12)


@pytest.mark.parametrize(
    ("variant", "peer", "seed"),
    [("l", "BM25L", 21), ("l", "BM25L", 22), ("plus", "BM25Plus", 31), ("plus", "BM25Plus", 32)],
)
@pytest.mark.parametrize("delta", [0.5, 1.0])
def test_bm25l_and_bm25plus_equal_rank_bm25(variant, peer, seed, delta):
    docs, queries = random_corpus(seed, 60)
    ref = getattr(rank_bm25, peer)(docs, k1=1.5, b=0.75, delta=delta)
    index = BM25Index.build(docs, variant=variant, k1=1.5, b=0.75, delta=delta)
    for q in queries:
        np.testing.assert_allclose(index.scores(q), ref.get_scores(q), rtol=0, atol=1e-6)


# ------------------------------------------------------------- peer: bm25s


@pytest.mark.parametrize("seed", [41, 42])
@pytest.mark.parametrize(("k1", "b"), [(1.2, 0.75), (1.5, 0.3)])
def test_lucene_equals_bm25s_times_k1_plus_1(seed, k1, b):
    """bm25s' lucene tf part omits the constant (k1 + 1) (as Lucene ≥ 8 does); ours keeps it."""
    bm25s = pytest.importorskip("bm25s")
    docs, queries = random_corpus(seed, 70)
    ref = bm25s.BM25(k1=k1, b=b, method="lucene", dtype="float64")
    ref.index(docs, show_progress=False)
    index = BM25Index.build(docs, variant="lucene", k1=k1, b=b)
    for q in queries:
        expected = ref.get_scores(q) * (k1 + 1)
        np.testing.assert_allclose(index.scores(q), expected, rtol=1e-9, atol=1e-9)


# ------------------------------------------------------------ top / stats


def test_top_returns_only_positive_scores_best_first():
    index = BM25Index.build(HAND, variant="lucene")
    idx, scores = index.top(["cat"], k=10)
    assert set(idx.tolist()) == {0, 2}  # only the docs containing "cat"
    assert np.all(scores > 0) and np.all(np.diff(scores) <= 0)
    full = index.scores(["cat"])
    np.testing.assert_allclose(scores, full[idx])


def test_top_ties_keep_document_order_even_at_the_cut():
    docs = [["x", "y"], ["z"], ["x", "y"], ["x", "y"], ["x", "y"]]
    index = BM25Index.build(docs)
    idx, scores = index.top(["x"], k=3)
    assert list(idx) == [0, 2, 3]  # four equal scores, cut at 3: first three in doc order
    assert len(set(scores.tolist())) == 1
    idx, _ = index.top(["x"], k=10)
    assert list(idx) == [0, 2, 3, 4]


def _stable_top(scores, candidates, k):
    """Reference: a stable sort of every candidate by descending score."""
    idx = np.flatnonzero(candidates)
    order = idx[np.argsort(-scores[idx], kind="stable")][:k]
    return order, scores[order]


@pytest.mark.parametrize("layout", ["random", "ascending", "descending", "ties", "few-sampled"])
@pytest.mark.parametrize("k", [1, 10, 100])
def test_top_k_sampled_bound_equals_a_full_stable_sort(layout, k):
    # above postings._DIRECT_TOP_K candidates the sampled lower bound path runs
    rng = np.random.default_rng(7)
    n = 20_000
    scores = rng.random(n)
    candidates = rng.random(n) < 0.6
    if layout == "ascending":  # best scores at the end: the strided sample sees few of them
        scores = np.sort(scores)
    elif layout == "descending":
        scores = np.sort(scores)[::-1].copy()
    elif layout == "ties":  # a handful of distinct values: long runs of ties at the cut
        scores = rng.integers(0, 4, n).astype(np.float64)
    elif layout == "few-sampled":  # candidates only between sample points
        candidates = np.zeros(n, dtype=bool)
        candidates[1::5] = True
    idx, vals = top_k(scores, candidates, k)
    ref_idx, ref_vals = _stable_top(scores, candidates, k)
    np.testing.assert_array_equal(idx, ref_idx)
    np.testing.assert_array_equal(vals, ref_vals)


def test_bm25_search_equals_full_sort_on_a_large_corpus():
    # many candidates per query, so search() takes the sampled top-k path
    docs, queries = random_corpus(3, 5000, vocab=40, max_len=12)
    for variant in ("okapi", "l", "plus", "lucene"):
        index = BM25Index.build(docs, variant=variant)
        for q in queries:
            found = index.search(q, 10)
            cands = index.candidates(q)
            ref_idx, ref_vals = _stable_top(index.scores(q), cands, 10)
            np.testing.assert_array_equal(found.indices, ref_idx)
            np.testing.assert_array_equal(found.scores, ref_vals)
            assert found.n_candidates == int(cands.sum())


def test_top_no_candidates_is_empty():
    index = BM25Index.build(HAND)
    idx, scores = index.top(["zebra"], k=5)
    assert idx.size == 0 and scores.size == 0
    idx, scores = index.top([], k=5)
    assert idx.size == 0 and scores.size == 0


def test_top_bad_k():
    index = BM25Index.build(HAND)
    with pytest.raises(ValueError, match=re.escape("k = 0 must be an integer >= 1")):
        index.top(["cat"], k=0)


def test_okapi_nonpositive_idf_gives_no_candidate():
    # "a" in all 3 docs: raw idf ln(0.5/3.5) < 0, and the vocabulary's mean idf
    # (ln(0.5/3.5) + ln(2.5/1.5))/2 < 0 too, so the epsilon floor is negative
    docs = [["a"], ["a"], ["a", "b"]]
    index = BM25Index.build(docs, variant="okapi", epsilon=0.25)
    mean = (math.log(0.5 / 3.5) + math.log(2.5 / 1.5)) / 2
    assert index.term_stats(["a"])[0].idf == pytest.approx(0.25 * mean)
    assert np.all(index.scores(["a"]) < 0)
    assert index.top(["a"], k=5)[0].size == 0
    assert list(index.top(["a", "b"], k=5)[0]) == [2]  # b's positive idf outweighs a's
    # a term in exactly half of the documents has idf 0: a match scores 0
    half = BM25Index.build([["x"], ["y"]], variant="okapi")
    assert half.term_stats(["x"])[0].idf == 0.0
    assert half.top(["x"], k=5)[0].size == 0


def test_plus_scores_every_doc_but_candidates_need_a_term():
    index = BM25Index.build(HAND, variant="plus", delta=1.0)
    scores = index.scores(["song"])
    assert np.all(scores > 0)  # rank-bm25's BM25+ gives idf·δ to every document
    idx, _ = index.top(["song"], k=10)
    assert list(idx) == [4]
    assert index.candidates(["song"]).tolist() == [False, False, False, False, True, False]


def test_repeated_query_terms_count_repeatedly():
    index = BM25Index.build(HAND)
    np.testing.assert_allclose(index.scores(["cat", "cat"]), 2 * index.scores(["cat"]))


def test_term_stats_and_facts():
    index = BM25Index.build(HAND, variant="lucene")
    stats = index.term_stats(["cat", "zebra", "cat", "the"])
    assert [(s.term, s.qtf, s.df) for s in stats] == [("cat", 2, 2), ("zebra", 1, 0), ("the", 1, 3)]
    n = len(HAND)
    assert stats[0].idf == pytest.approx(math.log(1 + (n - 2 + 0.5) / (2 + 0.5)))
    assert stats[1].idf is None and stats[1].unknown
    assert index.n_docs == n
    assert index.vocabulary_size == len({t for d in HAND for t in d})
    assert index.idf_form.startswith("lucene: idf = ln(1 + (N − df + 0.5)/(df + 0.5))")
    assert BM25Index.build(HAND, variant="okapi").idf_form.startswith("okapi (rank-bm25)")


def test_factory():
    index = build_sparse_index("bm25", HAND, variant="okapi")
    assert isinstance(index, BM25Index) and isinstance(index, SparseIndex)
    with pytest.raises(
        ValueError, match=re.escape("unknown sparse method 'dense'; valid choices: bm25, tfidf")
    ):
        build_sparse_index("dense", HAND)
    with pytest.raises(ValueError, match=re.escape("unknown bm25 parameter(s) alpha")):
        build_sparse_index("bm25", HAND, alpha=1)


# ------------------------------------------------------ the particle case

PARTICLE_DOCS = [
    "한라산은 제주도 한가운데에 있다.",
    "여름에 한라산을 오르는 사람이 많다.",
    "고양이는 조용한 동물이다.",
]
PARTICLE_QUERY = "한라산의 높이"


def test_korean_particle_unicode_has_zero_candidates():
    tokens = analyze_many("unicode", PARTICLE_DOCS)
    index = BM25Index.build(tokens)
    query = get_analyzer("unicode")(PARTICLE_QUERY)
    idx, scores = index.top(query, k=5)
    assert idx.size == 0 and scores.size == 0
    assert [(s.term, s.df) for s in index.term_stats(query)] == [("한라산의", 0), ("높이", 0)]


@pytest.mark.parametrize("analyzer", ["char", "kiwi"])
def test_korean_particle_char_and_kiwi_find_candidates(analyzer):
    tokens = analyze_many(analyzer, PARTICLE_DOCS)
    index = BM25Index.build(tokens)
    idx, _ = index.top(get_analyzer(analyzer)(PARTICLE_QUERY), k=5)
    assert set(idx.tolist()) == {0, 1}
