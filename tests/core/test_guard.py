"""One input boundary (issue 27, item 1): the reproduced cases of deep JSON, huge integers,
odd grades and the quadratic topics parser, each a clear one-line ``ValueError``."""

from __future__ import annotations

import contextlib
import json
import re
import time

import pytest

from rag_core.corpus.datasets import parse_topics
from rag_core.formats import guard
from rag_core.formats.questions import json_rows, parse_questions
from rag_core.formats.trec import parse_beir_qrels, parse_qrels, parse_run
from rag_core.gold.labels import check_span
from rag_core.retrieval.runs import parse_jsonl_run

DEEP = "[" * 100_000 + "]" * 100_000
HUGE = "9" * 400


def test_deep_json_line_is_refused_before_parsing():
    with pytest.raises(ValueError, match=r"^q\.jsonl line 1: JSON nested deeper than 64 levels$"):
        guard.json_line(DEEP, "q.jsonl line 1")
    deep_row = '{"_id": "1", "text": "x", "meta": ' + DEEP + "}"
    with pytest.raises(ValueError, match="nested deeper than 64"):
        list(json_rows([deep_row], "queries.jsonl"))


def test_brackets_inside_strings_do_not_count():
    assert guard.json_line(json.dumps({"text": "[" * 500}), "x") == {"text": "[" * 500}
    assert guard.json_depth('{"a": [[1]]}') <= guard.MAX_JSON_DEPTH


def test_huge_integer_is_refused_with_its_length():
    with pytest.raises(ValueError, match="a number with 1001 digits"):
        guard.json_line('{"n": ' + "1" * 1001 + "}", "x line 1")
    assert guard.json_line('{"n": ' + HUGE + "}", "x")["n"] == int(HUGE)  # under the cap


def test_question_set_with_deep_json_is_a_value_error():
    with pytest.raises(ValueError, match=r"questions line 1: JSON nested deeper"):
        parse_questions([DEEP], "questions")


def test_jsonl_run_deep_and_huge_score():
    with pytest.raises(ValueError, match=r"run\.jsonl line 1: JSON nested deeper"):
        parse_jsonl_run([DEEP], "run.jsonl")
    row = json.dumps({"qid": "q1", "hits": [{"doc_id": "d1", "score": 1}]}).replace(
        '"score": 1', f'"score": {HUGE}'
    )
    with pytest.raises(ValueError, match=r"run\.jsonl line 1, hit 0: score is not finite"):
        parse_jsonl_run([row], "run.jsonl")


def test_trec_run_with_a_400_digit_score_is_not_finite():
    with pytest.raises(ValueError, match="not finite"):
        parse_run([f"q1 Q0 d1 1 {HUGE} tag"], "run.txt")


@pytest.mark.parametrize("raw", ["1_0", "١٠", "１", "+1", "1.0", HUGE, "2000", "x", "10e1"])
def test_odd_grades_are_refused(raw):
    with pytest.raises(ValueError, match="qrels line 1"):
        parse_qrels([f"q1 0 d1 {raw}"], "qrels")
    if raw:
        with pytest.raises(ValueError, match="qrels.tsv line 2"):
            parse_beir_qrels(["query-id\tcorpus-id\tscore", f"q1\td1\t{raw}"], "qrels.tsv")


@pytest.mark.parametrize(("raw", "value"), [("0", 0), ("3", 3), ("-1", -1), ("100", 100)])
def test_plain_grades_pass(raw, value):
    assert parse_qrels([f"q1 0 d1 {raw}"])["q1"]["d1"] == value
    assert guard.grade(value, "x") == value


def test_a_grade_of_ten_to_the_twelve_is_refused_not_exponentiated():
    with pytest.raises(ValueError, match=r"\|grade\| ≤ 100"):
        guard.grade(10**12, "qrels line 1")
    with pytest.raises(ValueError, match="is not an integer"):
        guard.grade(True, "x")


def test_label_offsets_beyond_sqlite_are_refused():
    with pytest.raises(ValueError, match=r"start = 400 digits is out of range"):
        check_span("d1", int(HUGE), int(HUGE) + 1, "x")
    with pytest.raises(ValueError, match="start must be an integer"):
        check_span("d1", "0", 1, "x")


def test_nfc():
    assert guard.nfc("\u1112\u1161\u11ab") == "한"


# ------------------------------------------------------------------ topics: linear time


