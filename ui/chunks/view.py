"""Chunks page view model: the picked document, its chunk boxes and needles, rows and chart.

Pure functions of a ``rag_core.index.Chunking`` (its chunks and
``ChunkingDiagnostics``), the corpus documents and needles; the page only places
widgets and shows what these return.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import plotly.graph_objects as go

from rag_core.gold.relevance import locate
from rag_core.types import Chunk, Chunking, ChunkingDiagnostics, Document, Needle, Question

from ..html import ChunkBox, Markup, NeedleMark, chunk_map, esc, join, snippet, span
from ..i18n import t, tv

#: Rows shown in the over-window list (the rest are counted).
OVER_LIMIT = 200
#: Characters either side of a destroyed needle in its close-up map.
CLOSE_UP = 160
#: Legend entries (i18n key, css class, prefix) of the chunk map, in order.
_LEGEND: tuple[tuple[str, str, str], ...] = (
    ("chk.legend.overlap", "ri-ov", ""),
    ("chk.legend.header", "ri-header", ""),
    ("chk.legend.gold", "ri-gold", ""),
    ("chk.legend.lost", "ri-lost", ""),
    ("chk.legend.cut", "ri-cut", "✂ "),
    ("chk.legend.gap", "ri-gap", ""),
)


@dataclass(frozen=True)
class DocPick:
    """The document picker: all ids, the ids with this question's gold, and the one shown."""

    ids: list[str]
    gold_docs: list[str]
    current: str
    honoured: bool  # the requested (URL/state) document exists and is shown


def pick_doc(docs: Mapping[str, Document], gold: Question | None, requested: str) -> DocPick:
    """``requested`` when it is a document, else the first gold document, else the first one."""
    ids = list(docs)
    gold_docs = [n.doc_id for n in gold.needles if n.doc_id in docs] if gold is not None else []
    honoured = requested in docs
    current = requested if honoured else (gold_docs[0] if gold_docs else ids[0])
    return DocPick(ids, gold_docs, current, honoured)


def doc_option(doc_id: str, docs: Mapping[str, Document], gold_docs: Sequence[str]) -> str:
    """A picker option: ``id · title``, starred when it holds this question's gold."""
    return f"{doc_id} · {docs[doc_id].title}" + ("  ★" if doc_id in gold_docs else "")


def not_in_corpus_ids(d: ChunkingDiagnostics, limit: int = 5) -> str:
    """The first ``limit`` needles not found in the corpus as ``doc “snippet”``, comma-joined."""
    return ", ".join(f"{x.doc_id} “{snippet(x.needle, 40)}”" for x in d.not_in_corpus[:limit])


def needle_marks(
    doc: Document,
    corpus_needles: Sequence[Needle],
    gold: Question | None,
    d: ChunkingDiagnostics,
    lang: str,
) -> list[NeedleMark]:
    """One mark per distinct located span of ``doc``'s needles, lost or kept, ``mine`` if gold."""
    losses = {(x.doc_id, x.needle): x for x in d.destroyed}
    gold_texts = {n.text for n in gold.needles} if gold is not None else set()
    out: list[NeedleMark] = []
    seen: set[tuple[int, int]] = set()
    for n in corpus_needles:
        if n.doc_id != doc.doc_id:
            continue
        where = locate(doc.text, n)
        if where is None or where in seen:
            continue
        seen.add(where)
        loss = losses.get((n.doc_id, n.text))
        mine = n.text in gold_texts
        label = t("chk.needle_lost" if loss else "chk.needle_ok", lang) + (
            " · " + t("chk.this_question", lang) if mine else ""
        )
        cut_at = loss.cut_at if loss else ()
        out.append(NeedleMark(where[0], where[1], loss is not None, cut_at, label, mine))
    return out


@dataclass(frozen=True)
class DocView:
    """What the page draws of one document: its chunks, their boxes and its needle marks."""

    doc: Document
    chunks: list[Chunk]
    boxes: list[ChunkBox]
    needles: list[NeedleMark]
    over: frozenset[str]  # chunk ids (of the whole chunking) over the encoder window

    @property
    def n_over(self) -> int:
        """This document's chunks over the encoder window."""
        return sum(1 for c in self.chunks if c.chunk_id in self.over)

    @property
    def lost(self) -> list[NeedleMark]:
        """The destroyed needles, in document order of the marks."""
        return [x for x in self.needles if x.destroyed]

    @property
    def tokens(self) -> list[int]:
        """Token counts of this document's chunks (those that have one)."""
        return [c.tokens for c in self.chunks if c.tokens is not None]


