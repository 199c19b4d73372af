"""CSV exports a spreadsheet cannot run (OWASP's CSV-injection rule), numbers left as numbers."""

from __future__ import annotations

import csv
import io

import pytest

from rag_core.formats.spreadsheet import FORMULA_STARTS, rows_csv, safe_cell


@pytest.mark.parametrize(
    "text",
    [
        '=HYPERLINK("http://x.invalid","click")',
        "+1+cmd|' /C calc'!A0",
        "-2+3",
        "@SUM(A1:A2)",
        "\t=1+1",
        "\r=1+1",
        "＝1+1",
        "-",
        "--help",
    ],
)
def test_formula_like_text_gets_a_leading_quote(text):
    assert safe_cell(text) == "'" + text


@pytest.mark.parametrize("value", [-0.5, 0.25, -3, 0, True, float("inf")])
def test_numbers_are_not_text_and_pass_unchanged(value):
    assert safe_cell(value) is value


@pytest.mark.parametrize("text", ["-0.5", "+3", "1e-3", "-.5", "-2E+4", "12"])
def test_plain_decimal_strings_pass_unchanged(text):
    assert safe_cell(text) == text


@pytest.mark.parametrize("text", ["plain", "a=b", "", "한라산 = 1950 m", " =1"])
def test_other_text_is_unchanged(text):
    assert safe_cell(text) == text


def test_every_start_character_is_neutralised():
    for start in FORMULA_STARTS:
        assert safe_cell(start + "x").startswith("'")


def test_rows_csv_round_trip_keeps_numbers_and_quotes_formulas():
    rows = [
        {"query_id": "q1", "text": '=HYPERLINK("http://x")', "ndcg@10": -0.5, "rank": None},
        {"query_id": "@q2", "text": "How tall, really?", "ndcg@10": 0.75, "rank": 3},
    ]
    back = list(csv.DictReader(io.StringIO(rows_csv(rows))))
    assert back[0]["text"] == '\'=HYPERLINK("http://x")'
    assert back[0]["ndcg@10"] == "-0.5" and float(back[0]["ndcg@10"]) == -0.5
    assert back[0]["rank"] == ""
    assert back[1]["query_id"] == "'@q2" and back[1]["text"] == "How tall, really?"
    assert back[1]["rank"] == "3"


def test_header_cells_are_checked_too():
    text = rows_csv([{"=cmd": 1}])
    assert text.splitlines()[0] == "'=cmd"


def test_tsv_uses_the_same_rule():
    text = rows_csv([{"a": "-x", "b": -1.5}], delimiter="\t")
    assert text == "a\tb\n'-x\t-1.5\n"
    with pytest.raises(ValueError, match="delimiter"):
        rows_csv([], delimiter="|")


def test_the_evaluate_and_threshold_exports_use_it():
    # Evaluate's per-query CSV and the sweep's CSV both write through it
    import ui.evaluate.widgets
    import ui.threshold.widgets

    assert ui.evaluate.widgets.rows_csv is ui.threshold.widgets.rows_csv is rows_csv
    assert rows_csv([{"text": "=1+1"}]) == "text\n'=1+1\n"
