"""Helpers shared by the test folders (``core/``, ``ui/``, ``browser/``, ``bench/``).

``pyproject.toml`` puts ``tests/`` on ``sys.path``, so a test imports them as
``from helpers.app import make_app``; no test module imports another test module.
"""
