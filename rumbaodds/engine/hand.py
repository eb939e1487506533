"""Whole-hand simulation kernels: deal, speak, exchange, play, score.

The procedure is docs/SIMULATION.md, step by step; its readable twin is
``rumbaodds/twins/hand.py`` (which drives the rules of ``rumbaodds/game/``)
and tests compare the two sample by sample. Rule-set numbers
arrive as an int64 array (``rules_layout.py``), the opponents as a policy
tuple (``policy.py``), what the hero saw of the earlier seats as a
conditioning plan (``rumbaodds/answer/conditioning.py``, ``condition.py``).
"""

import numpy as np
from numba import njit, prange, types
from numba.extending import overload

from .bits import U0, U1, bit, lowest_card, popcount
from .condition import deal_conditioned, new_condition_scratch
from .keep import hand_points, keep_value, lowest_keep  # noqa: F401  (re-exported)
from .play import (  # noqa: F401
    POLICY_DISTILLED,
    POLICY_EXPERT,
    POLICY_EXPERT_DEFENCE,
    POLICY_EXPERT_RUMBA,
    POLICY_GREEDY,
    play_tricks,
)
from .policy import (  # noqa: F401  (re-exported)
    CTX_OPEN,
    P_CONTEXT_FREE,
    W_NONE,
    W_PASS,
    W_PLAY,
    W_RUMBA,
    W_THROW_IN,
    draw_uniforms,
    exchange_wish,
    hand_score,
    may_throw_in,
)
from .rng import below, next_state, shuffle, stream_start
from .rules_layout import *  # noqa: F403  (R_* and rules_array, re-exported)
from .rules_layout import (
    R_EXCHANGE,
    R_FAIL,
    R_FOLLOW,
    R_HAND,
    R_JACK_FORCES,
    R_LONE_PLAYER,
    R_LONE_RUMBA_OK,
    R_LONE_RUMBA_SCORE,
    R_MIN_TRICKS,
    R_NORMAL_LEAD_FIRST,
    R_NORMAL_NO_TRICK,
    R_NORMAL_PER_TRICK,
    R_PUT_AWAY,
    R_RUMBA_FIRST,
    R_RUMBA_LEAD_FIRST,
    R_RUMBA_NO_TRICK,
    R_RUMBA_PER_TRICK,
    R_SIT_LIMIT,
    R_SIT_PENALTY,
    R_SIT_REPEATS,
    R_TOP_RANK,
    R_VOID_PASS,
    R_WIN_FLAT,
    R_WIN_PER_TRICK,
)
from .searched_play import POLICY_PIMC, SEARCHED, STATS, searched_tricks
from .speak import C_PASS, C_PLAY, C_RUMBA, C_SKIP, C_THROW_IN, JACK, hero_swaps_two, speak_rest, two_of  # noqa: F401
from .tricks import strength, weakest

# the "tricks" a choice reports when none were played: nobody else plays (a lone Rumba or lone player, or the
# hero passed), his Rumba was not allowed so he plays alone (flemish lone dealer), the hand was void
NO_TRICKS, LONE_PLAY, VOID = -1, -2, -3
PERM_AT = 64  # where the side-suit renaming lives in the ``cards`` scratch array
# a play choice C_PLAY + EXACT_DISCARD + positions exchanges the very cards the player named (bit i: the i-th
# lowest card id of his hand as he holds it), not the k of lowest keep value: how a review grades his own discard
EXACT_DISCARD = 64
STATS_AT = PERM_AT + 4  # then the searched play's counters (engine/searched_play.py STATS)
OUT_FIELDS = 4  # score, tricks (or a code above), contested, the round-one Rumba caller (-1: none)


@njit(cache=True, inline="always")
def pass_penalty(passes, rp):
    """RuleSet.pass_penalty: the sit-out penalty due for this pass, if any (swiss rule 17)."""
    limit = rp[R_SIT_LIMIT]
    if limit <= 0:
        return 0
    streak = passes + 1
    due = streak >= limit if rp[R_SIT_REPEATS] else streak % limit == 0
    return rp[R_SIT_PENALTY] if due else 0


