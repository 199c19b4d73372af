"""Loaders: canonical text, formats, blocks, failure reasons, BEIR folders."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
from helpers.loaders import only_doc, only_reason
from helpers.paths import DATASETS

from rag_core.corpus.decoding import LOAD_BINARY, LOAD_UNDECODABLE
from rag_core.corpus.loaders import (
    DEFAULT_MAX_BYTES,
    MB,
    SUPPORTED_EXTENSIONS,
    canonicalize,
    load_beir,
    load_bytes,
    load_corpus,
    load_directory,
    load_file,
    load_paths,
    markdown_blocks,
    parse_front_matter,
)
from rag_core.wording import english, notice

#: The two refusals' English (what a load report's reason says).
UNDECODABLE = english(notice(LOAD_UNDECODABLE))
BINARY = english(notice(LOAD_BINARY))


def block_texts(doc):
    return [(b.kind, doc.text[b.start : b.end]) for b in doc.blocks]


# ------------------------------------------------------------------ canonical


def test_canonicalize_newlines_and_nfc():
    decomposed = unicodedata.normalize("NFD", "한라산 café")
    assert decomposed != "한라산 café"
    assert canonicalize(f"a\r\nb\rc\n{decomposed}") == "a\nb\nc\n한라산 café"


def test_crlf_file_offsets_refer_to_canonical_text():
    doc = only_doc(load_bytes("crlf.md", b"# T\r\n\r\nfirst line\r\nsecond\r\n"))
    assert "\r" not in doc.text
    assert block_texts(doc) == [("h1", "# T"), ("p", "first line\nsecond")]


# ------------------------------------------------------------------ markdown


def test_front_matter_fields_metadata_and_body():
    raw = (
        "---\ntitle: Jeju \nsource: 'the notes'\nversion: v2\nlang: ko\n---\n\n\n# "
        "Heading\n\nBody.\n"
    )
    doc = only_doc(load_bytes("jeju.md", raw.encode()))
    assert (doc.doc_id, doc.title, doc.source, doc.version) == ("jeju", "Jeju", "the notes", "v2")
    assert dict(doc.metadata) == {"lang": "ko"}
    assert doc.text == "# Heading\n\nBody.\n"
    assert doc.format == "md"


def test_title_falls_back_to_first_h1_then_stem():
    assert only_doc(load_bytes("a.md", b"intro\n## Sub\n# Main title\n")).title == "Main title"
    assert only_doc(load_bytes("my-notes.txt", b"no heading here\n")).title == "my-notes"
    assert only_doc(load_bytes("my-notes.txt", b"x")).format == "txt"


def test_unclosed_front_matter_is_text():
    fields, rest = parse_front_matter("---\ntitle: x\nno end\n")
    assert fields == {} and rest == "---\ntitle: x\nno end\n"


def test_markdown_blocks_kinds_and_spans():
    text = (
        "intro line\nsecond\n# Top\n## Sub\npara\n\n```\ncode\n\n## not a heading\n```\n| a | b "
        "|\n|---|---|\nafter table\n"
    )
    blocks = markdown_blocks(text)
    assert [(b.kind, text[b.start : b.end]) for b in blocks] == [
        ("p", "intro line\nsecond"),
        ("h1", "# Top"),
        ("h2", "## Sub"),
        ("p", "para"),
        ("pre", "```\ncode\n\n## not a heading\n```"),
        ("table", "| a | b |\n|---|---|"),
        ("p", "after table"),
    ]


# ---------------------------------------------------------------------- html

HTML = """<!doctype html><html><head><title>Page &amp; title</title>
<meta name="source" content="https://example.org/x"><meta name="version" content="7">
<style>p { color: red }</style><script>var hidden = "script text";</script></head>
<body><nav><a href="/">Home menu</a></nav>
<h1>Big   heading</h1>
<p>Hello   <b>bold</b>
   world.</p>
<div hidden><p>hidden text</p></div><p style="display: none">styled away</p>
<noscript>enable js</noscript><template><p>template text</p></template><svg><title>icon</title><text>svg text</text></svg>
<h2>Section two</h2>
<ul><li>first item</li><li>second <em>item</em></li></ul>
<table><caption>Prices</caption><tr><th>Model</th><th>Price</th></tr>
<tr><td>WD-8412</td><td><p>499 GBP</p></td></tr></table>
<pre>
line one
    indented   line
