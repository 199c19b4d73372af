"""The Lecture page: four panes of one Trace, stage by stage, and its slide export.

``view.py`` is its Streamlit-free view model, ``widgets.py`` its Streamlit widget groups.
"""
