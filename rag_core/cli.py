"""Command line: ``python -m rag_core {chunk,query,metrics,eval,corpus,sweep,labels} …``.

Every command prints one JSON document on stdout with ``--json`` (a short
human summary otherwise). Bad arguments print one clear line on stderr and
exit 2 — never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from .config import PRESETS, PipelineConfig, preset
from .types import dumps, to_jsonable

EXIT_USAGE = 2


class UsageError(Exception):
    """A problem with the user's input: one line on stderr, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one clear line, exit 2
        raise UsageError(f"{self.prog}: {message}")


# ----------------------------------------------------------------- helpers


def _load_config(config: str | None, presets: str | None, sets: Sequence[str]) -> PipelineConfig:
    """A config from a preset letter or JSON file, then ``--set`` overrides."""
    cfg = PipelineConfig()
    if config:
        cfg = _config_arg(config)
    if presets:
        cfg = preset(presets, cfg)
    overrides: dict[str, str] = {}
    for item in sets:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise UsageError(f"--set {item!r}: expected key=value, e.g. retrieval.k=5")
        overrides[key.strip()] = value
    return cfg.with_overrides(overrides) if overrides else cfg


def _config_arg(value: str) -> PipelineConfig:
    """``A``–``F`` (a preset) or a path to a JSON config file."""
    if value.strip().upper() in PRESETS and not Path(value).exists():
        return preset(value)
    path = Path(value)
    if not path.is_file():
        raise UsageError(
            f"config {value!r} is neither a preset ({', '.join(PRESETS)}) nor an existing JSON file"
        )
    return PipelineConfig.from_json(path.read_text(encoding="utf-8"))


def _emit(obj: Any, as_json: bool, summary: str = "") -> None:
    if as_json:
        sys.stdout.write(dumps(obj, indent=None) + "\n")
    else:
        sys.stdout.write((summary or dumps(obj, indent=2)) + "\n")


def _ks(text: str) -> tuple[int, ...]:
    try:
        ks = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise UsageError(f"--k {text!r}: expected integers like 1,4,8,20") from None
    if not ks or any(k <= 0 for k in ks):
        raise UsageError(f"--k {text!r}: every k must be a positive integer")
    return ks


def _corpus(path: str | None):
    from .index import load_corpus_index

    return load_corpus_index(path)


# ---------------------------------------------------------------- commands


def cmd_chunk(args: argparse.Namespace) -> int:
    from .chunking import chunk_document
    from .config import ChunkerConfig
    from .loaders import load_file

    report = load_file(args.doc)
    if not report.documents:
        reason = report.failed[0].reason if report.failed else "no document in file"
        raise UsageError(f"--doc {args.doc}: {reason}")
    doc = report.documents[0]
    if args.title:
        from dataclasses import replace

        doc = replace(doc, title=args.title)
    cfg = ChunkerConfig(
        strategy=args.strategy,
        target=args.target,
        overlap=args.overlap,
        header=args.header,
        min_chars=args.min_chars,
    )
    chunks = chunk_document(doc, cfg)
    rows = [
        {
            "chunk_id": c.chunk_id,
            "doc_id": c.doc_id,
            "start": c.start,
            "end": c.end,
            "own_start": c.own_start,
            "content": c.content,
            "text": c.text,
            "section": c.section,
            "tokens": c.tokens,
        }
        for c in chunks
    ]
    _emit(rows, args.json, f"{len(rows)} chunks ({cfg.signature}) from {doc.doc_id}")
    return 0


def cmd_query(args: argparse.Namespace) -> int:
    from .pipeline import run

    cfg = _load_config(args.config, args.preset, args.set or [])
    corpus = _corpus(args.corpus)
    gold = None
    if args.question_id:
        matches = [q for q in corpus.questions if q.id == args.question_id]
        if not matches:
            raise UsageError(f"--question-id {args.question_id!r} is not in the corpus' question sets")
        gold = matches[0]
    question = args.question
    if question is None:
        if gold is None:
            raise UsageError("give a QUESTION or --question-id")
        question = gold.question
    trace = run(cfg, question, corpus, gold=gold)
    gen = trace.generation
    summary = "\n".join(
        [
            f"question: {trace.question}",
            *(f"{lst.name}: {[h.chunk_id for h in lst.hits]}" for lst in trace.retrieval.lists),
            f"gate: {'REFUSED — ' + trace.gate.reason if trace.gate.refused else f'{len(trace.gate.kept)} kept'}",
            f"generation: {gen.status} {gen.answer or gen.message}",
        ]
    )
    _emit(trace, args.json, summary)
    return 0


