"""The Scenarios page: the lecture gallery, each failure mode one click away.

``view.py`` is its Streamlit-free view model, ``widgets.py`` its Streamlit widget groups.
"""
