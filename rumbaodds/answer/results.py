"""Results of ``ask``: every figure with its sample count, effective sample size and 95% interval.

Samples carry importance weights (exact conditioning on the earlier seats'
words, docs/SIMULATION.md step 2), so every mean here is self-normalised
(:meth:`Estimate.of_weighted`). Sums are kept per *outcome* of round one
(the seat that called Rumba in round one, rumba-first only) so that the
hero's round-two plan can be chosen after the fact, per what he knows then.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..cards import format_card
from ..engine import hand as kernel
from ..game import Choice
from ..stats import Estimate
from .situation import Situation

SCORE_SIGN = "scores count down like the score sheet: negative is good, the lowest expected change is best"
P_SUCCESS_NOTE = "made (3+ tricks) plus uncontested, over the Rumbas that were played (not voided, not refused)"
ACTION_ORDER = ["pass", "play", "rumba", "no-rumba", "throw-in"]


@dataclass
class RumbaOutcomes:
    """What became of a Rumba call: the shares sum to 1 over all deals."""

    made: float
    lost: float
    uncontested: float
    void: float  # a later player threw in: score 0
    not_allowed: float  # the rules refused it (flemish lone dealer): he plays alone

    def as_dict(self) -> dict:
        return {"p_made": self.made, "p_lost": self.lost, "p_uncontested": self.uncontested, "p_void": self.void,
                "p_not_allowed": self.not_allowed}


@dataclass
class ChoiceResult:
    name: str
    ev: Estimate
    discard: tuple[int, ...] = ()
    p_success: Estimate | None = None
    outcomes: RumbaOutcomes | None = None
    tricks: tuple[float, ...] | None = None  # tricks 0..5 over the contested Rumbas
    plan: dict | None = None  # rumba-first "no-rumba": the round-two answer per round-one outcome

    @property
    def p_uncontested(self) -> float | None:
        return None if self.outcomes is None else self.outcomes.uncontested

    @property
    def p_void(self) -> float | None:
        return None if self.outcomes is None else self.outcomes.void

    @property
    def p_lone_play(self) -> float | None:
        return None if self.outcomes is None else self.outcomes.not_allowed

    def as_dict(self) -> dict:
        out = self.ev.as_dict("ev")
        if Choice(self.name).is_play:
            out["discard"] = [format_card(c) for c in self.discard]
        if self.p_success is not None:
            out.update(self.p_success.as_dict("p_success"))
            out["p_success_means"] = P_SUCCESS_NOTE
            if self.outcomes is not None:  # a table keeps the success, not the outcome shares
                out.update(self.outcomes.as_dict())
            if self.tricks is not None:
                out["tricks"] = list(self.tricks)
        if self.plan is not None:
            out["plan"] = self.plan
        return out


@dataclass(frozen=True)
class ExchangeCall:
    """The best exchange of ``play`` and whether it is resolved: named only when it is.

    ``best`` and ``second`` are the cards the two best discard counts throw (``second`` None where there is no other
    exchange or it is unknown), ``difference`` EV(second) - EV(best) on the same deals where known. ``resolved``:
    the interval of that difference lies above 0 (or every other exchange was shown clearly worse); otherwise the
    answer says "too close to call" and names both.
    """

    best: tuple[int, ...]
    second: tuple[int, ...] | None
    difference: Estimate | None
    resolved: bool

    @staticmethod
    def cards(discard) -> str:
        return ("exchange " + " ".join(format_card(c) for c in discard)) if discard else "keep all cards"

    @property
    def irrelevant(self) -> bool:
        """Every deal scored both exchanges alike (a lone player scores without playing [D-7]): nothing to call."""
        d = self.difference
        return d is not None and d.samples > 0 and d.mean == 0 and d.low == 0 and d.high == 0

    def text(self) -> str:
        if self.resolved:
            return self.cards(self.best)
        if self.irrelevant:
            return "exchange: makes no difference here (every deal scores the same)"
        if self.second is None:
            return "exchange: not resolved (the table cannot tell its exchanges apart)"
        text = f"exchange: too close to call between {self.cards(self.best)} and {self.cards(self.second)}"
        if self.difference is not None:
            text += f" (difference {self.difference.text()})"
        return text

    def as_dict(self) -> dict:
        """``discard``: the cards to exchange, only where resolved; ``too_close_between``: the two candidates."""
        named = lambda cards: [format_card(c) for c in cards]  # noqa: E731
        return {"resolved": self.resolved, "discard": named(self.best) if self.resolved else None,
                "too_close_between": None if self.resolved or self.second is None or self.irrelevant else
                [named(self.best), named(self.second)], "irrelevant": self.irrelevant,
                "difference": None if self.difference is None else self.difference.as_dict("ev"),
                "text": self.text()}


@dataclass
class AskResult:
    situation: Situation
    opponents: object  # the model or policy the others followed
    play: str
    seed: int
    samples: int
    tries_per_sample: float
    options: dict[str, ChoiceResult]  # every choice incl. play0..playK
    recommendation: str
    runner_up: str | None
    margin: Estimate | None
    meta: dict = field(default_factory=dict)
    effective_samples: float | None = None
    notes: tuple[str, ...] = ()
    exchange: ExchangeCall | None = None  # the best exchange of play, named only when resolved

    @property
    def resolved(self) -> bool:
        """Is the recommendation resolved: does the margin's 95% interval lie above 0 (or is it the only choice, or
        are the two the same on every deal, as pass and an allowed throw-in)?"""
        return self.margin is None or self.margin.low > 0 or self.equal

    @property
    def equal(self) -> bool:
        """The best choice and the runner-up score the same on every deal (a margin of exactly 0, no spread)."""
        return self.margin is not None and self.margin.mean == 0 and self.margin.half_width == 0

    @property
    def actions(self) -> dict[str, ChoiceResult]:
        """One entry per action: ``play`` is the best discard count."""
        out = {}
        plays = [c for c in self.options.values() if Choice(c.name).is_play]
        for name, choice in self.options.items():
            if not Choice(name).is_play:
                out[name] = choice
            elif choice is min(plays, key=lambda c: c.ev.mean):
                out["play"] = choice
        if "no-rumba" in out:  # rumba-first: pass and play are parts of the round-two plan
            out.pop("pass", None)
            out.pop("play", None)
        return dict(sorted(out.items(), key=lambda kv: ACTION_ORDER.index(kv[0])))

    def to_dict(self) -> dict:
        s = self.situation
        return {
            "rules": s.rules.name,
            "players": s.players,
            "seat": s.seat,
            "hand": [format_card(c) for c in s.hand],
            "trump": format_card(s.trump_card),
            "passes_in_a_row": s.passes_in_a_row,
            "dealer_knocked": s.dealer_knocked,
            "before": list(s.before),
            "swapped_by": s.swapped_by,
            "opponents": getattr(self.opponents, "name", str(self.opponents)),
            "play": self.play,
            "samples": self.samples,
            "effective_samples": self.effective_samples,
            "seed": self.seed,
            "seed_text": str(self.seed),  # exact in JavaScript too, where a JSON number above 2**53 is rounded
            "tries_per_sample": self.tries_per_sample,
            "notes": list(self.notes),
            "score_sign": SCORE_SIGN,
            "recommendation": self.recommendation,
            "runner_up": self.runner_up,
            "margin": None if self.margin is None else self.margin.as_dict("ev"),
            "resolved": self.resolved,
            "actions": self._actions_dict(),
            "play_options": {name: c.as_dict() for name, c in self.options.items() if Choice(name).is_play},
            "exchange": None if self.exchange is None else self.exchange.as_dict(),
        }

    def _actions_dict(self) -> dict:
        """Every action; ``play``'s discard is null where the exchange is not resolved (never named unresolved)."""
        out = {name: c.as_dict() for name, c in self.actions.items()}
        if "play" in out and self.exchange is not None and not self.exchange.resolved:
            out["play"]["discard"] = None
            out["play"]["exchange"] = self.exchange.text()
        return out

    def to_frame(self) -> pd.DataFrame:
        rows = []
        for name, c in self.options.items():
            rows.append({
                "choice": name,
                "discard": " ".join(format_card(x) for x in c.discard),
                "ev": c.ev.mean, "ev_low": c.ev.low, "ev_high": c.ev.high, "samples": c.ev.samples,
                "p_success": None if c.p_success is None else c.p_success.mean,
                "p_success_low": None if c.p_success is None else c.p_success.low,
                "p_success_high": None if c.p_success is None else c.p_success.high,
                "recommended": name == self.recommendation or (
                    self.recommendation == "play" and c is self.actions.get("play")),
            })
        return pd.DataFrame(rows)


