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


def cpu_ratio(funcs: dict, reference: str, pairs: int = 6) -> dict:
    """Per name: the reference's CPU seconds over its own, the median over ``pairs`` rounds that call each function
    once in turn, on one thread. CPU time, not wall time: a busy machine's other work moves it less (while a table
    build ran, wall-time ratios of distilled to expert wandered between 0.29 and 0.57 within one run; CPU-time
    medians of separate runs stayed between 0.45 and 0.49)."""
    def one_round():
        spent = {}
        for name, func in funcs.items():
            start = time.process_time()
            func()
            spent[name] = time.process_time() - start
        return spent

    def rounds():
        one_round()  # compile and warm
        return [one_round() for _ in range(pairs)]

    measured = with_threads(1, rounds)
    return {name: sorted(r[reference] / r[name] for r in measured)[pairs // 2] for name in funcs}


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
