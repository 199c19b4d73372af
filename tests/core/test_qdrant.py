"""Qdrant as a retriever: the client's embedded local mode (a real Qdrant code path, no server).

Fast tests use a hashed-trigram toy embedder (tests/test_dense.py) so that
the collection, our exact cosine and the question encoder are known; the
slow test uses the bundled MiniLM on the sample corpus and compares the
Qdrant list with our exact-cosine dense list on every English question.
"""

from __future__ import annotations

import json
import socket

import numpy as np
import pytest
from helpers.fakes import HashEmbedder

from rag_core.cli import main
from rag_core.config import GenerationConfig, PipelineConfig, RetrievalConfig
from rag_core.pipeline import run
from rag_core.retrieval import qdrant as rq
from rag_core.retrieval.dense import DenseIndex

COLLECTION = "tiny"


@pytest.fixture(autouse=True)
def _fresh_clients(monkeypatch, tmp_path):
    """Own embedding cache; toy embedder under its own name; no client (folder lock) kept across
    tests."""
    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))
    import rag_core.models as models
    import rag_core.models.embcache as embcache

    monkeypatch.setattr(embcache, "_DEFAULT", {})
    real = models.get_embedder
    toys = {"hash-64": HashEmbedder(64, "hash-64"), "hash-32": HashEmbedder(32, "hash-32")}
    monkeypatch.setattr(
        models, "get_embedder", lambda name="minilm": toys[name] if name in toys else real(name)
    )
    yield
    rq.close_all()


def _config(**retrieval) -> PipelineConfig:
    base = {
        "methods": ("qdrant",),
        "qdrant_collection": COLLECTION,
        "qdrant_model": "hash-64",
        "k": 5,
    }
    return PipelineConfig(
        retrieval=RetrievalConfig(**(base | retrieval)), generation=GenerationConfig(model="none")
    )


def _build(corpus, path, *, chunker=None, embedder=None, name=COLLECTION):
    cfg = PipelineConfig()
    chunking = corpus.chunking(chunker or cfg.chunker)
    index = DenseIndex.build(
        chunking.chunks,
        embedder or HashEmbedder(64, "hash-64"),
        chunker_signature=chunking.signature,
    )
    facts = rq.build_collection(
        rq.QdrantTarget(path=str(path)),
        name,
        chunking.chunks,
        index.vectors,
        model_id=index.stamp.embedding_model,
        chunker_signature=chunking.signature,
    )
    rq.close_all()  # release the folder lock, as a separate indexing process would
    return index, facts


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ------------------------------------------------------------------ config


def test_config_fields_and_validation():
    rc = RetrievalConfig(methods=("bm25", "qdrant"))
    assert rc.method_specs == (("bm25", "auto"), ("qdrant", None))
    assert (rc.qdrant_collection, rc.qdrant_text_field, rc.qdrant_doc_field, rc.qdrant_model) == (
        "rag-inspector",
        "text",
        "doc_id",
        "minilm",
    )
    with pytest.raises(ValueError, match="both set; set one"):
        RetrievalConfig(qdrant_url="http://localhost:6333", qdrant_path="/tmp/x")
    with pytest.raises(ValueError, match=r"must start with http:// or https://"):
        RetrievalConfig(qdrant_url="localhost:6333")
    with pytest.raises(ValueError, match="qdrant retrieval takes no analyzer"):
        RetrievalConfig(methods=("qdrant:char",))
    with pytest.raises(
        ValueError, match="retrieval.qdrant_text_field = '' must be a non-empty name"
    ):
        RetrievalConfig(qdrant_text_field="")
    cfg = PipelineConfig().with_overrides(
        {"retrieval.methods": "bm25,qdrant", "retrieval.qdrant_path": "/data/q"}
    )
    assert PipelineConfig.from_dict(cfg.to_dict()) == cfg


# --------------------------------------------------------------- retrieval


def test_qdrant_list_equals_exact_cosine_and_carries_distance(tiny_corpus, tmp_path):
    index, facts = _build(tiny_corpus, tmp_path / "q")
    assert (facts.points, facts.dimension, facts.distance) == (len(index), 64, "Cosine")
    question = "Error E21 means the water inlet is blocked"
    trace = run(_config(qdrant_path=str(tmp_path / "q")), question, tiny_corpus, stop_after="gate")
    (lst,) = trace.retrieval.lists
    assert lst.status == "ok", lst.message
    assert lst.name == f"qdrant:{COLLECTION}" and lst.n_candidates == len(index)
    assert lst.params["distance"] == "Cosine" and lst.params["dimension"] == 64
    order, cos = index.search(question, 5)
    assert [h.chunk_id for h in lst.hits] == [index.chunk_ids[i] for i in order]
    np.testing.assert_allclose([h.score for h in lst.hits], cos, atol=1e-5)
    for h in lst.hits:
        assert h.distance == pytest.approx(
            1.0 - h.score
        )  # cosine distance, as Qdrant's score gives it


