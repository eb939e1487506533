"""What a strategy table is: its settings (:class:`TableSpec`), its seed and its manifest.

Adaptive precision is the default: each cell is simulated in rounds until its
decision is resolved or every expected value is known to ``precision`` points
(see :mod:`.build` for the stopping rule and why it keeps the intervals
honest). ``samples_per_cell`` instead fixes the deals of every cell.

Seeds: a table built without ``--seed`` gets :func:`default_seed`, derived
from its rule set and player count, so the tables of different player counts
(and house rules) are independent evidence, and a rebuild of the same table
still gives the same numbers.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from statistics import NormalDist

from ..answer.simulation import POLICIES
from ..cardplay import DEFAULT_PLAY
from ..engine import NUMBERS_VERSION
from ..engine.table import looks
from ..opponents.policies import Policy
from ..opponents.resolve import opponent_policy
from ..rules import RulesError, RuleSet

TABLE_FORMAT = 2
# Adaptive defaults (README, "Building tables on a cluster", has the measurements behind them).
# 1 point (one trick, the score sheet's unit): a cell whose decision does not resolve is simulated until every
# expected value is known to +-1 point; its two best choices are then within about 1.6 points of each other, so
# calling it either way costs at most about that on such hands, and the table keeps the margin's own (narrower,
# paired) interval. 0.75 points cost 1.5 times the deals (mean 153 against 100 per swiss 5-player cell, 6,000-cell
# sample, before the guarded variances and the dropped columns of engine/table.py) and miss the time the tables
# must be built in. With both, the default rule takes 68 deals per swiss 5-player cell on average (median 48).
DEFAULT_PRECISION = 1.0
# 32: a clear pass or a clear Rumba resolves on the first look (half the cells stop by 48 deals); starting at 128
# cost 30% more deals per table for no better answer.
DEFAULT_MIN_SAMPLES = 32
DEFAULT_MAX_SAMPLES = 4_096
# Each look has 1.5 times the deals of the one before (32, 48, 72, ..., 4096: 13 looks): finer than
# doubling, so a cell stops nearer the deals it needs (13% fewer deals per table than doubling), for a slightly
# higher stopping z (3.34 against 3.19) paid by the resolved cells.
DEFAULT_GROWTH = 1.5
# Family-wise error of the stopping rule over all looks of a cell (Bonferroni over the interim looks): the chance
# that a cell with a zero margin is reported as resolved. 1%, not 5%: every such stop also biases the cell's
# intervals, so a smaller alpha keeps the coverage of near-ties up.
STOP_ALPHA = 0.01
# What a manifest says about its opponents besides the policy digest: a named model's fields, a mixed table's seats,
# a solved strategy's file and iterations.
OPPONENT_META = ("model", "seats", "file", "iterations")


def package_version() -> str:
    try:
        return version("rumbaodds")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0+unknown"


def neighbours_manifest(spec: TableSpec) -> dict:
    """What a neighbour-group table's manifest says of its groups and of the sample that measures their spread."""
    from .groups import CALIBRATION_DEALS, CALIBRATION_MEMBERS, CALIBRATION_PARTS

    return {"below": spec.neighbours,
            "cells": "one per neighbour group (same trumps, same side cards from the ten up, same count of low cards "
                     "per side suit): its representative, the low cards spread evenly (tables/neighbours.py)",
            "calibration": {"members": CALIBRATION_MEMBERS, "parts": CALIBRATION_PARTS, "deals": CALIBRATION_DEALS,
                            "rule": "members drawn by weight among the non-representative pairs, every seat; each "
                                    "member and its representative simulated on the same deals (tables/groups.py)"}}


class TableError(RulesError):
    """A table folder that cannot be used as asked; the message says why."""


