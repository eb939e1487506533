"""Plain-Python twin of the ``rummy odds`` kernel (odds.py): one sample, said step by step.

Same random stream (``twins.common.Stream``), same deal, same turns; the
discard is chosen by its definition (the opening value left after each
possible discard, computed by the twin solver for every card) rather than by
the kernel's shortcut. Tests require the two to agree sample by sample.
"""

from __future__ import annotations

from functools import lru_cache

from ..twins.common import Stream
from .cards import JOKER, rank_of, suit_of
from .melds import positions_of
from .odds import MODE_DEAL, MODE_HAND, MODE_JOKER
from .rules import RummyRules
from .twin import solve_twin


def partners(card: int, hand: list[int], rules: RummyRules) -> int:
    """Other real cards of the hand that could share a meld with ``card`` (one more card needed)."""
    count = 0
    for other in hand:
        if other == JOKER or other == card:
            continue
        same_rank = rank_of(other) == rank_of(card) and suit_of(other) != suit_of(card)
        near = suit_of(other) == suit_of(card) and any(
            1 <= abs(a - b) <= 2 for a in positions_of(card, rules) for b in positions_of(other, rules))
        count += same_rank or near
    return count


def tie_key(card: int, rules: RummyRules, policy: str) -> int:
    from .cards import penalty, rank_value

    if policy == "keep-high":
        top = rank_value(rank_of(card), rules)
        if rank_of(card) == 12 and rules.ace_low:
            top = max(top, rules.ace_low_value)
        return top
    return 1000 - penalty(card, rules)


@lru_cache(maxsize=1 << 16)
def value_of(hand: tuple[int, ...], rules: RummyRules) -> int:
    return solve_twin(list(hand), rules, "value")[0]


def discard_of(hand: list[int], rules: RummyRules, policy: str) -> int:
    """Never a joker; the highest opening value kept; fewest partners; the policy's tie-break; lowest type."""
    best_key, choice = None, None
    for card in sorted(set(c for c in hand if c != JOKER)):
        rest = list(hand)
        rest.remove(card)
        key = (-value_of(tuple(sorted(rest)), rules), partners(card, hand, rules), tie_key(card, rules, policy), card)
        if best_key is None or key < best_key:
            best_key, choice = key, card
    return choice


def shuffle(cards: list[int], stream: Stream) -> None:
    for j in range(len(cards)):
        k = j + stream.below(len(cards) - j)
        cards[j], cards[k] = cards[k], cards[j]


def play(mode: int, hand: list[int], deck: list[int], known_up: int, players: int, turns: int, rules: RummyRules,
         policy: str, stream: Stream) -> tuple[int, int, int]:
    """The game of one sample on the shuffled pool ``deck``: (turn opened or turns + 1, value at the deal, jokers)."""
    size = rules.hand_size
    deck = list(deck)
    if mode == MODE_HAND:
        mine = list(hand)
    else:
        mine, deck = deck[:size], deck[size:]
    jokers_held = mine.count(JOKER)
    if known_up < 0:
        pile, deck = [deck[0]], deck[1:]
    else:
        pile = [known_up]
    others = []
    for _ in range(players - 1):
        others.append(deck[:size])
        deck = deck[size:]
    stock = deck
    deal_value = 0
    if mode != MODE_HAND:
        deal_value = value_of(tuple(sorted(mine)), rules)
        if deal_value >= rules.opening_threshold:
            return 0, deal_value, jokers_held
    for turn in range(1, turns + 1):
        for seat in range(players):
            if not stock:  # renew the stock from the discard pile but its top card
                if len(pile) <= 1:
                    return turns + 1, deal_value, jokers_held
                stock, pile = pile[:-1], [pile[-1]]
                shuffle(stock, stream)
            card = stock.pop(0)
            if seat == 0:
                mine.append(card)
                if value_of(tuple(sorted(mine)), rules) >= rules.opening_threshold:
                    return turn, deal_value, jokers_held
                out = discard_of(mine, rules, policy)
                mine.remove(out)
                pile.append(out)
            else:
                k = stream.below(size + 1)  # his discard: one of his 13 cards or the card drawn
                if k == size:
                    pile.append(card)
                else:
                    pile.append(others[seat - 1][k])
                    others[seat - 1][k] = card
    return turns + 1, deal_value, jokers_held


def sample(mode: int, hand: list[int], pool: list[int], known_up: int, players: int, turns: int, rules: RummyRules,
           policy: str, seed: int, index: int) -> tuple:
    """Sample ``index``: (turn opened, value at the deal, jokers held) and for MODE_JOKER the paired turn first."""
    stream = Stream(seed, index)
    deck = list(pool)
    shuffle(deck, stream)
    if mode != MODE_JOKER:
        return play(mode, hand, deck, known_up, players, turns, rules, policy, stream)
    size = rules.hand_size
    reals = [i for i in range(size) if deck[i] != JOKER]
    spares = [i for i in range(size, len(deck)) if deck[i] == JOKER]
    if not spares or not reals:
        return -1, -1, 0, -1
    at = reals[stream.below(len(reals))]
    start = stream.state
    t_a, value, jokers = play(MODE_DEAL, hand, deck, known_up, players, turns, rules, policy, stream)
    swapped = list(deck)
    swapped[spares[0]], swapped[at] = deck[at], JOKER
    stream.state = start
    t_b, _v, _j = play(MODE_DEAL, hand, swapped, known_up, players, turns, rules, policy, stream)
    return t_a, t_b, jokers, value


__all__ = ["sample", "play", "discard_of", "partners", "tie_key", "value_of"]