def test_gate_uses_the_qdrant_distance(tiny_corpus, tmp_path):
    _build(tiny_corpus, tmp_path / "q")
    cfg = _config(qdrant_path=str(tmp_path / "q"))
    cfg = cfg.with_overrides({"gate.max_distance": "0.0001"})
    trace = run(cfg, "zebra stripes", tiny_corpus, stop_after="gate")
    assert trace.gate.metric == "distance"
    assert trace.gate.refused and "nothing under cosine distance" in trace.gate.reason


def test_fused_with_bm25(tiny_corpus, tmp_path):
    _build(tiny_corpus, tmp_path / "q")
    trace = run(
        _config(methods=("bm25", "qdrant"), qdrant_path=str(tmp_path / "q")),
        "KV cache grows",
        tiny_corpus,
        stop_after="gate",
    )
    assert [lst.status for lst in trace.retrieval.lists] == ["ok", "ok"]
    assert trace.retrieval.fused is not None
    assert trace.retrieval.fused.inputs == ("bm25:auto", f"qdrant:{COLLECTION}")


def test_euclid_collection_keeps_qdrant_distances_and_says_so(tiny_corpus, tmp_path):
    from qdrant_client import QdrantClient, models

    index, _ = _build(tiny_corpus, tmp_path / "q")
    chunking = tiny_corpus.chunking(PipelineConfig().chunker)
    client = QdrantClient(path=str(tmp_path / "e"))
    client.create_collection(
        "euclid", vectors_config=models.VectorParams(size=64, distance=models.Distance.EUCLID)
    )
    client.upsert(
        "euclid",
        points=[
            models.PointStruct(
                id=i,
                vector=index.vectors[i].tolist(),
                payload={"chunk_id": c.chunk_id, "doc_id": c.doc_id, "text": c.text},
            )
            for i, c in enumerate(chunking.chunks)
        ],
    )
    client.close()
    question = "Error E21 means the water inlet is blocked"
    trace = run(
        _config(qdrant_path=str(tmp_path / "e"), qdrant_collection="euclid"),
        question,
        tiny_corpus,
        stop_after="gate",
    )
    (lst,) = trace.retrieval.lists
    assert lst.status == "ok" and lst.params["distance"] == "Euclid"
    order, cos = index.search(question, 5)
    assert [h.chunk_id for h in lst.hits] == [index.chunk_ids[i] for i in order]
    # unit vectors: ‖q − c‖ = sqrt(2 − 2·cos), shown as Qdrant returns it (ascending), no cosine
    # distance
    np.testing.assert_allclose([h.score for h in lst.hits], np.sqrt(2 - 2 * cos), atol=1e-5)
    assert all(h.distance is None for h in lst.hits)
    assert "scores are Qdrant's Euclid distances (lower is better" in lst.message


# --------------------------------------------------------------- bad input


def _beside_bm25(corpus, **retrieval):
    """The trace of "KV cache" up to the gate, Qdrant (set by ``retrieval``) beside BM25."""
    return run(
        _config(methods=("bm25", "qdrant"), **retrieval), "KV cache", corpus, stop_after="gate"
    )


def _failed(trace, status):
    bm25, q = trace.retrieval.lists
    assert bm25.status == "ok" and bm25.hits, "the other retriever keeps working"
    assert trace.retrieval.hits == bm25.hits
    assert q.status == status and q.hits == ()
    return q.message


def test_unreachable_server_is_unavailable_and_bm25_still_runs(tiny_corpus):
    url = f"http://127.0.0.1:{_free_port()}"
    trace = _beside_bm25(tiny_corpus, qdrant_url=url)
    message = _failed(trace, "unavailable")
    assert message.startswith(f"Qdrant at {url} is unreachable or failed while listing collections")


def test_nothing_configured_and_missing_folder(tiny_corpus, tmp_path):
    trace = _beside_bm25(tiny_corpus)
    assert "no Qdrant given: set retrieval.qdrant_url" in _failed(trace, "unavailable")
    trace = _beside_bm25(tiny_corpus, qdrant_path=str(tmp_path / "nope"))
    assert f"retrieval.qdrant_path {tmp_path / 'nope'} does not exist" in _failed(
        trace, "unavailable"
    )
    assert not (tmp_path / "nope").exists()  # looking did not create it


