"""Speed and equality of our BM25 against rank-bm25 and bm25s on synthetic corpora.

Corpora: 10k, 100k and 1M chunks, words drawn from a Zipfian vocabulary
(50,000 words, exponent 1.1), chunk lengths uniform in 60..120 tokens,
queries of 2..6 words from the same distribution (fixed seeds).

Compared, per corpus size:
- ours ``okapi`` (k1=1.5, b=0.75, ε=0.25) vs rank-bm25 ``BM25Okapi`` (same
  parameters, same idf): scores must agree to 1e-6.
- ours ``lucene`` (k1=1.2, b=0.75) vs bm25s ``BM25(method="lucene")``: bm25s
  drops the constant (k1 + 1) factor of the tf part and scores in float32, so
  we compare ours against bm25s × (k1 + 1) with a float32 tolerance.
- time per query, one query at a time, top-10: ours ``top``; rank-bm25
  ``get_scores`` + stable argsort; bm25s ``get_scores`` + its numpy top-k
  (the core) and bm25s ``retrieve`` (its public API, one query per call).
  The machine is shared, so ours and bm25s core are timed interleaved (each
  query on both, back to back) in ``--reps`` passes, and the median pass time
  and the median of the per-pass ratios are printed.
- 1M chunks (no rank-bm25: too slow; ``--skip-1m`` leaves the row out): ours
  lucene vs bm25s core, equality as above, plus memory: the process' peak RSS
  while each index is built (Linux ``VmHWM``, reset before each build) and the
  bytes the built index holds (its numpy arrays; vocabulary dict apart).

Targets: ≥ 10× faster than rank-bm25 at 10k chunks, within 1.5× of bm25s;
within 1.2× of bm25s core at 100k.

Run: ``.venv/bin/python bench/bm25.py`` (5–11 minutes on 2 shared cores, ~5 GiB
peak for the 1M row; ``--skip-1m``: about 2 minutes).
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bm25s
import bm25s.selection
import rank_bm25

from rag_core.retrieval.sparse import BM25Index

VOCAB = 50_000
ZIPF_S = 1.1
TOP_K = 10


def make_corpus(n_docs: int, n_queries: int, seed: int) -> tuple[list[list[str]], list[list[str]]]:
    """Zipfian synthetic chunks and queries from a seeded local generator.

    Drawn in blocks of 100k chunks so that a 1M corpus does not hold every
    token twice (as an array and as lists) while it is made.
    """
    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, VOCAB + 1) ** ZIPF_S
    p /= p.sum()
    words = np.array([f"w{i}" for i in range(VOCAB)], dtype=object)
    lengths = rng.integers(60, 121, size=n_docs)
    docs: list[list[str]] = []
    for lo in range(0, n_docs, 100_000):
        block = lengths[lo : lo + 100_000]
        flat = words[rng.choice(VOCAB, size=int(block.sum()), p=p)].tolist()
        bounds = np.concatenate([[0], np.cumsum(block)])
        docs.extend(flat[bounds[i] : bounds[i + 1]] for i in range(len(block)))
        del flat
    q_lens = rng.integers(2, 7, size=n_queries)
    queries = [words[rng.choice(VOCAB, size=int(n), p=p)].tolist() for n in q_lens]
    return docs, queries


def _reset_peak_rss() -> None:
    """Reset the kernel's peak-RSS counter (``VmHWM``) of this process (Linux)."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def _rss_mib(field: str) -> float:
    """``VmRSS`` (now) or ``VmHWM`` (peak since the last reset) in MiB, from /proc."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def index_bytes(index: BM25Index) -> int:
    """Bytes of the numpy arrays a built index holds (postings, weights, per-term and per-doc
    arrays)."""
    arrays = (
        index.indptr,
        index.docs,
        index.weights,
        index.df,
        index.idf,
        index.doc_len,
        index.unmatched,
    )
    return sum(a.nbytes for a in arrays)


def timed_pair(fns: dict, queries, reps: int) -> tuple[dict[str, float], list[float]]:
    """Per-query ms of ``ours`` and ``peer``, interleaved query by query, over ``reps`` passes.

    Each query runs on both engines back to back, so load from other
    processes on a shared machine hits both alike. Returns the median pass
    time (ms/query) of each and the per-pass ratios ours / peer.
    """
    runs: dict[str, list[float]] = {name: [0.0] * reps for name in fns}
    for r in range(reps):
        for q in queries:
            for name, fn in fns.items():
                t = time.perf_counter()
                fn(q)
                runs[name][r] += time.perf_counter() - t
    ms = {name: [v * 1000 / len(queries) for v in vals] for name, vals in runs.items()}
    ratios = [a / b for a, b in zip(ms["ours"], ms["peer"], strict=True)]
    return {name: statistics.median(v) for name, v in ms.items()}, ratios


def per_query_ms(fn, queries) -> tuple[float, list]:
    out = []
    t = time.perf_counter()
    for q in queries:
        out.append(fn(q))
    return (time.perf_counter() - t) * 1000 / len(queries), out


def bench(n_docs: int, n_queries: int, n_rank_bm25: int, seed: int, reps: int) -> dict[str, float]:
    """Ours vs rank-bm25 and bm25s at ``n_docs`` chunks: equality, then time per query (top-10).

    Returns the speed-up over rank-bm25 (``rank``) and our time over bm25s core (``core``, the
    median of ``reps`` interleaved passes) and over bm25s ``retrieve`` (``api``).
    """
    print(f"\n== {n_docs:,} chunks, {n_queries} queries (rank-bm25: first {n_rank_bm25}) ==")
    t = time.perf_counter()
    docs, queries = make_corpus(n_docs, n_queries, seed)
    n_tokens = sum(map(len, docs))
    print(f"corpus: {n_tokens:,} tokens, generated in {time.perf_counter() - t:.1f} s")
    engines = _build_engines(docs)
    rq = queries[:n_rank_bm25]
    rank_only_scoring = _check_equal(engines, queries, rq)
    return _time_top(engines, queries, rq, reps, rank_only_scoring)


@dataclass(frozen=True)
class _Engines:
    """The four indexes of one corpus: ours okapi and lucene, rank-bm25's and bm25s'."""

    ours_okapi: BM25Index
    ours_lucene: BM25Index
    ref_rank: rank_bm25.BM25Okapi
    ref_s: bm25s.BM25


def _build_engines(docs: list[list[str]]) -> _Engines:
    """Build the four indexes, each timed; print the build times and our vocabulary size."""
    builds = {}
    t = time.perf_counter()
    ours_okapi = BM25Index.build(docs, variant="okapi", k1=1.5, b=0.75, epsilon=0.25)
    builds["ours okapi"] = time.perf_counter() - t
    t = time.perf_counter()
    ours_lucene = BM25Index.build(docs, variant="lucene", k1=1.2, b=0.75)
    builds["ours lucene"] = time.perf_counter() - t
    t = time.perf_counter()
    ref_rank = rank_bm25.BM25Okapi(docs, k1=1.5, b=0.75, epsilon=0.25)
    builds["rank-bm25"] = time.perf_counter() - t
    t = time.perf_counter()
    ref_s = bm25s.BM25(k1=1.2, b=0.75, method="lucene")
    ref_s.index(docs, show_progress=False)
    builds["bm25s"] = time.perf_counter() - t
    print("index build: " + ", ".join(f"{k} {v:.2f} s" for k, v in builds.items()))
    print(f"vocabulary: {ours_lucene.vocabulary_size:,} terms")
    return _Engines(ours_okapi, ours_lucene, ref_rank, ref_s)


def _check_equal(engines: _Engines, queries: list[list[str]], rq: list[list[str]]) -> float:
    """Okapi vs rank-bm25 on ``rq`` (to 1e-6) and lucene vs bm25s × (k1 + 1) on every query
    (float32 precision); exit on a difference. Returns rank-bm25's ``get_scores`` ms/query."""
    ours_scores = [engines.ours_okapi.scores(q) for q in rq]
    t = time.perf_counter()
    ref_scores = [engines.ref_rank.get_scores(q) for q in rq]
    rank_only_scoring = (time.perf_counter() - t) * 1000 / len(rq)
    diff_okapi = max(
        float(np.max(np.abs(a - b))) for a, b in zip(ours_scores, ref_scores, strict=True)
    )
    diff_lucene_abs, diff_lucene_rel = 0.0, 0.0
    for q in queries:
        ours = engines.ours_lucene.scores(q)
        ref = engines.ref_s.get_scores(q).astype(np.float64) * (1.2 + 1)
        diff_lucene_abs = max(diff_lucene_abs, float(np.max(np.abs(ours - ref))))
        diff_lucene_rel = max(
            diff_lucene_rel, float(np.max(np.abs(ours - ref) / np.maximum(np.abs(ours), 1e-12)))
        )
    print(f"okapi vs rank-bm25: max |diff| = {diff_okapi:.2e}")
    print(
        f"lucene vs bm25s×(k1+1): max |diff| = {diff_lucene_abs:.2e}, "
        f"max relative = {diff_lucene_rel:.2e} (bm25s scores in float32)"
    )
    if diff_okapi > 1e-6:
        raise SystemExit("FAIL: okapi scores differ from rank-bm25 by more than 1e-6")
    if diff_lucene_rel > 1e-5:
        raise SystemExit("FAIL: lucene scores differ from bm25s beyond float32 precision")
    return rank_only_scoring


