"""Evidence units: abbreviation-aware sentences and the facts of a structured record."""

from __future__ import annotations

import json

from rag_core.answer.claims import sentences, split_claims
from rag_core.answer.evidence import quote_units, record_units, terms


def texts(text: str) -> list[str]:
    return [text[a:b] for a, b in sentences(text)]


def test_initials_and_titles_do_not_end_a_sentence() -> None:
    t = "Along with that, the U.S. Department of Education is investigating. Dr. Kim agreed."
    assert texts(t) == [
        "Along with that, the U.S. Department of Education is investigating.",
        "Dr. Kim agreed.",
    ]


def test_initials_end_a_sentence_before_a_usual_opener() -> None:
    assert texts("He moved to the U.S. He likes it.") == ["He moved to the U.S.", "He likes it."]
    assert texts("It ended at 3 p.m. The crowd left.") == ["It ended at 3 p.m.", "The crowd left."]


def test_a_lowercase_or_ampersand_start_continues_the_sentence() -> None:
    assert texts("Open Mon. & Sun. only. Closed otherwise.") == [
        "Open Mon. & Sun. only.",
        "Closed otherwise.",
    ]


def test_claims_use_the_abbreviation_aware_sentences() -> None:
    answer = "The U.S. Department of Education is also investigating UVA."
    assert split_claims(answer) == [(0, len(answer))]


def test_korean_sentences_are_unchanged() -> None:
    assert texts("한라산은 높다. 제주에 있다.") == ["한라산은 높다.", "제주에 있다."]


RECORD = json.dumps(
    {
        "name": "Finch & Fork",
        "attributes": {"OutdoorSeating": False, "WiFi": "free", "Music": None},
        "business_stars": 4.0,
        "reviews": [{"text": "Great brunch and friendly staff. " * 10 + "We will return."}],
    }
)


def test_a_record_has_one_unit_per_leaf_with_true_offsets() -> None:
    units = record_units(RECORD)
    assert units is not None
    seating = next(u for u in units if "Outdoor Seating" in u.text)
    assert RECORD[seating.start : seating.end] == '"OutdoorSeating": false'
    assert seating.negated is True
    wifi = next(u for u in units if "Wi Fi" in u.text)
    assert wifi.negated is None and "wifi" in terms(wifi.text, "unicode")
    assert not any("Music" in u.text for u in units), "a null states nothing"
    stars = next(u for u in units if "business stars" in u.text)
    assert RECORD[stars.start : stars.end] == '"business_stars": 4.0'


def test_a_long_string_value_is_cut_into_sentences() -> None:
    units = quote_units(RECORD)
    review = [u for u in units if RECORD[u.start : u.end].startswith("Great brunch")]
    assert len(review) >= 10
    assert RECORD[review[0].start : review[0].end] == "Great brunch and friendly staff."
    assert any(RECORD[u.start : u.end] == "We will return." for u in units)


def test_prose_and_broken_json_are_sentences() -> None:
    assert record_units("Plain text. Two sentences.") is None
    assert record_units('{"a": 1') is None
    assert [u.text for u in quote_units('{"a": 1')] == ['{"a": 1']


def test_clock_times_are_read_on_a_24_hour_clock() -> None:
    from rag_core.answer.evidence import quantities_in

    assert [v for _w, v, _u in quantities_in("open from 8:00 AM to 5:00 PM")] == ["8:00", "17:00"]
    assert [v for _w, v, _u in quantities_in("hours 17:0-21:0")] == ["17:00", "21:00"]
    assert [v for _w, v, _u in quantities_in("from 4 pm, closed at 12 a.m.")] == ["16:00", "0:00"]
    assert quantities_in("I am 5 today") == [("5", "5", None)]


def test_latex_digit_grouping_is_a_thousands_separator() -> None:
    from rag_core.answer.evidence import quantities_in

    # a Markdown source with math: "$2 \\times 32 … = 524{,}288$ bytes" states 524,288
    tex = r"the product is $2 \times 128 \times 2 = 524{,}288$ bytes, or 1\,048\,576 in all"
    assert [v for _w, v, _u in quantities_in(tex)] == ["2", "128", "2", "524288", "1048576"]


