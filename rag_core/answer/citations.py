"""Citations by construction: a logits processor that makes every sentence end with ``[n]``.

With ``generation.citations = enforced`` decoding is constrained so that the
answer is either exactly :data:`rag_core.answer.prompt.REFUSAL_TEXT` or a run of
sentences, each closed by one or more citations ``[n]`` where ``n`` is the
number of a source actually sent. The grammar, over the decoded text::

    answer   := REFUSAL | sentence+
    sentence := text cite{1,3} end?   (the cites of one sentence name distinct sources)
    cite     := "[" n "]"          (n ∈ the sources sent)
    text     := characters without "[" / "]" and without a sentence end
    end      := a sentence end (". ! ? 。 ！ ？" then space/end, or a newline)

The model keeps choosing greedily *inside* the grammar: while it writes
text nothing changes (when its own best token, brackets included, opens a
citation, it may cite there); when its best token would end the sentence (a
sentence end, the end-of-sequence token) before the sentence carries a
citation, only the citation-opening tokens stay allowed; inside a citation
only the digits of valid source numbers not yet cited in this sentence and
``]`` stay allowed, and the model picks *which* number by its own scores; after
:data:`MAX_CITES` citations (or once every source is cited) the sentence must end.
So a citation is the model's attribution, and the support check still judges it (a
wrong ``n`` becomes ``supported-elsewhere`` or ``unsupported``). This is the masking approach of
grammar-constrained decoding (Geng et al. 2023, "Grammar-Constrained
Decoding for Structured NLP Tasks without Finetuning",
https://arxiv.org/abs/2305.13971) written as a transformers
``LogitsProcessor`` (https://huggingface.co/docs/transformers/internal/generation_utils).

The state is re-read from the decoded text at every step (no hidden state),
so the rules above are the whole behaviour. Near ``max_new_tokens`` an open
sentence is closed with a citation while there is room for one; the processor
records that it did (:attr:`CitationLogitsProcessor.cut`: the length cap, not the
model, ended the answer), and the generation stage says the answer was cut off.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from rag_core.config import CITATION_MODES
from rag_core.models.generators import LocalGenerator

from .prompt import REFUSAL_TEXT

__all__ = [
    "CITATION_MODES",
    "CitationLogitsProcessor",
    "CitationVocab",
    "MAX_CITES",
    "allowed_ids",
    "citation_processor",
    "citation_vocab",
    "read_state",
    "run_citations",
]
#: Version of the rules below; part of the generation cache key of enforced answers,
#: so a change of the rules never replays answers decoded under the old ones.
#: 3: at most :data:`MAX_CITES` distinct sources per sentence, none twice.
GRAMMAR_VERSION = 3
#: The most citations one sentence may carry (each a different source).
MAX_CITES = 3

#: A sentence end, as :func:`rag_core.text.sentence_spans` reads one.
_END = re.compile(r"[.!?。！？]+[\"'”’)]*(?=\s|$)|\n")
_OPEN_CITE = re.compile(r"\[(\d*)$")
#: The run of citations a text ends with (the current sentence's, separated by spaces).
_CITE_RUN = re.compile(r"(?:\[\d+\][ \t]*)+$")


def run_citations(text: str) -> tuple[str, ...]:
    """The source numbers of the citation run ``text`` ends with, in order ("… big [2] [1"
    without its open citation: ``("2",)``); empty when it ends in plain text."""
    m = _CITE_RUN.search(text)
    return tuple(re.findall(r"\[(\d+)\]", m.group(0))) if m else ()


@dataclass(frozen=True)
class CitationVocab:
    """Token ids by the role their text can play in the grammar.

    Attributes:
        size: Number of ids covered (``len(pieces)``).
        open_ids: Tokens whose text is ``[`` after optional spaces (open a citation).
        close_ids: Tokens whose text is exactly ``]``.
        digit_ids: ``{id: digits}`` for tokens made of ASCII digits only.
        bracket_ids: Every token holding ``[`` or ``]`` (never free text).
        end_ids: Tokens without brackets holding a sentence-end character.
        eos_ids: End-of-sequence ids.
    """

    size: int
    open_ids: frozenset[int]
    close_ids: frozenset[int]
    digit_ids: dict[int, str]
    bracket_ids: frozenset[int]
    end_ids: frozenset[int]
    eos_ids: frozenset[int]
    pieces: tuple[str, ...]

    @classmethod
    def from_pieces(cls, pieces: Sequence[str], eos_ids: Collection[int]) -> CitationVocab:
        """Classify each token's decoded text ``pieces[i]``."""
        opens, closes, brackets, ends = set(), set(), set(), set()
        digits: dict[int, str] = {}
        eos = {int(e) for e in eos_ids}
        for i, p in enumerate(pieces):
            if i in eos:
                continue
            if "[" in p or "]" in p:
                brackets.add(i)
                if p.strip(" ") == "[":
                    opens.add(i)
                elif p == "]":
                    closes.add(i)
            elif p.isascii() and p.isdigit():
                digits[i] = p
            elif _END.search(p):
                ends.add(i)
        if not opens or not closes:
            raise ValueError(
                "this vocabulary has no '[' or ']' token; citations cannot be enforced"
            )
        if not any(len(d) == 1 for d in digits.values()):
            raise ValueError(
                "this vocabulary has no single-digit tokens; citations cannot be enforced"
            )
        return cls(
            len(pieces),
            frozenset(opens),
            frozenset(closes),
            digits,
            frozenset(brackets),
            frozenset(ends),
            frozenset(eos),
            tuple(pieces),
        )

    @classmethod
    def from_tokenizer(cls, tokenizer: Any, eos_ids: Collection[int]) -> CitationVocab:
        """Decode every id of a Hugging Face tokenizer on its own.

        A fast tokenizer without clean-up decodes in its Rust backend: the same strings as
        ``batch_decode`` without its per-id Python conversion (0.17 s against 1.5 s for
        Qwen2.5's 151,936 ids)."""
        ids = [[i] for i in range(len(tokenizer))]
        backend = getattr(tokenizer, "backend_tokenizer", None)  # transformers' fast tokenizers
        if backend is not None and not getattr(tokenizer, "clean_up_tokenization_spaces", True):
            pieces = backend.decode_batch(ids, skip_special_tokens=False)
        else:
            pieces = tokenizer.batch_decode(ids, skip_special_tokens=False)
        return cls.from_pieces(pieces, eos_ids)


