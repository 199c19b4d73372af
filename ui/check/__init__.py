"""The "Check an answer" page: per-claim support of an answer the user already has."""
