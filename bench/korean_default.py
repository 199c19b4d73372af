"""Korean that works by default: the ``auto`` analyzer and the corpus-aware dense model, measured.

1. **Which Hangul analysis inside ``auto``** — Kiwi morphemes or character
   2-grams — on two sets: AutoRAG-ko (``../shared/datasets/autorag_ko``,
   BM25 lucene k1 = 1.2, b = 0.75 over ``title + text``, every judged query)
   and the bundled Korean question set (``sample_corpus/questions/ko.jsonl``,
   every phrasing a query, default pipeline otherwise). Hit@8 with a 95 %
   Wilson interval (Wilson 1927), nDCG@10 on AutoRAG-ko (pytrec_eval).
2. **Default configuration before → after** on the bundled sets: before =
   today's default (``retrieval.analyzer = unicode``, ``dense_model =
   minilm``), after = ``PipelineConfig()`` (``auto``). Korean Hit@8 with Wilson
   intervals; English Hit@8 with a paired sign test (``rag_core.evaluation.stats``).
3. The same for the hybrid ``bm25,dense`` (dense model before: ``minilm``;
   after: ``auto`` → ``e5-small`` on this corpus, which holds Korean documents).

Run: ``.venv/bin/python bench/korean_default.py [--skip-dense]`` (a few minutes on 2 cores; the
dense
part embeds the corpus once per model, cached afterwards).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from beir import DEFAULT_DATA, evaluate, load_beir, run_ours

from rag_core.cli.eval import paired_reading
from rag_core.config import PipelineConfig
from rag_core.evaluation.run import evaluate_config
from rag_core.evaluation.stats import paired_compare, wilson_interval
from rag_core.formats.questions import load_questions
from rag_core.index import load_corpus_index
from rag_core.retrieval.sparse import analyzers as an

ROOT = Path(__file__).resolve().parents[1]
QSETS = ROOT / "sample_corpus" / "questions"


def hit_line(label: str, hits: list[float]) -> str:
    n, k = len(hits), int(sum(hits))
    lo, hi = wilson_interval(k, n)
    return f"| {label} | {k}/{n} = {k / n:.3f} | [{lo:.3f}, {hi:.3f}] |"


def autorag(folder: Path) -> None:
    ids, texts, queries, qrels = load_beir(folder)
    qids = [q for q in queries if q in qrels]
    print("\n### AutoRAG-ko: Hangul analysis inside `auto` (BM25 lucene)\n")
    print("| analyzer | Hit@8 | 95% Wilson | nDCG@10 | R@10 |")
    print("|---|---|---|---|---|")
    for hangul in ("kiwi", "bigram"):
        docs = an.auto_terms_many(texts, hangul)
        qtok = dict(zip(qids, an.auto_terms_many([queries[q] for q in qids], hangul), strict=True))
        run, _build, _query = run_ours(ids, docs, qtok)
        ndcg, r10, _r100 = evaluate(run, qrels)
        hits = []
        for q in qids:
            top = sorted(run[q].items(), key=lambda kv: -kv[1])[:8]
            hits.append(float(any(qrels[q].get(d, 0) > 0 for d, _s in top)))
        line = hit_line(f"auto ({hangul})", hits)
        print(f"{line} {ndcg:.4f} | {r10:.4f} |")


def hits_at_8(ev) -> dict[str, float]:
    return {q: float(v["hit@8"]) for q, v in ev.result.per_query.items()}


def sample_sets(corpus, skip_dense: bool) -> None:
    ko = load_questions(QSETS / "ko.jsonl")
    en = load_questions(QSETS / "en.jsonl")
    before = PipelineConfig().with_overrides(
        {"retrieval.analyzer": "unicode", "retrieval.dense_model": "minilm"}
    )
    after = PipelineConfig()
    print(
        "\n### Bundled Korean set (ko.jsonl, every phrasing a query): Hangul analysis inside "
        "`auto`\n"
    )
    print("| config | Hit@8 | 95% Wilson |")
    print("|---|---|---|")
    saved = an.AUTO_HANGUL
    try:
        for hangul in ("kiwi", "bigram"):
            an.AUTO_HANGUL = hangul
            corpus_h = load_corpus_index()  # a fresh memo: the sparse index is built with this rule
            print(
                hit_line(
                    f"bm25:auto ({hangul})",
                    list(hits_at_8(evaluate_config(after, ko, corpus_h)).values()),
                )
            )
    finally:
        an.AUTO_HANGUL = saved
    pairs = [("BM25 (the default methods)", before, after)]
    if not skip_dense:
        hy = {"retrieval.methods": "bm25,dense"}
        pairs.append(("hybrid bm25,dense", before.with_overrides(hy), after.with_overrides(hy)))
        pairs.append(
            (
                "dense only",
                before.with_overrides({"retrieval.methods": "dense"}),
                after.with_overrides({"retrieval.methods": "dense"}),
            )
        )
    for label, b, a in pairs:
        print(f"\n### Default configuration before → after: {label}\n")
        print(
            f"before: analyzer {b.retrieval.analyzer}, dense {b.retrieval.dense_model}; "
            f"after: analyzer {a.retrieval.analyzer}, dense {a.retrieval.dense_model}\n"
        )
        print("| set | config | Hit@8 | 95% Wilson |")
        print("|---|---|---|---|")
        for name, qs in (("ko", ko), ("en", en)):
            eb, ea = evaluate_config(b, qs, corpus), evaluate_config(a, qs, corpus)
            hb, ha = hits_at_8(eb), hits_at_8(ea)
            print(hit_line(f"{name} | before", list(hb.values())))
            print(hit_line(f"{name} | after", list(ha.values())))
            cmp = paired_compare(ha, hb, label_a="after", label_b="before")
            print(
                f"\n{name} paired sign test on Hit@8 (after vs before): {cmp.wins} wins, "
                f"{cmp.losses} losses, {cmp.ties} ties, p = {cmp.p:.3g} — {paired_reading(cmp)}\n"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--skip-dense", action="store_true")
    ap.add_argument("--skip-autorag", action="store_true")
    args = ap.parse_args()
    if not args.skip_autorag:
        autorag(args.data / "autorag_ko")
    sample_sets(load_corpus_index(), args.skip_dense)


if __name__ == "__main__":
    main()
