"""The Threshold view model (``ui.threshold.view``): slider arithmetic, notices — no Streamlit."""

from __future__ import annotations

import math
import re

import pytest
from helpers.latin import latin_sentences
from helpers.sweep import data_of, query

from rag_core.evaluation import sweep
from rag_core.evaluation.stats import wilson_interval
from rag_core.evaluation.sweep import OUTCOMES
from rag_core.wording import english, notice
from ui.i18n import notice_text, t
from ui.state import K_GATE_MAX_DISTANCE, K_GATE_MAX_KEPT, K_GATE_MIN_SCORE
from ui.threshold import view


def _data():
    return data_of(
        [
            query("a1", [0.40, 0.55], gold={1}),
            query("a2", [0.62, 0.50], gold={2}),
            query("a3", []),
            query("u1", [0.48, 0.9], answerable=False),
        ]
    )


def test_distance_slider_steps_by_0005_one_step_beyond_the_data():
    s = view.slider_for(0.41, 0.87, True)
    assert s.step == 0.005 and s.decimals == 3
    assert s.lo == pytest.approx(math.floor(0.41 / 0.005) * 0.005 - 0.005)
    assert s.hi == pytest.approx(math.ceil(0.87 / 0.005) * 0.005 + 0.005)


def test_score_slider_has_about_200_steps():
    lo, hi = 2.0, 14.5
    s = view.slider_for(lo, hi, False)
    step = 10.0 ** math.floor(math.log10((hi - lo) / 200))
    assert s.step == step and s.decimals == -math.floor(math.log10(step))
    assert s.lo == pytest.approx(lo - step) and s.hi == pytest.approx(hi + step)
    flat = view.slider_for(3.0, 3.0, False)
    assert flat.step == 0.01 and flat.decimals == 2
    assert (flat.lo, flat.hi) == (pytest.approx(3.0 - 0.01), pytest.approx(3.0 + 0.01))


def test_start_threshold_keeps_a_valid_value_else_rounds_the_midpoint_into_range():
    s = view.Slider(0.3, 0.8, 0.005, 3)
    assert view.start_threshold(0.55, s, 0.6, (0.4, 0.5)) == 0.55
    assert view.start_threshold(0.9, s, 0.6012, (0.4, 0.5)) == pytest.approx(
        round(0.6012 / 0.005) * 0.005
    )
    assert view.start_threshold("x", s, None, (0.4, 0.5, 0.7)) == 0.5  # the middle default
    assert view.start_threshold(None, s, 5.0, ()) == s.hi  # clamped
    assert isinstance(
        view.start_threshold(3, s, 0.5, ()), float
    )  # an int is not kept: a float slider


def test_start_max_kept():
    assert view.start_max_kept(2, 8) == 2
    assert view.start_max_kept(0, 8) == min(sweep.DEFAULT_MAX_KEPT, 8)
    assert view.start_max_kept(9, 3) == min(sweep.DEFAULT_MAX_KEPT, 3)
    assert view.start_max_kept(1.5, 8) == sweep.DEFAULT_MAX_KEPT


def test_gate_values_put_the_threshold_on_the_metrics_side():
    assert view.gate_values(0.6, True, 3) == {
        K_GATE_MAX_DISTANCE: 0.6,
        K_GATE_MIN_SCORE: None,
        K_GATE_MAX_KEPT: 3,
    }
    assert view.gate_values(7.5, False, 2) == {
        K_GATE_MAX_DISTANCE: None,
        K_GATE_MIN_SCORE: 7.5,
        K_GATE_MAX_KEPT: 2,
    }
    assert view.gate_values(None, True, 4) == {
        K_GATE_MAX_DISTANCE: None,
        K_GATE_MIN_SCORE: None,
        K_GATE_MAX_KEPT: 4,
    }


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_notices_are_worded_from_their_codes_and_the_final_score_comes_first(lang):
    which = notice(sweep.SCORE_FUSED_RERANKED, method="overlap")
    final = notice(sweep.NOTICE_FINAL_SCORE, which=which)
    nodist = notice(sweep.NOTICE_NO_DISTANCE, reason="dense:x unavailable")
    lines = view.notice_lines([nodist, final], lang)
    assert lines[0] == notice_text(final, lang)
    assert "overlap" in lines[0] and lines[0] != notice_text(which, lang)
    assert lines[1] == t("thr.note", lang, note=notice_text(nodist, lang))
    assert "dense:x unavailable" in lines[1]
    unknown = notice(sweep.NOTICE_NO_DISTANCE, reason=notice(sweep.NOTICE_NO_DISTANCE_UNKNOWN))
    assert notice_text(notice(sweep.NOTICE_NO_DISTANCE_UNKNOWN), lang) in view.notice_text(
        unknown, lang
    )


def test_the_cli_words_the_same_codes_in_english():
    final = notice(
        sweep.NOTICE_FINAL_SCORE, which=notice(sweep.SCORE_SINGLE_RERANKED, method="overlap")
    )
    assert english(final) == (
        "thresholds apply to the final score (higher is better): "
        "the retriever's score after rerank (overlap)"
    )
    unknown = notice(sweep.NOTICE_NO_DISTANCE, reason=notice(sweep.NOTICE_NO_DISTANCE_UNKNOWN))
    assert english(unknown) == (
        "dense retrieval gave no cosine distances (some candidates carry no distance); "
        "sweeping scores"
    )


