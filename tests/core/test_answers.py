"""Answer-level evaluation: the correctness rule, loss stages, replay, bad input, paired
statistics."""

from __future__ import annotations

import json
import math
import re
from statistics import NormalDist

import pytest
from helpers.fakes import CharGenerator, FakeGenerator
from helpers.paths import ROOT

from rag_core.config import preset
from rag_core.evaluation import answer_marks as M
from rag_core.evaluation import answers as A
from rag_core.evaluation.stats import (
    holm,
    minimum_detectable_effect,
    paired_difference_interval,
    paired_proportions,
    risk_coverage,
    sign_test,
    wilson_interval,
)
from rag_core.models import ModelUnavailable
from rag_core.types import Needle, Question
from rag_core.wording import english
from ui.i18n import notice_text

# ------------------------------------------------------------ the rule


def test_number_rule_needs_the_key_number_with_its_unit():
    needle = [Needle("d", "성산일출봉은 해발 182m의 응회구로")]
    assert M.answered_correctly("해발 182m입니다 [1].", needle, "성산일출봉의 높이는?").correct
    assert M.answered_correctly("182 미터입니다.", needle, "성산일출봉의 높이는?").correct
    assert not M.answered_correctly("182종이 산다.", needle, "성산일출봉의 높이는?").correct
    j = M.answered_correctly("해발 180m입니다.", needle, "성산일출봉의 높이는?")
    assert (j.correct, j.rule, j.key_numbers, j.matched_numbers) == (
        False,
        ("number",),
        (("182m",),),
        ((),),
    )


def test_numbers_the_question_already_states_are_not_key_numbers():
    needle = [Needle("d", "a margin of two points needs 2,401 of them at 95%")]
    q = "How many test examples are needed for a 95% margin of two points?"
    assert M.answered_correctly("You need 2401 examples.", needle, q).correct
    j = M.answered_correctly("A 95% margin needs many examples.", needle, q)
    assert not j.correct and j.key_numbers == (("2,401",),)


def test_a_number_is_read_by_its_value_however_it_is_written():
    lr = [Needle("d", r"a learning rate around $2 \times 10^{-4}$")]
    q = "What learning rate is a common starting point for LoRA?"
    for answer in ("2e-4 [1]", "About 0.0002.", "2×10⁻⁴"):
        assert M.answered_correctly(answer, lr, q).correct, answer
    for answer in ("2r [1]", "Use 2 epochs.", "10 percent"):  # a bare mantissa or base is not it
        assert not M.answered_correctly(answer, lr, q).correct, answer
    toll = [Needle("d", "2만 5천 명에서 3만 명 정도로 추정되었으며")]
    q2 = "4·3 사건 희생자는 몇 명으로 추정되나요?"
    assert M.answered_correctly("3만 명 정도입니다[2]", toll, q2).correct
    assert M.answered_correctly("약 25,000명입니다.", toll, q2).correct
    assert not M.answered_correctly("3명입니다.", toll, q2).correct


def test_a_needles_key_is_what_the_answer_must_state():
    row = "| 10,000 | ±1.0 | ±0.9 | ±0.6 | ±0.4 |"  # the margins at p = 0.5, 0.7, 0.9, 0.95
    q = "What is the 95% margin at 90% accuracy with 10,000 test examples?"
    # without a key, any number of the row passes: the p = 0.5 column's margin too
    assert M.answered_correctly("It is ±1.0 points.", [Needle("d", row)], q).correct
    keyed = [Needle("d", row, key=("±0.6",))]
    assert not M.answered_correctly("It is ±1.0 points.", keyed, q).correct
    j = M.answered_correctly("About 0.6 points [1].", keyed, q)
    assert j.correct and j.key_numbers == (("0.6",),)
    # a key without numbers is read by the term rule (who, not the year)
    who = [
        Needle("d", "1374년 최영 장군이 2만 5천여 명의 대군을 이끌고 건너와", key=("최영 장군",))
    ]
    assert not M.answered_correctly("1374년입니다.", who, "목호의 난은 누가 진압했나요?").correct
    assert M.answered_correctly("최영 장군입니다.", who, "목호의 난은 누가 진압했나요?").correct
    # every part of a key: how much a score improved is its "from" and its "to"
    change = [Needle("d", "went from 15.6 to 71.0 percent", key=("15.6", "71.0 percent"))]
    q2 = "How much did it improve on AIME 2024?"
    assert not M.answered_correctly("It improved by 71.0 percent [1].", change, q2).correct
    j2 = M.answered_correctly("From 15.6 to 71.0 percent [1].", change, q2)
    assert j2.correct and j2.rule == ("number", "number")


