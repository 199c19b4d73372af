"""The Evaluate page: a question set through A (and B), ranking and answers.

``view.py`` is its Streamlit-free view model, ``widgets.py`` its Streamlit widget groups.
"""
