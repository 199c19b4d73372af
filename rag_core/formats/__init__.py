"""File formats every layer may read and write: TREC qrels and runs, question sets."""
