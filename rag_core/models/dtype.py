"""Which floating-point type the local generator computes in.

``generation.dtype`` is ``auto``, ``float32`` or ``bfloat16``. ``auto``
takes ``bfloat16`` only where the CPU multiplies bfloat16 natively *and*
torch's oneDNN kernels will use that instruction set; everywhere else it is
``float32`` (a bfloat16 model on a CPU without those instructions is
emulated and slower than float32).

Native bfloat16 means, in the CPU's feature flags (``/proc/cpuinfo`` on
Linux): ``avx512_bf16`` (AVX-512 ``VDPBF16PS`` dot products, Intel Cooper
Lake / Sapphire Rapids and later, AMD Zen 4 and later) or ``amx_bf16``
(Intel AMX tile multiplies, Sapphire Rapids and later). torch must agree:
``torch.ops.mkldnn._is_mkldnn_bf16_supported()`` (oneDNN's own check) and
``torch.backends.cpu.get_cpu_capability()`` at ``AVX512`` or above (the
vector ISA torch's kernels were dispatched to).

:func:`choose_dtype` is the pure rule, tested on inline flag sets;
:func:`resolve_dtype` feeds it this machine's facts.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: The values of ``generation.dtype``. ``qint8`` is opt-in, never chosen by ``auto``: float32
#: weights with the Linear layers quantised to int8 after loading (docs/MODELS.md, "Precision").
DTYPES = ("auto", "float32", "bfloat16", "qint8")
#: What a model can compute in (``auto`` resolves to the first two only).
CONCRETE_DTYPES = ("float32", "bfloat16", "qint8")
#: Loaded in float32, then ``torch.ao.quantization.quantize_dynamic`` of every ``nn.Linear``.
QUANTISED_DTYPES = ("qint8",)
#: CPU flags any one of which gives native bfloat16 matrix arithmetic.
BF16_FLAGS = ("avx512_bf16", "amx_bf16")
#: torch CPU capabilities (``get_cpu_capability()``) whose kernels use 512-bit vectors.
AVX512_CAPABILITIES = ("AVX512", "AVX512_BF16", "AMX", "AVX512_FP16")


def choose_dtype(flags: Iterable[str], capability: str, *, onednn_bf16: bool = True) -> str:
    """``"bfloat16"`` when the CPU and torch both compute bfloat16 natively, else ``"float32"``.

    Args:
        flags: CPU feature flags (``/proc/cpuinfo`` spelling, any case).
        capability: ``torch.backends.cpu.get_cpu_capability()`` (``"DEFAULT"``,
            ``"AVX2"``, ``"AVX512"``, …).
        onednn_bf16: ``torch.ops.mkldnn._is_mkldnn_bf16_supported()``.
    """
    have = {f.strip().lower() for f in flags}
    native = any(f in have for f in BF16_FLAGS)
    vector = capability.strip().upper() in AVX512_CAPABILITIES
    return "bfloat16" if native and vector and onednn_bf16 else "float32"


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> frozenset[str]:
    """The ``flags`` of the first processor in ``cpuinfo`` (empty where there is no such file)."""
    try:
        text = cpuinfo.read_text("utf-8", errors="replace")
    except OSError:
        return frozenset()
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() in ("flags", "Features"):
            return frozenset(value.split())
    return frozenset()


@functools.cache
def machine_dtype() -> str:
    """:func:`choose_dtype` on this machine's CPU flags and torch build (computed once)."""
    import torch  # heavy: imported only when a generator is loaded

    try:
        onednn = bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):
        onednn = False
    return choose_dtype(cpu_flags(), torch.backends.cpu.get_cpu_capability(), onednn_bf16=onednn)


def resolve_dtype(requested: str) -> str:
    """The concrete dtype for ``requested`` (``auto`` → :func:`machine_dtype`).

    Raises:
        ValueError: ``requested`` is not one of :data:`DTYPES`.
    """
    if requested not in DTYPES:
        raise ValueError(
            f"generation.dtype = {requested!r} is not valid; valid choices: {', '.join(DTYPES)}"
        )
    return machine_dtype() if requested == "auto" else requested


def torch_dtype(name: str) -> object:
    """The ``torch.dtype`` a model of concrete dtype ``name`` is loaded in (float32 for the
    quantised ones, which are quantised after loading: :func:`quantise`)."""
    import torch

    if name not in CONCRETE_DTYPES:
        raise ValueError(
            f"dtype {name!r} is not concrete; valid choices: {', '.join(CONCRETE_DTYPES)}"
        )
    return torch.float32 if name in QUANTISED_DTYPES else getattr(torch, name)


def quantise(model: Any, name: str) -> Any:
    """``model`` with its ``nn.Linear`` layers quantised when ``name`` is a quantised dtype
    (dynamic quantisation: int8 weights per tensor, activations quantised per batch at run
    time; PyTorch's ``quantize_dynamic``, its FBGEMM/oneDNN VNNI kernels), else ``model``."""
    if name not in QUANTISED_DTYPES:
        return model
    import warnings

    import torch
    from torch.ao.quantization import quantize_dynamic

    with warnings.catch_warnings():  # deprecated for torchao in 2.13, still the shipped kernel
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", UserWarning)
        return quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
