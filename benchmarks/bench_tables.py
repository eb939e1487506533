"""Strategy-table build speed: cells per second and the time of a whole swiss 5-player table.

`python -m benchmarks.bench_tables --full` builds the FULL table (every seat,
trump rank and hand class, 1,000 deals per cell) and prints its wall time;
without --full it times a weighted random subset of cells and prints the
extrapolated full-build time next to the measured rate.
"""

from __future__ import annotations

import argparse
import tempfile
import time

from rumbaodds.handclasses import enumerate_trump_rank_pairs
from rumbaodds.models import get_model
from rumbaodds.rules import SWISS
from rumbaodds.tables import TableSpec, build_table, knock_values

from .common import print_table

PLAYERS = 5
SAMPLES = 1_000


def run(cells: int | None, samples: int = SAMPLES, out: str | None = None) -> list[dict]:
    spec = TableSpec(SWISS, PLAYERS, get_model("default"), "expert", samples, seed=0, cells=cells)
    full_cells = PLAYERS * len(enumerate_trump_rank_pairs(SWISS))
    warm = TableSpec(SWISS, PLAYERS, get_model("default"), "expert", 10, seed=1, cells=20)
    with tempfile.TemporaryDirectory() as tmp:
        build_table(warm, f"{tmp}/warm")  # compile outside the timing
        folder = out or f"{tmp}/table"
        start = time.perf_counter()
        build_table(spec, folder, with_knock=False)
        seconds = time.perf_counter() - start
    start = time.perf_counter()
    knock_values(spec)
    knock_seconds = time.perf_counter() - start
    built = PLAYERS * cells if cells else full_cells
    rate = built / seconds
    return [{
        "table": f"swiss {PLAYERS}p, {samples:,} deals/cell", "cells_built": built, "seconds": seconds,
        "cells_per_s": rate, "deals_per_s": rate * samples, "knock_values_s": knock_seconds,
        "full_table_cells": full_cells, "full_table_minutes": (full_cells / rate + knock_seconds) / 60,
        "measured": "whole table" if cells is None else "extrapolated from the subset",
    }]


def main(quick: bool = False, full: bool = False) -> None:
    cells = None if full else (200 if quick else 2_000)
    print_table("strategy table build (target: full swiss 5-player table, 1,000 deals per cell, under 1 hour; "
                "knock values included)", run(cells))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--full", action="store_true", help="build the whole table (about an hour)")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    main(args.quick, args.full)
