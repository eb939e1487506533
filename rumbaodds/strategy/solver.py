"""Regret matching over simulated deals: strategies that are best responses to each other.

Each iteration every seat is the traverser on ``samples`` fresh deals
(``game.traverse_batch``): the others follow the current strategy, his every
action is scored on the same deal, and the regret of each action (how much
better it would have done than the current mix) is added to its information
set, regret matching+ style (negative sums are cut to 0). The current
strategy plays each action in proportion to its positive regret; the
reported strategy is the average of the current ones, weighted by the
iteration number and by how often the player himself reaches the set.
:func:`exploitability` measures, per seat, what a best response over the
same abstraction gains against the others (points per hand, 95% interval):
the response is chosen on one half of fresh deals and scored on the other
half, and the halves swap, so the estimate is never flattered by noise.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..cardplay import DEFAULT_PLAY
from ..engine import policy as P
from ..engine.play import POLICY_CODES
from ..engine.rng import mix64
from ..engine.rules_layout import rules_array
from ..rules import RulesError, RuleSet
from ..stats import Z95, Estimate
from .abstraction import Abstraction
from .game import (
    A_PASS,
    A_PLAY,
    I_CTX,
    I_KNOCK_DONE,
    I_KNOCK_SCORE,
    I_RANK,
    I_REACHED,
    I_SCORE,
    I_THROWABLE,
    UNSET,
    traverse_batch,
)
from .tables import Strategy, action_count, to_policy

DEFAULT_POLICY = POLICY_CODES[DEFAULT_PLAY]  # the card play of every answer (cardplay.py)


def check_solvable(rules: RuleSet) -> None:
    if rules.speaking_order != "one-round":
        raise RulesError(f"rule set {rules.name!r}: the solver handles speaking order one-round only "
                         f"(rumba-first gives a player two decisions in one hand)")


@dataclass
class Samples:
    """One batch of traversals: who traversed, what he knew, and every action's score."""

    seat: np.ndarray
    info: np.ndarray
    q: np.ndarray  # float, nan where an action is not allowed
    knock: np.ndarray | None = None  # float values of the dealer's knock where they are not its points (game values)

    @property
    def reached(self) -> np.ndarray:
        return self.info[:, I_REACHED] == 1

    @property
    def knock_score(self) -> np.ndarray:
        """The dealer traverser's value of knocking (points of the hand, or what ``knock`` says instead)."""
        return self.info[:, I_KNOCK_SCORE] if self.knock is None else self.knock


@dataclass
class SolveState:
    rules: RuleSet
    players: int
    abstraction: Abstraction
    seed: int
    samples: int  # per seat and iteration
    iteration: int = 0
    regret_word: np.ndarray = None
    regret_throw: np.ndarray = None
    regret_knock: np.ndarray = None
    avg_word: np.ndarray = None
    avg_throw: np.ndarray = None
    avg_knock: np.ndarray = None
    history: list = field(default_factory=list)
    against_average: bool = True
    # score-aware solves (score_solver.py) stack one strategy per score class: ``players`` rows of seats per class
    # and ``knock_rows`` ranks (16 per class); a per-hand solve has one class
    knock_rows: int = 16

    def __post_init__(self):
        check_solvable(self.rules)
        n, nb, na = self.players, self.abstraction.buckets, action_count(self.rules) - 1
        if self.regret_word is None:
            self.regret_word = np.zeros((n, P.NCTX, nb, na))
            self.regret_throw = np.zeros((n, P.NCTX, nb, 2))
            self.regret_knock = np.zeros((self.knock_rows, 2))
            self.avg_word = np.zeros((n, P.NCTX, nb, na))
            self.avg_throw = np.zeros((n, P.NCTX, nb, 2))
            self.avg_knock = np.zeros((self.knock_rows, 2))


def _normalise(weights: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    total = weights.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, weights / total, fallback)


def current_strategy(state: SolveState) -> Strategy:
    """Each action in proportion to its positive regret (uniform where none is positive)."""
    uniform = Strategy.uniform(state.rules, state.players, state.abstraction.buckets)
    word = _normalise(np.maximum(state.regret_word, 0.0), uniform.word)
    throw = _normalise(np.maximum(state.regret_throw, 0.0), np.full(state.regret_throw.shape, 0.5))[..., 0]
    knock = _normalise(np.maximum(state.regret_knock, 0.0), np.full(state.regret_knock.shape, 0.5))[:, 0]
    if not state.rules.knock:
        knock = np.zeros(state.knock_rows)
    return Strategy(word, throw, knock)


