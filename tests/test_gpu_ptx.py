"""The real CUDA kernel compiles for a Hopper GPU (sm_90) without one: NVVM to PTX, then ptxas to machine code.

numba-cuda compiles ``hand.ask_sample`` and everything it calls, the CPU's
``@njit`` functions (the conditioned deal, speaking, exchange, card play), as
device functions. This fails as soon as the shared
game code does something a GPU cannot: allocate an array, call a CPU-only
intrinsic, use an object. The PTX must then declare no external function
(nothing left to link, no memory allocator), and where a ptxas that reads
this PTX version is found (the toolkit's, or ``nvidia-cuda-nvcc``'s) it must
assemble. Needs NVVM and NVRTC (``pip install -e '.[test]'`` installs them), not a GPU.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

if importlib.util.find_spec("numba_cuda") is None:
    pytest.skip("numba-cuda is not installed (pip install -e '.[test]' installs it)", allow_module_level=True)
if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
    pytest.skip("the CUDA simulator compiles nothing to PTX", allow_module_level=True)

# NVVM's compile of both kernels takes about a minute on two cores, with nothing cached: with the slow checks
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=["ask", "table"])
def kernel_ptx(request):
    """(kernel name, its PTX): ``ask``'s batch kernel and the table kernel (the per-cell stopping rule included)."""
    from rumbaodds.engine import gpu

    try:
        return request.param, gpu.compile_ptx(cc=(9, 0), kernel=request.param)
    except Exception as exc:  # NVVM or NVRTC missing: say which
        text = " ".join(str(exc).split())
        if re.search(r"nvvm|nvrtc|libNVVM|DynamicLibNotFound", f"{type(exc).__name__} {text}", re.IGNORECASE):
            pytest.skip(f"CUDA's compiler libraries are missing (pip install -e '.[test]' installs them): {text[:200]}")
        raise


def test_the_kernel_compiles_to_ptx_for_sm_90(kernel_ptx):
    kernel, ptx = kernel_ptx
    assert ".target sm_90" in ptx
    assert re.search(rf"\.visible \.entry \S*_{kernel}_kernel", ptx)
    externs = re.findall(r"\.extern \.func[^;]*?(\w+)\s*\(", ptx)
    assert not externs, f"the kernel calls functions that would have to be linked in: {externs}"
    assert "NRT_" not in ptx  # no allocation on the device
    # the conditioned deal sums products (condition.py): without engine/gpu.py's setting NVVM would fuse them
    assert "fma." not in ptx and "mul.rn.f64" in ptx and "add.rn.f64" in ptx


def test_floating_point_is_rounded_as_on_the_cpu(monkeypatch):
    """No fused multiply-add: ``a * b + c`` rounds twice, as the CPU's code does (engine/gpu.py turns NVVM's off)."""
    from numba import cuda, float64
    from numba.cuda.cudadrv import nvvm

    from rumbaodds.engine import gpu  # noqa: F401  (sets up the compiler as the GPU engine uses it)

    def kernel(out, x):
        out[0] = x[0] * x[1] + x[2]

    ptx, _ = cuda.compile_ptx(kernel, (float64[::1], float64[::1]), cc=(9, 0))
    assert "mul.rn.f64" in ptx and "add.rn.f64" in ptx and "fma" not in ptx
    monkeypatch.setattr(nvvm, "compile_ir", nvvm.compile_ir.__wrapped__)  # the control: numba-cuda's default
    fused, _ = cuda.compile_ptx(kernel, (float64[::1], float64[::1]), cc=(9, 0))
    assert "fma.rn.f64" in fused


def _ptxas_candidates():
    """Every ptxas here: on the PATH, the CUDA toolkit's, pip's nvidia-cuda-nvcc (CUDA 13 and 12 layouts)."""
    paths = [shutil.which("ptxas"), "/usr/local/cuda/bin/ptxas"]
    for spec in ("nvidia.cu13", "nvidia.cuda_nvcc"):
        try:
            found = importlib.util.find_spec(spec)
        except ModuleNotFoundError:
            found = None
        if found and found.submodule_search_locations:
            paths += [str(Path(p) / "bin" / "ptxas") for p in found.submodule_search_locations]
    seen = []
    for path in paths:
        if path and Path(path).exists() and Path(path).resolve() not in [Path(p).resolve() for p in seen]:
            seen.append(path)
    return seen


def test_ptxas_assembles_it_for_sm_90(kernel_ptx, tmp_path):
    _, ptx = kernel_ptx
    source = tmp_path / "kernel.ptx"
    source.write_text(ptx)
    too_old = []
    for ptxas in _ptxas_candidates():
        proc = subprocess.run([ptxas, "-arch=sm_90", "-v", str(source), "-o", str(tmp_path / "kernel.cubin")],
                              capture_output=True, text=True)
        if "Unsupported .version" in proc.stderr:  # an older toolkit than the NVVM that wrote the PTX
            too_old.append(ptxas)
            continue
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert (tmp_path / "kernel.cubin").stat().st_size > 0
        print(ptxas, proc.stderr.strip().splitlines()[-2:])  # registers and stack, shown with -s
        return
    pytest.skip(f"no ptxas here reads this PTX version (found: {too_old or 'none'}; pip's nvidia-cuda-nvcc has one)")
