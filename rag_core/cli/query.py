"""``query``: one question through the pipeline."""

from __future__ import annotations

import argparse
import sys

from ..pipeline import run
from ..retrieval.runs import export_trec
from .common import (
    EXIT_USAGE,
    UsageError,
    add_dataset_args,
    emit,
    inputs_of,
    load_config,
    write_output,
)
from .sets import corpus_index, dataset, read_runs, with_runs


def add_arguments(q: argparse.ArgumentParser) -> None:
    """``query``: one question through the pipeline."""
    q.add_argument("question", nargs="?")
    q.add_argument("--corpus", default=None)
    q.add_argument("--preset", default=None, help="chunking preset A–F")
    q.add_argument("--config", default=None, help="JSON config file (or a preset letter)")
    q.add_argument("--set", action="append", metavar="KEY=VALUE")
    q.add_argument(
        "--question-id", default=None, help="a question id from the corpus' question sets"
    )
    add_dataset_args(q)
    q.add_argument(
        "--query-id",
        default=None,
        help=(
            "query id the runs are read at and --trec-run writes (default: --question-id, else q1)"
        ),
    )
    q.add_argument(
        "--trec-run",
        default=None,
        metavar="FILE",
        help="write every retriever list as a TREC run (qid Q0 chunk_id rank score tag)",
    )
    q.add_argument("--json", action="store_true")
    q.set_defaults(fn=cmd_query)


def cmd_query(args: argparse.Namespace) -> int:
    cfg = load_config(args.config, args.preset, args.set or [])
    corpus, qset = dataset(args)
    if corpus is None:
        corpus = corpus_index(args.corpus)
    gold = None
    if args.question_id:
        matches = [q for q in corpus.questions if q.id == args.question_id]
        if not matches:
            raise UsageError(
                f"--question-id {args.question_id!r} is not in the corpus' question sets"
            )
        gold = matches[0]
    question = args.question
    if question is None:
        if gold is None and qset is not None and args.question_id in qset.queries:
            question = qset.queries[args.question_id]  # a query without judgements
        elif gold is None:
            raise UsageError("give a QUESTION or --question-id")
        else:
            question = gold.question
    query_id = args.query_id or args.question_id or "q1"
    known = {
        qid
        for q in corpus.questions
        for qid in (q.id, *(f"{q.id}#{i}" for i in range(len(q.phrasings))))
    }
    known |= set(qset.queries) if qset is not None else set()
    runs = read_runs(args.run, known | {query_id})  # a run naming other query ids is refused
    cfg = with_runs(cfg, runs)
    trace = run(cfg, question, corpus, gold=gold, runs=runs, query_id=query_id)
    if args.trec_run:
        write_output(
            export_trec(trace.retrieval.lists, query_id),
            args.trec_run,
            inputs_of(args),
            flag="--trec-run",
        )
    gen = trace.generation
    summary = "\n".join(
        [
            f"question: {trace.question}",
            *(f"{lst.name}: {[h.chunk_id for h in lst.hits]}" for lst in trace.retrieval.lists),
            "gate: "
            + (
                f"REFUSED — {trace.gate.reason}"
                if trace.gate.refused
                else f"{len(trace.gate.kept)} kept"
            ),
            f"generation: {gen.status} {gen.answer or gen.message}",
        ]
    )
    emit(trace, args.json, summary)
    for lst in trace.retrieval.lists:  # an ok list's note (Qdrant hits left out) on stderr
        if lst.status == "ok" and lst.hits and lst.message:
            print(f"note: {lst.name}: {lst.message}", file=sys.stderr)
    failed = [lst for lst in trace.retrieval.lists if lst.method == "qdrant" and lst.status != "ok"]
    for (
        lst
    ) in failed:  # the Trace is printed (the other retrievers ran); the failure is one line, exit 2
        print(f"error: {lst.name}: {lst.message}", file=sys.stderr)
    return EXIT_USAGE if failed else 0
