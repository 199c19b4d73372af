"""Per-claim support on RAGTruth dev rows: the previous checker, the learned head and GPT-4o-mini.

Reads ``../shared/datasets/ragtruth_dev/`` (skips cleanly when absent); the head was fitted on
``ragtruth_train/`` only (``bench/fit_support.py``), so every figure here is held out. Each row
goes through what ``python -m rag_core support`` runs (:func:`rag_core.answer.checkfile.check_row`,
MiniLM for these English rows):

- **head**: the committed ``support_head.json`` at its ``min_p``, the bundled generator reading
  each answer (readings from the disk cache ``bench/readings.py`` fills; ``--cached-only`` skips
  rows not read yet instead of reading them);
- **head, lexical**: the same head with ``support.readings`` off;
- **previous**: the checker as it was at :data:`OLD_REF` (its logistic model, its claims and
  evidence code, imported from git under another package name);
- **GPT-4o-mini**: ``peer_gpt4o_mini_spans`` of the same rows (phrases located in the answer).

Every system is scored on the rows all have. Response level: P/R/F1 of "hallucinated", with a
95 % cluster-bootstrap interval (1,000 resamples of articles); character level: F1 of the
predicted (a flagging claim's suspect words, else the whole claim) vs the human-marked
characters; AUROC of ``1 − min p_supported``.
Time: seconds per response cold (first row, caches empty) and warm, readings per second (a
reading of a cached prompt answers from disk: see ``bench/readings.py`` for the forward pass),
peak memory.

Run: ``nice -n 5 .venv/bin/python bench/support.py [--cached-only] [--limit N]``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from rag_core.answer.checkfile import Row, check_row, context_stage  # noqa: E402
from rag_core.answer.support import flags  # noqa: E402
from rag_core.answer.support_head import load_head  # noqa: E402
from rag_core.config import SupportConfig  # noqa: E402

DATA = Path(os.environ.get("RAG_INSPECTOR_DATASETS") or ROOT.parent / "shared" / "datasets")
FILES = {"Summary": "summary.jsonl", "Data2txt": "data2txt.jsonl"}
#: The last commit with the previous checker (a logistic model over lexical features only).
OLD_REF = "e98b283"
OLD_MODULES = ("claims", "evidence", "support_model", "support")
#: The previous checker's defaults (its min_p).
OLD_CFG = SupportConfig(min_p=0.83, readings=False)
BOOT = 1000


def load_old() -> Any:
    """The checker of :data:`OLD_REF` as the package ``rag_support_old`` (its four modules and
    the contracts from git, their ``rag_core`` imports of each other pointed at each other)."""
    pkg = Path(tempfile.mkdtemp(prefix="rag_support_old_")) / "rag_support_old"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    for m in (*OLD_MODULES, "support_model.json", "types"):
        name = m if m.endswith(".json") else f"{m}.py"
        where = "rag_core/types.py" if m == "types" else f"rag_core/answer/{name}"
        text = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{OLD_REF}:{where}"],
            check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        for other in OLD_MODULES:
            text = text.replace(f"rag_core.answer.{other} ", f"rag_support_old.{other} ")
            text = text.replace(f"rag_core.answer.{other}\n", f"rag_support_old.{other}\n")
        # its contracts too (a Claim then took its English reason as an argument)
        text = text.replace("from rag_core.types import", "from rag_support_old.types import")
        (pkg / name).write_text(text, encoding="utf-8")
    sys.path.insert(0, str(pkg.parent))
    return importlib.import_module("rag_support_old.support")


def rows_of(task: str, limit: int) -> list[dict[str, Any]]:
    path = DATA / "ragtruth_dev" / FILES[task]
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return rows[: limit or None]


def row_of(r: dict[str, Any]) -> Row:
    p = r["passages"]
    return Row(str(r["id"]), r.get("question") or "", (p,) if isinstance(p, str) else tuple(p),
               r["response"])  # fmt: skip


def is_read(r: dict[str, Any]) -> bool:
    """Is this row's reading already in the disk cache?"""
    from rag_core.answer.lookback import READER, prompt_layout
    from rag_core.models import get_generator
    from rag_core.models.readings import cache_key, cache_path

    gen = get_generator(READER)
    row = row_of(r)
    layout = prompt_layout(gen, row.question, list(row.contexts))
    key = cache_key(f"{gen.model_id}|{gen.file_sha256}|{gen.dtype}", layout.ids,
                    gen.encode(row.answer), layout.segments)  # fmt: skip
    return cache_path(key).is_file()


