"""The generator reads the answer: where each part of the prompt lies in tokens, and what the
model's attention and probabilities say about each claim.

:func:`prompt_layout` renders the prompt the pipeline would send (system text, each context in
its ``<source>`` tag, the question; :mod:`rag_core.answer.prompt`) and finds the token range
of every source's quote and of the question. :func:`read_answer` has the generator read the
answer after it (:meth:`rag_core.models.generators.Generator.read`: one teacher-forced forward
pass, cached on disk). :func:`claim_readings` pools the per-token readings over one claim's
tokens into the numbers the support head reads (:mod:`rag_core.answer.support_head`):

- ``token_x`` ``(tokens, layers·heads + 2)``: per token of the claim, the lookback ratio
  ``Ā_ctx / (Ā_ctx + Ā_new)`` of every head (Chuang et al., 2024; ``Ā`` a mean attention per
  token, the context being every prompt token and "new" the answer so far), then the token's
  log-probability and the entropy it was drawn from — what the head's token probe scores;
- ``source_share`` ``(sources,)``: of the attention the claim's tokens put on source quotes,
  the share on each source (mean over layers, heads and tokens);
- ``logprob_mean``, ``logprob_min``, ``entropy_mean``, ``low_prob``: the model's own
  probability of the claim's tokens (``low_prob``: share of tokens with ``p < 0.1``);
- ``hidden`` ``(kept layers · width,)``: the mean over the claim's tokens of the hidden state
  of the layers :data:`~rag_core.models.readings.HIDDEN_AT` keeps (at the position that
  predicts each token) — what the head's hidden-state probe scores (Azaria and Mitchell, 2023,
  "The Internal State of an LLM Knows When It's Lying", probe a middle layer the same way).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rag_core.answer.prompt import RenderedPrompt, render_prompt
from rag_core.models.generators import Generator, LocalGenerator
from rag_core.models.readings import Readings, Segments
from rag_core.types import ContextStage

#: The question line when an answer has none (a summary, an overview of a record).
NO_QUESTION = "Write about the sources."
#: The system turn an answer from elsewhere is read under. Fixed on purpose, apart from the
#: generation prompt's wording (:mod:`rag_core.answer.prompt`, tuned for answering): the head
#: was fitted on readings taken under exactly this layout (:func:`prompt_layout`).
READ_SYSTEM = (
    "Answer the question from the sources in <source> tags. After each sentence, write the id "
    "of the source it comes from in brackets, like [1]."
)
#: The generator that reads answers: the head was fitted on its readings, whatever model wrote
#: the answer (``rag_core.models`` registry name).
READER = "qwen2.5-coder-0.5b"
#: Environment variable naming another reader, or ``none`` for no readings on this machine (the
#: lexical head: no model load and no extra prompt pass per answer).
READER_ENV = "RAG_INSPECTOR_READER"


def reader_name() -> str | None:
    """The reader's registry name (:data:`READER_ENV`, default :data:`READER`), None for
    ``none``."""
    name = os.environ.get(READER_ENV, "").strip() or READER
    return None if name.lower() == "none" else name


#: A token is improbable below this probability (``low_prob``).
LOW_PROB = 0.1


@dataclass(frozen=True)
class Layout:
    """A rendered prompt in tokens: its ids and where the sources and question lie."""

    prompt: RenderedPrompt
    ids: tuple[int, ...]
    segments: Segments


@dataclass(frozen=True)
class AnswerReading:
    """The readings of one answer and the character span of each of its tokens."""

    readings: Readings
    spans: tuple[tuple[int, int], ...]
    n_sources: int


@dataclass(frozen=True)
class ClaimReading:
    """One claim's readings (module docstring)."""

    token_x: np.ndarray
    #: Each of the claim's tokens as a character span of the answer (rows of ``token_x``).
    spans: tuple[tuple[int, int], ...]
    source_share: np.ndarray
    logprob_mean: float
    logprob_min: float
    entropy_mean: float
    low_prob: float
    tokens: int
    #: Mean hidden state over the claim's tokens, the kept layers flattened (None when the
    #: readings hold none).
    hidden: np.ndarray | None = None


