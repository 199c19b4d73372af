"""The Chunks page's session-state keys."""

K_CHUNKS_DOC_W = "chunks.doc.w"  # the Chunks page's document picker (widget)
K_CHUNKS_HIST = "chk.hist"  # the chunk-length histogram (a chart)
