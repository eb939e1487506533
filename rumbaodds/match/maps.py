"""Where the score changes the decision (issue 21 item 5): a take-point chart of one hand over the score sheet.

For one hand and seat, every cell of a grid of (own score, the best opponent's
score), the other players at a fixed score, is asked by :func:`ask_game`: the
best choice by the game value (expected payout, RULES.md §9.3) beside the
per-hand answer (``ask``'s, one run of ``samples`` deals with ``seed``, with
its margin in points), so the map shows where following the per-hand answer
is wrong and what that costs: the game's best choice's expected payout minus
the per-hand action's (stakes, each action at its best discard count by the
game, as ``ask --scores``' closing note compares them).

Honest by design (issue 38 item 4): taking the best of noisy estimates and
then measuring its margin on the same deals biases the cost upward, and one
seed for every cell makes whole rows flip together. So every cell has two
runs of its own, with seeds derived from ``seed`` and the cell: the
*choosing* run names the game's best action (and each action's discard
count), the *measuring* run, on other deals, values the chosen action
against the per-hand one, paired on its deals. The cost of a cell is that
measured difference (0 where the choosing run keeps the per-hand answer);
the grid's mean cost is the mean of the cells' costs with its 95% interval
(independent cells); the share of states where the per-hand answer is wrong
is given as an interval: at least the cells the measuring run confirms (the
cost's interval above 0), at most those it cannot clear (the chosen action
differs, or the per-hand action's game margin over the runner-up is not
above 0 there).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field

from ..answer import simulation
from ..cardplay import DEFAULT_PLAY
from ..rules import RulesError, get_rules
from ..seeds import check_seed
from ..stats import Z95, Estimate
from .ask import ask_game

DEFAULT_GRID = (1, 20, 3)  # own and best opponent's score: 1, 4, ..., 19
DEFAULT_SAMPLES = 2_000
MAX_CELLS = 400


@dataclass(frozen=True)
class Cell:
    own: int
    best: int  # the best opponent's score
    game: str  # the best action by the game value (the choosing run)
    game_choice: str  # its choice (play: the discard count)
    payout: float  # its expected payout (stakes, the measuring run)
    p_win: float  # its chance to win the game (the measuring run)
    cost: float  # the game best's payout minus the per-hand answer's, measured on other deals (0 where they agree)
    cost_low: float
    cost_high: float
    cleared: bool = True  # the measuring run shows the per-hand action best (its game margin above 0)

    @property
    def confirmed(self) -> bool:
        """The per-hand answer is wrong here, confirmed on the measuring run's deals."""
        return self.cost_low > 0

    def to_dict(self) -> dict:
        return {"own": self.own, "best_opponent": self.best, "game_best": self.game, "game_choice": self.game_choice,
                "payout": self.payout, "p_win": self.p_win, "cost": self.cost, "cost_95": [self.cost_low,
                                                                                          self.cost_high],
                "confirmed": self.confirmed, "cleared": self.cleared}


