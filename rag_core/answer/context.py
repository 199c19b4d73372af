"""Context assembly: kept candidates → numbered sources → the exact ids the model gets.

Each candidate becomes a source ``n`` (cited ``[n]``) that quotes the
chunk's ``content`` (never its contextual header; rows cut from a Markdown table
are preceded by the table's header row, ``Source.lead``); the wording and layout
of the prompt are :mod:`rag_core.answer.prompt`'s.

Steps, each recorded per source:

1. near-duplicate removal — char 5-gram shingles of the normalised content;
   a candidate whose containment ``|A ∩ B| / min(|A|, |B|)`` with an
   already kept source reaches ``dedup_threshold`` is dropped (reason
   ``duplicate``, ``duplicate_of`` names the kept one);
2. per-source cap — content longer than ``max_source_chars`` is cut at the
   last sentence boundary under the cap (reason ``cap``);
3. ordering — ``rank``; ``ends`` (best at both ends against "lost in the
   middle", Liu et al. 2023, https://arxiv.org/abs/2307.03172): ranks
   1, 3, 5, …, 6, 4, 2; ``document`` (document order, then offset);
4. token budget ``B`` measured on the whole prompt with the generator's own
   tokenizer and chat template:

   - ``hard-cut`` tokenises the full prompt and keeps its first ``B`` ids —
     the naive policy, which can cut a source, the question, or the
     assistant turn marker;
   - ``pack`` keeps the instructions and the question whole, adds whole
     sources in rank order while the prompt fits, cuts the first one that
     does not at the last sentence boundary that fits, and drops the rest.

The caller hands over the tokenizer: the generator's, or without one a
clearly named fallback tokenizer (MiniLM word pieces under a plain template,
``rag_core.models.fallback_prompt_tokenizer``), in which case ``message``
says so: the numbers are then an estimate, never the generator's.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, TypeVar

from rag_core.config import ContextConfig
from rag_core.hashing import ids_sha256, sha256_text
from rag_core.models.generators import PromptTokenizer
from rag_core.text import (
    containment,
    sentence_cut,
    sentence_spans,
    shingles,
    table_head,
    torn_edges,
)
from rag_core.types import Chunk, ContextStage, Document, Hit, Notice, Source
from rag_core.wording import declare, notice

from . import prompt

_Item = TypeVar("_Item")

#: Why an imported run's hit without any text is kept out of the prompt.
NO_TEXT_REASON = "text-unavailable"

#: What the context stage says (``ContextStage.notices`` / ``notice``).
CONTEXT_SENT = declare("context.sent", "sent", "hits", "cut", "budget", "duplicate", "gate")
CONTEXT_SENT_NO_TEXT = declare(
    "context.sent_no_text", "sent", "hits", "cut", "budget", "duplicate", "no_text", "gate"
)
CONTEXT_HARD_CUT = declare("context.hard_cut", "budget", "char")
CONTEXT_QUESTION_CUT = declare("context.question_cut")
CONTEXT_MARKER_CUT = declare("context.marker_cut")
CONTEXT_FALLBACK_TOKENIZER = declare("context.fallback_tokenizer", "tokenizer")
CONTEXT_NO_CANDIDATES = declare("context.no_candidates")
CONTEXT_TOO_LONG = declare("context.too_long", "tokens", "budget")


def order_sources(
    items: Sequence[_Item], ordering: str, key_doc: Callable[[_Item], Any] | None = None
) -> list[_Item]:
    """Arrange rank-ordered ``items`` by ``ordering``.

    ``rank`` keeps them; ``ends`` puts ranks 1, 3, 5, … first and …, 6, 4, 2
    last (the best at both ends); ``document`` sorts by ``key_doc(item)``.
    """
    items = list(items)
    if ordering == "rank":
        return items
    if ordering == "ends":
        return items[0::2] + items[1::2][::-1]
    if ordering == "document":
        if key_doc is None:
            raise ValueError("document ordering needs a key function")
        return sorted(items, key=key_doc)
    raise ValueError(
        f"context.ordering = {ordering!r} is not valid; valid choices: rank, ends, document"
    )


# --------------------------------------------------------------------- assembly


@dataclass(frozen=True)
class _Cand:
    """A candidate with its quote (content, possibly capped/cut)."""

    rank: int  # 0-based position among the candidates
    chunk: Chunk
    title: str
    doc_order: int
    quote: str
    reason: str = ""  # "" | cap | budget
    lead: str = ""  # the column rows of the table the quote starts inside (Source.lead)
    #: The document the chunk is a span of ("" when unknown).
    doc_text: str = field(default="", repr=False, compare=False)

    @property
    def torn(self) -> tuple[int, int]:
        """Pieces of words cut at the quote's edges (:attr:`Source.torn`)."""
        a, b = self.chunk.start, self.chunk.start + len(self.quote)
        if self.doc_text[a:b] != self.quote:  # not a span of the document as it stands
            return (0, 0)
        return torn_edges(self.doc_text, a, b)

    @property
    def locator(self) -> str:
        return f"#char={self.chunk.start},{self.chunk.start + len(self.quote)}"

    @property
    def cut_at(self) -> int | None:
        return self.chunk.start + len(self.quote) if self.reason else None

    def block(self, n: int) -> tuple[str, int]:
        """The source as placed in the prompt and the offset of the quote inside it."""
        return prompt.source_block(n, self.title, self.chunk.section, self.quote, self.lead)


