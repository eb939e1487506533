"""Timing helpers shared by the benchmarks."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numba


def best_time(func, repeat: int = 3) -> float:
    """Fastest of ``repeat`` calls, in seconds (the least disturbed by a shared machine)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def with_threads(threads: int, func):
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        return func()
    finally:
        numba.set_num_threads(previous)


def compile_seconds(snippet: str) -> float:
    """Wall time of ``snippet`` in a fresh interpreter with an empty Numba cache (what a new user waits)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", snippet], check=True, env=env)
        return time.perf_counter() - start


def cached_seconds(snippet: str) -> float:
    """Wall time of ``snippet`` in a fresh interpreter reusing the normal Numba cache."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", snippet], check=True)
    return time.perf_counter() - start


def print_table(title: str, rows: list[dict]) -> None:
    print(f"\n## {title}")
    if not rows:
        return
    keys = list(rows[0])
    widths = {k: max(len(k), *(len(_fmt(r.get(k))) for r in rows)) for k in keys}
    print("  ".join(k.ljust(widths[k]) for k in keys))
    for row in rows:
        print("  ".join(_fmt(row.get(k)).ljust(widths[k]) for k in keys))


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:,.3g}" if abs(value) < 100 else f"{value:,.0f}"
    return str(value)
