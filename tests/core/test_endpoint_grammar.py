"""Enforced citations through a server's constrained decoding (``answer.endpoint_grammar``).

The rule's regex is checked with ``re``; its GBNF by a small reference matcher of the
grammar's own text (below), so both spell the same language; the fault server records
each request body, so the field each server kind gets is checked byte for byte.
"""

from __future__ import annotations

import re

import pytest
from helpers.endpoint_world import go_offline
from helpers.openai_server import FakeOpenAI

from rag_core.answer.endpoint_grammar import (
    citation_gbnf,
    citation_regex,
    follows_rule,
    grammar_fields,
    kind_of_server,
)
from rag_core.answer.prompt import REFUSAL_TEXT
from rag_core.answer.remote import ENDPOINT_FREE_REFUSED
from rag_core.config import PipelineConfig, preset
from rag_core.pipeline import run
from rag_core.wording import JOINED, english

QUESTION = "How high is Hallasan?"
N3 = [1, 2, 3]


@pytest.fixture()
def offline(monkeypatch, tmp_path):
    """A fresh generation cache, no embedder, a char fallback (as in test_endpoint.py)."""
    go_offline(monkeypatch, tmp_path)


def config(srv_url: str, **extra: str) -> PipelineConfig:
    return preset("C").with_overrides(
        {
            "retrieval.analyzer": "unicode",
            "generation.model": "openai:tiny",
            "generation.endpoint": srv_url,
            "generation.first_token_timeout_s": "5",
            "generation.total_timeout_s": "10",
            **extra,
        }
    )


VALID = [
    "Hallasan is 1,947 m high [1].",
    "It is 3.5 km long [2][3]. It opened in 1990 [1]",
    "Two lines [1].\nSecond line [3]!",
    "The output dimension is 384. [1]",  # the citation after the end mark, as in-process
    "Opened in 1990.[2] It has 3.5 km [3].",
    "Three sources back it [3][1][2]. One again [1].",
    REFUSAL_TEXT,
]
INVALID = [
    "Hallasan is high [4].",  # not a source sent
    "Hallasan is high.",  # no citation
    "High. Very high [1].",  # a sentence ends before its citation
    "High. [1",  # an open citation after the end
    "Is 384.  \n[1]",  # a newline between the end and the citation
    "It ends here. [2]",  # only a number's full stop may come before its citation
    "Hallasan [1",  # open citation
    "[1]",  # no text
    REFUSAL_TEXT + " [1].",  # the refusal is the whole answer or nothing
    "Hallasan is high [0].",
    "A source twice [1][1].",  # no source twice in one sentence
    "Twice, not in a row [1][2][1].",
]


def test_the_regex_accepts_cited_answers_and_the_refusal_and_rejects_4_for_three_sources():
    pattern = re.compile(citation_regex(N3, REFUSAL_TEXT))
    for answer in VALID:
        assert pattern.fullmatch(answer), answer
    for answer in INVALID:
        assert not pattern.fullmatch(answer), answer
    assert follows_rule("  Hallasan is high [2].  ", N3, REFUSAL_TEXT)


def test_a_sentence_cites_at_most_three_distinct_sources():
    pattern = re.compile(citation_regex([1, 2, 3, 4], REFUSAL_TEXT))
    assert pattern.fullmatch("Four sources back it [1][2][3].")
    assert not pattern.fullmatch("Four sources back it [1][2][3][4].")
    assert pattern.fullmatch("Four sources back it [1][2][3]. And [4].")


def test_the_regex_escapes_the_refusal_and_takes_two_digit_sources():
    assert re.fullmatch(citation_regex([1, 12], "No (answer)?"), "No (answer)?")
    assert not re.fullmatch(citation_regex([1, 12], "No (answer)?"), "No answer")
    assert re.fullmatch(citation_regex([1, 12], REFUSAL_TEXT), "A fact [12].")
    assert not re.fullmatch(citation_regex([1, 12], REFUSAL_TEXT), "A fact [2].")
    with pytest.raises(ValueError, match="source numbers"):
        citation_regex([], REFUSAL_TEXT)


# ---- a reference matcher of GBNF: the grammar's rules turned into one Python regex


def _gbnf_to_regex(grammar: str) -> str:
    """Translate the GBNF subset the grammar uses (rules, alternation, groups, ``+ * ?``,
    string literals, character classes) into a Python regex, inlining rules from ``root``."""
    rules = {
        name.strip(): body.strip()
        for name, body in (line.split("::=", 1) for line in grammar.splitlines() if "::=" in line)
    }
    token = re.compile(r'\s*("(?:\\.|[^"\\])*"|\[(?:\\.|[^\]\\])*\]|[()|+*?]|[a-z]+)')

    def expand(name: str) -> str:
        out, pos, body = [], 0, rules[name]
        while pos < len(body.rstrip()):
            m = token.match(body, pos)
            assert m, body[pos:]
            tok, pos = m.group(1), m.end()
            if tok.startswith('"'):
                text = re.sub(
                    r"\\(.)", lambda e: {"n": "\n"}.get(e.group(1), e.group(1)), tok[1:-1]
                )
                out.append(re.escape(text))
            elif tok.startswith("["):
                out.append(tok)  # GBNF classes use the regex class syntax here (\[ \] \n \t \r)
            elif tok in "()|+*?":
                out.append("(?:" if tok == "(" else tok)
            else:
                out.append(f"(?:{expand(tok)})")
        return "".join(out)

    return expand("root")


