"""``eval``: evaluate a config (and compare another) on a question set; ``--answers``: at the
answer level. Also the English reading of a paired comparison (:func:`paired_reading`)."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from typing import Any

from ..config import PipelineConfig
from ..evaluation.answers import AnswerEvaluation, compare_answers, evaluate_answers
from ..evaluation.metrics import GAINS
from ..evaluation.run import compare_configs, evaluate_config
from ..evaluation.stats import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, format_p
from ..formats.questions import load_questions
from ..types import to_jsonable
from .common import UsageError, add_dataset_args, emit, ks_arg, load_config
from .sets import corpus_index, dataset, read_runs, with_runs


def add_arguments(e: argparse.ArgumentParser) -> None:
    """``eval``: evaluate a config (and compare another)."""
    e.add_argument("--queries", default=None, help="our question set (.jsonl)")
    e.add_argument("--corpus", default=None)
    add_dataset_args(e)
    e.add_argument("--config", default=None, help="config A: preset letter or JSON file")
    e.add_argument("--compare", default=None, help="config B: preset letter or JSON file")
    e.add_argument("--set", action="append", metavar="KEY=VALUE", help="applied to both configs")
    e.add_argument("--k", default=None, help="cutoffs (default 1,4,8,20; with qrels 1,10,100)")
    e.add_argument(
        "--phrasings",
        default=None,
        help="all | question | 0 | 1 (default: all; question with --answers)",
    )
    e.add_argument(
        "--answers",
        action="store_true",
        help="answer-level evaluation: full pipeline with generation on every query",
    )
    e.add_argument(
        "--concurrency",
        type=_positive_int,
        default=1,
        metavar="N",
        help="with --answers: N questions in flight at once (for an endpoint generator, "
        "openai:MODEL, whose server batches them); results are the same as with 1",
    )
    e.add_argument("--progress", action="store_true", help="print done/total on stderr")
    e.add_argument(
        "--gain", default="binary", choices=GAINS.names(), help="nDCG gain for graded labels"
    )
    e.add_argument("--json", action="store_true")
    e.set_defaults(fn=cmd_eval)


def cmd_eval(args: argparse.Namespace) -> int:
    corpus, qset = dataset(args)
    if qset is not None:
        questions = qset.questions
        doc_qrels = qset.qrels
        known: Any = qset.queries
    else:
        if not args.queries:
            raise UsageError("give --queries FILE, --beir DIR, or --corpus/--topics/--qrels")
        corpus = corpus_index(args.corpus)
        questions = load_questions(args.queries)
        doc_qrels = None
        known = {
            qid
            for q in questions
            for qid in (q.id, *(f"{q.id}#{i}" for i in range(len(q.phrasings))))
        }
    ks = ks_arg(args.k or ("1,10,100" if qset is not None else "1,4,8,20"))
    runs = read_runs(args.run, known)
    kw: dict[str, Any] = {
        "ks": ks,
        "phrasings": args.phrasings or "all",
        "gain": args.gain,
        "doc_qrels": doc_qrels,
        "runs": runs,
    }
    cfg_a = with_runs(load_config(args.config, None, args.set or []), runs)
    if args.answers:
        return _eval_answers(args, cfg_a, questions, corpus)
    res_a = evaluate_config(cfg_a, questions, corpus, **kw)
    out: dict[str, Any] = {"a": res_a}
    if args.compare:
        cfg_b = with_runs(load_config(args.compare, None, args.set or []), runs)
        res_b = evaluate_config(cfg_b, questions, corpus, **kw)
        out["b"] = res_b
        out["comparison"] = compare_configs(res_a, res_b)
    data = {
        key: (value.to_dict() if hasattr(value, "to_dict") else to_jsonable(value))
        for key, value in out.items()
    }
    emit(data, args.json, "" if args.json else _eval_summary(data))
    return 0


def _positive_int(text: str) -> int:
    """An argparse type: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be >= 1")
    return value


