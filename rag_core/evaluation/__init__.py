"""Scoring question sets: rank metrics, statistics, aggregation, runs, sweeps, TREC files,
answers."""
