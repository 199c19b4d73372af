"""A reply quoted in a message is scrubbed of the API key before it is cut (issue 38): a cut
made first could leave the key's first characters ("…Bearer sk-probe-SECR"). The server is
the tests' own on 127.0.0.1 and echoes the ``Authorization`` header where a message quotes it.
"""

from __future__ import annotations

import pytest
from helpers.openai_server import FakeOpenAI

from rag_core.modelnames import ENDPOINTS_ENV
from rag_core.models.endpoint import EndpointClient, EndpointError, Timeouts, list_models
from rag_core.models.endpoint.client import ENDPOINT_MALFORMED, ENDPOINT_SERVER_ERROR

LOCAL_KEY = "sk-local-fedcba9876543210"


def _no_key_prefix(text: str, key: str) -> bool:
    return key[:4] not in text


@pytest.mark.parametrize("pad", [60, 64, 68])
def test_an_sse_event_quoted_in_a_message_never_shows_the_keys_first_characters(pad, monkeypatch):
    monkeypatch.setenv("LOCAL_KEY", LOCAL_KEY)
    monkeypatch.delenv(ENDPOINTS_ENV, raising=False)
    with FakeOpenAI(fault=f"echo_event:{pad}") as srv:
        client = EndpointClient(srv.url, "LOCAL_KEY", Timeouts(2, 2, 5))
        with pytest.raises(EndpointError) as err:
            list(client.stream_events("/v1/completions", {"model": "tiny", "stream": True}))
    what = err.value.notice.params["what"]
    assert err.value.notice.code == ENDPOINT_MALFORMED and what.startswith("an SSE event")
    assert _no_key_prefix(what, LOCAL_KEY), what


@pytest.mark.parametrize("pad", [100, 104, 108])
def test_a_non_json_reply_quoted_in_a_message_never_shows_the_keys_first_characters(
    pad, monkeypatch
):
    monkeypatch.setenv("LOCAL_KEY", LOCAL_KEY)
    monkeypatch.delenv(ENDPOINTS_ENV, raising=False)
    with FakeOpenAI(fault=f"echo_models:{pad}") as srv, pytest.raises(EndpointError) as err:
        list_models(srv.url, "LOCAL_KEY")
    what = err.value.notice.params["what"]
    assert err.value.notice.code == ENDPOINT_MALFORMED and _no_key_prefix(what, LOCAL_KEY), what


def test_an_error_body_cut_inside_the_key_never_shows_its_first_characters(monkeypatch):
    monkeypatch.setenv("LOCAL_KEY", LOCAL_KEY)
    monkeypatch.delenv(ENDPOINTS_ENV, raising=False)
    with FakeOpenAI(fault="echo_tail:500") as srv:
        client = EndpointClient(srv.url, "LOCAL_KEY", Timeouts(2, 2, 5))
        with pytest.raises(EndpointError) as err:
            client.request_json("POST", "/v1/completions", {"model": "tiny"})
    said = err.value.notice
    assert said.code == ENDPOINT_SERVER_ERROR and _no_key_prefix(said.params["detail"], LOCAL_KEY)
