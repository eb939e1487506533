"""Deal files (RULES.md §7): read, check, write and generate deals (playing and solving them: :mod:`.play`).

A deal file holds one JSON object per line (JSON Lines)::

    {"rules": "swiss", "trump": "H", "leader": 0, "hands": [["HA","HK","S6"], ["H6","SA","SK"]]}

``hands`` are the active players in play order (clockwise), ``leader`` and a
solver's seat are indices into ``hands``. A :class:`Deal` is the checked,
readable form; :meth:`Deal.masks` gives the kernels' ``uint64`` bitmasks.
Every bad input raises :class:`DealError`, which names the line, the
offending token where there is one, and the reason.

Decisions for §7 (where the rule book is silent):

- a line without ``"rules"`` uses the reader's default rule set; a line's
  ``"rules"`` names a preset (``swiss``, ``flemish``) or the default rule set
  by its name (so a file written under a house rule reads back under it);
- ``"trump_card"`` (written by :func:`generate_deals`) is optional; when it is
  present it must be a card of the deck, of the trump suit, in no hand;
  ``"turned"`` is another name for it (the turned trump card); a line with
  both must give the same card. Every card play but ``greedy`` treats it as seen;
- hands hold 1 up to the rule set's ``hand_size`` cards (5 in both presets);
- a deal holds 2 up to the rule set's ``max_players`` hands (the active
  players; the table may be larger).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..cards import SUITS, CardError, cards_of, format_card, mask_of, parse_card, parse_suit
from ..rules import PRESETS, SWISS, RuleSet

BATCH = 4096
_REQUIRED = ("trump", "leader", "hands")


class DealError(ValueError):
    """A deal that cannot be read: ``line N: <what> '<token>': <reason>``.

    ``line`` is the 1-based line number (None outside a file), ``token`` the
    offending token as written (None when there is none), ``reason`` the why.
    """

    def __init__(self, reason: str, token: str | None = None, line: int | None = None, what: str | None = None):
        self.reason = reason
        self.token = token
        self.line = line
        self.what = what
        super().__init__(self._message())

    def _message(self) -> str:
        head = f"line {self.line}: " if self.line is not None else ""
        if self.what is not None and self.token is not None:
            head += f"{self.what} {self.token!r}: "
        return head + self.reason

    def at_line(self, line: int | None) -> DealError:
        """The same error, placed on ``line``."""
        return DealError(self.reason, self.token, line, self.what)


@dataclass(frozen=True)
class Deal:
    """One checked deal. ``trump`` is a suit index (C=0, D=1, H=2, S=3), cards are ids (cards.py)."""

    rules: RuleSet
    trump: int
    leader: int
    hands: tuple[tuple[int, ...], ...]
    trump_card: int | None = None
    line: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", tuple(tuple(int(c) for c in hand) for hand in self.hands))
        _check(self.rules, self.trump, self.leader, self.hands, self.trump_card, self.line, None)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def hand_size(self) -> int:
        return len(self.hands[0])

    def masks(self) -> np.ndarray:
        """Hands as ``uint64`` bitmasks, one per seat (the kernels' layout)."""
        return np.array([mask_of(hand) for hand in self.hands], dtype=np.uint64)

    def to_json(self) -> str:
        return deal_to_json(self)


# -- checks ----------------------------------------------------------------------
@lru_cache(maxsize=64)
def _deck_mask(rules: RuleSet) -> int:
    return rules.deck_mask


def _check(rules, trump, leader, hands, trump_card, line, token_of) -> None:
    """Every §7 rule that concerns card ids; ``token_of(hand, index)`` gives a card's text as written."""

    def text(h: int, i: int) -> str:
        return token_of(h, i) if token_of is not None else format_card(hands[h][i])

    if not isinstance(rules, RuleSet):
        raise DealError(f"rules must be a RuleSet, got {type(rules).__name__}", line=line)
    if isinstance(trump, bool) or not isinstance(trump, (int, np.integer)) or not 0 <= trump < len(SUITS):
        raise DealError("trump must be a suit index 0..3", str(trump), line, "trump")
    if SUITS[trump] not in rules.suits:
        raise DealError(f"suit {SUITS[trump]} is not in the {rules.name} deck ({rules.ranks_text()})",
                        SUITS[trump], line, "trump")
    n = len(hands)
    if n < 2:
        raise DealError(f"too few hands: {n} (a deal needs 2..{rules.max_players} hands for {rules.name})", line=line)
    if n > rules.max_players:
        raise DealError(f"too many hands: {n} (a deal needs 2..{rules.max_players} hands for {rules.name})", line=line)
    deck = _deck_mask(rules)
    seen: dict[int, int] = {}
    for h, hand in enumerate(hands):
        for i, card in enumerate(hand):
            if not 0 <= card < 64 or not (deck >> card) & 1:
                raise DealError(f"not in the {rules.name} deck ({rules.ranks_text()})", text(h, i), line, "card")
            if card in seen:
                where = f"twice in hand {h}" if seen[card] == h else f"in hands {seen[card]} and {h}"
                raise DealError(f"duplicate card ({where})", text(h, i), line, "card")
            seen[card] = h
    sizes = [len(hand) for hand in hands]
    if len(set(sizes)) > 1:
        listed = ", ".join(str(s) for s in sizes)
        raise DealError(f"hands of different sizes ({listed} cards)", line=line)
    if not 1 <= sizes[0] <= rules.hand_size:
        raise DealError(
            f"wrong hand size: {sizes[0]} cards (hands hold 1..{rules.hand_size} for {rules.name})", line=line
        )
    if isinstance(leader, bool) or not isinstance(leader, (int, np.integer)):
        raise DealError("leader must be an integer index into hands", str(leader), line, "leader")
    if not 0 <= leader < n:
        raise DealError(f"leader out of range (0..{n - 1} for {n} hands)", str(leader), line, "leader")
    if trump_card is not None:
        card_text = token_of(-1, 0) if token_of is not None else format_card(trump_card)
        if not 0 <= trump_card < 64 or not (deck >> trump_card) & 1:
            raise DealError(f"not in the {rules.name} deck ({rules.ranks_text()})", card_text, line, "trump_card")
        if trump_card >> 4 != trump:
            raise DealError(f"not of the trump suit {SUITS[trump]}", card_text, line, "trump_card")
        if trump_card in seen:
            raise DealError(f"trump card is also in hand {seen[trump_card]}", card_text, line, "trump_card")


def check_seat(deal: Deal, seat: int | str) -> int:
    """The seat index that ``seat`` (an index into hands, or ``"leader"``) means for ``deal``."""
    if isinstance(seat, str) and seat.strip().lower() == "leader":
        return deal.leader
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
        raise DealError("seat must be an index into hands or 'leader'", str(seat), deal.line, "seat")
    if not 0 <= seat < deal.players:
        raise DealError(f"seat out of range (0..{deal.players - 1} for {deal.players} hands)", str(seat),
                        deal.line, "seat")
    return int(seat)


# -- reading -----------------------------------------------------------------------
@lru_cache(maxsize=1024)
def _card(token: str) -> int:
    return parse_card(token)


def _rules_named(value, default_rules: RuleSet, line: int | None) -> RuleSet:
    if value is None:
        raise DealError("rules must be a rule set name such as \"swiss\"", "null", line, "rules")
    if not isinstance(value, str):
        raise DealError("rules must be a rule set name such as \"swiss\"", json.dumps(value), line, "rules")
    key = value.strip().lower()
    if key == default_rules.name.lower():
        return default_rules
    if key in PRESETS:
        return PRESETS[key]
    known = sorted({*PRESETS, default_rules.name})
    raise DealError(f"unknown rule set (known here: {', '.join(known)})", value, line, "rules")


def parse_deal(obj_or_text, default_rules: RuleSet = SWISS, line_no: int | None = None) -> Deal:
    """A :class:`Deal` from a JSON object (dict) or its text; raises :class:`DealError`."""
    line = line_no
    obj = obj_or_text
    if isinstance(obj, (bytes, bytearray)):
        try:
            obj = obj.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DealError(f"not valid UTF-8 ({exc.reason} at byte {exc.start})", line=line) from None
    if isinstance(obj, str):
        try:
            obj = json.loads(obj)
        except json.JSONDecodeError as exc:
            raise DealError(f"bad JSON: {exc.msg} (column {exc.colno})", line=line) from None
        except RecursionError:
            raise DealError("bad JSON: nested too deeply", line=line) from None
    if not isinstance(obj, dict):
        raise DealError(f"a deal must be a JSON object, got {_json_type(obj)}", line=line)
    for name in _REQUIRED:
        if name not in obj:
            raise DealError(f"missing field {name!r}", name, line)
    rules = _rules_named(obj["rules"], default_rules, line) if "rules" in obj else default_rules

    raw_trump = obj["trump"]
    if not isinstance(raw_trump, str):
        raise DealError("trump must be a suit letter such as \"H\" or ♥", json.dumps(raw_trump), line, "trump")
    try:
        trump = parse_suit(raw_trump)
    except CardError:
        raise DealError("unknown suit (use one of C D H S or ♣ ♦ ♥ ♠)", raw_trump, line, "trump") from None

    raw_hands = obj["hands"]
    if not isinstance(raw_hands, list):
        raise DealError(f"hands must be a list of hands, got {_json_type(raw_hands)}", line=line)
    tokens: list[list[str]] = []
    hands: list[list[int]] = []
    for h, raw_hand in enumerate(raw_hands):
        if not isinstance(raw_hand, list):
            raise DealError(f"hand {h} must be a list of cards, got {_json_type(raw_hand)}", line=line)
        hand_tokens, hand = [], []
        for raw_card in raw_hand:
            token = raw_card if isinstance(raw_card, str) else json.dumps(raw_card)
            if not isinstance(raw_card, str):
                raise DealError("unknown card (a card is a string such as \"HA\")", token, line, "card")
            try:
                hand.append(_card(raw_card))
            except CardError:
                raise DealError("unknown card (write suit then rank, e.g. HA, S10, dT)", token, line, "card") from None
            hand_tokens.append(token)
        tokens.append(hand_tokens)
        hands.append(hand)

    trump_card = None
    raw_tc = obj.get("trump_card")
    raw_turned = obj.get("turned")
    if raw_turned is not None:
        if raw_tc is not None and raw_tc != raw_turned:
            raise DealError("turned and trump_card name different cards", json.dumps(raw_turned), line, "turned")
        raw_tc = raw_turned
    if raw_tc is not None:
        if not isinstance(raw_tc, str):
            raise DealError("unknown card (a card is a string such as \"H9\")", json.dumps(raw_tc), line, "trump_card")
        try:
            trump_card = _card(raw_tc)
        except CardError:
            raise DealError("unknown card (write suit then rank, e.g. H9)", raw_tc, line, "trump_card") from None
        tokens.append([raw_tc])  # index -1

    leader = obj["leader"]
    if isinstance(leader, bool) or not isinstance(leader, int):
        raise DealError("leader must be an integer index into hands", json.dumps(leader), line, "leader")

    _check(rules, trump, leader, hands, trump_card, line, lambda h, i: tokens[h][i])
    return Deal(rules, trump, leader, tuple(tuple(hand) for hand in hands), trump_card, line)


def _json_type(value) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def read_deals(
    lines: Iterable[str | bytes],
    default_rules: RuleSet = SWISS,
    skip_invalid: bool = False,
    on_error: Callable[[DealError], None] | None = None,
    check: Callable[[Deal], object] | None = None,
) -> Iterator[Deal]:
    """Deals of a JSON Lines stream, in order, with ``Deal.line`` set (1-based; blank lines skipped).

    A bad line raises :class:`DealError`; with ``skip_invalid`` it is passed to
    ``on_error`` instead and skipped. ``check(deal)`` may raise
    :class:`DealError` for further per-deal conditions (e.g. :func:`check_seat`).
    """
    for line_no, raw in enumerate(lines, start=1):
        if isinstance(raw, (bytes, bytearray)):
            if line_no == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
        elif line_no == 1 and raw.startswith("\ufeff"):
            raw = raw[1:]
        if not raw.strip():
            continue
        try:
            deal = parse_deal(raw, default_rules, line_no)
            if check is not None:
                check(deal)
        except DealError as exc:
            err = exc if exc.line == line_no else exc.at_line(line_no)
            if not skip_invalid:
                raise err from None
            if on_error is not None:
                on_error(err)
            continue
        yield deal


# -- writing -------------------------------------------------------------------------
def deal_to_json(deal: Deal, trump_card: int | None = None) -> str:
    """One JSON Lines line (no newline) for ``deal``, in the §7 layout."""
    obj: dict = {"rules": deal.rules.name, "trump": SUITS[deal.trump]}
    card = trump_card if trump_card is not None else deal.trump_card
    if card is not None:
        obj["trump_card"] = format_card(card)
    obj["leader"] = deal.leader
    obj["hands"] = [[format_card(c) for c in hand] for hand in deal.hands]
    return json.dumps(obj)


def generate_deals(
    rules: RuleSet,
    players: int,
    count: int,
    hand_size: int = 5,
    seed: int = 0,
    batch: int = BATCH,
) -> Iterator[Deal]:
    """Random deals: shuffle, deal ``hand_size`` cards each, turn the next card for trump, pick a leader.

    Deal ``i`` is sample ``i`` of the counter-based stream ``seed`` (engine/rng.py),
    so the same seed gives the same deals whatever ``batch`` is; deals are
    made ``batch`` at a time, so any ``count`` streams in bounded memory.
    Bad arguments raise ``ValueError`` at the call, before any deal is made.
    """
    if isinstance(players, bool) or not 2 <= players <= rules.max_players:
        raise ValueError(f"players: {players} is out of range (2..{rules.max_players} for {rules.name})")
    if not 1 <= hand_size <= rules.hand_size:
        raise ValueError(f"hand size: {hand_size} is out of range (1..{rules.hand_size} for {rules.name})")
    if count < 0:
        raise ValueError(f"count: {count} must be 0 or more")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed: {seed} must be 0..2**64-1")
    if batch < 1:
        raise ValueError(f"batch: {batch} must be 1 or more")
    return _generate(rules, players, count, hand_size, seed, batch)


def _generate(rules: RuleSet, players: int, count: int, hand_size: int, seed: int, batch: int) -> Iterator[Deal]:
    from ..engine.rng import deal_batch

    deck = rules.deck_array()
    useed = np.uint64(seed)
    for start in range(0, count, batch):
        size = min(batch, count - start)
        hands, trump_cards, leaders = deal_batch(deck, players, hand_size, useed, start, size)
        for i in range(size):
            trump_card = int(trump_cards[i])
            yield Deal(
                rules,
                trump_card >> 4,
                int(leaders[i]),
                tuple(tuple(cards_of(int(m))) for m in hands[i]),
                trump_card,
            )


__all__ = [
    "Deal",
    "DealError",
    "check_seat",
    "parse_deal",
    "read_deals",
    "deal_to_json",
    "generate_deals",
]
