"""Does the generator's own refusal tell answerable questions from unanswerable ones?

For each question of the bundled sample (every set, its main phrasing) the pipeline runs to the
prompt with the default configuration (or ``--set`` overrides), and the prompt's refusal
sentence (:func:`rag_core.answer.prompt.refusal_text`) is scored after it by teacher forcing:
``log P(refusal) = Σ_j log p(r_j | prompt, r_<j)``, one forward pass. The bench prints, per
language, how well ``P(refusal)`` ranks the unanswerable questions above the answerable ones
(AUROC, scikit-learn's ``roc_auc_score``; 0.5 = no better than chance), the median
``P(refusal)`` of each kind and how many of each pass 0.1. A model whose refusal carries the
answerability signal is one a refusal rule could use; one at chance can only trade false
refusals for bluffs, whatever the rule or wording.

``--sample N`` keeps every unanswerable question and N answerable ones drawn at random (seed 0):
a balanced set for a slow model.

Usage: ``.venv/bin/python bench/refusal.py [--model qwen2.5-coder-0.5b] [--sample N]
[--set KEY=VALUE …]`` (about 4 s a question for the 0.5B on 2 cores, 10 s for the 1.5B)
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rag_core.answer.prompt import refusal_text  # noqa: E402
from rag_core.config import PipelineConfig  # noqa: E402
from rag_core.index import load_corpus_index  # noqa: E402
from rag_core.models import DEFAULT_GENERATOR, get_generator  # noqa: E402
from rag_core.overrides import override_items  # noqa: E402
from rag_core.pipeline import run  # noqa: E402


def refusal_logprob(model: Any, prompt_ids: list[int], refusal_ids: list[int]) -> float:
    """``Σ_j log p(r_j | prompt, r_<j)`` by one teacher-forced forward pass."""
    import torch

    with torch.inference_mode():
        logits = model(torch.tensor([prompt_ids + refusal_ids])).logits[0].float()
    logp = torch.log_softmax(logits, -1)
    n = len(prompt_ids)
    return sum(float(logp[n - 1 + j, r]) for j, r in enumerate(refusal_ids))


def main(argv: list[str] | None = None) -> int:
    from sklearn.metrics import roc_auc_score

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=DEFAULT_GENERATOR)
    ap.add_argument("--sample", type=int, default=0, help="N answerable questions (0 = all)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args(argv)
    overrides = {"generation.model": args.model, **override_items(args.set)}
    cfg = PipelineConfig().with_overrides(overrides)
    corpus = load_corpus_index(None)
    gen = get_generator(args.model)
    questions = list(corpus.questions)
    if args.sample:
        answerable = [q for q in questions if q.answerable]
        drawn = {q.id for q in random.Random(0).sample(answerable, args.sample)}
        questions = [q for q in questions if not q.answerable or q.id in drawn]
    rows: list[tuple[str, bool, float]] = []  # (language, answerable, P(refusal))
    for i, q in enumerate(questions, 1):
        trace = run(cfg, q.question, corpus, gold=q, stop_after="context")
        if trace.gate.refused or not trace.context.input_ids:
            continue  # refused before the model: no refusal of its own to score
        ref = gen.encode(refusal_text(q.question))
        p = math.exp(refusal_logprob(gen.model, list(trace.context.input_ids), ref))
        rows.append((q.lang, q.answerable, p))
        print(f"{i}/{len(questions)} {q.id}: P(refusal) {p:.3f}", file=sys.stderr, flush=True)
    print(f"{args.model}: {len(rows)} of {len(questions)} questions reach the model")
    for lang in sorted({r[0] for r in rows}) + ["all"]:
        part = [r for r in rows if lang in ("all", r[0])]
        ans = [p for _, a, p in part if a]
        una = [p for _, a, p in part if not a]
        if not ans or not una:
            continue
        auc = roc_auc_score([0] * len(ans) + [1] * len(una), ans + una)
        print(
            f"{lang:>4}: {len(ans)} answerable, {len(una)} not; AUROC {auc:.3f}; median "
            f"P(refusal) {statistics.median(ans):.3f} vs {statistics.median(una):.3f}; "
            f"P ≥ 0.1: {sum(p >= 0.1 for p in ans)} vs {sum(p >= 0.1 for p in una)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
