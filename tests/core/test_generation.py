"""Generation: statuses with nulls, unavailable models, the replay cache, and greedy peer check."""

from __future__ import annotations

import time

import pytest
from helpers.fakes import CHUNK, DOC, HITS, FakeGenerator, context

from rag_core.answer.context import build_context
from rag_core.answer.generation import (
    GENERATION_MAX_TOKENS,
    GENERATION_REPLAYED,
    GENERATION_SPEED,
    cache_key,
    generate,
    generation_store,
)
from rag_core.config import ContextConfig, GenerationConfig
from rag_core.hashing import ids_sha256
from rag_core.types import ContextStage
from rag_core.wording import JOINED, english


def test_generated_then_replayed_from_cache(tmp_path):
    gen = FakeGenerator()
    ctx = context(gen)
    cfg = GenerationConfig(model="fake", max_new_tokens=64)
    first = generate(ctx, cfg, generator=gen, cache_dir=tmp_path)
    assert (first.status, first.answer, first.cached, gen.calls) == ("ok", gen.answer, False, 1)
    assert (first.input_tokens, first.output_tokens) == (len(ctx.input_ids), len(gen.answer) + 1)
    assert first.seconds == 0.25 and first.model_sha256 == gen.file_sha256
    again = generate(ctx, cfg, generator=gen, cache_dir=tmp_path)
    assert (again.status, again.answer, again.cached, gen.calls) == ("ok", gen.answer, True, 1)
    assert again.seconds == first.seconds and again.output_tokens == first.output_tokens
    other = generate(
        ctx, GenerationConfig(model="fake", max_new_tokens=8), generator=gen, cache_dir=tmp_path
    )
    assert (other.cached, gen.calls) == (False, 2)
    assert cache_key("fake-gen", gen.file_sha256, ids_sha256(ctx.input_ids), 64) != cache_key(
        "fake-gen", gen.file_sha256, ids_sha256(ctx.input_ids), 8
    )


def test_skipped_stages_carry_nulls_not_zeros(tmp_path):
    gen = FakeGenerator()
    refused = ContextStage("skipped", "pack", "rank", 1024, ())
    for stage in (
        generate(refused, GenerationConfig(model="fake"), generator=gen, cache_dir=tmp_path),
        generate(context(gen), GenerationConfig(model="none"), generator=gen, cache_dir=tmp_path),
    ):
        assert stage.status == "skipped"
        assert (stage.seconds, stage.input_tokens, stage.output_tokens, stage.answer) == (None,) * 4
    assert gen.calls == 0


def test_no_source_in_prompt_is_skipped(tmp_path):
    gen = FakeGenerator()
    long_q = "How high is Hallasan, " + "really " * 30 + "?"
    base = len(gen.prompt_text("x", "y"))  # any small budget that holds only the question
    ctx = build_context(
        long_q,
        HITS,
        {CHUNK.chunk_id: CHUNK},
        {"d": DOC},
        ContextConfig(budget_tokens=max(base, 600)),
        tokenizer=gen,
    )
    assert all(s.n is None for s in ctx.sources)
    stage = generate(ctx, GenerationConfig(model="fake"), generator=gen, cache_dir=tmp_path)
    assert stage.status == "skipped" and stage.seconds is None and gen.calls == 0


def test_missing_model_is_unavailable_with_reason(tmp_path):
    ctx = context(FakeGenerator())
    stage = generate(
        ctx, GenerationConfig(model=str(tmp_path / "no-such-model")), cache_dir=tmp_path
    )
    assert stage.status == "unavailable"
    assert "is not installed here and the hub is offline" in stage.message
    assert stage.seconds is None


def test_failure_is_an_error_stage_and_tokenizer_mismatch_is_refused(tmp_path):
    gen = FakeGenerator(fail=True)
    stage = generate(
        context(gen), GenerationConfig(model="fake"), generator=gen, cache_dir=tmp_path
    )
    assert (
        stage.status == "error"
        and stage.message == "generation failed: RuntimeError: out of memory"
    )
    other = FakeGenerator()
    other.model_id = "another"
    stage = generate(
        context(gen), GenerationConfig(model="fake"), generator=other, cache_dir=tmp_path
    )
    assert stage.status == "error" and "not with another's tokenizer" in stage.message


