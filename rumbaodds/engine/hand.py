"""Whole-hand simulation kernels: deal, speak, exchange, play, score.

The procedure is docs/SIMULATION.md, step by step; its readable twin is
``twin_hand.py`` and tests compare the two sample by sample. Rule-set and
opponent-model numbers arrive as small int64 arrays (layouts R_* and M_*,
filled by :func:`rules_array` and ``OpponentModel.as_array``).
"""

import numpy as np
from numba import njit, prange

from ..cards import RANKS
from .bits import U0, U1, above_in_suit, bit, highest_card, lowest_card, popcount, suit_lane
from .rng import below, next_state, shuffle, stream_start
from .tricks import FOLLOW_STECHZWANG, beaters, strength, strongest, weakest

# rule-set layout
(R_FOLLOW, R_HAND, R_EXCHANGE, R_PUT_AWAY, R_KNOCK, R_THROW_IN, R_THROW_BELOW, R_JACK_FORCES, R_TWO_SWAP,
 R_RUMBA_LEAD_FIRST, R_MUST_PLAY, R_LONE_RUMBA_OK, R_LONE_RUMBA_SCORE, R_LONE_PLAYER, R_MIN_TRICKS,
 R_WIN_PER_TRICK, R_WIN_FLAT, R_FAIL, R_NORMAL_PER_TRICK, R_NORMAL_NO_TRICK, R_RUMBA_PER_TRICK,
 R_RUMBA_NO_TRICK, R_SIT_LIMIT, R_SIT_PENALTY, R_RUMBA_FIRST, R_TOP_RANK, R_SIT_REPEATS, R_VOID_PASS,
 R_THROW_AFTER_RUMBA, R_SIZE) = range(30)

# opponent-model layout (models.OpponentModel.as_array)
M_RUMBA, M_PLAY, M_JOIN, M_DISCARD, M_THROW_IN, M_SWAP = range(6)

# words
W_NONE, W_PASS, W_PLAY, W_RUMBA, W_THROW_IN = -1, 0, 1, 2, 3

# hero choices: pass, rumba, throw-in, then play with k discards = C_PLAY + k
C_PASS, C_RUMBA, C_THROW_IN, C_PLAY = 0, 1, 2, 3

# the "tricks" a choice reports when none were played: nobody else plays (a lone Rumba or lone player, or the
# hero passed), his Rumba was not allowed so he plays alone (flemish lone dealer), the hand was void
NO_TRICKS, LONE_PLAY, VOID = -1, -2, -3

# card play: everybody greedy / everybody expert / only the Rumba player expert / only the defenders expert
POLICY_GREEDY, POLICY_EXPERT, POLICY_EXPERT_RUMBA, POLICY_EXPERT_DEFENCE = 0, 1, 2, 3
MAX_TRIES = 10_000
PERM_AT = 64  # where the side-suit renaming lives in the ``cards`` scratch array
JACK = RANKS.index("J")
TWO = RANKS.index("2")


def rules_array(rules) -> np.ndarray:
    """Kernel layout of a RuleSet (R_* indices)."""
    values = {
        R_FOLLOW: rules.follow_code,
        R_HAND: rules.hand_size,
        R_EXCHANGE: rules.exchange_limit,
        R_PUT_AWAY: rules.passer_cards == "put-away",
        R_KNOCK: rules.knock,
        R_THROW_IN: rules.throw_in,
        R_THROW_BELOW: RANKS.index(rules.throw_in_below),
        R_JACK_FORCES: rules.jack_of_trump_forces_play,
        R_TWO_SWAP: rules.two_of_trump_swap,
        R_RUMBA_LEAD_FIRST: rules.rumba_lead == "first-after-dealer",
        R_MUST_PLAY: rules.others_after_rumba == "must-play",
        R_LONE_RUMBA_OK: rules.lone_rumba_allowed,
        R_LONE_RUMBA_SCORE: rules.lone_rumba_score,
        R_LONE_PLAYER: rules.lone_player_score,
        R_MIN_TRICKS: rules.rumba_min_tricks,
        R_WIN_PER_TRICK: rules.rumba_success_per_trick,
        R_WIN_FLAT: rules.rumba_success_flat,
        R_FAIL: rules.rumba_fail_score,
        R_NORMAL_PER_TRICK: rules.normal_per_trick,
        R_NORMAL_NO_TRICK: rules.normal_no_trick,
        R_RUMBA_PER_TRICK: rules.rumba_others_per_trick,
        R_RUMBA_NO_TRICK: rules.rumba_others_no_trick,
        R_SIT_LIMIT: rules.sit_out_limit,
        R_SIT_PENALTY: rules.sit_out_penalty,
        R_RUMBA_FIRST: rules.speaking_order == "rumba-first",
        R_TOP_RANK: RANKS.index(rules.ranks[-1]),
        R_SIT_REPEATS: rules.sit_out_repeats,
        R_VOID_PASS: rules.void_counts_as_pass,
        R_THROW_AFTER_RUMBA: rules.throw_in_after_rumba,
    }
    out = np.zeros(R_SIZE, dtype=np.int64)
    for key, value in values.items():
        out[key] = int(value)
    return out


# -- hand evaluation ---------------------------------------------------------------
@njit(cache=True, inline="always")
def keep_value(card, trump, top):
    distance = top - (card & 15)
    if (card >> 4) == trump:
        return 2 + max(0, 4 - distance)
    if distance == 0:
        return 3
    if distance == 1:
        return 1
    return 0