def average_strategy(state: SolveState) -> Strategy:
    """The reach-weighted average of the current strategies (what is shipped and measured)."""
    now = current_strategy(state)
    word = _normalise(state.avg_word, now.word)
    throw = _normalise(state.avg_throw, np.stack([now.throw, 1 - now.throw], axis=-1))[..., 0]
    knock = _normalise(state.avg_knock, np.stack([now.knock, 1 - now.knock], axis=-1))[:, 0]
    if not state.rules.knock:
        knock = np.zeros(state.knock_rows)
    return Strategy(word, throw, knock)


def simulate(rules: RuleSet, players: int, abstraction: Abstraction, strategy: Strategy, samples: int, seed: int,
             play: int = DEFAULT_POLICY, seats=None, table=None, knock_prob=None) -> Samples:
    """``samples`` traversals for each seat (or each of ``seats``) against ``strategy``.

    ``table``: other opponents than the strategy itself (a Policy; the traverser keeps the strategy's strength
    index, so his information sets are the strategy's); ``knock_prob``: their dealer's knock, by rank.
    """
    seats = np.arange(players) if seats is None else np.asarray(seats)
    own = to_policy(strategy, abstraction)
    knock = np.ascontiguousarray(strategy.knock if knock_prob is None else knock_prob, dtype=np.float64)  # one type
    parts = []
    for s in seats:
        pol = own if table is None else table.with_values(s, own.values[s])
        traversers = np.full(samples, s, dtype=np.int64)
        info, q = traverse_batch(rules.deck_array(), players, traversers, rules_array(rules), pol.as_tuple(),
                                 knock, play, np.uint64(seed), int(s) * samples, action_count(rules))
        parts.append((traversers, info, q))
    traversers = np.concatenate([p[0] for p in parts])
    info = np.concatenate([p[1] for p in parts])
    q = np.concatenate([p[2] for p in parts])
    qf = q.astype(np.float64)
    qf[q == UNSET] = np.nan
    return Samples(traversers, info, qf)


def _rows(samples: Samples, abstraction: Abstraction):
    bucket = abstraction.bucket_array()[samples.info[:, I_SCORE]]
    return samples.seat, samples.info[:, I_CTX], bucket


def mixed_values(samples: Samples, strategy: Strategy, abstraction: Abstraction):
    """Per sample: (value of his word under the strategy, with the throw-in mixed in, knock value, throw prob)."""
    seat, ctx, bucket = _rows(samples, abstraction)
    words = samples.q[:, :-1]
    legal = ~np.isnan(words)
    sigma = strategy.word[seat, ctx, bucket] * legal
    uniform = legal / np.maximum(legal.sum(axis=1, keepdims=True), 1)
    sigma = _normalise(sigma, uniform)
    word_value = np.nansum(sigma * np.nan_to_num(words), axis=1)
    throwable = samples.info[:, I_THROWABLE] == 1
    tau = np.where(throwable, strategy.throw[seat, ctx, bucket], 0.0)
    speak_value = np.where(samples.reached, (1 - tau) * word_value, 0.0)  # a throw-in scores 0 [D-4]
    kappa = strategy.knock[samples.info[:, I_RANK]]
    knocks = samples.info[:, I_KNOCK_DONE] == 1
    value = np.where(knocks, kappa * samples.knock_score + (1 - kappa) * speak_value, speak_value)
    return sigma, word_value, tau, speak_value, kappa, value


def iteration_seed(state: SolveState, t: int) -> int:
    """The deals of iteration ``t``: a stream of the solve's seed, the same on resuming."""
    return int(mix64(np.uint64(state.seed) ^ np.uint64(t * 0x9E3779B97F4A7C15 % 2**64)))


