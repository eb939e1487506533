"""Plain-Python twin of the game kernel (``kernel.py``, ``scored.py``): the same games, readable, from the hand twin.

A hand is dealt from its stream exactly as the kernel deals it (one shuffle of
the deck, every seat's four decision numbers, the dealer's knock number), then
a :class:`rumbaodds.game.HandState` holds the rules of the hand while
``twins/hand.py`` makes every seat's decisions as the kernel does (speaking by
the policy, the exchange by keep value, the card play); no rule of a hand is
written here. The score state moves by ``score.apply_hand`` (called as plain
Python) and the game ends and pays by ``score.settle``.
"""

from __future__ import annotations

import numpy as np

from ..engine.rules_layout import rules_array
from ..game import HandState, Knock, Phase, Word
from ..opponents.policies import Policy
from ..rules import RuleSet
from ..twins import hand as th
from ..twins.common import GOLDEN, MASK64, Stream, mix64
from ..twins.condition import four_numbers
from .score import PLAYED, THROWN_IN, VOID_NOBODY, apply_hand, game_array, game_over, settle


def deal_hand(rules: RuleSet, n: int, knock_prob, state: int):
    """The deal of one hand from the stream position ``state``, as the kernel's ``play_hand`` draws it.

    Returns (hands by seat, the card turned, the stock, every seat's four numbers, knocked, the stream now at
    the position the swiss passers' cards are shuffled from).
    """
    stream = th.stream_at(state)
    deck = list(rules.deck)
    th.shuffle(deck, stream)
    size = rules.hand_size
    hands = [set(deck[s * size:(s + 1) * size]) for s in range(n)]
    trump_card = deck[n * size]
    numbers = [four_numbers(stream) for _ in range(n)]
    knocked = bool(rules.knock) and stream.uniform() < float(knock_prob[trump_card % 16])
    return hands, trump_card, deck[n * size + 1:], numbers, knocked, stream


def play_state(sit: th.Situation, state: HandState, numbers, play: str) -> HandState:
    """A hand state from its current move to the end, every seat deciding as the kernel does (nobody asks)."""
    while state.phase in (Phase.SPEAK, Phase.ANSWER):
        th.opponent_speaks(sit, state, numbers)
    if state.phase is Phase.EXCHANGE:
        th.exchange_by_policy(sit, state, 0, numbers)
    if state.phase is Phase.PLAY:
        th.play_out(state, play)
    return state


def hand_result(state: HandState) -> tuple[int, list[int], list[int]]:
    """(kind, score change per seat without the sit-out penalty, passed per seat) of a finished hand state."""
    n = state.players
    if state.thrown_in_by is not None:  # [D-4]
        return THROWN_IN, [0] * n, [0] * n
    passed = [0 if w in (Word.PLAY, Word.RUMBA) else 1 for w in state.words]
    if not state.active:  # [D-6]
        return VOID_NOBODY, [0] * n, passed
    changes = state.returns()
    return PLAYED, [0 if passed[s] else changes[s] for s in range(n)], passed


def twin_hand(rules: RuleSet, n: int, policy: Policy, knock_prob, play: str, state: int):
    """One hand from the stream position ``state``: (kind, score change per seat without penalty, passed per seat)."""
    hands, trump_card, stock, numbers, knocked, stream = deal_hand(rules, n, knock_prob, state)
    sit = th.Situation(rules, n, -1, trump_card, policy, knocked)
    hand = HandState(rules, hands, trump_card, stock, rng=stream)
    if knocked:  # the knocking dealer takes the turned card for his weakest card if it is stronger [D-3]
        hand.apply(Knock(th.knock_discard(hand.hands[n - 1], trump_card, sit.trump)))
    return hand_result(play_state(sit, hand, numbers, play))


def twin_game(rules: RuleSet, n: int, scores, passes, dealer: int, policy: Policy, knock_prob, play: str, seed: int,
              index: int, max_hands: int = 10_000):
    """Game ``index`` of ``seed``: (final scores, won flags, payout, deals; negative: unfinished)."""
    return continue_game(rules, n, scores, passes, dealer, policy, knock_prob, play, Stream(seed, index).state,
                         max_hands)


