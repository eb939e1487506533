"""Plain-Python twin of ``condition.py`` and of the opponent decisions of ``policy.py``.

Readable, not fast: a hand is a set of card ids, the counting of hands by
score is a dictionary. Random numbers are drawn exactly where the kernel
draws them (docs/SIMULATION.md "Random numbers, exactly"), so the twin
reproduces the kernel deal by deal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..cards import RANKS
from ..engine import policy as P
from ..game import speaking
from ..opponents.policies import Policy
from ..rules import RuleSet
from .common import Stream, rank_of

MAX_TRIES = 1_000_000


# -- what a seat knows and may say --------------------------------------------------
@dataclass(frozen=True)
class Turn:
    """Seat ``s`` at his turn to speak: his context and which actions the rules allow."""

    ctx: int
    pass_ok: bool
    rumba_ok: bool
    throw_ok: bool


def turn_of(s: int, words: list[int], rumba_seat: int, knocked: bool, jack_forced: bool, rules: RuleSet) -> Turn:
    """docs/SIMULATION.md "Opponent policies": the context counts the players before him; what he may say is the
    game's speaking rules (``rumbaodds.game.speaking``) before his hand is known (the throw-in still needs his
    cards all below ``throw_in_below``, and a lone flemish dealer's Rumba is the caller's check)."""
    players = sum(1 for w in words[:s] if w == P.W_PLAY)
    caller = None if rumba_seat < 0 else rumba_seat
    pass_ok = not speaking.must_play(rules, s, caller, knocked, jack_forced)
    if knocked:
        return Turn(P.CTX_KNOCK + min(players, 2), pass_ok, False, False)
    throw_ok = speaking.throw_in_open(rules, False, caller is not None)
    rumba_ok = speaking.may_call_rumba(rules, s + 1, s, caller, False, all_before_passed=False)  # no lone check
    if speaking.rumba_first(rules, knocked):
        return Turn(P.CTX_ROUND1, True, rumba_ok, throw_ok)
    if caller is not None:
        return Turn(P.CTX_RUMBA + min(players, 2), pass_ok, False, throw_ok)
    return Turn(P.CTX_OPEN + min(players, 3), pass_ok, rumba_ok, throw_ok)


def row(policy: Policy, s: int, ctx: int, score: int, pass_ok: bool, rumba_ok: bool) -> tuple[float, float, float]:
    """P(pass, play, rumba) without the actions the rules forbid; nothing allowed left: play."""
    p0 = float(policy.words[s, ctx, score, 0]) if pass_ok else 0.0
    p1 = float(policy.words[s, ctx, score, 1])
    p2 = float(policy.words[s, ctx, score, 2]) if rumba_ok else 0.0
    total = p0 + p1 + p2
    if total <= 0.0:
        return 0.0, 1.0, 0.0
    return p0 / total, p1 / total, p2 / total


def pick(q: tuple[float, float, float], u: float) -> int:
    if u < q[0]:
        return P.W_PASS
    if u < q[0] + q[1]:
        return P.W_PLAY
    if q[2] > 0.0:
        return P.W_RUMBA
    return P.W_PLAY if q[1] > 0.0 else P.W_PASS


def probability(q: tuple[float, float, float], word: int) -> float:
    """P(word); W_NONE ("-") means not Rumba."""
    if word == P.W_NONE:
        return q[0] + q[1]
    return q[word]


def pick_not_rumba(q: tuple[float, float, float], u: float) -> int:
    total = q[0] + q[1]
    if total <= 0.0:
        return P.W_PLAY
    return P.W_PASS if u < q[0] / total else P.W_PLAY


def may_throw_in(cards, rules: RuleSet) -> bool:
    """All cards below ``throw_in_below`` (swiss: 6..9) [D-4]: the game's rule."""
    return speaking.all_below(rules, cards)


def top_of(rules: RuleSet) -> int:
    return RANKS.index(rules.ranks[-1])


def four_numbers(stream: Stream) -> list[float]:
    """A seat's decision numbers: throw-in, word, round-two word, exchange."""
    return [stream.uniform() for _ in range(4)]


