"""The support checker's rules for what is a claim, what it asserts and what flags a response,
in English and Korean: talk about the passages is not judged as a fact, lead-ins are not part of
what a claim asserts, a pronoun "one" is not a number, a negated neighbour (a bold heading too)
is not the claim's negation, and a claim citing no source (or naming a passage that does not
back it) flags."""

from __future__ import annotations

import pytest

from rag_core.answer.claims import judged_start, non_claim_kind
from rag_core.answer.evidence import quantities_in
from rag_core.answer.support import (
    check_support,
    claim_view,
    flagged,
    flags,
    source_view,
    window_features,
)
from rag_core.answer.support_head import LEXICAL
from rag_core.config import SupportConfig
from rag_core.types import Claim, ContextStage, Source

CFG = SupportConfig(readings=False)


def src(n: int, quote: str) -> Source:
    return Source(n, f"c{n}", f"d{n}", "T", "", 0, len(quote), "", quote, 0, "included")


def ctx(*quotes: str) -> ContextStage:
    return ContextStage(
        "ok", "given", "given", 0, tuple(src(i + 1, q) for i, q in enumerate(quotes))
    )


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Sure, I can help you with that!", "pleasantry"),
        ("I'd be happy to help with that.", "pleasantry"),
        ("None of the passages explicitly state the opening hours.", "refusal"),
        ("None of the provided passages mention a price.", "refusal"),
        (
            (
                "Based on the given passages, the benefits of drinking water for the body and "
                "the mind that the authors of the articles list include:"
            ),
            "framing",
        ),
        ("According to the passages, the main reasons are as follows:", "framing"),
        ("제공된 자료에는 가격이 나와 있지 않습니다.", "refusal"),
    ],
)
def test_talk_about_the_passages_is_not_a_claim(text: str, kind: str) -> None:
    assert non_claim_kind(text) == kind


@pytest.mark.parametrize(
    "text",
    [
        "Sure! The price is 5 dollars.",
        "The passages say the tank holds 42 litres.",
        "None of the fish survived the winter.",
        "한라산에는 뱀이 없습니다.",
    ],
)
def test_a_fact_next_to_such_words_is_still_a_claim(text: str) -> None:
    assert non_claim_kind(text) is None


@pytest.mark.parametrize(
    ("text", "asserted"),
    [
        ("Therefore, the answer to the question is: (510) 889-8690.", "(510) 889-8690."),
        ("Based on the given passages, the shop opens at 9 am.", "the shop opens at 9 am."),
        ("According to Passage 2, the tank holds 42 litres.", "the tank holds 42 litres."),
        ("Passage 2 states that the fee is 5 dollars.", "the fee is 5 dollars."),
        ("The answer is 42.", "42."),
        ("제공된 자료에 따르면, 한라산은 1,947m입니다.", "한라산은 1,947m입니다."),
        ("The shop opens at 9 am.", "The shop opens at 9 am."),
        ("Therefore, the answer to the question is: [1]", "the answer to the question is: [1]"),
    ],
)
def test_lead_ins_are_not_what_a_claim_asserts(text: str, asserted: str) -> None:
    assert text[judged_start(text) :] == asserted


def test_the_judged_part_drops_the_lead_ins_terms() -> None:
    answer = "Based on the provided passages, the butcher shop phone number is (510) 889-8690."
    v = claim_view(answer, 0, len(answer), None)
    assert v.text == "the butcher shop phone number is (510) 889-8690."
    assert not {"base", "provid", "passag"} & v.answer_terms


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("The members help one another.", []),
        ("It is one's duty to vote.", []),
        ("It is one of the best parks.", []),
        ("No one knows the answer.", []),
        ("One reviewer praised the staff.", []),
        ("The food was good, with one noting the fresh bread.", []),
        ("One guest liked the view, while another found it loud.", []),
        ("It has two pools. One is heated.", ["2"]),
        ("The park has one lake.", ["1"]),
        ("One million people visit.", ["1"]),  # 1 with the unit "million"
        ("It took one hour.", ["1"]),
        ("세 명이 왔다.", ["3"]),
        ("버스 세 대가 다닌다.", ["3"]),
        ("젊은 세대가 모였다.", []),  # 세대, a generation
        ("열대 기후다.", []),  # 열대, the tropics
    ],
)
def test_one_as_a_pronoun_is_not_a_number(text: str, numbers: list[str]) -> None:
    assert [v for _w, v, _u in quantities_in(text)] == numbers


