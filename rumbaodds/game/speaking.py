"""Who may say what at his turn to speak (RULES.md §4.2-§4.5, §5.2-§5.5), as small questions.

Both the hand state (state.py) and the asking player's choices (answer/situation.py)
are built from these, so the speaking rules are written once. They look only at
what a seat knows at his turn: the rule set, his seat, what was said before
him, whether the dealer knocked, the card turned and his own hand.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import RANKS
from ..rules import RuleSet
from .tricks import rank_of


def jack_forces_play(rules: RuleSet, trump_card: int) -> bool:
    """Flemish §5.2: the jack of trump turned forces every player to play."""
    return rules.jack_of_trump_forces_play and rank_of(trump_card) == RANKS.index("J")


def rumba_first(rules: RuleSet, knocked: bool) -> bool:
    """Speaking order rumba-first (§4.4); after a knock there is nothing to call, only join or pass."""
    return rules.speaking_order == "rumba-first" and not knocked


def must_play(rules: RuleSet, seat: int, rumba_seat: int | None, knocked: bool, jack_forced: bool) -> bool:
    """No pass: the jack of trump turned (§5.2), or a seat after the Rumba caller where others must play (§5.4)."""
    if jack_forced:
        return True
    return (not knocked and rumba_seat is not None and rules.others_after_rumba == "must-play"
            and seat > rumba_seat)


def may_call_rumba(rules: RuleSet, players: int, seat: int, rumba_seat: int | None, knocked: bool,
                   all_before_passed: bool = False) -> bool:
    """Only the first Rumba of a hand (§4.4), none after a knock (§4.2); and a player who would play alone
    cannot call it where a lone Rumba is not allowed (flemish §5.5: the dealer after everybody passed)."""
    if knocked or rumba_seat is not None:
        return False
    lone_dealer = seat == players - 1 and all_before_passed and not rumba_first(rules, knocked)
    return not (lone_dealer and not rules.lone_rumba_allowed)


def throw_in_open(rules: RuleSet, knocked: bool, rumba_called: bool) -> bool:
    """A throw-in is possible at this turn (swiss rule 22) unless the dealer knocked [D-4], and after a Rumba
    call only where the rule set allows it (``throw_in_after_rumba``)."""
    return rules.throw_in and not knocked and (not rumba_called or rules.throw_in_after_rumba)


def all_below(rules: RuleSet, cards: Iterable[int]) -> bool:
    """[D-4]: every card ranked below ``throw_in_below`` (swiss: 6, 7, 8, 9, all below ten)."""
    limit = RANKS.index(rules.throw_in_below)
    return all(rank_of(c) < limit for c in cards)


def may_throw_in(rules: RuleSet, cards: Iterable[int], knocked: bool, rumba_called: bool) -> bool:
    return throw_in_open(rules, knocked, rumba_called) and all_below(rules, cards)


def exchange_counts(rules: RuleSet) -> range:
    """How many cards a player in a normal game may exchange (§4.6: 0..4, §5.6: 0..3), before the stock cuts it."""
    return range(rules.exchange_limit + 1)


__all__ = ["jack_forces_play", "rumba_first", "must_play", "may_call_rumba", "throw_in_open", "all_below",
           "may_throw_in", "exchange_counts"]
