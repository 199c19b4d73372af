"""Only evidence is painted (issue 40, item 6): a source sentence is highlighted only when it is
part of the selected claim's evidence window — one that backs the claim (``p ≥ min_p``) or
contradicts it — in the claim's verdict colour; a source's best window that does neither (an
overlap of 0.00) stays plain, on Inspect/Compare (``ui.trace_view.evidence_marks``), the Check
page and the Lecture claims pane."""

from __future__ import annotations

from dataclasses import replace

from rag_core.types import Claim, Evidence, Notice, SupportStage
from ui.check.view import evidence_marks as check_marks
from ui.trace_view import evidence_marks, is_evidence, support_threshold

MIN_P = 0.83


def _ev(n: int, score: float, start: int, conflict: bool = False, overlap: float = 0.0) -> Evidence:
    return Evidence(
        n=n, chunk_id=f"c{n}", sentence="s", start=start, end=start + 10, overlap=overlap,
        cosine=None, score=score, spans=((start, start + 10),),
        contradiction=Notice("support.conflict.value", {"numbers": "1,950"}) if conflict else None,
    )  # fmt: skip


def _support(verdict: str, *evidence: Evidence) -> SupportStage:
    claim = Claim("It is 1,947 m high.", 0, 19, (1,), verdict, evidence)  # type: ignore[arg-type]
    return SupportStage("ok", (claim,), params={"min_p": MIN_P})


class _Trace:
    """The two fields ``evidence_marks`` reads."""

    def __init__(self, support: SupportStage) -> None:
        self.support, self.config = support, {"support": {"min_p": 0.5}}


def test_a_window_under_min_p_is_not_painted_and_evidence_takes_the_claims_colour():
    sup = _support("supported", _ev(1, 0.97, 100), _ev(2, 0.10, 200))
    trace = _Trace(sup)
    assert support_threshold(sup, trace.config) == MIN_P  # the stage's own threshold first
    backing = evidence_marks(trace, 0, 1, 100, "en")
    assert [(m.start, m.end, m.cls) for m in backing] == [
        (0, 10, "ri-ev ri-v-supported ri-ev-best")
    ]
    assert evidence_marks(trace, 0, 2, 200, "en") == []  # overlap 0.00, p 0.10: not evidence
    assert evidence_marks(trace, None, 1, 100, "en") == []  # no claim picked: nothing painted
    assert [m.cls for m in check_marks(sup, 0, 1)] == ["ri-ev ri-v-supported ri-ev-best"]
    assert check_marks(sup, 0, 2) == []


def test_a_contradicting_window_is_evidence_in_the_contradicted_colour():
    sup = _support("contradicted", _ev(1, 0.20, 0, conflict=True, overlap=0.8), _ev(2, 0.30, 50))
    assert is_evidence(sup.claims[0].evidence[0], MIN_P)
    assert not is_evidence(sup.claims[0].evidence[1], MIN_P)
    # another number in a window about something else (overlap under the veto's 0.5) is no
    # evidence: ko-02's neighbours state 0.6도 and 10도, not the claim's 15~17도
    other = _ev(2, 0.50, 50, conflict=True, overlap=0.14)
    assert not is_evidence(other, MIN_P)
    assert (
        evidence_marks(_Trace(_support("supported", _ev(1, 0.97, 0), other)), 0, 2, 50, "ko") == []
    )
    marks = evidence_marks(_Trace(sup), 0, 1, 0, "ko")
    assert [m.cls for m in marks] == ["ri-ev ri-v-contradicted ri-ev-best"]
    assert not is_evidence(replace(sup.claims[0].evidence[1], score=0.9), None)  # no threshold


def test_the_lecture_claims_pane_paints_only_evidence(monkeypatch):
    from ui.lecture import view

    sup = _support("unsupported", _ev(1, 0.40, 0), _ev(2, 0.20, 50))

    class T(_Trace):
        question = "q"

    html = str(view.claims_pane(T(sup), "en", 0))  # type: ignore[arg-type]
    assert "ri-ev" not in html  # two candidate windows, neither evidence: listed, not painted
    sup = _support("supported", _ev(1, 0.95, 0), _ev(2, 0.20, 50))
    html = str(view.claims_pane(T(sup), "en", 0))  # type: ignore[arg-type]
    assert html.count("ri-ev ri-v-supported ri-ev-best") == 1 and html.count("ri-ev ") == 1
