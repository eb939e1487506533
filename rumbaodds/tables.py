"""Strategy tables: every seat, trump rank and hand class, simulated once and kept as Parquet.

A table answers ``ask`` instantly for any hand (hands are looked up through
their class, :mod:`.handclasses`). Builds are long, so they are written chunk
by chunk: a build killed at any moment and started again with the same
command recomputes no finished chunk, and ends with a table identical to an
uninterrupted build (each cell's deals depend only on the seed and the cell's
place in the plan, see :mod:`.engine.table`).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .analysis import POLICIES, AskResult, ChoiceResult, Situation, _discards
from .cards import RANKS, SUITS, mask_of
from .engine import SOURCE_DIGEST
from .engine import hand as hand_kernel
from .engine.table import COL_PASS_PENALISED, COL_PLAY, COL_RUMBA, table_cells
from .handclasses import canonical_hand, enumerate_trump_rank_pairs
from .models import OpponentModel, hand_points
from .results import RumbaOutcomes
from .rules import RulesError, RuleSet
from .stats import Estimate

TABLE_FORMAT = 1


def package_version() -> str:
    try:
        return version("rumbaodds")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0+unknown"


class TableError(RulesError):
    """A table folder that cannot be used as asked; the message says why."""


@dataclass(frozen=True)
class TableSpec:
    """Everything that determines a table's numbers."""

    rules: RuleSet
    players: int
    opponents: OpponentModel
    play: str = "expert"
    samples_per_cell: int = 1_000
    seed: int = 0
    cells: int | None = None  # a weighted random subset of (trump rank, class) pairs; None: all of them

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)
        if self.play not in POLICIES:
            raise RulesError(f"unknown card play {self.play!r} (use {' or '.join(POLICIES)})")
        if self.samples_per_cell < 2:
            raise RulesError(f"--samples-per-cell must be at least 2, got {self.samples_per_cell}")
        if self.cells is not None and self.cells < 1:
            raise RulesError(f"--cells must be positive, got {self.cells}")

    def manifest(self) -> dict:
        return {
            "format": TABLE_FORMAT,
            "engine": SOURCE_DIGEST,  # the source that computed it: tables of other code are never reused
            "rules": self.rules.to_dict(),
            "players": self.players,
            "opponents": self.opponents.to_dict(),
            "play": self.play,
            "samples_per_cell": self.samples_per_cell,
            "seed": self.seed,
            "cells": self.cells,
            "exchange_rule": "opponents exchange their cards of keep value below discard_below; the asking player's "
                             "play is reported for its best discard count (docs/SIMULATION.md)",
            "passes_in_a_row": 0,
            "penalised_pass": "ev_pass_penalised: passing when this pass reaches the sit-out limit",
        }


def _plan(spec: TableSpec):
    """Cells in build order: seat-major, then (trump rank, class) pairs."""
    pairs = enumerate_trump_rank_pairs(spec.rules)
    rows = np.arange(len(pairs), dtype=np.int64)
    if spec.cells is not None and spec.cells < len(pairs):
        rng = np.random.default_rng(spec.seed)
        weights = pairs.weights / pairs.weights.sum()
        rows = np.sort(rng.choice(len(pairs), size=spec.cells, replace=False, p=weights))
    seats = np.repeat(np.arange(spec.players, dtype=np.int64), len(rows))
    pair_rows = np.tile(rows, spec.players)
    return pairs, seats, pair_rows


def _excluded_by_trump_rank(rules: RuleSet, policy, trump_suit: int) -> np.ndarray:
    """Per turned rank: the two of trump no earlier seat holds (he would have swapped it), else -1 (see
    conditioning.excluded_card; the kernel drops it where the hero holds the two himself)."""
    from .conditioning import excluded_card

    out = np.full((policy.players, 16), -1, dtype=np.int64)
    for s in range(policy.players):
        for r in rules.ranks:
            card = trump_suit * 16 + RANKS.index(r)
            out[s, RANKS.index(r)] = excluded_card(rules, (), card, False, -1, policy.swaps(s))
    return out


