"""Per-claim support: claims, citations, numbers, evidence offsets and the verdicts."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pytest

from rag_core.answer.support import (
    check_support,
    citations_in,
    is_refusal,
    normalise_number,
    numbers_in,
    split_claims,
    terms,
)
from rag_core.config import SupportConfig
from rag_core.types import ContextStage, Source

DOC = (
    "Hallasan is the highest mountain in South Korea. It rises 1,947 m above sea level.\n\n"
    "Error E17 means the disk is full. Error E21 means the network is down.\n\n"
    "한라산에는 노루가 많이 산다. 노루는 풀과 나뭇잎을 먹는다."
)


def source(n: int | None, quote: str, status: str = "included") -> Source:
    start = DOC.index(quote)
    return Source(
        n=n,
        chunk_id=f"d::{start}",
        doc_id="d",
        title="T",
        section="",
        start=start,
        end=start + len(quote),
        locator=f"#char={start},{start + len(quote)}",
        quote=quote,
        tokens=len(quote),
        status=status,  # type: ignore[arg-type]
    )


P1, P2, P3 = DOC.split("\n\n")
CTX = ContextStage(
    "ok",
    "pack",
    "rank",
    1024,
    (source(1, P1), source(2, P2), source(3, P3), source(None, P1[:20], "dropped")),
)
CFG = SupportConfig()


def verdicts(answer: str, cfg: SupportConfig = CFG, embedder=None):
    st = check_support(answer, CTX, cfg, embedder=embedder)
    return st, [(c.text, c.verdict) for c in st.claims]


def test_numbers_are_normalised_and_codes_kept_whole():
    assert normalise_number("", "1,947", None) == "1947"
    assert normalise_number("E", "17", None) == "e17"
    assert normalise_number("", "2", ".50") == "2.5"
    text = "해발 1,947m로 높다. Error E17, not E21; 2.50 GB in 2024년 [3]."
    assert numbers_in(text) == [
        ("1,947m", "1947"),
        ("E17", "e17"),
        ("E21", "e21"),
        ("2.50 GB", "2.5"),
        ("2024년", "2024"),
    ]
    assert numbers_in("ko-jeju-01-geography #char=2157,2568") == []


def test_a_number_hyphenated_to_a_word_counts_but_not_to_a_digit():
    # "2-year" states the 2 of "2 years" (a calibration pair was missed without it)
    assert numbers_in("a 2-year warranty for a 65-billion-parameter model") == [
        ("2", "2"),
        ("65", "65"),
    ]
    assert numbers_in("2024-05-01 and ko-jeju-01-geo-02") == []  # dates and ids: no range
    assert numbers_in("pages 15-17") == [("15", "15"), ("17", "17")]  # a range states both


def test_claims_split_on_sentences_and_trailing_citations_attach_backwards():
    a = "Hallasan is 1,947 m high. [1] It is in Korea [1, 2]. E17 means a full disk [2][7].\n[3]"
    spans = split_claims(a)
    assert [a[x:y] for x, y in spans] == [
        "Hallasan is 1,947 m high. [1]",
        "It is in Korea [1, 2].",
        "E17 means a full disk [2][7].\n[3]",
    ]
    assert [citations_in(a[x:y]) for x, y in spans] == [(1,), (1, 2), (2, 7, 3)]


def test_leading_citation_style_keeps_citations_with_the_sentence_they_open():
    a = "[1] Hallasan is 1,947 m high. [3] 노루는 풀을 먹는다."
    assert [a[x:y] for x, y in split_claims(a)] == [
        "[1] Hallasan is 1,947 m high.",
        "[3] 노루는 풀을 먹는다.",
    ]


def test_korean_terms_drop_particles():
    assert "한라산" in terms("한라산의 높이", "kiwi") and "한라산" in terms("한라산은 높다", "kiwi")
    assert terms("The KV cache is large", "unicode") == {"kv", "cach", "larg"}  # Snowball stems


def test_five_verdicts_overlap_only():
    st, got = verdicts(
        "Hallasan rises 1,947 m above sea level [1]. "  # supported by its citation
        "Error E21 means the network is down [1]. "  # [1] does not, [2] does
        "Hallasan rises 2,100 m above sea level [1]. "  # another number than the source's
        "Error E17 means the disk is full. "  # true but uncited
        "Error E17 means the disk is full [9]."  # [9] is not a source
    )
    assert [v for _t, v in got] == [
        "supported",
        "supported-elsewhere",
        "contradicted",
        "uncited",
        "invalid-citation",
    ]
    c = st.claims[2]
    assert c.numbers == ("2,100 m",) and c.numbers_in_no_source == ("2,100 m",)
    assert c.evidence[0].missing_numbers == ("2,100 m",)
    assert st.params["min_p"] == CFG.min_p and st.params["embedder"] is None


def test_uncited_and_unsupported_is_unsupported():
    _st, got = verdicts("Jeju has 99 volcanoes.")
    assert got == [("Jeju has 99 volcanoes.", "unsupported")]


def test_evidence_is_the_best_sentence_with_document_offsets():
    st, _ = verdicts("노루는 풀과 나뭇잎을 먹는다 [3].")
    claim = st.claims[0]
    assert claim.verdict == "supported"
    ev = {e.n: e for e in claim.evidence}[3]
    assert "노루는 풀과 나뭇잎을 먹는다." in ev.sentence  # the window holds the sentence
    assert DOC[ev.start : ev.end] == ev.sentence
    assert [DOC[a:b] for a, b in ev.spans][-1] == "노루는 풀과 나뭇잎을 먹는다."
    claim_terms = terms("노루는 풀과 나뭇잎을 먹는다", "kiwi")
    assert ev.overlap == round(len(claim_terms & terms(ev.sentence, "kiwi")) / len(claim_terms), 4)
    assert ev.score == ev.p_supported and claim.p_supported == max(e.score for e in claim.evidence)
    assert [e.n for e in claim.evidence] == [1, 2, 3]  # only sources placed in the prompt


def test_refusal_is_not_a_claim_and_empty_answer_is_skipped():
    st = check_support("The sources do not contain the answer.", CTX, CFG)
    assert st.status == "ok" and "refusal" in st.message
    assert [(c.verdict, c.evidence) for c in st.claims] == [("not-a-claim", ())]
    assert is_refusal("출처에 그 내용이 포함되어 있지 않습니다.")
    assert check_support("  ", CTX, CFG).status == "skipped"
    assert check_support(None, CTX, CFG).status == "skipped"


class FakeEmbedder:
    """Bag-of-letters vectors: a deterministic stand-in with a known cosine."""

    model_id = "letters"

    def encode_queries(self, texts):
        out = np.zeros((len(texts), 26), dtype=np.float32)
        for i, t in enumerate(texts):
            for ch in t.lower():
                if "a" <= ch <= "z":
                    out[i, ord(ch) - 97] += 1
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


def test_cosine_feature_is_the_embedder_cosine_of_claim_and_window():
    emb = FakeEmbedder()
    st = check_support("Error E17 means the disk is full [2].", CTX, CFG, embedder=emb)
    ev = {e.n: e for e in st.claims[0].evidence}[2]
    v = emb.encode_queries(["Error E17 means the disk is full"])[0]
    sents = emb.encode_queries([DOC[a:b] for a, b in ev.spans])
    w = sents.sum(axis=0)
    assert ev.cosine == pytest.approx(float(v @ (w / np.linalg.norm(w))), abs=1e-4)
    assert st.params["embedder"] == "letters"
    strict = SupportConfig(min_p=0.999)
    st2 = check_support("Error E17 means the disk is nearly full [2].", CTX, strict, embedder=emb)
    assert st2.claims[0].verdict == "unsupported"
    assert re.search(r"needs p_supported ≥ 0.999", st2.claims[0].reason)


def test_written_out_source_references_are_citations_not_numbers():
    label = "Source 1 — T (d #char=0,82):"
    a = (
        f"Source 2 explains that E21 means the network is down. {label} Error E17 means the disk "
        f"is full [2].\n[1] {label}"
    )
    st = check_support(a, CTX, CFG)
    assert [(c.citations, c.verdict, c.numbers) for c in st.claims] == [
        ((2,), "supported", ("E21",)),
        ((1, 2), "supported", ("E17",)),
        ((1,), "not-a-claim", ()),
    ]
    assert st.claims[2].reason == "not a claim: citation only"


def test_a_number_with_another_unit_is_not_support():
    from rag_core.answer.support import quantities_in, quantity_in

    src = {
        (v, u) for _w, v, u in quantities_in("동물은 4,000종 가까이 기록되었고 해발 1,947m이다.")
    }
    assert quantities_in("높이는 4,000미터입니다") == [("4,000미터", "4000", "m")]
    assert not quantity_in("4000", "m", src)  # 4,000 species are not 4,000 metres
    assert quantity_in("1947", "m", src)  # 1,947m = 1,947 미터
    assert quantity_in("4000", None, src)  # a bare number matches any unit
    assert quantity_in("1947", "m", {("1947", None)})


def test_terms_repeated_from_the_question_are_not_evidence():
    from rag_core.types import ContextStage, Source

    quote = "A lookup such as what is the capital of France needs no reasoning at all."
    src = Source(
        1, "c1", "d", "T", "S", 0, len(quote), f"#char=0,{len(quote)}", quote, 20, "included"
    )
    ctx = ContextStage("ok", "pack", "rank", 512, (src,))
    q = "What is the capital of France?"
    st = check_support("The capital of France is Paris [1].", ctx, CFG, question=q)
    (claim,) = st.claims
    assert claim.verdict == "unsupported"
    assert claim.evidence[0].overlap == 0.0 and claim.evidence[0].missing_terms == ("pari",)
    # without the question the restated words would count as covered terms
    assert check_support("The capital of France is Paris [1].", ctx, CFG).claims[0].evidence[
        0
    ].overlap == round(2 / 3, 4)


def test_a_row_quoted_under_its_tables_column_names_supports_what_they_say():
    head = "| Model | per token | 32,768 tokens |\n|---|---:|---:|\n"
    row = "| GPT-3 175B | 4.5 MiB | 144 GiB |"
    src = replace(source(1, P1), quote=row, start=0, end=len(row), lead=head)
    ctx = ContextStage("ok", "pack", "rank", 1024, (src,))
    claim = "The KV cache of GPT-3 175B at 32,768 tokens is 144 GiB [1]."
    with_head = check_support(claim, ctx, CFG).claims[0]
    assert with_head.numbers_in_no_source == () and with_head.verdict == "supported"
    bare = check_support(claim, replace(ctx, sources=(replace(src, lead=""),)), CFG).claims[0]
    assert bare.numbers_in_no_source == ("32,768",) and bare.verdict != "supported"
