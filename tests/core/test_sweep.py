"""Threshold sweep: the gate replayed on recorded candidates, checked against the real gate."""

from __future__ import annotations

import json
import math
import random
import re
from dataclasses import replace

import pytest
from helpers.sweep import data_of, query

from rag_core.answer.gate import apply_gate
from rag_core.config import GateConfig, PipelineConfig
from rag_core.evaluation import sweep, sweep_collect
from rag_core.evaluation.stats import wilson_interval
from rag_core.formats.ranges import parse_range
from rag_core.types import Hit, Needle, Notice, Question, dumps

# Distances: a1 gold at rank 2, a2 gold at rank 2 (behind a farther rank 1), a3 no gold retrieved,
# a4 no candidates;
# u1, u2 unanswerable.
DIST = data_of(
    [
        query("a1", [0.40, 0.55, 0.70], gold={2}),
        query("a2", [0.62, 0.50], gold={2}),  # rank 1 is farther than rank 2 (fusion/rerank order)
        query("a3", [0.45, 0.52]),
        query("a4", []),
        query("u1", [0.48, 0.9], answerable=False),
        query("u2", [0.66], answerable=False),
    ]
)


def naive_counts(data, t, m):
    """Reference: replay the gate per query with apply_gate itself."""
    tally = dict.fromkeys(sweep.OUTCOMES, 0)
    for q in data.queries:
        hits = [
            Hit(
                c.chunk_id,
                c.doc_id,
                c.rank,
                score=c.value,
                distance=None if data.higher_is_better else c.value,
            )
            for c in q.candidates
        ]
        cfg = (
            GateConfig(min_score=t, max_kept=m)
            if data.higher_is_better
            else GateConfig(max_distance=t, max_kept=m)
        )
        kept_ids = {h.chunk_id for h in apply_gate(hits, cfg).kept}
        gold_kept = any(c.gold and c.chunk_id in kept_ids for c in q.candidates)
        if q.answerable:
            key = (
                ("answered_with_gold" if gold_kept else "answered_without_gold")
                if kept_ids
                else "refused_answerable"
            )
        else:
            key = "bluffed" if kept_ids else "refused_unanswerable"
        tally[key] += 1
    return tally


def test_counts_by_hand_distance():
    # t = 0.5, keep 1: a1 keeps c1 (0.40, not gold); a2 keeps c2 (0.50, gold);
    # a3 keeps c1 (0.45); a4 refused; u1 bluffs (0.48); u2 refused (0.66 > 0.5).
    row = sweep.counts_at(DIST, 0.5, 1)
    assert (row.answered_with_gold, row.answered_without_gold, row.refused_answerable) == (1, 2, 1)
    assert (row.bluffed, row.refused_unanswerable) == (1, 1)
    # keep 2 at the same cut: a1's gold (0.55) is still past the cut
    assert sweep.counts_at(DIST, 0.5, 2).answered_with_gold == 1
    # t = 0.6, keep 2: a1 keeps c1, c2 (gold)
    assert sweep.counts_at(DIST, 0.6, 2).answered_with_gold == 2
    # no threshold: everything with a candidate answers
    none = sweep.counts_at(DIST, None, 4)
    assert (none.refused_answerable, none.bluffed, none.refused_unanswerable) == (1, 2, 0)
    assert none.gold_rate.k == 2 and none.gold_rate.n == 4
    assert (none.gold_rate.low, none.gold_rate.high) == wilson_interval(2, 4)
    assert none.bluff_rate.rate == 2 / 2


@pytest.mark.parametrize("metric", ["distance", "score"])
def test_replay_equals_the_real_gate_on_random_lists(metric):
    rng = random.Random(7)
    queries = []
    for i in range(60):
        n = rng.randint(0, 8)
        values = [
            round(rng.uniform(0.2, 1.0) if metric == "distance" else rng.uniform(0, 30), 3)
            for _ in range(n)
        ]
        gold = {r for r in range(1, n + 1) if rng.random() < 0.25}
        queries.append(query(f"q{i}", values, gold, answerable=rng.random() < 0.7))
    data = data_of(queries, metric)
    cuts = (
        [0.3, 0.45, 0.5, 0.62, 0.8, 1.0] if metric == "distance" else [0.0, 5.0, 12.5, 20.0, 29.0]
    )
    for m in (1, 2, 4, None):
        for t in cuts:
            row = sweep.counts_at(data, t, m)
            assert {k: getattr(row, k) for k in sweep.OUTCOMES} == naive_counts(data, t, m)


