"""Every scenario of the lecture gallery shows its failure in A and works in B, on the shipped
corpus, in the terms of the lecture's verdict line (``rag_core.evaluation.verdict``).

A fails where ``Scenario.fails_at`` says: the gold is lost at that stage (or, out of domain,
the gate lets the question through), and the card's own ``expect`` holds. B works as
``Scenario.works`` says: the gold is retrieved, kept and sent in the prompt, or the question
is refused — and ``expect_b`` holds. Generation is off for those claims: they are about the
stages before it. The context is built twice: with the fallback tokenizer (what the app shows
with generation off) and, in the slow test, with the default generator's own tokenizer (what
it shows by default), since the budget scenarios count tokens.

With generation on (slow: the shipped corpus and the bundled generator, as the Lecture page
runs them), B must also *work* for the person watching: its answer is marked correct by
Evaluate's rule (``rag_core.evaluation.answer_marks.answer_mark``: ``correct``, or
``correct_refusal`` for an out-of-domain question), never cut off by the length cap.
"""

from __future__ import annotations

import re

import pytest

from rag_core.config import PipelineConfig
from rag_core.evaluation.verdict import verdict
from rag_core.index import CorpusIndex, load_corpus_index
from rag_core.pipeline import run
from rag_core.scenarios import FAIL_STAGES, SCENARIOS, WORKS, Scenario, check_expectation

OFF = PipelineConfig().with_overrides({"generation.model": "none"})
DENSE = {s.id for s in SCENARIOS if "dense" in str({**s.overrides, **(s.compare or {})})}

_CORPUS: dict[str, CorpusIndex] = {}


def _shipped() -> CorpusIndex:
    if "sample" not in _CORPUS:
        _CORPUS["sample"] = load_corpus_index()
    return _CORPUS["sample"]


def _check(s: Scenario) -> None:
    corpus = _shipped()
    q = {x.id: x for x in corpus.questions}[s.question_id]
    text = s.question_text(q)
    a = run(s.config(OFF), text, corpus, gold=q)
    va = verdict(a, q, seen="context")
    assert va.failed and va.stage == s.fails_at, (s.id, "A", va)
    assert check_expectation(a, s.expect) == [], (s.id, "A")
    config_b = s.config_b(OFF)
    assert config_b is not None, f"{s.id} has no baseline B"
    b = run(config_b, text, corpus, gold=q)
    vb = verdict(b, q, seen="context")
    assert vb.kind == s.works, (s.id, "B", vb)
    assert check_expectation(b, s.expect_b) == [], (s.id, "B")


def test_every_scenario_states_its_failure_and_has_a_baseline():
    for s in SCENARIOS:
        assert s.compare, f"{s.id}: every scenario needs a working baseline B"
        assert s.fails_at in FAIL_STAGES and s.works in WORKS
        q = {x.id: x for x in _shipped().questions}[s.question_id]
        assert (s.works == "refused") == (not q.answerable), s.id  # refusal only out of domain


def test_a_scenario_rejects_an_unknown_failure_or_baseline():
    base = SCENARIOS[0]
    fields = {
        "id": "x",
        "mode": 1,
        "title": base.title,
        "explanation": base.explanation,
        "look_at": base.look_at,
        "question_id": "ko-01",
    }
    with pytest.raises(ValueError, match=re.escape("fails_at = 'answer' is not valid")):
        Scenario(**fields, fails_at="answer")
    with pytest.raises(ValueError, match=re.escape("works = 'fast' is not valid")):
        Scenario(**fields, works="fast")


@pytest.mark.parametrize("s", [s for s in SCENARIOS if s.id not in DENSE], ids=lambda s: s.id)
def test_sparse_scenarios_fail_in_a_and_work_in_b(s):
    """The scenarios without a dense list: fast (no embedding model), fallback tokenizer."""
    _check(s)


@pytest.mark.slow
@pytest.mark.parametrize("s", [s for s in SCENARIOS if s.id in DENSE], ids=lambda s: s.id)
def test_dense_scenarios_fail_in_a_and_work_in_b(s):
    """The scenarios with a dense list load MiniLM / e5."""
    _check(s)


@pytest.mark.slow
@pytest.mark.parametrize("s", SCENARIOS, ids=lambda s: s.id)
def test_every_scenario_holds_with_the_default_generators_tokenizer(s, monkeypatch):
    """The prompt measured as the default app measures it: the default generator's tokenizer
    (its weights load; nothing is generated)."""
    import rag_core.models as models
    from rag_core.config import GenerationConfig

    generator = models.get_generator(GenerationConfig().model)
    monkeypatch.setattr(models, "fallback_prompt_tokenizer", lambda: generator)
    _check(s)


@pytest.mark.slow
@pytest.mark.parametrize("s", SCENARIOS, ids=lambda s: s.id)
def test_every_baseline_answers_correctly_with_the_bundled_generator(s):
    """A fails at its named stage and B's answer is marked correct by Evaluate's rule."""
    from rag_core.evaluation.answer_marks import answer_mark

    corpus = _shipped()
    q = {x.id: x for x in corpus.questions}[s.question_id]
    text = s.question_text(q)
    a = run(s.config(), text, corpus, gold=q, stop_after="context")  # its answer: not the point
    va = verdict(a, q, seen="context")
    assert va.failed and va.stage == s.fails_at, (s.id, "A", va)
    b = run(s.config_b(), text, corpus, gold=q)
    mark = answer_mark(b, q)
    want = "correct_refusal" if s.works == "refused" else "correct"
    assert mark == want, (s.id, "B", mark, b.generation.answer)
    assert not b.generation.params.get("cut"), (s.id, b.generation.answer)
