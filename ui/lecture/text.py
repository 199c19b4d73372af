"""The Lecture page's words in Korean and English (merged by ``ui.i18n``)."""

# key: (Korean, English)
TEXT: dict[str, tuple[str, str]] = {
    # ---- the page
    "lec.no_candidates": ("후보가 없습니다.", "No candidates."),
    "lec.no_claims": ("답변에서 주장을 찾지 못했습니다.", "No claims were found in the answer."),
    "lec.claim_head": (
        "주장 {i}: {verdict} · 인용 {cites}",
        "Claim {i}: {verdict} · citations {cites}",
    ),
    "lec.ev_score": ("점수 {score} · 겹침 {overlap}", "score {score} · overlap {overlap}"),
    "lec.config": (
        "기본값과 다른 설정: {changes}",
        "settings changed from the defaults: {changes}",
    ),
    "lec.next": ("다음 단계", "Next stage"),
    "lec.back": ("이전", "Back"),
    "lec.all": ("모두 보기", "Show all"),
    "lec.step": ("단계 {n}/{total}", "step {n}/{total}"),
    "lec.step_help": (
        "→ 키: 다음 단계, ← 키: 이전 단계. 단계는 주소에 남아 링크로 그 단계를 열 수 있습니다.",
        "→ key: next stage, ← key: back. The step is kept in the address, so a link opens at it.",
    ),
    "lec.claim": ("주장", "Claim"),
    "lec.big": ("큰 글씨", "Large text"),
    "lec.export": ("슬라이드로 저장", "Save as slide"),
    "lec.export_html": ("HTML 슬라이드", "HTML slide"),
    "lec.export_png": ("PNG 슬라이드", "PNG slide"),
    "lec.export_help": (
        "지금 보이는 강의 화면 그대로 (스크립트 없는 HTML, 또는 1280×720 화면을 1.5배로 찍은 PNG).",
        "The lecture view as shown now (HTML without scripts, or a PNG of a 1280×720 screen at "
        "1.5×).",
    ),
    "lec.png_missing": (
        "PNG를 만들 Chromium({path})이 없습니다: make browser",
        "Chromium ({path}) is not installed to make the PNG: make browser",
    ),
    # ---- the page: panes
    "lec.pane.candidates": ("① 단계별 후보", "① Candidates per stage"),
    "lec.pane.prompt": ("② 보낸 프롬프트 토큰", "② Prompt tokens as sent"),
    "lec.pane.answer": ("③ 답변", "③ Answer"),
    "lec.pane.claims": ("④ 주장과 근거", "④ Claims and evidence"),
    # ---- the page: the hidden panes' questions
    "lec.ask.candidates": ("어떤 청크가 검색될까요?", "Which chunks will be retrieved?"),
    "lec.ask.prompt": ("모델은 무엇을 읽게 될까요?", "What will the model get to read?"),
    "lec.ask.answer": ("모델은 뭐라고 답할까요?", "What will the model say?"),
    "lec.ask.claims": ("주장마다 근거가 있을까요?", "Is each claim backed by a source?"),
    # ---- the page: table columns
    "lec.col.fused": ("융합", "fused"),
    "lec.col.rerank": ("재순위", "reranked"),
    "lec.col.kept": ("유지", "kept"),
    # ---- the page: why a chunk left
    "lec.why.fusion": ("융합 상위 k 밖", "below the fused top k"),
    "lec.why.shortlist": ("재순위 후보 밖", "beyond the rerank shortlist"),
    "lec.why.gate": ("게이트에서 제외", "rejected by the gate"),
    "lec.why.context": ("컨텍스트에서 빠짐: {reason}", "left out of the context: {reason}"),
    # ---- the page: each chunk's fate
    "lec.fate.prompt": ("프롬프트의 [{n}] ({status})", "in the prompt as [{n}] ({status})"),
    "lec.fate.dropped": ("{stage}에서 빠짐: {why}", "dropped at {stage}: {why}"),
    "lec.fate.kept": ("유지됨", "kept"),
}