def test_powers_of_ten_are_read_as_their_value() -> None:
    from rag_core.answer.evidence import quantities_in

    def values(text: str) -> list[str]:
        return [v for _w, v, _u in quantities_in(text)]

    # 2·10⁻⁴ however it is written; the exponent is not a number of its own
    for text in (r"a rate of $2 \times 10^{-4}$", "a rate of 2×10⁻⁴", "a rate of 2e-4"):
        assert values(text) == [f"{2 * 10**-4:.4f}"], text
    assert values("about 1.5 x 10^9 tokens") == [str(int(1.5 * 10**9))]
    assert values(r"$10^{-3}$") == [f"{10**-3:.3f}"]
    assert values("a 10 x 10 grid") == ["10", "10"]  # no exponent: two numbers


def test_korean_myriad_numbers_are_read_as_their_value() -> None:
    from rag_core.answer.evidence import quantities_in

    assert quantities_in("2만 5천 명에서 3만 명") == [
        ("2만 5천 명", str(2 * 10**4 + 5 * 10**3), "명"),
        ("3만 명", str(3 * 10**4), "명"),
    ]
    assert quantities_in("1,585만 명")[0][1:] == (str(1585 * 10**4), "명")
    assert quantities_in("3천만 원")[0][1:] == (str(3 * 10**3 * 10**4), "원")
    assert quantities_in("1억 2천만")[0][1] == str(10**8 + 2 * 10**3 * 10**4)
    assert quantities_in("2만 5천여 명의 대군")[0][1:] == (str(25 * 10**3), "명")
    assert quantities_in("3개만 있다") == [("3개", "3", "개")]  # 만 "only" after a counter


def test_a_positive_claim_on_a_negated_fact_scores_negated_only() -> None:
    from rag_core.answer.support import claim_view, source_view, window_features
    from rag_core.answer.support_head import LEXICAL as FEATURES
    from rag_core.types import Source

    quote = json.dumps({"name": "Cafe", "attributes": {"OutdoorSeating": False, "WiFi": "free"}})
    src = Source(1, "c", "d", "", "", 0, len(quote), "", quote, 0, "included")
    sv = source_view(src, "unicode", None)
    k = FEATURES.index("negated_only")

    def feat(claim: str) -> float:
        c = claim_view(claim, 0, len(claim), None)
        return max(window_features(c, sv, w, 0.0)[0][k] for w in sv.windows)

    assert feat("It has outdoor seating.") > 0.5
    assert feat("It offers free WiFi.") == 0.0
    assert feat("It has no outdoor seating.") == 0.0


def test_a_positive_claim_on_a_negated_record_fact_is_contradicted() -> None:
    from rag_core.answer.support import check_support
    from rag_core.config import SupportConfig
    from rag_core.types import ContextStage, Source

    quote = json.dumps({"name": "Cafe Rosa", "attributes": {"OutdoorSeating": False}})
    src = Source(1, "c", "d", "", "", 0, len(quote), "", quote, 0, "included")
    ctx = ContextStage("ok", "pack", "rank", 4096, (src,))
    claims = {
        c.text: c.verdict
        for c in check_support(
            "Cafe Rosa has outdoor seating [1]. Cafe Rosa has no outdoor seating [1].",
            ctx,
            SupportConfig(),
        ).claims
    }
    assert claims == {
        "Cafe Rosa has outdoor seating [1].": "contradicted",
        "Cafe Rosa has no outdoor seating [1].": "supported",
    }


HEAD = "| Model | per token | 32,768 tokens |\n|---|---:|---:|\n"
ROWS = "| Llama 2 7B | 512 KiB | 16 GiB |\n| GPT-3 175B | 4.5 MiB | 144 GiB |"


def test_a_table_row_is_the_record_of_its_column_names_and_cells() -> None:
    table = "Sizes below.\n\n" + HEAD + ROWS + "\n\nAfter the table."
    units = quote_units(table)
    rows = [u for u in units if u.text.startswith("Model:")]
    assert [u.text for u in rows] == [
        "Model: Llama 2 7B; per token: 512 KiB; 32,768 tokens: 16 GiB",
        "Model: GPT-3 175B; per token: 4.5 MiB; 32,768 tokens: 144 GiB",
    ]
    assert table[rows[1].start : rows[1].end] == ROWS.split("\n")[1]
    assert [u.text for u in units][0] == "Sizes below." and units[-1].text == "After the table."
    # rows quoted without their header read the columns from the lead (Source.lead)
    assert quote_units(ROWS, HEAD) == tuple(
        type(u)(
            u.start - len("Sizes below.\n\n" + HEAD), u.end - len("Sizes below.\n\n" + HEAD), u.text
        )
        for u in rows
    )
    # without a header there are no columns to read: the rows stay lines
    assert [u.text for u in quote_units(ROWS)] == ROWS.split("\n")
