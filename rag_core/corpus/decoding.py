"""Decode a file's bytes into text, naming the encoding used.

Order of the rules (the first that applies wins):

1. a byte-order mark: UTF-32 (LE/BE), UTF-8, UTF-16 (LE/BE);
2. NUL bytes in the first 8 KB: UTF-16/32 without a BOM if ``charset-normalizer``
   detects it with a language and the text is printable, otherwise the data is
   binary and refused;
3. strict UTF-8;
4. strict CP949 (a superset of EUC-KR) — unless a Chinese or Japanese multi-byte
   encoding also decodes the bytes and its text has more of its language's most
   frequent characters (the frequency tables of ``charset-normalizer``): GBK
   text is often valid CP949 byte for byte, and reading it as CP949 gives mojibake;
5. ``charset-normalizer`` (https://github.com/jawah/charset_normalizer): its
   best match among the encodings whose decoded text is not a "mess". When the
   best match is a single-byte code page and CP1252 or Latin-1 is a match at
   least as coherent, CP1252 (then Latin-1) is used: the detector cannot tell
   Western code pages apart (Latin-1 French comes out as CP1257 "Romanian")
   and CP1252 is what Windows writes.

Anything else is refused as not text.
"""

from __future__ import annotations

import codecs
import unicodedata
from dataclasses import dataclass

from ..types import Notice
from ..wording import NoticeError, declare, notice

#: How many leading bytes are checked for NUL bytes (binary detection).
BINARY_PROBE = 8192
#: How many characters the character-frequency vote looks at.
VOTE_SAMPLE = 20_000


class LoadError(NoticeError):
    """A whole file (or row) cannot be loaded; ``notice`` says why (a ``load.*`` code), the
    exception's text is its English, the one-line reason."""


LOAD_BOM_MISMATCH = declare("load.bom_mismatch", "name", "byte")
LOAD_BINARY = declare("load.binary")
LOAD_UNDECODABLE = declare("load.undecodable")
NOTE_RIVAL_ENCODING = declare("load.note.rival_encoding", "encoding")
NOTE_DETECTOR = declare("load.note.detector", "encoding")

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
#: Multi-byte encodings of Chinese and Japanese that may also decode as CP949.
_CJK_RIVALS = {
    "gb18030": "Chinese",
    "gbk": "Chinese",
    "gb2312": "Chinese",
    "hz": "Chinese",
    "big5": "Chinese",
    "big5hkscs": "Chinese",
    "cp950": "Chinese",
    "cp932": "Japanese",
    "shift_jis": "Japanese",
    "shift_jis_2004": "Japanese",
    "shift_jisx0213": "Japanese",
    "euc_jp": "Japanese",
    "euc_jis_2004": "Japanese",
    "euc_jisx0213": "Japanese",
}
_KOREAN = ("cp949", "euc_kr", "johab", "iso2022_kr")


@dataclass(frozen=True)
class Decoded:
    """Decoded text, the encoding name shown to the user, and remarks (``load.note.*``)."""

    text: str
    encoding: str
    notes: tuple[Notice, ...] = ()


def _frequency_share(text: str, language: str) -> float:
    """Share of the non-ASCII letters of ``text`` among ``language``'s most frequent characters.

    Uses the first 26 entries of ``charset_normalizer.constant.FREQUENCIES``
    (Korean: 이 다 에 의 는 …; Chinese: 的 一 是 …) so the languages are compared
    on lists of equal length. Mojibake scores near 0.
    """
    from charset_normalizer.constant import FREQUENCIES

    top = set(FREQUENCIES.get(language, [])[:26])
    sample = text[:VOTE_SAMPLE]
    letters = [c for c in sample if ord(c) > 0x7F and c.isalpha()]
    if not letters or not top:
        return 0.0
    return sum(c in top for c in letters) / len(letters)


def _printable(text: str) -> bool:
    """At least 4 characters, no NUL, and 95 % printable or whitespace (UTF-16 without a BOM)."""
    if len(text) < 4 or "\x00" in text:
        return False
    sample = text[:VOTE_SAMPLE]
    return sum(c.isprintable() or c.isspace() for c in sample) >= 0.95 * len(sample)