def test_missing_collection_lists_those_there(tiny_corpus, tmp_path):
    _build(tiny_corpus, tmp_path / "q")
    trace = _beside_bm25(tiny_corpus, qdrant_path=str(tmp_path / "q"), qdrant_collection="other")
    assert _failed(trace, "error") == (
        f"Qdrant at local folder {tmp_path / 'q'} has no collection 'other'; collections there: "
        f"{COLLECTION}"
    )


def test_missing_payload_field_names_it_and_the_fields_there(tiny_corpus, tmp_path):
    _build(tiny_corpus, tmp_path / "q")
    trace = _beside_bm25(tiny_corpus, qdrant_path=str(tmp_path / "q"), qdrant_text_field="body")
    message = _failed(trace, "error")
    assert "has no payload field 'body' (retrieval.qdrant_text_field)" in message
    assert "its payload fields are: chunk_id, chunker, doc_id, embedding_model, text" in message


def test_dimension_mismatch_names_both(tiny_corpus, tmp_path):
    _build(tiny_corpus, tmp_path / "q")
    trace = _beside_bm25(tiny_corpus, qdrant_path=str(tmp_path / "q"), qdrant_model="hash-32")
    assert _failed(trace, "error") == (
        f"dimension mismatch: collection '{COLLECTION}' holds 64-d vectors but the question "
        "embedder hash-32 gives 32-d vectors; set retrieval.qdrant_model to the model that built "
        "the collection"
    )


def test_same_dimension_other_model_is_reported(tiny_corpus, tmp_path):
    _build(tiny_corpus, tmp_path / "q", embedder=HashEmbedder(64, "hash-64-other"))
    trace = _beside_bm25(tiny_corpus, qdrant_path=str(tmp_path / "q"))
    assert _failed(trace, "error") == (
        f"collection '{COLLECTION}' was embedded with hash-64-other but the question embedder is "
        "hash-64; set retrieval.qdrant_model to the model that built the collection"
    )


def test_collection_of_another_chunking_is_reported(tiny_corpus, tmp_path):
    from rag_core.config import ChunkerConfig

    _build(tiny_corpus, tmp_path / "q", chunker=ChunkerConfig(strategy="blind", target=64))
    trace = _beside_bm25(tiny_corpus, qdrant_path=str(tmp_path / "q"))
    message = _failed(trace, "error")
    assert message.startswith(
        "5 of 5 hits are not chunks of the loaded corpus with chunker boundaries-t512"
    )


def test_hits_matching_no_loaded_chunk_are_counted_in_a_notice(
    tiny_corpus, tiny_corpus_dir, tmp_path, capsys
):
    """Some hits of the collection are not chunks of the loaded corpus (issue 27): they are left
    out, counted in the list's notice (status ok: the others are real hits), and the CLI says so
    on stderr."""
    from dataclasses import replace

    cfg = PipelineConfig()
    chunking = tiny_corpus.chunking(cfg.chunker)
    chunks = [
        replace(c, chunk_id=f"elsewhere::{c.chunk_id}") if i % 2 else c
        for i, c in enumerate(chunking.chunks)
    ]
    index = DenseIndex.build(
        chunking.chunks, HashEmbedder(64, "hash-64"), chunker_signature=chunking.signature
    )
    rq.build_collection(
        rq.QdrantTarget(path=str(tmp_path / "q")),
        COLLECTION,
        chunks,
        index.vectors,
        model_id="hash-64",
        chunker_signature=chunking.signature,
    )
    rq.close_all()
    n = len(chunks)
    trace = run(
        _config(qdrant_path=str(tmp_path / "q"), k=n), "KV cache", tiny_corpus, stop_after="gate"
    )
    (q,) = trace.retrieval.lists
    assert q.status == "ok" and len(q.hits) == n - n // 2
    assert all(not h.chunk_id.startswith("elsewhere::") for h in q.hits)
    assert q.notice is not None and q.notice.code == "qdrant.foreign_hits"
    assert q.notice.params["foreign"] == n // 2 and q.notice.params["found"] == n
    assert q.message.startswith(f"{n // 2} of {n} hits are not chunks of the loaded corpus")
    rq.close_all()
    query = [
        "query",
        "KV cache",
        "--corpus",
        str(tiny_corpus_dir),
        "--set",
        "generation.model=none",
    ]
    query += ["--set", "retrieval.methods=qdrant", "--set", f"retrieval.k={n}"]
    query += ["--set", f"retrieval.qdrant_collection={COLLECTION}"]
    query += ["--set", "retrieval.qdrant_model=hash-64"]
    assert main([*query, "--set", f"retrieval.qdrant_path={tmp_path / 'q'}"]) == 0
    err = capsys.readouterr().err
    assert f"note: qdrant:{COLLECTION}: {n // 2} of {n} hits are not chunks" in err, err
    rq.close_all()


# --------------------------------------------------------------------- CLI


