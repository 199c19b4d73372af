"""``python -m rag_core scenarios {check,prepare}`` on the shipped corpus (generation off, but
for ``check --answers``)."""

from __future__ import annotations

import json

import pytest

from rag_core.cli import main


def test_check_reports_each_run_as_stated(capsys):
    code = main(["scenarios", "check", "--only", "rerank-wrong-paragraph,budget-cut", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["not_as_stated"] == 0
    rows = {(r["scenario"], r["side"]): (r["verdict"], r["stage"]) for r in out["runs"]}
    assert rows == {
        ("rerank-wrong-paragraph", "A"): ("lost", "rerank"),
        ("rerank-wrong-paragraph", "B"): ("sent", "context"),
        ("budget-cut", "A"): ("lost", "context"),
        ("budget-cut", "B"): ("sent", "context"),
    }


def test_check_fails_when_a_baseline_no_longer_works(capsys):
    # a base config under both sides: with hard-cut, A's 400 tokens cut the question, not the
    # gold's source — A no longer fails where the scenario says
    code = main(["scenarios", "check", "--only", "budget-cut", "--set", "context.policy=hard-cut"])
    out = capsys.readouterr().out
    assert code == 1 and "BAD budget-cut" in out


def test_prepare_runs_every_side_once_and_an_unknown_id_is_one_line(capsys):
    code = main(
        ["scenarios", "prepare", "--only", "naive-cut", "--set", "generation.model=none", "--json"]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [(r["scenario"], r["side"]) for r in out["runs"]] == [
        ("naive-cut", "A"),
        ("naive-cut", "B"),
    ]
    assert all(r["generation"] == "skipped" and not r["cached"] for r in out["runs"])
    assert main(["scenarios", "check", "--only", "nope"]) == 2
    assert "unknown scenario 'nope'" in capsys.readouterr().err


@pytest.mark.slow
def test_check_answers_marks_each_baseline_by_evaluates_rule(capsys):
    """``--answers``: B is answered by the configured generator (here the default) and must be
    marked correct (or a correct refusal out of domain); a cap that cuts B's answer fails it."""
    only = ["--only", "korean-particle,no-threshold", "--json"]
    code = main(["scenarios", "check", "--answers", *only])
    out = json.loads(capsys.readouterr().out)
    marks = {r["scenario"]: r.get("answer_mark") for r in out["runs"] if r["side"] == "B"}
    assert (code, marks) == (0, {"korean-particle": "correct", "no-threshold": "correct_refusal"})
    assert all("answer_mark" not in r for r in out["runs"] if r["side"] == "A")

    cut = ["--set", "generation.max_new_tokens=3"]
    code = main(["scenarios", "check", "--answers", *cut, *only])
    rows = {
        r["scenario"]: r for r in json.loads(capsys.readouterr().out)["runs"] if r["side"] == "B"
    }
    assert code == 1 and rows["korean-particle"]["answer_mark"] == "cut_off"
    assert not rows["korean-particle"]["as_stated"] and rows["no-threshold"]["as_stated"]
