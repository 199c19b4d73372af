"""The Inspect page: one question through every stage (``pages/inspect.py`` draws it).

``view.py`` is its Streamlit-free view model, ``widgets.py`` its Streamlit widget groups.
"""