def _time_top(
    engines: _Engines,
    queries: list[list[str]],
    rq: list[list[str]],
    reps: int,
    rank_only_scoring: float,
) -> dict[str, float]:
    """Time the top-10 of each engine, one query at a time; print the times and the ratios."""
    ours_okapi, ours_lucene = engines.ours_okapi, engines.ours_lucene
    ref_rank, ref_s = engines.ref_rank, engines.ref_s

    def rank_top(q):
        s = ref_rank.get_scores(q)
        return np.argsort(-s, kind="stable")[:TOP_K]

    def bm25s_core(q):
        ids = ref_s.get_tokens_ids(q)
        s = ref_s.get_scores_from_ids(ids)
        return bm25s.selection.topk(s, k=TOP_K, backend="numpy", sorted=True)

    def bm25s_retrieve(q):
        return ref_s.retrieve([q], k=TOP_K, show_progress=False, n_threads=1)

    for warm in queries[:5]:  # warm caches once for each engine
        ours_lucene.top(warm, TOP_K), bm25s_core(warm), bm25s_retrieve(warm)
    times = {}
    times["ours okapi"], ours_top = per_query_ms(lambda q: ours_okapi.top(q, TOP_K), queries)
    times["rank-bm25"], rank_tops = per_query_ms(rank_top, rq)
    times["bm25s retrieve"], _ = per_query_ms(bm25s_retrieve, queries)
    paired, ratios = timed_pair(
        {"ours": lambda q: ours_lucene.top(q, TOP_K), "peer": bm25s_core}, queries, reps
    )
    times["ours lucene"], times["bm25s core"] = paired["ours"], paired["peer"]
    same_top = sum(
        list(a[0]) == [int(i) for i in b[: len(a[0])]]
        for a, b in zip(ours_top, rank_tops, strict=False)
    )
    print(f"okapi top-10 identical to rank-bm25's stable argsort: {same_top}/{len(rq)} queries")
    print(f"rank-bm25 get_scores alone: {rank_only_scoring:.2f} ms/query")
    print("per query (ms): " + ", ".join(f"{k} {v:.3f}" for k, v in times.items()))
    print("ours lucene / bm25s core per pass: " + ", ".join(f"{r:.2f}" for r in ratios))
    r_rank = times["rank-bm25"] / times["ours okapi"]
    r_core = statistics.median(ratios)
    r_api = times["ours lucene"] / times["bm25s retrieve"]
    print(f"speed-up vs rank-bm25 (okapi): {r_rank:.1f}×")
    print(
        f"ours lucene / bm25s core: {r_core:.2f} (median of {reps} passes)   "
        f"ours lucene / bm25s retrieve: {r_api:.2f}"
    )
    return {"rank": r_rank, "core": r_core, "api": r_api}