def iterate(state: SolveState, sampler: Callable[[Strategy, int], Samples] | None = None) -> None:
    """One regret-matching+ iteration, every seat traversing ``state.samples`` deals.

    ``sampler(table, seed)``: the traversals against ``table`` (default :func:`simulate` of one hand; the
    score-aware solve draws score states and values the outcomes in the game, ``score_solver.py``).
    """
    t = state.iteration + 1
    rules, abstraction = state.rules, state.abstraction
    strategy = current_strategy(state)
    seed = iteration_seed(state, t)
    # the others play their average so far (smooth, fictitious-play-like dynamics); regrets are of the current
    table = strategy if t == 1 or not state.against_average else average_strategy(state)
    if sampler is None:
        samples = simulate(rules, state.players, abstraction, table, state.samples, seed)
    else:
        samples = sampler(table, seed)
    seat, ctx, bucket = _rows(samples, abstraction)
    sigma, word_value, tau, speak_value, kappa, _value = mixed_values(samples, strategy, abstraction)
    reached = samples.reached
    words = samples.q[:, :-1]
    regret = np.where(np.isnan(words), 0.0, word_value[:, None] - np.nan_to_num(words))
    scale = 1.0 / state.samples
    delta = np.zeros_like(state.regret_word)
    np.add.at(delta, (seat[reached], ctx[reached], bucket[reached]), regret[reached] * scale)
    state.regret_word = np.maximum(state.regret_word + delta, 0.0)
    # the throw-in, where his hand may be thrown in
    thr = reached & (samples.info[:, I_THROWABLE] == 1)
    both = (1 - tau) * word_value
    delta_t = np.zeros_like(state.regret_throw)
    np.add.at(delta_t, (seat[thr], ctx[thr], bucket[thr]),
              np.stack([both[thr] - 0.0, both[thr] - word_value[thr]], axis=1) * scale)
    state.regret_throw = np.maximum(state.regret_throw + delta_t, 0.0)
    # the dealer's blind knock
    knocks = samples.info[:, I_KNOCK_DONE] == 1
    if rules.knock and knocks.any():
        rank = samples.info[knocks, I_RANK]
        q_k = samples.knock_score[knocks].astype(float)
        q_n = speak_value[knocks]
        v = kappa[knocks] * q_k + (1 - kappa[knocks]) * q_n
        delta_k = np.zeros_like(state.regret_knock)
        np.add.at(delta_k, rank, np.stack([v - q_k, v - q_n], axis=1) * scale)
        state.regret_knock = np.maximum(state.regret_knock + delta_k, 0.0)
    # the average, weighted by the iteration and by his own reach (the dealer did not knock, he did not throw in)
    own = np.where(knocks, 1 - kappa, 1.0) * (1 - tau)
    reach = np.zeros(state.regret_word.shape[:3])
    np.add.at(reach, (seat[reached], ctx[reached], bucket[reached]), own[reached])
    state.avg_word += t * reach[..., None] * strategy.word
    reach_t = np.zeros(state.regret_throw.shape[:3])
    np.add.at(reach_t, (seat[thr], ctx[thr], bucket[thr]), np.where(knocks, 1 - kappa, 1.0)[thr])
    state.avg_throw += t * reach_t[..., None] * np.stack([strategy.throw, 1 - strategy.throw], axis=-1)
    if rules.knock and knocks.any():
        rows = state.knock_rows
        count = np.bincount(samples.info[knocks, I_RANK], minlength=rows)[:rows].astype(float)
        state.avg_knock += t * count[:, None] * np.stack([strategy.knock, 1 - strategy.knock], axis=-1)
    state.iteration = t


# -- exploitability -----------------------------------------------------------------------------
def _best_responses(samples: Samples, strategy: Strategy, abstraction: Abstraction, mask: np.ndarray):
    """Pure best responses per information set, chosen on the samples in ``mask``."""
    seat, ctx, bucket = _rows(samples, abstraction)
    n = strategy.players
    nb = abstraction.buckets
    words = samples.q[:, :-1]
    sel = mask & samples.reached
    sums = np.zeros((n, P.NCTX, nb, words.shape[1]))
    counts = np.zeros_like(sums)
    finite = ~np.isnan(words)
    np.add.at(sums, (seat[sel], ctx[sel], bucket[sel]), np.nan_to_num(words[sel]))
    np.add.at(counts, (seat[sel], ctx[sel], bucket[sel]), finite[sel].astype(float))
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(counts > 0, sums / counts, np.inf)
    best_mean = means.min(axis=-1)
    # throw-in: better than his best word where that word loses points on average
    throw_best = best_mean > 0.0
    # the knock: against the best response's own value when he does not knock
    _sigma, _wv, _tau, _sv, _kappa, _value = mixed_values(samples, strategy, abstraction)
    knocks = mask & (samples.info[:, I_KNOCK_DONE] == 1)
    rank = samples.info[:, I_RANK]
    br_speak = _respond(samples, abstraction, means, throw_best)
    knock_better = np.zeros(len(strategy.knock), dtype=bool)
    for r in range(len(strategy.knock)):
        pick = knocks & (rank == r)
        if pick.any():
            knock_better[r] = samples.knock_score[pick].mean() < br_speak[pick].mean()
    return means, throw_best, knock_better, counts.max(axis=-1)


