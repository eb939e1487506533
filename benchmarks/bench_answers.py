"""Answer times at default settings, warm (issue 19: every answer under 10 s), and the packed tables' size.

`python -m benchmarks.bench_answers` prints, for each situation, the median and worst wall time of a few answers
through the pipeline (rumbaodds.answer, what `ask`, the page and the API run), in this process after one warm-up
answer of the same kind (kernels compiled and loaded):

- table: the lookup alone (answer.from_table);
- table + settle: the issue's three hands, answered from the shipped table with what it leaves open simulated;
- simulated: no table covers it (bold opponents);
- rare words: the last of 4 seats after "pass, rumba, play";
- 7-player dealer after six earlier words;
- knock: `rumbaodds knock --trump HA --players 5` (and 7).

With ``--pack``: bytes per cell of packed format 1 and 2 on contiguous blocks of real swiss cells (3, 5 and 7
players, as a full table is packed: neighbours compress together), scaled by the ratio of the shipped format-1
files to format 1 on the same blocks, and the projected size of all five swiss tables (budget 40 MB).
The machine may be shared: absolute times move with its load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import numpy as np

from rumbaodds.answer import pipeline
from rumbaodds.answer.question import Question

from .common import print_table

ISSUE_HANDS = (("HJ H7 SA D9 C8", "H6", 4, 0), ("HK H8 SA D7 C9", "H6", 5, 2), ("HA HK HQ S6 C7", "H9", 5, 2))
SITUATIONS = {
    "table (lookup only)": [dict(hand=h, trump=t, players=n, seat=s) for h, t, n, s in ISSUE_HANDS],
    "table + settle": [dict(hand=h, trump=t, players=n, seat=s) for h, t, n, s in ISSUE_HANDS],
    "simulated (no table: bold opponents)": [dict(hand="HA HK HQ S6 C7", trump="H9", players=5, seat=2,
                                                  opponents="bold"),
                                             dict(hand="SA SK D7 C8 H9", trump="ST", players=5, seat=3,
                                                  opponents="bold")],
    "rare words: 4 players, last seat after pass, rumba, play": [
        dict(hand="HA HK HQ S6 C7", trump="H9", players=4, seat=3, before="pass,rumba,play"),
        dict(hand="H6 C7 D8 S9 C6", trump="HA", players=4, seat=3, before="pass,rumba,play")],
    "7-player dealer after six earlier words": [
        dict(hand="SA SK D7 C8 H9", trump="ST", players=7, seat=6, before="pass,play,pass,pass,play,pass"),
        dict(hand="H6 C7 D8 S9 C6", trump="HA", players=7, seat=6, before="pass,rumba,play,play,pass,pass"),
        dict(hand="SA SK D7 C8 H9", trump="ST", players=7, seat=6, before="play,play,play,play,play,play")],
}
KNOCKS = [dict(trump="HA", players=5), dict(trump="HA", players=7), dict(trump="S9", players=4)]
TARGET_S = 10.0


def _question(kw: dict) -> Question:
    kw = dict(kw)
    return Question.of(kw.pop("hand"), kw.pop("trump"), kw.pop("players"), kw.pop("seat"), **kw)


def _time(func) -> tuple[float, object]:
    start = time.perf_counter()
    out = func()
    return time.perf_counter() - start, out


def answer_times(repeat: int = 2) -> list[dict]:
    rows = []
    for label, cases in SITUATIONS.items():
        lookup_only = label.startswith("table (")
        run = (lambda kw: pipeline.from_table(_question(kw))) if lookup_only else \
            (lambda kw: pipeline.answer(_question(kw)))
        run(cases[0])  # warm: compiled and loaded
        times, kinds, deals = [], set(), []
        for _ in range(repeat):
            for kw in cases:
                seconds, result = _time(lambda kw=kw: run(kw))
                times.append(seconds)
                source = pipeline.source_of(result)
                kinds.add(source["kind"])
                deals.append(source.get("simulation", source).get("deals", result.samples))
        rows.append({"situation": label, "answers": len(times), "median_s": statistics.median(times),
                     "worst_s": max(times), "under_10s": max(times) < TARGET_S, "source": "/".join(sorted(kinds)),
                     "deals_median": statistics.median(deals)})
    from rumbaodds.answer import simulation

    simulation.knock("HA", 5, samples=10, inner_samples=10, seed=1)  # warm
    times, verdicts = [], []
    for _ in range(max(1, repeat - 1)):
        for kw in KNOCKS:
            seconds, result = _time(lambda kw=kw: pipeline.knock_answer(tables_root=None, **kw))
            times.append(seconds)
            verdicts.append(f"{kw['trump']} {kw['players']}p: {result.samples} deals, {result.stopped}, "
                            f"{'resolved' if result.resolved else 'too close'}")
    rows.append({"situation": "knock (default)", "answers": len(times), "median_s": statistics.median(times),
                 "worst_s": max(times), "under_10s": max(times) < TARGET_S, "source": "simulation",
                 "deals_median": statistics.median(int(v.split()[2]) for v in verdicts)})
    print("knock answers: " + "; ".join(verdicts))
    return rows


def _block_frame(players: int, per_seat: int):
    """Contiguous runs of ``per_seat`` real cells per seat of a swiss table, as the full table's frame."""
    import pandas as pd

    from rumbaodds.rules import SWISS
    from rumbaodds.tables import TableSpec
    from rumbaodds.tables.build import chunk_frame, simulate_cells
    from rumbaodds.tables.handclasses import enumerate_trump_rank_pairs

    spec = TableSpec(SWISS, players, None, seed=0)
    pairs = len(enumerate_trump_rank_pairs(SWISS))
    frames = []
    for seat in range(players):
        start = (seat * 2 + 1) * pairs // (2 * players + 1)  # spread over the trump ranks
        rows = np.arange(start, start + per_seat, dtype=np.int64)
        seats = np.full(len(rows), seat, dtype=np.int64)
        first = seat * pairs + start
        frames.append(chunk_frame(spec, seats, rows, first, simulate_cells(spec, seats, rows, first)))
    return pd.concat(frames, ignore_index=True), {**spec.manifest(), "cells": None}


