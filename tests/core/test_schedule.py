"""Weekdays and clock times as evidence: ranges, groups, weekly hours, the PM of a time."""

from __future__ import annotations

import json

import pytest

from rag_core.answer.evidence import quantities_in, quote_units, terms
from rag_core.answer.schedule import DAY_TERMS, closures, covered_terms, day_spans, is_day_key

WEEK = set(DAY_TERMS)


def days(text: str) -> list[set[str]]:
    return [{DAY_TERMS[d] for d in ds} for _a, _b, ds in day_spans(text)]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("open Monday to Wednesday", [{"monday", "tuesday", "wednesday"}]),
        ("from Tuesdays through Thursdays", [{"tuesday", "wednesday", "thursday"}]),
        ("Mon-Fri", [WEEK - {"saturday", "sunday"}]),
        ("Friday to Monday", [{"friday", "saturday", "sunday", "monday"}]),  # wraps
        ("weekdays, later on weekends", [WEEK - {"saturday", "sunday"}, {"saturday", "sunday"}]),
        ("open every day", [WEEK]),
        ("seven days a week", [WEEK]),
        ("on Fridays and Saturdays", [{"friday"}, {"saturday"}]),
        ("월요일부터 금요일까지", [WEEK - {"saturday", "sunday"}]),
        ("월~수 영업", [{"monday", "tuesday", "wednesday"}]),
        ("평일과 주말, 매일", [WEEK - {"saturday", "sunday"}, {"saturday", "sunday"}, WEEK]),
        ("토요일 휴무", [{"saturday"}]),
    ],
)
def test_a_phrase_names_the_set_of_days_it_covers(text: str, want: list[set[str]]) -> None:
    assert days(text) == want


@pytest.mark.parametrize(
    "text", ["The sun sat low.", "1월~3월에 연다", "7 days later", "a wed dress", "월간 보고서"]
)
def test_words_that_only_look_like_days_name_none(text: str) -> None:
    assert day_spans(text) == []


def test_a_day_phrase_is_one_term_in_a_claim() -> None:
    assert terms("open Monday to Wednesday", "unicode") == {"open", "days:012"}
    assert terms("평일에 운영", "kiwi") == terms("월~금 운영", "kiwi") == {"days:01234", "운영"}
    assert terms("Monday", "unicode") == terms("월요일", "kiwi") == {"monday"}
    # "daily" weighs what one word weighs, not seven
    assert terms("take it daily", "unicode") == {"take", "days:0123456"}


def test_a_source_states_every_day_and_run_it_names() -> None:
    stated = terms("open Monday to Friday", "unicode", stated=True)
    assert {"monday", "friday", "days:01234", "days:123", "days:34"} <= stated
    assert "days:56" not in stated and "saturday" not in stated
    # a run wraps past Sunday
    assert covered_terms(frozenset({5, 6, 0})) == {
        "saturday", "sunday", "monday", "days:56", "days:06", "days:056"
    }  # fmt: skip
    # a claim's phrase meets a source's other phrase for the same days
    claim = terms("Tuesday to Thursday", "unicode")
    assert claim <= terms("on weekdays", "unicode", stated=True)
    assert not claim <= terms("Tuesday and Wednesday", "unicode", stated=True)


def test_a_clock_time_is_a_number_not_words() -> None:
    assert terms("opens at 11:00 AM and closes at 8 pm", "unicode") == {"open", "close"}
    assert terms("hours 17:0-21:0", "unicode") == {"hour"}


def test_the_pm_of_a_clock_time_is_no_name() -> None:
    from rag_core.answer.evidence import entity_terms

    assert entity_terms("It opens at 4 PM and closes at 10 P.M. at Cafe Rosa.") == {"cafe", "rosa"}


def test_seven_days_a_week_is_no_count_of_days() -> None:
    assert quantities_in("open seven days a week") == []
    assert [v for _w, v, _u in quantities_in("returns within seven days")] == ["7"]


def test_a_records_weekly_hours_are_one_unit() -> None:
    record = json.dumps(
        {
            "name": "Cafe Rosa",
            "hours": {"Monday": "16:0-21:0", "Tuesday": "16:0-21:0", "Friday": "16:0-22:0"},
            "attributes": {"OutdoorSeating": False},
        }
    )
    units = quote_units(record)
    week = [u for u in units if "Monday" in u.text]
    assert len(week) == 1
    assert record[week[0].start : week[0].end] == (
        '"Monday": "16:0-21:0", "Tuesday": "16:0-21:0", "Friday": "16:0-22:0"'
    )
    assert {"open", "monday", "days:01", "friday"} <= terms(week[0].text, "unicode", stated=True)
    assert {v for _w, v, _u in quantities_in(week[0].text)} == {"16:00", "21:00", "22:00"}
    # the other leaves stay one fact each
    assert any(u.negated is True and "Outdoor Seating" in u.text for u in units)