def best_value_counts(best_answerable, gold_kept, best_unanswerable, t, higher_is_better=False):
    """Second oracle: a query is answered when its best value passes ``t`` (whatever max-kept).

    ``best_*`` hold each query's best value (None: nothing retrieved, always
    refused); ``gold_kept`` says, per answerable query, whether a kept
    candidate is gold. Returns the five outcome counts in ``sweep.OUTCOMES`` order.
    """

    def passes(best):
        return best is not None and (best >= t if higher_is_better else best <= t)

    with_gold = sum(1 for b, g in zip(best_answerable, gold_kept, strict=True) if passes(b) and g)
    without_gold = sum(
        1 for b, g in zip(best_answerable, gold_kept, strict=True) if passes(b) and not g
    )
    bluffed = sum(1 for b in best_unanswerable if passes(b))
    return (
        with_gold,
        without_gold,
        len(best_answerable) - with_gold - without_gold,
        bluffed,
        len(best_unanswerable) - bluffed,
    )


def test_agrees_with_the_best_value_oracle():
    for t in parse_range("0.4:0.7:0.05"):
        outs = sweep.outcomes(DIST, t, 2)
        ans = [o for o in outs if o.answerable]
        una = [o for o in outs if not o.answerable]
        ref = best_value_counts(
            [o.best for o in ans], [o.gold_kept for o in ans], [o.best for o in una], t
        )
        row = sweep.counts_at(DIST, t, 2)
        assert tuple(getattr(row, k) for k in sweep.OUTCOMES) == ref


def one_candidate_queries(answerable, gold, unanswerable):
    """A query per best value (None: no candidate), its single candidate gold per ``gold``."""
    qs = [
        query(f"a{i}", [] if v is None else [v], {1} if g else ())
        for i, (v, g) in enumerate(zip(answerable, gold, strict=True))
    ]
    qs += [
        query(f"u{i}", [] if v is None else [v], answerable=False)
        for i, v in enumerate(unanswerable)
    ]
    return qs


def test_sweep_table_by_hand_distances():
    data = data_of(
        one_candidate_queries(
            [0.40, 0.55, 0.70, None], [True, False, True, True], [0.50, 0.68, 0.90]
        )
    )
    rows = sweep.sweep_table(data, [0.45, 0.6, 0.7, 2.0], None)
    got = [
        (r.threshold, *(getattr(r, k) for k in sweep.OUTCOMES), r.n_answerable, r.n_unanswerable)
        for r in rows
    ]
    assert got[0] == (0.45, 1, 0, 3, 0, 3, 4, 3)
    assert got[1] == (0.6, 1, 1, 2, 1, 2, 4, 3)
    assert got[2] == (0.7, 2, 1, 1, 2, 1, 4, 3)  # ≤ threshold answers
    # a question with nothing retrieved is refused at any threshold
    assert got[3] == (2.0, 2, 1, 1, 3, 0, 4, 3)


def test_sweep_table_by_hand_scores():
    data = data_of(one_candidate_queries([9.0, 2.0], [True, True], [3.0, None]), "score")
    rows = sweep.sweep_table(data, [2.0, 5.0], None)
    assert [tuple(getattr(r, k) for k in sweep.OUTCOMES) for r in rows] == [
        (2, 0, 0, 1, 1),  # ≥ threshold answers
        (1, 0, 1, 0, 2),
    ]


def test_sweep_table_and_report_are_jsonable():
    cuts = parse_range("0.45:0.8:0.025")
    rep = sweep.report(DIST, cuts, 4)
    assert [r.threshold for r in rep.rows] == list(cuts)
    for r in rep.rows:
        assert r.answered_with_gold + r.answered_without_gold + r.refused_answerable == 4
        assert r.bluffed + r.refused_unanswerable == 2
    answered = [r.answered_with_gold + r.answered_without_gold for r in rep.rows]
    assert answered == sorted(answered)  # a looser distance cut never answers less
    back = json.loads(dumps(rep))
    assert back["metric"] == "distance" and back["no_threshold"]["threshold"] is None
    assert len(back["rows"]) == len(cuts)


