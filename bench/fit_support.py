"""Fit the support head (``rag_core/answer/support_head.json``) on RAGTruth's train split.

**Data.** ``../shared/datasets/ragtruth_train/`` (QA: 2,517 answers of three generators to 839
questions; Summary: 793) to fit, chosen by 5-fold cross-validation grouped by ``source_id`` (the
three answers to one question are always in the same fold); the 66 committed calibration pairs
(``sample_corpus/calibration/support_pairs.jsonl``, the only Korean labels) join the fit, grouped
by question. ``../shared/datasets/ragtruth_dev/`` (Summary, Data2txt) is only *measured*, never
fitted to. Every claim of :func:`rag_core.answer.claims.split_claims` that is not
``not-a-claim`` is *unsupported* when it overlaps a human-marked span, else supported. The data
is read, never copied. Readings come from the disk cache ``bench/readings.py`` fills (rows
without one are left out of the reading variants and counted).

**Stages** (:mod:`rag_core.answer.support_head`): (1) the token probe, an L2 logistic
regression over each answer token's 336 lookback ratios, log-probability and entropy, fitted on
the tokens (label: inside a human-marked span); a claim's out-of-fold ``reading`` (its highest
token score) is the feature stage 2 sees (stacking), and beside it the hidden-state probe, an
L2 logistic regression over each claim's mean hidden state of two middle layers (label: the
claim overlaps a human span), whose out-of-fold score is the feature ``hidden``; (2) the head,
an L2 logistic regression over the lexical features of each source's best window plus the
reading features, alternating "each claim's best source and window under the current weights"
and "refit" three times.
Regularisation ``C`` is chosen on the grouped folds.

**Threshold without the train prior.** The train answers are 46 % hallucinated (three weak
generators); deployed answers are fewer. ``min_p`` maximises the *mean* response-level F1 over
hallucination shares of 17 %, 30 % and 46 % (the train responses reweighted to each share:
weight ``π/π₀`` for a hallucinated response, ``(1−π)/(1−π₀)`` for a clean one), so it is not
tuned to the train mix; the figures at each share are printed.

Run: ``nice -n 5 .venv/bin/python bench/fit_support.py [--items PKL] [--limit N]``; writes the
JSON and the out-of-fold dump ``bench/support.py`` reads.
``--quality-only`` fits nothing: it re-measures the committed head's quality line (what the
support pane states) on every dev row that has been read.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from readings import DATASETS, passages, rows  # noqa: E402

from rag_core.answer.lookback import ClaimReading, claim_readings, prompt_layout  # noqa: E402
from rag_core.answer.support import (  # noqa: E402
    claim_spans,
    claim_view,
    encode_cached,
    source_view,
    terms,
    window_features,
)
from rag_core.answer.support_head import (  # noqa: E402
    HEAD_PATH,
    LEXICAL,
    READING,
    SIGNS,
    VARIANTS,
    Linear,
    SupportHead,
    from_dict,
)
from rag_core.types import Source  # noqa: E402

PAIRS = ROOT / "sample_corpus" / "calibration" / "support_pairs.jsonl"
OOF_DUMP = Path(os.environ.get("RAG_SUPPORT_OOF", "/tmp/rag_support_oof.json"))
FOLDS = 5
ROUNDS = 3
C_GRID = (0.01, 0.03, 0.1, 0.3, 1.0)
SHARES = (0.17, 0.30, 0.46)
COS = LEXICAL.index("cosine_z")
TERMS = LEXICAL.index("log_terms")  # > 0: the claim has terms of its own


@dataclass
class Item:
    """One labelled claim: every source's window features and the claim's readings."""

    split: str  # train, dev or pairs
    task: str  # QA, Summary, Data2txt, calibration
    generator: str
    group: str
    row_id: str
    label: int  # 1 = supported
    start: int
    end: int
    emb: str
    lex: list[np.ndarray]  # per source: (windows, len(LEXICAL)), cosine_z left 0
    cos: list[np.ndarray]  # per source: raw cosine per window
    reading: ClaimReading | None = None
    extra: dict[str, Any] = field(default_factory=dict)


# ------------------------------------------------------------------ featurise


def make_source(n: int, text: str) -> Source:
    return Source(n, f"p{n}", f"p{n}", "", "", 0, len(text), "", text, 0, "included")


def lexical(
    answer: str, a: int, b: int, question: str, quotes: Sequence[str], embedder: Any, views: dict
) -> tuple[list[np.ndarray], list[np.ndarray], str]:
    """Per source: every window's :data:`LEXICAL` features and raw cosines for ``answer[a:b]``."""
    from rag_core.answer.evidence import analyzer_for

    an = analyzer_for(answer[a:b])
    v = claim_view(answer, a, b, terms(question, an) if question else None)
    cvec = encode_cached(embedder, [v.text])[0]
    if an not in views:
        views[an] = [source_view(make_source(i + 1, q), an, embedder) for i, q in enumerate(quotes)]
    fs, cs = [], []
    for sv in views[an]:
        cos = sv.vectors @ cvec if sv.vectors is not None else np.zeros(len(sv.windows))
        fs.append(np.asarray([window_features(v, sv, w, 0.0)[0] for w in sv.windows]))
        cs.append(np.asarray(cos, dtype=np.float64))
    return fs, cs, an


