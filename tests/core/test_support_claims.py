"""Issue #22: what a claim is (list items, markers, not-a-claim rules), numbers, evidence
windows, contradiction, the judge both ways and the ``support`` CLI."""

from __future__ import annotations

import json

import pytest

from rag_core.answer.claims import citations_in, non_claim_kind, split_claims
from rag_core.answer.evidence import quantities_in, quantity_in, terms, windows
from rag_core.answer.support import check_support, flagged
from rag_core.answer.support_head import load_head
from rag_core.config import SupportConfig
from rag_core.types import ContextStage, Source

CFG = SupportConfig()


def src(n: int, quote: str, start: int = 0) -> Source:
    return Source(n, f"c{n}", f"d{n}", "T", "", start, start + len(quote), "", quote, 0, "included")


def ctx(*quotes: str) -> ContextStage:
    return ContextStage(
        "ok", "pack", "rank", 1024, tuple(src(i + 1, q) for i, q in enumerate(quotes))
    )


def texts(answer: str) -> list[str]:
    return [answer[a:b] for a, b in split_claims(answer)]


# ------------------------------------------------------------------ claims


def test_list_items_are_kept_whole_and_markers_are_not_part_of_them():
    a = (
        "The slide has three parts:\n"
        "1. A ramp at one end of the slide. It is steep [1].\n"
        "2) A pool.\n"
        "- (a) Passage 2 says the pool is 3 m deep.\n"
        "• Bullet item\n"
        "(b) Lettered item"
    )
    got = texts(a)
    assert got == [
        "The slide has three parts:",
        "A ramp at one end of the slide. It is steep [1].",
        "A pool.",
        "Passage 2 says the pool is 3 m deep.",
        "Bullet item",
        "Lettered item",
    ]
    # neither the marker "2)" nor "Passage 2" is a number of the claim; "Passage 2" cites [2]
    assert [w for w, _v, _u in quantities_in(got[3])] == ["3 m"]
    assert citations_in(got[3]) == (2,)
    assert quantities_in(got[2]) == []


def test_a_number_at_a_line_start_after_a_sentence_is_a_marker_not_a_claim_number():
    a = "It sits at one end of the slide.\n3. The pool is shallow."
    assert texts(a) == ["It sits at one end of the slide.", "The pool is shallow."]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Based on the provided passages, here is a summary of the article:", "framing"),
        ("Here's the summary within 46 words:", "framing"),
        ("Sure! Here is a brief overview of the business.", "framing"),
        ("다음은 기사의 요약입니다.", "framing"),
        ("I hope this helps!", "pleasantry"),
        ("Sure!", "pleasantry"),
        ("도움이 되셨기를 바랍니다.", "pleasantry"),
        ("(Word count: 46)", "meta statement"),
        ("Unable to answer based on given passages.", "refusal"),
        ("The passages do not mention the opening hours.", "refusal"),
        ("I cannot answer this question from the given context.", "refusal"),
        ("There is no information about the price in the passages.", "refusal"),
        ("The sources do not contain the answer.", "refusal"),
        ("제공된 자료에는 개장 시간에 대한 정보가 없습니다.", "refusal"),
        ("주어진 문서만으로는 답할 수 없습니다.", "refusal"),
        ("출처에 그 내용이 나와 있지 않습니다.", "refusal"),
        ("[1][2]", "citation only"),
    ],
)
def test_sentences_that_assert_nothing_are_not_claims(text, kind):
    assert non_claim_kind(text) == kind


@pytest.mark.parametrize(
    "text",
    [
        "According to the passage, the FBI charged a woman on Thursday.",
        "한라산에는 뱀이 없습니다.",  # a negative fact about the world, not about the sources
        "The restaurant does not offer outdoor seating.",
        "요약하면 한라산은 제주도에 있다.",
        "Yes, the museum opens at 9 am.",
    ],
)
def test_claims_with_framing_words_or_negations_are_still_claims(text):
    assert non_claim_kind(text) is None


def test_not_a_claim_verdict_is_never_judged_and_never_flags():
    c = ctx("The FBI charged a woman on Thursday.")
    st = check_support("Sure! Here is a summary:\nThe FBI charged a woman on Thursday.", c, CFG)
    assert [x.verdict for x in st.claims][:2] == ["not-a-claim", "not-a-claim"]
    assert all(x.evidence == () and x.p_supported is None for x in st.claims[:2])
    assert st.claims[2].verdict == "uncited" and not flagged(st)
    refusal = check_support("Unable to answer based on given passages.", c, CFG)
    assert [x.verdict for x in refusal.claims] == ["not-a-claim"] and not flagged(refusal)