def _respond(samples: Samples, abstraction: Abstraction, means, throw_best) -> np.ndarray:
    """Per sample: the score of the pure response when he does not knock (0 where nothing was reached).

    The response is chosen by the choosing half's means alone: his best action by those means among the ones the
    rules allow on this deal (the jack of trump turned forbids a pass, §5.2, inside the same information set). It
    never looks at this deal's own outcomes: a fallback to the best realised outcome would be clairvoyant and
    inflate the gain (it did, by about 0.06 points per hand in flemish, where the jack rule applies).
    """
    seat, ctx, bucket = _rows(samples, abstraction)
    words = samples.q[:, :-1]
    legal = ~np.isnan(words)
    ranked = np.where(legal, means[seat, ctx, bucket], np.inf)
    # never seen in the choosing half (every mean inf): the first allowed action, still not chosen by outcome
    choice = np.where(np.isfinite(ranked).any(axis=1), ranked.argmin(axis=1), legal.argmax(axis=1))
    score = np.nan_to_num(words[np.arange(len(choice)), choice])
    throws = (samples.info[:, I_THROWABLE] == 1) & throw_best[seat, ctx, bucket]
    score = np.where(throws, 0.0, score)
    return np.where(samples.reached, score, 0.0)


def exploitability(rules: RuleSet, players: int, abstraction: Abstraction, strategy: Strategy, samples: int,
                   seed: int, play: int = DEFAULT_POLICY, table=None, knock_prob=None) -> dict[int, Estimate]:
    """Per seat: the points per hand a best response (same abstraction) gains over playing ``strategy``.

    Against the strategy itself (``table`` None) that is its exploitability; against a table of another style it
    is what reading the table is worth.
    """
    data = simulate(rules, players, abstraction, strategy, samples, seed, play, table=table, knock_prob=knock_prob)
    gain = response_gains(data, strategy, abstraction)
    out = {}
    for s in range(players):
        g = gain[data.seat == s]
        mean = float(g.mean())
        half = Z95 * float(g.std(ddof=1)) / math.sqrt(len(g))
        out[s] = Estimate(mean, mean - half, mean + half, len(g))
    return out


def response_gains(data: Samples, strategy: Strategy, abstraction: Abstraction, min_seen: int = 0) -> np.ndarray:
    """Per sample: what the best response gains over ``strategy``, chosen on one half of the samples and scored on
    the other (and the halves swapped), so that noise never flatters it.

    ``min_seen``: where the choosing half saw an information set fewer times, the response keeps the strategy there
    (gain 0): a choice from a handful of deals is mostly noise, and noise only pulls the estimate down (the
    score-aware strategies have 72 times the sets; the per-hand figures keep 0, as recorded).
    """
    _sigma, _wv, _tau, _sv, _kappa, value = mixed_values(data, strategy, abstraction)
    gain = np.zeros(len(value))
    halves = (np.arange(len(value)) % 2 == 0)
    seat, ctx, bucket = _rows(data, abstraction)
    for choose, score_on in ((halves, ~halves), (~halves, halves)):
        means, throw_best, knock_better, seen = _best_responses(data, strategy, abstraction, choose)
        response = _respond(data, abstraction, means, throw_best)
        knocks = data.info[:, I_KNOCK_DONE] == 1
        knock_now = knocks & knock_better[data.info[:, I_RANK]]
        response = np.where(knock_now, data.knock_score, response)
        if min_seen:
            thin = data.reached & (seen[seat, ctx, bucket] < min_seen)
            response = np.where(thin & ~knocks, value, response)
        gain[score_on] = (value - response)[score_on]
    return gain


def total_exploitability(per_seat: dict[int, Estimate]) -> Estimate:
    """The sum over seats (independent estimates: their variances add)."""
    mean = sum(e.mean for e in per_seat.values())
    half = math.sqrt(sum(e.half_width ** 2 for e in per_seat.values()))
    n = sum(e.samples for e in per_seat.values())
    return Estimate(mean, mean - half, mean + half, n)


__all__ = ["SolveState", "iterate", "iteration_seed", "response_gains", "Samples", "current_strategy",
           "average_strategy", "exploitability", "total_exploitability", "simulate",
           "check_solvable", "A_PASS", "A_PLAY"]
