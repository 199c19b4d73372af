"""The Lecture page's words in Korean and English (merged by ``ui.i18n``)."""

# key: (Korean, English)
TEXT: dict[str, tuple[str, str]] = {
    # ---- the page
    "lec.no_candidates": ("후보가 없습니다.", "No candidates."),
    "lec.tokens_elided": (" … 토큰 {n}개 생략 … ", " … {n} tokens not shown … "),
    "lec.no_claims": ("답변에서 주장을 찾지 못했습니다.", "No claims were found in the answer."),
    "lec.unready": ("준비 안 됨: {sides}", "not prepared: {sides}"),
    "lec.claims_wait": (
        "답변이 끝나면 주장마다 출처가 뒷받침하는지 판정합니다.",
        "Once the answer is complete, each claim is checked against the sources.",
    ),
    "lec.making": ("답변을 만드는 중 · {line}", "Answer being made · {line}"),
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
    # ---- the page: the verdict line (rag_core.evaluation.verdict), told step by step
    "lec.v.lost": (
        "✗ 정답 근거를 {stage} 단계에서 잃었습니다 ({loss})",
        "✗ The gold was lost at the {stage} stage ({loss})",
    ),
    "lec.v.question_cut": (
        "✗ 예산이 질문까지 잘랐습니다: 모델은 질문의 끝을 보지 못합니다",
        "✗ The budget cut the question itself: the model never sees its end",
    ),
    "lec.v.kept": (
        "정답 근거가 게이트를 통과했습니다 ({rank}위). 모델에게까지 닿을까요?",
        "The gold passed the gate (rank {rank}). Will it reach the model?",
    ),
    "lec.v.sent": (
        "✓ 정답 근거가 검색되고, 유지되고, 프롬프트에 [{n}]로 들어갔습니다",
        "✓ The gold was retrieved, kept and sent to the model as [{n}]",
    ),
    "lec.v.should_refuse.gate": (
        "✗ 코퍼스로는 답할 수 없는 질문인데 게이트가 후보 {n}개를 통과시켰습니다: "
        "거절했어야 합니다",
        "✗ The corpus cannot answer this, yet the gate let {n} candidates through: it should "
        "have refused",
    ),
    "lec.v.should_refuse.answer": (
        "✗ 코퍼스로는 답할 수 없는 질문에 모델이 답했습니다: 거절했어야 합니다",
        "✗ The corpus cannot answer this, yet the model answered: it should have refused",
    ),
    "lec.v.refused.gate": (
        "✓ 답할 수 없는 질문을 게이트가 거절했습니다 (모델은 부르지 않았습니다)",
        "✓ The corpus cannot answer this and the gate refused (the model was not called)",
    ),
    "lec.v.refused.answer": (
        "✓ 게이트는 후보를 통과시켰지만 모델이 답을 거절했습니다",
        "✓ The gate let candidates through, but the model declined to answer",
    ),
    "lec.v.no_gold": (
        "이 질문에는 정답 근거가 없어 잃은 곳을 판정할 수 없습니다",
        "This question has no gold: there is nothing to follow through the stages",
    ),
    "lec.should_refuse": ("거절해야 할 질문", "should refuse"),
    "lec.should_refuse_help": (
        "코퍼스에 답이 없는 질문입니다: 올바른 시스템은 답하지 않고 거절합니다.",
        "The corpus holds no answer to this question: a sound system refuses it.",
    ),
    # ---- the page: the before/after toggle (the scenario's B)
    "lec.side": ("설정", "Configuration"),
    "lec.side.a": ("A · 실패", "A · failure"),
    "lec.side.b": ("B · 기준선", "B · baseline"),
    "lec.side_help": (
        "A는 사이드바 설정(사례의 실패), B는 A에 비교 설정을 더한 것(작동하는 기준선: {b}).",
        "A is the sidebar's configuration (the scenario's failure); B is A plus the comparison "
        "overrides (the working baseline: {b}).",
    ),
    "lec.side_bad": ("B 설정을 적용하지 못했습니다: {error}", "Could not apply B: {error}"),
    # ---- the page: preparing every scenario
    "lec.prepare": ("사례 준비", "Prepare scenarios"),
    "lec.prepare_help": (
        "모든 사례의 A와 B를 한 번씩 미리 실행합니다(색인, 임베딩, 답변 생성). 그 뒤로는 강의 "
        "중에 사례를 열어도 기다리지 않습니다. 명령줄: python -m rag_core scenarios prepare",
        "Runs every scenario's A and B once ahead of time (indexes, embeddings, the answers), so "
        "that opening a scenario during the lecture does not wait. Command line: python -m "
        "rag_core scenarios prepare",
    ),
    "lec.prepare_go": ("모든 사례 준비하기", "Prepare all scenarios"),
    "lec.preparing": ("{i}/{n}: {title} · {side}", "{i}/{n}: {title} · {side}"),
    "lec.prepared": (
        "{n}개 실행을 {seconds}초에 준비했습니다 (이미 준비되어 있던 것 {cached}개)",
        "Prepared {n} runs in {seconds} s ({cached} were ready already)",
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
    # ---- the page: what a pane leaves out to fit the screen (ui.lecture.fit)
    "lec.more.ranks": (
        "… {a}–{b}위는 생략 (검사 페이지에 모두)",
        "… ranks {a}–{b} not shown (all on Inspect)",
    ),
    "lec.more.ranks_gold": (
        "… {a}–{b}위는 생략, 정답 근거 ★가 그 안에 있음 (검사 페이지에 모두)",
        "… ranks {a}–{b} not shown, the gold ★ among them (all on Inspect)",
    ),
    "lec.more.chars": ("… {n}자 더 (검사 페이지에 모두)", "… {n} more characters (all on Inspect)"),
    "lec.more.answer": (
        "… 답변의 나머지 {n}자 (검사 페이지 ⑦에 모두)",
        "… {n} more characters of the answer (all on Inspect ⑦)",
    ),
    "lec.more.claims": (
        "… 주장 {n}개 더 (검사 페이지 ⑦에 모두)",
        "… {n} more claims (all on Inspect ⑦)",
    ),
    "lec.more.evidence": (
        "… 출처 {n}곳의 근거 더 (검사 페이지 ⑦에 모두)",
        "… evidence from {n} more sources (all on Inspect ⑦)",
    ),
    "lec.more.chunks": (
        "… 청크 {n}개 더 (검사 페이지에 모두)",
        "… {n} more chunks (all on Inspect)",
    ),
}