@njit(cache=True, inline="always")
def wish_count(wish):
    """How many cards a wish exchanges: ``k``, or the cards an exact discard names (``EXACT_DISCARD + positions``)."""
    return popcount(np.uint64(wish - EXACT_DISCARD)) if wish >= EXACT_DISCARD else wish


@njit(cache=True)
def exact_discard(hand, positions, perm):
    """The cards of ``hand`` an exact discard names: bit ``i`` of ``positions`` is the ``i``-th lowest card id of
    the hand *as the player holds it* (before the side suits were renamed by ``perm``, step 2b), so the same
    cards are thrown on every deal whatever the renaming."""
    own = U0  # the hand as he holds it: suit ``perm[s]`` back to ``s`` (no array: this runs on a GPU too)
    for suit in range(4):
        own |= ((hand >> np.uint64(16 * perm[suit])) & np.uint64(0xFFFF)) << np.uint64(16 * suit)
    chosen = U0
    i = 0
    rest = own
    while rest:
        card = lowest_card(rest)
        rest &= rest - U1
        if (positions >> i) & 1:
            chosen |= bit(card)
        i += 1
    return relabel(chosen, perm)


@njit(cache=True)
def exchange(hands, n, words, wishes, source, size, trump, top, perm):
    """Step 6: active seats in seat order throw their lowest keep values (the hero, with an exact discard, the
    cards he named) and draw from ``source[:size]``. ``perm``: the deal's side-suit renaming (step 2b)."""
    pointer = 0
    for s in range(n):
        if words[s] != W_PLAY:
            continue
        wish = wishes[s]
        named = U0
        if wish >= EXACT_DISCARD:
            named = exact_discard(hands[s], wish - EXACT_DISCARD, perm)
            wish = popcount(named)
        take = min(wish, size - pointer)  # nobody discards more than the stock can replace
        if take > 0:
            if named and take == wish:
                hands[s] &= ~named
            else:  # the policy's cards, or the lowest keep values among those he named when the stock runs short
                hands[s] &= ~lowest_keep(named if named else hands[s], take, trump, top)
            for j in range(take):
                hands[s] |= bit(source[pointer])
                pointer += 1


@njit(cache=True, inline="always")
def lead_index(rumba_idx, dealer_idx, rp):
    """Step 7, as an index into the active seats: [D-8], [D-10], §5.7."""
    if rumba_idx >= 0:
        return 0 if rp[R_RUMBA_LEAD_FIRST] == 1 else rumba_idx
    if rp[R_NORMAL_LEAD_FIRST] == 1 or dealer_idx < 0:
        return 0
    return dealer_idx


@njit(cache=True, inline="always")
def score_of(won, is_rumba_player, rumba_game, rp):
    """Step 9 for an active seat that played tricks (RULES.md §4.8, §5.8)."""
    if not rumba_game:
        return rp[R_NORMAL_PER_TRICK] * won if won > 0 else rp[R_NORMAL_NO_TRICK]
    if is_rumba_player:
        return rp[R_WIN_FLAT] + rp[R_WIN_PER_TRICK] * won if won >= rp[R_MIN_TRICKS] else rp[R_FAIL]
    return rp[R_RUMBA_PER_TRICK] * won if won > 0 else rp[R_RUMBA_NO_TRICK]