def test_day_keys() -> None:
    assert all(is_day_key(k) for k in ("Monday", "sun", "월요일", "금"))
    assert not any(is_day_key(k) for k in ("Mondays", "name", "hours", "월간"))


def test_a_claim_about_several_days_is_backed_by_the_records_hours() -> None:
    from rag_core.answer.support import check_support
    from rag_core.config import SupportConfig
    from rag_core.types import ContextStage, Source

    hours = {d.title(): "16:0-21:0" for d in DAY_TERMS[:5]} | {"Saturday": "16:0-22:0"}
    quote = json.dumps({"name": "Cafe Rosa", "hours": hours, "stars": 4.5})
    src = Source(1, "c", "d", "", "", 0, len(quote), "", quote, 0, "included")
    ctx = ContextStage("ok", "pack", "rank", 4096, (src,))
    cfg = SupportConfig(readings=False)
    right = "Cafe Rosa is open from 4 PM to 9 PM on weekdays [1]."
    wrong = "Cafe Rosa is open from 8 AM to 9 PM on weekdays [1]."
    got = {c.text: c for c in check_support(f"{right} {wrong}", ctx, cfg).claims}
    assert got[right].verdict == "supported"
    assert got[wrong].verdict != "supported"
    assert got[wrong].numbers_in_no_source == ("8 AM",)


@pytest.mark.parametrize(
    ("text", "closed"),
    [
        ("The line is open Monday to Friday, and closed on Sundays and bank holidays.", [{6}]),
        ("Sundays: closed.", [{6}]),
        ("It is open Monday to Saturday and closed Sundays and Mondays.", [{0, 6}]),
        ("일요일과 법정 공휴일에는 전화 상담을 쉬며, 이 기간에는 앱으로 접수합니다.", [{6}]),
        ("평일에는 운영하고 일요일에는 쉽니다.", [{6}]),
        ("월요일 휴무", [{0}]),
        # not a closing of these days
        ("A closed-book test on Monday.", []),
        ("매달 첫째 수요일이 정기 휴무일이다.", []),  # one Wednesday a month
        ("The shop is closed for renovation.", []),
        ("일요일에는 쉬운 문제만 풉니다.", []),  # 쉽다 (easy), not 쉬다 (rest)
        ("The museum is open on Sundays.", []),
        ("Wednesday's game will be closed to the public, the club announced Tuesday.", []),
    ],
)
def test_closures_name_the_days_a_text_says_are_closed(text: str, closed: list[set[int]]) -> None:
    assert [set(c.days) for c in closures(text)] == closed


@pytest.mark.parametrize(
    ("quote", "wrong", "right"),
    [
        (
            (
                "Our service line is open Monday to Friday from 8:00 to 20:00 and Saturday from "
                "9:00 to 17:00, and closed on Sundays and bank holidays. Repair bookings in the "
                "app are possible at any time."
            ),
            "The service line is open on Sundays from 9:00 to 17:00 [1].",
            "Repair bookings can be made in the app on Sundays [1].",
        ),
        (
            (
                "상담 전화는 평일 오전 9시부터 오후 6시까지 운영합니다. 일요일과 법정 공휴일에는 "
                "전화 상담을 쉬며, 이 기간에는 앱의 '서비스 신청' 메뉴로 접수해 주시면 다음 "
                "영업일에 연락드립니다."
            ),
            "일요일에도 전화 상담을 합니다 [1].",
            "일요일에는 앱의 서비스 신청 메뉴로 접수할 수 있습니다 [1].",
        ),
    ],
)
def test_a_claim_on_a_day_the_source_says_is_closed_is_contradicted(
    quote: str, wrong: str, right: str
) -> None:
    """Whatever its values: "open on Sundays from 9:00 to 17:00" states the Saturday hours the
    source gives, and is still contradicted; something else on that day is not."""
    from rag_core.answer.support import check_support
    from rag_core.config import SupportConfig
    from rag_core.types import ContextStage, Source
    from rag_core.wording import english

    src = Source(1, "c", "d", "", "", 0, len(quote), "", quote, 0, "included")
    ctx = ContextStage("ok", "pack", "rank", 4096, (src,))
    cfg = SupportConfig(readings=False)
    # with the question too: what it asks ("전화 상담") is still what the claim is about
    question = "When is the service line open?" if wrong.isascii() else "전화 상담은 언제 하나요?"
    for q in (None, question):
        got = {c.text: c for c in check_support(f"{wrong} {right}", ctx, cfg, question=q).claims}
        assert got[wrong].verdict == "contradicted", (q, got[wrong])
        why = got[wrong].evidence[0].contradiction
        assert why is not None and english(why).startswith("the source says it is closed on ")
        assert got[right].verdict != "contradicted", (q, got[right])
    # saying it is closed on that day is no conflict
    shut = (
        "The line is closed on Sundays [1]."
        if wrong.isascii()
        else "일요일에는 전화 상담을 쉽니다 [1]."
    )
    assert check_support(shut, ctx, cfg).claims[0].verdict != "contradicted"
