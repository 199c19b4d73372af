"""``metrics``: score a TREC run against qrels."""

from __future__ import annotations

import argparse
import json

from ..evaluation.metrics import GAINS, evaluate_run
from ..formats.trec import read_qrels, read_run
from .common import emit, ks_arg


def add_arguments(m: argparse.ArgumentParser) -> None:
    """``metrics``: score a TREC run against qrels."""
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


def cmd_metrics(args: argparse.Namespace) -> int:
    qrels = read_qrels(args.qrels)
    run_ = read_run(args.run)
    ks = ks_arg(args.k)
    result = evaluate_run(run_, qrels, ks, gain=args.gain)
    emit(result, args.json, json.dumps(result["mean"], indent=2))
    return 0
