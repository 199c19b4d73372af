"""Calibrate ``support.min_overlap`` × ``support.min_cosine`` on hand-labelled claim–source pairs.

Superseded by ``bench/fit_support.py`` (issue #22): the verdict now uses one threshold on the
support model's ``p_supported`` (``support.min_p``) and these two thresholds are unused. This
script still collects pairs (``--collect``) and grids the old rule's overlap/cosine features
(now stemmed, over the best evidence *window*) for comparison.

The labelled data is ``sample_corpus/calibration/support_pairs.jsonl``, one
row per (claim, source) pair of a generated answer:

``qid``, ``question``, ``answer`` (the whole generated answer), ``claim``
(the claim's text as :func:`rag_core.answer.support.split_claims` cut it, citations
included), ``n`` (the source number in the prompt), ``chunk_id``, ``doc_id``,
``start``, ``end`` (the quoted span of the document), ``sentence`` (the
best-matching source sentence when the pair was labelled, for the reader),
``label`` (true when the source states the claim), ``labeler``, ``note``.

**Scoring.** Every pair is re-scored with :func:`rag_core.answer.support.check_support`
itself (thresholds opened: ``min_overlap = 0``, ``min_cosine = -1``, the
pipeline's MiniLM embedder), so a change to the claim splitter, the term
analyzer or the number rule re-scores the labelled pairs automatically; a
pair whose claim the current splitter no longer produces is reported, not
guessed. A rule *predicts support* when ``overlap >= min_overlap``,
``cosine >= min_cosine`` and no number of the claim is missing from the
source — the rule of :mod:`rag_core.answer.support`. The grid covers
``min_overlap`` 0.30–0.80 (step 0.05) × ``min_cosine`` ∈ {−1, 0, 0.1, 0.15,
0.2, 0.3, 0.4, 0.5, 0.6}; each rule is scored by ``TP − FP − FN`` against
the labels. Ties go to fewer false positives (a false "supported" hides an
invented claim), then to the larger ``min_overlap``, then to the
``min_cosine`` nearest the current default (a cosine floor that separates
nothing on the sample is left where it was rather than moved to the edge of
the tie).

**Collecting** (``--collect FILE``): ``random.Random(seed)`` draws ``--per-lang``
answerable questions of each language from the bundled question sets (English:
``en.jsonl`` + the English ``manual.jsonl`` items; Korean: ``ko.jsonl`` + the
Korean manual items; file order, English drawn first), runs each through
:func:`rag_core.pipeline.run` with :data:`CONFIGS` and writes one row per
claim × source pair with ``label: null`` for a person to fill in.

Run: ``.venv/bin/python bench/calibrate_support.py`` (grid over the labelled
file), ``... --collect /tmp/pairs.jsonl`` (draw and generate; about 10 s per
new answer on 2 cores, cached afterwards).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from rag_core.answer.support import check_support
from rag_core.config import PipelineConfig, SupportConfig
from rag_core.formats.questions import load_questions
from rag_core.index import load_corpus_index
from rag_core.types import ContextStage, Question, Source

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "sample_corpus" / "calibration" / "support_pairs.jsonl"
QUESTION_SETS = ROOT / "sample_corpus" / "questions"

#: The pipeline of the collection, per language (the prompt is the default strict one).
CONFIGS: dict[str, dict[str, Any]] = {
    "en": {"chunker.preset": "C", "retrieval.analyzer": "unicode", "gate.max_kept": 3},
    "ko": {"chunker.preset": "C", "retrieval.analyzer": "char", "gate.max_kept": 3},
}
SEED = 7
PER_LANG = 12

OVERLAPS = tuple(round(0.30 + 0.05 * i, 2) for i in range(11))
COSINES = (-1.0, 0.0, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6)


@dataclass(frozen=True)
class Pair:
    """A labelled pair with the features the current ``rag_core.answer.support`` computes for it."""

    row: dict[str, Any]
    overlap: float
    cosine: float | None
    missing: tuple[str, ...]
    sentence: str


# ------------------------------------------------------------------ sampling


def answerable_pool(lang: str, questions_dir: Path = QUESTION_SETS) -> list[Question]:
    """Answerable questions of ``lang`` from ``<lang>.jsonl`` then ``manual.jsonl``, in file
    order."""
    pool: list[Question] = []
    for name in (lang, "manual"):
        pool += [
            q
            for q in load_questions(questions_dir / f"{name}.jsonl")
            if q.answerable and q.lang == lang
        ]
    return pool


def draw(seed: int = SEED, per_lang: int = PER_LANG) -> list[Question]:
    """``per_lang`` English then ``per_lang`` Korean questions drawn by one
    ``random.Random(seed)``."""
    rng = random.Random(seed)
    return rng.sample(answerable_pool("en"), per_lang) + rng.sample(answerable_pool("ko"), per_lang)


def collect(out: Path, seed: int, per_lang: int) -> None:
    """Generate answers for the drawn questions and write unlabelled claim × source rows."""
    from rag_core.pipeline import run

    corpus = load_corpus_index()
    rows = []
    for q in draw(seed, per_lang):
        cfg = PipelineConfig().with_overrides({k: str(v) for k, v in CONFIGS[q.lang].items()})
        trace = run(cfg, q.question, corpus, gold=q)
        answer = trace.generation.answer or ""
        print(f"{q.id:<10} {' '.join(answer.split())[:110]}", file=sys.stderr, flush=True)
        by_n = {s.n: s for s in trace.context.sources if s.n is not None}
        if not trace.support.claims:
            rows.append(
                {
                    "qid": q.id,
                    "question": q.question,
                    "answer": answer,
                    "claim": None,
                    "n": None,
                    "note": trace.support.message,
                }
            )
        for c in trace.support.claims:
            for e in c.evidence:
                s = by_n[e.n]
                rows.append(
                    {
                        "qid": q.id,
                        "question": q.question,
                        "answer": answer,
                        "claim": c.text,
                        "n": e.n,
                        "chunk_id": s.chunk_id,
                        "doc_id": s.doc_id,
                        "start": s.start,
                        "end": s.start + len(s.quote),
                        "sentence": e.sentence,
                        "label": None,
                        "labeler": "",
                        "note": "",
                    }
                )
    with out.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} rows to {out}", file=sys.stderr)


# ------------------------------------------------------------------- scoring


def load_pairs(path: Path = PAIRS) -> list[dict[str, Any]]:
    """The labelled rows (rows without a claim — refusals, echoes — are skipped)."""
    rows = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        row = json.loads(line)
        if row.get("claim") is None:
            continue
        if not isinstance(row.get("label"), bool):
            raise ValueError(
                f"{path.name}:{lineno}: label = {row.get('label')!r}; it must be true or false"
            )
        rows.append(row)
    return rows


def featurise(
    rows: Sequence[dict[str, Any]], corpus: Any = None, embedder: Any = None
) -> tuple[list[Pair], list[dict]]:
    """Re-score every row with ``check_support`` (thresholds opened); returns (pairs, rows not
    matched)."""
    if corpus is None:
        corpus = load_corpus_index()
    if embedder is None:
        from rag_core.models import get_embedder

        embedder = get_embedder("minilm")
    open_cfg = SupportConfig(min_overlap=0.0, min_cosine=-1.0)
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["qid"], r["answer"]), []).append(r)
    pairs: list[Pair] = []
    unmatched: list[dict] = []
    for (_qid, answer), grp in groups.items():
        seen: dict[int, Source] = {}
        for r in grp:
            doc = corpus.docs[r["doc_id"]]
            quote = doc.text[r["start"] : r["end"]]
            seen.setdefault(
                r["n"],
                Source(
                    n=r["n"],
                    chunk_id=r["chunk_id"],
                    doc_id=r["doc_id"],
                    title=doc.title,
                    section="",
                    start=r["start"],
                    end=r["end"],
                    locator=f"#char={r['start']},{r['end']}",
                    quote=quote,
                    tokens=0,
                    status="included",
                ),
            )
        ctx = ContextStage("ok", "pack", "rank", 1024, tuple(seen[n] for n in sorted(seen)))
        stage = check_support(answer, ctx, open_cfg, embedder=embedder, question=grp[0]["question"])
        feats = {(c.text, e.n): e for c in stage.claims for e in c.evidence}
        for r in grp:
            e = feats.get((r["claim"], r["n"]))
            if e is None:
                unmatched.append(r)
                continue
            pairs.append(Pair(r, e.overlap, e.cosine, tuple(e.missing_numbers), e.sentence))
    return pairs, unmatched


def predicts(p: Pair, min_overlap: float, min_cosine: float) -> bool:
    """The support rule of :mod:`rag_core.answer.support` at these thresholds."""
    return (
        p.overlap >= min_overlap and (p.cosine is None or p.cosine >= min_cosine) and not p.missing
    )


def confusion(
    pairs: Sequence[Pair], min_overlap: float, min_cosine: float
) -> tuple[int, int, int, int]:
    """``(TP, FP, FN, TN)`` of the rule against the labels."""
    tp = fp = fn = tn = 0
    for p in pairs:
        pred, gold = predicts(p, min_overlap, min_cosine), p.row["label"]
        tp += pred and gold
        fp += pred and not gold
        fn += gold and not pred
        tn += not pred and not gold
    return tp, fp, fn, tn


def grid(pairs: Sequence[Pair]) -> list[tuple[float, float, int, int, int, int]]:
    """Every rule of the grid as ``(min_overlap, min_cosine, TP, FP, FN, TN)``, best first."""
    rows = [(o, c, *confusion(pairs, o, c)) for o in OVERLAPS for c in COSINES]
    keep = SupportConfig().min_cosine
    return sorted(rows, key=lambda r: (-(r[2] - r[3] - r[4]), r[3], -r[0], abs(r[1] - keep), -r[1]))


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--collect", default="", help="draw, generate and write unlabelled rows to this file"
    )
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--per-lang", type=int, default=PER_LANG)
    ap.add_argument("--pairs", default=str(PAIRS), help="the labelled file")
    ap.add_argument("--top", type=int, default=12, help="rules to print")
    args = ap.parse_args(argv)
    if args.collect:
        collect(Path(args.collect), args.seed, args.per_lang)
        return
    rows = load_pairs(Path(args.pairs))
    pairs, unmatched = featurise(rows)
    pos = sum(p.row["label"] for p in pairs)
    print(
        f"{len(pairs)} labelled pairs ({pos} positive) from {len({p.row['qid'] for p in pairs})} "
        f"answers, {len({(p.row['qid'], p.row['claim']) for p in pairs})} claims"
    )
    for r in unmatched:
        print(
            f"  not re-scored (the splitter no longer yields this claim): {r['qid']} "
            f"{r['claim']!r} [{r['n']}]"
        )
    table = grid(pairs)
    default = SupportConfig()
    print("\nTP − FP − FN (FP) for each min_overlap (rows) × min_cosine (columns)")
    print("| min_overlap | " + " | ".join(f"{c:g}" for c in COSINES) + " |")
    print("|---|" + "---|" * len(COSINES))
    for o in OVERLAPS:
        cells = []
        for c in COSINES:
            tp, fp, fn, _tn = confusion(pairs, o, c)
            cells.append(f"{tp - fp - fn} ({fp})")
        print(f"| {o:.2f} | " + " | ".join(cells) + " |")
    print(f"\nthe {args.top} best rules")
    print("\n| min_overlap | min_cosine | TP | FP | FN | TN | TP − FP − FN |")
    print("|---|---|---|---|---|---|---|")
    for o, c, tp, fp, fn, tn in table[: args.top]:
        print(f"| {o:.2f} | {c:g} | {tp} | {fp} | {fn} | {tn} | {tp - fp - fn} |")
    tp, fp, fn, tn = confusion(pairs, default.min_overlap, default.min_cosine)
    print(
        f"\ncurrent defaults (min_overlap {default.min_overlap}, min_cosine {default.min_cosine}): "
        f"TP {tp}, FP {fp}, FN {fn}, TN {tn}, TP − FP − FN {tp - fp - fn}"
    )
    best = table[0]
    print(f"best: min_overlap {best[0]:.2f}, min_cosine {best[1]:g}")
    print("\nerrors of the best rule:")
    for p in pairs:
        pred = predicts(p, best[0], best[1])
        if pred != p.row["label"]:
            kind = "FP" if pred else "FN"
            cos = "—" if p.cosine is None else f"{p.cosine:.2f}"
            miss = f" lacks {', '.join(p.missing)}" if p.missing else ""
            print(
                f"  {kind} {p.row['qid']} [{p.row['n']}] overlap {p.overlap:.2f} cos {cos}{miss}: "
                f"{' '.join(p.row['claim'].split())[:90]!r} ~ {p.sentence[:70]!r}"
            )


if __name__ == "__main__":
    main()
