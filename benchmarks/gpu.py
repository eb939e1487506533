"""The GPU engine against the CPU kernels in one run: CPU == GPU, deals/s and cells/s, projected full tables.

    python -m benchmarks.gpu                    # a machine with a CUDA GPU (a few minutes on an H200)
    python -m benchmarks.gpu --simulate --tiny  # Numba's CUDA simulator, tiny sizes: checks this script

Without a GPU it prints "no GPU here" with the reason, and the CPU's rates
alone. With one, for swiss 5 and flemish 4 players: first the GPU must equal
the CPU on ``ask`` batches (results, tries and importance weights) and on
table cells (every output, floats bit for bit), else exit code 1 ("CPU !=
GPU"); then ``ask``'s deals per second and the table kernel's cells per
second on each engine (the GPU on more work than the CPU, each the faster of
two runs, transfers included), their ratio, and the projected time of the
full table (every seat, trump rank and hand class; knock values not
included) on the GPU.
"""

from __future__ import annotations

import argparse
import os
import sys

if __name__ == "__main__" and "--simulate" in sys.argv:
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"  # before numba.cuda is first imported

import numpy as np  # noqa: E402

from rumbaodds.answer.simulation import Job  # noqa: E402
from rumbaodds.answer.situation import make_situation  # noqa: E402
from rumbaodds.engine import hand as K  # noqa: E402
from rumbaodds.engine import table as T  # noqa: E402
from rumbaodds.engine.devices import DeviceError, resolve_device  # noqa: E402
from rumbaodds.rules import FLEMISH, SWISS  # noqa: E402
from rumbaodds.tables import TableSpec  # noqa: E402
from rumbaodds.tables.build import cell_arguments, plan_rows  # noqa: E402

from .common import best_time, print_table  # noqa: E402

# (rules, players, seat, hand, trump, earlier words): the second one draws seat 1 exactly (importance weights)
CONFIGS = [(SWISS, 5, 2, "HA HK C7 C8 D9", "H7", None), (FLEMISH, 4, 2, "SA SK D9 C6 H7", "SQ", "pass,rumba")]
TARGET_MINUTES = 10  # issue 12: the full flemish 4-player table on one H200


def ask_args(config, seed, start, count):
    rules, players, seat, hand, trump, before = config
    job = Job.of(make_situation(hand, trump, players, seat, rules, 0, False, before), "default", "expert")
    return (*job.args(), np.uint64(seed), start, count)


def table_spec(config, samples):
    rules, players = config[:2]
    return TableSpec(rules, players, "default", samples_per_cell=samples, seed=1) if samples else \
        TableSpec(rules, players, "default", seed=1)


def cells(spec, count, seed):
    """``count`` random cells of the full table (seat, trump rank, class)."""
    rows = plan_rows(spec)
    picked = np.sort(np.random.default_rng(seed).choice(spec.players * len(rows), size=count, replace=False))
    return cell_arguments(spec, picked // len(rows), rows[picked % len(rows)], int(picked[0]))


def check(gpu, config, samples, check_cells) -> None:
    """CPU == GPU on an ``ask`` batch and on table cells; exits 1 naming the first difference."""
    pairs = [("ask", K.ask_batch, gpu.ask_batch, ask_args(config, 7, 1_000, samples),
              ("results", "tries", "weights")),
             ("table", T.table_cells, gpu.table_cells, cells(table_spec(config, 0), check_cells, 3),
              ("means", "halves", "shares", "best", "runner", "margin", "margin_half", "tries", "samples", "ess",
               "stop"))]
    for kind, on_cpu, on_gpu, args, names in pairs:
        for name, a, b in zip(names, on_cpu(*args), on_gpu(*args)):
            if a.dtype != b.dtype or a.shape != b.shape or not np.array_equal(a, b, equal_nan=True):
                print(f"CPU != GPU: {config[0].name} {config[1]} players, {kind} output {name!r} differs")
                sys.exit(1)


def rates(engine, config, ask_count, table_cells_count):
    """(deals/s of ``ask``, cells/s and deals/s of the adaptive table kernel) on one engine."""
    ask, table = engine
    args = ask_args(config, 11, 0, ask_count)
    ask(*ask_args(config, 11, 0, 64))  # compiled (or loaded) outside the timing
    ask_s = best_time(lambda: ask(*args), repeat=2)
    spec = table_spec(config, 0)
    cell_args = cells(spec, table_cells_count, 5)
    table(*cells(spec, 2, 6))
    out = []
    table_s = best_time(lambda: out.append(table(*cell_args)), repeat=2)
    return ask_count / ask_s, table_cells_count / table_s, out[-1][8].sum() / table_s


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simulate", action="store_true", help="run in Numba's CUDA simulator (no GPU needed)")
    parser.add_argument("--tiny", action="store_true", help="tiny sizes (with --simulate: a test of this script)")
    args = parser.parse_args(argv)
    cpu_ask, cpu_cells, gpu_ask, gpu_cells = 100_000, 200, 4_000_000, 50_000
    check_samples, check_cells = 20_000, 400
    if args.tiny:
        cpu_ask, cpu_cells, gpu_ask, gpu_cells, check_samples, check_cells = 200, 2, 200, 2, 24, 2
    cpu = resolve_device("cpu")
    try:
        device = resolve_device("gpu")
    except DeviceError as exc:
        print(f"no GPU here ({exc}); the CPU alone, {cpu.description}:")
        rows = []
        for config in CONFIGS:
            deals, cells_s, table_deals = rates((K.ask_batch, T.table_cells), config, cpu_ask, cpu_cells)
            rows.append({"rules": config[0].name, "players": config[1], "cpu_ask_deals/s": deals,
                         "cpu_table_cells/s": cells_s, "cpu_table_deals/s": table_deals})
        print_table("CPU rates (GPU figures: unmeasured)", rows)
        return
    from rumbaodds.engine import gpu

    print(f"# GPU engine on {device}; CPU: {cpu.description}")
    for config in CONFIGS:
        check(gpu, config, check_samples, check_cells)
    print(f"CPU == GPU: {len(CONFIGS)} configurations, {check_samples:,} ask deals and {check_cells} adaptive table "
          "cells each, every output equal (floats bit for bit)")
    rows, projected = [], []
    for config in CONFIGS:
        c_ask, c_cells, c_deals = rates((K.ask_batch, T.table_cells), config, cpu_ask, cpu_cells)
        g_ask, g_cells, g_deals = rates((gpu.ask_batch, gpu.table_cells), config, gpu_ask, gpu_cells)
        rows.append({"rules": config[0].name, "players": config[1], "cpu_ask_deals/s": c_ask,
                     "gpu_ask_deals/s": g_ask, "ask_gpu/cpu": g_ask / c_ask, "cpu_cells/s": c_cells,
                     "gpu_cells/s": g_cells, "cells_gpu/cpu": g_cells / c_cells, "gpu_table_deals/s": g_deals})
        spec = table_spec(config, 0)
        full = spec.players * len(plan_rows(spec))
        projected.append({"table": f"{config[0].name} {config[1]}p (adaptive)", "cells": full,
                          "gpu_minutes": full / g_cells / 60, "cpu_minutes": full / c_cells / 60})
    print_table("speed, one run (each the faster of two; the GPU's include transfers)", rows)
    print_table(f"projected full tables on {device.description} (cells only, knock values not included; target "
                f"flemish 4p under {TARGET_MINUTES} minutes)", projected)


if __name__ == "__main__":
    main()
