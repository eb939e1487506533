"""Rule sets as data (RULES.md §3-§5).

Every number and switch of the rule book is a field of :class:`RuleSet`, so a
house rule, or a tiny deck that can be enumerated exactly in tests, is a new
value of this class and never a change to the engine. ``swiss`` and
``flemish`` are the two presets; :func:`load_rules` reads a TOML file that
overrides fields of a preset.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .cards import RANKS, SUIT_BITS, SUITS, CardError, card_id, card_rank, card_suit, format_card

FOLLOW_STECHZWANG = 0  # swiss: follow suit, else trump, always winning when able (seed 000, 18-20)
FOLLOW_FLEMISH = 1  # flemish: follow suit winning when able; trumping optional [D-1]
FOLLOW_RULES = {"stechzwang": FOLLOW_STECHZWANG, "flemish": FOLLOW_FLEMISH}

SPEAKING_ORDERS = ("one-round", "rumba-first")
PASSER_CARDS = ("stock-bottom", "put-away")
RUMBA_LEADS = ("rumba-player", "first-after-dealer")
NORMAL_LEADS = ("dealer", "first-after-dealer")
OTHERS_AFTER_RUMBA = ("choose", "must-play")
# §9 the whole game: who wins when the game ends [D-18], and how the others pay [D-20]
WINNERS = ("at-goal", "lowest")
PAYOUTS = ("to-winners", "pairwise", "win-only")
# The §9 fields: they say how a game of many hands ends and pays, never what happens in a hand, so they are left
# out of to_dict() while they keep these defaults (tables and strategies are stamped with to_dict(): their seeds
# and the match of shipped files stay what they were before §9).
GAME_DEFAULTS = {"goal_score": 0, "winners": "at-goal", "score_floor": True, "payout": "to-winners"}


class RulesError(ValueError):
    """A rule set that cannot work; the message names the field."""


# A rule set's name becomes part of folder and file names (tables, reports, strategies): letters, digits, + - _ .
SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9+_.-]{0,63}")


def is_safe_name(name: str) -> bool:
    """``name`` can be one path component anywhere: no separator, no leading dot, nothing a shell would mangle."""
    return isinstance(name, str) and SAFE_NAME.fullmatch(name) is not None


def _safe_stem(stem: str) -> str:
    """A file's stem made a safe name (the default name of a house rule without ``name = ...``)."""
    cleaned = re.sub(r"[^A-Za-z0-9+_.-]+", "-", stem).strip("-.")[:40]
    return cleaned or "house"


