"""The lecture verdict (``rag_core.evaluation.verdict``) and the answer's own mark
(``answer_mark``), on the tiny inline corpus with a char-level fake generator."""

from __future__ import annotations

import re

import pytest
from helpers.fakes import CharGenerator

from rag_core.config import PipelineConfig
from rag_core.evaluation.answer_marks import ANSWER_MARKS, answer_mark
from rag_core.evaluation.verdict import FAILURES, KINDS, SEEN, SUCCESSES, verdict
from rag_core.models import ModelUnavailable
from rag_core.pipeline import run
from rag_core.types import Needle, Question

E17 = Question(
    "q-e17",
    "en",
    "What does error E17 mean?",
    needles=(Needle("kv", "Error E17 means the door latch did not close"),),
)
E99 = Question("q-e99", "en", "What does error E99 mean?", answerable=False)


class Answers(CharGenerator):
    """Answers a fixed text, whatever the prompt (char-level token ids)."""

    file_sha256 = "e" * 64

    def __init__(self, answer: str) -> None:
        self.answer = answer

    def generate_ids(self, ids, max_new_tokens):
        return self.answer, [ord(c) for c in self.answer] + [0], 0.1


@pytest.fixture()
def answering(monkeypatch, tmp_path):
    """``answering(text)``: the pipeline's generator answers ``text`` (no embedder)."""
    import rag_core.models as models

    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))

    def no_embedder(name, *a, **k):
        raise ModelUnavailable(name, "not in this test")

    monkeypatch.setattr(models, "get_embedder", no_embedder)

    def use(text: str) -> None:
        gen = Answers(text)
        gen.file_sha256 = f"{abs(hash(text)):064x}"[:64]  # one generation cache entry per text
        monkeypatch.setattr(models, "get_generator", lambda name, *a, **k: gen)

    return use


def _cfg(**overrides: object) -> PipelineConfig:
    return PipelineConfig().with_overrides(
        {"chunker.preset": "C", "generation.model": "fake", **overrides}
    )


def test_kinds_split_into_failures_and_successes():
    assert set(FAILURES) | set(SUCCESSES) < set(KINDS)
    assert not set(FAILURES) & set(SUCCESSES)


def test_gold_sent_is_kept_after_the_candidates_and_sent_after_the_prompt(tiny_corpus, answering):
    answering("Error E17 means the door latch did not close [1].")
    trace = run(_cfg(), E17.question, tiny_corpus, gold=E17)
    seen = [verdict(trace, E17, seen=s) for s in SEEN]
    assert [v.kind for v in seen] == ["kept", "sent", "sent"]
    assert seen[0].rank == 1 and seen[0].source is None  # the prompt's [n] is not told yet
    assert seen[1].source == trace.gold.stage_ranks["context"][0] == 1
    assert not any(v.failed for v in seen)


def test_a_budget_loss_is_not_told_before_the_prompt_is_seen(tiny_corpus, answering):
    answering("unused")
    trace = run(_cfg(**{"context.budget_tokens": 300}), E17.question, tiny_corpus, gold=E17)
    assert trace.gold.lost_at == "context"
    before = verdict(trace, E17, seen="gate")
    after = verdict(trace, E17, seen="context")
    assert (before.kind, before.stage, before.failed) == ("kept", "gate", False)
    assert (after.kind, after.stage, after.failed) == ("lost", "context", True)
    assert [n.code for n in after.notices] == ["gold.source_dropped"]
    assert after.notices[0].params == {"reason": "budget"}


def test_a_naive_cut_of_the_question_is_its_own_failure(tiny_corpus, answering):
    answering("unused")
    cfg = _cfg(**{"context.budget_tokens": 300, "context.policy": "hard-cut"})
    trace = run(cfg, E17.question, tiny_corpus, gold=E17)
    assert trace.context.question_cut
    assert verdict(trace, E17, seen="context").kind == "question_cut"
    assert verdict(trace, E17, seen="gate").kind == "kept"


def test_a_loss_among_the_candidates_is_told_at_once_with_its_reason(tiny_corpus, answering):
    answering("unused")
    cfg = _cfg(**{"retrieval.analyzer": "unicode", "gate.max_kept": 1})
    q = Question(
        "q-noru",
        "ko",
        "KV cache decode tokens 노루가",
        needles=(Needle("jeju", "한라산에는 노루가 많이 산다"),),
    )
    trace = run(cfg, q.question, tiny_corpus, gold=q)
    lost = trace.gold.lost_at
    assert lost == "gate" and trace.gold.stage_ranks["rerank"][0] > 1
    for s in SEEN:
        v = verdict(trace, q, seen=s)
        assert (v.kind, v.stage) == ("lost", lost)
        assert v.notices and all(n is not None for n in v.notices)


