"""The Evaluate view model (``ui.evaluate.view``): config B, readings, rows — no Streamlit."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from rag_core.config import PipelineConfig, preset
from rag_core.evaluation.aggregate import evaluate_queries
from rag_core.evaluation.run import STAGE_PROBLEM_BARE
from rag_core.evaluation.stats import format_p, paired_compare, sign_test
from rag_core.wording import notice
from ui.compare.keys import K_COMPARE_B_WIDGET
from ui.evaluate import view
from ui.i18n import t
from ui.state import K_COMPARE_B, K_QID, K_QMODE, K_QPHRASING, K_QSET


def test_metric_label_names_each_metric():
    assert view.metric_label("recall@8") == "Recall@8"
    assert view.metric_label("ndcg@10") == "nDCG@10"
    assert view.metric_label("rr") == "MRR"


def test_pick_qset_prefers_the_page_then_the_sidebar_then_the_first():
    names = ["en", "ko", "manual"]
    assert view.pick_qset("ko", "manual", names) == "ko"
    assert view.pick_qset("gone", "manual", names) == "manual"
    assert view.pick_qset(None, "gone", names) == names[0]


def test_sorted_ks():
    assert view.sorted_ks([20, "4", 1]) == (1, 4, 20)
    assert view.sorted_ks(None) == ()


def test_resolve_b_for_each_mode():
    a = PipelineConfig()
    assert view.resolve_b(a, "none", {}) == (None, [])
    b, problems = view.resolve_b(a, "preset", {"preset": "A"})
    assert problems == [] and b.chunker == preset("A").chunker
    b, problems = view.resolve_b(a, "overrides", {"overrides": "retrieval.k=3"})
    assert problems == [] and b == a.with_overrides({"retrieval.k": "3"})
    b, problems = view.resolve_b(a, "overrides", {"overrides": "retrieval.k=abc"})
    assert b == a and any("retrieval.k" in p for p in problems)  # A unchanged, the line reported
    b, problems = view.resolve_b(a, "json", {"json": '{"retrieval": {"k": 7}}'})
    assert problems == [] and b.retrieval.k == 7
    b, problems = view.resolve_b(a, "json", {"json": '{"retrieval": {"k": "many"'})
    assert b is None and len(problems) == 1
    assert view.resolve_b(a, "json", {"json": "  "}) == (None, [])
    b, problems = view.resolve_b(
        a, "url", {"url": "http://x/inspect?retrieval.analyzer=char&lang=en"}
    )
    assert problems == [] and b == a.with_overrides({"retrieval.analyzer": "char"})
    assert view.resolve_b(a, "url", {"url": ""}) == (None, [])


def test_seconds_text_calls_a_run_at_most_half_its_compute_time_a_cache_hit():
    now_a, computed_a = 1.25, 1.3  # 1.25 > 1.3 / 2: computed now
    now_b, computed_b = 0.01, 3.1  # 0.01 ≤ 3.1 / 2: from the cache
    text = view.seconds_text(["A", "B"], [(now_a, computed_a), (now_b, computed_b)], "en")
    assert text == f"A {now_a:.2f} s · " + t(
        "ev.cached", "en", side="B", seconds=f"{computed_b:.2f}"
    )


def test_judged_share_is_the_mean_share():
    ev = SimpleNamespace(judged_share={"q1": 0.5, "q2": 1.0, "q3": 0.0})
    assert view.judged_share(ev) == pytest.approx((0.5 + 1.0 + 0.0) / 3)
    assert view.judged_share(SimpleNamespace(judged_share={})) == 0.0


def _pair(wins: int, losses: int, ties: int) -> tuple[dict[str, float], dict[str, float]]:
    a = {f"w{i}": 1.0 for i in range(wins)} | {f"l{i}": 0.0 for i in range(losses)}
    b = {f"w{i}": 0.0 for i in range(wins)} | {f"l{i}": 1.0 for i in range(losses)}
    a |= {f"t{i}": 0.5 for i in range(ties)}
    b |= {f"t{i}": 0.5 for i in range(ties)}
    return a, b


def test_paired_reading_words_the_verdict_in_both_languages():
    c = paired_compare(*_pair(18, 3, 43))
    p = format_p(sign_test(18, 3))
    assert view.paired_reading(c, "en") == (
        f"A vs B: A better on 18 queries, worse on 3, tied on 43; sign test p {p}: "
        f"A is better on these {18 + 3 + 43} queries"
    )
    assert view.paired_reading(c, "ko") == (
        f"A 대 B: 18개 질의에서 A 우세, 3개에서 열세, 43개 동률. 부호 검정 p {p}: "
        f"이 {18 + 3 + 43}개 질의에서는 A 쪽이 낫습니다."
    )
    reverse = paired_compare(*reversed(_pair(18, 3, 43)), label_a="E", label_b="A")
    assert view.paired_reading(reverse, "en").endswith("A is better on these 64 queries")
    flat = paired_compare(*_pair(1, 0, 0))
    assert view.paired_reading(flat, "en") == (
        f"A vs B: A better on 1 query, worse on 0, tied on 0; sign test p {format_p(1.0)}: "
        "not distinguishable on these 1 query"
    )
    assert "구별할 수 없습니다" in view.paired_reading(flat, "ko")
    # phrasings averaged into one value per question: the readout counts questions
    qs = paired_compare(*_pair(18, 3, 43), unit="question")
    assert view.paired_reading(qs, "en").startswith("A vs B: A better on 18 questions, worse")
    assert view.paired_reading(qs, "en").endswith("A is better on these 64 questions")
    assert "18개 질문에서 A 우세" in view.paired_reading(qs, "ko")
    with pytest.raises(ValueError, match="valid choices: query, question"):
        paired_compare(*_pair(1, 0, 0), unit="phrasing")  # type: ignore[arg-type]
    assert view.significant(c) and not view.significant(flat)


def _evals():
    gold = {f"q{i}": {"g": 1} for i in range(4)}
    a_rank = {"q0": ["g"], "q1": ["x", "g"], "q2": ["x"], "q3": ["g"]}
    b_rank = {"q0": ["x", "g"], "q1": ["g"], "q2": ["g"], "q3": ["g"]}
    tags = {"q0": ("ko",), "q1": ("en",), "q2": ("ko",), "q3": ("en",)}
    ra, rb = evaluate_queries(a_rank, gold, [1, 2]), evaluate_queries(b_rank, gold, [1, 2])
    return SimpleNamespace(result=ra, tags=tags, ks=(1, 2)), SimpleNamespace(
        result=rb, tags=tags, ks=(1, 2)
    )


def test_metrics_table_has_one_row_per_metric_and_the_test_columns_with_b():
    from rag_core.evaluation.aggregate import compare_results

    a, b = _evals()
    head, rows, classes = view.metrics_table(a, {"A": a}, None, "en")
    assert len(head) == 2 and len(rows) == len(a.result.metrics) and set(classes) == {None}
    assert [r[0] for r in rows] == [view.metric_label(k) for k in a.result.metrics]
    cmp = compare_results(a.result, b.result)
    head, rows, _ = view.metrics_table(a, {"A": a, "B": b}, cmp, "en")
    assert len(head) == 1 + 2 + 5 and all(len(r) == len(head) for r in rows)
    k = a.result.metrics.index("hit@1")
    c = cmp["hit@1"]
    assert rows[k][3:6] == [c.wins, c.losses, c.ties] and rows[k][-1] == view.paired_reading(
        c, "en"
    )


def test_cell_shows_mean_and_interval():
    m = SimpleNamespace(mean=0.5, low=0.25, high=0.75, method="bootstrap")
    assert "0.500" in view.cell(m) and "[0.250, 0.750]" in view.cell(m)
    assert "bootstrap" in view.cell(m) and "부트스트랩" in view.cell(m, "ko")
    w = SimpleNamespace(mean=0.5, low=0.25, high=0.75, method="wilson")
    assert "Wilson" in view.cell(w) and "bootstrap" not in view.cell(w)  # named next to it
    assert "—" in view.cell(None)


def test_default_metric_and_log_axis():
    options = ["hit@1", "recall@1", "recall@8"]
    assert view.default_metric(options, (1, 8)) == "recall@8"
    assert view.default_metric(options, (1, 4)) == options[0]
    assert view.default_metric(options, (1, 4), current="hit@1") == "hit@1"
    assert view.log_axis([1, 10]) and not view.log_axis([1, 9]) and not view.log_axis([5])


def test_curve_points_skip_missing_values():
    a, b = _evals()
    pts = view.curve_points({"A": a, "B": b}, "recall")
    assert [k for k, _ in pts["A"]] == [1, 2]
    assert pts["A"][0][1].mean == pytest.approx(2 / 4)  # q0, q3 at rank 1
    assert pts["B"][1][1].mean == pytest.approx(4 / 4)


def test_breakdown_rows_follow_the_tag_groups():
    a, b = _evals()
    rows = view.breakdown_rows({"A": a, "B": b}, "hit@1", "en")
    assert [">en<" in r[1] for r in rows] == [True, False]  # one group: tags in order
    assert [">ko<" in r[1] for r in rows] == [False, True]
    assert [r[2] for r in rows] == [2, 2]  # two queries per tag
    hit_a_ko = (1 + 0) / 2  # q0 at rank 1, q2 missed
    assert f"{hit_a_ko:.3f}" in rows[1][3]


def test_question_filters_and_rows():
    rows = [
        {"first_gold_a": 1, "first_gold_b": None},
        {"first_gold_a": None, "first_gold_b": 2},
        {"first_gold_a": 3, "first_gold_b": 3},
    ]
    assert view.question_filters(False) == ("all", "miss_a")
    assert view.filter_questions(rows, "all") == rows
    assert view.filter_questions(rows, "miss_a") == [rows[1]]
    assert view.filter_questions(rows, "miss_b") == [rows[0]]
    assert view.filter_questions(rows, "differ") == rows[:2]
    assert "first_gold_b" not in view.question_order(False)
    assert view.question_order(True).index("first_gold_b") == 2


def test_phrasing_and_open_view():
    assert view.phrasing_of("ko-01#2") == 2
    assert view.phrasing_of("ko-01") == 0
    assert view.phrasing_of("odd#name") == 0
    assert view.phrasing_of("a#b#1") == 1
    row = {"query_id": "ko-01#1", "question_id": "ko-01"}
    assert view.open_view(row, "manual", "inspect", "x=1") == {
        K_QMODE: "set",
        K_QSET: "manual",
        K_QID: "ko-01",
        K_QPHRASING: 1,
    }
    assert view.open_view(row, "manual", "compare", "x=1")[K_COMPARE_B] == "x=1"
    assert view.widget_values("compare", "x=1") == {K_COMPARE_B_WIDGET: "x=1"}
    assert view.widget_values("inspect", "x=1") == {}


def test_stage_warnings_are_worded_from_data_not_read_back_from_sentences():
    ev = SimpleNamespace(
        stage_problems=(notice(STAGE_PROBLEM_BARE, stage="dense", status="unavailable"),),
        not_in_corpus={
            "half": (("kv", "x" * 50),),
            "gone": tuple((f"d{i}", f"t{i}") for i in range(4)),
        },
        question_of={"half#0": "half"},  # "gone" has no scored query
    )
    problem = {"ko": "dense (상태 unavailable)", "en": "dense unavailable"}
    for lang in ("ko", "en"):
        assert view.stage_warnings(ev, lang) == [
            t("ev.stage_problem", lang, problem=problem[lang]),
            t("ev.needle_missing", lang, qid="half", n=1, needles=f"kv “{'x' * 40}”"),
            t(
                "ev.needle_missing_unscored",
                lang,
                qid="gone",
                n=4,
                needles="d0 “t0”, d1 “t1”, d2 “t2”, …",
            ),
        ]


def test_resolve_b_words_its_problems_in_the_page_language():
    a = PipelineConfig()
    _, en = view.resolve_b(a, "json", {"json": '{"retrieval": {"k": 0}}'})
    _, ko = view.resolve_b(a, "json", {"json": '{"retrieval": {"k": 0}}'}, "ko")
    assert en == ["retrieval.k = 0 is out of range; it must be between 1 and 10000"]
    assert len(ko) == 1 and "retrieval.k = 0" in ko[0] and "1 이상 10000 이하" in ko[0]
    _, ko_json = view.resolve_b(a, "json", {"json": "{"}, "ko")
    assert ko_json[0].startswith("설정이 올바른 JSON 이 아닙니다: 1행 2열 (문자 1): ")
