"""`python -m benchmarks.run --quick` runs to the end (issue 18: `make bench` had died half way unnoticed).

Tiny sizes, so its numbers are no measurements; what it proves is that every benchmark still runs against
today's code and prints its figures.
"""

from __future__ import annotations

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
