"""Hostile and realistic inputs: no exception escapes a loader, encodings users have,
forgiving HTML, and no row or file dropped without a word."""

from __future__ import annotations

import json
import os

import pytest
from helpers.loaders import only_doc, only_reason

from rag_core.cli import main
from rag_core.corpus.loaders import (
    MAX_INT_DIGITS,
    MAX_JSON_DEPTH,
    files,
    load_batch,
    load_bytes,
    load_corpus,
)


def one_line(reason: str) -> bool:
    return "\n" not in reason and "Traceback" not in reason and 0 < len(reason) < 300


# ------------------------------------------------------------ the four tracebacks


def test_csv_field_over_the_default_csv_limit_loads():
    big = "x" * 200_000  # > csv's default 131,072-character field limit
    doc = only_doc(load_bytes("big.csv", f'id,text\na,"{big}"\n'.encode()))
    assert doc.text == big


def test_deeply_nested_json_array_is_one_failed_row():
    deep = "[" * 100_000 + "]" * 100_000
    data = (
        f'[\n{{"id": "a", "text": "alpha"}},\n{{"id": "b", "text": "beta", "m": {deep}}}\n]'
    ).encode()
    report = load_bytes("deep.json", data)
    assert [d.doc_id for d in report.documents] == ["a"]
    assert [f.reason for f in report.failed] == [
        f"deep.json line 3: JSON nested deeper than {MAX_JSON_DEPTH} levels"
    ]


def test_deeply_nested_json_whole_file_fails_with_a_reason():
    reason = only_reason(load_bytes("deep.json", b"[" * 200_000))
    assert reason == f"deep.json line 1: JSON nested deeper than {MAX_JSON_DEPTH} levels"


def test_deeply_nested_jsonl_line_fails_alone():
    lines = [
        json.dumps({"id": "a", "text": "alpha"}),
        '{"id": "b", "text": "x", "m": ' + "[" * 50_000 + "]" * 50_000 + "}",
        '{"id": "c", "text": "x", "m": ' + '{"k": ' * 50_000 + "1" + "}" * 50_000 + "}",
        json.dumps({"id": "d", "text": "delta"}),
    ]
    report = load_bytes("deep.jsonl", "\n".join(lines).encode())
    assert [d.doc_id for d in report.documents] == ["a", "d"]
    assert [f.reason for f in report.failed] == [
        f"deep.jsonl line {n}: JSON nested deeper than {MAX_JSON_DEPTH} levels" for n in (2, 3)
    ]


@pytest.mark.parametrize("name, line", [("n.json", 3), ("n.jsonl", 2)])
def test_five_thousand_digit_number_is_a_failed_row(name, line):
    rows = [{"id": "a", "text": "alpha"}, "NUMBER", {"id": "c", "text": "gamma"}]
    number = '{"id": "b", "text": "x", "n": ' + "7" * 5000 + "}"
    if name.endswith(".jsonl"):
        data = "\n".join(number if r == "NUMBER" else json.dumps(r) for r in rows)
    else:
        data = "[\n" + ",\n".join(number if r == "NUMBER" else json.dumps(r) for r in rows) + "\n]"
    report = load_bytes(name, data.encode())
    assert [d.doc_id for d in report.documents] == ["a", "c"]
    assert [f.reason for f in report.failed] == [
        f"{name} line {line}: a number with 5000 digits (the cap is {MAX_INT_DIGITS})"
    ]


def test_number_as_the_id_within_the_cap_still_loads():
    assert only_doc(load_bytes("n.jsonl", b'{"id": 12345678901234567890, "text": "x"}')).doc_id == (
        "12345678901234567890"
    )


