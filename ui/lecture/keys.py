"""The Lecture page's session-state keys (its step and size are view keys: ``ui.state``)."""

import hashlib

K_LEC_BIG_W = "lec.big.w"  # the Lecture page's large-text toggle (widget)
K_LEC_CLAIM_W = "lec.claim.w"  # the Lecture page's claim picker (widget): prefix, see below
K_LEC_SIDE_W = "lec.side.w"  # the Lecture page's A/B (failure / baseline) toggle (widget)


def claim_key(side: str, answer: str | None) -> str:
    """The claim picker's widget key for one side's answer: the picker of B is not A's (each
    side keeps its own claim, and a new answer starts at its first)."""
    digest = hashlib.sha1((answer or "").encode("utf-8")).hexdigest()[:10]
    return f"{K_LEC_CLAIM_W}.{side}.{digest}"


K_LEC_STOP = "lec.stop"  # the toolbar's Stop of a running answer
K_LEC_RESUME = "lec.resume"  # the stopped answer's "make it again"