def test_term_rule_threshold_and_refusal():
    needle = [Needle("d", "clean the fluff filter, take out part of the load")]
    q = "What are the owner checks?"
    # needle terms: clean fluff filter take out part load -> 7 terms
    half = M.answered_correctly("Clean the fluff filter and take it out.", needle, q)
    assert half.term_recall == (round(5 / 7, 4),) and half.correct
    assert not M.answered_correctly("Clean it.", needle, q).correct  # 1/7 < 0.65
    assert M.answered_correctly("Clean it.", needle, q, min_term_recall=0.1).correct  # 1/7 ≥ 0.1
    refusal = M.answered_correctly(
        "The sources do not contain the answer.", needle, q, min_term_recall=0.0
    )
    assert not refusal.correct


def test_every_needle_must_be_satisfied():
    needles = [
        Needle("d", "pays for itself in about 135 days"),
        Needle("d", "the break-even moves to about nine months"),
    ]
    q = "When does it break even?"
    assert not M.answered_correctly("It breaks even at about nine months.", needles, q).correct
    assert M.answered_correctly(
        "In 135 days; at half traffic about nine months.", needles, q
    ).correct


def test_rule_rejects_bad_arguments():
    with pytest.raises(
        ValueError, match=re.escape("answered_correctly needs at least one gold needle")
    ):
        M.answered_correctly("x", [], "q")
    with pytest.raises(ValueError, match=re.escape("min_term_recall must lie in [0, 1]; got 1.5")):
        M.answered_correctly("x", [Needle("d", "y")], "q", min_term_recall=1.5)


def test_committed_labels_agree_with_the_rule():
    """The calibration sample: the rule in use agrees with every committed label it was tuned on."""
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    import calibrate_answers as cal

    rows = cal.load_rows()
    assert len(rows) >= 20 and {r["labeler"] for r, _q in rows} == {"helper"}
    agree, kappa, _pred = cal.agreement(rows, M.MIN_TERM_RECALL)
    from sklearn.metrics import cohen_kappa_score

    gold = [bool(r["label"]) for r, _q in rows]
    assert kappa == pytest.approx(cohen_kappa_score(_pred, gold))
    assert agree >= 0.9


# ------------------------------------------------------------ the run, on a fake generator


class QAGenerator(CharGenerator):
    """Char-level fake generator answering by the question found in the prompt."""

    file_sha256 = "f" * 64

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers, self.calls = answers, 0

    def generate_ids(self, ids, max_new_tokens):
        self.calls += 1
        prompt = self.decode(ids)
        answer = next(a for q, a in self.answers.items() if q in prompt)
        return answer, [ord(c) for c in answer] + [0], 0.5


ANSWERS = {
    "What does error E17 mean?": "Error E17 means the door latch did not close [1].",
    "What does error E21 mean?": "The sources do not contain the answer.",
    "What grows with every generated token?": "The model shrinks by 7 layers [1].",
    "What does the KV cache reuse during decode?": "It reuses the keys [1].",
    "What does error E99 mean?": "Error E99 means the door is open [1].",
}


def _questions() -> list[Question]:
    def q(i, text, needle=None, answerable=True):
        return Question(
            f"q{i}",
            "en",
            text,
            needles=(Needle("kv", needle),) if needle else (),
            answerable=answerable,
        )

    return [
        q(1, "What does error E17 mean?", "Error E17 means the door latch did not close"),
        q(2, "What does error E21 mean?", "Error E21 means the water inlet is blocked"),
        q(
            3,
            "What grows with every generated token?",
            "The KV cache grows with every generated token",
        ),
        q(4, "What does the KV cache reuse during decode?", "this sentence is in no document"),
        q(5, "What does error E99 mean?", answerable=False),
        q(6, "Quelle est la capitale de la France?", answerable=False),
    ]


