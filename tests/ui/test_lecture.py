"""The lecture view: rank-flow from the Trace, step-through, slide export, and the page in AppTest.

Fast: the tiny inline corpus (and one corpus of script-payload documents),
generation off. The answer and claims panes get their escaping checked on a
Trace whose generation and support stages are replaced by payload text.
"""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser
from itertools import product

import pytest
from helpers.app import PAYLOAD_LINES, html, make_app, ok, write_payload_docs

from rag_core.config import PipelineConfig
from rag_core.pipeline import run
from rag_core.types import Claim, Evidence, GenerationStage, Notice, SupportStage
from ui.i18n import t, tv
from ui.lecture import slides
from ui.lecture import view as lecture

BLOCK_TAGS = {
    "html",
    "head",
    "meta",
    "title",
    "style",
    "body",
    "div",
    "span",
    "section",
    "h3",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
}


def _config(**overrides: object):
    return PipelineConfig().with_overrides({"generation.model": "none", **overrides})


# ------------------------------------------------------------------ helpers


def test_parse_step_accepts_1_to_4_and_shows_all_otherwise():
    assert [lecture.parse_step(v) for v in ("1", "2", "3", "4", 2)] == [1, 2, 3, 4, 2]
    assert [lecture.parse_step(v) for v in ("", "0", "5", "abc", None, "-1")] == [lecture.STEPS] * 6


def test_chunk_codes_are_spreadsheet_letters():
    assert [lecture._code(i) for i in (0, 1, 25, 26, 27, 26 + 26 * 26)] == [
        "A",
        "B",
        "Z",
        "AA",
        "AB",
        "AAA",
    ]


def test_lecture_view_rejects_a_bad_step(tiny_corpus):
    trace = run(_config(), "How tall is Hallasan?", tiny_corpus)
    with pytest.raises(ValueError, match=re.escape("step = 5 is not valid; valid choices: 1 to 4")):
        lecture.lecture_view(trace, "en", step=5)


# ---------------------------------------------------------------- rank flow


def test_rank_flow_columns_and_reasons_come_from_the_trace(tiny_corpus):
    trace = run(
        _config(**{"retrieval.methods": "bm25,tfidf:char", "retrieval.k": 4, "gate.max_kept": 2}),
        "Hallasan height error code",
        tiny_corpus,
    )
    cols = lecture.flow_columns(trace, "en")
    assert [c.key for c in cols] == ["list", "list", "fused", "kept"]
    fused, kept = cols[2], cols[3]
    assert fused.hits == trace.retrieval.fused.hits and kept.hits == trace.gate.kept
    assert len(kept.hits) == 2 and trace.gate.rejected
    # the column feeding the gate greys exactly what the gate rejected, with the gate's own note
    assert fused.drop == {h.chunk_id: h.note for h in trace.gate.rejected}
    assert set(fused.drop.values()) == {"beyond max kept (2)"}
    # a retriever list greys what fusion did not carry on (here: a fused list cut to its first hit)
    cut = replace(
        trace,
        retrieval=replace(
            trace.retrieval,
            fused=replace(trace.retrieval.fused, hits=trace.retrieval.fused.hits[:1]),
        ),
    )
    first = cut.retrieval.fused.hits[0].chunk_id
    lists = lecture.flow_columns(cut, "ko")[:2]
    assert sum(len(c.drop) for c in lists) > 0
    for col in lists:
        assert col.drop == {
            h.chunk_id: t("lec.why.fusion", "ko") for h in col.hits if h.chunk_id != first
        }
    # dropped items are greyed in the drawing, their reason written out beside their label
    flow = lecture.rank_flow(trace, "en")
    assert flow.count("ri-lf-drop") == len(trace.gate.rejected)
    assert "dropped at fused: beyond max kept (2)" in flow


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_kept_chunk_the_budget_left_out_says_so_once(tiny_corpus, lang):
    trace = run(
        _config(
            **{
                "retrieval.methods": "bm25,tfidf:char",
                "retrieval.k": 4,
                "context.budget_tokens": 170,
            }
        ),
        "Hallasan height error code",
        tiny_corpus,
    )
    dropped = [s for s in trace.context.sources if s.status == "dropped"]
    assert dropped, "the fixture's budget must leave a kept chunk out"
    why = t("lec.why.context", lang, reason=tv("reason", dropped[0].reason, lang))
    flow = lecture.rank_flow(trace, lang)
    assert why in flow
    kept_title = t("lec.col.kept", lang)
    # not "dropped at kept: left out of the context: …"
    assert t("lec.fate.dropped", lang, stage=kept_title, why=why) not in flow


