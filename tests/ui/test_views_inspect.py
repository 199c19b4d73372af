"""The Inspect view model (``ui.inspect.view``)."""

from __future__ import annotations

import re

from rag_core.config import PipelineConfig
from rag_core.index import load_corpus_index
from rag_core.pipeline import run
from rag_core.wording import english
from ui.i18n import notice_text
from ui.inspect.view import not_loaded, skipped_lines, warning_lines
from ui.trace_view import citations_fell_back


def test_a_trace_lists_each_skipped_file_once_in_english_and_as_a_code(tmp_path):
    (tmp_path / "ok.md").write_text("# Title\n\nCrater lakes form in calderas.\n", "utf-8")
    (tmp_path / "bad.md").write_bytes(b"\x00\x01\x02 binary")
    corpus = load_corpus_index(tmp_path, questions=[])
    assert len(corpus.load_warnings) == 1, "the binary file is skipped with a reason"
    cfg = PipelineConfig().with_overrides({"generation.model": "none"})
    trace = run(cfg, "crater lake", corpus, stop_after="gate")
    assert trace.warnings == tuple(map(english, trace.notices))
    assert trace.warnings == corpus.load_warnings
    bad = str(tmp_path / "bad.md")
    assert trace.warnings[0].startswith(f"not loaded: {bad}: binary file")
    assert not_loaded(trace) == 1
    assert warning_lines(trace, "ko") == []  # the page's box words it from corpus.failed
    [line] = skipped_lines(corpus.failed, "ko")
    assert line.startswith(f"{bad}: ") and re.search("[가-힣]", line), line
    assert notice_text(trace.notices[0], "ko") == f"읽지 않음: {line}"


def test_citations_fell_back_reads_the_config_and_the_stage_not_the_message(tmp_path):
    from helpers.fakes import FakeGenerator, context

    from rag_core.answer.generation import generate
    from rag_core.config import GenerationConfig
    from rag_core.types import GenerationStage

    gen = FakeGenerator("Hallasan is 1,947 m high.")
    g = generate(
        context(gen),
        GenerationConfig(model="fake", citations="enforced"),
        generator=gen,
        cache_dir=tmp_path,
    )
    enforced = {"generation": {"citations": "enforced"}}
    assert citations_fell_back(enforced, g)  # the fake generator cannot constrain decoding
    assert not citations_fell_back({"generation": {"citations": "free"}}, g)
    kept = GenerationStage("ok", "m", params={"citations": "enforced"})
    assert not citations_fell_back(enforced, kept)
    skipped = GenerationStage("skipped", None, params={"citations": "free"})
    assert not citations_fell_back(enforced, skipped)


def test_a_signal_says_what_it_saw_in_the_direction_it_moved_p():
    """A feature with a fixed sign says which way it was: the same signal reads "names not in
    the source" when it lowered p_supported and "its names are in the source" when it raised
    it; a free feature is named, the arrow saying which way it moved p."""
    from rag_core.answer.support_head import SIGNS
    from ui.trace_view import signal_text

    assert signal_text([("entity_novelty", -0.5)], "en") == "↓ names not in the source (-0.50)"
    assert signal_text([("entity_novelty", 0.2)], "en") == "↑ its names are in the source (+0.20)"
    assert signal_text([("reading", -1.1), ("log_terms", 0.3)], "en") == (
        "↓ the model's reading looks made up (-1.10) · ↑ claim length (+0.30)"
    )
    for name in SIGNS:
        for lang in ("ko", "en"):
            up, down = signal_text([(name, 1.0)], lang), signal_text([(name, -1.0)], lang)
            assert up[2:-8] != down[2:-8] and name not in (up[2:-8], down[2:-8]), (name, lang)