def test_a_negated_neighbour_is_not_the_claims_negation() -> None:
    quote = "Fill a bucket while the shower warms up. Don't peek at the water meter."
    answer = "Fill a bucket while the shower warms up."
    c = claim_view(answer, 0, len(answer), None)
    sv = source_view(src(1, quote), c.analyzer, None)
    both = next(w for w in sv.windows if w.first == 0 and w.last == 1)
    f, _missing, why = window_features(c, sv, both, 0.0)
    assert f[LEXICAL.index("negation_mismatch")] == 0.0
    assert why is None


def test_a_bold_heading_is_its_own_sentence_and_its_negation_not_the_claims() -> None:
    quote = (
        "**E21 — Water did not drain in time.** Meaning: the drain phase started, but the level"
        " sensor still showed water above the empty mark after 6 minutes of pumping."
    )
    answer = "The drain phase started, but the level sensor still showed water [1]."
    c = claim_view(answer, 0, len(answer), None)
    sv = source_view(src(1, quote), c.analyzer, None)
    assert sv.sentence_negated == (True, False)  # the heading is a sentence of its own
    meaning = next(w for w in sv.windows if w.first == w.last == 1)
    f, _missing, why = window_features(c, sv, meaning, 0.0)
    assert f[LEXICAL.index("negation_mismatch")] == 0.0
    assert why is None
    ctx = ContextStage("ok", "pack", "rank", 4096, (src(1, quote),))
    assert check_support(answer, ctx, CFG).claims[0].verdict != "contradicted"


VALUES = {
    "en": (
        "Parts to order:\n- GS-2210 door gasket with its clamping band\n- MC-6608 control board",
        "Which part number is the door gasket?",
        "The door gasket is MC-6608 [1].",
        "The door gasket is GS-2210 [1].",
    ),
    "ko": (
        "2022년에는 내국인 관광객이 1,380만 명이었다. 입장료는 어른 1명 기준 5,000원이다.",
        "2022년 제주를 찾은 내국인 관광객은 몇 명이었나요?",
        "2022년에는 내국인 관광객이 1명이었다 [1].",
        "2022년에는 내국인 관광객이 1,380만 명이었다 [1].",
    ),
}


@pytest.mark.parametrize("lang", sorted(VALUES))
def test_a_short_answer_needs_its_value_where_the_source_speaks_of_it(lang: str) -> None:
    """The source states MC-6608 and "1명", but of a control board and an entry fee: a short answer
    to the question is not backed by them (p at most NO_TERMS_P); checked without the question,
    the claim is judged by the head as before."""
    from rag_core.answer.support import NO_TERMS_P

    quote, question, wrong, right = VALUES[lang]
    ctx = ContextStage("ok", "pack", "rank", 4096, (src(1, quote),))
    bad = check_support(wrong, ctx, CFG, question=question).claims[0]
    assert bad.p_supported <= NO_TERMS_P and bad.verdict != "supported"
    assert check_support(right, ctx, CFG, question=question).claims[0].verdict == "supported"
    assert check_support(wrong, ctx, CFG).claims[0].p_supported > NO_TERMS_P


def test_the_pieces_of_a_torn_word_are_not_read() -> None:
    from dataclasses import replace

    quote = "In 2022 there were 1"  # a fixed-size chunk that cut "1,380만 명" after its "1"
    whole = check_support("In 2022 there were 1 visitor [1].", ContextStage(
        "ok", "pack", "rank", 4096, (src(1, quote),)), CFG)  # fmt: skip
    torn = check_support("In 2022 there were 1 visitor [1].", ContextStage(
        "ok", "pack", "rank", 4096, (replace(src(1, quote), torn=(0, 1)),)), CFG)  # fmt: skip
    assert whole.claims[0].numbers_in_no_source == ()
    assert torn.claims[0].numbers_in_no_source == ("1",)


def test_a_korean_sentence_may_open_with_a_number() -> None:
    from rag_core.answer.claims import sentences

    text = "배는 1653년 좌초했다. 1702년에는 지도를 만들었다. See No. 5 here."
    assert [text[a:b] for a, b in sentences(text)] == [
        "배는 1653년 좌초했다.",
        "1702년에는 지도를 만들었다.",
        "See No. 5 here.",
    ]


