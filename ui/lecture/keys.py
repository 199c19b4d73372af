"""The Lecture page's session-state keys (its step and size are view keys: ``ui.state``)."""

K_LEC_BIG_W = "lec.big.w"  # the Lecture page's large-text toggle (widget)
K_LEC_CLAIM_W = "lec.claim.w"  # the Lecture page's claim picker (widget)
K_LEC_SIDE_W = "lec.side.w"  # the Lecture page's A/B (failure / baseline) toggle (widget)
