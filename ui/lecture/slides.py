"""Export the lecture view as a slide: a self-contained HTML file, or a PNG of it.

The HTML is :func:`ui.lecture.view.lecture_view` (escaped ``Markup``) in a bare
document with the stylesheet inline: no script, no external resource. The PNG
is that file screenshotted by headless Debian Chromium (``--screenshot``), the
browser the real-browser tests drive, with the same flags.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from ..html import CSS, Markup, esc
from .style import LECTURE_CSS

CHROMIUM = "/usr/bin/chromium"
#: Flags for headless Chromium in a container (the browser tests launch it with them too).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: The slide: a 1280×720 screen (a projector's) drawn at 1.5× = 1920×1080 pixels.
SLIDE_SIZE = (1280, 720)
SLIDE_SCALE = 1.5


def slide_html(view: Markup, lang: str, title: str) -> str:
    """A whole HTML document around ``view`` (Markup from ``ui.lecture``); ``title`` is escaped."""
    if not isinstance(view, Markup):
        raise TypeError("slide_html takes Markup built by ui.lecture, never a raw string")
    if lang not in ("ko", "en"):
        raise ValueError(f"lang = {lang!r} is not valid; valid choices: ko, en")
    page_css = (
        "html,body{margin:0;padding:0;background:#fff;color:#1f2328;"
        "font-family:'Source Sans Pro','Noto Sans CJK KR','Noto Sans KR',sans-serif}"
        "body{padding:10px;box-sizing:border-box;height:100vh}"
        # a slide has no tooltip to read a cut question in: the question line wraps
        ".ri-lec-top{white-space:normal;overflow:visible}"
    )
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{esc(title)}</title>\n<style>{page_css}{CSS}{LECTURE_CSS}</style>\n</head>\n"
        f"<body>\n{view}\n</body>\n</html>\n"
    )


def chromium_available(path: str = CHROMIUM) -> bool:
    return Path(path).exists()


def slide_png(
    document: str,
    *,
    size: tuple[int, int] = SLIDE_SIZE,
    scale: float = SLIDE_SCALE,
    chromium: str = CHROMIUM,
    timeout: float = 120.0,
) -> bytes:
    """Screenshot ``document`` (an HTML string) at ``size`` CSS pixels × ``scale``; PNG bytes.

    Raises ``RuntimeError`` with Chromium's output when no screenshot was written.
    """
    if not chromium_available(chromium):
        raise RuntimeError(f"{chromium} is missing: install Debian chromium (make browser)")
    width, height = size
    with tempfile.TemporaryDirectory(prefix="rag-slide-") as tmp:
        src = Path(tmp) / "slide.html"
        out = Path(tmp) / "slide.png"
        src.write_text(document, encoding="utf-8")
        cmd = [
            chromium,
            *CHROMIUM_ARGS,
            "--hide-scrollbars",
            f"--user-data-dir={tmp}/profile",
            f"--window-size={width},{height}",
            f"--force-device-scale-factor={scale}",
            f"--screenshot={out}",
            src.as_uri(),
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
        if not out.is_file():
            raise RuntimeError(
                f"chromium wrote no screenshot (exit {proc.returncode}): {proc.stderr[-2000:]}"
            )
        return out.read_bytes()
