"""CLI: ``labels add/export/import/undo/list`` and ``sweep``; bad input is one line on stderr, exit
2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.paths import ROOT

from rag_core.cli import main
from rag_core.formats.trec import parse_qrels
from rag_core.gold.labels import label_id_for
from rag_core.gold.store import LabelStore

REPO = ROOT

QUESTIONS = [
    {
        "id": "h",
        "lang": "ko",
        "question": "한라산 높이 해발",
        "needles": [{"doc_id": "jeju", "text": "해발 1,947m"}],
    },
    {
        "id": "e",
        "lang": "en",
        "question": "What does error E21 mean?",
        "phrasings": ["What does error E21 mean?", "E21 code meaning"],
        "needles": [{"doc_id": "kv", "text": "Error E21 means the water inlet is blocked."}],
    },
    {
        "id": "out",
        "lang": "en",
        "question": "How do I renew a Spanish passport?",
        "answerable": False,
    },
]


@pytest.fixture()
def env(tiny_corpus_dir, tmp_path, monkeypatch):
    qdir = tiny_corpus_dir / "questions"
    qdir.mkdir()
    qfile = qdir / "tiny.jsonl"
    qfile.write_text(
        "\n".join(json.dumps(q, ensure_ascii=False) for q in QUESTIONS) + "\n", encoding="utf-8"
    )
    store = tmp_path / "store" / "labels.sqlite3"
    monkeypatch.setenv("RAG_INSPECTOR_DATA", str(tmp_path / "default-data"))
    return {"corpus": str(tiny_corpus_dir), "questions": str(qfile), "store": str(store)}


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def labels_add(
    env, question_id: str, doc_id: str, start: int, end: int, grade: int, *options: str
) -> list[str]:
    """``labels add`` of ``doc_id[start:end]`` for ``question_id`` against the env's store and
    corpus, then ``options``."""
    return [
        "labels",
        "add",
        "--questions",
        env["questions"],
        "--question-id",
        question_id,
        "--doc-id",
        doc_id,
        "--start",
        str(start),
        "--end",
        str(end),
        "--grade",
        str(grade),
        "--store",
        env["store"],
        "--corpus",
        env["corpus"],
        *options,
    ]


def bad_in(env, *argv: str) -> tuple[int, str, str]:
    """:func:`bad` with a data folder beside the env's store that no command may use."""
    return bad(*argv, env_dir=env["store"] + ".unused")


def bad(*argv: str, env_dir: str) -> tuple[int, str, str]:
    """Run the real command in a subprocess (what a user sees)."""
    proc = subprocess.run(
        [sys.executable, "-m", "rag_core", *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "RAG_INSPECTOR_DATA": env_dir},
        timeout=120,
    )
    return proc.returncode, proc.stdout, proc.stderr


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    assert code == 2
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def _span(corpus: str, doc_id: str, phrase: str) -> tuple[int, int]:
    from rag_core.corpus.loaders import load_corpus

    doc = {d.doc_id: d for d in load_corpus(corpus).documents}[doc_id]
    s = doc.text.index(phrase)
    return s, s + len(phrase)


# ------------------------------------------------------------------ labels


def test_labels_add_list_export_import_undo(env, capsys, tmp_path):
    s, e = _span(env["corpus"], "kv", "E21 means the water inlet is blocked")
    code, out, err = cli(
        capsys,
        *labels_add(
            env, "e", "kv", s, e, 3, "--annotator", "ana", "--note", "exact code", "--json"
        ),
    )
    assert (code, err) == (0, "")
    label = json.loads(out)
    assert label["label_id"] == label_id_for("tiny", "e", "kv", s, e)
    assert (label["grade"], label["annotator"], label["note"]) == (3, "ana", "exact code")
    assert label["text"] == "E21 means the water inlet is blocked"

    code, out, _ = cli(capsys, "labels", "list", "--store", env["store"], "--json")
    assert code == 0 and [row["label_id"] for row in json.loads(out)] == [label["label_id"]]

    code, jsonl, _ = cli(capsys, "labels", "export", "--store", env["store"])
    assert code == 0 and json.loads(jsonl)["label_id"] == label["label_id"]
    exported = tmp_path / "labels.jsonl"
    exported.write_text(jsonl, encoding="utf-8")
    other = str(tmp_path / "other.sqlite3")
    code, out, _ = cli(
        capsys,
        "labels",
        "import",
        str(exported),
        "--store",
        other,
        "--corpus",
        env["corpus"],
        "--json",
    )
    assert code == 0 and (json.loads(out)["added"], json.loads(out)["unchanged"]) == (1, 0)
    assert [lab.grade for lab in LabelStore(other).current()] == [3]

    code, qrels_text, _ = cli(
        capsys,
        "labels",
        "export",
        "--format",
        "qrels",
        "--questions",
        env["questions"],
        "--store",
        env["store"],
        "--corpus",
        env["corpus"],
    )
    assert code == 0
    qrels = parse_qrels(qrels_text.splitlines())
    assert set(qrels) == {
        "h",
        "e#0",
        "e#1",
    }  # the ids `eval` gives each phrasing; 'out' has no gold
    assert max(qrels["e#0"].values()) == 3  # the label's grade beats the needle's 1

    code, out, _ = cli(
        capsys, "labels", "undo", "--annotator", "ana", "--store", env["store"], "--json"
    )
    assert code == 0 and json.loads(out)["undone_by"] is not None
    assert LabelStore(env["store"]).current() == ()
    code, out, _ = cli(capsys, "labels", "list", "--history", "--store", env["store"])
    assert code == 0 and "undone by" in out
    assert not (tmp_path / "default-data").exists()  # every command used --store


