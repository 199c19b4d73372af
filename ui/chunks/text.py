"""The Chunks page's words in Korean and English (merged by ``ui.i18n``)."""

# key: (Korean, English)
TEXT: dict[str, tuple[str, str]] = {
    # ---- the page
    "chk.running": ("청킹 중", "Chunking"),
    "chk.signature": ("청킹 {sig} · 문서 {n}개", "chunking {sig} · {n} documents"),
    "chk.chars": (
        "문자 수: 최소 {lo} · 평균 {mean} · 최대 {hi}",
        "characters: min {lo} · mean {mean} · max {hi}",
    ),
    "chk.skipped_blocks": (
        "최소 길이보다 짧아 청크가 되지 못한 블록 {n}개",
        "{n} blocks under the minimum length became no chunk",
    ),
    "chk.unknown": (
        "MiniLM이 이 청크들의 글자 {total}개 중 {unk}개({share})를 [UNK]로 읽습니다: 그 낱말들은 "
        "모두 같은 '읽을 수 없음' 토큰이 되어 서로 구별되지 않습니다. 한국어는 다국어 e5-small"
        "(retrieval.dense_model=e5-small)이 읽습니다.",
        "MiniLM reads {unk} of these chunks' {total} characters ({share}) as [UNK]: those words "
        "all become the same 'unreadable' token and cannot be told apart. The multilingual "
        "e5-small (retrieval.dense_model=e5-small) reads Korean.",
    ),
    "chk.doc": ("문서", "Document"),
    "chk.needle_ok": (
        "정답 근거 (청크 하나에 온전히 들어 있음)",
        "gold needle (wholly inside a chunk)",
    ),
    "chk.needle_lost": ("잘려 없어진 정답 근거", "destroyed gold needle"),
    "chk.this_question": ("이 질문의 정답", "this question's gold"),
    "chk.doc_facts": (
        "청크 {chunks}개 · 창을 넘는 청크 {over}개 · 정답 근거 {needles}개 중 {lost}개가 잘림",
        "{chunks} chunks · {over} over the window · {lost} of {needles} gold needles destroyed",
    ),
    "chk.lost_line": (
        "잘린 정답 근거 “{needle}” (문자 {start}–{end}), 자른 경계: {cuts}",
        "Destroyed needle “{needle}” (chars {start}–{end}), cut at: {cuts}",
    ),
    "chk.all_chunks": ("모든 청크", "all chunks"),
    "chk.window_line": ("인코더 창 {window}", "encoder window {window}"),
    "chk.tokens_axis": ("청크 본문의 토큰 수", "tokens of chunk text"),
    "chk.count_axis": ("청크 수", "chunks"),
    "chk.no_tokens": ("토큰 수를 셀 토크나이저가 없습니다.", "No tokenizer to count tokens."),
    "chk.chunk": ("청크", "chunk"),
    "chk.header_chars": ("헤더 문자", "header chars"),
    "chk.none_over": ("창을 넘는 청크가 없습니다.", "No chunk exceeds the window."),
    "chk.more": ("… 그리고 {n}개 더", "… and {n} more"),
    "chk.cut_at": ("경계 위치", "cut at"),
    "chk.none_destroyed": (
        "잘린 정답이 없습니다: 모든 정답 근거가 어떤 청크 하나에 온전히 들어 있습니다.",
        "No answer destroyed: every gold needle lies wholly inside some chunk.",
    ),
    "chk.span": ("문자 범위", "char span"),
    "chk.overlap_chars": ("겹침 문자", "overlap chars"),
    "chk.chars_col": ("문자", "chars"),
    "chk.header": ("헤더", "header"),
    "chk.not_in_corpus": (
        "코퍼스에 없는 정답 {n}개는 청킹 손실로 세지 않았습니다: {ids}",
        "{n} gold needle(s) are not in this corpus and are not counted as chunking losses: {ids}",
    ),
    "chk.hard_cuts": (
        "청크 {n}개는 목표 길이에 경계가 없어 단어 중간에서 잘렸습니다 (공백 없는 줄). "
        "인코더는 100자가 넘는 단어를 [UNK] 하나로 봅니다.",
        "{n} chunk(s) were cut mid-word: the text had no boundary at the target (a line without "
        "spaces). The encoder sees a word over 100 characters as a single [UNK].",
    ),
    # ---- the page: headings
    "chk.h.document": ("문서 위의 청크 경계: {doc}", "Chunk boundaries over the document: {doc}"),
    "chk.h.histogram": (
        "청크 길이 분포 (토큰) 대 인코더 창",
        "Chunk length in tokens against the encoder window",
    ),
    "chk.h.over": (
        "창({window})을 넘어 뒤가 잘리는 청크",
        "Chunks over the window ({window}), silently truncated",
    ),
    "chk.h.destroyed": (
        "잘려 없어진 정답 (전체 질문 세트)",
        "Answers destroyed (all question sets)",
    ),
    "chk.h.table": ("이 문서의 청크 {n}개", "This document's {n} chunks"),
    # ---- the page: legend
    "chk.legend.chunk": ("청크 (색 {n})", "chunk (tint {n})"),
    "chk.legend.overlap": (
        "겹침: 앞 청크에서 복사된 글",
        "overlap: text copied from the previous chunk",
    ),
    "chk.legend.header": ("맥락 헤더 (문서 글이 아님)", "contextual header (not document text)"),
    "chk.legend.gold": ("정답 근거", "gold needle"),
    "chk.legend.lost": ("잘려 없어진 정답 근거", "destroyed needle"),
    "chk.legend.cut": ("정답을 자른 경계", "the boundary that cut it"),
    "chk.legend.gap": ("어느 청크에도 없는 글", "text in no chunk"),
    "chk.legend.boundary": ("청크 경계 (번호 · 토큰 수)", "chunk boundary (ordinal · tokens)"),
    # ---- why a needle was lost (the core's codes)
    "lossreason.split": ("경계에 잘림", "split by a boundary"),
    "lossreason.skipped": ("어느 청크에도 안 들어감", "in no chunk"),
    "lossreason.not in corpus": ("코퍼스에 없음", "not in corpus"),
}
