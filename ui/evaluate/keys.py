"""The Evaluate page's session-state keys: settings, config B, the run and its result, the
reading widgets, and the answers section."""

K_EV_QSET = "eval.qset"
K_EV_PHRASINGS = "eval.phrasings"
K_EV_KS = "eval.ks"
K_EV_LABELS = "eval.labels"
K_EV_GAIN = "eval.gain"
K_EV_B_MODE = "eval.b.mode"
K_EV_B_PRESET = "eval.b.preset"
K_EV_B_OVERRIDES = "eval.b.overrides"
K_EV_B_JSON = "eval.b.json"
K_EV_B_URL = "eval.b.url"
K_EV_RUN = "eval.run"
#: The last evaluation run (a dict: key, a, b, cmp, qset, …), kept across reruns.
K_EV_RESULT = "eval.result"
K_EV_ANSWERS = "eval.answers"
K_EV_READING_METRIC = "eval.reading.metric"
K_EV_CURVE = "eval.curve"
K_EV_BD_METRIC = "eval.bd.metric"
K_EV_Q_FILTER = "eval.q.filter"
K_EV_Q_OPEN = "eval.q.open"
K_EV_ESCAPE = "eval.escape"
#: The answers section: how many questions, the run button, the live run (rows so far), the
#: cancel flag, and the finished result.
K_ANS_N = "eval.ans.n"
#: Requests kept in flight against an endpoint generator (``evaluate_answers(concurrency=)``).
K_ANS_CONC = "eval.ans.concurrency"
K_ANS_RUN = "eval.ans.run"
K_ANS_LIVE = "eval.ans.live"
K_ANS_CANCEL = "eval.ans.cancel"
K_ANS_RESULT = "eval.ans.result"
K_ANS_SIDE = "eval.ans.side"
K_ANS_TABLE = "eval.ans.table"
K_ANS_DL = "eval.ans.dl"
#: "Does the conclusion survive the annotator?": presets ranked, the metric, run, the result.
K_EV_ST_PRESETS = "eval.st.presets"
K_EV_ST_METRIC = "eval.st.metric"
K_EV_ST_RUN = "eval.st.run"
K_EV_ST_RESULT = "eval.st.result"
K_EV_CURVE_FIG = "eval.curve.fig"  # the metric@k curve (a chart)
