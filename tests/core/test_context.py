"""Context assembly: sources, ordering, dedup, cap, the two budget policies, hashes.

Fast tests use a character-level toy tokenizer (one token per character,
ids = code points), so every token count is a character count and the
expected values are written as lengths. The slow test measures the real
instructions with the bundled Qwen tokenizer and chat template.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np
import pytest

from rag_core.answer.context import build_context, order_sources
from rag_core.answer.prompt import (
    ANSWER_HINT,
    QUESTION_LABEL,
    REFUSAL_TEXT,
    SOURCES_HEADING,
    SYSTEM_TEXT,
)
from rag_core.config import RESERVED_INSTRUCTION_TOKENS, ContextConfig
from rag_core.hashing import ids_sha256
from rag_core.models import fallback_prompt_tokenizer
from rag_core.text import containment, sentence_spans, shingles, table_head, torn_edges
from rag_core.types import Chunk, Document, Hit


class CharTokenizer:
    """One token per character; a fixed toy template around the two turns."""

    model_id = "char-toy"
    template_label = "toy template"
    name = "char-toy"
    is_fallback = False

    def prompt_text(self, system: str, user: str) -> str:
        return f"<s>{system}</s><u>{user}</u><a>"

    def encode(self, text: str) -> list[int]:
        return [ord(c) for c in text]

    def encode_offsets(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        return [ord(c) for c in text], [(i, i + 1) for i in range(len(text))]

    def decode(self, ids, *, skip_special_tokens: bool = False) -> str:
        return "".join(chr(i) for i in ids)


TOK = CharTokenizer()

PARAS = [
    "Hallasan is the highest mountain in South Korea. It rises 1,947 m above sea level.",
    "Jeju has a mild climate. Tangerines grow well there. Many tourists visit in spring.",
    "Error E17 means the disk is full. Error E21 means the network is down.",
    "Roe deer live on the slopes of Hallasan. They eat leaves and grass.",
    "The island has three UNESCO titles. They were given between 2002 and 2010.",
    "Haenyeo are women divers. They harvest shellfish without breathing gear.",
]
TEXT = "\n\n".join(PARAS)
DOC = Document("jeju", "Jeju facts", TEXT)


def make_chunks(header: str = "[Jeju facts > Facts]\n") -> dict[str, Chunk]:
    out = {}
    pos = 0
    for i, p in enumerate(PARAS):
        start = TEXT.index(p, pos)
        cid = f"jeju::t::{i:04d}"
        out[cid] = Chunk(
            cid, "jeju", i, start, start + len(p), start, p, header + p, section="Facts"
        )
        pos = start + len(p)
    return out


CHUNKS = make_chunks()
IDS = list(CHUNKS)
DOCS = {"jeju": DOC}


def hits(ids=IDS):
    return [Hit(cid, "jeju", r, 1.0 / r) for r, cid in enumerate(ids, start=1)]


def cfg(**kw) -> ContextConfig:
    base = {"budget_tokens": 100_000, "dedup": False}
    base.update(kw)
    return ContextConfig(**base)


def user_text(question: str, quotes: list[tuple[str, str]]) -> str:
    """The user turn as the module documents it (title/locator per source)."""
    body = ""
    for n, (_cid, quote) in enumerate(quotes, start=1):
        body += f'<source id="{n}" title="Jeju facts › Facts">\n{quote}\n</source>\n'
    head = SOURCES_HEADING + "\n\n" if quotes and SOURCES_HEADING else ""
    return head + body + QUESTION_LABEL + question + ANSWER_HINT


Q = "How high is Hallasan?"


def test_sources_quote_content_never_header_with_locator():
    ctx = build_context(Q, hits(IDS[:2]), CHUNKS, DOCS, cfg(), tokenizer=TOK)
    assert ctx.status == "ok"
    assert ctx.user_text == user_text(Q, [(IDS[0], PARAS[0]), (IDS[1], PARAS[1])])
    assert "[Jeju facts > Facts]" not in ctx.prompt_text
    s1 = ctx.sources[0]
    assert (s1.n, s1.quote, s1.status, s1.locator) == (
        1,
        PARAS[0],
        "included",
        f"#char=0,{len(PARAS[0])}",
    )
    assert TEXT[s1.start : s1.end] == s1.quote


TABLE_HEAD = "| Model | per token | 32,768 tokens |\n|---|---:|:---:|\n"
ROWS = ["| Llama 2 7B | 512 KiB | 16 GiB |\n", "| GPT-3 175B | 4.5 MiB | 144 GiB |\n"]
TABLE_DOC = "Sizes below.\n\n" + TABLE_HEAD + "".join(ROWS) + "\nAfter the table."


def test_table_head_is_the_header_and_delimiter_above_a_row():
    second = TABLE_DOC.index(ROWS[1])
    assert table_head(TABLE_DOC, second) == TABLE_HEAD
    assert table_head(TABLE_DOC, TABLE_DOC.index(ROWS[0])) == TABLE_HEAD
    # the chunk holds the header itself, starts mid-row, or is not in a table: nothing to add
    assert table_head(TABLE_DOC, TABLE_DOC.index("| Model")) == ""
    assert table_head(TABLE_DOC, TABLE_DOC.index("|---")) == ""
    assert table_head(TABLE_DOC, second + 2) == ""
    assert table_head(TABLE_DOC, TABLE_DOC.index("After")) == ""
    assert table_head(TABLE_DOC, 0) == ""
    # pipes without a delimiter row are no table
    assert table_head("| a | b |\n| c | d |\n", len("| a | b |\n")) == ""


def test_a_source_cut_from_inside_a_table_is_sent_with_its_column_names():
    start = TABLE_DOC.index(ROWS[1])
    content = ROWS[1].rstrip("\n")
    chunk = Chunk("t::1", "t", 1, start, start + len(content), start, content, content)
    ctx = build_context(
        "How large is GPT-3's cache at 32,768 tokens?",
        [Hit("t::1", "t", 1, 1.0)],
        {"t::1": chunk},
        {"t": Document("t", "Sizes", TABLE_DOC)},
        cfg(),
        tokenizer=TOK,
    )
    (src,) = ctx.sources
    # the quote stays the document's own words; the column rows come before it in the prompt
    assert (src.quote, src.lead) == (content, TABLE_HEAD)
    assert TABLE_DOC[src.start : src.end] == src.quote
    assert f'<source id="1" title="Sizes">\n{TABLE_HEAD}{content}\n</source>' in ctx.prompt_text
    assert src.tokens == len(f'<source id="1" title="Sizes">\n{TABLE_HEAD}{content}\n</source>\n')


def test_torn_edges_are_the_pieces_of_words_a_span_cuts_in_two():
    text = "관광객만 1,380만 명 안팎에 이르렀다."
    cut = text.index(",380")
    assert torn_edges(text, 0, cut) == (0, len("1"))
    assert torn_edges(text, cut, len(text)) == (len(",380만"), 0)
    assert torn_edges(text, 0, len(text)) == (0, 0)  # the text's own ends cut nothing
    assert torn_edges(text, text.index("명"), text.index(" 안팎")) == (0, 0)  # whole words
    assert torn_edges("abc", 1, 2) == (1, 0)  # one piece is never counted twice


def test_a_fixed_size_chunk_is_sent_with_its_torn_edges():
    text = "In 2022 there were 13,800,000 visitors. The record stands."
    end = text.index(",800")
    chunk = Chunk("d::0", "d", 0, 0, end, 0, text[:end], text[:end])
    ctx = build_context(
        "How many visitors?", [Hit("d::0", "d", 0, 1.0)], {"d::0": chunk},
        {"d": Document("d", "Visitors", text)}, cfg(), tokenizer=TOK,
    )  # fmt: skip
    (src,) = ctx.sources
    assert src.quote == text[:end] and src.torn == (0, len("13"))


def test_system_text_marks_untrusted_asks_citations_and_refusal():
    assert "untrusted" in SYSTEM_TEXT
    assert "[1]" in SYSTEM_TEXT
    assert REFUSAL_TEXT in SYSTEM_TEXT


def test_layout_constants_shape_the_user_turn(monkeypatch):
    import rag_core.answer.prompt as prompt

    monkeypatch.setattr(prompt, "SOURCES_HEADING", "Sources:")
    monkeypatch.setattr(prompt, "SOURCE_WHERE", "{section}")
    ctx = build_context(Q, hits(IDS[:1]), CHUNKS, DOCS, cfg(), tokenizer=TOK)
    block = f'<source id="1" title="Facts">\n{PARAS[0]}\n</source>\n'
    assert ctx.user_text == "Sources:\n\n" + block + QUESTION_LABEL + Q + ANSWER_HINT
    s = ctx.sources[0]
    assert ctx.prompt_text[ctx.prompt_text.index(PARAS[0]) :].startswith(s.quote)


def test_ordering_ends_puts_best_at_both_ends():
    ctx = build_context(Q, hits(), CHUNKS, DOCS, cfg(ordering="ends"), tokenizer=TOK)
    placed = [s.chunk_id for s in sorted((s for s in ctx.sources if s.n), key=lambda s: s.n)]
    assert placed == [IDS[0], IDS[2], IDS[4], IDS[5], IDS[3], IDS[1]]  # ranks 1,3,5,6,4,2
    assert order_sources([1, 2, 3, 4, 5, 6, 7], "ends") == [1, 3, 5, 7, 6, 4, 2]


def test_ordering_document_follows_offsets():
    reverse = list(reversed(IDS))
    ctx = build_context(Q, hits(reverse), CHUNKS, DOCS, cfg(ordering="document"), tokenizer=TOK)
    placed = [s.chunk_id for s in sorted((s for s in ctx.sources if s.n), key=lambda s: s.n)]
    assert placed == IDS


def test_near_duplicates_are_dropped_with_reason():
    dup = Chunk(
        "jeju::u::0000", "jeju", 0, 0, len(PARAS[0]), 0, PARAS[0], PARAS[0], section="Facts"
    )
    chunks = {**CHUNKS, dup.chunk_id: dup}
    ctx = build_context(
        Q, hits([IDS[0], dup.chunk_id, IDS[1]]), chunks, DOCS, cfg(dedup=True), tokenizer=TOK
    )
    dropped = [s for s in ctx.sources if s.status == "dropped"]
    assert [(s.chunk_id, s.reason, s.duplicate_of) for s in dropped] == [
        (dup.chunk_id, "duplicate", IDS[0])
    ]
    assert [s.n for s in ctx.sources if s.n] == [1, 2]
    a, b = shingles(PARAS[0]), shingles(PARAS[0][:40])
    assert containment(a, b) == len(a & b) / min(len(a), len(b)) == 1.0


def test_per_source_cap_cuts_at_sentence_boundary():
    cap = len(PARAS[1]) - 5  # the last sentence no longer fits
    ctx = build_context(Q, hits([IDS[1]]), CHUNKS, DOCS, cfg(max_source_chars=cap), tokenizer=TOK)
    s = ctx.sources[0]
    kept = "Jeju has a mild climate. Tangerines grow well there."
    assert (s.status, s.reason, s.quote, s.cut_at) == (
        "cut",
        "cap",
        kept,
        CHUNKS[IDS[1]].start + len(kept),
    )
    assert s.locator == f"#char={s.start},{s.start + len(kept)}"


def test_pack_keeps_whole_sources_then_cuts_one_at_sentence_then_drops():
    two = TOK.prompt_text(SYSTEM_TEXT, user_text(Q, [(IDS[0], PARAS[0]), (IDS[1], PARAS[1])]))
    third_first_sentence = "Error E17 means the disk is full."
    three_cut = TOK.prompt_text(
        SYSTEM_TEXT,
        user_text(Q, [(IDS[0], PARAS[0]), (IDS[1], PARAS[1]), (IDS[2], third_first_sentence)]),
    )
    budget = len(three_cut) + 3  # room for the first sentence of source 3, not the whole
    assert len(two) < budget
    ctx = build_context(Q, hits(), CHUNKS, DOCS, cfg(budget_tokens=budget), tokenizer=TOK)
    status = [(s.chunk_id, s.status, s.reason) for s in ctx.sources]
    assert status[:3] == [
        (IDS[0], "included", ""),
        (IDS[1], "included", ""),
        (IDS[2], "cut", "budget"),
    ]
    assert status[3:] == [(c, "dropped", "budget") for c in IDS[3:]]
    cut = ctx.sources[2]
    assert cut.quote == third_first_sentence
    assert cut.cut_at == CHUNKS[IDS[2]].start + len(third_first_sentence)
    assert ctx.prompt_text == three_cut
    assert ctx.tokens_after == len(three_cut) <= budget
    assert ctx.truncated and not ctx.question_cut
    assert Q in ctx.actual_input_text
    full = TOK.prompt_text(SYSTEM_TEXT, user_text(Q, [(c, CHUNKS[c].content) for c in IDS]))
    assert ctx.tokens_before == len(full)
    # tokens of a source = the characters of its block in the prompt
    block = f'<source id="1" title="Jeju facts › Facts">\n{PARAS[0]}\n</source>\n'
    assert ctx.sources[0].tokens == len(block)


def test_pack_never_cuts_the_question():
    q = "Why " + "really " * 40 + "?"
    base = TOK.prompt_text(SYSTEM_TEXT, QUESTION_LABEL + q + ANSWER_HINT)
    ctx = build_context(q, hits(), CHUNKS, DOCS, cfg(budget_tokens=len(base) - 1), tokenizer=TOK)
    assert ctx.status == "error"
    assert ctx.message.startswith(
        f"the instructions and the question alone take {len(base)} tokens"
    )
    ok = build_context(q, hits(), CHUNKS, DOCS, cfg(budget_tokens=len(base)), tokenizer=TOK)
    assert ok.status == "ok" and q in ok.actual_input_text
    assert all(s.status == "dropped" for s in ok.sources)


def test_hard_cut_keeps_first_budget_ids_and_can_cut_the_question():
    full_ctx = build_context(Q, hits(IDS[:3]), CHUNKS, DOCS, cfg(policy="hard-cut"), tokenizer=TOK)
    n_full = len(full_ctx.full_ids)
    budget = n_full - len(ANSWER_HINT + "</u><a>") - 5  # ends inside the question
    ctx = build_context(
        Q, hits(IDS[:3]), CHUNKS, DOCS, cfg(policy="hard-cut", budget_tokens=budget), tokenizer=TOK
    )
    assert list(ctx.input_ids) == list(ctx.full_ids[:budget])
    assert ctx.actual_input_text == ctx.prompt_text[:budget]
    assert ctx.question_cut and ctx.truncated
    assert (ctx.tokens_before, ctx.tokens_after) == (n_full, budget)
    # a cut inside source 2: source 2 cut at the exact character, source 3 dropped
    s2_quote_start = ctx.prompt_text.index(PARAS[1])
    b2 = s2_quote_start + 10
    ctx2 = build_context(
        Q, hits(IDS[:3]), CHUNKS, DOCS, cfg(policy="hard-cut", budget_tokens=b2), tokenizer=TOK
    )
    by = {s.chunk_id: s for s in ctx2.sources}
    assert (by[IDS[1]].status, by[IDS[1]].reason, by[IDS[1]].quote) == (
        "cut",
        "budget",
        PARAS[1][:10],
    )
    assert by[IDS[1]].cut_at == CHUNKS[IDS[1]].start + 10
    assert (by[IDS[2]].status, by[IDS[2]].reason) == ("dropped", "budget")


def test_hashes_are_of_the_prompt_text_and_the_ids_sent():
    ctx = build_context(Q, hits(IDS[:2]), CHUNKS, DOCS, cfg(), tokenizer=TOK)
    assert ctx.prompt_sha256 == hashlib.sha256(ctx.prompt_text.encode("utf-8")).hexdigest()
    assert (
        ctx.ids_sha256
        == hashlib.sha256(np.asarray(ctx.input_ids, dtype="<i4").tobytes()).hexdigest()
    )
    assert ids_sha256(list(ctx.input_ids)) == ctx.ids_sha256


def test_no_hits_is_skipped_and_gate_drops_are_listed():
    ctx = build_context(Q, [], CHUNKS, DOCS, cfg(), tokenizer=TOK, dropped_by_gate=hits(IDS[:2]))
    assert ctx.status == "skipped"
    assert [(s.status, s.reason) for s in ctx.sources] == [("dropped", "gate")] * 2
    assert ctx.prompt_sha256 is None and ctx.ids_sha256 is None and ctx.tokens_after is None


def test_bad_input_messages():
    with pytest.raises(ValueError, match=re.escape("the question is empty")):
        build_context("   ", hits(), CHUNKS, DOCS, cfg(), tokenizer=TOK)
    with pytest.raises(
        ValueError, match=re.escape("chunk 'nope' of the kept hits is not in the chunk table")
    ):
        build_context(Q, [Hit("nope", "jeju", 1, 1.0)], CHUNKS, DOCS, cfg(), tokenizer=TOK)


def test_sentence_spans_english_korean_decimal():
    text = "한라산은 높다. 노루가 산다요. 높이는 1.5 km입니다. Is it? Yes!\nNext line"
    got = [text[a:b] for a, b in sentence_spans(text)]
    assert got == [
        "한라산은 높다.",
        "노루가 산다요.",
        "높이는 1.5 km입니다.",
        "Is it?",
        "Yes!",
        "Next line",
    ]


def test_fallback_tokenizer_is_named_and_said():
    ctx = build_context(
        Q,
        hits(IDS[:2]),
        CHUNKS,
        DOCS,
        cfg(budget_tokens=1024),
        tokenizer=fallback_prompt_tokenizer(),
    )
    assert "fallback" in ctx.tokenizer
    assert "only estimate" in ctx.message


@pytest.mark.slow
def test_real_instructions_fit_the_reserved_tokens_with_qwen():
    from rag_core.models import get_generator

    gen = get_generator("qwen2.5-coder-0.5b")
    framing = (SOURCES_HEADING + "\n\n" if SOURCES_HEADING else "") + QUESTION_LABEL + ANSWER_HINT
    n = len(gen.prompt_ids(SYSTEM_TEXT, framing))
    assert n <= RESERVED_INSTRUCTION_TOKENS
    ctx = build_context(Q, hits(IDS[:3]), CHUNKS, DOCS, cfg(budget_tokens=1024), tokenizer=gen)
    messages = [
        {"role": "system", "content": SYSTEM_TEXT},
        {"role": "user", "content": ctx.user_text},
    ]
    peer = gen.tokenizer.apply_chat_template(
        messages, tokenize=True, add_generation_prompt=True, return_dict=False
    )
    assert list(ctx.input_ids) == list(peer)
    assert ctx.actual_input_text == gen.tokenizer.decode(list(peer))


class MergingTokenizer(CharTokenizer):
    """One token per character, except that ``"\\n<"`` is one token (a merge across the join
    of two source blocks, as BPE makes), counting how often a whole prompt is encoded."""

    def __init__(self) -> None:
        self.prompts = 0

    def encode(self, text: str) -> list[int]:
        if text.startswith("<s>"):
            self.prompts += 1
        return [ord(c) for c in text.replace("\n<", "\x00")]

    def encode_offsets(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        ids, offsets, i = [], [], 0
        while i < len(text):
            step = 2 if text.startswith("\n<", i) else 1
            ids.append(0 if step == 2 else ord(text[i]))
            offsets.append((i, i + step))
            i += step
        return ids, offsets


def many_chunks(n: int) -> tuple[dict[str, Chunk], dict[str, Document]]:
    paras = [
        f"Fact {i} is about stone wall {i}. It stands {i * 7} m from the coast. Cows pass it."
        for i in range(n)
    ]
    text = "\n\n".join(paras)
    chunks, pos = {}, 0
    for i, p in enumerate(paras):
        start = text.index(p, pos)
        cid = f"walls::t::{i:04d}"
        chunks[cid] = Chunk(cid, "walls", i, start, start + len(p), start, p, p, section="W")
        pos = start + len(p)
    return chunks, {"walls": Document("walls", "Walls", text)}


@pytest.mark.parametrize("ordering", ["rank", "ends", "document"])
def test_pack_counts_the_whole_prompt_a_few_times_not_once_per_source(ordering):
    chunks, docs = many_chunks(300)
    ids = list(chunks)
    tok = MergingTokenizer()
    full = build_context(Q, hits(ids), chunks, docs, cfg(ordering=ordering), tokenizer=tok)
    budget = full.tokens_before * 2 // 3 + 5  # about 200 whole sources, then one cut
    tok.prompts = 0
    ctx = build_context(
        Q, hits(ids), chunks, docs, cfg(budget_tokens=budget, ordering=ordering), tokenizer=tok
    )
    # the old packer encoded the whole prompt once per source kept (~200 times here)
    assert tok.prompts <= 20, tok.prompts
    assert ctx.tokens_after == len(tok.encode(ctx.prompt_text)) <= budget
    by_rank = sorted((s for s in ctx.sources), key=lambda s: ids.index(s.chunk_id))
    status = [s.status for s in by_rank]
    k = status.index("cut") if "cut" in status else status.index("dropped")
    assert status[:k] == ["included"] * k and set(status[k + 1 :]) == {"dropped"}
    assert 150 < k < 250
    # the largest fit: the next sentence of the cut source (or the next source whole) does not
    nxt = by_rank[k]
    quotes = [(s.chunk_id, s.quote) for s in by_rank[:k]]
    content = chunks[nxt.chunk_id].content
    more = [b for _a, b in sentence_spans(content) if b > len(nxt.quote or "")]
    longer = content[: more[0]] if more else content
    order = order_sources([*quotes, (nxt.chunk_id, longer)], ordering, key_doc=lambda q: q[0])
    bigger = TOK.prompt_text(SYSTEM_TEXT, user_text(Q, order))
    bigger = bigger.replace("Jeju facts › Facts", "Walls › W")
    assert len(tok.encode(bigger)) > budget
