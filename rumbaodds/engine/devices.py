"""Which engine simulates: the CPU kernels, or the same code on a CUDA GPU (``engine/gpu.py``).

Both give the same numbers, sample for sample, so the choice is about speed
only. Nothing here imports numba.cuda unless a GPU is asked for (``gpu``) or
looked for (``auto``); ``gpu`` without one is a :class:`DeviceError` naming
what is missing.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from ..rules import RulesError

DEVICE_CHOICES = ("cpu", "gpu", "auto")


class DeviceError(RulesError):
    """The device asked for cannot run here; the message says what is missing."""


@dataclass(frozen=True)
class Device:
    name: str  # "cpu" or "gpu"
    description: str  # e.g. "2 threads", "NVIDIA H200 (compute capability 9.0)"
    note: str = ""  # why --device auto chose the CPU

    def __str__(self) -> str:
        text = f"the {self.name.upper()}, {self.description}"
        return f"{text}; {self.note}" if self.note else text

    def as_dict(self) -> dict:
        return {"name": self.name, "description": self.description, "note": self.note or None}


def _cpu(note: str = "") -> Device:
    import numba

    return Device("cpu", f"{numba.get_num_threads()} threads", note)


def numba_cuda_installed() -> bool:
    return importlib.util.find_spec("numba_cuda") is not None


def gpu_problem() -> str | None:
    """Why no GPU can be used here (None: one can). Imports numba.cuda when numba-cuda is installed."""
    if not numba_cuda_installed():
        return "numba-cuda is not installed (pip install 'rumbaodds[gpu]')"
    try:
        from numba import cuda
        from numba.cuda.core import config
    except Exception as exc:  # a broken CUDA install: say what it said
        return f"numba-cuda cannot be imported: {' '.join(str(exc).split())}"
    if config.ENABLE_CUDASIM:  # Numba's CUDA simulator stands in for a GPU
        return None
    if cuda.is_available():
        return None if len(cuda.gpus) > 0 else "no CUDA GPU found (the NVIDIA driver sees none)"
    try:
        from numba.cuda.cudadrv import driver, nvvm

        reason = driver.driver.initialization_error
        if reason is None and not nvvm.is_available():
            return "CUDA's compiler library NVVM is missing (pip install 'rumbaodds[gpu]')"
    except Exception as exc:  # the driver may refuse even to report
        reason = str(exc)
    reason = " ".join(str(reason or "numba.cuda.is_available() is False").split()).split(". ")[0].rstrip(".")
    return f"no CUDA GPU found ({reason})"


def resolve_device(device: str | Device = "cpu") -> Device:
    """``cpu``, ``gpu`` or ``auto`` (the GPU when one is available, else the CPU) as a :class:`Device`."""
    if isinstance(device, Device):
        return device
    if device not in DEVICE_CHOICES:
        raise DeviceError(f"unknown device {device!r} (use {', '.join(DEVICE_CHOICES)})")
    if device == "cpu":
        return _cpu()
    problem = gpu_problem()
    if problem is None:
        from . import gpu

        return Device("gpu", gpu.describe())
    if device == "gpu":
        raise DeviceError(f"--device gpu: {problem}")
    return _cpu(f"--device auto: {problem}")


def ask_batch(device: Device, *args):
    """``hand.ask_batch`` (same arguments, same results, tries and weights) on ``device``."""
    if device.name == "gpu":
        from . import gpu

        return gpu.ask_batch(*args)
    from .compiled import announce_compile
    from .hand import ask_batch

    announce_compile(ask_batch)
    return ask_batch(*args)


def table_cells(device: Device, *args):
    """``table.table_cells`` (same arguments, same arrays) on ``device``."""
    if device.name == "gpu":
        from . import gpu

        return gpu.table_cells(*args)
    from .compiled import announce_compile
    from .table import table_cells

    announce_compile(table_cells, "the table builder")
    return table_cells(*args)
