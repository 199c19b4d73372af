"""An uploaded BEIR zip: messages name the zip, never the server's temporary folder, and
skipped members reach the QrelsSet (issue 27)."""

from __future__ import annotations

import io
import json
import struct
import zipfile

import pytest

from rag_core.wording import english
from ui import cache
from ui.i18n import notice_text


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


BEIR = {
    "corpus.jsonl": b'{"_id": "d1", "title": "", "text": "Hallasan is 1,950 m tall."}\n',
    "queries.jsonl": b'{"_id": "q1", "text": "How tall is Hallasan?"}\n',
    "qrels/test.tsv": b"query-id\tcorpus-id\tscore\nq1\td1\t1\n",
}


@pytest.mark.parametrize(
    "members",
    [{}, {"a/corpus.jsonl": b"{}", "b/queries.jsonl": b"{}"}, {"x.txt": b"x"}],
    ids=["empty", "two-roots", "no-dataset"],
)
def test_zip_errors_never_show_the_temporary_folder(members):
    with pytest.raises(ValueError) as info:
        cache.beir_zip_index(_zip(members), "test")
    message = str(info.value)
    assert "rag-inspector-beir-" not in message and "/tmp" not in message, message


def test_skipped_members_are_reported_with_the_set():
    data = _zip({**{f"set/{k}": v for k, v in BEIR.items()}, "set/.": b"x"})
    _, qset, _ = cache.beir_zip_index(data, "test")
    assert len(qset.questions) == 1
    said = tuple(english(n) for n in qset.skipped)
    assert said == ("zip member 'set/.' skipped: it names a folder, not a file",)
    assert said[0] in qset.warnings()
    assert (
        notice_text(qset.skipped[0], "ko")
        == "zip 항목 'set/.' 건너뜀: 파일이 아니라 폴더 이름입니다"
    )


def test_without_folder():
    assert cache._without_folder("BEIR folder '/tmp/x/a' lacks b", "/tmp/x") == (
        "BEIR folder 'a' lacks b"
    )
    assert (
        cache._without_folder("folder '/tmp/x' is empty", "/tmp/x") == "folder 'the zip' is empty"
    )


def test_an_uploaded_zips_corpus_has_the_loaders_time_budget(monkeypatch):
    from rag_core.corpus import loaders

    rows = "".join(f'{{"_id": "d{i}", "title": "", "text": "row {i}"}}\n' for i in range(20_000))
    data = _zip({**{f"set/{k}": v for k, v in BEIR.items()}, "set/corpus.jsonl": rows.encode()})
    monkeypatch.setattr(loaders, "DEFAULT_TIME_BUDGET_S", 1e-6)
    with pytest.raises(ValueError, match="took longer than the 1e-06 s loading budget"):
        cache.beir_zip_index(data, "test")
    monkeypatch.setattr(loaders, "DEFAULT_TIME_BUDGET_S", 60.0)
    _, qset, _ = cache.beir_zip_index(data, "test")
    assert len(qset.report.documents) == 20_000


@pytest.mark.slow
def test_200_repeated_1_mb_rows_are_counted_and_the_first_kept_whole():
    """The probe's zip: 200 rows of one ``_id``, 1 MB each. One document loads, whole (not
    truncated), and 199 repeats are counted for the sidebar's warning and the CLI's stderr."""
    text = ("Hallasan is 1,950 m tall. " * 40_400)[:1_000_000]
    rows = "".join(
        json.dumps({"_id": "d1", "title": "", "text": f"{i} {text}"}) + "\n" for i in range(200)
    )
    data = _zip({**{f"set/{k}": v for k, v in BEIR.items()}, "set/corpus.jsonl": rows.encode()})
    assert len(data) < 2_000_000
    _, qset, _ = cache.beir_zip_index(data, "test")
    (doc,) = qset.report.documents
    assert doc.text == f"0 {text}"  # the first row, every character of it
    assert dict(qset.duplicates)["documents"] == 199
    assert "set: 199 repeated documents dropped (the first line of each kept)" in qset.warnings()
    assert len(qset.report.failed) == 199


def _patch(data: bytes, name: str, field: str, value: int) -> bytes:
    """Set the 2-byte ``field`` (``flags`` or ``method``) of member ``name`` in its local and
    central headers (zipfile writes neither an encrypted nor a PPMd member itself)."""
    out = bytearray(data)
    raw = name.encode()
    shift = {"flags": 0, "method": 2}[field]
    for sig, field_at, name_at in ((b"PK\x03\x04", 6, 30), (b"PK\x01\x02", 8, 46)):
        pos = 0
        while (pos := out.find(sig, pos)) >= 0:
            if out[pos + name_at : pos + name_at + len(raw)] == raw:
                at = pos + field_at + shift
                out[at : at + 2] = struct.pack("<H", value)
            pos += 4
    return bytes(out)


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("flags", 0x1, "it is encrypted"),
        ("method", 98, "compression method 98 is not supported (use deflate)"),
    ],
    ids=["encrypted", "ppmd"],
)
def test_a_refused_zip_names_the_member_that_was_not_unpacked(field, value, why):
    """The refusal said only "lacks corpus.jsonl" when corpus.jsonl was in the zip but could
    not be unpacked; it now names the member and why, then the refusal."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        for name, data in BEIR.items():
            zf.writestr(f"set/{name}", data)
    data = _patch(buf.getvalue(), "set/corpus.jsonl", field, value)
    with pytest.raises(ValueError) as info:
        cache.beir_zip_index(data, "test")
    assert str(info.value) == (
        f"zip member 'set/corpus.jsonl' skipped: {why}; BEIR folder 'set' lacks corpus.jsonl"
    )
    assert notice_text(info.value.notice, "ko").startswith("zip 항목 'set/corpus.jsonl' 건너뜀: ")