def row_items(r: dict[str, Any], embedder: Any, emb: str) -> list[Item]:
    """The judged claims of one RAGTruth row (label from the human spans)."""
    answer, quotes, q = r["response"], passages(r), r.get("question") or ""
    gold = [(s["start"], s["end"]) for s in r["labels"]]
    views: dict = {}
    out = []
    for a, b in claim_spans(answer):
        fs, cs, _an = lexical(answer, a, b, q, quotes, embedder, views)
        bad = any(x < b and a < y for x, y in gold)
        out.append(
            Item(
                r["split"],
                r["task_type"],
                r["model"],
                r["source_id"],
                r["id"],
                int(not bad),
                a,
                b,
                emb,
                fs,
                cs,
            )
        )
    return out


def pair_items(embedder: Any, emb: str) -> list[Item]:
    """The calibration pairs: one claim × one labelled source each."""
    from rag_core.index import load_corpus_index

    corpus = load_corpus_index()
    out = []
    for line in PAIRS.read_text(encoding="utf-8").splitlines():
        r = json.loads(line) if line.strip() else None
        if not r or r.get("claim") is None:
            continue
        quote = corpus.docs[r["doc_id"]].text[r["start"] : r["end"]]
        answer = r["answer"]
        a = answer.find(r["claim"])
        a, b = (a, a + len(r["claim"])) if a >= 0 else (0, len(answer))
        fs, cs, _an = lexical(answer, a, b, r["question"], [quote], embedder, {})
        out.append(
            Item(
                "pairs",
                "calibration",
                "qwen2.5-coder-0.5b",
                "cal:" + r["qid"],
                r["qid"],
                int(r["label"]),
                a,
                b,
                emb,
                fs,
                cs,
                extra={"row": r, "quote": quote},
            )
        )
    return out


def is_read(r: dict[str, Any], gen: Any) -> bool:
    """Is the reading of row ``r`` in the disk cache?"""
    from rag_core.models.readings import cache_key, cache_path

    layout = prompt_layout(gen, r.get("question") or "", passages(r))
    key = cache_key(f"{gen.model_id}|{gen.file_sha256}|{gen.dtype}", layout.ids,
                    gen.encode(r["response"]), layout.segments)  # fmt: skip
    return cache_path(key).is_file()


def featurise(limit: int, only_read: bool, have: Sequence[Item] = ()) -> list[Item]:
    """Every item, lexical features only (readings are attached from the cache at fit time);
    rows already in ``have`` are kept, not featurised again."""
    from rag_core.models import get_embedder, get_generator

    minilm, e5 = get_embedder("minilm"), get_embedder("e5-small")
    done = {(it.split, it.row_id) for it in have}
    items = list(have) or pair_items(e5, "e5-small")
    gen = get_generator() if only_read else None
    todo = [r for r in rows("all")[: limit or None] if (r["split"], r["id"]) not in done]
    for i, r in enumerate(todo):
        if i % 200 == 0:
            print(f"featurising row {i} of {len(todo)}", file=sys.stderr, flush=True)
        if gen is None or is_read(r, gen):
            items += row_items(r, minilm, "minilm")
    return items


@dataclass
class RowReading:
    """One answer's readings, with its human spans and group (the token probe's data)."""

    reading: Any  # AnswerReading
    gold: list[tuple[int, int]]
    group: str
    split: str


