"""Escaped HTML building for the pages.

Every piece of document, question or model text is untrusted. The rule here:
a plain ``str`` is *always* escaped (``html.escape(quote=True)``); only
:class:`Markup` — produced by the builders below from escaped parts — passes
through. Pages hand the result to :func:`show`, which refuses anything that is
not ``Markup`` and renders it with ``st.html`` (sanitised again by Streamlit's
DOMPurify, no JavaScript). Nothing here computes a pipeline stage; the span
functions only lay out offsets that the ``Trace`` and the chunking carry.
"""

from __future__ import annotations

import html as _html
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass


class Markup(str):
    """A string already safe to insert as HTML (built from escaped parts)."""

    __slots__ = ()

    def __add__(self, other: object) -> Markup:
        return Markup(str.__add__(self, esc(other)))

    def __radd__(self, other: object) -> Markup:
        return Markup(str.__add__(esc(other), self))


def esc(value: object) -> Markup:
    """Escape ``value`` unless it is already :class:`Markup`."""
    if isinstance(value, Markup):
        return value
    return Markup(_html.escape("" if value is None else str(value), quote=True))


def join(parts: Iterable[object], sep: object = "") -> Markup:
    """Concatenate, escaping every part (and the separator) that is not Markup."""
    return Markup(str(esc(sep)).join(str(esc(p)) for p in parts))


def _attrs(
    cls: str | None, title: object | None, style: str | None, extra: dict[str, object] | None
) -> str:
    out = []
    if cls:
        out.append(f' class="{_html.escape(cls, quote=True)}"')
    if title not in (None, ""):
        out.append(f' title="{esc(title)}"')
    if style:
        out.append(f' style="{_html.escape(style, quote=True)}"')
    for k, v in (extra or {}).items():
        if not k.replace("-", "").isalnum():
            raise ValueError(f"attribute name {k!r} must be alphanumeric (dashes allowed)")
        out.append(f' {k}="{esc(v)}"')
    return "".join(out)


def tag(
    name: str,
    content: object = "",
    *,
    cls: str | None = None,
    title: object | None = None,
    style: str | None = None,
    attrs: dict[str, object] | None = None,
) -> Markup:
    """``<name …>content</name>`` with escaped content and attributes."""
    if not name.isalnum():
        raise ValueError(f"tag name {name!r} must be alphanumeric")
    return Markup(f"<{name}{_attrs(cls, title, style, attrs)}>{esc(content)}</{name}>")


def span(
    content: object, cls: str | None = None, title: object | None = None, style: str | None = None
) -> Markup:
    return tag("span", content, cls=cls, title=title, style=style)


def div(
    content: object, cls: str | None = None, title: object | None = None, style: str | None = None
) -> Markup:
    return tag("div", content, cls=cls, title=title, style=style)


def table(
    columns: Sequence[object],
    rows: Sequence[Sequence[object]],
    *,
    row_classes: Sequence[str | None] | None = None,
    cls: str = "ri-table",
    empty: object = "",
    attrs: dict[str, object] | None = None,
) -> Markup:
    """A table; every header and cell is escaped unless it is Markup."""
    head = join(tag("th", c) for c in columns)
    body = []
    for i, row in enumerate(rows):
        rc = row_classes[i] if row_classes else None
        body.append(tag("tr", join(tag("td", c) for c in row), cls=rc))
    if not rows and empty:
        body.append(tag("tr", tag("td", empty, attrs={"colspan": len(columns)}), cls="ri-empty"))
    grid = tag(
        "table", tag("thead", tag("tr", head)) + tag("tbody", join(body)), cls=cls, attrs=attrs
    )
    return tag("div", grid, cls="ri-tablebox")  # a table wider than its column scrolls in it


_MD_SPECIAL = set("\\`*_{}[]()#+-.!|<>~$:=")
#: U+2060 WORD JOINER: invisible, and it breaks GFM's autolink literals.
WORD_JOINER = "\u2060"
#: ``scheme:`` before ``//``, matched only from the start of a run of scheme characters and
#: without backtracking (``++``): one pass over a long run that holds no ``://``, where
#: ``[a-z][a-z0-9+.-]*:`` tried again from every letter of it (quadratic: 30,000 letters took
#: 13 s in a warning). A run holding no letter is left as that pattern left it.
_SCHEME = re.compile(r"(?i)(?<![a-z0-9+.-])[a-z0-9+.-]++:(?=//)")
_LETTER = re.compile(r"(?i)[a-z]")


