"""Building strategy tables: every seat, trump rank and hand class, simulated once and kept as Parquet.

A build is cut into chunks of cells. A chunk's numbers depend only on the
table's settings (its seed included) and the chunk's number: cell ``c`` draws
sample ``i`` from stream ``c * max_samples + i`` of the seed, whatever the
rounds, threads, chunk order or machine. Chunks are the tasks of a scheduler
(:mod:`.schedulers`: in this process, or on Dask); the process that started
the build writes each chunk file (atomically) as its result arrives, so a
build killed at any moment and started again with the same command
recomputes no finished chunk, and ends with a table identical byte for byte
to an uninterrupted build on any scheduler.

Adaptive precision (the default): a cell is simulated at the looks
``min_samples, 1.5 min_samples, 2.25 min_samples, ..., max_samples`` (rounded up;
128, 192, 288, ..., 4096 by default) and stops at the first look where

- its decision is resolved: the margin between the best choice and the
  runner-up (paired on the same deals) is more than ``z_stop`` standard errors
  from 0, with ``z_stop`` the Bonferroni critical value for ``alpha = 0.01``
  over the interim looks (3.26 for the 9 interim looks of 128..4096), so the
  chance of calling a zero margin resolved stays below 1% however often the
  cell is looked at (checking a plain 95% interval after every round would not:
  optional stopping inflates that error with every look);
- or every expected value's 95% half-width is below ``precision`` points.

The intervals reported are the plain 95% ones at the stopping point;
``tests/test_tables_adaptive.py`` checks on a tiny rule set, against exact
enumeration, that they still cover the exact values about 95% of the time.
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..answer.simulation import POLICIES
from ..cards import RANKS, SUITS
from ..engine import hand as hand_kernel
from ..engine.compiled import announce_compile
from ..engine.devices import resolve_device
from ..engine.devices import table_cells as on_device
from ..engine.table import (
    COL_PASS_PENALISED,
    COL_PLAY,
    COL_RUMBA,
    P_LONE_PLAY,
    P_PLAYED,
    P_PLAYED_W2,
    P_SUCCESS,
    P_TRICKS,
    P_UNCONTESTED,
    P_VOID,
    table_cells,
)
from ..opponents.models import keep_value
from ..rules import RuleSet
from ..stats import Z95
from .groups import CALIBRATION_PARTS, calibration_pairs, calibration_spec
from .handclasses import enumerate_trump_rank_pairs
from .neighbours import representative_rows
from .spec import TableError, TableSpec, package_version

DEFAULT_CHUNK_CELLS = 20_000
STOP_CODES = {0: "max_samples", 1: "resolved", 2: "precise", 3: "impossible"}
KNOCK_INNER = 200
KNOCK_SAMPLES = 2_000  # outer deals per trump rank of an adaptive table's knock.parquet
NEIGHBOURS = "neighbours.parquet"  # a neighbour-group table's calibration (tables/groups.py)
TIMINGS = "timings.json"  # a build's start time (and, once finished, its end), kept out of the table's metadata


# -- the plan ------------------------------------------------------------------------------
@functools.lru_cache(maxsize=8)
def plan_rows(spec: TableSpec) -> np.ndarray:
    """The (trump rank, class) pair rows of every seat, in build order (all pairs, or the weighted subset)."""
    if spec.neighbours:
        return representative_rows(spec.rules, spec.neighbours)
    pairs = enumerate_trump_rank_pairs(spec.rules)
    if spec.cells is not None and spec.cells < len(pairs):
        rng = np.random.default_rng(spec.seed)
        weights = pairs.weights / pairs.weights.sum()
        return np.sort(rng.choice(len(pairs), size=spec.cells, replace=False, p=weights))
    return np.arange(len(pairs), dtype=np.int64)


def total_cells(spec: TableSpec) -> int:
    return spec.players * len(plan_rows(spec))


def chunk_range(spec: TableSpec, index: int, chunk_cells: int) -> tuple[int, int]:
    total = total_cells(spec)
    return index * chunk_cells, min(total, (index + 1) * chunk_cells)


def n_chunks(spec: TableSpec, chunk_cells: int) -> int:
    return (total_cells(spec) + chunk_cells - 1) // chunk_cells


def cells_of(spec: TableSpec, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """(seats, pair rows) of cells lo..hi-1: seat-major, then pair rows."""
    rows = plan_rows(spec)
    g = np.arange(lo, hi, dtype=np.int64)
    return g // len(rows), rows[g % len(rows)]


# -- one chunk -----------------------------------------------------------------------------
@functools.lru_cache(maxsize=8)
def opponents_of(spec: TableSpec):
    """(the others' policy, per seat and trump rank the two of trump that seat cannot hold or -1) of a table."""
    from ..answer.conditioning import excluded_card

    rules = spec.rules
    policy = spec.policy
    trump_suit = enumerate_trump_rank_pairs(rules).classes.trump_suit
    excluded = np.full((policy.players, 16), -1, dtype=np.int64)
    for s in range(policy.players):  # he would have swapped it [D-9]; the kernel drops it where the hero holds it
        for r in rules.ranks:
            excluded[s, RANKS.index(r)] = excluded_card(rules, (), trump_suit * 16 + RANKS.index(r), False, -1,
                                                        policy.swaps(s))
    return policy, excluded


def cell_arguments(spec: TableSpec, seats: np.ndarray, pair_rows: np.ndarray, first_cell: int) -> tuple:
    """The arguments of ``table.table_cells`` (and of the GPU's) for cells ``first_cell ..`` (seat, pair row)."""
    rules = spec.rules
    policy, excluded = opponents_of(spec)
    pairs = enumerate_trump_rank_pairs(rules)
    class_rows = pairs.class_rows[pair_rows]
    hands = pairs.classes.hands[class_rows].astype(np.uint64)
    trump_cards = (pairs.classes.trump_suit * 16 + pairs.trump_ranks[pair_rows]).astype(np.int64)
    lo, hi = spec.sample_range
    precision = spec.precision if spec.adaptive else 0.0
    return (np.uint64(rules.deck_mask), rules.deck_array(), hands, trump_cards,
            np.ascontiguousarray(seats, dtype=np.int64), spec.players, hand_kernel.rules_array(rules),
            policy.as_tuple(), POLICIES[spec.play], max(0, rules.sit_out_limit - 1),
            rules.exchange_limit, np.uint64(spec.seed), first_cell, lo, hi, spec.growth, precision,
            spec.z_stop(), rules.rumba_min_tricks, excluded)


def simulate_cells(spec: TableSpec, seats: np.ndarray, pair_rows: np.ndarray, first_cell: int, device="cpu"):
    """The kernel on cells ``first_cell ..`` (seat, pair row): its raw per-cell results.

    ``device``: cpu, gpu, auto or an ``engine.devices.Device``; the same results on either.
    """
    args = cell_arguments(spec, seats, pair_rows, first_cell)
    if device == "cpu":
        announce_compile(table_cells, "the table builder")
        return table_cells(*args)  # else engine.devices says it
    return on_device(resolve_device(device), *args)


def _hand_points(hands: np.ndarray, rules: RuleSet, trump: int) -> np.ndarray:
    """models.hand_points of every hand, vectorised over the deck's cards."""
    top = RANKS.index(rules.ranks[-1])
    total = np.zeros(len(hands), dtype=np.int16)
    for card in rules.deck:
        value = keep_value(card, trump, top)
        if value:
            total += (value * ((hands >> np.uint64(card)) & np.uint64(1))).astype(np.int16)
    return total


def wilson(p: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score 95% interval of proportions ``p`` over ``n`` (effective) samples, vectorised.

    stats.Estimate.of_proportion for arrays; ``n`` is the effective sample size of weighted samples.
    """
    n = np.maximum(np.asarray(n, dtype=np.float64), 1e-100)  # no samples: the interval [0, 1], without 1/0
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * np.sqrt(np.maximum(0.0, p * (1 - p)) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return np.maximum(0.0, np.minimum(p, centre - half)), np.minimum(1.0, np.maximum(p, centre + half))


def chunk_frame(spec: TableSpec, seats: np.ndarray, pair_rows: np.ndarray, first: int, results) -> pd.DataFrame:
    """One row per cell: what identifies it, its features, and every estimate with its interval."""
    means, halves, shares, best, runner, margin, margin_half, tries, samples, ess, stop, column_samples = results
    rules = spec.rules
    pairs = enumerate_trump_rank_pairs(rules)
    classes = pairs.classes
    class_rows = pairs.class_rows[pair_rows]
    hands = classes.hands[class_rows]
    frame = pd.DataFrame({
        "cell": np.arange(first, first + len(seats), dtype=np.int64),
        "seat": seats.astype(np.int8),
        "trump_rank": pairs.trump_ranks[pair_rows].astype(np.int8),
        "class_row": class_rows.astype(np.int32),
        "hand": hands.astype(np.uint64),
        "weight": pairs.weights[pair_rows].astype(np.int64),
        "n_trumps": classes.n_trumps()[class_rows].astype(np.int8),
        "top_trump": classes.top_trump_rank()[class_rows].astype(np.int8),
        "side_aces": classes.side_aces()[class_rows].astype(np.int8),
        "side_kings": classes.side_kings()[class_rows].astype(np.int8),
        "hand_points": _hand_points(hands, rules, classes.trump_suit),
    })
    throw_below = RANKS.index(rules.throw_in_below)
    low_ranks = sum(1 << r for r in range(throw_below))
    low_mask = sum(low_ranks << (16 * s) for s in range(4))
    frame["throw_in_allowed"] = rules.throw_in & ((hands & ~np.uint64(low_mask)) == 0)
    frame["ev_pass_penalised"] = means[:, COL_PASS_PENALISED]
    frame["ev_pass_penalised_half"] = halves[:, COL_PASS_PENALISED]
    frame["ev_rumba"] = means[:, COL_RUMBA]
    frame["ev_rumba_half"] = halves[:, COL_RUMBA]
    # fewer than samples: the Rumba was dropped (clearly worse than pass and play); the p_ columns are its deals'
    frame["ev_rumba_deals"] = column_samples[:, COL_RUMBA].astype(np.int32)
    # p_success: made + uncontested over the Rumbas played (not voided, not refused), as ask reports it; its
    # Wilson interval counts the effective sample size of the played ones
    played = shares[:, P_PLAYED]
    p = np.divide(shares[:, P_SUCCESS], played, out=np.zeros_like(played), where=played > 0)
    low, high = wilson(p, shares[:, P_PLAYED_W2])
    frame["p_success"] = p
    frame["p_success_low"] = low
    frame["p_success_high"] = high
    frame["p_uncontested"] = shares[:, P_UNCONTESTED]
    frame["p_void"] = shares[:, P_VOID]  # a later throw-in voided the called Rumba
    frame["p_lone_play"] = shares[:, P_LONE_PLAY]  # the Rumba was not allowed: he plays alone
    tricks = shares[:, P_TRICKS:]
    frame["p_made"] = tricks[:, rules.rumba_min_tricks:].sum(axis=1)  # shares of all deals
    frame["p_lost"] = tricks.sum(axis=1) - frame["p_made"].to_numpy()
    contested = tricks.sum(axis=1, keepdims=True)
    tricks = np.divide(tricks, contested, out=np.zeros_like(tricks), where=contested > 0)
    for t in range(6):
        frame[f"tricks_{t}"] = tricks[:, t].astype(np.float32)
    plays = means[:, COL_PLAY:]
    play_deals = column_samples[:, COL_PLAY:]
    for k in range(plays.shape[1]):
        frame[f"ev_play{k}"] = plays[:, k]
        frame[f"ev_play{k}_half"] = halves[:, COL_PLAY + k]
        frame[f"ev_play{k}_deals"] = play_deals[:, k].astype(np.int32)  # fewer than samples: dropped (clearly worse)
    # the best exchange among those simulated to the end, as the kernel chose its best play
    best_k = np.where(play_deals < samples[:, None], np.inf, plays).argmin(axis=1)
    frame["best_discards"] = best_k.astype(np.int8)
    frame["ev_play"] = plays[np.arange(len(plays)), best_k]
    frame["ev_play_half"] = halves[np.arange(len(plays)), COL_PLAY + best_k]
    label = np.array(["pass", "pass!", "rumba"] + ["play"] * plays.shape[1])
    frame["best"] = label[best]
    frame["runner_up"] = label[runner]
    frame["margin"] = margin
    frame["margin_half"] = margin_half
    frame["samples"] = samples.astype(np.int32)
    frame["ess"] = ess
    frame["stop"] = stop.astype(np.int8)  # STOP_CODES
    frame["tries"] = tries.astype(np.float32)
    return frame


def compute_chunk(spec: TableSpec, index: int, chunk_cells: int, device="cpu") -> pa.Table:
    """Chunk ``index`` of the build as an Arrow table: a function of the spec and the index alone (any device)."""
    lo, hi = chunk_range(spec, index, chunk_cells)
    seats, pair_rows = cells_of(spec, lo, hi)
    frame = chunk_frame(spec, seats, pair_rows, lo, simulate_cells(spec, seats, pair_rows, lo, device))
    return pa.Table.from_pandas(frame, preserve_index=False)


# -- a group table's calibration -----------------------------------------------------------
def calibration_part(spec, part: int, most: int | None = None) -> pd.DataFrame:
    """Part ``part`` of a group table's calibration (:mod:`.groups`): each member and its representative on the same
    deals, one row each (``most``: only the part's first members, as validity recomputes them)."""
    seats, members, reps = calibration_pairs(spec)
    per = -(-len(members) // CALIBRATION_PARTS)
    lo, hi = part * per, min(len(members), (part + 1) * per)
    if most is not None:
        hi = min(hi, lo + most)
    cal = calibration_spec(spec)
    columns = ["ev_play", "ev_play_half", "ev_rumba", "ev_rumba_half", "ev_rumba_deals", "p_success", "samples",
               "tries"]
    frame = pd.DataFrame({"part": np.full(hi - lo, part, np.int16), "seat": seats[lo:hi], "member": members[lo:hi],
                          "representative": reps[lo:hi]})
    if hi <= lo:
        return frame.assign(**{f"{who}_{c}": np.zeros(0) for who in ("member", "rep") for c in columns})
    for who, rows in (("member", members[lo:hi]), ("rep", reps[lo:hi])):
        # the same first cell for both: member j and its representative draw the same streams
        cells = chunk_frame(cal, seats[lo:hi], rows, lo, simulate_cells(cal, seats[lo:hi], rows, lo))
        for c in columns:
            frame[f"{who}_{c}"] = cells[c].to_numpy()
    return frame


# -- knock values ---------------------------------------------------------------------------
def knock_samples(spec: TableSpec) -> int:
    """Outer deals per trump rank of ``knock.parquet``."""
    if spec.knock_samples is not None:
        return spec.knock_samples
    return max(500, 4 * spec.samples_per_cell) if not spec.adaptive else KNOCK_SAMPLES


def knock_row(spec: TableSpec, rank: int, samples: int | None = None, inner: int = KNOCK_INNER) -> dict:
    """The dealer's knock against no knock with trump card of ``rank`` (rumbaodds.answer.simulation.knock)."""
    from ..answer.simulation import knock

    rules = spec.rules
    trump = enumerate_trump_rank_pairs(rules).classes.trump_suit
    card = f"{SUITS[trump]}{RANKS[rank]}"
    result = knock(card, spec.players, rules, spec.policy, spec.play, samples=samples or knock_samples(spec),
                   seed=spec.seed, inner_samples=inner)
    return {"trump_rank": rank, "ev_knock": result.knock.mean, "ev_knock_low": result.knock.low,
            "ev_knock_high": result.knock.high, "ev_no_knock": result.no_knock.mean,
            "ev_no_knock_low": result.no_knock.low, "ev_no_knock_high": result.no_knock.high,
            "gain": result.margin.mean, "gain_low": result.margin.low, "gain_high": result.margin.high,
            "p_success": result.p_success.mean, "samples": result.samples, "inner_samples": inner}


def knock_values(spec: TableSpec, samples: int | None = None, inner: int = KNOCK_INNER) -> pd.DataFrame:
    """The dealer's knock against no knock for every trump rank (rumbaodds.answer.simulation.knock per rank)."""
    return pd.DataFrame([knock_row(spec, RANKS.index(r), samples, inner) for r in spec.rules.ranks])


def knock_ranks(rules: RuleSet) -> list[int]:
    return [RANKS.index(r) for r in rules.ranks]


# -- tasks ----------------------------------------------------------------------------------
def run_task(spec: TableSpec, chunk_cells: int, key: tuple[str, int], threads: int | None = None,
             device="cpu") -> pa.Table:
    """One task of a build, anywhere (this process or a Dask worker): a chunk of cells or a knock row.

    ``threads``: Numba threads for this task (None: Numba's default, every core). ``device``: where its cells
    are simulated (a name is resolved where the task runs: with ``auto`` a Dask worker with a GPU uses it).
    """
    if threads is not None:
        import numba

        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    kind, index = key
    if kind == "chunk":
        return compute_chunk(spec, index, chunk_cells, device)
    if kind == "knock":
        return pa.Table.from_pandas(pd.DataFrame([knock_row(spec, index)]), preserve_index=False)
    if kind == "spread":  # a part of a neighbour-group table's calibration (tables/groups.py)
        return pa.Table.from_pandas(calibration_part(spec, index), preserve_index=False)
    raise ValueError(f"unknown task {key!r}")


def build_token(spec: TableSpec, chunk_cells: int) -> str:
    """A short digest of the settings: names a build's Dask tasks, so two builds never share a task key."""
    text = json.dumps({"spec": spec.manifest(), "chunk_cells": chunk_cells}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def chunk_path(out: Path, index: int) -> Path:
    return out / "chunks" / f"chunk-{index:05d}.parquet"


def knock_part_path(out: Path, rank: int) -> Path:
    return out / "chunks" / f"knock-{rank:02d}.parquet"


def spread_part_path(out: Path, part: int) -> Path:
    return out / "chunks" / f"spread-{part:02d}.parquet"


def task_path(out: Path, key: tuple[str, int]) -> Path:
    return {"chunk": chunk_path, "knock": knock_part_path, "spread": spread_part_path}[key[0]](out, key[1])


# -- files -----------------------------------------------------------------------------------
def _write_atomic(table: pa.Table, path: Path) -> None:
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def _open_folder(spec: TableSpec, out: Path, chunk_cells: int) -> dict:
    """Create the folder and its manifest, or check that it holds a build of the same settings."""
    (out / "chunks").mkdir(parents=True, exist_ok=True)
    manifest_path = out / "manifest.json"
    manifest = spec.manifest()
    manifest["chunk_cells"] = chunk_cells  # chunk files are numbered: a resume must cut the plan the same way
    if manifest_path.exists():
        previous = json.loads(manifest_path.read_text())
        if previous.get("chunk_cells") != chunk_cells:
            raise TableError(f"{out} was started with --chunk-cells {previous.get('chunk_cells')}: resume with the "
                             f"same value")
        for key, value in manifest.items():
            if previous.get(key) != value:
                raise TableError(f"{out} holds a build with other settings ({key} differs); use another --out "
                                 f"folder or remove it")
        for stale in (out / "chunks").glob("*.tmp*"):  # a write cut short by a kill
            stale.unlink(missing_ok=True)
        return previous
    manifest["version"] = package_version()
    manifest["stop_codes"] = {str(k): v for k, v in STOP_CODES.items()}
    # when it started: in a sidecar, not in the manifest, so a resumed build and an uninterrupted one write the very
    # same table.parquet (README: identical byte for byte)
    _write_json({"started": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")}, out / TIMINGS)
    _write_json(manifest, manifest_path)
    return manifest


def _write_json(data: dict, path: Path) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1))
    os.replace(tmp, path)


def _assemble(out: Path, count: int, manifest: dict) -> Path:
    """table.parquet from the chunk files, streamed (a table may not fit in memory), with the manifest."""
    final = out / "table.parquet"
    tmp = final.with_suffix(f".tmp{os.getpid()}")
    writer = None
    try:
        for i in range(count):
            part = pq.read_table(chunk_path(out, i))
            if writer is None:
                meta = {**(part.schema.metadata or {}), b"rumbaodds": json.dumps(manifest).encode()}
                writer = pq.ParquetWriter(tmp, part.schema.with_metadata(meta))
            writer.write_table(part.replace_schema_metadata(writer.schema.metadata))
    finally:
        if writer is not None:
            writer.close()
    os.replace(tmp, final)
    return final


def build_table(spec: TableSpec, out_dir: str | Path, chunk_cells: int = DEFAULT_CHUNK_CELLS,
                progress: Callable[[int, int], None] | None = None, with_knock: bool = True,
                scheduler: str = "local", workers: int | None = None, device="cpu") -> Path:
    """Build (or resume) the table of ``spec`` in ``out_dir``; returns the final Parquet path.

    ``scheduler``: ``"local"`` (this process, every core through Numba), ``"dask"`` (a LocalCluster of
    ``workers`` processes on this machine) or the address of a running Dask scheduler (``tcp://host:8786``).
    ``with_knock``: also the dealer's knock values per trump rank (``knock.parquet``) where the rules knock.
    ``device``: cpu, gpu or auto for the cells (knock values run on the CPU); the same table on either.
    """
    from .schedulers import check_scheduler, open_scheduler

    if chunk_cells < 1:
        raise TableError(f"--chunk-cells must be positive, got {chunk_cells}")
    check_scheduler(scheduler, workers)  # before anything is written
    if scheduler == "local":
        device = resolve_device(device)  # --device gpu without one: refused before anything is written
    out = Path(out_dir)
    manifest = _open_folder(spec, out, chunk_cells)
    total = total_cells(spec)
    count = n_chunks(spec, chunk_cells)
    final = out / "table.parquet"
    knock_final = out / "knock.parquet"
    knock_wanted = with_knock and spec.rules.knock and not knock_final.exists()
    keys = [] if final.exists() else [("chunk", i) for i in range(count) if not chunk_path(out, i).exists()]
    if knock_wanted:
        keys += [("knock", r) for r in knock_ranks(spec.rules) if not knock_part_path(out, r).exists()]
    spread_final = out / NEIGHBOURS
    spread_wanted = spec.neighbours is not None and not spread_final.exists()
    if spread_wanted:
        keys += [("spread", p) for p in range(CALIBRATION_PARTS) if not spread_part_path(out, p).exists()]
    pending = [chunk_range(spec, i, chunk_cells) for kind, i in keys if kind == "chunk"]
    done = total - sum(hi - lo for lo, hi in pending)
    if progress is not None:
        progress(done, total)
    if keys:
        task = functools.partial(run_task, spec, chunk_cells, device=device)
        with open_scheduler(scheduler, workers) as runner:
            for key, table in runner.run(task, keys, label=build_token(spec, chunk_cells)):
                _write_atomic(table, task_path(out, key))
                if key[0] == "chunk":
                    lo, hi = chunk_range(spec, key[1], chunk_cells)
                    done += hi - lo
                    if progress is not None:
                        progress(done, total)
    if not final.exists():
        _assemble(out, count, manifest)
        timings = out / TIMINGS
        record = json.loads(timings.read_text()) if timings.exists() else {}
        _write_json(record | {"finished": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")}, timings)
    if knock_wanted:
        parts = [pq.read_table(knock_part_path(out, r)) for r in knock_ranks(spec.rules)]
        _write_atomic(pa.concat_tables(parts), knock_final)
    if spread_wanted:
        _write_atomic(pa.concat_tables([pq.read_table(spread_part_path(out, p)) for p in range(CALIBRATION_PARTS)]),
                      spread_final)
    return final


__all__ = ["build_table", "compute_chunk", "knock_values", "run_task", "simulate_cells", "chunk_frame",
           "plan_rows", "total_cells", "calibration_part", "STOP_CODES", "DEFAULT_CHUNK_CELLS"]
