"""The Evaluate answers section's view model (``ui.evaluate.answers_view``): rows, tables, JSON —
no Streamlit."""

from __future__ import annotations

import json
from types import SimpleNamespace

from ui.evaluate import answers_view as view
from ui.i18n import t


def _rate(k: int, n: int) -> dict[str, float]:
    return {"rate": k / n, "k": k, "n": n, "low": 0.1, "high": 0.9}


def _ev(status: str = "complete", **rates: dict[str, float]) -> SimpleNamespace:
    row = SimpleNamespace(
        query_id="q1#0",
        outcome="wrong",
        loss_stage="gate",
        text="How high?",
        answer=None,
        claims=[{"verdict": "unsupported"}, {"verdict": "uncited"}],
    )
    return SimpleNamespace(
        status=status,
        summary={"rates": rates},
        rows=[row],
        retrieval={"means": {"recall@4": {"mean": 0.5, "n": 2, "low": 0.25, "high": 0.75}}},
        to_dict=lambda: {"status": status},
    )


def test_rate_cells_show_value_counts_and_interval_or_a_dash():
    value, counts, ci = view.rate_cell(_rate(1, 4), "en")
    assert (str(value), counts) == ('<span class="ri-num">0.250</span>', "1/4")
    assert "[0.100, 0.900]" in str(ci)
    empty = view.rate_cell(None, "en")
    assert empty[1] == 0 and t("ans.no_items", "en") in str(empty[2])


def test_rates_table_has_one_row_per_rate_and_three_columns_per_side():
    sides = {"A": _ev(answered_correctly=_rate(2, 3)), "B": _ev()}
    head, rows = view.rates_table(sides, ["A", "B"], "en")
    assert len(head) == 1 + 3 * 2 and len(rows) == len(view.RATES)
    assert rows[0][0] == t("ans.rate.answered_correctly", "en") and rows[0][2] == "2/3"
    assert rows[0][5] == 0  # B has no such rate: the dash cell


def test_only_sides_that_generated_are_answered():
    sides = {"A": _ev("retrieval_only"), "B": _ev("partial")}
    assert view.answered_sides(sides) == ["B"]
    head, rows = view.retrieval_only_table(sides["A"], "en")
    assert len(head) == 4 and rows[0][0] == "recall@4" and rows[0][2] == 2


def test_query_rows_word_outcome_and_loss_and_list_the_verdicts():
    (row,) = view.query_rows(_ev(), "en")
    assert row == {
        "query": "q1#0",
        "outcome": t("ans.outcome.wrong", "en"),
        "loss": t("ans.stage.gate", "en"),
        "text": "How high?",
        "answer": "",
        "claims": "unsupported, uncited",
    }
    assert {name for name, _, _ in view.QUERY_COLUMNS} == set(row)


def test_comparison_rows_and_download_carry_the_comparison():
    c = {"n": 6, "only_a": 2, "only_b": 0, "difference": 1 / 3, "low": -0.1, "high": 0.7}
    cmp = {"metrics": {"bluff": {**c, "p": 0.5, "p_holm": 1.0, "verdict": "not_distinguishable"}}}
    head, rows = view.comparison_table(cmp, "en")
    assert len(head) == len(rows[0]) == 8
    assert f"{100 / 3:+.1f} [-10.0, +70.0]" in str(rows[0][4])
    (mde,) = view.mde_lines({"metrics": {"bluff": {**c, "mde": 0.25}}}, "en")
    assert "25.0" in mde
    data = json.loads(view.download_json({"A": _ev()}, cmp))
    assert data == {"A": {"status": "complete"}, "comparison": cmp}
    assert "comparison" not in json.loads(view.download_json({"A": _ev()}, None))
