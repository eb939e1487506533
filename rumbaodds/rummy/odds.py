"""How soon can I open? The Monte Carlo kernel of ``rummy odds`` and of the tables (docs/RUMMY.md).

One sample (sample ``i`` of seed ``s`` has its own SplitMix64 stream, so
threads and batches never change a result):

1. The *pool* (the deck minus the cards the player has seen: his hand, and
   the open discard card when it is given) is shuffled completely
   (Fisher-Yates). From its front: the player's hand when hands are dealt at
   random (tables), the open card when it is not given, then the other
   players' hands (13 each); the rest is the stock, drawn from the front.
2. The player draws first. Each turn ``t = 1..K``: he draws the top card of
   the stock; if the 14 cards reach the opening threshold (melds of at most
   13 cards, [D-16]) the sample has opened at turn ``t`` and stops; else he
   discards by the policy below. Then each other player draws from the stock
   and discards a card drawn uniformly from his 14 (discards are never
   taken by anyone). An empty stock is renewed from the discard pile but its
   top card, shuffled (seed 004).
3. Discard policy: never a joker; the card whose removal keeps the highest
   opening value of the 13 cards left; ties: the card with the fewest
   *partners* (other real cards it could share a meld with: same rank and
   another suit, or same suit and one or two places away), then by the
   policy's tie-break (``keep-high``: the lowest meld value, keeping high
   cards that reach the threshold sooner; ``shed-points``: the highest
   penalty), then the lowest card type. The removal values are exact: a card
   outside the melds the solver found keeps the value (those melds are still
   there); for a card inside them the solver is run again.

The plain-Python twin is ``twin_odds.py``; tests compare them sample by sample.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ..engine.bits import U0, U1, lowest_card, popcount
from ..engine.rng import below, next_state, shuffle, stream_start
from ..seeds import check_seed
from ..stats import Estimate
from .cards import JOKER, format_type, parse_rummy_hand, parse_token, rank_of, suit_of, unknown_cards
from .cards import check_cards as _check_cards
from .melds import positions_of
from .rules import P_KEEP_ONE, P_THRESHOLD, RulesError, RummyRules, get_rummy_rules
from .solver import NO_TARGET, OBJ_VALUE, hand_masks, in_threads, new_scratch, rule_constants, solve, solve_masks

POLICIES = {"keep-high": 0, "shed-points": 1}
MODE_HAND = 0  # the player's hand is given (rummy odds)
MODE_DEAL = 1  # the hand is dealt at random (tables)
MODE_JOKER = 2  # dealt at random, and again with one card swapped for an unseen joker (a joker's worth)
MAX_TURNS = 60
BATCH = 20_000


# -- discard policy helpers (per rule set, computed once) ------------------------------------------
def partner_masks(rules: RummyRules) -> np.ndarray:
    """For each card type, the mask of the types that can share a meld with it given one more card."""
    masks = np.zeros(52, dtype=np.uint64)
    for a in range(52):
        m = 0
        for b in range(52):
            if a == b:
                continue
            same_rank = rank_of(a) == rank_of(b) and suit_of(a) != suit_of(b)
            near = suit_of(a) == suit_of(b) and any(
                1 <= abs(pa - pb) <= 2 for pa in positions_of(a, rules) for pb in positions_of(b, rules))
            if same_rank or near:
                m |= 1 << b
        masks[a] = m
    return masks


def tie_keys(rules: RummyRules, policy: str) -> np.ndarray:
    """The policy's tie-break per type (lower is discarded first)."""
    from .cards import penalty, rank_value

    if policy not in POLICIES:
        raise RulesError(f"unknown discard policy {policy!r} (use {' or '.join(POLICIES)})")
    keys = np.zeros(52, dtype=np.int64)
    for t in range(52):
        if policy == "keep-high":
            top = rank_value(rank_of(t), rules)
            if rank_of(t) == 12 and rules.ace_low:
                top = max(top, rules.ace_low_value)
            keys[t] = top
        else:
            keys[t] = 1000 - penalty(t, rules)
    return keys