def test_the_gbnf_spells_the_same_language_as_the_regex():
    grammar = citation_gbnf(N3, REFUSAL_TEXT)
    assert grammar.splitlines()[0] == "root ::= refusal | sentence+"
    assert 'cites ::= "[1]" ( "[2]" ( "[3]" )? | "[3]" ( "[2]" )? )? | "[2]" (' in grammar
    assert f'refusal ::= "{REFUSAL_TEXT}"' in grammar
    reference = re.compile(_gbnf_to_regex(grammar))
    for answer in VALID:
        assert reference.fullmatch(answer), answer
    for answer in INVALID:
        assert not reference.fullmatch(answer), answer


def test_the_server_kind_comes_from_props_or_the_vllm_version():
    assert kind_of_server({"default_generation_settings": {}}, None) == "gbnf"
    assert kind_of_server(None, {"version": "0.8.5"}) == "guided_regex"
    assert kind_of_server(None, {"version": "0.10.2"}) == "structured_outputs"
    assert kind_of_server(None, {"version": "0.11.0rc1"}) == "structured_outputs"
    assert kind_of_server(None, None) == "none"
    assert kind_of_server({"detail": "Not Found"}, {"detail": "Not Found"}) == "none"
    with pytest.raises(ValueError, match="valid choices"):
        grammar_fields("ebnf", N3, REFUSAL_TEXT)


# ---- through the pipeline, against the fault server


def _sent(srv: FakeOpenAI) -> dict:
    return [r for r in srv.requests if r["path"].endswith("completions")][-1]["body"]


def _numbers(trace) -> list[int]:
    return sorted({s.n for s in trace.context.sources if s.n is not None})


SERVERS = [
    ({"/props": {"default_generation_settings": {"n_ctx": 4096}}}, "gbnf", "grammar"),
    ({"/version": {"version": "0.8.5"}}, "guided_regex", "guided_regex"),
    ({"/version": {"version": "0.11.2"}}, "structured_outputs", "structured_outputs"),
]


@pytest.mark.parametrize(("reports", "kind", "field"), SERVERS)
def test_auto_sends_each_server_its_own_field_with_exactly_the_rule(
    reports, kind, field, offline, tiny_corpus
):
    with FakeOpenAI(tokenize="vllm", reports=reports) as srv:
        cfg = config(srv.url, **{"generation.citations": "enforced"})
        trace = run(cfg, QUESTION, tiny_corpus)
    sent = _sent(srv)
    nums = _numbers(trace)
    assert nums  # the tiny corpus sends sources
    expected = grammar_fields(kind, nums, REFUSAL_TEXT)
    assert {k: sent[k] for k in expected} == expected
    assert field in sent
    gen = trace.generation
    assert gen.status == "ok"
    assert gen.params["citations"] == "enforced"
    assert gen.params["endpoint_grammar"] == kind
    assert gen.params["cite_sources"] == nums


def test_the_rule_for_three_sources_is_exactly_this_text(offline, tiny_corpus):
    with FakeOpenAI(tokenize="vllm", reports={"/version": {"version": "0.8.5"}}) as srv:
        cfg = config(
            srv.url,
            **{
                "generation.citations": "enforced",
                "generation.endpoint_grammar": "guided_regex",
                "chunker.strategy": "blind",
                "chunker.target": "60",
                "chunker.overlap": "0",
                "retrieval.k": "3",
                "context.dedup": "false",
            },
        )
        trace = run(cfg, "the is a", tiny_corpus)  # common words: three small chunks match
    assert _numbers(trace) == N3
    assert _sent(srv)["guided_regex"] == (
        "(?:The sources do not contain the answer\\.|(?:(?:[^\\[\\]\\n.!?。！？]|[.!?。！？]+"
        "[^\\[\\]\\s.!?。！？])+(?:[0-9]\\. *)?(?:\\[1\\](?:\\[2\\](?:\\[3\\])?|\\[3\\]"
        "(?:\\[2\\])?)?|\\[2\\](?:\\[1\\](?:\\[3\\])?|\\[3\\](?:\\[1\\])?)?|\\[3\\]"
        "(?:\\[1\\](?:\\[2\\])?|\\[2\\](?:\\[1\\])?)?)"
        "(?:[.!?。！？]+[\"'”’)]*\\n*)?)+)"
    )
    assert not srv.requests or all(r["path"] != "/props" for r in srv.requests)  # no probe


