"""Generator precision: float32 against the dtype ``auto`` picks, on one real prompt.

Sections (``bench/models.py --precision``, or this file directly):

6. **prefill and decode** — the prompt of ``query --question-id en-eval-01``
   (default config, ~960 tokens) through the bundled Qwen2.5-Coder-0.5B in
   float32 and in the chosen dtype, both loaded in this process, runs
   interleaved (f32, x, f32, x, …). Prefill = one forward pass over the
   prompt (``logits_to_keep=1``, what ``generate`` does); decode = ``generate``
   of ``--decode-tokens`` tokens forced with ``min_new_tokens``, timed after
   its first token (:class:`rag_core.models.timing.FirstTokenClock`). Also
   whether the greedy next token and the top-5 agree.
7. **arithmetic peak** — FLOPs of the prefill ``≈ 2 · P · n + 2 · L · n² · d``
   (``P`` the weights multiplied per prompt token — all but the embedding
   table and the ``lm_head``, which runs for the last position only; ``L`` layers,
   ``d`` the attention width, causal ``QKᵀ`` and ``AV``), and the peak
   ``cores × clock × FLOPs/cycle/core`` of the instruction set (cores = the
   torch threads used):
   AVX-512 FP32 FMA = 2 pipes × 16 lanes × 2; AVX-512 BF16 ``VDPBF16PS`` =
   2 × 32 × 2; Intel AMX-BF16 (``amx_bf16``) = 1024 per core per cycle. The clock
   is ``cpu MHz`` of ``/proc/cpuinfo`` (a VM reports its nominal TSC, not the
   turbo clock). Decode is bound by memory: its weight bytes per token are
   printed as GB/s.
8. **qint8** (``--qint8``) — ``torch.ao.quantization.quantize_dynamic`` of the
   Linear layers (int8 weights, VNNI kernels), same prompt: prefill, decode,
   top-1/top-5 against float32.
9. **prefix KV reuse** (``--prefix``) — the system turn's KV cache kept and
   copied (``DynamicCache``) so only the rest of the prompt is prefilled:
   time saved and whether the greedy tokens are the same.
10. **end to end** (``--e2e``) — ``python -m rag_core query --question-id ID``
    in a fresh process, once with ``--set generation.dtype=float32`` and once
    with ``auto``, against a copy of the user cache with no stored
    generations (models and embeddings stay warm): seconds until the answer
    is complete, including loading the model.

Run: ``.venv/bin/python bench/precision.py [--repeats 3] [--qint8] [--prefix]
[--e2e] [--e2e-question en-emb-01]``.
"""

from __future__ import annotations

import argparse
import copy
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


from rag_core.answer.context import build_context
from rag_core.config import PipelineConfig
from rag_core.formats.questions import load_questions
from rag_core.index import load_corpus_index
from rag_core.models import cache_root, get_generator
from rag_core.models.dtype import cpu_flags, machine_dtype
from rag_core.models.timing import FirstTokenClock
from rag_core.pipeline import run

ROOT = Path(__file__).resolve().parents[1]
MODEL = "qwen2.5-coder-0.5b"


def question(qid: str) -> Any:
    for name in ("en.jsonl", "ko.jsonl"):
        for q in load_questions(ROOT / "sample_corpus" / "questions" / name):
            if q.id == qid:
                return q
    raise SystemExit(f"no question {qid!r} in sample_corpus/questions")


def prompt_ids(qid: str) -> list[int]:
    """The context stage's ids for ``qid`` under the default config (generation not run)."""
    q = question(qid)
    cfg = PipelineConfig()
    corpus = load_corpus_index()
    trace = run(cfg, q.question, corpus, stop_after="gate")
    ctx = build_context(
        q.question,
        trace.gate.kept,
        corpus.chunking(cfg.chunker).by_id,
        corpus.docs,
        cfg.context,
        tokenizer=get_generator(MODEL, dtype="float32"),
        dropped_by_gate=trace.gate.rejected,
    )
    return list(ctx.input_ids)


def prefill(model: Any, ids: list[int]) -> tuple[float, Any]:
    import torch

    x = torch.tensor([ids])
    with torch.inference_mode():
        t0 = time.perf_counter()
        logits = model(input_ids=x, logits_to_keep=1).logits[0, -1].float()
        return time.perf_counter() - t0, logits