def test_distribution_of_best_values():
    d = sweep.distribution(DIST)
    assert d.answerable == (0.40, 0.50, 0.45, None)
    assert d.unanswerable == (0.48, 0.66)
    assert (d.worst_answerable, d.worst_answerable_id) == (0.50, "a2")
    assert (d.best_unanswerable, d.best_unanswerable_id) == (0.48, "u1")
    assert d.separable is False and d.overlap == (0.48, 0.50)
    clean = data_of([query("a", [0.3], {1}), query("u", [0.7], answerable=False)])
    dc = sweep.distribution(clean)
    assert dc.separable is True and dc.overlap is None
    # scores: higher is better, so the worst answerable is the lowest best score
    scores = data_of(
        [query("a", [9.0, 3.0], {1}), query("b", [4.0]), query("u", [5.0], answerable=False)],
        "score",
    )
    ds = sweep.distribution(scores)
    assert (ds.worst_answerable, ds.best_unanswerable) == (4.0, 5.0)
    assert ds.separable is False and ds.overlap == (4.0, 5.0)


def test_default_thresholds():
    # best distances 0.40 … 0.66: 0.005 and 0.01 need more than 21 cuts, 0.02 needs 14
    assert sweep.default_thresholds(DIST) == tuple(round(0.40 + 0.02 * i, 6) for i in range(14))
    empty = data_of([query("a", []), query("u", [], answerable=False)])
    assert sweep.default_thresholds(empty) == parse_range(sweep.DEFAULT_DISTANCE_RANGE)
    scores = data_of([query("a", [9.0, 3.0]), query("u", [1.5], answerable=False)], "score")
    cuts = sweep.default_thresholds(scores, n=7)
    assert cuts[0] == 1.5 and cuts[-1] == 9.0 and len(cuts) == 7
    assert cuts[1] == pytest.approx(1.5 + (9.0 - 1.5) / 6)


@pytest.mark.parametrize(
    ("lo", "hi", "step"),
    [
        (0.052, 0.231, 0.01),  # e5-small's best distances: 0.05 … 0.24, 20 cuts
        (0.41, 0.83, 0.025),  # MiniLM's: 0.4 … 0.85
        (0.3, 0.3, 0.005),  # one value: one cut
        (0.0, 1.9, 0.1),
    ],
)
def test_default_distance_cuts_cover_the_data_in_the_finest_step(lo, hi, step):
    cuts = sweep.distance_cuts(lo, hi)
    assert cuts[0] <= lo and cuts[-1] >= hi and len(cuts) <= sweep.MAX_DEFAULT_CUTS
    assert cuts[0] > lo - step and cuts[-1] < hi + step  # no more than one step beyond
    assert all(b - a == pytest.approx(step) for a, b in zip(cuts, cuts[1:], strict=False))
    finer = [s for s in sweep.DISTANCE_STEPS if s < step]
    for s in finer:  # every finer step would need too many thresholds
        assert math.ceil(hi / s - 1e-9) - math.floor(lo / s + 1e-9) + 1 > sweep.MAX_DEFAULT_CUTS


