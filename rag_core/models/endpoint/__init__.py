"""A generator behind an OpenAI-compatible server: ``openai:MODEL`` at ``generation.endpoint``.

Any server that speaks the OpenAI completions/chat API works (vLLM, llama.cpp's
``llama-server``, Ollama's ``/v1``, TGI, LM Studio, ``transformers serve``, hosted
APIs). The client is the standard library's ``http.client``: one connection per
request, server-sent events read as they arrive.

**The prompt's tokens.** The product shows the exact prompt ids sent. An
:class:`EndpointGenerator` knows them in one of three ways (``tokenizer_source``):

* ``local`` — ``generation.tokenizer`` names a hub id or folder, loaded offline with
  ``AutoTokenizer``; the prompt is its chat template, rendered and tokenised here
  exactly as for an in-process model;
* ``server`` — the server's own ``/tokenize`` (vLLM: ``{"tokens": [...], "count": n}``;
  llama.cpp: ``{"tokens": [...]}``) and its template (llama.cpp ``/apply-template``, or
  vLLM ``/tokenize`` of the messages then ``/detokenize``);
* ``unknown`` — neither: the context stage counts with the stated fallback tokenizer,
  the messages go to ``/v1/chat/completions`` and the server applies its own template.

With known ids the request is ``/v1/completions`` with ``prompt`` = the list of ids
(vLLM, llama.cpp, OpenAI accept it); a server that refuses ids (HTTP 400/422, e.g.
``transformers serve``) gets the same prompt as text. The response's
``usage.prompt_tokens`` is compared with our count (``params`` of the stage).

The package: :mod:`.client` (HTTP and server-sent events, timeouts, the failure codes),
:mod:`.tokenizer` (the server's ``/tokenize``, ``/detokenize`` and template as a prompt
tokenizer) and :mod:`.generator` (:class:`EndpointGenerator`: the prompt tokenizer, the
judge's ``P(yes)``, the streamed completion).
"""

from __future__ import annotations

from .client import EndpointClient, EndpointError, Timeouts, list_models
from .generator import EndpointGenerator, make_endpoint_generator

__all__ = [
    "EndpointClient",
    "EndpointError",
    "EndpointGenerator",
    "Timeouts",
    "list_models",
    "make_endpoint_generator",
]
