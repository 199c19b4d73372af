"""``index qdrant``: write the corpus to a Qdrant collection."""

from __future__ import annotations

import argparse

from ..models import ModelUnavailable
from ..retrieval.qdrant import QdrantTarget, build_collection, check_writable
from .common import Parser, UsageError, emit, load_config
from .sets import corpus_index


def add_arguments(ix: argparse.ArgumentParser) -> None:
    """``index qdrant``: write the corpus to a Qdrant collection."""
    isub = ix.add_subparsers(dest="index_command", parser_class=Parser)
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


def cmd_index_qdrant(args: argparse.Namespace) -> int:
    """Chunk and embed the loaded corpus, then write it to a Qdrant collection."""
    if bool(args.path) == bool(args.url):
        raise UsageError(
            "index qdrant: give exactly one of --path DIR (embedded local mode) or --url URL (a "
            "server)"
        )
    target = QdrantTarget(url=args.url or "", path=args.path or "")
    cfg = load_config(args.config, args.preset, args.set or [])
    model = args.model or cfg.retrieval.qdrant_model
    check_writable(
        target, args.collection, recreate=args.recreate
    )  # fail before any embedding work
    corpus = corpus_index(args.corpus)
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
    emit(out, args.json, summary)
    return 0
