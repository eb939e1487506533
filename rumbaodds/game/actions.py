"""The moves of one hand as typed values (RULES.md §4, §5): what a seat may do, never a string to parse."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Word(enum.Enum):
    """What a seat says at his turn to speak (RULES.md §4.4, §5.4)."""

    PASS = "pass"
    PLAY = "play"
    RUMBA = "rumba"
    THROW_IN = "throw-in"  # swiss rule 22 [D-4]: the hand is void and dealt again
    NO_RUMBA = "-"  # speaking order rumba-first, round one: "I do not call Rumba" (play or pass comes in round two)


class Phase(enum.Enum):
    """Where a hand stands."""

    SPEAK = "speak"  # one-round speaking, or round one of rumba-first (who calls Rumba)
    ANSWER = "answer"  # rumba-first round two: play or pass knowing whether (and who) called Rumba
    EXCHANGE = "exchange"  # normal game only (§4.6, §5.6)
    PLAY = "play"  # the tricks (§3)
    DONE = "done"


@dataclass(frozen=True)
class Knock:
    """Swiss rule 7 [D-3]: the dealer knocks before anyone speaks; he gives ``discard`` for the turned card.

    ``discard`` None: he keeps his five cards and the turned card stays on the table.
    """

    discard: int | None = None


@dataclass(frozen=True)
class SwapTwo:
    """Flemish §5.3 [D-9]: at his turn, before speaking, the two of trump for the turned card."""


@dataclass(frozen=True)
class Say:
    word: Word


@dataclass(frozen=True)
class Exchange:
    """§4.6 / §5.6: these cards go out of play, as many come from the top of the stock."""

    discards: tuple[int, ...] = ()


@dataclass(frozen=True)
class Play:
    card: int


Action = Knock | SwapTwo | Say | Exchange | Play


class Choice(enum.StrEnum):
    """The asking player's choice as the API names it: his word, and for ``play`` how many cards he exchanges.

    ``play2`` is "play, exchanging the two cards of lowest keep value" (docs/SIMULATION.md, "Keep value"): each
    count is simulated and valued on its own. A ``str`` enum, so its value is the name that JSON documents, tables
    and the page have always used (``Choice.PLAY2 == "play2"``); a name read back is ``Choice(name)``.
    """

    PASS = "pass"
    PLAY0 = "play0"
    PLAY1 = "play1"
    PLAY2 = "play2"
    PLAY3 = "play3"
    PLAY4 = "play4"
    PLAY5 = "play5"  # rules.RuleSet.exchange_limit is 0..hand_size, at most 5
    RUMBA = "rumba"
    THROW_IN = "throw-in"
    NO_RUMBA = "no-rumba"  # rumba-first: round two's best answer to every round-one outcome (an ask result)

    @classmethod
    def play(cls, exchanged: int) -> Choice:
        """Play, exchanging ``exchanged`` cards."""
        if not 0 <= exchanged <= 5:
            raise ValueError(f"a player exchanges 0..5 cards, not {exchanged}")
        return cls(f"play{exchanged}")

    @property
    def is_play(self) -> bool:
        return self.value.startswith("play")

    @property
    def exchanged(self) -> int:
        """How many cards a play exchanges (0 for every other choice)."""
        return int(self.value[4:]) if self.is_play else 0

    @property
    def action(self) -> str:
        """The action a player names at the table: every discard count is ``play``."""
        return "play" if self.is_play else self.value

    @property
    def word(self) -> Word:
        """What he says when he speaks (``no-rumba`` is round one's "no Rumba")."""
        return Word.PLAY if self.is_play else Word.NO_RUMBA if self is Choice.NO_RUMBA else Word(self.value)


class IllegalAction(ValueError):
    """An action the rules do not allow in this state; the message says which rule."""


__all__ = ["Word", "Phase", "Knock", "SwapTwo", "Say", "Exchange", "Play", "Action", "Choice", "IllegalAction"]
