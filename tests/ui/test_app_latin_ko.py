"""A Korean page shows no Latin-script sentence from the core: every stage summary, warning,
per-hit note and gold reason reaches it in Korean (generation off).

A sentence is a run of four or more Latin words (letters only; ids such as ``bm25:char`` or
``all-MiniLM-L6-v2`` are not words), three of them longer than one letter. Runs that are
data — the corpus' documents and questions, the prompt wording sent to the model — are left
out, as are the few names in :data:`ALLOWED`.
"""

from __future__ import annotations

import html as _html
import re

import pytest
from helpers.app import html, make_app, plain
from helpers.latin import latin_sentences

from rag_core.answer import prompt
from rag_core.corpus import SAMPLE_CORPUS
from rag_core.index import load_corpus_index
from rag_core.models.generators import PLAIN_TEMPLATE
from rag_core.scenarios import SCENARIOS


def _letters(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


@pytest.fixture(scope="module")
def data_text() -> str:
    """What a page may quote in English because it is data: documents, questions, prompt."""
    corpus = load_corpus_index(SAMPLE_CORPUS)
    parts = [d.text for d in corpus.docs.values()] + [d.title for d in corpus.docs.values()]
    parts += [q.question for q in corpus.questions]
    parts += [s.question for s in SCENARIOS if s.question]  # a lecture scenario's own question
    parts += [*prompt.SYSTEM_TEXTS.values(), prompt.REFUSAL_TEXT, prompt.ANSWER_HINT]
    # the fallback tokenizer's chat template: its role names head the prompt shown
    parts += [PLAIN_TEMPLATE.format(system=t, user="") for t in prompt.SYSTEM_TEXTS.values()]
    return "\n".join(_letters(p) for p in parts)


def _page_text(at) -> str:
    parts = [html(at)]
    for kind in ("markdown", "caption", "info", "warning", "error", "success", "text"):
        parts += [str(getattr(e, "value", "")) for e in getattr(at, kind)]
    return _html.unescape(re.sub(r"<[^>]+>", " ", plain("\n".join(parts))))


def test_latin_sentences_finds_runs_of_four_words_and_not_ids():
    assert latin_sentences("후보 0개: no chunk shares a term") == ["no chunk shares a term"]
    assert latin_sentences("bm25:char all-MiniLM-L6-v2 (fallback) 토큰") == []
    assert latin_sentences("gate refused: no candidates") == ["gate refused no candidates"]
    assert latin_sentences("A A A A") == []  # single letters (flow columns) are not words
    assert latin_sentences("tf-idf scikit-learn raw tf") == []


CASES = {
    # hard cut with the fallback tokenizer, a gate that rejects beyond 2, two sparse lists fused
    "hard-cut": "generation.model=none;context.policy=hard-cut;context.budget_tokens=300;"
    "gate.max_kept=2;retrieval.methods=bm25:char,tfidf:char",
    # a refusal: gold lost at the gate, the context and generation skipped
    "refused": "generation.model=none;retrieval.methods=bm25:char;gate.min_score=1000",
    # a distance gate that cannot apply (sparse scores only): a Trace warning
    "no-distance": "generation.model=none;retrieval.methods=bm25:char;gate.max_distance=0.3",
    # a dense list: the caption says why auto chose e5-small ("7 of 18 documents are Korean")
    "dense-auto": "generation.model=none;retrieval.methods=bm25,dense",
}


@pytest.mark.parametrize("page", ["inspect", "lecture"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_korean_page_shows_no_english_sentence_from_the_core(
    entry, monkeypatch, data_text, page, case
):
    monkeypatch.setenv("RAG_APP_SET", CASES[case])
    at = make_app(entry, {"lang": "ko", "qid": "ko-01"}, page=page)
    assert not at.exception, [e.value for e in at.exception]
    found = [s for s in latin_sentences(_page_text(at)) if _letters(s) not in data_text]
    assert not found, f"English sentences on the Korean {page} page ({case}): {found}"


@pytest.mark.parametrize(
    "page", ["chunks", "compare", "scenarios", "threshold", "evaluate", "label"]
)
def test_the_other_korean_pages_show_no_english_sentence_from_the_core(
    entry, monkeypatch, data_text, page
):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")
    at = make_app(entry, {"lang": "ko", "qid": "ko-01"}, page=page)
    assert not at.exception, [e.value for e in at.exception]
    found = [s for s in latin_sentences(_page_text(at)) if _letters(s) not in data_text]
    assert not found, f"English sentences on the Korean {page} page: {found}"


#: Formula and column names a Korean page may show as two Latin words ("qtf df idf").
FORMULA_WORDS = ("qtf", "df", "idf", "tf", "lucene", "okapi", "cos", "p_supported")


@pytest.mark.parametrize("page", ["inspect", "compare", "lecture"])
def test_a_korean_page_with_an_answer_shows_no_english_phrase(entry, monkeypatch, data_text, page):
    """With an answer (a fake streaming generator), every phrase of two or more Latin words on
    a Korean page is data or a formula name: the claim's reason, the reranker's name and the
    BM25 formula are worded in Korean (they were English sentences from the core)."""
    from helpers.fakes import StreamingGenerator

    import rag_core.models as models
    from rag_core.models import ModelUnavailable

    gen = StreamingGenerator("제주도의 연평균 기온은 섭씨 15~17도입니다 [1].")

    def no_embedder(name, *a, **k):
        raise ModelUnavailable(name, "not in this test")

    monkeypatch.setattr(models, "get_generator", lambda name, *a, **k: gen)
    monkeypatch.setattr(models, "get_embedder", no_embedder)
    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(entry.parent / f"cache-{page}"))
    monkeypatch.setenv("RAG_APP_SET", "generation.model=fake;generation.citations=free")
    at = make_app(entry, {"lang": "ko", "qid": "ko-02"}, page=page)
    assert not at.exception, [e.value for e in at.exception]
    text = _page_text(at)
    assert "15~17도입니다" in text  # the answer was made (or kept from a page before) and drawn
    data = data_text + _letters(f"{gen.model_id} {gen.template_label}")  # the model's names
    data += _letters("python -m rag_core scenarios prepare")  # a command line is code, not prose
    found = [
        s
        for s in latin_sentences(text, min_words=2)
        if _letters(s) not in data and not set(s.lower().split()) <= set(FORMULA_WORDS)
    ]
    assert not found, f"English phrases on the Korean {page} page with an answer: {found}"


#: Bad values an address may carry: a word for a number, a choice nobody offers, a number
#: out of its range (whose bound is a notice inside the notice).
BAD_ADDRESS = {"retrieval.k": "abc", "retrieval.analyzer": "nope", "retrieval.b": "7"}


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_bad_config_values_are_said_in_the_page_language(entry, monkeypatch, data_text, lang):
    """A bad value in the address (and an item of ``RAG_APP_SET`` that is not key=value) is
    one warning each, worded from its code: Korean on a Korean page, on an English page the
    very text of the error (what the CLI prints)."""
    from rag_core.config import ANALYZERS, PipelineConfig
    from rag_core.config_checks import ConfigError
    from rag_core.overrides import parse_overrides
    from ui.i18n import notice_text

    monkeypatch.setenv("RAG_APP_SET", "generation.model=none; oops")
    at = make_app(entry, {"lang": lang, **BAD_ADDRESS}, page="inspect")
    assert not at.exception, [e.value for e in at.exception]
    warnings = [plain(w.value) for w in at.warning]
    errors = []
    for key, value in BAD_ADDRESS.items():
        with pytest.raises(ConfigError) as info:
            PipelineConfig().with_overrides({key: value})
        errors.append(info.value)
    expected = [notice_text(e.notice, lang) for e in errors]
    expected.append(notice_text(parse_overrides("oops")[1][0], lang))
    for text in expected:
        assert any(text in w for w in warnings), (text, warnings)
    if lang == "en":
        assert expected[:3] == [str(e) for e in errors]  # the English is the error's own text
        return
    assert all(re.search("[가-힣]", text) for text in expected)
    assert not any(str(e) in w for e in errors for w in warnings)
    data = data_text + _letters(" ".join(ANALYZERS))  # the valid choices are names, not prose
    found = [s for s in latin_sentences(_page_text(at)) if _letters(s) not in data]
    assert not found, f"English sentences on the Korean page with a bad address: {found}"


def test_the_korean_check_page_words_every_claim_reason(entry, monkeypatch):
    """The Check page's reasons column (a supported, a contradicted, an uncited and a
    not-a-claim span) is worded in Korean from each claim's notice, not the core's English."""
    from ui.check import keys

    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")
    at = make_app(entry, {"lang": "ko"}, page="check")
    at.text_area(key=keys.K_CONTEXTS).set_value("The bridge opened on April 18, 2019.")
    answer = "Sure! The bridge opened on April 21, 2019 [1]. The bridge opened in 2019."
    at.text_area(key=keys.K_ANSWER).set_value(answer)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    text = _page_text(at)
    for worded in ("주장이 아님: 인사말", "다른 값을 말합니다", "인용 없음; 뒷받침하는 출처: [1]"):
        assert worded in text, worded
    data = _letters("The bridge opened on April 18, 2019. " + answer)
    found = [
        s
        for s in latin_sentences(text, min_words=2)
        if _letters(s) not in data and not set(s.lower().split()) <= set(FORMULA_WORDS)
    ]
    assert not found, f"English phrases on the Korean Check page: {found}"
