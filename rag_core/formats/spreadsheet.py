"""Tables a spreadsheet opens without running them: every CSV/TSV export goes through here.

A cell whose text begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is
read by Excel, LibreOffice and Google Sheets as a formula (``=HYPERLINK(…)``,
``@SUM(…)``, ``-2+3``), so a question or document text of the user's corpus could run
in the spreadsheet of whoever opens the export ("CSV injection"). OWASP's rule
(https://owasp.org/www-community/attacks/CSV_Injection) neutralises such a cell by
prefixing a single quote, which the spreadsheet shows as text and does not evaluate.
The full-width forms of the four characters (``＝ ＋ － ＠``), which some East-Asian
locales of the spreadsheets also evaluate, are treated the same way.

Numbers are not text: an ``int`` or ``float`` cell (a metric, a rank, ``-0.5``) is
written as the number it is, and so is a string that is exactly a plain decimal number
(``-0.5``, ``+3``, ``1e-3``): neither can hold a formula, and quoting them would turn
the numbers of an export into text. Everything else is a string and is checked.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from typing import Any

#: First characters a spreadsheet reads as the start of a formula (OWASP), with the
#: full-width forms of the four printable ones.
FORMULA_STARTS: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")

_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)


def safe_cell(value: Any) -> Any:
    """``value`` as a spreadsheet cell that cannot run: ``'`` + text for formula-like text.

    ``None`` becomes ``""``; ``bool``, ``int`` and ``float`` pass unchanged (a number
    is not a formula); a string that is a plain decimal number passes unchanged; any
    other value is written as ``str(value)``, prefixed with ``'`` when it starts with
    one of :data:`FORMULA_STARTS`.
    """
    if value is None:
        return ""
    if isinstance(value, (bool, int, float)):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def rows_csv(rows: Sequence[Mapping[str, Any]], delimiter: str = ",") -> str:
    """CSV (or, with ``delimiter="\\t"``, TSV) text of dict rows, every cell through
    :func:`safe_cell`.

    Columns in first-seen order; ``None`` is written empty; the header's names are
    checked like any cell.
    """
    if delimiter not in (",", "\t", ";"):
        raise ValueError(f"delimiter = {delimiter!r} is not valid; valid choices: ',', '\\t', ';'")
    columns: list[str] = []
    for row in rows:
        for key in row:
            if key not in columns:
                columns.append(key)
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    writer.writerow([safe_cell(c) for c in columns])
    for row in rows:
        writer.writerow([safe_cell(row.get(k)) for k in columns])
    return buf.getvalue()
