"""Strategy-table build speed under adaptive precision, the whole swiss map, Dask against local, packed lookups.

`python -m benchmarks.bench_tables` prints, all measured in this one run:

1. deals per cell under adaptive precision (mean, median, 99th percentile) and
   cells/s on a uniform sample of swiss cells of every player count 3-7, the
   projected time of each full table (knock values included) and the total;
   next to it the fixed 1,000 deals per cell of the old tables on the same
   cells (the speed-up is a ratio within this run);
2. where the time goes: the cost of a deal by the choices simulated (the
   exchange: play with 1..4 discards), the share of the exchanges' and the
   Rumba's deals a table no longer plays out (dropped columns,
   engine/table.py), the share of deals spent in cells that needed many, and
   the knock values;
3. the same small build locally and on a Dask LocalCluster of 2 worker
   processes (the ratio of build times; the cluster's start separately);
4. packed tables: bytes per cell (from a contiguous block of a real table,
   as a full table is packed) and the time of a lookup;
5. pooling neighbouring cells (issue 35): the precision gain per deal of the pooled estimate against the plain
   mean of a cell's own deals, with the share of intervals holding 200,000-deal truths
   (``benchmarks/bench_neighbours.py`` has the whole measurement);
6. the shipped tables: per rule set and player count, the kind (every cell, or one per neighbour group), cells,
   deals per cell, build time (the build's own record, kept in the packed manifest where it was packed with it)
   and packed size.

`--full` builds the whole swiss 5-player table and prints its wall time.
The machine may be shared: absolute times move with its load, ratios less.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import tempfile
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from rumbaodds.engine import hand as hand_kernel
from rumbaodds.engine.table import COL_PLAY, COL_RUMBA
from rumbaodds.rules import SWISS
from rumbaodds.tables import TableSpec, build_table
from rumbaodds.tables.build import chunk_frame, plan_rows, simulate_cells
from rumbaodds.tables.handclasses import enumerate_trump_rank_pairs
from rumbaodds.tables.plan import plan_tables, totals

from .bench_neighbours import pooling_rows, situations_and_truths
from .common import best_time, print_table

MODEL = None  # the default opponents of every command: the equilibrium (opponents.default_opponents)
TARGET_5P_MIN, TARGET_ALL_MIN = 15, 90


def _sample(spec: TableSpec, size: int, seed: int = 0):
    rows = plan_rows(spec)
    cells = spec.players * len(rows)
    picked = np.sort(np.random.default_rng([seed, spec.players]).choice(cells, size=size, replace=False))
    return picked // len(rows), rows[picked % len(rows)]


def whole_map(sample_cells: int) -> tuple[list[dict], list[dict]]:
    """Adaptive plan of swiss 3-7 and the fixed 1,000-deal reference on the same cells."""
    rows = plan_tables(SWISS, MODEL, sample_cells=sample_cells, workers=2)
    out = []
    for r in rows:
        spec = TableSpec(SWISS, r["players"], MODEL, seed=0)
        fixed = TableSpec(SWISS, r["players"], MODEL, samples_per_cell=1_000, seed=0)
        seats, pair_rows = _sample(spec, min(200, sample_cells))
        simulate_cells(fixed, seats[:2], pair_rows[:2], 0)
        fixed_s = best_time(lambda: simulate_cells(fixed, seats, pair_rows, 0), repeat=1) / len(seats)
        out.append({"players": r["players"], "cells": r["cells"], "deals_mean": r["deals_mean"],
                    "deals_median": r["deals_median"], "deals_p99": r["deals_p99"],
                    "cells_per_s": 1e3 / r["ms_per_cell"], "deals_per_s": r["deals_mean"] * 1e3 / r["ms_per_cell"],
                    "knock_min": r["knock_hours"] * 60, "full_table_min": r["hours_here"] * 60,
                    # the old tables: 1,000 deals per cell, knock values from 4,000 deals per rank (twice 2,000)
                    "fixed_1000_min": (r["cells"] * fixed_s + r["knock_hours"] * 3600 * 2) / 60,
                    "speed_up": (r["cells"] * fixed_s) / (r["hours_here"] * 3600 - r["knock_hours"] * 3600)})
    return rows, out


def where_the_time_goes(plan_rows_: list[dict], sample_cells: int, quick: bool = False) -> list[dict]:
    """Cost of a deal by the choices simulated (5 players, seat 2), and where the deals of a table go."""
    from rumbaodds.answer.simulation import POLICIES, Job
    from rumbaodds.answer.situation import make_situation

    rules = SWISS
    job = Job.of(make_situation("HA HK C7 C8 D9", "H7", 5, 2, rules), MODEL, "expert")
    base = job.args()[:9] + (POLICIES["expert"], max(0, rules.sit_out_limit - 1), False, -1)
    r, p, play = hand_kernel.C_RUMBA, hand_kernel.C_PASS, hand_kernel.C_PLAY

    def cost(choices) -> float:
        ch = np.array(choices, dtype=np.int64)
        run = lambda n: hand_kernel.ask_batch(*base, ch, np.uint64(1), 0, n)  # noqa: E731
        run(100)
        return best_time(lambda: run(2_000 if quick else 20_000), repeat=1 if quick else 3)

    every = cost([r, p] + [play + k for k in range(rules.exchange_limit + 1)])
    rows = [{"what": "a deal, every choice (rumba, pass, play0..4)", "share": 1.0},
            {"what": "a deal, rumba + pass + play0 only", "share": cost([r, p, play]) / every},
            {"what": "a deal, pass only (deal and speaking)", "share": cost([p]) / every}]
    rows.append({"what": "the exchange (play1..4) in a deal", "share": 1 - rows[1]["share"]})
    spec = TableSpec(rules, 5, MODEL, seed=0)
    seats, pair_rows = _sample(spec, sample_cells, seed=1)
    result = simulate_cells(spec, seats, pair_rows, 0)
    samples, columns = result[8], result[11]
    plays = columns[:, COL_PLAY:]
    rows.append({"what": "exchange deals not played out (dropped: clearly worse than the best play)",
                 "share": 1 - plays.sum() / (samples.sum() * plays.shape[1])})
    rows.append({"what": "Rumba deals not played out (dropped: clearly worse than pass and play)",
                 "share": 1 - columns[:, COL_RUMBA].sum() / samples.sum()})
    for cut in (128, 288):
        rows.append({"what": f"deals of cells that needed more than {cut}", "share": samples[samples > cut].sum()
                     / samples.sum()})
    five = next(x for x in plan_rows_ if x["players"] == 5)
    rows.append({"what": "knock values in the 5-player build time", "share": five["knock_hours"] / five["hours_here"]})
    return rows


def local_against_dask(cells: int, chunk_cells: int) -> list[dict]:
    """The same swiss 5-player subset build: local, and on a LocalCluster of 2 single-threaded workers."""
    from distributed import Client, LocalCluster

    spec = TableSpec(SWISS, 5, MODEL, seed=3, cells=cells)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        warm = TableSpec(SWISS, 5, MODEL, seed=1, cells=4)
        build_table(warm, f"{tmp}/warm", with_knock=False)
        start = time.perf_counter()
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=logging.ERROR, env={"NUMBA_NUM_THREADS": "1"}) as cluster, Client(cluster) as c:
            c.run(_warm_worker)
            out["cluster_start_s"] = time.perf_counter() - start
            for rep in range(2):  # alternate, best of two each: the machine is shared
                for name, scheduler in (("local", "local"), ("dask", cluster.scheduler_address)):
                    folder = f"{tmp}/{name}{rep}"
                    t0 = time.perf_counter()
                    build_table(spec, folder, chunk_cells=chunk_cells, with_knock=False, scheduler=scheduler)
                    out[name] = min(out.get(name, float("inf")), time.perf_counter() - t0)
            same = all(open(f"{tmp}/local0/chunks/{f}", "rb").read() == open(f"{tmp}/dask0/chunks/{f}", "rb").read()
                       for f in os.listdir(f"{tmp}/local0/chunks"))
    return [{"build": f"swiss 5p, {cells:,} pairs x 5 seats, {chunk_cells} cells/chunk", "local_s": out["local"],
             "localcluster_2_s": out["dask"], "ratio_dask_local": out["dask"] / out["local"],
             "cluster_start_s": out["cluster_start_s"], "same_chunk_bytes": same}]


def _warm_worker() -> None:
    """Load the table kernel on a worker (from the Numba cache) before anything is timed."""
    spec = TableSpec(SWISS, 5, MODEL, seed=1, cells=4)
    seats, pair_rows = _sample(spec, 2)
    simulate_cells(spec, seats, pair_rows, 0)


def packed_sizes(block: int, plan_rows_: list[dict]) -> list[dict]:
    """Bytes per cell of a packed table, measured on contiguous runs of cells of a real 5-player table.

    Five runs of ``block / 5`` neighbouring cells, one per seat at different trump ranks, packed together
    (a packed table keeps cells in build order, and neighbours compress together).
    """
    import pandas as pd

    from rumbaodds.tables.pack import pack_frame

    spec = TableSpec(SWISS, 5, MODEL, seed=0)
    pairs = len(enumerate_trump_rank_pairs(SWISS))
    frames = []
    for seat in range(5):
        start = (seat * 2 + 1) * pairs // 11  # spread over the trump ranks
        pair_rows = np.arange(start, start + block // 5, dtype=np.int64)
        seats = np.full(len(pair_rows), seat, dtype=np.int64)
        first = seat * pairs + start
        frames.append(chunk_frame(spec, seats, pair_rows, first, simulate_cells(spec, seats, pair_rows, first)))
    frame = pd.concat(frames, ignore_index=True)
    block = len(frame)
    with tempfile.TemporaryDirectory() as tmp:
        path = pack_frame(frame, {**spec.manifest(), "cells": None}, block, f"{tmp}/block.packed.parquet")
        per_cell = os.path.getsize(path) / block
        raw = io.BytesIO()
        pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), raw)
        full_per_cell = len(raw.getvalue()) / block
    rows = [{"table": f"swiss {r['players']}p", "cells": r["cells"], "packed_MB": r["cells"] * per_cell / 1e6,
             "full_table_MB": r["cells"] * full_per_cell / 1e6} for r in plan_rows_]
    rows.append({"table": "swiss 3-7, all five", "cells": sum(r["cells"] for r in plan_rows_),
                 "packed_MB": sum(r["cells"] for r in plan_rows_) * per_cell / 1e6,
                 "full_table_MB": sum(r["cells"] for r in plan_rows_) * full_per_cell / 1e6})
    for row in rows:
        row["bytes_per_cell"] = per_cell
    return rows


def lookups() -> list[dict]:
    """A packed lookup: canonicalise the hand, searchsorted, index (tiny table; the cost does not grow with size)."""
    from rumbaodds.answer.simulation import make_situation
    from rumbaodds.rules import RuleSet
    from rumbaodds.tables.pack import answer_from_packed, load_packed, pack_table

    tiny = RuleSet(name="tiny", suits="CDH", ranks="TJQK", hand_size=2, min_players=2, max_players=3,
                   exchange_limit=1, rumba_min_tricks=2, throw_in_below="J", knock=False)
    with tempfile.TemporaryDirectory() as tmp:
        build_table(TableSpec(tiny, 3, MODEL, seed=1, min_samples=16, max_samples=64), f"{tmp}/t")
        packed = load_packed(pack_table(f"{tmp}/t", f"{tmp}/t.packed.parquet"))
        situations = [make_situation(h, t, 3, s, tiny) for h, t in (("CJ HK", "HJ"), ("DT CQ", "HK"), ("HQ HT", "CK"))
                      for s in range(3)]
        n = 3_000
        start = time.perf_counter()
        for i in range(n):
            answer_from_packed(packed, situations[i % len(situations)], MODEL, "expert")
        per = (time.perf_counter() - start) / n
    return [{"lookup": "ask from a packed table (class row by searchsorted)", "us_per_answer": per * 1e6}]


def full_build() -> list[dict]:
    spec = TableSpec(SWISS, 5, MODEL)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        path = build_table(spec, f"{tmp}/swiss5")
        seconds = time.perf_counter() - start
        samples = pq.read_table(path, columns=["samples"]).column("samples").to_numpy()
    return [{"table": "swiss 5p, full, adaptive default", "cells": len(samples), "minutes": seconds / 60,
             "deals_mean": samples.mean(), "deals_median": float(np.median(samples)),
             "deals_p99": float(np.percentile(samples, 99))}]


def pooling(quick: bool) -> list[dict]:
    """``benchmarks.bench_neighbours`` section 2 on the first 30 situations of issue 35's draw per rule set (quick:
    2, with 20,000-deal truths: no measurement), 64 and 256 deals per cell, at most 24 cells per group."""
    situations, truths = situations_and_truths(2, 20_000) if quick else situations_and_truths(30)
    return pooling_rows(situations, truths, [64] if quick else [64, 256], 6 if quick else 24)


def shipped_tables() -> list[dict]:
    """Section 6: what the package ships, read from the packed tables themselves (no simulation)."""
    import datetime as dt

    from rumbaodds.tables.lookup import read_manifest
    from rumbaodds.tables.pack import DEAL_COLUMNS, SHIPPED, SUFFIX, deal_counts

    rows = []
    for path in sorted(SHIPPED.glob(f"*{SUFFIX}")):
        m = read_manifest(path)
        names = [c for c in DEAL_COLUMNS if c in pq.read_schema(path).names]  # the deal counts alone
        table = pq.read_table(path, columns=names)
        deals = deal_counts({c: table.column(c).to_numpy() for c in names}, m)[0]
        built = m["packed"].get("built") or {}
        minutes = None
        if "started" in built and "finished" in built:
            minutes = (dt.datetime.fromisoformat(built["finished"]) - dt.datetime.fromisoformat(built["started"])
                       ).total_seconds() / 60
        rows.append({"table": path.name.removesuffix(SUFFIX),
                     "kind": "one cell per neighbour group" if m["packed"].get("neighbours") else "every cell",
                     "cells": len(deals), "precision": m.get("precision"), "deals_mean": float(deals.mean()),
                     "deals_median": float(np.median(deals)), "build_min": minutes,
                     "packed_MiB": path.stat().st_size / 2**20})
    rows.append({"table": "all", "cells": sum(r["cells"] for r in rows),
                 "packed_MiB": sum(r["packed_MiB"] for r in rows),
                 "build_min": sum(r["build_min"] or 0 for r in rows)})
    return rows


def main(quick: bool = False, full: bool = False) -> None:
    sample = 12 if quick else 1_500
    spec = TableSpec(SWISS, 5, MODEL)
    print(f"\n(adaptive default: precision {spec.precision:g} points, {spec.min_samples}..{spec.max_samples} deals per "
          f"cell, stopping z {spec.z_stop():.2f}; {sample:,} uniformly drawn cells per player count)")
    plan, rows = whole_map(sample)
    print_table(f"full swiss tables on this machine (targets: 5 players under {TARGET_5P_MIN} min, 3-7 together under "
                f"{TARGET_ALL_MIN} min)", rows)
    total = totals(plan)
    print(f"total swiss 3-7: {total['hours_here'] * 60:,.0f} min here (fixed 1,000 deals per cell: "
          f"{sum(r['fixed_1000_min'] for r in rows):,.0f} min); {total['cells']:,} cells, "
          f"{total['deals_total']:,.3g} deals")
    print_table("where the time goes (shares of time, or of a table's deals)", where_the_time_goes(plan, sample, quick))
    if quick:
        print("\n(local against a Dask LocalCluster: skipped in --quick, it starts a cluster)")
        print_table("packed decision tables (target: all five swiss tables in 40 MB)", packed_sizes(100, plan))
        print_table("packed lookup", lookups())
        print_table("pooling neighbouring cells (issue 35)", pooling(quick))
        print_table("the shipped tables (build minutes: the builds' own record; 80 MB allowed)", shipped_tables())
        return
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("\n(dask.distributed not installed: pip install -e '.[dask]' for the LocalCluster comparison)")
    else:
        print_table("local against a LocalCluster of 2 workers (target: within 15%)",
                    local_against_dask(300 if quick else 12_000, 100 if quick else 2_000))
    print_table("packed decision tables (target: all five swiss tables in 40 MB)",
                packed_sizes(2_000 if quick else 30_000, plan))
    print_table("packed lookup", lookups())
    print_table("pooling neighbouring cells: precision gain per deal, pooled against a cell's own deals (issue 35)",
                pooling(quick))
    print_table("the shipped tables (build minutes: the builds' own record; 80 MB allowed)", shipped_tables())
    if full:
        print_table("the whole swiss 5-player table, built", full_build())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--full", action="store_true", help="also build the whole swiss 5-player table")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    main(args.quick, args.full)
