"""The lecture gallery: each failure mode (FM1–FM10, docs/ARCHITECTURE.md) as one scenario.

Pure data plus two helpers, no Streamlit. A :class:`Scenario` names a question
(from the bundled question sets, or free text), a configuration as
``section.key`` overrides on top of ``PipelineConfig()`` (the CLI's ``--set``
form; ``chunker.preset`` expands to a preset A–F), optionally a second
configuration B — the failure's working baseline, shown by Compare and by the
Lecture page's before/after toggle — the page that tells the story, and what
to look at in Korean and English. ``expect`` / ``expect_b`` state the claim
in a small vocabulary (:data:`EXPECT_KEYS`: one registered check per key in
:mod:`.checks`) that :func:`check_expectation` verifies against a ``Trace`` —
the tests on the shipped corpus and models use it, so a card never promises what
the app does not show.

What "works" means is stated per scenario too, in the terms of the lecture's
verdict line (``rag_core.evaluation.verdict``): configuration A *fails at*
a stage (``fails_at``: the stage where the gold is lost, or ``gate`` for an
out-of-domain question the gate lets through), and B *works* (``works``):
``sent`` — the gold is retrieved, kept and sent to the model in the prompt —
or ``refused`` — the out-of-domain question is refused.
``tests/core/test_scenarios_ab.py`` runs both on the shipped corpus.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..config import PipelineConfig
from ..pipeline import run
from .checks import EXPECT_KEYS
from .checks import check_expectation as check_expectation

if TYPE_CHECKING:
    from ..index import CorpusIndex
    from ..types import Question

PAGES = ("inspect", "compare", "chunks")
#: Where configuration A may fail (``Scenario.fails_at``), in pipeline order.
FAIL_STAGES = ("chunking", "retrieval", "fusion", "rerank", "gate", "context")
#: What configuration B may achieve (``Scenario.works``): the gold sent, or a refusal.
WORKS = ("sent", "refused")


@dataclass(frozen=True)
class Scenario:
    """One card of the gallery.

    Attributes:
        id: stable slug (used in tests and the URL).
        mode: the failure mode's number (FM1–FM10 in docs/ARCHITECTURE.md).
        title / explanation / look_at: ``{"ko": …, "en": …}``.
        overrides: config A as ``section.key`` → value on ``PipelineConfig()``. Scenarios
            built around one embedding model or analyzer name it (the dense
            ones ``retrieval.dense_model = minilm``, the particle one
            ``retrieval.analyzer = unicode``), so a new default cannot undo them.
        question_id: a question of the bundled question sets, or
        question: free text when no set question fits.
        phrasing: which phrasing of ``question_id`` is asked (0: the corpus' wording).
        compare: config B as overrides on top of A (the Compare page).
        page: where the click lands: ``inspect``, ``compare`` or ``chunks``.
        expect / expect_b: the claim, checked by :func:`check_expectation`.
        fails_at: the stage where A fails (:data:`FAIL_STAGES`): the lecture verdict names
            it — the gold lost there, or (``gate``, out of domain) let through to the model.
        works: what B achieves (:data:`WORKS`): ``sent`` (gold retrieved, kept and in the
            prompt) or ``refused`` (the out-of-domain question refused).
    """

    id: str
    mode: int
    title: Mapping[str, str]
    explanation: Mapping[str, str]
    look_at: Mapping[str, str]
    overrides: Mapping[str, Any] = field(default_factory=dict)
    question_id: str | None = None
    question: str | None = None
    phrasing: int = 0
    compare: Mapping[str, Any] | None = None
    page: str = "inspect"
    expect: Mapping[str, Any] = field(default_factory=dict)
    expect_b: Mapping[str, Any] = field(default_factory=dict)
    fails_at: str = "retrieval"
    works: str = "sent"

    def __post_init__(self) -> None:
        if self.page not in PAGES:
            raise ValueError(
                f"scenario {self.id}: page = {self.page!r} is not valid; valid choices: "
                f"{', '.join(PAGES)}"
            )
        if (self.question_id is None) == (self.question is None):
            raise ValueError(f"scenario {self.id}: give exactly one of question_id or question")
        for lang in ("ko", "en"):
            for name in ("title", "explanation", "look_at"):
                if not str(getattr(self, name).get(lang, "")).strip():
                    raise ValueError(f"scenario {self.id}: {name} lacks the {lang!r} text")
        for name in ("expect", "expect_b"):
            bad = sorted(set(getattr(self, name)) - set(EXPECT_KEYS))
            if bad:
                raise ValueError(
                    f"scenario {self.id}: {name} has unknown key(s) {', '.join(bad)}; valid: "
                    f"{', '.join(EXPECT_KEYS)}"
                )
        if self.expect_b and self.compare is None:
            raise ValueError(f"scenario {self.id}: expect_b needs a compare configuration")
        if self.fails_at not in FAIL_STAGES:
            raise ValueError(
                f"scenario {self.id}: fails_at = {self.fails_at!r} is not valid; valid choices: "
                f"{', '.join(FAIL_STAGES)}"
            )
        if self.works not in WORKS:
            raise ValueError(
                f"scenario {self.id}: works = {self.works!r} is not valid; valid choices: "
                f"{', '.join(WORKS)}"
            )

    def question_text(self, question: Question | None = None) -> str:
        """What is asked: the free text, or phrasing ``phrasing`` of the set question given."""
        if self.question is not None:
            return self.question
        if question is None or question.id != self.question_id:
            raise ValueError(
                f"scenario {self.id}: pass question {self.question_id!r} to get its text"
            )
        return question.phrasings[self.phrasing] if question.phrasings else question.question

    def config(self, base: PipelineConfig | None = None) -> PipelineConfig:
        """Configuration A (overrides on ``base``, default ``PipelineConfig()``)."""
        return (base or PipelineConfig()).with_overrides(self.overrides)

    def config_b(self, base: PipelineConfig | None = None) -> PipelineConfig | None:
        """Configuration B = A + ``compare``, or None when the scenario has no pair."""
        if self.compare is None:
            return None
        return self.config(base).with_overrides(self.compare)


SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        id="blind-cut",
        mode=1,
        title={
            "ko": "고정 길이 청킹이 정답 문장을 자른다",
            "en": "A blind cut splits the answer sentence",
        },
        explanation={
            "ko": "프리셋 A는 문장과 문단을 보지 않고 512자마다 자릅니다. 2022년 내국인 "
            "관광객 수를 적은 문장이 숫자 한가운데에서 잘려, 한 청크는 '…2022년에는 내국인 "
            "관광객만 1'로 끝나고 다음 청크는 ',380만 명 안팎에…'로 시작합니다. 어느 청크도 "
            "정답을 통째로 갖지 못하므로 검색기가 무엇이든 재현율의 상한은 0이고, 1위로 검색된 "
            "앞쪽 반쪽만 모델에 갑니다. B(겹침 64자)로 바꾸면 경계 앞의 글이 다음 청크에 "
            "복사되어 문장이 통째로 살아납니다.",
            "en": "Preset A cuts every 512 characters without looking at sentences or paragraphs. "
            "The sentence with the 2022 visitor count is cut inside the number: one chunk ends "
            "'…2022년에는 내국인 관광객만 1' and the next begins ',380만 명 안팎에…'. No chunk "
            "holds the answer whole, so no retriever can find it (the recall ceiling is zero), and "
            "the first half, ranked first, is what the model reads. Preset B (64 characters of "
            "overlap) copies the text before each boundary into the next chunk and the sentence "
            "survives whole.",
        },
        look_at={
            "ko": "청크 페이지: 빨간 정답 근거와 그 숫자를 가르는 ✂ 경계. 강의 화면: A의 판정 "
            "'청킹이 정답을 잘라 없앰'과 프롬프트 끝의 '관광객만 1'; B에서는 정답이 출처 [1].",
            "en": "Chunks page: the red needle and the ✂ boundary inside its number. Lecture view: "
            "A's verdict 'destroyed by chunking' and the prompt's '관광객만 1'; in B the gold is "
            "source [1].",
        },
        overrides={"chunker.preset": "A", "retrieval.analyzer": "auto"},
        question_id="ko-33",
        compare={"chunker.preset": "B"},
        page="chunks",
        expect={"lost_at": "chunking", "destroyed": True},
        expect_b={"destroyed": False, "gold_rank_at_most": {"retrieval:bm25:auto": 1}},
        fails_at="chunking",
    ),
    Scenario(
        id="header-window",
        mode=2,
        title={
            "ko": "맥락 헤더는 순위를 올리지만 인코더 창을 넘긴다",
            "en": "A header lifts ranking but overflows the encoder window",
        },
        explanation={
            "ko": "프리셋 E는 청크마다 '[제목 > 절]' 헤더를 붙여 색인합니다. 헤더 없는 프리셋 "
            "C로는 GPT-3의 KV 캐시 크기를 적은 청크가 dense 검색 상위 8개에도 들지 못하니, 헤더는 "
            "분명 도움이 됩니다. 그러나 헤더 토큰이 더해진 512자 청크는 MiniLM 인코더의 창(256 "
            "토큰)을 넘고, 넘친 끝부분은 아무 경고 없이 잘린 채 임베딩됩니다. 그 청크는 상위 2개 "
            "밖으로 밀립니다. 헤더를 붙인 384자 청크(B)는 창 안에 통째로 들어가고, 정답이 "
            "1위입니다. 그 청크는 표의 두 행뿐이라 열 이름이 없습니다. 프롬프트는 표 중간에서 "
            "시작하는 출처마다 그 표의 머리글 행을 앞에 붙여 보내므로, 모델은 어느 칸이 32,768 "
            "토큰인지 읽을 수 있습니다.",
            "en": "Preset E indexes each chunk with a '[Title > Section]' header. Without it "
            "(preset C) the chunk that gives GPT-3's KV-cache size is not even in dense "
            "retrieval's top 8, so the header does help. But header tokens plus a 512-character "
            "chunk overflow MiniLM's encoder window (256 tokens), whatever spills over is embedded "
            "as if it were not there — silently — and that chunk falls outside the top 2. Header "
            "chunks of 384 characters (B) fit the window whole, and the gold ranks first. That "
            "chunk is two table rows without the row that names the columns; the prompt sends "
            "every source that starts inside a table with the table's header row, so the model "
            "can read which cell is the one at 32,768 tokens.",
        },
        look_at={
            "ko": "청크 페이지의 길이 분포에서 256 선 오른쪽의 청크와 빨간 토큰 수; 비교 요약의 "
            "'창을 넘는 청크'와 정답 순위(A: 없음, B: 1위).",
            "en": "On the Chunks page, the chunks right of the 256 line and the red token counts; "
            "in the compare summary, 'chunks over the window' and the gold rank (A: none, B: 1).",
        },
        # the window and its silent cut are MiniLM's (e5-small, this corpus's auto embedder,
        # has 512 tokens and averages longer text over windows instead of cutting it)
        overrides={
            "chunker.preset": "E",
            "retrieval.methods": "dense",
            "retrieval.dense_model": "minilm",
            # with a third source, the formula paragraph's "512 KiB of cache for every single
            # token", the bundled 0.5B model answers 512 KiB in B
            "retrieval.k": 2,
        },
        question_id="en-inf-07",
        compare={"chunker.target": 384},
        page="compare",
        expect={"gold_over_window": True, "lost_at": "retrieval"},
        expect_b={"gold_over_window": False, "gold_rank_at_most": {"retrieval:dense:minilm": 1}},
        fails_at="retrieval",
    ),
    Scenario(
        id="korean-particle",
        mode=3,
        title={
            "ko": "조사 하나에 단어 검색의 후보가 0개가 된다",
            "en": "One Korean particle leaves word search with zero candidates",
        },
        explanation={
            "ko": "유니코드 단어 분석기는 '제주도의', '연평균', '기온은'을 그대로 색인어로 씁니다. "
            "문서에는 이 꼴이 하나도 없어 세 질의어의 문서 빈도(df)가 모두 0이고, BM25는 후보를 "
            "하나도 내지 못하며 게이트는 거절합니다. 한국어를 형태소로 나누는 auto 분석기(Kiwi: "
            "제주도 + 의, 기온 + 은)로 바꾸면 '평균'과 '기온'이 맞아, 해안 저지대의 연평균 기온 "
            "문단이 1위로 올라옵니다.",
            "en": "The Unicode word analyzer keeps '제주도의' (Jeju + possessive particle), "
            "'연평균' and '기온은' (temperature + topic particle) as whole terms. No document has "
            "these exact forms, so all three have df = 0, BM25 returns no candidate at all and "
            "the gate refuses. The auto analyzer splits Korean into morphemes with Kiwi (제주도 + "
            "의, 기온 + 은): '평균' and '기온' match, and the paragraph with the coast's yearly "
            "mean temperature ranks first.",
        },
        look_at={
            "ko": "검색 열의 '후보 0개' 상자와 분석기 보기에서 df = 0으로 표시된 질의어. B에서는 "
            "같은 자리에 형태소 질의어와 1위의 정답 ★.",
            "en": "The '0 candidates' box and the analyzer view with its df = 0 terms; in B the "
            "morpheme terms and the gold ★ at rank 1.",
        },
        overrides={"retrieval.analyzer": "unicode"},
        question_id="ko-02",
        compare={"retrieval.analyzer": "auto"},
        page="compare",
        expect={"zero_candidates": "bm25:unicode", "lost_at": "retrieval"},
        expect_b={"some_candidates": "bm25:auto", "gold_rank_at_most": {"retrieval:bm25:auto": 1}},
        fails_at="retrieval",
    ),
    Scenario(
        id="irrelevant-sources",
        mode=4,
        title={
            "ko": "후보는 생겼지만 엉뚱한 문단이다",
            "en": "Candidates appear, but they are the wrong paragraphs",
        },
        explanation={
            "ko": "'Llama 2 7B의 토큰당 KV 캐시 크기'를 묻는 질문에 문자 n-gram 분석기(char)는 "
            "추론 장의 문단을 여럿 찾지만, 상위 셋은 글자 조각이 겹칠 뿐 GQA와 KV 캐시 공식을 "
            "다룬 다른 문단입니다. 답(토큰당 512 KiB)이 적힌 문단은 5위라 게이트(최대 3개)를 넘지 "
            "못하고, 모델은 답이 없는 출처만 받습니다(예산은 2048 토큰이라 예산 탓이 아닙니다). "
            "단어로 나누는 auto 분석기(B)는 'llama', '7b', 'token'을 맞혀 그 문단을 1위로 올리고, "
            "모델은 512 KiB라고 답합니다.",
            "en": "Asked for Llama 2 7B's KV cache per token, the char n-gram analyzer finds many "
            "paragraphs of the inference chapter, but the top three only share letter fragments: "
            "other paragraphs on grouped-query attention and the cache formula. The paragraph "
            "with the answer (512 KiB per token) ranks 5th, beyond the gate's three kept, and the "
            "model gets only sources without it (the budget is 2048 tokens: it is not the "
            "budget). The auto analyzer's words (B) match 'llama', '7b' and 'token', that "
            "paragraph ranks first and the model answers 512 KiB.",
        },
        look_at={
            "ko": "판정 '게이트에서 잃음', 출처 목록의 절 이름과 게이트가 떨어뜨린 5위의 정답 ★; "
            "B에서는 1위의 정답과 512 KiB라는 답.",
            "en": "The verdict 'gated', the sections of the sources and the gold ★ the gate "
            "dropped at rank 5; in B the gold at rank 1 and the answer 512 KiB.",
        },
        overrides={
            "retrieval.analyzer": "char",
            "gate.max_kept": 3,
            "context.budget_tokens": 2048,
        },
        question_id="en-inf-01",
        compare={"retrieval.analyzer": "auto"},
        page="inspect",
        expect={
            "lost_at": "gate",
            "some_candidates": "bm25:char",
            "top_doc": {"bm25:char": "en-course-04-inference"},
        },
        expect_b={"gold_rank_at_most": {"gate": 1}},
        fails_at="gate",
    ),
    Scenario(
        id="rerank-wrong-paragraph",
        mode=5,
        title={
            "ko": "정답은 후보에 있었지만 재순위가 다른 문단을 넘긴다",
            "en": "Gold is a candidate, but rerank passes another paragraph",
        },
        explanation={
            "ko": "BM25는 E17 문단을 1위로 찾습니다. 토큰 겹침 재순위는 질문 단어를 더 많이 가진 "
            "다른 문단들을 위로 올리고, 게이트는 상위 2개만 남기므로 정답 문단은 모델에 닿지 "
            "못합니다. 재순위를 끄면(B) 정답이 그대로 1위로 남습니다.",
            "en": "BM25 ranks the E17 paragraph first. The token-overlap reranker lifts other "
            "paragraphs that share more question words, the gate keeps only the top two, and the "
            "gold paragraph never reaches the model. Without the reranker (B) the gold stays at "
            "rank 1.",
        },
        look_at={
            "ko": "재순위의 순위 이동 그래프(금색 선이 1위에서 아래로), 게이트가 뺀 후보 목록과 그 "
            "이유(최대 유지 수 초과).",
            "en": "The rerank bump chart (the amber line falls from rank 1) and what the gate let "
            "go, with its reason (beyond max kept).",
        },
        overrides={"rerank.method": "overlap", "gate.max_kept": 2},
        question_id="man-en-02",
        compare={"rerank.method": "none"},
        page="inspect",
        expect={"lost_at": "rerank"},
        expect_b={"gold_rank_at_most": {"gate": 1}},
        fails_at="rerank",
    ),
    Scenario(
        id="budget-cut",
        mode=6,
        title={
            "ko": "예산이 정답 근거를 잘라낸다",
            "en": "The budget cuts the evidence",
        },
        explanation={
            "ko": "정답 청크는 검색 4위입니다. 예산 400 토큰의 pack 정책은 지시문과 질문을 지키고 "
            "출처를 순위대로 채우다가 자리가 없으면 나머지를 뺍니다. 그래서 4위의 정답 출처가 "
            "빠지고, 모델은 정답 없이 답해야 합니다. 기본 예산 1024 토큰(B)이면 네 번째 출처까지 "
            "들어갑니다.",
            "en": "The gold chunk is the fourth candidate. With 400 tokens, the pack policy keeps "
            "the instructions and the question, fills sources in rank order and drops what no "
            "longer fits — the gold source among them, so the model must answer without it. The "
            "default budget of 1024 tokens (B) fits the fourth source too.",
        },
        look_at={
            "ko": "컨텍스트의 출처 표(제외 · 예산 초과), 토큰 보기에서 '✂ 예산 끝' 표시. 강의 "
            "화면: 1단계에서는 정답이 게이트를 통과하고, 2단계에서 예산에 잘림.",
            "en": "The context's source table (dropped · over the budget) and the '✂ budget ends' "
            "mark in the token view. Lecture view: at step 1 the gold passes the gate, at step 2 "
            "the budget cuts it.",
        },
        overrides={"context.budget_tokens": 400},
        question_id="man-en-12",
        compare={"context.budget_tokens": 1024},
        page="compare",
        expect={"lost_at": "context", "gold_absent": "context"},
        expect_b={"gold_rank_at_most": {"context": 4}},
        fails_at="context",
    ),
    Scenario(
        id="naive-cut",
        mode=6,
        title={
            "ko": "순진하게 자르면 질문이 잘린다",
            "en": "A naive cut cuts off the question",
        },
        explanation={
            "ko": "정답은 검색 1위이고 첫 출처로 들어갑니다. 그러나 hard-cut 정책은 완성된 "
            "프롬프트를 400번째 토큰에서 그대로 자르므로, 출처 뒤 맨 끝에 있는 질문까지 잘려 "
            "나갑니다. 모델은 질문을 보지 못한 채 답을 만들어야 합니다. 같은 예산의 pack "
            "정책(B)은 지시문과 질문을 먼저 지키고 남는 자리만 출처에 줍니다.",
            "en": "The gold ranks first and goes in as the first source. But the hard-cut policy "
            "slices the finished prompt at token 400, and the question, which comes last after the "
            "sources, is cut off with it: the model must answer a question it never saw. The pack "
            "policy with the same budget (B) protects the instructions and the question first and "
            "gives the sources only the room that is left.",
        },
        look_at={
            "ko": "토큰 보기에서 '✂ 예산 끝' 뒤의 회색 질문 토큰과 '질문까지 잘렸습니다' 경고; "
            "B에서는 질문이 온전하고 정답이 출처 [1].",
            "en": "The greyed question tokens after '✂ budget ends' in the token view and the 'the "
            "budget cut the question' warning; in B the question is whole and the gold is source "
            "[1].",
        },
        overrides={"context.budget_tokens": 400, "context.policy": "hard-cut"},
        question_id="man-en-01",
        compare={"context.policy": "pack"},
        page="compare",
        expect={"question_cut": True},
        expect_b={"question_cut": False, "gold_rank_at_most": {"context": 1}},
        fails_at="context",
    ),
    Scenario(
        id="exact-code",
        mode=7,
        title={
            "ko": "dense 검색은 정확한 코드(E17 대 E21)를 흐린다",
            "en": "Dense retrieval blurs an exact code (E17 vs E21)",
        },
        explanation={
            "ko": "임베딩은 'E21'과 'E17'을 거의 같은 뜻으로 봅니다. dense만 쓰면 상위 3개에 다른 "
            "오류 코드와 비슷한 문단이 들어오고 E21 문단은 빠집니다. BM25는 'e21'이라는 색인어를 "
            "그대로 맞히므로 1위로 찾고, 두 목록을 RRF로 융합한 하이브리드(B)가 정답을 되찾습니다. "
            "B는 융합 1위만 프롬프트에 넣으므로(게이트 최대 1개) 모델은 E21 문단만 읽고 답합니다.",
            "en": "To an embedding, 'E21' and 'E17' mean almost the same. Dense alone fills its "
            "top 3 with other codes and look-alike paragraphs and misses the E21 one. BM25 matches "
            "the term 'e21' exactly and ranks it first; the hybrid (B), fusing both lists with "
            "RRF, recovers the gold. B sends only the fused first (the gate keeps one), so the "
            "model reads the E21 paragraph alone when it answers.",
        },
        look_at={
            "ko": "A의 dense 열(코사인 거리, 정답 ★ 없음). "
            "B의 두 열과 융합 표에서 목록별 RRF 기여.",
            "en": "A's dense column (cosine distances, no gold ★). In B, both columns and the "
            "fusion table's per-list RRF contributions.",
        },
        overrides={
            "retrieval.methods": "dense",
            "retrieval.k": 3,
            "retrieval.dense_model": "minilm",
        },
        question_id="man-en-01",
        compare={"retrieval.methods": "bm25,dense", "gate.max_kept": 1},
        page="compare",
        expect={"lost_at": "retrieval"},
        expect_b={"gold_rank_at_most": {"fusion": 1}},
        fails_at="retrieval",
    ),
    Scenario(
        id="no-threshold",
        mode=8,
        title={
            "ko": "임계값이 없으면 코퍼스 밖 질문에도 자신 있게 답한다",
            "en": "Without a threshold, out-of-domain questions get confident answers",
        },
        explanation={
            "ko": "스페인 여권 갱신은 코퍼스 어디에도 없습니다. 그래도 검색은 언제나 가장 가까운 "
            "k개를 돌려주므로, 임계값이 없으면 세탁건조기 고객지원·반품 문단이 출처가 되어 모델에 "
            "들어갑니다. 코사인 거리 0.6의 게이트(B)를 두면 통과하는 후보가 없어 모델을 부르지 "
            "않고 거절합니다.",
            "en": "Renewing a Spanish passport is nowhere in the corpus. Retrieval still returns "
            "the k nearest chunks, so without a threshold the washer-dryer's support and refund "
            "paragraphs become sources and go to the model. A gate at cosine distance 0.6 (B) lets "
            "nothing through, and the system refuses without calling the model.",
        },
        look_at={
            "ko": "게이트 그래프의 빨간 임계값 선과 그 위의 막대들, B의 '거절' 상자와 건너뛴 생성 "
            "단계.",
            "en": "The gate chart's red threshold line with every bar above it, B's refusal box "
            "and the skipped generation.",
        },
        overrides={"retrieval.methods": "dense", "retrieval.dense_model": "minilm"},
        question_id="en-oot-20",
        compare={"gate.max_distance": 0.6},
        page="compare",
        expect={"refused": False},
        expect_b={"refused": True},
        fails_at="gate",
        works="refused",
    ),
    Scenario(
        id="near-miss",
        mode=9,
        title={
            "ko": "가까운 오답: 같은 단어, 다른 대상 (KV 캐시 대 프롬프트 캐시)",
            "en": "Near miss: same words, different thing (KV cache vs prompt cache)",
        },
        explanation={
            "ko": "'프롬프트 캐싱으로 얼마나 아끼나'는 코퍼스에 답이 없지만, 추론 장의 KV 캐시 "
            "문단이 '캐시', 'prompt' 같은 단어를 많이 공유합니다. 그래서 거리 0.6의 게이트를 "
            "통과하고, 모델은 다른 대상에 관한 출처를 받습니다. 임계값은 주제가 먼 질문은 막지만 "
            "이런 가까운 오답은 막지 못합니다. 더 엄격한 0.48(B)이면 이 질문도 거절되지만, 그 "
            "대가로 답할 수 있는 질문도 훨씬 많이 거절됩니다 — 임계값 페이지에서 그 교환을 "
            "보십시오.",
            "en": "'How much does prompt caching save' has no answer in the corpus, but the "
            "inference chapter's KV-cache paragraphs share many of its words ('cache', 'prompt'). "
            "They pass the 0.6 distance gate and the model receives sources about a different "
            "thing. A threshold stops far-off questions, not near misses like this one. A stricter "
            "0.48 (B) refuses this one too, at the price of refusing many more answerable "
            "questions — the Threshold page shows the trade.",
        },
        look_at={
            "ko": "게이트 그래프에서 임계값 아래의 막대들, 출처의 절 이름(KV 캐시), 답변이 그 "
            "출처로 무엇을 말하는지.",
            "en": "The bars under the threshold in the gate chart, the sources' section names (KV "
            "cache), and what the answer makes of them.",
        },
        overrides={
            "retrieval.methods": "dense",
            "gate.max_distance": 0.6,
            "retrieval.dense_model": "minilm",
        },
        question_id="en-oot-01",
        compare={"gate.max_distance": 0.48},
        page="inspect",
        expect={"refused": False, "top_doc": {"dense:minilm": "en-course-04-inference"}},
        expect_b={"refused": True},
        fails_at="gate",
        works="refused",
    ),
    Scenario(
        id="literal-match",
        mode=9,
        title={"ko": "글자는 맞지만 답은 없다", "en": "A literal match without an answer"},
        explanation={
            "ko": "'프랑스의 수도'라는 글자는 강의 예시 문장에 그대로 나오므로 BM25는 그 청크를 "
            "자신 있게 1위로 올립니다. 하지만 그 문장은 답이 아니라 예시일 뿐입니다. dense 거리 "
            "게이트(B)는 이 질문을 코퍼스 밖으로 보고 거절합니다.",
            "en": "The words 'capital of France' appear verbatim in an example sentence of the "
            "course, so BM25 puts that chunk first with confidence. The sentence is an example, "
            "not an answer. The dense distance gate (B) sees the question as out of domain and "
            "refuses.",
        },
        look_at={
            "ko": "BM25 열의 1위 청크 내용과 분석기 보기의 df, B의 게이트 그래프와 거절.",
            "en": "The BM25 column's first chunk and the analyzer view's df; B's gate chart and "
            "refusal.",
        },
        overrides={"retrieval.methods": "bm25", "retrieval.dense_model": "minilm"},
        question_id="en-oot-23",
        compare={"retrieval.methods": "dense", "gate.max_distance": 0.6},
        page="compare",
        expect={"refused": False, "top_doc": {"bm25:auto": "en-course-05-reasoning"}},
        expect_b={"refused": True},
        fails_at="gate",
        works="refused",
    ),
    Scenario(
        id="overlap-duplicates",
        mode=10,
        title={
            "ko": "겹침으로 생긴 중복이 상위 k와 예산을 차지한다",
            "en": "Overlap duplicates crowd the top k and the budget",
        },
        explanation={
            "ko": "512자 청크에 384자 겹침을 주면 이웃 청크가 글의 4분의 3을 공유합니다. 'BM25가 "
            "청크 수천 개를 채점하는 데 얼마나 걸리나'라는 질문에 검색 장의 같은 글이 조금씩 밀린 "
            "채(0001, 0002) 상위 자리를 차지하고, 예산도 같은 글을 여러 번 담는 데 씁니다. "
            "답(약 1밀리초)이 적힌 청크는 6위로 밀려 예산 밖에서 빠집니다. 겹침을 64자로 "
            "줄이면(B) 중복이 사라지고, 정답이 세 번째 출처로 들어갑니다.",
            "en": "Chunks of 512 characters with 384 of overlap share three quarters of their text "
            "with their neighbours. Asked how long BM25 takes to score a few thousand chunks, the "
            "same passage of the retrieval chapter, shifted a little (0001, 0002), takes the top "
            "places, and the budget pays for the same words again and again; the chunk with the "
            "answer (about a millisecond), sixth, falls out with the budget. With 64 characters "
            "of overlap (B) the copies are gone and the gold goes in as the third source.",
        },
        look_at={
            "ko": "검색 열에서 같은 문서의 연속된 청크 번호, 컨텍스트 표의 '예산 초과'로 제외된 "
            "정답 행; B에서는 서로 다른 청크와 포함된 정답.",
            "en": "Consecutive chunk numbers of one document in the retrieval column and the gold "
            "row dropped as over the budget in the context table; in B distinct chunks and the "
            "gold included.",
        },
        overrides={
            "chunker.strategy": "blind",
            "chunker.target": 512,
            "chunker.overlap": 384,
            "context.dedup": False,
        },
        question_id="en-ret-02",
        compare={"chunker.overlap": 64},
        page="compare",
        expect={"overlapping_hits": True, "lost_at": "context"},
        expect_b={"gold_rank_at_most": {"context": 8}},
        fails_at="context",
    ),
)


def scenario(scenario_id: str) -> Scenario:
    """The scenario with this id; ``ValueError`` lists the valid ids."""
    for s in SCENARIOS:
        if s.id == scenario_id:
            return s
    raise ValueError(
        f"unknown scenario {scenario_id!r}; valid choices: {', '.join(s.id for s in SCENARIOS)}"
    )


# ------------------------------------------------------------------ preparing a lecture


@dataclass(frozen=True)
class ScenarioRun:
    """One configuration a lecture opens: scenario ``scenario``'s ``A`` or ``B``."""

    scenario: Scenario
    side: str
    config: PipelineConfig


def scenario_runs(
    base: PipelineConfig | None = None, scenarios: tuple[Scenario, ...] = ()
) -> list[ScenarioRun]:
    """Every scenario's A and (where it has one) B on ``base``, in gallery order."""
    out: list[ScenarioRun] = []
    for s in scenarios or SCENARIOS:
        out.append(ScenarioRun(s, "A", s.config(base)))
        b = s.config_b(base)
        if b is not None:
            out.append(ScenarioRun(s, "B", b))
    return out


@dataclass(frozen=True)
class Prepared:
    """What preparing one :class:`ScenarioRun` did: its time, and whether its answer was
    generated now (``cached`` False) or replayed from the generation cache."""

    scenario: str
    side: str
    seconds: float
    generation: str
    cached: bool
    lost_at: str | None
    refused: bool


def prepare(
    corpus: CorpusIndex,
    runs: list[ScenarioRun],
    *,
    on_start: Callable[[int, ScenarioRun], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Iterator[Prepared]:
    """Run every scenario configuration once through the whole pipeline, so that the on-disk
    caches hold what a lecture opens: the corpus' dense indexes (the embedding cache), the
    converted generator and each answer (the generation cache, keyed by the prompt's ids).

    ``corpus`` must hold the scenarios' question sets (the bundled sample does).
    ``on_start(i, run)`` is told before run ``i``; ``should_stop()`` is asked before each.
    Yields one :class:`Prepared` per run, in order.
    """
    questions = {q.id: q for q in corpus.questions}
    for i, r in enumerate(runs):
        if should_stop is not None and should_stop():
            return
        if on_start is not None:
            on_start(i, r)
        q = questions.get(r.scenario.question_id or "")
        if r.scenario.question_id is not None and q is None:
            raise ValueError(
                f"scenario {r.scenario.id}: question {r.scenario.question_id!r} is not in the "
                "corpus' question sets; prepare the scenarios on the bundled sample corpus"
            )
        t0 = time.perf_counter()
        trace = run(r.config, r.scenario.question_text(q), corpus, gold=q)
        yield Prepared(
            scenario=r.scenario.id,
            side=r.side,
            seconds=round(time.perf_counter() - t0, 3),
            generation=trace.generation.status,
            cached=trace.generation.cached,
            lost_at=trace.gold.lost_at if trace.gold is not None else None,
            refused=trace.gate.refused,
        )