def _write_atomic(table: pa.Table, path: Path) -> None:
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def _chunk_frame(spec: TableSpec, pairs, seats, pair_rows, first: int, results) -> pd.DataFrame:
    means, halves, success, uncontested, void, lone_play, tricks, best, runner, margin, margin_half, tries = results
    rules = spec.rules
    samples = spec.samples_per_cell
    classes = pairs.classes
    class_rows = pairs.class_rows[pair_rows]
    hands = classes.hands[class_rows]
    trump = classes.trump_suit
    top = RANKS.index(rules.ranks[-1])
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
        "hand_points": np.array([hand_points([c for c in range(64) if (int(h) >> c) & 1], trump, top)
                                 for h in hands], dtype=np.int16),
    })
    throw_below = RANKS.index(rules.throw_in_below)
    low_ranks = sum(1 << r for r in range(throw_below))
    low_mask = sum(low_ranks << (16 * s) for s in range(4))
    frame["throw_in_allowed"] = rules.throw_in & ((hands & ~np.uint64(low_mask)) == 0)
    frame["ev_pass_penalised"] = means[:, COL_PASS_PENALISED]
    frame["ev_pass_penalised_half"] = halves[:, COL_PASS_PENALISED]
    frame["ev_rumba"] = means[:, COL_RUMBA]
    frame["ev_rumba_half"] = halves[:, COL_RUMBA]
    # p_success: made + uncontested over the Rumbas played (not voided, not refused), as ask reports it
    wilson = [Estimate.of_proportion(int(s), max(1, samples - int(v) - int(lp)))
              for s, v, lp in zip(success, void, lone_play)]
    frame["p_success"] = [w.mean for w in wilson]
    frame["p_success_low"] = [w.low for w in wilson]
    frame["p_success_high"] = [w.high for w in wilson]
    frame["p_uncontested"] = uncontested / samples
    frame["p_void"] = void / samples  # a later throw-in voided the called Rumba
    frame["p_lone_play"] = lone_play / samples  # the Rumba was not allowed: he plays alone
    contested_share = tricks.sum(axis=1) / samples
    made = tricks[:, rules.rumba_min_tricks:].sum(axis=1) / samples
    frame["p_made"] = made
    frame["p_lost"] = contested_share - made
    contested = np.maximum(1, tricks.sum(axis=1, keepdims=True))
    for t in range(6):
        frame[f"tricks_{t}"] = (tricks[:, t:t + 1] / contested)[:, 0].astype(np.float32)
    plays = means[:, COL_PLAY:]
    for k in range(plays.shape[1]):
        frame[f"ev_play{k}"] = plays[:, k]
        frame[f"ev_play{k}_half"] = halves[:, COL_PLAY + k]
    best_k = plays.argmin(axis=1)
    frame["best_discards"] = best_k.astype(np.int8)
    frame["ev_play"] = plays[np.arange(len(plays)), best_k]
    frame["ev_play_half"] = halves[np.arange(len(plays)), COL_PLAY + best_k]
    label = np.array(["pass", "pass!", "rumba"] + ["play"] * plays.shape[1])
    frame["best"] = label[best]
    frame["runner_up"] = label[runner]
    frame["margin"] = margin
    frame["margin_half"] = margin_half
    frame["samples"] = np.int32(samples)
    frame["tries"] = tries.astype(np.float32)
    return frame