def continue_game(rules: RuleSet, n: int, scores, passes, dealer: int, policy: Policy, knock_prob, play: str,
                  game_state: int, max_hands: int = 10_000, deals: int = 0):
    """The game loop of ``scored.play_game_scored`` from the stream position ``game_state``.

    ``policy``: a Policy, or (a game where players see the score, ``scored_twin.table_policy``) a function of the
    score state (scores, passes, dealer) giving this hand's Policy and knock; then ``knock_prob`` is not read.

    ``deals``: hands already played this game (a game resumed after a hand played elsewhere, which may have ended
    it); with none, the first hand is played whatever the scores, as the kernel does."""
    rp, gp = rules_array(rules), game_array(rules)
    scores = np.array(scores, dtype=np.int64)
    passes = np.array(passes, dtype=np.int64)
    won = np.zeros(n, dtype=np.int64)
    payout = np.zeros(n, dtype=np.float64)
    if deals and game_over.py_func(scores, gp):
        settle.py_func(scores, gp, won, payout)
        return scores, won, payout, deals
    while deals < max_hands:
        game_state = (game_state + GOLDEN) & MASK64
        hand_policy, hand_knock = policy(scores, passes, dealer) if callable(policy) else (policy, knock_prob)
        kind, changes, passed = twin_hand(rules, n, hand_policy, hand_knock, play, mix64(game_state))
        dealer = apply_hand.py_func(scores, passes, dealer, kind, np.array(changes, dtype=np.int64),
                                    np.array(passed, dtype=np.int64), rp)
        deals += 1
        if game_over.py_func(scores, gp):
            settle.py_func(scores, gp, won, payout)
            return scores, won, payout, deals
    return scores, won, payout, -deals


def twin_choice_sample(rules: RuleSet, players: int, seat: int, hand, trump_card: int, policy: Policy, plan,
                       card_play: str, choices, scores, passes, game_policy: Policy, knock_prob, seed: int, index: int,
                       rest: int, knocked: bool = False, swapped_by: int | None = None, max_hands: int = 10_000):
    """Twin of ``choice.choice_sample``: {choice: (kind, changes, passed, payout, win share, deals)} of one sample.

    The deal is ``twins/hand.py``'s (``deal_sample``: what the hero saw, then the rest); every choice is spoken
    (``speak_on``) and played to the end by every seat (``play_state``), also when he passes; seat ``players - 1``
    deals; the rest of the game is ``continue_game`` from game ``index`` of the ``rest`` seed.
    """
    n = players
    sit, state, numbers, saved_state, _earlier, _rename = th.deal_sample(rules, n, seat, hand, trump_card, policy,
                                                                         plan, passes[seat], knocked, swapped_by,
                                                                         seed, index)
    rp = rules_array(rules)
    out = {}
    for choice in choices:
        if choice == th.THROW_IN:
            kind, changes, passed = THROWN_IN, [0] * n, [0] * n
        else:
            mine = state.copy()
            mine.rng = th.stream_at(saved_state)
            word, discards = (th.PLAY, int(choice[len(th.PLAY):])) if choice.startswith(th.PLAY) else (choice, 0)
            th.speak_on(sit, mine, numbers, word)
            if mine.phase is Phase.EXCHANGE:
                th.exchange_by_policy(sit, mine, discards, numbers)
            kind, changes, passed = hand_result(play_state(sit, mine, numbers, card_play))
        after = np.array(scores, dtype=np.int64)
        streaks = np.array(passes, dtype=np.int64)
        dealer = apply_hand.py_func(after, streaks, n - 1, kind, np.array(changes, dtype=np.int64),
                                    np.array(passed, dtype=np.int64), rp)
        final, won, payout, deals = continue_game(rules, n, after, streaks, dealer, game_policy, knock_prob,
                                                  card_play, Stream(rest, index).state, max_hands, deals=1)
        winners = int(won.sum())
        out[choice] = (kind, changes, passed, float(payout[seat]), won[seat] / winners if winners else 0.0, deals)
    return out


__all__ = ["twin_choice_sample", "twin_hand", "twin_game", "continue_game", "deal_hand", "play_state", "hand_result"]
