"""A malformed qrels or run file is refused with a ``NoticeError`` whose English is the text
the CLI prints and whose notice the pages word in Korean (the sidebar's qrels and run uploads
show ``error_text``)."""

from __future__ import annotations

import re

import pytest
from helpers.latin import latin_sentences

from rag_core.formats.trec import format_qrels, format_run, parse_beir_qrels, parse_qrels
from rag_core.retrieval.runs import check_queries, parse_run_bytes
from rag_core.wording import NoticeError
from ui.i18n import error_text

BAD = {
    "qrels fields": (lambda: parse_qrels(["q1 0 d1"], "q.txt"), "q.txt line 1: expected 4"),
    "qrels grade": (lambda: parse_qrels(["q1 0 d1 ١"], "q.txt"), "is not an integer in ASCII"),
    "qrels twice": (
        lambda: parse_qrels(["q1 0 d1 1", "q1 0 d1 2"], "q.txt"),
        "q.txt line 2: query 'q1' judges doc 'd1' twice (first at line 1)",
    ),
    "beir header": (lambda: parse_beir_qrels(["a\tb\tc"], "qrels.tsv"), "expected the header"),
    "beir empty": (lambda: parse_beir_qrels([], "qrels.tsv"), "qrels.tsv: empty file"),
    "run fields": (lambda: parse_run_bytes("r.txt", b"q1 Q0 d1 1 0.5\n"), "expected 6 fields"),
    "run rank": (lambda: parse_run_bytes("r.txt", b"q1 Q0 d1 one 0.5 t\n"), "rank 'one' is"),
    "run score": (lambda: parse_run_bytes("r.txt", b"q1 Q0 d1 1 inf t\n"), "is not finite"),
    "run utf8": (lambda: parse_run_bytes("r.txt", b"\xff\xfe\xfa"), "r.txt: not UTF-8 text"),
    "jsonl hit": (
        lambda: parse_run_bytes("r.jsonl", b'{"qid": "q1", "hits": [{"score": 1}]}\n'),
        "r.jsonl line 1, hit 0: needs 'doc_id' or 'chunk_id'",
    ),
    "jsonl json": (lambda: parse_run_bytes("r.jsonl", b'{"qid": \n'), "not valid JSON"),
    "write space": (
        lambda: format_qrels({"q1": {"my file.md#0": 1}}),
        "doc id 'my file.md#0' contains whitespace, which the TREC format cannot carry",
    ),
    "write grade": (
        lambda: format_qrels({"q1": {"d1": 1.5}}),
        "grade of query 'q1' doc 'd1' must be an integer; got 1.5",
    ),
    "write twice": (
        lambda: format_run({"q1": ["d1", "d1"]}),
        "run entry for query 'q1' lists an id more than once",
    ),
    "write empty": (
        lambda: format_run({"": ["d1"]}),
        "query id must be a non-empty string; got ''",
    ),
    "unknown queries": (
        lambda: check_queries(parse_run_bytes("r.txt", b"zz Q0 d1 1 0.5 t\n"), {"q1"}),
        "references 1 query id(s) that the question set lacks: 'zz'",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_qrels_or_run_file_is_worded_in_korean(case):
    make, english = BAD[case]
    with pytest.raises(NoticeError) as info:
        make()
    assert english in str(info.value)
    assert error_text(info.value, "en") == str(info.value)  # the English is the error's text
    ko = error_text(info.value, "ko")
    assert re.search("[가-힣]", ko), ko
    prose = re.sub(r"'[^']*'", "", ko)  # quoted: the file's text or the format's column names
    assert not latin_sentences(prose), (ko, latin_sentences(prose))


def test_a_bad_dataset_folder_or_zip_is_worded_in_korean(tmp_path):
    """The sidebar's BEIR/TREC folder and zip refusals (``dataset.*``, ``load.beir.*``)."""
    from rag_core.corpus.datasets import load_qrels_folder, parse_topics, safe_extract_zip

    (tmp_path / "beir").mkdir()
    (tmp_path / "beir" / "queries.jsonl").write_text('{"_id": "q1", "text": "x"}\n')
    (tmp_path / "trec").mkdir()
    (tmp_path / "trec" / "qrels.txt").write_text("q1 0 d1 1\n")
    cases = [
        (lambda: load_qrels_folder(tmp_path / "beir"), "lacks corpus.jsonl"),
        (lambda: load_qrels_folder(tmp_path / "trec"), "has no topics file"),
        (lambda: parse_topics("q1\n", "topics.tsv"), "topics.tsv line 1: expected 'qid<TAB>"),
        (lambda: safe_extract_zip(b"not a zip", tmp_path / "z"), "the upload is not a zip"),
    ]
    for make, english in cases:
        with pytest.raises(NoticeError) as info:
            make()
        assert english in str(info.value)
        ko = error_text(info.value, "ko")
        prose = re.sub(r"'[^']*'", "", ko)
        assert re.search("[가-힣]", ko) and not latin_sentences(prose), ko
