"""The Compare page's session-state keys."""

#: The Compare page's B text-area widget (mirrors the shadow view key ``K_COMPARE_B``).
K_COMPARE_B_WIDGET = "compare.b.w"
