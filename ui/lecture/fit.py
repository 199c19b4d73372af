"""How much a lecture pane holds on a 1280×720 screen, estimated without a browser.

The lecture font follows the window's width (``LECTURE_CSS``: 13 px at 1280 px, 18 px at
1920 px; *Large text* 17 and 23 px) and the panes' height follows the window's height, so on a
16:9 screen a pane holds about as many ems of text at any size; 1280×720, the smallest, sets
the budgets here. Every length is in ems of the lecture font (``.ri-lec``), measured in headless
chromium on the Lecture page's grid (``tests/browser/test_browser_lecture_fit.py`` checks that
every scenario's panes fit). The panes use these to leave out what does not fit, with a marker
that says how much was left out, instead of scrolling inside the pane.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

#: The content box of a pane's body at 1280×720 on the Lecture page, in ems: normal text
#: 38.5 × (27.4, 22.1, 18.9, 21.0) and large text 28.5 × (21.0, 16.9, 14.4, 16.1) measured with
#: the grid 7.6rem shorter than the window; the heights keep an em for a verdict line that wraps
#: once, less the 0.6rem (9.6 px) the grid lost when the toolbar moved below Streamlit's header.
HEIGHT_EM = {False: 36.7, True: 26.9}
WIDTH_EM = {
    "candidates": {False: 27.4, True: 21.0},
    "prompt": {False: 22.1, True: 16.9},
    "answer": {False: 18.9, True: 14.4},
    "claims": {False: 21.0, True: 16.1},
}
#: A pixel in ems of the lecture font at 1280 px (13 px normal, 17 px large).
PX_EM = {False: 1 / 13, True: 1 / 17}


@dataclass(frozen=True)
class Box:
    """A pane's room: ``width`` and ``height`` in ems, ``px`` one pixel in ems."""

    width: float
    height: float
    px: float


def box(pane: str, large: bool) -> Box:
    """The room of pane ``pane`` (one of :data:`WIDTH_EM`) at 1280×720."""
    if pane not in WIDTH_EM:
        raise ValueError(f"pane = {pane!r} is not valid; valid choices: {', '.join(WIDTH_EM)}")
    return Box(WIDTH_EM[pane][large], HEIGHT_EM[large], PX_EM[large])


def char_width(c: str, mono: bool) -> float:
    """One character's width in ems of its own font: wide (Hangul, CJK) 1, else 0.6 monospace,
    0.55 proportional (a little over Source Sans' average, so an estimate errs long)."""
    if unicodedata.east_asian_width(c) in ("W", "F"):
        return 1.0
    return 0.6 if mono else 0.55


def text_lines(text: str, width: float, *, size: float = 1.0, mono: bool = False) -> int:
    """Lines ``text`` takes wrapped in ``width`` ems (of the pane's font) at font ``size`` (ems):
    words wrap whole, a word longer than a line breaks, ``\\n`` starts a line."""
    cols = width / size
    lines = 0
    for para in text.split("\n"):
        lines += 1
        used = 0.0
        for word in para.split(" "):
            w = sum(char_width(c, mono) for c in word)
            gap = char_width(" ", mono) if used else 0.0
            if used + gap + w <= cols:
                used += gap + w
                continue
            if used:
                lines += 1
            while w > cols:  # a word longer than a line breaks anywhere
                lines += 1
                w -= cols
            used = w
    return lines


def strip_lines(pieces: Sequence[str], width: float, *, size: float, pad: float) -> list[int]:
    """For a token strip (``.ri-tokens``: monospace at ``size`` ems, each token ``pad`` ems of
    border and padding, breaking anywhere, ``\\n`` a new line): the line each piece ends on,
    from 0."""
    cols = width
    line, used = 0, 0.0
    out: list[int] = []
    for p in pieces:
        parts = p.split("\n")
        for j, part in enumerate(parts):
            if j:
                line, used = line + 1, 0.0
            w = sum(char_width(c, True) for c in part) * size + (pad if j == 0 else 0.0)
            while used + w > cols:
                w -= cols - used
                line, used = line + 1, 0.0
            used += w
        out.append(line)
    return out


def take_forward(
    pieces: Sequence[str], start: int, lines: int, width: float, *, size: float, pad: float
) -> int:
    """The end ``j`` of the longest run ``pieces[start:j]`` that takes at most ``lines`` lines
    of a token strip (see :func:`strip_lines`)."""
    if lines <= 0:
        return start
    ends = strip_lines(pieces[start:], width, size=size, pad=pad)
    j = start
    for line in ends:
        if line >= lines:
            break
        j += 1
    return j


def take_back(
    pieces: Sequence[str], end: int, lines: int, width: float, *, size: float, pad: float
) -> int:
    """The start ``i`` of the longest run ``pieces[i:end]`` that takes at most ``lines`` lines
    (a binary search: the line count only grows as the run does)."""
    lo, hi = 0, end  # pieces[hi:end] fits; find the smallest i that does
    while lo < hi:
        mid = (lo + hi) // 2
        ends = strip_lines(pieces[mid:end], width, size=size, pad=pad)
        if not ends or ends[-1] < lines:
            hi = mid
        else:
            lo = mid + 1
    return lo


def fit_text(text: str, width: float, lines: int, *, size: float = 1.0, mono: bool = False) -> int:
    """How many characters of ``text`` fit in ``lines`` lines (all of it when it fits; else a
    cut at a space where one is near, so a word is not split)."""
    if lines <= 0:
        return 0
    if text_lines(text, width, size=size, mono=mono) <= lines:
        return len(text)
    lo, hi = 0, len(text)
    while lo < hi:  # the largest n whose head fits
        mid = (lo + hi + 1) // 2
        if text_lines(text[:mid], width, size=size, mono=mono) <= lines:
            lo = mid
        else:
            hi = mid - 1
    space = text.rfind(" ", 0, lo)
    return space if space > lo * 0.8 else lo
