"""Retrievers (sparse, dense, Qdrant, imported runs) and their fusion."""
