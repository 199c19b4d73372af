"""Readings of a tiny random causal LM: shapes, sums against eager attention, the shared-prefill
path, pooling per claim, the disk cache, and the head's JSON round trip."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from rag_core.answer.lookback import (  # noqa: E402
    AnswerReading,
    claim_readings,
    lookback_ratios,
    token_range,
)
from rag_core.answer.support_head import (  # noqa: E402
    LEXICAL,
    READING,
    VARIANTS,
    Linear,
    SupportHead,
    from_dict,
    linear_from_dict,
)
from rag_core.models import readings as R  # noqa: E402


@pytest.fixture(scope="module")
def tiny() -> object:
    """A 2-layer Qwen2 with 4 query heads sharing 2 key-value heads, random weights."""
    cfg = transformers.Qwen2Config(
        vocab_size=97,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=3,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=256,
        attn_implementation="sdpa",
    )
    torch.manual_seed(0)
    return transformers.Qwen2ForCausalLM(cfg).eval()


PROMPT = list(range(3, 23))  # 20 tokens
ANSWER = [40, 41, 42, 43, 44, 45]
SEG = R.Segments(sources=((2, 7), (8, 12)), question=(14, 18), answer_start=len(PROMPT))


def eager_sums(model: object, prompt: list[int], answer: list[int], seg: R.Segments) -> np.ndarray:
    """The reference: full eager attention matrices, summed per segment in a plain loop."""
    model.config._attn_implementation = "eager"  # type: ignore[attr-defined]
    try:
        with torch.inference_mode():
            out = model(input_ids=torch.tensor([prompt + answer]), output_attentions=True)  # type: ignore[operator]
    finally:
        model.config._attn_implementation = "sdpa"  # type: ignore[attr-defined]
    names = seg.key_segment(len(prompt) + len(answer))
    n_seg = len(seg.names)
    ref = np.zeros((len(answer), len(out.attentions), out.attentions[0].shape[1], n_seg))
    for layer, att in enumerate(out.attentions):
        a = att[0].float().numpy()  # (H, T, T)
        for r in range(len(answer)):
            q = len(prompt) - 1 + r  # the position that predicts answer token r
            for k in range(q + 1):
                ref[r, layer, :, names[k]] += a[:, q, k]
    return ref


def test_mass_equals_eager_attention_sums(tiny: object) -> None:
    r = R.read(tiny, PROMPT, ANSWER, SEG)
    assert r.mass.shape == (len(ANSWER), 3, 4, len(SEG.names))
    np.testing.assert_allclose(r.mass, eager_sums(tiny, PROMPT, ANSWER, SEG), atol=1e-5)
    np.testing.assert_allclose(r.mass.sum(-1), 1.0, atol=1e-5)
    assert tiny.config._attn_implementation == "sdpa"  # type: ignore[attr-defined]  # restored


def test_counts_logprob_entropy_hidden(tiny: object) -> None:
    r = R.read(tiny, PROMPT, ANSWER, SEG)
    # row r sees keys 0..len(PROMPT)-1+r: the answer segment holds r of them
    assert r.counts[:, -1].tolist() == list(range(len(ANSWER)))
    assert r.counts[0].tolist() == [5, 4, 4, 20 - 5 - 4 - 4, 0]
    with torch.inference_mode():
        logits = tiny(input_ids=torch.tensor([PROMPT + ANSWER])).logits[0].float()  # type: ignore[operator]
    logp = torch.log_softmax(logits[len(PROMPT) - 1 : -1], -1)
    want = logp.gather(1, torch.tensor(ANSWER)[:, None]).squeeze(1).numpy()
    np.testing.assert_allclose(r.logprob, want, atol=1e-5)
    np.testing.assert_allclose(r.entropy, (-(logp.exp() * logp).sum(1)).numpy(), atol=1e-5)
    assert r.hidden is not None
    assert r.hidden.shape == (len(ANSWER), len(R.hidden_layers(3)), 32)


def test_read_many_equals_separate_reads(tiny: object) -> None:
    answers = [ANSWER, [50, 51], [60, 61, 62, 63, 64, 65, 66, 67]]
    many = R.read_many(tiny, PROMPT, answers, SEG)
    for a, got in zip(answers, many, strict=True):
        one = R.read(tiny, PROMPT, a, SEG)
        ref = eager_sums(tiny, PROMPT, a, SEG)
        np.testing.assert_allclose(got.mass, ref, atol=1e-5)
        np.testing.assert_allclose(got.logprob, one.logprob, atol=1e-5)
        assert (got.counts == one.counts).all()


def test_a_recorded_generation_reads_what_a_second_pass_would(tiny: object) -> None:
    """The model's own generation pass records its answer's readings: equal to :func:`read`
    of the generated ids (eager attention sums, log-probabilities, entropies, hidden states)."""
    with torch.inference_mode(), R.recording(tiny, len(PROMPT), 8, SEG) as rec:
        out = tiny.generate(  # type: ignore[attr-defined]
            input_ids=torch.tensor([PROMPT]),
            attention_mask=torch.ones(1, len(PROMPT), dtype=torch.long),
            max_new_tokens=8,
            min_new_tokens=8,
            do_sample=False,
            pad_token_id=0,
            return_dict_in_generate=True,
            output_logits=True,
        )
    new = out.sequences[0, len(PROMPT) :].tolist()
    assert len(new) == 8
    got = R.from_generation(rec, new, out.logits)
    ref = R.read(tiny, PROMPT, new, SEG)
    np.testing.assert_allclose(got.mass, eager_sums(tiny, PROMPT, new, SEG), atol=1e-5)
    np.testing.assert_allclose(got.logprob, ref.logprob, atol=1e-4)
    np.testing.assert_allclose(got.entropy, ref.entropy, atol=1e-4)
    assert (got.counts == ref.counts).all()
    assert got.hidden is not None and ref.hidden is not None
    np.testing.assert_allclose(got.hidden, ref.hidden, atol=1e-4)
    part = got.prefix(3)
    assert part.mass.shape[0] == part.logprob.shape[0] == part.counts.shape[0] == 3
    np.testing.assert_array_equal(part.mass, got.mass[:3])
    assert tiny.config._attn_implementation == "sdpa"  # type: ignore[attr-defined]  # restored


def test_a_recording_needs_the_prompts_segments(tiny: object) -> None:
    bad = R.Segments(SEG.sources, SEG.question, answer_start=5)
    with (
        pytest.raises(ValueError, match=r"answer_start = 5 must equal the prompt's 20 tokens"),
        R.recording(tiny, len(PROMPT), 4, bad),
    ):
        pass


def test_recorder_keeps_only_reduced_rows(tiny: object) -> None:
    """What the recorder holds per layer is (answer rows, heads, segments), never (H, T, T)."""
    rec = R._Recorder(SEG, len(PROMPT) - 1, len(ANSWER), 3)
    with torch.inference_mode(), R._recording(tiny, rec):
        tiny(input_ids=torch.tensor([PROMPT + ANSWER]), use_cache=False)  # type: ignore[operator]
    assert [m.shape for m in rec.mass] == [(len(ANSWER), 4, len(SEG.names))] * 3


def test_bad_inputs_are_refused(tiny: object) -> None:
    with pytest.raises(ValueError, match="non-empty prompt and a non-empty answer"):
        R.read(tiny, PROMPT, [], SEG)
    bad = R.Segments(SEG.sources, SEG.question, answer_start=5)
    with pytest.raises(ValueError, match=r"answer_start = 5 must equal the prompt's 20 tokens"):
        R.read(tiny, PROMPT, ANSWER, bad)


def test_disk_cache_round_trip(tmp_path, monkeypatch, tiny: object) -> None:
    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path))
    r = R.read(tiny, PROMPT, ANSWER, SEG)
    key = R.cache_key("tiny|x|float32", PROMPT, ANSWER, SEG)
    assert R.load_cached(key) is None
    R.store(key, r)
    back = R.load_cached(key)
    assert back is not None
    np.testing.assert_allclose(back.mass, r.mass, atol=2e-3)  # stored as float16
    assert back.counts.tolist() == r.counts.tolist()
    assert key != R.cache_key("tiny|x|float32", PROMPT, ANSWER[:-1], SEG)
    R.cache_path(key).write_bytes(b"not an npz")
    assert R.load_cached(key) is None  # unreadable: read again, never a traceback


# ------------------------------------------------------------------ pooling


def synthetic(n_src: int = 2) -> AnswerReading:
    """3 tokens × 1 layer × 2 heads; segments: sources…, question, other, answer."""
    mass = np.array(
        [
            [[[0.5, 0.1, 0.1, 0.3, 0.0], [0.2, 0.2, 0.2, 0.4, 0.0]]],
            [[[0.3, 0.1, 0.1, 0.3, 0.2], [0.1, 0.1, 0.1, 0.1, 0.6]]],
            [[[0.1, 0.4, 0.1, 0.2, 0.2], [0.0, 0.0, 0.5, 0.0, 0.5]]],
        ],
        dtype=np.float32,
    )
    counts = np.array([[4, 2, 3, 10, 0], [4, 2, 3, 10, 1], [4, 2, 3, 10, 2]])
    hidden = np.arange(3 * 2 * 4, dtype=np.float32).reshape(3, 2, 4)  # (tokens, layers, width)
    r = R.Readings(mass, counts, np.log(np.array([0.9, 0.05, 0.5], np.float32)),
                   np.array([1.0, 2.0, 3.0], np.float32), hidden)  # fmt: skip
    return AnswerReading(r, ((0, 4), (4, 9), (9, 12)), n_src)


def test_lookback_ratio_formula() -> None:
    ar = synthetic()
    lr = lookback_ratios(ar.readings, 2)
    # token 0: no answer before it → 1; token 1, head 0: context mean 0.8/19, answer mean 0.2/1
    assert lr[0, 0, 0] == 1.0
    assert lr[1, 0, 0] == pytest.approx((0.8 / 19) / (0.8 / 19 + 0.2 / 1))
    assert lr[2, 0, 1] == pytest.approx((0.5 / 19) / (0.5 / 19 + 0.5 / 2))


def test_claim_readings_pool_over_the_claims_tokens() -> None:
    ar = synthetic()
    c = claim_readings(ar, 4, 12)  # tokens 1 and 2
    assert c is not None and c.tokens == 2
    lr = lookback_ratios(ar.readings, 2)
    want = np.hstack([lr[1:3].reshape(2, -1), ar.readings.logprob[1:3, None],
                      ar.readings.entropy[1:3, None]])  # fmt: skip
    np.testing.assert_allclose(c.token_x, want, rtol=1e-6)
    assert c.spans == ((4, 9), (9, 12))
    share_src1 = np.mean([0.3 / 0.4, 0.1 / 0.2, 0.1 / 0.5, 0.5])  # head 1 of token 2: none → 1/2
    assert c.source_share[0] == pytest.approx(share_src1)
    assert c.logprob_mean == pytest.approx((math.log(0.05) + math.log(0.5)) / 2, rel=1e-5)
    assert c.logprob_min == pytest.approx(math.log(0.05), rel=1e-5)
    assert c.low_prob == 0.5
    assert c.hidden is not None  # the mean of tokens 1 and 2, the two layers side by side
    h = ar.readings.hidden
    assert h is not None
    np.testing.assert_allclose(c.hidden, ((h[1] + h[2]) / 2).reshape(-1))
    assert claim_readings(ar, 20, 30) is None


def test_token_range() -> None:
    offsets = [(0, 3), (3, 7), (7, 8), (8, 15)]
    assert token_range(offsets, 4, 9) == (1, 4)
    assert token_range(offsets, 20, 30) == (0, 0)


# -------------------------------------------------------------------- head


def linear(names: tuple[str, ...], seed: int) -> Linear:
    rng = np.random.default_rng(seed)
    n = len(names)
    return Linear(names, rng.normal(size=n), rng.uniform(0.5, 2, n), rng.normal(size=n), 0.3)


def test_head_json_round_trip() -> None:
    heads = {name: linear(LEXICAL + (READING if reads else ()), i)
             for i, ((reads, _c), name) in enumerate(VARIANTS.items())}  # fmt: skip
    head = SupportHead(linear(("a", "b"), 9), heads, {"default": (0.5, 0.2)}, (0.0, 1.0, 1.0),
                       0.6, {"F1": 0.5})  # fmt: skip
    back = from_dict(json.loads(json.dumps(head.to_dict())))
    x = np.arange(len(LEXICAL) + len(READING), dtype=float)
    assert back.head(readings=True, cosine=True).score(x) == pytest.approx(
        heads["readings"].score(x), abs=1e-4
    )
    assert back.min_p == 0.6 and back.quality == {"F1": 0.5}
    h = heads["readings"]
    z = (x - h.mean) / h.scale
    assert h.score(x) == pytest.approx(0.3 + float(z @ h.weights))
    top = h.contributions(x)
    assert abs(top[0][1]) == pytest.approx(max(abs(z * h.weights)), abs=1e-3)


def test_reading_is_the_highest_token_score_and_suspect_words_pass_the_cut() -> None:
    probe = Linear(("a", "b"), np.zeros(2), np.ones(2), np.array([1.0, -1.0]), 0.5)
    heads = {name: linear(LEXICAL + (READING if reads else ()), i)
             for i, ((reads, _c), name) in enumerate(VARIANTS.items())}  # fmt: skip
    head = SupportHead(probe, heads, {"default": (0.0, 1.0)}, (0.0, 1.0, 1.0), 0.7, {}, 1.0)
    x = np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 0.0], [0.0, 3.0]])  # scores 0.5, 2.5, 1.5, -2.5
    assert head.reading(x) == pytest.approx(2.5)
    spans = ((0, 3), (4, 8), (8, 12), (13, 20))
    assert head.suspect(x, spans) == ((4, 12),)  # tokens 2 and 3 pass 1.0, merged
    assert from_dict(json.loads(json.dumps(head.to_dict()))).token_cut == 1.0


def test_hidden_is_the_hidden_state_probes_logit_and_survives_json() -> None:
    heads = {name: linear(LEXICAL + (READING if reads else ()), i)
             for i, ((reads, _c), name) in enumerate(VARIANTS.items())}  # fmt: skip
    mean, scale = np.array([0.0, 1.0, 2.0]), np.array([1.0, 2.0, 4.0])
    hp = Linear(("h0", "h1", "h2"), mean, scale, np.array([1.0, -2.0, 0.5]), -0.25)
    head = SupportHead(linear(("a",), 3), heads, {"default": (0.0, 1.0)}, (0.0, 1.0, 1.0), 0.7,
                       {}, 0.0, hp)  # fmt: skip
    pooled = np.array([2.0, 3.0, 6.0])
    assert head.hidden(pooled) == pytest.approx(-0.25 + 2.0 * 1 + (2 / 2) * -2 + (4 / 4) * 0.5)
    back = from_dict(json.loads(json.dumps(head.to_dict())))
    assert back.hidden(pooled) == pytest.approx(head.hidden(pooled), abs=1e-5)
    # no probe, no hidden state or another model's width: the head's mean, which moves nothing
    neutral = heads["readings"].mean[READING.index("hidden") + len(LEXICAL)]
    for h, x in ((head, None), (replace(head, hidden_probe=None), pooled), (head, np.zeros(2))):
        assert h.hidden(x) == neutral


def test_head_json_is_validated() -> None:
    d = linear(("a", "b"), 1).to_dict()
    with pytest.raises(ValueError, match="must each have 2 values"):
        linear_from_dict(d | {"mean": [0.0]})
    with pytest.raises(ValueError, match="every scale must be positive"):
        linear_from_dict(d | {"scale": [1.0, 0.0]})
    head = {"probe": d, "heads": {"readings": d}, "cosine_stats": {}, "judge": [0, 1, 1],
            "min_p": 0.5}  # fmt: skip
    with pytest.raises(ValueError, match="features"):
        from_dict(head)


def test_the_config_default_is_the_committed_heads_threshold() -> None:
    from rag_core.answer.support_head import load_head
    from rag_core.config import SupportConfig

    assert SupportConfig().min_p == load_head().min_p


@pytest.mark.parametrize("variant", sorted(VARIANTS.values()))
def test_every_committed_heads_weights_keep_their_features_meaning(variant: str) -> None:
    """A weight against its feature's sign (``SIGNS``) would let a window that states less of
    the claim score higher than the sentence the claim copies, and be shown as its evidence."""
    from rag_core.answer.support_head import SIGNS, load_head

    head = load_head().heads[variant]
    broken = [
        (f, round(w, 3))
        for f, w in zip(head.features, head.weights, strict=True)
        if w * SIGNS.get(f, 0) < 0
    ]
    assert broken == []
