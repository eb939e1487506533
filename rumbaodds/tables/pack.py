"""Packed decision tables: what ``ask`` needs from a full table, in small integers, shipped in the package.

A packed table keeps, per cell of a FULL table (every seat and every
(trump rank, class) pair, in build order, so no key is stored: the row of a
hand is ``seat * pairs + pair row``, found by canonicalising the hand and a
``searchsorted``): the best choice, the runner-up and the best exchange (one
byte), the paired margin between the two and its 95% half-width, the Rumba's
success probability and the deal count. Values are quantised
(``round(value / scale)``, the scales are in the metadata; the error is at most
half a scale, 0.025 points and 0.25 percentage points, a twentieth of a typical
half-width), written with Parquet's byte-stream-split encoding and zstd: about
2.1-2.6 bytes per cell, 30-35 MB for the swiss tables of 3-7 players
(``python -m benchmarks.bench_tables`` measures it on blocks of real cells).

The expected values of single choices are not kept (they would double the
size): pass is 0, so where pass is the best choice or the runner-up the other
one's value is the margin itself, with its interval; where Rumba and play both
beat pass only their difference is known (``ask --simulate`` gives both).

A packed table answers only what its numbers answer: the unpenalised pass
(``--passes-in-a-row`` below the sit-out limit), no known words of the earlier
seats, no knock, and a decision between choices the situation allows;
anything else is simulated.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..analysis import AskResult, ChoiceResult, Situation, discard_cards
from ..cards import format_card
from ..handclasses import enumerate_trump_rank_pairs
from ..rules import RuleSet
from ..stats import Estimate
from .build import wilson
from .lookup import load_table, matches, pair_row, penalised, read_manifest
from .spec import TableError, numbers_problem

PACK_FORMAT = 1
SUFFIX = ".packed.parquet"
SHIPPED = Path(__file__).resolve().parent / "packed"  # packed tables that come with the package
KINDS = ("pass", "rumba", "play")
EV_SCALE = 0.05  # points per unit of the quantised margins and half-widths
P_SCALE = 1 / 200  # probability per unit of the quantised Rumba success probability
IMPOSSIBLE = 0x80  # code bit: no deal matched (the cell has no numbers)
# few distinct values (the looks): dictionary-encoded; the others byte-stream-split
DICTIONARY = ("code", "samples", "rumba_deals")


def _quantise(values: np.ndarray, scale: float, dtype) -> np.ndarray:
    info = np.iinfo(dtype)
    q = np.rint(np.asarray(values, dtype=np.float64) / scale)
    if q.size and (q.min() < info.min or q.max() > info.max):
        raise TableError(f"a value {q.min() * scale:g}..{q.max() * scale:g} does not fit {np.dtype(dtype).name} "
                         f"at scale {scale:g}")
    return q.astype(dtype)


def _unsigned(values: np.ndarray, scale: float):
    """Half-widths as uint8 where they all fit, else uint16 (never clipped: a clipped width would be a lie)."""
    top = float(np.nanmax(values)) / scale if len(values) else 0.0
    return _quantise(values, scale, np.uint8 if top <= 255 else np.uint16)


def pack_table(folder: str | Path, out: str | Path) -> Path:
    """Write the packed decision table of the full table in ``folder`` to ``out``; returns its path."""
    table = load_table(folder)
    m = table.manifest
    if m.get("cells") is not None:
        raise TableError(f"{table.path} holds a subset of the cells (--cells {m['cells']}): only a full table can be "
                         f"packed")
    problem = numbers_problem(m)
    if problem is not None:
        raise TableError(f"{table.path} cannot be packed: {problem}")
    f = table.frame
    rules = RuleSet(**m["rules"])
    pairs = len(enumerate_trump_rank_pairs(rules))
    if len(f) != pairs * m["players"] or not np.array_equal(f["cell"].to_numpy(), np.arange(len(f))):
        raise TableError(f"{table.path} does not hold every cell in build order")
    return pack_frame(f, m, pairs, out, str(table.path))


def pack_frame(f, manifest: dict, pairs: int, out: str | Path, source: str = "") -> Path:
    """Write the packed table of the cell frame ``f`` (every cell in build order) with ``manifest``."""
    manifest = dict(manifest)
    manifest["packed"] = {
        "format": PACK_FORMAT, "pairs": pairs, "source": source,
        "scales": {"margin": EV_SCALE, "margin_half": EV_SCALE, "p_success": P_SCALE},
        "code": "bits 0-1 best, 2-3 runner-up (0 pass, 1 rumba, 2 play), 4-6 best discard count, 7 impossible",
        "rows": "seat * pairs + pair row of enumerate_trump_rank_pairs(rules)",
    }
    return write_packed(packed_columns(f, manifest["max_samples"]), manifest, out)


def packed_columns(f, max_samples: int) -> dict[str, np.ndarray]:
    """The packed columns of the cell frame ``f`` (rows as in ``f``): what a packed table stores, quantised.

    Rows are packed one by one (a half-width column is uint16 only when some value needs it), so the packed values of
    a few recomputed cells equal the shipped ones (:mod:`.validity`).
    """
    kind = {"pass": 0, "pass!": 0, "rumba": 1, "play": 2}
    impossible = f["tries"].to_numpy() < 0
    code = (f["best"].map(kind).to_numpy(np.uint8) | (f["runner_up"].map(kind).to_numpy(np.uint8) << 2)
            | (f["best_discards"].to_numpy(np.uint8) << 4) | np.where(impossible, IMPOSSIBLE, 0).astype(np.uint8))
    columns = {
        "code": code.astype(np.uint8),
        "margin": _quantise(f["margin"], EV_SCALE, np.int16),
        "margin_half": _unsigned(f["margin_half"], EV_SCALE),
        "p_success": _quantise(f["p_success"], P_SCALE, np.uint8),
        "samples": f["samples"].to_numpy().astype(np.uint16 if max_samples <= 65535 else np.uint32),
    }
    # the deals of the Rumba (fewer than samples: dropped, clearly worse than pass and play): its success's n
    columns["rumba_deals"] = f["ev_rumba_deals"].to_numpy().astype(columns["samples"].dtype)
    if not np.allclose(f["ess"].to_numpy(), f["samples"].to_numpy(), rtol=0, atol=0.5):  # weighted samples
        columns["ess"] = f["ess"].to_numpy().round().astype(columns["samples"].dtype)
    return columns


def write_packed(columns: dict[str, np.ndarray], manifest: dict, out: str | Path) -> Path:
    """Write packed ``columns`` with ``manifest`` as the Parquet metadata (atomically); returns the path."""
    arrow = pa.table(columns).replace_schema_metadata({b"rumbaodds": json.dumps(manifest).encode()})
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + f".tmp{os.getpid()}")
    split = [name for name in columns if name not in DICTIONARY]  # byte-stream-split needs pyarrow >= 17
    pq.write_table(arrow, tmp, compression="zstd", compression_level=19, use_dictionary=list(DICTIONARY),
                   column_encoding={name: "BYTE_STREAM_SPLIT" for name in split}, row_group_size=1 << 22)
    os.replace(tmp, out)
    return out


def restamp(path: str | Path, manifest: dict) -> Path:
    """Rewrite a packed table's manifest (its Parquet metadata) and nothing else: the decoded columns stay the same.

    How the shipped tables moved from the numbers digest to the numbers version without a rebuild.
    """
    path = Path(path)
    table = pq.read_table(path)
    columns = {name: table.column(name).to_numpy() for name in table.column_names}
    write_packed(columns, manifest, path)
    again = pq.read_table(path)
    if again.column_names != table.column_names or not all(again.column(n).equals(table.column(n))
                                                           for n in table.column_names):
        raise TableError(f"{path}: the columns changed on rewriting the metadata")  # pragma: no cover
    return path


@dataclass(frozen=True, eq=False)
class PackedTable:
    path: Path
    manifest: dict
    columns: dict[str, np.ndarray]

    @property
    def pairs(self) -> int:
        return int(self.manifest["packed"]["pairs"])

    def value(self, name: str, row: int) -> float:
        return float(self.columns[name][row]) * self.manifest["packed"]["scales"][name]


@functools.lru_cache(maxsize=16)
def _load(path: str, mtime: int) -> PackedTable:
    table = pq.read_table(path)
    manifest = json.loads(table.schema.metadata[b"rumbaodds"])
    if manifest.get("packed", {}).get("format") != PACK_FORMAT:
        raise TableError(f"{path} is not a packed table of format {PACK_FORMAT}")
    columns = {name: table.column(name).to_numpy() for name in table.column_names}
    return PackedTable(Path(path), manifest, columns)


def load_packed(path: str | Path) -> PackedTable:
    """A packed table, read once per process (cached by path and modification time)."""
    path = Path(path)
    return _load(str(path), path.stat().st_mtime_ns)


def find_packed(root: str | Path | None = None) -> list[Path]:
    """Packed tables in ``root`` (and one level down), then the ones shipped in the package."""
    found = []
    if root is not None and Path(root).is_dir():
        root = Path(root)
        found += sorted(root.glob(f"*{SUFFIX}")) + sorted(root.glob(f"*/*{SUFFIX}"))
    if SHIPPED.is_dir():
        found += sorted(SHIPPED.glob(f"*{SUFFIX}"))
    return found


def answer_from_packed(packed: PackedTable, situation: Situation, opponents, play: str):
    """An AskResult from a packed table (source "packed table"), or None when it does not answer the situation."""
    if not matches(packed.manifest, situation, opponents, play) or penalised(situation):
        return None
    try:
        row = situation.seat * packed.pairs + pair_row(situation)
    except KeyError:
        return None
    code = int(packed.columns["code"][row])
    if code & IMPOSSIBLE:
        return None
    n = int(packed.columns["samples"][row])
    ess = float(packed.columns["ess"][row]) if "ess" in packed.columns else float(n)

    def est(name: str) -> Estimate:
        mean, half = packed.value(name, row), packed.value(name + "_half", row)
        return Estimate(mean, mean - half, mean + half, n)

    best, runner, k = KINDS[code & 3], KINDS[(code >> 2) & 3], (code >> 4) & 7
    allowed = {choice.action for choice in situation.choices()}
    if best not in allowed or runner not in allowed:  # e.g. pass is not open to him: another decision
        return None
    margin = est("margin")
    negative = Estimate(-margin.mean, -margin.high, -margin.low, n)
    known = {"pass": Estimate(0.0, 0.0, 0.0, n)}
    if best == "pass":
        known[runner] = margin
    elif runner == "pass":
        known[best] = negative
    p = packed.value("p_success", row)
    rumba_n = int(packed.columns["rumba_deals"][row]) if "rumba_deals" in packed.columns else n
    # Wilson over the Rumba's own (effective) deals; the full table's counts the played ones only (not kept here)
    low, high = wilson(np.array([p]), np.array([ess * rumba_n / n]))
    p_success = Estimate(p, float(low[0]), float(high[0]), rumba_n)
    discard = discard_cards(situation.hand, k, situation.trump, situation.rules)
    options: dict[str, ChoiceResult] = {}  # the choices whose expected value the packed table knows
    for name in situation.choices():
        if name in ("pass", "throw-in"):
            options[name] = ChoiceResult(name, known["pass"])
        elif name == "rumba" and "rumba" in known:  # its success probability is in ``meta`` (no outcomes kept)
            options[name] = ChoiceResult(name, known["rumba"])
        elif name.is_play and name.exchanged == k and "play" in known:
            options[name] = ChoiceResult(name, known["play"], discard=discard)
    result = AskResult(situation, opponents, play, int(packed.manifest["seed"]), n, None, options, best, runner,
                       margin)
    result.meta = {"source": "packed table", "table": str(packed.path), "cell": row,
                   "p_success": [p_success.mean, p_success.low, p_success.high],
                   "best_discards": k, "discard": [format_card(c) for c in discard]}
    return result


def packed_size(path: str | Path) -> dict:
    """Bytes on disk, cells and bytes per cell of a packed table."""
    path = Path(path)
    manifest = read_manifest(path)
    cells = manifest["packed"]["pairs"] * manifest["players"]
    size = path.stat().st_size
    return {"path": str(path), "bytes": size, "cells": cells, "bytes_per_cell": size / cells}


__all__ = ["pack_table", "pack_frame", "packed_columns", "write_packed", "restamp", "load_packed", "find_packed",
           "answer_from_packed", "packed_size", "PackedTable"]