def test_out_of_domain_should_refuse_until_the_gate_or_the_model_does(tiny_corpus, answering):
    answering("Error E99 means the door is open [1].")
    trace = run(_cfg(), E99.question, tiny_corpus)
    assert not trace.gate.refused
    assert [verdict(trace, E99, seen=s).kind for s in SEEN] == ["should_refuse"] * 3
    assert verdict(trace, E99, seen="answer").stage == "answer"
    assert verdict(trace, E99, seen="gate").kept == len(trace.gate.kept) > 0
    assert answer_mark(trace, E99) == "bluff"

    answering("The sources do not contain the answer.")
    by_model = run(_cfg(), E99.question, tiny_corpus)
    assert verdict(by_model, E99, seen="gate").kind == "should_refuse"  # the gate let it through
    v = verdict(by_model, E99, seen="answer")
    assert (v.kind, v.stage) == ("refused", "answer")
    assert answer_mark(by_model, E99) == "correct_refusal"

    gated = run(_cfg(**{"gate.min_score": 1000.0}), E99.question, tiny_corpus)
    assert gated.gate.refused
    verdicts = [verdict(gated, E99, seen=s) for s in SEEN]
    assert [(v.kind, v.stage) for v in verdicts] == [("refused", "gate")] * 3
    assert answer_mark(gated, E99) == "correct_refusal"


def test_free_text_has_no_gold_to_judge(tiny_corpus, answering):
    answering("Error E17 means the door latch did not close [1].")
    trace = run(_cfg(), E17.question, tiny_corpus)
    assert verdict(trace).kind == "no_gold" and verdict(trace).answerable is None
    assert answer_mark(trace) == "not_judged"
    with pytest.raises(ValueError, match=re.escape("seen = 'claims' is not valid; valid choices")):
        verdict(trace, seen="claims")


@pytest.mark.parametrize(
    ("answer", "mark"),
    [
        ("Error E17 means the door latch did not close [1].", "correct"),
        # faithful to source [1] yet not what was asked: not 'correct'
        ("Error E21 means the water inlet is blocked [1].", "wrong"),
        ("The sources do not contain the answer.", "false_refusal"),
    ],
)
def test_the_answer_mark_is_the_answered_correctly_rule(tiny_corpus, answering, answer, mark):
    answering(answer)
    trace = run(_cfg(), E17.question, tiny_corpus, gold=E17)
    assert mark in ANSWER_MARKS
    assert answer_mark(trace, E17) == mark
    assert answer_mark(trace) == mark  # from the Trace's own gold


def test_an_answer_the_length_cap_cut_is_cut_off_never_correct(tiny_corpus, answering, monkeypatch):
    """The right words, but the model was still writing at ``max_new_tokens`` (no end of
    sequence): "cut off", and Evaluate's row does not count it correct either."""
    from rag_core.evaluation.answer_marks import answer_row

    answering("Error E17 means the door latch did not close [1]")
    monkeypatch.setattr(Answers, "eos_ids", (-1,))  # its last token is no end-of-sequence
    trace = run(_cfg(**{"generation.citations": "free"}), E17.question, tiny_corpus, gold=E17)
    assert trace.generation.params["cut"] is True
    assert answer_mark(trace, E17) == "cut_off" and "cut_off" in ANSWER_MARKS
    row = answer_row(trace, E17, E17.id)
    assert row.correct is False and row.judgement is not None and row.judgement.correct


def test_no_answer_made_is_not_judged_but_a_refusing_gate_is(tiny_corpus):
    off = PipelineConfig().with_overrides({"chunker.preset": "C", "generation.model": "none"})
    trace = run(off, E17.question, tiny_corpus, gold=E17)
    assert answer_mark(trace, E17) == "not_judged"
    gated = run(off.with_overrides({"gate.min_score": 1000.0}), E17.question, tiny_corpus, gold=E17)
    assert answer_mark(gated, E17) == "false_refusal"
    assert answer_mark(trace, Question("q", "en", "x")) == "not_judged"  # answerable, no needle