def attach_readings(items: list[Item], *, read_pairs: bool = True) -> dict[tuple, RowReading]:
    """Each item's claim readings from the disk cache (never a new forward pass for RAGTruth
    rows; the calibration pairs' few answers are read when missing); returns every read
    RAGTruth row's readings by ``(split, id)``."""
    from rag_core.answer.lookback import AnswerReading
    from rag_core.models import get_generator
    from rag_core.models.readings import cache_key, load_cached

    gen = get_generator()
    model_key = f"{gen.model_id}|{gen.file_sha256}|{gen.dtype}"
    by_row = {(r["split"], r["id"]): r for r in rows("all")}
    memo: dict[tuple[str, str], AnswerReading | None] = {}
    out: dict[tuple, RowReading] = {}
    for it in items:
        k = (it.split, it.row_id if it.split != "pairs" else it.extra["row"]["answer"])
        if k not in memo:
            if it.split == "pairs":
                quotes, q, answer = [it.extra["quote"]], it.extra["row"]["question"], k[1]
            else:
                r = by_row[k]
                quotes, q, answer = passages(r), r.get("question") or "", r["response"]
            layout = prompt_layout(gen, q, quotes)
            ids, spans = gen.encode_offsets(answer)
            got = load_cached(cache_key(model_key, layout.ids, ids, layout.segments))
            if got is None and it.split == "pairs" and read_pairs:
                got = gen.read(list(layout.ids), ids, layout.segments)
            memo[k] = None if got is None else AnswerReading(got, tuple(spans), len(quotes))
            if memo[k] is not None and it.split != "pairs":
                gold = [(x["start"], x["end"]) for x in by_row[k]["labels"]]
                out[k] = RowReading(memo[k], gold, it.group, it.split)
        ar = memo[k]
        it.reading = None if ar is None else claim_readings(ar, it.start, it.end)
    return out


# ------------------------------------------------------------------- stages


def token_table(
    rr: dict[tuple, RowReading], split: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple]]:
    """Every token of the ``split`` rows: features, label (inside a human span), group, and
    the ``(split, id)`` of each row in order (rows' tokens are contiguous)."""
    from rag_core.answer.lookback import token_features

    xs, ys, gs, keys = [], [], [], []
    for k, r in rr.items():
        if r.split != split:
            continue
        ar = r.reading
        xs.append(token_features(ar.readings, ar.n_sources))
        ys.append([any(a < e and s < b for a, b in r.gold) for s, e in ar.spans])
        gs += [r.group] * ar.readings.tokens
        keys.append(k)
    return np.vstack(xs), np.concatenate(ys).astype(int), np.asarray(gs), keys


def fit_linear(
    X: np.ndarray, y: np.ndarray, c: float, names: Sequence[str], weight: np.ndarray | None = None
) -> Linear:
    """L2 logistic regression on standardised columns, as a :class:`Linear`."""
    from sklearn.linear_model import LogisticRegression

    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale < 1e-9] = 1.0
    lr = LogisticRegression(C=c, max_iter=3000).fit((X - mean) / scale, y, sample_weight=weight)
    return Linear(
        tuple(names), mean, scale, lr.coef_[0].astype(np.float64), float(lr.intercept_[0])
    )


def groups_of(items: Sequence[Item]) -> list[str]:
    return [it.group for it in items]


def folds(items: Sequence[Item]) -> list[tuple[np.ndarray, np.ndarray]]:
    from sklearn.model_selection import GroupKFold

    return list(GroupKFold(n_splits=FOLDS).split(np.zeros(len(items)), groups=groups_of(items)))


def oof_tokens(X: np.ndarray, y: np.ndarray, groups: np.ndarray, c: float) -> np.ndarray:
    """Out-of-fold token probe scores (logits; GroupKFold by source_id)."""
    from sklearn.model_selection import GroupKFold

    out = np.zeros(len(y))
    for tr, te in GroupKFold(n_splits=FOLDS).split(X, groups=groups):
        m = fit_linear(X[tr], y[tr], c, [])
        out[te] = m.z(X[te]) @ m.weights + m.intercept
    return out


def claim_scores(
    items: Sequence[Item], rr: dict[tuple, RowReading], keys: list[tuple], token_score: np.ndarray
) -> np.ndarray:
    """Each item's ``reading``: the highest token score among its tokens."""
    from rag_core.answer.lookback import claim_tokens

    start, pos = {}, 0
    for k in keys:
        start[k] = pos
        pos += rr[k].reading.readings.tokens
    out = []
    for it in items:
        k = (it.split, it.row_id)
        toks = claim_tokens(rr[k].reading, it.start, it.end)
        out.append(float(token_score[start[k] + toks].max()))
    return np.asarray(out)


def source_rows(
    it: Item, r: float | None, stats: dict, use_cos: bool, hidden: float = 0.0
) -> list[np.ndarray]:
    """Per source: (windows, features) of the head's inputs for this item (``r`` and
    ``hidden``: its token probe's and hidden-state probe's scores; no reading features when
    ``r`` is None)."""
    out = []
    mu, sd = stats.get(it.emb) or stats["default"]
    for s, (f, c) in enumerate(zip(it.lex, it.cos, strict=True)):
        m = f.copy()
        m[:, COS] = (c - mu) / sd if use_cos else 0.0
        if r is not None:
            rd = it.reading
            assert rd is not None
            share = float(rd.source_share[s]) if s < len(rd.source_share) else 0.0
            extra = [r, share, rd.logprob_mean, rd.logprob_min, rd.low_prob, hidden]
            m = np.hstack([m, np.tile(extra, (len(m), 1))])
        out.append(m)
    return out


