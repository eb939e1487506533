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


@dataclass(frozen=True, order=True)
class Choice:
    """The asking player's choice as the API names it: a word, and for ``play`` how many cards he exchanges."""

    word: Word
    discards: int = 0

    @property
    def name(self) -> str:
        """``pass``, ``play0``..``play4``, ``rumba``, ``throw-in`` (the names of the API and the tables)."""
        return f"play{self.discards}" if self.word is Word.PLAY else self.word.value

    @classmethod
    def of(cls, name: str) -> Choice:
        """The typed value of a choice name (for callers that still hold names)."""
        if name.startswith("play") and name[4:].isdigit():
            return cls(Word.PLAY, int(name[4:]))
        word = Word(name)
        if word in (Word.PLAY, Word.NO_RUMBA):
            raise ValueError(f"unknown choice {name!r}")
        return cls(word)


class IllegalAction(ValueError):
    """An action the rules do not allow in this state; the message says which rule."""


__all__ = ["Word", "Phase", "Knock", "SwapTwo", "Say", "Exchange", "Play", "Action", "Choice", "IllegalAction"]
