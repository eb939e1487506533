"""Exact values of every information set on a tiny rule set: the truth the sampled solver is checked against.

Every deal is visited once (every split of the deck into hands, the card
turned and the stock; the rule set must not exchange, so the stock's order
never matters), and for each traverser every combination of the other seats'
outcomes (pass, play, Rumba, throw-in) is forced in turn through the engine's
own speaking (``speak_seats`` with ``forced``), weighted by the probability
the strategy gives it. The sums are the exact counterfactual values of every
(seat, context, hand score, may throw in, action), and of the dealer's blind
knock per rank; :func:`exact_gains` turns them into each seat's exact
best-response gain over the abstraction (the dealer's knock and words
searched jointly).
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
from numba import njit

from ..engine import policy as P
from ..engine.bits import U0, bit
from ..engine.exact import next_permutation
from ..engine.hand import new_scratch
from ..engine.rules_layout import R_HAND, R_KNOCK, rules_array
from ..rules import RulesError, RuleSet
from .game import I_CTX, I_REACHED, I_SCORE, I_SIZE, I_THROWABLE, knock_value, traverse_deal
from .tables import Strategy, action_count, to_policy

OUTCOMES = np.array([P.W_PASS, P.W_PLAY, P.W_RUMBA, P.W_THROW_IN], dtype=np.int64)


@njit(cache=True)
def _canonical(order, n, hand_size):
    """Each hand and the stock in ascending order: one permutation per distinct deal."""
    for s in range(n):
        for j in range(1, hand_size):
            if order[s * hand_size + j - 1] > order[s * hand_size + j]:
                return False
    for j in range(n * hand_size + 2, order.shape[0]):
        if order[j - 1] > order[j]:
            return False
    return True


@njit(cache=True)
def force_outcomes(forced, code, n, t, knocked_world):
    """The others' outcomes of combination ``code``; False where it repeats another (a knocker has no word)."""
    rest = code
    for s in range(n):
        if s == t:
            forced[s] = -1
            continue
        forced[s] = OUTCOMES[rest % 4]
        rest //= 4
        if knocked_world and s == n - 1 and forced[s] != P.W_PASS:
            return False
    return True


@njit(cache=True)
def canonical_deals(deck, n, hand_size, count):
    """Every distinct deal once: (hands[count, n], card turned[count], stock[count, rest], how many were found)."""
    order = np.sort(deck.copy())
    m = order.shape[0]
    hands = np.zeros((count, n), dtype=np.uint64)
    trumps = np.zeros(count, dtype=np.int64)
    stocks = np.zeros((count, m - n * hand_size - 1), dtype=np.int64)
    k = 0
    while True:
        if _canonical(order, n, hand_size):
            if k < count:
                for s in range(n):
                    mask = U0
                    for j in range(hand_size):
                        mask |= bit(order[s * hand_size + j])
                    hands[k, s] = mask
                trumps[k] = order[n * hand_size]
                stocks[k] = order[n * hand_size + 1:]
            k += 1
        if not next_permutation(order):
            break
    return hands, trumps, stocks, k