def test_citation_styles_are_kept():
    a = "Hallasan is high. [1] It is in Korea [1, 2]. E17 means a full disk [2][3]."
    assert [citations_in(t) for t in texts(a)] == [(1,), (1, 2), (2, 3)]
    lead = "[1] Hallasan is high. [2] It is in Korea."
    assert texts(lead) == ["[1] Hallasan is high.", "[2] It is in Korea."]


# ----------------------------------------------------------------- numbers


def test_number_words_and_ranges_are_numbers_with_units():
    got = quantities_in("Three people came on April 18-19; twenty-five cats, 3–5 km, a dozen eggs.")
    assert [(v, u) for _w, v, u in got] == [
        ("3", "명"),  # "people" is the counted-persons unit, as 명
        ("18", None),
        ("19", None),
        ("25", None),
        ("3", "km"),  # "3–5 km": both ends in km
        ("5", "km"),
        ("12", None),
    ]
    ko = quantities_in("세 명이 왔고 사과는 셋이다. 세계는 넓다.")
    assert [(v, u) for _w, v, u in ko] == [("3", "명"), ("3", None)]
    assert [v for _w, v, _u in quantities_in("open 17:0-21:0")] == ["17:00", "21:00"]
    temps = quantities_in("Bake at 400°F (200°C), then 74℉.")
    assert [(v, u) for _w, v, u in temps] == [("400", "°F"), ("200", "°C"), ("74", "°F")]
    assert not quantity_in("74", "°F", {("74", "°C")})  # 74 °F is not 74 °C


def test_a_number_word_in_the_claim_is_found_as_digits_in_the_source():
    c = ctx("Police arrested 3 men after the fire on Monday.")
    st = check_support("Police arrested three men after the fire.", c, CFG)
    assert st.claims[0].numbers_in_no_source == ()
    st2 = check_support("Police arrested five men after the fire.", c, CFG)
    assert st2.claims[0].numbers_in_no_source == ("five",)


def test_stemming_matches_word_forms():
    assert terms("injuries", "unicode") == terms("injury", "unicode")
    assert terms("was injured", "unicode") == terms("injure", "unicode")


# ---------------------------------------------------------------- evidence


def test_evidence_window_spans_every_sentence_it_uses_with_document_offsets():
    quote = (
        "The council met on Monday. It approved a new library. The library will cost 4 million "
        "dollars. Work starts in May. Residents welcomed the plan."
    )
    doc_start = 100
    c = ContextStage("ok", "pack", "rank", 1024, (src(1, quote, doc_start),))
    st = check_support(
        "The council approved a new library that will cost 4 million dollars [1].", c, CFG
    )
    (claim,) = st.claims
    ev = claim.evidence[0]
    assert len(ev.spans) >= 2  # the claim fuses two source sentences
    full = " " * doc_start + quote
    joined = [full[a:b] for a, b in ev.spans]
    assert joined[0] in quote and all(s.endswith(".") for s in joined)
    assert "approved a new library" in " ".join(joined) and "4 million" in " ".join(joined)
    assert ev.start == ev.spans[0][0] and ev.end == ev.spans[-1][1]
    assert full[ev.start : ev.end] == ev.sentence
    assert claim.verdict == "supported" and claim.p_supported == ev.p_supported


def test_windows_are_one_to_three_sentences_and_the_whole_short_source():
    quote = "A. B. C. D."
    ws = windows(quote)
    sizes = sorted({w.last - w.first + 1 for w in ws})
    assert sizes == [1, 2, 3, 4]  # 4 = the whole (short) source
    assert len([w for w in ws if w.last - w.first + 1 == 1]) == 4


# ----------------------------------------------------------- contradicted


def test_a_different_number_in_the_best_evidence_is_contradicted():
    c = ctx("The bridge opened on April 18, 2019. It is 1,200 m long.")
    st = check_support("The bridge opened on April 21, 2019 [1].", c, CFG)
    assert st.claims[0].verdict == "contradicted" and flagged(st)
    assert "21" in st.claims[0].reason
    ok = check_support("The bridge opened on April 18, 2019 [1].", c, CFG)
    assert ok.claims[0].verdict == "supported" and not flagged(ok)


