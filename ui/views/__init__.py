"""View models: pure functions from Traces and session values to what a page renders."""
