"""The Chunks page's session-state keys."""

K_CHUNKS_DOC_W = "chunks.doc.w"  # the Chunks page's document picker (widget)
