"""Plain-Python twin of the game kernel (``kernel.py``): the same games, readable, from the engine's twin.

A hand is dealt and spoken exactly as the kernel does it (the same stream
positions), then played out by ``twins/hand.py``'s exchange, lead, card
play and score; the score state moves by ``score.apply_hand`` (called as plain
Python) and the game ends and pays by ``score.settle``.
"""

from __future__ import annotations

import numpy as np

from ..engine import policy as P
from ..engine.rules_layout import rules_array
from ..game.state import lead_seat
from ..policies import Policy
from ..rules import RuleSet
from ..twins import hand as th
from ..twins.common import GOLDEN, MASK64, Stream, mix64
from ..twins.condition import four_numbers, may_throw_in, pick, row, turn_of
from .score import PLAYED, THROWN_IN, VOID_NOBODY, apply_hand, game_array, game_over, settle


def speak_all(sit: th.Situation, hands, numbers, table):
    """Every seat speaks by the policy (no asking player): (codes, Rumba seat or -1, void, card on the table)."""
    rules, policy, n = sit.rules, sit.policy, sit.players
    codes = [P.W_NONE] * n
    rumba_seat = n - 1 if sit.knocked else -1
    for s in range(n):
        if sit.knocked:
            if s == n - 1:
                codes[s] = P.W_RUMBA
                continue
            turn = turn_of(s, codes, n - 1, True, sit.jack_forces_play, rules)
            codes[s] = pick(row(policy, s, turn.ctx, sit.score(hands[s], s), turn.pass_ok, False), numbers[s][1])
            continue
        if sit.may_swap(hands[s], table) and policy.swaps(s):  # [D-9]
            two = th.two_of_trump(sit.trump_card)
            hands[s] = (hands[s] - {two}) | {sit.trump_card}
            table = two
        if sit.rumba_first and rumba_seat >= 0:
            continue  # no round-one turn after a Rumba: he answers in round two
        turn = turn_of(s, codes, rumba_seat, False, sit.jack_forces_play, rules)
        score = sit.score(hands[s], s)
        if turn.throw_ok and may_throw_in(hands[s], rules) and numbers[s][0] < policy.throws[s, turn.ctx, score]:
            return codes, rumba_seat, True, table  # [D-4]
        rumba_ok = turn.rumba_ok
        if not sit.rumba_first and s == n - 1 and not rules.lone_rumba_allowed and P.W_PLAY not in codes[:s]:
            rumba_ok = False  # a lone player cannot call Rumba (flemish §5.5)
        word = pick(row(policy, s, turn.ctx, score, turn.pass_ok, rumba_ok), numbers[s][1])
        if word == P.W_RUMBA:
            rumba_seat = s
        codes[s] = word if not sit.rumba_first or word == P.W_RUMBA else P.W_NONE
    if sit.rumba_first:  # round two: everybody but the caller, seat 0 first, joins or passes
        for s in range(n):
            if s == rumba_seat:
                continue
            players = sum(1 for c in codes[:s] if c == P.W_PLAY)
            if rumba_seat >= 0:
                ctx = P.CTX_RUMBA + min(players, 2)
                pass_ok = not (sit.jack_forces_play or (rules.others_after_rumba == "must-play" and s > rumba_seat))
            else:
                ctx = P.CTX_OPEN + min(players, 3)
                pass_ok = not sit.jack_forces_play
            codes[s] = pick(row(policy, s, ctx, sit.score(hands[s], s), pass_ok, False), numbers[s][2])
    if rumba_seat >= 0 and not rules.lone_rumba_allowed and not sit.knocked \
            and not any(c == P.W_PLAY for i, c in enumerate(codes) if i != rumba_seat):
        codes[rumba_seat] = P.W_PLAY  # a forbidden lone Rumba is a lone play
        rumba_seat = -1
    return codes, rumba_seat, False, table


def twin_hand(rules: RuleSet, n: int, policy: Policy, knock_prob, play: str, state: int):
    """One hand from the stream position ``state``: (kind, score change per seat without penalty, passed per seat)."""
    stream = Stream(0, 0)
    stream.state = state
    deck = list(rules.deck)
    th.shuffle(deck, stream)
    size = rules.hand_size
    hands = [set(deck[s * size:(s + 1) * size]) for s in range(n)]
    trump_card = deck[n * size]
    stock = deck[n * size + 1:]
    numbers = [four_numbers(stream) for _ in range(n)]
    u_knock = stream.uniform()
    knocked = bool(rules.knock) and u_knock < float(knock_prob[trump_card % 16])
    saved_state = stream.state
    sit = th.Situation(rules, n, -1, trump_card, policy, knocked)
    table = trump_card
    if knocked:
        table = th.knocker_takes_turned_card(hands[n - 1], trump_card, sit.trump)
    codes, rumba_seat, void, table = speak_all(sit, hands, numbers, table)
    if void:
        return THROWN_IN, [0] * n, [0] * n
    words = [th.WORD.get(c) or th.PASS for c in codes]
    passed = [1 if w == th.PASS else 0 for w in words]
    active = [s for s in range(n) if not passed[s]]
    if not active:
        return VOID_NOBODY, [0] * n, passed
    rumba = rumba_seat if rumba_seat >= 0 else None
    tricks: list[int | None] = [None] * n
    if len(active) >= 2:
        if rumba is None:
            th.exchange(sit, hands, words, stock, 0, numbers, saved_state)
        leader = lead_seat(rules, n - 1, active, rumba)
        won = th.play_tricks([hands[s] for s in active], active.index(leader), sit.trump, rules.follow_code, play,
                             None if rumba is None else active.index(rumba), table, deck=rules.deck)
        for s, k in zip(active, won, strict=True):
            tricks[s] = k
    changes = th.score_changes(rules, n, words, tricks, rumba, knocked, [0] * n)
    return PLAYED, [0 if passed[s] else changes[s] for s in range(n)], passed


def twin_game(rules: RuleSet, n: int, scores, passes, dealer: int, policy: Policy, knock_prob, play: str, seed: int,
              index: int, max_hands: int = 10_000):
    """Game ``index`` of ``seed``: (final scores, won flags, payout, deals; negative: unfinished)."""
    rp, gp = rules_array(rules), game_array(rules)
    scores = np.array(scores, dtype=np.int64)
    passes = np.array(passes, dtype=np.int64)
    won = np.zeros(n, dtype=np.int64)
    payout = np.zeros(n, dtype=np.float64)
    game_state = Stream(seed, index).state
    for deals in range(1, max_hands + 1):
        game_state = (game_state + GOLDEN) & MASK64
        kind, changes, passed = twin_hand(rules, n, policy, knock_prob, play, mix64(game_state))
        dealer = apply_hand.py_func(scores, passes, dealer, kind, np.array(changes, dtype=np.int64),
                                    np.array(passed, dtype=np.int64), rp)
        if game_over.py_func(scores, gp):
            settle.py_func(scores, gp, won, payout)
            return scores, won, payout, deals
    return scores, won, payout, -max_hands


__all__ = ["twin_hand", "twin_game", "speak_all"]
