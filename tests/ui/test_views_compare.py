"""The Compare view model (``ui.compare.view``): config diff, stage facts, marks — no Streamlit."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest
from helpers.paths import ROOT

from rag_core.config import PipelineConfig
from rag_core.pipeline import run
from rag_core.types import Hit, Needle, NeedleLoss
from ui.compare import view
from ui.i18n import t
from ui.state import RANKING_SECTIONS, compare_config, config_diff, diff_text
from ui.trace_view import destroyed_needles


def _hit(cid: str) -> Hit:
    return Hit(chunk_id=cid, doc_id="d", rank=1, score=1.0)


def test_config_diff_lists_changed_keys_in_a_order_and_flags_ranking_ones():
    a = PipelineConfig()
    b = a.with_overrides(
        {"gate.max_kept": "2", "retrieval.analyzer": "char", "chunker.overlap": "40"}
    )
    rows = config_diff(a, b)
    flat_a, flat_b = a.flat(), b.flat()
    want = [k for k in flat_a if flat_a[k] != flat_b[k]]
    assert [r.key for r in rows] == want
    assert all((r.a, r.b) == (flat_a[r.key], flat_b[r.key]) for r in rows)
    assert {r.key: r.ranking for r in rows}["gate.max_kept"] is False
    assert {r.key: r.ranking for r in rows}["retrieval.analyzer"] is True
    assert all(r.ranking == (r.key.split(".")[0] in RANKING_SECTIONS) for r in rows)
    assert config_diff(a, a) == []


def test_diff_text_round_trips_through_the_compare_box():
    a = PipelineConfig()
    b = a.with_overrides({"gate.max_kept": "2", "retrieval.methods": "bm25,dense"})
    text = diff_text(config_diff(a, b))
    again, problems = compare_config(a, text)
    assert problems == [] and again == b


def test_destroyed_needles_keep_only_this_questions_gold():
    mine = Needle("d1", "alpha beta")
    other = NeedleLoss("d2", "gamma", 0, 5, (3,))
    hit = NeedleLoss("d1", "alpha beta", 0, 10, (4,))
    same_text_other_doc = NeedleLoss("d9", "alpha beta", 0, 10, (4,))
    trace = SimpleNamespace(
        gold=SimpleNamespace(needles=(mine,)),
        chunking=SimpleNamespace(destroyed=(other, hit, same_text_other_doc)),
    )
    assert destroyed_needles(trace) == [hit]
    assert destroyed_needles(SimpleNamespace(gold=None, chunking=trace.chunking)) == []


def test_gold_rank_text_takes_the_best_rank_and_brackets_the_context():
    gold = SimpleNamespace(stage_ranks={"gate": (None, 3, 2), "context": (4,), "rerank": (None,)})
    trace = SimpleNamespace(gold=gold)
    assert view.gold_rank_text(trace, "gate") == str(min(3, 2))
    assert view.gold_rank_text(trace, "context") == "[4]"
    assert view.gold_rank_text(trace, "rerank") == "✗"
    assert view.gold_rank_text(trace, "fusion") == "✗"
    assert view.gold_rank_text(SimpleNamespace(gold=None), "gate") == "—"


def test_only_in_is_a_set_difference_only_under_one_chunking():
    mine, other = [_hit("a"), _hit("b"), _hit("c")], [_hit("b")]
    assert view.only_in(mine, other, True) == {"a", "b", "c"} - {"b"}
    assert view.only_in(mine, other, False) is None


def test_summary_rows_mark_differences_and_fill_missing_facts():
    rows, classes = view.summary_rows({"x": "1", "y": "2"}, {"y": "3", "z": "4"})
    assert rows == [["x", "1", "—", "≠"], ["y", "2", "3", "≠"], ["z", "—", "4", "≠"]]
    assert classes == ["ri-diff"] * 3
    rows, classes = view.summary_rows({"x": "1"}, {"x": "1"})
    assert rows == [["x", "1", "1", ""]] and classes == [""]


def test_retriever_pairs_and_stage_facts_on_real_traces(tiny_corpus):
    a_cfg = PipelineConfig().with_overrides({"retrieval.analyzer": "char"})
    b_cfg = a_cfg.with_overrides({"retrieval.methods": "bm25:char,tfidf:char"})
    gold = [Needle("jeju.md", "해발 1,947m")]
    a = run(a_cfg, "한라산 높이", tiny_corpus, gold=gold, stop_after="gate")
    b = run(b_cfg, "한라산 높이", tiny_corpus, gold=gold, stop_after="gate")
    pairs = view.retriever_pairs(a, b)
    names_a = [lst.name for lst in a.retrieval.lists]
    names_b = [lst.name for lst in b.retrieval.lists]
    assert [n for n, *_ in pairs] == list(dict.fromkeys(names_a + names_b))
    assert all(
        (la is None) == (n not in names_a) and (lb is None) == (n not in names_b)
        for n, la, lb in pairs
    )
    facts = view.stage_facts(a, "en")
    assert facts[t("cmp.row.chunking", "en")] == (
        f"{a.index_stamp.chunker_signature} · {a.chunking.n_chunks}"
    )
    gate = a.gate
    kept = f"{len(gate.kept)} / {len(gate.kept) + len(gate.rejected)}"
    assert facts[t("cmp.row.gate", "en")].startswith(
        t("cmp.refused", "en") if gate.refused else kept
    )
    assert facts[t("cmp.row.destroyed", "en")] == str(len(destroyed_needles(a)))
    assert t("cmp.row.fusion", "en") not in facts  # one retriever: nothing fused
    assert t("cmp.row.fusion", "en") in view.stage_facts(b, "en")
    no_gold = dataclasses.replace(a, gold=None)
    assert view.stage_facts(no_gold, "en")[t("cmp.row.verdict", "en")] == "—"


#: Every page with a view model (``ui/<page>/view.py``).
VIEW_PAGES = (
    "inspect",
    "check",
    "chunks",
    "compare",
    "scenarios",
    "lecture",
    "label",
    "evaluate",
    "threshold",
)


def test_view_models_do_not_import_streamlit():
    import subprocess
    import sys

    code = (
        "import sys, ui.trace_view, ui.evaluate.answers_view, "
        + "ui.label.origins, ui.label.spans, ui.label.saving, ui.label.files, "
        + ", ".join(f"ui.{p}.view" for p in VIEW_PAGES)
        + "; "
        "print('streamlit' in sys.modules)"
    )
    root = ROOT
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    assert out.stdout.strip() == "False"


def test_compare_box_problems_are_worded_in_the_page_language():
    from rag_core.config_checks import ConfigError
    from ui.i18n import notice_text

    a = PipelineConfig()
    text = "retrieval.k=abc; not a pair"
    b_en, en = compare_config(a, text)
    b_ko, ko = compare_config(a, text, lang="ko")
    assert b_en == b_ko == a
    assert en == [
        "'not a pair' is not key=value (e.g. retrieval.analyzer=char)",
        "retrieval.k = 'abc' must be an integer",
    ]  # the English the box said before the messages had codes
    with pytest.raises(ConfigError) as info:
        a.with_overrides({"retrieval.k": "abc"})
    assert ko[1] == notice_text(info.value.notice, "ko") != str(info.value)
    assert all(any("\uac00" <= ch <= "\ud7a3" for ch in p) for p in ko)  # Hangul in each