def with_window(
    chunking: Chunking,
    windowed: ChunkingDiagnostics,
    counts: Sequence[int] | None = None,
) -> Chunking:
    """``chunking`` with the facts of the embedder actually used
    (:meth:`rag_core.index.CorpusIndex.windowed`): its window, the chunks over it and its token
    range, and with ``counts`` (:meth:`~rag_core.index.CorpusIndex.window_counts`, one per chunk)
    as each chunk's ``tokens``. The histogram, the over-window list, the badges and the
    document's count then name that model's tokens and window, not MiniLM's 256."""
    diagnostics = replace(
        chunking.diagnostics,
        encoder_window=windowed.encoder_window,
        over_window=windowed.over_window,
        tokens_min=windowed.tokens_min,
        tokens_mean=windowed.tokens_mean,
        tokens_max=windowed.tokens_max,
    )
    if counts is None:
        return replace(chunking, diagnostics=diagnostics)
    if len(counts) != len(chunking.chunks):
        raise ValueError(f"{len(counts)} token counts for {len(chunking.chunks)} chunks")
    chunks = tuple(replace(c, tokens=n) for c, n in zip(chunking.chunks, counts, strict=True))
    by_id = {c.chunk_id: c for c in chunks}
    return replace(chunking, chunks=chunks, by_id=by_id, diagnostics=diagnostics)


#: The share of characters read as ``[UNK]`` from which the Chunks page warns.
UNKNOWN_WARN_SHARE = 0.01


def unknown_line(counts: tuple[int, int] | None, lang: str) -> str:
    """The warning that MiniLM reads part of the chunks as ``[UNK]``
    (:meth:`rag_core.index.CorpusIndex.unknown_chars`), or ``""`` under
    :data:`UNKNOWN_WARN_SHARE` (or for another embedder: ``counts`` None)."""
    if counts is None or not counts[1] or counts[0] / counts[1] < UNKNOWN_WARN_SHARE:
        return ""
    unk, total = counts
    return t("chk.unknown", lang, unk=f"{unk:,}", total=f"{total:,}", share=f"{unk / total:.1%}")


def doc_view(
    chunking: Chunking,
    doc: Document,
    corpus_needles: Sequence[Needle],
    gold: Question | None,
    lang: str,
) -> DocView:
    """The :class:`DocView` of ``doc`` under ``chunking``."""
    d = chunking.diagnostics
    over = frozenset(d.over_window)
    chunks = [c for c in chunking.chunks if c.doc_id == doc.doc_id]
    boxes = [
        ChunkBox(c.ordinal, c.start, c.own_start, c.end, c.header, c.tokens, c.chunk_id in over)
        for c in chunks
    ]
    return DocView(doc, chunks, boxes, needle_marks(doc, corpus_needles, gold, d, lang), over)


def doc_facts(v: DocView, lang: str) -> str:
    """The caption under the document heading: chunks, over-window, needles, lost."""
    return t(
        "chk.doc_facts",
        lang,
        chunks=len(v.chunks),
        over=v.n_over,
        needles=len(v.needles),
        lost=len(v.lost),
    )


def legend(lang: str) -> Markup:
    """The chunk map's legend: two chunk tints, then overlap, header, gold, lost, cut, gap."""
    parts = [span(t("chk.legend.chunk", lang, n=i), f"ri-c{i}") for i in (0, 1)]
    parts += [span(pre + t(key, lang), cls) for key, cls, pre in _LEGEND]
    return join(parts, " ")


def map_labels(lang: str) -> dict[str, str]:
    """Hover labels of the chunk map (overlap, gap, boundary, header, cut)."""
    return {
        "overlap": t("chk.legend.overlap", lang),
        "gap": t("chk.legend.gap", lang),
        "boundary": t("chk.legend.boundary", lang),
        "header": t("chk.legend.header", lang),
        "cut": t("chk.legend.cut", lang),
    }


def lost_line(v: DocView, x: NeedleMark, lang: str) -> str:
    """The error line of one destroyed needle: its text, offsets and the cuts."""
    return t(
        "chk.lost_line",
        lang,
        needle=snippet(v.doc.text[x.start : x.end], 90),
        start=x.start,
        end=x.end,
        cuts=", ".join(map(str, x.cut_at)) or "—",
    )


def close_up(x: NeedleMark) -> tuple[int, int]:
    """The map window around a destroyed needle: :data:`CLOSE_UP` characters either side."""
    return (x.start - CLOSE_UP, x.end + CLOSE_UP)


