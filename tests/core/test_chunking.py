"""Chunkers, token windows and chunking diagnostics.

The offset invariant ``doc.text[c.start:c.end] == c.content`` is checked on
every chunker, with and without overlap/header, on adversarial inline
documents and on the whole sample corpus when it is present.
"""

from __future__ import annotations

import math
import random
import re

import pytest
from helpers.paths import ROOT

from rag_core.chunking import (
    CHUNKERS,
    chunk_corpus,
    chunk_document,
    diagnose,
    make_header,
    skipped_blocks,
    token_windows,
)
from rag_core.chunking.tokens import piece_windows
from rag_core.config import CHUNK_STRATEGIES, ChunkerConfig, preset
from rag_core.corpus.loaders import load_bytes, load_directory
from rag_core.models.tokenizer import (
    ENCODER_WINDOW,
    count_tokens,
    max_word_chars,
    piece_offsets,
    token_offsets,
)
from rag_core.types import Document, Needle

SAMPLE_DOCS = ROOT / "sample_corpus" / "docs"
SAMPLE_HTML = ROOT / "sample_corpus" / "html"


def doc_of(text: str, doc_id: str = "d", title: str = "Title") -> Document:
    return Document(doc_id=doc_id, title=title, text=text)


ADVERSARIAL = {
    "korean": "## 지형\n\n한라산의 높이는 1,947m이다. 제주도는 화산섬이다!\n\n## 기후\n\n겨울에도 "
    "비교적 따뜻하다.\n",
    "crlf_loaded": load_bytes(
        "c.md", b"intro line\r\n\r\n## A\r\nbody one\r\nbody two\r\n\r\n\r\n## B\r\nlast\r\n"
    )
    .documents[0]
    .text,
    "empty_sections": "## Empty\n## Also empty\n\n## Full\ntext here.\n## Trailing empty\n",
    "pre_heading": "Text before any heading.\n\nMore intro.\n## First\nSection text.",
    "no_heading": "Just one paragraph without a heading, long enough to be cut somewhere. " * 12,
    "long_sentence": "## S\n" + ("word " * 150) + ". Short one. " + ("x" * 600) + "!\n\nnext para",
    "whitespace_runs": "   \n\n\n   ## not heading\n\n" + " " * 40 + "\n\nend",
    "heading_at_end": "para\n\n## Last",
    "single_char": "x",
    "mixed": "# Doc title\n\n## 개요 Overview\n\n"
    + "Mixed 한국어 and English sentences. " * 30
    + "\n\n## Tail\n\n끝.",
}


def configs(strategy: str) -> list[ChunkerConfig]:
    out = []
    for target in (24, 64) if strategy == "tokens" else (40, 128, 512):
        for overlap in (0, 16):
            for header in (False, True):
                out.append(
                    ChunkerConfig(strategy=strategy, target=target, overlap=overlap, header=header)
                )
    return out


def check_invariants(doc: Document, chunks, cfg: ChunkerConfig) -> None:
    prev_own = -1
    for i, c in enumerate(chunks):
        assert c.content == doc.text[c.start : c.end], c.chunk_id
        assert c.chunk_id == f"{doc.doc_id}::{cfg.signature}::{i:04d}"
        assert c.ordinal == i and c.doc_id == doc.doc_id
        assert 0 <= c.start <= c.own_start < c.end <= len(doc.text)
        assert c.own_start > prev_own
        prev_own = c.own_start
        assert c.content.strip()
        if cfg.header:
            assert c.header == make_header(doc.title, c.section)
            assert c.text == c.header + c.content
        else:
            assert c.header == "" and c.text == c.content
    if chunks:
        assert chunks[0].start == chunks[0].own_start


# -------------------------------------------------------------- registry


def test_registry_names_match_config():
    assert CHUNKERS.names() == CHUNK_STRATEGIES
    with pytest.raises(
        ValueError,
        match=re.escape(
            f"unknown chunker 'semantic'; valid choices: {', '.join(CHUNK_STRATEGIES)}"
        ),
    ):
        CHUNKERS.get("semantic")


@pytest.mark.parametrize("strategy", CHUNK_STRATEGIES)
@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_offset_invariant_adversarial(strategy, name):
    doc = doc_of(ADVERSARIAL[name], doc_id=name)
    for cfg in configs(strategy):
        check_invariants(doc, chunk_document(doc, cfg, count_tokens=False), cfg)


def _sample_documents() -> list[Document]:
    docs: list[Document] = []
    for folder in (SAMPLE_DOCS, SAMPLE_HTML):
        if folder.is_dir():
            docs.extend(load_directory(folder).documents)
    return docs


@pytest.mark.parametrize("strategy", CHUNK_STRATEGIES)
def test_offset_invariant_sample_corpus(strategy):
    docs = _sample_documents()
    if not docs:
        pytest.skip("sample_corpus/docs and sample_corpus/html are absent")
    for cfg in configs(strategy):
        for doc in docs:
            check_invariants(doc, chunk_document(doc, cfg, count_tokens=False), cfg)


