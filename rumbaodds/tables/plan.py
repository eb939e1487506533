"""How long would the whole map take? Cells, deals and time of every player count's table, measured on a sample.

For each player count a uniform random sample of cells (seat, trump rank,
hand class) is simulated with the build's own kernel and stopping rule. The
sample is uniform, not weighted by how often a hand occurs, because a build
simulates every cell once whatever its weight: the build's time is the number
of cells times the mean time of a cell. The estimates assume the sampled
machine's speed; "workers" are single-core Dask workers of that speed (a
LocalCluster process with one Numba thread, or ``dask worker --nthreads 1``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ..cardplay import DEFAULT_PLAY
from ..rules import RuleSet
from .build import KNOCK_INNER, knock_ranks, knock_row, knock_samples, plan_rows, simulate_cells
from .handclasses import enumerate_trump_rank_pairs
from .spec import TableSpec

KNOCK_PROBE = 20  # outer knock deals timed per player count to extrapolate the knock file


def _threads() -> int:
    import numba

    return numba.get_num_threads()


def plan_tables(rules: RuleSet, opponents, play: str = DEFAULT_PLAY, players: list[int] | None = None,
                sample_cells: int = 1_000, workers: int = 16, seed: int = 0, precision: float | None = None,
                min_samples: int | None = None, max_samples: int | None = None,
                progress: Callable[[int, int], None] | None = None, neighbours: str | None = None) -> list[dict]:
    """One dict per player count: cells, deals per cell (mean, median, p99), estimated hours here and on workers."""
    counts = players or list(range(rules.min_players, rules.max_players + 1))
    extra = {k: v for k, v in (("precision", precision), ("min_samples", min_samples),
                               ("max_samples", max_samples)) if v is not None}
    rows = []
    n_pairs = len(enumerate_trump_rank_pairs(rules))
    threads = _threads()
    for done, n in enumerate(counts):
        spec = TableSpec(rules, n, opponents, play, seed=seed, neighbours=neighbours, **extra)
        pair_rows = plan_rows(spec)
        cells = n * len(pair_rows)
        rng = np.random.default_rng([seed, n])
        size = min(sample_cells, cells)
        picked = np.sort(rng.choice(cells, size=size, replace=False))
        seats, rows_ = picked // len(pair_rows), pair_rows[picked % len(pair_rows)]
        simulate_cells(spec, seats[:2], rows_[:2], 0)  # compile (or load the cache) outside the timing
        start = time.perf_counter()
        result = simulate_cells(spec, seats, rows_, 0)
        wall = time.perf_counter() - start
        samples = result[8]
        knock_s = 0.0
        if rules.knock:
            knock_row(spec, knock_ranks(rules)[-1], samples=2, inner=2)  # compile or load outside the timing
            start = time.perf_counter()
            knock_row(spec, knock_ranks(rules)[-1], samples=KNOCK_PROBE)
            probe = time.perf_counter() - start
            knock_s = probe * knock_samples(spec) / KNOCK_PROBE * len(knock_ranks(rules))
        per_cell = wall / size
        here = cells * per_cell + knock_s
        core_seconds = (cells * per_cell + knock_s) * threads
        rows.append({
            "players": n, "cells": cells, "pairs": n_pairs, "sampled": size,
            "deals_mean": float(samples.mean()), "deals_median": float(np.median(samples)),
            "deals_p99": float(np.percentile(samples, 99)), "deals_total": float(samples.mean() * cells),
            "ms_per_cell": per_cell * 1e3, "knock_hours": knock_s / 3600, "hours_here": here / 3600,
            "threads_here": threads, "workers": workers, "hours_on_workers": core_seconds / workers / 3600,
            "precision": spec.precision, "min_samples": spec.sample_range[0], "max_samples": spec.sample_range[1],
            "knock_samples": knock_samples(spec) if rules.knock else 0, "knock_inner": KNOCK_INNER,
        })
        if progress is not None:
            progress(done + 1, len(counts))
    return rows


def totals(rows: list[dict]) -> dict:
    return {"cells": sum(r["cells"] for r in rows), "deals_total": sum(r["deals_total"] for r in rows),
            "hours_here": sum(r["hours_here"] for r in rows),
            "hours_on_workers": sum(r["hours_on_workers"] for r in rows)}


__all__ = ["plan_tables", "totals"]
