"""The Label page's words in Korean and English (merged by ``ui.i18n``)."""

# key: (Korean, English)
TEXT: dict[str, tuple[str, str]] = {
    # ---- the page
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
    "lab.judged_grade": ("등급 {grade}", "grade {grade}"),
    "lab.not_judged": ("미판정", "not judged"),
    "lab.cand": ("풀 후보 열기", "Open a pooled candidate"),
    "lab.doc": ("문서", "Document"),
    "help.lab.doc": (
        "풀에 없는 문서도 열 수 있습니다.",
        "Any document can be opened, pooled or not.",
    ),
    "lab.mode": ("구간 단위", "Span as"),
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
    "help.lab.grade": (
        "0은 '보고 나서 관련 없다고 판정함'입니다. 판정하지 않은 후보는 0이 아니라 미판정으로 "
        "남습니다. "
        "평가에서는 등급 1 이상이 정답입니다. 숫자 키 0–3으로 등급을 고릅니다.",
        "0 means 'looked at it, not relevant'. A candidate you do not judge stays not judged, "
        "never 0. "
        "Evaluation counts grade 1 and above as gold. Keys 0–3 set the grade.",
    ),
    "lab.note": ("메모", "Note"),
    "lab.need_annotator": (
        "라벨을 저장하려면 위에 이름을 넣으세요.",
        "Enter your name above to save labels.",
    ),
    "lab.save": ("라벨 저장", "Save label"),
    "lab.change": ("라벨 바꾸기", "Change label"),
    "lab.mouse": (
        "문서에서 마우스로 글자를 고르면 그 구간이 글자 범위로 선택됩니다.",
        "Select text in the document with the mouse to pick that character range.",
    ),
    "lab.save_next": ("저장하고 다음", "Save and next"),
    "help.lab.save_next": (
        "지금 구간을 이 등급으로 저장하고 풀의 다음 후보를 엽니다 "
        "(마지막 후보 다음은 아직 판정하지 않은 다음 질문). 단축키: Enter.",
        "Saves this span with this grade and opens the pool's next candidate (after the last "
        "one, the next question not judged yet). Shortcut: Enter.",
    ),
    "lab.keys": (
        "키보드: 숫자 0–3 = 등급, Enter = 저장하고 다음 후보 (입력란 밖에서).",
        "Keyboard: number keys 0–3 = grade, Enter = save and open the next candidate (outside "
        "a text box).",
    ),
    "lab.keys.queued": ("키 {n}개 대기 중", "{n} keys queued"),
    "lab.keys.full": (
        "키 {n}개를 받지 않았습니다: 대기열이 가득 찼습니다 (앞의 키를 처리하는 중)",
        "{n} keys refused: the queue is full (the keys before them are being handled)",
    ),
    "lab.keys.refused": (
        "키 {n}개를 처리하지 않았습니다: 이름이나 구간이 없거나, 앞의 저장이 확인을 기다립니다",
        "{n} keys not handled: no name or no span, or an earlier save awaits an answer",
    ),
    "lab.view": ("보기", "View"),
    "lab.view.label": ("라벨 달기", "Label"),
    "lab.view.agreement": ("일치도", "Agreement"),
    "lab.view.adjudicate": ("불일치 판정", "Adjudicate"),
    "lab.review": ("검토: 모든 라벨러를 나란히", "Review: every annotator side by side"),
    "help.lab.review": (
        "이 질문에 내 라벨을 하나 이상 저장한 뒤에만 켤 수 있습니다 (블라인드 라벨링: 그 전에는 "
        "다른 라벨러의 등급을 보지 않습니다).",
        "Available once you have saved a label of your own for this question (blind labeling: "
        "until then you see no one else's grades).",
    ),
    "lab.blind": (
        "블라인드: 이 질문에 내 라벨을 저장하기 전에는 다른 라벨러의 등급을 보여 주지 않습니다.",
        "Blind: no other annotator's grades are shown for this question until you have saved "
        "your own.",
    ),
    "lab.col.agree": ("일치", "Agree"),
    "lab.agree.yes": ("일치", "agree"),
    "lab.agree.no": ("불일치", "disagree"),
    "lab.agree.unit": (
        "단위: 문서 구간의 겹침 — 한 질문·한 문서에서 겹치는 라벨들(누가 붙였든)이 한 단위입니다. "
        "둘 이상이 라벨을 단 질문만 셉니다.",
        "Unit: document span overlap — the overlapping labels of one question and one document, "
        "whoever made them, are one unit. Only questions two or more annotators labeled count.",
    ),
    "lab.agree.none": (
        "이 세트에 라벨이 있는 라벨러가 둘 이상 없습니다.",
        "This set has no labels of two or more annotators.",
    ),
    "lab.agree.overall": ("전체", "overall"),
    "lab.agree.col.pair": ("라벨러 쌍", "Pair"),
    "lab.agree.col.questions": ("질문", "Questions"),
    "lab.agree.col.units": ("단위", "Units"),
    "lab.agree.col.kappa": ("가중 카파 ({weights})", "Weighted κ ({weights})"),
    "lab.agree.col.alpha": ("크리펜도르프 α (순서)", "Krippendorff α (ordinal)"),
    "lab.agree.col.f1": ("구간 F1 (글자)", "Span F1 (characters)"),
    "lab.agree.col.only_one": ("한 명만 판정", "Only one judged"),
    "lab.agree.col.qid": ("질문", "Question"),
    "lab.agree.col.disagree": ("불일치 단위", "Units that disagree"),
    "lab.agree.col.only_one_n": ("한 명만", "Only one"),
    "lab.agree.col.grades": ("등급 다름", "Grades differ"),
    "lab.agree.help": (
        "[ ]: 질문을 다시 뽑는 부트스트랩 95% 구간 ({resamples}회, 시드 {seed}). 카파와 알파는 "
        "둘 다 판정한 단위의 등급으로 셉니다. 한 명만 라벨을 단 질문 {single}개는 세지 않습니다.",
        "[ ]: 95% percentile bootstrap over questions ({resamples} resamples, seed {seed}). κ "
        "and α count the grades of units both judged. {single} questions only one annotator "
        "labeled are not counted.",
    ),
    "lab.agree.h.questions": ("질문별 (불일치가 많은 순)", "Per question (most disagreeing first)"),
    "lab.adj.a": ("A (키 a)", "A (key a)"),
    "lab.adj.b": ("B (키 b)", "B (key b)"),
    "lab.adj.progress": (
        "불일치 {n}개 중 {done}개 판정",
        "{done} of {n} disagreements adjudicated",
    ),
    "lab.adj.empty": ("판정할 불일치가 없습니다.", "No disagreement to adjudicate."),
    "lab.adj.note": ("판정 메모", "Adjudication note"),
    "lab.adj.take": ("{who}의 판정", "{who}'s"),
    "lab.adj.grade": ("등급 {grade}", "grade {grade}"),
    "lab.adj.undo": ("취소", "Undo"),
    "lab.adj.cannot": (
        "판정할 수 없습니다: 이름을 적고 라벨러 둘을 고르세요.",
        "Cannot adjudicate: give your name and pick two annotators.",
    ),
    "lab.adj.took": (
        "{who}의 판정을 정답으로 저장했습니다.",
        "Saved {who}'s judgement as the gold.",
    ),
    "lab.adj.graded": ("등급 {grade}로 판정했습니다.", "Adjudicated as grade {grade}."),
    "lab.adj.undone": (
        "판정 취소: {doc} {start}–{end}",
        "Adjudication undone: {doc} {start}–{end}",
    ),
    "help.lab.grade_key": ("등급 {grade} (단축키: {grade})", "Grade {grade} (shortcut: {grade})"),
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
    "lab.none_yet": ("아직 라벨이 없습니다.", "No labels yet."),
    "lab.pick": ("라벨 고르기", "Pick a label"),
    "lab.open": ("편집기에서 열기", "Open in the editor"),
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
    # ---- the page: headings
    "lab.h.gold": ("정답 근거", "Gold evidence"),
    "lab.h.pool": ("후보 풀", "Candidate pool"),
    "lab.h.span": ("문서와 구간", "Document and span"),
    "lab.h.labels": ("이 질문의 라벨", "Labels of this question"),
    "lab.h.history": ("기록 (누가 언제 무엇을)", "History (who labeled what and when)"),
    "lab.h.progress": ("질문 세트별 진행", "Progress per question set"),
    "lab.h.io": ("내보내기 · 가져오기", "Export · import"),
    "lab.h.export": ("내보내기", "Export"),
    "lab.h.import": ("가져오기", "Import"),
    # ---- the page: table columns
    "lab.col.origin": ("출처", "origin"),
    "lab.col.span": ("구간", "span"),
    "lab.col.grade": ("등급", "grade"),
    "lab.col.text": ("글", "text"),
    "lab.col.best": ("최고 순위", "best rank"),
    "lab.col.runs": ("찾은 실행#순위", "found by (run#rank)"),
    "lab.col.judged": ("판정", "judged"),
    "lab.col.who": ("누가", "who"),
    "lab.col.when": ("언제 (UTC)", "when (UTC)"),
    "lab.col.kind": ("종류", "kind"),
    "lab.col.undone": ("취소한 이벤트", "undone by"),
    "lab.col.total": ("전체", "total"),
    # ---- the page: gold origins
    "lab.origin.needle": ("needle (세트)", "needle (shipped)"),
    "lab.origin.label": ("라벨", "label"),
    "lab.origin.needle+label": ("needle+라벨", "needle+label"),
    "lab.origin.zero": ("관련 없음 (0)", "not relevant (0)"),
    "lab.origin.qrels": ("qrels (문서 단위)", "qrels (document)"),
    # ---- the page: the candidate pool
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
    # ---- the page: span modes
    "lab.mode.chunk": ("청크", "chunk"),
    "lab.mode.sentence": ("문장", "sentence"),
    "lab.mode.range": ("글자 범위", "character range"),
    # ---- the page: grades
    "lab.grade.0": ("0 · 관련 없음", "0 · not relevant"),
    "lab.grade.1": ("1 · 관련 있음", "1 · relevant"),
    "lab.grade.2": ("2 · 매우 관련", "2 · highly relevant"),
    "lab.grade.3": ("3 · 완전한 답", "3 · the complete answer"),
    # ---- the page: label kinds
    "lab.kind.add": ("추가", "add"),
    "lab.kind.change": ("변경", "change"),
    "lab.kind.import": ("가져오기", "import"),
    "lab.kind.undo": ("취소", "undo"),
    # ---- the page: export
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
    "lab.exp.qrels": ("TREC qrels 받기 ({sig})", "Download TREC qrels ({sig})"),
    "lab.exp.counts": (
        "{state}: 질문 {questions}개에 라벨 {labels}개. 파일은 누르는 순간의 저장소에서 만듭니다. "
        "판정이 없는 질의는 qrels에서 빠집니다(미판정).",
        "{state}: {labels} labels of {questions} questions. The files are made from the store "
        "when you click; queries without a judgement are left out of the qrels (not judged).",
    ),
    # ---- the page: import
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
    "lab.imp.not_utf8": (
        "{name}: UTF-8 텍스트가 아닙니다 ({byte}번째 바이트: {error})",
        "{name}: not UTF-8 text ({error} at byte {byte})",
    ),
    "lab.imp.ok": (
        "{lines}줄을 읽었습니다: 새 라벨 {added}, 바뀐 라벨 {changed}, 이미 같은 라벨 {unchanged}.",
        "Read {lines} lines: {added} new labels, {changed} changed, {unchanged} already equal.",
    ),
    # ---- which gold (every measuring page)
    "gold.pick": ("정답 상태", "Gold state"),
    "help.gold.pick": (
        "정답을 어떤 라벨로 읽을지: 한 라벨러의 라벨, 판정(adjudication)한 라벨, 또는 "
        "병합 규칙. 기본값은 판정이 있으면 판정, 라벨러가 한 명이면 그 사람, 아니면 "
        "'가장 최근 라벨'입니다. 판정에서 아직 남은 불일치는 가장 높은 등급으로 읽습니다.",
        "Which labels gold is read from: one annotator's, the adjudicated ones, or a merge rule. "
        "Default: adjudicated when there is an adjudication, else the one annotator, else the "
        "latest label of anyone. Disagreements not adjudicated yet are read at their highest "
        "grade.",
    ),
    "gold.default": ("기본 (→ {state})", "default (→ {state})"),
    "gold.annotator": ("라벨러: {name}", "annotator: {name}"),
    "gold.anonymous": ("(이름 없음)", "(anonymous)"),
    "gold.adjudicated": ("판정한 정답", "adjudicated"),
    "gold.merge.latest": ("병합: 가장 최근 라벨", "merge: latest label of anyone"),
    "gold.merge.max": ("병합: 가장 높은 등급", "merge: highest grade"),
    "gold.merge.min": ("병합: 가장 낮은 등급", "merge: lowest grade"),
    "gold.read": ("정답: {state}", "gold: {state}"),
}
