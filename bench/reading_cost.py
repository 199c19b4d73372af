"""What a first reading of a pasted answer costs against a plain forward pass of the same tokens.

The support check of an answer the bundled model did not write (Check page, ``support`` CLI, an
endpoint's answer) reads ``sources + question + answer`` once
(:func:`rag_core.models.readings.read`: attention mass per segment for every answer row,
log-probabilities, entropies, hidden states).
The peers are the same model's plain forward pass over the same ids keeping the logits of the
answer rows only, and a prefill (the same pass keeping the last row's logits, as generation
does). Both are timed in turn on the first dev Summary rows of RAGTruth
(``ragtruth_dev/``; skipped when absent). Issue 37's target: at most 1.5×.

Usage: ``.venv/bin/python bench/reading_cost.py [--rows 8] [--threads 1]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import readings as ragtruth  # noqa: E402  (bench/readings.py: the rows and their passages)

from rag_core.answer.lookback import prompt_layout  # noqa: E402
from rag_core.models import get_generator, readings  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=8)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    import torch

    torch.set_num_threads(args.threads)
    rows = [r for r in ragtruth.rows("dev") if r.get("task_type") == "Summary"][: args.rows]
    if not rows:
        print(f"no RAGTruth dev Summary rows under {ragtruth.DATASETS}: nothing to time")
        return 0
    gen = get_generator()
    ratios: list[float] = []
    vs_prefill: list[float] = []
    for row in rows:
        layout = prompt_layout(gen, row.get("question") or "", ragtruth.passages(row))
        answer = gen.encode(row["response"])
        ids = torch.tensor([[*layout.ids, *answer]])
        with torch.inference_mode():
            gen.model(input_ids=ids[:, :8])  # warm
            t0 = time.perf_counter()
            gen.model(input_ids=ids, logits_to_keep=len(answer) + 1)
            plain = time.perf_counter() - t0
            t0 = time.perf_counter()
            gen.model(input_ids=ids, logits_to_keep=1)
            prefill = time.perf_counter() - t0
        t0 = time.perf_counter()
        readings.read(gen.model, list(layout.ids), answer, layout.segments)
        read = time.perf_counter() - t0
        ratios.append(read / plain)
        vs_prefill.append(read / prefill)
        print(
            f"{ids.shape[1]} tokens ({len(answer)} answer): plain {plain:.2f} s, "
            f"prefill {prefill:.2f} s, reading {read:.2f} s, {read / plain:.2f}x plain, "
            f"{read / prefill:.2f}x prefill",
            flush=True,
        )
    for name, xs in (("plain forward", ratios), ("prefill", vs_prefill)):
        med = statistics.median(xs)
        print(
            f"reading / {name}: median {med:.2f}x, range {min(xs):.2f}-{max(xs):.2f}x "
            f"({'meets' if med <= 1.5 else 'MISSES'} <= 1.5x)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
