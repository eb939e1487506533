"""Plain-Python twin of ``game.traverse_batch`` and ``traverse_full``: one traversal, readable, on the game's state
machine.

The same deal (one Fisher-Yates of the whole deck), the same decision
numbers, the knock drawn the same way, the earlier seats speaking by the
policy, then every legal action of the traverser (the words the
:class:`rumbaodds.game.HandState` allows him, with 0..exchange_limit discards
in a normal game) played out by the twin's speaking, exchange, play and score.
The kernel's ``legal_choices`` is the fast path of the same rule; the test
keeps the two equal deal by deal.
"""

from __future__ import annotations

from ..game import HandState, Knock, Phase, SwapTwo, Word, speaking
from ..match.score import THROWN_IN
from ..match.twin import hand_result, play_state
from ..opponents.policies import Policy
from ..rules import RuleSet
from ..twins import hand as th
from ..twins.common import Stream
from ..twins.condition import four_numbers, turn_of
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
    state = HandState(rules, dealt, trump_card, stock, rng=th.stream_at(0))
    sit = th.Situation(rules, n, traverser, trump_card, policy, knocked)
    if knocked:  # the knocking dealer takes the turned card for his weakest card if it is stronger [D-3]
        state.apply(Knock(th.knock_discard(state.hands[n - 1], trump_card, sit.trump)))
    while state.phase is Phase.SPEAK and state.to_act < traverser:  # the seats before him, by the policy
        th.opponent_speaks(sit, state, numbers)
    codes = [th.WORD_CODE[w] for w in state.words[:traverser]] if not state.done else []
    return {"dealt": dealt, "hands": state.hands, "trump_card": trump_card, "stock": stock, "numbers": numbers,
            "rank": rank, "knocked": knocked, "codes": codes,
            "rumba_seat": -1 if state.rumba_seat is None else state.rumba_seat,
            "void": state.thrown_in_by is not None, "table": state.table_card, "state": state, "situation": sit}


def twin_traverse(rules: RuleSet, players: int, traverser: int, policy: Policy, knock_prob, play: str, seed: int,
                  index: int, every_seat: dict | None = None) -> tuple[dict, list[int]]:
    """({reached, ctx, score, throwable, rank, knock_score, knock_done, void}, score per action or UNSET).

    ``every_seat`` (a dict, filled): the twin of ``game.traverse_full``, {action: (kind, every seat's change
    without the sit-out penalty, passed flags)} with every action played to the end by every seat.
    """
    n = players
    d = deal_and_speak(rules, players, traverser, policy, knock_prob, seed, index)
    info = {"reached": 0, "ctx": 0, "score": 0, "throwable": 0, "rank": d["rank"], "knock_score": 0,
            "knock_done": 0, "void": 0}
    actions = A_PLAY + rules.exchange_limit + 2
    q = [UNSET] * actions
    dealer = n - 1
    state, sit, numbers = d["state"], d["situation"], d["numbers"]
    if rules.knock and traverser == dealer:
        info["knock_score"] = _knock_score(rules, n, d["dealt"], d["trump_card"], d["stock"], policy, numbers, play)
        info["knock_done"] = 1
    if d["void"]:
        info["void"] = 1
        return info, q
    info["reached"] = 1
    turn = turn_of(traverser, d["codes"], dealer if sit.knocked else d["rumba_seat"], sit.knocked,
                   sit.jack_forces_play, rules)
    if state.may_swap():  # he swaps the two of trump when he can [D-9]
        state.apply(SwapTwo())
    score = policy.score(state.hands[traverser], sit.trump, sit.top, traverser)
    legal = state.legal_words()  # the game's rules: what he may say here
    info.update(ctx=turn.ctx, score=score, throwable=int(Word.THROW_IN in legal))
    choices = []
    if Word.PASS in legal:
        choices.append(("pass", 0, A_PASS))
    if Word.RUMBA in legal:
        choices.append(("rumba", 0, A_RUMBA))
    plays = speaking.exchange_counts(rules) if state.rumba_seat is None else [0]  # the exchange: a normal game only
    choices += [("play", k, A_PLAY + k) for k in plays]
    for word, k, action in choices:
        mine = state.copy()
        mine.rng = th.stream_at(0)
        spoken = th.speak_on(sit, mine, numbers, word)
        if every_seat is None:
            q[action] = th.finish_hand(sit, spoken, k, numbers, play, 0)[0]
        else:  # every seat plays to the end, also when he passes (the game's hand: match/twin.py)
            if spoken.state.phase is Phase.EXCHANGE:
                th.exchange_by_policy(sit, spoken.state, k, numbers)
            every_seat[action] = hand_result(play_state(sit, spoken.state, numbers, play))
            q[action] = every_seat[action][1][traverser]
    if Word.THROW_IN in legal:
        q[actions - 1] = 0  # a throw-in: void [D-4]
        if every_seat is not None:
            every_seat[actions - 1] = (THROWN_IN, [0] * n, [0] * n)
    return info, q


def _knock_score(rules, n, hands, trump_card, stock, policy, numbers, play) -> int:
    """The dealer's score when he knocks blind on this deal [D-3] (the others answer by the policy)."""
    sit = th.Situation(rules, n, n - 1, trump_card, policy, True)
    state = HandState(rules, hands, trump_card, stock, rng=th.stream_at(0))
    state.apply(Knock(th.knock_discard(state.hands[n - 1], trump_card, sit.trump)))
    while state.phase is Phase.SPEAK:
        th.opponent_speaks(sit, state, numbers)
    return th.finish_hand(sit, th.Speaking(state), 0, numbers, play, 0)[0]


__all__ = ["twin_traverse", "deal_and_speak"]
