"""``chunk``: chunk one document."""

from __future__ import annotations

import argparse
from dataclasses import replace

from ..chunking import chunk_document
from ..config import CHUNK_STRATEGIES, ChunkerConfig
from ..corpus.loaders import load_file, load_warnings
from .common import UsageError, emit, warn_load


def add_arguments(c: argparse.ArgumentParser) -> None:
    """``chunk``: chunk one document."""
    c.add_argument("--doc", required=True)
    c.add_argument("--title", default=None)
    c.add_argument("--strategy", required=True, choices=CHUNK_STRATEGIES)
    c.add_argument("--header", action="store_true")
    c.add_argument("--overlap", type=int, default=0)
    c.add_argument("--target", type=int, default=512)
    c.add_argument("--min-chars", type=int, default=40)
    c.add_argument("--json", action="store_true")
    c.set_defaults(fn=cmd_chunk)


def cmd_chunk(args: argparse.Namespace) -> int:
    report = load_file(args.doc)
    if not report.documents:
        reason = report.failed[0].reason if report.failed else "no document in file"
        raise UsageError(f"--doc {args.doc}: {reason}")
    warn_load(load_warnings(report))
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
    emit(rows, args.json, f"{len(rows)} chunks ({cfg.signature}) from {doc.doc_id}")
    return 0
