"""The Inspect page's words in Korean and English, and the Korean of the core codes only it
shows (merged by ``ui.i18n``)."""

# key: (Korean, English)
TEXT: dict[str, tuple[str, str]] = {
    # ---- the page
    "ins.download": ("Trace JSON 내려받기", "Download the Trace (JSON)"),
    "ins.signature": ("청킹 {sig} · 코퍼스 {fp}", "chunking {sig} · corpus {fp}"),
    "ins.needle_destroyed": (
        "이 질문의 정답 근거가 청크 경계에 잘렸습니다: “{needle}” (경계 위치: {cuts})",
        "This question's gold needle was cut by a chunk boundary: “{needle}” (boundary at {cuts})",
    ),
    "ins.open_chunks": (
        "청크 경계를 문서 위에서 보기",
        "See the chunk boundaries over the document",
    ),
    "ins.budget": ("예산", "budget"),
    "ins.tokens_before": ("자르기 전 토큰", "tokens before"),
    "ins.tokens_after": ("보낸 토큰", "tokens sent"),
    "ins.sources_in": ("프롬프트의 출처", "sources in prompt"),
    "ins.tokenizer": ("토크나이저 {name}", "tokenizer {name}"),
    "ins.prompt_tokens": ("프롬프트 토큰 ({n}개)", "Prompt as tokens ({n})"),
    "ins.actual_input": (
        "실제 입력 — 실제로 보낸 id를 다시 디코드한 글",
        "actual_input_text — the decode of the ids really sent",
    ),
    "ins.actual_input_help": (
        "프롬프트 문자열이 아니라 모델에 들어간 토큰 id를 되돌린 글입니다. 잘렸다면 여기서 끝을 "
        "확인하세요.",
        "Not the prompt string but the token ids the model received, decoded back. If something "
        "was cut, its end is here.",
    ),
    "ins.hashes": ("sha256 프롬프트 {prompt} · id {ids}", "sha256 prompt {prompt} · ids {ids}"),
    "ins.timings": ("전체 {total:.0f} ms {cached}", "total {total:.0f} ms {cached}"),
    "ins.not_loaded": (
        "이 코퍼스에서 읽지 못한 파일·행 {n}개",
        "{n} files or rows of this corpus were not loaded",
    ),
    "ins.next": (
        "다음: 아래 단계마다 정답 근거 ★를 따라가 보세요(위 판정이 어디서 잃었는지 말합니다). "
        "사이드바에서 설정 하나를 바꾸면 바뀐 단계가 다시 그려지고, '시나리오'에는 실패마다 "
        "준비된 설정이 있습니다.",
        "Next: follow the gold ★ through the stages below (the verdict above says where it was "
        "lost). Change one knob in the sidebar to see which stages change, or open Scenarios for "
        "a failure set up for you.",
    ),
    # ---- the answer preview at the top (ui.inspect.view.answer_preview)
    "ins.preview.head": ("⑦ 답변:", "⑦ Answer:"),
    "ins.preview.link": ("답변과 근거 보기 ↓", "the answer and its evidence ↓"),
    "ins.preview.pending": (
        "만드는 중입니다. 여기에 실시간으로 나옵니다.",
        "being made; it streams in here.",
    ),
    "ins.preview.stopped": ("생성을 중지했습니다.", "generation stopped."),
    # ---- stages first, answer second (ui/stream.py; Inspect, Compare, Lecture)
    "stream.at_top": (
        "답변을 만드는 중입니다. 진행 상황, 예상 시간, 중지 버튼은 페이지 맨 위에 있습니다 ↑",
        "The answer is being made: its progress, estimate and Stop are at the top of the page ↑",
    ),
    "stream.context_waits": (
        "프롬프트는 생성 모델의 토크나이저로 잽니다. 모델 변환이 끝나면 이 단계와 답변이 나옵니다.",
        "The prompt is measured with the generator's own tokenizer: this stage and the answer "
        "appear once the model's conversion ends.",
    ),
    "stream.waiting": (
        "다른 세션이 같은 질문을 실행하고 있습니다: {s:.0f} 초",
        "another session is running this question: {s:.0f} s",
    ),
    "stream.converting": (
        "번들 모델을 변환하는 중 (이 컴퓨터에서 한 번만): {s:.0f} 초",
        "converting the bundled model, once: {s:.0f} s",
    ),
    "stream.loading": ("생성 모델을 불러오는 중: {s:.0f} 초", "loading the generator: {s:.0f} s"),
    "stream.starting": ("답변을 시작하는 중: {s:.0f} 초", "starting the answer: {s:.0f} s"),
    "stream.elapsed": ("지금까지 {s:.0f} 초", "{s:.0f} s so far"),
    "stream.stop": ("생성 중지", "Stop"),
    "stream.stopped": (
        "답변 생성을 중지했습니다. 위의 단계들은 그대로입니다.",
        "Generation stopped. The stages above are complete.",
    ),
    "stream.resume": ("답변 생성", "Generate the answer"),
}

#: The Korean of the core notice codes only this page shows (as in ``ui/text.py``'s ``KOREAN``).
KOREAN: dict[str, str] = {
    # ---- why dense_model = auto chose its embedder (a dense list's caption)
    "dense.choice.korean": (
        "문서 {documents}개 중 {korean}개가 한국어: 다국어 {model} (영어 {english}은(는) 한국어를 "
        "읽지 못합니다)"
    ),
    "dense.choice.english": "문서 {documents}개에 한국어 문서가 없음: 영어 {model}",
    "dense.choice.set": "{model} (직접 지정)",
}