# -- drawing one hand exactly from its conditional distribution --------------------------
def acceptance_of(policy: Policy, s: int, turn: Turn, word: int, stretched: bool, stretch) -> dict:
    """``{(score, eligible): P(no throw-in and the word)}``."""
    out = {}
    for x in range(P.NSCORE):
        if stretched:
            p_word = float(stretch[s, x])
        else:
            p_word = probability(row(policy, s, turn.ctx, x, turn.pass_ok, turn.rumba_ok), word)
        out[x, 0] = p_word
        out[x, 1] = p_word * (1.0 - float(policy.throws[s, turn.ctx, x])) if turn.throw_ok else p_word
    return out


def draw_exactly(pool: list[int], pos: int, k: int, fixed_value: int, fixed_high: bool, excluded: int, alpha: dict,
                 policy: Policy, seat: int, trump: int, top: int, below_rank: int, stream: Stream) -> float:
    """Put ``k`` cards drawn from the exact conditional distribution at ``pool[pos:pos+k]``; return Z."""
    # groups of interchangeable cards: (value, high card), in pool order
    members: dict[int, list[int]] = {}
    candidates = 0
    for card in pool[pos:]:
        if card == excluded:
            continue
        g = policy.card_score(card, trump, top, seat) * 2 + (1 if rank_of(card) >= below_rank else 0)
        members.setdefault(g, []).append(card)
        candidates += 1
    groups = sorted(members)
    # tables[i][(j, x, e)]: hands of j cards from the first i groups, score x, e = holds a high card
    tables = [{(0, 0, 0): 1.0}]
    for g in groups:
        value, high, size = g // 2, g % 2, len(members[g])
        new: dict = {}
        for (j, x, e), ways in tables[-1].items():
            for take in range(min(size, k - j) + 1):
                if x + take * value >= P.NSCORE:
                    break
                key = (j + take, x + take * value, 1 if (e or (high and take > 0)) else 0)
                new[key] = new.get(key, 0.0) + ways * float(math.comb(size, take))
        tables.append(new)
    final = tables[-1]

    def mass(x: int, e: int) -> float:
        ways = final.get((k, x, e), 0.0)
        if ways <= 0.0:
            return 0.0
        high = 1 if (e or fixed_high) else 0
        return ways * alpha[min(x + fixed_value, P.NSCORE - 1), 1 - high]

    total = 0.0
    for x in range(P.NSCORE):
        for e in range(2):
            total += mass(x, e)
    if total <= 0.0:
        return 0.0
    target = stream.uniform() * total
    options = [(x, e) for x in range(P.NSCORE) for e in range(2) if mass(x, e) > 0.0]
    x, e = _first_past(options, [mass(*o) for o in options], target)
    # how many cards of each group, the last group first
    left = k
    taken = {}
    for i in range(len(groups) - 1, -1, -1):
        g = groups[i]
        value, high, size = g // 2, g % 2, len(members[g])
        choices, weights = [], []
        for take in range(min(size, left) + 1):
            if x - take * value < 0:
                break
            for prev in range(2):
                if high and take > 0:
                    if e != 1:
                        continue
                elif prev != e:
                    continue
                w = float(math.comb(size, take)) * tables[i].get((left - take, x - take * value, prev), 0.0)
                choices.append((take, prev))
                weights.append(w)
        target = stream.uniform() * sum(weights)
        positive = [(c, w) for c, w in zip(choices, weights) if w > 0.0]
        take, prev = _first_past([c for c, _ in positive], [w for _, w in positive], target)
        taken[g] = take
        left -= take
        x -= take * value
        e = prev
    # the cards: a partial shuffle inside each group, groups in ascending order
    placed = 0
    for g in groups:
        cards = members[g]
        for t in range(taken[g]):
            r = t + stream.below(len(cards) - t)
            cards[t], cards[r] = cards[r], cards[t]
            j = pool.index(cards[t], pos + placed)
            pool[j], pool[pos + placed] = pool[pos + placed], pool[j]
            placed += 1
    return total / float(math.comb(candidates, k))


def _first_past(options: list, weights: list[float], target: float):
    """The first option whose running total of weights exceeds ``target`` (the last one if rounding misses)."""
    acc = 0.0
    for option, w in zip(options, weights):
        acc += w
        if target < acc:
            return option
    return options[-1]


# -- the conditioned deal (docs/SIMULATION.md steps 1-2) ---------------------------------
@dataclass
class EarlierSeats:
    """The earlier seats as dealt: hands, words, decision numbers, and the sample's weight."""

    hands: list[set[int]]
    words: list[int]
    numbers: list[list[float]]
    rumba_seat: int
    weight: float
    rest: list[int]  # the other unknown cards, shuffled: the later seats' hands, then the stock
    tries: int