@njit(cache=True)
def finish_hand(hands, n, words, rumba_seat, hero, discard_k, passes, trump, table_mask, rp, pol, us, policy,
                deck_mask, stock, stock_len, state, scratch_hands, scratch_tricks, scratch_cards, out, slot, knocked,
                jack_forced, trump_card):
    """Steps 5-9 of docs/SIMULATION.md for one choice; writes hero score, tricks, contested. ``knocked``,
    ``jack_forced``, ``trump_card``: how the words were said and the card turned, for what the searched play
    knows (play_step)."""
    hero_word = words[hero]
    pass_score = pass_penalty(passes, rp)
    active = 0
    for s in range(n):
        if words[s] == W_PLAY or words[s] == W_RUMBA:
            active += 1
    out[slot, 1] = NO_TRICKS
    out[slot, 2] = 0
    if active == 0:  # void hand [D-6]
        out[slot, 0] = pass_score if rp[R_VOID_PASS] and hero_word == W_PASS else 0
        return
    if rumba_seat >= 0 and active == 1:
        lone = rp[R_LONE_RUMBA_SCORE] if rp[R_LONE_RUMBA_OK] else rp[R_LONE_PLAYER]
        out[slot, 0] = lone if hero == rumba_seat else pass_score
        return
    if rumba_seat < 0 and active == 1:  # [D-7]
        out[slot, 0] = rp[R_LONE_PLAYER] if hero_word == W_PLAY else pass_score
        return
    if hero_word == W_PASS:
        out[slot, 0] = pass_score
        return
    if rumba_seat < 0 and rp[R_EXCHANGE] > 0:
        exchange_step(hands, n, words, hero, discard_k, trump, rp, pol, us, stock, stock_len, state, scratch_tricks,
                      scratch_cards)
    play_step(hands, n, words, rumba_seat, trump, table_mask, rp, policy, deck_mask, scratch_hands, scratch_tricks,
              state, scratch_cards, pol, knocked, jack_forced, trump_card)
    hero_idx = 0  # his index among the active seats, which play in seat order
    for s in range(hero):
        if words[s] == W_PLAY or words[s] == W_RUMBA:
            hero_idx += 1
    won = scratch_tricks[hero_idx]
    out[slot, 1] = won
    out[slot, 2] = 1
    out[slot, 0] = score_of(won, hero == rumba_seat, rumba_seat >= 0, rp)


@njit(cache=True)
def exchange_step(hands, n, words, hero, discard_k, trump, rp, pol, us, stock, stock_len, state, wishes, cards):
    """Step 6 of a normal game: every active seat's wish (``hero`` -1: none; he exchanges ``discard_k`` cards,
    the others by the policy and their numbers ``us``), the stock (swiss: the passers' cards, shuffled from
    ``state``, under it, only when reached), the exchange itself. ``wishes`` and ``cards`` are work space."""
    top = rp[R_TOP_RANK]
    ints, values, exchanges = pol[0], pol[1], pol[4]
    total = 0
    players = 0  # earlier players: the context he spoke in (a normal game)
    for s in range(n):
        want = 0
        if words[s] == W_PLAY:
            if s == hero:
                want = discard_k
            else:
                score = hand_score(hands[s], trump, top, values[s])
                want = exchange_wish(ints[s], exchanges, s, CTX_OPEN + min(players, 3), hands[s], score, trump,
                                     top, rp[R_EXCHANGE], us[s, 3])
            players += 1
        wishes[s] = want
        total += wish_count(want)
    source = stock
    size = stock_len
    if total > stock_len and rp[R_PUT_AWAY] == 0:
        for j in range(stock_len):
            cards[j] = stock[j]
        for s in range(n):
            if words[s] == W_PASS:
                rest = hands[s]
                while rest:
                    cards[size] = lowest_card(rest)
                    rest &= rest - U1
                    size += 1
        shuffle(cards[stock_len:size], state)
        source = cards
    exchange(hands, n, words, wishes, source, size, trump, top, cards[PERM_AT:PERM_AT + 4])


@njit(cache=True)
def play_step(hands, n, words, rumba_seat, trump, table_mask, rp, policy, deck_mask, in_play, tricks, state, cards,
              pol, knocked, jack_forced, trump_card):
    """Steps 7-8: the active seats' hands in seat order (play index ``k`` is the ``k``-th active seat), the lead
    ([D-8], [D-10]), the five tricks; returns how many play, with each one's tricks in ``tricks``. ``state``
    and ``cards``: the deal's stream and scratch, which the searched play (``pimc``) draws its worlds from and
    counts them in (``cards[STATS_AT:]``); its defenders believe a Rumba call as the opponents' policy ``pol``
    makes it (not a knock: blind), the words said as ``knocked`` and ``jack_forced`` allowed, and everybody knows
    where the turned ``trump_card`` is when a seat took it (-1: not known here)."""
    m = 0
    rumba_idx = -1
    dealer_idx = -1
    for s in range(n):
        if words[s] == W_PLAY or words[s] == W_RUMBA:
            in_play[m] = hands[s]
            tricks[m] = 0
            if s == rumba_seat:
                rumba_idx = m
            if s == n - 1:
                dealer_idx = m
            m += 1
    lead = lead_index(rumba_idx, dealer_idx, rp)
    play_active(policy, in_play, m, lead, trump, table_mask, rp, deck_mask, rumba_idx, tricks, state, cards, pol,
                words, rumba_seat, knocked, jack_forced, trump_card)
    return m