def test_presets_on_sample_corpus_count_tokens():
    docs = _sample_documents()
    if not docs:
        pytest.skip("sample_corpus/docs is absent")
    for name in "ABCDEF":
        cfg = preset(name).chunker
        # the HTML edition shares its doc_id with the Markdown original: chunk each set apart
        for group in (
            [d for d in docs if d.format != "html"],
            [d for d in docs if d.format == "html"],
        ):
            chunks = chunk_corpus(group, cfg)
            assert [c.tokens for c in chunks] == count_tokens([c.text for c in chunks])
            by_id = {d.doc_id: d for d in group}
            assert all(by_id[c.doc_id].text[c.start : c.end] == c.content for c in chunks)


# ----------------------------------------------------------------- blind


def test_blind_cuts_every_target_chars():
    text = "## A\n" + "a" * 30 + "\n## B\n" + "b" * 40 + "\n" + " " * 20 + "tail"
    doc = doc_of(text)
    target = 16
    chunks = chunk_document(doc, ChunkerConfig(strategy="blind", target=target), count_tokens=False)
    kept = [
        i
        for i in range(math.ceil(len(text) / target))
        if text[i * target : (i + 1) * target].strip()
    ]
    assert [c.own_start for c in chunks] == [i * target for i in kept]
    assert [c.end for c in chunks] == [min((i + 1) * target, len(text)) for i in kept]
    assert [c.content for c in chunks] == [text[i * target : (i + 1) * target] for i in kept]
    b_at = text.index("## B")
    assert [c.section for c in chunks] == ["A" if c.own_start < b_at else "B" for c in chunks]


def test_blind_skips_whitespace_only_spans():
    text = "abc" + " " * 13 + " " * 16 + "xyz"
    chunks = chunk_document(
        doc_of(text), ChunkerConfig(strategy="blind", target=16), count_tokens=False
    )
    assert [(c.own_start, c.end) for c in chunks] == [(0, 16), (32, 35)]


def test_blind_overlap_starts_n_chars_earlier():
    text = "".join(chr(ord("a") + i % 26) for i in range(100))
    cfg = ChunkerConfig(strategy="blind", target=32, overlap=8)
    chunks = chunk_document(doc_of(text), cfg, count_tokens=False)
    assert [c.own_start for c in chunks] == [0, 32, 64, 96]
    assert [c.start for c in chunks] == [0, 32 - 8, 64 - 8, 96 - 8]
    assert chunks[1].content[:8] == chunks[0].content[-8:]


# ------------------------------------------------------------ boundaries
# An independent, line-based implementation of the rule in rag_core/chunking/boundaries.py.


def reference_boundaries(doc: Document, target: int, overlap: int = 0, header: bool = False):
    """The chunks the boundaries rule makes of ``doc``: ``(start, end, content, text, section)``."""
    text = doc.text
    pieces = []  # (span start, span end, section)
    for title, body in _ref_sections(text):
        pieces += _ref_pack_paragraphs(text, _ref_paragraphs(body), target, title)
    return _ref_chunks(doc, pieces, overlap, header)


_REF_FULL = "。！？．｡"


def _ref_sections(text: str) -> list[tuple[str, list[tuple[int, int]]]]:
    """The sections: ``(title, [line spans of the body])``; a line's end excludes its break."""
    lines = []  # (start, end) of every line, end excluding "\n"
    pos = 0
    for line in text.split("\n"):
        lines.append((pos, pos + len(line)))
        pos += len(line) + 1
    secs: list[tuple[str, list[tuple[int, int]]]] = [("", [])]
    for s, e in lines:
        if text[s:e].startswith("## "):
            secs.append((text[s + 3 : e].strip(), []))
        else:
            secs[-1][1].append((s, e))
    return secs


def _ref_paragraphs(body: list[tuple[int, int]]) -> list[list[int]]:
    """The ``[start, end]`` of each run of non-empty lines of a section's body."""
    paras: list[list[int]] = []
    prev_nonempty_end = None
    for s, e in body:
        if e == s:
            prev_nonempty_end = None
            continue
        if prev_nonempty_end is not None and s == prev_nonempty_end + 1:
            paras[-1][1] = e
        else:
            paras.append([s, e])
        prev_nonempty_end = e
    return paras


def _ref_pack_paragraphs(text: str, paras: list[list[int]], target: int, title: str):
    """Whole paragraphs packed up to ``target`` chars; one over ``target`` packed by its units."""
    pieces = []
    open_chunk = None
    for ps, pe in paras:
        if pe - ps > target:
            if open_chunk:
                pieces.append((*open_chunk, title))
                open_chunk = None
            pieces += _ref_pack_units(text, ps, pe, target, title)
        elif open_chunk is None:
            open_chunk = [ps, pe]
        elif pe - open_chunk[0] <= target:
            open_chunk[1] = pe
        else:
            pieces.append((*open_chunk, title))
            open_chunk = [ps, pe]
    if open_chunk:
        pieces.append((*open_chunk, title))
    return pieces