def numbers_problem(manifest: dict) -> str | None:
    """Why a table's numbers are not this code's (None: they are): its numbers version differs.

    A table is stamped with ``engine.NUMBERS_VERSION``, bumped by hand with every deliberate change that moves a
    number; a table of another version is refused (ask simulates instead, ``tables pack`` refuses to pack it).
    """
    version = manifest.get("numbers")
    if version == NUMBERS_VERSION:
        return None
    if version is None:
        made = f"by code of numbers digest {manifest['engine']}" if "engine" in manifest else "without a version"
        return f"it was computed {made}, before numbers versions; this code computes numbers version " \
               f"{NUMBERS_VERSION}: rebuild it"
    return f"it holds numbers version {version}, this code computes numbers version {NUMBERS_VERSION}: rebuild it"


def default_seed(rules: RuleSet, players: int) -> int:
    """The seed of a table built without ``--seed``: sha256 of the rule set's fields and the player count.

    The first 63 bits of ``sha256(json({"rules": rules.to_dict(), "players": players}, sort_keys))``.
    """
    text = json.dumps({"rules": rules.to_dict(), "players": players}, sort_keys=True)
    return int(hashlib.sha256(text.encode()).hexdigest()[:16], 16) & (2**63 - 1)


def stop_z(n_looks: int, alpha: float = STOP_ALPHA) -> float:
    """Two-sided Bonferroni critical value over the ``n_looks - 1`` looks where a cell may stop early."""
    interim = max(1, n_looks - 1)
    return NormalDist().inv_cdf(1 - alpha / (2 * interim))