def _source(
    c: _Cand, n: int | None, tokens: int, *, dropped: str = "", duplicate_of: str | None = None
) -> Source:
    """The one :class:`Source` builder: candidate ``c`` sent as ``[n]`` (included, or cut when
    its quote was cut), or not sent for the reason ``dropped``."""
    if dropped:
        status, reason = "dropped", dropped
        cut_at = None if dropped == "duplicate" else c.cut_at
    else:
        status, reason, cut_at = ("cut" if c.reason else "included"), c.reason, c.cut_at
    ch = c.chunk
    return Source(
        n=n,
        chunk_id=ch.chunk_id,
        doc_id=ch.doc_id,
        title=c.title,
        section=ch.section,
        start=ch.start,
        end=ch.end,
        locator=c.locator,
        quote=c.quote,
        tokens=tokens,
        status=status,  # type: ignore[arg-type]
        reason=reason,
        cut_at=cut_at,
        duplicate_of=duplicate_of,
        lead=c.lead,
        torn=c.torn,
    )


@dataclass(frozen=True)
class _Render:
    """One rendered prompt over these candidates (see :class:`.prompt.RenderedPrompt`)."""

    cands: tuple[_Cand, ...]
    user: str
    prompt: str
    blocks: tuple[
        tuple[int, int, int, int], ...
    ]  # per cand: block start, quote start, quote end, block end
    question: tuple[int, int]  # question span in the prompt


def _tokens_in(offsets: Sequence[tuple[int, int]], a: int, b: int) -> int:
    """Tokens whose span starts inside ``[a, b)`` (each token counted once)."""
    return sum(1 for s, e in offsets if a <= s < b and e > s)


def _cap(content: str, cap: int) -> tuple[str, bool]:
    """``content`` cut at the last sentence end <= ``cap`` (else last space, else ``cap``)."""
    if len(content) <= cap:
        return content, False
    end = sentence_cut(content, cap)
    if end == 0:
        space = content.rfind(" ", 0, cap)
        end = space if space > 0 else cap
    return content[:end].rstrip(), True


def tokenizer_label(tok: PromptTokenizer) -> str:
    """What a ContextStage names as its tokenizer: the fallback's name, or the generator's
    model id and template."""
    if tok.is_fallback:
        return tok.name
    label = getattr(tok, "template_label", "chat template")
    return f"{getattr(tok, 'model_id', tok.name)} ({label})"


