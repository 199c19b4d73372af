"""Check an answer: per-claim support of a pasted or uploaded answer (no pipeline run)."""

from __future__ import annotations

import streamlit as st

from ui import sidebar
from ui.check import view, widgets
from ui.html import md, show, style
from ui.i18n import notice_text, t

ctx = sidebar.context(__file__)
lang = ctx.lang
show(style())
st.title(t("page.check", lang))
st.caption(t("chk2.intro", lang))
st.caption(t("chk2.limits", lang, **view.LIMITS))
rows, errors = widgets.inputs(lang)
if errors:
    st.warning(t("chk2.bad_rows", lang, n=len(errors)) + "\n\n" + md("\n\n".join(errors)))
if not rows:
    if not errors:
        st.info(t("chk2.need", lang))
    st.stop()
row = widgets.pick_row(rows, lang)
cfg = ctx.config.support
with st.spinner(t("chk2.run", lang)):
    judge, no_judge = view.judge(ctx.config) if cfg.judge else (None, None)
    stage = view.check(row, cfg, judge=judge)
if no_judge is not None:
    st.warning(md(notice_text(no_judge, lang)))
widgets.result(row, stage, cfg, lang)