def _column_bytes(path) -> int:
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).metadata
    return sum(meta.row_group(g).column(c).total_compressed_size for g in range(meta.num_row_groups)
               for c in range(meta.row_group(g).num_columns))


def pack_sizes(per_seat: int = 1_000) -> list[dict]:
    """Bytes per cell of format 1 and 2 on real blocks; format 2 projected to the five swiss tables."""
    from rumbaodds.tables.lookup import read_manifest
    from rumbaodds.tables.pack import COARSE, SHIPPED, SUFFIX, pack_frame

    shipped = {}
    for path in SHIPPED.glob(f"*{SUFFIX}"):
        m = read_manifest(path)
        cells = m["packed"]["pairs"] * m["players"]
        shipped[int(m["players"])] = (cells, _column_bytes(path) / cells, m["packed"]["format"])
    measured = {}
    with tempfile.TemporaryDirectory() as tmp:
        for players in (3, 5, 7):
            frame, manifest = _block_frame(players, per_seat)
            per = {}
            for name, kw in (("v1", dict(fmt=1)), ("v2", {}), ("v2 coarse", dict(codec=COARSE))):
                path = pack_frame(frame, manifest, 10**6, os.path.join(tmp, f"{players}-{name}.parquet"), **kw)
                per[name] = _column_bytes(path) / len(frame)
            measured[players] = per
    rows = []
    for players in sorted(shipped):
        near = min(measured, key=lambda p: abs(p - players))
        cells, v1_real, fmt = shipped[players]
        ratio = v1_real / measured[near]["v1"] if fmt == 1 else 1.0  # how a whole table compresses against a block
        rows.append({"table": f"swiss {players}p", "cells": cells, "v1_block_B": measured[near]["v1"],
                     "v1_shipped_B": v1_real, "v2_B_per_cell": measured[near]["v2"] * ratio,
                     "v2_MB": cells * measured[near]["v2"] * ratio / 1e6,
                     "v2_coarse_MB": cells * measured[near]["v2 coarse"] * ratio / 1e6})
    rows.append({"table": "all five", "cells": sum(r["cells"] for r in rows), "v1_block_B": float("nan"),
                 "v1_shipped_B": float("nan"), "v2_B_per_cell": sum(r["v2_MB"] for r in rows) * 1e6 /
                 sum(r["cells"] for r in rows), "v2_MB": sum(r["v2_MB"] for r in rows),
                 "v2_coarse_MB": sum(r["v2_coarse_MB"] for r in rows)})
    return rows


def main(quick: bool = False, pack: bool = False) -> None:
    print_table("answers at default settings, warm (target: every answer under 10 s)", answer_times(1 if quick else 2))
    if pack:
        print_table("packed format 2: bytes per cell and the five swiss tables (budget 40 MB)",
                    pack_sizes(100 if quick else 1_000))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one answer per case: a smoke test")
    parser.add_argument("--pack", action="store_true", help="also measure packed bytes per cell on real blocks")
    args = parser.parse_args()
    main(args.quick, args.pack)
