"""Plain-Python twin of ``game.traverse_batch``: one traversal, readable, from the engine's twin.

The same deal (one Fisher-Yates of the whole deck), the same decision
numbers, the knock drawn the same way, the earlier seats speaking by the
policy, then every legal action of the traverser played out by the twin's
own speaking, exchange, play and score.
"""

from __future__ import annotations

from ..engine import policy as P
from ..engine import twin_hand as th
from ..engine.twin import Stream
from ..engine.twin_condition import four_numbers, may_throw_in, turn_of
from ..policies import Policy
from ..rules import RuleSet
from .game import A_PASS, A_PLAY, A_RUMBA, UNSET


def deal_and_speak(rules: RuleSet, players: int, traverser: int, policy: Policy, knock_prob, seed: int,
                   index: int) -> dict:
    """The traversal's deal (one Fisher-Yates of the whole deck) and the seats before the traverser speaking."""
    n, size = players, rules.hand_size
    deck = list(rules.deck)
    stream = Stream(seed, index)
    for j in range(len(deck)):
        r = j + stream.below(len(deck) - j)
        deck[j], deck[r] = deck[r], deck[j]
    dealt = [set(deck[s * size:(s + 1) * size]) for s in range(n)]
    trump_card = deck[n * size]
    stock = deck[n * size + 1:]
    numbers = [four_numbers(stream) for _ in range(n)]
    u_knock = stream.uniform()
    rank = trump_card % 16
    knocked = rules.knock and traverser != n - 1 and u_knock < float(knock_prob[rank])
    hands = [set(h) for h in dealt]
    table = trump_card
    if knocked:
        sit = th.Situation(rules, n, traverser, trump_card, policy, True)
        table = th.knocker_takes_turned_card(hands[n - 1], trump_card, sit.trump)
    early = th.Situation(rules, n, 0, trump_card, policy, knocked)
    codes, rumba_seat, void, table = _speak_before(early, hands, numbers, traverser, table)
    return {"dealt": dealt, "hands": hands, "trump_card": trump_card, "stock": stock, "numbers": numbers,
            "rank": rank, "knocked": knocked, "codes": codes, "rumba_seat": rumba_seat, "void": void, "table": table}


def twin_traverse(rules: RuleSet, players: int, traverser: int, policy: Policy, knock_prob, play: str, seed: int,
                  index: int) -> tuple[dict, list[int]]:
    """({reached, ctx, score, throwable, rank, knock_score, knock_done, void}, score per action or UNSET)."""
    n = players
    d = deal_and_speak(rules, players, traverser, policy, knock_prob, seed, index)
    info = {"reached": 0, "ctx": 0, "score": 0, "throwable": 0, "rank": d["rank"], "knock_score": 0,
            "knock_done": 0, "void": 0}
    actions = A_PLAY + rules.exchange_limit + 2
    q = [UNSET] * actions
    dealer = n - 1
    knocked, hands, table, codes, stock, numbers = (d["knocked"], d["hands"], d["table"], d["codes"], d["stock"],
                                                    d["numbers"])
    trump_card = d["trump_card"]
    if rules.knock and traverser == dealer:
        info["knock_score"] = _knock_score(rules, n, d["dealt"], trump_card, stock, policy, numbers, play)
        info["knock_done"] = 1
    if d["void"]:
        info["void"] = 1
        return info, q
    sit = th.Situation(rules, n, traverser, trump_card, policy, knocked)
    rumba_seat = d["rumba_seat"]
    info["reached"] = 1
    turn = turn_of(traverser, codes, dealer if knocked else rumba_seat, knocked, sit.jack_forces_play, rules)
    if sit.may_swap(hands[traverser], table):
        two = th.two_of_trump(trump_card)
        hands[traverser] = (hands[traverser] - {two}) | {trump_card}
        table = two
    score = policy.score(hands[traverser], sit.trump, sit.top, traverser)
    throwable = turn.throw_ok and may_throw_in(hands[traverser], rules)
    rumba_ok = turn.rumba_ok
    if rumba_ok and traverser == dealer and not rules.lone_rumba_allowed and P.W_PLAY not in codes:
        rumba_ok = False
    info.update(ctx=turn.ctx, score=score, throwable=int(throwable))
    choices = []
    if turn.pass_ok:
        choices.append(("pass", 0, A_PASS))
    if rumba_ok:
        choices.append(("rumba", 0, A_RUMBA))
    plays = rules.exchange_limit + 1 if turn.ctx < P.CTX_RUMBA else 1
    choices += [("play", k, A_PLAY + k) for k in range(plays)]
    for word, k, action in choices:
        mine = [set(h) for h in hands]
        spoken = th.speak(sit, mine, codes, numbers, word, table, dealer if knocked else rumba_seat)
        q[action] = th.finish_hand(sit, mine, spoken, stock, k, numbers, 0, play, 0)[0]
    if throwable:
        q[actions - 1] = 0  # a throw-in: void [D-4]
    return info, q


def _speak_before(sit: th.Situation, hands, numbers, upto: int, table):
    """Seats 0..upto-1 speak by the policy (the twin's rules of speaking); (codes, Rumba seat, void, table)."""
    rules, policy, n = sit.rules, sit.policy, sit.players
    codes: list[int] = []
    rumba_seat = n - 1 if sit.knocked else -1
    for s in range(upto):
        turn = turn_of(s, codes, rumba_seat, sit.knocked, sit.jack_forces_play, rules)
        score = sit.score(hands[s], s)
        if sit.knocked:
            codes.append(_pick(policy, s, turn, score, numbers[s][1]))
            continue
        if sit.may_swap(hands[s], table) and policy.swaps(s):
            two = th.two_of_trump(sit.trump_card)
            hands[s] = (hands[s] - {two}) | {sit.trump_card}
            table = two
            score = sit.score(hands[s], s)
        if turn.throw_ok and may_throw_in(hands[s], rules) and numbers[s][0] < policy.throws[s, turn.ctx, score]:
            return codes, rumba_seat, True, table
        word = _pick(policy, s, turn, score, numbers[s][1])
        if word == P.W_RUMBA:
            rumba_seat = s
        codes.append(word)
    return codes, rumba_seat, False, table


def _pick(policy, s, turn, score, u):
    from ..engine.twin_condition import pick, row

    return pick(row(policy, s, turn.ctx, score, turn.pass_ok, turn.rumba_ok), u)


def _knock_score(rules, n, hands, trump_card, stock, policy, numbers, play) -> int:
    hands = [set(h) for h in hands]
    sit = th.Situation(rules, n, n - 1, trump_card, policy, True)
    table = th.knocker_takes_turned_card(hands[n - 1], trump_card, sit.trump)
    codes: list[int] = []
    for s in range(n - 1):
        turn = turn_of(s, codes, n - 1, True, sit.jack_forces_play, rules)
        codes.append(_pick(policy, s, turn, sit.score(hands[s], s), numbers[s][1]))
    spoken = th.Speaking([th.WORD[c] or "pass" for c in codes] + ["rumba"], n - 1, False, table)
    return th.finish_hand(sit, hands, spoken, stock, 0, numbers, 0, play, 0)[0]


__all__ = ["twin_traverse", "deal_and_speak"]
