"""Question-set files (``rag_core/formats/questions.py``) and a corpus with no loadable
document (``rag_core/index.py``): each refusal is a :class:`~rag_core.wording.NoticeError`
whose English is the CLI's text, byte for byte, and whose notice the pages word in Korean."""

from __future__ import annotations

import json
import re

import pytest
from helpers.latin import latin_sentences

from rag_core.formats.questions import KNOWN, load_questions, parse_questions, queries_of
from rag_core.index import CorpusIndex
from rag_core.types import FailedDocument, LoadReport, Notice, Question
from rag_core.wording import NoticeError
from ui.i18n import error_text

OK = {"id": "q1", "question": "Why?", "needles": [{"doc_id": "d", "text": "because"}]}

#: One bad row each (as written in ``qs.jsonl``), and the exact English the CLI prints.
ROWS = {
    "not an object": ("[1, 2]", "qs.jsonl line 1: a question must be a JSON object, not list"),
    "no question": ({"id": "q1"}, "qs.jsonl line 1: field 'question' is missing or empty"),
    "unknown field": (
        {**OK, "answer": "x", "extra": 1},
        (
            "qs.jsonl line 1: unknown field(s) answer, extra; known: id, lang, question, "
            "phrasings, needles, answerable, tags"
        ),
    ),
    "phrasings": (
        {**OK, "phrasings": ["a", " "]},
        "qs.jsonl line 1: 'phrasings' must be a list of non-empty strings",
    ),
    "needle": (
        {**OK, "needles": [{"doc_id": "d", "text": "ok"}, {"doc_id": 3, "text": "x"}]},
        "qs.jsonl line 1: needle 1 must be an object with non-empty 'doc_id' and 'text'",
    ),
    "answerable": (
        {**OK, "answerable": "yes"},
        "qs.jsonl line 1: 'answerable' must be true or false",
    ),
    "no needle": (
        {**OK, "needles": []},
        "qs.jsonl line 1: an answerable question needs at least one needle",
    ),
    "tags": ({**OK, "tags": "a,b"}, "qs.jsonl line 1: 'tags' must be a list of strings"),
    "not json": ('{"id": ', "qs.jsonl line 1: not valid JSON (Expecting value at column 8)"),
}


def _refusal(lines: list[str]) -> NoticeError:
    with pytest.raises(NoticeError) as info:
        parse_questions(lines, source="qs.jsonl")
    return info.value


def _korean(exc: NoticeError) -> str:
    ko = error_text(exc, "ko")
    assert re.search("[가-힣]", ko), ko
    # quoted values, the file's name and the format's field names are data, not sentences
    data = r"'[^']*'|\b\w+\.jsonl\b|\b(?:" + "|".join(KNOWN) + r")\b"
    prose = re.sub(data, "", ko)
    assert not latin_sentences(prose), (ko, latin_sentences(prose))
    return ko


@pytest.mark.parametrize("case", sorted(ROWS))
def test_a_bad_row_is_refused_in_english_and_worded_in_korean(case):
    row, english = ROWS[case]
    exc = _refusal([row if isinstance(row, str) else json.dumps(row)])
    assert str(exc) == english
    assert error_text(exc, "en") == english
    assert _korean(exc).startswith("qs.jsonl 1행: ")


def test_a_repeated_id_names_its_line():
    exc = _refusal(["", json.dumps(OK), json.dumps(OK)])
    assert str(exc) == "qs.jsonl line 3: duplicate question id 'q1'"
    assert "3행" in _korean(exc)


def test_a_missing_or_undecodable_file(tmp_path):
    with pytest.raises(NoticeError) as missing:
        load_questions(tmp_path / "none.jsonl")
    assert str(missing.value) == f"question set {tmp_path / 'none.jsonl'} does not exist"
    bad = tmp_path / "gbk.jsonl"
    bad.write_bytes("问题".encode("gbk"))
    with pytest.raises(NoticeError) as undecodable:
        load_questions(bad)
    assert str(undecodable.value) == f"question set {bad} is not UTF-8 text"
    for exc in (missing.value, undecodable.value):
        ko = error_text(exc, "ko")
        assert str(tmp_path) in ko and re.search("[가-힣]", ko)


def test_a_phrasing_choice_out_of_range():
    q = Question(id="q1", lang="en", question="Why?", phrasings=("a", "b"))
    with pytest.raises(NoticeError) as info:
        queries_of(q, "2")
    assert str(info.value) == (
        "phrasings = '2' is not valid; valid choices: question, all, or an index below 2"
    )
    assert "2" in _korean(info.value)


@pytest.mark.parametrize("n_bad", [0, 1, 5])
def test_a_corpus_without_a_loadable_document_is_refused_in_either_language(n_bad):
    """The refusal names the first three failures and counts the rest; its English is the
    CLI's line, its notice the pages' (Korean) wording."""
    failed = tuple(
        FailedDocument(f"f{i}.bin", Notice("load.csv.error", {"error": f"reason {i}"}))
        for i in range(n_bad)
    )
    with pytest.raises(NoticeError) as info:
        CorpusIndex(LoadReport((), failed), name="mine")
    shown = "; ".join(f"f{i}.bin: reason {i}" for i in range(min(n_bad, 3)))
    more = f"; and {n_bad - 3} more" if n_bad > 3 else ""
    tail = f" ({n_bad} failed to load: {shown}{more})" if n_bad else ""
    assert str(info.value) == f"corpus 'mine' has no loadable document{tail}"
    ko = error_text(info.value, "ko")
    assert re.search("[가-힣]", ko) and ("그 밖에 2개" in ko) == (n_bad == 5), ko
    assert not latin_sentences(re.sub(r"reason \d", "", ko))
