"""Endpoint generators (``openai:MODEL``): config, tokenizers, streaming, failures as data.

Every test talks HTTP to a server of its own on 127.0.0.1 (``helpers.openai_server``);
no model is loaded. The real-server test is ``test_endpoint_real.py``.
"""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest
from helpers.endpoint_world import go_offline
from helpers.openai_server import ANSWER_PIECES, FakeOpenAI, render

from rag_core.config import PipelineConfig, preset
from rag_core.models.endpoint import (
    EndpointClient,
    EndpointError,
    Timeouts,
    list_models,
    make_endpoint_generator,
)
from rag_core.models.endpoint.client import (
    ENDPOINT_AUTH,
    ENDPOINT_CANCELLED,
    ENDPOINT_HTTP_ERROR,
    ENDPOINT_KEY_UNSET,
    ENDPOINT_MALFORMED,
    ENDPOINT_NO_MODEL,
    ENDPOINT_RATE_LIMITED,
    ENDPOINT_SERVER_ERROR,
    ENDPOINT_TIMEOUT,
    ENDPOINT_TLS,
    ENDPOINT_TRUNCATED,
    ENDPOINT_UNREACHABLE,
)
from rag_core.pipeline import run

QUESTION = "How high is Hallasan?"
ANSWER = "".join(ANSWER_PIECES).strip()
SECRET = "sk-test-0123456789abcdef"


@pytest.fixture()
def offline(monkeypatch, tmp_path):
    """A fresh generation cache, no embedder (support without cosine), a char fallback."""
    go_offline(monkeypatch, tmp_path)


def config(srv_url: str, **extra: str) -> PipelineConfig:
    return preset("C").with_overrides(
        {
            "retrieval.analyzer": "unicode",
            "generation.model": "openai:tiny",
            "generation.endpoint": srv_url,
            "generation.citations": "free",
            "generation.first_token_timeout_s": "5",
            "generation.total_timeout_s": "10",
            **extra,
        }
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ------------------------------------------------------------------ configuration


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"generation.model": "openai:x"}, "needs generation.endpoint"),
        ({"generation.model": "openai:", "generation.endpoint": "http://h/v1"}, "names no model"),
        ({"generation.endpoint": "ftp://h/v1"}, "valid schemes: http, https"),
        ({"generation.endpoint": "http://u:sk-1@h/v1"}, "must not carry credentials"),
        ({"generation.endpoint": "http://h/v1?key=1"}, "query string"),
        ({"generation.api_key_env": "sk-123-secret"}, "NAME of an environment variable"),
        ({"generation.total_timeout_s": "0"}, "out of range"),
    ],
)
def test_endpoint_fields_are_validated_with_the_valid_choices(overrides, words):
    with pytest.raises(ValueError, match=words) as err:
        PipelineConfig().with_overrides(overrides)
    assert "sk-1" not in str(err.value) or "credentials" not in str(err.value)
    assert "sk-123" not in str(err.value)


def test_an_endpoint_config_round_trips_through_json_and_set_overrides():
    cfg = config("http://127.0.0.1:8000/v1", **{"generation.api_key_env": "MY_KEY"})
    again = PipelineConfig.from_dict(json.loads(cfg.to_json()))
    assert again == cfg and again.generation.endpoint == "http://127.0.0.1:8000/v1"


def test_the_model_list_comes_from_get_v1_models():
    with FakeOpenAI(models=("b-model", "a-model")) as srv:
        assert list_models(srv.url) == ["a-model", "b-model"]


def test_the_api_key_goes_in_the_authorization_header_only(monkeypatch):
    monkeypatch.setenv("MY_KEY", SECRET)
    with FakeOpenAI() as srv:
        list_models(srv.url, "MY_KEY")
        assert srv.requests[-1]["headers"]["Authorization"] == f"Bearer {SECRET}"
        assert SECRET not in srv.requests[-1]["path"]
        assert SECRET not in repr(EndpointClient(srv.url, "MY_KEY"))