def _scheme_joined(m: re.Match[str]) -> str:
    return m.group(0) + WORD_JOINER if _LETTER.search(m.group(0)) else m.group(0)


_AUTOLINKS: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    (_SCHEME, _scheme_joined),  # scheme://
    (re.compile(r"(?i)\bwww\."), "www" + WORD_JOINER + "."),  # www.host
    (re.compile("@"), WORD_JOINER + "@"),  # name@host (and mailto:/xmpp:)
)


def md(text: object) -> str:
    """Plain text for a Markdown-rendering element (caption, warning…): every
    Markdown/Streamlit directive character is backslash-escaped, so ``[x](…)``,
    ``**``, ``:red[…]`` or ``:material/…:`` in document, model or URL text shows
    as typed. (HTML there is already shown as text by Streamlit.)

    GFM also links bare ``https://…``, ``www.…`` and ``name@host`` text, and
    Streamlit's renderer (remark-gfm) finds them in the text *after* escapes
    are resolved, so escaping cannot stop it: an invisible word joiner
    (U+2060) goes after such a scheme's colon, between ``www`` and its dot and
    before ``@``, which the autolink patterns do not match across."""
    out = str(text)
    for pattern, repl in _AUTOLINKS:
        out = pattern.sub(repl, out)
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in out)


