"""Packed tables: every value ``ask`` shows, from a full table, in small integers, shipped in the package.

A packed table keeps, per cell of a FULL table (every seat and every (trump rank, class) pair, in build order, so
no key is stored: the row of a hand is ``seat * pairs + pair row``, found by canonicalising the hand and a
``searchsorted``), in format 2 (:data:`PACK_FORMAT`):

- ``code``: the best choice, the runner-up, the best exchange (its discard count), "no deal matched", whether the
  exchange is *resolved*, and the share of the Rumba's deals not played (voided or refused);
- the expected value and 95% half-width of play (with its best exchange) and of the Rumba (pass is 0);
- the paired margin between the best choice and the runner-up with its half-width: where pass is one of them,
  the other one's value and interval themselves (pass is 0 on every deal, so that is the paired margin);
  otherwise stored;
- the Rumba's success probability, its Wilson interval recomputed over the deals on which it was played;
- the deals of the cell and of the Rumba (as look numbers where every count is one of the table's looks),
  and the effective sample size where the deals were weighted;
- in the metadata, the dealer's knock against no knock per trump rank where the full table has ``knock.parquet``
  (a few rows: no cost), and the :class:`Codec` that rounded the numbers.

**Resolved exchange.** The full table keeps no paired difference between two exchanges, only which exchanges it
stopped simulating because they were more than ``z_stop`` standard errors worse than the best play on the same
deals (engine/table.py, dropped columns). So the rule is conservative: the best exchange is resolved only where
every other exchange was dropped that way. A cell that stopped before that (nearly all do: their decision is clear
after 32-72 deals) keeps "not resolved", and the answer pipeline then never names its exchange without simulating
(:mod:`rumbaodds.answer`).

**Rounding** (:class:`Codec`): values within a quarter of their half-width, half-widths never narrower than the
full table's and at most 20% wider, the Rumba's success within 1/16 of its Wilson half-width at 1/2 with an
interval that holds every value the rounding stands for. ``tests/test_tables_pack.py`` checks every cell against
its full table.

**Size and the 40 MB budget.** Measured on contiguous blocks of 1,000 real swiss cells per seat at 3, 5 and 7
players, scaled by how the shipped format-1 files compress against format 1 on the same blocks
(``python -m benchmarks.bench_answers --pack``): 2.97, 2.85 and 2.77 bytes per cell, about 38.3 MB for the five
swiss tables (13.65 M cells; blocks of 300 cells per seat project 41.2 MB: small blocks compress worse, so the
whole tables should land at or below the first figure). To fit, format 2 leaves out, cheapest loss first:

- the penalised pass (the sit-out pass, asked only with ``--passes-in-a-row`` at the limit; 0.6 bytes per cell):
  a table does not answer it, a simulation does in seconds;
- the identity of the second-best exchange (0.1-0.2 bytes per cell): where play is recommended and the exchange
  is not resolved, the pipeline simulates and names both from the simulation; where play is not recommended the
  answer says "exchange: not resolved";
- the Rumba's outcome shares and trick distribution (a simulation shows them).

If the rebuilt tables run over, ``pack_table(..., codec=COARSE)`` rounds half-widths up to 20% steps and means to
0.3 of their half-width: about 6% smaller (36.1 MB on the same blocks).

Format 1 (the decision only: best, runner-up, best exchange, the margin and its half-width, the Rumba's success)
is still read, so the tables shipped before the rebuild answer; what format 1 lacks (the values of play and Rumba
where neither is the pass, any resolved exchange) the pipeline simulates.

A packed table answers only what its numbers answer: the unpenalised pass (``--passes-in-a-row`` below the
sit-out limit), no known words of the earlier seats, no knock, and a decision between choices the situation
allows; anything else is simulated.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..answer.results import ExchangeCall
from ..answer.simulation import AskResult, ChoiceResult, Situation
from ..cards import RANKS, SUITS
from ..game import Choice
from ..rules import RuleSet
from ..stats import Z95, Estimate
from .build import NEIGHBOURS, TIMINGS, wilson
from .group_model import GroupModel, design, member_cell, rank
from .groups import group_index, groups_meta, standardised
from .handclasses import enumerate_trump_rank_pairs
from .lookup import load_table, matches, pair_row, penalised, read_manifest, table_discard
from .neighbours import representative_pair, representative_rows
from .spec import TableError, numbers_problem

PACK_FORMAT = 2  # what pack_table writes
READABLE = (1, 2)  # what load_packed reads
SUFFIX = ".packed.parquet"
SHIPPED = Path(__file__).resolve().parent / "packed"  # packed tables that come with the package
KINDS = ("pass", "rumba", "play")
EV_SCALE = 0.05  # points per unit: format 1's values, format 2's finest step
P_SCALE = 1 / 200  # format 1: probability per unit of the quantised Rumba success probability
IMPOSSIBLE = 0x80  # code bit: no deal matched (the cell has no numbers)
RESOLVED = 0x100  # format 2 code bit: every other exchange was dropped as clearly worse than the best one
UNPLAYED_SHIFT = 9  # format 2 code bits 9-11: the Rumba's deals not played (voided, refused), in 16ths, rounded up


@dataclass(frozen=True)
class Codec:
    """How format 2 rounds its numbers (kept in the manifest, so a table is read the way it was written).

    A half-width is stored as the per-deal spread sigma = half * sqrt(deals) / 1.96 (the deals are known), rounded UP
    to ``sigma0 * sigma_step^q``: never narrower than the full table's, at most ``sigma_step - 1`` wider. A mean is
    stored in steps of ``half_fraction`` of its stored half-width (at least EV_SCALE): the error, uniform and at most
    ``half_fraction / 2`` of the half-width, adds ``(1.96 * half_fraction)^2 / 12`` to the variance in units of the
    estimate's, so every half-width is first widened by :attr:`inflation` (3.9% at 1/2). The Rumba's success is
    stored in steps of ``p_step / sqrt(played deals)`` (1/8 of a Wilson half-width at 1/2, at least P_SCALE), and the
    share of its deals not played in ``unplayed_parts``-ths, rounded up (its Wilson interval counts no more deals
    than were played).
    """

    sigma0: float = 0.05
    sigma_step: float = 1.15
    half_fraction: float = 0.5
    p_step: float = 0.245
    unplayed_parts: int = 16

    @property
    def inflation(self) -> float:
        return float(np.sqrt(1.0 + (Z95 * self.half_fraction) ** 2 / 12.0))

    def sigma_code(self, half, deals) -> np.ndarray:
        """The half-width code: the per-deal spread (widened by the inflation) in sigma_step steps, rounded up."""
        sigma = self.inflation * np.nan_to_num(np.asarray(half, dtype=np.float64)) * np.sqrt(deals) / Z95
        q = np.ceil(np.log(np.maximum(sigma, self.sigma0) / self.sigma0) / np.log(self.sigma_step) - 1e-9)
        return np.maximum(q, 0).astype(np.uint8)

    def sigma_half(self, code, deals) -> np.ndarray:
        return Z95 * self.sigma0 * self.sigma_step ** np.asarray(code, dtype=np.float64) / np.sqrt(np.maximum(deals, 1))

    def mean_step(self, half) -> np.ndarray:
        return np.maximum(EV_SCALE, self.half_fraction * np.asarray(half, dtype=np.float64))

    def p_step_of(self, played) -> np.ndarray:
        return np.maximum(P_SCALE, self.p_step / np.sqrt(np.maximum(np.asarray(played, dtype=np.float64), 1)))


CODEC = Codec()  # measured: about 2.8-3.0 bytes per cell, 38.3 MB for the five swiss tables (module docstring)
COARSE = Codec(sigma_step=1.2, half_fraction=0.6)  # if a rebuild overruns the budget: about 6% smaller (36.1 MB)
# few distinct values: dictionary-encoded; the others byte-stream-split
DICTIONARY = ("code", "looks", "samples", "rumba_deals")


def _quantise(values, scale, dtype) -> np.ndarray:
    """``round(values / scale)`` (``scale`` a number or one per value) as ``dtype``, refusing what does not fit."""
    info = np.iinfo(dtype)
    q = np.rint(np.asarray(values, dtype=np.float64) / scale)
    q = np.where(np.isfinite(q), q, 0)  # an impossible cell has no numbers
    if q.size and (q.min() < info.min or q.max() > info.max):
        raise TableError(f"a value does not fit {np.dtype(dtype).name} at its scale ({q.min()}..{q.max()} steps)")
    return q.astype(dtype)


def _unsigned(values, scale: float, up: bool = False):
    """Half-widths as uint8 where they all fit, else uint16 (never clipped: a clipped width would be a lie).

    ``up``: rounded up (format 2: a stored half-width is never narrower than the full table's)."""
    values = np.nan_to_num(np.asarray(values, dtype=np.float64))
    q = np.ceil(values / scale - 1e-9) if up else np.rint(values / scale)
    return q.astype(np.uint8 if (q.max() if q.size else 0) <= 255 else np.uint16)


def pack_table(folder: str | Path, out: str | Path, fmt: int = PACK_FORMAT, codec: Codec = CODEC) -> Path:
    """Write the packed table of the full table in ``folder`` to ``out``; returns its path."""
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
    groups = None
    if m.get("neighbours"):  # one cell per neighbour group, and the calibration of their distance (tables/groups.py)
        below = m["neighbours"]["below"]
        pairs = len(representative_rows(rules, below))
        calibration = Path(table.path).parent / NEIGHBOURS
        if not calibration.exists():
            raise TableError(f"{table.path} has no {NEIGHBOURS}: run the same build command again to finish it")
        groups = groups_meta(standardised(pq.read_table(calibration).to_pandas()), rules, below)
    else:
        pairs = len(enumerate_trump_rank_pairs(rules))
    if len(f) != pairs * m["players"] or not np.array_equal(f["cell"].to_numpy(), np.arange(len(f))):
        raise TableError(f"{table.path} does not hold every cell in build order")
    knock = None if table.knock is None else table.knock.to_dict(orient="records")
    timings = Path(table.path).parent / TIMINGS  # when the build ran (a sidecar): kept for bench_tables, not compared
    built = json.loads(timings.read_text()) if timings.exists() else None
    return pack_frame(f, m, pairs, out, str(table.path), knock=knock, fmt=fmt, codec=codec, groups=groups,
                      built=built)


def table_looks(manifest: dict) -> list[int]:
    """The deal counts at which a table's cells may stop (its looks; one for a fixed-size table)."""
    if manifest.get("samples_per_cell"):
        return [int(manifest["samples_per_cell"])]
    stopping = manifest.get("stopping") or {}
    return [int(x) for x in stopping.get("looks", [])]


def pack_frame(f, manifest: dict, pairs: int, out: str | Path, source: str = "", knock: list[dict] | None = None,
               fmt: int = PACK_FORMAT, codec: Codec = CODEC, groups: dict | None = None,
               built: dict | None = None) -> Path:
    """Write the packed table of the cell frame ``f`` (every cell in build order) with ``manifest``.

    ``knock``: the full table's knock rows (format 2 keeps them in the metadata). ``groups``: a neighbour-group
    table's groups and distance (:func:`.groups.groups_meta`). ``built``: when the build ran (its ``timings.json``).
    """
    manifest = dict(manifest)
    columns = packed_columns(f, manifest["max_samples"], fmt, table_looks(manifest), codec)
    manifest["packed"] = packed_meta(fmt, pairs, source, table_looks(manifest) if "looks" in columns else None, codec)
    if knock is not None and fmt >= 2:
        manifest["packed"]["knock"] = [{k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
                                       for row in knock]
    if groups is not None:
        manifest["packed"]["neighbours"] = groups
        manifest["packed"]["rows"] = groups["rows"]
    if built is not None:
        manifest["packed"]["built"] = built
    return write_packed(columns, manifest, out)


def packed_meta(fmt: int, pairs: int, source: str = "", looks: list[int] | None = None, codec: Codec = CODEC) -> dict:
    """The ``packed`` entry of a packed table's manifest: how to read its columns."""
    if fmt == 1:
        return {"format": 1, "pairs": pairs, "source": source,
                "scales": {"margin": EV_SCALE, "margin_half": EV_SCALE, "p_success": P_SCALE},
                "code": "bits 0-1 best, 2-3 runner-up (0 pass, 1 rumba, 2 play), 4-6 best discard count, 7 impossible",
                "rows": "seat * pairs + pair row of enumerate_trump_rank_pairs(rules)"}
    return {"format": fmt, "pairs": pairs, "source": source, "looks": looks,
            "code": "bits 0-1 best, 2-3 runner-up (0 pass, 1 rumba, 2 play), 4-6 best discard count, 7 impossible, "
                    "8 exchange resolved, 9-11 the Rumba's deals not played in 16ths (rounded up)",
            "looks_column": "bits 0-3 the look of samples, 4-7 the look of rumba_deals (in packed.looks)",
            "codec": dataclasses.asdict(codec),
            "halves": "half = 1.96 * sigma0 * sigma_step^q / sqrt(deals), q stored (ev_play_half, ev_rumba_half)",
            "means": f"mean = q * max({EV_SCALE}, half_fraction * half) (ev_play, ev_rumba; margin with margin_half)",
            "margin": "where pass is the best or the runner-up: the other's value (pass = 0); else margin, "
                      f"margin_half (half = q * {EV_SCALE})",
            "p_success": f"q * max({P_SCALE}, p_step / sqrt(played)); Wilson over played = rumba_deals * (1 - "
                         "unplayed / unplayed_parts)",
            "rows": "seat * pairs + pair row of enumerate_trump_rank_pairs(rules)"}


def _resolved(f) -> np.ndarray:
    """Per cell: was the best exchange resolved (every other exchange dropped by the full table as clearly worse)?"""
    k = 0
    while f"ev_play{k}" in f:
        k += 1
    if k <= 1:
        return np.ones(len(f), dtype=bool)
    deals = np.stack([f[f"ev_play{j}_deals"].to_numpy() for j in range(k)], axis=1)
    live = deals >= f["samples"].to_numpy()[:, None]  # simulated to the end: not dropped
    return live.sum(axis=1) <= 1


def packed_columns(f, max_samples: int, fmt: int = PACK_FORMAT, looks: list[int] | None = None,
                   codec: Codec = CODEC) -> dict[str, np.ndarray]:
    """The packed columns of the cell frame ``f`` (rows as in ``f``): what a packed table stores, quantised.

    Rows are packed one by one (a half-width column is uint16 only when some value needs it), so the packed values of
    a few recomputed cells equal the shipped ones (:mod:`.validity`). ``looks``: the table's looks (format 2 stores
    the deal counts as look numbers where every count is one).
    """
    kind = {"pass": 0, "pass!": 0, "rumba": 1, "play": 2}
    impossible = f["tries"].to_numpy() < 0
    code = (f["best"].map(kind).to_numpy(np.uint8) | (f["runner_up"].map(kind).to_numpy(np.uint8) << 2)
            | (f["best_discards"].to_numpy(np.uint8) << 4) | np.where(impossible, IMPOSSIBLE, 0).astype(np.uint8))
    count = np.uint16 if max_samples <= 65535 else np.uint32
    samples = f["samples"].to_numpy()
    rumba_deals = f["ev_rumba_deals"].to_numpy()
    if fmt == 1:
        columns = {"code": code.astype(np.uint8), "margin": _quantise(f["margin"], EV_SCALE, np.int16),
                   "margin_half": _unsigned(f["margin_half"], EV_SCALE),
                   "p_success": _quantise(f["p_success"], P_SCALE, np.uint8), "samples": samples.astype(count),
                   "rumba_deals": rumba_deals.astype(count)}
    else:
        columns = _v2_columns(f, code, impossible, samples, rumba_deals, count, looks, codec)
    if not np.allclose(f["ess"].to_numpy(), samples, rtol=0, atol=0.5):  # weighted samples
        columns["ess"] = f["ess"].to_numpy().round().astype(count)
    return columns


def _v2_columns(f, code, impossible, samples, rumba_deals, count, looks, codec: Codec) -> dict[str, np.ndarray]:
    weighted = f["ess"].to_numpy() / np.maximum(samples, 1)  # effective deals per deal (1 unweighted)
    unplayed = np.nan_to_num(f["p_void"].to_numpy() + f["p_lone_play"].to_numpy())
    sixteenths = np.minimum(7, np.ceil(unplayed * codec.unplayed_parts - 1e-9)).astype(np.uint16)
    code = (code.astype(np.uint16) | np.where(_resolved(f), RESOLVED, 0).astype(np.uint16)
            | (sixteenths << UNPLAYED_SHIFT))
    columns = {"code": code}
    looks = np.asarray(looks or [], dtype=np.int64)
    index = np.searchsorted(looks, samples), np.searchsorted(looks, rumba_deals)
    at_looks = [np.where(impossible, True, (i < len(looks)) & (looks[np.minimum(i, len(looks) - 1)] == x))
                for i, x in zip(index, (samples, rumba_deals))]
    if 0 < len(looks) <= 16 and all(ok.all() for ok in at_looks):
        columns["looks"] = np.where(impossible, 0, index[0] | (index[1] << 4)).astype(np.uint8)
    else:
        columns["samples"] = samples.astype(count)
        columns["rumba_deals"] = rumba_deals.astype(count)
    for name, deals in (("ev_play", samples), ("ev_rumba", rumba_deals)):
        q = codec.sigma_code(f[name + "_half"], deals * weighted)
        columns[name + "_half"] = q
        columns[name] = _quantise(f[name], codec.mean_step(codec.sigma_half(q, deals * weighted)), np.int16)
    paired = ~(f["best"].isin(["pass", "pass!"]) | f["runner_up"].isin(["pass", "pass!"])).to_numpy()
    half = _unsigned(np.where(paired, codec.inflation * np.nan_to_num(f["margin_half"].to_numpy()), 0.0), EV_SCALE,
                     up=True)
    columns["margin_half"] = half
    columns["margin"] = np.where(paired, _quantise(np.where(paired, f["margin"], 0.0), codec.mean_step(half * EV_SCALE),
                                                   np.int16), 0).astype(np.int16)
    played = rumba_deals * (1.0 - sixteenths / codec.unplayed_parts)
    columns["p_success"] = _quantise(np.nan_to_num(f["p_success"].to_numpy()), codec.p_step_of(played), np.uint8)
    return columns


def write_packed(columns: dict[str, np.ndarray], manifest: dict, out: str | Path) -> Path:
    """Write packed ``columns`` with ``manifest`` as the Parquet metadata (atomically); returns the path."""
    arrow = pa.table(columns).replace_schema_metadata({b"rumbaodds": json.dumps(manifest).encode()})
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + f".tmp{os.getpid()}")
    dictionary = [name for name in columns if name in DICTIONARY]
    split = [name for name in columns if name not in DICTIONARY]  # byte-stream-split needs pyarrow >= 17
    pq.write_table(arrow, tmp, compression="zstd", compression_level=19, use_dictionary=dictionary,
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

    @property
    def format(self) -> int:
        return int(self.manifest["packed"]["format"])

    def value(self, name: str, row: int) -> float:
        """A stored value of format 1 in points (or a probability); format 2: ``margin``, ``margin_half`` and
        ``p_success`` of :meth:`cell` (what tests and reports compare across formats)."""
        if self.format == 1:
            return float(self.columns[name][row]) * self.manifest["packed"]["scales"][name]
        cell = self.cell(row)
        return {"margin": cell.margin.mean, "margin_half": cell.margin.half_width,
                "p_success": cell.p_success.mean}[name]

    def cell(self, row: int) -> Cell:
        """Every number the table keeps of cell ``row``, decoded (format 1: the decision only)."""
        return decode_cell(self, row)

    def deals(self, rows=slice(None)) -> tuple[np.ndarray, np.ndarray]:
        """The deals of the cells ``rows`` and of their Rumba, whether stored as counts or as look numbers."""
        return deal_counts(self.columns, self.manifest, rows)


DEAL_COLUMNS = ("looks", "samples", "rumba_deals")  # what deal_counts reads


def deal_counts(columns: dict, manifest: dict, rows=slice(None)) -> tuple[np.ndarray, np.ndarray]:
    """(deals, the Rumba's deals) of cells ``rows`` from a packed table's columns (any that hold them, see
    :data:`DEAL_COLUMNS`: a whole table's, or those alone) and its manifest."""
    c = columns
    if "looks" in c:
        looks = np.asarray(manifest["packed"]["looks"], dtype=np.int64)
        index = c["looks"][rows].astype(np.int64)
        return looks[index & 15], looks[index >> 4]
    n = c["samples"][rows].astype(np.int64)
    return n, c["rumba_deals"][rows].astype(np.int64) if "rumba_deals" in c else n


@dataclass(frozen=True)
class Cell:
    """One decoded cell: the decision, the values it keeps (None where format 1 has none), the deals."""

    best: str
    runner: str
    discards: int
    impossible: bool
    resolved: bool  # the exchange (format 1: never)
    samples: int
    ess: float
    rumba_deals: int
    margin: Estimate
    p_success: Estimate
    play: Estimate | None
    rumba: Estimate | None


def decode_cell(packed: PackedTable, row: int) -> Cell:
    c = packed.columns
    code = int(c["code"][row])
    best, runner, k = KINDS[code & 3], KINDS[(code >> 2) & 3], (code >> 4) & 7
    impossible = bool(code & IMPOSSIBLE)
    n, rumba_n = (int(x[0]) for x in packed.deals(slice(row, row + 1)))
    ess = float(c["ess"][row]) if "ess" in c else float(n)
    weight = ess / n if n else 1.0
    if packed.format == 1:
        def est(name):
            mean, half = packed.value(name, row), packed.value(name + "_half", row)
            return Estimate(mean, mean - half, mean + half, n)

        margin = est("margin")
        p = packed.value("p_success", row)
        # Wilson over the Rumba's own (effective) deals; format 1 does not keep how many were played
        low, high = wilson(np.array([p]), np.array([weight * rumba_n]))
        return Cell(best, runner, k, impossible, False, n, ess, rumba_n, margin,
                    Estimate(p, float(low[0]), float(high[0]), rumba_n), None, None)
    codec = Codec(**packed.manifest["packed"]["codec"])
    values = {}
    for name, deals in (("ev_play", n), ("ev_rumba", rumba_n)):
        half = float(codec.sigma_half(int(c[name + "_half"][row]), deals * weight))
        mean = int(c[name][row]) * float(codec.mean_step(half))
        values[name] = Estimate(mean, mean - half, mean + half, deals)
    kinds = {"pass": Estimate(0.0, 0.0, 0.0, n), "play": values["ev_play"], "rumba": values["ev_rumba"]}
    if best == "pass" or runner == "pass":  # the other one's value is the margin (pass is 0 on every deal)
        other = kinds[runner if best == "pass" else best]
        sign = 1.0 if best == "pass" else -1.0
        margin = Estimate(sign * other.mean, sign * other.mean - other.half_width, sign * other.mean + other.half_width,
                          n)
    else:
        half = int(c["margin_half"][row]) * EV_SCALE
        mean = int(c["margin"][row]) * float(codec.mean_step(half))
        margin = Estimate(mean, mean - half, mean + half, n)
    played = rumba_n * (1.0 - ((code >> UNPLAYED_SHIFT) & 7) / codec.unplayed_parts)
    step = float(codec.p_step_of(played))
    p = min(1.0, int(c["p_success"][row]) * step)
    # the interval of every p the stored step stands for: never narrower than the full table's
    low = wilson(np.array([max(0.0, p - step / 2)]), np.array([played * weight]))[0]
    high = wilson(np.array([min(1.0, p + step / 2)]), np.array([played * weight]))[1]
    p_success = Estimate(p, float(low[0]), float(high[0]), int(round(played)))
    return Cell(best, runner, k, impossible, bool(code & RESOLVED), n, ess, rumba_n, margin, p_success,
                values["ev_play"], values["ev_rumba"])


@functools.lru_cache(maxsize=16)
def _load(path: str, mtime: int) -> PackedTable:
    table = pq.read_table(path)
    manifest = json.loads(table.schema.metadata[b"rumbaodds"])
    if manifest.get("packed", {}).get("format") not in READABLE:
        raise TableError(f"{path} is not a packed table of format {' or '.join(map(str, READABLE))}")
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


@functools.lru_cache(maxsize=16)
def group_model(packed: PackedTable) -> GroupModel:
    """A group table's offset model and widening, fitted once per loaded table from its manifest's calibration."""
    groups = packed.manifest["packed"]["neighbours"]
    return GroupModel.fit(groups["calibration"], RuleSet(**packed.manifest["rules"]), groups["below"])


def decided_among(cell: Cell, allowed: set[str]) -> Cell | None:
    """The cell's decision among the choices ``allowed`` where its own ranks one that is not (flemish: the jack of
    trump turned bars the pass, which the table kernel ranks too): the two best allowed values, their margin
    unpaired (the table's paired margin compares another pair; a Rumba the table dropped as clearly worse keeps its
    value over the deals it had). None where the table keeps no values (format 1), or fewer than two choices are
    allowed."""
    if cell.play is None:
        return None
    values = {"pass": Estimate(0.0, 0.0, 0.0, cell.samples), "rumba": cell.rumba, "play": cell.play}
    if len(set(values) & set(allowed)) < 2:
        return None
    # a dropped Rumba is ranked too, over the deals it had
    best, runner = rank({k: v.mean for k, v in values.items()}, True, allowed)
    m = values[runner].mean - values[best].mean
    half = float(np.hypot(values[best].half_width, values[runner].half_width))
    return dataclasses.replace(cell, best=best, runner=runner, margin=Estimate(m, m - half, m + half, cell.samples))


def cell_key(rules: RuleSet, seat: int, pair: int) -> dict:
    """What a table cell is: seat, trump rank and hand class (its row in the classes and its representative)."""
    pairs = enumerate_trump_rank_pairs(rules)
    class_row = int(pairs.class_rows[pair])
    return {"seat": seat, "trump_rank": RANKS[int(pairs.trump_ranks[pair])], "class": class_row,
            "class_hand": pairs.classes.hand_text(class_row), "class_trump_suit": SUITS[pairs.classes.trump_suit]}


def answer_from_packed(packed: PackedTable, situation: Situation, opponents, play: str):
    """An AskResult from a packed table (source "packed table"), or None when it does not answer the situation.

    ``meta["missing"]`` names the actions whose value the table does not hold (format 1), and the result's
    ``exchange`` says whether the table resolved the best exchange (format 1: never).
    """
    if not matches(packed.manifest, situation, opponents, play) or penalised(situation):
        return None
    try:
        pair = pair_row(situation)
    except KeyError:
        return None
    groups = packed.manifest["packed"].get("neighbours")
    own = True
    if groups is not None:  # a group table: the representative's cell, widened unless the hand is the representative
        index, own = group_index(situation.rules, pair, groups["below"])
        row = situation.seat * packed.pairs + index
        rep_pair = pair if own else representative_pair(situation.rules, pair, groups["below"])
    else:
        row, rep_pair = situation.seat * packed.pairs + pair, pair
    cell = packed.cell(row)
    if cell.impossible:
        return None
    if not own:  # another hand of the group: the representative's numbers moved and widened (group_model.py)
        x = design(situation.rules, [pair], [rep_pair], groups["below"])[0]
        cell = member_cell(cell, group_model(packed), x)
    allowed = {choice.action for choice in situation.choices()}
    if cell.best not in allowed or cell.runner not in allowed:  # e.g. pass is not open to him: another decision
        cell = decided_among(cell, allowed)
        if cell is None:
            return None
    n = cell.samples
    known = {"pass": Estimate(0.0, 0.0, 0.0, n)}
    if cell.play is not None:
        known |= {"play": cell.play, "rumba": cell.rumba}
    elif cell.best == "pass":  # format 1: the other one's value is the margin itself
        known[cell.runner] = cell.margin
    elif cell.runner == "pass":
        m = cell.margin
        known[cell.best] = Estimate(-m.mean, -m.high, -m.low, n)
    discard = table_discard(situation.hand, cell.discards, situation.trump_card, situation.rules)
    options: dict[str, ChoiceResult] = {}  # the choices whose expected value the packed table knows
    for name in situation.choices():
        if name == Choice.PASS or name == Choice.THROW_IN:
            options[name] = ChoiceResult(name, known["pass"])
        elif name == Choice.RUMBA and "rumba" in known:  # outcome shares and tricks are not kept
            options[name] = ChoiceResult(name, known["rumba"], p_success=cell.p_success)
        elif name.is_play and name.exchanged == cell.discards and "play" in known:
            options[name] = ChoiceResult(name, known["play"], discard=discard)
    plays = [c for c in situation.choices() if c.is_play]
    call = None if len(plays) <= 1 else ExchangeCall(discard, None, None, cell.resolved)
    seed = int(packed.manifest["seed"])
    result = AskResult(situation, opponents, play, seed, n, None, options, cell.best, cell.runner, cell.margin,
                       effective_samples=cell.ess if cell.ess < n - 0.5 else None, exchange=call)
    p = cell.p_success
    result.meta = {"source": "packed table", "table": str(packed.path), "cell": row, "format": packed.format,
                   "cell_key": cell_key(situation.rules, situation.seat, rep_pair), "deals": n, "seed": seed,
                   "missing": sorted(({"play", "rumba"} & allowed) - set(known)),
                   "p_success": [p.mean, p.low, p.high]}
    if groups is not None:
        result.meta["group"] = {"own_cell": own, "model": None if own else groups["model"],
                                "rule": "the cell of the hand's neighbour group representative" + (
                                    "" if own else ", its values moved by the group's offset model and its "
                                    "intervals widened by what the model leaves (tables/group_model.py)")}
    return result


def knock_rows(packed: PackedTable) -> list[dict] | None:
    """The full table's knock values per trump rank (format 2, where the table had them), else None."""
    return packed.manifest["packed"].get("knock")


def packed_size(path: str | Path) -> dict:
    """Bytes on disk, cells and bytes per cell of a packed table."""
    path = Path(path)
    manifest = read_manifest(path)
    cells = manifest["packed"]["pairs"] * manifest["players"]
    size = path.stat().st_size
    return {"path": str(path), "bytes": size, "cells": cells, "bytes_per_cell": size / cells}


__all__ = ["pack_table", "pack_frame", "packed_columns", "write_packed", "restamp", "load_packed", "find_packed",
           "answer_from_packed", "packed_size", "PackedTable", "PACK_FORMAT", "READABLE", "knock_rows", "cell_key"]
