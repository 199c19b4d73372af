"""Gold evidence: labels, needle-chunk relevance, spans, pooling, loss diagnosis."""
