"""The first screen works: the default URL, the bundled models, nothing changed (real model, slow).

In both languages (Korean is the app's default), Inspect must open on a question of its
language and show the gold retrieved, kept and sent, and an answer in that language whose
claim is ``supported`` by the source it cites, with the citation mode named.
"""

from __future__ import annotations

import re

import pytest
from helpers.app import html, make_app, ok

from rag_core.config import PipelineConfig
from rag_core.pipeline import run
from ui.i18n import t
from ui.sidebar import FIRST_QUESTIONS

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_default_url_shows_gold_sent_and_a_supported_cited_claim(entry, monkeypatch, lang):
    monkeypatch.delenv("RAG_APP_SET", raising=False)
    at = make_app(entry, {"lang": "en"} if lang == "en" else None)  # no URL: Korean
    ok(at)
    ctx = at.session_state["_ctx"]
    assert ctx.lang == lang
    assert ctx.config == PipelineConfig() and ctx.gold is not None
    assert (at.session_state["q.set"], ctx.gold.id) == FIRST_QUESTIONS[lang]
    assert ctx.gold.lang == lang
    page = html(at)
    assert "ri-claim ri-v-supported" in page
    assert any(c.value == t("ins.citations_enforced", ctx.lang) for c in at.caption)
    # the same run, read from the Trace (the generation replays from the cache the page filled)
    trace = run(ctx.config, ctx.question, ctx.corpus, gold=ctx.gold)
    ranks = trace.gold.stage_ranks
    assert not trace.gold.lost_at
    for stage in ("retrieval:bm25:auto", "gate", "context"):  # retrieved, kept, sent
        assert ranks[stage][0] is not None, (stage, ranks)
    gold_ids = {cid for ids in trace.gold.chunk_ids for cid in ids}
    gold_n = {s.n for s in trace.context.sources if s.chunk_id in gold_ids and s.n is not None}
    supported = [c for c in trace.support.claims if c.verdict == "supported"]
    assert supported and any(set(c.citations) & gold_n for c in supported), trace.generation.answer
    hangul = re.search("[\uac00-\ud7a3]", trace.generation.answer or "")
    assert bool(hangul) == (lang == "ko"), trace.generation.answer  # in the question's language