class Accumulator:
    """Weighted running sums over batches, per choice and per round-one outcome (so any run fits in memory)."""

    def __init__(self, n_choices: int, outcomes: int):
        shape = (n_choices, outcomes)
        self.n = 0
        self.tries = 0
        self.sw = np.zeros(outcomes)
        self.sw2 = np.zeros(outcomes)
        self.swx = np.zeros(shape)
        self.sw2x = np.zeros(shape)
        self.sw2x2 = np.zeros(shape)
        pair = (n_choices, n_choices, outcomes)
        self.swd = np.zeros(pair)
        self.sw2d = np.zeros(pair)
        self.sw2d2 = np.zeros(pair)
        # tricks: index 0 void, 1 not allowed (lone play), 2 no tricks played, 3..8: 0..5 tricks (kernel code + 3)
        self.tricks = np.zeros((n_choices, 9))
        self.tricks_w2 = np.zeros((n_choices, 9))

    def add(self, results: np.ndarray, tries: np.ndarray, weights: np.ndarray) -> None:
        scores = results[:, :, 0].astype(np.float64)
        outcome = results[:, 0, 3].astype(np.int64) + 1  # the round-one caller is the same for every choice
        w = weights
        self.n += scores.shape[0]
        self.tries += int(tries.sum())
        outcomes = self.sw.shape[0]
        for o in np.unique(outcome):
            sel = outcome == o
            ws = w[sel]
            xs = scores[sel]
            self.sw[o] += ws.sum()
            self.sw2[o] += (ws * ws).sum()
            self.swx[:, o] += ws @ xs
            self.sw2x[:, o] += (ws * ws) @ xs
            self.sw2x2[:, o] += (ws * ws) @ (xs * xs)
            diffs = xs[:, :, None] - xs[:, None, :]
            self.swd[:, :, o] += np.einsum("i,iab->ab", ws, diffs)
            self.sw2d[:, :, o] += np.einsum("i,iab->ab", ws * ws, diffs)
            self.sw2d2[:, :, o] += np.einsum("i,iab->ab", ws * ws, diffs * diffs)
        assert outcomes > 0
        codes = results[:, :, 1].astype(np.int64) - kernel.VOID
        for c in range(scores.shape[1]):
            self.tricks[c] += np.bincount(codes[:, c], weights=w, minlength=9)[:9]
            self.tricks_w2[c] += np.bincount(codes[:, c], weights=w * w, minlength=9)[:9]

    @property
    def effective_samples(self) -> float:
        total = self.sw.sum()
        return float(total * total / self.sw2.sum()) if self.sw2.sum() > 0 else 0.0

    def estimate(self, plan) -> Estimate:
        """EV of following ``plan[o]`` (a choice index per outcome; an int means one choice throughout)."""
        plan = self._plan(plan)
        o = np.arange(len(plan))
        return Estimate.of_weighted(self.sw.sum(), self.sw2.sum(), float(self.swx[plan, o].sum()),
                                    float(self.sw2x[plan, o].sum()), float(self.sw2x2[plan, o].sum()), self.n)

    def difference(self, a, b) -> Estimate:
        """EV(a) - EV(b) on the same deals (common random numbers); a, b are plans or choice indices."""
        a, b = self._plan(a), self._plan(b)
        o = np.arange(len(a))
        return Estimate.of_weighted(self.sw.sum(), self.sw2.sum(), float(self.swd[a, b, o].sum()),
                                    float(self.sw2d[a, b, o].sum()), float(self.sw2d2[a, b, o].sum()), self.n)

    def conditional_means(self, c: int) -> np.ndarray:
        """EV of choice ``c`` per outcome (nan where an outcome never happened)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.swx[c] / self.sw

    def _plan(self, plan) -> np.ndarray:
        if np.isscalar(plan):
            return np.full(self.sw.shape[0], int(plan))
        return np.asarray(plan, dtype=np.int64)

    def share(self, c: int, codes) -> float:
        return float(self.tricks[c, list(codes)].sum() / max(self.sw.sum(), 1e-300))


__all__ = ["ChoiceResult", "AskResult", "ExchangeCall", "RumbaOutcomes", "Accumulator", "SCORE_SIGN", "P_SUCCESS_NOTE"]
