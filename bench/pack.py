"""The context packer's time, old (re-encodes the whole prompt per candidate) vs new (linear).

Builds synthetic candidates (distinct English sentences, ~1,200 characters each), then packs
them with ``policy=pack`` under budgets of 27k and 109k tokens, measured with the fallback
tokenizer (MiniLM word pieces); the new packer best of three, the old one once. The old
algorithm is kept here only as the peer (a subclass of the assembly with the previous
``pack``/``largest_cut``). Both must send the same prompt and the same ids; the ratio
old/new is printed per budget.

    .venv/bin/python bench/pack.py
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from rag_core.answer import context as ctx_mod
from rag_core.answer.context import _Assembly, _Cand, _Fit, _Render, _source, _tokens_in
from rag_core.config import ContextConfig
from rag_core.models import fallback_prompt_tokenizer
from rag_core.text import sentence_spans
from rag_core.types import Chunk, Document, Hit

WORDS = (
    "tangerine basalt crater summit harbour diver shellfish climate typhoon ferry museum "
    "village festival volcano lava tube coast wind stone garden market tea field orchard "
    "island trail forest waterfall cliff beach season rain snow spring autumn winter"
).split()


class OldAssembly(_Assembly):
    """The packer as it was: one render and one encode of the whole prompt per candidate."""

    def pack(self, cands: Sequence[_Cand], base: _Render, full: _Render, n_full: int) -> _Fit:
        selected: list[_Cand] = []
        final = base
        over: list[_Cand] = []
        for i, c in enumerate(cands):
            trial = self.render(self.arrange([*selected, c]))
            if self.fits(trial):
                selected.append(c)
                final = trial
                continue
            best = self.old_cut(selected, c)
            if best is not None:
                selected.append(best[0])
                final = best[1]
            else:
                over.append(c)
            over.extend(cands[i + 1 :])
            break
        input_ids = self.tok.encode(final.prompt)
        _, offsets = self.tok.encode_offsets(final.prompt)
        sent = [
            _source(c, n, _tokens_in(offsets, bs, be))
            for n, (c, (bs, _qs, _qe, be)) in enumerate(
                zip(final.cands, final.blocks, strict=True), start=1
            )
        ]
        return _Fit(final, input_ids, sent, over)

    def old_cut(self, selected: list[_Cand], c: _Cand) -> tuple[_Cand, _Render] | None:
        ends = [b for _a, b in sentence_spans(c.quote) if b < len(c.quote)]
        lo, hi, best = 0, len(ends) - 1, None
        while lo <= hi:
            mid = (lo + hi) // 2
            cut = replace(c, quote=c.quote[: ends[mid]], reason="budget")
            trial = self.render(self.arrange([*selected, cut]))
            if self.fits(trial):
                best, lo = (cut, trial), mid + 1
            else:
                hi = mid - 1
        return best


def corpus(n: int) -> tuple[dict[str, Chunk], Document, list[Hit]]:
    """``n`` chunks of distinct random sentences (seed 0), one document."""
    rnd = random.Random(0)
    parts, chunks, pos = [], {}, 0
    for i in range(n):
        sents = [
            " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(8, 16))).capitalize() + "."
            for _ in range(12)
        ]
        text = " ".join(sents)
        cid = f"doc::t::{i:05d}"
        chunks[cid] = Chunk(cid, "doc", i, pos, pos + len(text), pos, text, text)
        parts.append(text)
        pos += len(text) + 2
    doc = Document("doc", "Synthetic", "\n\n".join(parts))
    hits = [Hit(cid, "doc", r, 1.0 / r) for r, cid in enumerate(chunks, start=1)]
    return chunks, doc, hits


def timed(assembly: type[_Assembly], budget: int, data, tok) -> tuple[float, object]:
    chunks, doc, hits = data
    cfg = ContextConfig(budget_tokens=budget, dedup=False, max_source_chars=100_000)
    ctx_mod._Assembly = assembly  # type: ignore[misc]
    try:
        t0 = time.perf_counter()
        stage = ctx_mod.build_context(
            "Which island has tangerines?", hits, chunks, {"doc": doc}, cfg, tokenizer=tok
        )
        return time.perf_counter() - t0, stage
    finally:
        ctx_mod._Assembly = _Assembly  # type: ignore[misc]


def main() -> None:
    tok = fallback_prompt_tokenizer()
    for budget in (27_000, 109_000):
        data = corpus(budget // 180)  # ~230 tokens a chunk: the full prompt is over budget
        old_t, old = timed(OldAssembly, budget, data, tok)  # once: it is the slow one
        runs = [timed(_Assembly, budget, data, tok) for _ in range(3)]
        new_t, new = min(runs, key=lambda x: x[0])
        same = old.input_ids == new.input_ids and old.sources == new.sources  # type: ignore[attr-defined]
        print(
            f"budget {budget:>7,} tokens, {len(data[2]):,} candidates, full {new.tokens_before:,}"  # type: ignore[attr-defined]
            f" → sent {new.tokens_after:,}: old {old_t:.2f} s, new {new_t:.3f} s,"  # type: ignore[attr-defined]
            f" old/new {old_t / new_t:.0f}x, identical: {same}"
        )
        if not same:
            raise SystemExit("the two packers disagree")


if __name__ == "__main__":
    main()
