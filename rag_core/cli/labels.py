"""``labels {add,export,import,undo,list,states,agreement,queue}``: the label store from the
command line.

A label is a graded span of a document for one question (:mod:`rag_core.gold.labels`); the store
is the SQLite file of :class:`~rag_core.gold.store.LabelStore`, a state per annotator and an
adjudicated one. ``--state`` names the gold a command reads (:mod:`rag_core.gold.states`:
``annotator:NAME``, ``adjudicated``, ``merge:latest|max|min``; default: adjudicated when present,
else the one annotator, else ``merge:latest``).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..corpus import SAMPLE_CORPUS
from ..corpus.loaders import load_corpus, load_warnings
from ..formats.questions import load_questions
from ..formats.trec import format_qrels
from ..gold.labels import check_grade, check_span, question_set_name
from ..gold.merge import qrels_for
from ..gold.store import LabelStore
from .common import Parser, UsageError, emit, inputs_of, load_config, warn_load, write_output

#: What ``labels export --format`` writes: span labels as JSONL, or chunk-level TREC qrels.
LABEL_EXPORT_FORMATS = ("jsonl", "qrels")


def add_arguments(lb: argparse.ArgumentParser) -> None:
    store_help = (
        "label store (default: $RAG_INSPECTOR_DATA/labels.sqlite3, "
        "else ~/.local/share/rag-inspector/labels.sqlite3)"
    )
    lb.set_defaults(fn=_labels_usage)
    state_help = (
        "gold state: annotator:NAME, adjudicated, merge:latest|max|min (default: adjudicated "
        "when present, else the one annotator, else merge:latest)"
    )
    lsub = lb.add_subparsers(dest="labels_command", parser_class=Parser)

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
    x.add_argument(
        "--output",
        default=None,
        help="write to FILE instead of stdout (all or nothing; never an input)",
    )
    x.add_argument(
        "--beir",
        default=None,
        metavar="DIR",
        help="a BEIR folder: its qrels (every chunk of a judged document) plus span labels",
    )
    x.add_argument("--split", default="test", help="BEIR qrels split (default: test)")
    x.add_argument("--state", default=None, help=state_help)
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
    ls.add_argument("--state", default=None, help=state_help)
    ls.add_argument("--store", default=None, help=store_help)
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(fn=cmd_labels_list)

    _add_annotator_commands(lsub, store_help)


def _add_annotator_commands(lsub: Any, store_help: str) -> None:
    """``labels states``, ``labels agreement`` and ``labels queue``: several annotators."""
    st = lsub.add_parser("states", help="the annotators, the adjudicated state, schema steps")
    st.add_argument("--question-set", default=None)
    st.add_argument("--store", default=None, help=store_help)
    st.add_argument("--json", action="store_true")
    st.set_defaults(fn=cmd_labels_states)

    ag = lsub.add_parser("agreement", help="kappa, alpha and span F1 between annotators")
    ag.add_argument("--question-set", default=None)
    ag.add_argument("--annotators", default=None, help="comma-separated names (default: all)")
    ag.add_argument("--weights", default="quadratic", help="kappa weights: quadratic | linear")
    ag.add_argument("--resamples", type=int, default=2000, help="bootstrap resamples")
    ag.add_argument("--seed", type=int, default=0)
    ag.add_argument("--top", type=int, default=10, help="questions listed, most disagreeing first")
    ag.add_argument("--store", default=None, help=store_help)
    ag.add_argument("--json", action="store_true")
    ag.set_defaults(fn=cmd_labels_agreement)

    qu = lsub.add_parser("queue", help="the units annotators disagree on (adjudication queue)")
    qu.add_argument("--question-set", default=None)
    qu.add_argument("--store", default=None, help=store_help)
    qu.add_argument("--json", action="store_true")
    qu.set_defaults(fn=cmd_labels_queue)


def _labels_usage(args: argparse.Namespace) -> int:
    raise UsageError(
        "python -m rag_core labels: choose one of add, export, import, undo, list, states, "
        "agreement, queue"
    )


def _annotator(value: str | None) -> str:
    """``--annotator``, else ``$RAG_INSPECTOR_ANNOTATOR``, else anonymous (``""``)."""
    return value if value is not None else os.environ.get("RAG_INSPECTOR_ANNOTATOR", "")


def _corpus_docs(path: str | None) -> dict[str, Any]:
    """``{doc_id: Document}`` of a corpus directory (default: the sample corpus)."""
    report = load_corpus(Path(path) if path else SAMPLE_CORPUS)
    warn_load(load_warnings(report))
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
    store = LabelStore(args.store)
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
    emit(
        label,
        args.json,
        f"labeled {label.question_set}/{label.question_id} "
        f"{label.doc_id}[{label.start}:{label.end}] grade {label.grade} "
        f"(label {label.label_id}, store {store.path})",
    )
    return 0


def cmd_labels_export(args: argparse.Namespace) -> int:
    if args.format == LABEL_EXPORT_FORMATS[0]:
        store = LabelStore(args.store)
        write_output(
            store.export_jsonl(args.question_set, state=args.state),
            args.output,
            inputs_of(args, store.path),
        )
        return 0

    # the index (numpy, scipy) only for qrels: labels add/import/undo/list start without it
    from .sets import corpus_index, dataset

    cfg = load_config(args.config, args.preset, args.set or [])
    corpus, qset = dataset(args)
    if qset is not None:  # a BEIR/TREC set: its judged documents plus any span labels
        sets: list[tuple[Any, str, Any]] = [
            (qset.name, args.question_set or qset.name, qset.questions)
        ]
    else:
        corpus = corpus_index(args.corpus, questions=[])
        sets = [
            (f, args.question_set or question_set_name(f), None)
            for f in _question_files(args.questions, args.corpus)
        ]
    chunks = corpus.chunking(cfg.chunker).chunks
    store = LabelStore(args.store)
    labels = store.current(state=args.state)
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
    write_output(format_qrels(qrels, escape=args.escape), args.output, inputs_of(args, store.path))
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
    store = LabelStore(args.store)
    rep = store.import_jsonl(text, docs=docs, source=path.name)
    emit(
        rep,
        args.json,
        f"imported {rep.n_lines} labels into {store.path}: {rep.added} added, "
        f"{rep.changed} changed, {rep.unchanged} unchanged",
    )
    return 0


def cmd_labels_undo(args: argparse.Namespace) -> int:
    if args.label_id is None and args.annotator is None:
        raise UsageError("labels undo: give --label-id or --annotator (whose last event to revert)")
    event = LabelStore(args.store).undo(label_id=args.label_id, annotator=args.annotator)
    emit(
        event,
        args.json,
        f"undid {event.kind} #{event.event_id} of label {event.label_id} "
        f"({event.question_set}/{event.question_id} {event.doc_id}[{event.start}:{event.end}] "
        f"grade {event.grade}, by {event.annotator or 'anonymous'})",
    )
    return 0


def cmd_labels_list(args: argparse.Namespace) -> int:
    store = LabelStore(args.store)
    if args.history:
        events = store.history(args.question_set, args.question_id)
        lines = [
            f"#{e.event_id} {e.created_at} {e.kind:<6} {e.label_id} "
            f"{e.question_set}/{e.question_id} {e.doc_id}[{e.start}:{e.end}] "
            f"grade {e.grade} {e.annotator or '-'}"
            + (f" (undone by #{e.undone_by})" if e.undone_by else "")
            for e in events
        ]
        emit(events, args.json, "\n".join(lines) or "no label events")
        return 0
    labels = store.current(args.question_set, args.question_id, state=args.state)
    lines = [
        f"{lab.label_id} {lab.question_set}/{lab.question_id} {lab.doc_id}[{lab.start}:{lab.end}] "
        f"grade {lab.grade} {lab.annotator or '-'}{' (adjudicated)' if lab.adjudicated else ''} "
        f"{lab.text[:50]!r}"
        for lab in labels
    ]
    emit(labels, args.json, "\n".join(lines) or "no labels")
    return 0


def cmd_labels_states(args: argparse.Namespace) -> int:
    store = LabelStore(args.store)
    snap = store.snapshot(args.question_set)
    resolved = snap.resolve()
    out: dict[str, Any] = {
        "annotators": {who: len(labs) for who, labs in snap.own.items() if labs},
        "adjudications": len(snap.adjudications),
        "default": resolved.state.spec,
        "migrations": [vars(m) for m in store.migrations],
    }
    lines = [f"{who}: {n} labels" for who, n in out["annotators"].items()]
    lines.append(f"adjudicated: {out['adjudications']} labels")
    lines.append(f"gold read by default: {out['default']}")
    for m in store.migrations:
        lines.append(
            f"schema {m.from_version} -> {m.to_version} on {m.migrated_at}: its {m.n_events} "
            f"earlier events read as annotator {m.legacy_owner!r}"
        )
    emit(out, args.json, "\n".join(lines))
    return 0


def _annotators(value: str | None) -> list[str] | None:
    return None if value is None else [x.strip() for x in value.split(",") if x.strip()]


def cmd_labels_agreement(args: argparse.Namespace) -> int:
    # numpy and the evaluation package only for this command: labels add/list start without
    from ..evaluation.agreement import agreement
    from .agreement_text import agreement_text

    if args.resamples < 0:
        raise UsageError(f"--resamples {args.resamples}: must be 0 or more")
    own = LabelStore(args.store).snapshot(args.question_set).own
    got = agreement(
        own,
        annotators=_annotators(args.annotators),
        weights=args.weights,
        resamples=args.resamples,
        seed=args.seed,
    )
    emit(got, args.json, agreement_text(got, max(args.top, 0)))
    return 0


def cmd_labels_queue(args: argparse.Namespace) -> int:
    from ..gold.units import disagreements, question_annotators, settled_by, units_of

    snap = LabelStore(args.store).snapshot(args.question_set)
    queue = disagreements(units_of(snap.own), question_annotators(snap.own))
    rows: list[dict[str, Any]] = []
    for u in queue:
        settled = settled_by(u, snap.adjudications)
        rows.append(
            {
                "question_set": u.question_set,
                "question_id": u.question_id,
                "doc_id": u.doc_id,
                "start": u.start,
                "end": u.end,
                "judged": {
                    who: [[lab.start, lab.end, lab.grade] for lab in labs]
                    for who, labs in u.labels.items()
                },
                "adjudicated": [[a.start, a.end, a.grade] for a in settled],
            }
        )
    done = sum(1 for r in rows if r["adjudicated"])
    lines = [f"{len(rows)} disagreements, {done} adjudicated"]
    for r in rows:
        judged = "; ".join(
            f"{who} " + ", ".join(f"[{s}:{e}] {g}" for s, e, g in spans)
            for who, spans in r["judged"].items()
        )
        mark = "x" if r["adjudicated"] else " "
        lines.append(
            f"[{mark}] {r['question_set']}/{r['question_id']} {r['doc_id']}"
            f"[{r['start']}:{r['end']}]: {judged}"
        )
    emit(rows, args.json, "\n".join(lines))
    return 0
