"""The Inspect view model (``ui.inspect.view``)."""

from __future__ import annotations

from rag_core.config import PipelineConfig
from rag_core.index import load_corpus_index
from rag_core.pipeline import run
from ui.inspect.view import split_warnings
from ui.trace_view import citations_fell_back


def test_split_keeps_order_and_takes_the_load_lines_by_identity():
    warnings = ("a", "not loaded: x.bin: binary", "b", "not loaded: y.csv: row 2")
    load = ("not loaded: x.bin: binary", "not loaded: y.csv: row 2")
    assert split_warnings(warnings, load) == (["a", "b"], list(load))
    assert split_warnings(warnings, ()) == (list(warnings), [])


def test_a_trace_on_a_corpus_with_a_skipped_file_splits_into_that_file_alone(tmp_path):
    (tmp_path / "ok.md").write_text("# Title\n\nCrater lakes form in calderas.\n", "utf-8")
    (tmp_path / "bad.md").write_bytes(b"\x00\x01\x02 binary")
    corpus = load_corpus_index(tmp_path, questions=[])
    assert len(corpus.load_warnings) == 1, "the binary file is skipped with a reason"
    cfg = PipelineConfig().with_overrides({"generation.model": "none"})
    trace = run(cfg, "crater lake", corpus, stop_after="gate")
    other, skipped = split_warnings(trace.warnings, corpus.load_warnings)
    assert skipped == list(corpus.load_warnings)
    assert not set(other) & set(skipped)


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