@dataclass
class ScoreMap:
    hand: str
    trump: str
    rules: str
    players: int
    seat: int
    leader: int  # the seat of the best opponent
    others: int  # every other player's score
    own_scores: tuple[int, ...]
    best_scores: tuple[int, ...]
    samples: int
    seed: int
    per_hand: str  # the per-hand answer (the same in every cell)
    per_hand_ev: float  # its expected score change this hand (points)
    per_hand_margin: Estimate | None = None  # points it beats the per-hand runner-up by (None: nothing to compare)
    per_hand_runner_up: str | None = None
    cells: list[Cell] = field(default_factory=list)

    def cell(self, own: int, best: int) -> Cell:
        return next(c for c in self.cells if c.own == own and c.best == best)

    @property
    def wrong(self) -> list[Cell]:
        """Cells where the choosing run's best action by the game is not the per-hand answer."""
        return [c for c in self.cells if c.game != self.per_hand]

    @property
    def share_wrong(self) -> float:
        return len(self.wrong) / len(self.cells)

    @property
    def share_clearly_wrong(self) -> float:
        """Cells where the measuring run confirms that the per-hand answer is wrong: the share's lower end."""
        return sum(c.confirmed for c in self.cells) / len(self.cells)

    @property
    def share_wrong_95(self) -> tuple[float, float]:
        """The share of states where the per-hand answer is wrong: at least the confirmed cells, at most every cell
        the measuring run does not clear."""
        unclear = sum(1 for c in self.cells if c.game != self.per_hand or not c.cleared)
        return self.share_clearly_wrong, unclear / len(self.cells)

    @property
    def mean_cost(self) -> float:
        """What following the per-hand answer costs on average over the grid (stakes per hand, every cell equal)."""
        return sum(c.cost for c in self.cells) / len(self.cells)

    @property
    def mean_cost_95(self) -> tuple[float, float]:
        """The mean cost's 95% interval: every cell measured on deals of its own, so their variances add."""
        var = sum(((c.cost_high - c.cost_low) / (2 * Z95)) ** 2 for c in self.cells) / len(self.cells) ** 2
        half = Z95 * math.sqrt(var)
        return self.mean_cost - half, self.mean_cost + half

    def to_dict(self) -> dict:
        margin = self.per_hand_margin
        return {"hand": self.hand, "trump": self.trump, "rules": self.rules, "players": self.players,
                "seat": self.seat, "best_opponent_seat": self.leader, "others": self.others,
                "own_scores": list(self.own_scores), "best_opponent_scores": list(self.best_scores),
                "samples": self.samples, "seed": self.seed, "per_hand_recommendation": self.per_hand,
                "per_hand_ev": self.per_hand_ev, "per_hand_runner_up": self.per_hand_runner_up,
                "per_hand_margin": None if margin is None else margin.mean,
                "per_hand_margin_95": None if margin is None else [margin.low, margin.high],
                "share_wrong": self.share_wrong, "share_wrong_95": list(self.share_wrong_95),
                "share_clearly_wrong": self.share_clearly_wrong, "mean_cost": self.mean_cost,
                "mean_cost_95": list(self.mean_cost_95),
                "design": "each cell: the game's best action chosen on one run, its cost measured on another "
                          "(seeds derived from seed and the cell)",
                "sign": "cost: expected payout (stakes, positive = received) of the game's best choice minus the "
                        "per-hand answer's",
                "cells": [c.to_dict() for c in self.cells]}


def cell_seed(seed: int, own: int, best: int, run: str) -> int:
    """The seed of one run of one cell (``choose`` or ``measure``): derived, so cells and runs never share deals."""
    text = f"game-map:{seed}:{own}:{best}:{run}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") & ((1 << 63) - 1)


def grid_values(start: int, stop: int, step: int, name: str = "--own") -> tuple[int, ...]:
    """``start, start + step, ... <= stop`` (a score grid; RulesError when empty or not a grid)."""
    if step < 1 or stop < start:
        raise RulesError(f"{name}: {start}..{stop} step {step} is not a grid (write e.g. 1,20,3)")
    return tuple(range(start, stop + 1, step))


def score_map(hand, trump, players: int, seat: int, own_scores, best_scores, rules="swiss", others: int | None = None,
              leader: int | None = None, samples: int = DEFAULT_SAMPLES, seed: int | None = 0,
              opponents=None, play: str = DEFAULT_PLAY,
              progress: Callable[[int, int], None] | None = None) -> ScoreMap:
    """The best choice by the game in every cell of ``own_scores`` x ``best_scores`` for the player in ``seat``.

    The best opponent sits in ``leader`` (default: the seat after the player's, wrapping round); every other
    player is at ``others`` (default: the start score). The per-hand answer is ``ask``'s with ``samples`` deals
    and ``seed``; every cell runs ``samples`` deals twice, to choose and to measure, with seeds of its own
    (:func:`cell_seed`).
    """
    rule_set = get_rules(rules)
    others = rule_set.start_score if others is None else int(others)
    leader = (seat + 1) % players if leader is None else int(leader)
    if not 0 <= seat < players:
        raise RulesError(f"--seat: seat {seat} does not exist with {players} players (0..{players - 1})")
    if not 0 <= leader < players or leader == seat:
        raise RulesError(f"--leader: the best opponent's seat must be another seat 0..{players - 1}, got {leader}")
    if max(best_scores) > others:
        raise RulesError(f"--best: the best opponent's score {max(best_scores)} is above the others' {others}")
    cells_total = len(own_scores) * len(best_scores)
    if cells_total > MAX_CELLS:
        raise RulesError(f"--own x --best: {cells_total} cells, more than {MAX_CELLS} (take a coarser step)")
    seed = check_seed(seed)
    per_hand = simulation.ask(hand, trump, players, seat, rule_set, opponents=opponents, play=play, samples=samples,
                              seed=seed)
    out = ScoreMap(hand, trump, rule_set.name, players, seat, leader, others, tuple(own_scores), tuple(best_scores),
                   samples, seed, str(per_hand.recommendation), per_hand.actions[per_hand.recommendation].ev.mean,
                   per_hand.margin, per_hand.runner_up)
    for own in own_scores:
        for best in best_scores:
            scores = [others] * players
            scores[seat], scores[leader] = own, best
            runs = [ask_game(hand, trump, players, seat, scores, rules=rule_set, opponents=opponents, play=play,
                             samples=samples, seed=cell_seed(seed, own, best, run)) for run in ("choose", "measure")]
            out.cells.append(_cell(*runs, out.per_hand, own, best))
            if progress is not None:
                progress(len(out.cells), cells_total)
    return out


