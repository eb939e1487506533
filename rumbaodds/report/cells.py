"""The report's one source of cells: every situation a grid or a card is pooled from, whether every cell of a
full (packed) table or a sample of a quick table.

A **cell** is a situation (seat, turned trump rank, hand class: what the player sees, and its grid box), its
**weight** (how often the hand is dealt; 1 for a cell of a quick table, whose cells were drawn with probability
proportional to how often they occur, so that every average over cells is an average over hands), and the values
of its choices (pass, play, Rumba) with their 95% intervals, read as each choice's **loss** against the cell's
best (0 for the best). :class:`Cells` holds them as flat arrays, one value per cell, with two constructors:

- :func:`from_packed` (:func:`read_packed`, :func:`load_full`): every cell of a packed table
  (:mod:`rumbaodds.tables.pack`), in build order (``seat * pairs + pair row``), vectorised (a 7-player table of
  3.8 M cells in a few seconds). A table of the first packed format keeps no value of the third choice: its loss
  is at least the margin, kept as that lower bound with ``known`` False. A table of format 2 keeps every value
  (:data:`DECODERS`, one per format; ``tests/test_report_full.py`` checks each against ``pack``'s own reader).
- :func:`from_table`: the cells of a table built by :mod:`rumbaodds.tables` (a quick table's sample, or an
  unpacked full table), read by :func:`prepare` into a frame that also keeps what the packed tables do not (the
  pass that reaches the sit-out limit, the jack of trump turned, each exchange count's value, success
  intervals); the frame travels with the cells (``Cells.frame``).

Such a frame is read through these table columns: seat, trump_rank, class_row, hand, weight, ev_* with
ev_*_half (pass penalised, rumba, play0..K), p_success(+low/high), p_made, p_lost, p_uncontested, p_void,
p_lone_play, best, runner_up, margin, margin_half, samples (per cell). Everything else (the row and column of
the grids, throw-in, the jack of trump) is computed here from the hand.

Per cell and *scenario* the value of each action (scores count down: lower is better), in the order ``ask``
breaks ties (pass, play, Rumba, throw-in):

- ``normal`` (no passes behind): sit out = pass = 0 (a throw-in is also 0: pass wins the tie); play = the best
  exchange count; Rumba. Flemish with the jack of trump turned has no pass (§5.2): those cells are the
  ``jack`` scenario (play or Rumba).
- ``third`` (swiss, this pass would be the ``sit_out_limit``-th in a row): sit out = throw-in (0) where the
  hand may be thrown in, else the penalised pass (``ev_pass_penalised``).

Per (trump rank, class) pair, :class:`PairFeatures` holds what a player sees (trumps, top trump, side aces and
kings, hand points) and the grid box (row, column of :mod:`.shapes`), computed once for all seats.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..cardplay import DEFAULT_PLAY
from ..cards import RANKS
from ..rules import RuleSet
from ..tables.handclasses import enumerate_trump_rank_pairs
from . import shapes

Z95 = 1.959963984540054
ACTIONS = ("pass", "play", "rumba")  # ask's tie order among the kinds of choice
SIT, PLAY, RUMBA, KNOCK, LOOK, JOIN = "pass", "play", "rumba", "knock", "look", "join"
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
class Cells:
    """One source of cells (see the module docstring): arrays of one value per cell.

    Every cell of a full table comes in ``seat * pairs + pair`` order with its pairs' features (``pairs``); a
    sample's cells carry their own seat, weight and features, and the prepared frame they were read from."""

    rules: RuleSet
    players: int
    pairs: PairFeatures | None  # a full table: every (trump rank, class) pair, at every seat; a sample: None
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
    seats: np.ndarray | None = None  # a sample: each cell's seat
    weights: np.ndarray | None = None  # a sample: each cell's weight (1: drawn by how often it occurs)
    features: dict[str, np.ndarray] | None = None  # a sample: per cell what the player sees (hand_features)
    frame: pd.DataFrame | None = None  # a sample: its prepared frame, every scenario (see prepare)
    quick: bool = False  # cells drawn at random (a quick table): intervals of means from their spread
    # a neighbour-group table: the packed cell each cell reads (its group's; the cells of one group share its
    # sampling error, so a box's interval adds their errors before the boxes' cells in quadrature,
    # :func:`.group_cells.quadrature`)
    source: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.best)

    @property
    def packed(self) -> bool:
        """Every cell of a packed full table, seat by seat over its pairs (else the cells of a table's frame)."""
        return self.pairs is not None

    @property
    def n_pairs(self) -> int:
        return len(self.pairs)

    def seat_slice(self, seat: int) -> slice:
        return slice(seat * self.n_pairs, (seat + 1) * self.n_pairs)

    @property
    def seat(self) -> np.ndarray:
        if not self.packed:
            return self.seats
        return np.repeat(np.arange(self.players, dtype=np.int8), self.n_pairs)

    def per_cell(self, pair_values: np.ndarray) -> np.ndarray:
        """A per-pair array repeated for every seat (cell order)."""
        return np.tile(pair_values, self.players)

    def at_seat(self, seat: int) -> np.ndarray:
        """The indices of the cells at ``seat``, in cell order."""
        if self.packed:
            return np.arange(self.seat_slice(seat).start, self.seat_slice(seat).stop)
        return np.flatnonzero(self.seats == seat)

    def situation(self, cell: int) -> tuple[int, int, int]:
        """(hand mask in the classes' trump suit, turned trump rank, seat) of one cell."""
        if self.packed:
            seat, pair = divmod(int(cell), self.n_pairs)
            return int(self.pairs.hand[pair]), int(self.pairs.trump_rank[pair]), seat
        return int(self.features["hand"][cell]), int(self.features["trump_rank"][cell]), int(self.seats[cell])

    @property
    def rows(self) -> tuple[str, ...]:
        """The grid rows (:func:`.shapes.trump_rows`) that ``feature("row")`` indexes."""
        return tuple(shapes.trump_rows(self.rules))

    @property
    def cols(self) -> tuple[str, ...]:
        """The grid columns (:func:`.shapes.side_columns`) that ``feature("col")`` indexes."""
        return tuple(shapes.side_columns(self.rules))

    def feature(self, name: str) -> np.ndarray:
        """Per cell, one of :func:`hand_features` (n_trumps, top_trump, side_aces, side_kings, voids, points, row,
        col, throw_in, trump_lane), or its hand (mask) or trump_rank."""
        return self.per_cell(getattr(self.pairs, name)) if self.packed else self.features[name]

    @property
    def weight(self) -> np.ndarray:
        """How often each cell's hand is dealt; 0 for a cell no grid or card reads: impossible, or (every cell of a
        packed table) the jack of trump turned where it bars the pass (flemish §5.2: the ``jack`` scenario, read
        from a sample's frame, :func:`scenario_cells`)."""
        if not self.packed:
            return np.where(self.impossible, 0.0, self.weights)
        out = np.where(self.impossible, 0.0, self.per_cell(self.pairs.weight))
        if self.rules.jack_of_trump_forces_play:
            out[self.per_cell(self.pairs.trump_rank == RANKS.index("J"))] = 0.0
        return out

    @property
    def sure(self) -> np.ndarray:
        """Cells whose table interval excludes a tie between the best and the runner-up."""
        return self.margin - self.margin_half > 0

    @property
    def deals(self) -> int:
        """The deals simulated for these cells (a group table's: each of its cells once, see ``samples``)."""
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


