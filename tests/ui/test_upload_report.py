"""The sidebar's upload report: encodings per file, skipped files and rows, no traceback."""

from __future__ import annotations

from helpers.app import make_app, ok, plain
from helpers.latin import latin_sentences

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


def test_a_korean_upload_report_words_every_reason_and_note_in_korean(entry):
    """The skipped files and rows and the per-file notes come from ``load.*`` codes: in Korean
    no reason keeps the loader's English (a file name and Python's JSON message are data)."""
    at = make_app(entry, {"corpus": "upload", "lang": "ko"})
    files = [
        ("zh.txt", GBK.encode("gbk"), "text/plain"),
        ("rows.csv", b'id,text\na,"unterminated\nb,second row\n', "text/csv"),
        ("deep.json", b"[" * 100_000, "application/json"),
        ("cols.csv", b"name,body\nx,y\n", "text/csv"),
        ("bad.json", b'[{"id": "a", "text": 3}, {"text": "no id"}]', "application/json"),
        ("blank.md", "\u00a0\u200b \n".encode(), "text/markdown"),
        ("b.md", b"# b\n\nsame id", "text/markdown"),
    ]
    at.file_uploader(key="uploads").set_value(files).run()
    assert not at.exception
    text = plain(" ".join(m.value for m in at.markdown))
    for shown in (
        "cp949로도 읽히지만 문자 빈도로 gb18030을(를) 골랐습니다",
        "rows.csv 2행: 따옴표가 닫히지 않았거나 잘못되었습니다",
        "deep.json 1행: JSON이 64단계보다 깊게 중첩되어 있습니다",
        "cols.csv: CSV 머리글에 'id'와 'text' 열이 있어야 합니다; 찾은 열: name, body",
        "bad.json 1행: 'text'는 문자열이어야 합니다 (받은 형식: int)",
        "bad.json 1행: 'id'(또는 BEIR '_id')가 없습니다",
        "비어 있음: 공백이나 보이지 않는 문자",
        "doc_id 'b' 중복",
    ):
        assert shown in text, shown
    names = "zh txt rows csv deep json cols csv bad json blank md b md"
    found = [s for s in latin_sentences(text) if not set(s.split()) <= set(names.split())]
    assert not found, found
