"""Weekdays as a set: the days a phrase names, read the same way in claims and in sources.

People name days in ranges and groups ("Monday to Thursday", "Mon–Fri", "weekdays", "every
day", "seven days a week"; "월요일부터 금요일까지", "월~금", "평일", "주말", "매일"), while a
record names them one key per day (``"hours": {"Monday": "11:0-20:0", …}``). Read as the set
of weekdays it covers, each phrase meets the day names of the source it restates:
:func:`day_spans` finds the phrases, :data:`DAY_TERMS` names each day with one term in either
language. A range runs forward through the week and wraps ("Friday to Monday" is four days).
The count in "seven days a week" / "주 7일" is the whole week, not a quantity of days.

A claim reads each phrase as one term (:func:`day_term`: a day's name, or ``days:`` and the
days' numbers), so "daily" weighs what one word weighs; a source states every day it names and
every run of consecutive days among them (:func:`covered_terms`), so "Tuesday to Thursday" is
backed by "weekdays", by "Monday to Friday" and by a record's five day keys.

A day can also be named as closed ("closed on Sundays", "Sundays: closed", "일요일에는 쉽니다",
"일요일 휴무"): :func:`closures` finds the days each closing word applies to within its clause
and the text of what is closed (the clause and the sentence's first clause, whose subject an
"…, and closed on Sundays" leaves out), so a claim that the same thing happens on such a day
can be told apart from one about something else on that day.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

#: The term each weekday is read as (Monday = 0), in English and Korean text alike.
DAY_TERMS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEK = frozenset(range(7))

_EN_FULL = {d: i for i, d in enumerate(DAY_TERMS)}
_EN_SHORT = {
    "mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4,
    "sat": 5, "sun": 6,
}  # fmt: skip
_KO = {c: i for i, c in enumerate("월화수목금토일")}
_KO_KEYS = frozenset({*_KO, *(f"{c}요일" for c in _KO)})

_FULL = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_SHORT = r"(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\.?"
#: An English range: full names, or abbreviations on both sides ("Mon-Fri"; "sat" and "sun"
#: alone are words, so an abbreviation counts only inside a range).
_EN_RANGE = re.compile(
    rf"\b(?:from\s+)?({_FULL}|{_SHORT})s?\s*(?:-|–|—|to|through|thru|until|till)\s*"
    rf"({_FULL}|{_SHORT})s?\b",
    re.IGNORECASE,
)
_EN_DAY = re.compile(rf"\b({_FULL})s?\b", re.IGNORECASE)
_EN_GROUPS = (
    (re.compile(r"\bweek\s?days?\b", re.IGNORECASE), frozenset(range(5))),
    (re.compile(r"\b(?:the\s+)?week\s?ends?\b", re.IGNORECASE), frozenset({5, 6})),
    (
        re.compile(
            r"\b(?:every\s?day(?:\s+of\s+the\s+week)?|daily|all\s+week(?:\s+long)?"
            r"|(?:seven|7)\s+days\s+a\s+week)\b",
            re.IGNORECASE,
        ),
        _WEEK,
    ),
)
#: A Korean range: ``월요일부터 금요일까지``, ``월~금``, ``월-금요일`` (a bare day letter counts
#: only beside ``~`` / ``-``, since ``월`` and ``일`` are also "month" and "day").
_KO_RANGE = re.compile(
    r"(?<![\uac00-\ud7a3\d])([월화수목금토일])(?:요일)?\s*(?:부터|[~\-–])\s*"
    r"([월화수목금토일])(?:요일)?(?:\s*까지)?"
)
_KO_DAY = re.compile(r"([월화수목금토일])요일")
_KO_GROUPS = (
    (re.compile(r"평일"), frozenset(range(5))),
    (re.compile(r"주말"), frozenset({5, 6})),
    (re.compile(r"매일|주\s?7일|연중무휴"), _WEEK),
)


def _day(name: str) -> int:
    """Index (Monday = 0) of an English day name or abbreviation, or a Korean day letter."""
    key = name.lower().rstrip(".")
    return _EN_FULL.get(key, _EN_SHORT.get(key, _KO.get(name[:1], -1)))


def _through(a: int, b: int) -> frozenset[int]:
    """The days from ``a`` to ``b`` inclusive, wrapping past Sunday."""
    return frozenset((a + i) % 7 for i in range((b - a) % 7 + 1))


def day_spans(text: str) -> list[tuple[int, int, frozenset[int]]]:
    """``(start, end, days)`` of each phrase of ``text`` that names weekdays, left to right and
    not overlapping: ranges first, then groups, then single day names."""
    found: list[tuple[int, int, frozenset[int]]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e, _d in found)

    for pat in (_EN_RANGE, _KO_RANGE):
        for m in pat.finditer(text):
            a, b = _day(m.group(1)), _day(m.group(2))
            if a >= 0 and b >= 0 and free(m.start(), m.end()):
                found.append((m.start(), m.end(), _through(a, b)))
    for pat, days in (*_EN_GROUPS, *_KO_GROUPS):
        for m in pat.finditer(text):
            if free(m.start(), m.end()):
                found.append((m.start(), m.end(), days))
    for pat in (_EN_DAY, _KO_DAY):
        for m in pat.finditer(text):
            if free(m.start(), m.end()):
                found.append((m.start(), m.end(), frozenset({_day(m.group(1))})))
    return sorted(found)


def is_day_key(key: str) -> bool:
    """Is a record key a weekday's name (``"Monday"``, ``"mon"``, ``"월요일"``)?"""
    k = key.strip()
    return k.lower().rstrip(".") in _EN_FULL or k.lower().rstrip(".") in _EN_SHORT or k in _KO_KEYS