@dataclass(frozen=True)
class Step:
    """Where the decoded text stands in the grammar.

    ``mode``: ``done`` (the refusal is complete), ``cite`` (inside ``[…``,
    ``digits`` typed so far), ``after`` (right after ``]``) or ``text``.
    ``content``: the current sentence holds text (``text`` mode).
    ``refusal``: the text so far is a prefix of the refusal sentence.
    """

    mode: str
    digits: str = ""
    content: bool = False
    refusal: bool = False


def read_state(text: str, refusal: str = REFUSAL_TEXT) -> Step:
    """The grammar state after ``text`` (see the module docstring)."""
    stripped = text.strip()
    if stripped == refusal:
        return Step("done")
    m = _OPEN_CITE.search(text)
    if m:
        return Step("cite", digits=m.group(1))
    if text.endswith("]"):
        return Step("after")
    last = 0
    for e in _END.finditer(text):
        pending = (
            e.end() == len(text)
            and e.group(0) == "."
            and e.start() > 0
            and text[e.start() - 1].isdigit()
        )
        if not pending:  # "1." at the very end may still become "1.5"
            last = e.end()
    return Step(
        "text", content=bool(text[last:].strip()), refusal=refusal.startswith(text.lstrip())
    )


def allowed_ids(
    text: str,
    vocab: CitationVocab,
    sources: Collection[int],
    best: Callable[[Collection[int] | None], int],
    *,
    remaining: int | None = None,
    refusal: str = REFUSAL_TEXT,
) -> frozenset[int] | None:
    """The ids allowed next after ``text``; None = plain text.

    Plain text is every id but the bracket tokens; the processor also masks
    end-of-sequence unless a cited sentence has just ended
    (:func:`eos_allowed`) and sentence-end tokens while the current
    sentence is still empty (no claim of bare punctuation).

    Args:
        text: The answer decoded so far.
        vocab: The classified vocabulary.
        sources: The numbers ``n`` of the sources in the prompt.
        best: ``best(allowed)`` returns the model's highest-scoring id among
            ``allowed`` (None = among the plain-text ids); used to decide
            whether the model is about to end an uncited sentence.
        remaining: New tokens left before ``max_new_tokens``.
        refusal: The exact refusal sentence.
    """
    valid = {str(int(n)) for n in sources}
    if not valid:
        raise ValueError("no source numbers: citations cannot be enforced without sources")
    longest = max(len(v) for v in valid)
    state = read_state(text, refusal)
    if state.mode == "done":
        return vocab.eos_ids
    if state.mode == "cite":
        d = state.digits
        free = valid - set(run_citations(text[: text.rindex("[")]))  # no source twice
        nxt = {i for i, s in vocab.digit_ids.items() if any(v.startswith(d + s) for v in free)}
        close = set(vocab.close_ids) if d in free else set()
        if close and (not nxt or (remaining is not None and remaining <= 1)):
            return frozenset(close)
        return frozenset(nxt | close)
    short = remaining is not None and remaining <= 3 + longest  # no room for a new cited sentence
    if state.mode == "after":
        cited = set(run_citations(text))
        if short:
            return vocab.eos_ids
        if len(cited) >= MAX_CITES or not valid - cited:  # the sentence has cited enough
            return vocab.end_ids | vocab.eos_ids
        return vocab.open_ids | vocab.end_ids | vocab.eos_ids
    if not state.content:  # between sentences: plain text, eos once something was said
        return vocab.eos_ids if short and text.strip() else None
    if remaining is not None and remaining <= 2 + longest:
        return vocab.open_ids
    choice = best(None)
    piece = _piece(vocab, choice)
    if state.refusal and refusal.startswith((text + piece).lstrip()):
        return None  # still on the way to the exact refusal sentence
    if piece == "." and text[-1:].isdigit():
        return None  # a decimal point, or the end read at the next step
    if (
        text.endswith(".")
        and text[-2:-1].isdigit()
        and (piece[:1].isspace() or choice in vocab.eos_ids)
    ):
        return vocab.open_ids  # "1950." was an end after all: cite it
    if choice in vocab.end_ids or choice in vocab.eos_ids:
        return vocab.open_ids  # cite before the sentence ends
    if best(vocab.open_ids | {choice}) in vocab.open_ids:
        return vocab.open_ids  # the model itself opens a citation here: let it cite now
    return None