@dataclass
class _Fit:
    """What a budget policy sent: the final prompt, its ids, the sources in it, the candidates
    the budget dropped and what the cut removed."""

    final: _Render
    input_ids: list[int]
    sent: list[Source]
    over: list[_Cand] = field(default_factory=list)
    question_cut: bool = False
    notes: list[Notice] = field(default_factory=list)


class _Assembly:
    """One question's candidates as the context stage treats them, with the tokenizer that
    measures them (the steps of the module docstring, one method each)."""

    def __init__(
        self,
        question: str,
        chunks: Mapping[str, Chunk],
        docs: Mapping[str, Document],
        cfg: ContextConfig,
        tok: PromptTokenizer,
    ) -> None:
        self.question, self.chunks, self.docs, self.cfg, self.tok = question, chunks, docs, cfg, tok
        self.system = prompt.system_text(cfg.instructions, prompt.refusal_text(question))
        self.doc_index = {d: i for i, d in enumerate(docs)}

    def candidate(self, i: int, hit: Hit) -> _Cand:
        """Hit ``i`` as a candidate: its chunk's content, capped at ``max_source_chars``."""
        try:
            chunk = self.chunks[hit.chunk_id]
        except KeyError:
            raise ValueError(
                f"chunk {hit.chunk_id!r} of the kept hits is not in the chunk table"
            ) from None
        doc = self.docs.get(chunk.doc_id)
        quote, capped = _cap(chunk.content, self.cfg.max_source_chars)
        return _Cand(
            rank=i,
            chunk=chunk,
            title=doc.title if doc is not None and doc.title else chunk.doc_id,
            doc_order=self.doc_index.get(chunk.doc_id, len(self.doc_index)),
            quote=quote,
            reason="cap" if capped else "",
            lead=table_head(doc.text, chunk.start) if doc is not None else "",
            doc_text=doc.text if doc is not None else "",
        )

    def dropped(self, c: _Cand, reason: str, duplicate_of: str | None = None) -> Source:
        """``c`` not sent, with the tokens it would take on its own."""
        tokens = len(self.tok.encode(c.block(0)[0]))
        return _source(c, None, tokens, dropped=reason, duplicate_of=duplicate_of)

    def dedup(self, hits: Sequence[Hit]) -> tuple[list[_Cand], list[Source]]:
        """Steps 1-2 in rank order: the candidates kept, and those dropped as near-duplicates
        of a kept one (or for having no text)."""
        cands: list[_Cand] = []
        dropped: list[Source] = []
        kept_shingles: list[tuple[frozenset[str], str]] = []
        for i, h in enumerate(hits):
            c = self.candidate(i, h)
            if not c.chunk.content.strip():
                # an imported run's hit whose text is neither in the corpus nor in the run
                dropped.append(self.dropped(c, NO_TEXT_REASON))
                continue
            if self.cfg.dedup:
                sh = shingles(c.chunk.content)
                dup = next(
                    (
                        cid
                        for other, cid in kept_shingles
                        if containment(sh, other) >= self.cfg.dedup_threshold
                    ),
                    None,
                )
                if dup is not None:
                    dropped.append(self.dropped(c, "duplicate", dup))
                    continue
                kept_shingles.append((sh, c.chunk.chunk_id))
            cands.append(c)
        return cands, dropped

    def arrange(self, selection: Sequence[_Cand]) -> list[_Cand]:
        """Step 3: ``context.ordering`` over the selected candidates."""
        return order_sources(
            selection, self.cfg.ordering, key_doc=lambda c: (c.doc_order, c.chunk.start, c.rank)
        )

    def render(self, cands: Sequence[_Cand]) -> _Render:
        """The prompt over ``cands`` in this order (:func:`.prompt.render_prompt`)."""
        r = prompt.render_prompt(
            self.tok,
            self.system,
            self.question,
            [(c.title, c.chunk.section, c.quote, c.lead) for c in cands],
        )
        return _Render(tuple(cands), r.user, r.prompt, r.blocks, r.question)

    def count(self, rendered: _Render) -> list[int]:
        """The exact ids of ``rendered``'s prompt (one encode of the whole prompt)."""
        return self.tok.encode(rendered.prompt)

    def fits(self, rendered: _Render) -> bool:
        return len(self.count(rendered)) <= self.cfg.budget_tokens

    def hard_cut(
        self, full: _Render, full_ids: Sequence[int], full_offsets: Sequence[tuple[int, int]]
    ) -> _Fit:
        """Step 4, ``hard-cut``: the first ``budget`` ids of the full prompt, whatever they cut."""
        budget = self.cfg.budget_tokens
        fit = _Fit(full, list(full_ids), [])
        cut_char = len(full.prompt)
        if len(full_ids) > budget:
            fit.input_ids = list(full_ids[:budget])
            # the furthest character any kept token reaches (special tokens may carry (0, 0))
            cut_char = max((e for _s, e in full_offsets[:budget]), default=0)
            fit.question_cut = cut_char < full.question[1]
            if cut_char < len(full.prompt.rstrip()):
                fit.notes.append(notice(CONTEXT_HARD_CUT, budget=budget, char=cut_char))
            if fit.question_cut:
                fit.notes.append(notice(CONTEXT_QUESTION_CUT))
            elif cut_char < len(full.prompt):
                fit.notes.append(notice(CONTEXT_MARKER_CUT))
        offsets = full_offsets[: len(fit.input_ids)]
        for n, (c, (bs, qs, qe, be)) in enumerate(zip(full.cands, full.blocks, strict=True), 1):
            if qs >= cut_char and qe > cut_char:
                fit.over.append(c)
                continue
            if qe > cut_char:
                c = replace(c, quote=c.quote[: cut_char - qs], reason="budget")
            fit.sent.append(_source(c, n, _tokens_in(offsets, bs, min(be, cut_char))))
        return fit

    def pack(self, cands: Sequence[_Cand], base: _Render, full: _Render, n_full: int) -> _Fit:
        """Step 4, ``pack``: whole sources in rank order while the prompt fits, the first one
        that does not cut at the last sentence end that fits, the rest dropped.

        Linear in the prompt: each source block is encoded once and the prompt over the
        first ``k`` sources is estimated as ``base + Σ block tokens`` (plus an offset learnt
        from each exact count, which absorbs what BPE merges across the joins and the
        numbering change); the estimate only steers :func:`_largest_fit`, whose every
        decision is an exact count of the whole prompt, so the budget holds exactly.
        """
        budget = self.cfg.budget_tokens
        if n_full <= budget:  # everything fits: the full prompt, already counted
            k, final, over, ids = len(cands), full, [], None
        else:
            renders: dict[int, tuple[_Render, list[int]]] = {0: (base, self.count(base))}
            sums = [len(renders[0][1])]
            for c in cands:
                sums.append(sums[-1] + len(self.tok.encode(c.block(c.rank + 1)[0])))

            def exact(k: int) -> int:
                if k not in renders:
                    r = self.render(self.arrange(cands[:k]))
                    renders[k] = (r, self.count(r))
                return len(renders[k][1])

            k = _largest_fit(sums, exact, budget, known={len(cands): n_full})
            final, ids = renders[k]
            over = list(cands[k + 1 :])
            if k < len(cands):
                best = self.largest_cut(list(cands[:k]), cands[k], len(ids))
                if best is not None:
                    final, ids = best
                else:
                    over.insert(0, cands[k])
        input_ids = list(ids) if ids is not None else self.tok.encode(final.prompt)
        _, offsets = self.tok.encode_offsets(final.prompt)
        sent = [
            _source(c, n, _tokens_in(offsets, bs, be))
            for n, (c, (bs, _qs, _qe, be)) in enumerate(
                zip(final.cands, final.blocks, strict=True), start=1
            )
        ]
        return _Fit(final, input_ids, sent, over)

    def largest_cut(
        self, selected: list[_Cand], c: _Cand, n_selected: int
    ) -> tuple[_Render, list[int]] | None:
        """``c`` cut at the largest sentence-boundary prefix that still fits after ``selected``
        (whose prompt takes ``n_selected`` tokens), as its prompt and ids; None when none fits.

        The block of ``c`` is encoded once with offsets; a prefix is estimated by the tokens
        that start before its end plus the closing tag's, and :func:`_largest_fit` decides on
        exact counts.
        """
        ends = [b for _a, b in sentence_spans(c.quote) if b < len(c.quote)]
        if not ends:
            return None
        block, q_off = c.block(c.rank + 1)
        _, offsets = self.tok.encode_offsets(block)
        starts = sorted(s for s, e in offsets if e > s)
        tail = len(self.tok.encode(block[q_off + len(c.quote) :]))
        sums = [n_selected] + [
            n_selected + bisect.bisect_left(starts, q_off + end) + tail for end in ends
        ]
        renders: dict[int, tuple[_Render, list[int]]] = {}

        def exact(j: int) -> int:  # j >= 1: the cut after the j-th sentence end
            if j not in renders:
                cut = replace(c, quote=c.quote[: ends[j - 1]], reason="budget")
                r = self.render(self.arrange([*selected, cut]))
                renders[j] = (r, self.count(r))
            return len(renders[j][1])

        j = _largest_fit(sums, exact, self.cfg.budget_tokens)
        return renders[j] if j else None


