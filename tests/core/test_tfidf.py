"""TF-IDF: a three-document toy by hand, and equality with scikit-learn."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer

from rag_core.retrieval.sparse import (
    SparseResult,
    TfidfIndex,
    analyze_many,
    build_sparse_index,
    get_analyzer,
)
from rag_core.retrieval.sparse.scoring import idf_tfidf_smooth


def test_three_document_toy():
    docs = {"A": "제주 기후 기후", "B": "제주 관광", "C": "제주"}
    ws = get_analyzer("whitespace")
    index = TfidfIndex.build([ws(t) for t in docs.values()])
    n = 3
    idf_jeju = math.log((1 + n) / (1 + 3)) + 1  # in all three documents: 1
    idf_climate = math.log((1 + n) / (1 + 1)) + 1  # ln(4/2) + 1
    idf_tour = math.log((1 + n) / (1 + 1)) + 1
    stats = {s.term: s.idf for s in index.term_stats(ws("제주 기후"))}
    assert stats["제주"] == pytest.approx(idf_jeju) and idf_jeju == 1
    assert stats["기후"] == pytest.approx(idf_climate)
    assert round(stats["기후"], 4) == 1.6931

    q = np.array([idf_jeju, idf_climate])  # query vector over (제주, 기후)
    q /= np.linalg.norm(q)
    a = np.array([idf_jeju, 2 * idf_climate])
    a /= np.linalg.norm(a)
    b_norm = math.hypot(idf_jeju, idf_tour)
    expected = {
        "A": float(q @ a),
        "B": q[0] * idf_jeju / b_norm,  # shares only 제주
        "C": float(q[0]),  # C = (1, 0)
    }
    scores = index.scores(ws("제주 기후"))
    for i, name in enumerate(docs):
        assert scores[i] == pytest.approx(expected[name])
    assert round(scores[0], 4) == 0.9698
    assert round(scores[2], 4) == 0.5085
    assert round(scores[1], 4) == 0.2586
    idx, _ = index.top(ws("제주 기후"), k=3)
    assert [list(docs)[i] for i in idx] == ["A", "C", "B"]


def test_smooth_idf_formula():
    assert idf_tfidf_smooth(3, 10) == pytest.approx(math.log(11 / 4) + 1)


def random_texts(seed: int, n: int):
    rng = random.Random(seed)
    words = [f"t{i}" for i in range(40)] + ["한라산", "제주", "높이"]
    weights = [1.0 / (i + 1) ** 0.8 for i in range(len(words))]
    return [" ".join(rng.choices(words, weights, k=rng.randint(0, 20))) for _ in range(n)], [
        " ".join(rng.choices(words, weights, k=rng.randint(1, 5))) + (" nope" if i % 3 == 0 else "")
        for i in range(15)
    ]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("analyzer", ["whitespace", "char"])
def test_equals_scikit_learn(seed, analyzer):
    texts, queries = random_texts(seed, 50)
    analyze = get_analyzer(analyzer)
    ref = TfidfVectorizer(analyzer=analyze)  # defaults: smooth idf, l2, raw tf
    matrix = ref.fit_transform(texts)
    index = TfidfIndex.build(analyze_many(analyzer, texts))
    assert index.vocabulary_size == len(ref.vocabulary_)
    for term, col in ref.vocabulary_.items():
        assert index.idf[index.vocab[term]] == pytest.approx(ref.idf_[col], abs=1e-12)
    for q in queries:
        expected = (matrix @ ref.transform([q]).T).toarray().ravel()
        np.testing.assert_allclose(index.scores(analyze(q)), expected, rtol=0, atol=1e-12)
    dense_ours = index.doc_vectors().toarray()
    order = [index.vocab[t] for t in sorted(ref.vocabulary_, key=ref.vocabulary_.get)]
    np.testing.assert_allclose(dense_ours[:, order], matrix.toarray(), atol=1e-12)


def test_unknown_query_terms_give_no_candidates():
    index = TfidfIndex.build([["a", "b"], ["b", "c"]])
    idx, scores = index.top(["zzz"], k=3)
    assert idx.size == 0 and scores.size == 0
    assert index.query_vector(["zzz"]) == []
    assert [(s.term, s.df, s.idf) for s in index.term_stats(["zzz"])] == [("zzz", 0, None)]


def test_factory_and_facts():
    index = build_sparse_index("tfidf", [["a"], ["a", "b"]])
    assert isinstance(index, TfidfIndex)
    assert index.n_docs == 2 and index.vocabulary_size == 2
    assert "ln((1 + N)/(1 + df)) + 1" in index.idf_form
    with pytest.raises(ValueError, match="tfidf takes no parameters, got k1"):
        build_sparse_index("tfidf", [["a"]], k1=1.2)


def test_korean_particle_case_tfidf():
    docs = ["한라산은 높다", "한라산을 올랐다"]
    index = TfidfIndex.build(analyze_many("unicode", docs))
    assert index.top(get_analyzer("unicode")("한라산의 높이"), k=5)[0].size == 0
    char_index = TfidfIndex.build(analyze_many("char", docs))
    assert char_index.top(get_analyzer("char")("한라산의 높이"), k=5)[0].size == 2


@pytest.mark.parametrize("method", ["bm25", "tfidf"])
def test_search_returns_a_named_result_equal_to_top(method):
    docs = [["a", "b"], ["b", "c"], ["c", "d", "d"], ["e"], ["b", "b", "d"]]
    index = build_sparse_index(method, docs)
    found = index.search(["b", "d"], k=2)
    assert isinstance(found, SparseResult)
    idx, scores = index.top(["b", "d"], k=2)
    np.testing.assert_array_equal(found.indices, idx)
    np.testing.assert_array_equal(found.scores, scores)
    np.testing.assert_array_equal(found.scores, index.scores(["b", "d"])[found.indices])
    # documents 0, 1, 2 and 4 hold b or d; document 3 does not
    assert found.n_candidates == 4 == int(index.candidates(["b", "d"]).sum())
