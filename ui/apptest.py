"""The entry script ``AppTest`` (tests, bench/app.py) runs instead of ``app.py``.

``AppTest`` resets Streamlit's legacy ``pages/``-folder detection before every
run, so with ``app.py`` itself as the script a rerun executes the page file
alone (the legacy mode), not through ``st.navigation``. The wrapper lives in
a folder without a ``pages/`` sibling and runs the real ``app.py`` with
``runpy`` — what ``streamlit run app.py`` does after its first run.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def write_entry(folder: Path) -> Path:
    """Write ``entry.py`` into ``folder`` (which must not hold a ``pages/`` folder)."""
    path = Path(folder) / "entry.py"
    path.write_text(
        "import runpy, sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        f"runpy.run_path({str(ROOT / 'app.py')!r}, run_name='__main__')\n",
        encoding="utf-8",
    )
    return path