def play_active(policy, in_play, m, lead, trump, table_mask, rp, deck_mask, rumba_idx, tricks, state, cards, pol,
                words, rumba_seat, knocked, jack_forced, trump_card):
    """The tricks of :func:`play_step` by ``policy``: a fast play's code (an int, engine/play.py) or the search
    (:data:`SEARCHED`). Chosen by the argument's type when the kernel is compiled, not by its value when it runs,
    so a kernel compiled for the fast plays holds no search (the search compiles only where it is asked for).
    In compiled code only."""
    raise NotImplementedError("compiled code only")


@overload(play_active)
def _play_active(policy, in_play, m, lead, trump, table_mask, rp, deck_mask, rumba_idx, tricks, state, cards, pol,
                 words, rumba_seat, knocked, jack_forced, trump_card):
    if isinstance(policy, types.BaseTuple):
        def by_search(policy, in_play, m, lead, trump, table_mask, rp, deck_mask, rumba_idx, tricks, state, cards,
                      pol, words, rumba_seat, knocked, jack_forced, trump_card):
            searched_tricks(in_play, m, lead, trump, rp[R_FOLLOW], rumba_idx, deck_mask, table_mask, tricks,
                            rp[R_MIN_TRICKS], rp, state, cards, STATS_AT, pol, words, rumba_seat, knocked,
                            jack_forced, trump_card)
        return by_search

    def fast(policy, in_play, m, lead, trump, table_mask, rp, deck_mask, rumba_idx, tricks, state, cards, pol, words,
             rumba_seat, knocked, jack_forced, trump_card):
        if policy == POLICY_PIMC:  # the search's code as an int would play a fast play silently: pass SEARCHED
            raise ValueError("the searched play is passed as SEARCHED, not as its int code")
        play_tricks(in_play, m, lead, trump, rp[R_FOLLOW], policy, rumba_idx, deck_mask, table_mask, tricks,
                    rp[R_MIN_TRICKS])
    return fast


@njit(cache=True)
def evaluate_choices(hands, words, rumba_seat, turned, trump_card, n, hero, choices, passes, knocked, jack_forced,
                     rp, pol, us, policy, deck_mask, stock, stock_len, state, hands2, ints, cards, out, forced, probs):
    """Steps 3-9 for every choice on one accepted deal (common random numbers).

    ``probs[slot]``: the probability of the later seats' forced outcomes under that choice (1 when none is forced).
    """
    trump = trump_card >> 4
    play_hands = hands2[1]
    play_words = ints[1]
    spoken_hands = hands2[3]
    spoken_words = ints[3]
    spoken = -1  # what the hero said in the speaking kept in spoken_*: play0..playK share one
    final_rumba = -1
    called = -1
    table = -1
    void = False
    prob = 1.0
    # where a lone Rumba is allowed and the policy ignores the earlier words, the others' words do not
    # depend on whether the hero passed or played: a pass reuses the speaking of a play
    can_share = rp[R_LONE_RUMBA_OK] == 1 and pol[0][0, P_CONTEXT_FREE] == 1
    for slot in range(choices.shape[0]):
        choice = choices[slot]
        out[slot, 0] = 0
        out[slot, 1] = NO_TRICKS
        out[slot, 2] = 0
        out[slot, 3] = -1
        probs[slot] = 1.0
        if choice == C_SKIP:  # every slot plays on its own copy and stream: the others are unchanged
            continue
        if choice == C_THROW_IN:  # void hand, counts as nobody's pass [D-4]
            out[slot, 1] = VOID
            continue
        said = W_PASS if choice == C_PASS else W_RUMBA if choice == C_RUMBA else W_PLAY
        shared = said == W_PASS and can_share
        key = W_PLAY if shared else said
        if key != spoken:
            for s in range(n):
                spoken_hands[s] = hands[s]
                spoken_words[s] = words[s]
            final_rumba, table, void, called, prob = speak_rest(spoken_hands, n, hero, C_PLAY if shared else choice,
                                                                spoken_words, rumba_seat, turned, trump_card, knocked,
                                                                jack_forced, rp, pol, us, forced)
            spoken = key
        probs[slot] = prob
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
        finish_hand(play_hands, n, play_words, final_rumba, hero, discard_k, passes, trump, table_mask, rp, pol, us,
                    policy, deck_mask, stock, stock_len, state, hands2[2], ints[2], cards, out, slot, knocked,
                    jack_forced, trump_card)
        if rp[R_RUMBA_FIRST] == 1 and not knocked:
            out[slot, 3] = called  # the round-one outcome his round-two answer knows
        if choice == C_RUMBA and called == hero and final_rumba != hero:  # refused: nobody else plays, he plays alone
            out[slot, 1] = LONE_PLAY