def _cell(choose, measure, per_hand: str, own: int, best: int) -> Cell:
    """One cell: the action chosen on ``choose``'s deals, valued on ``measure``'s."""
    actions = choose.game_actions()
    game = str(choose.recommendation)
    chosen = actions[game]
    value, win = measure.payout(chosen), measure.win[chosen]
    if game == per_hand:  # kept: nothing is lost by following the per-hand answer here
        margin = measure.margin()
        cleared = measure.recommendation == per_hand and (margin is None or margin.low > 0)
        return Cell(own, best, game, str(chosen), value.mean, win.mean, 0.0, 0.0, 0.0, cleared)
    if per_hand not in actions:  # the per-hand answer is not open by the game (cannot happen: the same choices)
        raise RulesError(f"the per-hand answer {per_hand} is not among the game's choices")
    cost = measure.payout_difference(chosen, actions[per_hand])
    return Cell(own, best, game, str(chosen), value.mean, win.mean, cost.mean, cost.low, cost.high, False)


def map_text(m: ScoreMap) -> str:
    """The map as text: one row per own score, one column per best opponent's score, the game's best action."""
    short = {"pass": ".", "play": "P", "rumba": "R", "throw-in": "T", "join": "J"}
    width = max(3, *(len(str(b)) + 1 for b in m.best_scores))
    margin = m.per_hand_margin
    ahead = "" if margin is None else (f", ahead of {m.per_hand_runner_up} by {margin.mean:.2f} points "
                                       f"[{margin.low:.2f}, {margin.high:.2f}]")
    lines = [f"{m.hand}, trump {m.trump}, {m.rules} {m.players} players, seat {m.seat}; best opponent in seat "
             f"{m.leader}, the others at {m.others}; {m.samples:,} deals per cell and run, seed {m.seed}",
             f"per hand: {m.per_hand} ({m.per_hand_ev:+.2f} points{ahead}). Best by the game, chosen on one run "
             f"(. pass, P play, R Rumba, T throw-in, J join; lower case: the other run does not confirm it beats "
             f"the per-hand answer):",
             "own \\ best opp " + "".join(f"{b:>{width}}" for b in m.best_scores)]
    for own in m.own_scores:
        row = []
        for best in m.best_scores:
            c = m.cell(own, best)
            mark = short.get(c.game, "?")
            if c.game != m.per_hand and not c.confirmed:
                mark = mark.lower() if mark.isalpha() else ","
            row.append(f"{mark:>{width}}")
        lines.append(f"{own:>14} " + "".join(row))
    low, high = m.share_wrong_95
    cost_low, cost_high = m.mean_cost_95
    lines.append(f"The per-hand answer ({m.per_hand}) is wrong in {low:.0%} to {high:.0%} of the {len(m.cells)} "
                 f"states (95%: confirmed on other deals, or not cleared by them); following it costs "
                 f"{m.mean_cost:.2f} stakes of expected payout per hand on average over the grid (95% interval "
                 f"{cost_low:.2f} to {cost_high:.2f}), measured on deals that did not choose.")
    worst = max(m.cells, key=lambda c: c.cost_low)
    if worst.confirmed:
        lines.append(f"Largest sure cost: own {worst.own}, best opponent {worst.best}: {worst.game} "
                     f"({worst.game_choice}) beats {m.per_hand} by {worst.cost:.2f} stakes (95% interval "
                     f"{worst.cost_low:.2f} to {worst.cost_high:.2f}), chance to win the game {worst.p_win:.1%}.")
    lines.append("Payout in stake units (points x stake), positive = received.")
    return "\n".join(lines)


__all__ = ["score_map", "ScoreMap", "Cell", "map_text", "grid_values", "cell_seed", "DEFAULT_GRID", "DEFAULT_SAMPLES"]