def bench_1m(n_docs: int, n_queries: int, seed: int, reps: int) -> dict[str, float]:
    """Ours lucene vs bm25s core at ``n_docs`` chunks, with build memory."""
    print(f"\n== {n_docs:,} chunks, {n_queries} queries (no rank-bm25) ==")
    t = time.perf_counter()
    docs, queries = make_corpus(n_docs, n_queries, seed)
    print(
        f"corpus: {sum(map(len, docs)):,} tokens, generated in {time.perf_counter() - t:.1f} s, "
        f"process RSS {_rss_mib('VmRSS'):,.0f} MiB"
    )

    base = _rss_mib("VmRSS")
    _reset_peak_rss()
    t = time.perf_counter()
    ours = BM25Index.build(docs, variant="lucene", k1=1.2, b=0.75)
    build_ours = time.perf_counter() - t
    peak_ours = _rss_mib("VmHWM")
    n_post = int(ours.docs.size)
    print(
        f"ours: build {build_ours:.1f} s, {n_post:,} postings, index "
        f"{index_bytes(ours) / 2**20:,.0f} MiB ({index_bytes(ours) / n_post:.1f} B/posting) + "
        f"vocabulary dict ({ours.vocabulary_size:,} terms); peak RSS during build {peak_ours:,.0f} "
        f"MiB (+{peak_ours - base:,.0f} MiB over the corpus)"
    )

    base = _rss_mib("VmRSS")
    _reset_peak_rss()
    t = time.perf_counter()
    ref_s = bm25s.BM25(k1=1.2, b=0.75, method="lucene")
    ref_s.index(docs, show_progress=False)
    build_s = time.perf_counter() - t
    peak_s = _rss_mib("VmHWM")
    s_bytes = sum(ref_s.scores[key].nbytes for key in ("data", "indices", "indptr"))
    print(
        f"bm25s: build {build_s:.1f} s, index {s_bytes / 2**20:,.0f} MiB (float32 scores); "
        f"peak RSS during build {peak_s:,.0f} MiB (+{peak_s - base:,.0f} MiB)"
    )
    del docs

    rel = 0.0
    for q in queries:
        a = ours.scores(q)
        ref = ref_s.get_scores(q).astype(np.float64) * (1.2 + 1)
        rel = max(rel, float(np.max(np.abs(a - ref) / np.maximum(np.abs(a), 1e-12))))
    print(f"lucene vs bm25s×(k1+1): max relative diff = {rel:.2e}")
    if rel > 1e-5:
        raise SystemExit("FAIL: lucene scores differ from bm25s beyond float32 precision")

    def bm25s_core(q):
        ids = ref_s.get_tokens_ids(q)
        s = ref_s.get_scores_from_ids(ids)
        return bm25s.selection.topk(s, k=TOP_K, backend="numpy", sorted=True)

    for warm in queries[:5]:
        ours.top(warm, TOP_K), bm25s_core(warm)
    paired, ratios = timed_pair(
        {"ours": lambda q: ours.top(q, TOP_K), "peer": bm25s_core}, queries, reps
    )
    print(f"per query (ms): ours lucene {paired['ours']:.3f}, bm25s core {paired['peer']:.3f}")
    print("ours lucene / bm25s core per pass: " + ", ".join(f"{r:.2f}" for r in ratios))
    return {"core": statistics.median(ratios), "peak": peak_ours, "bytes": index_bytes(ours)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--reps", type=int, default=5, help="alternating timing passes (median reported)"
    )
    ap.add_argument("--skip-1m", action="store_true", help="leave out the 1M-chunk row")
    args = ap.parse_args()
    if args.reps < 1:
        raise SystemExit("--reps must be >= 1")
    t0 = time.perf_counter()
    r10 = bench(10_000, 200, 200, seed=10, reps=args.reps)
    r100 = bench(100_000, 200, 20, seed=100, reps=args.reps)
    r1m = None if args.skip_1m else bench_1m(1_000_000, 100, seed=1000, reps=args.reps)
    print("\n== targets ==")
    print(
        f"10k: {r10['rank']:.1f}× faster than rank-bm25 (target ≥ 10×): "
        f"{'met' if r10['rank'] >= 10 else 'MISSED'}"
    )
    for name, r, target in (("10k", r10, 1.5), ("100k", r100, 1.2)):
        print(
            f"{name}: {r['core']:.2f}× bm25s core time, {r['api']:.2f}× bm25s retrieve time "
            f"(target ≤ {target}×): {'met' if r['core'] <= target else 'MISSED'}"
        )
    if r1m is not None:
        print(
            f"1M: {r1m['core']:.2f}× bm25s core time; index {r1m['bytes'] / 2**20:,.0f} MiB, "
            f"peak RSS during build {r1m['peak']:,.0f} MiB"
        )
    print(f"total wall time {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
