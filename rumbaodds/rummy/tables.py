"""How soon random dealt hands open: P(can open by turn k), by jokers held and by the value at the deal.

Each sample deals the player 13 random cards of the rule set's deck and plays
the turns of ``odds.py`` (same stock, discards and policy); turn 0 is the hand
as dealt (it can open at the first turn whatever comes). A second run pairs
each deal with the same deal where one of the player's real cards (drawn at
random) is swapped with an unseen joker, everything else equal: the *value of
a joker* is the mean of (turns to open without it) - (turns to open with it),
a turn not reached within the horizon counting as ``turns + 1`` (a restricted
mean: the true gain is at least this large where many hands do not open).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..seeds import check_seed
from ..stats import Estimate
from .cards import deck_types
from .odds import BATCH, MODE_DEAL, MODE_JOKER, check_run, rules_arrays, simulate_batch
from .rules import RummyRules, get_rummy_rules

TURNS = 15
PLAYERS = 4


@dataclass
class OpeningTable:
    """Per-sample results of random deals (and of the paired joker swap)."""

    rules: RummyRules
    turns: int
    players: int
    seed: int
    policy: str
    opened: np.ndarray  # turn opened, 0..turns, or turns + 1 when not within the horizon
    jokers: np.ndarray  # jokers in the dealt hand
    deal_value: np.ndarray  # opening value of the dealt hand (at most 12 of its 13 cards)
    pair_without: np.ndarray  # joker run: the deal as dealt (rows where a joker could be swapped in)
    pair_with: np.ndarray  # ... and with one real card swapped for an unseen joker
    pair_jokers: np.ndarray  # jokers held before the swap

    @property
    def samples(self) -> int:
        return int(self.opened.shape[0])

    @property
    def pairs(self) -> int:
        return int(self.pair_with.shape[0])


def curve(opened: np.ndarray, turns: int) -> list[Estimate]:
    """P(opened at or before turn k), k = 0..turns, with Wilson intervals."""
    n = int(opened.shape[0])
    counts = np.cumsum(np.bincount(opened, minlength=turns + 2))
    return [Estimate.of_proportion(int(counts[k]), n) for k in range(turns + 1)]


def joker_groups(jokers: np.ndarray) -> list[tuple[str, np.ndarray]]:
    top = int(jokers.max()) if jokers.size else 0
    groups = [(f"{j} joker{'s' if j != 1 else ''}", jokers == j) for j in range(min(top, 2) + 1)]
    if top >= 3:
        groups.append(("3+ jokers", jokers >= 3))
    return groups


def value_bins(threshold: int) -> list[tuple[int, int]]:
    """[lo, hi) bins of the opening value at the deal: 0, 1-9, 10-19, ..., up to the threshold, then the rest."""
    edges = [0, 1] + list(range(10, threshold, 10)) + [threshold]
    bins = [(edges[i], edges[i + 1]) for i in range(len(edges) - 1)]
    return bins + [(threshold, 10**6)]


def bin_label(lo: int, hi: int) -> str:
    if hi == lo + 1:
        return f"value {lo}"
    if hi >= 10**6:
        return f"value {lo}+ (opens)"
    return f"value {lo}-{hi - 1}"


def by_jokers(table: OpeningTable) -> list[tuple[str, int, list[Estimate]]]:
    return [(label, int(mask.sum()), curve(table.opened[mask], table.turns))
            for label, mask in joker_groups(table.jokers) if mask.any()]


def by_value(table: OpeningTable) -> list[tuple[str, int, list[Estimate]]]:
    out = []
    for lo, hi in value_bins(table.rules.opening_threshold):
        mask = (table.deal_value >= lo) & (table.deal_value < hi)
        if mask.any():
            out.append((bin_label(lo, hi), int(mask.sum()), curve(table.opened[mask], table.turns)))
    return out


def joker_value(table: OpeningTable, mask: np.ndarray | None = None) -> Estimate:
    """Mean turns sooner with one more joker (restricted to the horizon), 95% interval of the paired difference."""
    diff = (table.pair_without - table.pair_with).astype(float)
    if mask is not None:
        diff = diff[mask]
    return Estimate.of_mean(diff)


def joker_value_rows(table: OpeningTable) -> list[tuple[str, Estimate]]:
    rows = [("all deals", joker_value(table))]
    for label, mask in joker_groups(table.pair_jokers):
        if mask.sum() >= 2:
            rows.append((f"holding {label}", joker_value(table, mask)))
    return rows


def build_table(rules: RummyRules | str, samples: int = 100_000, seed: int | None = 0, turns: int = TURNS,
                players: int = PLAYERS, policy: str = "keep-high", pairs: int | None = None,
                progress: Callable[[int, int], None] | None = None) -> OpeningTable:
    """Simulate ``samples`` random deals and ``pairs`` (default: as many) joker-swap pairs."""
    rules = get_rummy_rules(rules)
    check_run(rules, players, turns, samples)
    seed = check_seed(seed)
    pairs = samples if pairs is None else pairs
    params, pm, tie = rules_arrays(rules, policy)
    pool = np.array(deck_types(rules), dtype=np.int64)
    hand = np.zeros(1, dtype=np.int64)
    total = samples + pairs
    parts = {"opened": [], "jokers": [], "value": [], "a": [], "b": [], "pj": []}
    done = 0
    for mode, count, first in ((MODE_DEAL, samples, 0), (MODE_JOKER, pairs, 1 << 40)):
        at = 0
        while at < count:
            n = min(BATCH, count - at)
            opened, value, jokers, opened_joker = simulate_batch(mode, hand, pool, -1, players, rules.hand_size, turns,
                                                                 params, pm, tie, seed, first + at, n)
            if mode == MODE_DEAL:
                parts["opened"].append(opened)
                parts["jokers"].append(jokers)
                parts["value"].append(value)
            else:
                ok = opened_joker >= 0
                parts["a"].append(opened[ok])
                parts["b"].append(opened_joker[ok])
                parts["pj"].append(jokers[ok])
            at += n
            done += n
            if progress is not None:
                progress(done, total)

    def cat(key):
        return np.concatenate(parts[key]) if parts[key] else np.zeros(0, dtype=np.int64)

    return OpeningTable(rules, turns, players, seed, policy, cat("opened"), cat("jokers"), cat("value"), cat("a"),
                        cat("b"), cat("pj"))


def table_dict(table: OpeningTable) -> dict:
    def rows(groups):
        return [{"group": label, "samples": n, "p": [e.mean for e in c], "ci": [[e.low, e.high] for e in c]}
                for label, n, c in groups]

    return {
        "rules": table.rules.name,
        "samples": table.samples,
        "pairs": table.pairs,
        "seed": table.seed,
        "turns": table.turns,
        "players": table.players,
        "policy": table.policy,
        "threshold": table.rules.opening_threshold,
        "all": rows([("all deals", table.samples, curve(table.opened, table.turns))]),
        "by_jokers": rows(by_jokers(table)),
        "by_value": rows(by_value(table)),
        "joker_value": [{"group": label, "turns_sooner": e.mean, "ci": [e.low, e.high], "samples": e.samples}
                        for label, e in joker_value_rows(table)],
    }


__all__ = ["OpeningTable", "build_table", "curve", "by_jokers", "by_value", "joker_value", "joker_value_rows",
           "value_bins", "table_dict", "TURNS", "PLAYERS"]
