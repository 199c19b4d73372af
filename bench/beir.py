"""Our BM25 on real BEIR-layout sets, beside the peer figures of BASELINES.md.

Datasets (read in place, never copied): ``../shared/datasets/scifact`` (English)
and ``../shared/datasets/autorag_ko`` (Korean). Document text = ``title + " " + text``
(just ``text`` when the title is empty); only queries with qrels are used;
top 100 per query; scored with pytrec_eval (``ndcg_cut.10``, ``recall.10``,
``recall.100``), binary relevance, mean over judged queries.

Ours: ``BM25Index`` lucene, k1 = 1.2, b = 0.75, once per analyzer (ascii,
unicode, whitespace, char 2–4 on both sets; kiwi and char 2–2 on the Korean set),
plus ``okapi`` k1 = 1.5 with ``unicode`` tokens to compare with rank-bm25, and
on the Korean set Kiwi with the peer's exact-tag rule (see ``KIWI_CONTENT_TAGS``).
Our lucene scores equal bm25s' × (k1 + 1) (bm25s omits that constant), so the
rankings — and the metrics — should equal the bm25s rows with the same tokens.

Peers re-run here (same machine, same run): bm25s lucene with our ``unicode``
tokens on both sets, bm25s with English stopwords + Snowball stemmer on SciFact
(BASELINES' main row), rank-bm25 ``BM25Okapi`` with ``unicode`` tokens on both.

Product path: the same sets through ``python -m rag_core eval --beir DIR``'s code
(:func:`rag_core.corpus.datasets.load_beir_set` + :func:`rag_core.evaluation.run.evaluate_config`
with ``doc_qrels``), BM25 lucene k1 = 1.2, b = 0.75, ``unicode`` analyzer, one chunk
per document (``chunker.strategy = blind``, ``chunker.target = 100000``; checked), so
its nDCG@10 must equal the kernel row "ours lucene unicode". Reported per query:
the kernel (``BM25Index.top`` on pre-tokenized queries), the kernel plus query
tokenization, and the product path (question validation, analysis, the pipeline to
the gate with its Trace, document ranking and metrics), and the ratio product / kernel;
then the floor (the same steps without the pipeline and its Trace) and the Trace's share.

Run: ``.venv/bin/python bench/beir.py [--data DIR] [--only-product]`` (about 1–2 minutes on 2
cores).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pytrec_eval

from rag_core.retrieval.sparse import BM25Index, analyze_many
from rag_core.retrieval.sparse.analyzers import KIWI_CONTENT_TAGS, KIWI_LOCK, kiwi_instance

#: The public sets (``RAG_INSPECTOR_DATASETS``, else ``../shared/datasets`` beside the checkout).
DEFAULT_DATA = Path(
    os.environ.get("RAG_INSPECTOR_DATASETS")
    or Path(__file__).resolve().parents[2] / "shared" / "datasets"
)
DEPTH = 100
MEASURES = ("ndcg_cut_10", "recall_10", "recall_100")

# Peer figures (nDCG@10, Recall@10, Recall@100) copied from
# ../shared/datasets/BASELINES.md (measured there on a 2-vCPU machine,
# bm25s 0.3.16 lucene k1=1.2 b=0.75 with the named tokens unless said otherwise).
PEERS: dict[tuple[str, str], tuple[str, tuple[float, float, float]]] = {
    ("scifact", "unicode"): ("bm25s unicode", (0.6634, 0.7876, 0.8826)),
    ("scifact", "ascii"): ("bm25s ascii", (0.6622, 0.7843, 0.8826)),
    ("scifact", "char"): ("bm25s char 2–4", (0.6678, 0.7868, 0.9280)),
    ("scifact", "okapi-unicode"): ("rank-bm25 Okapi unicode", (0.6519, 0.7740, 0.8731)),
    ("scifact", "stem+stop"): ("bm25s stopwords+Snowball", (0.6791, 0.8078, 0.9127)),
    ("autorag_ko", "whitespace"): ("bm25s whitespace", (0.7600, 0.8596, 0.9298)),
    ("autorag_ko", "unicode"): ("bm25s unicode", (0.8102, 0.9123, 0.9825)),
    ("autorag_ko", "char"): ("bm25s char 2–4", (0.9166, 0.9912, 0.9912)),
    ("autorag_ko", "char2"): ("bm25s char 2-grams", (0.9184, 0.9825, 1.0000)),
    ("autorag_ko", "kiwi"): ("bm25s Kiwi content tags", (0.9314, 1.0000, 1.0000)),
    ("autorag_ko", "okapi-unicode"): ("rank-bm25 Okapi unicode", (0.8095, 0.9211, 0.9825)),
}


def load_beir(
    folder: Path,
) -> tuple[list[str], list[str], dict[str, str], dict[str, dict[str, int]]]:
    """Doc ids, doc texts, {qid: query} (judged only) and qrels of a BEIR folder."""
    ids, texts = [], []
    with open(folder / "corpus.jsonl", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                title, text = row.get("title") or "", row.get("text") or ""
                ids.append(str(row["_id"]))
                texts.append(f"{title} {text}" if title else text)
    qrels: dict[str, dict[str, int]] = {}
    with open(folder / "qrels.tsv", encoding="utf-8") as fh:
        next(fh)  # header
        for line in fh:
            if line.strip():
                qid, did, score = line.rstrip("\n").split("\t")
                qrels.setdefault(qid, {})[did] = int(score)
    queries = {}
    with open(folder / "queries.jsonl", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                if str(row["_id"]) in qrels:
                    queries[str(row["_id"])] = row["text"]
    return ids, texts, queries, qrels


def evaluate(
    run: dict[str, dict[str, float]], qrels: dict[str, dict[str, int]]
) -> tuple[float, ...]:
    """Mean ``MEASURES`` over all judged queries (a query missing from the run counts 0)."""
    ev = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recall.10", "recall.100"})
    per_q = ev.evaluate(run)
    return tuple(sum(per_q.get(q, {}).get(m, 0.0) for q in qrels) / len(qrels) for m in MEASURES)


def run_ours(ids, doc_tokens, query_tokens, **params) -> tuple[dict, float, float]:
    t = time.perf_counter()
    index = BM25Index.build(doc_tokens, **params)
    build = time.perf_counter() - t
    t = time.perf_counter()
    run = ours_queries(index, ids, query_tokens, DEPTH)
    per_q = (time.perf_counter() - t) * 1000 / len(query_tokens)
    return run, build, per_q


def ours_queries(index, ids, query_tokens: dict, depth: int) -> dict[str, dict[str, float]]:
    """The bench path's query loop: each tokenized query's top ``depth`` as the run dict
    pytrec_eval reads (``{qid: {doc id: score}}``)."""
    run = {}
    for qid, q in query_tokens.items():
        idx, scores = index.top(q, depth)
        run[qid] = {ids[i]: float(s) for i, s in zip(idx, scores, strict=True)}
    return run


def run_bm25s(ids, doc_tokens, query_tokens) -> tuple[dict, float, float]:
    import bm25s

    t = time.perf_counter()
    model = bm25s.BM25(k1=1.2, b=0.75, method="lucene")
    model.index(doc_tokens, show_progress=False)
    build = time.perf_counter() - t
    run = {}
    k = min(DEPTH, len(ids))
    t = time.perf_counter()
    for qid, q in query_tokens.items():
        scores = model.get_scores(model.get_tokens_ids(q)) if q else np.zeros(len(ids))
        top = np.argsort(-scores, kind="stable")[:k]
        run[qid] = {ids[i]: float(scores[i]) for i in top if scores[i] > 0}
    per_q = (time.perf_counter() - t) * 1000 / len(query_tokens)
    return run, build, per_q


def run_rank_bm25(ids, doc_tokens, query_tokens) -> tuple[dict, float, float]:
    import rank_bm25

    t = time.perf_counter()
    model = rank_bm25.BM25Okapi(doc_tokens)
    build = time.perf_counter() - t
    run = {}
    t = time.perf_counter()
    for qid, q in query_tokens.items():
        scores = model.get_scores(q)
        top = np.argsort(-scores, kind="stable")[:DEPTH]
        run[qid] = {ids[i]: float(scores[i]) for i in top}
    per_q = (time.perf_counter() - t) * 1000 / len(query_tokens)
    return run, build, per_q


def stem_stop_tokens(texts: list[str]) -> list[list[str]]:
    import bm25s
    import Stemmer

    return bm25s.tokenize(
        texts,
        stopwords="en",
        stemmer=Stemmer.Stemmer("english"),
        return_ids=False,
        show_progress=False,
    )


def kiwi_exact_tags(texts: list[str]) -> list[list[str]]:
    """Kiwi forms, lowercased, keeping a tag only when it is *exactly* one of the content tags.

    The rule of BASELINES.md's peer row; it drops stems kiwipiepy marks ``VV-I``,
    ``VA-I``, ``VV-R`` …, which our ``kiwi`` analyzer keeps.
    """
    with KIWI_LOCK:
        results = list(kiwi_instance().tokenize(texts))
    return [[t.form.lower() for t in r if t.tag in KIWI_CONTENT_TAGS] for r in results]


#: Timed passes of the product path and its kernel (best kept: the machine is shared and noisy).
REPEATS = 5
#: Config of the product path (one chunk per document, the kernel's BM25 settings).
PRODUCT_SET = {
    "chunker.strategy": "blind",
    "chunker.target": "100000",
    "retrieval.analyzer": "unicode",
    "retrieval.bm25_variant": "lucene",
    "retrieval.k1": "1.2",
    "retrieval.b": "0.75",
    "generation.model": "none",
}


@functools.lru_cache(maxsize=2)
def _product_corpus(folder: Path) -> tuple[object, object]:
    """The BEIR set and its ``CorpusIndex`` (loaded once for every depth)."""
    from rag_core.corpus.datasets import load_beir_set
    from rag_core.index import CorpusIndex

    qset = load_beir_set(folder)
    return qset, CorpusIndex(qset.report, name=qset.name, questions=qset.questions)


def product_path(
    folder: Path, depth: int = DEPTH
) -> tuple[float, float, float, float, float, float, int]:
    """``eval --beir`` code on ``folder``: (nDCG@10, ms/query product, kernel, kernel+tokenize,
    bench path, no-Trace floor, n).

    The bench path is this script's own query loop (:func:`ours_queries`: the
    kernel on tokenized queries plus the run dict its metrics read).

    ``depth``: candidates per query on both paths (the product path evaluates
    cutoffs 1, 10 and ``depth``; the kernel returns the top ``depth``).

    The index is built (and one query run) before timing; then each path runs
    every judged query, in the same process, interleaved; the best of ``REPEATS``
    passes is kept for each.

    The floor is the product's own steps without the pipeline: question
    validation, analysis, the kernel (a block of questions at a time, as
    ``run_many`` runs it), chunk -> document ids and the metrics
    (:func:`rag_core.evaluation.aggregate.evaluate_queries` on the same
    rankings). Product minus floor is what building and reading a Trace per
    query costs.
    """
    from rag_core.config import PipelineConfig
    from rag_core.evaluation.aggregate import evaluate_queries
    from rag_core.evaluation.run import evaluate_config
    from rag_core.pipeline import PREFETCH_BLOCK
    from rag_core.pipeline.question import validate_question
    from rag_core.retrieval.sparse.analyzers import get_analyzer

    qset, corpus = _product_corpus(folder)
    cfg = PipelineConfig().with_overrides(PRODUCT_SET)
    chunking = corpus.chunking(cfg.chunker)
    if len(chunking.chunks) != len(corpus.documents):
        raise SystemExit(
            f"product path: {len(chunking.chunks)} chunks for {len(corpus.documents)} docs"
        )
    questions = [q for q in qset.questions if q.id in qset.qrels]
    evaluate_config(cfg, questions[:1], corpus, ks=(10,), doc_qrels=qset.qrels)  # build + warm
    index = corpus.sparse(cfg.chunker, "bm25", "unicode", cfg.retrieval)
    analyze = get_analyzer("unicode")
    q_tokens = [analyze(q.question) for q in questions]
    doc_ids = [c.doc_id for c in chunking.chunks]
    ks = tuple(sorted({1, 10, depth}))
    gold = {q.id: {str(d): int(g) for d, g in qset.qrels[q.id].items()} for q in questions}

    def floor_pass() -> float:
        rankings = {}
        for start in range(0, len(questions), PREFETCH_BLOCK):  # kernels grouped, as run_many
            block = questions[start : start + PREFETCH_BLOCK]
            found = [index.top(analyze(validate_question(q.question)[0]), depth) for q in block]
            for q, (idx, _) in zip(block, found, strict=True):
                rankings[q.id] = tuple(dict.fromkeys(doc_ids[i] for i in idx.tolist()))
        result = evaluate_queries(rankings, gold, ks, gain="binary", judged=set(rankings))
        ndcg = result.means["ndcg@10"]
        return ndcg.mean if ndcg is not None else float("nan")

    by_qid = dict(zip([q.id for q in questions], q_tokens, strict=True))
    kernel = kernel_tok = bench = product = floor = float("inf")
    for _ in range(REPEATS):  # interleaved, best of REPEATS: the machine is shared
        t = time.perf_counter()
        for toks in q_tokens:
            index.top(toks, depth)
        kernel = min(kernel, (time.perf_counter() - t) * 1000 / len(questions))
        t = time.perf_counter()
        ours_queries(index, doc_ids, by_qid, depth)
        bench = min(bench, (time.perf_counter() - t) * 1000 / len(questions))
        t = time.perf_counter()
        for q in questions:
            index.top(analyze(q.question), depth)
        kernel_tok = min(kernel_tok, (time.perf_counter() - t) * 1000 / len(questions))
        t = time.perf_counter()
        ev = evaluate_config(cfg, questions, corpus, ks=ks, doc_qrels=qset.qrels)
        product = min(product, (time.perf_counter() - t) * 1000 / len(questions))
        t = time.perf_counter()
        floor_ndcg = floor_pass()
        floor = min(floor, (time.perf_counter() - t) * 1000 / len(questions))
    if abs(floor_ndcg - ev.means["ndcg@10"].mean) > 1e-12:  # same rankings, or no floor
        raise SystemExit(f"floor nDCG@10 {floor_ndcg} != product {ev.means['ndcg@10'].mean}")
    return ev.means["ndcg@10"].mean, product, kernel, kernel_tok, bench, floor, len(questions)


def bench_dataset(name: str, folder: Path, analyzers: list[tuple[str, str, dict]]) -> list[tuple]:
    """Every row of one dataset: ours per analyzer, then the peers' tokenizations and re-runs."""
    ids, texts, queries, qrels = load_beir(folder)
    print(f"\n== {name}: {len(ids):,} docs, {len(queries)} judged queries ==")
    rows, unicode_tokens = ours_per_analyzer(name, ids, texts, queries, qrels, analyzers)
    if any(analyzer == "kiwi" for _, analyzer, _ in analyzers):
        t = time.perf_counter()
        doc_tokens = kiwi_exact_tags(texts)
        tok = time.perf_counter() - t
        q_tokens = dict(zip(queries, kiwi_exact_tags(list(queries.values())), strict=True))
        run, build, per_q = run_ours(ids, doc_tokens, q_tokens, variant="lucene", k1=1.2, b=0.75)
        label = "ours lucene, kiwi exact tags (peer's rule)"
        rows.append((name, label, "kiwi", evaluate(run, qrels), tok + build, per_q, None))
    if unicode_tokens is not None:
        rows += peer_reruns(name, ids, *unicode_tokens, qrels)
    if name == "scifact":
        t = time.perf_counter()
        doc_tokens = stem_stop_tokens(texts)
        q_tokens = dict(zip(queries, stem_stop_tokens(list(queries.values())), strict=True))
        tok = time.perf_counter() - t
        run, build, per_q = run_ours(ids, doc_tokens, q_tokens, variant="lucene", k1=1.2, b=0.75)
        label = "ours lucene, bm25s stopwords+Snowball tokens"
        rows.append((name, label, "stem+stop", evaluate(run, qrels), tok + build, per_q, None))
    return rows


