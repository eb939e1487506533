"""Every cell of a full decision table, read at once: the report's view of the packed tables.

A packed table (:mod:`rumbaodds.tables.pack`) holds every (seat, turned trump rank, hand class) cell of one
rule set and player count, in build order (``seat * pairs + pair row``). This module reads one through the
package's public API (:func:`~rumbaodds.tables.pack.find_packed`, :func:`~rumbaodds.tables.pack.load_packed`,
:func:`~rumbaodds.tables.lookup.manifest_matches`) into flat numpy arrays, one value per cell, vectorised
(a 7-player table of 3.8 M cells in a few seconds):

- the table's best choice and runner-up (what ``ask`` answers from the cell), the best exchange count, the
  paired margin between the two with its 95% half-width, the Rumba's success probability, the deals;
- each cell's **weight**: how many real (hand, turned card) pairs of the trump suit it stands for (the class
  weight of :func:`~rumbaodds.handclasses.enumerate_trump_rank_pairs`), so that every average over cells is an
  average over the hands a player is dealt;
- each choice's **loss** against the cell's best (0 for the best, the margin for the runner-up) and whether
  that loss is known. A table of the first packed format keeps no value of the third choice: its loss is at
  least the margin, and is kept as that lower bound with ``known`` False. A table of format 2 keeps the value
  of every choice: every loss is then known, with no change elsewhere (:data:`DECODERS`, one per format; a new
  format needs its decoder here, and ``tests/test_report_full.py`` checks each against ``pack``'s own reader).

Per (trump rank, class) pair, :class:`PairFeatures` holds what a player sees (trumps, top trump, side aces and
kings, hand points) and the grid box (row, column of :mod:`.shapes`), computed once for all seats.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..cardplay import DEFAULT_PLAY
from ..rules import RuleSet
from ..tables.handclasses import enumerate_trump_rank_pairs
from . import shapes
from .data import ACTIONS, PLAY, RUMBA, SIT

PASS_I, PLAY_I, RUMBA_I = (ACTIONS.index(a) for a in (SIT, PLAY, RUMBA))


class NoFullTable(LookupError):
    """No packed table of every cell for these rules, players and opponents."""


@dataclass(frozen=True, eq=False)
class PairFeatures:
    """Per (trump rank, class) pair of ``enumerate_trump_rank_pairs``: what the player sees, and its box."""

    rules: RuleSet
    trump_rank: np.ndarray
    class_row: np.ndarray
    hand: np.ndarray  # the class's representative hand (uint64, the classes' trump suit)
    weight: np.ndarray  # real (hand, turned card) pairs it stands for
    n_trumps: np.ndarray
    top_trump: np.ndarray
    side_aces: np.ndarray
    side_kings: np.ndarray
    voids: np.ndarray  # side suits he holds no card of
    points: np.ndarray  # hand points (docs/SIMULATION.md): trump A 6, K 5, Q 4, J 3, lower 2; side A 3, side K 1
    row: np.ndarray  # index into rows
    col: np.ndarray  # index into cols
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    throw_in: np.ndarray
    trump_lane: np.ndarray  # rank bits of his trumps

    def __len__(self) -> int:
        return len(self.trump_rank)


def hand_features(hands, trump_ranks, rules: RuleSet, trump_suit: int | None = None) -> dict[str, np.ndarray]:
    """What a player sees in dealt ``hands`` (uint64 masks, trump suit ``trump_suit``, default the tables'), as he
    speaks with them (:func:`.shapes.features`): trumps, top trump, side aces and kings, voids, hand points, and
    the grid row and column (indices into :func:`.shapes.trump_rows` / :func:`.shapes.side_columns`)."""
    from ..cards import SUIT_BITS
    from ..tables.handclasses import resolve_trump_suit, side_suits

    hands = np.asarray(hands, dtype=np.uint64)
    ranks = np.asarray(trump_ranks, dtype=np.int64)
    t = resolve_trump_suit(rules, trump_suit)
    f = shapes.features(hands, ranks, rules, t)
    spoken, _ = shapes.spoken_masks(hands, ranks, rules, t)
    voids = sum((((spoken >> np.uint64(SUIT_BITS * s)) & np.uint64(shapes.LANE)) == 0).astype(np.int64)
                for s in side_suits(rules, t))
    rows, cols = shapes.trump_rows(rules), shapes.side_columns(rules)
    row_of = {r: i for i, r in enumerate(rows)}
    col_of = {c: i for i, c in enumerate(cols)}
    uniq_r, inv_r = np.unique(shapes.row_labels(f, rules).astype(str), return_inverse=True)
    uniq_c, inv_c = np.unique(shapes.column_labels(f, rules).astype(str), return_inverse=True)
    top = shapes.Honours.of(rules).top
    lane = f.trump_lane
    trump_points = 2 * f.n_trumps + sum(((lane >> (top - d)) & 1) * (4 - d) for d in range(4) if top - d >= 0)
    return {"n_trumps": f.n_trumps.astype(np.int8), "top_trump": f.top_trump.astype(np.int8),
            "side_aces": f.side_aces.astype(np.int8), "side_kings": f.side_kings.astype(np.int8),
            "voids": np.asarray(voids, dtype=np.int8),
            "points": (trump_points + 3 * f.side_aces + f.side_kings).astype(np.int16),
            "row": np.array([row_of[str(r)] for r in uniq_r], dtype=np.int16)[inv_r.reshape(-1)],
            "col": np.array([col_of[str(c)] for c in uniq_c], dtype=np.int16)[inv_c.reshape(-1)],
            "throw_in": f.throw_in.astype(bool), "trump_lane": lane.astype(np.int64)}


@functools.lru_cache(maxsize=4)
def pair_features(rules: RuleSet) -> PairFeatures:
    pairs = enumerate_trump_rank_pairs(rules)
    hands = pairs.classes.hands[pairs.class_rows]
    ranks = pairs.trump_ranks
    f = hand_features(hands, ranks, rules, pairs.classes.trump_suit)
    return PairFeatures(rules, ranks, pairs.class_rows, hands, pairs.weights.astype(np.float64), f["n_trumps"],
                        f["top_trump"], f["side_aces"], f["side_kings"], f["voids"], f["points"], f["row"],
                        f["col"], tuple(shapes.trump_rows(rules)), tuple(shapes.side_columns(rules)), f["throw_in"],
                        f["trump_lane"])


@dataclass(frozen=True, eq=False)
class FullCells:
    """Every cell of one full table (``seat * pairs + pair`` order); arrays of one value per cell."""

    rules: RuleSet
    players: int
    pairs: PairFeatures
    path: Path
    manifest: dict
    best: np.ndarray  # int8 index into ACTIONS (pass, play, rumba)
    runner: np.ndarray
    best_k: np.ndarray  # best exchange count when playing
    margin: np.ndarray  # EV(runner-up) - EV(best) >= 0, points per hand
    margin_half: np.ndarray  # its 95% half-width
    p_success: np.ndarray  # the Rumba's success probability (of the Rumbas played)
    samples: np.ndarray
    loss: np.ndarray  # (cells, 3) EV(choice) - EV(best), a lower bound where not known
    known: np.ndarray  # (cells, 3) bool
    loss_half: np.ndarray  # (cells, 3) 95% half-width of the loss (the margin's where unknown)
    impossible: np.ndarray  # bool: no deal matched (never in a shipped table)

    def __len__(self) -> int:
        return len(self.best)

    @property
    def n_pairs(self) -> int:
        return len(self.pairs)

    def seat_slice(self, seat: int) -> slice:
        return slice(seat * self.n_pairs, (seat + 1) * self.n_pairs)

    @property
    def seat(self) -> np.ndarray:
        return np.repeat(np.arange(self.players, dtype=np.int8), self.n_pairs)

    def per_cell(self, pair_values: np.ndarray) -> np.ndarray:
        """A per-pair array repeated for every seat (cell order)."""
        return np.tile(pair_values, self.players)

    @property
    def weight(self) -> np.ndarray:
        return np.where(self.impossible, 0.0, self.per_cell(self.pairs.weight))

    @property
    def sure(self) -> np.ndarray:
        """Cells whose table interval excludes a tie between the best and the runner-up."""
        return self.margin - self.margin_half > 0

    @property
    def deals(self) -> int:
        return int(self.samples.sum())

    @property
    def all_known(self) -> bool:
        return bool(self.known.all())


# -- finding and reading ------------------------------------------------------------------------------------
def find_full(rules: RuleSet, players: int, opponents: str, root: str | Path | None = None,
              play: str | None = None) -> Path | None:
    """The packed table of every cell for these settings (under ``root``, else shipped), as ``ask`` finds it
    (``play``: the default card play unless named)."""
    from ..tables.lookup import manifest_matches, read_manifest
    from ..tables.pack import find_packed

    for path in find_packed(root):
        try:
            manifest = read_manifest(path)
        except (OSError, KeyError, ValueError):
            continue
        try:
            if manifest_matches(manifest, rules, players, opponents, play or DEFAULT_PLAY):
                return path
        except Exception:  # noqa: BLE001 - opponents this build cannot make: not a match
            continue
    return None


def _kinds() -> np.ndarray:
    """pack.KINDS position -> ACTIONS index (the two bits of a packed code)."""
    from ..tables.pack import KINDS

    out = np.zeros(4, dtype=np.int8)
    for i, k in enumerate(KINDS):
        out[i] = ACTIONS.index(k)
    return out


@dataclass
class Decoded:
    """Every cell of a packed table, vectorised: what :func:`~rumbaodds.tables.pack.decode_cell` gives one cell."""

    code: np.ndarray
    margin: np.ndarray
    margin_half: np.ndarray
    p_success: np.ndarray
    samples: np.ndarray
    values: dict[str, tuple[np.ndarray, np.ndarray]] | None = None  # choice -> (mean, half); None: not kept


def decode_format1(packed) -> Decoded:
    """Format 1: the decision only, its values ``round(value / scale)`` with the scales in the manifest."""
    scales = packed.manifest["packed"]["scales"]
    c = packed.columns

    def points(name):
        return c[name].astype(np.float64) * scales[name]

    return Decoded(c["code"].astype(np.int64), points("margin"), points("margin_half"), points("p_success"),
                   packed.deals()[0])


def decode_format2(packed) -> Decoded:
    """Format 2 (every value): the numbers rounded by the manifest's ``Codec``, as ``pack.decode_cell`` reads
    one cell, for every cell at once (tests/test_report_full.py checks them against it)."""
    from ..tables.pack import EV_SCALE, UNPLAYED_SHIFT, Codec

    meta = packed.manifest["packed"]
    codec = Codec(**meta["codec"])
    c = packed.columns
    code = c["code"].astype(np.int64)
    n, rumba_n = packed.deals()
    ess = c["ess"].astype(np.float64) if "ess" in c else n.astype(np.float64)
    weight = np.where(n > 0, ess / np.maximum(n, 1), 1.0)
    values = {SIT: (np.zeros(len(code)), np.zeros(len(code)))}
    for action, name, deals in ((PLAY, "ev_play", n), (RUMBA, "ev_rumba", rumba_n)):
        half = codec.sigma_half(c[name + "_half"], deals * weight)
        values[action] = (c[name].astype(np.float64) * codec.mean_step(half), half)
    kinds = _kinds()
    best, runner = kinds[code & 3], kinds[(code >> 2) & 3]
    pass_i = ACTIONS.index(SIT)
    with_pass = (best == pass_i) | (runner == pass_i)
    other = np.where(best == pass_i, runner, best)  # the choice that is not the pass
    v = np.stack([values[a][0] for a in ACTIONS], axis=1)[np.arange(len(code)), other]
    h = np.stack([values[a][1] for a in ACTIONS], axis=1)[np.arange(len(code)), other]
    half = c["margin_half"].astype(np.float64) * EV_SCALE
    margin = np.where(with_pass, np.where(best == pass_i, v, -v), c["margin"].astype(np.float64) *
                      codec.mean_step(half))
    margin_half = np.where(with_pass, h, half)
    played = rumba_n * (1.0 - ((code >> UNPLAYED_SHIFT) & 7) / codec.unplayed_parts)
    p = np.minimum(1.0, c["p_success"].astype(np.float64) * codec.p_step_of(played))
    return Decoded(code, margin, margin_half, p, n, values)


DECODERS = {1: decode_format1, 2: decode_format2}


def read_full(path: str | Path, rules: RuleSet) -> FullCells:
    """Every cell of the packed table at ``path`` (see the module docstring)."""
    from ..tables.pack import load_packed

    return cells_of(load_packed(path), rules)


def cells_of(packed, rules: RuleSet) -> FullCells:
    """Every cell of a loaded packed table (:class:`~rumbaodds.tables.pack.PackedTable`)."""
    from ..tables.pack import IMPOSSIBLE

    path = packed.path
    m = packed.manifest
    pairs = pair_features(rules)
    if packed.pairs != len(pairs):
        raise NoFullTable(f"{path}: {packed.pairs:,} pairs per seat, the rules have {len(pairs):,}")
    fmt = int(m["packed"].get("format", 1))
    if fmt not in DECODERS:
        raise NoFullTable(f"{path}: packed format {fmt}; the report reads formats {sorted(DECODERS)}")
    d = DECODERS[fmt](packed)
    players = int(m["players"])
    code = d.code
    kinds = _kinds()
    best, runner = kinds[code & 3], kinds[(code >> 2) & 3]
    best_k = ((code >> 4) & 7).astype(np.int8)
    impossible = (code & IMPOSSIBLE) != 0
    margin = d.margin.astype(np.float32)
    half = d.margin_half.astype(np.float32)
    n = len(code)
    rows = np.arange(n)
    loss = np.empty((n, 3), dtype=np.float32)
    known = np.zeros((n, 3), dtype=bool)
    loss_half = np.empty((n, 3), dtype=np.float32)
    loss[:] = margin[:, None]  # the third choice: at least the margin
    loss_half[:] = half[:, None]
    loss[rows, best], loss_half[rows, best], known[rows, best] = 0.0, 0.0, True
    loss[rows, runner], known[rows, runner] = margin, True
    if d.values is not None:  # every choice's value kept: every loss is known
        v = np.stack([d.values[a][0] for a in ACTIONS], axis=1).astype(np.float32)
        h = np.stack([d.values[a][1] for a in ACTIONS], axis=1).astype(np.float32)
        for i in range(3):
            third = (best != i) & (runner != i)
            loss[third, i] = np.maximum(v[third, i] - v[third, best[third]], margin[third])
            loss_half[third, i] = np.hypot(h[third, i], h[third, best[third]])
            known[third, i] = True
    return FullCells(rules, players, pairs, Path(path), m, best, runner, best_k, margin, half,
                     d.p_success.astype(np.float32), d.samples, loss, known, loss_half, impossible)


def load_full(rules: RuleSet, players: int, opponents: str, root: str | Path | None = None) -> FullCells:
    path = find_full(rules, players, opponents, root)
    if path is None:
        raise NoFullTable(f"no packed table of every cell for {rules.name}, {players} players, opponents "
                          f"{opponents}")
    return read_full(path, rules)


def weighted_mean(x: np.ndarray, w: np.ndarray) -> float:
    total = float(w.sum())
    return float((w * x).sum() / total) if total > 0 else math.nan


__all__ = ["FullCells", "DECODERS", "Decoded", "NoFullTable", "PairFeatures", "cells_of", "decode_format1",
           "decode_format2", "find_full", "hand_features",
           "load_full", "pair_features", "read_full", "weighted_mean"]