def test_rank_flow_marks_gold_in_every_column_it_reaches(tiny_corpus):
    from rag_core.types import Needle, Question

    gold = Question(
        "q",
        "ko",
        "한라산의 높이는?",
        needles=(Needle("jeju", "해발 1,947m로 남한에서 가장 높은 산이다"),),
    )
    trace = run(_config(**{"retrieval.analyzer": "char"}), gold.question, tiny_corpus, gold=gold)
    gids = {cid for ids in trace.gold.chunk_ids for cid in ids}
    assert gids
    flow = lecture.rank_flow(trace, "ko")
    cols = lecture.flow_columns(trace, "ko")
    reached = sum(1 for c in cols for h in c.hits if h.chunk_id in gids)
    assert reached >= 2  # retrieved and kept
    assert flow.count("ri-lf ri-lf-gold") == reached


# ------------------------------------------------------------- step-through


def test_panes_after_the_step_show_only_their_question(tiny_corpus):
    from ui.cache import token_pieces

    trace = run(_config(), "Error E17", tiny_corpus)
    for step in range(1, lecture.STEPS + 1):
        view = lecture.lecture_view(trace, "en", step=step, pieces=token_pieces(trace))
        shown = re.findall(r'data-pane="(\w+)" data-shown="(\d)"', view)
        assert shown == [(p, "1" if i < step else "0") for i, p in enumerate(lecture.PANES)]
        assert (t("lec.ask.answer", "en") in view) == (step < 3)
        assert ("ri-tokens" in view) == (step >= 2)


# ------------------------------------------------------------------ export


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attrs: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs |= {k for k, _ in attrs}

    def handle_data(self, data):
        self.text.append(data)


@pytest.fixture()
def payload_trace(tmp_path):
    """A Trace over script-payload documents, its answer and claim made of payload text too."""
    from rag_core.index import load_corpus_index

    write_payload_docs(tmp_path)
    corpus = load_corpus_index(tmp_path, questions=[])
    question = "zebrafish tank <script>window.__xss=1</script> <img src=x onerror=window.__xss=1>"
    trace = run(
        _config(**{"context.policy": "hard-cut", "context.budget_tokens": 300}), question, corpus
    )
    src = next(s for s in trace.context.sources if s.n is not None)
    answer = f"The tank holds 42 litres [{src.n}]. {PAYLOAD_LINES[0]} {PAYLOAD_LINES[1]} [{src.n}]."
    k = answer.index(PAYLOAD_LINES[0])
    ev = Evidence(
        src.n,
        src.chunk_id,
        PAYLOAD_LINES[2],
        src.start,
        src.start + len(PAYLOAD_LINES[2]),
        0.5,
        None,
        0.5,
    )
    claims = (
        Claim(answer[:k].strip(), 0, k - 1, (src.n,), "supported", (ev,)),
        Claim(
            answer[k:],
            k,
            len(answer),
            (src.n,),
            "unsupported",
            (ev,),
            notice=Notice("support.why.not_a_claim", {"kind": PAYLOAD_LINES[1]}),
        ),
    )
    return replace(
        trace,
        generation=GenerationStage("ok", "test-double", answer=answer),
        support=SupportStage("ok", claims),
    )


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_exported_html_has_no_script_and_no_unescaped_text(payload_trace, lang):
    from ui.cache import token_pieces

    pieces = token_pieces(payload_trace)
    assert pieces is not None and pieces[1] < len(
        pieces[0]
    )  # hard-cut: tokens beyond the budget exist
    for step, selected, large in product((1, lecture.STEPS), (0, 1), (False, True)):
        view = lecture.lecture_view(
            payload_trace,
            lang,
            step=step,
            selected=selected,
            pieces=pieces,
            large=large,
            height="100%",
        )
        document = slides.slide_html(view, lang, payload_trace.question)
        assert "<script" not in document.lower()
        parser = _Tags()
        parser.feed(document)
        assert parser.tags <= BLOCK_TAGS, parser.tags - BLOCK_TAGS
        assert not {a for a in parser.attrs if a.startswith("on")} and "src" not in parser.attrs
        text = "".join(parser.text)
        assert "window.__xss=1" in text  # the question and documents are shown, as text
        if step == lecture.STEPS and not large:  # large text leaves some evidence out
            for line in PAYLOAD_LINES:
                assert line in text  # answer, claims and evidence: the payloads as text
            assert (
                "&lt;script&gt;window.__xss = 1; alert(&#x27;script&#x27;)&lt;/script&gt;"
                in document
            )
            assert 'class="ri-tok ri-beyond"' in document  # tokens beyond the cut, greyed
        assert f'<html lang="{lang}">' in document
        assert t("lec.pane.candidates", lang) in document


