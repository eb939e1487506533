"""Rummy rule sets as data (RULES.md §8): ``romme``, ``rummi``, ``romme40`` and TOML house rules.

Every number and switch the opening analyzer uses is a field of
:class:`RummyRules`, so a house rule is a new value of this class and never a
change to a kernel. :meth:`RummyRules.params` packs the fields into the small
integer array the kernels read. A rule set that cannot work is refused with a
:class:`~rumbaodds.rules.RulesError` whose message names the field.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..rules import RulesError

MAX_HAND = 16  # cards a kernel hand can hold (the dealt hand plus the draw)
MAX_JOKERS = 16

# Indices of RummyRules.params() (read by the kernels in solver.py and odds.py).
P_ACE_LOW = 0
P_ACE_LOW_VALUE = 1
P_ACE_HIGH_VALUE = 2
P_MIN_REAL = 3
P_JOKERS_ADJACENT = 4
P_JOKERS_AT_MOST_REAL = 5
P_GROUP_JOKER_FOUR = 6
P_KEEP_ONE = 7
P_JOKER_PENALTY = 8
P_ACE_PENALTY = 9
P_THRESHOLD = 10
N_PARAMS = 11


@dataclass(frozen=True)
class RummyRules:
    """One rummy rule set (RULES.md §8). Cards: ``decks`` x 52 plus ``jokers``."""

    name: str
    decks: int = 2
    jokers: int = 6
    hand_size: int = 13
    min_players: int = 2
    max_players: int = 4  # [D-11] for rummi and romme40
    opening_threshold: int = 30  # §8.4; romme40 40 [D-12]
    # Aces (§8.3): low at the start of A-2-3 (ace_low_value) where ace_low, else high only;
    # high at the end of Q-K-A and in a group (ace_high_value).
    ace_low: bool = True
    ace_low_value: int = 1
    ace_high_value: int = 11
    # Joker constraints (§8.2): every meld holds at least min_real_cards non-jokers [D-14];
    # rummi [D-15]: no two jokers side by side in a sequence, no more jokers than other cards,
    # a joker in a group only when the group then has 4 cards.
    min_real_cards: int = 2
    jokers_adjacent: bool = True
    jokers_at_most_real: bool = False
    group_joker_needs_four: bool = False
    # [D-16]: laying out from k cards uses at most k - 1 (one is left to discard).
    keep_one_card: bool = True
    # Penalty points of cards left in hand (§8.6): 2..10 pips, J Q K 10, these for ace and joker.
    joker_penalty: int = 30
    ace_penalty: int = 15
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        def bad(name: str, why: str) -> RulesError:
            return RulesError(f"rule set {self.name!r}: field {name}: {why}")

        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type in ("int", int) and (isinstance(value, bool) or not isinstance(value, int)):
                raise bad(f.name, f"expected an integer, got {value!r}")
            if f.type in ("bool", bool) and not isinstance(value, bool):
                raise bad(f.name, f"expected true or false, got {value!r}")
        if self.decks not in (1, 2):
            raise bad("decks", f"{self.decks} must be 1 or 2 (a card may appear at most twice in a kernel hand)")
        if not 0 <= self.jokers <= MAX_JOKERS:
            raise bad("jokers", f"{self.jokers} must be 0..{MAX_JOKERS}")
        if not 3 <= self.hand_size <= MAX_HAND - 1:
            raise bad("hand_size", f"{self.hand_size} must be 3..{MAX_HAND - 1} (the hand after the draw must fit "
                                   f"{MAX_HAND} cards)")
        if self.min_players < 2:
            raise bad("min_players", f"{self.min_players} must be at least 2")
        if self.max_players < self.min_players:
            raise bad("max_players", f"{self.max_players} is below min_players {self.min_players}")
        needed = self.max_players * self.hand_size + 2
        if needed > self.deck_size:
            raise bad("max_players", f"{self.max_players} players x {self.hand_size} cards + the open card + one "
                                     f"card of stock need {needed} cards, the deck has {self.deck_size}")
        if self.opening_threshold < 1:
            raise bad("opening_threshold", f"{self.opening_threshold} must be at least 1")
        if not 1 <= self.ace_low_value <= 99:
            raise bad("ace_low_value", f"{self.ace_low_value} must be 1..99")
        if not 1 <= self.ace_high_value <= 99:
            raise bad("ace_high_value", f"{self.ace_high_value} must be 1..99")
        if not 1 <= self.min_real_cards <= 3:
            raise bad("min_real_cards", f"{self.min_real_cards} must be 1..3 (a meld has 3 or more cards)")
        if not 0 <= self.joker_penalty <= 999:
            raise bad("joker_penalty", f"{self.joker_penalty} must be 0..999")
        if not 0 <= self.ace_penalty <= 999:
            raise bad("ace_penalty", f"{self.ace_penalty} must be 0..999")

    # -- derived -------------------------------------------------------------
    @property
    def deck_size(self) -> int:
        return 52 * self.decks + self.jokers

    @property
    def open_hand_sizes(self) -> tuple[int, int]:
        """Hand sizes `rummy open` reads: the dealt hand, and the hand after the draw."""
        return (self.hand_size, self.hand_size + 1)

    def params(self) -> np.ndarray:
        p = np.zeros(N_PARAMS, dtype=np.int64)
        p[P_ACE_LOW] = int(self.ace_low)
        p[P_ACE_LOW_VALUE] = self.ace_low_value
        p[P_ACE_HIGH_VALUE] = self.ace_high_value
        p[P_MIN_REAL] = self.min_real_cards
        p[P_JOKERS_ADJACENT] = int(self.jokers_adjacent)
        p[P_JOKERS_AT_MOST_REAL] = int(self.jokers_at_most_real)
        p[P_GROUP_JOKER_FOUR] = int(self.group_joker_needs_four)
        p[P_KEEP_ONE] = int(self.keep_one_card)
        p[P_JOKER_PENALTY] = self.joker_penalty
        p[P_ACE_PENALTY] = self.ace_penalty
        p[P_THRESHOLD] = self.opening_threshold
        return p

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise RulesError(f"{players} players: rule set {self.name!r} allows {self.min_players}..{self.max_players}")

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def replace(self, **changes) -> RummyRules:
        return dataclasses.replace(self, **changes)

    def summary(self) -> str:
        aces = "ace low (A-2-3) or high" if self.ace_low else "aces high only"
        extra = []
        if not self.jokers_adjacent:
            extra.append("no two jokers side by side")
        if self.jokers_at_most_real:
            extra.append("no more jokers than other cards")
        if self.group_joker_needs_four:
            extra.append("a joker in a group only in a group of 4")
        tail = f"; {', '.join(extra)}" if extra else ""
        return (f"{self.decks} x 52 cards + {self.jokers} jokers, {self.hand_size} cards each, opening needs "
                f"{self.opening_threshold} points, {aces}{tail}")


ROMME = RummyRules(
    name="romme",
    description="Rommé, 2 x 52 cards + 6 jokers, opening 30 (seed 002)",
)

RUMMI = RummyRules(
    name="rummi",
    jokers=3,
    opening_threshold=40,
    jokers_adjacent=False,  # [D-15]
    jokers_at_most_real=True,  # [D-15]
    group_joker_needs_four=True,  # [D-15]
    joker_penalty=20,
    ace_penalty=11,  # [D-13]
    description="Rummi, 2 x 52 cards + 3 jokers, opening 40 (seed 003)",
)

ROMME40 = RummyRules(
    name="romme40",
    jokers=2,
    opening_threshold=40,  # [D-12]
    ace_low=False,  # aces high only (seed 004)
    joker_penalty=15,
    ace_penalty=11,
    description="Rommé 40, 2 x 52 cards + 2 jokers, opening 40, aces high only (seed 004)",
)

PRESETS: dict[str, RummyRules] = {"romme": ROMME, "rummi": RUMMI, "romme40": ROMME40}
# What the rummy report is about, in one line (its page and the reports' front page say it)
DESCRIPTION = "Rommé, Rummi and Rommé 40: can I open, and how soon? (seeds 002-004)"


def get_rummy_rules(name_or_path: str | RummyRules) -> RummyRules:
    """A preset by name, or a house-rule TOML file (``base = "romme"`` plus overrides)."""
    if isinstance(name_or_path, RummyRules):
        return name_or_path
    key = str(name_or_path).strip().lower()
    aliases = {"rommé": "romme", "rommé40": "romme40", "romme-40": "romme40", "rommé 40": "romme40"}
    key = aliases.get(key, key)
    if key in PRESETS:
        return PRESETS[key]
    path = Path(str(name_or_path))
    if path.suffix == ".toml" or path.exists():
        return load_rummy_rules(path)
    raise RulesError(f"unknown rummy rule set {name_or_path!r} (use {', '.join(PRESETS)} or a .toml file)")


def load_rummy_rules(path: str | Path) -> RummyRules:
    """Read a house-rule TOML file: ``base`` names a preset, the other keys override its fields."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesError(f"rule file {str(path)!r} not found") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RulesError(f"rule file {str(path)!r}: not valid TOML ({exc})") from None
    return rummy_rules_from_dict(data, source=str(path))