# -- kernel pieces ---------------------------------------------------------------------------------
@njit(cache=True)
def best_value(m1, m2, jok, ncards, params, consts, target, scratch):
    """Opening value (stopping at ``target``), melds in scratch's best path; grows the scratch if needed."""
    while True:
        best, nbest, count = solve_masks(m1, m2, jok, ncards, params, consts, np.int64(OBJ_VALUE), target, scratch)
        if count >= 0:
            return best, nbest, scratch
        scratch = new_scratch(scratch[0].shape[0] * 2)


@njit(cache=True, inline="always")
def remove_type(m1, m2, t):
    b = U1 << np.uint64(t)
    if m2 & b:
        return m1, m2 & ~b
    return m1 & ~b, m2


@njit(cache=True, inline="always")
def add_type(m1, m2, t):
    b = U1 << np.uint64(t)
    if m1 & b:
        return m1, m2 | b
    return m1 | b, m2


@njit(cache=True)
def choose_discard(m1, m2, jok, ncards, value, nbest, params, consts, pm, tie, scratch, order):
    """The card type to discard from a hand that cannot open (module docstring, step 3)."""
    # the melds the solver found: their cards (s1 once or more, s2 twice) and how many cards they lay
    cmask, cint, best_path = scratch[0], scratch[1], scratch[9]
    s1 = U0
    s2 = U0
    laid = 0
    for k in range(nbest):
        c = best_path[k]
        s2 |= s1 & cmask[c]
        s1 |= cmask[c]
        laid += cint[c, 1]
    room = ncards - 1 - (1 if params[P_KEEP_ONE] else 0)
    # real card types in hand, in the policy's order
    n = 0
    x = m1
    while x:
        t = lowest_card(x)
        x &= x - U1
        partners = popcount(m1 & pm[t]) + popcount(m2 & pm[t])
        order[n] = partners * (1 << 24) + tie[t] * 64 + t
        n += 1
    for i in range(1, n):
        key = order[i]
        j = i - 1
        while j >= 0 and order[j] > key:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = key
    for i in range(n):
        t = order[i] & 63
        b = U1 << np.uint64(t)
        held = 2 if m2 & b else 1
        in_melds = (1 if s1 & b else 0) + (1 if s2 & b else 0)
        if in_melds < held and laid <= room:
            return t  # the melds found are still there: the value is kept
        r1, r2 = remove_type(m1, m2, t)
        v, _nb, scratch = best_value(r1, r2, jok, ncards - 1, params, consts, value, scratch)
        if v >= value:
            return t
    # no discard keeps the value: the highest value left, in the same order
    choice = -1
    top = np.int64(-1)
    for i in range(n):
        t = order[i] & 63
        r1, r2 = remove_type(m1, m2, t)
        v, _nb, scratch = best_value(r1, r2, jok, ncards - 1, params, consts, NO_TARGET, scratch)
        if v > top:
            top = v
            choice = t
    return choice


