"""The Chunks view model (``ui.chunks.view``): picker, needle marks, rows, chart — no Streamlit."""

from __future__ import annotations

import pytest

from rag_core.types import (
    Chunk,
    Chunking,
    ChunkingDiagnostics,
    Document,
    Needle,
    NeedleLoss,
    Question,
)
from ui.chunks import view
from ui.html import ChunkBox, NeedleMark
from ui.i18n import t

# d1: "alpha beta gamma delta" (22 chars); chunk 0 = [0, 11), chunk 1 = [6, 22) whose own
# words start at 11 (overlap "beta "). "alpha beta" (0–10) lies wholly in chunk 0; the
# needle "a beta g" (4–12) is in neither: the diagnostics record it destroyed, cut at 11.
TEXT1 = "alpha beta gamma delta"
D1 = Document("d1", "First", TEXT1)
D2 = Document("d2", "Second", "epsilon zeta")
DOCS = {"d1": D1, "d2": D2}


def _chunk(cid: str, doc: Document, ordinal: int, start: int, end: int, own: int, **kw) -> Chunk:
    content = doc.text[start:end]
    return Chunk(cid, doc.doc_id, ordinal, start, end, own, content, content, **kw)


C0 = _chunk("d1#0", D1, 0, 0, 11, 0, section="S", tokens=3)
C1 = _chunk("d1#1", D1, 1, 6, 22, 11, section="S", header="H: ", tokens=600)
C2 = _chunk("d2#0", D2, 0, 0, 12, 0, tokens=None)
LOSS = NeedleLoss("d1", "a beta g", 4, 12, (11,), "split")


def _diag(**kw) -> ChunkingDiagnostics:
    base = {
        "n_chunks": 3,
        "n_documents": 2,
        "chars_min": 11,
        "chars_mean": 13.0,
        "chars_max": 16,
        "tokens_min": 3,
        "tokens_mean": 301.5,
        "tokens_max": 600,
        "encoder_window": 512,
        "over_window": ("d1#1",),
        "header_tokens": None,
        "total_tokens": None,
        "header_token_share": None,
        "destroyed": (LOSS,),
    }
    base.update(kw)
    return ChunkingDiagnostics(**base)


def _chunking(chunks=(C0, C1, C2), **kw) -> Chunking:
    chunks = tuple(chunks)
    return Chunking(
        "sig",
        chunks,
        {c.chunk_id: c for c in chunks},
        {c.chunk_id: i for i, c in enumerate(chunks)},
        _diag(**kw),
    )


NEEDLES = (
    Needle("d1", "alpha beta"),
    Needle("d1", "a beta g"),  # destroyed
    Needle("d1", "alpha beta", 0, 10),  # same span again: drawn once
    Needle("d1", "not there"),  # not located: no mark
    Needle("d2", "zeta"),  # other document
)
GOLD = Question("q1", "en", "?", needles=(Needle("d2", "zeta"), Needle("d1", "a beta g")))


def test_pick_doc_prefers_the_request_then_the_first_gold_document_then_the_first():
    assert view.pick_doc(DOCS, GOLD, "d1") == view.DocPick(["d1", "d2"], ["d2", "d1"], "d1", True)
    assert view.pick_doc(DOCS, GOLD, "nope") == view.DocPick(
        ["d1", "d2"], ["d2", "d1"], "d2", False
    )
    assert view.pick_doc(DOCS, None, "") == view.DocPick(["d1", "d2"], [], "d1", False)
    assert view.doc_option("d2", DOCS, ["d2"]) == "d2 · Second  ★"
    assert view.doc_option("d1", DOCS, ["d2"]) == "d1 · First"