def test_an_unexpected_exception_becomes_a_named_failed_file(monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(files, "parse_html_with_notes", boom)
    report = load_batch(
        [("good.md", b"# Good\n\ntext"), ("bad.html", b"<p>x</p>"), ("ok.txt", b"ok")]
    )
    assert [d.doc_id for d in report.documents] == ["good", "ok"]
    assert [(f.path, f.reason) for f in report.failed] == [
        ("bad.html", "could not be loaded: RuntimeError: boom second line")
    ]
    assert [f.path for f in report.files] == ["good.md", "bad.html", "ok.txt"]


def test_recursion_error_from_anywhere_is_caught(monkeypatch):
    def recurse(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(files, "parse_markdown", recurse)
    reason = only_reason(load_bytes("r.md", b"text"))
    assert reason == "could not be loaded: RecursionError: maximum recursion depth exceeded"


def test_time_budget_exceeded_is_a_failed_file():
    html = ("<div>" + "<p>word</p>" * 2000 + "</div>").encode()
    reason = only_reason(load_bytes("slow.html", html, time_budget_s=1e-9))
    assert reason.startswith("took longer than the 1e-09 s loading budget")
    assert only_doc(load_bytes("slow.html", html)).text.count("word") == 2000
    with pytest.raises(ValueError, match="time_budget_s"):
        load_bytes("x.md", b"x", time_budget_s=0)


# ----------------------------------------------------------------------- encodings

PARAGRAPH = {
    "fr": "Le café au lait est très bon à Genève. Une façade naïve, déjà vue.",
    "cp1252": "He said “hello” — and left… Price: 5€ for a crème brûlée.",
    "zh": "中国的首都是北京，人口很多。这是一个测试文件，用于检查编码。"
    "研究人员发现这种方法可以提高检索的准确率。",
    "ja": "漢拏山は済州島にある山で、標高は千九百四十七メートルです。韓国で最も高い山です。",
    "ko": "한라산은 제주도에 있는 산이다. 높이는 1,947미터이며 남한에서 가장 높다.",
}


@pytest.mark.parametrize(
    "key, codec, shown",
    [
        ("ko", "utf-16", "utf-16-le (BOM)"),
        ("fr", "utf-16-be", "utf-16-be (BOM)"),
        ("zh", "utf-32", "utf-32-le (BOM)"),
        ("fr", "latin-1", "cp1252"),
        ("cp1252", "cp1252", "cp1252"),
        ("zh", "gbk", "gb18030"),
        ("ja", "shift_jis", "cp932"),
        ("ko", "cp949", "cp949"),
        ("ko", "utf-8", "utf-8"),
    ],
)
def test_encodings_users_have_load_and_are_reported(key, codec, shown):
    text = f"# {key}\n\n{PARAGRAPH[key]}\n"
    data = text.encode(codec)
    if codec == "utf-16-be":
        data = b"\xfe\xff" + data
    report = load_bytes(f"{key}.md", data)
    assert only_doc(report).text == text
    assert [(f.path, f.encoding, f.n_documents) for f in report.files] == [(f"{key}.md", shown, 1)]


def test_gbk_chinese_that_also_decodes_as_cp949_is_not_mojibake():
    data = PARAGRAPH["zh"].encode("gbk")
    mojibake = data.decode("cp949")  # strictly valid CP949: the old rule took it silently
    assert mojibake != PARAGRAPH["zh"]
    report = load_bytes("zh.txt", data)
    assert only_doc(report).text == PARAGRAPH["zh"]
    assert report.files[0].encoding == "gb18030"
    assert report.files[0].notes == (
        "also decodes as cp949; gb18030 chosen by character frequency",
    )


def test_too_short_to_tell_keeps_cp949_but_says_what_the_detector_saw():
    # three GBK characters: both readings are plausible; CP949 stays (the Korean rule), with a note
    report = load_bytes("zh.txt", "我爱你".encode("gbk"))
    assert report.files[0].encoding == "cp949"
    assert report.files[0].notes == (
        "the detector suggests big5; cp949 kept (no more frequent characters in that reading)",
    )


def test_short_korean_stays_cp949():
    for text in ("한라산의 높이는 1,947m이다.", "똠방각하: 확장 완성형 글자.", "제주"):
        report = load_bytes("k.txt", text.encode("cp949"))
        assert only_doc(report).text == text and report.files[0].encoding == "cp949"


def test_only_binary_data_is_refused_and_says_so():
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4
    reason = only_reason(load_bytes("pic.txt", png))
    assert reason.startswith("binary file") and one_line(reason)
    report = load_bytes("pic.txt", png)
    assert report.files[0].encoding == ""


def test_utf16_without_bom_is_detected():
    text = "Hello world, this is a UTF-16 text file without a byte-order mark."
    report = load_bytes("u.txt", text.encode("utf-16-le"))
    assert only_doc(report).text == text and report.files[0].encoding == "utf_16_le"


@pytest.mark.parametrize(
    "name, data",
    [
        ("blank.txt", "\u00a0\u200b \u200c\u200d\ufeff\u2060\n\u3000".encode("utf-8")),
        ("blank.md", "\u00a0\u00a0\n\u200b".encode("utf-8")),
        ("blank.html", "<p>&nbsp;&#8203;\u200b</p>".encode("utf-8")),
    ],
)
def test_only_invisible_characters_is_empty(name, data):
    reason = only_reason(load_bytes(name, data))
    assert reason.startswith("empty")


def test_invisible_row_text_is_an_empty_row():
    report = load_bytes(
        "r.jsonl", '{"id": "a", "text": "\u00a0\u200b"}\n{"id": "b", "text": "ok"}'.encode()
    )
    assert [d.doc_id for d in report.documents] == ["b"]
    assert [f.reason for f in report.failed] == ["r.jsonl line 1: empty 'text'"]


# ---------------------------------------------------------------------------- HTML


@pytest.mark.parametrize(
    "markup, expected",
    [
        # valid HTML5: </head>, </body>, </html> are optional
        (
            "<!doctype html><html><head><title>T</title><meta charset=utf-8><body><p>Visible text",
            ["Visible text"],
        ),
        ("<title>T</title><p>No head or body tags at all", ["No head or body tags at all"]),
        # an unclosed nav: <main> cannot be inside a nav, so it ends there
        ("<body><nav><a href=/>Home</a><main><p>Body text</p></main></body>", ["Body text"]),
        # a nav never closed at all: its text is kept rather than losing the page
        ("<body><nav><a href=/>Home</a> <p>Everything after", ["Home", "Everything after"]),
        # malformed: unclosed tags, stray end tags, a broken attribute, an unclosed comment
        ("<p>one<p>two<div>three</span></b></em>four", ["one", "two", "three", "four"]),
        ("<p class='a>broken attribute</p><p>after</p>", ["after"]),
        ("<p>kept</p><!-- never closed <p>hidden", ["kept"]),
        ("<ul><li>a<li>b</ul><table><tr><td>c<td>d</table>", ["a", "b", "c | d"]),
    ],
)
def test_malformed_html_loads_its_visible_text(markup, expected):
    doc = only_doc(load_bytes("m.html", markup.encode()))
    assert all(e in doc.text for e in expected), doc.text


def test_head_content_is_still_invisible_without_closing_head():
    doc = only_doc(
        load_bytes(
            "h.html", b"<head><title>T</title><style>p{}</style><script>var s;</script><p>Body"
        )
    )
    assert doc.text == "Body" and doc.title == "T"


def test_stray_end_tags_and_deep_nesting_load_the_text():
    n = 60_000
    doc = only_doc(load_bytes("stray.html", ("<span>" * n + "needle text" + "</i>" * n).encode()))
    assert doc.text == "needle text"
    doc = only_doc(load_bytes("deep.html", ("<div>" * n + "deep text" + "</div>" * n).encode()))
    assert doc.text == "deep text"


# --------------------------------------------------------- nothing dropped silently


def test_csv_unterminated_quote_does_not_swallow_the_next_rows():
    report = load_bytes("q.csv", b'id,text\na,"unterminated\nb,second row\nc,third\n')
    assert [(d.doc_id, d.text) for d in report.documents] == [("b", "second row"), ("c", "third")]
    assert [f.reason for f in report.failed] == [
        (
            "q.csv line 2: unterminated or malformed quote (the cell ran over 2 more lines); "
            "the lines after it were read as rows"
        )
    ]


def test_csv_quote_closed_on_a_later_line_is_reported():
    report = load_bytes("q.csv", b'id,text\na,"bad\nb,"good"\nc,x\n')
    assert [(d.doc_id, d.text) for d in report.documents] == [("b", "good"), ("c", "x")]
    assert [f.reason for f in report.failed] == [
        (
            "q.csv line 2: unterminated or malformed quote (the cell ran over 1 more line); "
            "the lines after it were read as rows"
        )
    ]


def test_csv_valid_multiline_cell_is_not_reported():
    report = load_bytes("q.csv", b'id,text\na,"two\nlines"\nb,"say ""hi""\nthere"\n')
    assert [(d.doc_id, d.text) for d in report.documents] == [
        ("a", "two\nlines"),
        ("b", 'say "hi"\nthere'),
    ]
    assert report.failed == ()


def _bad_corpus(tmp_path):
    (tmp_path / "good.md").write_text(
        "# Good\n\n한라산의 높이는 1,947미터이다.\n", encoding="utf-8"
    )
    (tmp_path / "rows.jsonl").write_text(
        '{"id": "r1", "text": "row one"}\n{broken\n', encoding="utf-8"
    )
    os.symlink(tmp_path / "missing-target.md", tmp_path / "dangling.md")
    return tmp_path


def test_dangling_file_in_a_corpus_is_listed(tmp_path):
    report = load_corpus(_bad_corpus(tmp_path))
    assert [d.doc_id for d in report.documents] == ["good", "r1"]
    reasons = {os.path.basename(f.path): f.reason for f in report.failed}
    assert reasons["dangling.md"].startswith("cannot read")
    assert reasons["rows.jsonl"].startswith("rows.jsonl line 2: not valid JSON")


def test_cli_query_lists_skipped_files_and_rows_on_stderr_and_in_the_trace(tmp_path, capsys):
    corpus = _bad_corpus(tmp_path)
    code = main(
        [
            "query",
            "한라산의 높이는?",
            "--corpus",
            str(corpus),
            "--preset",
            "C",
            "--set",
            "retrieval.analyzer=char",
            "--set",
            "generation.model=none",
            "--json",
        ]
    )
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "Traceback" not in out.err
    err_lines = [line for line in out.err.splitlines() if line.startswith("warning: not loaded:")]
    assert len(err_lines) == 2
    assert any("dangling.md" in line and "cannot read" in line for line in err_lines)
    assert any("rows.jsonl line 2: not valid JSON" in line for line in err_lines)
    trace = json.loads(out.out)
    load_warnings = [w for w in trace["warnings"] if w.startswith("not loaded:")]
    assert [w.removeprefix("warning: ") for w in err_lines] == load_warnings


@pytest.mark.parametrize(
    "content, name",
    [
        (b'id,text\na,"' + b"x" * 200_000 + b'"\n', "big.csv"),
        (b"[" * 100_000, "deep.json"),
        (b'{"id": "n", "text": "x", "v": ' + b"9" * 5000 + b"}", "num.jsonl"),
        (("<span>" * 20_000 + "t" + "</i>" * 20_000).encode(), "stray.html"),
    ],
)
def test_cli_chunk_on_a_hostile_file_never_tracebacks(tmp_path, capsys, content, name):
    p = tmp_path / name
    p.write_bytes(content)
    code = main(["chunk", "--doc", str(p), "--strategy", "boundaries", "--json"])
    out = capsys.readouterr()
    assert "Traceback" not in out.err and code in (0, 2)
    if code == 2:
        assert out.err.startswith("error: --doc") and len(out.err.strip().splitlines()) == 1


def test_per_file_counts_add_up_with_duplicates():
    filler = "".join(f"f{i},row {i}\n" for i in range(1500)).encode()
    report = load_batch(
        [
            (
                "a.jsonl",
                b'{"id": "x", "text": "1"}\n{"id": "x", "text": "2"}\n{"id": "y", "text": "3"}',
            ),
            ("x.md", b"again x"),
            ("z.csv", b"id,text\n" + filler + b"w,one,cell too many\nv,fine\n"),
        ]
    )
    assert [(f.path, f.n_documents, f.n_failed) for f in report.files] == [
        ("a.jsonl", 2, 1),
        ("x.md", 0, 1),
        ("z.csv", 1500 + 1, 1),
    ]
    assert sum(f.n_documents for f in report.files) == report.n_documents == 2 + 1501
    assert sum(f.n_failed for f in report.files) == len(report.failed) == 3
    assert f"z.csv line {1 + 1500 + 1}: 3 cells but the header has 2 columns" in [
        f.reason for f in report.failed
    ]


def test_cli_query_on_a_corpus_with_nothing_loadable_names_the_reason(tmp_path, capsys):
    p = tmp_path / "deep.json"
    p.write_bytes(b"[" * 100_000)
    code = main(["query", "x", "--corpus", str(p), "--set", "generation.model=none"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert err.strip().splitlines() == [
        (
            f"error: corpus 'deep.json' has no loadable document (1 failed to load: {p}: "
            f"deep.json line 1: JSON nested deeper than {MAX_JSON_DEPTH} levels)"
        )
    ]