def test_question_coverage_is_the_share_of_question_terms_in_the_window() -> None:
    quote = "Hamel's ship ran aground on Jeju in 1653. A lighthouse was built in 1702."
    answer = "1702 [1]"
    from rag_core.answer.evidence import terms

    q = terms("When did Hamel's ship run aground?", "unicode")
    c = claim_view(answer, 0, len(answer), q)
    sv = source_view(src(1, quote), c.analyzer, None)
    first, second = (next(w for w in sv.windows if w.first == w.last == i) for i in (0, 1))
    qcov = LEXICAL.index("question_coverage")
    assert window_features(c, sv, first, 0.0)[0][qcov] == pytest.approx(
        len(q & sv.sentence_terms[0]) / len(q)
    )
    assert window_features(c, sv, second, 0.0)[0][qcov] == 0.0
    no_q = claim_view(answer, 0, len(answer), None)
    assert window_features(no_q, sv, second, 0.0)[0][qcov] == 1.0


@pytest.mark.parametrize("contexts", [(), ("",), ("   ",)])
def test_claims_citing_no_source_flag_the_response(contexts: tuple[str, ...]) -> None:
    from rag_core.answer.checkfile import context_stage

    answer = "The tank holds 42 litres [1]. The fish are fed twice a day [2]."
    st = check_support(answer, context_stage(contexts), CFG)
    assert [c.verdict for c in st.claims] == ["invalid-citation", "invalid-citation"]
    assert flagged(st)


def claim(verdict: str, text: str) -> Claim:
    return Claim(text, 0, len(text), (2,), verdict, ())  # type: ignore[arg-type]


def test_a_claim_naming_a_passage_that_does_not_back_it_flags() -> None:
    assert flags(claim("supported-elsewhere", "Passage 2 says the pool is 3 m deep."))
    assert flags(claim("supported-elsewhere", "출처 2에 따르면 수영장은 3m 깊이입니다."))
    assert not flags(claim("supported-elsewhere", "The pool is 3 m deep [2]."))
    assert flags(claim("invalid-citation", "The pool is 3 m deep [7]."))
    assert not flags(claim("uncited", "The pool is 3 m deep."))


@pytest.mark.parametrize("read", [False, True])
def test_a_source_sharing_none_of_the_claims_terms_is_not_its_evidence(read: bool) -> None:
    """Even when the answer's readings say the claim is grounded (they are the claim's, the same
    for every source), a source stating none of its own terms backs it with p at most
    ``NO_TERMS_P``; of its windows, the one the head rates closest is shown."""
    from rag_core.answer.evidence import terms
    from rag_core.answer.support import NO_TERMS_P, Judging, best_evidence
    from rag_core.answer.support_head import READING, load_head

    q = terms("When did the haenyeo culture enter UNESCO's list?", "unicode")
    answer = "The haenyeo culture entered UNESCO's representative list [1]."
    c = claim_view(answer, 0, len(answer), q)
    other = source_view(
        src(1, "The wind goddess visits in spring. A shrine rite entered UNESCO's list in 2009."),
        c.analyzer,
        None,
    )
    stating = source_view(
        src(2, "The haenyeo culture entered UNESCO's representative list in 2016."),
        c.analyzer,
        None,
    )
    how = Judging(load_head(), "", 0.5, None, None)
    strong = [-6.0, 1.0, 0.0, 0.0, 0.0, -6.0] if read else None  # the probes read "grounded"
    assert strong is None or len(strong) == len(READING)
    ev, f = best_evidence(c, other, None, how, strong)
    assert f[0] == 0.0 and ev.p_supported <= NO_TERMS_P
    if not read:  # the closer window (the question's terms), not the first one; the reading
        # head gives the question's terms no weight, so its windows tie there
        assert "shrine rite" in ev.sentence
    ev2, f2 = best_evidence(c, stating, None, how, strong)
    assert f2[0] == 1.0 and ev2.p_supported > NO_TERMS_P