@njit(cache=True)
def play_shuffled(mode, hand, size, known_up, players, hand_size, turns, params, consts, pm, tie, state, scratch,
                  work, threshold):
    """The game of one sample on the shuffled pool ``perm[:size]``."""
    perm, opp, pile, order, _saved = work
    m1 = U0
    m2 = U0
    jok = np.int64(0)
    pos = np.int64(0)
    if mode == MODE_HAND:
        for i in range(hand.shape[0]):
            if hand[i] < 0:
                continue
            if hand[i] == JOKER:
                jok += 1
            else:
                m1, m2 = add_type(m1, m2, hand[i])
    else:
        for i in range(hand_size):
            if perm[i] == JOKER:
                jok += 1
            else:
                m1, m2 = add_type(m1, m2, perm[i])
        pos = hand_size
    ncards = hand_size
    jokers_held = jok
    if known_up < 0:
        pile[0] = perm[pos]
        pos += 1
    else:
        pile[0] = known_up
    npile = 1
    for p in range(players - 1):
        for k in range(hand_size):
            opp[p, k] = perm[pos]
            pos += 1
    top = pos  # next stock card
    end = size
    deal_value = np.int64(0)
    if mode != MODE_HAND:
        deal_value, _nb, scratch = best_value(m1, m2, jok, ncards, params, consts, NO_TARGET, scratch)
        if deal_value >= threshold:
            return 0, deal_value, jokers_held, state
    for turn in range(1, turns + 1):
        for seat in range(players):
            if top >= end:  # the stock is empty: the discard pile but its top card, shuffled
                if npile <= 1:
                    return turns + 1, deal_value, jokers_held, state
                for k in range(npile - 1):
                    perm[k] = pile[k]
                state = shuffle(perm[:npile - 1], state)
                top = 0
                end = npile - 1
                pile[0] = pile[npile - 1]
                npile = 1
            card = perm[top]
            top += 1
            if seat == 0:
                if card == JOKER:
                    jok += 1
                else:
                    m1, m2 = add_type(m1, m2, card)
                ncards += 1
                value, nbest, scratch = best_value(m1, m2, jok, ncards, params, consts, threshold, scratch)
                if value >= threshold:
                    return turn, deal_value, jokers_held, state
                t = choose_discard(m1, m2, jok, ncards, value, nbest, params, consts, pm, tie, scratch, order)
                m1, m2 = remove_type(m1, m2, t)
                ncards -= 1
                pile[npile] = t
                npile += 1
            else:
                state = next_state(state)
                k = below(state, hand_size + 1)
                p = seat - 1
                if k == hand_size:
                    pile[npile] = card
                else:
                    pile[npile] = opp[p, k]
                    opp[p, k] = card
                npile += 1
    return turns + 1, deal_value, jokers_held, state


@njit(cache=True, nogil=True)
def discard_range(hands, params, pm, tie, lo, hi, out):
    """The policy's discard for rows ``lo..hi-1`` of ``hands`` (tests compare it with the twin's)."""
    consts = rule_constants(params)
    scratch = new_scratch(np.int64(1024))
    order = np.zeros(64, dtype=np.int64)
    for i in range(lo, hi):
        m1, m2, jok, ncards = hand_masks(hands[i])
        value, nbest, scratch = best_value(m1, m2, jok, ncards, params, consts, NO_TARGET, scratch)
        out[i] = choose_discard(m1, m2, jok, ncards, value, nbest, params, consts, pm, tie, scratch, order)


def discards(hands, rules: RummyRules, policy: str = "keep-high") -> np.ndarray:
    """The card type the discard policy throws from each hand (lists of types)."""
    from .cards import hand_array

    array = hand_array(hands)
    params, pm, tie = rules_arrays(rules, policy)
    out = np.zeros(len(array), dtype=np.int64)
    in_threads(len(array), lambda lo, hi: discard_range(array, params, pm, tie, lo, hi, out))
    return out


def new_work(pool_size: int, players: int, hand_size: int):
    return _new_work(pool_size, players, hand_size)


@njit(cache=True)
def _new_work(pool_size, players, hand_size):
    perm = np.zeros(pool_size + 4, dtype=np.int64)
    opp = np.zeros((max(players - 1, 1), hand_size + 1), dtype=np.int64)
    pile = np.zeros(pool_size + 4, dtype=np.int64)
    order = np.zeros(64, dtype=np.int64)
    saved = np.zeros(pool_size + 4, dtype=np.int64)
    return perm, opp, pile, order, saved