# ----------------------------------------------------------------- tokenizers


@pytest.mark.parametrize("shape", ["vllm", "llama.cpp"])
def test_a_server_tokenizer_gives_the_exact_ids_and_they_are_sent_as_token_ids(
    shape, offline, tiny_corpus
):
    with FakeOpenAI(tokenize=shape) as srv:
        trace = run(config(srv.url), QUESTION, tiny_corpus)
        sent = [r for r in srv.requests if r["path"] == "/v1/completions"][-1]["body"]
    g, ctx = trace.generation, trace.context
    assert g.status == "ok" and g.answer == ANSWER
    assert ctx.tokenizer.startswith("openai:tiny (server tokenizer")
    assert ctx.prompt_text.startswith("<s>") and ctx.prompt_text.endswith("<a>")
    assert sent["prompt"] == list(ctx.input_ids) == [ord(c) for c in ctx.prompt_text]
    assert sent["temperature"] == 0 and sent["stream"] is True
    assert g.params["sent_as"] == "token ids" and g.params["tokenizer_source"] == "server"
    assert g.params["prompt_tokens_ours"] == len(ctx.input_ids) == g.params["prompt_tokens_server"]
    assert g.params["prompt_tokens_match"] is True
    assert "prompt tokens: ours" in g.message and "equal" in g.message


def test_a_named_tokenizer_wins_and_a_count_that_differs_is_shown_as_different(
    offline, tiny_corpus
):
    with FakeOpenAI(usage_offset=3) as srv:
        trace = run(
            config(srv.url, **{"generation.tokenizer": "some/tokenizer"}), QUESTION, tiny_corpus
        )
        paths = [r["path"] for r in srv.requests]
    g = trace.generation
    assert "/tokenize" not in paths  # the named tokenizer is used, the server is not asked
    assert g.params["tokenizer_source"] == "local" and g.params["sent_as"] == "token ids"
    assert g.params["prompt_tokens_server"] == g.params["prompt_tokens_ours"] + 3
    assert g.params["prompt_tokens_match"] is False and "DIFFERENT" in g.message


def test_a_server_that_refuses_ids_gets_the_same_prompt_as_text(offline, tiny_corpus):
    with FakeOpenAI(tokenize="vllm", fault="ids_refused") as srv:
        trace = run(config(srv.url), QUESTION, tiny_corpus)
        bodies = [r["body"] for r in srv.requests if r["path"] == "/v1/completions"]
    assert [type(b["prompt"]) for b in bodies] == [list, str]
    assert bodies[1]["prompt"] == trace.context.actual_input_text
    assert trace.generation.status == "ok" and trace.generation.params["sent_as"] == "text"
    assert trace.generation.params["prompt_tokens_match"] is True


def test_an_unknown_tokenizer_sends_chat_messages_and_says_counts_are_approximate(
    offline, tiny_corpus
):
    with FakeOpenAI(tokenize=None) as srv:
        trace = run(config(srv.url), QUESTION, tiny_corpus)
        chat = [r for r in srv.requests if r["path"] == "/v1/chat/completions"]
    ctx, g = trace.context, trace.generation
    assert len(chat) == 1 and chat[0]["body"]["messages"][1]["content"] == ctx.user_text
    codes = [n.code for n in ctx.notices]
    assert (
        "context.endpoint_tokenizer_unknown" in codes and "context.fallback_tokenizer" not in codes
    )
    assert "token counts approximate (server tokenizer unknown)" in ctx.message
    assert g.status == "ok" and g.params["sent_as"] == "chat messages"
    assert g.params["prompt_tokens_ours_exact"] is False and g.params["prompt_tokens_match"] is None
    assert g.params["prompt_tokens_server"] == len(render(ctx.system_text, ctx.user_text))


# ------------------------------------------------------------ streaming, cancel, cache


