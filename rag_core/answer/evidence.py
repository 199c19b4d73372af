"""What evidence is: terms, numbers, negations and the sentence windows of a source.

- **Terms.** Kiwi content morphemes when the text contains Hangul (particles dropped, so
  ``한라산의`` meets ``한라산은``); otherwise lowercase ``\\w+`` words minus :data:`STOPWORDS`,
  each reduced by the Snowball English stemmer (PyStemmer; Porter 2, snowballstem.org), so
  "injuries" meets "injured". A clock time is a number, not words; a phrase naming weekdays
  ("Monday to Thursday", "weekdays", "평일", "월~금") is one term for the set of days, which a
  source naming those days states (:mod:`rag_core.answer.schedule`).
- **Numbers.** Digits with thousands commas, decimals and a unit (:data:`NUMBER`; ``1,947`` =
  ``1947``; ``E17`` is one code, ≠ ``E21``; ``4,000미터`` ≠ ``4,000종``), clock times
  (``17:00`` = ``17:0`` = ``5 PM``), hyphenated ranges (``April 18-19``,
  ``3–5``: each end is a number), and number words: English ``three``, ``twenty-five``,
  ``a dozen``; Korean native numerals ``하나 둘 셋 넷 …`` and counters ``한/두/세/네 +
  명/개/마리/살…``.
- **Negation.** English ``not no never n't none nothing neither nor without``; Korean
  ``않 없 못 아니``.
- **Units.** A source's evidence units are its sentences, or, for a structured record (a JSON
  object or array), its facts: one per leaf, read as key path plus value, ``false`` stating
  the negation, and a week's hours (one key per weekday) one fact (:func:`record_units`).
- **Windows.** The evidence unit is a window of 1–3 consecutive units of one source, and
  the whole source when it is short (:data:`SHORT_SOURCE_CHARS`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence, Set
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from rag_core.answer.claims import sentences, strip_citations
from rag_core.answer.schedule import covered_terms, day_spans, day_term, is_day_key
from rag_core.retrieval.sparse.analyzers import kiwi_terms
from rag_core.text import table_records

_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_WORD = re.compile(r"\w+")

STOPWORDS = frozenset(
    "a an the is are was were be been being of in on at to and or it its this that these those "
    "with by for as from which who what when where how than then so such has have had he she "
    "they them their his her we our you your i also there will would can could "
    # negation and auxiliaries: the negation feature compares them, coverage does not
    "do does did not no nor doesn don didn isn wasn aren weren hasn haven t s "
    # a record's literals: its negation is the unit's flag (record_units), not a term
    "true false null".split()
)

#: Longest windows tried, in sentences.
MAX_WINDOW = 3
#: A source up to this many characters is also tried whole.
SHORT_SOURCE_CHARS = 1200


# -------------------------------------------------------------------- terms


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    import Stemmer  # PyStemmer

    return Stemmer.Stemmer("english")


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """Snowball (Porter 2) English stem of a lowercase word."""
    return str(_stemmer().stemWord(word))


def analyzer_for(text: str) -> str:
    """``kiwi`` when ``text`` contains Hangul, else ``unicode``."""
    return "kiwi" if _HANGUL.search(text) else "unicode"


@lru_cache(maxsize=100_000)
def terms(text: str, analyzer: str, stated: bool = False) -> frozenset[str]:
    """Distinct terms of ``text`` under ``analyzer`` (``kiwi``, or ``unicode``: stemmed words minus
    stopwords). A clock time is a number, compared by its value, not words (``11:00 AM`` adds no
    ``00`` or ``am``). A phrase naming weekdays is one term, its :func:`day_term` ("Monday to
    Wednesday", "월~수": ``days:012``); with ``stated`` (a source's unit) the text states every
    day it names and every run of them (:func:`covered_terms`; :mod:`rag_core.answer.schedule`)."""
    text = strip_citations(text)
    days: set[str] = set()
    named: set[int] = set()
    for a, b, ds in day_spans(text):
        while analyzer == "kiwi" and b < len(text) and _HANGUL.match(text[b]):
            b += 1  # its particles too: a lone "에도" would read as a noun
        text = _mask(text, a, b)
        named |= ds
        days.add(day_term(ds))
    if stated and named:
        days |= covered_terms(frozenset(named))
    for a, b, _value in clock_times(text):
        text = _mask(text, a, b)
    if analyzer == "kiwi":
        return frozenset({*(stem(t) if t.isascii() else t for t in kiwi_terms(text)), *days})
    return frozenset({*(stem(w) for w in _WORD.findall(text.lower()) if w not in STOPWORDS), *days})


_ENTITY = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-zA-Z]+(?:\s+[A-Z][a-zA-Z]+)*)")


def entity_terms(text: str) -> frozenset[str]:
    """Stems of capitalised words not at a sentence start (names, places) in English text; the
    "PM" of a clock time is no name."""
    clean = strip_citations(text)
    for a, b, _value in clock_times(clean):
        clean = _mask(clean, a, b)
    out = set()
    for m in _ENTITY.finditer(clean):
        for w in m.group(1).split():
            if w.lower() not in STOPWORDS:
                out.add(stem(w.lower()))
    return frozenset(out)


# ------------------------------------------------------------------ numbers

_UNITS = (
    r"%|km|cm|mm|m|kg|g|ms|s|GB|MB|KB|TB|KiB|MiB|GiB|°C|℃|°F|℉|㎞|㎢|"
    r"킬로미터|센티미터|밀리미터|제곱킬로미터|미터|킬로그램|그램|헥타르|리터|톤|퍼센트|"
    r"시간|년|월|일|분|초|개|명|원|배|종|마리|그루|곳|회|권|호|층|번|가지|차례|세|살|도|"
    r" ?(?:percent|per cent|million|billion|trillion|thousand|hundred|years?|months?|weeks?|days?"
    r"|hours?|minutes?|miles?|feet|foot|inches|pounds?|dollars?|people|stars?)\b"
)
#: A number or code: optional letters glued in front (``E17``), digits with thousands commas or
#: a decimal part, then an optional unit. A hyphen and a word may follow (``2-year``); a hyphen
#: and a digit may not (ids such as ``jeju-01-geo`` stay out; ranges are found first).
NUMBER = re.compile(
    r"(?<![A-Za-z0-9.,\-_#=/:])([A-Za-z]{0,4}-?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?"
    rf"(\s?(?:{_UNITS}))?"
    r"(?![A-Za-z0-9:]|-\d)",
)
#: LaTeX's digit grouping inside math, ``524{,}288`` or ``524\,288``: read as ``524,288``.
LATEX_GROUPING = re.compile(r"(?<=\d)(?:\{,\}|\\,)(?=\d{3}(?!\d))")
#: A range of two plain numbers: ``18-19``, ``3–5``, ``10~12``, ``5 to 7`` is left to the words.
RANGE = re.compile(
    r"(?<![\w.,\-:/#])(\d{1,4})\s?[-–—~]\s?(\d{1,4})(?!\d|[\-–/:.]\d)"
    rf"(\s?(?:{_UNITS}))?(?![A-Za-z0-9])"
)
#: A clock time ``17:00`` / ``9:0`` (= ``09:00``), ``5:00 PM``, ``4 pm``, ``11 a.m.``.
TIME = re.compile(
    r"(?<![\d:])(?:([01]?\d|2[0-4]):([0-5]?\d)(?:\s?([AaPp])\.?[Mm]\.?)?|(1[0-2]|0?[1-9])\s?([AaPp])\.?[Mm]\.?)"
    r"(?![\d:A-Za-z])"
)

_DIGITS = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺−", "0123456789-+-")
#: Powers of ten: ``2 \times 10^{-4}``, ``2×10⁻⁴``, ``1.5 x 10^9``, ``2e-4``, ``10^{-3}``.
SCIENTIFIC = re.compile(
    rf"(?<![\w.,^])(?:({_DIGITS})\s?(?:\\times|\\cdot|×|·|x|\*)\s?)?10"
    r"(?:\^\s?\{?\s?([-−+]?\d{1,3})\s?\}?|([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3}))"
    r"|(?<![\w.,])(\d+(?:\.\d+)?)[eE]([-+]?\d{1,3})(?![\w.])"
)
_KO_SMALL = {"천": 1000, "백": 100}
_KO_LARGE = {"만": 10**4, "억": 10**8, "조": 10**12}
_KO_PART = rf"{_DIGITS}(?:[천백](?:[만억조](?!큼))?|[만억조](?!큼))"
#: Korean numbers written with myriad units: ``2만 5천`` (25,000), ``1,585만`` (15,850,000),
#: ``3천만`` (30,000,000), ``1억 2천만``; an optional ``여`` (about) and unit follow.
KO_SCALED = re.compile(
    rf"(?<![\w.,])({_KO_PART}(?:\s?{_KO_PART})*)여?(\s?(?:{_UNITS}))?(?![A-Za-z0-9])"
)
_KO_PART_RE = re.compile(rf"({_DIGITS})([천백])?([만억조])?")

_UNIT_WORD = re.compile(rf"(?:{_UNITS})", re.IGNORECASE)

#: Units written differently that name the same unit.
UNIT_ALIASES = {
    "미터": "m",
    "킬로미터": "km",
    "㎞": "km",
    "센티미터": "cm",
    "밀리미터": "mm",
    "제곱킬로미터": "km²",
    "㎢": "km²",
    "킬로그램": "kg",
    "그램": "g",
    "퍼센트": "%",
    "percent": "%",
    "per cent": "%",
    "℃": "°C",
    "℉": "°F",
    "도": "°C",
    "살": "세",
    "foot": "feet",
    "people": "명",
}

_ONES = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "dozen": 12,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
#: English number words: ``twenty-five``, ``twenty five``, ``three``, ``a dozen``, then an
#: optional ``hundred/thousand/million/billion`` (kept as the unit).
NUMBER_WORDS = re.compile(
    rf"\b(?:({'|'.join(_TENS)})(?:[-\s]({'|'.join(k for k in _ONES if _ONES[k] < 10)}))?"
    rf"|({'|'.join(_ONES)}))\b(\s(?:hundred|thousand|million|billion))?"
    rf"(\s(?:{_UNITS}))?(?![A-Za-z0-9])",
    re.IGNORECASE,
)
_KO_NATIVE = {
    "하나": 1, "둘": 2, "셋": 3, "넷": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8,
    "아홉": 9, "열": 10, "스물": 20, "서른": 30, "마흔": 40, "쉰": 50,
}  # fmt: skip
_KO_COUNTER_FORM = {"한": 1, "두": 2, "세": 3, "네": 4, "스무": 20}
_KO_COUNTERS = r"명|개|마리|살|가지|번|권|곳|사람|그루|채|대|잔|병|시간|달|해|차례|벌|켤레"
#: Korean native numerals standing alone (``셋이다``, ``다섯 명``) and counter forms (``세 명``).
KO_NUMBER_WORDS = re.compile(
    rf"(?<![\uac00-\ud7a3])(?:({'|'.join(_KO_NATIVE)})|({'|'.join(_KO_COUNTER_FORM)}))"
    rf"(?:\s?({_KO_COUNTERS}))?(?=[\s.,!?은는이가을를의도와과만]|$)"
)


def normalise_number(letters: str, digits: str, decimals: str | None) -> str:
    """``("E", "17", None) -> "e17"``; ``("", "1,947", None) -> "1947"``; ``("", "2", ".50") ->
    "2.5"``."""
    num = digits.replace(",", "")
    if decimals:
        frac = decimals.rstrip("0")
        num += frac if frac != "." else ""
    return (letters.lower() + num) if letters else num


def _plain(value: Decimal) -> str:
    """``Decimal("2E-4")`` → ``"0.0002"``; ``Decimal("25000.0")`` → ``"25000"``."""
    text = format(value.normalize(), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def scientific_value(m: re.Match[str]) -> str:
    """The plain value of a :data:`SCIENTIFIC` match: ``2 \\times 10^{-4}`` → ``0.0002``."""
    mantissa, exp, sup, e_mantissa, e_exp = m.groups()
    if e_mantissa is not None:
        return _plain(Decimal(e_mantissa).scaleb(int(e_exp)))
    power = (exp or sup).translate(_SUPERSCRIPT).replace(" ", "")
    return _plain(Decimal((mantissa or "1").replace(",", "")).scaleb(int(power)))


def korean_scaled_value(written: str) -> str:
    """The value of a :data:`KO_SCALED` number: the sum of its parts, each a number times its
    units (``2만 5천`` = 2·10⁴ + 5·10³ = 25000; ``3천만`` = 3·10³·10⁴)."""
    total = Decimal(0)
    for digits, small, large in _KO_PART_RE.findall(written):
        part = Decimal(digits.replace(",", ""))
        total += part * _KO_SMALL.get(small, 1) * _KO_LARGE.get(large, 1)
    return _plain(total)


def _unit(raw: str | None) -> str | None:
    u = (raw or "").strip()
    if not u:
        return None
    u = UNIT_ALIASES.get(u.lower(), UNIT_ALIASES.get(u, u))
    if u.isascii() and len(u) > 3 and u.endswith("s") and u not in ("feet", "inches"):
        u = u[:-1]  # years -> year
    return u


def _mask(text: str, a: int, b: int) -> str:
    return text[:a] + " " * (b - a) + text[b:]


def _word_numbers(clean: str) -> tuple[list[tuple[int, str, str, str | None]], str]:
    """Number words, powers of ten, Korean myriad numbers, ranges and times of ``clean`` as
    ``(pos, written, value, unit)``, and ``clean`` with them masked out."""
    found: list[tuple[int, str, str, str | None]] = []
    for a, b, _days in day_spans(clean):  # "seven days a week" names the week: no count
        clean = _mask(clean, a, b)
    for a, b, hm in clock_times(clean):
        found.append((a, clean[a:b], hm, "time"))
        clean = _mask(clean, a, b)
    for m in SCIENTIFIC.finditer(clean):
        found.append((m.start(), m.group(0).strip(), scientific_value(m), None))
        clean = _mask(clean, m.start(), m.end())
    for m in KO_SCALED.finditer(clean):
        found.append((m.start(), m.group(0), korean_scaled_value(m.group(1)), _unit(m.group(2))))
        clean = _mask(clean, m.start(), m.end())
    for m in RANGE.finditer(clean):
        unit = _unit(m.group(3))  # "3–5 km": both ends in km
        found.append((m.start(1), m.group(1), m.group(1), unit))
        found.append((m.start(2), m.group(2), m.group(2), unit))
    for m in list(RANGE.finditer(clean)):
        clean = _mask(clean, m.start(), m.end())
    for m in NUMBER_WORDS.finditer(clean):
        tens, one, single, scale, unit = m.groups()
        if single and _pronoun_one(clean, m):
            continue
        value = (
            _TENS[tens.lower()] + (_ONES[one.lower()] if one else 0)
            if tens
            else _ONES[single.lower()]
        )
        found.append((m.start(), m.group(0), str(value), _unit(scale or unit)))
    for m in KO_NUMBER_WORDS.finditer(clean):
        native, counter_form, counter = m.groups()
        if native is None and counter is None:
            continue  # 한/두/세/네 alone are words, not numbers
        if counter == "대" and not m.group(0)[-2].isspace():
            continue  # 세대 (a generation), 열대 (the tropics): words; 세 대 counts
        value = _KO_NATIVE[native] if native else _KO_COUNTER_FORM[counter_form]
        found.append((m.start(), m.group(0), str(value), _unit(counter)))
    for pat in (NUMBER_WORDS, KO_NUMBER_WORDS):
        for m in list(pat.finditer(clean)):
            clean = _mask(clean, m.start(), m.end())
    return found, clean


#: "one" as a pronoun, not a count: "one another", "one's", "one of the", "no one", "the one",
#: "each one" — a word that stands for a person or thing states no quantity.
_ONE_AFTER = re.compile(
    r"\s*(?:another\b|['’]s\b|of\b|who\b|that\b|which\b|can\b|should\b|must\b|may\b)", re.I
)
_ONE_BEFORE = re.compile(
    r"\b(?:no|any|every|each|some|the|this|that|which|anyone|someone|such a|a)\s+$", re.I
)


#: "one" as an indefinite ("a certain"), not a count: opening a sentence ("One reviewer praised
#: …"), after "with" / "while" ("with one noting …"), or set against "another" / "the other"
#: later ("one customer …, while another …"). A source need not write "one" for there to be one
#: reviewer, so its absence from the source is no evidence against the claim.
_ONE_OPENS = re.compile(r"(?:^|[.!?:;]\s*|\b(?:with|while)\s+)$", re.I)
_ONE_CONTRAST = re.compile(r"\b(?:another|the other|others)\b", re.I)


def _pronoun_one(clean: str, m: re.Match[str]) -> bool:
    """Is this bare ``one`` a pronoun or an indefinite (:data:`_ONE_AFTER`, :data:`_ONE_BEFORE`,
    :data:`_ONE_OPENS`, :data:`_ONE_CONTRAST`)?"""
    if m.group(0).strip().lower() != "one":
        return False
    before = clean[: m.start()]
    return bool(
        _ONE_AFTER.match(clean, m.end())
        or _ONE_BEFORE.search(before)
        or _ONE_OPENS.search(before)
        or _ONE_CONTRAST.search(clean, m.end())
    )


def clock(m: re.Match[str]) -> str:
    """``H:MM`` on a 24-hour clock of a :data:`TIME` match: ``17:0`` → ``17:00``, ``5:00 PM`` →
    ``17:00``, ``4 pm`` → ``16:00``, ``12 a.m.`` → ``0:00``."""
    hour_s, minute_s, half, bare_hour, bare_half = m.groups()
    hour, minute = (int(hour_s), int(minute_s)) if hour_s else (int(bare_hour), 0)
    half = (half or bare_half or "").lower()
    if half == "p" and hour < 12:
        hour += 12
    elif half == "a" and hour == 12:
        hour = 0
    return f"{hour}:{minute:02d}"


def clock_times(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, H:MM)`` of each clock time in ``text`` (:data:`TIME`), on a 24-hour clock:
    ``5:00 PM`` and ``17:0`` are both ``17:00``."""
    return [(m.start(), m.end(), clock(m)) for m in TIME.finditer(text)]


def quantities_in(text: str) -> list[tuple[str, str, str | None]]:
    """``(as written, normalised value, canonical unit or None)`` per number (citations removed),
    in order of appearance.

    ``4,000미터`` and ``4,000종`` have the same value but different units: a claim of 4,000
    metres is not backed by a source counting 4,000 species.
    """
    found, clean = _word_numbers(LATEX_GROUPING.sub(",", strip_citations(text)))
    for m in NUMBER.finditer(clean):
        value = normalise_number(m.group(1), m.group(2), m.group(3))
        found.append((m.start(), m.group(0).strip(), value, _unit(m.group(4))))
    return [(w, v, u) for _p, w, v, u in sorted(found, key=lambda x: x[0])]


def is_unit(term: str) -> bool:
    """Is ``term`` a unit a number can carry (``도``, ``km``, ``명``, ``percent``)?"""
    return bool(_UNIT_WORD.fullmatch(term))


def quantity_in(value: str, unit: str | None, found: Set[tuple[str, str | None]]) -> bool:
    """Is ``value unit`` among ``found``? A unit-less number on either side matches any unit."""
    return any(v == value and (unit is None or u is None or u == unit) for v, u in found)


def numbers_in(text: str) -> list[tuple[str, str]]:
    """``(as written, normalised)`` for each number or code in ``text`` (citations removed)."""
    return [(w, v) for w, v, _u in quantities_in(text)]


def conflicting(value: str, unit: str | None, found: Set[tuple[str, str | None]]) -> bool:
    """Does ``found`` state *another* value of the same kind (same unit, or both unit-less plain
    numbers) — a different count, date or amount rather than a number merely absent?"""
    if quantity_in(value, unit, found):
        return False
    plain = value.replace(".", "", 1).isdigit()
    return any(
        v != value and u == unit and (unit is not None or (plain and v.isdigit())) for v, u in found
    )


# ----------------------------------------------------------------- negation

_NEG_EN = re.compile(
    r"\b(?:not|no|never|none|nothing|neither|nor|without|cannot|nobody|n't)\b|n't\b", re.I
)
_NEG_KO = re.compile(r"않|없|못|아니")


def has_negation(text: str) -> bool:
    """Does ``text`` contain a negation word (module docstring)?"""
    clean = strip_citations(text)
    return bool(_NEG_EN.search(clean) or _NEG_KO.search(clean))


# ------------------------------------------------------------------ windows


@dataclass(frozen=True)
class Window:
    """1–3 consecutive sentences of a source (or the whole source), offsets into its quote."""

    first: int  # index of the first sentence
    last: int  # index of the last sentence (inclusive)
    spans: tuple[tuple[int, int], ...]  # (start, end) of each sentence, in the quote

    @property
    def start(self) -> int:
        return self.spans[0][0]

    @property
    def end(self) -> int:
        return self.spans[-1][1]


@dataclass(frozen=True)
class Unit:
    """One evidence unit of a source: a sentence, or one fact of a structured record.

    ``text`` is what its terms and numbers are read from (for a record's fact: the key path's
    words and the value); ``negated`` is set when the unit itself states a negation that its
    words do not show (a record's ``false`` / ``"no"``), else ``None``.
    """

    start: int
    end: int
    text: str
    negated: bool | None = None


#: A JSON token: a string (escapes kept), a number, a literal, or punctuation.
_JSON_TOKEN = re.compile(
    r'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|[{}\[\]:,]'
)
#: A string value longer than this is prose (a review, a description): cut into sentences.
RECORD_PROSE_CHARS = 200
_NO_VALUES = frozenset({"false", "no", "none"})


def _key_words(key: str) -> str:
    """``"BusinessAcceptsCreditCards"`` → ``"Business Accepts Credit Cards"``; ``_`` → space."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", key).replace("_", " ")


def record_units(quote: str) -> tuple[Unit, ...] | None:
    """The facts of ``quote`` when it is a JSON object or array (else ``None``).

    A structured record states one fact per leaf: ``"OutdoorSeating": false`` says "outdoor
    seating: no". Each leaf is a unit spanning its key and value in the quote, read as the
    words of its key path and its value; ``false`` / ``"no"`` / ``"none"`` make the unit
    negated; ``null`` states nothing and is skipped. A long string value (over
    :data:`RECORD_PROSE_CHARS`) is prose: each of its sentences is a unit of its own.
    """
    body = quote.strip()
    if not body or body[0] not in "{[":
        return None
    try:
        json.loads(body)
    except (ValueError, RecursionError):
        return None
    units: list[Unit] = []
    day_leaf: list[bool] = []  # is each unit a leaf keyed by a weekday's name?
    path: list[str | None] = []  # the key of each open object (None for arrays)
    key: tuple[int, str] | None = None  # (offset, name) of the key awaiting its value
    tokens = list(_JSON_TOKEN.finditer(quote))
    for i, m in enumerate(tokens):
        tok = m.group(0)
        if tok in "{[":
            path.append(key[1] if key else None)
            key = None
        elif tok in "}]":
            if path:
                path.pop()
        elif tok in ":,":
            continue
        elif tok.startswith('"') and i + 1 < len(tokens) and tokens[i + 1].group(0) == ":":
            key = (m.start(), tok[1:-1])
        else:
            if tok != "null":
                leaf = _leaf_units(quote, m, key, path)
                units += leaf
                day_leaf += [key is not None and is_day_key(key[1]) and len(leaf) == 1] * len(leaf)
            key = None
    return _schedules(units, day_leaf)


def _schedules(units: Sequence[Unit], day_leaf: Sequence[bool]) -> tuple[Unit, ...]:
    """``units`` with each run of weekday leaves (``"hours": {"Monday": "11:0-20:0", …}``) made
    one unit: a week's schedule is one fact, when the place is open, so a claim about several
    days ("Monday to Thursday, 11 AM to 8 PM") meets all of them in one window."""
    out: list[Unit] = []
    run: list[Unit] = []
    for unit, is_day in [*zip(units, day_leaf, strict=True), (None, False)]:
        if is_day and unit is not None:
            run.append(unit)
            continue
        if len(run) > 1:
            out.append(Unit(run[0].start, run[-1].end, " ".join(["open", *(u.text for u in run)])))
        else:
            out += run
        run = []
        if unit is not None:
            out.append(unit)
    return tuple(out)


def _leaf_units(
    quote: str, m: re.Match[str], key: tuple[int, str] | None, path: Sequence[str | None]
) -> list[Unit]:
    """The unit(s) of one record leaf (see :func:`record_units`)."""
    words = " ".join(_key_words(k) for k in [*path, key[1] if key else None] if k)
    tok = m.group(0)
    if tok.startswith('"') and len(tok) - 2 > RECORD_PROSE_CHARS:
        raw = re.sub(r"\\[nrt]", "  ", tok[1:-1])  # same length: offsets stay true
        base = m.start() + 1
        return [Unit(base + a, base + b, raw[a:b]) for a, b in sentences(raw)]
    value = tok.strip('"')
    start = key[0] if key else m.start()
    negated = True if value.lower() in _NO_VALUES else None
    raw_keys = " ".join(k for k in [*path, key[1] if key else None] if k)
    return [Unit(start, m.end(), f"{words} {raw_keys} {value}", negated)]


@lru_cache(maxsize=4096)
def quote_units(quote: str, lead: str = "") -> tuple[Unit, ...]:
    """Evidence units of a source quote (cached by text): the facts of a structured record
    (:func:`record_units`), else its sentences (abbreviation-aware,
    :func:`rag_core.answer.claims.sentences`), a Markdown table's row read as the record of
    its column names and cells (:func:`rag_core.text.table_records`; the columns of rows
    quoted without their header are ``lead``'s, :attr:`rag_core.types.Source.lead`)."""
    rec = record_units(quote)
    if rec:
        return rec
    units = [Unit(a, b, quote[a:b]) for a, b in sentences(quote)]
    rows = [(a - len(lead), b - len(lead), r) for a, b, r in table_records(lead + quote)]
    rows = [(a, b, r) for a, b, r in rows if a >= 0]
    if rows:
        units = [u for u in units if not any(a < u.end and u.start < b for a, b, _r in rows)]
        units = sorted([*units, *(Unit(a, b, r) for a, b, r in rows)], key=lambda u: u.start)
    return tuple(units)


def quote_sentences(quote: str, lead: str = "") -> tuple[tuple[int, int], ...]:
    """``(start, end)`` of each evidence unit of a source quote."""
    return tuple((u.start, u.end) for u in quote_units(quote, lead))


def windows(quote: str, max_window: int = MAX_WINDOW, lead: str = "") -> list[Window]:
    """Every window of 1..``max_window`` consecutive sentences, plus the whole quote when it is
    short (≤ :data:`SHORT_SOURCE_CHARS`) and longer than ``max_window`` sentences."""
    sents = quote_sentences(quote, lead)
    out = [
        Window(i, j, sents[i : j + 1])
        for i in range(len(sents))
        for j in range(i, min(i + max_window, len(sents)))
    ]
    if len(sents) > max_window and len(quote) <= SHORT_SOURCE_CHARS:
        out.append(Window(0, len(sents) - 1, sents))
    return out