def test_needle_marks_one_per_located_span_lost_and_mine_flagged():
    marks = view.needle_marks(D1, NEEDLES, GOLD, _diag(), "en")
    ok, lost, mine = (
        t("chk.needle_ok", "en"),
        t("chk.needle_lost", "en"),
        t("chk.this_question", "en"),
    )
    assert marks == [
        NeedleMark(0, 10, False, (), ok, False),
        NeedleMark(4, 12, True, (11,), lost + " · " + mine, True),
    ]
    # without gold nothing is "mine"; without losses nothing is destroyed
    assert [m.mine for m in view.needle_marks(D1, NEEDLES, None, _diag(), "en")] == [False, False]
    kept = view.needle_marks(D1, NEEDLES, None, _diag(destroyed=()), "en")
    assert [m.destroyed for m in kept] == [False, False]


def test_doc_view_boxes_counts_and_facts():
    v = view.doc_view(_chunking(), D1, NEEDLES, GOLD, "en")
    assert v.chunks == [C0, C1]
    assert v.boxes == [
        ChunkBox(0, 0, 0, 11, "", 3, False),
        ChunkBox(1, 6, 11, 22, "H: ", 600, True),
    ]
    assert (v.n_over, len(v.needles), len(v.lost), v.tokens) == (1, 2, 1, [3, 600])
    facts = t("chk.doc_facts", "en", chunks=2, over=1, needles=2, lost=1)
    assert view.doc_facts(v, "en") == facts
    v2 = view.doc_view(_chunking(), D2, NEEDLES, GOLD, "en")
    assert (len(v2.chunks), v2.n_over, v2.tokens) == (1, 0, [])


def test_lost_close_ups_line_and_window_of_each_destroyed_needle():
    v = view.doc_view(_chunking(), D1, NEEDLES, GOLD, "en")
    ((line, close),) = view.lost_close_ups(v, "en")
    assert line == t("chk.lost_line", "en", needle="a beta g", start=4, end=12, cuts="11")
    assert view.close_up(v.lost[0]) == (4 - view.CLOSE_UP, 12 + view.CLOSE_UP)
    assert "ri-lost" in close and "ri-cut" in close
    assert "ri-lost" in view.whole_map(v, "en")
    assert view.lost_close_ups(view.doc_view(_chunking(), D2, NEEDLES, GOLD, "en"), "en") == []


def test_legend_and_map_labels():
    legend = view.legend("en")
    for key in ("chk.legend.overlap", "chk.legend.gold", "chk.legend.gap"):
        assert t(key, "en") in legend
    for cls in ("ri-c0", "ri-c1", "ri-ov", "ri-header", "ri-gold", "ri-lost", "ri-cut", "ri-gap"):
        assert f'class="{cls}"' in legend
    assert legend.count("<span") == 8
    assert view.map_labels("en") == {
        "overlap": t("chk.legend.overlap", "en"),
        "gap": t("chk.legend.gap", "en"),
        "boundary": t("chk.legend.boundary", "en"),
        "header": t("chk.legend.header", "en"),
        "cut": t("chk.legend.cut", "en"),
    }


def test_not_in_corpus_ids_lists_the_first_five():
    missing = tuple(
        NeedleLoss(f"x{i}", "n" * 50, None, None, (), "not in corpus") for i in range(7)
    )
    text = view.not_in_corpus_ids(_diag(not_in_corpus=missing))
    assert text.count("“") == 5 and text.startswith("x0 “" + "n" * 39 + "…”")
    assert "x5" not in text


def test_over_window_rows_are_capped_and_the_rest_counted():
    rows, more = view.over_window_rows(_chunking())
    assert more == 0 and len(rows) == 1
    assert [str(x) for x in rows[0]] == [
        '<span class="ri-mono">d1#1</span>',
        '<span class="ri-num">600</span>',
        "S",
        '<span class="ri-num">3</span>',
    ]
    rows, more = view.over_window_rows(_chunking(over_window=("d1#0", "d1#1", "d2#0")), limit=2)
    assert (len(rows), more) == (2, 1)
    assert len(view.over_window_columns("en")) == 4


