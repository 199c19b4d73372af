"""The corpus and question set a command reads, and the runs it imports (the index: heavy).

Only the commands that rank (``query``, ``eval``, ``sweep``, ``index qdrant``, ``labels
export``) import this module; building a :class:`~rag_core.index.CorpusIndex` loads numpy
and scipy, which ``labels add`` or ``support`` never need.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from ..config import PipelineConfig
from ..corpus.datasets import load_qrels_folder, load_trec_set
from ..index import CorpusIndex, load_corpus_index
from ..retrieval.runs import check_queries, read_run_file
from .common import UsageError, warn_load


def corpus_index(path: str | None, **kwargs: Any):
    corpus = load_corpus_index(path, **kwargs)
    warn_load(corpus.load_warnings)
    return corpus


def dataset(args: argparse.Namespace) -> tuple[Any, Any]:
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
    index = CorpusIndex(qset.report, name=qset.name, questions=qset.questions)
    warn_load(index.load_warnings)  # each corpus file or row not loaded, as for --corpus
    for line in qset.warnings():
        print(f"warning: {line}", file=sys.stderr)
    return index, qset


def read_runs(files: Sequence[str] | None, known_queries: Any = None) -> dict[str, Any]:
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


def with_runs(cfg: PipelineConfig, runs: dict[str, Any]) -> PipelineConfig:
    """Add every run as a ``run:TAG`` retriever unless the config already names a run."""
    methods = cfg.retrieval.methods
    if not runs or any(m.startswith("run:") for m in methods):
        return cfg
    return cfg.with_overrides({"retrieval.methods": list(methods) + [f"run:{t}" for t in runs]})