def test_pieces_reach_the_listener_before_the_request_ends(offline, tiny_corpus):
    seen: list[tuple[str, float]] = []

    def listener(kind, value):
        if kind == "text":
            seen.append((value, time.perf_counter()))

    with FakeOpenAI(tokenize="vllm", fault="slow_pieces") as srv:
        trace = run(config(srv.url), QUESTION, tiny_corpus, listener=listener)
    end = time.perf_counter()
    assert "".join(p for p, _ in seen).strip() == trace.generation.answer == ANSWER
    assert len(seen) == len(ANSWER_PIECES)
    assert end - seen[0][1] >= 0.5  # the first piece came >= 2 pauses of 0.3 s before the end


def test_cancel_closes_the_request_and_the_server_sees_the_client_go():
    with FakeOpenAI(tokenize="vllm", fault="slow_pieces") as srv:
        gen = make_endpoint_generator("openai:tiny", srv.url)
        got: list[str] = []
        t0 = time.perf_counter()
        with pytest.raises(EndpointError) as err:
            gen.complete(
                ids=[1, 2, 3],
                prompt_text=None,
                messages=None,
                max_new_tokens=8,
                on_text=got.append,
                cancelled=lambda: bool(got),
            )
        assert err.value.notice.code == ENDPOINT_CANCELLED
        assert got == [ANSWER_PIECES[0]] and time.perf_counter() - t0 < 2
        assert srv.disconnected.wait(3)


def test_a_second_run_replays_from_the_cache_without_a_request(offline, tiny_corpus):
    with FakeOpenAI(tokenize="vllm") as srv:
        first = run(config(srv.url), QUESTION, tiny_corpus)
        n = len([r for r in srv.requests if r["path"] == "/v1/completions"])
        again = run(config(srv.url), QUESTION, tiny_corpus)
        m = len([r for r in srv.requests if r["path"] == "/v1/completions"])
    assert (n, m) == (1, 1) and first.generation.cached is False and again.generation.cached
    assert again.generation.answer == first.generation.answer
    assert (
        again.generation.params["prompt_tokens_server"]
        == first.generation.params["prompt_tokens_server"]
    )


def test_a_stream_that_ends_after_its_finish_reason_without_done_is_complete(offline, tiny_corpus):
    """``transformers serve`` sends no ``data: [DONE]``; a finish_reason ends the answer."""
    with FakeOpenAI(tokenize="vllm", fault="no_done") as srv:
        trace = run(config(srv.url), QUESTION, tiny_corpus)
    assert trace.generation.status == "ok" and trace.generation.answer == ANSWER


def test_enforced_citations_fall_back_to_free_with_the_notice(offline, tiny_corpus):
    with FakeOpenAI(tokenize="vllm") as srv:  # neither /props nor /version: no grammar
        trace = run(config(srv.url, **{"generation.citations": "enforced"}), QUESTION, tiny_corpus)
    assert trace.generation.params["citations"] == "free"
    assert "reports neither llama.cpp nor vLLM" in trace.generation.message
    assert not any(
        {"grammar", "guided_regex", "structured_outputs"} & set(r.get("body", {}))
        for r in srv.requests
    )


# ------------------------------------------------------------------ failures


FAULTS = [
    ("status:500", ENDPOINT_SERVER_ERROR),
    ("status:503", ENDPOINT_SERVER_ERROR),
    ("status:429", ENDPOINT_RATE_LIMITED),
    ("status:401", ENDPOINT_AUTH),
    ("status:403", ENDPOINT_AUTH),
    ("status:418", ENDPOINT_HTTP_ERROR),
    ("garbage", ENDPOINT_MALFORMED),
    ("bad_event", ENDPOINT_MALFORMED),
    ("cut", ENDPOINT_TRUNCATED),
]


