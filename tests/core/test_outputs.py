"""Outputs that cannot destroy (``rag_core.formats.output``): an output that is an input is
refused, a device or FIFO is written in place and never renamed over, a write error is one line.

Where the probe used a device node as root (``/dev/full`` was replaced by a regular file), these
tests use a FIFO as the stand-in: an existing path that is not a regular file, which a rename
would replace just the same as the current user.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from helpers.paths import ROOT

from rag_core.cli import main
from rag_core.formats.output import OutputError, open_output, write_text
from rag_core.formats.trec import format_run
from rag_core.gold.store import LabelStore

ROW = {"id": "a", "question": "q", "contexts": ["Cats purr."], "answer": "Cats purr [1]."}


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


class FifoReader:
    """Reads a FIFO to its end in a thread (a writer's ``open`` blocks until it runs)."""

    def __init__(self, path: Path) -> None:
        os.mkfifo(path)
        self.path = path
        self.data: list[str] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with open(self.path, encoding="utf-8") as fh:
            self.data.append(fh.read())

    def text(self) -> str:
        """What was written; unblocks the reader first when nothing opened the FIFO."""
        self.thread.join(timeout=0.5)
        if self.thread.is_alive():  # no writer came: open one so the reader sees the end
            os.close(os.open(self.path, os.O_WRONLY | os.O_NONBLOCK))
            self.thread.join(timeout=5)
        return "".join(self.data)


def assert_fifo(path: Path) -> None:
    assert stat.S_ISFIFO(os.lstat(path).st_mode), f"{path} is no longer a FIFO"


# ------------------------------------------------------------------ the helper


def test_a_new_file_gets_the_mode_open_would_give(tmp_path):
    out = tmp_path / "new.txt"
    write_text(out, "x\n")
    umask = os.umask(0)
    os.umask(umask)
    assert out.read_text(encoding="utf-8") == "x\n"
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask


def test_a_replaced_file_keeps_its_mode_and_an_error_keeps_the_old_file(tmp_path):
    out = tmp_path / "old.txt"
    out.write_text("old\n", encoding="utf-8")
    out.chmod(0o640)
    write_text(out, "new\n")
    assert (out.read_text(encoding="utf-8"), stat.S_IMODE(out.stat().st_mode)) == ("new\n", 0o640)
    with pytest.raises(KeyError), open_output(out) as fh:
        fh.write("half")
        raise KeyError("stopped midway")
    assert out.read_text(encoding="utf-8") == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.txt"]  # no temporary file left


def test_an_input_a_hard_link_to_it_or_a_file_in_an_input_folder_is_refused(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    src = data / "rows.jsonl"
    src.write_text("keep\n", encoding="utf-8")
    link = tmp_path / "link.jsonl"
    os.link(src, link)
    for out, given in ((src, src), (link, src), (src, data)):
        with pytest.raises(OutputError) as caught:
            write_text(out, "lost\n", inputs=[given])
        assert str(caught.value) == (
            f"{out} is also read by this command ({given}): writing it would destroy an input; "
            "choose another file"
        )
    assert src.read_text(encoding="utf-8") == "keep\n"
    write_text(data / "new.txt", "ok\n", inputs=[data])  # a new file in an input folder is fine
    assert (data / "new.txt").read_text(encoding="utf-8") == "ok\n"


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(OutputError, match=re.escape(f"{tmp_path} is a folder; name a file")):
        write_text(tmp_path, "x")


def test_a_device_is_written_in_place():
    write_text("/dev/null", "nothing\n")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_run_written_into_a_fifo_goes_through_it(tmp_path):
    reader = FifoReader(tmp_path / "run.fifo")
    write_text(reader.path, format_run({"q1": ["d1", "d2"]}, "t"))
    assert reader.text() == "q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\n"
    assert_fifo(reader.path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write a read-only file, as with '>'")
def test_a_read_only_file_is_refused_not_renamed_over(tmp_path):
    out = tmp_path / "frozen.txt"
    out.write_text("keep\n", encoding="utf-8")
    out.chmod(0o444)
    with pytest.raises(OutputError, match=re.escape(f"{out} could not be written: Permission")):
        write_text(out, "lost\n")
    assert out.read_text(encoding="utf-8") == "keep\n"


# ------------------------------------------------------------------ the commands


def test_support_output_equal_to_its_input_is_refused_and_the_input_kept(tmp_path, capsys):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(ROW) + "\n", encoding="utf-8")
    code, out, err = cli(capsys, "support", str(rows), "--output", str(rows))
    assert (code, out) == (2, "")
    assert err == (
        f"error: --output {rows} is also read by this command ({rows}): writing it would "
        "destroy an input; choose another file\n"
    )
    assert rows.read_text(encoding="utf-8") == json.dumps(ROW) + "\n"


def test_support_output_into_a_fifo_is_written_in_place(tmp_path, capsys):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(ROW) + "\n", encoding="utf-8")
    reader = FifoReader(tmp_path / "out.fifo")
    code, _, err = cli(capsys, "support", str(rows), "--output", str(reader.path))
    assert (code, err) == (0, "")
    assert [json.loads(x)["id"] for x in reader.text().splitlines()] == ["a"]
    assert_fifo(reader.path)


def test_support_write_error_is_one_line(tmp_path):
    """A full disk (ENOSPC from ``/dev/full``), stood in for by a file size limit of 64 bytes
    (EFBIG, the same for root; the row's JSON line is longer): one line, exit 2, no traceback
    (the lines before it are libraries warning about the same limit)."""
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(ROW) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"

    def no_room() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))

    proc = subprocess.run(
        [sys.executable, "-m", "rag_core", "support", str(rows), "--output", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=no_room,
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert (
        proc.stderr.splitlines()[-1]
        == f"error: --output {out} could not be written: File too large"
    )
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == ["rows.jsonl"]


@pytest.mark.skipif(
    os.geteuid() == 0 or not Path("/dev/full").exists(),
    reason="as root an older build would replace /dev/full itself; see the test above",
)
def test_support_output_dev_full_is_one_line(tmp_path, capsys):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(ROW) + "\n", encoding="utf-8")
    code, _, err = cli(capsys, "support", str(rows), "--output", "/dev/full")
    assert (code, err) == (
        2,
        "error: --output /dev/full could not be written: No space left on device\n",
    )
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_trec_run_into_a_fifo_is_written_in_place(tiny_corpus_dir, tmp_path, capsys):
    reader = FifoReader(tmp_path.parent / f"{tmp_path.name}-run.fifo")
    try:
        code, _, err = cli(
            capsys,
            "query",
            "What does error E21 mean?",
            "--corpus",
            str(tiny_corpus_dir),
            "--set",
            "retrieval.methods=bm25:char",
            "--set",
            "generation.model=none",
            "--trec-run",
            str(reader.path),
        )
        assert code == 0, err
        lines = reader.text().splitlines()
        assert lines and all(x.startswith("q1 Q0 ") for x in lines)
        assert_fifo(reader.path)
    finally:
        reader.path.unlink()


def test_trec_run_over_a_corpus_file_is_refused(tiny_corpus_dir, capsys):
    doc = next((tiny_corpus_dir / "docs").iterdir())
    before = doc.read_bytes()
    code, out, err = cli(
        capsys,
        "query",
        "What does error E21 mean?",
        "--corpus",
        str(tiny_corpus_dir),
        "--set",
        "retrieval.methods=bm25:char",
        "--set",
        "generation.model=none",
        "--trec-run",
        str(doc),
    )
    assert code == 2
    assert err == (
        f"error: --trec-run {doc} is also read by this command ({tiny_corpus_dir}): writing it "
        "would destroy an input; choose another file\n"
    )
    assert doc.read_bytes() == before


def _store_with_a_label(tmp_path: Path) -> Path:
    path = tmp_path / "labels.sqlite3"
    LabelStore(path).add("s", "q", "d", 0, 4, 2, text="text")
    return path


def test_labels_export_into_a_fifo_is_written_in_place(tmp_path, capsys):
    store = _store_with_a_label(tmp_path)
    reader = FifoReader(tmp_path / "labels.fifo")
    code, _, err = cli(
        capsys, "labels", "export", "--store", str(store), "--output", str(reader.path)
    )
    assert (code, err) == (0, "")
    assert [json.loads(x)["doc_id"] for x in reader.text().splitlines()] == ["d"]
    assert_fifo(reader.path)


def test_labels_export_over_its_own_store_is_refused(tmp_path, capsys):
    store = _store_with_a_label(tmp_path)
    code, _, err = cli(capsys, "labels", "export", "--store", str(store), "--output", str(store))
    assert code == 2
    assert err.startswith(f"error: --output {store} is also read by this command ({store})")
    assert [lab.doc_id for lab in LabelStore(store).current()] == ["d"]