def _seconds(text: str) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        with contextlib.suppress(ValueError):  # most of these files hold no whole topic
            parse_topics(text, "topics")
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.parametrize(
    "unit",
    ["<top>", "<top><title>", "<top><num>1 <title>", "<TOP><num>\n"],
    ids=["unclosed", "unclosed-title", "unclosed-num-title", "upper"],
)
def test_topics_parser_is_linear(unit):
    small = unit * (250_000 // len(unit))
    big = unit * (1_000_000 // len(unit))  # 1 MB: the case that froze the server
    t_small, t_big = _seconds(small), _seconds(big)
    # the old regex took ~12 s on 100 KB; 4x the input must cost at most ~6x the time
    assert t_big <= 6 * t_small + 0.05, (t_small, t_big)


def test_topics_num_followed_by_spaces_is_linear():
    t_small = _seconds("<top><num>" + " " * 250_000 + "</top>")
    t_big = _seconds("<top><num>" + " " * 1_000_000 + "</top>")
    assert t_big <= 6 * t_small + 0.05, (t_small, t_big)


def test_topics_blocks_are_those_of_the_old_regex():
    text = (
        "<top><num> Number: 301\n<title> Topic: a  b\n</top>\n<top>\n<num>302\n<title>c</top><top>"
    )
    assert parse_topics(text) == {"301": "a b", "302": "c"}
    nested = "<top><num>1\n<top><title>x</top>"
    assert parse_topics(nested) == {"1": "x"}


# ------------------------------------------------------------------ BEIR folders


def _beir(tmp_path, queries: str, qrels: str):
    from rag_core.corpus.datasets import load_beir_set

    root = tmp_path / "beir"
    (root / "qrels").mkdir(parents=True)
    (root / "corpus.jsonl").write_text(
        '{"_id": "d1", "title": "", "text": "Hallasan is 1,950 m tall."}\n'
        '{"_id": "d2", "title": "", "text": "Seoraksan is 1,708 m tall."}\n',
        encoding="utf-8",
    )
    (root / "queries.jsonl").write_text(queries, encoding="utf-8")
    (root / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + qrels, "utf-8")
    return lambda: load_beir_set(root)


def test_beir_deep_query_line_is_a_clear_error(tmp_path):
    load = _beir(tmp_path, '{"_id": "q1", "text": "x"}\n' + DEEP + "\n", "q1\td1\t1\n")
    with pytest.raises(ValueError, match=r"queries\.jsonl line 2: JSON nested deeper than 64"):
        load()


@pytest.mark.parametrize("grade", [HUGE, "1_0", "٣"])
def test_beir_odd_grade_is_a_clear_error(tmp_path, grade):
    load = _beir(tmp_path, '{"_id": "q1", "text": "How tall?"}\n', f"q1\td1\t{grade}\n")
    with pytest.raises(ValueError, match=r"test\.tsv line 2: score .* (ASCII digits|range)"):
        load()


def test_beir_repeats_are_counted_and_the_first_line_kept(tmp_path, capsys):
    load = _beir(
        tmp_path,
        '{"_id": "q1", "text": "How tall is Hallasan?"}\n'
        '{"_id": "q1", "text": "a second text for q1"}\n'
        '{"_id": "q2", "text": "How tall is Seoraksan?"}\n',
        "q1\td1\t2\nq1\td1\t0\nq2\td2\t1\nq2\td2\t1\nq2\td9\t1\n",
    )
    corpus = tmp_path / "beir" / "corpus.jsonl"
    corpus.write_text(
        corpus.read_text("utf-8") + '{"_id": "d1", "title": "", "text": "another d1"}\n', "utf-8"
    )
    qset = load()
    assert dict(qset.duplicates) == {"documents": 1, "queries": 1, "judgements": 2}
    assert qset.queries["q1"] == "How tall is Hallasan?"  # the first line wins
    assert qset.qrels["q1"]["d1"] == 2
    assert qset.unknown_docs == ("d9",)
    lines = qset.warnings()
    assert "beir: 1 repeated queries dropped (the first line of each kept)" in lines
    assert "beir: 2 repeated judgements dropped (the first line of each kept)" in lines
    assert any("judge 1 document(s) the corpus lacks" in line and "'d9'" in line for line in lines)
    from rag_core.cli import main

    code = main(
        [
            "query",
            "--beir",
            str(tmp_path / "beir"),
            "--question-id",
            "q1",
            "--set",
            "generation.model=none",
        ]
    )
    err = capsys.readouterr().err
    assert code == 0 and "warning: beir: 1 repeated documents dropped" in err
    assert "the corpus lacks" in err


def test_query_with_a_run_of_unknown_query_ids_is_refused(tmp_path, capsys):
    from rag_core.cli import main

    unknown = tmp_path / "unknown.run"
    unknown.write_text("no-such-question Q0 a 1 1.0 t\n", encoding="utf-8")
    code = main(
        ["query", "How tall is Hallasan?", "--run", str(unknown), "--set", "generation.model=none"]
    )
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "references 1 query id(s)" in err
    known = tmp_path / "known.run"
    known.write_text("q1 Q0 a 1 1.0 t\n", encoding="utf-8")
    code = main(
        ["query", "How tall is Hallasan?", "--run", str(known), "--set", "generation.model=none"]
    )
    assert code == 0, capsys.readouterr().err


def test_nfd_needles_and_search_text_find_their_nfc_twin():
    import unicodedata

    from rag_core.gold.spans import occurrences

    nfc_text = "한라산의 높이는 1,950 m입니다. 한라산은 제주에 있습니다."
    nfd = unicodedata.normalize("NFD", "한라산")
    assert nfd != "한라산"
    assert occurrences(nfc_text, nfd) == occurrences(nfc_text, "한라산")
    assert len(occurrences(nfc_text, nfd)) == 2
    row = {
        "id": "ko-x",
        "question": unicodedata.normalize("NFD", "한라산의 높이는?"),
        "phrasings": [unicodedata.normalize("NFD", "한라산 높이")],
        "needles": [{"doc_id": "d", "text": unicodedata.normalize("NFD", "1,950 m입니다")}],
    }
    (q,) = parse_questions([json.dumps(row)])
    assert q.needles[0].text in nfc_text and q.question == "한라산의 높이는?"
    assert q.phrasings == ("한라산 높이",)


def test_a_needle_key_must_be_part_of_its_text():
    def row(**needle):
        return json.dumps({"id": "q", "question": "How high?", "needles": [needle]})

    (q,) = parse_questions([row(doc_id="d", text="rises 1,947 m, 2 m more", key="1,947 m")])
    assert q.needles[0].key == ("1,947 m",)
    (q,) = parse_questions([row(doc_id="d", text="from 15.6 to 71.0", key=["15.6", "71.0"])])
    assert q.needles[0].key == ("15.6", "71.0")
    for bad in ({"key": "2,100 m"}, {"key": 7}, {"keys": "1,947 m"}, {"key": ["1,947", ""]}):
        with pytest.raises(ValueError, match=re.escape("line 1: needle 0: 'key' must be a part")):
            parse_questions([row(doc_id="d", text="rises 1,947 m", **bad)])


@pytest.mark.parametrize("grade", ["2000", "1" + "0" * 12, HUGE])
def test_metrics_cli_refuses_a_huge_grade_in_one_line(tmp_path, capsys, grade):
    from rag_core.cli import main

    qrels = tmp_path / "qrels.txt"
    qrels.write_text(f"q1 0 d1 {grade}\nq1 0 d2 1\n", encoding="utf-8")
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\n", encoding="utf-8")
    code = main(["metrics", "--qrels", str(qrels), "--run", str(run), "--gain", "exp"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "qrels.txt line 1: grade" in err and "|grade| ≤ 100" in err


def test_run_pieces_hard_cuts_only_runs_longer_than_the_cap():
    spaced = "한라산의 높이는 " * 100
    assert guard.run_pieces(spaced) == [spaced]  # no run over the cap: one piece, unchanged
    line = "가" * (2 * guard.MAX_RUN + 10)
    text = "앞 " + line + " 뒤"
    pieces = guard.run_pieces(text)
    assert "".join(pieces) == text
    assert [len(p) for p in pieces] == [2 + guard.MAX_RUN, guard.MAX_RUN, 10 + 2]
    assert guard.run_pieces("abcdefg", 3) == ["abc", "def", "g"]
    assert guard.run_pieces("ab cd", 2) == ["ab cd"]
    with pytest.raises(ValueError, match="max_run = 0 must be an integer >= 1"):
        guard.run_pieces("x", 0)


def test_run_pieces_is_linear_on_many_runs_just_under_the_cap():
    text = ("나" * guard.MAX_RUN + " ") * 8_000  # 2 MB of runs one short of a cut
    start = time.perf_counter()
    assert guard.run_pieces(text) == [text]
    elapsed = time.perf_counter() - start
    start = time.perf_counter()
    text.split()  # one linear pass over the same text, the yardstick
    assert elapsed < 50 * (time.perf_counter() - start) + 0.5


def _beir_folder(root, n_docs: int):
    root.mkdir()
    rows = "".join(json.dumps({"_id": f"d{i}", "text": f"row {i}"}) + "\n" for i in range(n_docs))
    (root / "corpus.jsonl").write_text(rows)
    (root / "queries.jsonl").write_text('{"_id": "q1", "text": "row"}\n')
    (root / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    return root


def test_a_beir_corpus_over_its_time_budget_is_refused_with_the_reason(tmp_path):
    from rag_core.corpus.datasets import load_qrels_folder

    root = _beir_folder(tmp_path / "set", 20_000)
    assert len(load_qrels_folder(root).report.documents) == 20_000  # a chosen folder: no budget
    with pytest.raises(ValueError) as info:
        load_qrels_folder(root, time_budget_s=1e-6)
    message = str(info.value)
    assert "corpus.jsonl holds no loadable document" in message
    assert "took longer than the 1e-06 s loading budget" in message
    with pytest.raises(ValueError, match="must be a positive number of seconds"):
        load_qrels_folder(root, time_budget_s=0)
