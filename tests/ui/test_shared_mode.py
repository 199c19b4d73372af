"""Shared-server mode (issue 27): with ``RAG_INSPECTOR_MODE=shared`` no path typed in the app
is opened unless it lies inside its allow-listed root, and the messages never tell an
existing path from a missing one."""

from __future__ import annotations

import os

import pytest
from helpers.app import make_app, plain
from helpers.datasets import write_beir
from helpers.openai_server import FakeOpenAI

from rag_core import modelnames
from rag_core.modelnames import place_path, shared_mode, shared_restrict_noticed
from rag_core.wording import NoticeError, english
from ui.label import view as vm
from ui.label.keys import K_LAB_STORE_PATH, K_LAB_STORE_W

PROBES = ("/etc", "/etc/passwd", "/no/such/folder", "../../etc", "~/.ssh")


def place_refusal(kind, text, env):
    """Why a visitor may not open ``text`` as a ``kind`` place, in English; None when allowed."""
    try:
        place_path(kind, text, env)
    except NoticeError as exc:
        return english(exc.notice)
    return None


def shared_restrict(values, base, env):
    """:func:`shared_restrict_noticed` with its messages in English."""
    out, problems = shared_restrict_noticed(values, base, env)
    return out, [english(n) for n in problems]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for var in (
        modelnames.MODE_ENV,
        modelnames.DATA_ENV,
        modelnames.LABELS_ENV,
        modelnames.MODELS_ENV,
        modelnames.QDRANT_PATH_ENV,
        modelnames.QDRANT_URLS_ENV,
        modelnames.ENDPOINTS_ENV,
    ):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")


def test_shared_mode_is_off_unless_set():
    assert not shared_mode({}) and shared_mode({"RAG_INSPECTOR_MODE": "shared"})
    assert place_refusal("dataset", "/etc", {}) is None  # an operator's own app opens any path


@pytest.mark.parametrize("kind", ["dataset", "labels"])
def test_places_outside_the_root_get_one_message_whatever_exists(kind, tmp_path):
    env = {"RAG_INSPECTOR_MODE": "shared"}
    messages = {place_refusal(kind, p, env) for p in PROBES}
    assert len(messages) == 1 and None not in messages
    (message,) = messages
    assert "is not set" in message and not any(p in message for p in PROBES)
    root = tmp_path / "root"
    (root / "set").mkdir(parents=True)
    env[modelnames.PLACES[kind][0]] = str(root)
    assert place_refusal(kind, str(root / "set"), env) is None
    assert place_refusal(kind, "set/labels.sqlite", env) is None  # relative to the root
    inside = {place_refusal(kind, p, env) for p in (*PROBES, str(root / ".." / "x"), str(root))}
    assert len(inside) == 1 and None not in inside


def test_typed_model_and_qdrant_values_follow_the_url_rule(tmp_path):
    env = {"RAG_INSPECTOR_MODE": "shared"}
    base = {"generation.model": "none", "retrieval.qdrant_path": "", "retrieval.k": 5}
    typed = {"generation.model": "/etc", "retrieval.qdrant_path": "/tmp/x", "retrieval.k": 9}
    kept, problems = shared_restrict(typed, base, env)
    assert kept == {"generation.model": "none", "retrieval.qdrant_path": "", "retrieval.k": 9}
    assert len(problems) == 2 and all("shared server" in p for p in problems)
    assert shared_restrict(typed, base, {}) == (typed, [])  # not shared: the operator's choice
    env[modelnames.QDRANT_PATH_ENV] = str(tmp_path)
    kept, _ = shared_restrict({"retrieval.qdrant_path": str(tmp_path / "q")}, base, env)
    assert kept["retrieval.qdrant_path"] == str(tmp_path / "q")


def test_label_store_box_opens_nothing_outside_the_root(tmp_path, monkeypatch):
    monkeypatch.setenv(modelnames.MODE_ENV, "shared")
    wanted = tmp_path / "new" / "labels.sqlite"
    outcome = vm.use_store({K_LAB_STORE_W: str(wanted)})
    assert outcome.error is not None and "nothing was opened" in vm.say(outcome.error, "en")
    assert "열지 않았습니다" in vm.say(outcome.error, "ko")  # the refusal is a notice, worded
    assert not wanted.parent.exists()  # no mkdir -p, no SQLite file
    monkeypatch.setenv(modelnames.LABELS_ENV, str(tmp_path))
    assert vm.use_store({K_LAB_STORE_W: str(wanted)}).error is None
    assert wanted.exists()


def test_the_app_opens_no_typed_dataset_folder_or_qdrant_folder(entry, tmp_path, monkeypatch):
    monkeypatch.setenv(modelnames.MODE_ENV, "shared")
    folder = tmp_path / "qdrant"
    folder.mkdir()
    at = make_app(entry, {"lang": "en", "corpus": "beir"})
    at.session_state["beir.path"] = str(tmp_path)
    at.session_state["retrieval.qdrant_path"] = str(folder)
    at.run()
    assert not at.exception
    warnings = [plain(w.value) for w in at.warning]
    assert any("a dataset folder must be" in w and "nothing was opened" in w for w in warnings)
    assert any(
        "retrieval.qdrant_path: this value is not accepted on this shared server" in w
        for w in warnings
    ), warnings
    assert at.session_state["_ctx"].config.retrieval.qdrant_path == ""
    assert list(folder.iterdir()) == []  # no .lock, no meta.json
    assert str(tmp_path) not in " ".join(warnings)


