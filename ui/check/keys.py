"""Session-state keys of the Check page."""

K_QUESTION = "check.question"
K_CONTEXTS = "check.contexts"
K_ANSWER = "check.answer"
K_UPLOAD = "check.upload"
K_ROW = "check.row"
K_CLAIM = "check.claim"
