"""The endpoint client against hostile replies (issue 38, "an endpoint client that cannot be
held"): each shape a probe sent, replayed by a fake server on 127.0.0.1, ends in one coded
``EndpointError`` (a generation stage naming the endpoint, for a run) within its deadline —
never a traceback, never a request held past the first-token limit, never a reply read whole
past a cap.
"""

from __future__ import annotations

import json
import time
import tracemalloc

import pytest
from helpers.endpoint_world import go_offline
from helpers.openai_server import ANSWER_PIECES, FakeOpenAI

from rag_core.config import preset
from rag_core.models.endpoint import EndpointClient, EndpointError, Timeouts
from rag_core.models.endpoint import make_endpoint_generator as make
from rag_core.models.endpoint.client import (
    DONE,
    ENDPOINT_EVENT_TOO_LARGE,
    ENDPOINT_MALFORMED,
    ENDPOINT_REPLY_TOO_LARGE,
    ENDPOINT_TIMEOUT,
    MAX_EVENT_BYTES,
    MAX_REPLY_BYTES,
)
from rag_core.models.endpoint.generator import (
    ENDPOINT_ANSWER_TOO_LONG,
    ENDPOINT_BAD_LOGPROB,
    MAX_ANSWER_CHARS,
)
from rag_core.pipeline import run
from rag_core.wording import english

ANSWER = "".join(ANSWER_PIECES).strip()
MESSAGES = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]
BODY = {"model": "tiny", "prompt": "x", "stream": True}
LIMITS = Timeouts(5, 5, 30)


@pytest.fixture()
def offline(monkeypatch, tmp_path):
    go_offline(monkeypatch, tmp_path)


def _events(fault: str, timeouts: Timeouts = LIMITS) -> tuple[list, float]:
    """Every event of one streamed request to a fake with ``fault``, and the seconds it took."""
    with FakeOpenAI(fault=fault) as srv:
        client = EndpointClient(srv.url, timeouts=timeouts)
        t0 = time.perf_counter()
        events = list(client.stream_events("/v1/completions", BODY))
        return events, time.perf_counter() - t0


def _refusal(fault: str, timeouts: Timeouts = LIMITS) -> tuple[EndpointError, float]:
    """The error one streamed request to a fake with ``fault`` ends in, and the seconds."""
    t0 = time.perf_counter()
    with pytest.raises(EndpointError) as err:
        _events(fault, timeouts)
    return err.value, time.perf_counter() - t0


# ------------------------------------------------------------------ sizes and time


def test_one_8_mb_event_is_refused_at_the_event_cap():
    """Before: read whole in 2.5 s here (7.9 s on the probe's machine), quadratic copies."""
    err, took = _refusal("big_event:8000000")
    assert err.notice.code == ENDPOINT_EVENT_TOO_LARGE
    assert err.notice.params == {"cap": MAX_EVENT_BYTES}
    assert took < 3.0, took


def test_a_200_mb_data_line_is_refused_at_the_cap_in_bounded_memory():
    """Before: held past 60 s at 100 MB RSS here (618 s at ~1 GB on the probe's machine)."""
    tracemalloc.start()
    try:
        err, took = _refusal("endless_line:200000000")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert err.notice.code == ENDPOINT_EVENT_TOO_LARGE
    assert took < 5.0, took
    assert peak < 4 * MAX_EVENT_BYTES + (4 << 20), peak  # the cap and a few reads, not 200 MB


def test_an_event_just_under_the_cap_is_read():
    events, _ = _events(f"big_event:{MAX_EVENT_BYTES - 100}")
    assert len(events[0]["choices"][0]["text"]) > MAX_EVENT_BYTES - 200 and events[-1] == DONE


def test_a_million_one_character_events_are_read_in_one_linear_pass():
    """1,000,000 ``x`` events (3 MB): 0.5 s here, before 2.7 s; the answer after them is read."""
    events, took = _events("tiny_events:1000000")
    assert "".join(e["choices"][0]["text"] for e in events[:-1] if e["choices"]) == "".join(
        ANSWER_PIECES
    )
    assert events[-1] == DONE
    assert took < 5.0, took


def test_a_million_one_character_text_events_stop_at_the_answer_cap():
    """Before: 9.7 s and a 1,000,029-character answer to ``max_tokens`` 64; now the request
    is closed once the answer passes ``MAX_ANSWER_CHARS``."""
    with FakeOpenAI(fault="char_events:1000000") as srv:
        gen = make("openai:tiny", srv.url, timeouts=LIMITS)
        shown: list[str] = []
        t0 = time.perf_counter()
        with pytest.raises(EndpointError) as err:
            gen.complete(
                ids=None,
                prompt_text=None,
                messages=MESSAGES,
                max_new_tokens=64,
                on_text=shown.append,
            )
        took = time.perf_counter() - t0
    assert err.value.notice.code == ENDPOINT_ANSWER_TOO_LONG
    assert err.value.notice.params == {"cap": MAX_ANSWER_CHARS}
    assert len(shown) == MAX_ANSWER_CHARS  # one character each, up to the cap
    assert took < 5.0, took