def test_slide_html_refuses_raw_strings_and_unknown_languages(payload_trace):
    with pytest.raises(TypeError):
        slides.slide_html("<div>raw</div>", "en", "x")  # type: ignore[arg-type]
    view = lecture.lecture_view(payload_trace, "en")
    with pytest.raises(
        ValueError, match=re.escape("lang = 'fr' is not valid; valid choices: ko, en")
    ):
        slides.slide_html(view, "fr", "x")


@pytest.mark.browser
@pytest.mark.skipif(
    not slides.chromium_available(), reason="Debian chromium is not installed (make browser)"
)
def test_slide_png_is_a_1920x1080_screenshot(payload_trace):
    view = lecture.lecture_view(payload_trace, "en", selected=1, height="100%")
    png = slides.slide_png(slides.slide_html(view, "en", payload_trace.question))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = (
        int.from_bytes(png[16:20], "big"),
        int.from_bytes(png[20:24], "big"),
    )  # the IHDR chunk
    assert (width, height) == (round(1280 * slides.SLIDE_SCALE), round(720 * slides.SLIDE_SCALE))


# ------------------------------------------------------------------ the page


@pytest.fixture()
def no_generation(monkeypatch):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")


def _shown(at) -> list[str]:
    body = html(at)
    return re.findall(r'data-pane="\w+" data-shown="(\d)"', body)


def test_lecture_page_shows_four_panes_and_keeps_the_step_in_the_url(entry, no_generation):
    at = make_app(entry, {"lang": "en", "step": "2"}, page="lecture")
    ok(at)
    assert _shown(at) == ["1", "1", "0", "0"]
    assert at.query_params["step"] == "2"
    at.button(key="lec.next").click().run()
    ok(at)
    assert _shown(at) == ["1", "1", "1", "0"] and at.query_params["step"] == "3"
    at.button(key="lec.next").click().run()
    assert _shown(at) == ["1", "1", "1", "1"] and "step" not in at.query_params
    assert at.button(key="lec.next").disabled
    at.button(key="lec.back").click().run()
    assert _shown(at) == ["1", "1", "1", "0"] and at.query_params["step"] == "3"
    at.toggle(key="lec.big.w").set_value(True).run()
    ok(at)
    assert at.query_params["big"] == "1" and "ri-lec ri-lec-big" in html(at)