def cmd_metrics(args: argparse.Namespace) -> int:
    from .metrics import evaluate_run
    from .trec import read_qrels, read_run

    qrels = read_qrels(args.qrels)
    run_ = read_run(args.run)
    ks = _ks(args.k)
    result = evaluate_run(run_, qrels, ks)
    _emit(result, args.json, json.dumps(result["mean"], indent=2))
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from .evalrun import evaluate_config, compare_configs

    corpus = _corpus(args.corpus)
    from .questions import load_questions

    questions = load_questions(args.queries)
    ks = _ks(args.k)
    cfg_a = _load_config(args.config, None, args.set or [])
    res_a = evaluate_config(cfg_a, questions, corpus, ks=ks, phrasings=args.phrasings)
    out: dict[str, Any] = {"a": res_a}
    if args.compare:
        cfg_b = _load_config(args.compare, None, args.set or [])
        res_b = evaluate_config(cfg_b, questions, corpus, ks=ks, phrasings=args.phrasings)
        out["b"] = res_b
        out["comparison"] = compare_configs(res_a, res_b)
    data = {key: (value.to_dict() if hasattr(value, "to_dict") else to_jsonable(value)) for key, value in out.items()}
    _emit(data, args.json, "" if args.json else _eval_summary(data))
    return 0


def _eval_summary(out: dict[str, Any]) -> str:
    lines = []
    for side in ("a", "b"):
        if side not in out:
            continue
        res = out[side]
        lines.append(
            f"[{side}] {res['chunker_signature']}: {res['n_queries']} queries, "
            f"{res['answers_destroyed']} answers destroyed"
        )
        for key, m in res["means"].items():
            if m is not None:
                lines.append(f"  {key:>10} {m['mean']:.3f}  [{m['low']:.3f}, {m['high']:.3f}]")
    if "comparison" in out:
        for key, c in out["comparison"].items():
            lines.append(f"  {key:>10} +{c['wins']}/-{c['losses']} (={c['ties']}) p={c['p']:.4g}")
    return "\n".join(lines)


def cmd_corpus(args: argparse.Namespace) -> int:
    from .corpus_check import check_corpus

    report = check_corpus(Path(args.dir) if args.dir else None)
    _emit(report, args.json, report.summary())
    return 0 if report.ok else 1


# ------------------------------------------------------------------ parser


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m rag_core", description="RAG Stage Inspector core")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    c = sub.add_parser("chunk", help="chunk one document")
    c.add_argument("--doc", required=True)
    c.add_argument("--title", default=None)
    c.add_argument("--strategy", required=True, choices=("blind", "boundaries", "tokens", "html"))
    c.add_argument("--header", action="store_true")
    c.add_argument("--overlap", type=int, default=0)
    c.add_argument("--target", type=int, default=512)
    c.add_argument("--min-chars", type=int, default=40)
    c.add_argument("--json", action="store_true")
    c.set_defaults(fn=cmd_chunk)

    q = sub.add_parser("query", help="run one question through the pipeline")
    q.add_argument("question", nargs="?")
    q.add_argument("--corpus", default=None)
    q.add_argument("--preset", default=None, help="chunking preset A–F")
    q.add_argument("--config", default=None, help="JSON config file (or a preset letter)")
    q.add_argument("--set", action="append", metavar="KEY=VALUE")
    q.add_argument("--question-id", default=None, help="a question id from the corpus' question sets")
    q.add_argument("--json", action="store_true")
    q.set_defaults(fn=cmd_query)

    m = sub.add_parser("metrics", help="score a TREC run against qrels")
    m.add_argument("--qrels", required=True)
    m.add_argument("--run", required=True)
    m.add_argument("--k", default="10")
    m.add_argument("--json", action="store_true")
    m.set_defaults(fn=cmd_metrics)

    e = sub.add_parser("eval", help="evaluate a config (and compare another) on a question set")
    e.add_argument("--queries", required=True)
    e.add_argument("--corpus", default=None)
    e.add_argument("--config", default=None, help="config A: preset letter or JSON file")
    e.add_argument("--compare", default=None, help="config B: preset letter or JSON file")
    e.add_argument("--set", action="append", metavar="KEY=VALUE", help="applied to both configs")
    e.add_argument("--k", default="1,4,8,20")
    e.add_argument("--phrasings", default="all", help="all | question | 0 | 1")
    e.add_argument("--json", action="store_true")
    e.set_defaults(fn=cmd_eval)

    cc = sub.add_parser("corpus", help="corpus tools")
    csub = cc.add_subparsers(dest="corpus_command", parser_class=_Parser)
    chk = csub.add_parser("check", help="validate the sample corpus and its question sets")
    chk.add_argument("dir", nargs="?", default=None)
    chk.add_argument("--json", action="store_true")
    chk.set_defaults(fn=cmd_corpus)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "fn", None):
            raise UsageError(
                "python -m rag_core: choose a command: chunk, query, metrics, eval, corpus check"
            )
        return args.fn(args)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ValueError as exc:  # validation errors from rag_core
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except FileNotFoundError as exc:
        print(f"error: file not found: {exc.filename}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