def test_destroyed_rows_and_chunk_rows():
    (row,) = view.destroyed_rows(_diag(), "en")
    assert [str(x) for x in row] == [
        '<span class="ri-mono">d1</span>',
        "a beta g",
        t("lossreason.split", "en"),
        '<span class="ri-num">11</span>',
    ]
    assert view.destroyed_rows(_diag(destroyed=()), "en") == []
    v = view.doc_view(_chunking(), D1, NEEDLES, GOLD, "en")
    rows, classes = view.chunk_rows(v)
    assert classes == ["", "ri-bad"]
    assert [str(x) for x in rows[1][:5]] == [
        '<span class="ri-num">1</span>',
        '<span class="ri-num">6–22</span>',
        '<span class="ri-num">5</span>',  # overlap = own_start - start = 11 - 6
        '<span class="ri-num">16</span>',  # len(content) = 22 - 6
        '<span class="ri-num">600</span>',
    ]
    assert rows[1][5:] == ["S", "H: ", "beta gamma delta"]
    assert len(view.chunk_columns("en")) == len(rows[0])
    (row2,), _ = view.chunk_rows(view.doc_view(_chunking(), D2, NEEDLES, GOLD, "en"))
    assert str(row2[4]) == '<span class="ri-num">—</span>'


def test_token_histogram_all_chunks_this_document_and_the_window():
    fig = view.token_histogram(
        _chunking(), view.doc_view(_chunking(), D1, NEEDLES, GOLD, "en"), "en"
    )
    assert fig is not None
    assert [list(tr.x) for tr in fig.data] == [[3, 600], [3, 600]]
    assert fig.data[1].name == "d1"
    assert [s.x0 for s in fig.layout.shapes] == [512]
    # d2 has no token count: only the all-chunks trace
    fig2 = view.token_histogram(
        _chunking(), view.doc_view(_chunking(), D2, NEEDLES, GOLD, "en"), "en"
    )
    assert fig2 is not None and len(fig2.data) == 1
    # no chunk has a token count (no tokenizer): no chart
    none = _chunking(chunks=(C2,))
    assert view.token_histogram(none, view.doc_view(none, D2, NEEDLES, GOLD, "en"), "en") is None


def test_with_window_puts_the_embedders_window_in_the_line_the_list_and_the_count():
    # the chunkers counted with MiniLM (256: both chunks over it); the corpus's embedder (e5)
    # has 512 and its own tokenizer puts only d1#1 over it
    minilm = _chunking(encoder_window=256, over_window=("d1#0", "d1#1"))
    e5 = _diag(encoder_window=512, over_window=("d1#1",))
    chunking = view.with_window(minilm, e5)
    assert chunking.diagnostics.encoder_window == 512
    assert chunking.diagnostics.destroyed == minilm.diagnostics.destroyed  # the rest kept
    fig = view.token_histogram(chunking, view.doc_view(chunking, D1, NEEDLES, GOLD, "en"), "en")
    assert fig is not None
    assert [s["x0"] for s in fig.layout.shapes] == [512]
    assert "512" in fig.layout.annotations[0].text
    rows, more = view.over_window_rows(chunking)
    assert [r[0] for r in rows] == [view.span("d1#1", "ri-mono")] and more == 0
    assert view.doc_view(chunking, D1, NEEDLES, GOLD, "en").n_over == 1


def test_with_window_counts_are_the_chunks_tokens_and_the_range():
    # the embedder counts 300 and 700 where the chunkers' MiniLM counted others
    minilm = _chunking(encoder_window=256, over_window=("d1#0", "d1#1"))
    e5 = _diag(encoder_window=512, over_window=("d1#1",), tokens_min=300, tokens_max=700)
    n = len(minilm.chunks)
    counts = [300 + 400 * (i == n - 1) for i in range(n)]
    chunking = view.with_window(minilm, e5, counts)
    assert [c.tokens for c in chunking.chunks] == counts
    assert [chunking.by_id[c.chunk_id].tokens for c in chunking.chunks] == counts
    assert (chunking.diagnostics.tokens_min, chunking.diagnostics.tokens_max) == (300, 700)
    assert [c.content for c in chunking.chunks] == [c.content for c in minilm.chunks]
    with pytest.raises(ValueError, match="token counts"):
        view.with_window(minilm, e5, counts[:-1])