@njit(cache=True, nogil=True)
def simulate_range(mode, hand, pool, known_up, players, hand_size, turns, params, pm, tie, seed, first, lo, hi,
                   opened, deal_value, jokers, opened_joker):
    """Samples ``first + lo .. first + hi - 1`` into rows ``lo..hi-1`` of the outputs (no GIL).

    MODE_JOKER plays each deal twice on the same stream: as dealt, then with one of the player's real cards
    (drawn after the shuffle) swapped with the first joker in the rest of the pool.
    """
    consts = rule_constants(params)
    scratch = new_scratch(np.int64(1024))
    work = _new_work(pool.shape[0], players, hand_size)
    perm, saved = work[0], work[4]
    threshold = params[P_THRESHOLD]
    size = pool.shape[0]
    play_mode = np.int64(MODE_HAND) if mode == MODE_HAND else np.int64(MODE_DEAL)
    for i in range(lo, hi):
        state = stream_start(np.uint64(seed), np.uint64(first + i))
        for j in range(size):
            perm[j] = pool[j]
        state = shuffle(perm[:size], state)
        versions = 1
        at = -1
        spare = -1
        if mode == MODE_JOKER:
            reals = 0
            for k in range(hand_size):
                if perm[k] != JOKER:
                    reals += 1
            for k in range(hand_size, size):
                if perm[k] == JOKER:
                    spare = k
                    break
            if spare < 0 or reals == 0:
                opened[i] = -1
                opened_joker[i] = -1
                jokers[i] = 0
                deal_value[i] = -1
                continue
            state = next_state(state)
            pick = below(state, reals)
            for k in range(hand_size):
                if perm[k] != JOKER:
                    if pick == 0:
                        at = k
                        break
                    pick -= 1
            for k in range(size):
                saved[k] = perm[k]
            versions = 2
        start = state
        for version in range(versions):
            if version == 1:
                for k in range(size):
                    perm[k] = saved[k]
                perm[spare] = perm[at]
                perm[at] = JOKER
            t, v, held, _s = play_shuffled(play_mode, hand, size, known_up, players, hand_size, turns, params,
                                           consts, pm, tie, start, scratch, work, threshold)
            if version == 0:
                opened[i] = t
                deal_value[i] = v
                jokers[i] = held
            else:
                opened_joker[i] = t


def simulate_batch(mode, hand, pool, known_up, players, hand_size, turns, params, pm, tie, seed, first, count,
                   threads: int | None = None):
    """Samples ``first .. first+count-1``: turn opened (``turns + 1``: not yet), value at the deal, jokers held,
    and for MODE_JOKER the turn opened with the extra joker (-1: no unseen joker to swap in).

    Sample ``i`` depends on ``(seed, i)`` alone, never on ``threads``."""
    out = (np.zeros(count, dtype=np.int64), np.zeros(count, dtype=np.int64), np.zeros(count, dtype=np.int64),
           np.full(count, -1, dtype=np.int64))
    hand = np.asarray(hand, dtype=np.int64)
    pool = np.asarray(pool, dtype=np.int64)
    in_threads(count, lambda lo, hi: simulate_range(mode, hand, pool, int(known_up), players, hand_size, turns,
                                                     params, pm, tie, np.uint64(seed), first, lo, hi, *out),
               threads, min_chunk=64)
    return out


# -- the Python API ------------------------------------------------------------------------------------
@dataclass
class OddsResult:
    """P(can open by each turn) for one hand, with 95% Wilson intervals."""

    rules: RummyRules
    hand: list[int]
    players: int
    turns: int
    samples: int
    seed: int
    policy: str
    deal_value: int  # opening value of the hand as it is (at most k - 1 cards)
    by_turn: list[Estimate] = field(default_factory=list)  # index t-1: P(opened at or before draw t)
    discard: int | None = None
    discard_value: int | None = None  # opening value with the open card taken as the first draw
    seconds: float = 0.0

    @property
    def can_open_now(self) -> bool:
        return self.deal_value >= self.rules.opening_threshold

    @property
    def discard_opens(self) -> bool | None:
        if self.discard is None:
            return None
        return self.discard_value >= self.rules.opening_threshold

    def to_dict(self) -> dict:
        d = {
            "rules": self.rules.name,
            "hand": [format_type(c) for c in self.hand],
            "players": self.players,
            "turns": self.turns,
            "samples": self.samples,
            "seed": self.seed,
            "policy": self.policy,
            "threshold": self.rules.opening_threshold,
            "opening_value_now": self.deal_value,
            "can_open_now": self.can_open_now,
            "by_turn": [{"turn": t + 1, "p": e.mean, "ci": [e.low, e.high], "samples": e.samples}
                        for t, e in enumerate(self.by_turn)],
        }
        if self.discard is not None:
            d["take_discard"] = {"card": format_type(self.discard), "opening_value": self.discard_value,
                                 "can_open": self.discard_opens, "p": 1.0 if self.discard_opens else 0.0,
                                 "exact": True}
        return d