@pytest.fixture()
def fake(monkeypatch, tmp_path):
    import rag_core.models as models

    gen = QAGenerator(ANSWERS)
    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))

    def no_embedder(name, *a, **k):
        raise ModelUnavailable(name, "not in this test")

    monkeypatch.setattr(models, "get_generator", lambda name, *a, **k: gen)
    monkeypatch.setattr(models, "get_embedder", no_embedder)
    return gen


def _cfg():
    return preset("C").with_overrides({"retrieval.analyzer": "unicode", "generation.model": "fake"})


def test_outcomes_loss_stages_sum_to_failures_and_replay_is_identical(tiny_corpus, fake):
    first = A.evaluate_answers(_cfg(), _questions(), tiny_corpus)
    calls = fake.calls
    rows = {r.question_id: r for r in first.rows}
    assert first.status == "complete" and first.n_planned == 6 and calls >= 4
    assert [rows[f"q{i}"].outcome for i in range(1, 7)] == [
        "correct",
        "false_refusal",
        "wrong",
        "wrong",
        "bluff",
        "correct_refusal",
    ]
    assert rows["q4"].loss_stage == "corpus" and rows["q1"].loss_stage is None
    assert rows["q2"].loss_stage == "unused" and rows["q3"].loss_stage == "unused"
    s = first.summary
    failed = [r for r in first.rows if r.answerable and not r.correct]
    assert all(r.loss_stage in M.LOSS_STAGES for r in failed)
    assert sum(s["loss_stages"].values()) == s["n_failed"] == len(failed) == 3
    assert s["funnel"][0] == {"stage": "asked", "lost": 0, "remaining": 4}
    assert s["funnel"][-1]["remaining"] == 1
    ac = s["rates"]["answered_correctly"]
    assert (ac["k"], ac["n"]) == (1, 4) and (ac["low"], ac["high"]) == pytest.approx(
        wilson_interval(1, 4)
    )
    assert (s["rates"]["bluff"]["k"], s["rates"]["bluff"]["n"]) == (1, 2)
    assert s["rates"]["hallucinated_numbers"]["k"] >= 1  # "7 tokens" is in no source
    # second run: every answer replayed, byte-identical JSON with the same hash
    second = A.evaluate_answers(_cfg(), _questions(), tiny_corpus)
    assert fake.calls == calls
    assert second.to_json() == first.to_json()
    assert json.loads(first.to_json())["result_hash"] == A.result_hash(
        _cfg().to_dict(), tiny_corpus.fingerprint, fake.file_sha256, _questions(), "question"
    )


def test_cancel_keeps_partial_rows(tiny_corpus, fake):
    done: list[int] = []
    ev = A.evaluate_answers(
        _cfg(),
        _questions(),
        tiny_corpus,
        progress=lambda i, n: done.append(i),
        should_stop=lambda: len(done) >= 2,
    )
    assert ev.status == "partial" and len(ev.rows) == 2 and ev.n_planned == 6
    assert ev.to_dict()["n_done"] == 2 and ev.summary["n_queries"] == 2


def test_unavailable_generator_falls_back_to_retrieval(tiny_corpus, monkeypatch):
    def missing(name, *a, **k):
        raise ModelUnavailable(name, "weights not installed")

    ev = A.evaluate_answers(_cfg(), _questions(), tiny_corpus, generator_loader=missing)
    assert (ev.status, ev.reason, ev.rows) == ("retrieval_only", "generator_unavailable", ())
    assert "weights not installed" in ev.message
    # q4's needle is in no document: retrieval scoring sets it apart (needles_in_corpus)
    assert ev.retrieval is not None and ev.retrieval["n_questions"] == 3
    off = A.evaluate_answers(
        preset("C").with_overrides({"generation.model": "none"}), _questions(), tiny_corpus
    )
    assert off.status == "retrieval_only" and off.message == "generation.model = none"
    # the same reasons as codes, for the pages: the English is the message, byte for byte
    assert ev.message == "model 'fake' is unavailable: weights not installed"
    assert ev.notice is not None and off.notice is not None
    assert (english(ev.notice), english(off.notice)) == (ev.message, off.message)
    ko = notice_text(ev.notice, "ko")
    assert ko.startswith("모델 'fake' 을(를) 쓸 수 없습니다: ") and "weights not installed" in ko


