"""Solving the score-aware strategies: regret matching where a hand's outcome is valued in the game (issue 38).

The per-hand solver (``solver.py``) scores every action of the traverser by
his points this hand. Here the same regret matching runs over one strategy
per score class, and an action is scored by what it does to his expected
payout at the end of the game:

1. **The game's values.** Games are simulated from the start score
   (``scored.scored_batch`` recording every hand's score state): in the
   first round by the per-hand equilibrium, in each later round by the
   previous round's average strategy at every seat; ``ValueTable`` is each player's mean final payout by (his
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
3. **The value of an outcome.** Each action of the traverser is played to
   the end by every seat (``game.traverse_full``, also when he passes), and
   the hand's result moves every player's score as the score sheet does
   (the sit-out penalty of each passer's streak included). Where somebody is
   at the goal or below, the game is over and he is paid as §9.2 says
   (``settled_payout``); else the value is ``ValueTable`` at his new
   distance and the leader's, times the new state's scale. The loss of an
   action is the value now minus that value (a throw-in, which changes no
   score, loses 0 as in the per-hand solver). So a seat sees what its play
   does to the leader: a pass that lets him go out, a trick that stops him.

What it leaves out, said in docs/STRATEGY.md: the values are those of the
previous round's games (no further fixed point), the table's values see only
two distances (not the passes or the third player's score; the seat in the
hand only with ``by_seat``, ``--values-by-seat``), and
the dealer's blind knock is valued by his own points only.
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
from ..match.score import PLAYED, VOID_NOBODY, game_array
from ..match.scored import scored_batch
from ..rules import RulesError, RuleSet
from ..stats import Z95, Estimate
from . import store
from .game import I_KNOCK_DONE, I_KNOCK_SCORE, I_RANK, UNSET, traverse_full
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
MIN_SEEN = 50  # a best response keeps the strategy in an information set seen fewer times (solver.response_gains)


@dataclass
class ValueTable:
    """Expected final payout of a player by his distance to the goal and the leader's, in units of
    ``payout_scale``."""

    table: np.ndarray  # [distance, leader distance], index 0 unused
    counts: np.ndarray
    by_seat: np.ndarray | None = None  # [distance, leader distance, his seat in the hand]: where the model sees it

    @classmethod
    def fit(cls, own: np.ndarray, lead: np.ndarray, payout: np.ndarray, size: int, seat: np.ndarray | None = None,
            players: int = 0) -> ValueTable:
        """``seat`` (his seat in the hand the state deals, 0 first to speak): also by seat, each cell shrunk toward
        its (distance, leader distance) cell."""
        own = np.clip(own, 1, size - 1)
        lead = np.clip(lead, 1, size - 1)
        sums = np.zeros((size, size))
        counts = np.zeros((size, size))
        np.add.at(sums, (own, lead), payout)
        np.add.at(counts, (own, lead), 1.0)
        row_mean = sums.sum(axis=1) / np.maximum(counts.sum(axis=1), 1.0)
        table = (sums + SHRINK * row_mean[:, None]) / (counts + SHRINK)
        if seat is None:
            return cls(table, counts)
        seat_sums = np.zeros((size, size, players))
        seat_counts = np.zeros((size, size, players))
        np.add.at(seat_sums, (own, lead, seat), payout)
        np.add.at(seat_counts, (own, lead, seat), 1.0)
        return cls(table, counts, (seat_sums + SHRINK * table[..., None]) / (seat_counts + SHRINK))

    @property
    def size(self) -> int:
        return self.table.shape[0]

    def value(self, own, lead, seat=None) -> np.ndarray:
        own, lead = np.clip(own, 1, self.size - 1), np.clip(lead, 1, self.size - 1)
        if self.by_seat is None or seat is None:
            return self.table[own, lead]
        return self.by_seat[own, lead, seat]


def payout_scale(rules: RuleSet, others: np.ndarray) -> np.ndarray:
    """The unit of the game's values in a state: what winning it now would pay, about (the others' counted
    scores; 1 where a win pays 1)."""
    if rules.payout == "win-only":
        return np.ones(len(others))
    counted = np.maximum(others, 0) if rules.score_floor else others
    return np.maximum(counted.sum(axis=1), 1).astype(float)


def settled_payout(rules: RuleSet, scores: np.ndarray, player: np.ndarray) -> np.ndarray:
    """``player``'s payout of each final score row (``score.settle``, vectorised: winners at the goal or below
    [D-18], ``lowest`` only the lowest, the floor [D-19], the payout rule [D-20]); 0 where nobody is at the goal."""
    rows = np.arange(len(scores))
    counted = np.maximum(scores, 0) if rules.score_floor else scores
    won = scores <= rules.goal_score
    if rules.winners == "lowest":
        won &= counted == counted.min(axis=1, keepdims=True)
    winners = won.sum(axis=1)
    mine = counted[rows, player].astype(float)
    if rules.payout == "pairwise":
        out = counted.sum(axis=1) - scores.shape[1] * mine
    elif rules.payout == "win-only":
        out = np.where(won[rows, player], 1.0 / np.maximum(winners, 1), 0.0)
    else:
        losers = np.where(won, 0, counted).sum(axis=1)
        out = np.where(won[rows, player], losers / np.maximum(winners, 1), -mine)
    return np.where(winners > 0, out, 0.0)


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


def fit_values(rules: RuleSet, trace: Trace, by_seat: bool = False) -> ValueTable:
    """The game's values of ``trace``'s states (``by_seat``: also by each player's seat in the hand dealt)."""
    n = trace.scores.shape[1]
    goal = rules.goal_score
    dist = trace.scores - goal
    own, lead, pay, seat = [], [], [], []
    for p in range(n):
        others = np.delete(dist, p, axis=1)
        own.append(dist[:, p])
        lead.append(others.min(axis=1))
        pay.append(trace.payout[:, p] / payout_scale(rules, np.delete(trace.scores, p, axis=1)))
        seat.append((p - trace.dealer - 1) % n)
    size = rules.start_score - goal + 16
    return ValueTable.fit(np.concatenate(own), np.concatenate(lead), np.concatenate(pay), size,
                          np.concatenate(seat) if by_seat else None, n)


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
            info, q, kinds, changes, passed = traverse_full(
                rules.deck_array(), n, traversers, self.rp, seat_pol, knock, DEFAULT_POLICY,
                np.uint64(mix64(np.uint64(seed) ^ np.uint64(k + 1))), 0, action_count(rules))
            parts.append(self._valued(scores, passes, dealer, classes, traversers, info, q, kinds, changes, passed))
        seat = np.concatenate([p[0] for p in parts])
        info = np.concatenate([p[1] for p in parts])
        q = np.concatenate([p[2] for p in parts])
        knock = np.concatenate([p[3] for p in parts])
        return Samples(seat, info, q, knock)

    def _valued(self, scores, passes, dealer, classes, traversers, info, q, kinds, changes, passed):
        """Every action's loss in the game: the hand's outcome for every seat applied to the score state (as
        ``score.apply_hand`` does), then the traverser's payout if somebody reached the goal, else the table's
        value at his and the leader's new distance."""
        n, rules = self.n, self.rules
        count = len(traversers)
        seat_player = (dealer + 1 + np.arange(n)) % n
        me = seat_player[traversers]
        now = self.state_value(np.broadcast_to(scores, (count, n)), me, np.full(count, dealer))
        after = np.broadcast_to(scores, kinds.shape + (n,)).copy()  # [sample, action, player]
        due = self.penalty[np.minimum(passes, 63)]  # by player: what a pass costs at his streak
        played = kinds == PLAYED
        for s in range(n):
            p = seat_player[s]
            after[..., p] += np.where(played, changes[..., s] + passed[..., s] * due[p], 0)
        if rules.void_counts_as_pass:
            after += np.where((kinds == VOID_NOBODY)[..., None], due[None, None, :], 0)
        mine = np.broadcast_to(me[:, None], kinds.shape)
        deals_next = np.where(played, (dealer + 1) % n, dealer)  # a void hand is dealt again by him [D-17]
        value = self.state_value(after.reshape(-1, n), mine.reshape(-1), deals_next.reshape(-1)).reshape(kinds.shape)
        qf = now[:, None] - value
        qf[(q == UNSET) | (kinds < 0)] = np.nan
        # the dealer's blind knock: his own points only (the knock's other seats are not kept)
        knock_after = np.broadcast_to(scores, (count, n)).copy()
        knock_after[np.arange(count), me] += info[:, I_KNOCK_SCORE]
        knock = np.where(info[:, I_KNOCK_DONE] == 1,
                         now - self.state_value(knock_after, me, np.full(count, (dealer + 1) % n)), 0.0)
        info = info.copy()
        info[:, I_RANK] += classes[n - 1] * 16
        return classes[traversers] * n + traversers, info, qf, knock

    def state_value(self, scores: np.ndarray, player: np.ndarray, dealer: np.ndarray | None = None) -> np.ndarray:
        """``player``'s value of each score state (rows of ``scores``, by player; ``dealer``: who deals its hand):
        his payout where the game is over (§9.2, ``settled_payout``), else the table's value at his and the
        leader's distance (and his seat, where the table has it), in units of the state's ``payout_scale``."""
        rows = np.arange(len(scores))
        goal = self.rules.goal_score
        others = scores.astype(float).copy()
        others[rows, player] = np.inf
        lead = others.min(axis=1)
        own = scores[rows, player]
        mask = np.ones(scores.shape, dtype=bool)
        mask[rows, player] = False
        rest = scores[mask].reshape(len(scores), -1)
        seat = None if dealer is None else (player - dealer - 1) % scores.shape[1]
        value = self.values.value(own - goal, lead.astype(np.int64) - goal, seat) * payout_scale(self.rules, rest)
        over = (scores <= goal).any(axis=1)
        if over.any():
            value = np.where(over, settled_payout(self.rules, scores, player), value)
        return value


def sampler_for(rules: RuleSet, players: int, games: int, seed: int, samples: int, states: int,
                near_weight: float = NEAR_WEIGHT, base: store.Solved | None = None,
                by_seat: bool = False) -> tuple[store.Solved, GameSampler]:
    """(the per-hand equilibrium, a sampler over the score states of ``games`` games it plays). ``base``: another
    per-hand equilibrium than the one solved for ``rules`` (a fingerprint's negative control plays a changed rule
    set with the shipped strategy)."""
    base = base or store.find(rules, players)
    hand_pol = to_policy(base.strategy, base.abstraction)
    knock = np.asarray(base.strategy.knock, dtype=np.float64)
    table = game_table(rules, players, [("hand-equilibrium", hand_pol, knock)] * players, None)
    trace = trace_games(rules, players, table, games, seed)
    return base, GameSampler(rules, players, base.abstraction, trace, fit_values(rules, trace, by_seat), samples,
                             states, near_weight)


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
    gain = response_gains(data, strategy, sampler.abstraction, MIN_SEEN)
    seat = data.seat % players
    out = {}
    for s in range(players):
        g = gain[seat == s]
        half = Z95 * float(g.std(ddof=1)) / np.sqrt(len(g))
        out[s] = Estimate(float(g.mean()), float(g.mean()) - half, float(g.mean()) + half, len(g))
    return out


def rescored_sampler(rules: RuleSet, players: int, base: store.Solved, strategy: Strategy, games: int, seed: int,
                     samples: int, states: int, near_weight: float = NEAR_WEIGHT, by_seat: bool = False) -> GameSampler:
    """A sampler whose game values and states come from games the score-aware ``strategy`` plays at every seat."""
    solved = store.Solved(strategy, rules, players, base.abstraction, {"name": "score-equilibrium"})
    table = game_table(rules, players, [("equilibrium", None, None)] * players, solved)
    trace = trace_games(rules, players, table, games, seed)
    return GameSampler(rules, players, base.abstraction, trace, fit_values(rules, trace, by_seat), samples, states,
                       near_weight)


def solve_score(rules: RuleSet, players: int, iterations: int = 120, samples: int = 80_000, seed: int = 0,
                games: int = 40_000, states: int = 40, eval_samples: int = 400_000, out: Path | None = None,
                progress: Callable[[int, int], None] | None = None, rounds: int = 2,
                base: store.Solved | None = None, by_seat: bool = False) -> store.Solved:
    """Solve (or resume) the score-aware strategy of ``rules`` at ``players`` and write it; returns it.

    ``rounds``: the iterations are split into rounds; the first values outcomes by the games of the per-hand
    equilibrium, each later round by the games the previous round's average strategy plays (so that the values
    the strategy answers are, at the end, those of its own games). ``base``: the per-hand equilibrium to start
    from where it is not a solved file (the tiny game of tests/test_exact_game.py). ``by_seat``: the game's
    values also by each player's seat in the hand (who deals next), not only by the two distances.
    """
    rules.check_players(players)
    if not 1 <= rounds <= iterations:
        raise RulesError(f"--rounds must be 1..--iterations, got {rounds}")
    base, sampler = sampler_for(rules, players, games, seed, samples, states, base=base, by_seat=by_seat)
    out = Path(out) if out is not None else default_path(rules, players)
    settings = {"rules": rules.to_dict(), "players": players, "samples": samples, "seed": seed, "games": games,
                "states": states, "iterations": iterations, "rounds": rounds, "numbers": engine.NUMBERS_VERSION}
    if by_seat:
        settings["values_by_seat"] = True
    ckpt = store.cache_folder() / "checkpoints" / f"{out.stem}.{engine.NUMBERS_TAG}.state.npz"
    state, seconds = _resume(ckpt, settings) or (prior_state(rules, players, base, samples, seed), 0.0)
    per_round = -(-iterations // rounds)
    played_by = None  # the strategy whose games give this round's values (None: the per-hand equilibrium)
    if state.history:  # resumed in a later round (``history``: the iterations where rounds began)
        played_by = _round_strategy(ckpt)
        sampler = rescored_sampler(rules, players, base, played_by, games, seed + state.history[-1] // per_round,
                                   samples, states, by_seat=by_seat)
    while state.iteration < iterations:
        start = time.perf_counter()
        if state.iteration and state.iteration % per_round == 0 and state.history[-1:] != [state.iteration]:
            played_by = average_strategy(state)
            sampler = rescored_sampler(rules, players, base, played_by, games, seed + state.iteration // per_round,
                                       samples, states, by_seat=by_seat)
            state.history.append(state.iteration)
        iterate(state, sampler)
        seconds += time.perf_counter() - start
        _save(ckpt, state, seconds, settings, played_by)
        if progress is not None:
            progress(state.iteration, iterations)
    strategy = average_strategy(state)
    trace, values = sampler.trace, sampler.values
    natural = GameSampler(rules, players, base.abstraction, trace, values, eval_samples, states * 4, 1.0)
    gains = exploitability(natural, strategy, players, seed + 104729)
    blind = exploitability(natural, score_blind(base, players), players, seed + 104729)
    meta = {"name": "score-equilibrium", "play": DEFAULT_PLAY, "iterations": state.iteration, "rounds": rounds,
            "samples_per_iteration": samples, "states_per_iteration": states, "games": games, "seed": seed,
            "seconds": round(seconds, 1), "classes": CLASSES, "base": base.path.name if base.path else None,
            "exploitability_stakes": {str(s): e.__dict__ for s, e in gains.items()},
            "hand_equilibrium_exploitability_stakes": {str(s): e.__dict__ for s, e in blind.items()},
            "values": {"payout_in_units_of_a_win_now_by_distance": values.table[1:, 1:].mean(axis=1).round(3).tolist()},
            "value_model": "own distance, leader's distance" + (", seat in the hand" if by_seat else ""),
            "method": "regret matching+ over score classes, outcomes valued by the game's values "
                      "(rumbaodds/strategy/score_solver.py)"}
    solved = store.Solved(strategy, rules, players, base.abstraction, meta)
    store.save(out, solved)
    solved.path = out
    return solved


def score_blind(base: store.Solved, players: int) -> Strategy:
    """The per-hand strategy ``base`` played alike in every score class (what a score-blind player plays)."""
    return Strategy(np.tile(base.strategy.word, (CLASSES, 1, 1, 1)), np.tile(base.strategy.throw, (CLASSES, 1, 1)),
                    np.tile(base.strategy.knock, CLASSES))


STATE = ("regret_word", "regret_throw", "regret_knock", "avg_word", "avg_throw", "avg_knock")


def _save(path: Path, state: SolveState, seconds: float, settings: dict, played_by: Strategy | None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}.npz")
    record = {"settings": settings, "iteration": state.iteration, "seconds": seconds, "history": state.history,
              "abstraction": state.abstraction.to_dict()}
    rounds = {} if played_by is None else {"round_word": played_by.word, "round_throw": played_by.throw,
                                           "round_knock": played_by.knock}
    np.savez(tmp, record=np.array(json.dumps(record)), **{k: getattr(state, k) for k in STATE}, **rounds)
    os.replace(tmp, path)


def _grows(old: dict, new: dict) -> bool:
    """A finished solve may go on with more rounds of the same length (``--iterations 300 --rounds 3`` after 200 in
    2): the rounds it played are those of the longer solve, so it ends where an unbroken longer solve ends."""
    rest = ("iterations", "rounds")
    same = {k: v for k, v in old.items() if k not in rest} == {k: v for k, v in new.items() if k not in rest}
    return (same and new["iterations"] > old["iterations"] and old["iterations"] % old["rounds"] == 0
            and old["iterations"] // old["rounds"] == -(-new["iterations"] // new["rounds"]))


def _round_strategy(path: Path) -> Strategy:
    with np.load(path, allow_pickle=False) as data:
        return Strategy(data["round_word"], data["round_throw"], data["round_knock"])


def _resume(path: Path, settings: dict):
    if not path.exists():
        return None
    from .abstraction import Abstraction

    with np.load(path, allow_pickle=False) as data:
        record = json.loads(str(data["record"]))
        if record["settings"] != settings and not _grows(record["settings"], settings):
            raise RulesError(f"{path} holds a score-aware solve with other settings; remove it or solve with the "
                             f"same options (or more iterations in more rounds of the same length)")
        rules = RuleSet(**settings["rules"])
        state = SolveState(rules, CLASSES * settings["players"], Abstraction.from_dict(record["abstraction"]),
                           settings["seed"], settings["samples"], record["iteration"], *(data[k] for k in STATE),
                           history=record.get("history", []), knock_rows=CLASSES * 16)
    return state, float(record["seconds"])


__all__ = ["solve_score", "sampler_for", "prior_state", "ValueTable", "GameSampler", "trace_games", "fit_values",
           "payout_scale", "exploitability"]
