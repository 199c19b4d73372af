"""The Threshold page's words in Korean and English (merged by ``ui.i18n``)."""

# key: (Korean, English)
TEXT: dict[str, tuple[str, str]] = {
    # ---- the page
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
    "thr.range": ("임계값 (시작:끝:간격)", "Thresholds (start:stop:step)"),
    "thr.range_ph": (
        "비우면 기본값: 관측된 최상위 값의 범위",
        "empty: the default, the range of the best values observed",
    ),
    "help.thr.range": (
        "예: 0.45:0.8:0.025. 기본값은 이 코퍼스의 임베더로 관측된 질문별 최상위 값의 범위입니다. "
        "거리는 21개 이하가 되는 가장 촘촘한 둥근 간격(0.005, 0.01, 0.02, 0.025, 0.05, 0.1), "
        "점수는 20칸입니다.",
        "E.g. 0.45:0.8:0.025. The default is the range of each query's best value observed with "
        "this corpus's embedder: for distances in the finest round step (0.005, 0.01, 0.02, "
        "0.025, 0.05, 0.1) that needs at most 21 thresholds, for scores in 20 steps.",
    ),
    "thr.none": ("없음", "none"),
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
    "thr.filter": ("결과 고르기", "Outcomes"),
    "thr.dl.json": ("훑기 JSON (CLI sweep 형식)", "Sweep JSON (as the sweep CLI)"),
    "thr.dl.csv": ("훑기 CSV", "Sweep CSV"),
    # ---- the page: metrics
    "thr.metric.auto": ("자동", "auto"),
    "thr.metric.distance": ("코사인 거리", "cosine distance"),
    "thr.metric.score": ("점수", "score"),
    # ---- the page: scores
    # ---- the page: gate outcomes
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
    # ---- the page: headings
    "thr.h.hist": ("최상위 후보의 분포", "Best hit per query"),
    "thr.h.sweep": ("임계값 훑기", "Threshold sweep"),
    "thr.h.queries": ("질의별 결과", "Per-query outcomes"),
    "thr.h.rc": ("위험–커버리지", "Risk–coverage"),
    # ---- the page: table columns
    "thr.col.threshold": ("임계값", "threshold"),
    "thr.col.gold_rate": ("정답과 함께 답함 [95%]", "answered with gold [95%]"),
    "thr.col.bluff_rate": ("허세 [95%]", "bluffed [95%]"),
    "thr.col.best": ("최상위 값", "best value"),
    "thr.col.kept": ("유지", "kept"),
    "thr.col.first_gold": ("첫 정답 순위", "first gold rank"),
    "thr.col.outcome": ("결과", "outcome"),
    # ---- the page: risk–coverage
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
}
