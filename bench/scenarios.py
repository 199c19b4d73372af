"""First open of a scenario in the Lecture view: cold, then after ``scenarios prepare``.

Each measurement is a fresh Python process running the real ``app.py`` in Streamlit's
``AppTest`` (the script runner of ``streamlit run``, no browser) that opens the Scenarios
page, clicks a card's "Open in Lecture view" button and times that run — the sidebar, the
whole pipeline with the default generator, and the drawing. Then, for every scenario chosen:

1. **cold**: a fresh cache folder (``RAG_INSPECTOR_CACHE``; the converted generator is
   linked from the shared cache so a one-time conversion is not counted): no embedding and
   no generation is cached;
2. ``python -m rag_core scenarios prepare --only …`` on that folder (timed);
3. **prepared**: a fresh process again, same folder.

The ratio cold / prepared is the time a lecture no longer waits. Figures taken on a shared
machine are under load: compare the ratio, not the seconds.

Usage: ``.venv/bin/python bench/scenarios.py [--only blind-cut,budget-cut]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHILD = "--child"


def child(ids: list[str]) -> int:
    """In a fresh process: open each scenario in the Lecture view once; print the seconds."""
    from streamlit.testing.v1 import AppTest

    from ui.apptest import write_entry

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        entry = write_entry(Path(tmp))
        for sid in ids:
            at = AppTest.from_file(str(entry), default_timeout=1200)
            at.query_params.update({"lang": "en"})
            at.switch_page(str(ROOT / "pages" / "scenarios.py"))
            at.run()
            t0 = time.perf_counter()
            at.button(key=f"scn.{sid}.lecture").click().run()
            out[sid] = round(time.perf_counter() - t0, 2)
            if at.exception:
                print(json.dumps({"error": [e.value for e in at.exception]}))
                return 1
    print(json.dumps(out))
    return 0


def _open_all(ids: list[str], env: dict[str, str]) -> dict[str, float]:
    proc = subprocess.run(
        [sys.executable, __file__, CHILD, ",".join(ids)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else "{}"
    data = json.loads(last)
    if proc.returncode or "error" in data:
        raise SystemExit(f"the app failed: {data or proc.stderr[-2000:]}")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="blind-cut,budget-cut", help="comma-separated ids")
    args = parser.parse_args(argv)
    from rag_core.models._files import cache_root
    from rag_core.scenarios import scenario

    ids = [scenario(i.strip()).id for i in args.only.split(",") if i.strip()]
    shared_models = cache_root() / "models"
    with tempfile.TemporaryDirectory(prefix="rag-bench-scn-") as tmp:
        cache = Path(tmp) / "cache"
        cache.mkdir()
        if shared_models.is_dir():
            (cache / "models").symlink_to(shared_models)
        env = {
            **os.environ,
            "RAG_INSPECTOR_CACHE": str(cache),
            "RAG_INSPECTOR_DATA": str(Path(tmp) / "data"),
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
            "TOKENIZERS_PARALLELISM": "false",
            "PYTHONPATH": str(ROOT),
        }
        cold = _open_all(ids, env)
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "rag_core", "scenarios", "prepare", "--only", ",".join(ids)],
            env=env,
            check=True,
            cwd=ROOT,
            capture_output=True,
        )
        prepare_s = time.perf_counter() - t0
        warm = _open_all(ids, env)
    print(f"{'scenario':<24} {'cold s':>8} {'prepared s':>11} {'ratio':>7}")
    for sid in ids:
        print(f"{sid:<24} {cold[sid]:>8.1f} {warm[sid]:>11.1f} {cold[sid] / warm[sid]:>7.1f}")
    print(
        f"median first open: cold {statistics.median(cold.values()):.1f} s, prepared "
        f"{statistics.median(warm.values()):.1f} s; prepare took {prepare_s:.1f} s "
        f"for {len(ids)} scenarios (A and B)"
    )
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == CHILD:
        sys.exit(child(sys.argv[2].split(",")))
    sys.exit(main())
