"""Analyzers: each name of config.ANALYZERS, the char n-gram rule, Kiwi content tags."""

from __future__ import annotations

import re

import pytest

from rag_core.config import ANALYZERS
from rag_core.retrieval.sparse.analyzers import (
    ANALYZER_FACTORIES,
    analyze_many,
    char_ngrams,
    get_analyzer,
)


def test_registry_has_exactly_the_config_names():
    assert ANALYZER_FACTORIES.names() == ANALYZERS


def test_unknown_analyzer_lists_valid_names():
    with pytest.raises(
        ValueError,
        match=re.escape("unknown analyzer 'snowball'; valid choices: " + ", ".join(ANALYZERS)),
    ):
        get_analyzer("snowball")


def test_bad_ngram_sizes():
    with pytest.raises(ValueError, match=re.escape("ngram_max = 1 must be >= ngram_min = 2")):
        get_analyzer("char", ngram_min=2, ngram_max=1)
    with pytest.raises(ValueError, match=re.escape("ngram_min = 0 must be an integer >= 1")):
        get_analyzer("char", ngram_min=0)


def test_ascii_drops_non_ascii_letters():
    assert get_analyzer("ascii")("Error E17, 한라산 GPU-Cache!") == ["error", "e17", "gpu", "cache"]


def test_unicode_keeps_particles_glued_and_drops_punctuation():
    assert get_analyzer("unicode")("한라산의 높이는? KV-Cache") == [
        "한라산의",
        "높이는",
        "kv",
        "cache",
    ]


def test_whitespace_keeps_punctuation():
    assert get_analyzer("whitespace")("인물은?  KV-Cache\n끝") == ["인물은?", "kv-cache", "끝"]


def test_char_ngrams_definition():
    # "abcd": 2-grams ab bc cd, 3-grams abc bcd, 4-gram abcd; "x" is shorter than 2: kept whole
    assert char_ngrams("ABCD x", 2, 4) == ["ab", "bc", "cd", "abc", "bcd", "abcd", "x"]
    # no n-gram crosses the space
    assert "bx" not in char_ngrams("ab xy")
    # a 3-letter token yields its 2-grams and itself, nothing of length 4
    assert char_ngrams("한라산") == ["한라", "라산", "한라산"]
    # the registered analyzer passes the sizes through
    assert get_analyzer("char", ngram_min=3, ngram_max=3)("abcd ab") == ["abc", "bcd", "ab"]


def test_char_counts_match_formula():
    tok = "abcdefg"
    grams = char_ngrams(tok, 2, 4)
    assert len(grams) == sum(len(tok) - n + 1 for n in range(2, 5))


@pytest.mark.parametrize("name", ["ascii", "unicode", "whitespace", "char"])
def test_analyze_many_equals_one_by_one(name):
    texts = ["Hello, World 42", "", "한라산은 높다", "a b  c"]
    one = get_analyzer(name)
    assert analyze_many(name, texts) == [one(t) for t in texts]


def test_kiwi_strips_particles_and_endings():
    kiwi = get_analyzer("kiwi")
    a = kiwi("한라산의 높이")
    b = kiwi("한라산은 높다")
    assert "한라산" in a and "한라산" in b
    assert "의" not in a and "은" not in b  # particles dropped
    assert kiwi("") == []


def test_kiwi_batch_equals_single():
    texts = ["한라산은 제주도에 있다.", "", "GPU 메모리가 24GB 필요하다", "빨리 걸었다"]
    kiwi = get_analyzer("kiwi")
    assert analyze_many("kiwi", texts) == [kiwi(t) for t in texts]


def test_kiwi_keeps_irregular_stems_and_lowercases_foreign_words():
    out = get_analyzer("kiwi")("그는 빨리 걸었다. GPU를 샀다")
    assert "걷" in out  # VV-I (irregular verb stem) counts as VV
    assert "gpu" in out and "GPU" not in out


# ------------------------------------------------------------------ auto (h-11)


