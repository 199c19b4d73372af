"""The Check page's words in Korean and English (merged by ``ui.i18n``; its title ``page.check``
is in ``ui/text.py`` with the other page titles, for the navigation)."""

TEXT: dict[str, tuple[str, str]] = {
    "chk2.intro": (
        (
            "이미 가진 답변을 검사합니다: 질문, 출처(문맥)와 답변을 붙여 넣거나 JSONL을 올리면 "
            "주장마다 출처가 뒷받침하는지 표시합니다. CLI: `python -m rag_core support FILE.jsonl`."
        ),
        (
            "Check an answer you already have: paste the question, the contexts and the answer, or "
            "upload a JSONL of them, and each claim is coloured by whether a context supports it. "
            "CLI: `python -m rag_core support FILE.jsonl`."
        ),
    ),
    "chk2.limits": (
        "한 행의 한도: 답변 {answer:,}자와 주장 {claims}개, 출처 {contexts}개 (각 {context:,}자, "
        "합쳐 {all:,}자), "
        "질문 {question:,}자. 넘는 행은 한 줄로 거절하고 다음 행을 검사합니다. 파일의 인코딩 "
        "(UTF-8, CP949 등) 은 말뭉치 파일처럼 알아냅니다.",
        "Limits of one row: an answer of {answer:,} characters and {claims} claims, {contexts} "
        "contexts of {context:,} characters each and {all:,} together, a question of "
        "{question:,} characters. A row "
        "over a limit is refused in one line and the next row is checked. A file is read as a "
        "corpus file is (BOM, UTF-8, CP949, UTF-16, CP1252).",
    ),
    "chk2.mode": ("입력", "Input"),
    "chk2.mode.paste": ("붙여 넣기", "Paste"),
    "chk2.mode.upload": ("JSONL 올리기", "Upload JSONL"),
    "chk2.question": ("질문 (선택)", "Question (optional)"),
    "chk2.contexts": (
        "출처 — '---' 한 줄로 서로 나눕니다",
        "Contexts — separate them with a line '---'",
    ),
    "chk2.answer": ("답변", "Answer"),
    "chk2.run": ("검사", "Check"),
    "chk2.upload": (
        "JSONL: {id, question, contexts, answer} (passages/response, Ragas 필드도 가능)",
        "JSONL: {id, question, contexts, answer} (passages/response and Ragas fields too)",
    ),
    "chk2.bad_rows": ("읽지 못한 행 {n}개:", "{n} rows could not be read:"),
    "chk2.pick_row": ("행", "Row"),
    "chk2.need": (
        "답변과 출처를 하나 이상 입력하세요.",
        "Enter an answer and at least one context.",
    ),
    "chk2.flagged": (
        "환각 의심: 주장 {bad}개가 뒷받침 없음/모순 (주장 {n}개 중)",
        "Flagged: {bad} of {n} claims unsupported or contradicted",
    ),
    "chk2.ok": ("모든 주장이 출처의 뒷받침을 받습니다 ({n}개).", "Every claim is supported ({n})."),
    "chk2.threshold": (
        "기준: P(뒷받침) ≥ {p} (사이드바 '근거 검사 설정'), 임베딩: {emb}",
        "Rule: P(supported) ≥ {p} (sidebar, 'Support check'), embedder: {emb}",
    ),
    "chk2.claim": ("주장", "Claim"),
    "chk2.p": ("P(뒷받침)", "P(supported)"),
    "chk2.reason": ("근거", "Why"),
    "chk2.context": ("출처 [{n}]", "Context [{n}]"),
}