def deal_earlier_seats(rules: RuleSet, players: int, seat: int, unknown: list[int], trump_card: int, policy: Policy,
                       plan, knocked: bool, swapped_by: int, stream: Stream) -> EarlierSeats:
    """Deal seats 0..seat-1 as the hero saw them (easy seats by rejection, hard ones exactly)."""
    words_plan, hard, stretched, stretch = list(plan.words), list(plan.hard), list(plan.stretched), plan.stretch
    excluded = [int(x) for x in plan.excluded]
    trump = trump_card // 16
    top = top_of(rules)
    below_rank = RANKS.index(rules.throw_in_below)
    jack_forced = rules.jack_of_trump_forces_play and rank_of(trump_card) == RANKS.index("J")
    rumba_first = rules.speaking_order == "rumba-first" and not knocked  # after a knock: only join or pass
    for tries in range(1, MAX_TRIES + 1):
        pool = list(unknown)
        pos = 0
        weight = 1.0
        rumba_seat = -1
        hands: list[set[int]] = []
        words: list[int] = [P.W_NONE] * seat
        numbers: list[list[float]] = []
        ok = True
        for s in range(seat):
            k = rules.hand_size - (1 if s == swapped_by else 0)
            turn = turn_of(s, words, rumba_seat, knocked, jack_forced, rules)
            unasked = rumba_first and rumba_seat >= 0  # no round-one turn after a Rumba
            if hard[s] and not unasked:
                alpha = acceptance_of(policy, s, turn, words_plan[s], bool(stretched[s]), stretch)
                fixed_value = policy.card_score(trump_card, trump, top, s) if s == swapped_by else 0
                fixed_high = s == swapped_by and rank_of(trump_card) >= below_rank
                z = draw_exactly(pool, pos, k, fixed_value, fixed_high, excluded[s], alpha, policy, s, trump, top,
                                 below_rank, stream)
                if z <= 0.0:
                    ok = False
                    break
                weight *= z
            else:
                for j in range(k):  # the next steps of one Fisher-Yates shuffle
                    r = pos + j + stream.below(len(pool) - pos - j)
                    pool[pos + j], pool[r] = pool[r], pool[pos + j]
            hand = set(pool[pos:pos + k]) | ({trump_card} if s == swapped_by else set())
            pos += k
            hands.append(hand)
            if excluded[s] in hand:  # he would have swapped the two of trump [D-9]
                ok = False
                break
            numbers.append(four_numbers(stream))
            score = policy.score(hand, trump, top, s)
            q = row(policy, s, turn.ctx, score, turn.pass_ok, turn.rumba_ok)
            if unasked:
                word = P.W_NONE
            elif hard[s]:
                word = words_plan[s]
                if word == P.W_NONE and not rumba_first:
                    word = pick_not_rumba(q, numbers[s][1])
            else:
                if turn.throw_ok and may_throw_in(hand, rules) and numbers[s][0] < policy.throws[s, turn.ctx, score]:
                    ok = False  # he threw in: the hero would not be asking
                    break
                word = pick(q, numbers[s][1])
                wanted = words_plan[s]
                if (wanted == P.W_NONE and word == P.W_RUMBA) or (wanted != P.W_NONE and rumba_first and
                                                                   word != P.W_RUMBA) \
                        or (wanted != P.W_NONE and not rumba_first and word != wanted):
                    ok = False
                    break
            if rumba_first and word != P.W_RUMBA:
                word = P.W_NONE  # round one: not said play or pass yet
            words[s] = word
            if word == P.W_RUMBA:
                rumba_seat = s
        if not ok:
            continue
        rest = pool[pos:]
        for j in range(len(rest)):  # the rest of the shuffle
            r = j + stream.below(len(rest) - j)
            rest[j], rest[r] = rest[r], rest[j]
        return EarlierSeats(hands, words, numbers, rumba_seat, weight, rest, tries)
    raise ValueError("no deal matches what the earlier seats did: the situation is impossible")


__all__ = ["Turn", "turn_of", "row", "pick", "probability", "pick_not_rumba", "deal_earlier_seats", "draw_exactly",
           "acceptance_of", "four_numbers", "may_throw_in", "top_of"]
