"""Generators: a causal LM behind one small interface, greedy and token-exact.

:class:`Generator` wraps a transformers ``AutoModelForCausalLM`` and its
tokenizer. The prompt is the tokenizer's own chat template rendered as text
(system + user turn, generation prompt appended) and then tokenised without
extra special tokens — exactly what ``apply_chat_template(tokenize=True)``
does — so the context stage can count, cut and decode the very ids the
model receives. :class:`FallbackPromptTokenizer` offers the same counting
interface over another tokenizer (the MiniLM word pieces) when no generator
is loaded; its ``name`` says so, and it can never generate.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, runtime_checkable

from . import readings
from .errors import Cancelled
from .timing import FirstTokenClock

#: Used when a tokenizer has no chat template (plain-text turns).
PLAIN_TEMPLATE = "### System\n{system}\n\n### User\n{user}\n\n### Assistant\n"

YES_WORDS = ("yes", "Yes", "YES", " yes", " Yes", " YES")
NO_WORDS = ("no", "No", "NO", " no", " No", " NO")


@runtime_checkable
class PromptTokenizer(Protocol):
    """Renders and tokenises a two-turn prompt; what the context stage measures with."""

    name: str
    is_fallback: bool

    def prompt_text(self, system: str, user: str) -> str: ...

    def encode(self, text: str) -> list[int]: ...

    def encode_offsets(self, text: str) -> tuple[list[int], list[tuple[int, int]]]: ...

    def decode(self, ids: Sequence[int], *, skip_special_tokens: bool = False) -> str: ...


class TextGenerator(PromptTokenizer, Protocol):
    """What the answer path asks of every generator — the local :class:`Generator`, an
    ``openai:MODEL`` endpoint's ``EndpointGenerator``, the tests' fakes: its prompt tokenizer,
    the ids that key its caches, and the judge's ``P(yes)``."""

    @property
    def model_id(self) -> str: ...

    @property
    def file_sha256(self) -> str | None: ...

    @property
    def dtype(self) -> str | None:
        """What it computes in (``float32``, ``bfloat16``); None: it does not say (a server)."""

    @property
    def exact(self) -> bool:
        """Does the context count the very ids it is given (its tokenizer is known)?"""

    @property
    def template_label(self) -> str: ...

    def p_yes(self, system: str, user: str) -> float:
        """``P(yes)`` of the reply to one ``system``/``user`` turn (the judge's question)."""


