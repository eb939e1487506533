"""Where the score changes the decision (issue 21 item 5): a take-point chart of one hand over the score sheet.

For one hand and seat, every cell of a grid of (own score, the best opponent's
score), the other players at a fixed score, is asked by :func:`ask_game`: the
best choice by the game value (expected payout, RULES.md §9.3) beside the
per-hand answer. The per-hand answer is the same in every cell (the same seed
and samples give the same hand samples), so the map shows where following it
is wrong and what that costs: the game's best choice's expected payout minus
the per-hand answer's (stakes, each action at its best discard count by the
game, as ``ask --scores``' closing note compares them).

A cell's cost interval: the paired margin when the per-hand answer is the
game's runner-up (same deals); otherwise the two intervals combined in
quadrature, wider than the paired one since payouts on the same deals are
positively correlated.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from ..cardplay import DEFAULT_PLAY
from ..rules import RulesError, get_rules
from ..seeds import check_seed
from .ask import ask_game

DEFAULT_GRID = (1, 20, 3)  # own and best opponent's score: 1, 4, ..., 19
DEFAULT_SAMPLES = 2_000
MAX_CELLS = 400


@dataclass(frozen=True)
class Cell:
    own: int
    best: int  # the best opponent's score
    game: str  # the best action by the game value
    game_choice: str  # its choice (play: the discard count)
    payout: float  # its expected payout (stakes)
    p_win: float
    cost: float  # the game best's payout minus the per-hand answer's (stakes, >= 0 up to noise)
    cost_low: float
    cost_high: float

    def to_dict(self) -> dict:
        return {"own": self.own, "best_opponent": self.best, "game_best": self.game, "game_choice": self.game_choice,
                "payout": self.payout, "p_win": self.p_win, "cost": self.cost, "cost_95": [self.cost_low,
                                                                                          self.cost_high]}


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
    cells: list[Cell] = field(default_factory=list)

    def cell(self, own: int, best: int) -> Cell:
        return next(c for c in self.cells if c.own == own and c.best == best)

    @property
    def wrong(self) -> list[Cell]:
        """Cells where the game's best action is not the per-hand answer."""
        return [c for c in self.cells if c.game != self.per_hand]

    @property
    def share_wrong(self) -> float:
        return len(self.wrong) / len(self.cells)

    @property
    def share_clearly_wrong(self) -> float:
        """Cells where the per-hand answer is wrong and the cost's 95% interval lies above 0."""
        return sum(c.cost_low > 0 for c in self.wrong) / len(self.cells)

    @property
    def mean_cost(self) -> float:
        """What following the per-hand answer costs on average over the grid (stakes per hand, every cell equal)."""
        return sum(c.cost for c in self.wrong) / len(self.cells)

    def to_dict(self) -> dict:
        return {"hand": self.hand, "trump": self.trump, "rules": self.rules, "players": self.players,
                "seat": self.seat, "best_opponent_seat": self.leader, "others": self.others,
                "own_scores": list(self.own_scores), "best_opponent_scores": list(self.best_scores),
                "samples": self.samples, "seed": self.seed, "per_hand_recommendation": self.per_hand,
                "per_hand_ev": self.per_hand_ev, "share_wrong": self.share_wrong,
                "share_clearly_wrong": self.share_clearly_wrong, "mean_cost": self.mean_cost,
                "sign": "cost: expected payout (stakes, positive = received) of the game's best choice minus the "
                        "per-hand answer's",
                "cells": [c.to_dict() for c in self.cells]}


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
    player is at ``others`` (default: the start score). Every cell runs ``samples`` deals with the same ``seed``.
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
    out = None
    for own in own_scores:
        for best in best_scores:
            scores = [others] * players
            scores[seat], scores[leader] = own, best
            answer = ask_game(hand, trump, players, seat, scores, rules=rule_set, opponents=opponents, play=play,
                              samples=samples, seed=seed)
            if out is None:
                hand_best = answer.hand.recommendation
                out = ScoreMap(hand, trump, rule_set.name, players, seat, leader, others, tuple(own_scores),
                               tuple(best_scores), samples, seed, str(hand_best),
                               answer.hand.actions[hand_best].ev.mean)
            out.cells.append(_cell(answer, own, best))
            if progress is not None:
                progress(len(out.cells), cells_total)
    return out


def _cell(answer, own: int, best: int) -> Cell:
    actions = answer.game_actions()
    game, hand = answer.recommendation, answer.hand.recommendation
    top, win = answer.payout(actions[game]), answer.win[actions[game]]
    if game == hand:
        return Cell(own, best, str(game), str(actions[game]), top.mean, win.mean, 0.0, 0.0, 0.0)
    followed = answer.payout(actions[hand])
    cost = top.mean - followed.mean
    margin = answer.margin()
    if margin is not None and answer.by_game.runner_up == actions[hand]:
        low, high = margin.low, margin.high
    else:
        half = math.hypot(top.half_width, followed.half_width)
        low, high = cost - half, cost + half
    return Cell(own, best, str(game), str(actions[game]), top.mean, win.mean, cost, low, high)


def map_text(m: ScoreMap) -> str:
    """The map as text: one row per own score, one column per best opponent's score, the game's best action."""
    short = {"pass": ".", "play": "P", "rumba": "R", "throw-in": "T", "join": "J"}
    width = max(3, *(len(str(b)) + 1 for b in m.best_scores))
    lines = [f"{m.hand}, trump {m.trump}, {m.rules} {m.players} players, seat {m.seat}; best opponent in seat "
             f"{m.leader}, the others at {m.others}; {m.samples:,} deals per cell, seed {m.seed}",
             f"per hand: {m.per_hand} ({m.per_hand_ev:+.2f} points). Best by the game (. pass, P play, R Rumba, "
             f"T throw-in, J join; lower case: the per-hand answer is wrong but within noise):",
             "own \\ best opp " + "".join(f"{b:>{width}}" for b in m.best_scores)]
    for own in m.own_scores:
        row = []
        for best in m.best_scores:
            c = m.cell(own, best)
            mark = short.get(c.game, "?")
            if c.game != m.per_hand and c.cost_low <= 0:
                mark = mark.lower() if mark.isalpha() else ","
            row.append(f"{mark:>{width}}")
        lines.append(f"{own:>14} " + "".join(row))
    lines.append(f"The per-hand answer ({m.per_hand}) is wrong in {len(m.wrong)} of {len(m.cells)} states "
                 f"({m.share_wrong:.0%}; {m.share_clearly_wrong:.0%} with the cost's 95% interval above 0); following "
                 f"it costs {m.mean_cost:.2f} stakes of expected payout per hand on average over the grid.")
    worst = max(m.cells, key=lambda c: c.cost)
    if worst.cost > 0:
        lines.append(f"Largest cost: own {worst.own}, best opponent {worst.best}: {worst.game} ({worst.game_choice}) "
                     f"beats {m.per_hand} by {worst.cost:.2f} stakes (95% interval {worst.cost_low:.2f} to "
                     f"{worst.cost_high:.2f}), chance to win the game {worst.p_win:.1%}.")
    lines.append("Payout in stake units (points x stake), positive = received.")
    return "\n".join(lines)


__all__ = ["score_map", "ScoreMap", "Cell", "map_text", "grid_values", "DEFAULT_GRID", "DEFAULT_SAMPLES"]
