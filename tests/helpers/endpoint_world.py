"""What an endpoint test runs against besides its fake server: char-level tokenizers and a
fresh cache with no embedder, so no model is loaded (``go_offline``)."""

from __future__ import annotations

import rag_core.models as models
from rag_core.models import ModelUnavailable

from .fakes import CharGenerator
from .openai_server import render


class CharFallback(CharGenerator):
    """A char-level stand-in for the MiniLM fallback tokenizer (no model load)."""

    name = "char pieces (fallback)"
    is_fallback = True


class CharHF:
    """The slice of a Hugging Face tokenizer an endpoint's local tokenizer uses, char-level."""

    chat_template = "toy"

    def apply_chat_template(self, messages, tokenize, add_generation_prompt):
        return render(messages[0]["content"], messages[1]["content"])

    def __call__(self, text, add_special_tokens=False, verbose=False, return_offsets_mapping=False):
        out = {"input_ids": [ord(c) for c in text]}
        if return_offsets_mapping:
            out["offset_mapping"] = [(i, i + 1) for i in range(len(text))]
        return out

    def decode(self, ids, skip_special_tokens=False):
        return "".join(chr(i) for i in ids)


def go_offline(monkeypatch, tmp_path) -> None:
    """A fresh generation cache, no embedder (support without cosine), the char fallback and
    the char local tokenizer."""
    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))

    def no_embedder(name, *a, **k):
        raise ModelUnavailable(name, "not in this test")

    monkeypatch.setattr(models, "get_embedder", no_embedder)
    monkeypatch.setattr(models, "fallback_prompt_tokenizer", lambda: CharFallback())
    monkeypatch.setattr(models, "_load_tokenizer", lambda name: CharHF())