def _largest_fit(
    estimate: Sequence[int],
    exact: Callable[[int], int],
    budget: int,
    known: Mapping[int, int] | None = None,
) -> int:
    """The largest ``k`` in ``0 … len(estimate) - 1`` with ``exact(k) <= budget``.

    ``exact(0)`` is taken to fit and ``exact`` to grow with ``k`` (each step appends text).
    ``estimate`` (non-decreasing) approximates ``exact``; the search guesses from it, shifted
    by the last seen error ``exact(g) - estimate[g]``, so an estimate within a source of the
    truth settles with two exact counts; after three guesses it bisects (log₂ n counts at
    most). ``known`` gives exact counts already measured.
    """
    lo, hi = 0, len(estimate)  # exact(lo) fits; exact(hi) does not (hi = n: nothing known)
    for k, v in (known or {}).items():
        if v <= budget:
            lo = max(lo, k)
        else:
            hi = min(hi, k)
    shift, guesses = 0, 0
    while hi - lo > 1:
        if guesses < 3:
            g = bisect.bisect_right(estimate, budget - shift) - 1
            g = min(max(g, lo + 1), hi - 1)
        else:
            g = (lo + hi) // 2
        guesses += 1
        v = exact(g)
        shift = v - estimate[g]
        if v <= budget:
            lo = g
        else:
            hi = g
    return lo


