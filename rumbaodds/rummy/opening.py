"""`rummy open` as data: the opening value of a hand, its melds and the penalty left (RULES.md §8.4-§8.6)."""

from __future__ import annotations

from .cards import format_type, parse_rummy_hand
from .rules import RummyRules, get_rummy_rules
from .solver import solve


def opening(hand, rules_arg: str | RummyRules = "romme") -> dict:
    """The answer of `rummy open` as a dict (its JSON form).

    ``melds`` reach the opening value, leaving the fewest penalty points among the sets that do;
    ``penalty_left`` is the smallest penalty any set of melds leaves (a separate objective, its
    melds in ``penalty_melds``); ``left_penalty`` is what the shown melds leave.
    """
    rules = get_rummy_rules(rules_arg)
    cards = parse_rummy_hand(hand, rules, rules.open_hand_sizes)
    best = solve(cards, rules, "lex")
    low = solve(cards, rules, "penalty")
    limit = len(cards) - 1 if rules.keep_one_card else len(cards)
    return {
        "rules": rules.name,
        "hand": [format_type(c) for c in cards],
        "cards": len(cards),
        "lay_limit": limit,
        "threshold": rules.opening_threshold,
        "opening_value": best.value,
        "can_open": best.value >= rules.opening_threshold,
        "melds": [m.tokens() for m in best.melds],
        "meld_values": [m.value for m in best.melds],
        "jokers_stand_for": [[format_type(c) for c in m.stands_for] for m in best.melds],
        "left": [format_type(c) for c in best.left],
        "left_penalty": best.penalty_left,
        "penalty_left": low.penalty_left,
        "penalty_melds": [m.tokens() for m in low.melds],
    }


__all__ = ["opening"]