@pytest.mark.parametrize(
    ("question", "answer", "stating", "neighbour"),
    [
        (
            "How deep is the lake?",
            "The lake's average depth is 15 m [2].",
            "The lake's average depth is 15 m and it covers 3 square kilometres.",
            (
                "The lake's average depth has been measured every year since records began, and "
                "the depth changes with the season."
            ),
        ),
        (
            "제주의 연평균 기온은?",
            "제주 해안 저지대의 연평균 기온은 15~17도이다 [2].",
            "제주 해안 저지대의 연평균 기온은 섭씨 15~17도이다.",
            (
                "제주 해안 저지대의 연평균 기온은 해마다 조금씩 오르고 있으며, 기온은 고도에 따라 "
                "달라진다."
            ),
        ),
    ],
)
def test_a_source_lacking_the_claims_numbers_is_not_its_evidence_where_another_states_them(
    question: str, answer: str, stating: str, neighbour: str
) -> None:
    """Readings that call the claim grounded lift every source alike, so a neighbour on the same
    topic that states none of the claim's values scores as high as the source that states them;
    where one source backs the claim with a window stating every value, the others are capped at
    ``NO_TERMS_P`` (not its evidence, never painted). Where no source backs it so, nothing is."""
    from rag_core.answer.evidence import analyzer_for, terms
    from rag_core.answer.support import (
        NO_TERMS_P,
        NUMBERS_FOUND,
        Judging,
        best_evidence,
        values_stated_elsewhere,
    )
    from rag_core.answer.support_head import load_head

    # checked without its question (with it, the claim is a short answer whose value the
    # neighbour lacks: capped by itself, test_a_short_answer_needs_its_value_…)
    c = claim_view(answer, 0, len(answer), None)
    head = load_head()
    how = Judging(head, "", head.min_p, None, None)
    strong = [-6.0, 1.0, 0.0, 0.0, 0.0, -6.0]  # the probes read "grounded"
    asked = claim_view(answer, 0, len(answer), terms(question, analyzer_for(question)))
    alone = source_view(src(2, neighbour), c.analyzer, None)
    assert best_evidence(asked, alone, None, how, strong)[0].score <= NO_TERMS_P
    found = [
        best_evidence(c, source_view(src(n, q), c.analyzer, None), None, how, strong)
        for n, q in ((1, stating), (2, neighbour))
    ]
    ev = [e for e, _f in found]
    states = [f[NUMBERS_FOUND] == 1.0 for _e, f in found]
    assert states == [True, False] and ev[0].missing_numbers == () and ev[1].missing_numbers
    assert min(e.score for e in ev) >= head.min_p  # both would back it
    kept, capped = values_stated_elsewhere(ev, states, head.min_p)
    assert kept == ev[0]
    assert capped.score == capped.p_supported == NO_TERMS_P
    # the stating source below min_p backs nothing, so nothing is capped; nor with it alone
    assert values_stated_elsewhere(ev, states, 0.999) == ev
    assert values_stated_elsewhere(ev[1:], states[1:], head.min_p) == ev[1:]


def test_a_cited_source_that_states_another_value_is_named_as_contradicting() -> None:
    """A cited source that covers the claim and states another value is vetoed whatever its
    ``p_supported``; when another source backs the claim, the reason says the veto, not a
    threshold the cited source's p already passes."""
    from rag_core.answer.support import _verdict
    from rag_core.types import Evidence
    from rag_core.wording import english, notice

    conflict = notice("support.conflict.value", numbers="3 m")
    cited = Evidence(1, "c1", "The pool is 5 m deep.", 0, 21, 1.0, None, 0.92,
                     ("3 m",), p_supported=0.92, contradiction=conflict)  # fmt: skip
    other = Evidence(2, "c2", "The pool is 3 m deep.", 0, 21, 1.0, None, 0.9, p_supported=0.9)
    sources = {1: src(1, cited.sentence), 2: src(2, other.sentence)}
    verdict, why = _verdict((1,), sources, [cited, other], 0.71)
    assert verdict == "supported-elsewhere"
    said = english(why)
    assert "does not support it (the source states another value than 3 m)" in said, said
    # a cited source under min_p without a conflict still names the threshold
    low = Evidence(1, "c1", "A pool.", 0, 7, 0.3, None, 0.4, p_supported=0.4)
    assert "(needs p_supported ≥ 0.71)" in english(_verdict((1,), sources, [low, other], 0.71)[1])