def _matches(data: bytes):
    from charset_normalizer import from_bytes

    return list(from_bytes(data))


def _is_single_byte(encoding: str) -> bool:
    from charset_normalizer.utils import is_multi_byte_encoding

    return not is_multi_byte_encoding(encoding)


def _western(data: bytes, best, matches) -> str:
    """CP1252 (else Latin-1) when the detector ranks it no less coherent than its best single-byte
    match.

    A match stands for every code page that decodes the bytes to the same text
    (``CharsetMatch.could_be_from_charset``), so CP1252 may hide behind CP1250.
    """
    western = [
        m
        for m in matches
        if {"cp1252", "latin_1"} & set(m.could_be_from_charset) and m.coherence >= best.coherence
    ]
    if not western:
        return best.encoding
    for encoding in ("cp1252", "latin_1"):
        try:
            data.decode(encoding)
        except UnicodeDecodeError:
            continue
        return encoding
    return best.encoding


def decode(data: bytes) -> Decoded:
    """Decode ``data`` by the rules of this module.

    Raises:
        LoadError: binary data, or bytes no rule decodes.
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            try:
                text = data[len(bom) :].decode(name)
            except UnicodeDecodeError as exc:
                why = notice(LOAD_BOM_MISMATCH, name=name, byte=exc.start + len(bom))
                raise LoadError(why) from None
            return Decoded(text, "utf-8-sig" if name == "utf-8" else f"{name} (BOM)")
    if b"\x00" in data[:BINARY_PROBE]:
        for m in _matches(data):
            if (
                m.encoding.startswith(("utf_16", "utf_32"))
                and m.coherence > 0
                and _printable(str(m))
            ):
                return Decoded(str(m), m.encoding)
        raise LoadError(notice(LOAD_BINARY))
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    try:
        korean: str | None = data.decode("cp949")
    except UnicodeDecodeError:
        korean = None
    matches = [m for m in _matches(data) if not m.encoding.startswith(("utf_16", "utf_32"))]
    if korean is not None:
        for m in matches:
            language = _CJK_RIVALS.get(m.encoding)
            if language is None:
                continue
            rival = str(m)
            if _frequency_share(rival, language) > _frequency_share(korean, "Korean"):
                return Decoded(
                    rival,
                    m.encoding,
                    (notice(NOTE_RIVAL_ENCODING, encoding=m.encoding),),
                )
            if m is matches[0]:  # the detector preferred it: say so rather than choose silently
                return Decoded(
                    korean,
                    "cp949",
                    (notice(NOTE_DETECTOR, encoding=m.encoding),),
                )
            break
        return Decoded(korean, "cp949")
    if not matches:
        raise LoadError(notice(LOAD_UNDECODABLE))
    best = matches[0]
    if best.encoding in _KOREAN:
        return Decoded(str(best), best.encoding)
    if _is_single_byte(best.encoding):
        encoding = _western(data, best, matches)
        return Decoded(data.decode(encoding), encoding)
    return Decoded(str(best), best.encoding)


def decode_bytes(data: bytes) -> str:
    """The text of :func:`decode` (kept for callers that need no encoding name)."""
    return decode(data).text


#: Characters that show nothing: whitespace (incl. NBSP, ideographic space) and
#: the invisible format characters (zero-width space/joiners, word joiner, BOM, soft hyphen).
_INVISIBLE = frozenset("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u3164\ufeff\uffa0")


def is_blank(text: str) -> bool:
    """True when ``text`` has no visible character (whitespace and format characters only).

    Format characters are Unicode category ``Cf`` (zero-width space U+200B,
    joiners, word joiner U+2060, BOM U+FEFF, …) plus the fillers above.
    """
    for ch in text.strip():
        if ch.isspace() or ch in _INVISIBLE:
            continue
        if unicodedata.category(ch) == "Cf":
            continue
        return False
    return True
