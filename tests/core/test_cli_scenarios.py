"""``python -m rag_core scenarios {check,prepare}`` on the shipped corpus, generation off."""

from __future__ import annotations

import json

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