def read_packed(path: str | Path, rules: RuleSet) -> Cells:
    """Every cell of the packed table at ``path`` (see the module docstring)."""
    from ..tables.pack import load_packed

    return from_packed(load_packed(path), rules)


def from_packed(packed, rules: RuleSet) -> Cells:
    """Every cell of a loaded packed table (:class:`~rumbaodds.tables.pack.PackedTable`)."""
    from ..tables.pack import IMPOSSIBLE

    path = packed.path
    m = packed.manifest
    pairs = pair_features(rules)
    groups = m["packed"].get("neighbours")
    if packed.pairs != len(pairs) and groups is None:
        raise NoFullTable(f"{path}: {packed.pairs:,} pairs per seat, the rules have {len(pairs):,}")
    fmt = int(m["packed"].get("format", 1))
    if fmt not in DECODERS:
        raise NoFullTable(f"{path}: packed format {fmt}; the report reads formats {sorted(DECODERS)}")
    d = DECODERS[fmt](packed)
    players = int(m["players"])
    source = None
    if groups is not None:  # one cell per neighbour group: every pair read from its group's cell
        from .group_cells import every_pair

        d, source = every_pair(d, packed, rules, players)
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
    return Cells(rules, players, pairs, Path(path), m, best, runner, best_k, margin, half,
                 d.p_success.astype(np.float32), d.samples, loss, known, loss_half, impossible, source=source)


