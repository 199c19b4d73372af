"""Fakes shared by the tests: char-level generators and a hashed-trigram embedder.

Each is a real object of the protocol it stands in for (``rag_core.models``), only tiny and
deterministic, so a test exercises the code path and counts its calls.
"""

from __future__ import annotations

import numpy as np

from rag_core.answer.context import build_context
from rag_core.config import ContextConfig
from rag_core.types import Chunk, ContextStage, Document, Hit


class CharGenerator:
    """A fake generator with char-level token ids (``ord``) and a toy template.

    Subclasses set ``file_sha256`` and write ``generate_ids``; everything else of
    ``rag_core.models.LocalGenerator`` (template, encode, offsets, decode, capabilities, a judge
    with no opinion) is here once.
    """

    name = "fake"
    model_id = "fake-gen"
    file_sha256 = "0" * 64
    dtype: str | None = None
    template_label = "toy template"
    is_fallback = False
    exact = True
    eos_ids = (0,)
    tokenizer = None  # no Hugging Face tokenizer: it cannot enforce citations
    takes_logits_processors = False
    measures_first_token = False
    takes_cancelled = False

    def prompt_text(self, system: str, user: str) -> str:
        return f"<s>{system}</s><u>{user}</u><a>"

    def encode(self, text: str) -> list[int]:
        return [ord(c) for c in text]

    def encode_offsets(self, text: str):
        return [ord(c) for c in text], [(i, i + 1) for i in range(len(text))]

    def decode(self, ids, *, skip_special_tokens: bool = False) -> str:
        return "".join(chr(i) for i in ids)

    def prompt_ids(self, system: str, user: str) -> list[int]:
        return self.encode(self.prompt_text(system, user))

    def p_yes(self, system: str, user: str) -> float:
        """No opinion: what a real generator answers when neither yes nor no is likely."""
        return 0.5

    def yes_probability(self, ids) -> float:
        return 0.5

    def read(self, prompt_ids, answer_ids, segments):
        raise NotImplementedError("a char-level fake has no attention to read")

    def read_many(self, prompt_ids, answers, segments):
        raise NotImplementedError("a char-level fake has no attention to read")


# A one-document prompt for the generation and citation tests.
TEXT = "Hallasan rises 1,947 m above sea level. It is the highest mountain in South Korea."
DOC = Document("d", "Jeju", TEXT)
CHUNK = Chunk("d::c::0000", "d", 0, 0, len(TEXT), 0, TEXT, TEXT)
HITS = [Hit(CHUNK.chunk_id, "d", 1, 1.0)]


class FakeGenerator(CharGenerator):
    """Char-level prompts; 'generates' a fixed answer and counts its calls."""

    file_sha256 = "0" * 64

    def __init__(self, answer: str = "Hallasan is 1,947 m high [1].", fail: bool = False) -> None:
        self.answer, self.fail, self.calls = answer, fail, 0

    def generate_ids(self, ids, max_new_tokens):
        self.calls += 1
        if self.fail:
            raise RuntimeError("out of memory")
        new = [ord(c) for c in self.answer][:max_new_tokens] + [0]
        return self.answer, new, 0.25


def context(gen, **kw) -> ContextStage:
    return build_context(
        "How high is Hallasan?",
        HITS,
        {CHUNK.chunk_id: CHUNK},
        {"d": DOC},
        ContextConfig(**kw),
        tokenizer=gen,
    )


class HashEmbedder:
    """Deterministic toy embedder: hashed character trigrams, L2-normalised; counts encodes."""

    name = "hash"
    passage_prefix = query_prefix = ""
    supports_token_embeddings = False
    truncates = True

    def __init__(
        self, dimension: int = 64, model_id: str = "hash-64", max_tokens: int = 12
    ) -> None:
        self.dimension, self.model_id, self.max_tokens = dimension, model_id, max_tokens
        self.encoded: list[str] = []

    def _vec(self, text: str) -> np.ndarray:
        v = np.zeros(self.dimension, dtype=np.float32)
        t = f"  {text.lower()}  "
        for i in range(len(t) - 2):
            v[sum(map(ord, t[i : i + 3])) * 2654435761 % self.dimension] += 1.0
        return v / max(float(np.linalg.norm(v)), 1e-12)

    def encode_queries(self, texts):
        return (
            np.stack([self._vec(t) for t in texts])
            if texts
            else np.zeros((0, self.dimension), np.float32)
        )

    def encode_passages(self, texts, *, batch_size=32, progress=None):
        self.encoded.extend(texts)
        if progress:
            progress(len(texts), len(texts))
        return self.encode_queries(list(texts))

    def count_tokens(self, texts):
        return [len(t.split()) + 2 for t in texts]


class StreamingGenerator(CharGenerator):
    """Char-level prompts; 'generates' ``answer`` word by word through ``on_text`` (as the real
    generator's streamer does), ``pause`` seconds per word, holding its own model lock while it
    runs (as :meth:`rag_core.models.Generator.generate_ids` does)."""

    file_sha256 = "5" * 64
    takes_logits_processors = True  # it takes on_text; the tests use free citations

    def __init__(self, answer: str = "Hallasan is 1,947 m high [1].", pause: float = 0.0) -> None:
        import threading

        self.answer, self.pause, self.calls, self.words = answer, pause, 0, 0
        self.lock = threading.Lock()

    def generate_ids(self, ids, max_new_tokens, *, logits_processors=(), on_text=None):
        import re
        import time

        self.calls += 1
        with self.lock:
            for word in re.findall(r"\S+\s*", self.answer):
                time.sleep(self.pause)
                self.words += 1
                if on_text is not None:
                    on_text(word)
        return self.answer, [ord(c) for c in self.answer] + [0], 0.01
