"""Command line: ``python -m rag_core {chunk,query,metrics,eval,corpus,sweep,labels,index,support,
scenarios}``

Every command prints one JSON document on stdout with ``--json`` (a short
human summary otherwise). Bad arguments print one clear line on stderr and
exit 2 — never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

from .answer import checkfile
from .chunking import chunk_document
from .config import (
    CHUNK_STRATEGIES,
    PRESETS,
    ChunkerConfig,
    GenerationConfig,
    PipelineConfig,
    SupportConfig,
    override_items,
    preset,
)
from .corpus.check import check_corpus
from .corpus.datasets import load_qrels_folder, load_trec_set
from .corpus.loaders import load_corpus, load_file
from .evaluation import sweep
from .evaluation.answers import compare_answers, evaluate_answers
from .evaluation.metrics import GAINS, evaluate_run
from .evaluation.run import compare_configs, evaluate_config
from .evaluation.stats import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, format_p, parse_range
from .evaluation.sweep import METRIC_CHOICES
from .evaluation.verdict import verdict
from .formats.questions import load_questions
from .formats.trec import format_qrels, read_qrels, read_run, write_text_atomic
from .gold.labels import LabelStore, check_grade, check_span, qrels_for, question_set_name
from .index import SAMPLE_CORPUS, CorpusIndex, load_corpus_index, load_warnings
from .models import ModelUnavailable
from .pipeline import run
from .retrieval.qdrant import QdrantTarget, build_collection, check_writable
from .retrieval.runs import check_queries, export_trec, read_run_file
from .scenarios import SCENARIOS, prepare, scenario, scenario_runs
from .types import dumps, to_jsonable
from .wording import english

EXIT_USAGE = 2
#: What ``labels export --format`` writes: span labels as JSONL, or chunk-level TREC qrels.
LABEL_EXPORT_FORMATS = ("jsonl", "qrels")


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
    try:
        overrides = override_items(sets)
    except ValueError as exc:
        raise UsageError(f"--set {exc}") from None
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


def _warn_load(lines: Sequence[str]) -> None:
    """Each file or row the corpus load skipped, one ``warning:`` line on stderr."""
    for line in lines:
        print(f"warning: {line}", file=sys.stderr)


def _corpus(path: str | None, **kwargs: Any):
    corpus = load_corpus_index(path, **kwargs)
    _warn_load(corpus.load_warnings)
    return corpus


def _dataset(args: argparse.Namespace) -> tuple[Any, Any]:
    """``(CorpusIndex, QrelsSet)`` of ``--beir DIR`` or ``--topics``/``--qrels``; ``(None,
    None)`` without."""
    beir = getattr(args, "beir", None)
    topics, qrels = getattr(args, "topics", None), getattr(args, "qrels", None)
    if beir:
        qset = load_qrels_folder(beir, args.split)
    elif topics or qrels:
        if not (topics and qrels and args.corpus):
            raise UsageError(
                "a TREC set needs --corpus DIR, --topics FILE and --qrels FILE together"
            )
        qset = load_trec_set(args.corpus, topics, qrels)
    else:
        return None, None
    for line in qset.warnings():
        print(f"warning: {line}", file=sys.stderr)
    return CorpusIndex(qset.report, name=qset.name, questions=qset.questions), qset


def _runs(files: Sequence[str] | None, known_queries: Any = None) -> dict[str, Any]:
    """Runs of every ``--run FILE`` by tag; a run naming unknown query ids is an error."""
    runs: dict[str, Any] = {}
    for f in files or ():
        for tag, r in read_run_file(f).items():
            if tag in runs:
                raise UsageError(
                    f"--run {f}: tag {tag!r} is already loaded from {runs[tag].source}"
                )
            runs[tag] = r
    if runs and known_queries is not None:
        check_queries(runs, known_queries)
    return runs


def _with_runs(cfg: PipelineConfig, runs: dict[str, Any]) -> PipelineConfig:
    """Add every run as a ``run:TAG`` retriever unless the config already names a run."""
    methods = cfg.retrieval.methods
    if not runs or any(m.startswith("run:") for m in methods):
        return cfg
    return cfg.with_overrides({"retrieval.methods": list(methods) + [f"run:{t}" for t in runs]})


# ---------------------------------------------------------------- commands


def cmd_chunk(args: argparse.Namespace) -> int:
    report = load_file(args.doc)
    if not report.documents:
        reason = report.failed[0].reason if report.failed else "no document in file"
        raise UsageError(f"--doc {args.doc}: {reason}")
    _warn_load(load_warnings(report))
    doc = report.documents[0]
    if args.title:
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
    cfg = _load_config(args.config, args.preset, args.set or [])
    corpus, qset = _dataset(args)
    if corpus is None:
        corpus = _corpus(args.corpus)
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
    runs = _runs(args.run, known | {query_id})  # a run naming other query ids is refused
    cfg = _with_runs(cfg, runs)
    trace = run(cfg, question, corpus, gold=gold, runs=runs, query_id=query_id)
    if args.trec_run:
        _write_output(export_trec(trace.retrieval.lists, query_id), args.trec_run)
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
    _emit(trace, args.json, summary)
    for lst in trace.retrieval.lists:  # an ok list's note (Qdrant hits left out) on stderr
        if lst.status == "ok" and lst.hits and lst.message:
            print(f"note: {lst.name}: {lst.message}", file=sys.stderr)
    failed = [lst for lst in trace.retrieval.lists if lst.method == "qdrant" and lst.status != "ok"]
    for (
        lst
    ) in failed:  # the Trace is printed (the other retrievers ran); the failure is one line, exit 2
        print(f"error: {lst.name}: {lst.message}", file=sys.stderr)
    return EXIT_USAGE if failed else 0


def cmd_index_qdrant(args: argparse.Namespace) -> int:
    """Chunk and embed the loaded corpus, then write it to a Qdrant collection."""
    if bool(args.path) == bool(args.url):
        raise UsageError(
            "index qdrant: give exactly one of --path DIR (embedded local mode) or --url URL (a "
            "server)"
        )
    target = QdrantTarget(url=args.url or "", path=args.path or "")
    cfg = _load_config(args.config, args.preset, args.set or [])
    model = args.model or cfg.retrieval.qdrant_model
    check_writable(
        target, args.collection, recreate=args.recreate
    )  # fail before any embedding work
    corpus = _corpus(args.corpus)
    chunking = corpus.chunking(cfg.chunker)
    try:
        dense = corpus.dense(cfg.chunker, model)
    except ModelUnavailable as exc:
        raise UsageError(f"index qdrant: embedder {model!r} is unavailable: {exc}") from None
    facts = build_collection(
        target,
        args.collection,
        chunking.chunks,
        dense.vectors,
        model_id=dense.stamp.embedding_model,
        chunker_signature=chunking.signature,
        recreate=args.recreate,
    )
    out = {
        "where": target.where,
        "collection": facts.name,
        "points": facts.points,
        "dimension": facts.dimension,
        "distance": facts.distance,
        "embedding_model": dense.stamp.embedding_model,
        "chunker_signature": chunking.signature,
        "corpus_fingerprint": corpus.fingerprint,
        "query_with": {
            "retrieval.methods": "qdrant",
            ("retrieval.qdrant_path" if args.path else "retrieval.qdrant_url"): args.path
            or args.url,
            "retrieval.qdrant_collection": facts.name,
            "retrieval.qdrant_model": model,
        },
    }
    summary = (
        f"{facts.points} chunks ({chunking.signature}) embedded with {dense.stamp.embedding_model} "
        f"({facts.dimension}-d, {facts.distance}) written to collection {facts.name!r} at "
        f"{target.where}"
    )
    _emit(out, args.json, summary)
    return 0


def cmd_metrics(args: argparse.Namespace) -> int:
    qrels = read_qrels(args.qrels)
    run_ = read_run(args.run)
    ks = _ks(args.k)
    result = evaluate_run(run_, qrels, ks, gain=args.gain)
    _emit(result, args.json, json.dumps(result["mean"], indent=2))
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    corpus, qset = _dataset(args)
    if qset is not None:
        questions = qset.questions
        doc_qrels = qset.qrels
        known: Any = qset.queries
    else:
        if not args.queries:
            raise UsageError("give --queries FILE, --beir DIR, or --corpus/--topics/--qrels")
        corpus = _corpus(args.corpus)
        questions = load_questions(args.queries)
        doc_qrels = None
        known = {
            qid
            for q in questions
            for qid in (q.id, *(f"{q.id}#{i}" for i in range(len(q.phrasings))))
        }
    ks = _ks(args.k or ("1,10,100" if qset is not None else "1,4,8,20"))
    runs = _runs(args.run, known)
    kw: dict[str, Any] = {
        "ks": ks,
        "phrasings": args.phrasings or "all",
        "gain": args.gain,
        "doc_qrels": doc_qrels,
        "runs": runs,
    }
    cfg_a = _with_runs(_load_config(args.config, None, args.set or []), runs)
    if args.answers:
        return _eval_answers(args, cfg_a, questions, corpus)
    res_a = evaluate_config(cfg_a, questions, corpus, **kw)
    out: dict[str, Any] = {"a": res_a}
    if args.compare:
        cfg_b = _with_runs(_load_config(args.compare, None, args.set or []), runs)
        res_b = evaluate_config(cfg_b, questions, corpus, **kw)
        out["b"] = res_b
        out["comparison"] = compare_configs(res_a, res_b)
    data = {
        key: (value.to_dict() if hasattr(value, "to_dict") else to_jsonable(value))
        for key, value in out.items()
    }
    _emit(data, args.json, "" if args.json else _eval_summary(data))
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

    previous = signal.signal(signal.SIGINT, on_interrupt)
    t = time.perf_counter()
    try:
        out: dict[str, Any] = {
            "a": evaluate_answers(
                cfg_a,
                questions,
                corpus,
                phrasings=phrasings,
                progress=progress,
                should_stop=lambda: stop["asked"],
                concurrency=args.concurrency,
            )
        }
        if args.compare and not stop["asked"]:
            cfg_b = _load_config(args.compare, None, args.set or [])
            out["b"] = evaluate_answers(
                cfg_b,
                questions,
                corpus,
                phrasings=phrasings,
                progress=progress,
                should_stop=lambda: stop["asked"],
                concurrency=args.concurrency,
            )
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


def cmd_corpus(args: argparse.Namespace) -> int:
    report = check_corpus(Path(args.dir) if args.dir else None)
    _emit(report, args.json, report.summary())
    return 0 if report.ok else 1


# ------------------------------------------------------------ labels / sweep


def _annotator(value: str | None) -> str:
    """``--annotator``, else ``$RAG_INSPECTOR_ANNOTATOR``, else anonymous (``""``)."""
    return value if value is not None else os.environ.get("RAG_INSPECTOR_ANNOTATOR", "")


def _store(path: str | None):
    return LabelStore(path)


def _corpus_docs(path: str | None) -> dict[str, Any]:
    """``{doc_id: Document}`` of a corpus directory (default: the sample corpus)."""
    report = load_corpus(Path(path) if path else SAMPLE_CORPUS)
    _warn_load(load_warnings(report))
    if not report.documents:
        raise UsageError(f"--corpus {path or SAMPLE_CORPUS}: no loadable document")
    return {d.doc_id: d for d in report.documents}


def _question_files(files: Sequence[str] | None, corpus: str | None) -> list[Path]:
    """The ``--questions`` files, else every ``questions/*.jsonl`` of the corpus."""
    if files:
        return [Path(f) for f in files]
    qdir = (Path(corpus) if corpus else SAMPLE_CORPUS) / "questions"
    found = sorted(qdir.glob("*.jsonl")) if qdir.is_dir() else []
    if not found:
        raise UsageError(f"no question set: give --questions FILE (nothing in {qdir})")
    return found


def _write_output(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text)
        return

    try:
        write_text_atomic(output, text)
    except OSError as exc:
        raise UsageError(f"--output {output}: {exc.strerror or exc}") from None


def cmd_labels_add(args: argparse.Namespace) -> int:
    questions = load_questions(args.questions)
    ids = [q.id for q in questions]
    if args.question_id not in ids:
        sample = ", ".join(ids[:5]) + (", …" if len(ids) > 5 else "")
        raise UsageError(
            f"--question-id {args.question_id!r} is not in {args.questions} "
            f"({len(ids)} questions: {sample})"
        )
    docs = _corpus_docs(args.corpus)
    doc = docs.get(args.doc_id)
    if doc is None:
        sample = ", ".join(sorted(docs)[:5]) + (", …" if len(docs) > 5 else "")
        raise UsageError(
            f"--doc-id {args.doc_id!r} is not in the corpus ({len(docs)} documents: {sample})"
        )
    text = args.text if args.text is not None else doc.text[max(args.start, 0) : max(args.end, 0)]
    check_span(args.doc_id, args.start, args.end, text, doc)
    check_grade(args.grade)
    question_set = args.question_set or question_set_name(args.questions)
    store = _store(args.store)
    label = store.add(
        question_set,
        args.question_id,
        args.doc_id,
        args.start,
        args.end,
        args.grade,
        text=text,
        note=args.note,
        annotator=_annotator(args.annotator),
        doc=doc,
    )
    _emit(
        label,
        args.json,
        f"labeled {label.question_set}/{label.question_id} "
        f"{label.doc_id}[{label.start}:{label.end}] grade {label.grade} "
        f"(label {label.label_id}, store {store.path})",
    )
    return 0


def cmd_labels_export(args: argparse.Namespace) -> int:
    if args.format == LABEL_EXPORT_FORMATS[0]:
        _write_output(_store(args.store).export_jsonl(args.question_set), args.output)
        return 0

    cfg = _load_config(args.config, args.preset, args.set or [])
    corpus, qset = _dataset(args)
    if qset is not None:  # a BEIR/TREC set: its judged documents plus any span labels
        sets: list[tuple[Any, str, Any]] = [
            (qset.name, args.question_set or qset.name, qset.questions)
        ]
    else:
        corpus = _corpus(args.corpus, questions=[])
        sets = [
            (f, args.question_set or question_set_name(f), None)
            for f in _question_files(args.questions, args.corpus)
        ]
    chunks = corpus.chunking(cfg.chunker).chunks
    labels = _store(args.store).current()
    qrels: dict[str, dict[str, int]] = {}
    for f, name, questions in sets:
        part = qrels_for(
            chunks,
            questions if questions is not None else load_questions(f),
            corpus.docs,
            labels,
            question_set=name,
            phrasings=args.phrasings,
        )
        clash = sorted(set(part) & set(qrels))
        if clash:
            raise UsageError(f"query id {clash[0]!r} of {f} is also in another question set")
        qrels.update(part)
    _write_output(format_qrels(qrels, escape=args.escape), args.output)
    return 0


def cmd_labels_import(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a directory, not a labels file") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    docs = _corpus_docs(args.corpus) if args.corpus else None
    store = _store(args.store)
    rep = store.import_jsonl(text, docs=docs, source=path.name)
    _emit(
        rep,
        args.json,
        f"imported {rep.n_lines} labels into {store.path}: {rep.added} added, "
        f"{rep.changed} changed, {rep.unchanged} unchanged",
    )
    return 0


def cmd_labels_undo(args: argparse.Namespace) -> int:
    if args.label_id is None and args.annotator is None:
        raise UsageError("labels undo: give --label-id or --annotator (whose last event to revert)")
    event = _store(args.store).undo(label_id=args.label_id, annotator=args.annotator)
    _emit(
        event,
        args.json,
        f"undid {event.kind} #{event.event_id} of label {event.label_id} "
        f"({event.question_set}/{event.question_id} {event.doc_id}[{event.start}:{event.end}] "
        f"grade {event.grade}, by {event.annotator or 'anonymous'})",
    )
    return 0


def cmd_labels_list(args: argparse.Namespace) -> int:
    store = _store(args.store)
    if args.history:
        events = store.history(args.question_set, args.question_id)
        lines = [
            f"#{e.event_id} {e.created_at} {e.kind:<6} {e.label_id} "
            f"{e.question_set}/{e.question_id} {e.doc_id}[{e.start}:{e.end}] "
            f"grade {e.grade} {e.annotator or '-'}"
            + (f" (undone by #{e.undone_by})" if e.undone_by else "")
            for e in events
        ]
        _emit(events, args.json, "\n".join(lines) or "no label events")
        return 0
    labels = store.current(args.question_set, args.question_id)
    lines = [
        f"{lab.label_id} {lab.question_set}/{lab.question_id} {lab.doc_id}[{lab.start}:{lab.end}] "
        f"grade {lab.grade} {lab.annotator or '-'} {lab.text[:50]!r}"
        for lab in labels
    ]
    _emit(labels, args.json, "\n".join(lines) or "no labels")
    return 0


def _labels_usage(args: argparse.Namespace) -> int:
    raise UsageError("python -m rag_core labels: choose one of add, export, import, undo, list")


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


def cmd_sweep(args: argparse.Namespace) -> int:
    corpus, qset = _dataset(args)
    if qset is not None:
        questions, set_name, known = qset.questions, qset.name, qset.queries
    elif args.queries:
        questions, set_name = load_questions(args.queries), question_set_name(args.queries)
        known = {
            qid
            for q in questions
            for qid in (q.id, *(f"{q.id}#{i}" for i in range(len(q.phrasings))))
        }
        corpus = _corpus(args.corpus)
    else:
        raise UsageError("give --queries FILE, --beir DIR, or --corpus/--topics/--qrels")
    runs = _runs(args.run, known)
    cfg = _with_runs(_load_config(args.config, args.preset, args.set or []), runs)
    max_kept = _max_kept(args.max_kept)
    thresholds = parse_range(args.thresholds) if args.thresholds else None
    labels = _store(args.store).current() if args.use_labels else ()
    data = sweep.collect(
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
    _emit(out, args.json, "" if args.json else _sweep_summary(rep))
    return 0


# ----------------------------------------------------- English wording of the core's codes
# (the pages word them in ui/i18n.py)


def _queries(n: int) -> str:
    return f"{n} query" if n == 1 else f"{n} queries"


def paired_reading(c: Any) -> str:
    """One English sentence for a :class:`rag_core.evaluation.stats.PairedComparison`."""
    conclusion = {
        "a_better": f"{c.label_a} is better on these {_queries(c.n)}",
        "b_better": f"{c.label_b} is better on these {_queries(c.n)}",
        "not_distinguishable": f"not distinguishable on these {_queries(c.n)}",
    }[c.verdict]
    return (
        f"{c.label_a} better on {_queries(c.wins)}, worse on {c.losses}, tied on {c.ties}; "
        f"sign test p {format_p(c.p)}: {conclusion}"
    )


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


def _add_label_commands(sub: Any) -> None:
    store_help = (
        "label store (default: $RAG_INSPECTOR_DATA/labels.sqlite3, "
        "else ~/.local/share/rag-inspector/labels.sqlite3)"
    )
    lb = sub.add_parser("labels", help="gold labels: add, export, import, undo, list")
    lb.set_defaults(fn=_labels_usage)
    lsub = lb.add_subparsers(dest="labels_command", parser_class=_Parser)

    a = lsub.add_parser("add", help="label a document span for a question")
    a.add_argument("--questions", required=True, help="question set file (.jsonl)")
    a.add_argument("--question-id", required=True)
    a.add_argument("--doc-id", required=True)
    a.add_argument("--start", type=int, required=True)
    a.add_argument("--end", type=int, required=True)
    a.add_argument("--grade", type=int, required=True, help="0 (not relevant) to 3")
    a.add_argument("--text", default=None, help="expected span text (checked against the document)")
    a.add_argument("--question-set", default=None, help="set name (default: the file's stem)")
    a.add_argument("--annotator", default=None)
    a.add_argument("--note", default="")
    a.add_argument("--store", default=None, help=store_help)
    a.add_argument("--corpus", default=None)
    a.add_argument("--json", action="store_true")
    a.set_defaults(fn=cmd_labels_add)

    x = lsub.add_parser("export", help="export labels as JSONL spans or TREC qrels")
    x.add_argument("--format", choices=LABEL_EXPORT_FORMATS, default=LABEL_EXPORT_FORMATS[0])
    x.add_argument("--question-set", default=None)
    x.add_argument("--questions", action="append", help="question set file(s) for qrels")
    x.add_argument("--preset", default=None, help="chunking preset A–F (qrels)")
    x.add_argument("--config", default=None, help="JSON config file or preset letter (qrels)")
    x.add_argument("--set", action="append", metavar="KEY=VALUE")
    x.add_argument(
        "--phrasings", default="all", help="query ids as eval writes them: all | question | 0 | 1"
    )
    x.add_argument("--escape", action="store_true", help="percent-encode whitespace in ids")
    x.add_argument("--output", default=None, help="write to FILE (atomically) instead of stdout")
    x.add_argument(
        "--beir",
        default=None,
        metavar="DIR",
        help="a BEIR folder: its qrels (every chunk of a judged document) plus span labels",
    )
    x.add_argument("--split", default="test", help="BEIR qrels split (default: test)")
    x.add_argument("--store", default=None, help=store_help)
    x.add_argument("--corpus", default=None)
    x.set_defaults(fn=cmd_labels_export)

    i = lsub.add_parser("import", help="import a labels JSONL file (all or nothing)")
    i.add_argument("file")
    i.add_argument("--store", default=None, help=store_help)
    i.add_argument("--corpus", default=None, help="check every span against this corpus")
    i.add_argument("--json", action="store_true")
    i.set_defaults(fn=cmd_labels_import)

    u = lsub.add_parser("undo", help="revert the latest event of a label or an annotator")
    u.add_argument("--label-id", default=None)
    u.add_argument("--annotator", default=None)
    u.add_argument("--store", default=None, help=store_help)
    u.add_argument("--json", action="store_true")
    u.set_defaults(fn=cmd_labels_undo)

    ls = lsub.add_parser("list", help="current labels (or the full history)")
    ls.add_argument("--question-set", default=None)
    ls.add_argument("--question-id", default=None)
    ls.add_argument("--history", action="store_true")
    ls.add_argument("--store", default=None, help=store_help)
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(fn=cmd_labels_list)


def _add_sweep_command(sub: Any) -> None:
    s = sub.add_parser("sweep", help="refusal-threshold sweep over a question set")
    s.add_argument(
        "--queries", default=None, help="question set with answerable and unanswerable questions"
    )
    s.add_argument("--corpus", default=None)
    _add_dataset_args(s)
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


# --------------------------------------------------------------- scenarios


def _scenario_runs(args: argparse.Namespace) -> list[Any]:
    base = _load_config(None, None, args.set or [])
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
    fails where the scenario says and B works (exit 1 when one does not)."""
    runs = _scenario_runs(args)
    corpus = load_corpus_index()
    questions = {q.id: q for q in corpus.questions}
    rows, bad = [], 0
    for r in runs:
        cfg = r.config.with_overrides({"generation.model": "none"})
        q = questions[r.scenario.question_id or ""]
        v = verdict(run(cfg, r.scenario.question_text(q), corpus, gold=q), q, seen="context")
        good = (
            v.failed and v.stage == r.scenario.fails_at
            if r.side == "A"
            else v.kind == r.scenario.works
        )
        bad += not good
        rows.append(
            {
                "scenario": r.scenario.id,
                "side": r.side,
                "verdict": v.kind,
                "stage": v.stage,
                "as_stated": good,
            }
        )
        if not args.json:
            mark = "ok " if good else "BAD"
            print(f"{mark} {r.scenario.id} {r.side}: {v.kind} {v.stage}".rstrip())
    if args.json:
        print(json.dumps({"runs": rows, "not_as_stated": bad}, indent=2))
    return 1 if bad else 0


def _add_scenarios_command(sub: Any) -> None:
    """``scenarios {prepare,check}``: the lecture gallery."""
    sc = sub.add_parser("scenarios", help="the lecture gallery: prepare its caches, check it")
    ssub = sc.add_subparsers(dest="scenarios_command", parser_class=_Parser)
    for name, fn, text in (
        ("prepare", cmd_scenarios_prepare, "run every scenario's A and B once to fill the caches"),
        ("check", cmd_scenarios_check, "each scenario's verdicts, generation off"),
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


# ----------------------------------------------------------------- support


def cmd_support(args: argparse.Namespace) -> int:
    """``python -m rag_core support FILE.jsonl [--json] [--output OUT] [--min-p P] [--judge]``.

    JSON lines go to ``--output`` (and to stdout with ``--json`` or without ``--output``);
    otherwise stdout gets one summary line per row. Bad rows: one stderr line each; exit 1
    when any row was bad, else 0.
    """
    cfg = SupportConfig(
        **({"min_p": args.min_p} if args.min_p is not None else {}), judge=bool(args.judge)
    )
    judge = None
    if args.judge:
        judge, why = checkfile.judge_for(args.generator)
        if why is not None:
            raise UsageError(f"--judge: {english(why)}")
    if not Path(args.file).is_file():
        raise UsageError(f"{args.file}: file not found")
    try:
        out = open(args.output, "w", encoding="utf-8") if args.output else None  # noqa: SIM115
    except OSError as exc:
        raise UsageError(f"--output {args.output}: {exc.strerror or exc}") from None
    bad = 0
    try:
        for res in checkfile.check_file(args.file, cfg, judge=judge):
            if isinstance(res, checkfile.RowError):
                print(f"error: {res}", file=sys.stderr)
                bad += 1
                continue
            line = json.dumps(res, ensure_ascii=False)
            if out is not None:
                out.write(line + "\n")
            if args.json or out is None:
                sys.stdout.write(line + "\n")
            else:
                sys.stdout.write(checkfile.summary_line(res) + "\n")
    finally:
        if out is not None:
            out.close()
    return 1 if bad else 0


def _add_support_command(sub: Any) -> None:
    s = sub.add_parser("support", help="check the claims of answers in a JSONL file")
    s.add_argument("file", help="JSONL rows {id, question, contexts, answer}")
    s.add_argument("--json", action="store_true", help="JSON lines on stdout")
    s.add_argument("--output", default=None, help="write the JSON lines to this file")
    s.add_argument("--min-p", type=float, default=None, help="threshold on p_supported")
    s.add_argument("--judge", action="store_true", help="stack the generator's P(yes)")
    s.add_argument("--generator", default=GenerationConfig().model, help="the judge (with --judge)")
    s.set_defaults(fn=cmd_support)


# ------------------------------------------------------------------ parser


def _add_dataset_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--beir",
        default=None,
        metavar="DIR",
        help="a BEIR folder (corpus.jsonl, queries.jsonl, qrels/<split>.tsv or qrels.tsv) "
        "or a TREC folder (one topics* file, one qrels* file, corpus.jsonl or docs/)",
    )
    p.add_argument("--split", default="test", help="BEIR qrels split (default: test)")
    p.add_argument(
        "--topics", default=None, help="TREC topics (SGML <top> or qid<TAB>query) with --corpus"
    )
    p.add_argument(
        "--qrels", default=None, help="TREC qrels (qid 0 docid grade) with --corpus and --topics"
    )
    p.add_argument(
        "--run",
        action="append",
        metavar="FILE",
        help="import a run (TREC 'qid Q0 docid rank score tag' or JSONL {qid, hits}) as the "
        "retriever list run:TAG; added to retrieval.methods unless it already names a run",
    )


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m rag_core", description="RAG Stage Inspector core")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    _add_chunk_command(sub)
    _add_query_command(sub)
    _add_metrics_command(sub)
    _add_eval_command(sub)
    _add_corpus_command(sub)
    _add_index_command(sub)
    _add_label_commands(sub)
    _add_sweep_command(sub)
    _add_support_command(sub)
    _add_scenarios_command(sub)
    return p


def _add_chunk_command(sub: Any) -> None:
    """``chunk``: chunk one document."""
    c = sub.add_parser("chunk", help="chunk one document")
    c.add_argument("--doc", required=True)
    c.add_argument("--title", default=None)
    c.add_argument("--strategy", required=True, choices=CHUNK_STRATEGIES)
    c.add_argument("--header", action="store_true")
    c.add_argument("--overlap", type=int, default=0)
    c.add_argument("--target", type=int, default=512)
    c.add_argument("--min-chars", type=int, default=40)
    c.add_argument("--json", action="store_true")
    c.set_defaults(fn=cmd_chunk)


def _add_query_command(sub: Any) -> None:
    """``query``: one question through the pipeline."""
    q = sub.add_parser("query", help="run one question through the pipeline")
    q.add_argument("question", nargs="?")
    q.add_argument("--corpus", default=None)
    q.add_argument("--preset", default=None, help="chunking preset A–F")
    q.add_argument("--config", default=None, help="JSON config file (or a preset letter)")
    q.add_argument("--set", action="append", metavar="KEY=VALUE")
    q.add_argument(
        "--question-id", default=None, help="a question id from the corpus' question sets"
    )
    _add_dataset_args(q)
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


def _add_metrics_command(sub: Any) -> None:
    """``metrics``: score a TREC run against qrels."""
    m = sub.add_parser("metrics", help="score a TREC run against qrels")
    m.add_argument("--qrels", required=True)
    m.add_argument("--run", required=True)
    m.add_argument("--k", default="10")
    m.add_argument(
        "--gain",
        default="binary",
        choices=GAINS.names(),
        help="nDCG gain: binary (rel>0 → 1), exp (2^rel − 1) or linear (rel)",
    )
    m.add_argument("--json", action="store_true")
    m.set_defaults(fn=cmd_metrics)


def _add_eval_command(sub: Any) -> None:
    """``eval``: evaluate a config (and compare another)."""
    e = sub.add_parser("eval", help="evaluate a config (and compare another) on a question set")
    e.add_argument("--queries", default=None, help="our question set (.jsonl)")
    e.add_argument("--corpus", default=None)
    _add_dataset_args(e)
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


def _add_corpus_command(sub: Any) -> None:
    """``corpus check``: validate a corpus and its question sets."""
    cc = sub.add_parser("corpus", help="corpus tools")
    csub = cc.add_subparsers(dest="corpus_command", parser_class=_Parser)
    chk = csub.add_parser("check", help="validate the sample corpus and its question sets")
    chk.add_argument("dir", nargs="?", default=None)
    chk.add_argument("--json", action="store_true")
    chk.set_defaults(fn=cmd_corpus)


def _add_index_command(sub: Any) -> None:
    """``index qdrant``: write the corpus to a Qdrant collection."""
    ix = sub.add_parser("index", help="write the loaded corpus to an external index")
    isub = ix.add_subparsers(dest="index_command", parser_class=_Parser)
    iq = isub.add_parser("qdrant", help="chunk + embed the corpus into a Qdrant collection")
    iq.add_argument("--path", default=None, help="folder for qdrant-client's embedded local mode")
    iq.add_argument(
        "--url", default=None, help="a running Qdrant server, e.g. http://localhost:6333"
    )
    iq.add_argument("--collection", required=True)
    iq.add_argument("--corpus", default=None, help="corpus folder (default: the bundled sample)")
    iq.add_argument("--preset", default=None, help="chunking preset A–F")
    iq.add_argument("--config", default=None, help="JSON config file (or a preset letter)")
    iq.add_argument("--set", action="append", metavar="KEY=VALUE")
    iq.add_argument("--model", default=None, help="embedder (default: retrieval.qdrant_model)")
    iq.add_argument("--recreate", action="store_true", help="replace the collection if it exists")
    iq.add_argument("--json", action="store_true")
    iq.set_defaults(fn=cmd_index_qdrant)


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "fn", None):
            raise UsageError(
                "python -m rag_core: choose a command: chunk, query, metrics, eval, corpus check, "
                "labels, sweep, index qdrant, support, scenarios"
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
