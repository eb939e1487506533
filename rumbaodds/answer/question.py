"""One question, "what should I do with this hand?", as every front end asks it.

The command line, the page, the JSON API and the Python API all build a
:class:`Question` and hand it to :mod:`.pipeline` (a table's answer, else a
simulation by :func:`.simulation.simulate`). It carries the situation (checked
by :func:`.situation.make_situation` when it is built) and how the answer may
be found: the opponents, the card play and, for a run of the player's own, its
samples, precision, seed and device, each checked against the ranges of
:mod:`rumbaodds.limits` at the door, so no bad number reaches a kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import limits
from ..cardplay import DEFAULT_PLAY
from ..rules import RulesError
from ..seeds import check_seed
from .situation import Situation, make_situation


@dataclass(frozen=True)
class Question:
    situation: Situation
    opponents: object = None  # a style name, "equilibrium", a TOML file, "BASE,SEAT=STYLE", a Policy or a model
    play: str = DEFAULT_PLAY  # card play of every player (simulation.POLICIES)
    samples: int | None = None  # a run of this many deals (default 200,000 when precision is not given)
    precision: float | None = None  # or: run until every 95% half-width is below this many points
    seed: int | None = None  # None: a fresh seed, printed with the answer
    device: object = "cpu"  # cpu, gpu, auto or an engine.devices.Device

    @classmethod
    def of(cls, hand, trump, players: int, seat: int, rules="swiss", *, passes_in_a_row: int = 0,
           dealer_knocked: bool = False, before=None, swapped_by: int | None = None, opponents=None,
           play: str = DEFAULT_PLAY, samples: int | None = None, precision: float | None = None,
           seed: int | None = None, device="cpu") -> Question:
        """A checked question: bad cards, words or numbers raise the API's one-line errors here."""
        situation = make_situation(hand, trump, players, seat, rules, passes_in_a_row, dealer_knocked, before,
                                   swapped_by)
        if samples is not None and precision is not None:
            raise RulesError("give --samples or --precision, not both")
        try:
            if samples is not None:
                samples = limits.ASK_SAMPLES.parse(samples, "--samples")
            if precision is not None:
                precision = limits.ASK_PRECISION.parse(precision, "--precision")
        except limits.LimitError as exc:
            raise RulesError(str(exc)) from None
        return cls(situation, opponents, play, samples, precision, None if seed is None else check_seed(seed),
                   device)

    @property
    def own_run(self) -> bool:
        """Did the player ask for a run of his own (samples, precision or seed)? Then no table answers."""
        return self.samples is not None or self.precision is not None or self.seed is not None


__all__ = ["Question"]
