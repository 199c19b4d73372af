"""Cancelling inside the prompt's forward pass (issue 26: Stop during prefill).

A local model's prompt is one forward pass of seconds on a CPU; a listener can only raise at
the next piece of text, after it. ``run(cancelled=)`` reaches the generator, whose forward
pre-hooks on the decoder layers (``rag_core.models.generators.interruptible``) end the pass
between two layers. The hooks only read a flag: an uncancelled answer is the same, token for
token, and nothing of a cancelled one is stored.
"""

from __future__ import annotations

import threading
import time

import pytest

from rag_core.answer.context import build_context
from rag_core.answer.generation import generate, generation_store
from rag_core.config import ContextConfig, GenerationConfig
from rag_core.models.errors import Cancelled
from rag_core.models.generators import interruptible
from rag_core.pipeline import Cancelled as PipelineCancelled
from rag_core.types import Chunk, Document, Hit

torch = pytest.importorskip("torch")


class _Blocks(torch.nn.Module):
    """A stand-in causal LM: ``model.layers`` of four linear blocks, as transformers nests them."""

    def __init__(self) -> None:
        super().__init__()
        self.model = torch.nn.Module()
        self.model.layers = torch.nn.ModuleList(torch.nn.Linear(4, 4) for _ in range(4))
        self.ran: list[int] = []

    def forward(self, x):
        for i, layer in enumerate(self.model.layers):
            self.ran.append(i)
            x = layer(x)
        return x


def test_the_pass_stops_at_the_first_layer_after_the_flag_turns_true():
    net = _Blocks()
    asked = iter([False, False, True, True])
    with pytest.raises(Cancelled), interruptible(net, lambda: next(asked)):
        net(torch.ones(1, 4))
    assert net.ran == [0, 1, 2]  # layer 2 was entered; its hook raised before its arithmetic


def test_the_hooks_leave_the_arithmetic_and_the_model_as_they_were():
    net = _Blocks()
    x = torch.randn(2, 4)
    plain = net(x)
    with interruptible(net, lambda: False):
        hooked = net(x)
    assert torch.equal(plain, hooked)
    assert all(not layer._forward_pre_hooks for layer in net.model.layers)
    with pytest.raises(Cancelled), interruptible(net, lambda: True):
        net(x)
    assert all(not layer._forward_pre_hooks for layer in net.model.layers)  # removed on raise


def test_no_flag_means_no_hooks():
    net = _Blocks()
    with interruptible(net, None):
        assert all(not layer._forward_pre_hooks for layer in net.model.layers)


def test_the_pipeline_and_the_model_raise_the_same_cancelled():
    assert PipelineCancelled is Cancelled
    assert not issubclass(Cancelled, Exception)


@pytest.mark.slow
def test_stop_during_the_prefill_of_the_real_model_ends_it_and_stores_nothing(tmp_path):
    from rag_core.models import get_generator

    gen = get_generator("qwen2.5-coder-0.5b")
    text = " ".join(f"Hallasan's trail {i} climbs {i * 7} m through forest." for i in range(90))
    chunk = Chunk("d::c::0000", "d", 0, 0, len(text), 0, text, text)
    ctx = build_context(
        "How high is Hallasan?",
        [Hit(chunk.chunk_id, "d", 1, 1.0)],
        {chunk.chunk_id: chunk},
        {"d": Document("d", "Jeju", text)},
        ContextConfig(budget_tokens=1200, max_source_chars=len(text)),
        tokenizer=gen,
    )
    assert len(ctx.input_ids) > 900  # a prefill of seconds on a CPU
    cfg = GenerationConfig(max_new_tokens=8, citations="free")
    free = generate(ctx, cfg, generator=gen, cache_dir=tmp_path / "a", cancelled=lambda: False)
    plain = generate(ctx, cfg, generator=gen, cache_dir=tmp_path / "b")
    assert free.status == plain.status == "ok" and free.answer == plain.answer
    assert free.output_tokens == plain.output_tokens
    prefill = free.params["prefill_seconds"]

    stop = threading.Event()
    pieces: list[str] = []
    threading.Timer(0.3, stop.set).start()
    t0 = time.perf_counter()
    with pytest.raises(Cancelled):
        generate(
            ctx,
            cfg,
            generator=gen,
            cache_dir=tmp_path / "c",
            use_cache=False,
            on_text=pieces.append,
            cancelled=stop.is_set,
        )
    waited = time.perf_counter() - t0
    assert pieces == []  # stopped before the first token: inside the prompt's forward pass
    # within a few layers' time of the stop (24 layers share one prefill)
    assert waited - 0.3 < max(0.5, prefill / 4), (waited, prefill)
    assert generation_store(tmp_path / "c").recent(10) == []
    assert not gen._lock._is_owned()  # type: ignore[attr-defined]


class _PrefillGenerator:
    """A char-level generator whose "prefill" asks ``cancelled()`` as the real one's hooks do."""

    takes_cancelled = True

    def __init__(self) -> None:
        from helpers.fakes import StreamingGenerator

        self.inner = StreamingGenerator("The KV cache grows [1].")
        self.asked = 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def generate_ids(self, ids, max_new_tokens, *, cancelled=None, **kw):
        for _ in range(24):  # the layers of the prompt's forward pass
            self.asked += 1
            if cancelled is not None and cancelled():
                raise Cancelled
        return self.inner.generate_ids(ids, max_new_tokens, **kw)


def test_run_hands_its_cancelled_to_the_model(tiny_corpus, monkeypatch, tmp_path):
    import rag_core.models as models
    from rag_core.config import PipelineConfig
    from rag_core.models import ModelUnavailable
    from rag_core.pipeline import run

    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))

    def no_embedder(name, *a, **k):
        raise ModelUnavailable(name, "not in this test")

    gen = _PrefillGenerator()
    monkeypatch.setattr(models, "get_embedder", no_embedder)
    monkeypatch.setattr(models, "get_generator", lambda name, *a, **k: gen)
    cfg = PipelineConfig().with_overrides(
        {
            "retrieval.methods": "bm25",
            "retrieval.analyzer": "unicode",
            "generation.model": "fake",
            "generation.citations": "free",
        }
    )
    asked = iter([False] * 5 + [True] * 100)
    with pytest.raises(Cancelled):
        run(cfg, "How does the KV cache grow?", tiny_corpus, cancelled=lambda: next(asked))
    assert gen.asked == 6 and gen.inner.calls == 0
    assert generation_store(None).recent(10) == []
    done = run(cfg, "How does the KV cache grow?", tiny_corpus, cancelled=lambda: False)
    assert done.generation.status == "ok" and done.generation.answer == "The KV cache grows [1]."