def eos_allowed(text: str, refusal: str = REFUSAL_TEXT) -> bool:
    """In plain-text mode the answer may end only between sentences, after something was said."""
    state = read_state(text, refusal)
    return state.mode == "text" and not state.content and bool(text.strip())


def _piece(vocab: CitationVocab, i: int) -> str:
    return vocab.pieces[i] if 0 <= i < vocab.size else ""


class CitationLogitsProcessor:
    """transformers ``LogitsProcessor`` enforcing the grammar of the module docstring.

    Args:
        vocab: The generator's classified vocabulary.
        sources: The numbers of the sources sent.
        prompt_length: Length of the prompt ids (new tokens follow it).
        decode: ``decode(new_ids) -> text`` (the tokenizer's; default joins pieces).
        max_new_tokens: The generation limit (to close a sentence in time).
    """

    def __init__(
        self,
        vocab: CitationVocab,
        sources: Collection[int],
        prompt_length: int,
        *,
        decode: Callable[[list[int]], str] | None = None,
        max_new_tokens: int | None = None,
        refusal: str = REFUSAL_TEXT,
    ) -> None:
        if not sources:
            raise ValueError("no source numbers: citations cannot be enforced without sources")
        self.vocab = vocab
        self.sources = tuple(sorted({int(n) for n in sources}))
        self.prompt_length = prompt_length
        self.decode = decode or (lambda ids: "".join(_piece(vocab, i) for i in ids))
        self.max_new_tokens = max_new_tokens
        self.refusal = refusal
        self._size = -1
        self._never: Any = None
        self._eos: Any = None
        self._ends: Any = None
        #: Set once the length cap, not the model, ended the answer (near ``max_new_tokens``
        #: a sentence the model was still writing was closed with a citation).
        self.cut = False

    def _index(self, ids: Collection[int], size: int) -> Any:
        # lazy: an optional heavy dependency, imported on first use
        import torch

        return torch.tensor(sorted(i for i in ids if i < size), dtype=torch.long)

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        """Set the scores of the ids the grammar forbids to ``-inf`` (in place; returns
        ``scores``)."""
        size = scores.shape[-1]
        if (
            self._size != size
        ):  # ids the tokenizer lacks (padding of the embedding matrix) are never allowed
            v = self.vocab
            self._size = size
            self._never = self._index(set(v.bracket_ids) | set(range(v.size, size)), size)
            self._eos = self._index(v.eos_ids, size)
            self._ends = self._index(v.end_ids, size)
        never_text = set(self.vocab.bracket_ids)
        for row in range(scores.shape[0]):
            new = [int(i) for i in input_ids[row, self.prompt_length :].tolist()]
            text = self.decode(new)
            row_scores = scores[row]

            def best(allowed: Collection[int] | None, _s: Any = row_scores) -> int:
                """The model's favourite among ``allowed`` (None: every non-bracket id, eos
                included)."""
                # lazy: an optional heavy dependency, imported on first use
                import torch

                if allowed is not None:
                    ids = list(allowed)
                    return ids[int(torch.argmax(_s[ids]))]
                top = torch.topk(_s, k=min(16, size)).indices.tolist()
                for i in top:
                    if i not in never_text and i < self.vocab.size:
                        return int(i)
                masked = _s.clone()
                masked[self._never] = float("-inf")
                return int(torch.argmax(masked))

            remaining = None if self.max_new_tokens is None else self.max_new_tokens - len(new)
            allowed = allowed_ids(
                text, self.vocab, self.sources, best, remaining=remaining, refusal=self.refusal
            )
            if allowed is not None and remaining is not None and not self.cut:
                self.cut = self._capped(text, allowed, best)
            if allowed is None:
                row_scores[self._never] = float("-inf")
                if not read_state(text, self.refusal).content:  # no empty claims such as "."
                    row_scores[self._ends] = float("-inf")
                if not eos_allowed(text, self.refusal):
                    row_scores[self._eos] = float("-inf")
            else:
                keep = self._index(allowed, size)
                kept = row_scores[keep].clone()
                row_scores.fill_(float("-inf"))
                row_scores[keep] = kept
        return scores

    def _capped(
        self, text: str, allowed: frozenset[int], best: Callable[[Collection[int] | None], int]
    ) -> bool:
        """Whether the cap overruled the model: what it would pick without the cap is not
        allowed. Right after a citation, ending the sentence (or citing once more) is the
        model's own end too."""
        uncapped = allowed_ids(text, self.vocab, self.sources, best, refusal=self.refusal)
        if uncapped == allowed:
            return False
        choice = best(uncapped)
        if choice in allowed:
            return False
        v = self.vocab
        return not (
            read_state(text, self.refusal).mode == "after" and choice in v.end_ids | v.open_ids
        )


