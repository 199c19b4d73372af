"""A link's parameters are a visitor's input (issue 38, item 6): each value is capped, what is
read is parsed in linear time, and a message quotes only the start of a value.

Before: a 30 KB ``b=`` took 41 s on the probe's machine (13 s here, all of it in
``ui.html.md``'s scheme pattern, which tried again from every letter of a long run) and
100 KB did not finish in 300 s; the warning quoted the whole text.
"""

from __future__ import annotations

import time

import pytest
from helpers.app import make_app, plain

from rag_core.config import PipelineConfig
from ui.html import WORD_JOINER, md
from ui.state import (
    ECHO_CHARS,
    MAX_LINK_KEY,
    MAX_LINK_PARAMS,
    MAX_LINK_VALUE,
    QUOTE_CHARS,
    bounded_query,
    compare_config,
    config_from_url,
    cut,
)

HUGE = "a" * 100_000


@pytest.mark.parametrize("text", [HUGE, "www." * 25_000, ("x" * 50 + "://") * 2_000])
def test_markdown_escaping_is_linear(text):
    t0 = time.perf_counter()
    md(text)
    assert time.perf_counter() - t0 < 1.0


@pytest.mark.parametrize(
    ("text", "joined"),
    [
        ("see https://x.org", "see https:" + WORD_JOINER + "//x.org"),
        ("1abc://z", "1abc:" + WORD_JOINER + "//z"),
        ("1://z", "1://z"),  # no letter: no scheme, as before
        ("a:b://c", "a:b:" + WORD_JOINER + "//c"),
    ],
)
def test_a_scheme_still_gets_its_word_joiner(text, joined):
    assert md(text).replace("\\", "") == joined


def test_a_100_kb_b_is_refused_quickly_with_a_short_warning():
    a = PipelineConfig()
    t0 = time.perf_counter()
    b, said = compare_config(a, HUGE, lang="en")
    took = time.perf_counter() - t0
    assert b == a and took < 1.0
    head = "a" * (ECHO_CHARS - 1) + "…"
    assert said == [
        (
            "The address's b= holds 100,000 characters, more than a link may "
            f"({MAX_LINK_VALUE:,}); it was not read: “{head}”"
        )
    ]


def test_an_item_under_the_cap_is_quoted_cut():
    b, said = compare_config(PipelineConfig(), "x" * (MAX_LINK_VALUE - 10), lang="en")
    assert len(said) == 1 and "x" * QUOTE_CHARS not in said[0] and "…" in said[0]
    assert len(said[0]) < QUOTE_CHARS + 100


def test_a_bad_value_under_the_cap_is_quoted_cut():
    b, said = compare_config(PipelineConfig(), "retrieval.k=" + "9x" * 1_000, lang="en")
    assert len(said) == 1 and len(said[0]) < QUOTE_CHARS + 100, said


def test_every_parameter_is_capped_and_the_count_too():
    params = {
        "b": HUGE,
        "q": "q" * (MAX_LINK_VALUE + 1),
        "k" * (MAX_LINK_KEY + 1): "1",
        "lang": "en",
    }
    kept, said = bounded_query(params, "en")
    assert kept == {"lang": "en"} and len(said) == 3
    assert all(len(s) < 300 for s in said), said
    many = {f"x{i}.y": "1" for i in range(10_000)}
    kept, said = bounded_query(many, "en")
    assert len(kept) == MAX_LINK_PARAMS
    assert said == [
        f"The address holds 10,000 parameters; only the first {MAX_LINK_PARAMS} were read."
    ]


def test_a_pasted_address_is_capped_too():
    config, said = config_from_url("http://h/compare?retrieval.k=5&b=" + HUGE, lang="en")
    assert config.retrieval.k == 5 and len(said) == 1 and len(said[0]) < 300


def test_cut_reads_only_the_start():
    assert cut("short") == "short"
    assert cut("a b\n" * 1_000_000) == ("a b " * ECHO_CHARS)[: ECHO_CHARS - 1] + "…"


def test_the_compare_page_with_a_100_kb_b_renders_with_one_short_warning(entry, monkeypatch):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")
    t0 = time.perf_counter()
    at = make_app(entry, {"lang": "en", "b": HUGE}, page="compare")
    took = time.perf_counter() - t0
    assert not at.exception, [e.value for e in at.exception]
    warned = [plain(w.value) for w in at.warning if "b=" in plain(w.value)]
    assert len(warned) == 1 and len(warned[0]) < 300, warned
    assert all(len(plain(w.value)) < 1_000 for w in at.warning)
    assert took < 60, took
