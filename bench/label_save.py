"""Label saves: the annotation fragment's run against a whole-page run, on one server.

One headless websocket session (``bench/wsclient.py``) opens the Label page on
a fresh ``streamlit run app.py`` (generation off, a temporary label store),
names an annotator, then presses "Save and next" ``--saves`` times. The
presses alternate: as the browser does (the button lives in the page's
``st.fragment``, so only that fragment reruns: one SQLite write and the
fragment's drawing) and as a whole-page run (what every save cost before the
fragment: the same write plus the sidebar, the progress table and the exports).
Each save writes a new label (it opens the next pooled candidate); the first,
which makes the question judged and so reruns the page for its progress, is
not timed (it is pressed as the browser does, so it also checks that the
fragment's ``st.rerun`` reruns the Label page). Printed:
the median seconds of each kind, from the button's trigger to the end of its
run, and their ratio; both kinds run interleaved in the same minute, so load
on the machine hits both.

Usage: ``.venv/bin/python bench/label_save.py [--saves 8]``
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from helpers.browser import serve  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

FINISHED = ForwardMsg.FINISHED_SUCCESSFULLY

QUERY = "lang=en&qset=en&qid=en-eval-01"
BUTTON = "Save and next"


async def timed_saves(base: str, n: int) -> dict[str, list[float]]:
    """``n`` saves, alternating fragment and whole-page runs: seconds per kind."""
    from wsclient import Session

    s = Session(base)
    await s.connect()
    try:
        run = await s.run("label", QUERY)
        s.set_text(run.widgets["Annotator"][1], "bench")
        run = await s.run("label")
        button = run.widgets[BUTTON][1]  # keyed: the same id on every run
        out: dict[str, list[float]] = {"fragment": [], "whole page": []}
        for i in range(n + 1):
            whole = i % 2 == 1  # the first, untimed, is a fragment's: its st.rerun
            run = await s.run("label", trigger=button, whole=whole)
            if not any(text.startswith("Saved") for text in run.texts) or BUTTON not in run.widgets:
                raise RuntimeError(f"save {i} (whole page: {whole}): not saved: {run.texts[:40]}")
            kind = "whole page" if run.status == FINISHED else "fragment"
            if i and kind != ("whole page" if whole else "fragment"):
                raise RuntimeError(f"save {i} ran as a {kind} run")
            if i:
                out[kind].append(run.seconds)
        return out
    finally:
        await s.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=8)
    args = parser.parse_args(argv)
    if not 2 <= args.saves <= 8:  # within the first question's pool (10 or more candidates)
        parser.error("--saves must be between 2 and 8")
    with (
        tempfile.TemporaryDirectory() as tmp,
        serve(Path(tmp) / "label.log", RAG_INSPECTOR_DATA=f"{tmp}/data") as base,
    ):
        times = asyncio.run(timed_saves(base, args.saves))
    med = {k: statistics.median(v) for k, v in times.items()}
    for kind, values in times.items():
        print(f"{kind}: median {med[kind]:.3f} s over {len(values)} saves", flush=True)
    print(f"whole page / fragment: {med['whole page'] / med['fragment']:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