def best_rows(mats: Sequence[list[np.ndarray]], head: Linear | None) -> np.ndarray:
    """Each item's best (source, window) row under ``head`` (coverage first when None)."""
    out = []
    for per_source in mats:
        allw = np.vstack(per_source)
        score = allw[:, 0] + 1e-3 * allw[:, 1] if head is None else head.z(allw) @ head.weights
        out.append(allw[int(np.argmax(score))])
    return np.stack(out)


def fit_head(
    mats: Sequence[list[np.ndarray]], y: np.ndarray, c: float, names: Sequence[str]
) -> Linear:
    """Alternate "best window under the current weights" and "refit" :data:`ROUNDS` times; a
    feature whose weight breaks its sign (:data:`~rag_core.answer.support_head.SIGNS`) is
    dropped (weight 0) and the head refitted."""
    head = None
    dropped: set[int] = set()
    for _ in range(ROUNDS):
        rows_ = best_rows(mats, head)
        while True:
            keep = [i for i in range(len(names)) if i not in dropped]
            part = fit_linear(rows_[:, keep], y, c, [names[i] for i in keep])
            bad = [keep[j] for j, w in enumerate(part.weights)
                   if w * SIGNS.get(names[keep[j]], 0) < 0]  # fmt: skip
            if not bad:
                break
            dropped |= set(bad)
        weights = np.zeros(len(names))
        mean, scale = rows_.mean(axis=0), np.ones(len(names))
        for j, i in enumerate(keep):
            weights[i], mean[i], scale[i] = part.weights[j], part.mean[j], part.scale[j]
        head = Linear(tuple(names), mean, scale, weights, part.intercept)
    assert head is not None
    return head


def predict(mats: Sequence[list[np.ndarray]], head: Linear) -> np.ndarray:
    """Each item's ``p_supported`` as the support stage computes it: the best window's, where a
    window sharing none of the claim's terms (coverage 0, the claim has terms) is capped at
    :data:`~rag_core.answer.support.NO_TERMS_P` and the capped windows rank by their raw p."""
    from rag_core.answer.support import NO_TERMS_P
    from rag_core.answer.support_head import sigmoid

    out = []
    for per_source in mats:
        allw = np.vstack(per_source)
        raw = np.asarray([sigmoid(head.score(x)) for x in allw])
        capped = np.where(
            (allw[:, 0] == 0.0) & (allw[:, TERMS] > 0.0), np.minimum(raw, NO_TERMS_P), raw
        )
        out.append(max(zip(capped, raw, strict=True))[0])
    return np.asarray(out)


# ------------------------------------------------------------------- scoring


def weighted_prf(
    flags: Sequence[bool], gold: Sequence[bool], share: float | None
) -> tuple[float, float, float]:
    """Response-level P/R/F1 of "hallucinated", the responses reweighted to ``share``
    hallucinated (None: as they are)."""
    g = np.asarray(gold, dtype=bool)
    f = np.asarray(flags, dtype=bool)
    w = np.ones(len(g))
    if share is not None and 0 < g.mean() < 1:
        w = np.where(g, share / g.mean(), (1 - share) / (1 - g.mean()))
    tp, fp, fn = (w * (f & g)).sum(), (w * (f & ~g)).sum(), (w * (~f & g)).sum()
    pr = tp / (tp + fp) if tp + fp else 0.0
    rc = tp / (tp + fn) if tp + fn else 0.0
    return float(pr), float(rc), float(2 * pr * rc / (pr + rc) if pr + rc else 0.0)


def responses(items: Sequence[Item], p: np.ndarray) -> dict[str, tuple[float, bool]]:
    """Row → (lowest claim p, gold hallucinated)."""
    out: dict[str, tuple[float, bool]] = {}
    for it, pi in zip(items, p, strict=True):
        lo, bad = out.get(it.row_id, (1.0, False))
        out[it.row_id] = (min(lo, float(pi)), bad or it.label == 0)
    return out


def choose_min_p(items: Sequence[Item], p: np.ndarray) -> float:
    """The threshold maximising the mean F1 over :data:`SHARES` (module docstring)."""
    resp = list(responses(items, p).values())
    lo = np.asarray([x[0] for x in resp])
    gold = [x[1] for x in resp]
    grid = [round(0.05 + 0.01 * i, 2) for i in range(91)]

    def mean_f1(t: float) -> float:
        return float(np.mean([weighted_prf(lo < t, gold, s)[2] for s in SHARES]))

    return max(grid, key=lambda t: (mean_f1(t), -abs(t - 0.5)))