def test_a_server_that_only_says_keep_alive_times_out_at_the_first_token_limit():
    """Before: each comment restarted the clock, so only the total (600 s by default) ended it."""
    err, took = _refusal("keepalive", Timeouts(5, 1.0, 30))
    assert err.notice.code == ENDPOINT_TIMEOUT
    assert err.notice.params == {"which": "first_token", "seconds": 1.0}
    assert 0.9 <= took < 4.0, took


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 64])
@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
def test_events_split_the_same_whatever_the_reads_and_line_ends(size, eol):
    """Keep-alive comments between events, the blank line and a CRLF split across reads."""
    from rag_core.models.endpoint.client import _EventSplitter, _sse_data

    stream = eol.join([": keep-alive", "", 'data: {"a": 1}', "", ": keep-alive", "", ""])
    stream += eol.join(['data: {"b":', "data: 2}", "", "data: [DONE]", "", ""])
    raw = stream.encode()
    splitter = _EventSplitter(MAX_EVENT_BYTES)
    events = [e for i in range(0, len(raw), size) for e in splitter.feed(raw[i : i + size])]
    data = [d for d in map(_sse_data, events) if d is not None]
    assert data == ['{"a": 1}', '{"b":\n2}', "[DONE]"] and splitter.rest() == b""


def test_a_json_reply_over_the_cap_is_refused():
    with FakeOpenAI(fault=f"big_models:{MAX_REPLY_BYTES + 10}") as srv:
        client = EndpointClient(srv.url)
        with pytest.raises(EndpointError) as err:
            client.request_json("GET", "/v1/models")
    assert err.value.notice.code == ENDPOINT_REPLY_TOO_LARGE
    assert err.value.notice.params == {"route": "/v1/models", "cap": MAX_REPLY_BYTES}


def test_the_default_total_timeout_is_one_a_page_can_wait_for():
    assert Timeouts().total == 120.0 == preset("C").generation.total_timeout_s
    assert Timeouts().first_token <= Timeouts().total


# ------------------------------------------------------------------ shapes


@pytest.mark.parametrize(
    ("event", "what"),
    [
        ('{"choices": 5}', "choices is not a list"),
        ('{"choices": true}', "choices is not a list"),
        ('{"choices": [5]}', "a choice is not an object"),
        ('{"choices": [{"text": 5}]}', "text is not a string"),
        ('{"choices": [{"text": ["a"]}]}', "text is not a string"),
        ('{"choices": [{"text": "a", "finish_reason": 5}]}', "finish_reason is not a string"),
        ("7", "an SSE event is not an object"),
    ],
)
def test_each_malformed_event_shape_is_a_coded_notice_naming_the_endpoint(
    event, what, offline, tiny_corpus
):
    """Before: ``choices: 5`` read "generation failed: TypeError: 'int' object is not
    iterable" with no endpoint named."""
    with FakeOpenAI(tokenize="vllm", fault=f"event:{event}") as srv:
        trace = run(_config(srv.url), "How high is Hallasan?", tiny_corpus)
    gen = trace.generation
    assert gen.status == "unavailable" and gen.notice.code == "generation.endpoint_failed"
    assert gen.notice.params["endpoint"] == srv.url
    cause = gen.notice.params["cause"]
    assert cause.code == ENDPOINT_MALFORMED and cause.params == {"what": what}
    assert "Error" not in gen.message and srv.url in gen.message


@pytest.mark.parametrize(
    ("event", "what"),
    [
        ('{"choices": [{"delta": 5}]}', "a delta is not an object"),
        ('{"choices": [{"delta": "x"}]}', "a delta is not an object"),
        ('{"choices": [{"delta": {"content": {"a": 1}}}]}', "text is not a string"),
    ],
)
def test_each_malformed_chat_shape_is_a_coded_notice(event, what):
    with FakeOpenAI(fault=f"event:{event}") as srv:
        gen = make("openai:tiny", srv.url, timeouts=LIMITS)
        with pytest.raises(EndpointError) as err:
            gen.complete(ids=None, prompt_text=None, messages=MESSAGES, max_new_tokens=8)
    assert err.value.notice.code == ENDPOINT_MALFORMED
    assert err.value.notice.params == {"what": what}


def test_an_event_nested_100k_deep_is_the_guards_refusal():
    deep = "[" * 100_000 + "]" * 100_000
    err, _ = _refusal(f"event:{deep}")
    assert err.notice.code == ENDPOINT_MALFORMED
    assert english(err.notice) == (
        "the server's reply is malformed (/v1/completions: JSON nested deeper than 64 levels)"
    )


def test_an_event_with_a_5000_digit_number_is_the_guards_refusal():
    err, _ = _refusal('event:{"choices": [], "usage": {"prompt_tokens": ' + "9" * 5000 + "}}")
    assert err.notice.code == ENDPOINT_MALFORMED
    assert "5000" in english(err.notice) and "1000" in english(err.notice)


