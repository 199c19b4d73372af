"""The one path rule and the one key rule (issue 38): a visitor's path is resolved once against
its allow-listed root (never the working directory) and that resolved path is what is opened;
a key variable goes only to the endpoint whose ``$RAG_INSPECTOR_ENDPOINTS`` entry names it,
on every request; a reply is scrubbed of the key before it is cut for a message.

Servers are the tests' own on 127.0.0.1 (``helpers.openai_server``); folders are ``tmp_path``.
"""

from __future__ import annotations

import os

import pytest
from helpers.endpoint_world import go_offline
from helpers.openai_server import FakeOpenAI

from rag_core import modelnames
from rag_core.config import preset
from rag_core.modelnames import (
    ENDPOINTS_ENV,
    MODE_ENV,
    accepted_value,
    key_env_usable,
    place_path,
    resolve_inside,
    restrict_noticed,
    shared_restrict_noticed,
)
from rag_core.models.endpoint import (
    EndpointClient,
    EndpointError,
    Timeouts,
    list_models,
    make_endpoint_generator,
)
from rag_core.models.endpoint.client import ENDPOINT_KEY_UNSET
from rag_core.pipeline import run
from rag_core.wording import NoticeError, english

HOSTED_KEY = "sk-hosted-0123456789abcdef"
LOCAL_KEY = "sk-local-fedcba9876543210"


@pytest.fixture()
def world(tmp_path, monkeypatch):
    """A root folder and a working directory elsewhere (the server's), chdir'd into."""
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    cwd = tmp_path / "cwd"
    (cwd / "sub").mkdir(parents=True)
    monkeypatch.chdir(cwd)
    for var in (MODE_ENV, ENDPOINTS_ENV, "HOSTED_KEY", "LOCAL_KEY", "OTHER_SECRET"):
        monkeypatch.delenv(var, raising=False)
    return root, cwd


# ------------------------------------------------------------------ the path rule


def test_a_relative_path_is_resolved_against_the_root_never_the_working_directory(world):
    root, cwd = world
    real = os.path.realpath(root)
    assert resolve_inside(real, "sub/p4.sqlite3") == os.path.join(real, "sub", "p4.sqlite3")
    assert resolve_inside(real, "../cwd/sub") is None  # .. out of the root
    (root / "out").symlink_to(cwd)
    assert resolve_inside(real, "out/sub") is None  # a symlink out of the root
    (root / "in").symlink_to(root / "sub")
    assert resolve_inside(real, "in/x") == os.path.join(real, "sub", "x")  # resolved: opened


@pytest.mark.parametrize("kind", ["dataset", "labels"])
def test_a_shared_place_returns_the_resolved_path_to_open(kind, world):
    root, _ = world
    env = {MODE_ENV: "shared", modelnames.PLACES[kind][0]: str(root)}
    assert place_path(kind, "sub/p4.sqlite3", env) == os.path.realpath(root / "sub/p4.sqlite3")
    assert place_path(kind, "sub/p4.sqlite3", {}) == "sub/p4.sqlite3"  # the operator's own


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("a\x00b", "it holds a NUL byte"),
        ("x" * 300, "one of its names is longer than 255 bytes"),
        ("x" * 5000, "it is longer than 4,095 bytes"),
        ("a/" * 2100, "it is longer than 4,095 bytes"),
        ("bad\udcff.sqlite3", "it is not valid UTF-8 text"),
    ],
)
@pytest.mark.parametrize("shared", [True, False])
def test_a_path_that_cannot_name_a_file_is_one_line_in_any_mode(typed, why, shared, world):
    root, _ = world
    env = {MODE_ENV: "shared", modelnames.LABELS_ENV: str(root)} if shared else {}
    with pytest.raises(NoticeError) as err:
        place_path("labels", typed, env)
    said = str(err.value)
    assert said == (
        f"a label store file: the path {modelnames.shown_path(typed)} cannot be opened "
        f"({why}); nothing was opened"
    )
    assert "\n" not in said and str(root) not in said and len(said) < 200


def test_model_and_qdrant_paths_from_the_address_come_back_resolved_inside_their_root(world):
    root, _ = world
    real = os.path.realpath(root)
    env = {modelnames.MODELS_ENV: str(root), modelnames.QDRANT_PATH_ENV: str(root)}
    kept, problems = restrict_noticed(
        {"retrieval.dense_model": "sub", "retrieval.qdrant_path": "sub/q"}, env
    )
    assert problems == []
    assert kept == {
        "retrieval.dense_model": os.path.join(real, "sub"),
        "retrieval.qdrant_path": os.path.join(real, "sub", "q"),
    }
    used, why = accepted_value("generation.tokenizer", "sub\x00", env)
    assert used == "sub\x00" and why is not None and why.code == modelnames.PATH_BAD


def test_shared_typed_paths_come_back_resolved(world):
    root, _ = world
    env = {MODE_ENV: "shared", modelnames.QDRANT_PATH_ENV: str(root)}
    base = {"retrieval.qdrant_path": ""}
    out, problems = shared_restrict_noticed({"retrieval.qdrant_path": "sub/q"}, base, env)
    assert problems == [] and out["retrieval.qdrant_path"] == os.path.realpath(root / "sub/q")


# ------------------------------------------------------------------- the key rule


def _listed(hosted: str = "https://api.example.com/v1", local: str = "http://127.0.0.1:9/v1"):
    return {ENDPOINTS_ENV: f"{hosted}=HOSTED_KEY, {local}=LOCAL_KEY"}