def auroc(score: Sequence[float], pos: Sequence[bool]) -> float:
    from sklearn.metrics import roc_auc_score

    pos = np.asarray(pos, dtype=int)
    return float(roc_auc_score(pos, np.asarray(score))) if 0 < pos.mean() < 1 else float("nan")


def predicted_chars(it: Item, cut: float | None) -> set[int]:
    """A red claim's predicted characters: its tokens scored at least ``cut`` by the token probe
    (``it.extra["tok"]``; the whole claim when none is, or without readings or a cut)."""
    tok = it.extra.get("tok")
    if cut is None or tok is None or it.reading is None:
        return set(range(it.start, it.end))
    out = set().union(*(range(a, b) for (a, b), t in zip(it.reading.spans, tok, strict=True)
                        if t >= cut))  # fmt: skip
    return out or set(range(it.start, it.end))


def char_f1(
    items: Sequence[Item], p: np.ndarray, min_p: float, gold_spans: dict, cut: float | None = None
) -> float:
    """Character-level F1: predicted hallucinated characters (:func:`predicted_chars` of the
    claims under ``min_p``) against the union of the human spans, micro over the responses."""
    pred: dict[str, set[int]] = {}
    for it, pi in zip(items, p, strict=True):
        s = pred.setdefault(it.row_id, set())
        if pi < min_p:
            s.update(predicted_chars(it, cut))
    tp = fp = fn = 0
    for rid, s in pred.items():
        g = (
            set().union(*(range(a, b) for a, b in gold_spans.get(rid, ())))
            if rid in gold_spans
            else set()
        )
        tp, fp, fn = tp + len(s & g), fp + len(s - g), fn + len(g - s)
    pr = tp / (tp + fp) if tp + fp else 0.0
    rc = tp / (tp + fn) if tp + fn else 0.0
    return 2 * pr * rc / (pr + rc) if pr + rc else 0.0


def figures(
    items: Sequence[Item], p: np.ndarray, min_p: float, gold_spans: dict, cut: float | None = None
) -> dict:
    """Response P/R/F1, response and claim AUROC, character F1, flagged share."""
    resp = responses(items, p)
    lo = np.asarray([v[0] for v in resp.values()])
    gold = [v[1] for v in resp.values()]
    pr, rc, f1 = weighted_prf(lo < min_p, gold, None)
    y = np.asarray([it.label for it in items])
    return {
        "responses": len(resp),
        "hallucinated": int(sum(gold)),
        "flagged": int((lo < min_p).sum()),
        "P": pr,
        "R": rc,
        "F1": f1,
        "AUROC": auroc(1 - lo, gold),
        "claim_AUROC": auroc(1 - p, y == 0),
        "char_F1": char_f1(items, p, min_p, gold_spans, cut),
        "red_claims": int((p < min_p).sum()),
        "red_wrong": float(((p < min_p) & (y == 1)).sum() / max(1, (p < min_p).sum())),
    }


def line(name: str, f: dict) -> str:
    return (
        f"| {name} | {f['responses']} | {f['hallucinated']} | {f['flagged']} | {f['P']:.3f} | "
        f"{f['R']:.3f} | **{f['F1']:.3f}** | {f['AUROC']:.3f} | {f['claim_AUROC']:.3f} | "
        f"{f['char_F1']:.3f} |"
    )


HEADER = (
    "| rows | responses | hallucinated | flagged | P | R | F1 | AUROC | claim AUROC | "
    "char F1 |\n|---|---|---|---|---|---|---|---|---|---|"
)


# ---------------------------------------------------------------------- main


def cosine_stats(items: Sequence[Item]) -> dict[str, tuple[float, float]]:
    """Mean and sd of each embedder's best-coverage-window cosine over its items."""
    by: dict[str, list[float]] = {}
    for it in items:
        allw = np.vstack(it.lex)
        cs = np.concatenate(it.cos)
        by.setdefault(it.emb, []).append(float(cs[int(np.argmax(allw[:, 0] + 1e-3 * cs))]))
    out = {k: (float(np.mean(v)), float(np.std(v)) or 1.0) for k, v in by.items()}
    out["default"] = out.get("minilm", next(iter(out.values())))
    return out


@dataclass
class Fitted:
    """One variant: its C, out-of-fold p on train, the final head."""

    name: str
    c: float
    oof: np.ndarray
    head: Linear


