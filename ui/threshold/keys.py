"""The Threshold page's session-state keys: settings, the sliders, the sweep range."""

K_THR_QSET = "thr.qset"
K_THR_PHRASINGS = "thr.phrasings"
K_THR_METRIC = "thr.metric"
K_THR_LABELS = "thr.labels"
#: Threshold slider of one metric: ``thr.t.distance`` or ``thr.t.score``.
K_THR_T_PREFIX = "thr.t."
K_THR_MAX_KEPT = "thr.m"
K_THR_OFF = "thr.off"
K_THR_APPLIED = "thr.applied"
K_THR_RANGE = "thr.range"
K_THR_Q_FILTER = "thr.q.filter"
#: The buttons (add a dense list, apply the threshold) and the charts (histogram, sweep,
#: risk-coverage).
K_THR_ADD_DENSE = "thr.add_dense"
K_THR_APPLY = "thr.apply"
K_THR_HIST = "thr.hist"
K_THR_SWEEP = "thr.sweep"
K_THR_RC = "thr.rc"