def test_labels_add_bad_grade_subprocess(env):
    code, out, err = bad_in(env, *labels_add(env, "h", "jeju", 0, 4, 9))
    assert_one_line_error(code, err, "grade = 9 is not valid; valid grades: 0, 1, 2, 3")
    assert out == "" and not Path(env["store"]).exists()  # rejected before the store was touched


def test_labels_add_unknown_question_and_span_subprocess(env):
    code, _, err = bad_in(env, *labels_add(env, "nope", "jeju", 0, 4, 1))
    assert_one_line_error(code, err, "--question-id 'nope' is not in", "(3 questions: h, e, out)")
    code, _, err = bad_in(env, *labels_add(env, "h", "jeju", 0, 100000, 1))
    assert_one_line_error(code, err, "span 0:100000 lies outside document 'jeju'")


#: What a command that writes one label or prints help has no use for (the CLI imports each
#: sub-command's module only when it runs: rag_core/cli/parser.py).
HEAVY = ("scipy", "torch", "transformers", "streamlit", "rag_core.evaluation", "rag_core.index")


def _heavy_after(*argv: str) -> tuple[int, list[str]]:
    """Exit code of ``main(argv)`` in a fresh interpreter, and which :data:`HEAVY` modules it
    imported."""
    code = (
        "import sys\n"
        "from rag_core.cli import main\n"
        "try:\n"
        f"    rc = main({list(argv)!r})\n"
        "except SystemExit as exc:\n"
        "    rc = exc.code\n"
        f"print(rc, [m for m in {HEAVY!r} if m in sys.modules])\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    rc, heavy = proc.stdout.strip().splitlines()[-1].split(" ", 1)
    return int(rc), json.loads(heavy.replace("'", '"'))


def test_labels_add_and_support_help_import_nothing_heavy(env):
    assert _heavy_after(*labels_add(env, "h", "jeju", 0, 4, 2)) == (0, [])
    assert Path(env["store"]).exists()  # the label was written
    assert _heavy_after("support", "--help") == (0, [])
    assert _heavy_after("labels", "list", "--store", env["store"]) == (0, [])


def test_labels_export_bad_format_subprocess(env):
    code, _, err = bad_in(env, "labels", "export", "--format", "xml", "--store", env["store"])
    assert_one_line_error(code, err, "invalid choice: 'xml'")


def test_labels_import_malformed_changes_nothing_subprocess(env, tmp_path):
    store = LabelStore(env["store"])
    store.add("tiny", "h", "jeju", 0, 3, 2, text="abc")
    before = store.export_jsonl(), store.version()
    good = {
        "question_set": "tiny",
        "question_id": "h",
        "doc_id": "jeju",
        "start": 5,
        "end": 8,
        "text": "xyz",
        "grade": 1,
    }
    broken = dict(good, start=9, end=12, grade="high")
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(broken) + "\n", encoding="utf-8")
    code, _, err = bad_in(env, "labels", "import", str(path), "--store", env["store"])
    assert_one_line_error(code, err, "in.jsonl line 2: grade = 'high' is not valid")
    assert (store.export_jsonl(), store.version()) == before


def test_labels_undo_and_list_errors_subprocess(env, tmp_path):
    code, _, err = bad_in(env, "labels", "undo", "--annotator", "nobody", "--store", env["store"])
    assert_one_line_error(code, err, "nothing to undo for annotator 'nobody'")
    code, _, err = bad_in(env, "labels", "list", "--store", str(tmp_path))
    assert_one_line_error(code, err, f"label store {tmp_path} is a directory, not a file")
    code, _, err = bad_in(env, "labels")
    assert_one_line_error(code, err, "choose one of add, export, import, undo, list")