def _summary(
    n_hits: int,
    sent: Sequence[Source],
    budget: Sequence[Source],
    dropped: Sequence[Source],
    n_gate: int,
) -> Notice:
    """The context stage's one-line account of what was sent and what was dropped why."""
    n_cut = sum(s.status == "cut" for s in sent)
    counts = {
        "sent": sum(s.status == "included" for s in sent) + n_cut,
        "hits": n_hits,
        "cut": n_cut,
        "budget": len(budget),
        "duplicate": sum(s.reason == "duplicate" for s in dropped),
        "gate": n_gate,
    }
    no_text = sum(s.reason == NO_TEXT_REASON for s in dropped)
    if no_text:
        return notice(CONTEXT_SENT_NO_TEXT, no_text=no_text, **counts)
    return notice(CONTEXT_SENT, **counts)


def _sent(
    stage: Callable[..., ContextStage],
    job: _Assembly,
    fit: _Fit,
    n_hits: int,
    full_ids: Sequence[int],
    dup_sources: list[Source],
    gate_sources: list[Source],
) -> ContextStage:
    """The ``ok`` stage: the sources sent, then those dropped (budget, duplicate, gate), the
    exact ids and their hashes, and the one-line summary."""
    tok = job.tok
    budget_sources = [job.dropped(c, "budget") for c in sorted(fit.over, key=lambda c: c.rank)]
    notices = [_summary(n_hits, fit.sent, budget_sources, dup_sources, len(gate_sources))]
    notices += fit.notes
    if tok.is_fallback:
        notices.append(notice(CONTEXT_FALLBACK_TOKENIZER, tokenizer=tok.name))
    final, input_ids = fit.final, fit.input_ids
    return stage(
        status="ok",
        sources=tuple(fit.sent + budget_sources + dup_sources + gate_sources),
        user_text=final.user,
        prompt_text=final.prompt,
        tokens_before=len(full_ids),
        tokens_after=len(input_ids),
        truncated=bool(budget_sources)
        or fit.question_cut
        or any(s.reason == "budget" for s in fit.sent),
        question_cut=fit.question_cut,
        actual_input_text=tok.decode(input_ids),
        input_ids=tuple(input_ids),
        full_ids=tuple(full_ids),
        prompt_sha256=sha256_text(final.prompt),
        ids_sha256=ids_sha256(input_ids),
        notices=tuple(notices),
    )