def snippet(text: str, limit: int = 160) -> str:
    """First ``limit`` characters on one line (plain text; escape when inserting)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


# ------------------------------------------------------------- span layout


@dataclass(frozen=True)
class Mark:
    """A styled range ``[start, end)`` of a text; ``cls`` may be several classes."""

    start: int
    end: int
    cls: str
    title: str = ""


def marked_text(text: str, marks: Sequence[Mark], *, base: int = 0, cls: str = "ri-text") -> Markup:
    """``text`` with possibly overlapping ``marks`` (offsets relative to ``base``).

    The text is cut at every mark edge; each piece carries the classes (and
    titles) of all marks covering it. Marks outside the text are clipped.
    """
    n = len(text)
    clipped = []
    for m in marks:
        s, e = max(m.start - base, 0), min(m.end - base, n)
        if e > s:
            clipped.append((s, e, m))
    edges = sorted({0, n, *(s for s, _, _ in clipped), *(e for _, e, _ in clipped)})
    pieces: list[Markup] = []
    for a, b in zip(edges, edges[1:], strict=False):
        if b <= a:
            continue
        covering = [m for s, e, m in clipped if s <= a and b <= e]
        pieces.append(_covered_piece(text[a:b], covering))
    return div(join(pieces), cls)


def _covered_piece(piece: str, covering: Sequence[Mark]) -> Markup:
    """``piece`` in a span with the classes and titles of the ``covering`` marks (none: escaped)."""
    if not covering:
        return esc(piece)
    classes = " ".join(dict.fromkeys(c for m in covering for c in m.cls.split()))
    title = " · ".join(dict.fromkeys(m.title for m in covering if m.title))
    return span(piece, classes, title or None)


@dataclass(frozen=True)
class ChunkBox:
    """What :func:`chunk_map` needs of a chunk (offsets into the document text)."""

    ordinal: int
    start: int
    own_start: int
    end: int
    header: str = ""
    tokens: int | None = None
    over_window: bool = False


@dataclass(frozen=True)
class NeedleMark:
    start: int
    end: int
    destroyed: bool
    cut_at: tuple[int, ...] = ()
    label: str = ""
    mine: bool = False  # the current question's needle (drawn stronger)


def chunk_map(
    text: str,
    chunks: Sequence[ChunkBox],
    needles: Sequence[NeedleMark] = (),
    *,
    labels: dict[str, str] | None = None,
    window: tuple[int, int] | None = None,
) -> Markup:
    """The document with its chunk boundaries drawn (or only ``window = (start, end)`` of it).

    Own words of chunk *i* get tint ``ri-c0``/``ri-c1`` by parity, words copied
    from the previous chunk (``[start, own_start)``) the overlap tint
    ``ri-ov``, text in no chunk ``ri-gap``. A boundary tag opens every chunk,
    its contextual header (not document text) in a box of its own. Needles are
    outlined (``ri-gold``), destroyed ones red (``ri-lost``) with a ✂ at the
    boundary that cut them.
    """
    labels = labels or {}
    n = len(text)
    ordered = sorted(chunks, key=lambda c: (c.start, c.ordinal))
    marks = _chunk_marks(n, ordered, needles, labels)
    inserts = _boundary_boxes(ordered, needles, labels)
    lo, hi = (0, n) if window is None else (max(0, window[0]), min(n, window[1]))
    edges = sorted(
        {
            lo,
            hi,
            *inserts,
            *(max(0, min(m.start, n)) for m in marks),
            *(max(0, min(m.end, n)) for m in marks),
        }
    )
    edges = [e for e in edges if lo <= e <= hi]
    pieces: list[Markup] = [span("… ", "ri-muted")] if lo > 0 else []
    for a, b in zip(edges, edges[1:] + [None], strict=True):
        for box in inserts.get(a, ()):
            if a < hi or hi == n:
                pieces.append(box)
        if b is None or b <= a:
            continue
        covering = [m for m in marks if m.start <= a and b <= m.end]
        pieces.append(_covered_piece(text[a:b], covering))
    if hi < n:
        pieces.append(span(" …", "ri-muted"))
    return div(join(pieces), "ri-doc" if window is None else "ri-doc ri-excerpt")


def _chunk_marks(
    n: int, ordered: Sequence[ChunkBox], needles: Sequence[NeedleMark], labels: dict[str, str]
) -> list[Mark]:
    """The tints: each chunk's own words by parity, its overlap, the needles, the gaps."""
    marks: list[Mark] = []
    for c in ordered:
        tint = "ri-c1" if c.ordinal % 2 else "ri-c0"
        if c.own_start > c.start:
            marks.append(Mark(c.start, c.own_start, "ri-ov", labels.get("overlap", "overlap")))
        marks.append(Mark(c.own_start, c.end, tint, f"#{c.ordinal}"))
    for nd in needles:
        cls = ("ri-lost" if nd.destroyed else "ri-gold") + (" ri-mine" if nd.mine else "")
        marks.append(Mark(nd.start, nd.end, cls, nd.label))
    covered = sorted((c.start, c.end) for c in ordered)
    pos = 0
    for s, e in covered:
        if s > pos:
            marks.append(Mark(pos, s, "ri-gap", labels.get("gap", "in no chunk")))
        pos = max(pos, e)
    if pos < n:
        marks.append(Mark(pos, n, "ri-gap", labels.get("gap", "in no chunk")))
    return marks


def _boundary_boxes(
    ordered: Sequence[ChunkBox], needles: Sequence[NeedleMark], labels: dict[str, str]
) -> dict[int, list[Markup]]:
    """At each chunk's start its boundary tag (number, tokens, header); ✂ where a cut fell."""
    inserts: dict[int, list[Markup]] = {}
    for c in ordered:
        at = c.start
        head = span(f"#{c.ordinal}", "ri-bnd-n")
        if c.tokens is not None:
            head = head + span(
                f"{c.tokens} tok", "ri-bnd-t" + (" ri-over" if c.over_window else "")
            )
        box = span(head, "ri-bnd", labels.get("boundary", "chunk boundary"))
        if c.header:
            box = box + span(
                c.header, "ri-header", labels.get("header", "header (not document text)")
            )
        inserts.setdefault(at, []).append(box)
    for nd in needles:
        for cut in nd.cut_at:
            inserts.setdefault(cut, []).append(
                span("✂", "ri-cut", labels.get("cut", "this boundary cut the needle"))
            )
    return inserts


# ------------------------------------------------------------- rendering

