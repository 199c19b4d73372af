"""Odd zip members (issue 27): each is skipped with a one-line reason, the others unpack."""

from __future__ import annotations

import io
import struct
import zipfile

import pytest

from rag_core.corpus.datasets import safe_extract_zip
from rag_core.types import Notice
from rag_core.wording import english

GOOD = {"set/corpus.jsonl": b'{"_id": "d1", "text": "x"}\n', "set/notes.txt": b"kept"}


def _zip(members: list[tuple[str, bytes]], **info) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        for name, data in members:
            zi = zipfile.ZipInfo(name)
            for k, v in info.get(name, {}).items():
                setattr(zi, k, v)
            zf.writestr(zi, data)
    return buf.getvalue()


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


def _unpack(tmp_path, data: bytes) -> tuple[list[str], set[str]]:
    """The skipped members' reasons in English (each a ``dataset.zip.skipped`` notice) and the
    files unpacked."""
    skipped: list[Notice] = []
    folder = safe_extract_zip(data, tmp_path / "out", skipped=skipped)
    assert all(n.code == "dataset.zip.skipped" for n in skipped)
    files = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
    return [english(n) for n in skipped], files


def _good() -> list[tuple[str, bytes]]:
    return list(GOOD.items())


@pytest.mark.parametrize(
    ("members", "info", "reason"),
    [
        ([("./", b"")], {}, None),  # a directory entry for the root itself: nothing to do
        ([(".", b"x")], {}, "it names a folder, not a file"),
        ([("set/notes.txt/inner", b"x")], {}, "a file of the same name is in its path"),
        ([("set/" + "n" * 300 + ".txt", b"x")], {}, "a name part over 255 bytes"),
        ([("set/notes.txt", b"again")], {}, "a file of the same name exists"),
    ],
    ids=["root-dir", "dot", "file-folder-conflict", "long-name", "duplicate"],
)
@pytest.mark.filterwarnings("ignore:Duplicate name")
def test_each_odd_member_is_skipped_with_a_reason(tmp_path, members, info, reason):
    skipped, files = _unpack(tmp_path, _zip(_good() + members, **info))
    assert {"corpus.jsonl", "notes.txt"} <= files  # the others still unpack
    assert (tmp_path / "out" / "set" / "notes.txt").read_bytes() == b"kept"
    if reason is None:
        assert skipped == []
    else:
        assert len(skipped) == 1 and skipped[0].endswith(reason), skipped
        assert str(tmp_path) not in skipped[0]  # the reason names the member, not the folder


def test_ppmd_member_is_skipped(tmp_path):
    data = _patch(_zip([*_good(), ("set/ppmd.txt", b"x")]), "set/ppmd.txt", "method", 98)
    skipped, files = _unpack(tmp_path, data)
    assert "ppmd.txt" not in files and "notes.txt" in files
    assert skipped == [
        "zip member 'set/ppmd.txt' skipped: compression method 98 is not supported (use deflate)"
    ]


def test_encrypted_member_is_skipped(tmp_path):
    data = _patch(_zip([*_good(), ("set/secret.txt", b"x")]), "set/secret.txt", "flags", 0x1)
    skipped, files = _unpack(tmp_path, data)
    assert "secret.txt" not in files and "notes.txt" in files
    assert skipped == ["zip member 'set/secret.txt' skipped: it is encrypted"]


def test_bad_crc_member_is_skipped_and_its_partial_file_removed(tmp_path):
    data = bytearray(_zip([*_good(), ("set/crc.txt", b"payload-bytes")]))
    pos = data.find(b"payload-bytes")
    data[pos] ^= 0xFF
    skipped, files = _unpack(tmp_path, bytes(data))
    assert "crc.txt" not in files and {"corpus.jsonl", "notes.txt"} <= files
    assert skipped == ["zip member 'set/crc.txt' skipped: its data fails the CRC check"]


def test_unsafe_members_still_refuse_the_whole_zip(tmp_path):
    with pytest.raises(ValueError, match="points outside the folder"):
        safe_extract_zip(_zip([*_good(), ("../evil", b"x")]), tmp_path / "o")
