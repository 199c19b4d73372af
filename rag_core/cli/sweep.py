"""``sweep``: the refusal-threshold sweep over a question set."""

from __future__ import annotations

import argparse
from typing import Any

from ..evaluation import sweep, sweep_collect
from ..evaluation.sweep import METRIC_CHOICES
from ..formats.questions import load_questions
from ..formats.ranges import parse_range
from ..gold.labels import question_set_name
from ..gold.store import LabelStore
from ..wording import english
from .common import UsageError, add_dataset_args, emit, load_config
from .sets import corpus_index, dataset, read_runs, with_runs


def add_arguments(s: argparse.ArgumentParser) -> None:
    s.add_argument(
        "--queries", default=None, help="question set with answerable and unanswerable questions"
    )
    s.add_argument("--corpus", default=None)
    add_dataset_args(s)
    s.add_argument("--config", default=None, help="JSON config file or preset letter")
    s.add_argument("--preset", default=None, help="chunking preset A–F")
    s.add_argument("--set", action="append", metavar="KEY=VALUE")
    s.add_argument(
        "--thresholds",
        default=None,
        help="start:stop:step or a,b,c (default: the range of the best distances or scores "
        "observed, in round steps for distances)",
    )
    s.add_argument("--max-kept", default="4", help="keep at most M under the cut (none: no limit)")
    s.add_argument("--phrasings", default="all", help="all | question | 0 | 1")
    s.add_argument("--metric", default=METRIC_CHOICES[0], choices=METRIC_CHOICES)
    s.add_argument(
        "--use-labels", action="store_true", help="merge manual labels from the store into gold"
    )
    s.add_argument("--store", default=None)
    s.add_argument(
        "--candidates", action="store_true", help="include every query's candidates in --json"
    )
    s.add_argument("--json", action="store_true")
    s.set_defaults(fn=cmd_sweep)


def cmd_sweep(args: argparse.Namespace) -> int:
    corpus, qset = dataset(args)
    if qset is not None:
        questions, set_name, known = qset.questions, qset.name, qset.queries
    elif args.queries:
        questions, set_name = load_questions(args.queries), question_set_name(args.queries)
        known = {
            qid
            for q in questions
            for qid in (q.id, *(f"{q.id}#{i}" for i in range(len(q.phrasings))))
        }
        corpus = corpus_index(args.corpus)
    else:
        raise UsageError("give --queries FILE, --beir DIR, or --corpus/--topics/--qrels")
    runs = read_runs(args.run, known)
    cfg = with_runs(load_config(args.config, args.preset, args.set or []), runs)
    max_kept = _max_kept(args.max_kept)
    thresholds = parse_range(args.thresholds) if args.thresholds else None
    labels = LabelStore(args.store).current() if args.use_labels else ()
    data = sweep_collect.collect(
        cfg,
        questions,
        corpus,
        phrasings=args.phrasings,
        labels=labels,
        question_set=set_name,
        metric=args.metric,
        runs=runs,
    )
    rep = sweep.report(data, thresholds, max_kept)
    out: dict[str, Any] = {"report": rep}
    if args.candidates:
        out["data"] = data
    emit(out, args.json, "" if args.json else _sweep_summary(rep))
    return 0


def _max_kept(text: str) -> int | None:
    if text.strip().lower() in ("none", "0", "off"):
        return None
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"--max-kept {text!r}: expected a positive integer or none") from None
    if value < 0:
        raise UsageError(f"--max-kept {text!r}: expected a positive integer or none")
    return value


def _sweep_summary(rep: Any) -> str:
    d = rep.distribution
    cmp = "≥" if rep.higher_is_better else "≤"
    lines = [
        (
            f"{rep.n_queries} queries ({rep.n_answerable} answerable, "
            f"{rep.n_unanswerable} unanswerable), {rep.chunker_signature}, "
            f"collected in {rep.seconds_collect:.2f} s"
        ),
        f"gate: {rep.metric} {cmp} threshold, keep at most {rep.max_kept or 'all'}",
        *(f"note: {english(w)}" for w in rep.warnings),
        (
            f"worst answerable best {rep.metric}: {d.worst_answerable} "
            f"({d.worst_answerable_id}); "
            f"best unanswerable: {d.best_unanswerable} ({d.best_unanswerable_id}); "
            f"separable: {d.separable}"
        ),
        (
            f"{'threshold':>10} {'gold':>5} {'no-gold':>7} {'refused':>7} {'bluffed':>7} "
            f"{'refused-un':>10}"
        ),
    ]
    for row in (rep.no_threshold, *rep.rows):
        t = "none" if row.threshold is None else f"{row.threshold:.4g}"
        lines.append(
            f"{t:>10} {row.answered_with_gold:>5} {row.answered_without_gold:>7} "
            f"{row.refused_answerable:>7} {row.bluffed:>7} {row.refused_unanswerable:>10}"
        )
    return "\n".join(lines)