def decode(gen: Any, ids: list[int], n: int) -> tuple[float, float, list[int]]:
    """``(prefill s, tokens/s after the first token, new ids)`` of ``generate`` forced to n
    tokens."""
    import torch

    x = torch.tensor([ids])
    clock = FirstTokenClock()
    with torch.inference_mode():
        t0 = time.perf_counter()
        clock.start(t0)
        out = gen.model.generate(
            input_ids=x,
            attention_mask=torch.ones_like(x),
            max_new_tokens=n,
            min_new_tokens=n,
            do_sample=False,
            temperature=None,
            top_p=None,
            top_k=None,
            pad_token_id=gen.pad_id,
            streamer=clock,
        )
        split = clock.split(time.perf_counter())
    new = out[0, len(ids) :].tolist()
    return split["prefill_seconds"], (len(new) - 1) / split["decode_seconds"], new


def model_shape(model: Any) -> dict[str, int]:
    cfg = model.config
    emb_w = model.get_input_embeddings().weight
    head_w = model.get_output_embeddings().weight
    emb = emb_w.numel()
    head = head_w.numel()
    total = sum(p.numel() for p in model.parameters())  # a tied head is counted once
    tied = head_w.data_ptr() == emb_w.data_ptr()
    return {
        "params": total,
        # per prompt token: every layer's weights; not the table lookup, not the head
        "matmul_params": total - emb - (0 if tied else head),
        "decode_params": total - emb + (head if tied else 0),  # per new token: layers + head
        "head": head,
        "embedding": emb,
        "layers": int(cfg.num_hidden_layers),
        "attn_width": int(cfg.num_attention_heads * (cfg.hidden_size // cfg.num_attention_heads)),
    }


def prefill_flops(shape: dict[str, int], n: int) -> float:
    """``2 · P · n + 2 · L · n² · d`` (+ the last position's lm_head)."""
    return (
        2 * shape["matmul_params"] * n
        + 2 * shape["layers"] * n * n * shape["attn_width"]
        + 2 * shape["head"]
    )


def peaks() -> tuple[float, dict[str, float]]:
    """``(clock GHz, {ISA: peak FLOP/s for this machine's cores})``."""
    ghz = 0.0
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("cpu MHz"):
                ghz = float(line.split(":")[1]) / 1000
                break
    except OSError:
        pass
    import torch

    cores = min(len(os.sched_getaffinity(0)), torch.get_num_threads())
    flags = cpu_flags()
    per_cycle = {"avx512_fp32": 2 * 16 * 2} if "avx512f" in flags else {"avx2_fp32": 2 * 8 * 2}
    if "avx512_bf16" in flags:
        per_cycle["avx512_bf16"] = 2 * 32 * 2
    if "amx_bf16" in flags:
        per_cycle["amx_bf16"] = 1024
    return ghz, {k: cores * ghz * 1e9 * v for k, v in per_cycle.items()}


def interleaved(args: argparse.Namespace, ids: list[int]) -> None:
    import torch

    chosen = machine_dtype()
    print(
        f"\n6. precision: auto -> {chosen} on this machine "
        f"(torch {torch.__version__}, capability {torch.backends.cpu.get_cpu_capability()}, "
        f"oneDNN bf16 {torch.ops.mkldnn._is_mkldnn_bf16_supported()}); "
        f"prompt {len(ids)} tokens; {args.repeats} interleaved rounds; under whatever load the "
        f"machine has (uptime: {os.getloadavg()[0]:.1f})"
    )
    gens = {"float32": get_generator(MODEL, dtype="float32")}
    if chosen != "float32":
        gens[chosen] = get_generator(MODEL, dtype=chosen)
    for name, g in gens.items():
        print(f"   load {name}: {g.load_seconds:.1f} s (from the float32 cache, cast on load)")
    times: dict[str, list[float]] = {k: [] for k in gens}
    rates: dict[str, list[float]] = {k: [] for k in gens}
    logits: dict[str, Any] = {}
    tokens: dict[str, list[int]] = {}
    prefill(gens["float32"].model, ids[:64])  # warm-up of each kernel path
    for g in gens.values():
        prefill(g.model, ids[:64])
    for r in range(args.repeats):
        for name, g in gens.items():
            t, lg = prefill(g.model, ids)
            times[name].append(t)
            logits[name] = lg
            _, rate, new = decode(g, ids, args.decode_tokens)
            rates[name].append(rate)
            tokens[name] = new
            print(
                f"   round {r + 1} {name:>8}: prefill {t:6.2f} s ({len(ids) / t:5.0f} tok/s), "
                f"decode {rate:5.1f} tok/s",
                flush=True,
            )
    shape = model_shape(gens["float32"].model)
    flops = prefill_flops(shape, len(ids))
    ghz, peak = peaks()
    print(
        f"\n7. peak: {shape['params'] / 1e6:.0f} M parameters "
        f"({shape['matmul_params'] / 1e6:.0f} M multiplied per token), "
        f"prefill {flops / 1e12:.3f} TFLOP; "
        f"{min(len(os.sched_getaffinity(0)), torch.get_num_threads())} cores (threads) × "
        f"{ghz:.2f} GHz: " + ", ".join(f"{k} {v / 1e9:.0f} GFLOP/s" for k, v in peak.items())
    )
    best = {k: min(v) for k, v in times.items()}
    for name in gens:
        gflops = flops / best[name] / 1e9
        isa = [k for k in peak if ("fp32" in k) == (name == "float32")]
        frac = ", ".join(f"{gflops * 1e9 / peak[k]:.1%} of {k}" for k in isa)
        nbytes = shape["decode_params"] * (4 if name == "float32" else 2)
        dec = max(rates[name])
        print(
            f"   {name:>8}: prefill best {best[name]:.2f} s = {len(ids) / best[name]:.0f} tok/s = "
            f"{gflops:.0f} GFLOP/s ({frac}); decode best {dec:.1f} tok/s = "
            f"{dec * 2 * shape['decode_params'] / 1e9:.1f} GFLOP/s, "
            f"{dec * nbytes / 1e9:.1f} GB/s of weights"
        )
    if chosen != "float32":
        ratio = best["float32"] / best[chosen]
        dec_ratio = max(rates[chosen]) / max(rates["float32"])
        per_round = [a / b for a, b in zip(times["float32"], times[chosen], strict=True)]
        a, b = logits["float32"], logits[chosen]
        print(
            f"   {chosen} / float32: prefill {ratio:.2f}x faster (per round "
            f"{', '.join(f'{x:.2f}' for x in per_round)}; target >= 1.8x: "
            f"{'meets' if ratio >= 1.8 else 'MISSES'}), decode {dec_ratio:.2f}x; "
            f"greedy next token equal: {int(a.argmax()) == int(b.argmax())}; top-5 "
            f"{a.topk(5).indices.tolist()} vs {b.topk(5).indices.tolist()}; "
            f"{args.decode_tokens} forced tokens equal: {tokens['float32'] == tokens[chosen]}"
        )


def qint8(args: argparse.Namespace, ids: list[int]) -> None:
    import torch
    from torch.ao.quantization import quantize_dynamic

    g = get_generator(MODEL, dtype="float32")
    t0 = time.perf_counter()
    q = copy.copy(g)
    q.model = quantize_dynamic(copy.deepcopy(g.model), {torch.nn.Linear}, dtype=torch.qint8)
    print(f"\n8. qint8: quantize_dynamic of the Linear layers in {time.perf_counter() - t0:.1f} s")
    for r in range(args.repeats):
        for name, m in (("float32", g), ("qint8", q)):
            t, lg = prefill(m.model, ids)
            _, rate, new = decode(m, ids, args.decode_tokens)
            print(
                f"   round {r + 1} {name:>8}: prefill {t:6.2f} s ({len(ids) / t:5.0f} tok/s), "
                f"decode {rate:5.1f} tok/s; top-5 {lg.topk(5).indices.tolist()}; "
                f"tokens {new[:12]}",
                flush=True,
            )


def prefix_reuse(args: argparse.Namespace, ids: list[int]) -> None:
    import torch
    from transformers import DynamicCache

    chosen = machine_dtype()
    g = get_generator(MODEL, dtype=chosen)
    user = g.encode("<|im_start|>user\n")
    cut = next(i for i in range(len(ids)) if ids[i : i + len(user)] == user) + len(user)
    x = torch.tensor([ids])
    with torch.inference_mode():
        pre = DynamicCache(config=g.model.config)
        t0 = time.perf_counter()
        g.model(input_ids=x[:, :cut], past_key_values=pre, use_cache=True)
        t_pre = time.perf_counter() - t0
    print(
        f"\n9. prefix KV reuse ({chosen}): shared prefix {cut} of {len(ids)} tokens "
        f"(system turn + user header), computing it takes {t_pre:.2f} s"
    )

    def gen(cache: Any) -> tuple[float, list[int]]:
        clock = FirstTokenClock()
        with torch.inference_mode():
            t0 = time.perf_counter()
            clock.start(t0)
            out = g.model.generate(
                input_ids=x,
                attention_mask=torch.ones_like(x),
                past_key_values=cache,
                max_new_tokens=args.decode_tokens,
                do_sample=False,
                temperature=None,
                top_p=None,
                top_k=None,
                eos_token_id=g.eos_ids,
                pad_token_id=g.pad_id,
                streamer=clock,
            )
            first = clock.split(time.perf_counter())["prefill_seconds"]
        return first, out[0, len(ids) :].tolist()

    for r in range(args.repeats):
        t_full, a = gen(None)
        t0 = time.perf_counter()
        cache = copy.deepcopy(pre)
        t_copy = time.perf_counter() - t0
        t_reuse, b = gen(cache)
        print(
            f"   round {r + 1}: first token {t_full:.2f} s full, {t_reuse:.2f} s reusing "
            f"(+ {t_copy * 1000:.0f} ms copy) -> {1 - (t_reuse + t_copy) / t_full:.1%} saved; "
            f"same greedy tokens: {a == b}",
            flush=True,
        )


def end_to_end(args: argparse.Namespace) -> None:
    """The CLI in fresh processes against a cache copy without stored generations."""
    src = cache_root()
    print(
        f"\n10. end to end: python -m rag_core query --question-id {args.e2e_question} "
        "(default config, fresh process, no stored generation; under load)"
    )
    for rnd in range(args.e2e_repeats):
        for dtype in ("float32", "auto"):
            with tempfile.TemporaryDirectory() as tmp:
                for entry in src.iterdir():
                    if not entry.name.startswith("generations.sqlite"):
                        (Path(tmp) / entry.name).symlink_to(entry)
                env = {**os.environ, "RAG_INSPECTOR_CACHE": tmp, "HF_HUB_OFFLINE": "1"}
                cmd = [sys.executable, "-m", "rag_core", "query", "--question-id"]
                cmd += [args.e2e_question, "--set", f"generation.dtype={dtype}"]
                t0 = time.perf_counter()
                out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
                dt = time.perf_counter() - t0
                answer = [ln for ln in out.stdout.splitlines() if ln.startswith("generation:")]
                print(
                    f"   round {rnd + 1} {dtype:>8}: {dt:6.1f} s  (exit {out.returncode}) "
                    f"{answer[0][:110] if answer else out.stderr[-300:]}",
                    flush=True,
                )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--question-id", default="en-eval-01")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--decode-tokens", type=int, default=24)
    ap.add_argument("--qint8", action="store_true")
    ap.add_argument("--prefix", action="store_true")
    ap.add_argument("--e2e", action="store_true")
    ap.add_argument("--no-interleaved", action="store_true")
    ap.add_argument("--e2e-question", default="en-emb-01")
    ap.add_argument("--e2e-repeats", type=int, default=1)
    ap.add_argument(
        "--threads",
        type=int,
        default=0,
        help="torch intra-op threads (default: torch's own, one per core); 1 avoids OpenMP "
        "barrier stalls when other work shares the cores",
    )
    args = ap.parse_args(argv)
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    ids = prompt_ids(args.question_id)
    if not args.no_interleaved:
        interleaved(args, ids)
    if args.qint8:
        qint8(args, ids)
    if args.prefix:
        prefix_reuse(args, ids)
    if args.e2e:
        end_to_end(args)


if __name__ == "__main__":
    main()
