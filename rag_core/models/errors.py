"""The one error every model loader raises when weights are not there, and the one way to
abandon a run that is under way (:class:`Cancelled`)."""

from __future__ import annotations

from ..types import Notice
from ..wording import declare, english, notice

#: Why a model is missing (``ModelUnavailable.notice``).
MODEL_PACKAGE_MISSING = declare("model.package_missing", "package", "pip")
MODEL_OFFLINE = declare("model.offline")
MODEL_FOLDER_UNLOADABLE = declare("model.folder_unloadable", "path", "error")
MODEL_DOWNLOAD_FAILED = declare("model.download_failed", "error")
MODEL_PACKAGE_NOT_INSTALLED = declare("model.package_not_installed", "package")
MODEL_NO_WEIGHTS = declare("model.no_weights", "path")
MODEL_ENGINE_FAILED = declare("model.engine_failed", "engine", "error")
MODEL_NO_GGUF_FILE = declare("model.no_gguf_file", "path")
MODEL_PART_MISSING = declare("model.part_missing", "package", "error", "version", "parts")
MODEL_PART_DATA_MISSING = declare("model.part_data_missing", "package", "path")
MODEL_SMOLLM_MISSING = declare("model.smollm_missing")
MODEL_PARTS_DAMAGED = declare("model.parts_damaged", "parts", "digest", "expected")
MODEL_FILE_DAMAGED = declare("model.file_damaged", "path", "digest", "expected")
MODEL_UNMATCHED_WEIGHTS = declare("model.unmatched_weights", "missing", "unexpected")
#: A reason given as text (by a caller outside the loaders): ``detail`` is that text.
MODEL_UNAVAILABLE = declare("model.unavailable", "detail")


class ModelUnavailable(ValueError):
    """A named model cannot be loaded here; ``notice`` says why (code + params).

    A subclass of ``ValueError`` so that a command line that reports bad input
    in one line reports a missing model the same way.

    Attributes:
        name: The model name, hub id or path the user gave.
        notice: Why, as a :class:`~rag_core.types.Notice` (a plain string given by a
            loader becomes ``model.unavailable`` with that ``detail``).
        reason: The notice in English (``rag_core.wording.english``).
    """

    def __init__(self, name: str, reason: str | Notice) -> None:
        self.name = name
        self.notice = (
            reason if isinstance(reason, Notice) else notice(MODEL_UNAVAILABLE, detail=reason)
        )
        self.reason = english(self.notice)
        super().__init__(f"model {name!r} is unavailable: {self.reason}")


class Cancelled(BaseException):
    """Raised to abandon a run: by a pipeline listener (a page whose user moved on, or pressed
    Stop), or by a local generator whose ``cancelled()`` turned true between two of the model's
    layers (so even the prompt's one long forward pass stops within a layer's time).

    A ``BaseException``, as ``asyncio.CancelledError``: no stage's ``except Exception`` turns it
    into a stage result, so nothing of the abandoned run is returned or stored (the generation
    cache is written only after a finished generation); every lock is released on the way out.
    Re-exported as ``rag_core.pipeline.Cancelled``.
    """
