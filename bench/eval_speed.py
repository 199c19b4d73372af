"""Milliseconds per query of a whole SciFact evaluation (``evaluate_config``, depth 100).

The code of ``python -m rag_core eval --beir`` (BM25 lucene, ``unicode``, one chunk per
document, cutoffs 1, 10, 100) over the 300 judged SciFact queries, after one warm-up
query; prints the best of ``--passes`` passes and every pass. To compare two commits,
run it in each tree in turn (same machine, same load)::

    (cd /tmp/before && python bench/eval_speed.py) ; (cd /tmp/after && python bench/eval_speed.py)

Usage: ``.venv/bin/python bench/eval_speed.py [--data ../shared/datasets] [--passes 5]``
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rag_core.config import PipelineConfig  # noqa: E402
from rag_core.corpus.datasets import load_beir_set  # noqa: E402
from rag_core.evaluation.run import evaluate_config  # noqa: E402

try:
    from rag_core.index import CorpusIndex
except ImportError:  # a tree from before CorpusIndex moved up (commit c770a87 and older)
    from rag_core.corpus.index import CorpusIndex  # type: ignore[no-redef]

PRODUCT_SET = {
    "chunker.strategy": "blind",
    "chunker.target": "100000",
    "retrieval.analyzer": "unicode",
    "retrieval.bm25_variant": "lucene",
    "retrieval.k1": "1.2",
    "retrieval.b": "0.75",
    "retrieval.k": "100",
    "generation.model": "none",
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--data",
        type=Path,
        default=Path(
            os.environ.get("RAG_INSPECTOR_DATASETS") or ROOT.parent / "shared" / "datasets"
        ),
    )
    ap.add_argument("--passes", type=int, default=5)
    args = ap.parse_args()
    folder = args.data / "scifact"
    if not (folder / "corpus.jsonl").is_file():
        print(f"skip: {folder} has no corpus.jsonl")
        return 0
    qset = load_beir_set(folder)
    corpus = CorpusIndex(qset.report, name=qset.name, questions=qset.questions)
    cfg = PipelineConfig().with_overrides(PRODUCT_SET)
    questions = [q for q in qset.questions if q.id in qset.qrels]
    evaluate_config(cfg, questions[:1], corpus, ks=(10,), doc_qrels=qset.qrels)  # build + warm
    passes = []
    for _ in range(args.passes):
        t = time.perf_counter()
        evaluate_config(cfg, questions, corpus, ks=(1, 10, 100), doc_qrels=qset.qrels)
        passes.append((time.perf_counter() - t) * 1000 / len(questions))
    shown = ", ".join(f"{p:.3f}" for p in passes)
    print(f"{len(questions)} queries: best {min(passes):.3f} ms/query (passes: {shown})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
