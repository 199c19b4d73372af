"""The Label page: gold evidence as document spans (``pages/label.py`` draws it).

``view.py`` is its Streamlit-free view model, ``widgets.py`` its Streamlit widget groups.
"""
