"""``scenarios {prepare,check}``: the lecture gallery."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from ..evaluation.answer_marks import answer_mark
from ..evaluation.verdict import verdict
from ..index import load_corpus_index
from ..pipeline import run
from ..scenarios import SCENARIOS, prepare, scenario, scenario_runs
from ..types import to_jsonable
from .common import Parser, load_config


def add_arguments(sc: argparse.ArgumentParser) -> None:
    """``scenarios {prepare,check}``: the lecture gallery."""
    ssub = sc.add_subparsers(dest="scenarios_command", parser_class=Parser)
    for name, fn, text in (
        ("prepare", cmd_scenarios_prepare, "run every scenario's A and B once to fill the caches"),
        (
            "check",
            cmd_scenarios_check,
            "each scenario's verdicts (generation off unless --answers)",
        ),
    ):
        c = ssub.add_parser(name, help=text)
        c.add_argument(
            "--only",
            default=None,
            help=f"comma-separated ids ({', '.join(s.id for s in SCENARIOS)})",
        )
        c.add_argument("--set", action="append", metavar="KEY=VALUE", help="on the base config")
        c.add_argument("--json", action="store_true")
        c.set_defaults(fn=fn)
        if name == "check":
            c.add_argument(
                "--answers",
                action="store_true",
                help="generate each B's answer with the configured generator and mark it by "
                "Evaluate's rule (correct, or correct_refusal out of domain)",
            )


def _scenario_runs(args: argparse.Namespace) -> list[Any]:
    base = load_config(None, None, args.set or [])
    chosen = (
        tuple(scenario(i.strip()) for i in args.only.split(",") if i.strip()) if args.only else ()
    )
    return scenario_runs(base, chosen)


def cmd_scenarios_prepare(args: argparse.Namespace) -> int:
    """Fill the on-disk caches (embeddings, the converted generator, every answer) for every
    scenario's A and B, so a lecture opens each without waiting; one line per run."""
    runs = _scenario_runs(args)
    corpus = load_corpus_index()
    t0 = time.perf_counter()

    def started(i: int, r: Any) -> None:
        if not args.json:
            print(f"[{i + 1}/{len(runs)}] {r.scenario.id} {r.side} …", file=sys.stderr, flush=True)

    rows = []
    for done in prepare(corpus, runs, on_start=started):
        rows.append(to_jsonable(done))
        if not args.json:
            how = "replayed from the cache" if done.cached else done.generation
            print(f"  {done.scenario} {done.side}: {done.seconds:.1f} s (answer: {how})")
    total = round(time.perf_counter() - t0, 3)
    if args.json:
        print(json.dumps({"runs": rows, "seconds": total}, ensure_ascii=False, indent=2))
    else:
        print(f"prepared {len(rows)} scenario runs in {total:.1f} s")
    return 0


def cmd_scenarios_check(args: argparse.Namespace) -> int:
    """Each scenario's A and B with generation off: the lecture verdict of each, and whether A
    fails where the scenario says and B works (exit 1 when one does not). With ``--answers``,
    each B is also answered by the configured generator and must be marked ``correct`` (or
    ``correct_refusal`` out of domain) by Evaluate's rule, as the slow scenario test asks of the
    default generator."""
    runs = _scenario_runs(args)
    corpus = load_corpus_index()
    questions = {q.id: q for q in corpus.questions}
    rows, bad = [], 0
    for r in runs:
        answering = args.answers and r.side == "B"  # B's verdict read off the answered run
        cfg = r.config if answering else r.config.with_overrides({"generation.model": "none"})
        q = questions[r.scenario.question_id or ""]
        trace = run(cfg, r.scenario.question_text(q), corpus, gold=q)
        v = verdict(trace, q, seen="context")
        good = (
            v.failed and v.stage == r.scenario.fails_at
            if r.side == "A"
            else v.kind == r.scenario.works
        )
        row: dict[str, Any] = {
            "scenario": r.scenario.id,
            "side": r.side,
            "verdict": v.kind,
            "stage": v.stage,
        }
        said = ""
        if answering:
            want = "correct_refusal" if r.scenario.works == "refused" else "correct"
            row["answer"] = trace.generation.answer
            row["answer_mark"] = answer_mark(trace, q)
            good = good and row["answer_mark"] == want
            said = f" · answer {row['answer_mark']}: {row['answer'] or ''!r}"
        row["as_stated"] = good
        bad += not good
        rows.append(row)
        if not args.json:
            mark = "ok " if good else "BAD"
            print(f"{mark} {r.scenario.id} {r.side}: {v.kind} {v.stage or ''}".rstrip() + said)
    if args.json:
        print(json.dumps({"runs": rows, "not_as_stated": bad}, indent=2))
    return 1 if bad else 0
