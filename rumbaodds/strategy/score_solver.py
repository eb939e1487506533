"""Solving the score-aware strategies: regret matching where a hand's outcome is valued in the game (issue 38).

The per-hand solver (``solver.py``) scores every action of the traverser by
his points this hand. Here the same regret matching runs over one strategy
per score class, and an action is scored by what it does to his expected
payout at the end of the game:

1. **The game's values.** Games are simulated from the start score with the
   per-hand equilibrium (``scored.scored_batch`` recording every hand's score
   state); ``ValueTable`` is each player's mean final payout by (his
   distance to the goal, the leader's), shrunk toward the mean at his
   distance where a cell has few records. The payout is measured in units of
   what winning now would pay him (``payout_scale``: the others' counted
   scores under ``to-winners`` and ``pairwise``, 1 under ``win-only``), so
   that a state where the others stand higher is worth more in proportion.
2. **States.** Each iteration draws score states from those games (states
   where someone is within 8 points of the goal four times as often: that is
   where the classes differ) and deals ``samples / states`` hands per seat
   from each. Every other seat decides by the current average strategy of
   its own class; the traverser's information set is (class, seat, context,
   strength bucket).
3. **The value of an outcome.** His points ``d`` this hand (plus the sit-out
   penalty a pass costs at his streak) take him from distance ``x`` to
   ``x + d``: at the goal or below he wins, paid as §9 says with the others'
   scores as they stood; above it, ``ValueTable(x + d, leader)`` times the
   state's scale. The loss of an action is the value now minus that value (a throw-in, which
   changes no score, loses 0 as in the per-hand solver).

What it leaves out, said in docs/STRATEGY.md: the game's values are those of
the per-hand equilibrium, a seat values only its own points (not how its play
moves the leader's), and the passes and the dealer do not enter the values.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import engine
from ..cardplay import DEFAULT_PLAY
from ..engine.rng import mix64
from ..engine.rules_layout import rules_array
from ..match.score import game_array
from ..match.scored import scored_batch
from ..rules import RulesError, RuleSet
from ..stats import Z95, Estimate
from . import store
from .game import A_PASS, I_KNOCK_DONE, I_KNOCK_SCORE, I_RANK, UNSET, traverse_batch
from .score_aware import default_path, game_table
from .score_classes import CLASSES, seat_classes
from .solver import DEFAULT_POLICY, Samples, SolveState, average_strategy, iterate, response_gains
from .tables import Strategy, action_count, to_policy

NEAR = 8  # a state where somebody is this close to the goal is drawn NEAR_WEIGHT times as often
NEAR_WEIGHT = 4.0
SHRINK = 20.0  # records a ValueTable cell needs to weigh as much as the mean at its distance
PRIOR_REGRET = 0.002  # the per-hand equilibrium's weight as the start of every class's regrets (stakes)
PRIOR_REACH = 50.0  # and in the average strategy (visits of iteration one)
TRACE = 256  # hands recorded per game


@dataclass
class ValueTable:
    """Expected final payout of a player by his distance to the goal and the leader's, in units of
    ``payout_scale``."""

    table: np.ndarray  # [distance, leader distance], index 0 unused
    counts: np.ndarray

    @classmethod
    def fit(cls, own: np.ndarray, lead: np.ndarray, payout: np.ndarray, size: int) -> ValueTable:
        own = np.clip(own, 1, size - 1)
        lead = np.clip(lead, 1, size - 1)
        sums = np.zeros((size, size))
        counts = np.zeros((size, size))
        np.add.at(sums, (own, lead), payout)
        np.add.at(counts, (own, lead), 1.0)
        row_mean = sums.sum(axis=1) / np.maximum(counts.sum(axis=1), 1.0)
        table = (sums + SHRINK * row_mean[:, None]) / (counts + SHRINK)
        return cls(table, counts)

    @property
    def size(self) -> int:
        return self.table.shape[0]

    def value(self, own, lead) -> np.ndarray:
        return self.table[np.clip(own, 1, self.size - 1), np.clip(lead, 1, self.size - 1)]


def payout_scale(rules: RuleSet, others: np.ndarray) -> np.ndarray:
    """The unit of the game's values in a state: what winning it now would pay, about (the others' counted
    scores; 1 where a win pays 1)."""
    if rules.payout == "win-only":
        return np.ones(len(others))
    counted = np.maximum(others, 0) if rules.score_floor else others
    return np.maximum(counted.sum(axis=1), 1).astype(float)


def win_payout(rules: RuleSet, others: np.ndarray, own_after: np.ndarray) -> np.ndarray:
    """§9.2 for a player who reaches the goal alone (``others``: the other players' scores as they stood)."""
    counted = np.maximum(others, 0) if rules.score_floor else others
    mine = np.maximum(own_after, 0) if rules.score_floor else own_after
    if rules.payout == "win-only":
        return np.ones(len(own_after))
    if rules.payout == "pairwise":
        return (counted - mine[:, None]).sum(axis=1)
    return counted.sum(axis=1).astype(float)


@dataclass
class Trace:
    """Score states of simulated games and every player's final payout."""

    scores: np.ndarray  # [records, n] by player
    passes: np.ndarray
    dealer: np.ndarray
    payout: np.ndarray  # [records, n]: the game's final payout of each player

    def near(self, goal: int) -> np.ndarray:
        return (self.scores - goal).min(axis=1) <= NEAR


def trace_games(rules: RuleSet, players: int, table, games: int, seed: int) -> Trace:
    """Games from the start score by ``table`` (score_aware.GameTable), every hand's state recorded."""
    from ..match.kernel import MAX_HANDS

    scores0 = np.full(players, rules.start_score, dtype=np.int64)
    _f, _w, pays, deals, ts, tp, td = scored_batch(
        rules.deck_array(), players, scores0, np.zeros(players, np.int64), players - 1, rules_array(rules),
        game_array(rules), table.stack, table.knock_stack, table.fixed, table.fixed_knock, table.aware,
        DEFAULT_POLICY, np.uint64(seed), np.uint64(0), games, MAX_HANDS, TRACE)
    keep = deals > 0
    rows = (td >= 0) & keep[:, None]
    game = np.nonzero(rows)[0]
    return Trace(ts[rows].astype(np.int64), tp[rows].astype(np.int64), td[rows].astype(np.int64),
                 pays[game].astype(np.float64))


def fit_values(rules: RuleSet, trace: Trace) -> ValueTable:
    n = trace.scores.shape[1]
    goal = rules.goal_score
    dist = trace.scores - goal
    own, lead, pay = [], [], []
    for p in range(n):
        others = np.delete(dist, p, axis=1)
        own.append(dist[:, p])
        lead.append(others.min(axis=1))
        pay.append(trace.payout[:, p] / payout_scale(rules, np.delete(trace.scores, p, axis=1)))
    size = rules.start_score - goal + 16
    return ValueTable.fit(np.concatenate(own), np.concatenate(lead), np.concatenate(pay), size)


class GameSampler:
    """Traversals from score states, every outcome valued in the game (the module docstring's steps 2 and 3)."""

    def __init__(self, rules: RuleSet, players: int, abstraction, trace: Trace, values: ValueTable,
                 samples: int, states: int, near_weight: float = NEAR_WEIGHT):
        self.rules, self.n, self.abstraction = rules, players, abstraction
        self.trace, self.values = trace, values
        self.samples, self.states = samples, states
        weight = np.where(trace.near(rules.goal_score), near_weight, 1.0)
        self.p = weight / weight.sum()
        self.rp = rules_array(rules)
        self.penalty = np.array([rules.pass_penalty(k) for k in range(64)], dtype=np.int64)

    def __call__(self, table: Strategy, seed: int) -> Samples:
        n, rules = self.n, self.rules
        rng = np.random.default_rng(seed)
        picks = rng.choice(len(self.p), size=self.states, p=self.p)
        pol = to_policy(table, self.abstraction)
        knock_all = table.knock
        per_state = max(1, self.samples // self.states)
        parts = []
        classes = np.zeros(n, dtype=np.int64)
        for k, r in enumerate(picks):
            scores, passes, dealer = self.trace.scores[r], self.trace.passes[r], int(self.trace.dealer[r])
            seat_classes(scores, passes, dealer, rules.goal_score, self.rp, classes)
            rows = classes * n + np.arange(n)
            seat_pol = (pol.ints[:n], pol.values[:n], pol.words[rows], pol.throws[rows], pol.exchanges[rows])
            cd = int(classes[n - 1])
            knock = np.ascontiguousarray(knock_all[cd * 16:(cd + 1) * 16], dtype=np.float64)
            traversers = np.repeat(np.arange(n), per_state)
            info, q = traverse_batch(rules.deck_array(), n, traversers, self.rp, seat_pol, knock, DEFAULT_POLICY,
                                     np.uint64(mix64(np.uint64(seed) ^ np.uint64(k + 1))), 0, action_count(rules))
            parts.append(self._valued(scores, passes, dealer, classes, traversers, info, q))
        seat = np.concatenate([p[0] for p in parts])
        info = np.concatenate([p[1] for p in parts])
        q = np.concatenate([p[2] for p in parts])
        knock = np.concatenate([p[3] for p in parts])
        return Samples(seat, info, q, knock)

    def _valued(self, scores, passes, dealer, classes, traversers, info, q):
        n, goal = self.n, self.rules.goal_score
        player = (dealer + 1 + traversers) % n
        own = scores[player] - goal
        mask = np.ones((len(traversers), n), dtype=bool)
        mask[np.arange(len(traversers)), player] = False
        others = np.broadcast_to(scores, (len(traversers), n))[mask].reshape(len(traversers), n - 1)
        lead = others.min(axis=1) - goal
        scale = payout_scale(self.rules, others)
        now = self.values.value(own, lead) * scale

        def worth(change):
            after = own + change
            won = after <= 0
            out = self.values.value(after, lead) * scale
            if won.any():
                out = np.where(won, win_payout(self.rules, others, after + goal), out)
            return now - out

        qf = q.astype(np.float64)
        unset = q == UNSET
        extra = self.penalty[np.minimum(passes[player], 63)] - self.penalty[0]
        for a in range(q.shape[1] - 1):  # the throw-in (last column) changes no score: 0, as in the hand solver
            change = q[:, a].astype(np.int64) + (extra if a == A_PASS else 0)
            qf[:, a] = worth(change)
        qf[unset] = np.nan
        knock = np.where(info[:, I_KNOCK_DONE] == 1, worth(info[:, I_KNOCK_SCORE]), 0.0)
        info = info.copy()
        info[:, I_RANK] += classes[n - 1] * 16
        return classes[traversers] * n + traversers, info, qf, knock


def sampler_for(rules: RuleSet, players: int, games: int, seed: int, samples: int, states: int,
                near_weight: float = NEAR_WEIGHT) -> tuple[store.Solved, GameSampler]:
    """(the per-hand equilibrium, a sampler over the score states of ``games`` games it plays)."""
    from ..opponents.resolve import opponent_policy

    base = store.find(rules, players)
    hand_pol = opponent_policy("equilibrium", rules, players)
    knock = np.asarray(base.strategy.knock, dtype=np.float64)
    table = game_table(rules, players, [("hand-equilibrium", hand_pol, knock)] * players, None)
    trace = trace_games(rules, players, table, games, seed)
    return base, GameSampler(rules, players, base.abstraction, trace, fit_values(rules, trace), samples, states,
                             near_weight)


def prior_state(rules: RuleSet, players: int, base: store.Solved, samples: int, seed: int) -> SolveState:
    """Every class starts as the per-hand equilibrium: its regrets and its average lean on it."""
    state = SolveState(rules, CLASSES * players, base.abstraction, seed, samples, knock_rows=CLASSES * 16)
    word = np.tile(base.strategy.word, (CLASSES, 1, 1, 1))
    throw = np.tile(base.strategy.throw, (CLASSES, 1, 1))
    knock = np.tile(base.strategy.knock, CLASSES)
    throw2 = np.stack([throw, 1 - throw], axis=-1)
    knock2 = np.stack([knock, 1 - knock], axis=-1)
    state.regret_word, state.avg_word = PRIOR_REGRET * word, PRIOR_REACH * word
    state.regret_throw, state.avg_throw = PRIOR_REGRET * throw2, PRIOR_REACH * throw2
    state.regret_knock, state.avg_knock = PRIOR_REGRET * knock2, PRIOR_REACH * knock2
    return state


def exploitability(sampler: GameSampler, strategy: Strategy, players: int, seed: int) -> dict[int, Estimate]:
    """Per seat: the stakes per hand a best response over the classes gains against ``strategy`` (95%)."""
    data = sampler(strategy, seed)
    gain = response_gains(data, strategy, sampler.abstraction)
    seat = data.seat % players
    out = {}
    for s in range(players):
        g = gain[seat == s]
        half = Z95 * float(g.std(ddof=1)) / np.sqrt(len(g))
        out[s] = Estimate(float(g.mean()), float(g.mean()) - half, float(g.mean()) + half, len(g))
    return out


def solve_score(rules: RuleSet, players: int, iterations: int = 60, samples: int = 40_000, seed: int = 0,
                games: int = 20_000, states: int = 40, eval_samples: int = 200_000, out: Path | None = None,
                progress: Callable[[int, int], None] | None = None) -> store.Solved:
    """Solve (or resume) the score-aware strategy of ``rules`` at ``players`` and write it; returns it."""
    rules.check_players(players)
    base, sampler = sampler_for(rules, players, games, seed, samples, states)
    trace, values = sampler.trace, sampler.values
    out = Path(out) if out is not None else default_path(rules, players)
    settings = {"rules": rules.to_dict(), "players": players, "samples": samples, "seed": seed, "games": games,
                "states": states, "numbers": engine.NUMBERS_VERSION}
    ckpt = store.cache_folder() / "checkpoints" / f"{out.stem}.{engine.NUMBERS_TAG}.state.npz"
    state, seconds = _resume(ckpt, settings) or (prior_state(rules, players, base, samples, seed), 0.0)
    while state.iteration < iterations:
        start = time.perf_counter()
        iterate(state, sampler)
        seconds += time.perf_counter() - start
        _save(ckpt, state, seconds, settings)
        if progress is not None:
            progress(state.iteration, iterations)
    strategy = average_strategy(state)
    natural = GameSampler(rules, players, base.abstraction, trace, values, eval_samples, states * 4, 1.0)
    gains = exploitability(natural, strategy, players, seed + 104729)
    blind = exploitability(natural, _tiled(base, players), players, seed + 104729)
    meta = {"name": "score-equilibrium", "play": DEFAULT_PLAY, "iterations": state.iteration,
            "samples_per_iteration": samples, "states_per_iteration": states, "games": games, "seed": seed,
            "seconds": round(seconds, 1), "classes": CLASSES, "base": base.path.name if base.path else None,
            "exploitability_stakes": {str(s): e.__dict__ for s, e in gains.items()},
            "hand_equilibrium_exploitability_stakes": {str(s): e.__dict__ for s, e in blind.items()},
            "values": {"payout_in_units_of_a_win_now_by_distance": values.table[1:, 1:].mean(axis=1).round(3).tolist()},
            "method": "regret matching+ over score classes, outcomes valued by the game's values "
                      "(rumbaodds/strategy/score_solver.py)"}
    solved = store.Solved(strategy, rules, players, base.abstraction, meta)
    store.save(out, solved)
    solved.path = out
    return solved


def _tiled(base: store.Solved, players: int) -> Strategy:
    return Strategy(np.tile(base.strategy.word, (CLASSES, 1, 1, 1)), np.tile(base.strategy.throw, (CLASSES, 1, 1)),
                    np.tile(base.strategy.knock, CLASSES))


STATE = ("regret_word", "regret_throw", "regret_knock", "avg_word", "avg_throw", "avg_knock")


def _save(path: Path, state: SolveState, seconds: float, settings: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}.npz")
    record = {"settings": settings, "iteration": state.iteration, "seconds": seconds,
              "abstraction": state.abstraction.to_dict()}
    np.savez(tmp, record=np.array(json.dumps(record)), **{k: getattr(state, k) for k in STATE})
    os.replace(tmp, path)


def _resume(path: Path, settings: dict):
    if not path.exists():
        return None
    from .abstraction import Abstraction

    with np.load(path, allow_pickle=False) as data:
        record = json.loads(str(data["record"]))
        if record["settings"] != settings:
            raise RulesError(f"{path} holds a score-aware solve with other settings; remove it or solve with the "
                             f"same options")
        rules = RuleSet(**settings["rules"])
        state = SolveState(rules, CLASSES * settings["players"], Abstraction.from_dict(record["abstraction"]),
                           settings["seed"], settings["samples"], record["iteration"], *(data[k] for k in STATE),
                           knock_rows=CLASSES * 16)
    return state, float(record["seconds"])


__all__ = ["solve_score", "sampler_for", "prior_state", "ValueTable", "GameSampler", "trace_games", "fit_values",
           "win_payout", "payout_scale", "exploitability"]