@pytest.mark.parametrize(("fault", "code"), FAULTS)
def test_a_failing_server_makes_generation_unavailable_and_the_rest_renders(
    fault, code, offline, tiny_corpus, monkeypatch
):
    monkeypatch.setenv("MY_KEY", SECRET)
    with FakeOpenAI(tokenize="vllm", fault=fault) as srv:
        trace = run(config(srv.url, **{"generation.api_key_env": "MY_KEY"}), QUESTION, tiny_corpus)
    g = trace.generation
    assert g.status == "unavailable" and g.answer is None
    assert g.notice.code == "generation.endpoint_failed"
    assert g.notice.params["endpoint"] == srv.url and g.notice.params["cause"].code == code
    assert srv.url in g.message
    assert trace.retrieval.hits and trace.context.status == "ok"
    assert trace.support.status == "skipped"
    assert SECRET not in trace.to_json()  # the 4xx/5xx bodies echo the Authorization header


def test_an_unknown_model_is_a_404_naming_the_model(offline, tiny_corpus):
    with FakeOpenAI(tokenize="vllm", models=("other",)) as srv:
        trace = run(config(srv.url), QUESTION, tiny_corpus)
    cause = trace.generation.notice.params["cause"]
    assert cause.code == ENDPOINT_NO_MODEL and cause.params["model"] == "tiny"


def test_an_unreachable_server_is_unavailable(offline, tiny_corpus):
    url = f"http://127.0.0.1:{free_port()}/v1"
    trace = run(config(url), QUESTION, tiny_corpus)
    assert trace.generation.notice.params["cause"].code == ENDPOINT_UNREACHABLE
    assert trace.context.status == "ok"


def test_a_tls_failure_is_named(offline, tiny_corpus):
    with FakeOpenAI() as srv:  # plain HTTP answering a TLS handshake
        trace = run(config(srv.url.replace("http://", "https://")), QUESTION, tiny_corpus)
    assert trace.generation.notice.params["cause"].code == ENDPOINT_TLS


def test_a_key_variable_that_is_not_set_is_named_not_guessed(offline, tiny_corpus, monkeypatch):
    monkeypatch.delenv("NO_SUCH_KEY_VAR", raising=False)
    with FakeOpenAI(tokenize="vllm") as srv:
        trace = run(
            config(srv.url, **{"generation.api_key_env": "NO_SUCH_KEY_VAR"}), QUESTION, tiny_corpus
        )
        assert not [r for r in srv.requests if r["path"].startswith("/v1/")]
    cause = trace.generation.notice.params["cause"]
    assert cause.code == ENDPOINT_KEY_UNSET and cause.params["key_env"] == "NO_SUCH_KEY_VAR"


def test_a_server_that_never_answers_times_out_at_the_first_token_limit(offline, tiny_corpus):
    with FakeOpenAI(tokenize="vllm", fault="hang") as srv:
        t0 = time.perf_counter()
        trace = run(
            config(srv.url, **{"generation.first_token_timeout_s": "0.5"}), QUESTION, tiny_corpus
        )
        took = time.perf_counter() - t0
    cause = trace.generation.notice.params["cause"]
    assert cause.code == ENDPOINT_TIMEOUT and cause.params["which"] == "first_token"
    assert took < 5


def test_a_dripping_server_cannot_hold_a_request_past_the_total_deadline():
    """One byte every 0.2 s keeps every read short; only the total deadline stops it (the
    connect and first-token limits are far above it, so a loaded machine cannot trip them
    first)."""
    with FakeOpenAI(fault="drip") as srv:
        client = EndpointClient(srv.url, timeouts=Timeouts(10.0, 10.0, 1.5))
        t0 = time.perf_counter()
        with pytest.raises(EndpointError) as err:
            body = {"model": "tiny", "prompt": "x", "stream": True}
            list(client.stream_events("/v1/completions", body))
        took = time.perf_counter() - t0
    assert err.value.notice.code == ENDPOINT_TIMEOUT, err.value.notice
    assert err.value.notice.params["which"] == "total"
    assert 1.4 <= took < 8.0  # the deadline, not the 10 s limits and not the endless drip