def _eval_answers(
    args: argparse.Namespace, cfg_a: PipelineConfig, questions: Any, corpus: Any
) -> int:
    """``eval --answers``: answer-level evaluation of A (and B with a paired comparison).

    The JSON is :meth:`rag_core.evaluation.answers.AnswerEvaluation.to_dict` per side
    (no timings: two runs give identical bytes); seconds go to stderr. Ctrl-C
    finishes the current query and prints the rows done, ``status: partial``.
    """
    phrasings = args.phrasings or "question"

    def progress(done: int, total: int) -> None:
        if args.progress:
            print(f"{done}/{total}", file=sys.stderr, flush=True)

    stop = {"asked": False}

    def on_interrupt(signum: int, frame: Any) -> None:  # Ctrl-C: finish this query, report partial
        stop["asked"] = True
        print(
            "interrupted: finishing the current query, then reporting partial results",
            file=sys.stderr,
        )

    def side(cfg: PipelineConfig) -> AnswerEvaluation:
        return evaluate_answers(
            cfg,
            questions,
            corpus,
            phrasings=phrasings,
            progress=progress,
            should_stop=lambda: stop["asked"],
            concurrency=args.concurrency,
        )

    previous = signal.signal(signal.SIGINT, on_interrupt)
    t = time.perf_counter()
    try:
        out: dict[str, Any] = {"a": side(cfg_a)}
        if args.compare and not stop["asked"]:
            out["b"] = side(load_config(args.compare, None, args.set or []))
            out["comparison"] = compare_answers(out["a"], out["b"])
    finally:
        signal.signal(signal.SIGINT, previous)
    seconds = time.perf_counter() - t
    data = {k: (v.to_dict() if hasattr(v, "to_dict") else to_jsonable(v)) for k, v in out.items()}
    if args.json:
        sys.stdout.write(json.dumps(data, ensure_ascii=False, sort_keys=True) + "\n")
    else:
        sys.stdout.write(_answers_summary(data) + "\n")
    print(f"eval --answers: {seconds:.1f} s", file=sys.stderr)
    return 0


def _fmt_rate(r: dict[str, Any] | None) -> str:
    if r is None:
        return "n = 0 (not measured)"
    return f"{r['rate']:.3f}  [{r['low']:.3f}, {r['high']:.3f}]  ({r['k']}/{r['n']})"


def _answers_summary(out: dict[str, Any]) -> str:
    lines = []
    for side in ("a", "b"):
        if side not in out:
            continue
        res = out[side]
        lines.append(
            f"[{side}] {res['status']} {res['n_done']}/{res['n_planned']} queries, hash "
            f"{res['result_hash']}"
        )
        if res["status"] == "retrieval_only":
            lines.append(f"  generator unavailable ({res['message']}): retrieval metrics only")
        for key, r in res["summary"]["rates"].items():
            lines.append(f"  {key:>34} {_fmt_rate(r)}")
        losses = res["summary"]["loss_stages"]
        lines.append(
            f"  loss stages ({sum(losses.values())} = {res['summary']['n_failed']} failed): "
            + ", ".join(f"{k} {v}" for k, v in losses.items() if v)
        )
    if "comparison" in out and "difference" in out["comparison"]:
        c = out["comparison"]
        lines.append(
            f"  A vs B answered correctly: diff {c['difference']:+.3f} [{c['low']:+.3f}, "
            f"{c['high']:+.3f}], McNemar p={c['p']:.4g}, MDE {c['mde']:.3f}"
        )
    return "\n".join(lines)


def _eval_summary(out: dict[str, Any]) -> str:
    lines = []
    for side in ("a", "b"):
        if side not in out:
            continue
        res = out[side]
        if res.get("level") == "document":
            lines.append(
                f"[{side}] {res['chunker_signature']}: {res['n_queries']} judged queries, "
                "document level (a document's rank = the rank of its best chunk; "
                "unjudged documents count as not relevant, as in trec_eval)"
            )
        else:
            lines.append(
                f"[{side}] {res['chunker_signature']}: {res['n_queries']} queries, "
                f"{res['answers_destroyed']} answers destroyed"
            )
        shown = [m for m in res["means"].values() if m is not None]
        if shown:
            unit = "questions (phrasings averaged)" if shown[0]["unit"] == "question" else "queries"
            lines.append(
                f"  95% intervals over n = {shown[0]['n']} {unit}: Wilson for 0/1 metrics, "
                f"percentile bootstrap ({BOOTSTRAP_RESAMPLES} resamples, seed {BOOTSTRAP_SEED}) "
                "for graded ones"
            )
        for key, m in res["means"].items():
            if m is not None:
                lines.append(
                    f"  {key:>10} {m['mean']:.3f}  [{m['low']:.3f}, {m['high']:.3f}] {m['method']}"
                )
    if "comparison" in out:
        for key, c in out["comparison"].items():
            lines.append(f"  {key:>10} +{c['wins']}/-{c['losses']} (={c['ties']}) p={c['p']:.4g}")
    return "\n".join(lines)


def _units(n: int, unit: str) -> str:
    """``n`` queries, or ``n`` questions where a question's phrasings were one pair."""
    return f"{n} {unit}" if n == 1 else f"{n} {'queries' if unit == 'query' else 'questions'}"


def paired_reading(c: Any) -> str:
    """One English sentence for a :class:`rag_core.evaluation.stats.PairedComparison`."""
    these = _units(c.n, c.unit)
    conclusion = {
        "a_better": f"{c.label_a} is better on these {these}",
        "b_better": f"{c.label_b} is better on these {these}",
        "not_distinguishable": f"not distinguishable on these {these}",
    }[c.verdict]
    return (
        f"{c.label_a} better on {_units(c.wins, c.unit)}, worse on {c.losses}, tied on {c.ties}; "
        f"sign test p {format_p(c.p)}: {conclusion}"
    )