@pytest.mark.slow
def test_qwen_greedy_equals_plain_generate_and_replay_is_instant(tmp_path):
    """Free citations: the peer is plain greedy `model.generate` (enforced adds a logits
    processor)."""
    import torch

    from rag_core.models import get_generator

    gen = get_generator("qwen2.5-coder-0.5b")
    ctx = context(gen)
    stage = generate(
        ctx,
        GenerationConfig(max_new_tokens=12, citations="free"),
        generator=gen,
        cache_dir=tmp_path,
    )
    assert stage.status == "ok" and stage.model_sha256 == gen.file_sha256
    with torch.inference_mode():
        plain = gen.model.generate(
            torch.tensor([list(ctx.input_ids)]),
            attention_mask=torch.ones(1, len(ctx.input_ids), dtype=torch.long),
            max_new_tokens=12,
            do_sample=False,
            eos_token_id=gen.eos_ids,
            pad_token_id=gen.pad_id,
        )
    new = plain[0, len(ctx.input_ids) :].tolist()
    assert stage.output_tokens == len(new)
    assert stage.answer == gen.tokenizer.decode(new, skip_special_tokens=True).strip()
    t0 = time.perf_counter()
    again = generate(
        ctx,
        GenerationConfig(max_new_tokens=12, citations="free"),
        generator=gen,
        cache_dir=tmp_path,
    )
    assert again.cached and again.answer == stage.answer
    assert time.perf_counter() - t0 < 0.05


def _codes(n) -> list[str]:
    """The codes a (joined) notice says, in order."""
    if n.code == JOINED:
        return [*_codes(n.params["first"]), *_codes(n.params["second"])]
    return [n.code]


def test_a_made_answer_says_its_speed_and_a_replay_says_so_as_notices(tmp_path):
    from ui.i18n import notice_text

    gen = FakeGenerator()
    ctx = context(gen)
    cfg = GenerationConfig(model="fake", max_new_tokens=64, citations="free")
    first = generate(ctx, cfg, generator=gen, cache_dir=tmp_path)
    assert first.notice is not None and first.message == english(first.notice)
    assert _codes(first.notice) == [GENERATION_SPEED]  # it ended with end-of-sequence
    rate = first.output_tokens / first.seconds
    assert first.message == (
        f"{first.output_tokens} tokens in {first.seconds:.1f} s ({rate:.1f} tokens/s)"
    )
    korean = notice_text(first.notice, "ko")
    assert "토큰" in korean and "tokens in" not in korean
    again = generate(ctx, cfg, generator=gen, cache_dir=tmp_path)
    assert again.cached and _codes(again.notice) == [GENERATION_REPLAYED]
    assert again.message == "replayed from the cache (generated in 0.2 s the first time)"
    gen.eos_ids = ()  # its last token is no end-of-sequence now: max_new_tokens cut it
    cut = generate(ctx, cfg, generator=gen, cache_dir=tmp_path / "other")
    assert _codes(cut.notice) == [GENERATION_SPEED, GENERATION_MAX_TOKENS]
    assert cut.message == first.message + "; stopped at max_new_tokens = 64"
    assert cut.params["cut"] is True and first.params["cut"] is False
    replayed = generate(ctx, cfg, generator=gen, cache_dir=tmp_path / "other")
    assert replayed.cached and replayed.params["cut"] is True  # a replay still says it
    assert _codes(replayed.notice) == [GENERATION_REPLAYED, GENERATION_MAX_TOKENS]


