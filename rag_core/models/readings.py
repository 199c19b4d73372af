"""Readings: what a causal LM attends to while it reads an answer after its prompt.

One teacher-forced forward pass over ``prompt + answer`` (or the model's own generation
pass, :func:`recording`) records, for every answer token ``i`` and every layer ``l`` and
head ``h``, the attention mass that the position *predicting* token ``i`` (the one before
it) puts on each segment of the input: each source's quote, the question, the rest of the
prompt (instructions, template, source tags) and the answer so far. From these sums the
lookback ratio of Lookback Lens (Chuang et al., 2024, "Lookback Lens: Detecting and
Mitigating Contextual Hallucinations in Large Language Models Using Only Attention Maps",
EMNLP) is

    LR(l, h, i) = Ā_ctx / (Ā_ctx + Ā_new),

where ``Ā_ctx`` is the mean attention per context token and ``Ā_new`` the mean per answer
token so far. The pass also records the log-probability the model gives each answer token
and the entropy of its next-token distribution, and the hidden state of a few layers.

The attention is never held whole: a registered attention function
(:data:`READING_ATTENTION`) computes the layer's output with PyTorch's scaled dot-product
attention as usual and, for the answer's rows only, the softmax of ``q·kᵀ/√d`` reduced at
once to the sums per segment — ``(rows, heads, segments)`` numbers per layer, not
``(heads, T, T)``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

#: Name under which the recording attention function is registered with transformers.
READING_ATTENTION = "rag_readings"
#: Decoder layers whose hidden state is kept, as fractions of the depth (middle, two thirds).
HIDDEN_AT = (0.5, 0.67)

_LOCAL = threading.local()
_REGISTER_LOCK = threading.Lock()
_REGISTERED = False


@dataclass(frozen=True)
class Segments:
    """Token ranges ``[start, end)`` of the input a reading sums attention over.

    ``sources`` and ``question`` are ranges inside the prompt; every other prompt token is
    "other"; tokens from ``answer_start`` on are the answer.
    """

    sources: tuple[tuple[int, int], ...]
    question: tuple[int, int]
    answer_start: int

    @property
    def names(self) -> tuple[str, ...]:
        """Segment names in the order of the last axis of :attr:`Readings.mass`."""
        return (
            *(f"source{n}" for n in range(1, len(self.sources) + 1)),
            "question",
            "other",
            "answer",
        )

    def key_segment(self, length: int) -> np.ndarray:
        """The segment index of each of ``length`` key positions (``answer`` from
        ``answer_start`` on)."""
        seg = np.full(length, len(self.sources) + 1, dtype=np.int64)  # other
        for k, (a, b) in enumerate(self.sources):
            seg[a:b] = k
        qa, qb = self.question
        seg[qa:qb] = len(self.sources)
        seg[self.answer_start :] = len(self.sources) + 2
        return seg


@dataclass(frozen=True)
class Readings:
    """Per answer token: attention mass per segment, log-probability, entropy, hidden states.

    Attributes:
        mass: ``(tokens, layers, heads, segments)`` float32, the attention probability the
            predicting position puts on each segment (:attr:`Segments.names`); rows sum to 1.
        counts: ``(tokens, segments)`` int, the key positions each segment had then (the
            answer so far grows by one per token).
        logprob: ``(tokens,)`` natural log of the model's probability of the token.
        entropy: ``(tokens,)`` entropy (nats) of the next-token distribution it came from.
        hidden: ``(tokens, len(HIDDEN_AT), width)`` float32 hidden states, or None.
    """

    mass: np.ndarray
    counts: np.ndarray
    logprob: np.ndarray
    entropy: np.ndarray
    hidden: np.ndarray | None

    @property
    def tokens(self) -> int:
        return int(self.mass.shape[0])

    def prefix(self, n: int) -> Readings:
        """The readings of the first ``n`` tokens (exact: a token's reading depends only on
        what comes before it)."""
        hidden = self.hidden[:n] if self.hidden is not None else None
        return Readings(self.mass[:n], self.counts[:n], self.logprob[:n], self.entropy[:n], hidden)


class _Recorder:
    """Collects the reduced attention of the rows ``[first, first + rows)`` while a pass runs."""

    def __init__(self, segments: Segments, first: int, rows: int, layers: int) -> None:
        self.segments = segments
        self.first = first
        self.rows = rows
        self.mass: list[Any] = [None] * layers
        self.hidden: dict[int, Any] = {}
        self._hot: Any = None  # the last one-hot segment matrix (:meth:`_one_hot`)

    def take(self, layer: int, query: Any, key: Any, scaling: float) -> None:
        """Reduce layer ``layer``'s attention of the recorded rows to sums per segment.

        Row ``r`` at position ``p`` attends to keys ``0..p``, so the keys after the last
        recorded row are never needed and the causal mask only touches the last rows' corner;
        the sums per segment are one product with the keys' one-hot segment matrix.
        """
        import torch

        q_len, k_len = query.shape[2], key.shape[2]
        q_pos0 = k_len - q_len  # absolute position of the first query row
        lo, hi = max(self.first, q_pos0), min(self.first + self.rows, k_len)
        if hi <= lo:
            return
        heads, kv_heads = query.shape[1], key.shape[1]
        rows = hi - lo
        # query heads grouped by the key-value head they share (as repeat_interleave orders them)
        q = query[0, :, lo - q_pos0 : hi - q_pos0].float().reshape(kv_heads, -1, query.shape[3])
        k = key[0, :, :hi].float()  # (KVH, hi, D)
        scores = torch.matmul(q, k.transpose(1, 2)).view(heads, rows, hi).mul_(scaling)
        if rows > 1:  # row r (position lo + r) must not see key lo + 1 + j for j >= r
            corner = torch.ones(rows, rows - 1, dtype=torch.bool).triu_()
            scores[:, :, lo + 1 :].masked_fill_(corner, float("-inf"))
        # softmax, summed per segment: exp(s - max) by segment over its total (every key has one)
        scores.sub_(scores.amax(-1, keepdim=True)).exp_()
        sums = torch.matmul(scores, self._one_hot(hi))  # (H, R, S)
        sums.div_(sums.sum(-1, keepdim=True))
        part = sums.permute(1, 0, 2).numpy()  # (R, H, S)
        prev = self.mass[layer]
        self.mass[layer] = part if prev is None else np.concatenate([prev, part])

    def _one_hot(self, length: int) -> Any:
        """``(length, segments)`` float32: 1 where key ``i`` lies in segment ``s``."""
        import torch

        if self._hot is None or self._hot.shape[0] != length:
            seg = torch.from_numpy(self.segments.key_segment(length))
            self._hot = torch.nn.functional.one_hot(seg, len(self.segments.names)).float()
        return self._hot


def _attention(
    module: Any, query: Any, key: Any, value: Any, attention_mask: Any, **kwargs: Any
) -> tuple[Any, None]:
    """PyTorch SDPA attention, plus the reduction of :class:`_Recorder` when one is active."""
    # lazy: an optional heavy dependency, imported on first use
    from transformers.integrations.sdpa_attention import sdpa_attention_forward

    rec: _Recorder | None = getattr(_LOCAL, "recorder", None)
    if rec is not None:
        scaling = kwargs.get("scaling") or query.shape[-1] ** -0.5
        rec.take(int(module.layer_idx), query, key, float(scaling))
    return sdpa_attention_forward(module, query, key, value, attention_mask, **kwargs)


def _register() -> None:
    global _REGISTERED
    with _REGISTER_LOCK:
        if _REGISTERED:
            return
        # lazy: an optional heavy dependency, imported on first use
        from transformers import AttentionInterface, AttentionMaskInterface
        from transformers.masking_utils import sdpa_mask

        AttentionInterface.register(READING_ATTENTION, _attention)
        AttentionMaskInterface.register(READING_ATTENTION, sdpa_mask)
        _REGISTERED = True


def decoder_layers(model: Any) -> Sequence[Any]:
    """``model.model.layers`` (Llama, Qwen and most transformers causal LMs)."""
    layers = getattr(getattr(model, "model", None), "layers", None)
    if layers is None or not len(layers):
        raise ValueError(f"{type(model).__name__} has no decoder layer list (model.model.layers)")
    return list(layers)


def hidden_layers(n_layers: int) -> tuple[int, ...]:
    """The decoder layers whose output is kept (:data:`HIDDEN_AT` of ``n_layers``)."""
    return tuple(sorted({min(n_layers - 1, int(round(f * n_layers))) for f in HIDDEN_AT}))


@contextmanager
def _recording(model: Any, rec: _Recorder, start: int = 0) -> Iterator[None]:
    """While inside, ``model`` attends through :data:`READING_ATTENTION` into ``rec`` and the
    kept layers' outputs are sliced into ``rec.hidden``; everything is restored on the way
    out. ``start`` is the position of the first input token (the cached prefix's length). The
    caller holds the model's lock (one pass at a time)."""
    _register()
    layers = decoder_layers(model)
    keep = hidden_layers(len(layers))

    def hook(index: int) -> Any:
        def grab(_module: Any, _args: Any, output: Any) -> None:
            h = output[0] if isinstance(output, tuple) else output
            t_len = h.shape[1]
            q_pos0 = _LOCAL.positions - t_len
            lo, hi = max(rec.first, q_pos0), min(rec.first + rec.rows, _LOCAL.positions)
            if hi > lo:
                part = h[0, lo - q_pos0 : hi - q_pos0].float().numpy()
                prev = rec.hidden.get(index)
                rec.hidden[index] = part if prev is None else np.concatenate([prev, part])

        return grab

    def count(_module: Any, args: Any, kwargs: Any) -> None:
        ids = kwargs.get("input_ids", args[0] if args else None)
        _LOCAL.positions = getattr(_LOCAL, "positions", 0) + int(ids.shape[1])

    before = model.config._attn_implementation
    handles = [layers[i].register_forward_hook(hook(i)) for i in keep]
    handles.append(model.register_forward_pre_hook(count, with_kwargs=True))
    _LOCAL.recorder, _LOCAL.positions = rec, start
    model.config._attn_implementation = READING_ATTENTION
    try:
        yield
    finally:
        model.config._attn_implementation = before
        _LOCAL.recorder = None
        for h in handles:
            h.remove()


def _check(prompt_ids: Sequence[int], answer_ids: Sequence[int], segments: Segments) -> None:
    if not prompt_ids or not answer_ids:
        raise ValueError("readings need a non-empty prompt and a non-empty answer")
    if segments.answer_start != len(prompt_ids):
        raise ValueError(
            f"segments.answer_start = {segments.answer_start} must equal the prompt's "
            f"{len(prompt_ids)} tokens"
        )


def read(
    model: Any, prompt_ids: Sequence[int], answer_ids: Sequence[int], segments: Segments
) -> Readings:
    """Teacher-forced readings of ``answer_ids`` after ``prompt_ids`` (one forward pass).

    Args:
        model: A transformers causal LM in eval mode (the caller holds its lock).
        prompt_ids: The prompt as the model receives it.
        answer_ids: The answer's tokens.
        segments: Where the sources and the question lie in ``prompt_ids``
            (``answer_start`` must equal ``len(prompt_ids)``).

    Returns:
        One row per answer token (:class:`Readings`).
    """
    return read_many(model, prompt_ids, [answer_ids], segments)[0]


def read_many(
    model: Any,
    prompt_ids: Sequence[int],
    answers: Sequence[Sequence[int]],
    segments: Segments,
) -> list[Readings]:
    """:func:`read` of several answers to one prompt.

    One answer is read in one pass over ``prompt + answer``. Several answers share the prompt:
    it (all but its last token) is run once into a key-value cache, and each answer continues
    from a copy of it — the same numbers as separate passes, up to rounding (tested).
    """
    import copy

    import torch

    for answer_ids in answers:
        _check(prompt_ids, answer_ids, segments)
    first = len(prompt_ids) - 1
    n_layers = len(decoder_layers(model))
    out_all = []
    with torch.inference_mode():
        cache = None
        if first > 0 and len(answers) > 1:
            cache = model(
                input_ids=torch.tensor([list(prompt_ids[:first])]),
                use_cache=True,
                logits_to_keep=1,
            ).past_key_values
        for j, answer_ids in enumerate(answers):
            rec = _Recorder(segments, first, len(answer_ids), n_layers)
            if cache is None:  # one pass over prompt + answer
                ids, start, past = [*prompt_ids, *answer_ids], 0, None
            else:  # the last answer may grow the cache itself; the others take a copy
                ids, start = [prompt_ids[first], *answer_ids], first
                past = cache if j == len(answers) - 1 else copy.deepcopy(cache)
            with _recording(model, rec, start=start):
                out = model(
                    input_ids=torch.tensor([ids]),
                    cache=past,
                    use_cache=past is not None,
                    logits_to_keep=len(answer_ids) + 1,
                )
            length = first + 1 + len(answer_ids)
            out_all.append(_finish(rec, length, out.logits[0, :-1], answer_ids))
    return out_all


@contextmanager
def recording(model: Any, prompt_len: int, rows: int, segments: Segments) -> Iterator[_Recorder]:
    """While inside, every forward pass of ``model`` from position 0 on — a whole
    ``generate`` call: the prompt's pass, then one pass per new token — records the readings of
    the first ``rows`` new tokens, so the model's own answer is read by the pass that wrote it
    (:func:`from_generation`) instead of a second one. The caller holds the model's lock.

    Raises:
        ValueError: ``segments.answer_start`` is not ``prompt_len``.
    """
    if segments.answer_start != prompt_len or prompt_len < 1 or rows < 1:
        raise ValueError(
            f"segments.answer_start = {segments.answer_start} must equal the prompt's "
            f"{prompt_len} tokens (and rows = {rows} must be >= 1)"
        )
    rec = _Recorder(segments, prompt_len - 1, rows, len(decoder_layers(model)))
    with _recording(model, rec, start=0):
        yield rec


def from_generation(rec: _Recorder, new_ids: Sequence[int], logits: Sequence[Any]) -> Readings:
    """The :class:`Readings` of the ``new_ids`` a recorded generation made (:func:`recording`),
    with ``logits`` the raw scores of each step (``Generator``'s ``RawScores``); the same
    numbers as :func:`read` of those ids after the prompt, up to rounding (tested)."""
    import torch

    n = len(new_ids)
    got = {int(m.shape[0]) for m in rec.mass if m is not None}
    if n < 1 or got != {n}:
        raise ValueError(f"the recording holds {sorted(got)} rows for {n} new tokens")
    rec.rows = n
    rec.hidden = {i: h[:n] for i, h in rec.hidden.items()}
    steps = torch.cat([s[:1].float() for s in logits[:n]])  # (n, vocab)
    return _finish(rec, rec.first + 1 + n, steps, new_ids)


def _finish(rec: _Recorder, length: int, logits: Any, answer_ids: Sequence[int]) -> Readings:
    """Log-probabilities and entropies from ``logits`` (row ``r`` predicts answer token ``r``),
    stacked with what ``rec`` collected."""
    import torch

    x = logits.float()
    lse = torch.logsumexp(x, dim=-1)  # log Σ exp x
    target = torch.tensor(list(answer_ids)).unsqueeze(1)
    logprob = (x.gather(1, target).squeeze(1) - lse).numpy()
    # H = -Σ p log p = lse - Σ p x, with p = exp(x - lse)
    entropy = (lse - torch.linalg.vecdot((x - lse.unsqueeze(1)).exp_(), x)).numpy()
    return _readings(rec, length, logprob, entropy)


def _readings(rec: _Recorder, length: int, logprob: np.ndarray, entropy: np.ndarray) -> Readings:
    """Stack what ``rec`` collected into :class:`Readings`."""
    mass = np.stack(rec.mass, axis=1).astype(np.float32)  # (R, L, H, S)
    seg = rec.segments.key_segment(length)
    n_seg = len(rec.segments.names)
    counts = np.zeros((rec.rows, n_seg), dtype=np.int64)
    for r in range(rec.rows):
        counts[r] = np.bincount(seg[: rec.first + r + 1], minlength=n_seg)
    hidden = (
        np.stack([rec.hidden[i] for i in sorted(rec.hidden)], axis=1).astype(np.float32)
        if rec.hidden
        else None
    )
    return Readings(mass, counts, logprob.astype(np.float32), entropy.astype(np.float32), hidden)


# ------------------------------------------------------------------ disk cache

#: Bump when what a reading records changes (old files are then never read).
READINGS_VERSION = 1


def cache_key(
    model_key: str, prompt_ids: Sequence[int], answer_ids: Sequence[int], segments: Segments
) -> str:
    """sha256 naming one reading: model (id, weights, dtype), version, ids and segments."""
    import hashlib
    import json

    blob = json.dumps(
        [
            model_key,
            READINGS_VERSION,
            list(prompt_ids),
            list(answer_ids),
            [list(s) for s in segments.sources],
            list(segments.question),
            segments.answer_start,
        ],
        separators=(",", ":"),
    )
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def own_key(model_key: str, prompt_ids: Sequence[int], answer: str, segments: Segments) -> str:
    """sha256 naming a generation's reading of its own answer, by the answer's *text*: the ids
    a model generates need not be the ids its text encodes to ("Hall"+"asan" against
    "H"+"alla"+"san"), so a later lookup knows only the text."""
    return cache_key(f"{model_key}|own|{answer}", prompt_ids, (), segments)


def cache_path(key: str) -> Any:
    """``<cache>/readings/<key[:2]>/<key>.npz``."""
    from ._files import cache_root

    return cache_root() / "readings" / key[:2] / f"{key}.npz"


def load_cached(key: str) -> Readings | None:
    """The stored reading named ``key``, or None (absent or unreadable)."""
    path = cache_path(key)
    if not path.is_file():
        return None
    try:
        with np.load(path) as z:
            hidden = z["hidden"].astype(np.float32) if z["hidden"].size else None
            return Readings(
                z["mass"].astype(np.float32), z["counts"], z["logprob"], z["entropy"], hidden
            )
    except (OSError, ValueError, KeyError):
        return None


def load_own(key: str) -> tuple[Readings, tuple[tuple[int, int], ...]] | None:
    """A generation's stored reading of its own answer (:func:`own_key`) and each token's
    character span in that answer, or None."""
    r = load_cached(key)
    if r is None:
        return None
    try:
        with np.load(cache_path(key)) as z:
            spans = tuple((int(a), int(b)) for a, b in z["spans"].reshape(-1, 2))
    except (OSError, ValueError, KeyError):
        return None
    return (r, spans) if len(spans) == r.tokens else None


def store(key: str, r: Readings, spans: Sequence[tuple[int, int]] | None = None) -> None:
    """Write ``r`` under ``key`` (float16 attention and hidden states; atomic), with each
    token's character span when given (:func:`load_own`)."""
    import io

    from ._files import atomic_write_bytes

    buf = io.BytesIO()
    hidden = r.hidden if r.hidden is not None else np.zeros((0,), dtype=np.float32)
    np.savez_compressed(
        buf,
        mass=r.mass.astype(np.float16),
        counts=r.counts.astype(np.int32),
        logprob=r.logprob,
        entropy=r.entropy,
        hidden=hidden.astype(np.float16),
        spans=np.asarray(list(spans or ()), dtype=np.int32).reshape(-1, 2),
    )
    path = cache_path(key)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, buf.getvalue())
