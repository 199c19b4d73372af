"""The Check page's and ``support``'s rows read through the input boundary (issue 38, item 3):
the guard's JSON caps, the corpus loaders' decoding, stated caps per row, a lone surrogate, a
citation of 5,000 digits — each a one-line refusal naming file and line (or a checked row),
and every row after a bad one still checked."""

from __future__ import annotations

import json
import time

import pytest

import rag_core.models as models
from rag_core.answer.checkfile import (
    MAX_ANSWER_CHARS,
    MAX_CLAIMS,
    MAX_CONTEXT_CHARS,
    MAX_CONTEXTS,
    MAX_CONTEXTS_CHARS,
    MAX_QUESTION_CHARS,
    ROW_ANSWER_TOO_LONG,
    ROW_CONTEXT_TOO_LONG,
    ROW_CONTEXTS_TOO_LONG,
    ROW_NOT_JSON,
    ROW_NOT_TEXT,
    ROW_QUESTION_TOO_LONG,
    ROW_TOO_MANY_CLAIMS,
    ROW_TOO_MANY_CONTEXTS,
    Row,
    RowError,
    check_file,
    parse_bytes,
)
from rag_core.answer.claims import citations_in
from rag_core.config import SupportConfig
from rag_core.formats.guard import JSON_LONG_NUMBER, JSON_TOO_DEEP
from rag_core.models import ModelUnavailable
from rag_core.wording import english

GOOD = {"id": "good", "contexts": ["Cats purr when they are content."], "answer": "Cats purr [1]."}
KO = {"id": "ko", "contexts": ["한라산은 해발 1,947m이다."], "answer": "한라산은 1,947m이다 [1]."}
FR = {"id": "fr", "contexts": ["Le café est très chaud."], "answer": "Le café est très chaud [1]."}


@pytest.fixture(autouse=True)
def no_embedder(monkeypatch):
    def missing(name, *a, **k):
        raise ModelUnavailable(name, "not in this test")

    monkeypatch.setattr(models, "get_embedder", missing)


def _rows(data: bytes) -> list[Row | RowError]:
    return list(parse_bytes(data, "rows.jsonl"))


def _line(obj: object) -> bytes:
    return json.dumps(obj, ensure_ascii=False).encode() + b"\n"


def _problem(item: Row | RowError) -> str:
    assert isinstance(item, RowError), item
    return item.problem.code


# ------------------------------------------------------------------ the guard


def test_a_line_nested_100k_deep_is_one_refusal_and_the_next_row_is_read():
    """Before: RecursionError from json.loads, and ``support`` stopped there."""
    got = _rows(b"[" * 100_000 + b"]" * 100_000 + b"\n" + _line(GOOD))
    assert _problem(got[0]) == JSON_TOO_DEEP and (got[0].file, got[0].line) == ("rows.jsonl", 1)
    assert str(got[0]) == "rows.jsonl:1: JSON nested deeper than 64 levels"
    assert isinstance(got[1], Row) and got[1].id == "good"


def test_a_5000_digit_id_is_one_refusal():
    """Before: ValueError (int max str digits) out of json.loads: a traceback."""
    got = _rows(b'{"id": ' + b"7" * 5000 + b', "contexts": ["x"], "answer": "y"}\n' + _line(GOOD))
    assert _problem(got[0]) == JSON_LONG_NUMBER
    assert str(got[0]) == "rows.jsonl:1: a number with 5000 digits (the cap is 1000)"
    assert isinstance(got[1], Row)


def test_broken_json_is_still_not_json_with_the_parsers_column():
    got = _rows(b"{oops\n")
    assert _problem(got[0]) == ROW_NOT_JSON
    assert str(got[0]) == (
        "rows.jsonl:1: not a JSON value (Expecting property name enclosed in double quotes "
        "at column 2)"
    )


@pytest.mark.parametrize(
    ("row", "field", "at"),
    [
        ({"contexts": ["x"], "answer": "ok \ud800 then"}, "answer", 4),
        ({"contexts": ["x", "a\udfffb"], "answer": "y"}, "contexts[2]", 2),
        ({"question": "\ud83d", "contexts": ["x"], "answer": "y"}, "question", 1),
        ({"id": "\udc00", "contexts": ["x"], "answer": "y"}, "id", 1),
    ],
)
def test_a_lone_surrogate_is_refused_naming_the_field(row, field, at):
    """Before: the row was checked and its output raised UnicodeEncodeError."""
    got = _rows(json.dumps(row).encode() + b"\n" + _line(GOOD))
    assert _problem(got[0]) == ROW_NOT_TEXT and got[0].problem.params == {"field": field, "at": at}
    assert isinstance(got[1], Row)


def test_a_citation_of_5000_digits_is_checked_not_a_traceback(tmp_path):
    """Before: ``int()`` of the cited number raised ValueError in the citation reader."""
    answer = "Cats purr [" + "9" * 5000 + "]."
    assert citations_in(answer) == (10**9,)
    assert citations_in("a [007] b [1234567890] c [3]") == (7, 10**9, 3)
    path = tmp_path / "rows.jsonl"
    path.write_bytes(_line({"contexts": ["Cats purr."], "answer": answer}))
    [res] = check_file(path, SupportConfig(), embedder=None)
    assert res["claims"] and res["claims"][0]["verdict"] == "invalid-citation"


# ------------------------------------------------------------------ decoding