def test_an_answer_that_fails_is_one_warning_per_status_in_english_and_as_a_code(
    tiny_corpus, monkeypatch, tmp_path
):
    import rag_core.models as models

    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(models, "get_generator", lambda name, *a, **k: FakeGenerator(fail=True))
    ev = A.evaluate_answers(_cfg(), _questions(), tiny_corpus)
    assert ev.warnings == ("generation error: generation failed: RuntimeError: out of memory",)
    assert tuple(map(english, ev.notices)) == ev.warnings
    assert ev.to_dict()["warnings"] == list(ev.warnings)
    assert notice_text(ev.notices[0], "ko").startswith("생성 상태 error: ")


def test_set_without_answerable_items_still_reports_refusals(tiny_corpus, fake):
    ev = A.evaluate_answers(_cfg(), [q for q in _questions() if not q.answerable], tiny_corpus)
    assert ev.summary["rates"]["answered_correctly"] is None and ev.summary["n_failed"] == 0
    assert ev.summary["rates"]["correct_refusal"]["n"] == 2
    with pytest.raises(ValueError, match="the question set is empty"):
        A.evaluate_answers(_cfg(), [], tiny_corpus)


def test_compare_answers_is_paired(tiny_corpus, fake):
    a = A.evaluate_answers(_cfg(), _questions(), tiny_corpus)
    b = A.evaluate_answers(_cfg(), _questions(), tiny_corpus)
    c = A.compare_answers(a, b)
    assert (c["only_a"], c["only_b"], c["difference"], c["p"], c["verdict"]) == (
        0,
        0,
        0.0,
        1.0,
        "not_distinguishable",
    )
    assert set(c["metrics"]) == {"answered_correctly", "correct_refusal"}


# ------------------------------------------------------------ statistics against hand computations


@pytest.mark.parametrize("b,c", [(0, 0), (3, 9), (10, 2), (7, 7), (1, 20)])
def test_exact_mcnemar_is_the_sign_test_and_scipy_binomtest(b, c):
    from scipy.stats import binomtest

    n = b + c
    hand = (
        1.0 if n == 0 else min(1.0, 2 * sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2**n)
    )
    assert sign_test(b, c) == pytest.approx(hand)
    if n:
        assert sign_test(b, c) == pytest.approx(binomtest(b, n, 0.5).pvalue)


def test_holm_matches_the_step_down_formula():
    # sorted 0.01, 0.03, 0.04 with m = 3: 3·0.01, max(3·0.01, 2·0.03), max(2·0.03, 1·0.04)
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([3 * 0.01, 2 * 0.03, 2 * 0.03])
    assert holm({"x": 0.5, "y": 0.6}) == pytest.approx({"x": min(1, 2 * 0.5), "y": 1.0})
    with pytest.raises(ValueError, match=re.escape("p-values must be numbers in [0, 1]; got 1.2")):
        holm([1.2])


def test_paired_difference_interval_and_mde_formulas():
    b, c, n = 10, 4, 50
    d, low, high = paired_difference_interval(b, c, n)
    se = math.sqrt((b + c) - (b - c) ** 2 / n) / n
    z = NormalDist().inv_cdf(0.975)
    assert (d, low, high) == pytest.approx(
        ((b - c) / n, (b - c) / n - z * se, (b - c) / n + z * se)
    )
    mde = minimum_detectable_effect(174, 30)
    assert mde == pytest.approx((z + NormalDist().inv_cdf(0.8)) * math.sqrt(30 / 174 / 174))
    assert minimum_detectable_effect(10, 0) == minimum_detectable_effect(10, 1)
    pp = paired_proportions(
        {"1": True, "2": True, "3": False, "4": False},
        {"1": True, "2": False, "3": True, "4": True},
    )
    assert (pp.both, pp.only_a, pp.only_b, pp.neither, pp.difference) == (1, 1, 2, 0, (1 - 2) / 4)
    assert pp.p == pytest.approx(sign_test(1, 2))


def test_risk_coverage_rates():
    rc = risk_coverage(20, 15, 3)
    assert (rc["coverage"]["rate"], rc["risk"]["rate"]) == (15 / 20, 3 / 15)
    assert (rc["risk"]["low"], rc["risk"]["high"]) == pytest.approx(wilson_interval(3, 15))
    assert risk_coverage(5, 0, 0)["risk"] is None


