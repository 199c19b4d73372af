"""The sidebar's own session-state keys (its widgets' keys are ``ui.state``'s ``K_…``)."""

from __future__ import annotations

K_CFG = "_cfg"  # the last valid config: a bad combination shows its message, not a blank view
K_INIT = "_init"
K_LANG_SHADOW = "_ui_lang_shadow"  # survives page switches (widget state may not)
K_PROBLEMS = "_url_problems"
K_CTX = "_ctx"
# set by render(), consumed by context(): "the sidebar ran in this script run"
K_FRESH = "_ctx_fresh"
K_GOTO = "_goto"  # a page name a callback asks to switch to (scenario buttons)
K_CARRY = "_carry"  # the view widgets' values over that switch (their widget state is dropped)
K_HOPPED = "_hopped"  # the legacy-folder hand-over to app.py happened (once per session)
K_SHADOW = "_shadow"  # page widgets mirrored in the URL (Compare's B, Chunks' document)
K_LAST_CORPUS = "_last_corpus"
K_URL_ASKED = "_url_asked"  # view parameters of the first address, until honoured or noticed
#: The model ids the endpoint's ``GET /v1/models`` listed (``openai:ID`` choices).
K_ENDPOINT_MODELS = "side.endpoint.models"
#: The last model listing's problem (a notice, shown under the button).
K_ENDPOINT_PROBLEM = "side.endpoint.problem"