def _ref_pack_units(text: str, ps: int, pe: int, target: int, title: str):
    """The units of one long paragraph packed up to ``target`` chars."""
    pieces = []
    sent_open = None
    for ss, se in _ref_units(text, ps, pe, target):
        if sent_open is None:
            sent_open = [ss, se]
        elif se - sent_open[0] <= target:
            sent_open[1] = se
        else:
            pieces.append((*sent_open, title))
            sent_open = [ss, se]
    if sent_open:
        pieces.append((*sent_open, title))
    return pieces


def _ref_units(text: str, s: int, e: int, target: int):
    """The units of ``text[s:e]``, each at most ``target`` chars."""
    # a sentence over target: its lines; a line over target: its words;
    # a run of non-space chars over target: cut every target chars
    for ss, se in _ref_sentences(text, s, e):
        if se - ss <= target:
            yield ss, se
            continue
        for ls, le in _ref_lines(text, ss, se):
            if le - ls <= target:
                yield ls, le
                continue
            for i, j, k in _ref_words(text, ls, le):
                if k - i <= target or j - i <= target:
                    yield i, k
                    continue
                for p in range(i, j, target):
                    yield p, min(p + target, j)
                if k > j:
                    yield j, k


def _ref_sentences(text: str, s: int, e: int):
    """Sentences of ``text[s:e]``: up to a run of full-width end marks, or of ASCII ones (and
    closing quotes or brackets) followed by whitespace or the end, and the whitespace after it."""
    i = s
    while i < e:
        j = i
        while j < e:
            if text[j] in _REF_FULL:
                while j < e and text[j] in _REF_FULL:
                    j += 1
                break
            if text[j] in ".!?":
                k = j
                while k < e and text[k] in ".!?":
                    k += 1
                while k < e and text[k] in "\"'”’)]":
                    k += 1
                if k == e or text[k].isspace():
                    j = k
                    break
                j = k  # "3.1", "0.05": no sentence end
                continue
            j += 1
        while j < e and text[j].isspace():
            j += 1
        yield i, j
        i = j


def _ref_lines(text: str, s: int, e: int):
    """Lines of ``text[s:e]``, each with its line break."""
    i = s
    while i < e:
        j = i
        while j < e and text[j] != "\n":
            j += 1
        j = min(j + 1, e)  # the line break belongs to its line
        yield i, j
        i = j


def _ref_words(text: str, s: int, e: int):
    """Words of ``text[s:e]``: (start, end of the non-space run, end of the whitespace after it)."""
    i = s
    while i < e and text[i].isspace():
        i += 1
    while i < e:
        j = i
        while j < e and not text[j].isspace():
            j += 1
        k = j
        while k < e and text[k].isspace():
            k += 1
        yield i, j, k
        i = k


def _ref_chunks(doc: Document, pieces, overlap: int, header: bool):
    """The pieces trimmed of outer whitespace, blank ones dropped, overlap and header added."""
    text = doc.text
    out = []
    for s, e, title in pieces:
        raw = text[s:e]
        if not raw.strip():
            continue
        own = s + (len(raw) - len(raw.lstrip()))
        end = e - (len(raw) - len(raw.rstrip()))
        start = own if not out else max(0, own - overlap)
        content = text[start:end]
        head = (f"[{doc.title} > {title}]\n" if title else f"[{doc.title}]\n") if header else ""
        out.append((start, end, content, head + content, title))
    return out


def assert_same_as_reference(doc: Document, target: int, overlap: int, header: bool) -> int:
    cfg = ChunkerConfig(strategy="boundaries", target=target, overlap=overlap, header=header)
    got = [
        (c.start, c.end, c.content, c.text, c.section)
        for c in chunk_document(doc, cfg, count_tokens=False)
    ]
    expected = reference_boundaries(doc, target, overlap, header)
    assert len(got) == len(expected), doc.doc_id
    for g, x in zip(got, expected, strict=True):
        assert g == x, doc.doc_id
    return len(got)


def synthetic_doc(seed: int) -> Document:
    rng = random.Random(seed)
    words = ["alpha", "beta", "한라산의", "높이는", "1,947m", "E17", "code", "x" * 50, "제주"]
    parts = []
    if rng.random() < 0.5:
        parts.append("## " + rng.choice(words))
    for _ in range(rng.randint(1, 12)):
        kind = rng.random()
        if kind < 0.2:
            parts.append("## " + " ".join(rng.choices(words, k=rng.randint(0, 3))))
        elif kind < 0.3:
            parts.append("")
        else:
            sents = []
            for _ in range(rng.randint(1, 12)):
                sent = " ".join(rng.choices(words, k=rng.randint(1, 14)))
                sents.append(sent + rng.choice([".", "!", "?", "...", "", ".\n"]))
            parts.append(" ".join(sents))
        parts.append(rng.choice(["", "", "\n", " "]))
    return doc_of("\n".join(parts), doc_id=f"syn{seed}", title="Synthetic")