def load_full(rules: RuleSet, players: int, opponents: str, root: str | Path | None = None) -> Cells:
    path = find_full(rules, players, opponents, root)
    if path is None:
        raise NoFullTable(f"no packed table of every cell for {rules.name}, {players} players, opponents "
                          f"{opponents}")
    return read_packed(path, rules)


def weighted_mean(x: np.ndarray, w: np.ndarray) -> float:
    total = float(w.sum())
    return float((w * x).sum() / total) if total > 0 else math.nan


# -- reading the cells -----------------------------------------------------------------------------------
def play_columns(frame: pd.DataFrame) -> list[int]:
    """Discard counts k with an ``ev_play{k}`` column."""
    ks = []
    k = 0
    while f"ev_play{k}" in frame:
        ks.append(k)
        k += 1
    return ks


def prepare(raw: pd.DataFrame, rules: RuleSet, players: int, quick: bool) -> pd.DataFrame:
    """One row per table cell with what the report reads (see the module docstring).

    Columns: seat, trump_rank, class_row, hand, w, samples, row, col, srow, scol (grid boxes), n_trumps,
    top_trump, side_aces, side_kings, zero_cards, throw_in, swapped, jack (pass barred), v_/h_ (value and 95%
    half-width) of pass, pen (penalised sit-out), play, play{k}, rumba, best_k, p_success(+low/high), p_made,
    p_lost, p_uncontested, p_void, p_lone_play, best / best_third (ask's choice from this cell).
    """
    f = raw
    if "tries" in f:
        f = f[f["tries"] >= 0]
    f = f.reset_index(drop=True)
    out = pd.DataFrame({
        "seat": f["seat"].to_numpy(np.int64),
        "trump_rank": f["trump_rank"].to_numpy(np.int64),
        "class_row": f["class_row"].to_numpy(np.int64),
        "hand": f["hand"].to_numpy(np.uint64),
        "w": 1.0 if quick else f["weight"].to_numpy(float),
        "samples": f["samples"].to_numpy(np.int64),
    })
    feats = shapes.features(out["hand"].to_numpy(np.uint64), out["trump_rank"].to_numpy(), rules)
    out["row"] = shapes.row_labels(feats, rules)
    out["col"] = shapes.column_labels(feats, rules)
    out["srow"] = shapes.small_row_labels(feats, rules)
    out["scol"] = shapes.small_column_labels(feats, rules)
    out["n_trumps"] = feats.n_trumps
    out["top_trump"] = feats.top_trump
    out["side_aces"] = feats.side_aces
    out["side_kings"] = feats.side_kings
    out["zero_cards"] = feats.zero_cards
    out["low_trumps"] = feats.low_trumps
    out["throw_in"] = feats.throw_in
    out["swapped"] = feats.swapped
    jack = RANKS.index("J")
    out["jack"] = bool(rules.jack_of_trump_forces_play) & (out["trump_rank"].to_numpy() == jack)
    out["v_pass"] = 0.0
    out["h_pass"] = 0.0
    pen = f["ev_pass_penalised"].to_numpy(float) if "ev_pass_penalised" in f else np.zeros(len(f))
    pen_h = f["ev_pass_penalised_half"].to_numpy(float) if "ev_pass_penalised_half" in f else np.zeros(len(f))
    throw = out["throw_in"].to_numpy()
    out["v_pen"] = np.where(throw, np.minimum(0.0, pen), pen)  # a throw-in (0) is not a pass
    out["h_pen"] = np.where(throw & (pen >= 0), 0.0, pen_h)
    ks = play_columns(f)
    plays = np.stack([f[f"ev_play{k}"].to_numpy(float) for k in ks], axis=1)
    halves = np.stack([f[f"ev_play{k}_half"].to_numpy(float) for k in ks], axis=1)
    best_k = plays.argmin(axis=1)  # first minimum: the fewest discards among equals, as ask breaks ties
    rows = np.arange(len(f))
    for k in ks:
        out[f"v_play{k}"] = plays[:, k]
        out[f"h_play{k}"] = halves[:, k]
    out["best_k"] = best_k
    out["v_play"] = plays[rows, best_k]
    out["h_play"] = halves[rows, best_k]
    out["v_rumba"] = f["ev_rumba"].to_numpy(float)
    out["h_rumba"] = f["ev_rumba_half"].to_numpy(float)
    for col in ("p_success", "p_success_low", "p_success_high", "p_made", "p_lost", "p_uncontested", "p_void",
                "p_lone_play"):
        out[col] = f[col].to_numpy(float) if col in f else np.nan
    # the table's own paired margin (best vs runner-up of pass / Rumba / best play, no penalty)
    out["t_best"] = f["best"].astype(str).str.replace("!", "", regex=False).to_numpy() if "best" in f else ""
    out["t_runner"] = f["runner_up"].astype(str).str.replace("!", "", regex=False).to_numpy() \
        if "runner_up" in f else ""
    out["t_margin_half"] = f["margin_half"].to_numpy(float) if "margin_half" in f else np.nan
    out["best"] = cell_best(out, "normal")
    out["best_third"] = cell_best(out, "third") if rules.sit_out_limit > 0 else out["best"]
    return out


