"""The Label page's session-state keys: the store and annotator, the question, the pool,
the span picker, grading and saving, and the export/import boxes."""

#: The label store this session uses (a path; unset: ``rag_core.gold.store.default_store_path``).
K_LAB_STORE_PATH = "label.store.path"
K_LAB_STORE_W = "label.store.w"
K_LAB_STORE_USE = "label.store.use"
K_LAB_ANNOTATOR = "label.annotator"
#: The gold state the measuring pages read (a spec of ``rag_core.gold.states``; unset: default).
K_LAB_GOLD = "label.gold"
K_LAB_GOLD_W = "label.gold.w"
K_LAB_QSET = "label.qset"
K_LAB_QID = "label.qid"
#: ``(question set, question id)`` the sidebar showed last: the page follows it when it moves.
K_LAB_SIDEBAR = "label._sb"
K_LAB_NEXT = "label.next"
K_LAB_POOL_RETRIEVERS = "label.pool.retrievers"
K_LAB_POOL_DEPTH = "label.pool.depth"
K_LAB_POOL_ORDER = "label.pool.order"
K_LAB_POOL_SEED = "label.pool.seed"
#: ``(question set, question id)`` the span widgets were opened for.
K_LAB_FOR = "label._for"
K_LAB_CAND = "label.cand"
K_LAB_DOC = "label.doc"
K_LAB_MODE = "label.mode"
K_LAB_CHUNK = "label.chunk"
K_LAB_SENT = "label.sent"
K_LAB_START = "label.start"
K_LAB_END = "label.end"
K_LAB_FIND = "label.find"
K_LAB_OCCS = "label.occs"
K_LAB_OCC = "label.occ"
#: ``(doc id, start, end)`` of the last valid span shown: where a new mode opens.
K_LAB_LAST = "label._last"
#: ``(question set, question id, doc id, start, end)`` whose label the grade and note show.
K_LAB_SPAN = "label._span"
K_LAB_WHOLE = "label.whole"
#: The excerpt's mouse selection (``{"doc", "start", "end"}``).
K_LAB_MOUSE = "label.mouse"
K_LAB_GRADE = "label.grade"
K_LAB_NOTE = "label.note"
K_LAB_SAVE = "label.save"
#: Save and open the next candidate (shortcut Enter).
K_LAB_SAVE_NEXT = "label.save_next"
#: Prefix of the grade-key buttons (``label.grade_key.0`` …, shortcuts 0–3).
K_LAB_GRADE_KEY = "label.grade_key"
#: The key component's value (the presses not handled yet), the last press handled, the
#: component's refusals seen (its count of the session), and the messages about presses refused
#: not shown yet (a tuple).
K_LAB_KEYS = "label.keys"
K_LAB_KEYS_ACK = "label.keys.ack"
K_LAB_KEYS_REFUSED = "label.keys.refused"
K_LAB_KEYS_MSG = "label.keys.msg"
#: This session's token: the browser keeps the key queue under it (a reload starts empty).
K_LAB_KEYS_TOKEN = "label.keys.token"
#: The page's view: label, agreement or adjudicate; the review toggle; the annotator's memory.
K_LAB_VIEW = "label.view"
K_LAB_REVIEW = "label.review"
K_LAB_REMEMBER = "label.remember"
#: The adjudication queue: the two annotators whose labels the keys take, the item shown,
#: the note, the buttons, the last action's message.
K_LAB_ADJ_A = "label.adj.a"
K_LAB_ADJ_B = "label.adj.b"
K_LAB_ADJ_POS = "label.adj.pos"
K_LAB_ADJ_NOTE = "label.adj.note"
K_LAB_ADJ_BUTTON = "label.adj.button"
K_LAB_ADJ_FLASH = "label.adj.flash"
K_LAB_UNDO_THIS = "label.undo_this"
K_LAB_UNDO_MINE = "label.undo_mine"
K_LAB_FLASH = "label.flash"
K_LAB_SAVE_ERROR = "label.save_error"
#: ``(span key, label event id)`` as the previous run showed them (optimistic concurrency).
K_LAB_SEEN = "label._seen"
#: ``(span key, grade, note)`` of an edit refused because the label changed elsewhere.
K_LAB_STALE = "label._stale"
K_LAB_STALE_OVERWRITE = "label.stale.overwrite"
K_LAB_STALE_KEEP = "label.stale.keep"
K_LAB_PICK = "label.pick"
K_LAB_OPEN = "label.open"
K_LAB_EXP_SCOPE = "label.exp.scope"
K_LAB_EXP_JSONL = "label.exp.jsonl"
K_LAB_EXP_CHUNKING = "label.exp.chunking"
K_LAB_EXP_PHRASINGS = "label.exp.phrasings"
K_LAB_EXP_ESCAPE = "label.exp.escape"
K_LAB_EXP_QRELS = "label.exp.qrels"
K_LAB_IMP_FILE = "label.imp.file"
K_LAB_IMP_CHECK = "label.imp.check"
K_LAB_IMP_GO = "label.imp.go"
K_LAB_IMP_FLASH = "label.imp.flash"
