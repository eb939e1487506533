"""Deals played and solved by the trick engine (RULES.md §6): every hand by one card play, or double dummy.

The deals are those of :mod:`.files` (read from a deal file or generated); ``rumbaodds deals play`` and
``rumbaodds deals solve`` print what these return.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..cardplay import CARD_PLAYS
from .files import Deal, check_seat

POLICIES = (*CARD_PLAYS, "pimc")  # every card play of ask, and the search it is measured against


def _groups(deals: Sequence[Deal]) -> dict[tuple[int, int, int], list[int]]:
    """Deal indices grouped by what fixes a kernel call: (follow rule, players, hand size)."""
    groups: dict[tuple[int, int, int], list[int]] = {}
    for i, deal in enumerate(deals):
        groups.setdefault((deal.rules.follow_code, deal.players, deal.hand_size), []).append(i)
    return groups


def _arrays(deals: Sequence[Deal], index: list[int]):
    hands = np.array([deals[i].masks() for i in index], dtype=np.uint64)
    leaders = np.array([deals[i].leader for i in index], dtype=np.int64)
    trumps = np.array([deals[i].trump for i in index], dtype=np.int64)
    return hands, leaders, trumps


def play_deals(deals: Sequence[Deal], policy: str = "greedy", rumba: int | None = None,
               worlds: int | None = None, seed: int = 0, first: int = 0, infer: bool = False) -> np.ndarray:
    """Tricks each hand makes when every hand plays ``policy`` (RULES.md §6; docs/SIMULATION.md "Card play").

    ``rumba``: the deals are Rumbas called by hand ``rumba`` (the others
    defend; the deal's ``leader`` still leads); None: normal games. The
    ``trump_card`` (``turned``) of a deal is seen by every policy but ``greedy``.
    ``pimc`` deals ``worlds`` worlds per decision (default
    ``engine.pimc.DEFAULT_WORLDS``), its random numbers from ``seed`` and the
    deal's index ``first + i``, so the answer does not depend on batching.
    ``infer`` (with ``rumba``): its defenders draw the caller's hand from those that call Rumba at his seat under
    the equilibrium (rumbaodds/opponents/call_belief.py).
    Returns int64 of shape ``(len(deals), most players)``: row ``i`` holds deal
    ``i``'s tricks per seat, padded with -1 beyond its own number of hands.
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r} (use {', '.join(POLICIES)})")
    deals = list(deals)
    if rumba is not None:
        for d in deals:
            check_seat(d, rumba)
    width = max((d.players for d in deals), default=0)
    out = np.full((len(deals), width), -1, dtype=np.int64)
    for (follow, n, _size), index in _groups(deals).items():
        hands, leaders, trumps = _arrays(deals, index)
        if policy == "greedy":
            from ..engine.playout import play_batch

            out[np.array(index), :n] = play_batch(hands, leaders, trumps, follow)
            continue
        from ..engine import distilled, pimc

        rules = deals[index[0]].rules
        turned = np.array([-1 if deals[i].trump_card is None else deals[i].trump_card for i in index], dtype=np.int64)
        code = {"expert": pimc.SEAT_EXPERT, "distilled": pimc.SEAT_DISTILLED, "pimc": pimc.SEAT_PIMC}[policy]
        belief = None
        if infer and rumba is not None:
            from ..opponents.call_belief import call_belief

            belief = call_belief(rules, n, rumba)
        util_caller, util_normal = pimc.utility_tables(rules)
        tricks, _ = pimc.play_batch(hands, leaders, trumps, turned, follow, np.uint64(rules.deck_mask),
                                    -1 if rumba is None else rumba, np.full(n, code, dtype=np.int64), util_caller,
                                    util_normal, rules.rumba_min_tricks, distilled.WEIGHTS,
                                    pimc.DEFAULT_WORLDS if worlds is None else worlds, seed,
                                    np.array(index, dtype=np.int64) + first, None, belief)
        out[np.array(index), :n] = tricks
    return out


def solve_deals(deals: Sequence[Deal], seat: int | str) -> np.ndarray:
    """Double-dummy tricks (RULES.md §6) for hand ``seat`` of each deal, or each deal's leader with ``"leader"``.

    Raises :class:`DealError` for a seat out of range of a deal.
    """
    from ..engine.dd import solve_batch

    deals = list(deals)
    seats = [check_seat(d, seat) for d in deals]
    out = np.zeros(len(deals), dtype=np.int64)
    for (follow, _n, _size), index in _groups(deals).items():
        hands, leaders, trumps = _arrays(deals, index)
        chosen = np.array([seats[i] for i in index], dtype=np.int64)
        out[np.array(index)] = solve_batch(hands, leaders, trumps, chosen, follow)
    return out


__all__ = ["POLICIES", "play_deals", "solve_deals"]
