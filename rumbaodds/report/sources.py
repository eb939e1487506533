"""Where a report's cells come from: find the tables (a full packed one, else a quick one), or build a quick one.

:func:`try_full` finds every cell of a full (packed) table for a player count (``cells.find_full``: under
``--tables``, else shipped in the package); :func:`obtain_table` finds a matching table under ``--tables`` (full,
or quick of at least the budget asked), else builds a quick one there, and reads its cells (``Loaded.cells``,
:func:`.cells.from_table`). :class:`Budget` is the sample budget of what the report builds and asks itself.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pandas as pd

from ..cardplay import DEFAULT_PLAY
from ..rules import RulesError, RuleSet
from .cells import Cells, NoFullTable, find_full, from_table, prepare, read_packed


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
    frame: pd.DataFrame  # prepared (see cells.prepare)
    knock: pd.DataFrame | None
    info: TableInfo
    manifest: dict = field(default_factory=dict)
    rules: RuleSet | None = None

    @cached_property
    def cells(self) -> Cells:
        """The table's cells as the report's one source (:func:`.cells.from_table`)."""
        return from_table(self.frame, self.rules, self.info.players, self.info.quick, self.info.path, self.manifest)


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
    return Loaded(frame, knock, info, table.manifest, rules)


def _write_knock(folder: Path, frame: pd.DataFrame) -> None:
    import os

    import pyarrow as pa
    import pyarrow.parquet as pq

    tmp = Path(folder) / f"knock.parquet.tmp{os.getpid()}"
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), tmp)
    os.replace(tmp, Path(folder) / "knock.parquet")


def try_full(tables: str | Path, rules: RuleSet, players: int, model: str,
             say: Callable[[str], None] = lambda s: None) -> Cells | None:
    """Every cell of the full table for these settings, or None where there is none."""
    path = find_full(rules, players, model, tables)
    if path is None:
        return None
    try:
        fc = read_packed(path, rules)
    except NoFullTable as exc:
        say(f"  {exc}")
        return None
    say(f"  every situation: {shown_path(path)} ({len(fc):,} situations, {fc.deals:,} deals)")
    return fc


def shown_path(path: Path) -> str:
    """A shipped table's path from the project's root (rumbaodds/tables/packed/...); another one as it is."""
    root = Path(__file__).resolve().parents[2]
    try:
        return str(Path(path).resolve().relative_to(root))
    except ValueError:
        return str(path)


__all__ = ["Budget", "Loaded", "ReportError", "TableInfo", "find_table", "obtain_table", "opponents_of",
           "policy_available", "shown_path", "try_full"]
