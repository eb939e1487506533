"""`python -m benchmarks.run --quick` runs to the end (issue 18: `make bench` had died half way unnoticed).

Tiny sizes, so its numbers are no measurements; what it proves is that every benchmark still runs against
today's code and prints its figures.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # every benchmark, its kernels compiled in a process of its own: 30 s
def test_the_quick_benchmarks_run_to_the_end_and_print_every_section():
    sys.path.insert(0, str(ROOT))
    try:
        from benchmarks.run import BENCHMARKS, section
    finally:
        sys.path.remove(str(ROOT))
    out = subprocess.run([sys.executable, "-m", "benchmarks.run", "--quick"], cwd=ROOT, capture_output=True,
                         text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "Traceback" not in out.stderr
    lines = out.stdout.splitlines()
    for module in BENCHMARKS:
        assert section(module) in lines, section(module)
    assert sum(line.startswith("## ") for line in lines) >= 15  # the figures' tables (15 in --quick)
    assert "skipped in --quick" in out.stdout and "Not run here: the GPU" in out.stdout


def test_the_held_out_comparison_of_the_trees_runs():
    """`python -m benchmarks.bench_cardplay --held-out` at 30 deals: three callers on the same deals, the first
    the reference of the paired differences."""
    out = subprocess.run([sys.executable, "-m", "benchmarks.bench_cardplay", "--held-out", "--deals", "30"],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.count("## What the trees gain: swiss") == 2
    for caller in ("distilled, the weights alone", "distilled, with its trees", "PIMC"):
        assert out.stdout.count(caller) == 2, caller
    references = [line for line in out.stdout.splitlines() if line.startswith("distilled, the weights alone")]
    assert len(references) == 2 and all("+0.0 ± 0.0" in line for line in references)


def test_the_compile_probe_finds_a_kernel_compiled_twice(tmp_path):
    """benchmarks/compile_probe.py, run as a pytest plugin on a test that compiles one kernel for two argument types
    (an int, then a float): the summary counts two compiles and two signatures of it; a kernel compiled once (the
    control) counts one of each."""
    (tmp_path / "kernels_mod.py").write_text("from numba import njit\n\n\n@njit\ndef twice(x):\n    return 2 * x\n\n\n"
                                             "@njit\ndef once(x):\n    return x + 1\n")
    (tmp_path / "test_two_types.py").write_text("from kernels_mod import once, twice\n\n\ndef test_it():\n"
                                                "    assert twice(2) == 4 and twice(2.5) == 5.0 and once(1) == 2\n")
    probe = tmp_path / "probe"
    env = {**os.environ, "COMPILE_PROBE": str(probe), "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}"}
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "benchmarks.compile_probe",
                          "-p", "no:cacheprovider", str(tmp_path / "test_two_types.py")], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    sys.path.insert(0, str(ROOT))
    try:
        from benchmarks.compile_probe import summary
    finally:
        sys.path.remove(str(ROOT))
    per_kernel, per_file = summary(probe)
    got = {r["kernel"]: (r["compiles"], r["signatures"], r["processes"]) for r in per_kernel}
    assert got == {"kernels_mod.twice": (2, 2, 1), "kernels_mod.once": (1, 1, 1)}
    assert [r["test file"] for r in per_file] == ["test_two_types.py"]