def test_a_json_route_answering_non_json_is_malformed():
    with FakeOpenAI(fault="garbage") as srv:
        client = EndpointClient(srv.url)
        with pytest.raises(EndpointError) as err:
            client.request_json("POST", "/v1/completions", {"model": "tiny", "prompt": "x"})
    assert err.value.notice.code == ENDPOINT_MALFORMED


def test_concurrent_requests_each_get_their_own_answer():
    with FakeOpenAI(tokenize="vllm") as srv:
        gen = make_endpoint_generator("openai:tiny", srv.url)
        out: list[str] = []

        def one() -> None:
            out.append(
                gen.complete(ids=[1, 2], prompt_text=None, messages=None, max_new_tokens=4).text
            )

        threads = [threading.Thread(target=one) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
    assert out == [ANSWER] * 4


# ------------------------------------------------------------ the address and the CLI


def test_from_the_address_an_endpoint_is_accepted_only_when_listed():
    from rag_core.modelnames import ENDPOINTS_ENV, restrict_noticed
    from rag_core.wording import english

    def restrict(asked, env):
        kept, problems = restrict_noticed(asked, env=env)
        return kept, [english(p) for p in problems]

    asked = {
        "generation.model": "openai:tiny",
        "generation.endpoint": "http://10.0.0.5:8000/v1",
        "generation.api_key_env": "AWS_SECRET_ACCESS_KEY",
    }
    kept, problems = restrict(asked, env={})
    assert kept == {"generation.model": "openai:tiny"} and len(problems) == 2
    assert all(ENDPOINTS_ENV in p for p in problems)
    listed = {ENDPOINTS_ENV: "http://10.0.0.5:8000/v1/=VLLM_KEY, http://127.0.0.1:11434/v1"}
    kept, problems = restrict(asked, env=listed)
    assert "generation.endpoint" in kept and "generation.api_key_env" in problems[0]
    kept, problems = restrict({**asked, "generation.api_key_env": "VLLM_KEY"}, env=listed)
    assert kept == {**asked, "generation.api_key_env": "VLLM_KEY"} and problems == []


def test_a_shared_link_to_an_unlisted_endpoint_keeps_the_default_generator(monkeypatch):
    from ui.state import config_from_url

    monkeypatch.delenv("RAG_INSPECTOR_ENDPOINTS", raising=False)
    cfg, problems = config_from_url(
        "/?generation.model=openai:tiny&generation.endpoint=http://evil.example:80/v1"
    )
    assert cfg.generation == PipelineConfig().generation
    assert any("RAG_INSPECTOR_ENDPOINTS" in p for p in problems)
    monkeypatch.setenv("RAG_INSPECTOR_ENDPOINTS", "http://evil.example:80/v1")
    cfg, problems = config_from_url(
        "/?generation.model=openai:tiny&generation.endpoint=http://evil.example:80/v1"
    )
    assert cfg.generation.model == "openai:tiny" and problems == []


def test_the_cli_takes_any_endpoint_with_set(offline, tiny_corpus_dir, capsys):
    from rag_core.cli import main

    with FakeOpenAI(tokenize="vllm") as srv:
        code = main(
            [
                "query",
                QUESTION,
                "--corpus",
                str(tiny_corpus_dir),
                "--preset",
                "C",
                "--set",
                "retrieval.analyzer=unicode",
                "--set",
                "generation.model=openai:tiny",
                "--set",
                f"generation.endpoint={srv.url}",
                "--set",
                "generation.citations=free",
                "--json",
            ]
        )
    out = capsys.readouterr()
    assert code == 0, out.err
    trace = json.loads(out.out)
    assert trace["generation"]["answer"] == ANSWER
    assert trace["config"]["generation"]["endpoint"] == srv.url


def test_a_trace_whose_endpoint_failed_is_not_kept_for_the_next_visit(offline, tiny_corpus):
    from ui.cache import cacheable

    url = f"http://127.0.0.1:{free_port()}/v1"
    down = run(config(url), QUESTION, tiny_corpus)
    assert down.generation.status == "unavailable" and not cacheable(down)
    with FakeOpenAI(tokenize="vllm") as srv:
        assert cacheable(run(config(srv.url), QUESTION, tiny_corpus))


def test_eval_answers_keeps_n_requests_in_flight_and_gives_the_same_result(
    offline, tiny_corpus, monkeypatch, tmp_path
):
    from rag_core.evaluation.answers import evaluate_answers
    from rag_core.types import Question

    qs = [
        Question(f"q{i}", "en", text, answerable=False)
        for i, text in enumerate(
            [QUESTION, "What is at the summit?", "Where is Jeju?", "How old is it?", "Why?"]
        )
    ]
    out = {}
    for n in (1, 4):
        monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / f"cache{n}"))
        with FakeOpenAI(tokenize="vllm", fault="slow_pieces") as srv:
            cfg = config(srv.url)
            done: list[int] = []
            res = evaluate_answers(
                cfg, qs, tiny_corpus, concurrency=n, progress=lambda d, t, done=done: done.append(d)
            )
            out[n] = (res, srv.max_inflight, done)
    (one, inflight1, done1), (four, inflight4, done4) = out[1], out[4]
    assert inflight1 == 1 and inflight4 >= 2
    assert done1 == done4 == [1, 2, 3, 4, 5]
    assert [r.question_id for r in four.rows] == [r.question_id for r in one.rows]
    assert [r.answer for r in four.rows] == [r.answer for r in one.rows]
    assert four.status == one.status == "complete"