def prediction(stage: Any, flag_of: Any) -> tuple[bool, list[tuple[int, int]], float]:
    """(flagged, spans of the flagging claims, lowest p_supported of a judged claim)."""
    bad = [c for c in stage.claims if flag_of(c)]
    ps = [c.p_supported for c in stage.claims if c.verdict != "not-a-claim"]
    # the previous checker's Claim has no suspect words: its whole red claims count
    spans = [s for c in bad for s in (getattr(c, "suspect", ()) or ((c.start, c.end),))]
    return bool(bad), spans, min((p for p in ps if p is not None),
                                                          default=1.0)  # fmt: skip


def peer(r: dict[str, Any]) -> tuple[bool, list[tuple[int, int]], float] | None:
    phrases = r.get("peer_gpt4o_mini_spans")
    if phrases is None:
        return None
    spans = []
    for ph in phrases:
        j = r["response"].find(ph)
        if j >= 0:
            spans.append((j, j + len(ph)))
    return bool(phrases), spans, 0.0 if phrases else 1.0


def prf(pred: Sequence[bool], gold: Sequence[bool]) -> tuple[float, float, float]:
    tp = sum(p and g for p, g in zip(pred, gold, strict=True))
    fp = sum(p and not g for p, g in zip(pred, gold, strict=True))
    fn = sum(g and not p for p, g in zip(pred, gold, strict=True))
    pr = tp / (tp + fp) if tp + fp else 0.0
    rc = tp / (tp + fn) if tp + fn else 0.0
    return pr, rc, (2 * pr * rc / (pr + rc) if pr + rc else 0.0)


def boot_f1(ids: Sequence[str], groups: dict, pred: dict, gold: dict) -> tuple[float, float]:
    """95 % cluster-bootstrap interval of response F1 (resampling articles)."""
    by: dict[str, list[str]] = {}
    for i in ids:
        by.setdefault(groups[i], []).append(i)
    keys = sorted(by)
    rng = random.Random(22)
    f1s = sorted(
        prf(
            *zip(
                *((pred[i], gold[i]) for k in (rng.choice(keys) for _ in keys) for i in by[k]),
                strict=True,
            )
        )[2]  # fmt: skip
        for _ in range(BOOT)
    )
    return f1s[int(0.025 * BOOT)], f1s[int(0.975 * BOOT) - 1]


def char_f1(ids: Sequence[str], spans: dict, gold_spans: dict) -> float:
    tp = fp = fn = 0
    for i in ids:
        p = set().union(*(range(a, b) for a, b in spans[i])) if spans[i] else set()
        g = set().union(*(range(a, b) for a, b in gold_spans[i])) if gold_spans[i] else set()
        tp, fp, fn = tp + len(p & g), fp + len(p - g), fn + len(g - p)
    pr = tp / (tp + fp) if tp + fp else 0.0
    rc = tp / (tp + fn) if tp + fn else 0.0
    return 2 * pr * rc / (pr + rc) if pr + rc else 0.0


def auroc(ids: Sequence[str], lowest: dict, gold: dict) -> float:
    from sklearn.metrics import roc_auc_score

    y = [int(gold[i]) for i in ids]
    return float(roc_auc_score(y, [1 - lowest[i] for i in ids])) if 0 < sum(y) < len(y) else 0.0


def run_task(task: str, args: argparse.Namespace, emb: Any, old: Any) -> dict[str, float]:
    """Print the table of one task; return the head's figures."""
    head = load_head()
    rows = rows_of(task, args.limit)
    if args.cached_only:
        rows = [r for r in rows if is_read(r)]
    new_cfg = SupportConfig(min_p=head.min_p)
    systems: dict[str, dict[str, tuple[bool, list, float]]] = {
        "head": {}, "head, lexical": {}, "previous": {}, "GPT-4o-mini": {}
    }  # fmt: skip
    times: list[float] = []
    for r in rows:
        row = row_of(r)
        t = time.perf_counter()
        stage = check_row(row, new_cfg, embedder=emb)
        times.append(time.perf_counter() - t)
        systems["head"][row.id] = prediction(stage, flags)
        lex = check_row(row, SupportConfig(min_p=head.min_p, readings=False), embedder=emb)
        systems["head, lexical"][row.id] = prediction(lex, flags)
        o = old.check_support(row.answer, context_stage(row.contexts), OLD_CFG,
                              embedder=emb, question=row.question)  # fmt: skip
        systems["previous"][row.id] = prediction(o, lambda c: c.verdict in old.FLAG_VERDICTS)
        if (p := peer(r)) is not None:
            systems["GPT-4o-mini"][row.id] = p
    common = sorted(set.intersection(*(set(v) for v in systems.values() if v)))
    by_id = {str(r["id"]): r for r in rows}
    gold = {i: bool(by_id[i]["labels"]) for i in common}
    gspans = {i: [(x["start"], x["end"]) for x in by_id[i]["labels"]] for i in common}
    groups = {i: by_id[i]["source_id"] for i in common}
    print(f"\n### {task}: {len(common)} rows every system has (hallucinated "
          f"{sum(gold.values())}); head min_p {head.min_p}\n")  # fmt: skip
    print("| system | flagged | P | R | F1 | F1 95 % CI (articles) | char F1 | AUROC |")
    print("|---|---|---|---|---|---|---|---|")
    out: dict[str, float] = {}
    for name, pred in systems.items():
        if not pred:
            continue
        flag = {i: pred[i][0] for i in common}
        pr, rc, f1 = prf([flag[i] for i in common], [gold[i] for i in common])
        lo, hi = boot_f1(common, groups, flag, gold)
        cf = char_f1(common, {i: pred[i][1] for i in common}, gspans)
        auc = auroc(common, {i: pred[i][2] for i in common}, gold) if name != "GPT-4o-mini" else 0
        share = sum(flag.values()) / len(common)
        print(f"| {name} | {share:.1%} | {pr:.3f} | {rc:.3f} | **{f1:.3f}** | {lo:.3f}–{hi:.3f} "
              f"| {cf:.3f} | {auc:.3f} |" if auc else
              f"| {name} | {share:.1%} | {pr:.3f} | {rc:.3f} | **{f1:.3f}** | {lo:.3f}–{hi:.3f} "
              f"| {cf:.3f} | — |")  # fmt: skip
        if name == "head":
            out = {"F1": f1, "P": pr, "char_F1": cf, "AUROC": auc}
    if times:
        print(f"\nhead: {sorted(times)[len(times) // 2]:.3f} s per response (median over "
              f"{len(times)}), first {times[0]:.2f} s")  # fmt: skip
    return out