@dataclass(frozen=True)
class RuleSet:
    """One Rumba rule set. Scores count down: negative changes are good."""

    name: str
    suits: str = SUITS
    ranks: str = "6789TJQKA"
    hand_size: int = 5
    min_players: int = 3
    max_players: int = 7
    start_score: int = 20
    follow_rule: str = "stechzwang"
    speaking_order: str = "one-round"
    # Exchange (normal game only): up to this many cards from the stock.
    exchange_limit: int = 4
    passer_cards: str = "stock-bottom"
    # Knock (swiss rule 7): the dealer calls Rumba blind and may take the trump card [D-3].
    knock: bool = True
    # Throw-in (swiss rule 22): all cards ranked below this rank may be thrown in [D-4].
    throw_in: bool = True
    throw_in_below: str = "T"
    # Flemish extras: jack of trump turned forces everybody to play; the two of trump may be swapped [D-9].
    jack_of_trump_forces_play: bool = False
    two_of_trump_swap: bool = False
    # Who leads in a Rumba: the Rumba player (swiss §4.7) or the first active from seat 0 on (flemish [D-10]).
    rumba_lead: str = "rumba-player"
    # Who leads a normal game: the dealer, else the first active from seat 0 on (swiss §4.7, [D-8]), or the
    # first active player left of the dealer, seat 0, 1, ... (flemish §5.7, seed 001).
    normal_lead: str = "dealer"
    # After a Rumba call: later players still choose (swiss [D-5]) or must play (flemish).
    others_after_rumba: str = "choose"
    # A lone Rumba / knock (nobody else plays) scores lone_rumba_score; flemish forbids it.
    lone_rumba_allowed: bool = True
    lone_rumba_score: int = -5
    # A lone player in a normal game scores this without playing [D-7].
    lone_player_score: int = -5
    # Rumba player: success with at least rumba_min_tricks tricks.
    rumba_min_tricks: int = 3
    rumba_success_per_trick: int = -2
    rumba_success_flat: int = 0
    rumba_fail_score: int = 10
    # Other active players: per trick and for no trick, in a normal game and in a Rumba / knock.
    normal_per_trick: int = -1
    normal_no_trick: int = 5
    rumba_others_per_trick: int = -1
    rumba_others_no_trick: int = 5
    # Sitting out (swiss rule 17): the sit_out_limit-th pass in a row costs sit_out_penalty (0: no limit).
    sit_out_limit: int = 3
    sit_out_penalty: int = 5
    # Open in the seeds, decided here (see docs/SIMULATION.md "Decisions"):
    # every further pass in a row costs the penalty too (False: the streak restarts after a penalty);
    sit_out_repeats: bool = True
    # a hand nobody plays [D-6] still counts as a pass for the sit-out streak (a throw-in never does, [D-4]);
    void_counts_as_pass: bool = False
    # a player may throw in at his turn even after a Rumba was called (RULES.md §4.3 only excludes a knock).
    throw_in_after_rumba: bool = True
    # §9 the game (seed 000 rules 14, 17, 23; seed 001). It ends after the first hand in which one or more players
    # reach goal_score or below; the dealer then moves left, a void hand is dealt again by the same dealer [D-17].
    goal_score: int = 0
    # "at-goal": every player at goal_score or below wins [D-18]; "lowest": only the lowest of them (ties share).
    winners: str = "at-goal"
    # a score below 0 counts as 0 for the payout [D-19] (false: it keeps its value)
    score_floor: bool = True
    # "to-winners": the others pay their scores to the winners, shared equally [D-20]; "pairwise": every two players
    # settle the difference of their scores; "win-only": a winner gains 1 (shared), the others 0 (§9.2).
    payout: str = "to-winners"
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        self.validate()

    # -- checks ------------------------------------------------------------
    def validate(self) -> None:
        def bad(field_name: str, why: str) -> RulesError:
            return RulesError(f"rule set {self.name!r}: field {field_name}: {why}")

        if not self.suits or any(s not in SUITS for s in self.suits) or len(set(self.suits)) != len(self.suits):
            raise bad("suits", f"{self.suits!r} must be distinct letters of {SUITS}")
        if len(self.suits) < 2:
            raise bad("suits", "needs at least 2 suits (one trump, one side suit)")
        if not self.ranks or any(r not in RANKS for r in self.ranks) or len(set(self.ranks)) != len(self.ranks):
            raise bad("ranks", f"{self.ranks!r} must be distinct ranks of {RANKS}")
        if list(self.ranks) != sorted(self.ranks, key=RANKS.index):
            raise bad("ranks", f"{self.ranks!r} must be listed low to high")
        if not 1 <= self.hand_size <= 5:
            raise bad("hand_size", f"{self.hand_size} must be 1..5")
        if self.min_players < 2:
            raise bad("min_players", f"{self.min_players} must be at least 2")
        if self.max_players < self.min_players:
            raise bad("max_players", f"{self.max_players} is below min_players {self.min_players}")
        needed = self.max_players * self.hand_size + 1
        if needed > self.deck_size:
            raise bad(
                "max_players",
                f"{self.max_players} players x {self.hand_size} cards + the trump card need {needed} cards, "
                f"the deck has {self.deck_size}",
            )
        if self.follow_rule not in FOLLOW_RULES:
            raise bad("follow_rule", f"{self.follow_rule!r} must be one of {sorted(FOLLOW_RULES)}")
        for name, allowed in (
            ("speaking_order", SPEAKING_ORDERS),
            ("passer_cards", PASSER_CARDS),
            ("rumba_lead", RUMBA_LEADS),
            ("normal_lead", NORMAL_LEADS),
            ("others_after_rumba", OTHERS_AFTER_RUMBA),
            ("winners", WINNERS),
            ("payout", PAYOUTS),
        ):
            if getattr(self, name) not in allowed:
                raise bad(name, f"{getattr(self, name)!r} must be one of {list(allowed)}")
        if not 0 <= self.exchange_limit <= self.hand_size:
            raise bad("exchange_limit", f"{self.exchange_limit} must be 0..hand_size ({self.hand_size})")
        if self.throw_in_below not in RANKS:
            raise bad("throw_in_below", f"{self.throw_in_below!r} is not a rank")
        if not 1 <= self.rumba_min_tricks <= self.hand_size:
            raise bad("rumba_min_tricks", f"{self.rumba_min_tricks} must be 1..hand_size ({self.hand_size})")
        if self.sit_out_limit < 0:
            raise bad("sit_out_limit", f"{self.sit_out_limit} must be 0 (no limit) or more")
        if self.two_of_trump_swap and "2" not in self.ranks:
            raise bad("two_of_trump_swap", "the deck has no two")
        if self.jack_of_trump_forces_play and "J" not in self.ranks:
            raise bad("jack_of_trump_forces_play", "the deck has no jack")
        if self.goal_score < 0:  # scores are entered 1..999 (limits.SCORE): a goal below 0 is not supported
            raise bad("goal_score", f"{self.goal_score} must be 0 or more")
        if self.start_score <= self.goal_score:
            raise bad("start_score", f"{self.start_score} must be above goal_score ({self.goal_score})")

    # -- derived -------------------------------------------------------------
    @property
    def deck_size(self) -> int:
        return len(self.suits) * len(self.ranks)

    @property
    def follow_code(self) -> int:
        return FOLLOW_RULES[self.follow_rule]

    @property
    def deck(self) -> list[int]:
        """Card ids of the deck, suit by suit, low rank first."""
        return [card_id(SUITS.index(s), RANKS.index(r)) for s in self.suits for r in self.ranks]

    @property
    def deck_mask(self) -> int:
        mask = 0
        for card in self.deck:
            mask |= 1 << card
        return mask

    def deck_array(self) -> np.ndarray:
        return np.array(self.deck, dtype=np.int64)

    @property
    def suit_indices(self) -> list[int]:
        return [SUITS.index(s) for s in self.suits]

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise RulesError(
                f"{players} players: rule set {self.name!r} allows {self.min_players}..{self.max_players}"
            )

    def check_cards(self, cards, token_of=None) -> None:
        """Refuse cards outside this deck, naming the first offending one."""
        deck = self.deck_mask
        for card in cards:
            if not (deck >> card) & 1:
                text = format_card(card) if token_of is None else token_of(card)
                raise CardError(f"card {text} is not in the {self.name} deck ({self.ranks_text()})", text)

    def check_suit(self, suit: int) -> None:
        if SUITS[suit] not in self.suits:
            raise CardError(f"suit {SUITS[suit]} is not in the {self.name} deck", SUITS[suit])

    def pass_penalty(self, passes_before: int) -> int:
        """Score change for passing a hand that is played, after ``passes_before`` passes in a row."""
        limit = self.sit_out_limit
        if limit <= 0:
            return 0
        streak = passes_before + 1
        due = streak >= limit if self.sit_out_repeats else streak % limit == 0
        return self.sit_out_penalty if due else 0

    def ranks_text(self) -> str:
        return f"suits {' '.join(self.suits)}, ranks {self.ranks[0]}..{self.ranks[-1]}"

    def to_dict(self) -> dict:
        """Every field, less the §9 game fields that keep their defaults (GAME_DEFAULTS: they move no table)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if not (f.name in GAME_DEFAULTS and getattr(self, f.name) == GAME_DEFAULTS[f.name])}

    def hand_rules(self) -> RuleSet:
        """This rule set with the §9 game fields at their defaults: what one hand (its tables, strategies) needs."""
        return dataclasses.replace(self, **GAME_DEFAULTS)

    def replace(self, **changes) -> RuleSet:
        return dataclasses.replace(self, **changes)


SWISS = RuleSet(
    name="swiss",
    description="Swiss/German Rumba, 36 cards, Stechzwang, knock (seed 000)",
)

FLEMISH = RuleSet(
    name="flemish",
    ranks=RANKS,
    min_players=2,
    max_players=6,
    start_score=21,
    follow_rule="flemish",
    exchange_limit=3,
    passer_cards="put-away",
    knock=False,
    throw_in=False,
    jack_of_trump_forces_play=True,
    two_of_trump_swap=True,
    rumba_lead="first-after-dealer",  # [D-10]
    normal_lead="first-after-dealer",  # §5.7: "De eerste speler links van de deler mag nu beginnen"
    others_after_rumba="must-play",
    lone_rumba_allowed=False,
    rumba_success_per_trick=0,
    rumba_success_flat=-10,
    rumba_others_per_trick=-2,
    rumba_others_no_trick=10,
    sit_out_limit=0,
    description="Flemish Rumba, 52 cards (seed 001)",
)

PRESETS: dict[str, RuleSet] = {"swiss": SWISS, "flemish": FLEMISH}


def get_rules(name_or_path: str | RuleSet) -> RuleSet:
    """A preset by name, or a house-rule TOML file (``base = "swiss"`` plus overrides)."""
    if isinstance(name_or_path, RuleSet):
        return name_or_path
    key = str(name_or_path).strip().lower()
    if key in PRESETS:
        return PRESETS[key]
    path = Path(str(name_or_path))
    if path.suffix == ".toml" or path.exists():
        return load_rules(path)
    raise RulesError(f"unknown rule set {name_or_path!r} (use {' or '.join(PRESETS)} or a .toml file)")


def load_rules(path: str | Path) -> RuleSet:
    """Read a house-rule TOML file: ``base`` names a preset, other keys override its fields."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesError(f"rule file {str(path)!r} not found") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RulesError(f"rule file {str(path)!r}: not valid TOML ({exc})") from None
    return rules_from_dict(data, source=str(path))


def rules_from_dict(data: dict, source: str = "rules") -> RuleSet:
    data = dict(data)
    base_name = str(data.pop("base", "swiss")).lower()
    if base_name not in PRESETS:
        raise RulesError(f"{source}: field base: unknown preset {base_name!r}")
    base = PRESETS[base_name]
    fields = {f.name: f for f in dataclasses.fields(RuleSet)}
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
    changes.setdefault("name", f"{base_name}+{_safe_stem(Path(source).stem)}" if source != "rules" else base_name)
    if not is_safe_name(changes["name"]):
        raise RulesError(f"{source}: field name: {changes['name']!r} must be 1-64 letters, digits, + - _ or . "
                         "(it names folders and files), starting with a letter or digit")
    return dataclasses.replace(base, **changes)


__all__ = [
    "RuleSet",
    "RulesError",
    "SWISS",
    "FLEMISH",
    "PRESETS",
    "PAYOUTS",
    "WINNERS",
    "GAME_DEFAULTS",
    "get_rules",
    "load_rules",
    "rules_from_dict",
    "is_safe_name",
    "FOLLOW_STECHZWANG",
    "FOLLOW_FLEMISH",
    "SUIT_BITS",
    "card_rank",
    "card_suit",
]