def test_a_fingerprint_of_any_shape_is_kept_as_short_text_or_dropped():
    with FakeOpenAI(fault='event:{"choices": [], "system_fingerprint": {"a": [1, 2]}}') as srv:
        gen = make("openai:tiny", srv.url, timeouts=LIMITS)
        reply = gen.complete(ids=None, prompt_text=None, messages=MESSAGES, max_new_tokens=8)
    assert reply.text == ANSWER and reply.fingerprint == "fp-1"


@pytest.mark.parametrize(
    ("top", "shown"),
    [
        ({"yes": 1000, "no": -1}, "1000"),
        ({"yes": -0.1, "no": 5.5}, "5.5"),
        ({"yes": "abc", "no": -1}, "'abc'"),
        ({"yes": [1], "no": -1}, "[1]"),
        ({"yes": True, "no": -1}, "True"),
        ({"yes": float("nan"), "no": -1}, "nan"),
        ({"yes": float("inf"), "no": -1}, "inf"),
    ],
)
@pytest.mark.parametrize("tokenize", ["vllm", None])
def test_a_logprob_that_is_not_one_is_a_coded_notice_not_an_overflow(top, shown, tokenize):
    """Before: ``{"yes": 1000}`` raised OverflowError from ``math.exp``."""
    with FakeOpenAI(tokenize=tokenize, fault=f"judge_top:{json.dumps(top)}") as srv:
        gen = make("openai:tiny", srv.url, timeouts=LIMITS)
        with pytest.raises(EndpointError) as err:
            gen.p_yes("s", "u")
    assert err.value.notice.code == ENDPOINT_BAD_LOGPROB
    assert err.value.notice.params["value"] == shown


def test_minus_infinity_and_a_rounded_zero_are_log_probabilities():
    top = {"yes": 1e-9, "no": float("-inf"), " No": -(10**999)}
    with FakeOpenAI(tokenize="vllm", fault=f"judge_top:{json.dumps(top)}") as srv:
        gen = make("openai:tiny", srv.url, timeouts=LIMITS)
        assert gen.p_yes("s", "u") == 1.0  # p(yes) = 1, p(no) = 0 + 0


def test_the_llm_judge_reranker_names_the_endpoint_of_a_bad_logprob():
    from rag_core.models import ModelUnavailable
    from rag_core.rerank.llm_judge import RERANK_ENDPOINT_JUDGE, _endpoint_score

    with FakeOpenAI(tokenize="vllm", fault='judge_top:{"yes": 1000}') as srv:
        gen = make("openai:tiny", srv.url, timeouts=LIMITS)
        _, compute = _endpoint_score(gen, "q", "passage")
        with pytest.raises(ModelUnavailable) as err:
            compute()
    why = err.value.notice
    assert why.code == RERANK_ENDPOINT_JUDGE and why.params["endpoint"] == srv.url
    assert why.params["cause"].code == ENDPOINT_BAD_LOGPROB


@pytest.mark.parametrize("strs", ["5", '"abc"', '{"a": 1}', "null"])
def test_tokenize_token_strs_of_any_shape_falls_back_without_a_traceback(strs):
    """Before: ``"token_strs": 5`` raised TypeError out of ``ServerTokenizer.probe``."""
    with FakeOpenAI(tokenize="vllm", fault=f"token_strs:{strs}") as srv:
        gen = make("openai:tiny", srv.url, timeouts=LIMITS)
    assert gen.tokenizer_source == "unknown" and not gen.exact


def test_token_ids_outside_int32_are_not_a_tokenizer():
    from rag_core.models.endpoint.tokenizer import _int_list

    assert _int_list([1, 2**31 - 1]) == [1, 2**31 - 1]
    assert _int_list([2**31]) is None and _int_list([-1]) is None and _int_list([True]) is None


def test_a_tokenizer_that_fails_after_the_probe_is_a_stage_notice_not_a_traceback(
    offline, tiny_corpus
):
    """Before: the EndpointError of ``/tokenize`` escaped ``run()`` from the context stage."""
    with FakeOpenAI(tokenize="vllm", fault="tokenize_long") as srv:
        trace = run(_config(srv.url), "How high is Hallasan?", tiny_corpus)
    assert trace.context.status == "ok" and trace.context.sources  # measured with the fallback
    gen = trace.generation
    assert gen.status == "unavailable" and gen.notice.code == "endpoint.at"
    assert gen.notice.params["endpoint"] == srv.url
    assert gen.notice.params["cause"].code == "endpoint.server_error"
    assert not [r for r in srv.requests if r["path"].startswith("/v1/")]


def _config(url: str):
    return preset("C").with_overrides(
        {
            "retrieval.analyzer": "unicode",
            "generation.model": "openai:tiny",
            "generation.endpoint": url,
            "generation.citations": "free",
            "generation.first_token_timeout_s": "5",
            "generation.total_timeout_s": "10",
        }
    )
