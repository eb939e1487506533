"""The choices a player has when he speaks, as one enum instead of strings parsed again and again.

``play2`` is "play, exchanging the two cards of lowest keep value" (docs/SIMULATION.md, "Keep value"):
the number of cards exchanged is part of the choice, since each count is
simulated and valued on its own. A :class:`Choice` is a ``str`` enum, so its
value is the name that JSON documents, tables and the page have always used
(``Choice.PLAY2 == "play2"``), and a name read back is ``Choice(name)``.
"""

from __future__ import annotations

from enum import StrEnum

MAX_EXCHANGE = 5  # rules.RuleSet.exchange_limit is 0..hand_size, and a hand has at most 5 cards


class Choice(StrEnum):
    PASS = "pass"
    PLAY0 = "play0"
    PLAY1 = "play1"
    PLAY2 = "play2"
    PLAY3 = "play3"
    PLAY4 = "play4"
    PLAY5 = "play5"
    RUMBA = "rumba"
    THROW_IN = "throw-in"
    NO_RUMBA = "no-rumba"  # rumba-first speaking order: round two's best answer to every round-one outcome

    @classmethod
    def play(cls, exchanged: int) -> Choice:
        """Play, exchanging ``exchanged`` cards (0..MAX_EXCHANGE)."""
        if not 0 <= exchanged <= MAX_EXCHANGE:
            raise ValueError(f"a player exchanges 0..{MAX_EXCHANGE} cards, not {exchanged}")
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


__all__ = ["Choice", "MAX_EXCHANGE"]