class LocalGenerator(TextGenerator, Protocol):
    """An in-process generator (:class:`Generator`, the tests' fakes): greedy decoding from
    exactly the given ids, and what that decoding takes."""

    @property
    def tokenizer(self) -> Any:
        """Its Hugging Face tokenizer (what enforced citations classify)."""

    @property
    def eos_ids(self) -> Sequence[int]: ...

    @property
    def takes_logits_processors(self) -> bool:
        """Does :meth:`generate_ids` apply ``logits_processors`` (and stream ``on_text``)?"""

    @property
    def measures_first_token(self) -> bool:
        """Does :meth:`generate_ids` fill a ``timing`` dict (prefill and decode seconds)?"""

    @property
    def takes_cancelled(self) -> bool:
        """Does :meth:`generate_ids` ask ``cancelled()`` while it runs?"""

    def generate_ids(
        self,
        ids: Sequence[int],
        max_new_tokens: int,
        *,
        logits_processors: Sequence[Any] = (),
        on_text: Any = None,
        timing: dict[str, float] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> tuple[str, list[int], float]: ...

    def prompt_ids(self, system: str, user: str) -> list[int]: ...

    def yes_probability(self, ids: Sequence[int]) -> float: ...

    def read(self, prompt_ids: Sequence[int], answer_ids: Sequence[int], segments: Any) -> Any:
        """What it attends to while reading an answer (``rag_core.models.readings``)."""

    def read_many(
        self, prompt_ids: Sequence[int], answers: Sequence[Sequence[int]], segments: Any
    ) -> list[Any]: ...


class _TokenizerMixin:
    """Shared tokenising code over a Hugging Face fast tokenizer ``self.tokenizer``.

    Tokenizer calls hold ``_tok_lock``, not the model's lock: a session can build and measure
    its prompt while another session's generation runs (and is being cancelled).
    """

    tokenizer: Any
    chat_template: str | None
    _tok_lock: threading.RLock

    def prompt_text(self, system: str, user: str) -> str:
        """The full prompt as text: chat template over a system and a user turn + generation
        prompt."""
        if self.chat_template is None:
            return PLAIN_TEMPLATE.format(system=system, user=user)
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        with self._tok_lock:
            return self.tokenizer.apply_chat_template(
                messages, tokenize=False, add_generation_prompt=True
            )

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text`` with no special tokens added (the template has them)."""
        with self._tok_lock:
            return list(self.tokenizer(text, add_special_tokens=False, verbose=False)["input_ids"])

    def encode_offsets(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        """Token ids and each token's ``(start, end)`` character span in ``text``."""
        with self._tok_lock:
            enc = self.tokenizer(
                text, add_special_tokens=False, return_offsets_mapping=True, verbose=False
            )
        return list(enc["input_ids"]), [tuple(o) for o in enc["offset_mapping"]]

    def prompt_ids(self, system: str, user: str) -> list[int]:
        """Ids of :meth:`prompt_text` — what the model is given."""
        return self.encode(self.prompt_text(system, user))

    def decode(self, ids: Sequence[int], *, skip_special_tokens: bool = False) -> str:
        """Text of ``ids``; template markers kept unless ``skip_special_tokens``."""
        with self._tok_lock:
            return self.tokenizer.decode(list(ids), skip_special_tokens=skip_special_tokens)


class RawScores:
    """A logits processor that changes nothing and keeps a copy of each step's scores as the
    model gave them (later processors, such as the enforced-citation grammar, may change the
    scores in place; ``generate(output_logits=True)`` would then keep the changed ones)."""

    def __init__(self) -> None:
        self.steps: list[Any] = []

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        self.steps.append(scores[:1].float().clone())
        return scores


def CallbackStreamer(tokenizer: Any, on_text: Any) -> Any:
    """A transformers ``TextStreamer`` that hands each finished piece of text to ``on_text``.

    ``TextStreamer`` decodes the new tokens and releases text at word
    boundaries (so multi-byte characters are never split); the prompt is skipped.
    """
    # lazy: an optional heavy dependency, imported on first use
    from transformers import TextStreamer

    class CallbackStreamer(TextStreamer):
        def on_finalized_text(self, text: str, stream_end: bool = False) -> None:
            if text:
                on_text(text)

    return CallbackStreamer(tokenizer, skip_prompt=True, skip_special_tokens=True)


class FallbackPromptTokenizer(_TokenizerMixin):
    """Counts prompt tokens with another model's tokenizer when no generator is loaded.

    The template is :data:`PLAIN_TEMPLATE`; counts are an estimate for the
    real generator and :attr:`name` says which tokenizer produced them.
    """

    is_fallback = True

    def __init__(self, tokenizer: Any, label: str) -> None:
        self.tokenizer = tokenizer
        self.chat_template = None
        self.name = f"{label} (fallback)"
        self._tok_lock = threading.RLock()


class Generator(_TokenizerMixin):
    """A local causal LM: chat-template prompts, greedy generation, yes/no probability.

    Args:
        name: Registry name or the hub id / path given.
        model: A loaded ``AutoModelForCausalLM`` (eval mode, CPU).
        tokenizer: Its fast tokenizer.
        model_id: Stable id for traces and cache keys.
        file_sha256: sha256 of the weights file it came from (the GGUF for
            the bundled models), or None when unknown.
        dtype: What the model computes in (``float32`` or ``bfloat16``;
            ``rag_core.models.dtype``), part of every generation's cache key.
    """

    is_fallback = False
    exact = True
    #: ``generate_ids`` applies ``logits_processors`` (a local transformers model can
    #: constrain its decoding; a remote one could not).
    takes_logits_processors = True
    #: ``generate_ids`` fills a ``timing`` dict (prefill and decode seconds).
    measures_first_token = True
    #: ``generate_ids`` asks ``cancelled()`` between the model's layers (:func:`interruptible`).
    takes_cancelled = True

    def __init__(
        self,
        name: str,
        model: Any,
        tokenizer: Any,
        model_id: str,
        file_sha256: str | None,
        *,
        load_seconds: float | None = None,
        dtype: str = "float32",
    ) -> None:
        self.name = name
        self.dtype = dtype
        self.model = model
        self.tokenizer = tokenizer
        self.model_id = model_id
        self.file_sha256 = file_sha256
        self.load_seconds = load_seconds
        self.chat_template = getattr(tokenizer, "chat_template", None) or None
        self._lock = threading.RLock()  # the model: one forward pass at a time
        self._tok_lock = threading.RLock()  # the tokenizer (see _TokenizerMixin)
        self.eos_ids = self._eos_ids()
        self.pad_id = (
            tokenizer.pad_token_id if tokenizer.pad_token_id is not None else self.eos_ids[0]
        )
        self.yes_ids = self._single_token_ids(YES_WORDS)
        self.no_ids = self._single_token_ids(NO_WORDS)

    @property
    def template_label(self) -> str:
        return (
            "chat template" if self.chat_template else "plain template (model has no chat template)"
        )

    def _eos_ids(self) -> list[int]:
        """End ids: the tokenizer's eos, the generation config's, and the special chat-turn ends."""
        ids: list[int] = []

        def add(i: Any) -> None:
            if i is not None and int(i) not in ids:
                ids.append(int(i))

        add(self.tokenizer.eos_token_id)
        cfg_eos = getattr(getattr(self.model, "generation_config", None), "eos_token_id", None)
        for e in cfg_eos if isinstance(cfg_eos, list) else [cfg_eos]:
            add(e)
        specials = {
            str(t): int(i) for i, t in getattr(self.tokenizer, "added_tokens_decoder", {}).items()
        }
        for tok in ("<|im_end|>", "<|endoftext|>", "<|eot_id|>"):
            add(specials.get(tok))
        if not ids:
            raise ValueError(f"{self.name}: the tokenizer defines no end-of-sequence token")
        return ids

    def _single_token_ids(self, words: Sequence[str]) -> tuple[int, ...]:
        out = []
        for w in words:
            ids = self.tokenizer(w, add_special_tokens=False)["input_ids"]
            if len(ids) == 1 and ids[0] not in out:
                out.append(int(ids[0]))
        return tuple(out)

    def generate_ids(
        self,
        ids: Sequence[int],
        max_new_tokens: int,
        *,
        logits_processors: Sequence[Any] = (),
        on_text: Any = None,
        timing: dict[str, float] | None = None,
        cancelled: Callable[[], bool] | None = None,
        segments: readings.Segments | None = None,
    ) -> tuple[str, list[int], float]:
        """Greedy decoding from exactly ``ids``.

        Args:
            ids: The prompt ids.
            max_new_tokens: Generation limit.
            logits_processors: transformers ``LogitsProcessor``s applied at every
                step (e.g. the enforced-citation grammar of ``rag_core.answer.citations``).
            on_text: ``on_text(piece)`` receives the answer's text as it is
                generated (transformers' ``TextStreamer`` protocol, word by word).
            timing: When given, receives ``prefill_seconds`` (from the call to
                the first new token: the prompt's forward pass and its greedy
                pick) and ``decode_seconds`` (the remaining tokens), measured
                by :class:`rag_core.models.timing.FirstTokenClock`.
            cancelled: Asked before each decoder layer runs, in the prompt's forward pass
                and at every new token (:func:`interruptible`); once it is true the call
                raises :class:`~rag_core.models.errors.Cancelled` within a layer's time.
            segments: Where the sources and the question lie in ``ids``: the pass that writes
                the answer also reads it (:func:`rag_core.models.readings.recording`), and
                the readings are stored where :meth:`own_reading` of the answer's text finds
                them (:meth:`_keep_reading`), so the support check needs no second pass.

        Returns:
            ``(text, new_ids, seconds)``: the new tokens decoded without
            special tokens, the new ids (an end token included when the model
            stopped by itself), and the wall time of ``model.generate`` alone.
        """
        # lazy: an optional heavy dependency, imported on first use
        import torch

        if not ids:
            raise ValueError("cannot generate from an empty prompt (0 input ids)")
        if type(max_new_tokens) is not int or max_new_tokens < 1:  # a bool is no count
            raise ValueError(f"max_new_tokens = {max_new_tokens!r} must be an integer >= 1")
        input_ids = torch.tensor([list(ids)], dtype=torch.long)
        mask = torch.ones_like(input_ids)
        # RawScores first, so it sees each step's scores before any processor changes them
        raw = RawScores() if segments is not None else None
        processors = [*([raw] if raw is not None else []), *logits_processors]
        extra, clock = self._hooks(processors, on_text, timing)
        with (
            self._lock,
            torch.inference_mode(),
            interruptible(self.model, cancelled),
            self._reading(len(ids), max_new_tokens, segments) as rec,
        ):
            t0 = time.perf_counter()
            if clock is not None:
                clock.start(t0)
            out = self.model.generate(
                input_ids=input_ids,
                attention_mask=mask,
                max_new_tokens=max_new_tokens,
                do_sample=False,
                temperature=None,
                top_p=None,
                top_k=None,
                eos_token_id=self.eos_ids,
                pad_token_id=self.pad_id,
                **extra,
            )
            seconds = time.perf_counter() - t0
        if clock is not None and timing is not None:
            timing.update(clock.split(t0 + seconds))
        new_ids = [int(i) for i in out[0, input_ids.shape[1] :].tolist()]
        text = self.decode(new_ids, skip_special_tokens=True).strip()
        if rec is not None and raw is not None and segments is not None and new_ids:
            reading = readings.from_generation(rec, new_ids, raw.steps)
            self._keep_reading(list(ids), new_ids, text, reading, segments)
        return text, new_ids, seconds

    def _hooks(
        self, processors: Sequence[Any], on_text: Any, timing: dict[str, float] | None
    ) -> tuple[dict[str, Any], FirstTokenClock | None]:
        """``model.generate``'s extra arguments for :meth:`generate_ids`: the logits
        processors, and the streamer (the text streamer, behind the first-token clock when
        ``timing`` is asked for); and that clock."""
        extra: dict[str, Any] = {}
        if processors:
            from transformers import LogitsProcessorList  # heavy, optional: loaded on use

            extra["logits_processor"] = LogitsProcessorList(processors)
        text_streamer = CallbackStreamer(self.tokenizer, on_text) if on_text is not None else None
        clock = FirstTokenClock(text_streamer) if timing is not None else None
        if clock is not None or text_streamer is not None:
            extra["streamer"] = clock if clock is not None else text_streamer
        return extra, clock

    @contextmanager
    def _reading(
        self, prompt_len: int, rows: int, segments: readings.Segments | None
    ) -> Iterator[Any]:
        """:func:`rag_core.models.readings.recording` when ``segments`` are given, else
        nothing (yields None)."""
        if segments is None:
            yield None
            return
        with readings.recording(self.model, prompt_len, rows, segments) as rec:
            yield rec

    @property
    def _model_key(self) -> str:
        """What names this model in the readings cache (id, weights, dtype)."""
        return f"{self.model_id}|{self.file_sha256}|{self.dtype}"

    def _keep_reading(
        self,
        prompt_ids: list[int],
        new_ids: list[int],
        answer: str,
        reading: readings.Readings,
        segments: readings.Segments,
    ) -> bool:
        """Store the generation's own ``reading`` of ``answer`` (the text of ``new_ids``) with
        each token's span in it, where :meth:`own_reading` finds it; False when the spans
        cannot be placed (the decoded text is not the answer)."""
        spans = self.token_spans(new_ids, answer)
        if spans is None:
            return False
        key = readings.own_key(self._model_key, prompt_ids, answer, segments)
        readings.store(key, reading, spans)
        return True

    def own_reading(
        self, prompt_ids: Sequence[int], answer: str, segments: readings.Segments
    ) -> tuple[readings.Readings, tuple[tuple[int, int], ...]] | None:
        """The reading a generation from ``prompt_ids`` took of its own ``answer`` (stored by
        :meth:`generate_ids` with ``segments``) and its tokens' spans, or None."""
        return readings.load_own(readings.own_key(self._model_key, prompt_ids, answer, segments))

    def token_spans(self, ids: Sequence[int], text: str) -> list[tuple[int, int]] | None:
        """Each of ``ids``' character span in ``text`` — ``ids`` decoded without special tokens
        and stripped, as :meth:`generate_ids` returns its answer — found by decoding every
        prefix (a token ending inside a character, shown as U+FFFD, gets an empty span and
        the next token the character; a special token an empty span); None when the decoded
        ids are not ``text``."""
        ends = []
        for k in range(1, len(ids) + 1):
            part = self.decode(ids[:k], skip_special_tokens=True)
            ends.append(len(part.rstrip("\ufffd")))
        full = self.decode(ids, skip_special_tokens=True)
        if full.strip() != text:
            return None
        lead = len(full) - len(full.lstrip())
        spans, start = [], 0
        for end in ends:
            end = max(start, end)
            spans.append((min(max(start - lead, 0), len(text)), min(max(end - lead, 0), len(text))))
            start = end
        return spans

    def next_token_probs(self, ids: Sequence[int]) -> Any:
        """Softmax of the next-token logits after ``ids`` (a 1-D torch tensor)."""
        # lazy: an optional heavy dependency, imported on first use
        import torch

        if not ids:
            raise ValueError("cannot score an empty prompt (0 input ids)")
        input_ids = torch.tensor([list(ids)], dtype=torch.long)
        with self._lock, torch.inference_mode():
            logits = self.model(input_ids=input_ids).logits[0, -1].float()
        return torch.softmax(logits, dim=-1)

    def yes_probability(self, ids: Sequence[int]) -> float:
        """``P(yes) = Σ p(y) / (Σ p(y) + Σ p(n))`` over single-token spellings of yes/no.

        The sums run over :data:`YES_WORDS`/:data:`NO_WORDS` that are one
        token in this vocabulary; the probabilities are the next-token softmax
        after ``ids`` (the prompt should end with the assistant turn opened).
        """
        if not self.yes_ids or not self.no_ids:
            raise ValueError(f"{self.name}: 'yes'/'no' are not single tokens in this vocabulary")
        probs = self.next_token_probs(ids)
        p_yes = float(probs[list(self.yes_ids)].sum())
        p_no = float(probs[list(self.no_ids)].sum())
        total = p_yes + p_no
        return p_yes / total if total > 0 else 0.5

    def read(self, prompt_ids: Sequence[int], answer_ids: Sequence[int], segments: Any) -> Any:
        """What the model attends to while reading ``answer_ids`` after ``prompt_ids``
        (:func:`rag_core.models.readings.read`, one forward pass), from the disk cache when
        the same model already read the same ids."""
        return self.read_many(prompt_ids, [answer_ids], segments)[0]

    def read_many(
        self, prompt_ids: Sequence[int], answers: Sequence[Sequence[int]], segments: Any
    ) -> list[Any]:
        """:meth:`read` of several answers to one prompt, the prompt run once
        (:func:`rag_core.models.readings.read_many`); each reading cached on disk."""
        keys = [readings.cache_key(self._model_key, prompt_ids, a, segments) for a in answers]
        got = [readings.load_cached(k) for k in keys]
        todo = [i for i, r in enumerate(got) if r is None]
        if todo:
            with self._lock:
                fresh = readings.read_many(
                    self.model, prompt_ids, [answers[i] for i in todo], segments
                )
            for i, r in zip(todo, fresh, strict=True):
                readings.store(keys[i], r)
                got[i] = r
        return got

    def p_yes(self, system: str, user: str) -> float:
        """``P(yes)`` of the reply to one ``system``/``user`` turn (:meth:`yes_probability` of
        :meth:`prompt_ids`): the judge interface ``rag_core.answer.support`` calls."""
        return self.yes_probability(self.prompt_ids(system, user))


def _decoder_layers(model: Any) -> Sequence[Any]:
    """The decoder blocks of a transformers causal LM (``model.model.layers`` for Llama, Qwen
    and most others); the whole model when it has no such list."""
    layers = getattr(getattr(model, "model", None), "layers", None)
    return list(layers) if layers is not None and len(layers) else [model]


@contextmanager
def interruptible(model: Any, cancelled: Callable[[], bool] | None) -> Iterator[None]:
    """While inside, a forward pre-hook on each decoder layer raises
    :class:`~rag_core.models.errors.Cancelled` once ``cancelled()`` is true.

    A prompt's forward pass is one call of several seconds on a CPU; checking between its
    layers (24 for Qwen2.5-0.5B) ends it within one layer's time. The hooks only read a
    flag — the arithmetic is untouched, so a generation that is not cancelled is the same,
    bit for bit, as one without them. They are removed on the way out, whatever happens.
    """
    if cancelled is None:
        yield
        return

    def check(_module: Any, _args: Any) -> None:
        if cancelled():
            raise Cancelled

    handles = [layer.register_forward_pre_hook(check) for layer in _decoder_layers(model)]
    try:
        yield
    finally:
        for handle in handles:
            handle.remove()