CSS = """
.ri-tablebox{max-width:100%;overflow-x:auto}
.ri-table{border-collapse:collapse;width:100%;font-size:0.82rem;margin:0.2rem 0 0.6rem 0}
.ri-table th{text-align:left;border-bottom:2px solid #d0d7de;padding:2px 6px;white-space:nowrap;
  font-weight:600}
.ri-table td{border-bottom:1px solid #eaeef2;padding:2px 6px;vertical-align:top;
  word-break:keep-all;overflow-wrap:break-word}
.ri-table tr.ri-goldrow td{background:#fff4c2}
.ri-table tr.ri-dim td{color:#8c959f}
.ri-table tr.ri-bad td{background:#ffebe9}
.ri-table tr.ri-diff td{background:#ddf4ff}
.ri-empty td{color:#cf222e;font-weight:600}
.ri-star{color:#bf8700;font-weight:700}
.ri-num{font-variant-numeric:tabular-nums;white-space:nowrap}
.ri-mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:0.78rem}
.ri-muted{color:#6e7781}
.ri-chip{display:inline-block;border-radius:10px;padding:0 8px;margin:1px 3px 1px 0;
  font-size:0.78rem;border:1px solid #d0d7de;background:#f6f8fa}
.ri-chip.ok{background:#dafbe1;border-color:#4ac26b}
.ri-chip.skipped{background:#f6f8fa;color:#6e7781}
.ri-chip.unavailable,.ri-chip.error{background:#ffebe9;border-color:#ff8182}
.ri-chip.lost{background:#ffebe9;border-color:#cf222e;color:#82071e;font-weight:600}
.ri-chip.gold{background:#fff4c2;border-color:#d4a72c}
.ri-verdict{border-radius:6px;padding:8px 12px;margin:4px 0 8px 0;border:1px solid #d0d7de}
.ri-verdict.lost{background:#ffebe9;border-color:#ff8182}
.ri-verdict.kept{background:#dafbe1;border-color:#4ac26b}
.ri-verdict.none{background:#f6f8fa}
.ri-zero{border:2px dashed #cf222e;border-radius:6px;padding:10px;color:#82071e;font-weight:600;
  text-align:center;margin:4px 0}
.ri-refusal{border:2px solid #9a6700;border-radius:6px;padding:10px;background:#fff8c5;margin:4px 0}
.ri-text{white-space:pre-wrap;line-height:1.55;font-size:0.86rem}
.ri-doc{white-space:pre-wrap;line-height:1.8;font-size:0.86rem;border:1px solid #d0d7de;
  border-radius:6px;padding:8px;max-height:640px;overflow:auto}
.ri-excerpt{max-height:none;margin-bottom:8px}
.ri-c0{background:#ddf4ff}
.ri-c1{background:#dafbe1}
.ri-ov{background:#fbefff;text-decoration:underline dotted #8250df}
.ri-gap{color:#8c959f}
.ri-gold{outline:2px solid #d4a72c;background:#fff4c2}
.ri-lost{outline:2px solid #cf222e;background:#ffcecb}
.ri-mine{outline-width:3px;box-shadow:0 0 0 3px rgba(191,135,0,0.35)}
.ri-cut{color:#fff;background:#cf222e;border-radius:3px;padding:0 3px;font-weight:700;margin:0 1px}
.ri-bnd{display:inline-block;font-size:0.68rem;background:#57606a;color:#fff;border-radius:3px;
  padding:0 4px;margin:0 2px;line-height:1.3;vertical-align:middle;white-space:nowrap}
.ri-bnd-t{margin-left:4px;opacity:0.85}
.ri-bnd-t.ri-over{background:#cf222e;border-radius:3px;padding:0 2px;opacity:1}
.ri-header{display:inline-block;font-size:0.72rem;border:1px dashed #8250df;color:#8250df;
  border-radius:3px;padding:0 4px;margin:0 2px;font-style:italic;white-space:normal}
.ri-claim{border-radius:3px;padding:1px 0}
.ri-v-supported{background:#ddf4ff;border-bottom:2px solid #0969da}
.ri-v-supported-elsewhere{background:#eef6ff;border-bottom:2px dashed #0969da}
.ri-v-uncited{background:#fff8c5;border-bottom:2px solid #9a6700}
.ri-v-unsupported{background:#ffebe9;border-bottom:2px solid #cf222e}
.ri-v-invalid-citation{background:#fbefff;border-bottom:2px solid #8250df}
.ri-v-contradicted{background:#ffd8d3;border-bottom:3px double #a40e26}
.ri-v-not-a-claim{color:#8c959f;background:none;border-bottom:1px dotted #d0d7de}
.ri-sel{outline:2px solid #1f2328}
.ri-mark{display:inline-block;border-radius:10px;padding:0 8px;margin:2px 0 4px 0;
  border:1px solid #d0d7de;font-weight:600}
.ri-mark-correct,.ri-mark-correct_refusal{background:#dafbe1;border-color:#1a7f37;color:#116329}
.ri-mark-wrong,.ri-mark-bluff,.ri-mark-false_refusal{background:#ffebe9;border-color:#cf222e;
  color:#82071e}
.ri-mark-not_judged{background:#f6f8fa;color:#57606a}
.ri-mark-cut_off{background:#fff8c5;border-color:#9a6700;color:#7d4e00}
.ri-nonum{color:#fff;background:#cf222e;border-radius:3px;padding:0 2px}
.ri-suspect{text-decoration:underline wavy #cf222e;text-decoration-thickness:2px;
  text-underline-offset:3px}
.ri-ev{border-radius:3px;padding:0 1px}
.ri-ev-best{outline:2px solid #1f2328}
.ri-src{border:1px solid #d0d7de;border-radius:6px;padding:6px 8px;margin-bottom:6px}
.ri-src.dropped{opacity:0.55}
.ri-src-h{font-size:0.78rem;color:#57606a;margin-bottom:2px}
.ri-src-lead{white-space:pre-wrap;color:#57606a;font-style:italic;font-size:0.86rem;line-height:1.55}
.ri-tokens{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:0.74rem;
  line-height:1.9;white-space:pre-wrap;word-break:break-all;border:1px solid #d0d7de;
  border-radius:6px;padding:6px;max-height:420px;overflow:auto}
.ri-tok{border-right:1px solid #d0d7de;padding:0 1px}
.ri-tok.ri-beyond{color:#8c959f;background:#f6f8fa;text-decoration:line-through}
[data-testid=stMetricLabel] div,[data-testid=stMetricLabel] p{white-space:normal!important;
  overflow:visible!important;text-overflow:clip!important}
[data-testid=stMain] button [data-testid=stMarkdownContainer],
[data-testid=stMain] button [data-testid=stMarkdownContainer] p,
[data-testid=stMain] label [data-testid=stMarkdownContainer],
[data-testid=stMain] label [data-testid=stMarkdownContainer] p{white-space:normal!important;
  overflow:visible!important;text-overflow:clip!important;word-break:keep-all}
.ri-trunc{color:#fff;background:#cf222e;font-weight:700;padding:0 4px;border-radius:3px;
  margin:0 2px}
.ri-legend span{margin-right:8px}
.ri-legend>span{display:inline-block;white-space:nowrap;line-height:1.35}
.ri-card{border:1px solid #d0d7de;border-radius:8px;padding:10px 12px;height:100%}
.ri-card h4{margin:0 0 4px 0;font-size:1rem}
.ri-preview{border:1px solid #d0d7de;border-radius:6px;padding:6px 12px;margin:2px 0 6px 0;
  background:#f6f8fa;line-height:1.6;overflow-wrap:anywhere}
.ri-preview.ok{background:#fff}
.ri-preview.warning,.ri-preview.error{background:#fff8c5;border-color:#d4a72c}
.ri-preview-h{font-weight:700;margin-right:4px}
.ri-preview .ri-mark{margin:0 4px 0 0}
.ri-preview-a{white-space:nowrap;margin-left:6px}
.ri-flow{display:flex;flex-wrap:wrap;gap:4px;align-items:center;margin:2px 0 6px 0}
.ri-flow .ri-arrow{color:#8c959f}
"""


def style(css: str = CSS) -> Markup:
    """A stylesheet as one ``<style>`` tag: the app's, or ``css`` (a page's constant stylesheet;
    never document text)."""
    return Markup(f"<style>{css}</style>")


def show(markup: Markup, container: object | None = None) -> None:
    """Render safe HTML with ``st.html`` (refuses unescaped strings)."""
    if not isinstance(markup, Markup):
        raise TypeError("ui.html.show takes Markup built by ui.html, never a raw string")
    import streamlit as st

    target = container if container is not None else st
    target.html(str(markup))  # type: ignore[attr-defined]