# -- renaming the side suits (step 2b) -------------------------------------------------
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
def rename_draw(state, deck_mask, trump, perm):
    """One draw of the side-suit order (step 2b); returns the new state."""
    state = next_state(state)
    orders = 1
    for j in range(2, side_suit_count(deck_mask, trump) + 1):
        orders *= j
    side_suit_permutation(deck_mask, trump, below(state, orders), perm)
    return state


# -- one sample ---------------------------------------------------------------------------
@njit(cache=True)
def new_scratch(n, unknown_size):
    deck = np.empty(unknown_size, dtype=np.int64)
    hands = np.zeros((4, n), dtype=np.uint64)  # dealt, per-choice copy, active seats in play, spare
    ints = np.zeros((4, n), dtype=np.int64)  # earlier words, per-choice words, tricks, spare
    cards = np.zeros(STATS_AT + STATS, dtype=np.int64)  # the stock during the exchange, the side-suit order, counters
    us = np.zeros((n, 4), dtype=np.float64)  # decision numbers per seat
    forced = np.full(n, -1, dtype=np.int64)  # no forced outcomes (exact enumeration forces them)
    probs = np.ones(16, dtype=np.float64)  # per choice: the probability of the forced outcomes
    return deck, hands, ints, cards, us, new_condition_scratch(), forced, probs


@njit(cache=True)
def deal_rest(pool, pos, hands, n, hero, hand_size):
    """The later seats take ``hand_size`` cards each from ``pool[pos:]`` in seat order; returns the stock's start."""
    for s in range(hero + 1, n):
        mask = U0
        for j in range(hand_size):
            mask |= bit(pool[pos])
            pos += 1
        hands[s] = mask
    return pos


@njit(cache=True)
def deal_sample(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, pol, plan, knocked, swapped_by, seed, index,
                scratch):
    """Sample ``index``'s deal (steps 1-4 of docs/SIMULATION.md): the earlier seats' hands drawn to fit their words
    (with the importance weight), the rest dealt, the later seats' decision numbers, the side suits renamed, the
    asking player's swap of the two of trump [D-9]. Fills ``scratch``'s hands and words.

    Returns (tries, weight, Rumba seat, card face up, stock start, stock end, jack forced, stream position);
    tries -1 when no deal matched (only for an impossible situation)."""
    deck, hands2, ints, cards, us, cond, _forced, _probs = scratch
    plan_word, plan_hard, plan_stretch, stretch, excluded = plan
    state = stream_start(seed, index)
    jack_forced = rp[R_JACK_FORCES] == 1 and (trump_card & 15) == JACK
    hands = hands2[0]
    words = ints[0]
    ok, state, weight, rumba_seat, pos, tries = deal_conditioned(
        unknown, deck, hero_hand, trump_card, n, hero, swapped_by, knocked, jack_forced, excluded, rp, pol,
        plan_word, plan_hard, plan_stretch, stretch, state, hands, words, us, cond)
    if not ok:
        return -1, 0.0, -1, -1, 0, 0, jack_forced, state
    hands[hero] = hero_hand
    for s in range(hero, n):
        words[s] = W_NONE
    size = unknown.shape[0]
    pos = deal_rest(deck, pos, hands, n, hero, rp[R_HAND])
    for s in range(hero + 1, n):
        state = draw_uniforms(state, us, s)
    trump = trump_card >> 4
    perm = cards[PERM_AT:PERM_AT + 4]
    state = rename_draw(state, deck_mask, trump, perm)
    turned = two_of(trump) if swapped_by >= 0 else trump_card
    turned = rename_side_suits(hands, n, deck[pos:size], perm, knocked, trump_card, turned)
    own = hands[hero]
    hands[hero] = hero_swaps_two(own, turned, trump_card, knocked, rp)
    if hands[hero] != own:
        turned = two_of(trump)
    return tries, weight, rumba_seat, turned, pos, size, jack_forced, state


