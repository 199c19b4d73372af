"""The support rule as it was before issue #22 (``git show OLD_REF:rag_core/answer/support.py``),
run on RAGTruth dev rows, its per-response predictions cached under /tmp.

The old rule costs ~4.6 s per response (re-encoding every source sentence with MiniLM), so
``bench/support.py`` reads this cache rather than re-running it; run this file first (in the
background, ``nice -n 5``). Rows are processed in a fixed random order (``random.Random(22)``),
so a partial cache is a fixed random subset; the bench says how many rows it holds.

Run: ``nice -n 5 .venv/bin/python bench/support_old_rule.py [--task Summary|Data2txt]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

#: The last commit with the old (min_overlap / min_cosine) rule.
OLD_REF = "c770a87"
DATA = (
    Path(os.environ.get("RAG_INSPECTOR_DATASETS") or ROOT.parent / "shared" / "datasets")
    / "ragtruth_dev"
)
FILES = {"Summary": "summary.jsonl", "Data2txt": "data2txt.jsonl"}


def cache_path(task: str) -> Path:
    return Path(tempfile.gettempdir()) / f"rag_support_old_{OLD_REF}_{task}.jsonl"


def load_old_module() -> ModuleType:
    """The old ``support.py`` from git, imported under its own name."""
    text = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{OLD_REF}:rag_core/answer/support.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    # the old file's import of the names that have moved since (answer/prompt.py, text.py)
    text = text.replace(
        "from rag_core.answer.context import REFUSAL_TEXT, sentence_spans",
        "from rag_core.answer.prompt import REFUSAL_TEXT\nfrom rag_core.text import sentence_spans",
    )
    path = Path(tempfile.gettempdir()) / f"rag_support_old_{OLD_REF}.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("rag_support_old", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def context_of(passages: list[str]) -> Any:
    from rag_core.types import ContextStage, Source

    sources = tuple(
        Source(
            n=i + 1,
            chunk_id=f"p{i + 1}",
            doc_id=f"p{i + 1}",
            title="",
            section="",
            start=0,
            end=len(p),
            locator="",
            quote=p,
            tokens=0,
            status="included",
        )
        for i, p in enumerate(passages)
    )
    return ContextStage("ok", "pack", "rank", 4096, sources)


def read_rows(task: str) -> list[dict[str, Any]]:
    rows = [json.loads(x) for x in (DATA / FILES[task]).read_text(encoding="utf-8").splitlines()]
    order = list(range(len(rows)))
    random.Random(22).shuffle(order)
    return [rows[i] for i in order]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--task", default="Summary", choices=sorted(FILES))
    args = ap.parse_args()
    if not DATA.exists():
        print(f"skipped: {DATA} is absent")
        return
    from rag_core.models import get_embedder

    old = load_old_module()
    emb = get_embedder("minilm")
    cfg = SimpleNamespace(min_overlap=0.40, min_cosine=0.15, judge=False, judge_threshold=0.5)
    out = cache_path(args.task)
    done = set()
    if out.exists():
        done = {json.loads(x)["id"] for x in out.read_text(encoding="utf-8").splitlines() if x}
    with out.open("a", encoding="utf-8") as f:
        for r in read_rows(args.task):
            if r["id"] in done:
                continue
            t = time.perf_counter()
            st = old.check_support(r["response"], context_of(r["passages"]), cfg, embedder=emb)
            dt = time.perf_counter() - t
            bad = [(c.start, c.end) for c in st.claims if c.verdict == "unsupported"]
            f.write(json.dumps({"id": r["id"], "flagged": bool(bad), "spans": bad, "s": dt}) + "\n")
            f.flush()


if __name__ == "__main__":
    main()