def test_operating_point_counts_bluffs_and_answers_without_gold_as_risk():
    from rag_core.evaluation.sweep import GateCounts, risk_coverage_at

    c = GateCounts(
        threshold=0.4,
        max_kept=3,
        answered_with_gold=6,
        answered_without_gold=2,
        refused_answerable=2,
        bluffed=1,
        refused_unanswerable=4,
        n_answerable=10,
        n_unanswerable=5,
        gold_rate=None,
        bluff_rate=None,
    )
    rc = risk_coverage_at(c)
    assert (rc["coverage"]["k"], rc["coverage"]["n"]) == (6 + 2 + 1, 15)
    assert (rc["risk"]["k"], rc["risk"]["n"]) == (2 + 1, 9)
    assert (rc["threshold"], rc["max_kept"]) == (0.4, 3)


# ------------------------------------------------------------ the CLI


def first_questions(tmp_path, n: int):
    """``tmp_path/q.jsonl`` holding the first ``n`` questions of the sample set."""

    root = ROOT
    qfile = tmp_path / "q.jsonl"
    lines = root.joinpath("sample_corpus/questions/manual.jsonl").read_text(encoding="utf-8")
    qfile.write_text("\n".join(lines.splitlines()[:n]) + "\n", encoding="utf-8")
    return qfile


def fake_answers_argv(qfile, *extra: str) -> list[str]:
    """``eval --answers`` over ``qfile`` with the fake generator, then ``extra``."""
    return ["eval", "--queries", str(qfile), "--answers", "--set", "generation.model=fake", *extra]


def test_cli_eval_answers_with_the_fake_generator_is_byte_identical_twice(capsys, fake, tmp_path):
    from rag_core.cli import main

    argv = fake_answers_argv(first_questions(tmp_path, 2), "--json")
    assert main(argv) == 0
    first = capsys.readouterr()
    assert main(argv) == 0
    second = capsys.readouterr()
    assert first.out == second.out and "eval --answers:" in first.err
    a = json.loads(first.out)["a"]
    assert a["status"] == "complete" and a["n_done"] == 2 and len(a["per_query"]) == 2
    assert sum(a["summary"]["loss_stages"].values()) == a["summary"]["n_failed"]


def test_cli_eval_answers_without_a_generator_falls_back(capsys, tmp_path):

    from rag_core.cli import main

    root = ROOT
    code = main(
        [
            "eval",
            "--queries",
            str(root / "sample_corpus/questions/manual.jsonl"),
            "--answers",
            "--set",
            "generation.model=none",
        ]
    )
    out = capsys.readouterr()
    assert code == 0
    assert "generator unavailable (generation.model = none): retrieval metrics only" in out.out


def test_cli_eval_answers_compare_prints_the_paired_reading(capsys, fake, tmp_path):
    from rag_core.cli import main

    code = main(fake_answers_argv(first_questions(tmp_path, 2), "--compare", "C"))
    out = capsys.readouterr().out
    assert code == 0
    assert re.search(
        r"A vs B answered correctly: diff [+-]\d\.\d{3} \[[+-]\d\.\d{3}, [+-]\d\.\d{3}\], "
        r"McNemar p=[\d.]+, MDE \d\.\d{3}",
        out,
    )


def test_cli_ctrl_c_reports_partial_results(capsys, fake, tmp_path):
    import os
    import signal

    from rag_core.cli import main

    qfile = first_questions(tmp_path, 4)
    real = fake.generate_ids

    def interrupting(ids, max_new_tokens):
        os.kill(os.getpid(), signal.SIGINT)  # the user presses Ctrl-C during the first generation
        return real(ids, max_new_tokens)

    fake.generate_ids = interrupting
    fake.answers = {"": "Check the fluff filter [1]."}
    # A terminal's Ctrl-C handler, also when pytest runs as a background job (SIGINT ignored)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        code = main(fake_answers_argv(qfile, "--json"))
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
    finally:
        signal.signal(signal.SIGINT, before)
    out = capsys.readouterr()
    a = json.loads(out.out)["a"]
    assert code == 0 and "interrupted" in out.err
    assert a["status"] == "partial" and 1 <= a["n_done"] < a["n_planned"] == 4
