"""The sidebar's upload report: encodings per file, skipped files and rows, no traceback."""

from __future__ import annotations

from helpers.app import make_app, ok, plain

GBK = (
    "中国的首都是北京，人口很多。这是一个测试文件，用于检查编码。"
    "研究人员发现这种方法可以提高检索的准确率。"
)


def test_upload_report_names_each_encoding_and_every_skipped_row(entry):
    at = make_app(entry, {"corpus": "upload", "lang": "en"})
    ok(at)
    files = [
        ("zh.txt", GBK.encode("gbk"), "text/plain"),
        (
            "u16.md",
            "# UTF-16\n\nA file saved as UTF-16 with a byte-order mark.\n".encode("utf-16"),
            "text/markdown",
        ),
        ("w.txt", "He said “hello” — and left… for 5€.".encode("cp1252"), "text/plain"),
        ("rows.csv", b'id,text\na,"unterminated\nb,second row\n', "text/csv"),
        ("deep.json", b"[" * 100_000, "application/json"),
        ("num.jsonl", b'{"id": "n", "text": "x", "v": ' + b"9" * 5000 + b"}", "application/json"),
        ("stray.html", ("<span>" * 20_000 + "stray text" + "</i>" * 20_000).encode(), "text/html"),
    ]
    at.file_uploader(key="uploads").set_value(files).run()
    assert not at.exception
    labels = [e.label for e in at.expander]
    assert "3 files or rows not loaded" in labels and "7 files: encoding and result" in labels
    # the Inspect page's Trace lists the same three once, in one box (not one warning each)
    assert "3 files or rows of this corpus were not loaded" in labels
    assert not any("not loaded:" in plain(w.value) for w in at.warning)
    text = plain(" ".join(m.value for m in at.markdown))
    for shown in (
        "**zh.txt** — encoding gb18030",
        "**u16.md** — encoding utf-16-le (BOM)",
        "**w.txt** — encoding cp1252",
        "also decodes as cp949; gb18030 chosen by character frequency",
        "rows.csv line 2: unterminated or malformed quote",
        "deep.json line 1: JSON nested deeper than 64 levels",
        "num.jsonl line 1: a number with 5000 digits",
    ):
        assert shown in text, shown
    assert any("Indexed 5 documents" in s.value for s in at.success)
    docs = at.session_state["_ctx"].corpus.docs
    assert (
        docs["zh"].text == GBK
        and docs["stray"].text == "stray text"
        and docs["b"].text == "second row"
    )


def test_file_lines_escape_markdown_in_names_reasons_and_notes():
    from rag_core.corpus.loaders import load_batch
    from ui.html import md
    from ui.upload_report import file_lines

    name = "[idlink](https://evil.example/id) ![p](http://127.0.0.1:8799/x.png).html"
    report = load_batch([(name, b"<body><nav>menu :red[x] <p>text")])
    lines = file_lines(report, "en")
    assert lines == [
        (
            f"- **{md(name)}** — encoding {md('utf-8')}, 1 documents, 0 failed, "
            f"{report.files[0].seconds:.2f} s"
        ),
        f"    - {md('a <nav> is never closed: its text is kept as page text')}",
    ]
    # md() also puts an invisible word joiner (U+2060) after "scheme:" so no autolink forms
    assert r"\[idlink\]\(https\:" + "\u2060//evil" in lines[0] and "](" not in lines[0]