def fit_variant(
    train: Sequence[Item],
    r_oof: np.ndarray | None,
    stats: dict,
    use_cos: bool,
    name: str,
    h_oof: np.ndarray | None = None,
) -> Fitted:
    """Choose C on the grouped folds (claim log-loss), then OOF p and the final head
    (``r_oof``/``h_oof``: each item's token probe and hidden-state probe scores, out of fold
    for the RAGTruth rows)."""
    from sklearn.metrics import log_loss

    reads = r_oof is not None
    names = LEXICAL + (READING if reads else ())
    mats = [
        source_rows(
            it,
            float(r_oof[i]) if r_oof is not None else None,
            stats,
            use_cos,
            float(h_oof[i]) if h_oof is not None else 0.0,
        )
        for i, it in enumerate(train)
    ]
    y = np.asarray([it.label for it in train])
    best: tuple[float, float, np.ndarray] | None = None
    for c in C_GRID:
        p = np.zeros(len(train))
        for tr, te in folds(train):
            h = fit_head([mats[i] for i in tr], y[tr], c, names)
            p[te] = predict([mats[i] for i in te], h)
        loss = log_loss(y, np.clip(p, 1e-6, 1 - 1e-6))
        print(
            f"  {name} C={c}: OOF log-loss {loss:.4f}, claim AUROC {auroc(1 - p, y == 0):.3f}",
            file=sys.stderr,
            flush=True,
        )
        if best is None or loss < best[0]:
            best = (loss, c, p)
    assert best is not None
    return Fitted(name, best[1], best[2], fit_head(mats, y, best[1], names))


def choose_probe(
    items: Sequence[Item], rr: dict[tuple, RowReading]
) -> tuple[float, np.ndarray, Linear]:
    """The token probe's C (claim AUROC of the max token score, out of fold), each train
    item's out-of-fold ``reading`` (the pairs: the final probe's), and the probe on all rows."""
    from rag_core.answer.lookback import token_feature_names

    X, y, groups, keys = token_table(rr, "train")
    rag = [i for i, it in enumerate(items) if it.split == "train"]
    labels = np.asarray([items[i].label for i in rag])
    best = None
    for c in (0.0003, 0.001, 0.003, 0.01):
        r = claim_scores([items[i] for i in rag], rr, keys, oof_tokens(X, y, groups, c))
        a = auroc(r, labels == 0)
        print(f"  token probe C={c}: OOF claim AUROC {a:.3f}", file=sys.stderr, flush=True)
        if best is None or a > best[0]:
            best = (a, c, r)
    assert best is not None
    _a, c, r_rag = best
    tok_oof = oof_tokens(X, y, groups, c)
    start, pos = {}, 0
    for k in keys:
        start[k] = pos
        pos += rr[k].reading.readings.tokens
    from rag_core.answer.lookback import claim_tokens

    for i in rag:
        it = items[i]
        k = (it.split, it.row_id)
        it.extra["tok"] = tok_oof[start[k] + claim_tokens(rr[k].reading, it.start, it.end)]
    any_r = next(iter(rr.values())).reading.readings
    names = token_feature_names(any_r.mass.shape[1], any_r.mass.shape[2])
    probe = fit_linear(X, y, c, names)
    r = np.zeros(len(items))
    r[rag] = r_rag
    for i, it in enumerate(items):
        if it.split != "train":
            tok = probe.z(it.reading.token_x) @ probe.weights + probe.intercept  # type: ignore[union-attr]
            r[i], it.extra["tok"] = float(np.max(tok)), tok
    return c, r, probe


def choose_hidden(items: Sequence[Item]) -> tuple[float, np.ndarray, Linear]:
    """The hidden-state probe's C (out-of-fold claim AUROC, folds grouped by ``source_id``),
    each item's score (out of fold for the RAGTruth train rows, the final probe's for the
    others) and the probe fitted on every train claim (label: overlaps a human span)."""
    rag = np.asarray([i for i, it in enumerate(items) if it.split == "train"])
    H = np.vstack([it.reading.hidden for it in items]).astype(np.float64)  # type: ignore[union-attr]
    y = np.asarray([1 - it.label for it in items])
    names = [f"hidden_{j}" for j in range(H.shape[1])]
    best = None
    for c in (0.0003, 0.001, 0.003):
        oof = np.zeros(len(items))
        for tr, te in folds([items[i] for i in rag]):
            m = fit_linear(H[rag[tr]], y[rag[tr]], c, names)
            oof[rag[te]] = m.z(H[rag[te]]) @ m.weights + m.intercept
        a = auroc(oof[rag], y[rag] == 1)
        print(f"  hidden probe C={c}: OOF claim AUROC {a:.3f}", file=sys.stderr, flush=True)
        if best is None or a > best[0]:
            best = (a, c, oof)
    assert best is not None
    _a, c, scores = best
    probe = fit_linear(H[rag], y[rag], c, names)
    others = np.setdiff1d(np.arange(len(items)), rag)
    scores[others] = probe.z(H[others]) @ probe.weights + probe.intercept
    return c, scores, probe


