"""Sparse index build time for the whole sample corpus, every preset and analyzer.

Run: .venv/bin/python bench/corpus_index.py

Prints the time to chunk the bundled corpus with presets A–F and to build
BM25 and TF-IDF indexes over each chunking with every analyzer (Kiwi's model
load is reported separately: it happens once per process).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rag_core.config import ANALYZERS, preset
from rag_core.index import load_corpus_index
from rag_core.models.tokenizer import embedding_tokenizer
from rag_core.retrieval.sparse.analyzers import kiwi_instance


def main() -> None:
    t0 = time.perf_counter()
    corpus = load_corpus_index()
    t_load = time.perf_counter() - t0
    t0 = time.perf_counter()
    embedding_tokenizer()
    t_tok = time.perf_counter() - t0
    t0 = time.perf_counter()
    kiwi_instance()
    t_kiwi = time.perf_counter() - t0
    print(
        f"corpus: {len(corpus.documents)} documents, {corpus.report.n_chars:,} characters (load "
        f"{t_load:.2f} s; MiniLM tokenizer load {t_tok:.2f} s; Kiwi model load {t_kiwi:.2f} s)"
    )
    total = 0.0
    for p in "ABCDEF":
        cfg = preset(p)
        t0 = time.perf_counter()
        chunking = corpus.chunking(cfg.chunker)
        t_chunk = time.perf_counter() - t0
        row = [f"{p}: {len(chunking.chunks)} chunks, chunking {t_chunk:.2f} s"]
        total += t_chunk
        for analyzer in ANALYZERS:
            t0 = time.perf_counter()
            for method in ("bm25", "tfidf"):
                corpus.sparse(cfg.chunker, method, analyzer, cfg.retrieval)
            dt = time.perf_counter() - t0
            total += dt
            row.append(f"{analyzer} {dt:.2f} s")
        print(" | ".join(row))
    print(f"all presets × analyzers × (BM25 + TF-IDF): {total:.1f} s after model loads")


if __name__ == "__main__":
    main()
