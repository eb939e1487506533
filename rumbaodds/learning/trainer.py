"""The trainer: situations dealt as they occur at the table, the player's choice graded at once.

A spot is a random deal of the rule set (a chosen or random player count and seat) seen from one seat: his five
cards, the card turned and, with ``words``, what the earlier seats said, drawn from the opponents' strategy by the
plain-Python rule book (:func:`rumbaodds.twins.hand.opponent_speaks`, the twin of the simulation's own speaking).
Without ``words`` the earlier seats' words are not told (only that nobody called Rumba or threw in): exactly the
question the shipped tables answer, so every answer comes at once. A spot may also be fixed (``hand``, ``trump``,
...). The answer is :func:`rumbaodds.answer.answer`'s (a table where one covers the spot, else a simulation of
``samples`` deals), the grade :func:`.grading.grade`'s; where that grade is unsure (a table's open margin, a
third action, the very cards he exchanged) the spot is simulated until it is sure (:mod:`.settling`), unless
``table_only``.

A round's figures: decisions, accuracy (the share graded best, mixed or too close to grade), the average points
lost per hand and the worst mistakes; :meth:`Trainer.drill` deals spots like the ones got wrong: the same hand
class (the same cards with the suits permuted: the tables' own notion of "the same hand"), seat and player count.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..answer import pipeline, simulation
from ..answer.question import Question
from ..answer.results import AskResult
from ..answer.situation import Situation, make_situation
from ..cards import format_card
from ..game import HandState, Word
from ..opponents.resolve import opponent_policy
from ..rules import RulesError, get_rules
from ..seeds import check_seed
from ..twins.hand import Situation as TwinSituation
from ..twins.hand import opponent_speaks
from .grading import CORRECT, Decision, Grade, grade, grade_knock
from .settling import GRADE_BUDGET_S, is_sure, own_exchange, settle_grade

DEFAULT_SAMPLES = 20_000
MAX_REDEALS = 1_000
KNOCK_INNER = 100  # deals per knock deal for the dealer who looks (simulation.knock's inner_samples)


@dataclass
class Spot:
    """One situation to decide, with its answer."""

    number: int
    situation: Situation
    result: AskResult
    drill: bool = False  # dealt to drill a mistake
    knock_first: bool = False  # the swiss dealer decides first whether to knock, before he looks at his cards

    @property
    def source(self) -> str:
        return str(self.result.meta.get("source", "simulation")) if self.result.meta else "simulation"


@dataclass
class Answered:
    spot: Spot
    decision: Decision
    grade: Grade

    def to_dict(self) -> dict:
        s = self.spot.situation
        return {"number": self.spot.number, "drill": self.spot.drill, "rules": s.rules.name, "players": s.players,
                "seat": s.seat, "hand": [format_card(c) for c in s.hand], "trump": format_card(s.trump_card),
                "before": list(s.before), "choice": self.decision.action,
                "discard": None if self.decision.discard is None else [format_card(c) for c in self.decision.discard],
                "margin": None if self.spot.result.margin is None else self.spot.result.margin.mean,
                **self.grade.to_dict()}


@dataclass
class Trainer:
    """Deals spots and grades answers; ``history`` keeps every graded decision of the session."""

    rules: object = "swiss"
    players: int | None = None  # None: random from the rule set's range, each spot
    seat: int | None = None  # None: random, each spot
    seed: int | None = None
    words: bool = False  # deal the earlier seats' words (answered by simulation) instead of leaving them untold
    tables_root: str = "tables"
    samples: int = DEFAULT_SAMPLES
    table_only: bool = False
    hand: str | None = None  # a fixed spot: every deal is this hand
    trump: str | None = None
    before: object = None
    passes_in_a_row: int = 0
    knock: bool = False  # the swiss dealer's spots start with the knock, before he looks (simulation.knock answers)
    budget: float = GRADE_BUDGET_S  # seconds a grade the table leaves unsure may simulate
    history: list[Answered] = field(default_factory=list)
    count: int = 0

    def __post_init__(self) -> None:
        self.rules = get_rules(self.rules)
        self.seed = check_seed(self.seed)
        self.rng = np.random.default_rng(self.seed)
        if (self.hand is None) != (self.trump is None):
            raise RulesError("a fixed spot needs both --hand and --trump")
        if self.players is not None:
            self.rules.check_players(self.players)
            if self.seat is not None and not 0 <= self.seat < self.players:
                raise RulesError(f"seat {self.seat} does not exist with {self.players} players (seats 0.."
                                 f"{self.players - 1}, {self.players - 1} is the dealer)")
        if self.hand is not None:
            if self.players is None or self.seat is None:
                raise RulesError("a fixed spot needs --players and --seat too")
            make_situation(self.hand, self.trump, self.players, self.seat, self.rules, self.passes_in_a_row,
                           before=self.before)  # checked now: a bad hand is an error before the round

    # -- dealing --------------------------------------------------------------------------------------------------
    def _players_and_seat(self) -> tuple[int, int]:
        rules = self.rules
        players = self.players if self.players is not None else int(self.rng.integers(rules.min_players,
                                                                                       rules.max_players + 1))
        seat = self.seat if self.seat is not None else int(self.rng.integers(0, players))
        return players, min(seat, players - 1)

    def _random_situation(self) -> Situation:
        rules = self.rules
        for _ in range(MAX_REDEALS):
            players, seat = self._players_and_seat()
            deck = np.array(rules.deck)
            self.rng.shuffle(deck)
            size = rules.hand_size
            hands = [[int(c) for c in deck[s * size:(s + 1) * size]] for s in range(players)]
            trump_card = int(deck[players * size])
            before, swapped_by, hand = None, None, hands[seat]
            if self.words:
                spoken = self._earlier_words(hands, trump_card, players, seat, deck[players * size + 1:])
                if spoken is None:
                    continue  # an earlier seat threw in: the hand is dealt again [D-4]
                before, swapped_by = spoken
            try:
                return make_situation(" ".join(format_card(c) for c in hand), format_card(trump_card), players,
                                      seat, rules, self.passes_in_a_row, before=before, swapped_by=swapped_by)
            except RulesError:
                continue
        raise RulesError("no spot could be dealt")  # pragma: no cover - needs a thousand throw-ins in a row

    def _earlier_words(self, hands, trump_card: int, players: int, seat: int, stock):
        """The words of seats 0..seat-1 by the opponents' strategy (the twin's own speaking); None after a throw-in.
        Returns (words, the seat that swapped the two of trump or None)."""
        policy = opponent_policy(None, self.rules, players)
        state = HandState(self.rules, hands, trump_card, [int(c) for c in stock])
        twin = TwinSituation(self.rules, players, seat, trump_card, policy, False)
        numbers = [[float(x) for x in self.rng.random(4)] for _ in range(players)]
        while state.to_act is not None and state.to_act < seat and state.thrown_in_by is None:
            opponent_speaks(twin, state, numbers)
            if state.to_act is None or state.phase.value not in ("speak", "answer"):
                return None  # speaking ended before him (cannot happen before the dealer): deal again
        if state.thrown_in_by is not None:
            return None
        words = ["-" if w in (None, Word.NO_RUMBA) else w.value for w in state.words[:seat]]
        return words, state.swapped_by

    def _fixed_situation(self) -> Situation:
        return make_situation(self.hand, self.trump, self.players, self.seat, self.rules, self.passes_in_a_row,
                              before=self.before)

    def answer(self, situation: Situation, simulate: bool = False,
               progress: Callable[[int, int], None] | None = None) -> AskResult:
        """The table's answer (or a simulation of ``samples`` deals with the session's seed)."""
        if not simulate:
            found = pipeline.from_table(Question(situation), self.tables_root)
            if found is not None:
                return found
        return pipeline.answer(Question(situation, samples=self.samples, seed=self.seed), self.tables_root,
                              progress=progress)

    def deal(self, progress: Callable[[int, int], None] | None = None) -> Spot:
        """The next spot, as it occurs at the table (or the fixed one)."""
        situation = self._fixed_situation() if self.hand is not None else None
        found = None
        for _ in range(MAX_REDEALS):
            if situation is None:
                situation = self._random_situation()
            if not self.table_only:
                break
            found = pipeline.from_table(Question(situation), self.tables_root)
            if found is not None or self.hand is not None:
                break
            situation = None  # no table covers it (an impossible cell, known words): another deal
        else:
            raise RulesError(f"--table-only: no table answers {self.rules.name} spots here (the shipped tables are "
                             f"swiss; build one with `rumbaodds tables build`, or drop --table-only to simulate)")
        self.count += 1
        knock_first = self.knock and situation.rules.knock and situation.seat == situation.players - 1 and \
            not situation.dealer_knocked
        if found is None and self.table_only and self.hand is not None:
            raise RulesError("--table-only: no table answers this hand (known earlier words, a penalised pass or "
                             "another rule set); drop --table-only to simulate it")
        return Spot(self.count, situation, found if found is not None else self.answer(situation, progress=progress),
                    knock_first=knock_first)

    def like(self, spot: Spot, progress: Callable[[int, int], None] | None = None) -> Spot:
        """A spot like ``spot``: the same cards with the suits permuted (the same hand class), seat and words."""
        s = spot.situation
        suits = [int(x) for x in s.rules.suit_indices]
        perm = dict(zip(suits, (int(x) for x in self.rng.permutation(suits))))
        move = lambda c: perm[c // 16] * 16 + c % 16  # noqa: E731
        situation = make_situation(" ".join(format_card(move(c)) for c in s.hand), format_card(move(s.trump_card)),
                                   s.players, s.seat, s.rules, s.passes_in_a_row, s.dealer_knocked, s.before,
                                   s.swapped_by)
        self.count += 1
        return Spot(self.count, situation, self.answer(situation, progress=progress), drill=True,
                    knock_first=spot.knock_first)

    # -- grading --------------------------------------------------------------------------------------------------
    def grade(self, spot: Spot, decision: Decision, progress: Callable[[int, int], None] | None = None) -> Grade:
        """Grade ``decision`` at ``spot`` and keep it. A grade the answer leaves unsure (a table's open margin, a
        choice or an exchange it does not value) is settled by simulating the spot, within ``budget`` seconds
        (:func:`.settling.settle_grade`), unless ``table_only``."""
        g = grade(spot.result, decision)
        own = own_exchange(spot.situation, decision)
        if not self.table_only and not is_sure(g, spot.result, own=own is not None):
            table = spot.result if spot.result.meta.get("kind") != "simulation" else None
            g, answer = settle_grade(spot.situation, decision, seed=self.seed, budget=self.budget,
                                     progress=progress, table=table)
            if own is None:
                spot.result = answer  # the other choices of this spot are graded on these deals too
        self.history.append(Answered(spot, decision, g))
        return g

    def knock_answer(self, spot: Spot, progress: Callable[[int, int], None] | None = None):
        """The dealer's knock question at ``spot`` (trump card, player count): ``simulation.knock`` with a tenth of
        ``samples`` deals, cached by rule set, players and trump card."""
        s = spot.situation
        key = (s.rules, s.players, s.trump_card)
        cache = self.__dict__.setdefault("_knocks", {})
        if key not in cache:
            cache[key] = simulation.knock(s.trump_card, s.players, s.rules, samples=max(200, self.samples // 10),
                                        seed=self.seed, inner_samples=KNOCK_INNER, progress=progress)
        return cache[key]

    def grade_knock(self, spot: Spot, knocked: bool, progress: Callable[[int, int], None] | None = None) -> Grade:
        """Grade the dealer's knock (or not) before he looks, and keep it."""
        g = grade_knock(self.knock_answer(spot, progress), knocked)
        self.history.append(Answered(spot, Decision("knock" if knocked else "look"), g))
        return g

    def mistakes(self, answered: list[Answered] | None = None) -> list[Answered]:
        """The decisions graded wrong (inaccuracy, mistake, blunder), the costliest first."""
        answered = self.history if answered is None else answered
        return sorted((a for a in answered if a.grade.band not in CORRECT), key=lambda a: -a.grade.loss.mean)

    def drill(self, answered: list[Answered] | None = None) -> list[Spot]:
        """One spot like each mistake (same hand class, seat and player count), the costliest first."""
        return [self.like(a.spot) for a in self.mistakes(answered)]


def summary(answered: list[Answered], worst: int = 3) -> dict:
    """A round's figures: decisions, accuracy, average points lost per decision (a hand's one decision, two for a
    dealer who was asked whether to knock first), the worst mistakes."""
    n = len(answered)
    lost = [a.grade.loss.mean for a in answered]
    wrong = sorted((a for a in answered if a.grade.band not in CORRECT), key=lambda a: -a.grade.loss.mean)
    return {"decisions": n, "correct": sum(1 for a in answered if a.grade.band in CORRECT),
            "accuracy": sum(1 for a in answered if a.grade.band in CORRECT) / n if n else None,
            "points_lost": float(sum(lost)), "points_lost_per_decision": float(sum(lost) / n) if n else None,
            "bands": {b: sum(1 for a in answered if a.grade.band == b) for b in
                      ("best", "mixed", "too close", "inaccuracy", "mistake", "blunder")},
            "worst": [a.to_dict() for a in wrong[:worst]]}


__all__ = ["Trainer", "Spot", "Answered", "summary", "DEFAULT_SAMPLES"]
