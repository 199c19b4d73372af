"""Enforced citations through a server's constrained decoding (``generation.endpoint_grammar``).

The rule is :mod:`rag_core.answer.citations`'s, written for the server: the answer is
exactly the refusal sentence, or a run of sentences each closed by one or more
citations ``[n]`` over the numbers of the sources sent::

    answer   := REFUSAL | sentence+
    sentence := text pre? cites end?
    cites    := 1 to 3 "[" n "]", each n a different source sent (MAX_CITES; written out
                as nested alternatives: servers' regex engines have no back-references)
    text     := (plain | mark+ tight)+         (no "[" "]" newline; a sentence-end
                                                mark only when a non-space follows: "3.5")
    pre      := digit "." " "*                 (a number's full stop before the citation,
                                                "… is 384. [1]", as the in-process rule
                                                cites "1950." once it reads as an end)
    end      := mark+ closer* newline*

How each server takes it (the field names in the servers' own request schemas):

* ``gbnf`` — llama.cpp ``llama-server``: a ``grammar`` field (GBNF) on ``/completion``,
  ``/v1/completions`` and ``/v1/chat/completions`` (tools/server, ``params_from_json``);
* ``guided_regex`` — vLLM before 0.10.2: a top-level ``guided_regex`` (the OpenAI client's
  ``extra_body``; ``vllm/entrypoints/openai/protocol.py``);
* ``structured_outputs`` — vLLM 0.10.2 and later: ``structured_outputs: {"regex": …}``;
* ``none`` — send nothing (free citations, with the fallback note).

``auto`` probes once per generator: ``GET /props`` answering llama.cpp's
``default_generation_settings`` → ``gbnf``; ``GET /version`` answering
``{"version": "x.y.z"}`` (vLLM) → ``structured_outputs`` from 0.10.2, else
``guided_regex``; anything else → ``none``. A server that refuses the field (HTTP
400/422) is asked again without it, and a server that ignores it is caught after the
fact: the answer is checked against :func:`citation_regex` and, when it does not match,
``params["citations"]`` is ``free`` with a note saying the server did not enforce it.
Checked against a real engine: ``tests/core/test_endpoint_grammar_engine.py`` compiles
both forms with xgrammar (vLLM's default structured-output backend, whose EBNF reads
GBNF) and decodes the bundled model under them. Known gap: the in-process grammar
closes an open sentence near ``max_new_tokens``; a server cannot, so an answer cut by
the token limit fails the check and reads ``free``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from rag_core.config import ENDPOINT_GRAMMARS

from .citations import MAX_CITES

#: Sentence-end marks and the closers that may follow them (as ``citations._END``).
_MARKS = ".!?。！？"
_CLOSERS = "\"'”’)"
#: Version of the rule as sent to servers; part of the endpoint answers' cache key.
#: 2: a citation may follow a number's full stop (``pre``).
#: 3: at most :data:`~rag_core.answer.citations.MAX_CITES` citations per sentence, none twice.
SERVER_RULE_VERSION = 3
#: vLLM's first release with ``structured_outputs`` (``guided_*`` before it).
VLLM_STRUCTURED_FROM = (0, 10, 2)


def _numbers(sources: Sequence[int]) -> list[str]:
    nums = sorted({int(n) for n in sources})
    if not nums or nums[0] < 1:
        raise ValueError(f"sources must be source numbers ≥ 1, got {list(sources)!r}")
    return [str(n) for n in nums]


def _regex_literal(text: str) -> str:
    """``text`` as a regex literal, escaping only the metacharacters (portable to the
    servers' regex engines, unlike :func:`re.escape`'s escaped spaces)."""
    return "".join("\\" + c if c in ".^$|?*+()[]{}\\/" else c for c in text)


def _cites(
    numbers: Sequence[str],
    used: tuple[str, ...],
    cite: Callable[[str], str],
    group: str,
    sep: str = "|",
) -> str:
    """The citation runs that may follow ``used`` (each number once, at most
    :data:`MAX_CITES` in all) as nested alternatives joined by ``sep``: ``cite(n)`` spells one
    citation and ``group`` an optional group around ``{}`` (``(?:{})?`` for a regex)."""
    options = []
    for n in numbers:
        if n in used:
            continue
        deeper = len(used) + 1 < MAX_CITES
        rest = _cites(numbers, (*used, n), cite, group, sep) if deeper else ""
        options.append(cite(n) + (group.format(rest) if rest else ""))
    return sep.join(options)


def citation_regex(sources: Sequence[int], refusal: str) -> str:
    """The rule as a regular expression (full match; no anchors, as servers full-match)."""
    plain = f"[^\\[\\]\\n{_MARKS}]"
    tight = f"[^\\[\\]\\s{_MARKS}]"
    text = f"(?:{plain}|[{_MARKS}]+{tight})+"
    cites = _cites(_numbers(sources), (), lambda n: f"\\[{n}\\]", "(?:{})?")
    pre = "(?:[0-9]\\. *)?"
    end = f"(?:[{_MARKS}]+[{_CLOSERS}]*\\n*)?"
    return f"(?:{_regex_literal(refusal)}|(?:{text}{pre}(?:{cites}){end})+)"


def _gbnf_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def citation_gbnf(sources: Sequence[int], refusal: str) -> str:
    """The rule as a llama.cpp GBNF grammar (``root`` is the answer)."""
    cites = _cites(_numbers(sources), (), lambda n: f'"[{n}]"', " ( {} )?", " | ")
    closers = _CLOSERS.replace('"', '\\"')
    return "\n".join(
        [
            "root ::= refusal | sentence+",
            f"refusal ::= {_gbnf_string(refusal)}",
            "sentence ::= text pre? cites end?",
            f"text ::= ( [^\\[\\]\\n{_MARKS}] | [{_MARKS}]+ [^\\[\\]\\n\\t\\r {_MARKS}] )+",
            f"cites ::= {cites}",
            'pre ::= [0-9] "." " "*',
            f'end ::= [{_MARKS}]+ [{closers}]* "\\n"*',
            "",
        ]
    )


def grammar_fields(kind: str, sources: Sequence[int], refusal: str) -> dict[str, Any]:
    """The request fields that send the rule to a server of ``kind`` (empty for ``none``)."""
    if kind == "gbnf":
        return {"grammar": citation_gbnf(sources, refusal)}
    if kind == "guided_regex":
        return {"guided_regex": citation_regex(sources, refusal)}
    if kind == "structured_outputs":
        return {"structured_outputs": {"regex": citation_regex(sources, refusal)}}
    if kind == "none":
        return {}
    raise ValueError(f"endpoint grammar {kind!r} is not valid; valid choices: {ENDPOINT_GRAMMARS}")


def follows_rule(answer: str, sources: Sequence[int], refusal: str) -> bool:
    """Does ``answer`` (stripped) match :func:`citation_regex`?"""
    return re.fullmatch(citation_regex(sources, refusal), answer.strip()) is not None


def kind_of_server(props: Any, version: Any) -> str:
    """``gbnf`` / ``structured_outputs`` / ``guided_regex`` / ``none`` from the bodies of
    ``GET /props`` and ``GET /version`` (None where the route failed)."""
    if isinstance(props, dict) and "default_generation_settings" in props:
        return "gbnf"
    if isinstance(version, dict) and isinstance(version.get("version"), str):
        parts = re.findall(r"\d+", version["version"])[:3]
        if parts:
            triple = tuple(int(p) for p in parts) + (0,) * (3 - len(parts))
            return "structured_outputs" if triple >= VLLM_STRUCTURED_FROM else "guided_regex"
    return "none"


__all__ = [
    "ENDPOINT_GRAMMARS",
    "SERVER_RULE_VERSION",
    "citation_gbnf",
    "citation_regex",
    "follows_rule",
    "grammar_fields",
    "kind_of_server",
]