def build_context(
    question: str,
    hits: Sequence[Hit],
    chunks: Mapping[str, Chunk],
    docs: Mapping[str, Document],
    cfg: ContextConfig,
    *,
    tokenizer: PromptTokenizer,
    dropped_by_gate: Sequence[Hit] = (),
) -> ContextStage:
    """Turn the kept hits into numbered sources and the exact prompt ids (see module docstring).

    Args:
        question: The user's question (non-empty).
        hits: Kept candidates, best first.
        chunks: chunk_id → Chunk for every hit.
        docs: doc_id → Document (titles; document order for ``document``).
        cfg: Budget, policy, ordering, dedup, cap.
        tokenizer: What measures the budget: a loaded generator (its tokenizer and
            chat template) or ``rag_core.models.fallback_prompt_tokenizer()``.
        dropped_by_gate: Candidates the gate rejected (listed as dropped, reason ``gate``).

    Returns:
        A :class:`ContextStage`; ``skipped`` when no candidate is left,
        ``error`` when ``pack`` cannot fit the instructions and question.

    Raises:
        ValueError: Empty question, or a hit whose chunk is missing.
    """
    if not isinstance(question, str) or not question.strip():
        raise ValueError("the question is empty; the context needs a question to ask")
    tok, tok_label = tokenizer, tokenizer_label(tokenizer)
    job = _Assembly(question, chunks, docs, cfg, tok)
    stage = partial(
        ContextStage,
        policy=cfg.policy,
        ordering=cfg.ordering,
        budget_tokens=cfg.budget_tokens,
        system_text=job.system,
        tokenizer=tok_label,
    )
    gate_sources = [job.dropped(job.candidate(i, h), "gate") for i, h in enumerate(dropped_by_gate)]
    if not hits:
        return stage(
            status="skipped",
            sources=tuple(gate_sources),
            notice=notice(CONTEXT_NO_CANDIDATES),
        )
    cands, dup_sources = job.dedup(hits)
    full = job.render(job.arrange(cands))
    full_ids, full_offsets = tok.encode_offsets(full.prompt)
    if cfg.policy == "hard-cut":
        fit = job.hard_cut(full, full_ids, full_offsets)
    else:
        base = job.render([])
        base_ids = tok.encode(base.prompt)
        if len(base_ids) > cfg.budget_tokens:  # pack never cuts the instructions or question
            budget_dropped = [job.dropped(c, "budget") for c in cands]
            return stage(
                status="error",
                sources=tuple(budget_dropped + dup_sources + gate_sources),
                user_text=base.user,
                prompt_text=base.prompt,
                tokens_before=len(full_ids),
                notice=notice(CONTEXT_TOO_LONG, tokens=len(base_ids), budget=cfg.budget_tokens),
            )
        fit = job.pack(cands, base, full, len(full_ids))

    return _sent(stage, job, fit, len(hits), full_ids, dup_sources, gate_sources)