def choose_token_cut(items: Sequence[Item], p: np.ndarray, min_p: float) -> float:
    """The token score from which a red claim's token is suspect: the cut with the best
    out-of-fold character F1 on the train rows."""
    gs = gold_spans_of()
    idx = [i for i, it in enumerate(items) if it.split == "train"]
    its, pp = [items[i] for i in idx], p[idx]
    grid = [round(x, 2) for x in np.arange(-4.0, 2.01, 0.25)]
    return max(grid, key=lambda cut: char_f1(its, pp, min_p, gs, cut))


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--items",
        help="pickle of the lexical items: read when present, the rows it lacks featurised "
        "and added (delete it after a feature change)",
    )
    ap.add_argument("--limit", type=int, default=0, help="RAGTruth rows (0 = all)")
    ap.add_argument(
        "--only-read",
        action="store_true",
        help="featurise only the rows bench/readings.py has read so far",
    )
    ap.add_argument("--no-new", action="store_true", help="fit on the --items pickle as it is")
    ap.add_argument("--out", default=str(HEAD_PATH))
    ap.add_argument(
        "--quality-only",
        action="store_true",
        help="fit nothing: measure the head in --out on every read dev row and rewrite only "
        "its quality line",
    )
    args = ap.parse_args(argv)
    if not (DATASETS / "ragtruth_train").is_dir():
        print(f"no RAGTruth train rows under {DATASETS}: nothing to fit")
        return
    have = (
        pickle.loads(Path(args.items).read_bytes())
        if args.items and Path(args.items).exists()
        else []
    )
    items = have if have and args.no_new else featurise(args.limit, args.only_read, have)
    if args.items and len(items) != len(have):
        Path(args.items).write_bytes(pickle.dumps(items))
    rr = attach_readings(items)
    if args.quality_only:
        out = Path(args.out)
        model = json.loads(out.read_text(encoding="utf-8"))
        model["quality"] = dev_quality([it for it in items if it.split == "dev"], from_dict(model))
        out.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
        print(f"quality of {out}: {json.dumps(model['quality'])}")
        return
    train = [it for it in items if it.split in ("train", "pairs")]
    dev = [it for it in items if it.split == "dev"]
    read_train = [it for it in train if it.reading is not None]
    read_dev = [it for it in dev if it.reading is not None]
    print(
        f"claims: train {len(train)} ({len(read_train)} read), dev {len(dev)} "
        f"({len(read_dev)} read)",
        flush=True,
    )
    stats = cosine_stats(train)
    c_probe, r_oof, probe = choose_probe(read_train, rr)
    c_hidden, h_oof, hidden_probe = choose_hidden(read_train)
    fitted = {
        VARIANTS[(True, cos)]: fit_variant(
            read_train, r_oof, stats, cos, VARIANTS[(True, cos)], h_oof
        )
        for cos in (True, False)
    } | {
        VARIANTS[(False, cos)]: fit_variant(train, None, stats, cos, VARIANTS[(False, cos)])
        for cos in (True, False)
    }
    main_oof = fitted["readings"].oof
    min_p = choose_min_p(read_train, main_oof)
    token_cut = choose_token_cut(read_train, main_oof, min_p)
    print(f"token_cut = {token_cut} (best OOF character F1 on train)")
    head = SupportHead(
        probe,
        {k: f.head for k, f in fitted.items()},
        stats,
        (0.0, 1.0, 1.0),
        min_p,
        {},
        token_cut,
        hidden_probe,
    )
    report(items, read_train, train, dev, fitted, head)
    quality = dev_quality(dev, head)
    model = head.to_dict() | {
        "quality": quality,
        "fit": {
            "probe_C": c_probe,
            "hidden_probe_C": c_hidden,
            **{f"{k}_C": f.c for k, f in fitted.items()},
            "train_claims": len(train),
            "train_claims_read": len(read_train),
        },
    }
    from_dict(model)
    Path(args.out).write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    _dump_oof(read_train, main_oof, min_p)
    print(f"\nwrote {args.out} ({Path(args.out).stat().st_size / 1024:.0f} KB)")


def apply(
    items: Sequence[Item], head: SupportHead, stats: dict, *, readings: bool = True
) -> np.ndarray:
    """``p_supported`` of each item under the final head (the reading variant when the item
    was read and ``readings``, else the lexical one; with the cosine)."""
    out = []
    for it in items:
        reads = readings and it.reading is not None
        r = head.reading(it.reading.token_x) if reads else None  # type: ignore[union-attr]
        hidden = head.hidden(it.reading.hidden) if reads else 0.0  # type: ignore[union-attr]
        h = head.head(readings=reads, cosine=True)
        out.append(predict([source_rows(it, r, stats, True, hidden)], h)[0])
    return np.asarray(out)


def gold_spans_of() -> dict[str, list[tuple[int, int]]]:
    return {r["id"]: [(s["start"], s["end"]) for s in r["labels"]] for r in rows("all")}


