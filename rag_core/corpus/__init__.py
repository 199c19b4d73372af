"""Corpus side: files to documents, the corpus index, question sets, checks and caches."""