def ours_per_analyzer(
    name, ids, texts, queries, qrels, analyzers
) -> tuple[list[tuple], tuple | None]:
    """Our Lucene BM25 with each analyzer; also the unicode tokens, for the peers' re-runs."""
    rows = []
    unicode_tokens = None
    for label, analyzer, kw in analyzers:
        if analyzer == "kiwi":
            t = time.perf_counter()
            kiwi_instance()
            print(f"  kiwi model load {time.perf_counter() - t:.1f} s (not counted in index time)")
        t = time.perf_counter()
        doc_tokens = analyze_many(analyzer, texts, **kw)
        tok = time.perf_counter() - t
        q_tokens = dict(
            zip(queries, analyze_many(analyzer, list(queries.values()), **kw), strict=True)
        )
        if label == "unicode":
            unicode_tokens = (doc_tokens, q_tokens)
        run, build, per_q = run_ours(ids, doc_tokens, q_tokens, variant="lucene", k1=1.2, b=0.75)
        zero = sum(1 for r in run.values() if not r)
        rows.append(
            (name, f"ours lucene {label}", label, evaluate(run, qrels), tok + build, per_q, zero)
        )
        print(f"  ours {label}: tokenize {tok:.1f} s + index {build:.2f} s, {per_q:.2f} ms/query")
    return rows, unicode_tokens


