"""The Inspect page's widget keys."""

K_INS_DOWNLOAD = "ins.download"
K_INS_BUMP = "ins.bump"
K_INS_GATE = "ins.gate"
K_INS_CLAIM = "ins.claim"