def test_is_stored_says_whether_generate_would_replay_without_calling_the_model(tmp_path):
    from rag_core.answer.generation import is_stored

    gen = FakeGenerator()
    ctx = context(gen)
    cfg = GenerationConfig(model="fake", max_new_tokens=64, citations="free")
    assert not is_stored(ctx, cfg, gen, tmp_path)
    generate(ctx, cfg, generator=gen, cache_dir=tmp_path)
    assert is_stored(ctx, cfg, gen, tmp_path) and gen.calls == 1
    assert not is_stored(
        ctx, GenerationConfig(model="fake", max_new_tokens=65, citations="free"), gen, tmp_path
    )
    assert not is_stored(ctx, GenerationConfig(model="none"), gen, tmp_path)  # nothing to send


@pytest.mark.slow
def test_the_bundled_generator_reads_its_answer_while_writing_it(tmp_path, monkeypatch):
    """With ``read`` segments the generation pass records the answer's readings (enforced
    citations: the grammar edits scores in place, the recording keeps the model's own); they
    equal a second teacher-forced pass up to bfloat16 rounding, and the support check then
    reads them from the cache without a pass of its own."""
    import numpy as np

    from rag_core.answer.checkfile import answer_reading
    from rag_core.answer.lookback import generation_layout
    from rag_core.config import SupportConfig
    from rag_core.models import get_generator
    from rag_core.models import readings as R

    monkeypatch.setattr(R, "cache_path", lambda key: tmp_path / "readings" / f"{key}.npz")
    gen = get_generator("qwen2.5-coder-0.5b")
    ctx = context(gen)
    layout = generation_layout(gen, ctx, "How high is Hallasan?")
    assert layout is not None and layout.ids == ctx.input_ids
    assert len(layout.segments.sources) == sum(s.n is not None for s in ctx.sources) >= 1
    cfg = GenerationConfig(max_new_tokens=24, citations="enforced")
    stage = generate(ctx, cfg, generator=gen, cache_dir=tmp_path, read=layout.segments)
    assert stage.status == "ok" and stage.answer
    own_spans = gen.own_reading(ctx.input_ids, stage.answer, layout.segments)
    assert own_spans is not None
    own, spans = own_spans
    # its own tokens (which need not be how its text encodes), each placed in the answer
    (stored,) = generation_store(tmp_path).recent(5)
    new_ids = stored["new_ids"]
    assert own.tokens == len(spans) == len(new_ids)
    assert "".join(stage.answer[a:b] for a, b in spans) == stage.answer
    with gen._lock:
        second = R.read_many(gen.model, list(ctx.input_ids), [new_ids], layout.segments)[0]
    np.testing.assert_allclose(own.mass, second.mass, atol=0.1)
    np.testing.assert_allclose(own.logprob, second.logprob, atol=0.5)
    assert np.isfinite(own.entropy).all() and (own.counts == second.counts).all()

    passes: list[int] = []
    real = R.read_many
    monkeypatch.setattr(R, "read_many", lambda *a, **k: passes.append(1) or real(*a, **k))
    reading = answer_reading(SupportConfig(), "", ctx.sources, stage.answer, layout)
    assert reading is not None and passes == []
    np.testing.assert_array_equal(reading.readings.mass, own.mass)
    assert reading.spans == spans


@pytest.mark.slow
def test_token_spans_place_every_generated_token_in_the_answer():
    """Byte-level pieces that end inside a Hangul syllable get an empty span and the next piece
    the syllable; a leading space and a closing special token are dropped like the answer's."""
    from rag_core.models import get_generator

    gen = get_generator("qwen2.5-coder-0.5b")
    for text in ("한라산은 1,947 m 높이다 [1]", "Hallasan rises 1,947 m [1]", "뷁 쀍 똠방각하"):
        ids = [*gen.encode(" " + text), *gen.eos_ids[:1]]
        spans = gen.token_spans(ids, text)
        assert spans is not None and len(spans) == len(ids)
        assert "".join(text[a:b] for a, b in spans) == text
        assert all(a <= b for a, b in spans) and spans[-1][0] == spans[-1][1] == len(text)
    rare = gen.encode(" 뷁 쀍")  # rare syllables: byte pieces that end inside a character
    assert (2, 2) in (gen.token_spans(rare, "뷁 쀍") or []) and len(rare) > len("뷁 쀍")
    assert gen.token_spans(gen.encode("a b"), "a c") is None