def every_deal(rules: RuleSet, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``canonical_deals`` of the rule set, checked to be every deal."""
    count = deal_count(rules, players)
    hands, trumps, stocks, found = canonical_deals(rules.deck_array(), players, rules.hand_size, count)
    assert found == count, (found, count)
    return hands, trumps, stocks


@njit(cache=True)
def exact_values(deals_hands, trumps, stocks, n, rp, pol, knock_prob, play, actions_count):
    """Exact sums over every deal (``every_deal``) and the others' outcomes: (Q, legal, dealer Q by rank, its
    legal, knock, deals).

    ``Q[seat, ctx, score, throwable, action]``; ``legal`` marks the actions offered there; the dealer's own
    speaking (no knock) again by rank of the card turned in ``dealer_q[rank, ...]``; ``knock[rank]`` the sum of
    his blind knock's score; ``deals[rank]`` how many deals turn that rank.
    """
    deck_mask = bit(trumps[0])
    for s in range(n):
        deck_mask |= deals_hands[0, s]
    for c in stocks[0]:
        deck_mask |= bit(c)
    m = stocks.shape[1] + 1 + n * rp[R_HAND]
    shape = (n, P.NCTX, P.NSCORE, 2, actions_count)
    q = np.zeros(shape)
    legal = np.zeros(shape)
    dealer_q = np.zeros((16, P.NCTX, P.NSCORE, 2, actions_count))
    dealer_legal = np.zeros((16, P.NCTX, P.NSCORE, 2, actions_count))
    knock = np.zeros(16)
    deals = np.zeros(16)
    scratch = new_scratch(n, m)
    forced = scratch[6]
    probs = scratch[7]
    hands = np.zeros(n, dtype=np.uint64)
    us = np.full((n, 4), 0.5)
    info = np.zeros(I_SIZE, dtype=np.int64)
    row = np.zeros(actions_count, dtype=np.int64)
    choices = np.zeros(16, dtype=np.int64)
    acts = np.zeros(16, dtype=np.int64)
    combos = 4 ** (n - 1)
    dealer = n - 1
    for d in range(trumps.shape[0]):
        for s in range(n):
            hands[s] = deals_hands[d, s]
        trump_card = trumps[d]
        stock = stocks[d]
        rank = trump_card & 15
        deals[rank] += 1.0
        for t in range(n):
            for world in range(2):  # 0: the dealer did not knock, 1: he knocked
                if world == 1 and (rp[R_KNOCK] == 0 or t == dealer):
                    continue
                p_world = 1.0
                if rp[R_KNOCK] == 1 and t != dealer:
                    p_world = knock_prob[rank] if world == 1 else 1.0 - knock_prob[rank]
                if p_world == 0.0:
                    continue
                for code in range(combos):
                    if not force_outcomes(forced, code, n, t, world == 1):
                        continue
                    info[:] = 0
                    prob, count = traverse_deal(hands, trump_card, stock, n, t, world == 1, rp, pol, play, us,
                                                deck_mask, info, row, scratch, choices, acts)
                    if info[I_REACHED] == 0 or prob == 0.0:
                        continue
                    ctx, x, thr = info[I_CTX], info[I_SCORE], info[I_THROWABLE]
                    for c in range(count):
                        a = acts[c]
                        w = p_world * prob * probs[c]
                        q[t, ctx, x, thr, a] += w * row[a]
                        legal[t, ctx, x, thr, a] = 1.0
                        if t == dealer:
                            dealer_q[rank, ctx, x, thr, a] += w * row[a]
                            dealer_legal[rank, ctx, x, thr, a] = 1.0
            if t == dealer and rp[R_KNOCK] == 1:  # his own blind knock on this deal
                for code in range(combos):
                    if not force_outcomes(forced, code, n, t, False):
                        continue
                    score, prob = knock_value(hands, trump_card, stock, n, rp, pol, play, us, deck_mask,
                                              scratch)
                    knock[rank] += prob * score
        for s in range(n):
            forced[s] = -1
    return q, legal, dealer_q, dealer_legal, knock, deals


def check_tiny(rules: RuleSet) -> None:
    if rules.exchange_limit != 0:
        raise RulesError("exact enumeration needs exchange_limit = 0 (the stock's order must not matter)")
    if rules.deck_size > 10:
        raise RulesError(f"exact enumeration visits every deal: {rules.deck_size} cards is too many (at most 10)")
    if rules.jack_of_trump_forces_play:
        raise RulesError("exact enumeration needs jack_of_trump_forces_play = false (the allowed actions must not "
                         "depend on the card turned)")


def _by_bucket(values: np.ndarray, abstraction) -> np.ndarray:
    """Sum over the hand scores of each bucket (axis -3 of ``[..., NSCORE, 2, actions]``)."""
    bucket = abstraction.bucket_array()
    out = np.zeros(values.shape[:-3] + (abstraction.buckets,) + values.shape[-2:])
    for x in range(P.NSCORE):
        out[..., bucket[x], :, :] += values[..., x, :, :]
    return out


def _mixed(q: np.ndarray, legal: np.ndarray, word: np.ndarray, throw: np.ndarray) -> float:
    """The strategy's value: ``q``/``legal`` by [ctx, bucket, throwable, action]; word/throw its probabilities."""
    total = 0.0
    for ctx, b, thr in itertools.product(range(q.shape[0]), range(q.shape[1]), range(2)):
        ok = legal[ctx, b, thr, :-1] > 0
        if not ok.any():
            continue
        sigma = word[ctx, b] * ok
        sigma = sigma / sigma.sum() if sigma.sum() > 0 else ok / ok.sum()
        value = float((sigma * q[ctx, b, thr, :-1]).sum())
        total += (1 - throw[ctx, b]) * value if thr else value
    return total


