"""The lecture panes' room estimates (``ui.lecture.fit``): wrapped lines, token strips, cuts."""

from __future__ import annotations

import re

import pytest

from ui.lecture import fit


def test_text_lines_wraps_words_breaks_long_ones_and_counts_wide_characters_double():
    # 10 ems at size 1: 10 / 0.55 = 18.2 columns of Latin text
    assert fit.text_lines("", 10) == 1
    assert fit.text_lines("a" * 18, 10) == 1
    assert fit.text_lines("a" * 19, 10) == 2  # one word longer than a line breaks
    assert fit.text_lines("aaaa " * 4, 10) == 2  # five columns a word: three fit on a line
    assert fit.text_lines("a\nb\n\nc", 10) == 4  # every newline starts a line
    assert fit.text_lines("가" * 10, 10) == 1 and fit.text_lines("가" * 11, 10) == 2  # 1 em each
    assert fit.text_lines("a" * 18, 10, size=2.0) == 2  # half the columns at twice the size


def test_strip_lines_gives_the_line_each_token_ends_on():
    # 0.6 em a character at size 1, plus 0.4 em of padding: a 5-character token is 3.4 ems
    pieces = ["abcde"] * 6
    assert fit.strip_lines(pieces, 10, size=1.0, pad=0.4) == [0, 0, 1, 1, 1, 2]
    assert fit.strip_lines(["a", "\n", "b"], 10, size=1.0, pad=0.0) == [0, 1, 1]


def test_take_forward_and_back_are_the_longest_runs_within_the_lines():
    pieces = [f"w{i} " for i in range(200)]
    kw = {"size": 0.8, "pad": 0.2}
    j = fit.take_forward(pieces, 10, 3, 20, **kw)
    assert fit.strip_lines(pieces[10:j], 20, **kw)[-1] == 2
    assert fit.strip_lines(pieces[10 : j + 1], 20, **kw)[-1] == 3
    i = fit.take_back(pieces, 150, 3, 20, **kw)
    assert fit.strip_lines(pieces[i:150], 20, **kw)[-1] == 2
    assert fit.strip_lines(pieces[i - 1 : 150], 20, **kw)[-1] == 3
    assert fit.take_forward(pieces, 10, 0, 20, **kw) == 10


def test_fit_text_cuts_at_a_space_and_keeps_a_text_that_fits():
    text = " ".join(f"word{i}" for i in range(100))
    n = fit.fit_text(text, 10, 3)
    assert fit.text_lines(text[:n], 10) <= 3 < fit.text_lines(text[: n + 8], 10)
    assert text[n] == " "  # not inside a word
    assert fit.fit_text("short", 10, 1) == 5
    assert fit.fit_text(text, 10, 0) == 0


def test_box_names_the_valid_panes():
    assert fit.box("prompt", True).width < fit.box("prompt", False).width
    with pytest.raises(
        ValueError,
        match=re.escape(
            "pane = 'x' is not valid; valid choices: candidates, prompt, answer, claims"
        ),
    ):
        fit.box("x", False)