def test_auto_runs_by_script_and_english_equals_unicode():
    from rag_core.retrieval.sparse.analyzers import (
        auto_segments,
        auto_terms,
        auto_terms_many,
        script_runs,
    )

    text = "한라산의 높이는 1,947m? What is BM25"
    assert "".join(r for r, _h in script_runs(text)) == text
    segs = auto_segments(text)
    assert [(r.strip(), name) for r, name, _t in segs] == [
        ("한라산의", "kiwi"),
        ("높이는", "kiwi"),
        ("1,947m? What is BM25", "unicode"),
    ]
    assert auto_terms(text) == ["한라산", "높이", "1", "947m", "what", "is", "bm25"]
    english = "The KV cache grows with every token, k1 = 1.2."
    assert auto_terms(english) == get_analyzer("unicode")(english)
    assert auto_terms("한라산의 높이", "bigram") == ["한라", "라산", "산의", "높이"]
    texts = ["한라산은 높다", "E21 error", "", "노루"]
    assert auto_terms_many(texts) == [auto_terms(x) for x in texts]
    assert analyze_many("auto", texts) == [get_analyzer("auto")(x) for x in texts]
    with pytest.raises(ValueError, match="valid choices: kiwi, bigram"):
        auto_segments("x", "porter")


def test_dense_auto_picks_e5_for_a_corpus_with_korean_documents():
    from rag_core.retrieval.dense import choose_dense_model, hangul_share
    from rag_core.wording import english

    assert hangul_share("한라산 abc") == pytest.approx(3 / 6)
    assert hangul_share("1, 2, 3") == 0.0
    model, why = choose_dense_model(["The KV cache.", "한라산은 제주도에 있다."])
    assert model == "e5-small" and "1 of 2 documents are Korean" in english(why)
    assert why.params == {"korean": 1, "documents": 2, "model": "e5-small", "english": "minilm"}
    model, why = choose_dense_model(["The KV cache.", "BM25 (Robertson) with 한 word"])
    assert model == "minilm" and "no Korean document" in english(why)


def test_kiwi_never_gets_a_spaceless_run_longer_than_the_guard(monkeypatch):
    """A 2 MB spaceless Korean line reaches Kiwi hard-cut into pieces (issue 27): each piece's
    terms, in order, are the text's terms."""
    from rag_core.formats import guard
    from rag_core.retrieval.sparse import analyzers

    seen: list[str] = []

    class Token:
        def __init__(self, form: str) -> None:
            self.form, self.tag = form, "NNG"

    class FakeKiwi:
        def tokenize(self, texts):
            seen.extend(texts)
            return [[Token(t[:2])] for t in texts]

    monkeypatch.setattr(analyzers, "_KIWI", FakeKiwi())
    line = "한라산" * 233_000  # 699,000 syllables, about 2 MB of UTF-8
    terms = analyzers.analyze_many("auto", ["짧은 글", line])
    assert max(len(s) for s in seen) == guard.MAX_RUN
    assert "".join(seen[2:]) == line
    assert terms[0] == ["짧은", "글"] and len(terms[1]) == -(-len(line) // guard.MAX_RUN)
    seen.clear()
    assert analyzers.get_analyzer("kiwi")("한라산의 높이") == ["한라"] and seen == ["한라산의 높이"]


def test_kiwi_analyses_are_stored_once_per_machine_and_reused(tmp_path, monkeypatch):
    """A piece analysed once is read back from ``<cache>/kiwi_terms.sqlite`` (the same terms)
    without asking Kiwi again; a new piece is analysed and stored."""
    from rag_core.models.store import shared_store
    from rag_core.retrieval.sparse import analyzers

    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path))
    texts = ["한라산의 높이는 1,947 미터이다", "제주도의 연평균 기온"]
    first = analyzers.kiwi_terms_many(texts)
    assert first[0] and first[1]
    store = shared_store(tmp_path / "kiwi_terms.sqlite")
    assert len(store.get_many([analyzers._kiwi_terms_key(t) for t in texts])) == 2

    def no_kiwi() -> None:
        raise AssertionError("Kiwi was asked for a stored analysis")

    monkeypatch.setattr(analyzers, "kiwi_instance", no_kiwi)
    assert analyzers.kiwi_terms_many(texts) == first
    monkeypatch.undo()
    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path))
    assert analyzers.kiwi_terms_many(["바람이 분다"]) == [analyzers.kiwi_terms("바람이 분다")]
    assert store.get(analyzers._kiwi_terms_key("바람이 분다")) is not None


def test_a_stand_in_kiwi_is_never_stored(tmp_path, monkeypatch):
    from rag_core.models.store import shared_store
    from rag_core.retrieval.sparse import analyzers

    class Token:
        form, tag = "가짜", "NNG"

    class FakeKiwi:
        def tokenize(self, texts):
            return [[Token()] for _ in texts]

    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path))
    monkeypatch.setattr(analyzers, "_KIWI", FakeKiwi())
    assert analyzers.kiwi_terms_many(["한라산"]) == [["가짜"]]
    assert (
        shared_store(tmp_path / "kiwi_terms.sqlite").get_many([analyzers._kiwi_terms_key("한라산")])
        == {}
    )