@njit(cache=True)
def ask_sample(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, pol, plan, policy, passes, knocked, swapped_by,
               choices, seed, index, out, scratch):
    """One sample of docs/SIMULATION.md for every choice in ``choices``.

    Returns (tries, weight): tries -1 when no deal matched (only for an impossible situation).
    ``plan`` = (words, hard, stretched, stretch, excluded card per seat) of the earlier seats.
    """
    tries, weight, rumba_seat, turned, pos, size, jack_forced, state = deal_sample(
        deck_mask, unknown, hero_hand, trump_card, n, hero, rp, pol, plan, knocked, swapped_by, seed, index, scratch)
    if tries < 0:
        return -1, 0.0
    deck, hands2, ints, cards, us, _cond, forced, probs = scratch
    evaluate_choices(hands2[0], ints[0], rumba_seat, turned, trump_card, n, hero, choices, passes, knocked,
                     jack_forced, rp, pol, us, policy, deck_mask, deck[pos:size], size - pos, state, hands2, ints,
                     cards, out, forced, probs)
    return tries, weight


@njit(cache=True, parallel=True)
def ask_batch(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, pol, plan, policy, passes, knocked, swapped_by,
              choices, seed, start, count):
    """Samples ``start .. start+count-1``: (count, choices, OUT_FIELDS) int8 results, tries and weights."""
    results = np.zeros((count, choices.shape[0], OUT_FIELDS), dtype=np.int8)
    tries = np.zeros(count, dtype=np.int32)
    weights = np.zeros(count, dtype=np.float64)
    chunks = max(1, min(count, 256))
    for chunk in prange(chunks):
        out = np.zeros((choices.shape[0], OUT_FIELDS), dtype=np.int64)
        scratch = new_scratch(n, unknown.shape[0])
        for i in range(chunk * count // chunks, (chunk + 1) * count // chunks):
            t, w = ask_sample(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, pol, plan, policy, passes,
                              knocked, swapped_by, choices, seed, start + i, out, scratch)
            keep_sample(results, tries, weights, i, t, w, out)
    return results, tries, weights


@njit(cache=True, inline="always")
def keep_sample(results, tries, weights, i, t, w, out):
    """Sample ``i``'s row of a batch: its tries, its weight, each choice's results (int8)."""
    tries[i] = t
    weights[i] = w
    for c in range(out.shape[0]):
        for f in range(OUT_FIELDS):
            results[i, c, f] = out[c, f]


@njit(cache=True, parallel=True)
def ask_batch_searched(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, pol, plan, passes, knocked,
                       swapped_by, choices, seed, start, count):
    """:func:`ask_batch` with everybody playing by search (``pimc``), and its counters: (results, tries, weights,
    [decisions with a choice, worlds they used]). Few samples a call: each costs hundreds of fast ones."""
    results = np.zeros((count, choices.shape[0], OUT_FIELDS), dtype=np.int8)
    tries = np.zeros(count, dtype=np.int32)
    weights = np.zeros(count, dtype=np.float64)
    counters = np.zeros((count, STATS), dtype=np.int64)
    for i in prange(count):  # one sample a task: a few hundred a call, and their costs differ
        out = np.zeros((choices.shape[0], OUT_FIELDS), dtype=np.int64)
        scratch = new_scratch(n, unknown.shape[0])
        t, w = ask_sample(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, pol, plan, SEARCHED, passes,
                          knocked, swapped_by, choices, seed, start + i, out, scratch)
        keep_sample(results, tries, weights, i, t, w, out)
        for k in range(STATS):
            counters[i, k] = scratch[3][STATS_AT + k]
    return results, tries, weights, counters.sum(axis=0)