def peer_reruns(name, ids, doc_tokens, q_tokens, qrels) -> list[tuple]:
    """Our Okapi, bm25s and rank-bm25 on the same unicode tokens."""
    rows = []
    for label, group, runner in (
        ("ours okapi k1=1.5 unicode", "okapi-unicode", okapi_run),
        ("bm25s lucene unicode (re-run)", "unicode", run_bm25s),
        ("rank-bm25 Okapi unicode (re-run)", "okapi-unicode", run_rank_bm25),
    ):
        run, build, per_q = runner(ids, doc_tokens, q_tokens)
        rows.append((name, label, group, evaluate(run, qrels), build, per_q, None))
    return rows


def okapi_run(ids, doc_tokens, q_tokens):
    """Our Okapi variant with rank-bm25's defaults (k1 1.5, b 0.75, epsilon 0.25)."""
    return run_ours(ids, doc_tokens, q_tokens, variant="okapi", k1=1.5, b=0.75, epsilon=0.25)


#: The analyzers each dataset is benchmarked with: (row name, analyzer, its parameters).
ANALYZER_SETS: dict[str, list[tuple[str, str, dict[str, Any]]]] = {
    "scifact": [
        ("ascii", "ascii", {}),
        ("unicode", "unicode", {}),
        ("whitespace", "whitespace", {}),
        ("char", "char", {}),
    ],
    "autorag_ko": [
        ("ascii", "ascii", {}),
        ("unicode", "unicode", {}),
        ("whitespace", "whitespace", {}),
        ("char", "char", {}),
        ("char2", "char", {"ngram_min": 2, "ngram_max": 2}),
        ("kiwi", "kiwi", {}),
    ],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument(
        "--only-product",
        action="store_true",
        help="only the product path and its kernel (skip the analyzer and peer rows)",
    )
    args = parser.parse_args()
    t0 = time.perf_counter()
    rows: list[tuple] = []
    product: dict[tuple[str, int], tuple] = {}
    for name, analyzers in ANALYZER_SETS.items():
        folder = args.data / name
        if not (folder / "corpus.jsonl").exists():
            print(f"skip {name}: {folder} has no corpus.jsonl")
            continue
        if not args.only_product:
            rows.extend(bench_dataset(name, folder, analyzers))
        for depth in (DEPTH, 10):
            product[(name, depth)] = product_path(folder, depth)
    if product:
        _print_product(product, rows)
    _print_quality(rows)
    print(f"\ntotal wall time {time.perf_counter() - t0:.0f} s")


def _print_product(product: dict[tuple[str, int], tuple], rows: list[tuple]) -> None:
    """The product path's table: eval --beir against the kernel, per dataset and depth."""
    print("\nProduct path (eval --beir, unicode, one chunk per document) vs kernel, same process")
    head = (
        f"{'dataset':<11} {'depth':>5} {'queries':>7} {'nDCG@10':>8} {'kernel row':>10} "
        f"{'kernel ms/q':>11} {'+tokenize':>9} {'bench path':>10} {'product ms/q':>12} "
        f"{'product/kernel':>14} {'/(kernel+tok)':>13} {'/bench path':>11} "
        f"{'floor ms/q':>10} {'floor/kernel':>12} {'Trace ms/q':>10}"
    )
    print(head)
    print("-" * len(head))
    for (name, depth), (ndcg, prod, kern, kern_tok, bench, floor, n) in product.items():
        kernel_row = next(
            (r[3][0] for r in rows if r[0] == name and r[1] == "ours lucene unicode"), None
        )
        shown = f"{kernel_row:.4f}" if kernel_row is not None else "—"
        print(
            f"{name:<11} {depth:>5} {n:>7} {ndcg:>8.4f} {shown:>10} {kern:>11.3f} "
            f"{kern_tok:>9.3f} {bench:>10.3f} {prod:>12.3f} {prod / kern:>13.2f}x "
            f"{prod / kern_tok:>12.2f}x {prod / bench:>10.2f}x "
            f"{floor:>10.3f} {floor / kern:>11.2f}x {prod - floor:>10.3f}"
        )
    print(
        "kernel: BM25Index.top on tokenized queries; bench path: the kernel plus the run dict"
        " (this script's ours_queries); floor: validation, analysis, kernel, document ids and"
        " metrics without the pipeline; Trace = product - floor (building and reading the"
        " per-query Trace)"
    )


def _print_quality(rows: list[tuple]) -> None:
    """Quality per dataset and system next to the peer figure from BASELINES.md."""
    print("\nnDCG@10 / Recall@10 / Recall@100 (ours vs peer from BASELINES.md; Δ = ours − peer)")
    head = (
        f"{'dataset':<11} {'system':<46} {'nDCG@10':>8} {'R@10':>7} {'R@100':>7}  "
        f"{'peer (BASELINES.md)':<26} {'peer nDCG':>9} {'Δ nDCG':>8} {'Δ R@100':>8} "
        f"{'index s':>8} {'ms/q':>6}"
    )
    print(head)
    print("-" * len(head))
    for name, system, key, (ndcg, r10, r100), build, per_q, zero in rows:
        peer_name, peer = PEERS.get((name, key), ("—", None))
        # round first, then + 0.0 turns -0.0 into 0.0 so equal figures print as +0.0000
        d_ndcg = f"{round(ndcg - peer[0], 4) + 0.0:+.4f}" if peer else "—"
        d_r100 = f"{round(r100 - peer[2], 4) + 0.0:+.4f}" if peer else "—"
        p_ndcg = f"{peer[0]:.4f}" if peer else "—"
        print(
            f"{name:<11} {system:<46} {ndcg:>8.4f} {r10:>7.4f} {r100:>7.4f}  {peer_name:<26} "
            f"{p_ndcg:>9} {d_ndcg:>8} {d_r100:>8} {build:>8.2f} {per_q:>6.2f}"
            + (f"  ({zero} queries with 0 candidates)" if zero else "")
        )


if __name__ == "__main__":
    main()
