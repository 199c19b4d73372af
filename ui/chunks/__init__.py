"""The Chunks page: one document with its chunk boundaries (``pages/chunks.py`` draws it).

``view.py`` is its Streamlit-free view model, ``widgets.py`` its Streamlit widget groups.
"""