</pre>
<blockquote>quoted words</blockquote>
<dl><dt>term</dt><dd>definition</dd></dl>
<div>loose div text<p>inner paragraph</p>tail text</div>
<h3>Third</h3>
</body></html>"""  # noqa: E501 (the fixture keeps its hostile tags on one line)


def test_html_visible_text_blocks_and_metadata():
    doc = only_doc(load_bytes("page.html", HTML.encode()))
    assert (doc.doc_id, doc.title, doc.source, doc.version, doc.format) == (
        "page",
        "Page & title",
        "https://example.org/x",
        "7",
        "html",
    )
    expected = [
        ("h1", "# Big heading"),
        ("p", "Hello bold world."),
        ("h2", "## Section two"),
        ("li", "first item"),
        ("li", "second item"),
        ("caption", "Prices"),
        ("tr", "Model | Price"),
        ("tr", "WD-8412 | 499 GBP"),
        ("pre", "line one\n    indented   line"),
        ("blockquote", "quoted words"),
        ("dt", "term"),
        ("dd", "definition"),
        ("div", "loose div text"),
        ("p", "inner paragraph"),
        ("div", "tail text"),
        ("h3", "### Third"),
    ]
    assert block_texts(doc) == expected
    assert doc.text == "\n\n".join(t for _, t in expected)
    for dropped in (
        "script text",
        "Home menu",
        "hidden text",
        "styled away",
        "enable js",
        "template text",
        "svg text",
        "icon",
        "color",
    ):
        assert dropped not in doc.text


def test_html_title_falls_back_to_h1_then_stem():
    assert only_doc(load_bytes("x.htm", b"<h1>First</h1><p>t</p>")).title == "First"
    assert only_doc(load_bytes("stem-name.html", b"<p>only text</p>")).title == "stem-name"


def test_html_without_visible_text_fails():
    reason = only_reason(load_bytes("e.html", b"<html><script>x()</script><nav>menu</nav></html>"))
    assert reason == "empty: no visible text"


def test_html_korean_cp949_is_canonical():
    raw = "<p>한라산의 높이는 1,947m이다.</p>".encode("cp949")
    doc = only_doc(load_bytes("k.html", raw))
    assert doc.text == "한라산의 높이는 1,947m이다."


# ---------------------------------------------------------------------- rows


def test_jsonl_rows_good_and_malformed():
    data = "\n".join(
        [
            json.dumps(
                {
                    "id": "a",
                    "text": "alpha",
                    "title": "A",
                    "source": "s",
                    "version": "1",
                    "lang": "en",
                }
            ),
            "{not json",
            json.dumps([1, 2]),
            json.dumps({"id": "b"}),
            json.dumps({"text": "no id"}),
            "",
            json.dumps({"id": "c", "text": "   "}),
            json.dumps({"id": "d", "text": "delta"}),
        ]
    ).encode()
    report = load_bytes("rows.jsonl", data)
    assert [(d.doc_id, d.title, d.text, d.format) for d in report.documents] == [
        ("a", "A", "alpha", "row"),
        ("d", "d", "delta", "row"),
    ]
    assert report.documents[0].source == "s" and report.documents[0].version == "1"
    assert dict(report.documents[0].metadata) == {"lang": "en"}
    reasons = [f.reason for f in report.failed]
    assert reasons[0].startswith("rows.jsonl line 2: not valid JSON")
    assert reasons[1:] == [
        "rows.jsonl line 3: not a JSON object (got list)",
        "rows.jsonl line 4: missing 'text'",
        "rows.jsonl line 5: missing 'id' (or BEIR '_id')",
        "rows.jsonl line 7: empty 'text'",
    ]


def test_beir_rows_detected_by_underscore_id():
    data = b'{"_id": "d 1", "title": "", "text": "x"}\n{"_id": 7, "title": "T", "text": "y"}\n'
    report = load_bytes("corpus.jsonl", data)
    assert [(d.doc_id, d.title) for d in report.documents] == [("7", "T"), ("d 1", "d 1")]


def test_csv_rows_line_numbers_count_multiline_cells():
    data = b'id,text,title\na,hello,T\n,no id\n\nb,"multi\nline",\nc,x,y,extra\n'
    report = load_bytes("t.csv", data)
    assert [(d.doc_id, d.text, d.title) for d in report.documents] == [
        ("a", "hello", "T"),
        ("b", "multi\nline", "b"),
    ]
    assert [f.reason for f in report.failed] == [
        "t.csv line 3: missing 'id' (or BEIR '_id')",
        "t.csv line 7: 4 cells but the header has 3 columns",
    ]


def test_csv_without_id_column_fails_whole_file():
    assert only_reason(load_bytes("t.csv", b"name,body\nx,y\n")) == (
        "t.csv: CSV header must name 'id' and 'text' columns; found: name, body"
    )


def test_json_array_rows_report_lines():
    data = b'[\n  {"id": "a", "text": "x"},\n  5,\n  {"id": "b", "text": ""}\n]'
    report = load_bytes("r.json", data)
    assert [d.doc_id for d in report.documents] == ["a"]
    assert [f.reason for f in report.failed] == [
        "r.json line 3: not a JSON object (got int)",
        "r.json line 4: empty 'text'",
    ]
    assert only_reason(load_bytes("o.json", b'{"id": "a"}')) == (
        "o.json: a JSON file must hold an array of objects, not a dict"
    )
    assert only_reason(load_bytes("o.json", b"[{]")).startswith("o.json: not valid JSON")


# ------------------------------------------------------------------ decoding


@pytest.mark.parametrize("encoding", ["cp949", "euc-kr", "utf-8-sig", "utf-8"])
def test_korean_encodings_load(encoding):
    text = "# 제주\n\n한라산은 높이 1,947m의 화산이다.\n"
    doc = only_doc(load_bytes("ko.md", text.encode(encoding)))
    assert doc.text == text and doc.title == "제주"


def test_cp949_file_on_disk(tmp_path):
    p = tmp_path / "옛문서.txt"
    p.write_bytes("똠방각하: 확장 완성형 글자.".encode("cp949"))
    doc = only_doc(load_file(p))
    assert doc.text == "똠방각하: 확장 완성형 글자." and doc.path == str(p)


# ------------------------------------------------------------------ failures


def test_failure_reasons():
    assert only_reason(load_bytes("x.txt", b"abc\x00def")) == BINARY
    assert only_reason(load_bytes("x.txt", b"")) == "empty"
    assert only_reason(load_bytes("x.md", b" \n\t\r\n")) == "empty"
    assert only_reason(load_bytes("x.md", b"---\ntitle: t\n---\n\n")) == "empty"
    assert BINARY.startswith("binary file")
    assert only_doc(load_bytes("x.txt", b"caf\xe9 au lait")).text == "café au lait"  # CP1252
    assert only_reason(load_bytes("x.txt", bytes(range(0x80, 0x100)) * 8)) == UNDECODABLE
    assert only_reason(load_bytes("x.xyz", b"hello")) == (
        f"unsupported file type .xyz; supported: {', '.join(SUPPORTED_EXTENSIONS)}"
    )
    assert only_reason(load_bytes("Makefile", b"hello")).startswith(
        "unsupported file type (no extension);"
    )
    assert (
        only_reason(load_bytes("big.txt", b"a" * (MB + 1), max_bytes=MB))
        == "larger than the 1 MB cap"
    )
    assert DEFAULT_MAX_BYTES == 20 * MB


def test_size_cap_checked_before_reading(tmp_path):
    p = tmp_path / "big.md"
    p.write_bytes(b"x" * (2 * MB + 1))
    assert only_reason(load_file(p, max_bytes=2 * MB)) == "larger than the 2 MB cap"


def test_a_failure_never_stops_other_files(tmp_path):
    (tmp_path / "good.md").write_text("# Good\n\ntext\n", encoding="utf-8")
    (tmp_path / "bin.txt").write_bytes(b"\x00\x01")
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "pic.png").write_bytes(b"\x89PNG")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "good.txt").write_text("same stem, other file", encoding="utf-8")
    (tmp_path / "sub" / "other.html").write_text("<p>html</p>", encoding="utf-8")
    report = load_directory(tmp_path)
    assert [d.doc_id for d in report.documents] == ["good", "other"]
    assert report.n_documents == len(report.documents) == 2
    assert report.n_chars == sum(len(d.text) for d in report.documents)
    by_path = {Path(f.path).relative_to(tmp_path).as_posix(): f.reason for f in report.failed}
    assert by_path["bin.txt"] == BINARY
    assert by_path["empty.txt"] == "empty"
    assert by_path["pic.png"].startswith("unsupported file type .png")
    assert by_path["sub/good.txt"] == (
        f"duplicate doc_id 'good' (already loaded from {tmp_path / 'good.md'})"
    )


def test_load_directory_skips_hidden_and_questions(tmp_path):
    (tmp_path / "b.md").write_text("b", encoding="utf-8")
    (tmp_path / "a.md").write_text("a", encoding="utf-8")
    (tmp_path / ".hidden.md").write_text("h", encoding="utf-8")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x.md").write_text("g", encoding="utf-8")
    (tmp_path / "questions").mkdir()
    (tmp_path / "questions" / "q.jsonl").write_text('{"id": "q", "text": "?"}', encoding="utf-8")
    report = load_directory(tmp_path)
    assert [d.doc_id for d in report.documents] == ["a", "b"] and report.failed == ()
    with pytest.raises(
        ValueError, match=re.escape(f"{str(tmp_path / 'a.md')!r} is not a directory")
    ):
        load_directory(tmp_path / "a.md")


def test_load_paths_keeps_first_of_duplicates(tmp_path):
    (tmp_path / "x").mkdir()
    first, second = tmp_path / "x" / "d.md", tmp_path / "d.txt"
    first.write_text("first", encoding="utf-8")
    second.write_text("second", encoding="utf-8")
    report = load_paths([first, second])
    assert [d.text for d in report.documents] == ["first"]
    assert [f.path for f in report.failed] == [str(second)]


def test_load_corpus_prefers_docs_then_beir(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("in docs", encoding="utf-8")
    (tmp_path / "top.md").write_text("top level", encoding="utf-8")
    assert [d.doc_id for d in load_corpus(tmp_path).documents] == ["a"]
    beir = tmp_path / "beir"
    beir.mkdir()
    (beir / "corpus.jsonl").write_text(
        '{"_id": "1", "title": "t", "text": "doc"}\n', encoding="utf-8"
    )
    (beir / "queries.jsonl").write_text('{"_id": "q1", "text": "query"}\n', encoding="utf-8")
    assert [d.doc_id for d in load_corpus(beir).documents] == ["1"]
    assert [d.doc_id for d in load_corpus(tmp_path / "top.md").documents] == ["top"]


def test_load_beir_small(tmp_path):
    (tmp_path / "corpus.jsonl").write_text(
        '{"_id": "doc one", "title": "", "text": "a"}\n{"_id": "d2", "title": "", "text": "b"}\n',
        encoding="utf-8",
    )
    (tmp_path / "queries.jsonl").write_text('{"_id": "q 1", "text": "what"}\n', encoding="utf-8")
    (tmp_path / "qrels.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq 1\tdoc one\t2\nq 1\td2\t0\n", encoding="utf-8"
    )
    report, queries, qrels = load_beir(tmp_path)
    assert report.n_documents == 2
    assert queries == {"q 1": "what"}
    assert qrels == {"q 1": {"doc one": 2, "d2": 0}}
    (tmp_path / "qrels.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq 1\tdoc one\n", encoding="utf-8"
    )
    with pytest.raises(
        ValueError, match=re.escape("qrels.tsv line 2: expected 3 tab-separated cells")
    ):
        load_beir(tmp_path)
    (tmp_path / "queries.jsonl").unlink()
    with pytest.raises(ValueError, match=re.escape("lacks queries.jsonl")):
        load_beir(tmp_path)


def _nonblank_lines(path: Path) -> int:
    with path.open(encoding="utf-8") as fh:
        return sum(1 for line in fh if line.strip())


@pytest.mark.parametrize(
    "name, n_docs, n_queries, n_judgments",
    [("scifact", 5183, 300, 339), ("autorag_ko", 720, 114, 114)],
)
def test_load_beir_shared_datasets(name, n_docs, n_queries, n_judgments):
    root = DATASETS / name
    if not (root / "corpus.jsonl").is_file():
        pytest.skip(f"shared dataset folder {root} is absent on this machine")
    report, queries, qrels = load_beir(root)
    assert report.failed == ()
    # counts computed from the files themselves, and the published sizes
    assert report.n_documents == _nonblank_lines(root / "corpus.jsonl") == n_docs
    assert len(queries) == _nonblank_lines(root / "queries.jsonl") == n_queries
    assert (
        sum(len(v) for v in qrels.values())
        == _nonblank_lines(root / "qrels.tsv") - 1
        == n_judgments
    )
    ids = {d.doc_id for d in report.documents}
    assert all(doc_id in ids for judged in qrels.values() for doc_id in judged)
    assert set(qrels) <= set(queries)