def test_a_negated_copy_of_the_source_is_contradicted():
    c = ctx("The restaurant offers outdoor seating and free parking for guests.")
    st = check_support("The restaurant does not offer outdoor seating for guests.", c, CFG)
    assert st.claims[0].verdict == "contradicted"


# ---------------------------------------------------------------- the judge


class FakeJudge:
    """``p_yes`` always answers ``p`` (and counts its calls)."""

    def __init__(self, p: float) -> None:
        self.p, self.calls = p, 0

    def p_yes(self, system: str, user: str) -> float:
        assert "Does the source support the claim?" in user and "Claim:" in user
        self.calls += 1
        return self.p


def test_the_judge_can_veto_and_rescue():
    head = load_head()
    assert head.judge[2] > 0, "the judge must carry weight in the head"
    on = SupportConfig(judge=True)
    c = ctx("Hallasan rises 1,947 m above sea level. It is the highest peak in South Korea.")
    good = "Hallasan rises 1,947 m above sea level [1]."
    assert check_support(good, c, CFG).claims[0].verdict == "supported"
    vetoed = check_support(good, c, on, judge=FakeJudge(0.0001))
    assert vetoed.claims[0].verdict != "supported"
    # a loose paraphrase the features alone miss, rescued by a confident judge
    para = "The summit of that volcano towers close to two kilometres high [1]."
    assert check_support(para, c, CFG).claims[0].verdict != "supported"
    yes = FakeJudge(0.9999)
    rescued = check_support(para, c, on, judge=yes)
    assert rescued.claims[0].verdict == "supported" and yes.calls == 1
    assert rescued.claims[0].evidence[0].judge == pytest.approx(0.9999)
    off = FakeJudge(0.0001)
    assert check_support(good, c, CFG, judge=off).claims[0].verdict == "supported"
    assert off.calls == 0  # support.judge off: not asked


@pytest.mark.slow
def test_the_bundled_generator_judges_through_p_yes():
    from rag_core.models import ModelUnavailable, get_generator

    try:
        gen = get_generator("qwen2.5-coder-0.5b")
    except ModelUnavailable as exc:
        pytest.skip(str(exc))
    c = ctx("Hallasan rises 1,947 m above sea level. It is the highest peak in South Korea.")
    on = SupportConfig(judge=True)
    st = check_support("Hallasan rises 1,947 m above sea level [1].", c, on, judge=gen)
    ev = st.claims[0].evidence[0]
    assert ev.judge is not None and 0.0 <= ev.judge <= 1.0
    assert st.params["judge"] is True
    p = gen.p_yes("You check facts. Reply with one word: yes or no.", "Is 2 + 2 = 4? yes or no.")
    assert 0.0 <= p <= 1.0


# ------------------------------------------------------------------- the CLI


def test_cli_checks_good_rows_and_names_bad_ones(tmp_path, capsys):
    from rag_core.cli import main

    rows = [
        {
            "id": "a",
            "question": "When did the bridge open?",
            "contexts": ["The bridge opened on April 18, 2019. It is 1,200 m long."],
            "answer": "Sure! The bridge opened on April 21, 2019 [1].",
        },
        "not an object",
        {
            "id": "c",
            "user_input": "q",
            "retrieved_contexts": ["Cats purr."],
            "response": "Cats purr.",
        },
        {"id": "d", "question": "q", "contexts": "x"},
    ]
    f = tmp_path / "rows.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in rows) + "\n{broken json\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code = main(["support", str(f), "--output", str(out)])
    cap = capsys.readouterr()
    assert code == 1
    err = [x for x in cap.err.splitlines() if x]
    assert len(err) == 3 and all("rows.jsonl:" in x for x in err)
    assert {x.split("rows.jsonl:")[1].split(":")[0] for x in err} == {"2", "4", "5"}
    got = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [g["id"] for g in got] == ["a", "c"]
    a = got[0]
    assert a["flagged"] is True
    answer = rows[0]["answer"]
    for cl in a["claims"]:
        assert answer[cl["start"] : cl["end"]] == cl["text"]
    assert [c["verdict"] for c in a["claims"]] == ["not-a-claim", "contradicted"]
    ev = a["claims"][1]["evidence"][0]
    assert rows[0]["contexts"][0][ev["start"] : ev["end"]] == ev["sentence"]
    assert got[1]["flagged"] is False and got[1]["claims"][0]["verdict"] == "uncited"
    assert "a: FLAGGED" in cap.out
