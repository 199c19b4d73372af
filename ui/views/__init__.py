"""View models of the pages: plain functions from data and session state to what a page shows."""