def rules_arrays(rules: RummyRules, policy: str):
    return rules.params(), partner_masks(rules), tie_keys(rules, policy)


def check_run(rules: RummyRules, players: int, turns: int, samples: int) -> None:
    rules.check_players(players)
    if not 1 <= turns <= MAX_TURNS:
        raise RulesError(f"--turns must be 1..{MAX_TURNS}, got {turns}")
    if samples < 1:
        raise RulesError(f"--samples must be positive, got {samples}")


def odds(hand, rules: RummyRules | str = "romme", players: int = 4, turns: int = 10, samples: int = 100_000,
         seed: int | None = None, discard: str | int | None = None, policy: str = "keep-high",
         progress: Callable[[int, int], None] | None = None) -> OddsResult:
    """P(I can open after each of my next ``turns`` draws), by Monte Carlo (module docstring)."""
    rules = get_rummy_rules(rules)
    cards = parse_rummy_hand(hand, rules, (rules.hand_size,)) if isinstance(hand, str) else list(hand)
    _check_cards(cards, rules)
    if len(cards) != rules.hand_size:
        raise RulesError(f"the hand has {len(cards)} cards; {rules.name} odds need {rules.hand_size}")
    check_run(rules, players, turns, samples)
    seed = check_seed(seed)
    up = None
    if discard is not None:
        up = parse_token(discard) if isinstance(discard, str) else int(discard)
        _check_cards([*cards, up], rules, "the hand and the open card")
    seen = cards + ([up] if up is not None else [])
    pool = np.array(unknown_cards(rules, seen), dtype=np.int64)
    params, pm, tie = rules_arrays(rules, policy)
    started = time.perf_counter()
    deal_value = solve(cards, rules, "value").value
    result = OddsResult(rules, cards, players, turns, samples, seed, policy, deal_value, discard=up)
    if up is not None:
        result.discard_value = solve([*cards, up], rules, "value").value
    if deal_value >= rules.opening_threshold:
        result.by_turn = [Estimate.of_proportion(samples, samples) for _ in range(turns)]
        result.seconds = time.perf_counter() - started
        return result
    hand_row = np.array(cards, dtype=np.int64)
    counts = np.zeros(turns + 2, dtype=np.int64)
    done = 0
    while done < samples:
        n = min(BATCH, samples - done)
        opened, _v, _j, _o = simulate_batch(MODE_HAND, hand_row, pool, -1 if up is None else up, players,
                                            rules.hand_size, turns, params, pm, tie, seed, done, n)
        counts += np.bincount(opened, minlength=turns + 2)
        done += n
        if progress is not None:
            progress(done, samples)
    cumulative = np.cumsum(counts)
    result.by_turn = [Estimate.of_proportion(int(cumulative[t]), samples) for t in range(1, turns + 1)]
    result.seconds = time.perf_counter() - started
    return result


__all__ = ["odds", "OddsResult", "simulate_batch", "POLICIES", "MODE_HAND", "MODE_DEAL", "MODE_JOKER",
           "partner_masks", "tie_keys", "choose_discard", "rules_arrays", "check_run", "simulate_range", "discards"]
