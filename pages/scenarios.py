"""Scenarios: the lecture gallery — each failure mode (docs/ARCHITECTURE.md) one click away."""

from __future__ import annotations

import streamlit as st

from rag_core.scenarios import SCENARIOS
from ui import sidebar
from ui.html import show, style
from ui.i18n import t
from ui.lecture import widgets as lecture_widgets
from ui.scenarios import widgets
from ui.scenarios.keys import K_SCN_LOADED

ctx = sidebar.context(__file__)
lang = ctx.lang
show(style())
st.title(t("page.scenarios", lang))
st.caption(t("scn.intro", lang))
with st.popover(t("lec.prepare", lang), icon=":material/bolt:"):
    lecture_widgets.prepare_scenarios(lang)

loaded = st.session_state.get(K_SCN_LOADED)
cols = st.columns(2)
for i, s in enumerate(SCENARIOS):
    with cols[i % 2].container(border=True):
        widgets.card(s, lang, loaded)
