"""The lecture view in headless chromium, without a server (the view's HTML set as the page):

* *Large text* scales every text of the view by one factor, the rank-flow's letters included;
* at 1280×720 (the page's grid height, ``pages/lecture.py``) every pane of every scenario's A
  and B, in Korean and English, normal and large text, shows its content without an inner
  scroll: what does not fit is left out with a stated marker (``.ri-lec-more``).

Generation is off for the scenarios (the answer and claims panes are checked with a long
made-up answer on the tiny corpus).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers.browser import MARKS

from rag_core.config import PipelineConfig
from rag_core.corpus import SAMPLE_CORPUS
from rag_core.index import load_corpus_index
from rag_core.pipeline import run
from rag_core.scenarios import scenario_runs
from rag_core.types import Claim, Evidence, GenerationStage, SupportStage
from ui import cache
from ui.lecture import slides
from ui.lecture.view import lecture_view

pytestmark = [*MARKS, pytest.mark.usefixtures("page_words")]

#: The page's grid height (pages/lecture.py: the window less Streamlit's chrome above it).
GRID = "calc(100vh - 8.2rem)"

#: Per pane: its name, the body's content height and its box height (CSS pixels).
MEASURE = """() => [...document.querySelectorAll('[data-pane]')].map(p => {
  const b = p.querySelector('.ri-lec-body');
  return [p.dataset.pane, b.scrollHeight, b.clientHeight];
})"""

#: Every element with text of its own in the view (named by its path from the view), with its
#: computed font size in pixels.
FONT_SIZES = """() => {
  const root = parseFloat(getComputedStyle(document.querySelector('.ri-lec')).fontSize);
  const out = [];
  for (const e of document.querySelectorAll('.ri-lec *')) {
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const path = [];  // the element and its ancestors up to the view: where its size comes from
    for (let a = e; a && !a.classList.contains('ri-lec'); a = a.parentElement) {
      const cls = (typeof a.className === 'string' ? a.className : '').trim();
      path.unshift(a.tagName.toLowerCase() + (cls ? '.' + cls.split(/\\s+/).join('.') : ''));
    }
    out.push([path.join(' > '), parseFloat(getComputedStyle(e).fontSize)]);
  }
  return [root, out];
}"""


@pytest.fixture(scope="module")
def sample():
    return load_corpus_index(SAMPLE_CORPUS)


@pytest.fixture(scope="module")
def scenario_traces(sample):
    """Every scenario's A and B with generation off: (label, trace, question)."""
    questions = {q.id: q for q in sample.questions}
    base = PipelineConfig().with_overrides({"generation.model": "none"})
    out = []
    for r in scenario_runs(base):
        q = questions.get(r.scenario.question_id or "")
        trace = run(r.config, r.scenario.question_text(q), sample, gold=q)
        out.append((f"{r.scenario.id}:{r.side}", trace, q))
    return out


def long_answer(trace):
    """``trace`` with a long made-up answer: eight claims, each with evidence from every source."""
    sources = [s for s in trace.context.sources if s.n is not None]
    sentence = "The running example is a small sentence encoder with six transformer layers"
    parts, claims, at = [], [], 0
    for i in range(8):
        text = f"{sentence}, and claim {i + 1} restates it at some length [{sources[0].n}]."
        parts.append(text)
        ev = tuple(
            Evidence(s.n, s.chunk_id, s.quote[:160], s.start, s.start + 160, 0.5, 0.4, 0.6)
            for s in sources
        )
        claims.append(Claim(text, at, at + len(text), (sources[0].n,), "supported", ev))
        at += len(text) + 1
    answer = " ".join(parts)
    return replace(
        trace,
        generation=GenerationStage("ok", "test-double", answer=answer),
        support=SupportStage("ok", tuple(claims)),
    )


def _document(trace, lang, large, question=None, selected=None):
    view = lecture_view(
        trace,
        lang,
        pieces=cache.token_pieces(trace),
        large=large,
        height=GRID,
        question=question,
        selected=selected,
    )
    return slides.slide_html(view, lang, trace.question)


def test_large_text_scales_every_text_by_one_factor(browser, scenario_traces):
    trace = long_answer(scenario_traces[0][1])
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    sizes = {}
    for large in (False, True):
        page.set_content(_document(trace, "en", large, selected=0))
        sizes[large] = page.evaluate(FONT_SIZES)
    page.close()
    (root_n, normal), (root_l, big) = sizes[False], sizes[True]
    factor = root_l / root_n
    assert factor > 1.2, (root_n, root_l)
    # large text shows less of a long prompt or answer: compare the kinds of element both show
    small = {n: set() for n, _ in normal}
    for n, px in normal:
        small[n].add(px)
    large_ = {n: set() for n, _ in big}
    for n, px in big:
        large_[n].add(px)
    both = sorted(set(small) & set(large_))
    assert len(both) > 0.8 * len(small), sorted(set(small) - set(large_))
    assert any(n.endswith("span.ri-lf") for n in both)  # the rank-flow's letters
    off = sorted(
        f"{n}: {a:.1f} → {b:.1f} px (×{b / a:.2f})"
        for n in both
        for a in small[n]
        for b in large_[n]
        if abs(b / a - factor) > 0.04 * factor
    )
    assert not off, f"large text is ×{factor:.2f}; these scale otherwise:\n" + "\n".join(off)


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
def test_every_scenario_fits_its_panes_at_1280x720(browser, scenario_traces, large):
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    found = []
    for label, trace, question in scenario_traces:
        for lang in ("ko", "en"):
            page.set_content(_document(trace, lang, large, question))
            found += [
                f"{label} {lang}: pane {name} holds {tall} px in {box} px"
                for name, tall, box in page.evaluate(MEASURE)
                if tall > box + 1
            ]
    page.close()
    assert not found, "\n".join(found)


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
def test_a_long_answer_and_its_claims_fit_with_a_marker(browser, scenario_traces, large):
    trace = long_answer(scenario_traces[0][1])
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    found = []
    for lang in ("ko", "en"):
        page.set_content(_document(trace, lang, large, selected=0))
        found += [
            f"{lang}: pane {name} holds {tall} px in {box} px"
            for name, tall, box in page.evaluate(MEASURE)
            if tall > box + 1
        ]
        more = page.evaluate(
            "[...document.querySelectorAll('.ri-lec-more')].map(m => m.closest('[data-pane]')"
            ".dataset.pane)"
        )
        assert {"answer", "claims"} <= set(more), (lang, more)
    page.close()
    assert not found, "\n".join(found)
