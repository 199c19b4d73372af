"""Answer-level evaluation on the sample sets: a cold run, then a replay from the generation cache.

For each question set (English ``en.jsonl``, Korean ``ko.jsonl`` by default)
it runs :func:`rag_core.evaluation.answers.evaluate_answers` with the default config
twice in one process:

1. **cold** — against an empty generation cache (a temporary
   ``$RAG_INSPECTOR_CACHE`` whose ``models/`` and ``embeddings.sqlite`` link
   to the user cache, so the converted generator and the embeddings are
   reused and only ``generations.sqlite`` starts empty);
2. **replay** — the same inputs again: every answer comes from the cache.

Before anything is timed the corpus index, the dense index, the embedder
and the generator are loaded (a retrieval-only pass over the same
questions), so both runs time the same work except generation.

It prints per set: queries, seconds of each run, the ratio replay/cold
(target < 0.10), whether the two JSON reports are byte-identical, the
result hash, the rates with their Wilson intervals and the loss-stage counts
(checked to sum to the failures). ``--out DIR`` writes each report's JSON.

``--limit N`` / ``--unanswerable M`` keep the first N answerable and the
first M unanswerable questions of each set (the full sets take hours of
generation on 2 shared cores; the figures say which subset ran).

Run: ``.venv/bin/python bench/answers.py [--sets en,ko] [--limit N] [--unanswerable M] [--out DIR]``

**The endpoint path** (``--endpoint``): the script starts ``transformers serve`` over the
converted bundled Qwen folder on 127.0.0.1 (a free port, offline, CPU, float32, as
``tests/core/test_endpoint_real.py`` does) and, in one run over the first
``--endpoint-questions`` (default 20) English questions, times three cold answer
evaluations, each against its own empty generation cache: in-process (concurrency 1),
the endpoint ``openai:<folder>`` at ``--concurrency 1`` and at ``--concurrency 4``.
It prints questions per minute of each, the ratio c4/c1, and whether c1 and c4 gave the
same result hash. On 2 shared CPU cores the ratio is near 1: ``transformers serve``
decodes one request at a time (no continuous batching) and the cores are already busy;
a serving engine with batching (vLLM, llama-server ``--parallel``) is where N in flight pays.

Run: ``.venv/bin/python bench/answers.py --endpoint [--endpoint-questions N]
[--no-in-process] [--order 4,1]`` (the runs are sequential: a change of load between
them moves the ratio, so run both orders on a quiet machine).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parents[1]


def fresh_generation_cache() -> Path:
    """A temporary cache root sharing the user cache's models and embeddings, not its
    generations."""
    from rag_core.models import cache_root

    user = cache_root()
    tmp = Path(tempfile.mkdtemp(prefix="answers-bench-"))
    for name in ("models", "embeddings.sqlite"):
        if (user / name).exists():
            (tmp / name).symlink_to(user / name)
    return tmp


def pick(questions, limit: int | None, unanswerable: int | None):
    ans = [q for q in questions if q.answerable]
    una = [q for q in questions if not q.answerable]
    if limit is not None:
        ans = ans[:limit]
    if unanswerable is not None:
        una = una[:unanswerable]
    keep = {q.id for q in ans + una}
    return [q for q in questions if q.id in keep]


def _serve(folder: Path) -> tuple[subprocess.Popen, str]:
    """``transformers serve FOLDER`` on a free 127.0.0.1 port; the process and its base URL."""
    from rag_core.models.endpoint import EndpointError, list_models

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    cli = Path(sys.executable).parent / "transformers"
    log = Path(tempfile.mkdtemp(prefix="answers-serve-")) / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(cli), "serve", str(folder), "--host", "127.0.0.1", "--port", str(port)]
            + ["--device", "cpu", "--dtype", "float32"],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 300
    while True:
        try:
            if list_models(url, timeout=2.0):
                return proc, url
        except EndpointError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise SystemExit(f"transformers serve did not start:\n{log.read_text()[-2000:]}")
        time.sleep(1.0)


def endpoint_bench(n: int, in_process: bool = True, order: str = "1,4") -> int:
    """In-process vs the endpoint at concurrency 1 and 4 (module docstring)."""
    from rag_core.config import PipelineConfig
    from rag_core.evaluation.answers import evaluate_answers
    from rag_core.formats.questions import load_questions
    from rag_core.index import load_corpus_index
    from rag_core.models import get_generator, gguf

    folder, _ = gguf.prepare(gguf.qwen_source(), None)
    questions = load_questions(ROOT / "sample_corpus" / "questions" / "en.jsonl")[:n]
    common = {"generation.citations": "free", "generation.dtype": "float32"}
    local = PipelineConfig().with_overrides(common)
    corpus = load_corpus_index(None)
    get_generator(local.generation.model, dtype="float32")
    proc, url = _serve(Path(folder))
    try:
        remote = local.with_overrides(
            {
                "generation.model": f"openai:{folder}",
                "generation.endpoint": url,
                "generation.tokenizer": "qwen2.5-coder-0.5b",
                "generation.first_token_timeout_s": "600",
                "generation.total_timeout_s": "1200",
            }
        )
        evaluate_answers(remote, questions[:1], corpus)  # warm the server (first request)
        rates: dict[str, float] = {}
        hashes: dict[str, str] = {}
        runs = [("in-process", local, 1)] if in_process else []
        runs += [(f"endpoint c={c}", remote, int(c)) for c in order.split(",")]
        for label, cfg, conc in runs:
            os.environ["RAG_INSPECTOR_CACHE"] = str(fresh_generation_cache())
            t = time.perf_counter()
            report = evaluate_answers(cfg, questions, corpus, concurrency=conc)
            seconds = time.perf_counter() - t
            rates[label] = len(questions) / seconds * 60
            hashes[label] = report.result_hash
            print(
                f"  {label:>13}: {len(questions)} questions in {seconds:.1f} s = "
                f"{rates[label]:.2f} questions/min (status {report.status})",
                flush=True,
            )
        ratio = rates["endpoint c=4"] / rates["endpoint c=1"]
        print(f"  endpoint c=4 / c=1 = {ratio:.2f}")
        same = hashes["endpoint c=1"] == hashes["endpoint c=4"]
        print(f"  endpoint c=1 and c=4 result hash equal: {same}")
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default="en,ko")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--unanswerable", type=int, default=None)
    ap.add_argument("--out", default=None)
    ap.add_argument("--endpoint", action="store_true", help="in-process vs endpoint c=1 vs c=4")
    ap.add_argument("--endpoint-questions", type=int, default=20)
    ap.add_argument(
        "--no-in-process", action="store_true", help="--endpoint: only the endpoint runs"
    )
    ap.add_argument(
        "--order", default="1,4", help="--endpoint: the concurrencies, in run order (1,4 or 4,1)"
    )
    args = ap.parse_args(argv)
    if args.endpoint:
        os.environ["RAG_INSPECTOR_CACHE"] = str(fresh_generation_cache())
        return endpoint_bench(args.endpoint_questions, not args.no_in_process, args.order)

    os.environ["RAG_INSPECTOR_CACHE"] = str(fresh_generation_cache())
    from rag_core.config import PipelineConfig
    from rag_core.evaluation.answers import evaluate_answers
    from rag_core.evaluation.run import evaluate_config
    from rag_core.formats.questions import load_questions
    from rag_core.index import load_corpus_index
    from rag_core.models import get_generator

    cfg = PipelineConfig()
    corpus = load_corpus_index(None)
    get_generator(cfg.generation.model, dtype=cfg.generation.dtype)
    print(f"generation cache (fresh): {os.environ['RAG_INSPECTOR_CACHE']}")
    for name in args.sets.split(","):
        questions = pick(
            load_questions(ROOT / "sample_corpus" / "questions" / f"{name}.jsonl"),
            args.limit,
            args.unanswerable,
        )
        evaluate_config(cfg, questions, corpus, phrasings="question")  # warm indexes and models
        t = time.perf_counter()
        cold = evaluate_answers(cfg, questions, corpus)
        t_cold = time.perf_counter() - t
        t = time.perf_counter()
        warm = evaluate_answers(cfg, questions, corpus)
        t_warm = time.perf_counter() - t
        s = cold.summary
        n_ans = sum(q.answerable for q in questions)
        print(
            f"\n[{name}] {len(questions)} questions ({n_ans} answerable, {len(questions) - n_ans} "
            f"unanswerable), status {cold.status}"
        )
        print(
            f"  cold {t_cold:.1f} s, replay {t_warm:.2f} s → replay/cold = {t_warm / t_cold:.4f} "
            f"(target < 0.10)"
        )
        same = cold.to_json() == warm.to_json()
        print(f"  JSON byte-identical across runs: {same}; result hash {cold.result_hash}")
        for key, r in s["rates"].items():
            txt = (
                "n = 0"
                if r is None
                else f"{r['rate']:.3f} [{r['low']:.3f}, {r['high']:.3f}] ({r['k']}/{r['n']})"
            )
            print(f"  {key:>34}: {txt}")
        total = sum(s["loss_stages"].values())
        print(
            f"  loss stages: {', '.join(f'{k} {v}' for k, v in s['loss_stages'].items() if v)} "
            f"— sum {total} = failed {s['n_failed']}: {total == s['n_failed']}"
        )
        if args.out:
            out = Path(args.out)
            out.mkdir(parents=True, exist_ok=True)
            (out / f"answers-{name}.json").write_text(cold.to_json() + "\n", encoding="utf-8")
            print(f"  report: {out / f'answers-{name}.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
