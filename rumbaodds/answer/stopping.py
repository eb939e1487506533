"""When a simulation of ``ask`` stops: after its deals, at its precision, or (the default) once its answer is settled.

Three rules, one loop (:func:`rumbaodds.answer.simulation.simulate`):

- :class:`FixedDeals`: ``--samples N``, exactly N deals (batches of 50,000, as always);
- :class:`Precision`: ``--precision P``, until every 95% half-width is below P points (or the 20,000,000 cap);
- :class:`Settled`, the default: looks at 4,000, 8,000, 16,000, ... deals, capped at 200,000 (the old fixed
  default, so no answer costs more work than before), and stops at the first look where

  * the effective sample size is at least :data:`MIN_ESS` (importance-weighted deals after rare earlier words
    count for less: their intervals are only trusted from there), and
  * the recommendation is settled: the paired margin between the best choice and the runner-up is more than
    ``z`` standard errors from 0, ``z`` the Bonferroni critical value of a 5% error over the looks (2.69 for
    seven), so looking often does not inflate the chance of calling a tie; or it is a tie to within
    :data:`TIE` points (its 95% half-width is below that: "too close to call" is then the answer), and
  * the same for the best exchange against the second-best where play is the recommendation, and
  * every expected value's 95% half-width is below :data:`DEFAULT_PRECISION` points;

  or when the next look would end after :data:`TIME_BUDGET_S` seconds: then the answer says so (its deals and
  seed, ``--seed S --samples N`` repeats it; ``--precision`` asks for more). A question that names its
  ``--seed`` has no time budget: it stops at a look or the cap alone, so the same command gives the same
  answer on any machine, however loaded (it may then take longer than the budget).

:class:`Settled` with ``budget`` and ``first`` also settles what a table left open (:mod:`rumbaodds.answer`):
there ``check`` judges the table's numbers merged with the simulated ones. The time budget is the only
non-deterministic part: an unseeded run that stops on it is repeated exactly by ``--samples N --seed S`` (up to
the last bits of the sums, which the batch sizes order).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from statistics import NormalDist

from .. import limits
from ..cardplay import SEARCHED_PLAY
from ..rules import RulesError
from ..stats import Z95
from .results import Accumulator

BATCH = 50_000  # deals per kernel call of a fixed or precision run (unchanged: their sums add in this order)
CHUNK = 2_000  # deals per kernel call of a settled run: the time budget is checked this often
DEFAULT_CAP = 200_000  # the old fixed default: a default answer never simulates more
FIRST_LOOK = 4_000
SETTLE_FIRST_LOOK = 2_000
DEFAULT_PRECISION = 0.05  # points: the values a default answer shows are known to +-0.05
TIE = 0.02  # points: two choices whose paired difference is known to +-0.02 are too close to call
MIN_ESS = 1_000
ALPHA = 0.05
TIME_BUDGET_S = 6.0  # a default answer, warm, stays under 10 s with a command line's start-up (3 s, loaded)
SETTLE_BUDGET_S = 4.0  # settling what a table left open: "a few seconds"


def settled_looks(first: int, cap: int) -> list[int]:
    out = [min(first, cap)]
    while out[-1] < cap:
        out.append(min(cap, out[-1] * 2))
    return out


def z_stop(looks: int, alpha: float = ALPHA) -> float:
    """Bonferroni critical value over ``looks`` looks: two-sided, family-wise error ``alpha``."""
    return NormalDist().inv_cdf(1 - alpha / (2 * max(1, looks)))


def sure(estimate, z: float) -> bool:
    """Is this difference (runner-up less best, or second exchange less best) more than z standard errors above 0,
    or known to within TIE (a tie)? None counts as settled (nothing to compare)."""
    if estimate is None:
        return True
    half = estimate.half_width
    if not math.isfinite(half):
        return False
    return estimate.mean > z * half / Z95 or half <= TIE


@dataclass
class FixedDeals:
    deals: int
    batch: int = BATCH
    planned: int | None = None
    reason: str = "deals"

    def __post_init__(self):
        self.planned = self.deals

    def next_count(self, done: int) -> int:
        return min(self.batch, self.deals - done)

    def check(self, done: int, view, elapsed: float) -> str | None:
        return None


@dataclass
class Precision:
    precision: float
    batch: int = BATCH
    planned: int | None = None
    reason: str = "precision"

    def next_count(self, done: int) -> int:
        return self.batch if done < limits.MAX_DEALS else 0

    def check(self, done: int, view, elapsed: float) -> str | None:
        if max(view.option_halves()) < self.precision:
            return "precision"
        return "cap" if done >= limits.MAX_DEALS else None


@dataclass
class Settled:
    """The default rule (module docstring); ``judge(result)`` may replace what is settled (the table's open parts)."""

    cap: int = DEFAULT_CAP
    first: int = FIRST_LOOK
    budget: float = TIME_BUDGET_S
    precision: float | None = DEFAULT_PRECISION
    judge: Callable | None = None  # result -> bool: settled (default: decision, exchange, precision)
    chunk: int = CHUNK  # deals per kernel call
    looks: list[int] = field(default_factory=list)
    planned: int | None = None
    reason: str = "cap"

    def __post_init__(self):
        self.looks = settled_looks(self.first, self.cap)
        self.z = z_stop(len(self.looks))
        self.planned = self.looks[0]

    def next_count(self, done: int) -> int:
        return min(self.chunk, self.cap - done)

    def check(self, done: int, view, elapsed: float) -> str | None:
        if done in self.looks:
            self.planned = next((x for x in self.looks if x > done), self.cap)
            if view.ess() >= MIN_ESS and (self.judge or self.settled)(view.answer()):
                return "settled"
        if done >= self.cap:
            return "cap"
        rate = elapsed / max(1, done)
        if elapsed + rate * min(self.chunk, self.cap - done) > self.budget:
            return "time"
        return None

    def settled(self, result) -> bool:
        if not sure(result.margin, self.z):
            return False
        if result.recommendation == "play" and result.exchange is not None \
                and not sure(result.exchange.difference, self.z):
            return False
        return self.precision is None or max(c.ev.half_width for c in result.actions.values()) <= self.precision


def rule_for(question, batch: int = BATCH) -> FixedDeals | Precision | Settled:
    """The stopping rule of a question: its --samples, its --precision (``batch`` deals per kernel call), else the
    default (:class:`Settled`, without a time budget when the question names its seed). Play by search
    (``--play pimc``, some hundreds of times the work a deal) has its own sizes: :func:`searched_rule`."""
    if question.play == SEARCHED_PLAY:
        return searched_rule(question)
    if question.samples is not None:
        return FixedDeals(question.samples, batch)
    if question.precision is not None:
        return Precision(question.precision, batch)
    if question.seed is not None:  # --seed alone: reproducible, so no clock decides where it stops
        return Settled(budget=math.inf)
    return Settled()


SEARCH_CHUNK = 250  # deals per kernel call with play by search: a progress step about every second
SEARCH_FIRST_LOOK = 1_000
SEARCH_CAP = 16_000  # a default answer by search: under a minute on two cores (README)
SEARCH_BUDGET_S = 45.0


def searched_rule(question) -> FixedDeals | Precision | Settled:
    """:func:`rule_for` with play by search: the same three rules in small steps, and a default that looks from
    1,000 deals, stops at 16,000 and, unseeded, within 45 s."""
    if question.samples is not None:
        return FixedDeals(question.samples, SEARCH_CHUNK)
    if question.precision is not None:
        return Precision(question.precision, SEARCH_CHUNK)
    budget = math.inf if question.seed is not None else SEARCH_BUDGET_S
    return Settled(cap=SEARCH_CAP, first=SEARCH_FIRST_LOOK, budget=budget, chunk=SEARCH_CHUNK)


class Clock:
    """Seconds since the run started (one place, so tests can stand in a clock of their own)."""

    def __init__(self):
        self.start = time.perf_counter()

    def __call__(self) -> float:
        return time.perf_counter() - self.start


def run(job, seed: int, device, rule, progress: Callable[[int, int], None] | None = None, clock=None, acc=None,
        result_of: Callable | None = None):
    """Simulate ``job``'s deals from ``seed`` until ``rule`` stops: (the Accumulator, why it stopped, seconds).

    ``result_of(job, seed, acc)``: the answer of the deals so far (``simulation.result_of``), for rules that judge it.
    """
    acc = acc or Accumulator(len(getattr(job, 'slots', job.names)), job.situation.players + 1)
    clock = clock or Clock()
    view = View(job, seed, acc, result_of)
    reason = rule.reason
    while True:
        count = rule.next_count(acc.n)
        if count <= 0:
            break
        results, tries, weights = job.batch(seed, acc.n, count, device)
        if (tries < 0).any():
            raise RulesError("no deal matches what the earlier seats did: this situation is impossible under the "
                             "opponent model")
        acc.add(results, tries, weights)
        view.answered = None
        if progress is not None:
            progress(acc.n, rule.planned or acc.n)
        stop = rule.check(acc.n, view, clock())
        if stop is not None:
            reason = stop
            break
    return acc, reason, clock()


class View:
    """What a rule may look at after a batch, computed only when it asks: the answer, the half-widths, the ESS."""

    def __init__(self, job, seed: int, acc, result_of: Callable | None = None):
        self.job, self.seed, self.acc, self.result_of = job, seed, acc, result_of
        self.answered = None

    def answer(self):
        if self.answered is None:
            self.answered = self.result_of(self.job, self.seed, self.acc)
        return self.answered

    def option_halves(self) -> list[float]:
        return [self.acc.estimate(c).half_width for c in range(len(self.job.names))]

    def ess(self) -> float:
        return self.acc.effective_samples


STOP_TEXT = {"deals": "the deals asked for", "precision": "every half-width below the precision asked",
             "cap": "the cap of deals", "settled": "the answer settled", "time": "the time budget"}

__all__ = ["FixedDeals", "Precision", "Settled", "rule_for", "settled_looks", "z_stop", "sure", "DEFAULT_CAP",
           "DEFAULT_PRECISION", "TIE", "MIN_ESS", "TIME_BUDGET_S", "SETTLE_BUDGET_S", "STOP_TEXT", "Clock", "run",
           "View"]
