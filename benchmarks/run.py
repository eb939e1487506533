"""All benchmarks in one run: `python -m benchmarks.run [--quick]` (what `make bench` runs)."""

from __future__ import annotations

import argparse
import platform
import time

import numba

from . import bench_dd, bench_greedy, bench_hand, bench_play, bench_rummy, bench_tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller runs (a smoke test of the benchmarks)")
    args = parser.parse_args()
    print(f"# rumbaodds benchmarks, {time.strftime('%Y-%m-%d %H:%M')}, {platform.processor() or platform.machine()}, "
          f"{numba.get_num_threads()} Numba threads")
    bench_greedy.main(args.quick)
    bench_dd.main(args.quick)
    bench_hand.main(args.quick)
    bench_play.main(args.quick)
    bench_tables.main(args.quick)
    bench_rummy.main(args.quick)
    print("\nThe whole swiss 5-player table: python -m benchmarks.bench_tables --full (about an hour)")


if __name__ == "__main__":
    main()