def test_a_sweep_of_e5_distances_is_not_flat():
    """The sweep over distances like e5-small's (0.05–0.23) varies (MiniLM's fixed 0.45–0.8
    range lay above every one of them: 16 equal rows)."""
    e5 = data_of(
        [
            query("a1", [0.08, 0.2], gold={1}),
            query("a2", [0.12], gold={1}),
            query("u1", [0.19], answerable=False),
            query("u2", [0.23], answerable=False),
        ]
    )

    def distinct(cuts) -> int:
        rows = sweep.sweep_table(e5, cuts, None)
        return len({tuple(getattr(r, k) for k in sweep.OUTCOMES) for r in rows})

    assert distinct(sweep.default_thresholds(e5)) >= 4  # every query's turn comes
    assert distinct(parse_range(sweep.DEFAULT_DISTANCE_RANGE)) == 1


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: sweep.counts_at(DIST, 0.5, 0),
            "max_kept must be a positive integer or None (no limit); got 0",
        ),
        (
            lambda: sweep.counts_at(DIST, math.nan, 2),
            "threshold must be a finite number or None; got nan",
        ),
        (
            lambda: sweep.sweep_table(DIST, [], 2),
            "thresholds must be a non-empty list of numbers; got []",
        ),
    ],
)
def test_errors(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


# ------------------------------------------------------------ collect


QUESTIONS = (
    Question(
        id="h", lang="ko", question="한라산 높이 해발", needles=(Needle("jeju", "해발 1,947m"),)
    ),
    Question(
        id="e",
        lang="en",
        question="What does error E21 mean?",
        phrasings=("What does error E21 mean?", "E21 code meaning"),
        needles=(Needle("kv", "Error E21 means the water inlet is blocked."),),
    ),
    Question(id="out", lang="en", question="How do I renew a Spanish passport?", answerable=False),
)


def test_collect_on_tiny_corpus_matches_pipeline(tiny_corpus):
    from rag_core.gold.relevance import relevant_chunk_ids
    from rag_core.pipeline import run

    cfg = PipelineConfig().with_overrides({"gate.min_score": "3", "gate.max_kept": "1"})
    data = sweep_collect.collect(cfg, QUESTIONS, tiny_corpus)
    assert data.metric == "score" and data.higher_is_better
    assert [q.query_id for q in data.queries] == ["h", "e#0", "e#1", "out"]
    assert (data.n_answerable, data.n_unanswerable) == (3, 1)
    assert data.warnings == (  # one retriever, no rerank: thresholds apply to its score
        Notice(sweep.NOTICE_FINAL_SCORE, {"which": Notice(sweep.SCORE_SINGLE, {})}),
    )
    open_cfg = replace(cfg, gate=GateConfig())
    chunks = tiny_corpus.chunking(cfg.chunker).chunks
    for q, qc in zip(
        (QUESTIONS[0], QUESTIONS[1], QUESTIONS[1], QUESTIONS[2]), data.queries, strict=True
    ):
        trace = run(open_cfg, qc.text, tiny_corpus, stop_after="gate")
        assert [c.chunk_id for c in qc.candidates] == [h.chunk_id for h in trace.rerank.hits]
        assert [c.value for c in qc.candidates] == [h.score for h in trace.rerank.hits]
        gold = {
            cid for ids in relevant_chunk_ids(chunks, q.needles, tiny_corpus.docs) for cid in ids
        }
        assert [c.gold for c in qc.candidates] == [h.chunk_id in gold for h in trace.rerank.hits]
        # the replayed gate refuses exactly when the real gate does, at several cuts
        best = sweep.best_value(qc.candidates, True)
        for t in [best - 0.01, best, best + 0.01] if best is not None else [0.0]:
            real = run(
                cfg.with_overrides({"gate.min_score": str(t), "gate.max_kept": "2"}),
                qc.text,
                tiny_corpus,
                stop_after="gate",
            )
            kept = sweep.kept_candidates(qc.candidates, t, 2, True)
            assert [c.chunk_id for c in kept] == [h.chunk_id for h in real.gate.kept]
            assert (not kept) == real.gate.refused


def test_collect_with_labels_changes_gold(tiny_corpus):
    from rag_core.gold.labels import Label, label_id_for

    doc = tiny_corpus.docs["jeju"]
    phrase = "노루를 자주 만난다"
    s = doc.text.index(phrase)
    lab = Label(
        label_id_for("t", "h", "jeju", s, s + len(phrase)),
        "t",
        "h",
        "jeju",
        s,
        s + len(phrase),
        phrase,
        2,
        "",
        "",
        "t",
        1,
        "add",
    )
    cfg = PipelineConfig().with_overrides({"chunker.strategy": "blind", "chunker.target": "64"})
    plain = sweep_collect.collect(cfg, QUESTIONS[:1], tiny_corpus, phrasings="question")
    labeled = sweep_collect.collect(
        cfg, QUESTIONS[:1], tiny_corpus, phrasings="question", labels=[lab]
    )
    chunks = tiny_corpus.chunking(cfg.chunker).chunks
    holding = {c.chunk_id for c in chunks if c.start <= s and s + len(phrase) <= c.end}
    for a, b in zip(plain.queries[0].candidates, labeled.queries[0].candidates, strict=True):
        assert b.gold == (a.gold or b.chunk_id in holding)


def test_collect_errors(tiny_corpus):
    with pytest.raises(
        ValueError,
        match=re.escape("metric = 'cosine' is not valid; valid choices: auto, distance, score"),
    ):
        sweep_collect.collect(PipelineConfig(), QUESTIONS, tiny_corpus, metric="cosine")
    with pytest.raises(ValueError, match=re.escape("metric = 'distance' needs dense retrieval")):
        sweep_collect.collect(PipelineConfig(), QUESTIONS, tiny_corpus, metric="distance")
    with pytest.raises(ValueError, match=re.escape("the question set is empty: nothing to sweep")):
        sweep_collect.collect(PipelineConfig(), (), tiny_corpus)


@pytest.fixture(scope="module")
def sample_manual():
    """The bundled manual question set, the sample corpus and its open-gate BM25 sweep data."""
    from rag_core.corpus import SAMPLE_CORPUS
    from rag_core.formats.questions import load_questions
    from rag_core.index import load_corpus_index

    path = SAMPLE_CORPUS / "questions" / "manual.jsonl"
    if not path.exists():
        pytest.skip("sample corpus question set not present")
    questions = load_questions(path)
    corpus = load_corpus_index(SAMPLE_CORPUS, questions=[])
    return questions, corpus, sweep_collect.collect(PipelineConfig(), questions, corpus)


def test_sample_manual_set_sparse(sample_manual):
    """Integration: the bundled manual question set with BM25 (seconds, no model)."""
    from rag_core.formats.questions import queries_of

    questions, _corpus, data = sample_manual
    assert len(data.queries) == sum(len(queries_of(q, "all")) for q in questions)
    assert data.n_unanswerable > 0 and data.n_answerable > 0
    rep = sweep.report(data, max_kept=4)
    bluffs = [r.bluffed for r in rep.rows]
    assert bluffs == sorted(bluffs, reverse=True)  # a higher score cut never bluffs more
    assert rep.no_threshold.bluffed >= bluffs[0]
    assert rep.no_threshold.bluffed + rep.no_threshold.refused_unanswerable == data.n_unanswerable


def test_pipeline_gate_and_sweep_agree_on_every_threshold(sample_manual):
    """The real pipeline, gate on, keeps exactly what the sweep replays, at every threshold."""
    from rag_core.pipeline import run

    _questions, corpus, data = sample_manual
    cuts = sweep.default_thresholds(data)
    max_kept = 2
    rows = sweep.sweep_table(data, cuts, max_kept)
    for t, row in zip(cuts, rows, strict=True):
        cfg = PipelineConfig().with_overrides(
            {"gate.min_score": repr(t), "gate.max_kept": str(max_kept)}
        )
        tally = dict.fromkeys(sweep.OUTCOMES, 0)
        for qc in data.queries:
            gate = run(cfg, qc.text, corpus, stop_after="gate").gate
            kept = sweep.kept_candidates(qc.candidates, t, max_kept, data.higher_is_better)
            assert [h.chunk_id for h in gate.kept] == [c.chunk_id for c in kept], (t, qc.query_id)
            assert gate.refused == (not kept)
            gold = {c.chunk_id for c in qc.candidates if c.gold}
            gold_kept = any(h.chunk_id in gold for h in gate.kept)
            if qc.answerable and gate.kept:
                key = "answered_with_gold" if gold_kept else "answered_without_gold"
            elif qc.answerable:
                key = "refused_answerable"
            else:
                key = "bluffed" if gate.kept else "refused_unanswerable"
            tally[key] += 1
        assert {k: getattr(row, k) for k in sweep.OUTCOMES} == tally, t
    # the sweep is not trivial: some cut refuses an answerable query and some answers one
    assert any(r.refused_answerable for r in rows) and any(r.answered_with_gold for r in rows)
