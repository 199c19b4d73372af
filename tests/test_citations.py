"""Constrained citations: the processor only ever lets ``[1]…[N]`` through, sentences end cited.

A tiny fake vocabulary and random scores stand in for the model (the
processor sees only ids and scores); the real-model check is in
``tests/test_must_show.py``-style slow tests below.
"""

from __future__ import annotations

import random

import pytest
import torch

from rag_core.citations import CitationLogitsProcessor, CitationVocab, allowed_ids, read_state
from rag_core.context import REFUSAL_TEXT
from rag_core.support import citations_in, is_refusal, split_claims

PIECES = [
    "<eos>", "Paris", " is", " the", " capital", ".", " [", "[", "1", "2", "3", "]", "].", "The",
    " sources", " do", " not", " contain", " answer", " 12", "\n", "[[", "4", "5", " 7", ". It", "!",
    "1950", " m",
]
EOS = 0
VOCAB = CitationVocab.from_pieces(PIECES, [EOS])


def decode(ids):
    return "".join(PIECES[i] for i in ids)


def greedy(scores_of, n_sources, max_new=30):
    """Decode with the processor; ``scores_of(step, new_ids)`` gives the fake model's logits."""
    proc = CitationLogitsProcessor(VOCAB, range(1, n_sources + 1), 0, max_new_tokens=max_new)
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
        text = greedy(lambda step, new: torch.randn(len(PIECES), generator=gen), n_sources)
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
    """'Paris is the capital' then '.': a citation opens; among [1]/[2] the model's favourite wins."""
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
    assert allowed_ids("It is big [1", VOCAB, [1, 12], best) == {PIECES.index("2"), *VOCAB.close_ids}
    with pytest.raises(ValueError, match="no source numbers"):
        allowed_ids("x", VOCAB, [], best)