def pairs(old: Any) -> None:
    """The committed calibration pairs (claim × one labelled source of the sample corpus, ko and
    en) through both checkers as the product runs them (the corpus's embedder, e5; the head with
    the bundled generator reading the answer over that source): agreement with the labels."""
    from rag_core.answer.checkfile import answer_reading
    from rag_core.answer.support import check_support
    from rag_core.index import load_corpus_index
    from rag_core.models import get_embedder

    path = ROOT / "sample_corpus" / "calibration" / "support_pairs.jsonl"
    corpus, e5, head = load_corpus_index(), get_embedder("e5-small"), load_head()
    agree: dict[tuple[str, str], int] = {}
    n: dict[str, int] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(line) if line.strip() else None
        if not r or r.get("claim") is None:
            continue
        quote = corpus.docs[r["doc_id"]].text[r["start"] : r["end"]]
        ctx, answer, q = context_stage([quote]), r["answer"], r["question"]
        at = answer.find(r["claim"])
        cfg = SupportConfig(min_p=head.min_p)
        reading = answer_reading(cfg, q, ctx.sources, answer)
        stages = {
            "head": check_support(answer, ctx, cfg, embedder=e5, question=q, reading=reading),
            "head, lexical": check_support(answer, ctx, cfg, embedder=e5, question=q),
            "previous": old.check_support(answer, ctx, OLD_CFG, embedder=e5, question=q),
        }
        lang = "ko" if r["qid"].startswith(("ko", "man-ko")) else "en"
        n[lang] = n.get(lang, 0) + 1
        for name, st in stages.items():
            c = next((c for c in st.claims if c.start <= max(at, 0) < c.end), None)
            cut = head.min_p if name != "previous" else OLD_CFG.min_p
            ok = c is not None and c.p_supported is not None and (c.p_supported >= cut)
            agree[name, lang] = agree.get((name, lang), 0) + (ok == bool(r["label"]))
    total = sum(n.values())
    print(f"\n### Calibration pairs ({total}: {n.get('en', 0)} English, {n.get('ko', 0)} Korean)\n")
    for name in ("head", "head, lexical", "previous"):
        en, ko = agree.get((name, "en"), 0), agree.get((name, "ko"), 0)
        print(f"- {name}: agreement {en + ko}/{total} (English {en}/{n.get('en', 0)}, Korean "
              f"{ko}/{n.get('ko', 0)})")  # fmt: skip


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cached-only", action="store_true", help="only rows already read")
    ap.add_argument("--limit", type=int, default=0, help="rows per task (0 = all)")
    args = ap.parse_args(argv)
    if not (DATA / "ragtruth_dev").is_dir():
        print(f"skipped: {DATA / 'ragtruth_dev'} is absent")
        return
    from rag_core.models import get_embedder

    t0 = time.perf_counter()
    emb = get_embedder("minilm")
    old = load_old()
    pairs(old)
    for task in FILES:
        run_task(task, args, emb, old)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\nwall {time.perf_counter() - t0:.0f} s, peak RSS {rss:.0f} MB")


if __name__ == "__main__":
    main()