def test_a_link_may_name_only_the_key_variable_of_the_endpoint_in_use():
    env = _listed()
    asked = {"generation.endpoint": "http://127.0.0.1:9/v1", "generation.api_key_env": "HOSTED_KEY"}
    kept, problems = restrict_noticed(asked, env)
    assert kept["generation.api_key_env"] == "LOCAL_KEY"  # the local server's own key, or none
    assert [p.params["key"] for p in problems] == ["generation.api_key_env"]
    assert "HOSTED_KEY" not in english(problems[0]) and "LOCAL_KEY" not in english(problems[0])
    # the endpoint in use is the base's when the link names none
    base = {"generation.endpoint": "http://127.0.0.1:9/v1", "generation.api_key_env": ""}
    kept, problems = restrict_noticed({"generation.api_key_env": "HOSTED_KEY"}, env, base)
    assert kept == {} and len(problems) == 1
    kept, problems = restrict_noticed({"generation.api_key_env": "LOCAL_KEY"}, env, base)
    assert kept == {"generation.api_key_env": "LOCAL_KEY"} and problems == []


def test_a_link_that_moves_the_endpoint_takes_no_other_key_along():
    base = {
        "generation.endpoint": "https://api.example.com/v1",
        "generation.api_key_env": "HOSTED_KEY",
    }
    kept, problems = restrict_noticed(
        {"generation.endpoint": "http://127.0.0.1:9/v1"}, _listed(), base
    )
    assert kept == {
        "generation.endpoint": "http://127.0.0.1:9/v1",
        "generation.api_key_env": "LOCAL_KEY",
    }
    assert problems == []


def test_on_a_shared_server_the_endpoint_brings_its_key_whatever_is_typed():
    env = {**_listed(), MODE_ENV: "shared"}
    base = {"generation.endpoint": "", "generation.api_key_env": ""}
    for typed in ("HOSTED_KEY", "OTHER_SECRET", "PATH"):
        out, problems = shared_restrict_noticed(
            {"generation.endpoint": "http://127.0.0.1:9/v1", "generation.api_key_env": typed},
            base,
            env,
        )
        assert out["generation.api_key_env"] == "LOCAL_KEY"
        assert len(problems) == 1 and typed not in english(problems[0])
    out, _ = shared_restrict_noticed(
        {"generation.endpoint": "http://10.9.9.9/v1", "generation.api_key_env": "HOSTED_KEY"},
        base,
        env,
    )
    assert out["generation.endpoint"] == "" and out["generation.api_key_env"] == ""


def test_key_env_usable_is_the_rule_every_request_asks():
    env = _listed()
    assert key_env_usable("http://127.0.0.1:9/v1/", "LOCAL_KEY", env)
    assert not key_env_usable("http://127.0.0.1:9/v1", "HOSTED_KEY", env)  # another's key
    assert key_env_usable("http://127.0.0.1:9/v1", "MY_OWN", env)  # the operator's own
    assert not key_env_usable("http://127.0.0.1:9/v1", "MY_OWN", {**env, MODE_ENV: "shared"})


def _paths_with_auth(srv: FakeOpenAI) -> list[str]:
    return [r["path"] for r in srv.requests if "Authorization" in r["headers"]]


def _asks(name: str, url: str) -> None:
    """One request of each kind that sends the key: the model list, the ``/tokenize`` probe,
    the judge / LLM reranker's P(yes), and generation."""
    client = EndpointClient(url, "HOSTED_KEY", Timeouts(2, 2, 5))
    if name == "models":
        list_models(url, "HOSTED_KEY")
    elif name == "tokenize":
        client.request_json("POST", "/tokenize", {"prompt": "x"})
    elif name == "props":
        client.request_json("GET", "/props")
    elif name == "judge":
        gen = make_endpoint_generator("openai:tiny", url, api_key_env="HOSTED_KEY")
        gen.p_yes("s", "u")
    else:
        list(client.stream_events("/v1/completions", {"model": "tiny", "stream": True}))


@pytest.mark.parametrize("name", ["models", "tokenize", "props", "judge", "generate"])
def test_a_key_listed_for_another_endpoint_is_never_sent(name, monkeypatch, world):
    monkeypatch.setenv("HOSTED_KEY", HOSTED_KEY)
    with FakeOpenAI(tokenize="vllm") as srv:
        monkeypatch.setenv(ENDPOINTS_ENV, f"https://api.example.com/v1=HOSTED_KEY, {srv.url}")
        with pytest.raises(EndpointError) as err:
            _asks(name, srv.url)
        assert _paths_with_auth(srv) == []
    assert err.value.notice.code == ENDPOINT_KEY_UNSET
    monkeypatch.delenv("HOSTED_KEY")  # "not set" reads exactly as "not allowed"
    with FakeOpenAI(tokenize="vllm") as srv, pytest.raises(EndpointError) as unset:
        _asks(name, srv.url)
    assert english(unset.value.notice) == english(err.value.notice)


def test_a_shared_pipeline_run_sends_no_unpaired_key(monkeypatch, world, tmp_path, tiny_corpus):
    go_offline(monkeypatch, tmp_path)
    monkeypatch.setenv("OTHER_SECRET", HOSTED_KEY)
    monkeypatch.setenv(MODE_ENV, "shared")
    with FakeOpenAI(tokenize="vllm") as srv:
        monkeypatch.setenv(ENDPOINTS_ENV, srv.url)
        cfg = preset("C").with_overrides(
            {
                "retrieval.analyzer": "unicode",
                "generation.model": "openai:tiny",
                "generation.endpoint": srv.url,
                "generation.api_key_env": "OTHER_SECRET",
                "generation.citations": "free",
            }
        )
        trace = run(cfg, "How high is Hallasan?", tiny_corpus)
        assert _paths_with_auth(srv) == []
    assert trace.generation.notice.params["cause"].code == ENDPOINT_KEY_UNSET