def build_table(spec: TableSpec, out_dir: str | Path, chunk_cells: int = 20_000,
                progress: Callable[[int, int], None] | None = None, with_knock: bool = True) -> Path:
    """Build (or resume) the table of ``spec`` in ``out_dir``; returns the final Parquet path.

    ``with_knock``: also the dealer's knock values per trump rank (``knock.parquet``) where the rules knock.
    """
    out = Path(out_dir)
    chunks_dir = out / "chunks"
    chunks_dir.mkdir(parents=True, exist_ok=True)
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
        manifest = previous
        for stale in chunks_dir.glob("chunk-*.tmp*"):  # a write cut short by a kill
            stale.unlink(missing_ok=True)
    else:
        manifest["started"] = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
        manifest["version"] = package_version()
        tmp = manifest_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(manifest, indent=1))
        os.replace(tmp, manifest_path)
    pairs, seats, pair_rows = _plan(spec)
    total = len(seats)
    n_chunks = (total + chunk_cells - 1) // chunk_cells
    rules = spec.rules
    rp = hand_kernel.rules_array(rules)
    policy = spec.opponents.policy(rules, spec.players)
    excluded = _excluded_by_trump_rank(rules, policy, pairs.classes.trump_suit)
    penalised = max(0, rules.sit_out_limit - 1)
    trump = pairs.classes.trump_suit
    done = sum(min(chunk_cells, total - i * chunk_cells) for i in range(n_chunks)
               if (chunks_dir / f"chunk-{i:05d}.parquet").exists())
    if progress is not None:
        progress(done, total)
    for i in range(n_chunks):
        path = chunks_dir / f"chunk-{i:05d}.parquet"
        if path.exists():
            continue
        lo, hi = i * chunk_cells, min(total, (i + 1) * chunk_cells)
        class_rows = pairs.class_rows[pair_rows[lo:hi]]
        hands = pairs.classes.hands[class_rows].astype(np.uint64)
        trump_cards = (trump * 16 + pairs.trump_ranks[pair_rows[lo:hi]]).astype(np.int64)
        results = table_cells(np.uint64(rules.deck_mask), rules.deck_array(), hands, trump_cards,
                              seats[lo:hi].copy(), spec.players, rp, policy.as_tuple(), POLICIES[spec.play],
                              penalised, rules.exchange_limit, np.uint64(spec.seed), lo, spec.samples_per_cell,
                              rules.rumba_min_tricks, excluded)
        frame = _chunk_frame(spec, pairs, seats[lo:hi], pair_rows[lo:hi], lo, results)
        _write_atomic(pa.Table.from_pandas(frame, preserve_index=False), path)
        done += hi - lo
        if progress is not None:
            progress(done, total)
    final = out / "table.parquet"
    if not final.exists():
        parts = [pq.read_table(chunks_dir / f"chunk-{i:05d}.parquet") for i in range(n_chunks)]
        table = pa.concat_tables(parts)
        meta = {b"rumbaodds": json.dumps(manifest).encode()}
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), **meta})
        _write_atomic(table, final)
    if with_knock and rules.knock and not (out / "knock.parquet").exists():
        _write_atomic(pa.Table.from_pandas(knock_values(spec), preserve_index=False), out / "knock.parquet")
    return final


def knock_values(spec: TableSpec, samples: int | None = None, inner: int = 200) -> pd.DataFrame:
    """The dealer's knock against no knock for every trump rank (rumbaodds.analysis.knock per rank)."""
    from .analysis import knock

    rules = spec.rules
    trump = enumerate_trump_rank_pairs(rules).classes.trump_suit
    rows = []
    for r in rules.ranks:
        card = f"{SUITS[trump]}{r}"
        result = knock(card, spec.players, rules, spec.opponents, spec.play,
                       samples=samples or max(500, spec.samples_per_cell * 4), seed=spec.seed, inner_samples=inner)
        rows.append({"trump_rank": RANKS.index(r), "ev_knock": result.knock.mean, "ev_knock_low": result.knock.low,
                     "ev_knock_high": result.knock.high, "ev_no_knock": result.no_knock.mean,
                     "ev_no_knock_low": result.no_knock.low, "ev_no_knock_high": result.no_knock.high,
                     "gain": result.margin.mean, "gain_low": result.margin.low, "gain_high": result.margin.high,
                     "p_success": result.p_success.mean, "samples": result.samples, "inner_samples": inner})
    return pd.DataFrame(rows)


# -- reading tables ---------------------------------------------------------------------
@dataclass
class Table:
    path: Path
    manifest: dict
    frame: pd.DataFrame
    knock: pd.DataFrame | None

    @property
    def rules(self) -> RuleSet:
        data = dict(self.manifest["rules"])
        return RuleSet(**data)

    @property
    def players(self) -> int:
        return int(self.manifest["players"])

    def describe(self) -> str:
        m = self.manifest
        return (f"{self.path} ({m['rules']['name']}, {m['players']} players, opponents {m['opponents']['name']}, "
                f"play {m['play']}, {m['samples_per_cell']:,} deals per cell, seed {m['seed']})")


def load_table(folder: str | Path) -> Table:
    folder = Path(folder)
    path = folder / "table.parquet" if folder.is_dir() else folder
    if not path.exists():
        raise TableError(f"no finished table at {path} (build it with `rumbaodds tables build`)")
    table = pq.read_table(path)
    manifest = json.loads(table.schema.metadata[b"rumbaodds"])
    knock_path = path.parent / "knock.parquet"
    knock = pq.read_table(knock_path).to_pandas() if knock_path.exists() else None
    return Table(path, manifest, table.to_pandas(), knock)


def find_tables(root: str | Path) -> list[Path]:
    """Finished table folders under ``root`` (the folder itself or one level down)."""
    root = Path(root)
    if not root.is_dir():
        return []
    found = [root] if (root / "table.parquet").exists() else []
    found += sorted(p for p in root.iterdir() if p.is_dir() and (p / "table.parquet").exists())
    return found