# ------------------------------------------------------------------- sweep


def sweep_args(env, thresholds: str, *options: str) -> list[str]:
    """``sweep`` of the env's questions over its corpus at ``thresholds``, then ``options``."""
    where = ["--queries", env["questions"], "--corpus", env["corpus"]]
    return ["sweep", *where, "--thresholds", thresholds, *options]


def test_sweep_json_matches_the_library(env, capsys):
    from rag_core.config import PipelineConfig
    from rag_core.evaluation import sweep, sweep_collect
    from rag_core.formats.questions import load_questions
    from rag_core.index import load_corpus_index
    from rag_core.types import to_jsonable

    code, out, err = cli(capsys, *sweep_args(env, "0:6:1.5", "--max-kept", "2", "--json"))
    assert (code, err) == (0, "")
    got = json.loads(out)["report"]
    assert got["metric"] == "score" and got["max_kept"] == 2
    assert got["thresholds"] == [0.0, 1.5, 3.0, 4.5, 6.0]
    corpus = load_corpus_index(env["corpus"])
    data = sweep_collect.collect(PipelineConfig(), load_questions(env["questions"]), corpus)
    expected = to_jsonable(sweep.report(data, (0.0, 1.5, 3.0, 4.5, 6.0), 2))
    assert got["rows"] == expected["rows"]
    assert got["no_threshold"] == expected["no_threshold"]
    assert got["distribution"] == expected["distribution"]
    assert (got["n_answerable"], got["n_unanswerable"]) == (3, 1)


def test_sweep_bad_thresholds_subprocess(env):
    code, out, err = bad_in(env, *sweep_args(env, "0.8:0.4:0.1"))
    assert_one_line_error(code, err, "range '0.8:0.4:0.1': stop 0.4 is below start 0.8")
    assert out == ""


def test_labels_states_agreement_queue_and_per_state_exports(env, capsys, tmp_path):
    """Two annotators in the store: ``states`` lists them, ``agreement`` reports their figures
    (the same numbers as the library), ``queue`` lists the unit they disagree on, and exports
    take ``--state``."""
    from rag_core.evaluation.agreement import agreement

    s, e = _span(env["corpus"], "kv", "E21 means the water inlet is blocked")
    h = _span(env["corpus"], "jeju", "1,947")
    for who, grade in (("ana", 3), ("bo", 1)):
        assert cli(capsys, *labels_add(env, "e", "kv", s, e, grade, "--annotator", who))[0] == 0
        assert cli(capsys, *labels_add(env, "h", "jeju", *h, 2, "--annotator", who))[0] == 0
    store = ("--store", env["store"])
    code, out, _ = cli(capsys, "labels", "states", *store, "--json")
    assert code == 0 and json.loads(out) == {
        "annotators": {"ana": 2, "bo": 2},
        "adjudications": 0,
        "default": "merge:latest",
        "migrations": [],
    }
    code, out, _ = cli(capsys, "labels", "agreement", *store, "--json", "--resamples", "50")
    got = json.loads(out)
    want = agreement(LabelStore(env["store"]).snapshot().own, resamples=50)
    assert got["pairs"][0]["kappa"]["value"] == pytest.approx(want.pairs[0].kappa.value)
    assert got["pairs"][0]["n_units"] == 2 and got["n_questions"] == 2
    code, out, _ = cli(capsys, "labels", "agreement", *store, "--resamples", "50")
    assert code == 0 and "unit: document span overlap (2 units)" in out
    assert "tiny/e: 1 of 1 units disagree (0 only one judged, 1 grades differ)" in out
    code, out, _ = cli(capsys, "labels", "queue", *store)
    assert code == 0 and out.splitlines()[0] == "1 disagreements, 0 adjudicated"
    assert f"tiny/e kv[{s}:{e}]: ana [{s}:{e}] 3; bo [{s}:{e}] 1" in out
    code, out, _ = cli(capsys, "labels", "export", *store, "--state", "annotator:bo")
    assert code == 0 and {json.loads(x)["grade"] for x in out.splitlines()} == {1, 2}
    code, out, _ = cli(capsys, "labels", "list", *store, "--state", "merge:max")
    assert code == 0 and " grade 3 " in out
    code, _, err = bad_in(env, "labels", "export", *store, "--state", "merge:mean")
    assert_one_line_error(code, err, "gold state 'merge:mean' is not one of")
    code, _, err = bad_in(env, "labels", "agreement", "--store", str(tmp_path / "empty.sqlite3"))
    assert_one_line_error(code, err, "agreement needs two or more annotators with labels; found 0")