def rummy_rules_from_dict(data: dict, source: str = "rules") -> RummyRules:
    data = dict(data)
    base_name = str(data.pop("base", "romme")).lower()
    if base_name not in PRESETS:
        raise RulesError(f"{source}: field base: unknown preset {base_name!r} (use {', '.join(PRESETS)})")
    base = PRESETS[base_name]
    fields = {f.name for f in dataclasses.fields(RummyRules)}
    changes = {}
    for key, value in data.items():
        if key not in fields:
            raise RulesError(f"{source}: unknown field {key!r}")
        expected = type(getattr(base, key))
        if expected is bool and not isinstance(value, bool):
            raise RulesError(f"{source}: field {key}: expected true or false, got {value!r}")
        if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise RulesError(f"{source}: field {key}: expected an integer, got {value!r}")
        if expected is str and not isinstance(value, str):
            raise RulesError(f"{source}: field {key}: expected a string, got {value!r}")
        changes[key] = value
    changes.setdefault("name", f"{base_name}+{Path(source).stem}" if source != "rules" else base_name)
    return dataclasses.replace(base, **changes)


__all__ = ["RummyRules", "ROMME", "RUMMI", "ROMME40", "PRESETS", "get_rummy_rules", "load_rummy_rules",
           "rummy_rules_from_dict", "RulesError", "MAX_HAND"]