INLINE_STARTING_WITH_HEADING = [
    "## One\n\nShort para.\n\nAnother short para.\n\n## Two\n"
    + "A sentence here. " * 50
    + "\n\nTail para.",
    "## 한국어\n\n" + "한라산은 제주도의 중앙에 있다. " * 40 + "\n\n## 끝\n\n짧다.",
    "## Empty\n## Lines only\n\n\n\n## X\nline\nline two\n\n   \n\nspaced",
]


@pytest.mark.parametrize("overlap, header", [(0, False), (0, True), (20, False), (20, True)])
def test_boundaries_equals_independent_rule(overlap, header):
    n = 0
    docs = [doc_of(t, doc_id=f"inline{i}") for i, t in enumerate(INLINE_STARTING_WITH_HEADING)]
    docs += [synthetic_doc(seed) for seed in range(60)]
    docs += [doc_of(t, doc_id=k) for k, t in ADVERSARIAL.items()]
    for doc in docs:
        for target in (32, 100, 512):
            n += assert_same_as_reference(doc, target, overlap, header)
    assert n > 500


def test_boundaries_equals_independent_rule_on_sample_corpus():
    docs = [d for d in _sample_documents() if d.format != "html"]
    if not docs:
        pytest.skip("sample_corpus/docs is absent")
    for doc in docs:
        # as loaded (text before the first ## heading is a section), and cut
        # to start at its first ## heading (the equality case)
        variants = [doc]
        at = doc.text.find("\n## ")
        if at >= 0:
            variants.append(
                doc_of(doc.text[at + 1 :], doc_id=doc.doc_id + "-from-heading", title=doc.title)
            )
        for d in variants:
            for overlap, header in ((0, False), (64, True)):
                assert_same_as_reference(d, 512, overlap, header)


def test_boundaries_rule_details():
    text = "Intro before heading.\n\n## A\nPara one.\n\nPara two is here.\n## B\n\n\n"
    doc = doc_of(text)
    chunks = chunk_document(
        doc, ChunkerConfig(strategy="boundaries", target=40), count_tokens=False
    )
    # pre-heading text kept with an empty section; heading lines are no content;
    # "Para one." + "Para two is here." span 28 chars <= 40 -> packed together
    assert [(c.section, c.content) for c in chunks] == [
        ("", "Intro before heading."),
        ("A", "Para one.\n\nPara two is here."),
    ]
    assert chunks[1].start == text.index("Para one.")


def test_boundaries_long_paragraph_splits_into_sentences_and_a_long_sentence_at_spaces():
    long_sentence = "word " * 14 + "end."  # 74 chars, one line
    para = "First short. Second short! " + long_sentence + " Tail?"
    doc = doc_of("## S\n" + para + "\n\nNext paragraph.")
    chunks = chunk_document(
        doc, ChunkerConfig(strategy="boundaries", target=30), count_tokens=False
    )
    # "word " is 5 chars: six words (30 chars, its last space trimmed) fill a chunk
    assert [c.content for c in chunks] == [
        "First short. Second short!",
        " ".join(["word"] * 6),
        " ".join(["word"] * 6),
        "word word end. Tail?",
        "Next paragraph.",
    ]
    assert not any(c.hard_cut for c in chunks)


def test_boundaries_never_ends_a_sentence_at_a_decimal_point():
    # "Llama 3.1" and "0.05" are no sentence ends (no whitespace after the point): a long
    # paragraph splits after "big." and "it.", and a Markdown table, which has no sentence end,
    # splits at its rows, never inside a cell
    para = "Llama 3.1 405B is big. SimCSE used 0.05 and reported it. Then more words follow."
    rows = ["| Model | size |", "|---|---:|", "| Llama 3.1 405B | 1.97 GiB |", "| GPT-3 | 18 GiB |"]
    doc = doc_of("## S\n" + para + "\n\n" + "\n".join(rows))
    chunks = chunk_document(
        doc, ChunkerConfig(strategy="boundaries", target=40), count_tokens=False
    )
    assert [c.content for c in chunks] == [
        "Llama 3.1 405B is big.",
        "SimCSE used 0.05 and reported it.",
        "Then more words follow.",
        "\n".join(rows[:2]),
        rows[2],
        rows[3],
    ]


def test_boundaries_hard_cuts_a_word_longer_than_target():
    # a spaceless run has no boundary at the target: cut every target chars, marked
    word = "w" * 70 + "."
    para = "First short. Second short! " + word + " Tail?"
    doc = doc_of("## S\n" + para + "\n\nNext paragraph.")
    chunks = chunk_document(
        doc, ChunkerConfig(strategy="boundaries", target=30), count_tokens=False
    )
    assert [(c.content, c.hard_cut) for c in chunks] == [
        ("First short. Second short!", False),
        ("w" * 30, True),
        ("w" * 30, True),
        ("w" * 10 + ". Tail?", False),
        ("Next paragraph.", False),
    ]
    assert max(len(c.content) for c in chunks) <= 30