def test_a_bad_step_in_the_url_shows_every_pane(entry, no_generation):
    at = make_app(entry, {"lang": "ko", "step": "<script>"}, page="lecture")
    ok(at)
    assert _shown(at) == ["1", "1", "1", "1"]
    assert t("lec.pane.claims", "ko") in html(at)


def test_scenario_card_opens_the_lecture_view_at_step_one(entry, no_generation):
    at = make_app(entry, {"lang": "en"}, page="scenarios")
    ok(at)
    at.button(key="scn.irrelevant-sources.lecture").click().run()
    ok(at)
    assert at.query_params["qid"] == "en-inf-01" and "ph" not in at.query_params
    assert at.query_params["step"] == "1"
    assert at.query_params["gate.max_kept"] == "3"
    assert _shown(at) == ["1", "0", "0", "0"]


def test_every_scenario_card_offers_the_lecture_view(entry, no_generation):
    from rag_core.scenarios import SCENARIOS

    at = make_app(entry, {"lang": "ko"}, page="scenarios")
    ok(at)
    labels = {b.key: b.label for b in at.button}
    for s in SCENARIOS:
        assert labels[f"scn.{s.id}.lecture"] == t("scn.open.lecture", "ko")


def test_a_refusal_greys_every_candidate_with_the_gates_reason(tiny_corpus):
    trace = run(_config(**{"gate.min_score": 1000.0}), "Error E17 door latch", tiny_corpus)
    assert trace.gate.refused and trace.gate.rejected
    cols = lecture.flow_columns(trace, "en")
    assert cols[-1].key == "kept" and cols[-1].hits == ()
    assert cols[-2].drop == {h.chunk_id: h.note for h in trace.gate.rejected}
    assert all(note.startswith("score ") for note in cols[-2].drop.values())
    view = lecture.lecture_view(trace, "en")
    assert t("ins.context_skipped", "en", message=trace.context.message) in view
    assert "ri-lec-note info" in view  # the answer pane says why no answer was made


def test_a_claim_index_from_another_question_falls_back_to_the_first(payload_trace):
    assert lecture.selected_claim(payload_trace, 1) == 1
    assert lecture.selected_claim(payload_trace, 7) == 0
    assert lecture.selected_claim(payload_trace, "x") == 0
    no_claims = replace(payload_trace, support=SupportStage("skipped"))
    assert lecture.selected_claim(no_claims, 1) is None


def test_cut_window_keeps_the_budget_cut_marker_in_the_lines_it_has():
    from ui.lecture import fit
    from ui.lecture.view import cut_window, prompt_windows

    pieces = [f"w{i} " for i in range(1000)]
    room = fit.box("prompt", False)
    html = str(cut_window(pieces, 600, "en", room=room, lines=24))
    spans = prompt_windows(pieces, 600, room, 24)
    (h0, h1), (lo, hi) = spans  # the head, and a run around the cut
    assert h0 == 0 and lo < 600 < hi and h1 < lo and hi < 1000
    shown = h1 + (hi - lo)
    assert html.count('<span class="ri-tok') == shown
    assert html.count("ri-trunc") == 1 and "w599 " in html and "w600 " in html
    assert f"{lo - h1} tokens not shown" in html and f"{1000 - hi} tokens not shown" in html
    lines = fit.strip_lines(pieces[:h1], room.width, size=0.8, pad=3 * room.px)[-1] + 1
    lines += fit.strip_lines(pieces[lo:hi], room.width, size=0.8, pad=3 * room.px)[-1] + 1
    assert lines <= 24 - 2  # a line kept for each gap's marker
    # without a cut a long prompt keeps its head and its end (the question)
    (a0, a1), (b0, b1) = prompt_windows(pieces, 1000, room, 24)
    assert a0 == 0 and b1 == 1000 and a1 < b0
    # a short prompt, or a pane with room for all of it, is drawn whole
    assert str(cut_window(pieces[:50], 40, "en", room=room)).count('<span class="ri-tok') == 50
    assert "not shown" not in str(cut_window(pieces, 1000, "en", room=room, lines=10_000))