def scenario_actions(scenario: str) -> tuple[str, ...]:
    return (PLAY, RUMBA) if scenario == "jack" else ACTIONS


def values(frame: pd.DataFrame, action: str, scenario: str) -> tuple[np.ndarray, np.ndarray]:
    """(value, 95% half-width) per cell of ``action`` in ``scenario``; inf where the action is barred."""
    if action == SIT:
        col = "pen" if scenario == "third" else "pass"
        v = frame[f"v_{col}"].to_numpy(float).copy()
        h = frame[f"h_{col}"].to_numpy(float).copy()
        barred = frame["jack"].to_numpy(bool)
        v[barred] = np.inf
        return v, h
    return frame[f"v_{action}"].to_numpy(float), frame[f"h_{action}"].to_numpy(float)


def cell_best(frame: pd.DataFrame, scenario: str) -> np.ndarray:
    """Per cell: the kind ``ask`` recommends from this cell (ties: pass, play, Rumba; a throw-in counts as sitting
    out)."""
    if scenario != "third":
        vals = np.stack([values(frame, a, scenario)[0] for a in ACTIONS], axis=1)
        return np.array(ACTIONS, dtype=object)[vals.argmin(axis=1)]
    # ask's order with the penalty: pass (penalised), play, Rumba, throw-in (0, listed last)
    pen = np.where(frame["jack"].to_numpy(bool), np.inf, frame["v_pen"].to_numpy(float))
    throw = frame["throw_in"].to_numpy(bool)
    raw_pass = np.where(throw, np.inf, pen)  # a hand that may be thrown in: its pass is the throw-in below
    vals = np.stack([raw_pass, frame["v_play"].to_numpy(float), frame["v_rumba"].to_numpy(float),
                     np.where(throw, pen, np.inf)], axis=1)
    return np.array([SIT, PLAY, RUMBA, SIT], dtype=object)[vals.argmin(axis=1)]


