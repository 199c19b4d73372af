"""rag_core — the RAG Stage Inspector's pipeline, importable without Streamlit.

One flow: ``PipelineConfig`` + question → :func:`rag_core.pipeline.run` → ``Trace``.
"""

from .config import PipelineConfig, preset

__all__ = ["PipelineConfig", "preset"]
__version__ = "0.1.0"
