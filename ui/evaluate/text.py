"""The Evaluate page's words in Korean and English (merged by ``ui.i18n``)."""

# key: (Korean, English)
TEXT: dict[str, tuple[str, str]] = {
    # ---- the ranking evaluation
    "ev.intro": (
        "질문 세트를 설정 A(사이드바)와, 원하면 B로 돌려 검색 지표를 잽니다. 모든 값에 95% 구간이 "
        "붙고(0/1 지표는 Wilson, 그 밖은 부트스트랩; 방법은 구간 옆에), A와 B의 "
        "차이는 질문별 짝 비교(부호 검정)로 읽습니다. 생성 모델은 부르지 않습니다.",
        "Runs a question set through configuration A (the sidebar) and optionally B, and measures "
        "retrieval. Every "
        "value carries its 95% interval (Wilson for 0/1 metrics, a bootstrap for graded ones; the "
        "method is named next to it); A against B is read from a paired per-question "
        "comparison (sign test). "
        "No generation model is called.",
    ),
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
    "ev.config_a": ("A (사이드바):", "A (sidebar):"),
    "ev.default": ("기본 설정", "the default configuration"),
    "ev.b_mode": ("설정 B", "Configuration B"),
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
    "ev.metrics_help": (
        "n = 질문 {n}개 (질의 {q}개{grouped}). 질문별 값이 모두 0 또는 1인 지표(hit@k 등)는 Wilson "
        "점수 구간, 그 밖의 지표(nDCG, RR, AP, P@k)는 평균의 백분위 부트스트랩 구간(재표본 "
        "{resamples}개, 고정 시드)입니다. 구간이 겹치면 차이를 단정하지 마세요. "
        "파란 행: 부호 검정에서 p < 0.05.",
        "n = {n} questions ({q} queries{grouped}). A metric whose per-question values are all "
        "0 or 1 (hit@k…) gets the Wilson score interval; the others (nDCG, RR, AP, P@k) the "
        "percentile bootstrap of the mean ({resamples} resamples, fixed seed). Overlapping "
        "intervals are no evidence of a difference. Blue rows: sign test p < 0.05.",
    ),
    "ev.sign_help": (
        "부호 검정: 두 설정의 값이 다른 질문만 세어(같은 질문 제외, "
        "한 질문의 표현들은 평균해 하나로) "
        "확률 1/2의 이항분포로 정확한 "
        "양측 p를 구합니다. "
        "p가 크면 평균이 달라 보여도 '이 질문들로는 구별할 수 없음'입니다.",
        "Sign test: only the questions where the two configs differ count (ties dropped; a "
        "question's phrasings are averaged into one); the exact "
        "two-sided p comes "
        "from Binomial(n, 1/2). A large p reads 'not distinguishable on these questions', whatever "
        "the means say.",
    ),
    "ev.curve_metric": ("지표", "Metric"),
    "ev.breakdown_help": (
        "질의는 가진 태그마다 한 번씩 셉니다. n이 작은 태그의 구간은 넓습니다.",
        "A query counts under every tag it carries. Tags with a small n have wide intervals.",
    ),
    "ev.filter": ("보기", "Show"),
    "ev.questions_help": (
        "질의 {n}개. 첫 정답 순위: 상위 {depth}개 안에서 정답 청크가 처음 나온 순위(None: 못 "
        "찾음). 열 머리를 누르면 정렬됩니다.",
        "{n} queries. First gold rank: where the first gold chunk appears within the top {depth} "
        "(None: not found). "
        "Click a column header to sort.",
    ),
    "ev.open": ("열 질의", "Query to open"),
    "ev.dl_help": (
        "run과 qrels를 trec_eval이나 ir-measures로 다시 재면 같은 값이 나와야 합니다. "
        "python -m rag_core eval --queries … --json 도 같은 수를 냅니다.",
        "Scoring the run against the qrels with trec_eval or ir-measures gives the same values; so "
        "does "
        "python -m rag_core eval --queries … --json.",
    ),
    "ev.gain": ("nDCG 이득(gain)", "nDCG gain"),
    "help.ev.gain": (
        "등급 있는 qrels가 nDCG에 들어가는 방식. trec_eval/pytrec_eval의 ndcg_cut은 선형입니다.",
        "How graded qrels enter nDCG. trec_eval/pytrec_eval's ndcg_cut is linear.",
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
    "ev.needle_missing": (
        "질문 {qid}: 정답 근거 {n}개가 코퍼스에 없어 정답에서 뺐습니다 ({needles})",
        "question {qid}: {n} needle(s) not in the corpus, left out of the gold ({needles})",
    ),
    "ev.needle_missing_unscored": (
        "질문 {qid}: 정답 근거 {n}개가 코퍼스에 없어 이 질문은 채점하지 않습니다 ({needles})",
        "question {qid}: {n} needle(s) not in the corpus; the question is not scored ({needles})",
    ),
    # ---- the ranking evaluation: how B is given
    "ev.b_mode.none": ("없음", "none"),
    "ev.b_mode.preset": ("청킹 프리셋", "chunking preset"),
    "ev.b_mode.overrides": ("A + 덮어쓰기", "A + overrides"),
    "ev.b_mode.json": ("JSON", "JSON"),
    "ev.b_mode.url": ("URL", "URL"),
    # ---- the ranking evaluation: headings
    "ev.h.summary": ("요약", "Summary"),
    "ev.h.metrics": ("지표 (95% 구간)", "Metrics (95% interval)"),
    "ev.h.reading": ("한 줄 해석", "In plain words"),
    "ev.h.curve": ("k에 따른 지표 (95% 구간 띠)", "Metric at k (95% interval band)"),
    "ev.h.breakdown": ("태그별", "By tag"),
    "ev.h.questions": ("질문별", "Per question"),
    "ev.h.downloads": ("받기", "Downloads"),
    # ---- the ranking evaluation: table columns
    "ev.col.metric": ("지표", "metric"),
    "ev.col.ci": ("평균 [95% 구간] 방법", "mean [95% interval] method"),
    "ev.ci.wilson": ("Wilson", "Wilson"),
    "ev.ci.bootstrap": ("부트스트랩", "bootstrap"),
    "ev.grouped": (
        ", 한 질문의 표현들은 평균해 하나로",
        "; a question's phrasings averaged into one value",
    ),
    "ev.col.wins": ("A가 나음", "A better"),
    "ev.col.losses": ("A가 못함", "A worse"),
    "ev.col.ties": ("같음", "tied"),
    "ev.col.reading": ("해석", "reading"),
    "ev.col.group": ("묶음", "group"),
    "ev.col.tag": ("태그", "tag"),
    "ev.col.destroyed": ("{side} 파괴", "{side} destroyed"),
    "ev.col.first_gold": ("{side} 첫 정답 순위", "{side} first gold rank"),
    # ---- the ranking evaluation: tag groups
    "ev.group.language": ("언어", "language"),
    "ev.group.failure_mode": ("실패 유형", "failure mode"),
    "ev.group.query_type": ("질의 유형", "query type"),
    # ---- the ranking evaluation: question filters
    "ev.filter.all": ("전부", "all"),
    "ev.filter.miss_a": ("A가 놓친 질의", "missed by A"),
    "ev.filter.miss_b": ("B가 놓친 질의", "missed by B"),
    "ev.filter.differ": ("A와 B가 다른 질의", "A and B differ"),
    # ---- the ranking evaluation: downloads
    "ev.dl.csv": ("질의별 CSV", "Per-query CSV"),
    "ev.dl.json": ("JSON (CLI eval 형식)", "JSON (as the eval CLI)"),
    "ev.dl.run": ("TREC run ({side})", "TREC run ({side})"),
    "ev.dl.qrels": ("TREC qrels ({sig})", "TREC qrels ({sig})"),
    # ---- the ranking evaluation: nDCG gains
    "ev.gain.binary": ("이진 (등급>0 → 1)", "binary (grade>0 → 1)"),
    "ev.gain.linear": ("선형 (등급, trec_eval)", "linear (grade, as trec_eval)"),
    "ev.gain.exp": ("지수 (2^등급 − 1)", "exponential (2^grade − 1)"),
    # ---- the answers section
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
    "ans.concurrency": ("동시 요청 수", "Requests in flight"),
    "help.ans.concurrency": (
        "엔드포인트 생성기에 동시에 보내는 질문 수입니다. 서버가 여러 요청을 함께 처리할 때만 "
        "빨라지며, 이 프로세스 안의 모델에는 의미가 없습니다 (한 번에 하나씩 답합니다). "
        "결과는 동시 요청 수와 무관하게 같습니다.",
        "How many questions go to an endpoint generator (openai:MODEL) at once. It only helps "
        "when the server batches requests (vLLM, llama-server --parallel); it does nothing for "
        "an in-process model, which answers one at a time. The result is the same for any "
        "value.",
    ),
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
    "ans.loss_sum": (
        "실패한 답할 수 있는 질문 {failed}개 = 단계별 손실 합 {total}개 (답할 수 있는 질문 {n}개 "
        "중).",
        "{failed} failed answerable questions = {total} losses summed over the stages (of {n} "
        "answerable).",
    ),
    "ans.mde": (
        "{metric}: 짝지은 질문 n = {n}개, 불일치 {discordant}개에서는 {mde}%p보다 작은 차이를 "
        "잡음과 구별할 수 없습니다 (α = 0.05, 검정력 80%).",
        "{metric}: with n = {n} paired questions and {discordant} discordant, a difference smaller "
        "than {mde} "
        "points cannot be told apart from noise (α = 0.05, power 80%).",
    ),
    "ans.side": ("설정", "Configuration"),
    "ans.dl": ("답변 평가 JSON", "Answer evaluation JSON"),
    # ---- the answers section: table columns
    "ans.col.value": ("값", "value"),
    "ans.col.outcome": ("결과", "outcome"),
    "ans.col.loss": ("잃은 단계", "lost at"),
    "ans.col.answer": ("답변", "answer"),
    "ans.col.claims": ("주장 판정", "claim verdicts"),
    "ans.col.only_a": ("A만 성공", "only A right"),
    "ans.col.only_b": ("B만 성공", "only B right"),
    "ans.col.diff": ("차이 A−B (%p, 95%)", "difference A−B (points, 95%)"),
    # ---- the answers section: rates
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
    # ---- the answers section: headings
    "ans.h.loss": (
        "정답 근거를 잃은 단계: 질문에서 정답 답변까지",
        "Where the gold was lost: from asked to answered correctly",
    ),
    "ans.h.compare": ("A 대 B (질문별 짝지은 비교)", "A vs B (paired per question)"),
    "ans.h.rows": ("질문별 답변", "Answers per question"),
    # ---- the answers section: loss stages
    "ans.funnel.after": ("−{n} {loss}", "−{n} {loss}"),
    "ans.funnel.left": ("%{value}개 남음", "%{value} left"),
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
    # ---- the answers section: outcomes
    "ans.outcome.correct": ("정답", "correct"),
    "ans.outcome.wrong": ("오답", "wrong"),
    "ans.outcome.false_refusal": ("잘못된 거절", "false refusal"),
    "ans.outcome.bluff": ("허세 답변", "bluff"),
    "ans.outcome.correct_refusal": ("올바른 거절", "correct refusal"),
    # ---- the answers section: verdicts
    "ans.verdict.a_better": ("A가 낫습니다 (홈 보정 후)", "A is better (after Holm)"),
    "ans.verdict.b_better": ("B가 낫습니다 (홈 보정 후)", "B is better (after Holm)"),
    "ans.verdict.not_distinguishable": (
        "이 질문들로는 구별할 수 없습니다",
        "not distinguishable on these questions",
    ),
    # ---- paired comparison verdicts (the core's codes)
    "stats.query.one": ("{n}개 질의", "{n} query"),
    "stats.query.many": ("{n}개 질의", "{n} queries"),
    "stats.question.one": ("{n}개 질문", "{n} question"),
    "stats.question.many": ("{n}개 질문", "{n} questions"),
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
        "이 {n_q}에서는 두 설정을 구별할 수 없습니다",
        "not distinguishable on these {n_q}",
    ),
    # ---- does the conclusion survive the annotator?
    "ev.h.states": (
        "라벨러가 바뀌어도 결론이 그대로인가",
        "Does the conclusion survive the annotator?",
    ),
    "ev.st.intro": (
        "같은 설정들을 라벨러마다의 정답과 판정한 정답으로 각각 평가합니다: 설정별 지표, "
        "상태마다의 순위와 그 순위 사이의 켄달 τ, 그리고 A 대 B 짝 검정의 결론이 상태마다 "
        "같은지 (Voorhees 2000: 평가자가 바뀌어도 시스템 순위가 유지되는지).",
        "The same configurations evaluated against each annotator's gold and the adjudicated "
        "gold: each metric per state, the configurations' ranking per state with Kendall's τ "
        "between rankings, and whether the paired test's verdict A vs B is the same under each "
        "(Voorhees 2000: do system rankings hold across assessors?).",
    ),
    "ev.st.need_two": (
        "비교하려면 이 세트에 라벨이 있는 라벨러가 둘 이상(또는 한 명과 판정) 있어야 하고, "
        "컷오프가 하나 이상 있어야 합니다.",
        "To compare, this set needs labels of two or more annotators (or one and an "
        "adjudication), and at least one cut-off.",
    ),
    "ev.st.presets": ("함께 순위를 매길 청킹 프리셋", "Chunking presets ranked too"),
    "help.ev.st.presets": (
        "A(와 B) 외에, A의 설정에 이 청킹 프리셋을 얹은 설정들도 순위에 넣습니다. 설정이 "
        "많을수록 τ가 더 많은 것을 말하지만 오래 걸립니다.",
        "Besides A (and B), A's settings with each of these chunking presets are ranked too. "
        "More configurations make τ say more, and take longer.",
    ),
    "ev.st.run": ("상태별로 평가 ({n}회)", "Evaluate per state ({n} runs)"),
    "ev.st.running": ("{config} · {state}", "{config} · {state}"),
    "ev.st.config": ("설정", "Configuration"),
    "ev.st.state": ("정답 상태", "Gold state"),
    "ev.st.means_help": (
        "{metric}의 평균과 그 상태에서의 순위(#).",
        "{metric}'s mean and the rank (#) under that state.",
    ),
    "ev.st.tau_help": (
        "켄달 τ-b: 두 상태에서 설정들의 순위가 얼마나 같은지 (+1 같음, 0 무관, −1 뒤집힘).",
        "Kendall's τ-b: how alike the configurations' rankings are under two states (+1 the "
        "same, 0 unrelated, −1 reversed).",
    ),
    "ev.st.verdicts": ("{a} 대 {b}: 상태마다의 짝 검정", "{a} vs {b}: the paired test per state"),
    "ev.st.no_verdict": (
        "이 상태에서 판정된 질문이 없습니다",
        "no question judged under this state",
    ),
    "ev.st.verdict_same": (
        "A 대 B의 결론은 모든 상태에서 같습니다",
        "the verdict A vs B is the same under every state",
    ),
    "ev.st.verdict_differs": (
        "A 대 B의 결론이 상태에 따라 다릅니다",
        "the verdict A vs B differs between states",
    ),
    "ev.st.verdict_none": ("B가 없어 짝 검정은 하지 않았습니다", "no B: no paired test"),
    "ev.st.summary": (
        "상태 {n}개: 순위 사이의 가장 낮은 τ = {tau}; {verdict}.",
        "{n} states: the lowest τ between rankings = {tau}; {verdict}.",
    ),
}
