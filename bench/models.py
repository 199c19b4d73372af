"""Speed of the model-backed stages against the plain library calls they wrap.

Measured on the sample corpus, chunked with preset C (boundaries 512):

1. index build — ``DenseIndex.build`` (no cache) vs raw
   ``SentenceTransformer.encode(texts, normalize_embeddings=True)`` on the
   same chunk texts with the same model (target ours/raw ≤ 1.1);
2. warm rebuild — ``DenseIndex.build`` with a fresh embedding cache (cold)
   and again with the filled cache (warm) (target cold/warm ≥ 20);
3. dense query latency — encode the question + exact cosine over all chunks
   (median of the questions of the sample sets);
4. generation — our ``generate`` (cache off) vs ``model.generate`` with the
   same model, the same ids and the same greedy settings (target
   ours/plain ≤ 1.2); tokens/s of each;
5. cached replay — ``generate`` again on the same context (target ≤ 50 ms);
6.–10. ``--precision``: float32 against the dtype ``auto`` picks (prefill and
   decode tokens/s, interleaved, as fractions of the arithmetic peak), qint8,
   prefix KV reuse and the CLI end to end — ``bench/precision.py``, whose
   options follow ``--precision`` (e.g. ``--precision --repeats 3 --e2e``).

Run: ``.venv/bin/python bench/models.py [--chunks N] [--new-tokens N]``
(a few minutes on 2 cores; the first run of the generator converts the
bundled GGUF once, about 80 s, before anything is timed).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from rag_core.answer.context import build_context
from rag_core.answer.generation import generate
from rag_core.config import ChunkerConfig, ContextConfig, GenerationConfig
from rag_core.formats.questions import load_questions
from rag_core.index import load_corpus_index
from rag_core.models import get_embedder, get_generator
from rag_core.models.embcache import EmbeddingCache
from rag_core.retrieval.dense import DenseIndex
from rag_core.types import Hit
from rag_core.wording import english


def timed(fn, repeat: int = 1) -> tuple[float, object]:
    """Best wall time of ``repeat`` calls and the last result."""
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def verdict(ok: bool) -> str:
    return "meets target" if ok else "MISSES target"


def main() -> None:
    if "--precision" in sys.argv:  # sections 6-10 only, options passed on
        import precision

        i = sys.argv.index("--precision")
        precision.main(sys.argv[i + 1 :])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chunks", type=int, default=300, help="chunks to embed (default 300)")
    ap.add_argument("--new-tokens", type=int, default=32, help="tokens to generate (default 32)")
    args = ap.parse_args()

    corpus = load_corpus_index()
    chunking = corpus.chunking(ChunkerConfig())
    chunks = list(chunking.chunks)[: args.chunks]
    print(f"sample corpus: {len(chunking.chunks)} chunks (preset C); timing {len(chunks)} of them")

    emb = get_embedder("minilm")
    emb.encode_passages([c.text for c in chunks[:8]])  # warm-up (first call allocates)
    idx = index_build(chunks, chunking.signature, emb)
    rebuild(chunks, emb)
    query_latency(idx)
    generation(corpus, chunking, chunks, args.new_tokens)


def index_build(chunks: list, signature: str, emb) -> DenseIndex:
    """1. Build vs raw encode (each run once: a run takes tens of seconds on 2 cores)."""
    texts = [c.text for c in chunks]
    raw = emb.model  # the same SentenceTransformer instance
    t_raw, raw_vecs = timed(
        lambda: raw.encode(
            texts,
            batch_size=32,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
    )
    t_ours, idx = timed(lambda: DenseIndex.build(chunks, emb, chunker_signature=signature))
    same = np.allclose(idx.vectors, raw_vecs, atol=1e-5)
    r1 = t_ours / t_raw
    print(
        f"\n1. index build: ours {t_ours:.2f} s, raw encode {t_raw:.2f} s -> {r1:.3f}x "
        f"(target <= 1.1x: {verdict(r1 <= 1.1)}); vectors equal: {same}"
    )
    return idx


def rebuild(chunks: list, emb) -> None:
    """2. Cold vs warm with the embedding cache."""
    with tempfile.TemporaryDirectory() as tmp:
        cache = EmbeddingCache(Path(tmp) / "emb.sqlite")
        t_cold, _ = timed(lambda: DenseIndex.build(chunks, emb, chunker_signature="c", cache=cache))
        t_warm, warm = timed(
            lambda: DenseIndex.build(chunks, emb, chunker_signature="c", cache=cache), repeat=3
        )
        r2 = t_cold / t_warm
        print(
            f"2. rebuild: cold {t_cold:.2f} s, warm {t_warm * 1000:.1f} ms (embedded "
            f"{warm.embedded}) -> {r2:.0f}x faster (target >= 20x: {verdict(r2 >= 20)})"
        )


def query_latency(idx: DenseIndex) -> None:
    """3. Dense query latency over 15 questions of each sample set."""
    questions = []
    for name in ("en.jsonl", "ko.jsonl"):
        path = Path(__file__).resolve().parents[1] / "sample_corpus" / "questions" / name
        if path.exists():
            questions += [q.question for q in load_questions(path)][:15]
    lat = []
    for q in questions:
        t, _ = timed(lambda q=q: idx.search(q, 8))
        lat.append(t * 1000)
    print(
        f"3. dense query (encode + cosine over {len(idx)} chunks): median "
        f"{statistics.median(lat):.1f} ms, max {max(lat):.1f} ms over {len(lat)} questions"
    )


def generation(corpus, chunking, chunks: list, new_tokens: int) -> None:
    """4. Generation vs plain ``model.generate``; 5. the cached replay."""
    import torch

    gen = get_generator(
        "qwen2.5-coder-0.5b", progress=lambda m, f: print(f"   [{f:4.0%}] {english(m)}")
    )
    hits = [Hit(c.chunk_id, c.doc_id, r, 1.0) for r, c in enumerate(chunks[:3], start=1)]
    ctx = build_context(
        "What does this section explain?",
        hits,
        chunking.by_id,
        corpus.docs,
        ContextConfig(budget_tokens=1024),
        tokenizer=gen,
    )
    cfg = GenerationConfig(
        max_new_tokens=new_tokens, citations="free"
    )  # the peer is plain greedy generate
    ids = torch.tensor([list(ctx.input_ids)])
    mask = torch.ones_like(ids)

    def plain():
        with torch.inference_mode():
            return gen.model.generate(
                input_ids=ids,
                attention_mask=mask,
                max_new_tokens=new_tokens,
                do_sample=False,
                temperature=None,
                top_p=None,
                top_k=None,
                eos_token_id=gen.eos_ids,
                pad_token_id=gen.pad_id,
            )

    with tempfile.TemporaryDirectory() as tmp:
        plain()  # warm-up
        t_plain, out = timed(plain, repeat=2)
        n_plain = out.shape[1] - ids.shape[1]
        t_gen, stage = timed(
            lambda: generate(ctx, cfg, generator=gen, cache_dir=tmp, use_cache=False), repeat=2
        )
        r4 = t_gen / t_plain
        print(
            f"4. generation ({len(ctx.input_ids)} prompt tokens): ours {t_gen:.2f} s for "
            f"{stage.output_tokens} tokens ({stage.output_tokens / t_gen:.2f} tok/s), plain "
            f"model.generate {t_plain:.2f} s for {n_plain} tokens ({n_plain / t_plain:.2f} tok/s) "
            f"-> {r4:.3f}x (target <= 1.2x: {verdict(r4 <= 1.2)})"
        )
        t_rep, rep = timed(lambda: generate(ctx, cfg, generator=gen, cache_dir=tmp), repeat=5)
        print(
            f"5. cached replay: {t_rep * 1000:.2f} ms (cached={rep.cached}) "
            f"(target <= 50 ms: {verdict(t_rep <= 0.05)})"
        )
    print(f"\ngenerator load: {gen.load_seconds:.1f} s this process")


if __name__ == "__main__":
    main()