def _best(q: np.ndarray, legal: np.ndarray) -> float:
    """The best pure response: per (context, bucket) one word for both kinds of hand, a throw-in where allowed."""
    total = 0.0
    for ctx, b in itertools.product(range(q.shape[0]), range(q.shape[1])):
        ok = (legal[ctx, b, 0, :-1] > 0) | (legal[ctx, b, 1, :-1] > 0)
        if not ok.any():
            continue
        values = [q[ctx, b, 0, a] + min(0.0, q[ctx, b, 1, a]) for a in np.flatnonzero(ok)]
        total += min(values)
    return total


def exact_gains(rules: RuleSet, players: int, abstraction, strategy: Strategy, play: int) -> np.ndarray:
    """Per seat: the exact points per deal a best response over the abstraction gains against the others."""
    check_tiny(rules)
    pol = to_policy(strategy, abstraction)
    q, legal, dq, dl, knock, deals = exact_values(*every_deal(rules, players), players, rules_array(rules),
                                                  pol.as_tuple(), strategy.knock, play, action_count(rules))
    total = deals.sum()
    assert total == deal_count(rules, players)
    qb, lb = _by_bucket(q, abstraction), _by_bucket(legal, abstraction)
    gains = np.zeros(players)
    for seat in range(players):
        word, throw = strategy.word[seat], strategy.throw[seat]
        if rules.knock and seat == players - 1:
            dqb, dlb = _by_bucket(dq, abstraction), _by_bucket(dl, abstraction)
            ranks = [r for r in range(16) if deals[r] > 0]
            kappa = strategy.knock
            mixed = sum(kappa[r] * knock[r] + (1 - kappa[r]) * _mixed(dqb[r], dlb[r], word, throw) for r in ranks)
            best = np.inf
            for knocks in itertools.product((False, True), repeat=len(ranks)):  # the joint best response
                talk = [r for r, k in zip(ranks, knocks) if not k]
                value = sum(knock[r] for r, k in zip(ranks, knocks) if k)
                if talk:
                    value += _best(sum(dqb[r] for r in talk), np.maximum.reduce([dlb[r] for r in talk]))
                best = min(best, value)
            gains[seat] = (mixed - best) / total
        else:
            gains[seat] = (_mixed(qb[seat], lb[seat], word, throw) - _best(qb[seat], lb[seat])) / total
    return gains


def deal_count(rules: RuleSet, players: int) -> int:
    cards, count = rules.deck_size, 1
    for _ in range(players):
        count *= comb(cards, rules.hand_size)
        cards -= rules.hand_size
    return count * cards  # then the card turned; the stock's order does not matter


__all__ = ["exact_values", "exact_gains", "check_tiny", "canonical_deals", "every_deal", "deal_count", "force_outcomes"]
