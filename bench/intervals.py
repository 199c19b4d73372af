"""What the interval rule changes on the bundled question sets (issue 27, item 5).

For each bundled question set, evaluates the default configuration once and prints, per
metric, the old interval (Wilson over every phrasing as an independent query) next to the
new one (per question, phrasings averaged; Wilson where every per-question value is 0/1,
else the percentile bootstrap, 2,000 resamples, seed 0), with both widths.

    .venv/bin/python bench/intervals.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from rag_core.config import PipelineConfig
from rag_core.corpus import SAMPLE_CORPUS
from rag_core.evaluation.aggregate import evaluate_queries
from rag_core.evaluation.run import evaluate_config
from rag_core.formats.questions import load_questions
from rag_core.index import load_corpus_index


def main() -> None:
    corpus = load_corpus_index(SAMPLE_CORPUS)
    config = PipelineConfig().with_overrides({"generation.model": "none"})
    for path in sorted((SAMPLE_CORPUS / "questions").glob("*.jsonl")):
        questions = load_questions(path)
        ev = evaluate_config(config, questions, corpus, ks=(1, 8))
        res = ev.result
        old = evaluate_queries(
            ev.rankings, ev.gold, res.ks, judged=set(ev.rankings), interval="wilson"
        )
        print(f"{path.name}: {ev.n_questions} questions, {ev.n_queries} queries")
        print(f"  {'metric':>10}  {'old: Wilson, per query':>30}  {'new':>44}")
        for key in res.metrics:
            o, n = old.means[key], res.means[key]
            if o is None or n is None:
                continue
            print(
                f"  {key:>10}  {o.mean:.3f} [{o.low:.3f}, {o.high:.3f}] w={o.high - o.low:.3f}"
                f"   {n.mean:.3f} [{n.low:.3f}, {n.high:.3f}] w={n.high - n.low:.3f}"
                f" {n.method} n={n.n} {n.unit}"
            )


if __name__ == "__main__":
    main()