def report(
    items: Sequence[Item],
    read_train: Sequence[Item],
    train: Sequence[Item],
    dev: Sequence[Item],
    fitted: dict[str, Fitted],
    head: SupportHead,
) -> None:
    gs = gold_spans_of()
    min_p = head.min_p
    print(f"\nmin_p = {min_p} (mean response F1 over hallucinated shares {SHARES})")
    print("\n## Train, out-of-fold (grouped 5-fold by source_id)\n\n" + HEADER)
    for name, f in fitted.items():
        base = read_train if name.startswith("readings") else train
        for task in ("QA", "Summary"):
            idx = [i for i, it in enumerate(base) if it.task == task]
            if idx:
                print(
                    line(
                        f"{task}, {name}",
                        figures(
                            [base[i] for i in idx],
                            f.oof[idx],
                            min_p,
                            gs,
                            head.token_cut if name.startswith("readings") else None,
                        ),
                    )
                )
    oof = fitted["readings"].oof
    for task in ("QA", "Summary"):
        for gen in sorted({it.generator for it in read_train if it.task == task}):
            idx = [i for i, it in enumerate(read_train) if it.task == task and it.generator == gen]
            print(
                line(
                    f"{task}, {gen}",
                    figures([read_train[i] for i in idx], oof[idx], min_p, gs, head.token_cut),
                )
            )
    print("\nresponse F1 at other hallucinated shares (train OOF, reading head, QA + Summary):")
    rt = [i for i, it in enumerate(read_train) if it.split == "train"]
    resp = responses([read_train[i] for i in rt], oof[rt])
    lo = np.asarray([v[0] for v in resp.values()])
    gold = [v[1] for v in resp.values()]
    for s in (None, *SHARES):
        pr, rc, f1 = weighted_prf(lo < min_p, gold, s)
        print(f"  share {'as is' if s is None else s}: P {pr:.3f} R {rc:.3f} F1 {f1:.3f}")
    pairs = [i for i, it in enumerate(read_train) if it.split == "pairs"]
    if pairs:
        yp = np.asarray([read_train[i].label for i in pairs])
        agree = int(((oof[pairs] >= min_p) == (yp == 1)).sum())
        print(f"calibration pairs (OOF): agreement {agree}/{len(pairs)}")
    stats = dict(head.cosine_stats)
    print("\n## Dev (never fitted to)\n\n" + HEADER)
    for task in ("Summary", "Data2txt"):
        its = [it for it in dev if it.task == task]
        if not its:
            continue
        print(
            line(
                f"{task}, lexical head",
                figures(its, apply(its, head, stats, readings=False), min_p, gs),
            )
        )
        read = [it for it in its if it.reading is not None]
        if read:
            print(
                line(
                    f"{task} (read rows), reading head",
                    figures(read, apply(read, head, stats), min_p, gs, head.token_cut),
                )
            )
            print(
                line(
                    f"{task} (read rows), lexical head",
                    figures(read, apply(read, head, stats, readings=False), min_p, gs),
                )
            )


def dev_quality(dev: Sequence[Item], head: SupportHead) -> dict[str, Any]:
    """The figures the support pane states: dev response F1 and AUROC per task, and how often
    a red claim is wrong (a claim humans judged fine shown under ``min_p``)."""
    gs = gold_spans_of()
    read = [it for it in dev if it.reading is not None]
    if not read:
        return {}
    p = apply(read, head, dict(head.cosine_stats))
    out: dict[str, Any] = {"measured_on": "RAGTruth dev (never fitted to)", "rows": {}}
    for task in ("Summary", "Data2txt"):
        idx = [i for i, it in enumerate(read) if it.task == task]
        if idx:
            f = figures([read[i] for i in idx], p[idx], head.min_p, gs, head.token_cut)
            out["rows"][task] = {
                k: (round(v, 3) if isinstance(v, float) else v) for k, v in f.items()
            }
    allf = figures(read, p, head.min_p, gs, head.token_cut)
    out["F1"] = round(allf["F1"], 3)
    out["AUROC"] = round(allf["AUROC"], 3)
    out["red_wrong_in_10"] = round(10 * allf["red_wrong"], 1)
    return out


def _dump_oof(items: Sequence[Item], p: np.ndarray, min_p: float) -> None:
    """Every train item's out-of-fold probability and the chosen ``min_p`` (for bench/)."""
    OOF_DUMP.write_text(
        json.dumps(
            [
                {
                    "task": it.task,
                    "id": it.row_id,
                    "model": it.generator,
                    "start": it.start,
                    "end": it.end,
                    "label": it.label,
                    "p": float(pi),
                }
                for it, pi in zip(items, p, strict=True)
            ]
            + [{"min_p": min_p}]
        ),
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