def token_range(offsets: Sequence[tuple[int, int]], start: int, end: int) -> tuple[int, int]:
    """The tokens ``[a, b)`` whose character spans overlap ``[start, end)`` (empty when none)."""
    idx = [i for i, (s, e) in enumerate(offsets) if s < end and e > start]
    return (idx[0], idx[-1] + 1) if idx else (0, 0)


def prompt_layout(tokenizer: Any, question: str, quotes: Sequence[str]) -> Layout:
    """The reading prompt for an answer to ``question`` over ``quotes``: :data:`READ_SYSTEM`,
    then each quote as ``<source id="n">`` (``[n]`` in order) and the question, in the
    generator's chat template; with the token range of each quote and of the question.

    Args:
        tokenizer: The generator (anything with ``prompt_text`` and ``encode_offsets``).
        question: The question ("" becomes :data:`NO_QUESTION`).
        quotes: The sources' texts.
    """
    q = " ".join(question.split()) or NO_QUESTION
    parts, blocks, pos = [], [], 0
    for n, quote in enumerate(quotes, start=1):
        head = f'<source id="{n}">\n'
        parts.append(f"{head}{quote}\n</source>\n")
        blocks.append((pos, pos + len(head), pos + len(head) + len(quote), pos + len(parts[-1])))
        pos += len(parts[-1])
    user = "".join(parts) + "Question: " + q
    prompt = tokenizer.prompt_text(READ_SYSTEM, user)
    off = prompt.rfind(user)
    if off < 0:
        raise ValueError(f"the chat template of {tokenizer.name} rewrote the user text")
    rendered = RenderedPrompt(
        user,
        prompt,
        tuple((off + a, off + b, off + c, off + d) for a, b, c, d in blocks),
        (off + len(user) - len(q), off + len(user)),
    )
    return layout_of(tokenizer, rendered)


def layout_of(tokenizer: Any, rendered: RenderedPrompt) -> Layout:
    """:class:`Layout` of a prompt already rendered (the pipeline's own)."""
    ids, offsets = tokenizer.encode_offsets(rendered.prompt)
    sources = tuple(token_range(offsets, b, c) for _a, b, c, _d in rendered.blocks)
    question = token_range(offsets, *rendered.question)
    return Layout(rendered, tuple(ids), Segments(sources, question, len(ids)))


def generation_layout(
    generator: LocalGenerator, context: ContextStage, question: str
) -> Layout | None:
    """The layout of the prompt the pipeline sends (``context.input_ids``), found by rendering
    it again over the included sources; None when that does not give exactly those ids (a
    hard cut, a cut question, a template that rewrote the text).

    The bundled generator's own answer is read under this layout, by the pass that wrote it
    (:meth:`rag_core.models.generators.Generator.generate_ids` with ``segments``); every
    other answer under :func:`prompt_layout`."""
    included = sorted((s for s in context.sources if s.n is not None), key=lambda s: s.n or 0)
    try:
        rendered = render_prompt(
            generator,
            context.system_text,
            question,
            [(s.title, s.section, s.quote, s.lead) for s in included],
        )
    except ValueError:
        return None
    layout = layout_of(generator, rendered)
    return layout if layout.ids == tuple(context.input_ids) else None


def read_answer(generator: LocalGenerator, layout: Layout, answer: str) -> AnswerReading:
    """The generator's readings of ``answer`` after the prompt of ``layout``.

    Raises:
        ValueError: ``answer`` has no token.
    """
    answer_ids, spans = generator.encode_offsets(answer)
    if not answer_ids:
        raise ValueError("an empty answer has no readings")
    readings = generator.read(list(layout.ids), answer_ids, layout.segments)
    return AnswerReading(readings, tuple((a, b) for a, b in spans), len(layout.segments.sources))


