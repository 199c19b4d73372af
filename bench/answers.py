"""Answer-level evaluation on the sample sets: a cold run, then a replay from the generation cache.

For each question set (English ``en.jsonl``, Korean ``ko.jsonl`` by default)
it runs :func:`rag_core.evaluation.answers.evaluate_answers` with the default config
twice in one process:

1. **cold** — against an empty generation cache (a temporary
   ``$RAG_INSPECTOR_CACHE`` whose ``models/`` and ``embeddings.sqlite`` link
   to the user cache, so the converted generator and the embeddings are
   reused and only ``generations.sqlite`` starts empty);
2. **replay** — the same inputs again: every answer comes from the cache.

Before anything is timed the corpus index, the dense index, the embedder
and the generator are loaded (a retrieval-only pass over the same
questions), so both runs time the same work except generation.

It prints per set: queries, seconds of each run, the ratio replay/cold
(target < 0.10), whether the two JSON reports are byte-identical, the
result hash, the rates with their Wilson intervals and the loss-stage counts
(checked to sum to the failures). ``--out DIR`` writes each report's JSON.

``--limit N`` / ``--unanswerable M`` keep the first N answerable and the
first M unanswerable questions of each set (the full sets take hours of
generation on 2 shared cores; the figures say which subset ran).

Run: ``.venv/bin/python bench/answers.py [--sets en,ko] [--limit N] [--unanswerable M] [--out DIR]``
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parents[1]


def fresh_generation_cache() -> Path:
    """A temporary cache root sharing the user cache's models and embeddings, not its
    generations."""
    from rag_core.models import cache_root

    user = cache_root()
    tmp = Path(tempfile.mkdtemp(prefix="answers-bench-"))
    for name in ("models", "embeddings.sqlite"):
        if (user / name).exists():
            (tmp / name).symlink_to(user / name)
    return tmp


def pick(questions, limit: int | None, unanswerable: int | None):
    ans = [q for q in questions if q.answerable]
    una = [q for q in questions if not q.answerable]
    if limit is not None:
        ans = ans[:limit]
    if unanswerable is not None:
        una = una[:unanswerable]
    keep = {q.id for q in ans + una}
    return [q for q in questions if q.id in keep]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default="en,ko")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--unanswerable", type=int, default=None)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)

    os.environ["RAG_INSPECTOR_CACHE"] = str(fresh_generation_cache())
    from rag_core.config import PipelineConfig
    from rag_core.evaluation.answers import evaluate_answers
    from rag_core.evaluation.run import evaluate_config
    from rag_core.formats.questions import load_questions
    from rag_core.index import load_corpus_index
    from rag_core.models import get_generator

    cfg = PipelineConfig()
    corpus = load_corpus_index(None)
    get_generator(cfg.generation.model, dtype=cfg.generation.dtype)
    print(f"generation cache (fresh): {os.environ['RAG_INSPECTOR_CACHE']}")
    for name in args.sets.split(","):
        questions = pick(
            load_questions(ROOT / "sample_corpus" / "questions" / f"{name}.jsonl"),
            args.limit,
            args.unanswerable,
        )
        evaluate_config(cfg, questions, corpus, phrasings="question")  # warm indexes and models
        t = time.perf_counter()
        cold = evaluate_answers(cfg, questions, corpus)
        t_cold = time.perf_counter() - t
        t = time.perf_counter()
        warm = evaluate_answers(cfg, questions, corpus)
        t_warm = time.perf_counter() - t
        s = cold.summary
        n_ans = sum(q.answerable for q in questions)
        print(
            f"\n[{name}] {len(questions)} questions ({n_ans} answerable, {len(questions) - n_ans} "
            f"unanswerable), status {cold.status}"
        )
        print(
            f"  cold {t_cold:.1f} s, replay {t_warm:.2f} s → replay/cold = {t_warm / t_cold:.4f} "
            f"(target < 0.10)"
        )
        same = cold.to_json() == warm.to_json()
        print(f"  JSON byte-identical across runs: {same}; result hash {cold.result_hash}")
        for key, r in s["rates"].items():
            txt = (
                "n = 0"
                if r is None
                else f"{r['rate']:.3f} [{r['low']:.3f}, {r['high']:.3f}] ({r['k']}/{r['n']})"
            )
            print(f"  {key:>34}: {txt}")
        total = sum(s["loss_stages"].values())
        print(
            f"  loss stages: {', '.join(f'{k} {v}' for k, v in s['loss_stages'].items() if v)} "
            f"— sum {total} = failed {s['n_failed']}: {total == s['n_failed']}"
        )
        if args.out:
            out = Path(args.out)
            out.mkdir(parents=True, exist_ok=True)
            (out / f"answers-{name}.json").write_text(cold.to_json() + "\n", encoding="utf-8")
            print(f"  report: {out / f'answers-{name}.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
