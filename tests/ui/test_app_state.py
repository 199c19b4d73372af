"""The app's pure helpers: config ↔ widgets ↔ URL, i18n completeness, escaped HTML, scenario data.

No Streamlit runtime here (``ui.state``, ``ui.i18n``, ``ui.html`` and
``rag_core.scenarios`` are plain modules).
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from helpers.paths import ROOT

from rag_core.config import PRESETS, PipelineConfig, preset
from rag_core.overrides import parse_overrides
from rag_core.scenarios import EXPECT_KEYS, SCENARIOS, Scenario, scenario
from rag_core.wording import fields_of
from ui import state
from ui.html import (
    ChunkBox,
    Mark,
    Markup,
    NeedleMark,
    chunk_map,
    esc,
    marked_text,
    md,
    span,
    table,
    tag,
)
from ui.i18n import CATALOGUES, TEXT, merge, t, tv

PAYLOADS = (
    "<script>window.__xss = 1</script>",
    '<img src=x onerror="window.__xss = 1">',
    "<svg onload=window.__xss=1>",
)


# ------------------------------------------------------------------ config ↔ widgets


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"chunker.preset": "E"},
        {
            "chunker.strategy": "html",
            "chunker.target": 300,
            "chunker.overlap": 20,
            "chunker.min_chars": 80,
        },
        {
            "retrieval.methods": "bm25:char,tfidf,dense",
            "retrieval.analyzer": "kiwi",
            "retrieval.k": 13,
        },
        {"gate.max_distance": 0.55, "gate.max_kept": 3, "gate.min_score": 1.5},
        {"context.policy": "hard-cut", "context.budget_tokens": 256, "context.ordering": "ends"},
        {
            "rerank.method": "mmr",
            "rerank.mmr_lambda": 0.3,
            "fusion.method": "weighted",
            "fusion.alpha": 0.2,
        },
    ],
)
def test_widgets_round_trip(overrides):
    config = PipelineConfig().with_overrides(overrides)
    assert state.config_from_widgets(state.widgets_from_config(config)) == config


def test_preset_of_names_each_preset_and_custom():
    for letter in PRESETS:
        assert state.preset_of(preset(letter).chunker) == letter
    custom = PipelineConfig().with_overrides({"chunker.preset": "A", "chunker.overlap": 32})
    assert state.preset_of(custom.chunker) == state.CUSTOM


def test_per_method_analyzer_equal_to_global_is_written_bare():
    values = state.widgets_from_config(PipelineConfig())
    values[state.K_METHODS] = ["bm25", "tfidf"]
    values[state.K_PER_METHOD] = True
    values[state.K_ANALYZER_FOR + "bm25"] = "char"
    values[state.K_ANALYZER_FOR + "tfidf"] = values["retrieval.analyzer"]
    assert state.config_from_widgets(values).retrieval.methods == ("bm25:char", "tfidf")


def test_bad_widget_combination_raises_the_config_error():
    values = state.widgets_from_config(PipelineConfig())
    values[state.K_PRESET] = state.CUSTOM
    values["chunker.target"] = 100
    values["chunker.overlap"] = 100
    with pytest.raises(
        ValueError,
        match=re.escape("chunker.overlap = 100 must be smaller than chunker.target = 100"),
    ):
        state.config_from_widgets(values)


def test_widget_floats_for_integer_fields_are_accepted():
    values = state.widgets_from_config(PipelineConfig())
    values["retrieval.k"] = 5.0
    values["retrieval.k1"] = 2
    config = state.config_from_widgets(values)
    assert config.retrieval.k == 5 and isinstance(config.retrieval.k, int)
    assert config.retrieval.k1 == 2.0 and isinstance(config.retrieval.k1, float)


# ---------------------------------------------------------------------- URL form


def test_query_holds_only_differences_and_round_trips():
    config = PipelineConfig().with_overrides(
        {
            "retrieval.methods": "bm25,tfidf:char",
            "retrieval.k": 3,
            "gate.max_distance": 0.6,
            "context.dedup": False,
        },
    )
    query = state.query_from_config(config)
    assert query == {
        "retrieval.methods": "bm25,tfidf:char",
        "retrieval.k": "3",
        "gate.max_distance": "0.6",
        "context.dedup": "false",
    }
    assert state.query_from_config(PipelineConfig()) == {}
    back, errors = state.config_from_query(query)
    assert back == config and errors == []


def test_bad_query_keys_lose_only_themselves():
    params = {"retrieval.k": "abc", "retrieval.analyzer": "char", "nonsense.key": "1", "lang": "en"}
    config, errors = state.config_from_query(params)
    assert config.retrieval.analyzer == "char"
    assert config.retrieval.k == PipelineConfig().retrieval.k
    assert len(errors) == 2
    assert any("retrieval.k = 'abc' must be an integer" in e for e in errors)
    assert any("unknown config key 'nonsense.key'" in e for e in errors)


def test_order_dependent_pair_settles():
    # overlap 600 is only valid once target is 1000: applied one by one, the second pass takes it
    config, errors = state.config_from_query(
        {"chunker.overlap": "600", "chunker.target": "1000", "retrieval.k": "x"}
    )
    assert (config.chunker.target, config.chunker.overlap) == (1000, 600)
    assert len(errors) == 1


def test_view_keys_round_trip():
    view = {
        state.K_LANG: "en",
        state.K_CORPUS: "sample",
        state.K_QSET: "ko",
        state.K_QID: "ko-01",
        state.K_QPHRASING: 1,
        state.K_COMPARE_B: "retrieval.analyzer=char",
        state.K_CHUNKS_DOC: "d",
    }
    query = state.query_from_view(view)
    assert query == {
        "lang": "en",
        "corpus": "sample",
        "qset": "ko",
        "qid": "ko-01",
        "ph": "1",
        "b": "retrieval.analyzer=char",
        "doc": "d",
    }
    back = state.view_from_query(query)
    assert back == {**view, state.K_QMODE: "set"}


def test_view_from_query_drops_unknown_values():
    back = state.view_from_query({"lang": "fr", "corpus": "elsewhere", "q": "hello", "ph": "x"})
    assert back == {state.K_QTEXT: "hello", state.K_QMODE: "free"}


def test_compare_config_applies_lines_and_reports_bad_ones():
    a = PipelineConfig()
    b, errors = state.compare_config(a, "retrieval.analyzer=char; chunker.preset=E\nnot a pair")
    assert b.retrieval.analyzer == "char" and b.chunker == preset("E").chunker
    assert errors == ["'not a pair' is not key=value (e.g. retrieval.analyzer=char)"]
    same, errors = state.compare_config(a, "retrieval.k=0")
    assert same == a and "retrieval.k = 0 is out of range" in errors[0]


def test_overrides_text_round_trips_through_parse():
    text = state.overrides_text(
        {"gate.max_distance": 0.6, "context.dedup": True, "retrieval.methods": "bm25,dense"}
    )
    assert text == "gate.max_distance=0.6; context.dedup=true; retrieval.methods=bm25,dense"
    assert parse_overrides(text) == (
        {"gate.max_distance": "0.6", "context.dedup": "true", "retrieval.methods": "bm25,dense"},
        [],
    )


# ----------------------------------------------------------------------- i18n


def test_every_text_has_both_languages_with_the_same_fields():
    for key, (ko, en) in TEXT.items():
        assert ko.strip() and en.strip(), key
        assert fields_of(ko) == fields_of(en), key


def _used_keys() -> set[str]:
    keys: set[str] = set()
    files = [
        ROOT / "app.py",
        *sorted((ROOT / "ui").rglob("*.py")),
        *sorted((ROOT / "pages").glob("*.py")),
    ]
    for f in files:
        keys |= set(
            re.findall(r"""\bt\(\s*["']([a-z0-9_.\-]+)["']""", f.read_text(encoding="utf-8"))
        )
    return keys


def test_the_catalogues_merge_without_a_key_defined_twice():
    assert len(TEXT) == sum(len(c) for c in CATALOGUES.values())
    assert set(CATALOGUES) == {"shared", *PAGES_WITH_TEXT}
    with pytest.raises(
        ValueError, match=re.escape("i18n key 'x' is defined in two catalogues: a and b")
    ):
        merge({"a": {"x": ("가", "a")}, "b": {"y": ("나", "b"), "x": ("다", "c")}})


#: Every page folder has its own catalogue ``ui/<page>/text.py``.
PAGES_WITH_TEXT = tuple(p.parent.name for p in sorted((ROOT / "ui").glob("*/text.py")))


def test_every_key_used_in_the_app_exists():
    missing = sorted(_used_keys() - set(TEXT))
    assert missing == []


def test_prefixed_codes_exist_for_every_choice():
    from rag_core.config import (
        ANALYZERS,
        CHUNK_STRATEGIES,
        CONTEXT_ORDERINGS,
        CONTEXT_POLICIES,
        FUSION_METHODS,
        RERANK_METHODS,
        RETRIEVAL_METHODS,
    )
    from rag_core.gold.diagnosis import LOSSES
    from rag_core.scenarios import PAGES

    wanted = [f"analyzer.{a}" for a in ANALYZERS] + [f"strategy.{s}" for s in CHUNK_STRATEGIES]
    wanted += [f"ordering.{o}" for o in CONTEXT_ORDERINGS] + [
        f"policy.{p}" for p in CONTEXT_POLICIES
    ]
    wanted += [f"fusion.{f}" for f in FUSION_METHODS] + [f"rerank.{m}" for m in RERANK_METHODS]
    wanted += [f"method.{m}" for m in RETRIEVAL_METHODS] + [f"corpus.{c}" for c in state.CORPORA]
    wanted += [f"loss.{s}" for s in LOSSES] + [f"stage.{s}" for s in LOSSES]
    wanted += [f"scn.open.{p}" for p in PAGES] + [f"side.qmode.{m}" for m in state.QUESTION_MODES]
    assert sorted(k for k in wanted if k not in TEXT) == []


def test_t_fills_fields_and_tv_passes_unknown_codes():
    assert t("ins.candidates", "en", n=3) == "3 candidates"
    assert t("ins.candidates", "ko", n=3) == "후보 3개"
    assert tv("reason", "budget", "en") == "over the budget"
    assert tv("reason", "something-new", "en") == "something-new"
    with pytest.raises(KeyError, match=re.escape("no text for i18n key 'no.such.key'")):
        t("no.such.key", "en")


# ----------------------------------------------------------------------- HTML


@pytest.mark.parametrize("payload", PAYLOADS)
def test_esc_and_builders_escape_every_payload(payload):
    escaped = html.escape(payload, quote=True)
    assert esc(payload) == escaped
    assert (
        span(payload, "c", title=payload) == f'<span class="c" title="{escaped}">{escaped}</span>'
    )
    out = table([payload], [[payload, Markup("<b>ok</b>")]])
    assert "<script" not in out and "<img" not in out and "<svg" not in out
    assert out.count(escaped) == 2 and "<b>ok</b>" in out
    joined = Markup("<i>") + payload
    assert joined == "<i>" + escaped


def test_tag_rejects_bad_names():
    with pytest.raises(ValueError, match=re.escape("tag name 'img src=x' must be alphanumeric")):
        tag("img src=x", "")
    with pytest.raises(
        ValueError,
        match=re.escape("attribute name 'on load' must be alphanumeric (dashes allowed)"),
    ):
        tag("span", "", attrs={"on load": "x"})


def test_marked_text_splits_at_every_edge_and_merges_classes():
    out = marked_text("abcdefgh", [Mark(2, 6, "x"), Mark(4, 8, "y")])
    assert out == (
        '<div class="ri-text">ab<span class="x">cd</span><span class="x y">ef</span>'
        '<span class="y">gh</span></div>'
    )
    assert (
        marked_text("<b>", [Mark(0, 3, "z")])
        == '<div class="ri-text"><span class="z">&lt;b&gt;</span></div>'
    )


def test_marked_text_offsets_relative_to_base_and_clipped():
    out = marked_text("hello", [Mark(100, 102, "a"), Mark(90, 101, "b")], base=100)
    assert out == '<div class="ri-text"><span class="a b">h</span><span class="a">e</span>llo</div>'


def test_chunk_map_tints_overlap_gap_header_and_cut():
    text = "0123456789ABCDEFGHIJ<script>"
    chunks = [
        ChunkBox(0, 0, 0, 10, header="[T > S]", tokens=5),
        ChunkBox(1, 7, 10, 20, tokens=300, over_window=True),
    ]
    needle = NeedleMark(8, 14, destroyed=True, cut_at=(10,))
    out = chunk_map(text, chunks, [needle])
    # own words of chunk 0, the overlap copied into chunk 1, own words of chunk 1, then text in no
    # chunk
    assert '<span class="ri-c0" title="#0">0123456</span>' in out
    assert '<span class="ri-c0 ri-ov ri-lost" title="#0 · overlap">89</span>' in out
    assert '<span class="ri-c1 ri-lost" title="#1">ABCD</span>' in out
    assert '<span class="ri-gap" title="in no chunk">&lt;script&gt;</span>' in out
    assert out.count('class="ri-cut"') == 1 and out.index('class="ri-cut"') < out.index(">ABCD<")
    assert '<span class="ri-header" title="header (not document text)">[T &gt; S]</span>' in out
    assert "ri-bnd-t ri-over" in out and "<script>" not in out


class _Tags(HTMLParser):
    """Every tag and attribute name the browser would build from a string."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attrs: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs.update(name for name, _ in attrs)


def _parsed(markup: str) -> _Tags:
    p = _Tags()
    p.feed(markup)
    return p


def test_chunk_map_of_payload_document_builds_only_our_tags():
    text = " ".join(PAYLOADS)
    out = chunk_map(
        text,
        [ChunkBox(0, 0, 0, len(text), header=PAYLOADS[1])],
        [NeedleMark(0, 10, False, (), PAYLOADS[2])],
    )
    parsed = _parsed(out)
    assert parsed.tags == {"div", "span"}
    assert parsed.attrs == {"class", "title"}


def test_table_of_payloads_builds_only_our_tags():
    out = table(list(PAYLOADS), [list(PAYLOADS)], attrs={"data-list": PAYLOADS[0]})
    parsed = _parsed(out)
    assert parsed.tags == {"div", "table", "thead", "tbody", "tr", "th", "td"}  # div: scroll box
    assert parsed.attrs == {"class", "data-list"}


# ------------------------------------------------------------------- scenarios


def test_gallery_covers_the_ten_failure_modes():
    assert sorted({s.mode for s in SCENARIOS}) == list(range(1, 11))
    assert len({s.id for s in SCENARIOS}) == len(SCENARIOS)


def test_scenario_configs_are_valid_and_questions_exist():
    from rag_core.formats.questions import load_questions

    ids = {
        q.id
        for f in (ROOT / "sample_corpus" / "questions").glob("*.jsonl")
        for q in load_questions(f)
    }
    for s in SCENARIOS:
        config = s.config()
        assert isinstance(config, PipelineConfig)
        b = s.config_b()
        assert (b is None) == (s.compare is None)
        if b is not None:
            assert b != config, s.id
        assert s.question_id in ids, s.id
        assert set(s.expect) <= set(EXPECT_KEYS)


def test_scenario_lookup_and_validation_messages():
    assert scenario("korean-particle").mode == 3
    with pytest.raises(
        ValueError, match=re.escape("unknown scenario 'nope'; valid choices: blind-cut")
    ):
        scenario("nope")
    text = {"ko": "가", "en": "a"}
    with pytest.raises(
        ValueError, match=re.escape("scenario x: give exactly one of question_id or question")
    ):
        Scenario("x", 1, text, text, text)
    with pytest.raises(ValueError, match=re.escape("scenario x: title lacks the 'en' text")):
        Scenario("x", 1, {"ko": "가"}, text, text, question="q")
    with pytest.raises(ValueError, match=re.escape("scenario x: expect has unknown key(s) bogus")):
        Scenario("x", 1, text, text, text, question="q", expect={"bogus": 1})


def test_overrides_preset_first_then_keys():
    config = PipelineConfig().with_overrides({"chunker.overlap": 32, "chunker.preset": "a"})
    assert config.chunker == preset("A").chunker.__class__(
        strategy="blind", target=512, overlap=32, header=False
    )
    with pytest.raises(
        ValueError,
        match=re.escape("chunker.preset = 'Z' is not valid; valid choices: A, B, C, D, E, F"),
    ):
        PipelineConfig().with_overrides({"chunker.preset": "Z"})


def test_chunk_map_window_shows_only_the_excerpt_and_the_current_needle_stronger():
    text = "a" * 50 + "NEEDLE" + "b" * 50
    boxes = [ChunkBox(0, 0, 0, 53), ChunkBox(1, 53, 53, len(text))]
    needle = NeedleMark(50, 56, destroyed=True, cut_at=(53,), label="x", mine=True)
    out = chunk_map(text, boxes, [needle], window=(45, 61))
    assert out.startswith('<div class="ri-doc ri-excerpt"><span class="ri-muted">… </span>')
    assert out.endswith('<span class="ri-muted"> …</span></div>')
    visible = re.sub(r"<[^>]+>", "", out)
    assert visible == "… aaaaaNEE#1✂DLEbbbbb …"  # chunk 1 opens at 53, where the cut is
    assert 'class="ri-c0 ri-lost ri-mine"' in out


def test_md_escapes_every_markdown_directive():
    text = "[x](javascript:alert(1)) **b** :red[r] :material/home: `c` # h <b>"
    escaped = md(text)
    # every special character is preceded by a backslash, so Markdown shows it as typed
    assert re.sub(r"\\(.)", r"\1", escaped) == text
    for ch in "[]()*:`#<>":
        assert ch not in re.sub(r"\\.", "", escaped)


def test_a_bad_preset_in_the_widgets_is_a_config_error_worded_in_both_languages():
    from rag_core.config_checks import ConfigError
    from ui.i18n import error_text
    from ui.state import K_PRESET, config_from_widgets

    with pytest.raises(ConfigError) as info:
        config_from_widgets({K_PRESET: "Z"})
    assert str(info.value) == (
        "chunker.preset = 'Z' is not valid; valid choices: A, B, C, D, E, F, custom"
    )
    assert error_text(info.value, "ko") != str(info.value)
    assert "'Z'" in error_text(info.value, "ko")
