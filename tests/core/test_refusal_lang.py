"""The refusal the prompt asks for is in the question's language, and every later stage
knows it: the enforced grammar lets the answer be exactly it, the claim splitter calls it a
refusal (not a claim)."""

from __future__ import annotations

import pytest
from helpers.fakes import CHUNK, DOC, HITS, FakeGenerator

from rag_core.answer.citations import read_state
from rag_core.answer.claims import non_claim_kind
from rag_core.answer.context import build_context
from rag_core.answer.prompt import (
    REFUSAL_TEXT,
    REFUSAL_TEXTS,
    SYSTEM_TEXT,
    question_lang,
    refusal_of,
    refusal_text,
    system_text,
)
from rag_core.config import ContextConfig

KO, EN = REFUSAL_TEXTS["ko"], REFUSAL_TEXTS["en"]


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("한라산의 높이는?", "ko"),
        ("KV cache가 왜 커지나요?", "ko"),  # 6 syllables (12) against 7 Latin letters
        ("What is E21?", "en"),
        ("What is 한라산?", "en"),  # 3 syllables (6) against 6 letters: not more
        ("Какая высота?", "en"),  # another script: the English refusal
        ("", "en"),
    ],
)
def test_question_lang_weighs_hangul_against_latin(question, lang):
    assert question_lang(question) == lang
    assert refusal_text(question) == REFUSAL_TEXTS[lang]


def test_the_system_text_asks_for_the_questions_refusal():
    assert REFUSAL_TEXT == EN and EN in SYSTEM_TEXT
    ko = system_text("strict", KO)
    assert KO in ko and EN not in ko and ko == SYSTEM_TEXT.replace(EN, KO)
    assert system_text("strict") == SYSTEM_TEXT
    assert refusal_of(ko) == KO and refusal_of(SYSTEM_TEXT) == EN
    assert refusal_of(system_text("minimal", KO)) == EN  # no refusal clause: the default


def _context(question: str, **kw):
    tok = FakeGenerator()
    return build_context(
        question, HITS, {CHUNK.chunk_id: CHUNK}, {"d": DOC}, ContextConfig(**kw), tokenizer=tok
    )


def test_the_context_of_a_korean_question_asks_for_the_korean_refusal():
    ko = _context("한라산의 높이는?")
    assert KO in ko.system_text and EN not in ko.system_text and KO in ko.prompt_text
    en = _context("How high is Hallasan?")
    assert EN in en.system_text and KO not in en.system_text


def test_the_grammar_and_the_claims_accept_the_korean_refusal():
    assert read_state(KO, refusal=KO).mode == "done"
    assert read_state(KO[:4], refusal=KO).refusal  # still on the way to the refusal
    assert non_claim_kind(KO) == non_claim_kind(EN) == "refusal"