def test_eval_answers_concurrency_must_be_at_least_one(tiny_corpus):
    from rag_core.evaluation.answers import evaluate_answers
    from rag_core.types import Question

    with pytest.raises(ValueError, match="concurrency"):
        evaluate_answers(PipelineConfig(), [Question("q", "en", "x")], tiny_corpus, concurrency=0)


# ------------------------------------------------------------------ the judge


@pytest.mark.parametrize("shape", ["vllm", None])
def test_an_endpoint_judges_with_p_yes_from_its_top_logprobs(shape, offline, tiny_corpus):
    import math

    with FakeOpenAI(tokenize=shape) as srv:
        gen = make_endpoint_generator("openai:tiny", srv.url)
        p = gen.p_yes("Answer yes or no.", "Does the source say 1,947 m?")
        judged = [r for r in srv.requests if r["body"].get("max_tokens") == 1]
        trace = run(config(srv.url, **{"support.judge": "true"}), QUESTION, tiny_corpus)
    yes, no = math.exp(-0.2), math.exp(-1.8)
    assert p == pytest.approx(yes / (yes + no))
    route = "/v1/completions" if shape else "/v1/chat/completions"
    assert judged and judged[0]["path"] == route
    assert trace.support.status == "ok"
    assert any(e.judge is not None for c in trace.support.claims for e in c.evidence)


def test_a_server_without_logprobs_is_a_judge_notice_and_support_still_runs(offline, tiny_corpus):
    with FakeOpenAI(tokenize="vllm", fault="no_logprobs") as srv:
        gen = make_endpoint_generator("openai:tiny", srv.url)
        with pytest.raises(EndpointError) as err:
            gen.p_yes("s", "u")
        trace = run(config(srv.url, **{"support.judge": "true"}), QUESTION, tiny_corpus)
    assert err.value.notice.code == "endpoint.no_logprobs"
    sup = trace.support
    assert sup.status == "ok" and sup.notice.code == "support.judge_unavailable"
    reason = sup.notice.params["reason"]  # named by its endpoint
    assert reason.code == "endpoint.at" and reason.params["endpoint"] == srv.url
    assert reason.params["cause"].code == "endpoint.no_logprobs"
