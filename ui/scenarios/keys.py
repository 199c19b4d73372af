"""The Scenarios page's session-state keys."""

K_SCN_LOADED = "scn.loaded"  # id of the scenario last loaded on the Scenarios page