# Chinese, one sentence per line: full-width terminators, no ASCII space anywhere.
ZH_PHRASES = [
    "检索增强生成",
    "把外部文档",
    "放进提示里",
    "模型只看上下文",
    "分块决定了",
    "哪些句子",
    "一起被检索",
]


def chinese_lines(n: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    lines = [
        "".join(rng.choices(ZH_PHRASES, k=rng.randint(2, 5))) + rng.choice("。！？")
        for _ in range(n)
    ]
    return "\n".join(lines)


def test_boundaries_splits_chinese_at_full_width_terminators():
    # issue 27: one 1,559-char chunk under boundaries/512 -- 。！？ ended no sentence
    para = chinese_lines(80)
    assert " " not in para and len(para) > 3 * 512
    doc = doc_of("## 中文\n" + para + "\n\n下一段。")
    chunks = chunk_document(
        doc, ChunkerConfig(strategy="boundaries", target=512), count_tokens=False
    )
    body = [c for c in chunks if c.content != "下一段。"]
    assert len(body) >= 3
    assert max(len(c.content) for c in chunks) <= 512
    assert not any(c.hard_cut for c in chunks)
    # each chunk of the paragraph ends at a terminator; together they are the paragraph
    assert all(c.content[-1] in "。！？" for c in body)
    assert "\n".join(c.content for c in body) == para


@pytest.mark.parametrize("mark", ["．", "｡"])
def test_boundaries_full_width_and_half_width_full_stops_end_sentences(mark):
    sentence = "句子" * 10 + mark  # 21 chars
    doc = doc_of(sentence * 4)
    chunks = chunk_document(
        doc, ChunkerConfig(strategy="boundaries", target=50), count_tokens=False
    )
    assert [c.content for c in chunks] == [sentence * 2, sentence * 2]


def test_boundaries_long_sentence_splits_at_line_breaks_before_a_hard_cut():
    # a table: one "sentence" (no terminator) of many lines, longer than the target
    rows = [f"| row {i} | value {i} |" for i in range(6)]  # 20 chars each
    doc = doc_of("\n".join(rows))
    chunks = chunk_document(
        doc, ChunkerConfig(strategy="boundaries", target=45), count_tokens=False
    )
    assert [c.content for c in chunks] == ["\n".join(rows[i : i + 2]) for i in (0, 2, 4)]
    assert not any(c.hard_cut for c in chunks)


def test_boundaries_spaceless_line_longer_than_target_is_hard_cut():
    # a Chinese line with no terminator and no space: split at line breaks, then cut every target
    line = "检索增强生成" * 10  # 60 chars
    doc = doc_of(line + "\n" + "短行")
    chunks = chunk_document(
        doc, ChunkerConfig(strategy="boundaries", target=25), count_tokens=False
    )
    assert [(c.content, c.hard_cut) for c in chunks] == [
        (line[:25], True),
        (line[25:50], True),
        (line[50:] + "\n短行", False),
    ]


def test_no_boundaries_chunk_exceeds_target():
    # long sentences with spaces, long lines, long words: no chunk's own span is over the target
    docs = [doc_of(t, doc_id=k) for k, t in ADVERSARIAL.items()]
    docs += [doc_of(chinese_lines(60, seed), doc_id=f"zh{seed}") for seed in range(3)]
    docs += [synthetic_doc(seed) for seed in range(30)]
    for doc in docs:
        for target in (32, 100, 512):
            cfg = ChunkerConfig(strategy="boundaries", target=target)
            for c in chunk_document(doc, cfg, count_tokens=False):
                assert c.end - c.own_start <= target, (doc.doc_id, target, c.content)


@pytest.mark.parametrize(
    "cfg",
    [ChunkerConfig(target=512), ChunkerConfig(strategy="tokens", target=256, overlap=0)],
    ids=["boundaries-512", "tokens-256"],
)
def test_spaceless_line_is_split_and_hard_cuts_are_counted(cfg):
    # 200,000 chars without a space were one chunk counted as 3 tokens ([CLS] [UNK] [SEP])
    n = 200_000
    doc = doc_of("x" * n + "\n")
    chunks = chunk_document(doc, cfg)
    assert len(chunks) > 1
    assert (
        "".join(doc.text[c.own_start : c.end] for c in chunks) == "x" * n
    )  # nothing lost, nothing repeated
    if cfg.strategy == "boundaries":
        assert max(len(c.content) for c in chunks) == 512
        assert len(chunks) == -(-n // 512)
    else:
        # every window holds `target` word-pieces of the cut word (the encoder would see each piece)
        assert max(len(c.content) for c in chunks) < 2_000
    assert sum(c.hard_cut for c in chunks) == len(chunks) - 1  # all but the last end mid-word
    diag = diagnose([doc], chunks)
    assert diag.n_hard_cuts == len(chunks) - 1
    # the counts are what the encoder receives for each chunk's text, never truncated
    from rag_core.models.tokenizer import count_tokens

    assert [c.tokens for c in chunks] == count_tokens([c.text for c in chunks])


def test_boundaries_header_and_overlap():
    doc = doc_of("Lead.\n\n## Sec\nOne para.\n\nTwo para.", title="My Doc")
    cfg = ChunkerConfig(strategy="boundaries", target=16, overlap=6, header=True)
    chunks = chunk_document(doc, cfg, count_tokens=False)
    assert [c.header for c in chunks] == ["[My Doc]\n", "[My Doc > Sec]\n", "[My Doc > Sec]\n"]
    assert chunks[0].start == chunks[0].own_start == 0
    for c in chunks[1:]:
        assert c.start == max(0, c.own_start - 6)
        assert c.text == c.header + doc.text[c.start : c.end]
        assert "[" not in c.content


# ----------------------------------------------------------------- tokens


@pytest.mark.parametrize(
    "n, window, overlap",
    [
        (10_000, 512, 64),
        (10_000, 512, 0),
        (10_000, 512, 128),
        (1_000, 200, 50),
        (513, 512, 64),
        (7, 3, 1),
    ],
)
def test_token_window_counts(n, window, overlap):
    windows = token_windows(n, window, overlap)
    assert len(windows) == math.ceil((n - overlap) / (window - overlap))
    assert windows[0][0] == 0 and windows[-1][1] == n
    step = window - overlap
    assert [s for s, _ in windows] == [i * step for i in range(len(windows))]
    assert all(e - s == window for s, e in windows[:-1])
    # tokens indexed (with repeats) = full windows + the last one
    assert sum(e - s for s, e in windows) == (len(windows) - 1) * window + (
        n - (len(windows) - 1) * step
    )


def test_token_window_seed_figures():
    assert len(token_windows(10_000, 512, 64)) == math.ceil((10_000 - 64) / (512 - 64))
    assert len(token_windows(10_000, 512, 0)) == math.ceil(10_000 / 512)
    assert len(token_windows(10_000, 512, 128)) == math.ceil((10_000 - 128) / (512 - 128))
    w = token_windows(1_000, 200, 50)
    assert len(w) == math.ceil((1_000 - 50) / (200 - 50))
    assert sum(e - s for s, e in w) == 6 * 200 + (1_000 - 6 * 150)


def test_token_window_edges_and_errors():
    assert token_windows(0, 8, 2) == []
    assert token_windows(5, 8, 2) == [(0, 5)]
    assert token_windows(8, 8, 2) == [(0, 8)]
    with pytest.raises(
        ValueError, match=re.escape("overlap = 8 must be >= 0 and smaller than window = 8")
    ):
        token_windows(10, 8, 8)
    with pytest.raises(ValueError, match=re.escape("window = 0 must be >= 1")):
        token_windows(10, 0, 0)
    with pytest.raises(ValueError, match=re.escape("n_tokens = -1 must be >= 0")):
        token_windows(-1, 4, 0)


@pytest.mark.parametrize(
    "text",
    [
        "The quick brown fox jumps over the lazy dog. Tokenization with offsets, not decode! " * 8,
        "한라산의 높이는 1,947m이다. 제주도는 화산섬이고 겨울에도 비교적 따뜻하다. " * 8,
        "Mixed 한국어 텍스트 and E17 error codes: WD-8412 dryer. Ünïcödé café. " * 8,
    ],
)
def test_token_chunks_follow_offset_mapping(text):
    doc = doc_of(text)
    window, overlap = 20, 5
    offsets = token_offsets(text)
    windows = token_windows(len(offsets), window, overlap)
    cfg = ChunkerConfig(strategy="tokens", target=window, overlap=overlap)
    chunks = chunk_document(doc, cfg, count_tokens=False)
    assert len(chunks) == len(windows) == math.ceil((len(offsets) - overlap) / (window - overlap))
    for i, (c, (s, e)) in enumerate(zip(chunks, windows, strict=True)):
        assert (c.start, c.end) == (offsets[s][0], offsets[e - 1][1])
        assert c.own_start == (c.start if i == 0 else offsets[windows[i - 1][1]][0])
        assert c.content == text[c.start : c.end]
        assert not c.content[0].isspace() and not c.content[-1].isspace()
    # every token's span is a real, non-empty slice of the original string
    assert all(0 <= a < b <= len(text) for a, b in offsets)
    # chunks together cover every token's characters
    covered = set()
    for c in chunks:
        covered.update(range(c.start, c.end))
    assert all(set(range(a, b)) <= covered for a, b in offsets)


def hangul_run(n: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    return "".join(chr(rng.randrange(0xAC00, 0xD7A4)) for _ in range(n))


def test_tokens_chunk_count_is_the_count_its_window_held():
    # issue 27: tokens/256 on a spaceless Korean line made windows of 256 cut pieces of 100 chars,
    # each one [UNK]: 25,600 chars shown as "3 tokens", the [CLS] [UNK] [SEP] of the whole chunk
    run = hangul_run(3_000)
    text = "제주도는 화산섬이다. " + run + " 끝에 한 문장이 더 있다."
    a, b = text.index(run), text.index(run) + len(run)
    chunks = chunk_document(doc_of(text), ChunkerConfig(strategy="tokens", target=256, overlap=0))
    # the chunker's tokens: the run cut in max_word_chars() pieces, each tokenized alone
    limit = max_word_chars()
    pieces = [(p, min(p + limit, b)) for p in range(a, b, limit)]
    held = token_offsets(text[:a])
    for (p, _q), rel in zip(pieces, piece_offsets([text[p:q] for p, q in pieces]), strict=True):
        held += [(p + x, p + y) for x, y in rel]
    held += [(b + x, b + y) for x, y in token_offsets(text[b:])]
    for c in chunks:
        n_held = sum(1 for s, e in held if c.start <= s and e <= c.end)
        assert c.tokens == n_held + 2, (c.ordinal, len(c.content))  # [CLS] ... [SEP]
        assert c.tokens == count_tokens([c.text])[0] <= 256 + 2
    # a window never joins two pieces of the cut word: each piece ends a chunk, mid-word
    assert [c.end for c in chunks if c.hard_cut] == [q for _, q in pieces[:-1]]
    assert max(len(c.content) for c in chunks) <= limit + max(a, len(text) - b)
    # nothing lost between chunks but whitespace
    assert chunks[0].own_start == 0 and chunks[-1].end == len(text)
    assert all(
        not text[x.end : y.own_start].strip() for x, y in zip(chunks, chunks[1:], strict=False)
    )


def test_piece_windows_never_span_a_break():
    assert piece_windows(10, 4, 1, [6]) == [(0, 4), (3, 6), (6, 10)]
    assert piece_windows(10, 4, 0, []) == token_windows(10, 4, 0)
    assert piece_windows(5, 8, 2, [1, 2, 2, 5, 0]) == [(0, 1), (1, 2), (2, 5)]
    assert piece_windows(0, 8, 2, []) == []


def test_token_offsets_map_korean_syllables_not_jamo():
    text = "한라산의 높이"
    spans = token_offsets(text)
    # the tokenizer splits syllables into jamo pieces, each carrying the syllable's span
    assert len(spans) > len(text.replace(" ", ""))
    assert {text[a:b] for a, b in spans} <= {"한", "라", "산", "의", "높", "이", "높이"}
    assert spans[0] == (0, 1)


def test_count_tokens_includes_specials():
    assert count_tokens(["a b", ""]) == [2 + 2, 0 + 2]
    assert count_tokens(["a b"], special=False) == [2]
    assert count_tokens([]) == []
    with pytest.raises(
        ValueError, match=re.escape("count_tokens takes a sequence of strings, not one string")
    ):
        count_tokens("abc")


# ------------------------------------------------------------------- html

HTML_PAGE = """<html><head><title>Shop</title></head><body>
<h1>Shop</h1>
<p>This opening paragraph is long enough to become a chunk.</p>
<h2>Prices</h2>
<p>Short line.</p>
<table><tr><td>WD-8412</td><td>499</td></tr>
<tr><td>This row has enough characters in it</td><td>to pass the limit</td></tr></table>
<h2>Notes</h2>
<ul><li>A list item that is also long enough to be kept.</li><li>tiny</li></ul>
</body></html>"""


def test_html_chunker_skips_short_blocks():
    doc = load_bytes("shop.html", HTML_PAGE.encode()).documents[0]
    cfg = ChunkerConfig(strategy="html", min_chars=40)
    chunks = chunk_document(doc, cfg, count_tokens=False)
    assert [(c.section, c.content) for c in chunks] == [
        ("", "This opening paragraph is long enough to become a chunk."),
        ("Prices", "This row has enough characters in it | to pass the limit"),
        ("Notes", "A list item that is also long enough to be kept."),
    ]
    skipped = [(b.kind, doc.text[b.start : b.end]) for b in skipped_blocks(doc, cfg)]
    assert skipped == [("p", "Short line."), ("tr", "WD-8412 | 499"), ("li", "tiny")]
    diag = diagnose([doc], chunks)
    assert diag.n_skipped_blocks == len(skipped)
    lost = diagnose([doc], chunks, needles=[Needle("shop", "WD-8412 | 499")]).destroyed
    assert [(n.reason, n.cut_at) for n in lost] == [("skipped", ())]
    check_invariants(doc, chunks, cfg)


def test_html_chunker_uses_markdown_blocks():
    text = (
        "# T\n\n## Part\n\nshort\n\n"
        + "A paragraph of more than forty characters, surely."
        + "\n\n| a | b |\n| c | d |"
    )
    doc = doc_of(text)
    chunks = chunk_document(doc, ChunkerConfig(strategy="html", min_chars=10), count_tokens=False)
    assert [(c.section, c.content) for c in chunks] == [
        ("Part", "A paragraph of more than forty characters, surely."),
        ("Part", "| a | b |\n| c | d |"),
    ]


# ------------------------------------------------------------ diagnostics


def _needle_doc() -> tuple[Document, Needle]:
    needle = "The summit of Hallasan stands 1,947 metres above the sea."
    at = 512 - 20  # the needle straddles the blind cut at 512
    filler = ("lorem ipsum " * 60)[:at]
    text = filler + needle + " " + "dolor sit amet " * 40
    return doc_of(text, doc_id="jeju"), Needle("jeju", needle)


def test_diagnose_finds_needle_split_by_blind_cut_and_overlap_keeps_it():
    doc, needle = _needle_doc()
    s = doc.text.index(needle.text)
    chunks_a = chunk_document(doc, ChunkerConfig(strategy="blind", target=512))
    diag = diagnose([doc], chunks_a, needles=[needle])
    assert diag.n_needles == 1
    assert [(n.doc_id, n.start, n.end, n.cut_at, n.reason) for n in diag.destroyed] == [
        ("jeju", s, s + len(needle.text), (512,), "split")
    ]
    chunks_b = chunk_document(doc, ChunkerConfig(strategy="blind", target=512, overlap=64))
    assert diagnose([doc], chunks_b, needles=[needle]).destroyed == ()


def test_diagnose_not_in_corpus_is_no_chunking_loss():
    # a needle absent from the corpus is reported on its own, not as destroyed
    doc, needle = _needle_doc()
    chunks = chunk_document(doc, ChunkerConfig(strategy="blind"), count_tokens=False)
    diag = diagnose(
        [doc], chunks, needles=[needle, Needle("jeju", "no such words"), Needle("other", "x")]
    )
    assert [n.reason for n in diag.not_in_corpus] == ["not in corpus", "not in corpus"]
    assert all(x.reason != "not in corpus" for x in diag.destroyed)
    assert diag.n_needles == 1


def test_diagnose_counts_and_window():
    doc = doc_of(
        ("Hallasan is a shield volcano on Jeju. " * 40) + "\n\n## Part\n\n" + "short text.",
        title="Jeju guide",
    )
    cfg = ChunkerConfig(strategy="blind", target=600, header=True)
    chunks = chunk_document(doc, cfg)
    diag = diagnose([doc], chunks, window=100)
    tokens = [c.tokens for c in chunks]
    assert tokens == count_tokens([c.text for c in chunks])
    assert diag.n_chunks == len(chunks) and diag.n_documents == 1
    assert (diag.tokens_min, diag.tokens_max) == (min(tokens), max(tokens))
    assert diag.tokens_mean == pytest.approx(sum(tokens) / len(tokens))
    chars = [len(c.content) for c in chunks]
    assert (diag.chars_min, diag.chars_max) == (min(chars), max(chars))
    assert diag.over_window == tuple(c.chunk_id for c in chunks if c.tokens > 100)
    headers = count_tokens([c.header for c in chunks], special=False)
    assert diag.header_tokens == sum(headers)
    # exact for WordPiece: header tokens + content tokens = text tokens
    assert diag.header_tokens == sum(tokens) - sum(count_tokens([c.content for c in chunks]))
    assert diag.total_tokens == sum(tokens)
    assert diag.header_token_share == pytest.approx(sum(headers) / sum(tokens))
    assert diag.encoder_window == 100
    assert diagnose([doc], chunks).encoder_window == ENCODER_WINDOW == 256


def test_diagnose_without_token_counts():
    doc = doc_of("abc " * 50)
    chunks = chunk_document(doc, ChunkerConfig(strategy="blind", target=64), count_tokens=False)
    assert all(c.tokens is None for c in chunks)
    diag = diagnose([doc], chunks)
    assert (diag.tokens_min, diag.tokens_mean, diag.total_tokens, diag.header_token_share) == (
        None,
    ) * 4
    assert diag.over_window == ()
    empty = diagnose([], [])
    assert (empty.n_chunks, empty.chars_min, empty.tokens_min) == (0, 0, None)


def test_chunk_corpus_progress_and_order():
    docs = [doc_of("one two three " * 10, doc_id="a"), doc_of("four five " * 10, doc_id="b")]
    calls = []
    chunks = chunk_corpus(
        docs, ChunkerConfig(strategy="blind", target=50), progress=lambda d, t: calls.append((d, t))
    )
    assert calls == [(1, 2), (2, 2)]
    assert [c.doc_id for c in chunks] == sorted(c.doc_id for c in chunks)
    assert [c.tokens for c in chunks] == count_tokens([c.text for c in chunks])