def test_a_refused_model_name_from_the_address_is_said_in_the_page_language():
    from ui.i18n import notice_text
    from ui.state import config_from_query

    _, en = config_from_query({"generation.model": "/etc/passwd"})
    _, ko = config_from_query({"generation.model": "/etc/passwd"}, lang="ko")
    why = modelnames.refusal_notice("generation.model", "/etc/passwd")
    assert why is not None and why.code == modelnames.REFUSED_MODEL
    assert en == [modelnames.refusal("generation.model", "/etc/passwd")]  # the English as before
    assert ko == [notice_text(why, "ko")] and "기본값을 유지합니다" in ko[0]


# ------------------------------------------- issue 38: one path rule, one key rule


@pytest.fixture()
def elsewhere(tmp_path, monkeypatch):
    """A labels root and the server's working directory elsewhere (chdir'd into)."""
    root = tmp_path / "labels"
    root.mkdir()
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.setenv(modelnames.MODE_ENV, "shared")
    monkeypatch.setenv(modelnames.LABELS_ENV, str(root))
    return root, cwd


def test_a_relative_label_store_is_created_in_the_root_not_the_working_directory(elsewhere):
    root, cwd = elsewhere
    outcome = vm.use_store({K_LAB_STORE_W: "p4.sqlite3"})
    assert outcome.error is None
    assert (root / "p4.sqlite3").exists() and not (cwd / "p4.sqlite3").exists()
    assert outcome.change.values[K_LAB_STORE_PATH] == os.path.realpath(root / "p4.sqlite3")


def test_a_label_store_refusal_names_the_path_as_typed_never_the_servers_folder(elsewhere):
    root, cwd = elsewhere
    (root / "README.md").write_text("# not a store\n", encoding="utf-8")
    outcome = vm.use_store({K_LAB_STORE_W: "README.md"})
    assert outcome.error is not None
    said = vm.say(outcome.error, "en")
    assert said.startswith("The label store cannot be opened: README.md is not a label store")
    assert str(root) not in said and str(cwd) not in said
    assert (root / "README.md").read_text(encoding="utf-8") == "# not a store\n"
    assert list(cwd.iterdir()) == []  # nothing was opened or created where the server runs


@pytest.mark.parametrize("typed", ["a\x00b.sqlite3", "x" * 5000, "d/" + "y" * 300])
@pytest.mark.parametrize("shared", [True, False])
def test_a_label_store_path_that_cannot_name_a_file_is_one_line(
    typed, shared, elsewhere, monkeypatch
):
    if not shared:
        monkeypatch.delenv(modelnames.MODE_ENV)
    outcome = vm.use_store({K_LAB_STORE_W: typed})
    assert outcome.error is not None
    said = vm.say(outcome.error, "en")
    assert "cannot be opened" in said and "\n" not in said and len(said) < 300
    assert "열 수 없습니다" in vm.say(outcome.error, "ko")


def test_the_label_page_shows_the_store_relative_to_the_root(entry, elsewhere):
    root, _ = elsewhere
    at = make_app(entry, {"lang": "en"}, page="label")
    at.session_state[K_LAB_STORE_PATH] = os.path.realpath(root / "class" / "p4.sqlite3")
    at.run()
    assert not at.exception
    shown = " ".join(plain(m.value) for m in at.markdown)
    assert "class/p4.sqlite3" in shown and str(root) not in shown


def test_a_relative_dataset_folder_is_opened_inside_the_root(entry, tmp_path, monkeypatch):
    data = tmp_path / "data"
    write_beir(data / "mini")
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.setenv(modelnames.MODE_ENV, "shared")
    monkeypatch.setenv(modelnames.DATA_ENV, str(data))
    at = make_app(entry, {"lang": "en", "corpus": "beir"})
    at.text_input(key="beir.path").set_value("mini").run()
    assert not at.exception
    assert any("Loaded 5 documents" in s.value for s in at.success)
    at.text_input(key="beir.path").set_value("missing").run()
    warnings = " ".join(plain(w.value) for w in at.warning)
    assert "'missing'" in warnings and "does not exist" in warnings
    assert str(data) not in warnings and str(tmp_path) not in warnings
    at.text_input(key="beir.path").set_value("x\x00y").run()
    assert not at.exception
    assert any("it holds a NUL byte" in plain(w.value) for w in at.warning)


def test_listing_models_on_a_shared_server_sends_only_the_endpoints_own_key(entry, monkeypatch):
    monkeypatch.setenv("OTHER_SECRET", "sk-other-secret-value")
    monkeypatch.setenv("PAIRED_KEY", "sk-paired-key-value")
    monkeypatch.setenv(modelnames.MODE_ENV, "shared")
    with FakeOpenAI(models=("tiny",)) as srv:
        monkeypatch.setenv(modelnames.ENDPOINTS_ENV, f"{srv.url}=PAIRED_KEY")
        at = make_app(entry, {"lang": "en"}, page="inspect")
        at.text_input(key="generation.endpoint").set_value(srv.url).run()
        at.text_input(key="generation.api_key_env").set_value("OTHER_SECRET").run()
        at.button(key="side.endpoint.list_button").click().run()
        sent = [r["headers"].get("Authorization") for r in srv.requests]
    assert not at.exception
    assert sent and set(sent) == {"Bearer sk-paired-key-value"}
    assert at.session_state["_ctx"].config.generation.api_key_env == "PAIRED_KEY"
