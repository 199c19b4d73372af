"""Text helpers every layer may use: sentence spans, near-duplicate shingles, table heads.

Standard library only. The context stage cuts sources at :func:`sentence_spans`,
the support check splits answers into claims with it, the Label page offers its
sentences as spans to label; the context stage drops near-duplicates by the
:func:`containment` of their :func:`shingles` and sends a table's column names
with rows quoted without them (:func:`table_head`); the support check reads each table
row as a record of its column names and cells (:func:`table_records`) and does not read the
pieces of words a chunk's edge cut in two (:func:`torn_edges`).
"""

from __future__ import annotations

import re

#: Characters per shingle of :func:`shingles` (char 5-grams).
SHINGLE = 5

#: A GitHub-flavoured Markdown table's delimiter row: ``|---|:--:|---:|``.
_TABLE_DELIMITER = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")

_SENT_END = re.compile(r"[.!?。！？]+[\"'”’)\]]*(?=\s|$)|\n")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of ``text``, whitespace trimmed.

    A sentence ends at a run of ``. ! ? 。 ！ ？`` (plus closing quotes or
    brackets) followed by whitespace or the end, or at a newline. Korean
    declarative endings (``…다.``, ``…요.``, ``…니다.``) end with a period
    and are covered; a decimal point (``1.5``) is not followed by
    whitespace and does not split.
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENT_END.finditer(text):
        _add_trimmed(text, start, m.end(), spans)
        start = m.end()
    _add_trimmed(text, start, len(text), spans)
    return spans


def _add_trimmed(text: str, a: int, b: int, out: list[tuple[int, int]]) -> None:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    if b > a:
        out.append((a, b))


def sentence_cut(text: str, limit: int) -> int:
    """The largest sentence end ``<= limit`` in ``text`` (0 when none)."""
    best = 0
    for _a, b in sentence_spans(text):
        if b <= limit:
            best = b
        else:
            break
    return best


def shingles(text: str, n: int = SHINGLE) -> frozenset[str]:
    """Char ``n``-grams of the lowercased, whitespace-collapsed text (the text itself if
    shorter)."""
    norm = " ".join(text.lower().split())
    if len(norm) <= n:
        return frozenset([norm]) if norm else frozenset()
    return frozenset(norm[i : i + n] for i in range(len(norm) - n + 1))


def containment(a: frozenset[str], b: frozenset[str]) -> float:
    """``|A ∩ B| / min(|A|, |B|)``: 1.0 when one text's shingles lie inside the other's."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def torn_edges(text: str, start: int, end: int) -> tuple[int, int]:
    """How many characters at the start and at the end of ``text[start:end]`` belong to a word
    the span's edge cuts in two (0 where the edge falls on whitespace or the text's ends).

    A fixed-size chunk cuts "1,380만" into "… 관광객만 1" and ",380만 명 …": neither piece is
    a number the document states.
    """

    def cut(a: int, b: int) -> bool:  # the edge between text[a] and text[b] is inside a word
        return a >= 0 and b < len(text) and not text[a].isspace() and not text[b].isspace()

    head = tail = 0
    if cut(start - 1, start):
        while start + head < end and not text[start + head].isspace():
            head += 1
    if cut(end - 1, end):
        while end - tail > start + head and not text[end - tail - 1].isspace():
            tail += 1
    return head, tail


def table_head(text: str, start: int) -> str:
    """The header and delimiter rows of the Markdown table ``text[start:]`` begins inside,
    when ``start`` lies below them; else "".

    A chunk cut from the middle of a table holds rows without the row that names their
    columns; a reader (or a model) cannot tell which cell is which. A pipe table is the lines
    starting with ``|`` around ``start``, its first line the header and its second the
    delimiter (GitHub Flavored Markdown spec, "Tables").

    Returns:
        ``"header\\ndelimiter\\n"`` as written in ``text``, or "" when ``start`` is not on a
        table row below the delimiter.
    """
    line_start = text.rfind("\n", 0, start) + 1
    if not text[line_start:].lstrip(" ").startswith("|") or text[line_start:start].strip():
        return ""
    lines: list[str] = []
    end = line_start - 1  # the newline before the row at ``start``
    while end > 0:
        begin = text.rfind("\n", 0, end) + 1
        line = text[begin:end]
        if not line.lstrip(" ").startswith("|"):
            break
        lines.append(line)
        end = begin - 1
    if len(lines) < 2 or not _TABLE_DELIMITER.match(lines[-2]):
        return ""
    return f"{lines[-1]}\n{lines[-2]}\n"


def _cells(line: str) -> list[str]:
    """The cells of one pipe-table line (outer pipes dropped, ``\\|`` kept inside a cell)."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", body)]


def table_records(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, record)`` of each body row of each Markdown pipe table in ``text``.

    A pipe table is a header line, a delimiter line (:data:`_TABLE_DELIMITER`) and the lines
    starting with ``|`` below them (GitHub Flavored Markdown spec, "Tables"). A row's record
    names each cell by its column: ``"Model: GPT-3 175B; 32,768 tokens: 144 GiB"`` — what
    the row states, which its cells alone do not say.
    """
    out: list[tuple[int, int, str]] = []
    lines: list[tuple[int, str]] = []
    pos = 0
    for line in text.split("\n"):
        lines.append((pos, line))
        pos += len(line) + 1
    columns: list[str] | None = None
    for i, (start, line) in enumerate(lines):
        if not line.lstrip(" ").startswith("|"):
            columns = None
        elif columns is None:
            nxt = lines[i + 1][1] if i + 1 < len(lines) else ""
            if _TABLE_DELIMITER.match(nxt) and not _TABLE_DELIMITER.match(line):
                columns = _cells(line)
        elif not _TABLE_DELIMITER.match(line):
            pairs = zip(columns, _cells(line), strict=False)
            record = "; ".join(f"{c}: {v}" if c else v for c, v in pairs if v)
            out.append((start, start + len(line.rstrip()), record))
    return out