@pytest.mark.parametrize(
    ("encoding", "bom", "row"),
    [
        ("cp949", b"", KO),
        ("cp1252", b"", FR),
        ("utf-16-le", b"\xff\xfe", KO),
        ("utf-8", b"\xef\xbb\xbf", KO),
    ],
)
def test_a_file_is_decoded_as_the_corpus_loaders_decode_one(encoding, bom, row):
    """Before: decoded as UTF-8 with errors="replace": CP949 and CP1252 were checked as
    mojibake, and a UTF-8 BOM made the first row unreadable."""
    data = bom + (_line(row) + _line(GOOD)).decode().encode(encoding)
    got = _rows(data)
    assert [type(g) for g in got] == [Row, Row], got
    assert got[0].answer == row["answer"] and got[0].contexts == tuple(row["contexts"])


def test_bytes_that_are_no_text_are_one_refusal_naming_the_file():
    got = _rows(b"\x00\x01\x02\x03" * 4000)
    assert len(got) == 1 and got[0].line == 0
    assert str(got[0]).startswith("rows.jsonl: ")


# ------------------------------------------------------------------ caps


def _answer_with_claims(n: int) -> str:
    return " ".join(f"Claim {i} is here." for i in range(n))


@pytest.mark.parametrize(
    ("row", "code", "params"),
    [
        (
            {"contexts": ["x"], "answer": "a" * (MAX_ANSWER_CHARS + 1)},
            ROW_ANSWER_TOO_LONG,
            {"chars": MAX_ANSWER_CHARS + 1, "limit": MAX_ANSWER_CHARS},
        ),
        (
            {"contexts": ["x"], "answer": _answer_with_claims(MAX_CLAIMS + 1)},
            ROW_TOO_MANY_CLAIMS,
            {"n": MAX_CLAIMS + 1, "limit": MAX_CLAIMS},
        ),
        (
            {"contexts": ["x"] * (MAX_CONTEXTS + 1), "answer": "y"},
            ROW_TOO_MANY_CONTEXTS,
            {"n": MAX_CONTEXTS + 1, "limit": MAX_CONTEXTS},
        ),
        (
            {"contexts": ["x", "c" * (MAX_CONTEXT_CHARS + 1)], "answer": "y"},
            ROW_CONTEXT_TOO_LONG,
            {"n": 2, "chars": MAX_CONTEXT_CHARS + 1, "limit": MAX_CONTEXT_CHARS},
        ),
        (
            {"contexts": ["c" * MAX_CONTEXT_CHARS] * 3, "answer": "y"},
            ROW_CONTEXTS_TOO_LONG,
            {"chars": 3 * MAX_CONTEXT_CHARS, "limit": MAX_CONTEXTS_CHARS},
        ),
        (
            {"question": "q" * (MAX_QUESTION_CHARS + 1), "contexts": ["x"], "answer": "y"},
            ROW_QUESTION_TOO_LONG,
            {"chars": MAX_QUESTION_CHARS + 1, "limit": MAX_QUESTION_CHARS},
        ),
    ],
)
def test_each_cap_is_one_refusal_and_the_next_row_is_checked(row, code, params):
    got = _rows(_line(row) + _line(GOOD))
    assert _problem(got[0]) == code and got[0].problem.params == params
    assert isinstance(got[1], Row)


def test_a_row_at_every_cap_is_read():
    row = {
        "question": "q" * MAX_QUESTION_CHARS,
        "contexts": ["c" * (MAX_CONTEXTS_CHARS // MAX_CONTEXTS)] * MAX_CONTEXTS,
        "answer": _answer_with_claims(MAX_CLAIMS),
    }
    assert isinstance(_rows(_line(row))[0], Row)


@pytest.mark.parametrize(
    "row",
    [
        {"contexts": ["x"], "answer": "A claim here. " * 700_000},  # 10 MB answer
        {"contexts": ["x"], "answer": _answer_with_claims(7_000)[:MAX_ANSWER_CHARS]},
        {"contexts": ["Cats purr."] * 10_000, "answer": "Cats purr [1]."},
    ],
)
def test_the_probes_oversized_rows_are_refused_in_well_under_a_second(row):
    """Before: a 10 MB answer > 240 s, 2,000–7,000 claims 122–141 s, one row of 10,000
    contexts > 300 s (the probe's machine)."""
    data = _line(row)
    t0 = time.perf_counter()
    got = _rows(data)
    took = time.perf_counter() - t0
    assert isinstance(got[0], RowError) and took < 2.0, (took, english(got[0].problem))


# ------------------------------------------------------------------ the CLI


def test_support_refuses_each_bad_row_in_one_line_and_checks_the_rest(tmp_path, capsys):
    from rag_core.cli import main

    rows = tmp_path / "rows.jsonl"
    rows.write_bytes(
        b"[" * 100_000
        + b"]" * 100_000
        + b"\n"
        + json.dumps({"contexts": ["x"], "answer": "ok \ud800"}).encode()
        + b"\n"
        + b'{"id": '
        + b"1" * 5000
        + b"}\n"
        + _line(GOOD)
    )
    out = tmp_path / "out.jsonl"
    code = main(["support", str(rows), "--output", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert err == [
        "error: rows.jsonl:1: JSON nested deeper than 64 levels",
        (
            "error: rows.jsonl:2: answer holds a lone surrogate (an unpaired \\ud800–\\udfff) "
            "at character 4: not Unicode text"
        ),
        "error: rows.jsonl:3: a number with 5000 digits (the cap is 1000)",
    ]
    written = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in written] == ["good"]


def test_support_reads_a_cp949_file(tmp_path, capsys):
    from rag_core.cli import main

    rows = tmp_path / "rows.jsonl"
    rows.write_bytes(_line(KO).decode().encode("cp949"))
    assert main(["support", str(rows), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["id"] == "ko" and res["claims"][0]["text"].startswith("한라산은")
