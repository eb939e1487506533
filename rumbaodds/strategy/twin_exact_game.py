"""Plain-Python twin of ``exact_game.deal_records``: one deal's hand under a profile, on the game's state machine.

Every seat but ``t`` speaks by its policy row, each of its outcomes a branch
weighted by the row's probability (the throw-in first, where the rules allow
it); seat ``t`` takes each word the :class:`rumbaodds.game.HandState` allows
him, and the hand is played to its end (``match.twin``). Nothing is forced
and nothing is drawn, so the branches need no bookkeeping of outcomes that
repeat: the kernel's enumeration of forced combinations must sum to the same.
"""

from __future__ import annotations

from collections import defaultdict

from ..engine import policy as P
from ..game import HandState, Phase, Say, Word
from ..match.score import THROWN_IN
from ..match.twin import hand_result, play_state
from ..opponents.policies import Policy
from ..rules import RuleSet
from ..twins import hand as th
from ..twins.condition import row, turn_of
from .game import A_PASS, A_PLAY, A_RUMBA

WORDS = ((P.W_PASS, Word.PASS), (P.W_PLAY, Word.PLAY), (P.W_RUMBA, Word.RUMBA))


def twin_deal(rules: RuleSet, n: int, t: int, policy: Policy, hands: list[set[int]], trump_card: int,
              stock: list[int], play: str) -> tuple[dict, dict, dict]:
    """(decided, void, mixed) of one deal for seat ``t``.

    ``decided``: {(ctx, hand score, may throw in, action): {result: the others' probability}}; ``void``: {result:
    probability} where an earlier seat threw in; ``mixed``: {result: probability} with ``t`` too by his row. A
    result is (kind, changes by seat, passed by seat).
    """
    decided: dict = defaultdict(lambda: defaultdict(float))
    void: dict = defaultdict(float)
    mixed: dict = defaultdict(float)
    sit = th.Situation(rules, n, t, trump_card, policy, False)
    numbers = [[0.5] * 4 for _ in range(n)]
    throw_action = A_PLAY + rules.exchange_limit + 1

    def finish(state: HandState) -> tuple:
        if state.phase is Phase.SPEAK:
            raise AssertionError("finish before speaking ended")
        kind, changes, passed = hand_result(play_state(sit, state, numbers, play))
        return kind, tuple(changes), tuple(passed)

    def options(state: HandState) -> tuple[tuple, list]:
        """(his information set, [(word, action, the row's probability)]) of the seat to act."""
        s = state.to_act
        codes = [th.WORD_CODE[w] for w in state.words]
        caller = -1 if state.rumba_seat is None else state.rumba_seat
        legal = state.legal_words()
        ctx = turn_of(s, codes, caller, False, sit.jack_forces_play, rules).ctx
        score = sit.score(state.hands[s], s)
        throwable = Word.THROW_IN in legal
        p_throw = float(policy.throws[s, ctx, score]) if throwable else 0.0
        pass_ok, rumba_ok = th.rights(legal)
        q = row(policy, s, ctx, score, pass_ok, rumba_ok)
        actions = {Word.PASS: A_PASS, Word.RUMBA: A_RUMBA, Word.PLAY: A_PLAY}
        out = [(word, actions[word], (1.0 - p_throw) * q[code]) for code, word in WORDS if word in legal]
        if throwable:
            out.append((Word.THROW_IN, throw_action, p_throw))
        return (ctx, score, int(throwable)), out

    def walk(state: HandState, others: float, mine: float, decision: tuple | None) -> None:
        if state.phase is not Phase.SPEAK:
            result = (THROWN_IN, (0,) * n, (0,) * n) if state.thrown_in_by is not None else finish(state)
            mixed[result] += others * mine
            if decision is None:
                void[result] += others
            else:
                decided[decision][result] += others
            return
        info, choices = options(state)
        for word, action, p in choices:
            nxt = state.copy()
            nxt.apply(Say(word))
            if state.to_act == t:
                walk(nxt, others, mine * p, info + (action,))
            elif p > 0.0:
                walk(nxt, others * p, mine, decision)

    start = HandState(rules, [set(h) for h in hands], trump_card, list(stock), rng=th.stream_at(0))
    walk(start, 1.0, 1.0, None)
    return ({k: dict(v) for k, v in decided.items()}, dict(void), dict(mixed))


__all__ = ["twin_deal"]