def lost_close_ups(v: DocView, lang: str) -> list[tuple[str, Markup]]:
    """Per destroyed needle: its error line and the chunk map of its surroundings."""
    labels = map_labels(lang)
    return [
        (
            lost_line(v, x, lang),
            chunk_map(v.doc.text, v.boxes, v.needles, labels=labels, window=close_up(x)),
        )
        for x in v.lost
    ]


def whole_map(v: DocView, lang: str) -> Markup:
    """The chunk map of the whole document."""
    return chunk_map(v.doc.text, v.boxes, v.needles, labels=map_labels(lang))


def token_histogram(chunking: Chunking, v: DocView, lang: str) -> go.Figure | None:
    """Token counts of all chunks, this document's on top, the encoder window as a line.

    None when no chunk has a token count (no tokenizer).
    """
    tokens_all = [c.tokens for c in chunking.chunks if c.tokens is not None]
    if not tokens_all:
        return None
    window = chunking.diagnostics.encoder_window
    fig = go.Figure()
    fig.add_trace(
        go.Histogram(
            x=tokens_all,
            name=t("chk.all_chunks", lang),
            marker_color="#8c959f",
            opacity=0.6,
            nbinsx=40,
        )
    )
    if v.tokens:
        fig.add_trace(
            go.Histogram(
                x=v.tokens, name=esc(v.doc.doc_id), marker_color="#1f6feb", opacity=0.8, nbinsx=40
            )
        )
    fig.add_vline(
        x=window,
        line_dash="dash",
        line_color="#cf222e",
        annotation_text=esc(t("chk.window_line", lang, window=window)),
    )
    fig.update_layout(
        barmode="overlay",
        height=280,
        margin={"l": 40, "r": 20, "t": 20, "b": 40},
        xaxis_title=t("chk.tokens_axis", lang),
        yaxis_title=t("chk.count_axis", lang),
    )
    return fig


def over_window_columns(lang: str) -> list[str]:
    """Columns of the over-window table."""
    return [
        t("chk.chunk", lang),
        t("ins.tokens", lang),
        t("ins.section", lang),
        t("chk.header_chars", lang),
    ]


def over_window_rows(chunking: Chunking, limit: int = OVER_LIMIT) -> tuple[list[list[object]], int]:
    """Rows ``[id, tokens, section, header chars]`` of the first ``limit`` chunks over the
    window, and how many more there are."""
    ids = chunking.diagnostics.over_window
    rows: list[list[object]] = []
    for cid in ids[:limit]:
        c = chunking.by_id[cid]
        rows.append(
            [
                span(cid, "ri-mono"),
                span(c.tokens, "ri-num"),
                c.section,
                span(len(c.header), "ri-num"),
            ]
        )
    return rows, max(0, len(ids) - limit)


def destroyed_columns(lang: str) -> list[str]:
    """Columns of the destroyed-needles table."""
    return [t("ins.doc", lang), t("ins.needle", lang), t("ins.why", lang), t("chk.cut_at", lang)]


def destroyed_rows(d: ChunkingDiagnostics, lang: str) -> list[list[object]]:
    """Rows ``[doc, needle, why, cut at]`` of every destroyed needle of the chunking."""
    return [
        [
            span(x.doc_id, "ri-mono"),
            snippet(x.needle, 80),
            tv("lossreason", x.reason, lang),
            span(", ".join(map(str, x.cut_at)) or "—", "ri-num"),
        ]
        for x in d.destroyed
    ]


def chunk_columns(lang: str) -> list[str]:
    """Columns of the per-document chunk table."""
    return [
        "#",
        t("chk.span", lang),
        t("chk.overlap_chars", lang),
        t("chk.chars_col", lang),
        t("ins.tokens", lang),
        t("ins.section", lang),
        t("chk.header", lang),
        t("ins.snippet", lang),
    ]


def chunk_rows(v: DocView) -> tuple[list[list[object]], list[str]]:
    """One row per chunk of the document (offsets, overlap, sizes, section, header, snippet),
    and the row classes (``ri-bad`` over the window)."""
    rows: list[list[object]] = [
        [
            span(c.ordinal, "ri-num"),
            span(f"{c.start}–{c.end}", "ri-num"),
            span(c.own_start - c.start, "ri-num"),
            span(len(c.content), "ri-num"),
            span(c.tokens if c.tokens is not None else "—", "ri-num"),
            c.section,
            c.header,
            snippet(c.content, 80),
        ]
        for c in v.chunks
    ]
    return rows, ["ri-bad" if c.chunk_id in v.over else "" for c in v.chunks]