def diff_half(frame: pd.DataFrame, a: str, b: str, scenario: str) -> np.ndarray:
    """95% half-width of EV(a) - EV(b) per cell: the table's paired one where (a, b) is its own best / runner-up
    pair (normal scenario), else the unpaired sqrt(h_a^2 + h_b^2) (conservative: common deals only narrow it)."""
    _, ha = values(frame, a, scenario)
    _, hb = values(frame, b, scenario)
    unpaired = np.hypot(ha, hb)
    if scenario == "third":
        return unpaired
    pair = ((frame["t_best"].to_numpy() == a) & (frame["t_runner"].to_numpy() == b)) | \
           ((frame["t_best"].to_numpy() == b) & (frame["t_runner"].to_numpy() == a))
    paired = frame["t_margin_half"].to_numpy(float)
    return np.where(pair & np.isfinite(paired), paired, unpaired)


def scenario_cells(frame: pd.DataFrame, scenario: str) -> pd.DataFrame:
    """The cells a scenario covers: flemish jack-turned cells only in ``jack``, never in the others."""
    jack = frame["jack"].to_numpy(bool)
    return frame[jack] if scenario == "jack" else frame[~jack]


def from_table(frame: pd.DataFrame, rules: RuleSet, players: int, quick: bool = True, path: str | Path = "",
               manifest: dict | None = None) -> Cells:
    """The cells of a table's prepared ``frame`` (:func:`prepare`; a quick table's sample, or every cell of an
    unpacked full table when ``quick`` is False) as a :class:`Cells`: its ``normal`` scenario cells (the jack of
    trump turned is a scenario of its own, kept in the frame), every loss known, its half-width the table's paired
    one where it kept one, else unpaired (as :func:`diff_half`); the frame travels with them."""
    f = scenario_cells(frame, "normal").reset_index(drop=True)
    n = len(f)
    rows = np.arange(n)
    v = np.stack([values(f, a, "normal")[0] for a in ACTIONS], axis=1) if n else np.zeros((0, 3))
    h = np.stack([values(f, a, "normal")[1] for a in ACTIONS], axis=1) if n else np.zeros((0, 3))
    named = f["best"].to_numpy()
    best = np.select([named == a for a in ACTIONS], [np.int8(i) for i in range(3)], np.int8(-1)).astype(np.int8)
    ranked = v + np.arange(3)[None, :] * 1e-12
    ranked[rows, best] = np.inf  # the runner-up: the lowest of the other two
    runner = ranked.argmin(axis=1).astype(np.int8)
    loss = (v - v[rows, best][:, None]).astype(np.float32)
    loss_half = np.zeros((n, 3), dtype=np.float32)
    t_best, t_runner = f["t_best"].to_numpy(), f["t_runner"].to_numpy()
    paired = f["t_margin_half"].to_numpy(float)
    b = np.array(ACTIONS, dtype=object)[best]
    for i, a in enumerate(ACTIONS):
        pair = ((t_best == a) & (t_runner == b)) | ((t_best == b) & (t_runner == a))
        half = np.where(pair & np.isfinite(paired), paired, np.hypot(h[:, i], h[rows, best]))
        loss_half[:, i] = np.where(best == i, 0.0, half)
    feats = hand_features(f["hand"].to_numpy(np.uint64), f["trump_rank"].to_numpy(), rules)
    feats.update(hand=f["hand"].to_numpy(np.uint64), trump_rank=f["trump_rank"].to_numpy(np.int64))
    return Cells(rules, players, None, Path(path), manifest or {}, best, runner,
                 f["best_k"].to_numpy(np.int8), loss[rows, runner], loss_half[rows, runner],
                 f["p_success"].to_numpy(np.float32), f["samples"].to_numpy(np.int64), loss,
                 np.ones((n, 3), dtype=bool), loss_half, np.zeros(n, dtype=bool), f["seat"].to_numpy(np.int8),
                 f["w"].to_numpy(float), feats, frame, quick)


__all__ = ["ACTIONS", "DECODERS", "Cells", "Decoded", "NoFullTable", "PairFeatures", "Z95", "cell_best",
           "decode_format1", "decode_format2", "diff_half", "find_full", "from_packed", "from_table",
           "hand_features", "load_full", "pair_features", "play_columns", "prepare", "read_packed",
           "scenario_actions", "scenario_cells", "values", "weighted_mean"]
