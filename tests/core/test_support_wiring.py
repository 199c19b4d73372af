"""The support stage as the app and the CLI reach it: the pipeline passes the generator as the
judge when ``support.judge`` is on (and says so when it cannot judge), the support stage's
messages are notices, and the ``support`` CLI names a missing judge and each bad row."""

from __future__ import annotations

import json

import pytest
from helpers.fakes import FakeGenerator

import rag_core.models as models
from rag_core.answer.checkfile import (
    ROW_NO_ANSWER,
    ROW_NOT_JSON,
    ROW_NOT_OBJECT,
    SUPPORT_BAD_ROW,
    RowError,
    parse_lines,
)
from rag_core.answer.support import SUPPORT_NO_CLAIMS, SUPPORT_SUMMARY, check_support
from rag_core.config import SupportConfig, preset
from rag_core.models import ModelUnavailable
from rag_core.pipeline import run
from rag_core.types import ContextStage, Source
from rag_core.wording import english

ANSWER = "Error E17 means the door latch did not close [1]."
QUESTION = "What does error E17 mean?"


class JudgingGenerator(FakeGenerator):
    """The fake generator with a judge's ``p_yes`` that always answers ``p``."""

    def __init__(self, answer: str, p: float) -> None:
        super().__init__(answer)
        self.p, self.judged = p, 0

    def p_yes(self, system: str, user: str) -> float:
        self.judged += 1
        return self.p


@pytest.fixture()
def swap_generator(monkeypatch, tmp_path):
    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))

    def no_embedder(name, *a, **k):
        raise ModelUnavailable(name, "not in this test")

    monkeypatch.setattr(models, "get_embedder", no_embedder)

    def use(gen):
        monkeypatch.setattr(models, "get_generator", lambda name, *a, **k: gen)
        return gen

    return use


def _trace(corpus, judge: bool):
    cfg = preset("C").with_overrides(
        {
            "retrieval.analyzer": "unicode",
            "generation.model": "fake",
            "support.judge": str(judge).lower(),
        }
    )
    return run(cfg, QUESTION, corpus)


def test_the_pipeline_asks_the_generator_as_judge_only_when_support_judge_is_on(
    tiny_corpus, swap_generator
):
    off = swap_generator(JudgingGenerator(ANSWER, 0.0001))
    t_off = _trace(tiny_corpus, judge=False)
    assert t_off.generation.answer == ANSWER and off.judged == 0
    assert t_off.support.params["judge"] is False
    assert t_off.support.claims[0].verdict == "supported"

    veto = swap_generator(JudgingGenerator(ANSWER, 0.0001))
    t_veto = _trace(tiny_corpus, judge=True)
    assert veto.judged > 0 and t_veto.support.params["judge"] is True
    claim = t_veto.support.claims[0]
    assert {e.judge for e in claim.evidence} == {0.0001}
    assert claim.verdict != "supported"  # the judge's "no" turned the verdict
    assert claim.p_supported is not None
    assert claim.p_supported < t_off.support.claims[0].p_supported  # type: ignore[operator]

    yes = swap_generator(JudgingGenerator(ANSWER, 0.9999))
    t_yes = _trace(tiny_corpus, judge=True)
    assert yes.judged > 0 and t_yes.support.claims[0].verdict == "supported"
    assert t_yes.support.notice is not None and t_yes.support.notice.code == SUPPORT_SUMMARY


def _ctx(text: str) -> ContextStage:
    src = Source(1, "c", "d", "t", "", 0, len(text), "#", text, 0, "included")
    return ContextStage("ok", "given", "given", 0, (src,))


def test_support_stage_messages_are_notices_with_their_english():
    ctx = _ctx("Cats purr when they are content.")
    st = check_support("Cats purr when they are content [1].", ctx, SupportConfig())
    assert st.notice is not None and st.notice.code == SUPPORT_SUMMARY
    assert st.notice.params["judged"] == 1
    assert st.message == english(st.notice) == f"1 claims: 1 {st.claims[0].verdict}"
    refusal = check_support("The sources do not contain the answer.", ctx, SupportConfig())
    assert refusal.notice is not None and refusal.notice.code == SUPPORT_NO_CLAIMS
    assert refusal.message == english(refusal.notice) and "refusal" in refusal.message


def test_bad_rows_carry_a_notice_naming_file_line_and_problem():
    lines = [
        "[1]",
        '{"contexts": ["x"]}',
        "{broken",
        json.dumps({"contexts": ["x"], "answer": "y"}),
    ]
    got = list(parse_lines(lines, "mine.jsonl"))
    errors = [g for g in got if isinstance(g, RowError)]
    assert len(errors) == 3 and got[:3] == errors
    assert [e.problem.code for e in errors] == [ROW_NOT_OBJECT, ROW_NO_ANSWER, ROW_NOT_JSON]
    assert [e.notice.code for e in errors] == [SUPPORT_BAD_ROW] * 3
    assert str(errors[0]) == "mine.jsonl:1: a row must be a JSON object, not list"
    assert got[3].answer == "y"  # the good row after the bad ones is still read


def test_cli_names_a_missing_judge_in_one_line(tmp_path, capsys, monkeypatch):
    from rag_core.cli import main

    def missing(name, *a, **k):
        raise ModelUnavailable(name, "no weights here")

    monkeypatch.setattr(models, "get_generator", missing)
    f = tmp_path / "rows.jsonl"
    f.write_text(json.dumps({"contexts": ["Cats purr."], "answer": "Cats purr."}) + "\n")
    code = main(["support", str(f), "--judge", "--generator", "nope"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip() == "error: --judge: the judge 'nope' is unavailable: no weights here"
    assert main(["support", str(tmp_path / "absent.jsonl")]) == 2
    assert "absent.jsonl: file not found" in capsys.readouterr().err


def test_claim_reasons_are_notices_whose_english_is_the_reason():
    """Each verdict's reason is a ``support.why.*`` notice; ``Claim.reason`` is its English."""
    ctx = _ctx("Cats purr when they are content. The cat was born in 2019.")
    cases = {
        "Cats purr when they are content [1].": ("supported", "supported by [1] p "),
        "Cats purr when they are content [3].": ("invalid-citation", "cites [3], which is not"),
        "Cats purr when they are content.": ("uncited", "no citation; supported by [1] p "),
        "Dogs fly over the moon daily [1].": ("unsupported", "no source supports it (needs"),
        "The sources do not contain the answer.": ("not-a-claim", "not a claim: refusal"),
    }
    for answer, (verdict, head) in cases.items():
        claim = check_support(answer, ctx, SupportConfig()).claims[0]
        assert claim.verdict == verdict, (answer, claim.verdict, claim.reason)
        assert claim.notice is not None and claim.notice.code.startswith("support.why.")
        assert claim.reason == english(claim.notice)
        assert head in claim.reason, claim.reason
