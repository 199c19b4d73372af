"""The bundled model's own answers: how many wrong ones does the support check paint all-good?

Runs the fixed items of ``sample_corpus/calibration/prompt_eval.jsonl`` through
:func:`rag_core.pipeline.run` with the default configuration plus each item's overrides
(generations are cached, so a second run is quick). An answerable item's answer is *right* when it
states one of the item's ``keys`` (``bench/prompt_eval.py``'s rule), else *wrong*; a refusal is
neither. For every wrong answer it asks whether the support check flags it (some claim
``unsupported``, ``contradicted``, citing no source, or naming a passage that does not back it)
or paints every claim good — with the learned head (what the pipeline's Trace holds) and with
the previous checker (``bench/support.py``'s :data:`OLD_REF`) on the very same answer and
sources. Then every scenario card's A and B (the lecture gallery, generation on; answers the
gallery prepared are replayed from the cache): each claim's verdict under both checkers, so a
card that shows an unsupported claim can be seen to keep showing it, in English and Korean.

Run: ``nice -n 5 .venv/bin/python bench/support_own.py [--cards-only]``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from prompt_eval import EVAL_SET, has_key  # noqa: E402
from support import OLD_REF, load_old  # noqa: E402

from rag_core.answer.support import flags, is_refusal  # noqa: E402
from rag_core.config import PipelineConfig  # noqa: E402
from rag_core.formats.questions import load_questions  # noqa: E402
from rag_core.index import load_corpus_index  # noqa: E402
from rag_core.models import get_embedder  # noqa: E402
from rag_core.pipeline import run  # noqa: E402

QUESTIONS = ROOT / "sample_corpus" / "questions"


def cards(corpus, old) -> None:  # type: ignore[no-untyped-def]
    """Each scenario side's claim verdicts, previous checker → head."""
    from rag_core.scenarios import scenario_runs

    questions = {q.id: q for q in corpus.questions}
    print("\n| card | side | previous | head |\n|---|---|---|---|")
    changed = 0
    for r in scenario_runs():
        q = questions[r.scenario.question_id or ""]
        trace = run(r.config, r.scenario.question_text(q), corpus, gold=q)
        answer = trace.generation.answer or ""
        if not answer:
            print(f"| {r.scenario.id} | {r.side} | (no answer) | (no answer) |")
            continue
        emb = get_embedder(corpus.dense_choice(r.config.retrieval.dense_model)[0])
        o = old.check_support(answer, trace.context, r.config.support, embedder=emb,
                              question=q.question)  # fmt: skip
        before = ", ".join(c.verdict for c in o.claims)
        after = ", ".join(c.verdict for c in trace.support.claims)
        changed += before != after
        print(f"| {r.scenario.id} | {r.side} | {before} | {after} |")
    print(f"\n{changed} sides with other verdicts")


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards-only", action="store_true")
    args = ap.parse_args()
    items = [json.loads(x) for x in EVAL_SET.read_text(encoding="utf-8").splitlines() if x]
    questions = {q.id: q for name in ("en", "ko", "manual")
                 for q in load_questions(QUESTIONS / f"{name}.jsonl")}  # fmt: skip
    corpus = load_corpus_index()
    old = load_old()
    if args.cards_only:
        cards(corpus, old)
        return
    rows = []
    for it in items:
        if it["expect"] != "answer":
            continue
        q = questions[it["id"]]
        cfg = PipelineConfig().with_overrides(it.get("overrides", {}))
        trace = run(cfg, q.question, corpus)
        answer = trace.generation.answer or ""
        if not answer or is_refusal(answer):
            rows.append((it["id"], "refused", None, None, answer))
            continue
        right = has_key(answer, it["keys"])
        emb_name = corpus.dense_choice(cfg.retrieval.dense_model)[0]
        o = old.check_support(answer, trace.context, cfg.support, embedder=get_embedder(emb_name),
                              question=q.question)  # fmt: skip
        old_flag = any(c.verdict in old.FLAG_VERDICTS for c in o.claims)
        new_flag = any(flags(c) for c in trace.support.claims)
        rows.append((it["id"], "right" if right else "wrong", old_flag, new_flag, answer))
    print("| item | answer is | previous flags | head flags | answer |\n|---|---|---|---|---|")
    for rid, kind, o, n, a in rows:
        cut = a.replace("\n", " ")[:90]
        print(f"| {rid} | {kind} | {o if o is not None else '—'} | {n if n is not None else '—'} "
              f"| {cut} |")  # fmt: skip
    wrong = [r for r in rows if r[1] == "wrong"]
    right = [r for r in rows if r[1] == "right"]
    print(f"\n{len(right)} right, {len(wrong)} wrong, {len(rows) - len(right) - len(wrong)} "
          "refused (answerable items)")  # fmt: skip
    print(f"wrong answers painted all-good: previous ({OLD_REF}) "
          f"{sum(not r[2] for r in wrong)}/{len(wrong)}, head {sum(not r[3] for r in wrong)}/"
          f"{len(wrong)}")  # fmt: skip
    print(f"right answers flagged: previous {sum(bool(r[2]) for r in right)}/{len(right)}, head "
          f"{sum(bool(r[3]) for r in right)}/{len(right)}")  # fmt: skip
    cards(corpus, old)


if __name__ == "__main__":
    main()
