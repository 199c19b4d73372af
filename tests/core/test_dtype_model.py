"""generation.dtype with the bundled model: a replay is byte-identical within a dtype (slow)."""

from __future__ import annotations

import pytest

from rag_core.answer.context import build_context
from rag_core.answer.generation import generate, generation_store
from rag_core.config import ContextConfig, GenerationConfig
from rag_core.types import Chunk, Document, Hit

pytestmark = pytest.mark.slow

TEXT = "Hallasan rises 1,947 m above sea level. It is the highest mountain in South Korea."
DOC = Document("d", "Jeju", TEXT)
CHUNK = Chunk("d::c::0000", "d", 0, 0, len(TEXT), 0, TEXT, TEXT)


def _context(gen):
    return build_context(
        "How high is Hallasan?",
        [Hit(CHUNK.chunk_id, "d", 1, 1.0)],
        {CHUNK.chunk_id: CHUNK},
        {"d": DOC},
        ContextConfig(),
        tokenizer=gen,
    )


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "qint8"])
def test_fresh_generations_are_byte_identical_within_a_dtype(tmp_path, dtype):
    from rag_core.models import get_generator
    from rag_core.models.dtype import torch_dtype

    gen = get_generator("qwen2.5-coder-0.5b", dtype=dtype)
    assert gen.dtype == dtype and next(gen.model.parameters()).dtype == torch_dtype(dtype)
    quantised = [m for m in gen.model.modules() if "quantized" in type(m).__module__]
    assert bool(quantised) == (dtype == "qint8")
    ctx = _context(gen)
    cfg = GenerationConfig(max_new_tokens=16, citations="enforced", dtype=dtype)
    runs = []
    for i in range(2):  # use_cache=False: the model runs again each time
        stage = generate(ctx, cfg, generator=gen, cache_dir=tmp_path / str(i), use_cache=False)
        assert stage.status == "ok" and not stage.cached, stage.message
        assert stage.params["dtype"] == dtype
        assert stage.params["prefill_seconds"] > 0 and stage.params["prefill_tokens_per_s"] > 0
        stored = generation_store(tmp_path / str(i)).recent(1)[0]
        runs.append((stage.answer.encode("utf-8"), stored["new_ids"]))
    assert runs[0] == runs[1]
    replay = generate(ctx, cfg, generator=gen, cache_dir=tmp_path / "0")
    assert replay.cached and replay.answer.encode("utf-8") == runs[0][0]
    assert replay.params["dtype"] == dtype


def test_auto_loads_the_machines_dtype_once():
    from rag_core.models import get_generator
    from rag_core.models.dtype import machine_dtype

    auto = get_generator("qwen2.5-coder-0.5b", dtype="auto")
    assert auto.dtype == machine_dtype()
    assert get_generator("qwen2.5-coder-0.5b", dtype=machine_dtype()) is auto


def test_qwen15_loads_in_bfloat16_and_answers():
    from rag_core.models import get_generator

    gen = get_generator("qwen2.5-coder-1.5b", dtype="bfloat16")
    assert gen.model.config.num_hidden_layers == 28  # the 1.5B, not the 0.5B (24 layers)
    timing: dict[str, float] = {}
    text, new_ids, seconds = gen.generate_ids(
        gen.prompt_ids("Answer in one word.", "What is the capital of France?"), 8, timing=timing
    )
    assert "Paris" in text and seconds > 0
    assert timing["prefill_seconds"] > 0 and timing["decode_seconds"] >= 0
