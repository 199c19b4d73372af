"""The Compare page: configuration A against B on one question (``pages/compare.py``).

``view.py`` is its Streamlit-free view model, ``widgets.py`` its Streamlit widget groups.
"""
