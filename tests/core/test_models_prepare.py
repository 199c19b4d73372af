"""``python -m rag_core.models.prepare``: the setup step that converts the default generator
before the app starts (``make run``, ``make test``), its progress printed in the terminal."""

from __future__ import annotations

import io
import re

import pytest

import rag_core.models.prepare as prep
from rag_core.models import DEFAULT_GENERATOR
from rag_core.models.errors import MODEL_PART_MISSING, ModelUnavailable
from rag_core.models.gguf import PROGRESS_DEQUANTISING, PROGRESS_SAVING
from rag_core.wording import notice


def test_a_converted_generator_is_ready_at_once(monkeypatch):
    monkeypatch.setattr(prep, "prepared", lambda name: True)
    monkeypatch.setattr(prep.gguf, "prepare", lambda *a: pytest.fail("converted again"))
    out = io.StringIO()
    assert prep.prepare_generator(DEFAULT_GENERATOR, out)
    assert out.getvalue().startswith(f"{DEFAULT_GENERATOR}: converted already (")


def test_a_conversion_prints_each_step_with_its_share_and_seconds(monkeypatch, tmp_path):
    monkeypatch.setattr(prep, "prepared", lambda name: False)

    def convert(source, progress):
        progress(notice(PROGRESS_DEQUANTISING, file="model.gguf"), 0.15)
        progress(notice(PROGRESS_SAVING), 0.85)
        return tmp_path, {}

    monkeypatch.setattr(prep.gguf, "prepare", convert)
    monkeypatch.setattr(prep, "SOURCES", {DEFAULT_GENERATOR: lambda: "source"})
    out = io.StringIO()
    assert prep.prepare_generator(DEFAULT_GENERATOR, out)
    lines = out.getvalue().splitlines()
    assert lines[0] == f"{DEFAULT_GENERATOR}: converting once (a minute or two on two cores) …"
    assert re.fullmatch(rf"{DEFAULT_GENERATOR}:  15% .*model\.gguf.* \(\d+ s\)", lines[1])
    assert re.fullmatch(rf"{DEFAULT_GENERATOR}:  85% .* \(\d+ s\)", lines[2])
    assert re.fullmatch(
        rf"{DEFAULT_GENERATOR}: ready in \d+ s \({re.escape(str(tmp_path))}\)", lines[3]
    )


def test_missing_files_exit_1_with_the_reason_and_a_wrong_name_is_refused(monkeypatch, capsys):
    monkeypatch.setattr(prep, "prepared", lambda name: False)

    def missing(source, progress):
        raise ModelUnavailable(
            DEFAULT_GENERATOR,
            notice(MODEL_PART_MISSING, package="p", error="gone", version="1", parts=6),
        )

    monkeypatch.setattr(prep.gguf, "prepare", missing)
    monkeypatch.setattr(prep, "SOURCES", {DEFAULT_GENERATOR: lambda: "source"})
    assert prep.main([]) == 1
    assert f"{DEFAULT_GENERATOR}: not available: " in capsys.readouterr().out
    with pytest.raises(SystemExit):
        prep.main(["gpt-9"])
    assert "generator 'gpt-9' has nothing to convert; valid choices:" in capsys.readouterr().err