def day_term(days: frozenset[int]) -> str:
    """The one term a set of weekdays is read as in a claim: ``"monday"`` for one day,
    ``"days:01234"`` for Monday to Friday (the days' numbers, Monday = 0)."""
    if len(days) == 1:
        return DAY_TERMS[next(iter(days))]
    return "days:" + "".join(str(d) for d in sorted(days))


#: A closing word: English ``closed``/``shut``; Korean ``쉬다`` (not ``쉽다``, easy: ``쉬운``,
#: ``쉬워``), ``휴무``/``휴관``/``휴업``/``휴진``, ``문을 닫다``.
_CLOSED_EN = re.compile(r"\b(?:closed|shut)\b(?!-)", re.IGNORECASE)
#: A day of one week of the month ("the first Wednesday", "매달 첫째 수요일") is not every such
#: day: it closes none.
_NTH = re.compile(
    r"(?:first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|첫째|둘째|셋째|넷째|다섯째|마지막)\s*$",
    re.IGNORECASE,
)
_CLOSED_KO = re.compile(r"쉬(?:며|고|는|지|었|어요)|쉽니다|쉰다|휴무|휴관|휴업|휴진|문을\s*닫")
#: Where a clause ends: a sentence mark, ", and"/", but"-style joins, "but"/"while", and
#: a Korean connective ending (``…하며,`` ``…하고 ``, ``…지만``).
_CLAUSE = re.compile(
    r"[.;!?]\s|,\s*(?:and|but|while|except|with)\b|\s(?:but|while|except)\s"
    r"|(?<=[며고])[,\s]|지만\s?|\n",
    re.IGNORECASE,
)
#: What may stand between an English closing word and its days, and between the days.
_JOIN = re.compile(r"(?:\s|,|&|/|\b(?:on|every|each|all|and|or)\b)*", re.IGNORECASE)
#: How far before an English closing word a day phrase may end and still be what is closed
#: ("Sundays: closed", "Sunday - closed").
_BEFORE = 3


@dataclass(frozen=True)
class Closure:
    """Days a text says are closed, and what is closed: the text of the closing clause and of
    the sentence's first clause (its subject)."""

    days: frozenset[int]
    scope: str


def _clauses(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each clause of ``text`` (:data:`_CLAUSE`)."""
    out, a = [], 0
    for m in _CLAUSE.finditer(text):
        if m.start() > a:
            out.append((a, m.start()))
        a = m.end()
    if a < len(text):
        out.append((a, len(text)))
    return out


def _days_after(
    text: str, end: int, spans: list[tuple[int, int, frozenset[int]]]
) -> list[frozenset[int]]:
    """The day phrases that follow position ``end`` as a list ("closed on Sundays and Mondays",
    "closed Sunday, Monday"): each separated from the last only by ``on``/``every``, commas
    and ``and``/``or``."""
    out = []
    for s, e, d in spans:
        if s < end:
            continue
        if not _JOIN.fullmatch(text[end:s]):
            break
        out.append(d)
        end = e
    return out


def closures(text: str) -> list[Closure]:
    """Each closing word of ``text`` with the days it closes: in English the day phrases right
    after it ("closed on Sundays and Mondays") or one just before it ("Sundays: closed"); in
    Korean the day phrases before it in its clause (``일요일과 공휴일에는 … 쉬며``)."""
    spans = [(s, e, d) for s, e, d in day_spans(text) if not _NTH.search(text[max(0, s - 12) : s])]
    clauses = _clauses(text)
    out: list[Closure] = []
    for pat, english in ((_CLOSED_EN, True), (_CLOSED_KO, False)):
        for m in pat.finditer(text):
            a, b = next(((s, e) for s, e in clauses if s <= m.start() < e), (0, len(text)))
            if english:
                days = _days_after(text, m.end(), spans)
                days += [d for s, e, d in spans if 0 <= m.start() - e <= _BEFORE]
            else:
                days = [d for s, e, d in spans if a <= s and e <= m.start()]
            if days:
                first = text[clauses[0][0] : clauses[0][1]] if clauses else ""
                scope = text[a:b] if (a, b) == clauses[0] else f"{first} {text[a:b]}"
                out.append(Closure(frozenset().union(*days), scope))
    return out


def closed_for(
    claim_days: Sequence[tuple[str, frozenset[int]]],
    claim_terms: frozenset[str],
    shut: Sequence[tuple[frozenset[int], frozenset[str]]],
    share: float,
) -> tuple[str, ...]:
    """The claim's day phrases (``(text, days)``) naming a day a closure in ``shut`` (``(days,
    terms of what is closed)``) closes *for what the claim is about*: at least ``share`` of the
    claim's other terms are among what is closed ("The line is open on Sundays" against "The
    line is open Monday to Saturday, and closed on Sundays"; not "The app takes bookings on
    Sundays")."""
    if not claim_terms:
        return ()
    out = [
        text
        for days, scope in shut
        if len(claim_terms & scope) / len(claim_terms) >= share
        for text, ds in claim_days
        if ds & days
    ]
    return tuple(dict.fromkeys(out))


def is_day_term(term: str) -> bool:
    """Is ``term`` a :func:`day_term` (one day's name or ``days:…``)?"""
    return term in DAY_TERMS or term.startswith("days:")


def covered_terms(days: frozenset[int]) -> frozenset[str]:
    """Every :func:`day_term` a source naming ``days`` states: each day, and each run of two or
    more consecutive days among them (wrapping past Sunday: Friday to Monday is one run)."""
    out = {DAY_TERMS[d] for d in days}
    for start in days:
        run = {start}
        while len(run) < 7 and (start + len(run)) % 7 in days:
            run.add((start + len(run)) % 7)
            out.add(day_term(frozenset(run)))
    return frozenset(out)