@dataclass(frozen=True)
class TableSpec:
    """Everything that determines a table's numbers.

    ``samples_per_cell``: fixed deals per cell. Without it (and by default) the
    build is adaptive: ``precision`` points (default :data:`DEFAULT_PRECISION`),
    between ``min_samples`` and ``max_samples`` deals per cell. ``seed=None``
    is :func:`default_seed`. ``opponents``: anything ``resolve.opponent_policy``
    takes (a name, ``equilibrium``, a TOML file, a mixed table, an OpponentModel
    or a Policy), kept as given; :attr:`policy` is what the kernels get and
    what the manifest is stamped with.
    """

    rules: RuleSet
    players: int
    opponents: object
    play: str = DEFAULT_PLAY
    samples_per_cell: int | None = None
    seed: int | None = None
    cells: int | None = None  # a weighted random subset of (trump rank, class) pairs; None: all of them
    precision: float | None = None
    min_samples: int = DEFAULT_MIN_SAMPLES
    max_samples: int = DEFAULT_MAX_SAMPLES
    knock_samples: int | None = None  # outer deals per trump rank of knock.parquet; None: see build.knock_samples
    growth: float = DEFAULT_GROWTH
    # One cell per neighbour group (tables/neighbours.py; the rank below which side cards are grouped, "T" for the
    # shipped flemish tables): only the groups' representatives are simulated, and a hand is answered from its
    # representative's cell, moved and widened by a model fitted on the build's calibration (tables/groups.py,
    # tables/group_model.py). None: every pair.
    neighbours: str | None = None

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)
        self.policy  # noqa: B018 - a bad model or a missing strategy fails here, not in a worker
        self.policy  # noqa: B018 - a bad model or a missing strategy fails here, not in a worker
        if self.play not in POLICIES:
            raise RulesError(f"unknown card play {self.play!r} (use {' or '.join(POLICIES)})")
        if self.neighbours is not None:
            if self.cells is not None:
                raise RulesError("give --neighbours or --cells, not both")
            if self.neighbours not in self.rules.ranks:
                raise RulesError(f"neighbour groups below {self.neighbours!r}: not a rank of {self.rules.name}")
        if self.cells is not None and self.cells < 1:
            raise RulesError(f"--cells must be positive, got {self.cells}")
        if self.samples_per_cell is not None:
            if self.precision is not None:
                raise RulesError("give --samples-per-cell or --precision, not both")
            if self.samples_per_cell < 2:
                raise RulesError(f"--samples-per-cell must be at least 2, got {self.samples_per_cell}")
        else:
            if self.precision is None:
                object.__setattr__(self, "precision", DEFAULT_PRECISION)
            if not self.precision > 0:
                raise RulesError(f"--precision must be positive, got {self.precision}")
            if self.min_samples < 2:
                raise RulesError(f"--min-samples must be at least 2, got {self.min_samples}")
            if not 1.0 < self.growth <= 16.0:
                raise RulesError(f"growth between looks must be in (1, 16], got {self.growth}")
            if self.max_samples < self.min_samples:
                raise RulesError(f"--max-samples ({self.max_samples}) must be at least --min-samples "
                                 f"({self.min_samples})")
        if self.knock_samples is not None and self.knock_samples < 2:
            raise RulesError(f"--knock-samples must be at least 2, got {self.knock_samples}")
        if self.seed is None:
            object.__setattr__(self, "seed", default_seed(self.rules, self.players))
        elif not 0 <= int(self.seed) < 2**63:
            raise RulesError(f"--seed must be in 0..2**63-1, got {self.seed}")

    @functools.cached_property
    def policy(self) -> Policy:
        """The opponents as the kernels see them."""
        return opponent_policy(self.opponents, self.rules, self.players)

    @property
    def adaptive(self) -> bool:
        return self.samples_per_cell is None

    @property
    def sample_range(self) -> tuple[int, int]:
        """(fewest, most) deals a cell gets."""
        if self.adaptive:
            return self.min_samples, self.max_samples
        return self.samples_per_cell, self.samples_per_cell

    def looks(self) -> list[int]:
        return looks(*self.sample_range, self.growth)

    def z_stop(self) -> float:
        return stop_z(len(self.looks()))

    def label(self) -> str:
        """Short text of the sample budget, for folder names and descriptions."""
        budget = f"p{self.precision:g}-{self.min_samples}-{self.max_samples}" if self.adaptive else \
            f"{self.samples_per_cell}x"
        return budget + ("-groups" if self.neighbours else "")

    def manifest(self) -> dict:
        lo, hi = self.sample_range
        return {
            "format": TABLE_FORMAT,
            "numbers": NUMBERS_VERSION,  # tables of another numbers version are never used (numbers_problem)
            "rules": self.rules.to_dict(),
            "players": self.players,
            "opponents": self.policy.to_dict() | {k: self.policy.meta[k] for k in OPPONENT_META
                                                  if k in self.policy.meta},
            "play": self.play,
            "samples_per_cell": self.samples_per_cell,
            "precision": self.precision,
            "min_samples": lo,
            "max_samples": hi,
            "growth": self.growth if self.adaptive else None,
            "stopping": None if not self.adaptive else {
                "looks": self.looks(), "alpha": STOP_ALPHA, "z_stop": self.z_stop(),
                "rule": "stop at the first look where |margin| > z_stop * se(margin) (Bonferroni over the "
                        "interim looks) or every 95% half-width < precision; sample i of cell c is stream "
                        "c * max_samples + i"},
            "seed": int(self.seed),
            "default_seed": int(self.seed) == default_seed(self.rules, self.players),
            "cells": self.cells,
            "knock_samples": self.knock_samples,
            "neighbours": None if not self.neighbours else neighbours_manifest(self),
            "exchange_rule": "opponents exchange their cards of keep value below discard_below; the asking player's "
                             "play is reported for its best discard count (docs/SIMULATION.md)",
            "passes_in_a_row": 0,
            "penalised_pass": "ev_pass_penalised: passing when this pass reaches the sit-out limit",
            "weights": "every statistic is a self-normalised weighted estimate (engine/table.py weighted_mean_var)",
        }

    def to_dict(self) -> dict:
        """Plain data to rebuild the spec with :meth:`from_dict` (what travels to Dask workers is the spec)."""
        return {"rules": self.rules.to_dict(), "players": self.players, "opponents": self.policy.to_data(),
                "play": self.play, "samples_per_cell": self.samples_per_cell, "seed": int(self.seed),
                "cells": self.cells, "precision": self.precision, "min_samples": self.min_samples,
                "max_samples": self.max_samples, "knock_samples": self.knock_samples, "growth": self.growth,
                "neighbours": self.neighbours}

    @classmethod
    def from_dict(cls, data: dict) -> TableSpec:
        data = dict(data)
        data["rules"] = RuleSet(**data["rules"])
        data["opponents"] = Policy.from_data(data["opponents"])
        return cls(**data)
