"""The Compare page's words in Korean and English (merged by ``ui.i18n``)."""

# key: (Korean, English)
TEXT: dict[str, tuple[str, str]] = {
    # ---- the page
    "cmp.intro": (
        "A는 사이드바의 설정, B는 A에 아래 몇 줄을 덮어쓴 설정입니다. 같은 질문을 두 설정으로 돌려 "
        "단계마다 나란히 보여 주고, 다른 곳을 표시합니다.",
        "A is the sidebar's configuration; B is A with the lines below applied. Both run the same "
        "question; every "
        "stage is shown side by side with the differences marked.",
    ),
    "cmp.bad_line": ("B에 적용하지 못한 줄: {error}", "Could not apply to B: {error}"),
    "cmp.no_trace": (
        "설정 {side}를 실행할 수 없습니다: {error}",
        "Configuration {side} could not run: {error}",
    ),
    "cmp.h.summary": ("단계별 요약", "Stage by stage"),
    "cmp.stage": ("단계", "stage"),
    "cmp.reached": ("정답이 끝까지 도달", "gold reached the end"),
    "cmp.yes": ("예", "yes"),
    "cmp.no": ("아니오", "no"),
    "cmp.refused": ("거절", "refused"),
    "cmp.other_chunking": (
        "A와 B의 청킹이 달라 청크 id가 서로 다릅니다. 목록은 정답(★)과 순위로 비교하세요.",
        "A and B chunk differently, so their chunk ids differ: compare the lists by gold (★) and "
        "rank.",
    ),
    "cmp.mark_help": (
        "파란 행: 다른 쪽 목록에 없는 청크. 노란 행: 정답 근거를 담은 청크.",
        "Blue rows: chunks absent from the other side's list. Yellow rows: chunks holding gold "
        "evidence.",
    ),
    "cmp.not_in": ("{side}에는 {name} 검색기가 없습니다.", "{side} has no {name} retriever."),
    # ---- the page: example B overrides
    "cmp.ex.char": ("단어 → 문자 n-gram", "word → char n-grams"),
    "cmp.ex.kiwi": ("단어 → 형태소(Kiwi)", "word → morphemes (Kiwi)"),
    "cmp.ex.header": ("프리셋 E (헤더)", "preset E (header)"),
    "cmp.ex.overlap": ("프리셋 B (겹침)", "preset B (overlap)"),
    "cmp.ex.hybrid": ("하이브리드 BM25 + dense", "hybrid BM25 + dense"),
    "cmp.ex.threshold": ("dense + 거리 임계값 0.6", "dense + distance threshold 0.6"),
    "cmp.ex.rerank": ("토큰 겹침 재순위, 2개 유지", "token-overlap rerank, keep 2"),
    "cmp.ex.hardcut": ("hard-cut 256 토큰", "hard-cut at 256 tokens"),
    # ---- the page: summary rows
    "cmp.row.verdict": ("판정 (정답을 잃은 단계)", "verdict (where gold was lost)"),
    "cmp.row.chunking": ("청킹 · 청크 수", "chunking · chunks"),
    "cmp.row.destroyed": ("이 질문의 잘린 정답", "this question's destroyed needles"),
    "cmp.row.gold_over": (
        "정답 청크가 창({window})을 넘음",
        "gold chunk over the window ({window})",
    ),
    "cmp.row.question_cut": ("예산이 질문을 자름", "budget cut the question"),
    "cmp.row.list": ("{name}: 결과 / 후보", "{name}: hits / candidates"),
    "cmp.row.fusion": ("융합", "fusion"),
    "cmp.row.rerank": ("재순위", "rerank"),
    "cmp.row.gate": ("게이트: 유지 / 후보", "gate: kept / candidates"),
    "cmp.row.context": ("컨텍스트: 출처 · 토큰", "context: sources · tokens"),
    "cmp.row.answer": ("답변", "answer"),
    "cmp.row.support": ("주장 판정", "claim verdicts"),
}
