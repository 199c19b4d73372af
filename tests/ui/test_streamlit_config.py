"""The project's Streamlit settings (``.streamlit/config.toml``) as Streamlit itself reads them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
from streamlit import config
config.get_config_options(force_reparse=True)
print(config.is_manually_set("browser.serverAddress"), config.get_option("browser.serverAddress"),
      config.get_option("server.headless"), config.get_option("browser.gatherUsageStats"))
"""


def test_the_start_banner_names_one_address_and_asks_no_outside_service():
    """A headless server whose ``browser.serverAddress`` is not set by hand prints an "External
    URL" it gets from checkip.amazonaws.com: a network call at run time. Set, it prints this
    one URL; usage statistics stay off."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["True", "localhost", "True", "False"], out