def matches(manifest: dict, situation: Situation, opponents: OpponentModel, play: str) -> bool:
    """Would this table's numbers be the answer to ``situation``?"""
    return (manifest.get("engine") == SOURCE_DIGEST
            and manifest["rules"] == situation.rules.to_dict() and manifest["players"] == situation.players
            and manifest["opponents"] == opponents.to_dict() and manifest["play"] == play
            and not situation.dealer_knocked and situation.swapped_by is None
            and all(w == "-" for w in situation.before))


def table_cell(table: Table, situation: Situation) -> pd.Series | None:
    """The row answering ``situation`` (any trump suit, any side-suit order), or None if not in the table."""
    rules = situation.rules
    classes_trump = enumerate_trump_rank_pairs(rules).classes.trump_suit
    mask = mask_of(situation.hand)
    if situation.trump != classes_trump:  # swap the trump suit onto the table's trump suit
        a, b = situation.trump, classes_trump
        lane_a = (mask >> (16 * a)) & 0xFFFF
        lane_b = (mask >> (16 * b)) & 0xFFFF
        mask = mask & ~((0xFFFF << (16 * a)) | (0xFFFF << (16 * b))) | (lane_a << (16 * b)) | (lane_b << (16 * a))
    canon = canonical_hand(mask, classes_trump, rules)
    frame = table.frame
    hit = frame[(frame["seat"] == situation.seat) & (frame["trump_rank"] == situation.trump_card % 16)
                & (frame["hand"] == np.uint64(canon))]
    return None if hit.empty else hit.iloc[0]


def answer_from_table(table: Table, situation: Situation, opponents: OpponentModel, play: str) -> AskResult | None:
    """An AskResult read from the table, or None when the table does not cover the situation."""
    if not matches(table.manifest, situation, opponents, play):
        return None
    penalised = situation.rules.sit_out_limit > 0 and situation.passes_in_a_row + 1 >= situation.rules.sit_out_limit
    row = table_cell(table, situation)
    if row is None:
        return None
    n = int(row["samples"])

    def est(mean: float, half: float) -> Estimate:
        return Estimate(float(mean), float(mean - half), float(mean + half), n)

    options: dict[str, ChoiceResult] = {}
    names = situation.choices()
    for name in names:
        if name == "pass":
            options[name] = ChoiceResult(name, est(row["ev_pass_penalised"], row["ev_pass_penalised_half"])
                                         if penalised else Estimate(0.0, 0.0, 0.0, n))
        elif name == "throw-in":
            options[name] = ChoiceResult(name, Estimate(0.0, 0.0, 0.0, n))
        elif name == "rumba":
            options[name] = ChoiceResult(
                name, est(row["ev_rumba"], row["ev_rumba_half"]),
                p_success=Estimate(float(row["p_success"]), float(row["p_success_low"]), float(row["p_success_high"]),
                                   n),
                outcomes=RumbaOutcomes(float(row["p_made"]), float(row["p_lost"]), float(row["p_uncontested"]),
                                       float(row["p_void"]), float(row["p_lone_play"])),
                tricks=tuple(float(row[f"tricks_{t}"]) for t in range(6)))
        else:
            k = int(name[4:])
            options[name] = ChoiceResult(name, est(row[f"ev_play{k}"], row[f"ev_play{k}_half"]),
                                         discard=_discards(situation.hand, k, situation.trump, situation.rules))
    ranked = sorted(options, key=lambda name: options[name].ev.mean)
    kind = lambda name: "play" if name.startswith("play") else name  # noqa: E731
    best = ranked[0]
    runner = next((x for x in ranked[1:] if kind(x) != kind(best)), None)
    margin = None
    if runner is not None:
        if penalised or {kind(best), kind(runner)} != {row["best"], row["runner_up"]}:
            # the stored margin is for the unpenalised choice set; give the unpaired difference
            a, b = options[runner].ev, options[best].ev
            half = float(np.hypot(a.half_width, b.half_width))
            margin = Estimate(a.mean - b.mean, a.mean - b.mean - half, a.mean - b.mean + half, n)
        else:
            margin = est(row["margin"], row["margin_half"])
    result = AskResult(situation, opponents, play, int(table.manifest["seed"]), n, float(row["tries"]), options,
                       kind(best), None if runner is None else kind(runner), margin)
    result.meta = {"source": "table", "table": str(table.path), "cell": int(row["cell"])}
    return result


__all__ = ["TableSpec", "Table", "TableError", "build_table", "load_table", "find_tables", "answer_from_table",
           "knock_values"]
