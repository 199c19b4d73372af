"""The Threshold page: where the gate should say no (``pages/threshold.py``).

``view.py`` is its Streamlit-free view model, ``widgets.py`` its Streamlit widget groups.
"""