def test_a_server_that_refuses_the_field_answers_with_free_citations_and_says_why(
    offline, tiny_corpus
):
    reports = {"/props": {"default_generation_settings": {}}}
    with FakeOpenAI(tokenize="vllm", reports=reports, fault="grammar_refused") as srv:
        trace = run(config(srv.url, **{"generation.citations": "enforced"}), QUESTION, tiny_corpus)
        again = run(config(srv.url, **{"generation.citations": "enforced"}), QUESTION, tiny_corpus)
    gen = trace.generation
    assert gen.status == "ok" and gen.answer
    assert gen.params["citations"] == "free"
    assert "refused the gbnf grammar (HTTP 400" in gen.message
    # what it says is a notice, its parts in order; a replay says the same note from the cache
    assert gen.notice is not None and gen.message == english(gen.notice)
    parts = _parts(gen.notice)
    assert [p.code for p in parts] == ["endpoint.speed", parts[1].code, ENDPOINT_FREE_REFUSED]
    assert parts[1].code.startswith("endpoint.count.")
    assert again.generation.cached and _parts(again.generation.notice)[-1] == parts[-1]
    assert "grammar" not in _sent(srv)
    assert isinstance(_sent(srv)["prompt"], list)  # still token ids: the ids were never refused


def test_a_server_that_ignores_the_field_is_caught_by_checking_the_answer(offline, tiny_corpus):
    reports = {"/version": {"version": "0.9.0"}}
    with FakeOpenAI(tokenize="vllm", reports=reports, pieces=("No ", "citation here.")) as srv:
        trace = run(config(srv.url, **{"generation.citations": "enforced"}), QUESTION, tiny_corpus)
    gen = trace.generation
    assert "guided_regex" in _sent(srv)
    assert gen.params["citations"] == "free"
    assert "the answer does not follow it" in gen.message


def test_endpoint_grammar_none_sends_nothing_and_a_replay_keeps_the_mode(offline, tiny_corpus):
    reports = {"/props": {"default_generation_settings": {}}}
    with FakeOpenAI(tokenize="vllm", reports=reports) as srv:
        cfg = config(srv.url, **{"generation.citations": "enforced"})
        first = run(cfg, QUESTION, tiny_corpus)
        again = run(cfg, QUESTION, tiny_corpus)
        off = run(
            cfg.with_overrides({"generation.endpoint_grammar": "none"}), QUESTION, tiny_corpus
        )
    assert first.generation.params["citations"] == "enforced"
    assert again.generation.cached and again.generation.params["citations"] == "enforced"
    assert off.generation.params["citations"] == "free" and not off.generation.cached
    assert "endpoint_grammar = none" in off.generation.message
    assert "grammar" not in _sent(srv)


# ---- the LLM-judge reranker on an endpoint (rag_core.rerank.llm_judge)

JUDGED = {
    "generation.citations": "free",
    "rerank.method": "llm-judge",
    "chunker.strategy": "blind",
    "chunker.target": "60",
    "chunker.overlap": "0",
    "retrieval.k": "3",
}


def test_the_llm_judge_on_an_endpoint_orders_by_p_yes_from_logprobs(offline, tiny_corpus):
    with FakeOpenAI(tokenize="vllm") as probe:
        plain = config(probe.url, **{**JUDGED, "rerank.method": "none"})
        before = run(plain, "the is a", tiny_corpus)
    order = [h.chunk_id for h in before.rerank.hits]
    table = tiny_corpus.chunking(plain.chunker).by_id
    last = table[order[-1]].content
    # no server tokenizer: the judge's turns go as chat messages the fake server can read
    with FakeOpenAI(yes_if=json_text(last[:30])) as srv:
        cfg = config(srv.url, **JUDGED)
        trace = run(cfg, "the is a", tiny_corpus)
        judged = [r for r in srv.requests if r["body"].get("max_tokens") == 1]
        again = run(cfg, "the is a", tiny_corpus)
        judged_again = [r for r in srv.requests if r["body"].get("max_tokens") == 1]
    stage = trace.rerank
    assert stage.status == "ok" and stage.model == "openai:tiny"
    assert [h.chunk_id for h in stage.hits][0] == order[-1]  # the one the judge said yes to
    assert len(judged) == len(order)  # one P(yes) request per shortlisted chunk
    assert again.rerank.params["cached"] == len(order) and len(judged_again) == len(judged)


def json_text(text: str) -> str:
    """``text`` as it reads inside a JSON body (the fake server looks in the raw body)."""
    import json

    return json.dumps(text)[1:-1]


def test_an_endpoint_judge_without_logprobs_is_refused_with_its_notice(offline, tiny_corpus):
    with FakeOpenAI(tokenize="vllm", fault="no_logprobs") as srv:
        trace = run(config(srv.url, **JUDGED), "the is a", tiny_corpus)
    stage = trace.rerank
    assert stage.status == "unavailable"
    assert stage.notice.code == "rerank.model_unavailable"
    why = stage.notice.params["reason"]
    assert why.code == "rerank.endpoint_judge" and why.params["endpoint"] == srv.url
    assert why.params["cause"].code == "endpoint.no_logprobs"
    assert [h.rank for h in stage.hits] == sorted(h.rank for h in stage.hits)
    assert trace.generation.status == "ok"  # the rest still runs


def _parts(n):
    """The notices a joined notice says, in order."""
    if n.code == JOINED:
        return [*_parts(n.params["first"]), *_parts(n.params["second"])]
    return [n]