def read_own(generator: Generator, layout: Layout, answer: str) -> AnswerReading:
    """The readings ``generator`` took of ``answer`` while it wrote it from ``layout``'s prompt
    (:meth:`rag_core.models.generators.Generator.own_reading`: its own tokens, no second
    pass), else :func:`read_answer` (one teacher-forced pass)."""
    own = generator.own_reading(layout.ids, answer, layout.segments)
    if own is None:
        return read_answer(generator, layout, answer)
    return AnswerReading(own[0], own[1], len(layout.segments.sources))


def lookback_ratios(r: Readings, n_sources: int) -> np.ndarray:
    """``(tokens, layers, heads)`` lookback ratio per token (module docstring); 1 for a token
    with no answer before it."""
    ctx_mass = r.mass[..., : n_sources + 2].sum(-1)
    new_mass = r.mass[..., n_sources + 2]
    ctx_n = r.counts[:, : n_sources + 2].sum(-1).astype(np.float64)[:, None, None]
    new_n = r.counts[:, n_sources + 2].astype(np.float64)[:, None, None]
    a_ctx = ctx_mass / np.maximum(ctx_n, 1.0)
    a_new = np.where(new_n > 0, new_mass / np.maximum(new_n, 1.0), 0.0)
    return (a_ctx / np.maximum(a_ctx + a_new, 1e-12)).astype(np.float32)


def token_features(r: Readings, n_sources: int) -> np.ndarray:
    """``(tokens, layers·heads + 2)``: each token's lookback ratios, log-probability, entropy."""
    lr = lookback_ratios(r, n_sources).reshape(r.tokens, -1)
    return np.hstack([lr, r.logprob[:, None], r.entropy[:, None]]).astype(np.float32)


def token_feature_names(layers: int, heads: int) -> tuple[str, ...]:
    """The names of :func:`token_features`' columns."""
    heads_ = (f"lookback_L{i}H{j}" for i in range(layers) for j in range(heads))
    return (*heads_, "logprob", "entropy")


def claim_tokens(reading: AnswerReading, start: int, end: int) -> np.ndarray:
    """Indices of the answer tokens inside the claim ``answer[start:end]``."""
    return np.array(
        [i for i, (s, e) in enumerate(reading.spans) if s < end and e > start and e > s],
        dtype=np.int64,
    )


def claim_readings(reading: AnswerReading, start: int, end: int) -> ClaimReading | None:
    """The pooled readings of the claim ``answer[start:end]`` (None when it has no token)."""
    rows = claim_tokens(reading, start, end)
    if rows.size == 0:
        return None
    r, n = reading.readings, reading.n_sources
    src = r.mass[rows][..., :n].astype(np.float64)  # (t, L, H, n)
    total = src.sum(-1, keepdims=True)
    share = np.where(total > 0, src / np.maximum(total, 1e-12), 1.0 / max(n, 1))
    lp = r.logprob[rows]
    return ClaimReading(
        token_x=token_features(r, n)[rows],
        spans=tuple(reading.spans[i] for i in rows),
        source_share=share.mean(axis=(0, 1, 2)) if n else np.zeros(0),
        logprob_mean=float(lp.mean()),
        logprob_min=float(lp.min()),
        entropy_mean=float(r.entropy[rows].mean()),
        low_prob=float((lp < math.log(LOW_PROB)).mean()),
        tokens=int(rows.size),
        hidden=r.hidden[rows].mean(axis=0).reshape(-1) if r.hidden is not None else None,
    )


def read_for(
    reader: LocalGenerator, question: str, quotes: Sequence[str], answer: str
) -> AnswerReading | None:
    """The readings of ``answer`` to ``question`` over ``quotes`` in the reading layout
    (:func:`prompt_layout`), or None when the answer has no token or a quote is empty."""
    if not answer.strip() or not quotes:
        return None
    return read_answer(reader, prompt_layout(reader, question, quotes), answer)
