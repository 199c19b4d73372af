"""Per-claim support on RAGTruth dev rows: the old rule, the new model and GPT-4o-mini side by side.

Reads ``../shared/datasets/ragtruth_dev/`` (skips cleanly when absent) and:

- **new (OOF)**: the out-of-fold ``p_supported`` per claim that ``bench/fit_support.py`` wrote to
  ``/tmp/rag_support_oof.json`` (grouped 5-fold CV over articles: no row is scored by a model
  that saw its article) at the ``min_p`` it chose; a response is flagged when a judged claim
  has ``p < min_p``; its claims' spans are the predicted characters;
- **old rule**: the pre-#22 ``check_support`` (min_overlap 0.40, min_cosine 0.15, MiniLM) from
  the cache ``bench/support_old_rule.py`` fills (a fixed random order, so a partial cache is a
  fixed random subset);
- **GPT-4o-mini**: ``peer_gpt4o_mini_spans`` of the same rows (phrases located in the response).

Every system is scored on the rows all three have. Response level: P/R/F1 of "hallucinated"
with a cluster-bootstrap 95 % interval (1,000 resamples of articles ``source_id``); character
level: F1 of predicted vs gold hallucinated characters (micro over the rows); AUROC of
``1 − min p_supported`` per response. Timing: the new checker's cold (empty caches) and warm
(second pass) seconds per response on the first Summary rows, and the old rule on a few of the
same rows in the same run (under whatever load the machine has).

Run: ``nice -n 5 .venv/bin/python bench/support.py [--time-rows 10]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from support_old_rule import DATA, FILES, cache_path, context_of, load_old_module  # noqa: E402

OOF = Path("/tmp/rag_support_oof.json")
BOOT = 1000


def prf(pred: Sequence[bool], gold: Sequence[bool]) -> tuple[float, float, float]:
    tp = sum(p and g for p, g in zip(pred, gold, strict=True))
    fp = sum(p and not g for p, g in zip(pred, gold, strict=True))
    fn = sum(g and not p for p, g in zip(pred, gold, strict=True))
    pr = tp / (tp + fp) if tp + fp else 0.0
    rc = tp / (tp + fn) if tp + fn else 0.0
    return pr, rc, (2 * pr * rc / (pr + rc) if pr + rc else 0.0)


def boot_f1(
    ids: Sequence[str], groups: dict[str, str], pred: dict, gold: dict
) -> tuple[float, float]:
    """95 % cluster-bootstrap interval of response F1 (resampling articles)."""
    by: dict[str, list[str]] = {}
    for i in ids:
        by.setdefault(groups[i], []).append(i)
    keys = sorted(by)
    rng = random.Random(22)
    f1s = []
    for _ in range(BOOT):
        sample = [i for k in (rng.choice(keys) for _ in keys) for i in by[k]]
        f1s.append(prf([pred[i] for i in sample], [gold[i] for i in sample])[2])
    f1s.sort()
    return f1s[int(0.025 * BOOT)], f1s[int(0.975 * BOOT) - 1]


def char_f1(ids: Sequence[str], spans: dict, gold_spans: dict, lengths: dict) -> float:
    tp = fp = fn = 0
    for i in ids:
        p = set()
        for a, b in spans.get(i, ()):
            p.update(range(a, b))
        g = set()
        for a, b in gold_spans[i]:
            g.update(range(a, b))
        tp += len(p & g)
        fp += len(p - g)
        fn += len(g - p)
    pr = tp / (tp + fp) if tp + fp else 0.0
    rc = tp / (tp + fn) if tp + fn else 0.0
    return 2 * pr * rc / (pr + rc) if pr + rc else 0.0


def peer_spans(row: dict[str, Any]) -> list[tuple[int, int]] | None:
    phrases = row.get("peer_gpt4o_mini_spans")
    if phrases is None:
        return None
    out = []
    for ph in phrases:
        j = row["response"].find(ph)
        if j >= 0:
            out.append((j, j + len(ph)))
    return out if out or not phrases else [(0, 0)]  # flagged even when no phrase is found


def load_new(task: str) -> tuple[dict, dict, dict, float]:
    """Row id → (flagged, spans, min p) from the OOF dump."""
    data = json.loads(OOF.read_text(encoding="utf-8"))
    min_p = data[-1]["min_p"]
    flag: dict[str, bool] = {}
    spans: dict[str, list] = {}
    minp: dict[str, float] = {}
    for d in data[:-1]:
        if d["task"] != task:
            continue
        rid = d["id"]
        flag.setdefault(rid, False)
        spans.setdefault(rid, [])
        minp[rid] = min(minp.get(rid, 1.0), d["p"])
        if d["p"] < min_p:
            flag[rid] = True
            spans[rid].append((d["start"], d["end"]))
    return flag, spans, minp, min_p


def load_old(task: str) -> tuple[dict, dict, dict]:
    path = cache_path(task)
    flag, spans, secs = {}, {}, {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            flag[d["id"]], spans[d["id"]], secs[d["id"]] = d["flagged"], d["spans"], d["s"]
    return flag, spans, secs


def table_for(task: str) -> None:
    rows = {
        r["id"]: r
        for r in map(json.loads, (DATA / FILES[task]).read_text(encoding="utf-8").splitlines())
    }
    new_flag, new_spans, new_minp, min_p = load_new(task)
    old_flag, old_spans, _secs = load_old(task)
    peer = {i: peer_spans(r) for i, r in rows.items()}
    # a response with no judged claim is not flagged by the new checker
    new_flag = {i: new_flag.get(i, False) for i in rows} if new_flag else {}
    sets = {"new (OOF)": set(new_flag), "old rule": set(old_flag)}
    sets["GPT-4o-mini"] = {i for i, s in peer.items() if s is not None}
    common = sorted(set.intersection(*(s for s in sets.values() if s)))
    gold = {i: bool(r["labels"]) for i, r in rows.items()}
    gspans = {i: [(x["start"], x["end"]) for x in r["labels"]] for i, r in rows.items()}
    groups = {i: r["source_id"] for i, r in rows.items()}
    lengths = {i: len(r["response"]) for i, r in rows.items()}
    print(
        f"\n### {task}: {len(common)} rows common to every system "
        f"(of {len(rows)}; hallucinated {sum(gold[i] for i in common)})\n"
    )
    print("| system | rows | flagged | P | R | F1 | F1 95 % CI (articles) | char F1 |")
    print("|---|---|---|---|---|---|---|---|")
    preds = {
        "new (OOF)": (new_flag, new_spans),
        "old rule": (old_flag, {i: [tuple(x) for x in s] for i, s in old_spans.items()}),
        "GPT-4o-mini": (
            {i: bool(s) for i, s in peer.items() if s is not None},
            {i: s for i, s in peer.items() if s},
        ),
    }
    for name, (flag, spans) in preds.items():
        if not flag:
            print(f"| {name} | 0 | — | — | — | — | — | — |")
            continue
        ids = common
        pr, rc, f1 = prf([flag[i] for i in ids], [gold[i] for i in ids])
        lo, hi = boot_f1(ids, groups, flag, gold)
        cf = char_f1(ids, spans, gspans, lengths)
        share = sum(flag[i] for i in ids) / len(ids)
        print(
            f"| {name} | {len(ids)} | {share:.1%} | {pr:.3f} | {rc:.3f} | **{f1:.3f}** | "
            f"{lo:.3f}–{hi:.3f} | {cf:.3f} |"
        )
    if new_flag:
        ids_all = sorted(new_flag)
        pr, rc, f1 = prf([new_flag[i] for i in ids_all], [gold[i] for i in ids_all])
        lo, hi = boot_f1(ids_all, groups, new_flag, gold)
        cf_all = char_f1(ids_all, new_spans, gspans, lengths)
        print(
            f"| new (OOF), every row it scored | {len(ids_all)} | — | {pr:.3f} | {rc:.3f} | "
            f"**{f1:.3f}** | {lo:.3f}–{hi:.3f} | {cf_all:.3f} |"
        )
        from sklearn.metrics import roc_auc_score

        scored = [i for i in ids_all if i in new_minp]
        auc = roc_auc_score([int(gold[i]) for i in scored], [1 - new_minp[i] for i in scored])
        print(
            f"\nAUROC of 1 − min p_supported per response (new, OOF, {len(scored)} rows with a "
            f"judged claim): {auc:.3f}; min_p = {min_p}"
        )


def timing(n_rows: int, old_rows: int) -> None:
    """Cold and warm seconds per response for the new checker; the old rule on a few rows."""
    from rag_core.answer import support as sup
    from rag_core.answer.evidence import quote_units, terms
    from rag_core.config import SupportConfig
    from rag_core.models import get_embedder

    rows = [
        json.loads(x) for x in (DATA / FILES["Summary"]).read_text(encoding="utf-8").splitlines()
    ][:n_rows]
    emb = get_embedder("minilm")
    emb.encode_queries(["warm up"])
    cfg = SupportConfig()
    sup._VEC_CACHE.clear()
    terms.cache_clear()
    quote_units.cache_clear()

    def one_pass() -> float:
        t = time.perf_counter()
        for r in rows:
            sup.check_support(r["response"], context_of(r["passages"]), cfg, embedder=emb)
        return (time.perf_counter() - t) / len(rows)

    cold, warm = one_pass(), one_pass()
    old = load_old_module()
    ocfg = type(
        "C", (), {"min_overlap": 0.40, "min_cosine": 0.15, "judge": False, "judge_threshold": 0.5}
    )()
    t = time.perf_counter()
    for r in rows[:old_rows]:
        old.check_support(r["response"], context_of(r["passages"]), ocfg, embedder=emb)
    old_s = (time.perf_counter() - t) / max(old_rows, 1)
    print(
        f"\n### Support time per response (first {n_rows} Summary rows, MiniLM, same run, "
        "under load)\n"
    )
    print("| checker | s / response | old / this |\n|---|---|---|")
    print(f"| old rule ({old_rows} rows) | {old_s:.3f} | 1.0 |")
    print(f"| new, cold (empty caches) | {cold:.3f} | {old_s / cold:.1f} |")
    print(f"| new, warm (sentence vectors cached) | {warm:.4f} | {old_s / warm:.1f} |")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-rows", type=int, default=10)
    ap.add_argument("--old-time-rows", type=int, default=3)
    args = ap.parse_args(argv)
    if not DATA.exists():
        print(f"skipped: {DATA} is absent")
        return
    if not OOF.exists():
        print(f"skipped: {OOF} is absent — run bench/fit_support.py first")
        return
    for task in ("Summary", "Data2txt"):
        table_for(task)
    data = json.loads(OOF.read_text(encoding="utf-8"))
    cal = [d for d in data[:-1] if d["task"] == "calibration"]
    min_p = data[-1]["min_p"]
    agree = sum((d["p"] >= min_p) == bool(d["label"]) for d in cal)
    print(
        f"\ncalibration pairs: new (OOF) agreement {agree}/{len(cal)} = {agree / len(cal):.3f} "
        "(old rule at its defaults: TP 18, FP 5, FN 1, TN 42 = 60/66 = 0.909, "
        "bench/calibrate_support.py before #22)"
    )
    if args.time_rows:
        timing(args.time_rows, args.old_time_rows)


if __name__ == "__main__":
    main()
