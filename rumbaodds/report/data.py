"""The report's data: find or build the strategy tables, and read every cell as the player meets it.

Tables are read only through :func:`rumbaodds.tables.load_table` and these columns: seat, trump_rank,
class_row, hand, weight, ev_* with ev_*_half (pass penalised, rumba, play0..K), p_success(+low/high),
p_made, p_lost, p_uncontested, p_void, p_lone_play, best, runner_up, margin, margin_half, samples (per cell).
Everything else (the row and column of the grids, throw-in, the jack of trump) is computed here from the
hand, so the report keeps working with other table layouts.

A quick table (``cells=N``) holds N (trump rank, class) pairs drawn with probability proportional to how
often they occur, so each drawn cell already stands for an equal share of all hands: it gets weight 1 and
an average over cells is an average over hands. A full table weights each class by the real hands it
stands for (``weight``).

Per cell and *scenario* the value of each action (scores count down: lower is better), in the order ``ask``
breaks ties (pass, play, Rumba, throw-in):

- ``normal`` (no passes behind): sit out = pass = 0 (a throw-in is also 0: pass wins the tie); play = the best
  exchange count; Rumba. Flemish with the jack of trump turned has no pass (§5.2): those cells are the
  ``jack`` scenario (play or Rumba).
- ``third`` (swiss, this pass would be the ``sit_out_limit``-th in a row): sit out = throw-in (0) where the
  hand may be thrown in, else the penalised pass (``ev_pass_penalised``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..cardplay import DEFAULT_PLAY
from ..cards import RANKS
from ..rules import RulesError, RuleSet
from . import shapes

Z95 = 1.959963984540054
ACTIONS = ("pass", "play", "rumba")  # ask's tie order among the kinds of choice
SIT, PLAY, RUMBA, KNOCK, LOOK, JOIN = "pass", "play", "rumba", "knock", "look", "join"


class ReportError(RulesError):
    """Bad report input (player range, model list, budget); the message says why."""


@dataclass(frozen=True)
class Budget:
    """The sample budget of the quick tables and quick ``ask`` runs the report makes when no table is found.

    ``make report`` with these defaults takes about 10 minutes on two cores for both rule sets.
    """

    cells: int = 1_500  # (trump rank, class) pairs per seat in a quick table
    samples_per_cell: int = 120  # deals per cell
    model_cells: int = 800  # the same for the opponent-model comparison tables
    knock_samples: int = 1_000  # deals per trump rank for the knock values
    knock_inner: int = 50  # inner deals per deal for the dealer's no-knock choice
    ask_hands: int = 6  # hands per box of the small grid for the decisions asked one hand at a time
    ask_samples: int = 300  # deals per such hand
    seed: int = 0
    play: str = DEFAULT_PLAY

    def __post_init__(self) -> None:
        for name in ("cells", "samples_per_cell", "model_cells", "knock_samples", "knock_inner", "ask_hands",
                     "ask_samples"):
            value = getattr(self, name)
            if value < (2 if name in ("samples_per_cell", "ask_samples") else 1):
                raise ReportError(f"--{name.replace('_', '-')} must be positive, got {value}")


@dataclass
class TableInfo:
    """Where one table came from and how big it is (the page's budget table)."""

    players: int
    model: str
    cells: int  # table cells read (all seats)
    deals: int  # simulated deals behind them (sum of per-cell samples)
    quick: bool
    path: str
    built_s: float | None = None  # seconds spent building it now (None: reused)
    knock_samples: int | None = None
    knock_inner: int | None = None

    @property
    def cells_per_seat(self) -> int:
        return self.cells // max(1, self.players)


@dataclass
class Loaded:
    frame: pd.DataFrame  # prepared (see prepare)
    knock: pd.DataFrame | None
    info: TableInfo
    manifest: dict = field(default_factory=dict)


# -- opponents -------------------------------------------------------------------------------------------
def opponents_of(name: str, rules: RuleSet, players: int):
    """The opponents a table build takes for a model name (a named model, ``equilibrium``, a mixed table): the
    name itself, checked here so that a bad one fails before any table is built."""
    from ..opponents.resolve import opponent_policy

    opponent_policy(name, rules, players)
    return name


def policy_available(name: str, rules: RuleSet, players: int) -> bool:
    """Does ``opponents.opponent_policy(name, rules, players)`` work in this build (e.g. "equilibrium")?"""
    try:
        from ..opponents.resolve import opponent_policy

        opponent_policy(name, rules, players)
    except Exception:  # noqa: BLE001 - any failure means: not available here
        return False
    return True


# -- finding and building tables --------------------------------------------------------------------------
def _spec(rules: RuleSet, players: int, opponents, budget: Budget, cells: int | None):
    from ..tables import TableSpec

    return TableSpec(rules=rules, players=players, opponents=opponents, play=budget.play,
                     samples_per_cell=budget.samples_per_cell, seed=budget.seed, cells=cells)


def _manifest_of(folder: Path) -> dict | None:
    try:
        import pyarrow.parquet as pq

        return json.loads(pq.read_schema(folder / "table.parquet").metadata[b"rumbaodds"])
    except Exception:  # noqa: BLE001 - an unreadable folder is simply not a match
        return None


def matches(manifest: dict, wanted: dict) -> bool:
    """Same numbers version, rules, players, card play and opponents (their policy's digest) as the table we want."""
    return all(manifest.get(k) == wanted.get(k) for k in ("numbers", "rules", "players", "play")) and \
        (manifest.get("opponents") or {}).get("digest") == wanted["opponents"]["digest"]


def is_quick(manifest: dict, rules: RuleSet) -> bool:
    from ..tables.handclasses import enumerate_trump_rank_pairs

    cells = manifest.get("cells")
    return cells is not None and int(cells) < len(enumerate_trump_rank_pairs(rules))


def quick_folder(root: Path, rules: RuleSet, players: int, model_name: str, budget: Budget, cells: int) -> Path:
    from ..engine import NUMBERS_TAG

    return Path(root) / (f"{rules.name}-{players}p-{model_name}-{budget.play}-{budget.samples_per_cell}x-"
                         f"{cells}cells-seed{budget.seed}-{NUMBERS_TAG}")


def find_table(root: Path, rules: RuleSet, players: int, opponents, budget: Budget, cells: int) -> Path | None:
    """The best matching table under ``root``: a full one, else the biggest quick one at least as big as asked."""
    from ..tables import find_tables

    wanted = _spec(rules, players, opponents, budget, cells).manifest()
    found = []
    for folder in find_tables(root):
        manifest = _manifest_of(folder)
        if manifest is None or not matches(manifest, wanted):
            continue
        quick = is_quick(manifest, rules)
        have_cells = manifest.get("cells")
        per_cell = manifest.get("samples_per_cell") or 0
        if quick and (int(have_cells) < cells or per_cell < budget.samples_per_cell):
            continue
        size = (10**12 if not quick else int(have_cells)) * max(1, per_cell)
        found.append((not quick, size, str(folder), folder))
    return max(found)[3] if found else None


def obtain_table(root: str | Path, rules: RuleSet, players: int, model_name: str, budget: Budget, cells: int,
                 say: Callable[[str], None] = lambda s: None) -> Loaded:
    """A matching table under ``root`` (full, or quick of at least this budget), else a quick one built there.

    A build killed half-way resumes where it stopped (tables.build_table writes chunk by chunk).
    """
    from ..opponents.resolve import default_opponents
    from ..tables import build_table, knock_values, load_table

    root = Path(root)
    opponents = opponents_of(model_name, rules, players)
    folder = find_table(root, rules, players, opponents, budget, cells)
    built = None
    if folder is not None:
        say(f"  reusing {folder}")
    else:
        spec = _spec(rules, players, opponents, budget, cells)
        folder = quick_folder(root, rules, players, model_name, budget, cells)
        folder.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        say(f"  building quick table {folder} ({cells:,} cells x {players} seats x {budget.samples_per_cell:,} "
            f"deals)")

        def progress(done: int, total: int) -> None:
            if done and done < total:
                say(f"    {done:,}/{total:,} cells, {time.perf_counter() - started:.0f} s")

        build_table(spec, folder, chunk_cells=2_500, progress=progress, with_knock=False)
        built = time.perf_counter() - started
        say(f"    done in {built:.1f} s")
    table = load_table(folder)
    knock = table.knock
    if rules.knock and model_name == default_opponents(rules, players)[0] and knock is None:  # the base opponents
        started = time.perf_counter()
        spec = _spec(rules, players, opponents, budget, cells)
        say(f"  knock values: {budget.knock_samples:,} deals x {budget.knock_inner} inner per trump rank")
        knock = knock_values(spec, samples=budget.knock_samples, inner=budget.knock_inner)
        _write_knock(folder, knock)
        built = (built or 0.0) + time.perf_counter() - started
    quick = is_quick(table.manifest, rules)
    frame = prepare(table.frame, rules, players, quick)
    info = TableInfo(players, model_name, len(frame), int(frame["samples"].sum()), quick, str(folder), built,
                     None if knock is None else int(knock["samples"].iloc[0]),
                     None if knock is None or "inner_samples" not in knock else int(knock["inner_samples"].iloc[0]))
    return Loaded(frame, knock, info, table.manifest)


def _write_knock(folder: Path, frame: pd.DataFrame) -> None:
    import os

    import pyarrow as pa
    import pyarrow.parquet as pq

    tmp = Path(folder) / f"knock.parquet.tmp{os.getpid()}"
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), tmp)
    os.replace(tmp, Path(folder) / "knock.parquet")


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


__all__ = ["ACTIONS", "Budget", "Loaded", "ReportError", "TableInfo", "cell_best", "diff_half",
           "find_table", "obtain_table", "opponents_of", "policy_available", "prepare", "scenario_actions",
           "scenario_cells", "values"]