def _index_args(where: list[str], collection: str, corpus_dir) -> list[str]:
    """``index qdrant`` of ``corpus_dir`` with the hash-64 embedder into ``where``."""
    return [
        "index",
        "qdrant",
        *where,
        "--collection",
        collection,
        "--corpus",
        str(corpus_dir),
        "--model",
        "hash-64",
    ]


def _query_args(corpus_dir) -> list[str]:
    """``query`` "Error E17" with bm25 and the hash-64 Qdrant collection, no generation."""
    return [
        "query",
        "Error E17",
        "--corpus",
        str(corpus_dir),
        "--json",
        "--set",
        "generation.model=none",
        "--set",
        "retrieval.methods=bm25,qdrant",
        "--set",
        f"retrieval.qdrant_collection={COLLECTION}",
        "--set",
        "retrieval.qdrant_model=hash-64",
    ]


def test_cli_index_then_query(tiny_corpus_dir, tmp_path, capsys):
    path = str(tmp_path / "q")
    args = _index_args(["--path", path], COLLECTION, tiny_corpus_dir) + ["--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert (
        out["collection"] == COLLECTION and out["dimension"] == 64 and out["distance"] == "Cosine"
    )
    assert out["embedding_model"] == "hash-64" and out["points"] > 0
    rq.close_all()
    assert main(args) == 2  # exists: not silently replaced
    err = capsys.readouterr().err
    assert "already exists" in err and "pass --recreate to replace it" in err
    rq.close_all()
    assert main(args + ["--recreate"]) == 0
    capsys.readouterr()
    rq.close_all()

    assert main(_query_args(tiny_corpus_dir) + ["--set", f"retrieval.qdrant_path={path}"]) == 0
    trace = json.loads(capsys.readouterr().out)
    assert [lst["status"] for lst in trace["retrieval"]["lists"]] == ["ok", "ok"]
    rq.close_all()


def test_cli_unreachable_server_and_bad_input(tiny_corpus_dir, capsys):
    url = f"http://127.0.0.1:{_free_port()}"
    assert main(_query_args(tiny_corpus_dir) + ["--set", f"retrieval.qdrant_url={url}"]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(
        f"error: qdrant:{COLLECTION}: Qdrant at {url} is unreachable"
    )
    trace = json.loads(captured.out)  # the Trace of the retrievers that worked is still printed
    assert trace["retrieval"]["lists"][0]["status"] == "ok"

    assert main(_index_args(["--url", url], "x", tiny_corpus_dir)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: Qdrant at {url} is unreachable")
    assert main(["index", "qdrant", "--collection", "x"]) == 2
    assert "exactly one of --path DIR" in capsys.readouterr().err


# ------------------------------------------------------------- real model


@pytest.mark.slow
def test_sample_corpus_qdrant_top10_agrees_with_exact_cosine(tmp_path, monkeypatch):
    """MiniLM on the sample corpus: Qdrant local mode vs our exact-cosine dense list, every English
    question."""
    from rag_core.index import load_corpus_index

    monkeypatch.delenv("RAG_INSPECTOR_CACHE")  # the real model: share the user's embedding cache
    corpus = load_corpus_index()
    cfg = PipelineConfig()
    chunking = corpus.chunking(cfg.chunker)
    dense = corpus.dense(cfg.chunker, "minilm")
    rq.build_collection(
        rq.QdrantTarget(path=str(tmp_path / "q")),
        "sample",
        chunking.chunks,
        dense.vectors,
        model_id=dense.stamp.embedding_model,
        chunker_signature=chunking.signature,
    )
    cfg = cfg.with_overrides(
        {
            "retrieval.methods": "dense,qdrant",
            "retrieval.k": "10",
            "retrieval.dense_model": "minilm",
            "retrieval.qdrant_path": str(tmp_path / "q"),
            "retrieval.qdrant_collection": "sample",
            "generation.model": "none",
        }
    )
    questions = [q for q in corpus.questions if q.lang == "en"]
    same_order = same_set = 0
    for q in questions:
        dense_list, q_list = run(cfg, q.question, corpus, stop_after="gate").retrieval.lists
        assert q_list.status == "ok", q_list.message
        a, b = [h.chunk_id for h in dense_list.hits], [h.chunk_id for h in q_list.hits]
        same_order += a == b
        same_set += set(a) == set(b)
        np.testing.assert_allclose(
            [h.score for h in q_list.hits], [h.score for h in dense_list.hits], atol=1e-5
        )
    n = len(questions)
    print(
        f"\nqdrant vs exact cosine top-10 on {n} English questions: identical order "
        f"{same_order}/{n}, same set {same_set}/{n}"
    )
    assert n >= 20
    assert same_order / n >= 0.95
