"""All benchmarks in one run: `python -m benchmarks.run [--quick]` (what `make bench` runs).

``--quick``: tiny sizes, seconds per benchmark, every figure still printed (a smoke test of the benchmarks; its
numbers are not measurements). What needs a GPU (``python -m benchmarks.gpu``), a Dask cluster or a cold Numba
cache is skipped there, and says so. ``tests/test_benchmarks.py`` runs it.
"""

from __future__ import annotations

import argparse
import platform
import time

import numba

from . import (
    bench_card,
    bench_cardplay,
    bench_dd,
    bench_greedy,
    bench_hand,
    bench_match,
    bench_play,
    bench_rummy,
    bench_strategy,
    bench_tables,
)

BENCHMARKS = (bench_greedy, bench_dd, bench_hand, bench_play, bench_cardplay, bench_tables, bench_rummy, bench_strategy,
              bench_match, bench_card)


def section(module) -> str:
    """The header a benchmark's figures are printed under."""
    return f"# {module.__name__.rsplit('.', 1)[-1]}"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test of the benchmarks")
    args = parser.parse_args(argv)
    print(f"# rumbaodds benchmarks{' (--quick: tiny sizes, not measurements)' if args.quick else ''}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}, {platform.processor() or platform.machine()}, "
          f"{numba.get_num_threads()} Numba threads")
    for module in BENCHMARKS:
        start = time.perf_counter()
        print(f"\n{section(module)}", flush=True)
        module.main(args.quick)
        print(f"({time.perf_counter() - start:.1f} s)", flush=True)
    print("\nNot run here: the GPU (python -m benchmarks.gpu, needs a CUDA device), the whole swiss 5-player table "
          "(python -m benchmarks.bench_tables --full, about an hour), the strategy solve and consistency "
          "(python -m benchmarks.bench_strategy --solve / --consistency)")


if __name__ == "__main__":
    main()
