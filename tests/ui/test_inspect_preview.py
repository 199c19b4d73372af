"""Inspect's answer preview: on the first screen, above the stages, read off the Trace; with
generation off and with a generator whose file is missing the page still renders, no exception.

``ui.inspect.view.answer_preview`` is checked on Traces directly too (the tiny inline corpus, a
char-level fake generator): the answer's own mark and its first characters, or why there is
none, and the link to section ⑦.
"""

from __future__ import annotations

import pytest
from helpers.app import STAGE_HEADINGS_EN, make_app
from helpers.fakes import FakeGenerator
from streamlit.testing.v1.element_tree import Header, Html

from rag_core.config import PipelineConfig
from rag_core.pipeline import run
from rag_core.types import Needle, Question
from ui.i18n import t, tv
from ui.inspect.view import PREVIEW_CHARS, answer_preview

#: A gold needle of the tiny corpus' document ``kv`` (tests/conftest.py).
NEEDLE = "Error E17 means the door latch did not close"


def _preview_then_first_stage(at) -> tuple[str, int, int]:
    """The preview's HTML, its position among the main area's elements and the first stage
    heading's (in page order)."""
    nodes = list(at.main)
    pos = [i for i, n in enumerate(nodes) if isinstance(n, Html) and "data-preview" in n.value]
    heads = [i for i, n in enumerate(nodes) if isinstance(n, Header)]
    assert len(pos) == 1, "one answer preview"
    assert heads, "the stage headings"
    return nodes[pos[0]].value, pos[0], heads[0]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_generation_off_shows_the_preview_above_the_stages(entry, monkeypatch, lang):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")
    at = make_app(entry, {"lang": lang}, page="inspect")
    assert not at.exception, [e.value for e in at.exception]
    preview, pos, first_stage = _preview_then_first_stage(at)
    assert pos < first_stage
    assert 'data-generation="skipped"' in preview and 'href="#answer"' in preview
    assert t("ins.gen_off", lang) in preview  # why there is no answer, in the page's language
    if lang == "en":
        assert at.header[0].value == STAGE_HEADINGS_EN[0]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_missing_generator_file_is_said_in_the_preview(entry, monkeypatch, lang):
    monkeypatch.setenv("RAG_INSPECTOR_MODELS", "/no")  # a path from the URL must lie in it
    monkeypatch.delenv("RAG_APP_SET", raising=False)
    at = make_app(
        entry, {"lang": lang, "generation.model": "/no/such/generator.gguf"}, page="inspect"
    )
    assert not at.exception, [e.value for e in at.exception]
    preview, pos, first_stage = _preview_then_first_stage(at)
    assert pos < first_stage
    assert 'data-generation="unavailable"' in preview
    assert "/no/such/generator.gguf" in preview
    assert "ri-preview warning" in preview


def test_an_answer_is_previewed_with_its_mark_and_first_characters(
    tiny_corpus, monkeypatch, tmp_path
):
    import rag_core.models as models

    long = "Error E17 means the door latch did not close [1]. " * 12
    gen = FakeGenerator(long)
    gen.file_sha256 = "7" * 64  # its own generation cache entry
    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(models, "get_generator", lambda *a, **k: gen)

    def no_embedder(name, *a, **k):
        raise models.ModelUnavailable(name, "not in this test")

    monkeypatch.setattr(models, "get_embedder", no_embedder)
    cfg = PipelineConfig().with_overrides(
        {"chunker.preset": "C", "generation.model": "fake", "generation.max_new_tokens": 1024}
    )
    e17 = Question("q", "en", "What does error E17 mean?", needles=(Needle("kv", NEEDLE),))
    trace = run(cfg, e17.question, tiny_corpus, gold=e17)
    assert trace.generation.status == "ok", trace.generation
    html = str(answer_preview(trace, "en", question=e17))
    assert 'data-preview="done"' in html and "ri-mark ri-mark-correct" in html
    # beside the "Answer:" heading the chip says the mark alone, not "Answer: answers the question"
    assert html.count(t("ins.preview.head", "en")) == 1
    assert t("mark.head", "en", mark=tv("mark", "correct", "en")) not in html
    assert f">{tv('mark', 'correct', 'en')}<" in html
    shown = " ".join(long.split())[: PREVIEW_CHARS - 1] + "…"
    assert shown in html and long.strip() not in html  # the head only: the rest is in section 7
    pending = str(answer_preview(trace, "ko", question=e17, state="pending"))
    assert t("ins.preview.pending", "ko") in pending and "latch" not in pending  # no answer yet
    assert "ri-mark" not in pending
    with pytest.raises(ValueError, match="valid choices: done, pending, stopped, failed"):
        answer_preview(trace, "en", state="later")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_stage_that_lost_the_gold_has_a_red_chip(entry, monkeypatch, lang):
    """char n-grams, three kept: en-inf-01's gold is lost at the gate (not refused)."""
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")
    query = {"lang": lang, "qset": "en", "qid": "en-inf-01"}
    at = make_app(entry, {**query, "retrieval.analyzer": "char", "gate.max_kept": "3"}, "inspect")
    assert not at.exception, [e.value for e in at.exception]
    flow = next(h.value for h in at.html if 'class="ri-flow"' in h.value)
    assert f'class="ri-chip lost" title="{tv("loss", "gate", lang)}"' in flow
    assert flow.count("ri-chip lost") == 1  # the stages that kept it stay green
