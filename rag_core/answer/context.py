"""Context assembly: kept candidates → numbered sources → the exact ids the model gets.

Each candidate becomes a source ``n`` (cited ``[n]``) that quotes the
chunk's ``content`` (never its contextual header); the wording and layout of
the prompt are :mod:`rag_core.answer.prompt`'s.

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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from rag_core.config import ContextConfig
from rag_core.hashing import ids_sha256, sha256_text
from rag_core.models.generators import PromptTokenizer
from rag_core.text import containment, sentence_cut, sentence_spans, shingles
from rag_core.types import Chunk, ContextStage, Document, Hit, Source

from . import prompt

_Item = TypeVar("_Item")

#: Why an imported run's hit without any text is kept out of the prompt.
NO_TEXT_REASON = "text-unavailable"


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

    @property
    def locator(self) -> str:
        return f"#char={self.chunk.start},{self.chunk.start + len(self.quote)}"

    @property
    def cut_at(self) -> int | None:
        return self.chunk.start + len(self.quote) if self.reason else None

    def block(self, n: int) -> tuple[str, int]:
        """The source as placed in the prompt and the offset of the quote inside it."""
        return prompt.source_block(n, self.title, self.chunk.section, self.quote)


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


def _render(tok: Any, question: str, cands: Sequence[_Cand], system: str) -> _Render:
    r = prompt.render_prompt(
        tok, system, question, [(c.title, c.chunk.section, c.quote) for c in cands]
    )
    return _Render(tuple(cands), r.user, r.prompt, r.blocks, r.question)


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
    fallback_note = (
        f"token counts use {tok.name}; they only estimate what a generator would see"
        if tok.is_fallback
        else ""
    )
    doc_index = {d: i for i, d in enumerate(docs)}

    def cand_of(i: int, hit: Hit) -> _Cand:
        try:
            chunk = chunks[hit.chunk_id]
        except KeyError:
            raise ValueError(
                f"chunk {hit.chunk_id!r} of the kept hits is not in the chunk table"
            ) from None
        doc = docs.get(chunk.doc_id)
        quote, capped = _cap(chunk.content, cfg.max_source_chars)
        return _Cand(
            rank=i,
            chunk=chunk,
            title=doc.title if doc is not None and doc.title else chunk.doc_id,
            doc_order=doc_index.get(chunk.doc_id, len(doc_index)),
            quote=quote,
            reason="cap" if capped else "",
        )

    def standalone_tokens(c: _Cand) -> int:
        return len(tok.encode(c.block(0)[0]))

    def dropped(c: _Cand, reason: str, dup_of: str | None = None) -> Source:
        ch = c.chunk
        return Source(
            n=None,
            chunk_id=ch.chunk_id,
            doc_id=ch.doc_id,
            title=c.title,
            section=ch.section,
            start=ch.start,
            end=ch.end,
            locator=c.locator,
            quote=c.quote,
            tokens=standalone_tokens(c),
            status="dropped",
            reason=reason,
            cut_at=c.cut_at if reason != "duplicate" else None,
            duplicate_of=dup_of,
        )

    system = prompt.system_text(cfg.instructions)
    gate_sources = [dropped(cand_of(i, h), "gate") for i, h in enumerate(dropped_by_gate)]
    if not hits:
        return ContextStage(
            status="skipped",
            policy=cfg.policy,
            ordering=cfg.ordering,
            budget_tokens=cfg.budget_tokens,
            sources=tuple(gate_sources),
            system_text=system,
            tokenizer=tok_label,
            message="no candidate reached the context stage; nothing to send to the model",
        )

    # 1-2. dedup + cap, in rank order
    cands: list[_Cand] = []
    dup_sources: list[Source] = []
    kept_shingles: list[tuple[frozenset[str], str]] = []
    for i, h in enumerate(hits):
        c = cand_of(i, h)
        if not c.chunk.content.strip():
            # an imported run's hit whose text is neither in the corpus nor in the run
            dup_sources.append(dropped(c, NO_TEXT_REASON))
            continue
        if cfg.dedup:
            sh = shingles(c.chunk.content)
            dup = next(
                (
                    cid
                    for other, cid in kept_shingles
                    if containment(sh, other) >= cfg.dedup_threshold
                ),
                None,
            )
            if dup is not None:
                dup_sources.append(dropped(c, "duplicate", dup))
                continue
            kept_shingles.append((sh, c.chunk.chunk_id))
        cands.append(c)

    def arrange(selection: Sequence[_Cand]) -> list[_Cand]:
        return order_sources(
            selection, cfg.ordering, key_doc=lambda c: (c.doc_order, c.chunk.start, c.rank)
        )

    budget = cfg.budget_tokens
    full = _render(tok, question, arrange(cands), system)
    full_ids, full_offsets = tok.encode_offsets(full.prompt)
    budget_dropped: list[_Cand] = []
    question_cut = False
    notes: list[str] = []

    if cfg.policy == "hard-cut":
        final = full
        if len(full_ids) <= budget:
            input_ids = list(full_ids)
            cut_char = len(full.prompt)
        else:
            input_ids = list(full_ids[:budget])
            # the furthest character any kept token reaches (special tokens may carry (0, 0))
            cut_char = max((e for _s, e in full_offsets[:budget]), default=0)
            question_cut = cut_char < full.question[1]
            if cut_char < len(full.prompt.rstrip()):
                notes.append(
                    f"hard cut after token {budget}: everything after character {cut_char} of the "
                    "prompt is lost"
                )
            if question_cut:
                notes.append("the cut removed (part of) the question itself")
            elif cut_char < len(full.prompt):
                notes.append("the cut removed the end of the prompt (the assistant turn marker)")
        included: list[Source] = []
        for n, (c, (bs, qs, qe, be)) in enumerate(
            zip(final.cands, final.blocks, strict=True), start=1
        ):
            ch = c.chunk
            if qe <= cut_char:
                status, reason, quote, cut_at = (
                    ("cut" if c.reason else "included"),
                    c.reason,
                    c.quote,
                    c.cut_at,
                )
            elif qs >= cut_char:
                budget_dropped.append(c)
                continue
            else:
                kept = cut_char - qs
                status, reason, quote, cut_at = "cut", "budget", c.quote[:kept], ch.start + kept
            included.append(
                Source(
                    n=n,
                    chunk_id=ch.chunk_id,
                    doc_id=ch.doc_id,
                    title=c.title,
                    section=ch.section,
                    start=ch.start,
                    end=ch.end,
                    locator=f"#char={ch.start},{ch.start + len(quote)}",
                    quote=quote,
                    tokens=_tokens_in(full_offsets[: len(input_ids)], bs, min(be, cut_char)),
                    status=status,  # type: ignore[arg-type]
                    reason=reason,
                    cut_at=cut_at,
                )
            )
    else:  # pack
        base = _render(tok, question, [], system)
        base_ids = tok.encode(base.prompt)
        if len(base_ids) > budget:
            return ContextStage(
                status="error",
                policy=cfg.policy,
                ordering=cfg.ordering,
                budget_tokens=budget,
                sources=tuple([dropped(c, "budget") for c in cands] + dup_sources + gate_sources),
                system_text=system,
                user_text=base.user,
                prompt_text=base.prompt,
                tokens_before=len(full_ids),
                tokenizer=tok_label,
                message=(
                    f"the instructions and the question alone take {len(base_ids)} tokens, more "
                    f"than context.budget_tokens = {budget}; shorten the question or raise the "
                    "budget (pack never cuts the question)"
                ),
            )
        selected: list[_Cand] = []
        final = base
        for i, c in enumerate(cands):
            trial = _render(tok, question, arrange([*selected, c]), system)
            if len(tok.encode(trial.prompt)) <= budget:
                selected.append(c)
                final = trial
                continue
            # the first source that does not fit: largest sentence-boundary prefix that fits
            ends = [b for _a, b in sentence_spans(c.quote) if b < len(c.quote)]
            lo, hi, best = 0, len(ends) - 1, None
            while lo <= hi:
                mid = (lo + hi) // 2
                cut = replace(c, quote=c.quote[: ends[mid]], reason="budget")
                trial = _render(tok, question, arrange([*selected, cut]), system)
                if len(tok.encode(trial.prompt)) <= budget:
                    best, lo = (cut, trial), mid + 1
                else:
                    hi = mid - 1
            if best is not None:
                selected.append(best[0])
                final = best[1]
            else:
                budget_dropped.append(c)
            budget_dropped.extend(cands[i + 1 :])
            break
        input_ids = tok.encode(final.prompt)
        _, final_offsets = tok.encode_offsets(final.prompt)
        included = []
        for n, (c, (bs, _qs, _qe, be)) in enumerate(
            zip(final.cands, final.blocks, strict=True), start=1
        ):
            ch = c.chunk
            included.append(
                Source(
                    n=n,
                    chunk_id=ch.chunk_id,
                    doc_id=ch.doc_id,
                    title=c.title,
                    section=ch.section,
                    start=ch.start,
                    end=ch.end,
                    locator=c.locator,
                    quote=c.quote,
                    tokens=_tokens_in(final_offsets, bs, be),
                    status="cut" if c.reason else "included",
                    reason=c.reason,
                    cut_at=c.cut_at,
                )
            )

    budget_sources = [dropped(c, "budget") for c in sorted(budget_dropped, key=lambda c: c.rank)]
    truncated = bool(budget_sources) or question_cut or any(s.reason == "budget" for s in included)
    counts = {
        "included": sum(s.status == "included" for s in included),
        "cut": sum(s.status == "cut" for s in included),
    }
    summary = (
        f"{counts['included'] + counts['cut']} of {len(hits)} candidates sent "
        f"({counts['cut']} cut); dropped: {len(budget_sources)} budget, "
        f"{sum(s.reason == 'duplicate' for s in dup_sources)} duplicate, "
        + (
            f"{sum(s.reason == NO_TEXT_REASON for s in dup_sources)} text unavailable, "
            if any(s.reason == NO_TEXT_REASON for s in dup_sources)
            else ""
        )
        + f"{len(gate_sources)} gate"
    )
    message = "; ".join(x for x in [summary, *notes, fallback_note] if x)
    return ContextStage(
        status="ok",
        policy=cfg.policy,
        ordering=cfg.ordering,
        budget_tokens=budget,
        sources=tuple(included + budget_sources + dup_sources + gate_sources),
        system_text=system,
        user_text=final.user,
        prompt_text=final.prompt,
        tokens_before=len(full_ids),
        tokens_after=len(input_ids),
        truncated=truncated,
        question_cut=question_cut,
        actual_input_text=tok.decode(input_ids),
        input_ids=tuple(input_ids),
        full_ids=tuple(full_ids),
        prompt_sha256=sha256_text(final.prompt),
        ids_sha256=ids_sha256(input_ids),
        tokenizer=tok_label,
        message=message,
    )