def test_rate_texts():
    r = sweep.Rate(1, 8, 1 / 8, *wilson_interval(1, 8))
    assert view.rate_text(r) == f"1/8 = {1 / 8:.1%} [{r.low:.1%}, {r.high:.1%}]"
    assert view.rate_cell(r) == f"{100 / 8:.1f}% [{100 * r.low:.1f}–{100 * r.high:.1f}]"
    assert view.rate_text(None) == view.rate_cell(None) == view.rc_text(None) == "—"
    d = {"k": 1, "n": 8, "rate": 1 / 8, "low": r.low, "high": r.high}
    assert view.rc_text(d) == view.rate_text(r)


def test_outcome_totals_split_by_group():
    counts = sweep.counts_at(_data(), 0.5, 2)
    assert [view.outcome_total(counts, o) for o in OUTCOMES] == [3, 3, 3, 1, 1]


def test_distribution_facts_report_separation_or_overlap():
    d = sweep.distribution(_data())
    facts = view.distribution_facts(d, 3, "en")
    assert facts[0] == t(
        "thr.worst", "en", value=f"{d.worst_answerable:.4f}", id=d.worst_answerable_id
    )
    assert facts[1] == t(
        "thr.best_un", "en", value=f"{d.best_unanswerable:.4f}", id=d.best_unanswerable_id
    )
    assert t("thr.none_best", "en", a=1, u=0) in facts  # a3 has no candidate


def test_sweep_cuts_parse_the_box_or_keep_the_defaults():
    assert view.sweep_cuts("", (0.5,), "en") == ((0.5,), None)
    cuts, error = view.sweep_cuts("0.4:0.6:0.1", (0.5,), "en")
    assert error is None and cuts == pytest.approx((0.4, 0.5, 0.6))
    cuts, error = view.sweep_cuts("0.8:0.4", (0.5,), "en")
    assert cuts == (0.5,) and error == (
        "range '0.8:0.4' must have three parts 'start:stop:step', e.g. '0.45:0.8:0.025'"
    )


@pytest.mark.parametrize(
    ("box", "korean"),
    [
        ("0.8:0.4", "세 부분이어야 합니다"),
        ("0.8:0.4:0.1", "끝값(stop) 0.4 이(가) 시작값(start) 0.8 보다 작습니다"),
        ("0.1:0.2:0", "간격(step)은 0보다 커야 합니다"),
        ("a:0.2:0.1", "시작값(start) 'a' 은(는) 숫자가 아닙니다"),
        ("0:1:0.00001", "값이 100001개입니다"),
        ("0.5,nan", "값 은(는) 유한한 수여야 합니다 (받은 것: 'nan')"),
    ],
)
def test_a_bad_range_box_is_worded_in_korean(box, korean):
    cuts, error = view.sweep_cuts(box, (0.5,), "ko")
    assert cuts == (0.5,) and error is not None and korean in error, error
    prose = re.sub(r"'[^']*'|\b(?:start|stop|step)\b", "", error)  # the box's text, its syntax
    assert not latin_sentences(prose), error


def test_sweep_table_marks_the_nearest_cut_and_dims_the_open_gate():
    data = _data()
    rep = sweep.report(data, (0.4, 0.5, 0.6), 2)
    labels = {o: o for o in OUTCOMES}
    head, rows, classes = view.sweep_table(rep, 0.52, 3, labels, "en")
    assert len(head) == 1 + len(OUTCOMES) + 2 and len(rows) == 1 + 3
    assert classes == ["ri-dim", None, "ri-goldrow", None]  # |0.5 − 0.52| is the smallest
    assert rows[2][1:6] == [getattr(rep.rows[1], o) for o in OUTCOMES]
    assert view.sweep_table(rep, None, 3, labels, "en")[2] == ["ri-dim", None, None, None]
    assert view.nearest_row(rep, 0.9) == 2


def test_query_rows_filter_by_outcome_and_csv_rows_cover_every_cut():
    data = _data()
    outs = sweep.outcomes(data, 0.5, 2)
    labels = {o: o.upper() for o in OUTCOMES}
    rows = view.query_rows(outs, ["bluffed"], labels)
    assert [r["query"] for r in rows] == [o.query_id for o in outs if o.outcome == "bluffed"]
    assert all(r["outcome"] == "BLUFFED" for r in rows)
    rep = sweep.report(data, (0.4, 0.5), 2)
    csv = view.csv_rows(rep)
    assert [r["threshold"] for r in csv] == [None, 0.4, 0.5]
    assert all(r["metric"] == "distance" and r["max_kept"] == 2 for r in csv)


def test_charts_carry_one_trace_per_series():
    data = _data()
    rep = sweep.report(data, (0.4, 0.5, 0.6), 2)
    s = view.slider_for(*sweep.value_range(data), True)
    hist = view.histogram(sweep.distribution(data), s, 0.5, "d", "en")
    assert len(hist.data) == 2 + 1  # two groups and the threshold's legend entry
    assert len(view.histogram(sweep.distribution(data), s, None, "d", "en").data) == 2
    assert len(view.sweep_chart(rep, 0.5, {o: o for o in OUTCOMES}, "d", "en").data) == len(
        OUTCOMES
    )
    now = sweep.operating_point(data, 0.5, 2)
    points = view.risk_coverage_points(rep)
    rc = view.risk_coverage_chart(rep, now, "en")
    assert len(rc.data) == (2 if points else 0) + 1
