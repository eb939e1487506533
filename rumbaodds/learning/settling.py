"""No grade from a cell that cannot tell: a grade the table leaves unsure is settled by simulating the very spot.

A packed table's cell holds 32-94 deals: its margins are wide, so a real mistake of a point reads "too close"
and a blunder's size is known to +-3 points. :func:`is_sure` says whether a grade can stand as it is; where it
cannot, :func:`settle_grade` simulates the player's own situation (every choice on the same deals, the paired
difference of his choice and the best, the very cards he exchanged where they are not the policy's: engine/hand.py
``EXACT_DISCARD``) until the grade is sure or a time budget is spent, and grades on those deals alone:

- sure: his choice is the best and the best is resolved (the paired margin more than ``z`` standard errors above
  0, the Bonferroni value over the looks, as ``ask`` settles); or the loss is more than ``z`` standard errors
  above 0 *and* its 95% half-width is at most :data:`GRADE_HALF` (a quarter point: the width of a band); or the
  loss is known to within :data:`BEST_BELOW` either way (a tie: nothing to tell); or his own exchange clearly
  beats the policy's best;
- the looks are ``ask``'s (2,000, 4,000, ... deals up to ``cap``, :class:`rumbaodds.answer.stopping.Settled`);
  with a seed named by the player no clock decides where it stops, so the same review gives the same grades on
  any machine.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..answer import pipeline, simulation, stopping
from ..answer.question import Question
from ..answer.results import Accumulator, AskResult
from ..answer.situation import Situation
from ..cardplay import DEFAULT_PLAY
from ..stats import Z95, Estimate
from .grading import BEST_BELOW, ZERO, Decision, Grade, best_option, chosen_option, grade

GRADE_HALF = 0.25  # points: the 95% half-width a settled loss needs (the width of the inaccuracy band)
GRADE_BUDGET_S = 10.0  # seconds of simulation per decision when no seed was named
GRADE_CAP = stopping.DEFAULT_CAP  # deals: the most one decision simulates (a true tie stops here)
GRADE_FIRST = stopping.SETTLE_FIRST_LOOK


def own_exchange(situation: Situation, decision: Decision) -> tuple[int, ...] | None:
    """The cards he exchanged where they are not the policy's for that count (None: the policy's play values
    them, or he told none)."""
    cards = decision.discard
    if not cards or decision.action not in ("play",) or situation.rumba_called_before or situation.dealer_knocked:
        return None
    policy = simulation.discard_cards(situation.hand, len(cards), situation.trump, situation.rules)
    return None if set(policy) == set(cards) else tuple(cards)


def _beyond(estimate: Estimate, z: float) -> bool:
    """More than ``z`` standard errors above 0."""
    return math.isfinite(estimate.half_width) and estimate.mean > z * estimate.half_width / Z95


def is_sure(g: Grade, result: AskResult, z: float = Z95, own: bool = False) -> bool:
    """Can ``g`` (graded on ``result``) stand as it is? ``own``: he exchanged cards the answer does not value."""
    if g.at_least or not g.exchange_valued or own:
        return False
    loss = g.loss
    if loss is ZERO or (loss.mean == 0 and loss.low == 0 and loss.high == 0):  # his choice is the best
        if any(n.startswith("your exchange is better") for n in g.notes):
            return True
        if result.margin is not None and not stopping.sure(result.margin, z):
            return False  # the best action itself is not known
        his_exchange_is_best = result.recommendation == "play" and g.option == g.best_option
        return not his_exchange_is_best or result.exchange is None or stopping.sure(result.exchange.difference, z)
    if loss.half_width <= BEST_BELOW:
        return True
    return _beyond(loss, z) and loss.half_width <= GRADE_HALF


def settle_grade(situation: Situation, decision: Decision, opponents=None, seed: int | None = None,
                 play: str = DEFAULT_PLAY, budget: float = GRADE_BUDGET_S, cap: int = GRADE_CAP,
                 progress: Callable[[int, int], None] | None = None, table: AskResult | None = None,
                 device="cpu") -> tuple[Grade, AskResult]:
    """(his grade, the simulated answer): ``situation`` simulated until his grade is sure (:func:`is_sure`), the
    ``cap`` of deals or ``budget`` seconds (``math.inf``: no clock). ``table``: the table's answer it replaces,
    named in the grade's notes."""
    chosen_option(situation, decision)  # his words checked before any deal
    own = own_exchange(situation, decision)
    job = simulation.Job.of(situation, opponents, play, exact=[own] if own else ())
    seed = seed if seed is not None else 0
    acc = Accumulator(len(job.slots), situation.players + 1)
    paired = pipeline.paired_of(job, acc)

    def graded(answer: AskResult) -> Grade:
        exact = None
        if own:
            mine = len(job.names)
            best_name, _ = best_option(answer)
            best = job.names.index(best_name)
            exact = (acc.difference(mine, best), acc.estimate(mine))
        return grade(answer, decision, paired=paired, exact=exact)

    def judge(answer: AskResult) -> bool:
        return is_sure(graded(answer), answer, rule.z)

    rule = stopping.Settled(cap=cap, first=min(GRADE_FIRST, cap), budget=budget, precision=None, judge=judge)
    acc, reason, _seconds = stopping.run(job, seed, simulation.resolve_device(device), rule, progress, acc=acc,
                                         result_of=simulation.result_of)
    answer = simulation.result_of(job, seed, acc)
    answer.meta = {"kind": "simulation", "deals": acc.n, "effective_deals": acc.effective_samples, "seed": seed,
                   "stopped": reason}
    g = graded(answer)
    why = {"settled": "until the grade was sure", "cap": f"to the cap of {cap:,} deals: a tie",
           "time": f"stopped at the {budget:g} s budget"}.get(reason, reason)
    cell = ""
    if table is not None and table.meta.get("deals"):
        cell = f"; the table's cell had {int(table.meta['deals']):,} deals"
    g.notes.append(f"simulated {acc.n:,} deals (seed {seed}), {why}{cell}")
    g.source = "simulation"
    return g, answer


def sure_grade(question: Question, decision: Decision, tables_root="tables", seed: int | None = None,
               budget: float = GRADE_BUDGET_S, cap: int = GRADE_CAP, simulate: bool = True,
               progress: Callable[[int, int], None] | None = None) -> tuple[Grade, AskResult | None]:
    """His grade at ``question``'s situation: the table's where it is sure, else settled by simulation
    (``simulate`` False: the table's as far as it goes, with a note; None answer where no table covers it)."""
    found = pipeline.from_table(question, tables_root)
    own = own_exchange(question.situation, decision)
    if found is not None:
        g = grade(found, decision)
        if is_sure(g, found, own=own is not None):
            return g, found
        if not simulate:
            g.notes.append("not simulated (--table-only): graded from the table as far as it goes")
            return g, found
    elif not simulate:
        return None, None
    return settle_grade(question.situation, decision, question.opponents, seed, question.play, budget, cap,
                        progress, table=found, device=question.device)


__all__ = ["GRADE_HALF", "GRADE_BUDGET_S", "GRADE_CAP", "is_sure", "own_exchange", "settle_grade", "sure_grade"]