#: Each generator's classified vocabulary, built on first use (a few seconds) and kept
#: while the generator lives.
_VOCABS: weakref.WeakKeyDictionary[Any, CitationVocab] = weakref.WeakKeyDictionary()
_VOCABS_LOCK = threading.Lock()


def citation_vocab(generator: LocalGenerator) -> CitationVocab:
    """The :class:`CitationVocab` of ``generator``'s Hugging Face tokenizer (built once)."""
    with _VOCABS_LOCK:
        vocab = _VOCABS.get(generator)
        if vocab is None:
            vocab = CitationVocab.from_tokenizer(generator.tokenizer, generator.eos_ids)
            _VOCABS[generator] = vocab
        return vocab


def citation_processor(
    generator: LocalGenerator,
    sources: Sequence[int],
    prompt_length: int,
    max_new_tokens: int,
    refusal: str = REFUSAL_TEXT,
) -> CitationLogitsProcessor:
    """The processor enforcing citations over ``sources`` for one generation by ``generator``
    (a local transformers model: its ``tokenizer`` and ``eos_ids``), handed to its
    ``generate_ids(…, logits_processors=[…])``; ``refusal``: the refusal the prompt asked for
    (``rag_core.answer.prompt.refusal_of`` its system text)."""
    return CitationLogitsProcessor(
        citation_vocab(generator),
        sources,
        prompt_length,
        decode=lambda new: generator.tokenizer.decode(new, skip_special_tokens=True),
        max_new_tokens=max_new_tokens,
        refusal=refusal,
    )
