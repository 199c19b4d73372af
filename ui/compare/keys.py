"""The Compare page's session-state keys."""

#: The Compare page's B text-area widget (mirrors the shadow view key ``K_COMPARE_B``).
K_COMPARE_B_WIDGET = "compare.b.w"
#: Side-by-side sections: the rerank bump charts and gate charts (``.a``/``.b`` appended), the
#: answer panes' claim pickers (``.a``/``.b``).
K_CMP_BUMP = "cmp.bump"
K_CMP_GATE = "cmp.gate"
K_CMP_CLAIM = "cmp.claim"