_RANK_LANES = np.uint64(0x0001000100010001)


@njit(cache=True, inline="always")
def _popcount(mask):
    """Branch-free population count (SWAR)."""
    mask = mask - ((mask >> np.uint64(1)) & np.uint64(0x5555555555555555))
    mask = (mask & np.uint64(0x3333333333333333)) + ((mask >> np.uint64(2)) & np.uint64(0x3333333333333333))
    mask = (mask + (mask >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((mask * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def hand_points(hand, trump, top):
    """Sum of ``keep_value`` over the hand, in constant time."""
    lane = suit_lane(trump)
    trumps = (hand & lane) >> np.uint64(16 * trump)
    side = hand & ~lane
    total = 2 * _popcount(trumps)
    for d in range(4):  # trumps ranked ``d`` below the top add 4 - d more
        if top - d >= 0:
            total += (4 - d) * np.int64((trumps >> np.uint64(top - d)) & U1)
    total += 3 * _popcount(side & (_RANK_LANES << np.uint64(top)))
    if top >= 1:
        total += _popcount(side & (_RANK_LANES << np.uint64(top - 1)))
    return total


@njit(cache=True, inline="always")
def lowest_keep(hand, count, trump, top):
    """Mask of the ``count`` cards with the lowest keep value, ties weakest first (§6 order).

    Taken class by class of keep value (the twin's ``keep_order`` sorts card by card).
    """
    lane = suit_lane(trump)
    trumps = hand & lane
    side = hand & ~lane
    side_top = side & (_RANK_LANES << np.uint64(top))
    side_next = side & (_RANK_LANES << np.uint64(top - 1)) if top >= 1 else U0
    high = U0  # trumps within four ranks of the top: keep values 3..6
    for d in range(4):
        if top - d >= 0:
            high |= U1 << np.uint64(16 * trump + top - d)
    chosen = U0
    for cls in range(5):
        if cls == 0:
            mask = side & ~side_top & ~side_next  # value 0
        elif cls == 1:
            mask = side_next  # value 1
        elif cls == 2:
            mask = trumps & ~high  # value 2
        elif cls == 3:
            mask = side_top  # value 3, side cards weaker than any trump
        else:
            mask = trumps & high  # values 3..6, ascending with rank
        while count > 0 and mask:
            card = weakest(mask, trump)
            mask &= ~bit(card)
            chosen |= bit(card)
            count -= 1
    return chosen


@njit(cache=True, inline="always")
def model_discards(hand, trump, top, limit, discard_below):
    """How many cards the model exchanges: those with keep value below the threshold (constant time)."""
    lane = suit_lane(trump)
    trumps = (hand & lane) >> np.uint64(16 * trump)
    side = hand & ~lane
    side_top = side & (_RANK_LANES << np.uint64(top))
    side_next = side & (_RANK_LANES << np.uint64(top - 1)) if top >= 1 else U0
    count = 0
    if discard_below > 0:  # side cards below the top two: value 0
        count += _popcount(side & ~side_top & ~side_next)
    if discard_below > 1:
        count += _popcount(side_next)
    if discard_below > 3:
        count += _popcount(side_top)
    # trumps: value 2 + max(0, 4 - distance)
    high = U0
    for d in range(5):
        if top - d >= 0:
            if 2 + 4 - d < discard_below:
                count += np.int64((trumps >> np.uint64(top - d)) & U1)
            high |= U1 << np.uint64(top - d)
    if discard_below > 2:
        count += _popcount(trumps & ~high)
    return min(count, limit)


@njit(cache=True, inline="always")
def may_throw_in(hand, below_rank):
    """Every card ranked below ``below_rank`` (swiss: below ten) [D-4]."""
    high = ((np.uint64(0xFFFF) << np.uint64(below_rank)) & np.uint64(0xFFFF))
    lanes = high | (high << np.uint64(16)) | (high << np.uint64(32)) | (high << np.uint64(48))
    return (hand & lanes) == U0


@njit(cache=True, inline="always")
def two_of(trump):
    return trump * 16 + TWO


# -- card play -------------------------------------------------------------------------
_FULL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True, inline="always")
def above_unseen(unseen):
    """Mask of every card ranked above all unseen cards of its suit (the whole suit if none is unseen)."""
    x = unseen
    x |= (x >> np.uint64(1)) & np.uint64(0x7FFF7FFF7FFF7FFF)
    x |= (x >> np.uint64(2)) & np.uint64(0x3FFF3FFF3FFF3FFF)
    x |= (x >> np.uint64(4)) & np.uint64(0x0FFF0FFF0FFF0FFF)
    x |= (x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)
    return ~x


@njit(cache=True, inline="always")
def expert_card(hand, legal, led_suit, win_card, win_idx, me, last, rumba_idx, rumba_played, unseen, trump):
    """docs/SIMULATION.md "Card play", expert (constant time: safe cards from ``above_unseen``)."""
    lane = suit_lane(trump)
    if led_suit < 0:
        trumps = hand & lane
        if trumps:
            top = highest_card(trumps)
            if me == rumba_idx:
                if (trumps & (trumps - U1)) or (unseen & above_in_suit(top)) == U0:
                    return top
            elif (trumps & (trumps - U1)) and (unseen & above_in_suit(top)) == U0:
                return top
        side = hand & ~lane & above_unseen(unseen)
        if side:
            return strongest(side, trump)
        return weakest(hand, trump)
    if rumba_idx >= 0 and me != rumba_idx and win_idx != rumba_idx and rumba_played:
        return weakest(legal, trump)
    winning = legal & beaters(win_card, trump)
    if winning:
        if last:
            return weakest(winning, trump)
        # a trump is safe above every unseen trump; a side card also needs no unseen trump
        safe = winning & above_unseen(unseen)
        if unseen & lane:
            safe &= lane
        if safe:
            return weakest(safe, trump)
        return strongest(winning, trump)  # nothing is safe: make overtaking as hard as possible
    return weakest(legal, trump)


@njit(cache=True)
def play_tricks(hands, m, leader, trump, follow, policy, rumba_idx, deck_mask, table_mask, tricks):
    """Play ``hands[:m]`` (the active seats in seat order) to the end; add tricks per index.

    ``legal_mask`` and ``greedy_card`` written out in the loop, the unseen cards
    kept up to date instead of recomputed.
    """
    expert_rumba = policy == POLICY_EXPERT or policy == POLICY_EXPERT_RUMBA
    expert_defence = policy == POLICY_EXPERT or policy == POLICY_EXPERT_DEFENCE
    lane = suit_lane(trump)
    stechzwang = follow == FOLLOW_STECHZWANG
    outside = deck_mask & ~table_mask  # not on the table; less the played cards as they fall
    rounds = popcount(hands[0])
    for _ in range(rounds):
        idx = leader
        hand = hands[idx]
        expert = expert_rumba if idx == rumba_idx else expert_defence
        if expert:
            card = expert_card(hand, hand, -1, -1, leader, idx, m == 1, rumba_idx, False, outside & ~hand, trump)
        else:
            card = strongest(hand, trump)
        hands[idx] = hand & ~bit(card)
        outside &= ~bit(card)
        led_suit = card >> 4
        led_lane = suit_lane(led_suit)
        win_card = card
        win_idx = idx
        beat = beaters(card, trump)
        rumba_played = idx == rumba_idx
        for pos in range(1, m):
            idx += 1
            if idx == m:
                idx = 0
            hand = hands[idx]
            led = hand & led_lane
            if led:
                legal = led & beat
                if not legal:
                    legal = led
            else:
                trumps = hand & lane
                if stechzwang:
                    if trumps:
                        legal = trumps & beat
                        if not legal:
                            legal = trumps
                    else:
                        legal = hand
                else:
                    winning_trumps = trumps & beat
                    legal = hand & ~(trumps & ~winning_trumps) if winning_trumps else hand
            is_rumba = idx == rumba_idx
            expert = expert_rumba if is_rumba else expert_defence
            if not expert:
                winning = legal & beat
                card = weakest(winning, trump) if winning else weakest(legal, trump)
            else:
                card = expert_card(hand, legal, led_suit, win_card, win_idx, idx, pos == m - 1, rumba_idx,
                                   rumba_played, outside & ~hand, trump)
            hands[idx] = hand & ~bit(card)
            outside &= ~bit(card)
            if (beat >> np.uint64(card)) & U1:
                win_card = card
                win_idx = idx
                beat = beaters(card, trump)
            if is_rumba:
                rumba_played = True
        tricks[win_idx] += 1
        leader = win_idx


# -- speaking ----------------------------------------------------------------------------
@njit(cache=True, inline="always")
def opens_word(points, mp, forced):
    """Word of a player when no Rumba has been called (Rumba decided by the caller)."""
    if points >= mp[M_PLAY] or forced:
        return W_PLAY
    return W_PASS


@njit(cache=True, inline="always")
def join_word(points, mp):
    return W_PLAY if points >= mp[M_JOIN] else W_PASS


@njit(cache=True, inline="always")
def pass_penalty(passes, rp):
    """RuleSet.pass_penalty: the sit-out penalty due for this pass, if any (swiss rule 17)."""
    limit = rp[R_SIT_LIMIT]
    if limit <= 0:
        return 0
    streak = passes + 1
    due = streak >= limit if rp[R_SIT_REPEATS] else streak % limit == 0
    return rp[R_SIT_PENALTY] if due else 0


@njit(cache=True)
def finish_hand(hands, n, words, rumba_seat, hero, discard_k, passes, trump, table_mask, rp, mp, policy,
                deck_mask, stock, stock_len, state, scratch_hands, scratch_tricks, scratch_cards, out, slot):
    """Steps 5-9 of docs/SIMULATION.md for one choice; writes hero score, tricks, contested."""
    hero_word = words[hero]
    pass_score = pass_penalty(passes, rp)
    active = 0
    for s in range(n):
        if words[s] == W_PLAY or words[s] == W_RUMBA:
            active += 1
    out[slot, 1] = -1
    out[slot, 2] = 0
    if active == 0:  # void hand [D-6]
        out[slot, 0] = pass_score if rp[R_VOID_PASS] and hero_word == W_PASS else 0
        return
    if rumba_seat >= 0 and active == 1:
        if rp[R_LONE_RUMBA_OK]:
            lone = rp[R_LONE_RUMBA_SCORE]
        else:
            lone = rp[R_LONE_PLAYER]
        out[slot, 0] = lone if hero == rumba_seat else pass_score
        return
    if rumba_seat < 0 and active == 1:  # [D-7]
        out[slot, 0] = rp[R_LONE_PLAYER] if hero_word == W_PLAY else pass_score
        return
    if hero_word == W_PASS:
        out[slot, 0] = pass_score
        return
    top = rp[R_TOP_RANK]
    if rumba_seat < 0 and rp[R_EXCHANGE] > 0:
        # step 6: each active seat's wish first (kept in scratch_tricks until the lead)
        total = 0
        for s in range(n):
            want = 0
            if words[s] == W_PLAY:
                if s == hero:
                    want = discard_k
                else:
                    want = model_discards(hands[s], trump, top, rp[R_EXCHANGE], mp[M_DISCARD])
            scratch_tricks[s] = want
            total += want
        source = stock
        size = stock_len
        if total > stock_len and rp[R_PUT_AWAY] == 0:
            # the swiss passers' cards, shuffled, go under the stock (only needed when reached)
            for j in range(stock_len):
                scratch_cards[j] = stock[j]
            for s in range(n):
                if words[s] == W_PASS:
                    rest = hands[s]
                    while rest:
                        scratch_cards[size] = lowest_card(rest)
                        rest &= rest - U1
                        size += 1
            shuffle(scratch_cards[stock_len:size], state)
            source = scratch_cards
        pointer = 0
        for s in range(n):
            take = min(scratch_tricks[s], size - pointer)
            if take > 0:
                hands[s] &= ~lowest_keep(hands[s], take, trump, top)
                for j in range(take):
                    hands[s] |= bit(source[pointer])
                    pointer += 1
    # step 7: lead
    m = 0
    hero_idx = -1
    rumba_idx = -1
    lead_idx = -1
    for s in range(n):
        if words[s] == W_PLAY or words[s] == W_RUMBA:
            scratch_hands[m] = hands[s]
            scratch_tricks[m] = 0
            if s == hero:
                hero_idx = m
            if s == rumba_seat:
                rumba_idx = m
            if s == n - 1:
                lead_idx = m
            m += 1
    if rumba_seat >= 0:
        lead_idx = 0 if rp[R_RUMBA_LEAD_FIRST] else rumba_idx
    elif lead_idx < 0:
        lead_idx = 0  # [D-8]
    play_tricks(scratch_hands, m, lead_idx, trump, rp[R_FOLLOW], policy, rumba_idx, deck_mask, table_mask,
                scratch_tricks)
    won = scratch_tricks[hero_idx]
    out[slot, 1] = won
    out[slot, 2] = 1
    if rumba_seat < 0:
        out[slot, 0] = rp[R_NORMAL_PER_TRICK] * won if won > 0 else rp[R_NORMAL_NO_TRICK]
    elif hero == rumba_seat:
        if won >= rp[R_MIN_TRICKS]:
            out[slot, 0] = rp[R_WIN_FLAT] + rp[R_WIN_PER_TRICK] * won
        else:
            out[slot, 0] = rp[R_FAIL]
    else:
        out[slot, 0] = rp[R_RUMBA_PER_TRICK] * won if won > 0 else rp[R_RUMBA_NO_TRICK]


@njit(cache=True, inline="always")
def model_word(hand, s, n, rumba_seat, knocked, rumba_first, jack_forced, words, trump, rp, mp):
    """What an opponent in seat ``s`` says at his turn (docs/SIMULATION.md step 4)."""
    points = hand_points(hand, trump, rp[R_TOP_RANK])
    forced = jack_forced or rp[R_MUST_PLAY] == 1
    if knocked:
        if s == n - 1:
            return W_RUMBA
        return W_PLAY if jack_forced else join_word(points, mp)
    if rp[R_THROW_IN] and mp[M_THROW_IN] and (rumba_seat < 0 or rp[R_THROW_AFTER_RUMBA]) \
            and may_throw_in(hand, rp[R_THROW_BELOW]):
        return W_THROW_IN  # at his turn, unless the dealer knocked [D-4]
    if rumba_seat >= 0:
        if rumba_first:
            return W_NONE  # answers in round two
        return W_PLAY if forced else join_word(points, mp)  # [D-5]
    if points >= mp[M_RUMBA]:
        alone = True
        for e in range(s):
            if words[e] == W_PLAY:
                alone = False
        if rumba_first or rp[R_LONE_RUMBA_OK] or s < n - 1 or not alone:
            return W_RUMBA
    return W_NONE if rumba_first else opens_word(points, mp, jack_forced)


@njit(cache=True, inline="always")
def swap_two(hands, s, turned, two, knocked, rp, mp):
    """Seat ``s`` swaps the two of trump for the turned card if he holds it [D-9]; returns the turned card."""
    if not knocked and rp[R_TWO_SWAP] and mp[M_SWAP] and turned >= 0 and turned != two \
            and (hands[s] >> np.uint64(two)) & U1:
        hands[s] = (hands[s] & ~bit(two)) | bit(turned)
        return two
    return turned


@njit(cache=True, inline="always")
def speak_rest(hands, n, hero, choice, words, rumba_seat, turned, knocked, jack_forced, trump, rp, mp):
    """Step 4 from the hero's turn on; earlier words and any Rumba they called are given.

    Returns (rumba seat or -1, turned card after swaps or -1, void).
    """
    if knocked:
        rumba_seat = n - 1
    two = two_of(trump)
    rumba_first = rp[R_RUMBA_FIRST] == 1 and not knocked
    for s in range(hero, n):
        if s == hero:
            if choice == C_RUMBA and rumba_seat < 0:
                rumba_seat = s
                words[s] = W_RUMBA
            elif rumba_first:
                words[s] = W_NONE
            else:
                words[s] = W_PASS if choice == C_PASS else W_PLAY
            continue
        turned = swap_two(hands, s, turned, two, knocked, rp, mp)
        word = model_word(hands[s], s, n, rumba_seat, knocked, rumba_first, jack_forced, words, trump, rp, mp)
        if word == W_THROW_IN:
            return rumba_seat, turned, True
        if word == W_RUMBA:
            rumba_seat = s
        words[s] = word
    if rumba_first:
        forced = jack_forced or rp[R_MUST_PLAY] == 1
        for s in range(n):
            if s == rumba_seat:
                continue
            points = hand_points(hands[s], trump, rp[R_TOP_RANK])
            if s == hero:
                words[s] = W_PASS if choice == C_PASS else W_PLAY
            elif rumba_seat >= 0:
                words[s] = W_PLAY if (forced and s > rumba_seat) or jack_forced else join_word(points, mp)
            else:
                words[s] = opens_word(points, mp, jack_forced)
    # a Rumba the rules forbid (flemish: a dealer who would play alone) is a lone play
    if rumba_seat >= 0 and not rp[R_LONE_RUMBA_OK]:
        others = False
        for s in range(n):
            if s != rumba_seat and words[s] == W_PLAY:
                others = True
        if not others:
            words[rumba_seat] = W_PLAY
            rumba_seat = -1
    return rumba_seat, turned, False


@njit(cache=True)
def earlier_words(hands, hero, before, knocked, jack_forced, turned, trump, rp, mp, words, observe):
    """Step 2: the words of seats before the hero, by the model.

    With ``observe`` False (``ask``) a deal is refused (ok False) unless those
    seats behaved as the hero saw: no throw-in, no swap of the two, a Rumba
    only where ``before`` says so, and the ``before`` words where given. With
    ``observe`` True (the dealer in ``knock``) everything is allowed.
    Returns (ok, void, rumba seat, turned card).
    """
    two = two_of(trump)
    rumba_first = rp[R_RUMBA_FIRST] == 1 and not knocked
    rumba_seat = -1
    for s in range(hero):
        swapped = swap_two(hands, s, turned, two, knocked, rp, mp)
        if swapped != turned:
            if not observe:
                return False, False, -1, turned
            turned = swapped
        word = model_word(hands[s], s, hands.shape[0], rumba_seat, knocked, rumba_first, jack_forced, words, trump, rp,
                          mp)
        if word == W_THROW_IN:
            return observe, observe, -1, turned
        if word == W_RUMBA:
            rumba_seat = s
        words[s] = word
        if not observe:
            if before[s] == W_NONE:
                if word == W_RUMBA:
                    return False, False, -1, turned
            elif rumba_first:
                if (before[s] == W_RUMBA) != (word == W_RUMBA):
                    return False, False, -1, turned
            elif word != before[s]:
                return False, False, -1, turned
    return True, False, rumba_seat, turned


@njit(cache=True)
def new_scratch(n, unknown_size):
    deck = np.empty(unknown_size, dtype=np.int64)
    hands = np.zeros((4, n), dtype=np.uint64)  # dealt, per-choice copy, active seats in play, spare
    ints = np.zeros((4, n), dtype=np.int64)  # earlier words, per-choice words, tricks, spare
    cards = np.zeros(PERM_AT + 4, dtype=np.int64)  # the stock during the exchange, then the side-suit order
    return deck, hands, ints, cards


@njit(cache=True)
def shuffle_all(deck, source, state):
    """``deck`` := ``source`` shuffled (SIMULATION.md step 1); returns the new state."""
    size = source.shape[0]
    deck[:size] = source
    return shuffle(deck[:size], state)


@njit(cache=True)
def evaluate_choices(hands, words, rumba_seat, turned, n, hero, choices, passes, knocked, jack_forced, trump, rp,
                     mp, policy, deck_mask, stock, stock_len, state, hands2, ints, cards, out):
    """Steps 3-9 for every choice on one accepted deal (common random numbers)."""
    play_hands = hands2[1]
    play_words = ints[1]
    spoken_hands = hands2[3]
    spoken_words = ints[3]
    spoken = -1  # what the hero said in the speaking kept in spoken_*: play0..playK share one
    final_rumba = -1
    table = -1
    void = False
    for slot in range(choices.shape[0]):
        choice = choices[slot]
        out[slot, 0] = 0
        out[slot, 1] = -1
        out[slot, 2] = 0
        if choice == C_THROW_IN:  # void hand, counts as nobody's pass [D-4]
            out[slot, 1] = VOID
            continue
        said = W_PASS if choice == C_PASS else W_RUMBA if choice == C_RUMBA else W_PLAY
        # where a lone Rumba is allowed, the others' words do not depend on whether the hero passed or
        # played: a pass reuses the speaking of a play with his own word changed
        shared = said == W_PASS and rp[R_LONE_RUMBA_OK] == 1
        key = W_PLAY if shared else said
        if key != spoken:
            for s in range(n):
                spoken_hands[s] = hands[s]
                spoken_words[s] = words[s]
            final_rumba, table, void = speak_rest(spoken_hands, n, hero, C_PLAY if shared else choice, spoken_words,
                                                  rumba_seat, turned, knocked, jack_forced, trump, rp, mp)
            spoken = key
        if void:  # a throw-in after the hero spoke [D-4]
            out[slot, 1] = VOID
            continue
        for s in range(n):
            play_hands[s] = spoken_hands[s]
            play_words[s] = spoken_words[s]
        if shared:
            play_words[hero] = W_PASS
        table_mask = bit(table) if table >= 0 else U0
        discard_k = choice - C_PLAY if choice >= C_PLAY else 0
        finish_hand(play_hands, n, play_words, final_rumba, hero, discard_k, passes, trump, table_mask, rp, mp,
                    policy, deck_mask, stock, stock_len, state, hands2[2], ints[2], cards, out, slot)
        if choice == C_RUMBA and final_rumba != hero:  # not allowed: nobody else plays, he plays alone
            out[slot, 1] = LONE_PLAY


@njit(cache=True)
def hero_swaps_two(hero_hand, trump_card, rp):
    """The hero's hand after he swaps the two of trump for the turned card, when he can [D-9]."""
    two = two_of(trump_card >> 4)
    if rp[R_TWO_SWAP] and trump_card != two and (hero_hand >> np.uint64(two)) & U1:
        return (hero_hand & ~bit(two)) | bit(trump_card)
    return hero_hand


@njit(cache=True)
def deal_in_order(deck, hero_hand, trump_card, n, hero, rp, mp, knocked, before, hands, words):
    """Steps 1-2 on one order of the unknown cards: deal, earlier words.

    Returns (accepted, rumba seat, turned card, cards dealt); the stock is
    ``deck[cards dealt:]``.
    """
    hand_size = rp[R_HAND]
    trump = trump_card >> 4
    pos = 0
    for s in range(n):
        words[s] = W_NONE
        if s == hero:
            hands[s] = hero_hand
            continue
        mask = U0
        for j in range(hand_size):
            mask |= bit(deck[pos])
            pos += 1
        hands[s] = mask
    jack_forced = rp[R_JACK_FORCES] == 1 and (trump_card & 15) == JACK
    ok, void, rumba_seat, turned = earlier_words(hands, hero, before, knocked, jack_forced, trump_card, trump, rp,
                                                 mp, words, False)
    if ok:
        hands[hero] = hero_swaps_two(hero_hand, trump_card, rp)
        if hands[hero] != hero_hand:
            turned = two_of(trump)
    return ok, rumba_seat, turned, pos


@njit(cache=True)
def side_suit_count(deck_mask, trump):
    count = 0
    for suit in range(4):
        if suit != trump and (deck_mask >> np.uint64(16 * suit)) & np.uint64(0xFFFF):
            count += 1
    return count


@njit(cache=True)
def side_suit_permutation(deck_mask, trump, p, perm):
    """``perm[s]``: the suit that suit ``s`` becomes in the ``p``-th (lexicographic) order of the side suits."""
    sides = 0  # the side suits, 4 bits each, in order (no allocation)
    k = 0
    for suit in range(4):
        perm[suit] = suit
        if suit != trump and (deck_mask >> np.uint64(16 * suit)) & np.uint64(0xFFFF):
            sides |= suit << (4 * k)
            k += 1
    free = sides
    left = k
    for i in range(k):
        block = 1
        for j in range(2, left):
            block *= j
        pick = p // block
        p %= block
        perm[(sides >> (4 * i)) & 15] = (free >> (4 * pick)) & 15
        low = free & ((1 << (4 * pick)) - 1)
        free = low | ((free >> (4 * (pick + 1))) << (4 * pick))
        left -= 1


@njit(cache=True, inline="always")
def relabel(mask, perm):
    out = U0
    for suit in range(4):
        out |= ((mask >> np.uint64(16 * suit)) & np.uint64(0xFFFF)) << np.uint64(16 * perm[suit])
    return out


@njit(cache=True)
def rename_side_suits(hands, n, stock, perm, knocked, trump_card, turned):
    """Step 2b: the accepted deal with its side suits renamed, then the knocking dealer's exchange.

    Renaming by a random order per deal makes the C < D < H < S tie-break of
    the card play (RULES.md §6) favour no side suit on average, so every hand
    of a class (handclasses.py) has the same value. Returns the turned card.
    """
    for s in range(n):
        hands[s] = relabel(hands[s], perm)
    for j in range(stock.shape[0]):
        stock[j] = perm[stock[j] >> 4] * 16 + (stock[j] & 15)
    trump = trump_card >> 4
    if knocked:  # the dealer took the trump card for his weakest card if it is weaker [D-3]
        dealer = hands[n - 1]
        low = weakest(dealer, trump)
        if strength(trump_card, trump) > strength(low, trump):
            hands[n - 1] = (dealer & ~bit(low)) | bit(trump_card)
            return -1
    return turned


@njit(cache=True)
def ask_sample(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, mp, policy, passes, knocked, before,
               choices, seed, index, out, deck, hands2, ints, cards):
    """One sample of docs/SIMULATION.md for every choice in ``choices``; returns tries (-1: gave up)."""
    size = unknown.shape[0]
    state = stream_start(seed, index)
    tries = 0
    while True:
        tries += 1
        if tries > MAX_TRIES:
            return -1
        state = shuffle_all(deck, unknown, state)
        ok, rumba_seat, turned, pos = deal_in_order(deck, hero_hand, trump_card, n, hero, rp, mp, knocked, before,
                                                    hands2[0], ints[0])
        if ok:
            break
    trump = trump_card >> 4
    perm = cards[PERM_AT:PERM_AT + 4]
    state = next_state(state)
    orders = 1
    for j in range(2, side_suit_count(deck_mask, trump) + 1):
        orders *= j
    side_suit_permutation(deck_mask, trump, below(state, orders), perm)
    turned = rename_side_suits(hands2[0], n, deck[pos:size], perm, knocked, trump_card, turned)
    jack_forced = rp[R_JACK_FORCES] == 1 and (trump_card & 15) == JACK
    evaluate_choices(hands2[0], ints[0], rumba_seat, turned, n, hero, choices, passes, knocked, jack_forced,
                     trump_card >> 4, rp, mp, policy, deck_mask, deck[pos:size], size - pos, state, hands2, ints,
                     cards, out)
    return tries


@njit(cache=True)
def next_permutation(order):
    """Rearrange ``order`` into its next lexicographic permutation; False after the last."""
    i = order.shape[0] - 2
    while i >= 0 and order[i] >= order[i + 1]:
        i -= 1
    if i < 0:
        return False
    j = order.shape[0] - 1
    while order[j] <= order[i]:
        j -= 1
    tmp = order[i]
    order[i] = order[j]
    order[j] = tmp
    order[i + 1:] = order[i + 1:][::-1].copy()
    return True


@njit(cache=True)
def ask_exact(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, mp, policy, passes, knocked, before, choices):
    """Exact expectations by visiting every order of the unknown cards (tiny rule sets only).

    Every order is equally likely under the shuffle, so conditioning is a
    plain filter; each accepted order is taken under every renaming of the
    side suits (step 2b). Returns (accepted (order, renaming) pairs,
    per-choice sums of score, of squared score, per-choice histograms of the
    reported tricks VOID..5, index = tricks - VOID). The swiss passers'
    shuffle uses a fixed stream position, so the answer is exact only where
    the exchange cannot reach the passers' cards (the caller checks).
    """
    size = unknown.shape[0]
    order = np.sort(unknown.copy())
    deck, hands2, ints, cards = new_scratch(n, size)
    out = np.zeros((choices.shape[0], 3), dtype=np.int64)
    sums = np.zeros(choices.shape[0], dtype=np.float64)
    squares = np.zeros(choices.shape[0], dtype=np.float64)
    tricks = np.zeros((choices.shape[0], 9), dtype=np.int64)
    accepted = 0
    trump = trump_card >> 4
    jack_forced = rp[R_JACK_FORCES] == 1 and (trump_card & 15) == JACK
    state = stream_start(0, 0)
    orders = 1
    for j in range(2, side_suit_count(deck_mask, trump) + 1):
        orders *= j
    perm = np.zeros(4, dtype=np.int64)
    dealt = np.zeros(n, dtype=np.uint64)
    stock = np.zeros(size, dtype=np.int64)
    while True:
        deck[:] = order
        ok, rumba_seat, turned, pos = deal_in_order(deck, hero_hand, trump_card, n, hero, rp, mp, knocked, before,
                                                    hands2[0], ints[0])
        if ok:
            accepted += orders
            dealt[:] = hands2[0]
            for p in range(orders):  # every renaming of the side suits, equally likely
                hands2[0][:] = dealt
                stock[:size - pos] = deck[pos:size]
                side_suit_permutation(deck_mask, trump, p, perm)
                table = rename_side_suits(hands2[0], n, stock[:size - pos], perm, knocked, trump_card, turned)
                evaluate_choices(hands2[0], ints[0], rumba_seat, table, n, hero, choices, passes, knocked,
                                 jack_forced, trump, rp, mp, policy, deck_mask, stock[:size - pos], size - pos, state,
                                 hands2, ints, cards, out)
                for c in range(choices.shape[0]):
                    sums[c] += out[c, 0]
                    squares[c] += out[c, 0] * out[c, 0]
                    tricks[c, out[c, 1] - VOID] += 1
        if not next_permutation(order):
            break
    return accepted, sums, squares, tricks


@njit(cache=True, parallel=True)
def ask_batch(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, mp, policy, passes, knocked, before, choices,
              seed, start, count):
    """Samples ``start .. start+count-1``: (count, choices, 3) int8 results and tries per sample."""
    results = np.zeros((count, choices.shape[0], 3), dtype=np.int8)
    tries = np.zeros(count, dtype=np.int32)
    chunks = max(1, min(count, 256))
    for chunk in prange(chunks):
        out = np.zeros((choices.shape[0], 3), dtype=np.int64)
        deck, hands2, ints, cards = new_scratch(n, unknown.shape[0])
        for i in range(chunk * count // chunks, (chunk + 1) * count // chunks):
            tries[i] = ask_sample(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, mp, policy, passes,
                                  knocked, before, choices, seed, start + i, out, deck, hands2, ints, cards)
            for c in range(choices.shape[0]):
                for f in range(3):
                    results[i, c, f] = out[c, f]
    return results, tries


@njit(cache=True)
def deal_dealer_first(deck, unknown, n, hand_size, seed, index, hands):
    """``knock``: shuffle deck-minus-trump-card; the dealer's hand first, then seats 0..n-2."""
    state = shuffle_all(deck, unknown, stream_start(seed, index))
    pos = 0
    for s in range(n):
        seat = n - 1 if s == 0 else s - 1
        mask = U0
        for j in range(hand_size):
            mask |= bit(deck[pos])
            pos += 1
        hands[seat] = mask
    return state, pos


@njit(cache=True)
def dealer_choices(hand, rumba_called, jack_forced, rp):
    """The choices open to a dealer who did not knock, as choice codes."""
    out = np.empty(rp[R_EXCHANGE] + 4, dtype=np.int64)
    k = 0
    if not jack_forced:
        out[k] = C_PASS
        k += 1
    if rumba_called:
        out[k] = C_PLAY
        return out[:k + 1]
    out[k] = C_RUMBA
    k += 1
    if rp[R_THROW_IN] and may_throw_in(hand, rp[R_THROW_BELOW]):
        out[k] = C_THROW_IN
        k += 1
    for d in range(rp[R_EXCHANGE] + 1):
        out[k] = C_PLAY + d
        k += 1
    return out[:k]


@njit(cache=True)
def knock_sample(deck_mask, unknown, trump_card, n, rp, mp, policy, seed, index, inner, out, deck, hands2, ints,
                 cards, inner_scratch):
    """One deal seen by the dealer: out[0] = knocking blind, out[1] = not knocking (then his best choice).

    Not knocking: the earlier seats speak by the model; the dealer looks at his
    hand and their words and takes the choice with the best mean over ``inner``
    samples of ``ask`` conditioned on exactly what he saw (a fresh stream); that
    choice is then played on this very deal, so the estimate is unbiased for
    the dealer's policy (selection noise can only make it slightly worse than
    the true best, never better).
    """
    hand_size = rp[R_HAND]
    trump = trump_card >> 4
    size = unknown.shape[0]
    hands = hands2[0]
    words = ints[0]
    dealer = n - 1
    top = rp[R_TOP_RANK]
    state, pos = deal_dealer_first(deck, unknown, n, hand_size, seed, index, hands)
    own = hands[dealer]
    stock = deck[pos:size]
    # -- knocking blind [D-3]
    saved = hands.copy()
    low = weakest(own, trump)
    table_mask = bit(trump_card)
    if strength(trump_card, trump) > strength(low, trump):
        hands[dealer] = (own & ~bit(low)) | bit(trump_card)
        table_mask = U0
    for s in range(n - 1):
        words[s] = join_word(hand_points(hands[s], trump, top), mp)
    words[dealer] = W_RUMBA
    finish_hand(hands, n, words, dealer, dealer, 0, 0, trump, table_mask, rp, mp, policy, deck_mask, stock,
                size - pos, state, hands2[2], ints[2], cards, out, 0)
    # -- not knocking: the dealer sees his hand and the earlier words
    hands[:] = saved
    for s in range(n):
        words[s] = W_NONE
    jack_forced = rp[R_JACK_FORCES] == 1 and (trump_card & 15) == JACK
    dummy = np.full(n, W_NONE, dtype=np.int64)
    ok, void, rumba_seat, turned = earlier_words(hands, dealer, dummy, False, jack_forced, trump_card, trump, rp, mp,
                                                 words, True)
    if void:  # an earlier throw-in: the hand is dealt again, nothing changes [D-4]
        out[1, 0] = 0
        out[1, 1] = -1
        out[1, 2] = 0
        out[1, 3] = -2
        return
    choices = dealer_choices(own, rumba_seat >= 0, jack_forced, rp)
    before = words[:n].copy()  # rumba-first leaves W_NONE: "did not call Rumba"
    unknown_inner = np.empty(size - hand_size, dtype=np.int64)
    k = 0
    for j in range(size):
        if not (own >> np.uint64(unknown[j])) & U1:
            unknown_inner[k] = unknown[j]
            k += 1
    sums = np.zeros(choices.shape[0], dtype=np.int64)
    counted = 0
    inner_out = np.zeros((choices.shape[0], 3), dtype=np.int64)
    i_deck, i_hands2, i_ints, i_cards = inner_scratch
    inner_seed = np.uint64(seed) ^ np.uint64(0x5DEECE66D)
    for j in range(inner):
        tries = ask_sample(deck_mask, unknown_inner, own, trump_card, n, dealer, rp, mp, policy, 0, False, before,
                           choices, inner_seed, np.uint64(index) * np.uint64(inner) + np.uint64(j), inner_out, i_deck,
                           i_hands2, i_ints, i_cards)
        if tries < 0:
            continue
        counted += 1
        for c in range(choices.shape[0]):
            sums[c] += inner_out[c, 0]
    best = 0
    for c in range(1, choices.shape[0]):
        if sums[c] < sums[best]:
            best = c
    chosen = choices[best:best + 1]
    hands[dealer] = hero_swaps_two(own, trump_card, rp)
    if hands[dealer] != own:
        turned = two_of(trump)
    evaluate_choices(hands, words, rumba_seat, turned, n, dealer, chosen, 0, False, jack_forced, trump, rp, mp, policy,
                     deck_mask, stock, size - pos, state, hands2, ints, cards, out[1:2])
    out[1, 3] = chosen[0] if counted > 0 else -1


@njit(cache=True, parallel=True)
def knock_batch(deck_mask, unknown, trump_card, n, rp, mp, policy, seed, start, count, inner):
    """Per deal: knocking (score, tricks, contested) and not knocking (score, -, -, choice code)."""
    results = np.zeros((count, 2, 4), dtype=np.int8)
    chunks = max(1, min(count, 256))
    for chunk in prange(chunks):
        out = np.zeros((2, 4), dtype=np.int64)
        deck, hands2, ints, cards = new_scratch(n, unknown.shape[0])
        inner_scratch = new_scratch(n, unknown.shape[0])
        for i in range(chunk * count // chunks, (chunk + 1) * count // chunks):
            out[:] = 0
            knock_sample(deck_mask, unknown, trump_card, n, rp, mp, policy, seed, start + i, inner, out, deck,
                         hands2, ints, cards, inner_scratch)
            for r in range(2):
                for f in range(4):
                    results[i, r, f] = out[r, f]
    return results
