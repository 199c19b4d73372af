"""Streamlit-side helpers of the app: sidebar/state, caches, i18n, escaped HTML, Trace rendering.

``rag_core`` never imports this package; pages import it to render Traces.
"""
