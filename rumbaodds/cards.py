"""Cards as small integers and bitmasks, and their text form (RULES.md §1).

Kernels see a card as ``suit * 16 + rank`` (``suit``: C=0, D=1, H=2, S=3;
``rank``: 0 for the two up to 12 for the ace), and a hand as a ``uint64``
with bit ``card`` set. Ranks are bit positions inside a 16-bit suit lane, so
"the highest card of a suit" is the highest set bit of that lane. The suit
order C < D < H < S is also the greedy policy's tie-break (RULES.md §6).
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "CDHS"
RANKS = "23456789TJQKA"
SUIT_BITS = 16
ALL_SUITS_MASK = 0xFFFF

_UNICODE_SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}


class CardError(ValueError):
    """A card, suit or hand that cannot be read; the message names the token."""

    def __init__(self, message: str, token: str | None = None):
        super().__init__(message)
        self.token = token


def card_id(suit: int, rank: int) -> int:
    return suit * SUIT_BITS + rank


def card_suit(card: int) -> int:
    return card // SUIT_BITS


def card_rank(card: int) -> int:
    return card % SUIT_BITS


def parse_suit(token: str) -> int:
    """Suit index of a suit letter (any case) or unicode suit symbol."""
    text = token.strip()
    letter = _UNICODE_SUITS.get(text, text.upper())
    if len(letter) != 1 or letter not in SUITS:
        raise CardError(f"unknown suit {token!r} (use one of C D H S or ♣ ♦ ♥ ♠)", token)
    return SUITS.index(letter)


def parse_card(token: str) -> int:
    """Card id of ``HA``, ``S10``, ``dT``, ``♣7``: suit then rank, any case."""
    text = str(token).strip()
    if len(text) < 2:
        raise CardError(f"unknown card {token!r}", str(token))
    suit_text, rank_text = text[0], text[1:].upper()
    if rank_text == "10":
        rank_text = "T"
    letter = _UNICODE_SUITS.get(suit_text, suit_text.upper())
    if letter not in SUITS or len(rank_text) != 1 or rank_text not in RANKS:
        raise CardError(f"unknown card {token!r} (write suit then rank, e.g. HA, S10, dT)", str(token))
    return card_id(SUITS.index(letter), RANKS.index(rank_text))


def _card_of(token) -> int:
    """A card id from text, or an id already (API callers pass either)."""
    if isinstance(token, str):
        return parse_card(token)
    card = int(token)
    if not (0 <= card < 64 and card % SUIT_BITS < len(RANKS)):
        raise CardError(f"unknown card id {token!r}", str(token))
    return card


def format_card(card: int) -> str:
    return SUITS[card_suit(card)] + RANKS[card_rank(card)]


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """Card ids in a mask, lowest id first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def parse_hand(text: str | Iterable[str]) -> list[int]:
    """Cards of a hand given as ``"HA HK S6"``, ``"HA,HK,S6"`` or a list of tokens.

    Duplicates are refused here; whether the cards belong to a rule set's deck
    is the rule set's check (:meth:`RuleSet.check_cards`).
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards: list[int] = []
    for token in tokens:
        card = _card_of(token)
        if card in cards:
            raise CardError(f"duplicate card {format_card(card)}", str(token))
        cards.append(card)
    return cards


def format_hand(cards: Iterable[int]) -> str:
    return " ".join(format_card(c) for c in cards)
