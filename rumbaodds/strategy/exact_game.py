"""The exact score-aware game on a tiny rule set: what the score-aware solver is checked against (issue 38).

Two steps, each exact:

1. **One hand under a profile.** Every deal is visited once (every split of
   the deck into hands and the card turned; the rule set must not exchange,
   so the stock's order never matters). For a player at seat ``t`` every
   combination of the other seats' outcomes (pass, play, Rumba, throw-in) is
   forced through the engine's own speaking, weighted by the probability
   their policy rows give it, and each of his legal actions is played to the
   end by every seat (``game.traverse_deal`` with ``full``): his information
   set, the action, its weight and the hand's result for every seat
   (:func:`deal_records`). His own policy's probability of each action is
   taken as the engine takes it for a seat that is not asked
   (``speak_seats``: the masked row, the throw-in first).
2. **The game.** Score states (scores, streaks as far as they matter,
   dealer) reachable from the start are found breadth first; in each, every
   seat plays the row of his score class. A hand's result moves the state as
   ``score.apply_hand`` does, and a game that ends is paid by
   ``score.settle``. Values then follow by value iteration: the profile's
   own (``sigma``), and one player's best response, which in every state
   picks per (context, strength bucket) one word and whether to throw in
   where he may (the hand as the strategies see it, the score state in full,
   finer than the classes). States above ``cap`` points end the game worth
   nothing; the chance of reaching one is reported.

A player's exploitability is his best response's gain over the profile's
value at the start, divided by the hands a game lasts (stakes per hand
dealt, the solver's unit). The dealer's blind knock is not enumerated: the
rule set must have ``knock = false``.
"""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..engine import policy as P
from ..engine.bits import U0, bit
from ..engine.hand import new_scratch
from ..engine.policy import masked_row
from ..engine.rules_layout import rules_array
from ..engine.speak import C_PASS, C_RUMBA, C_THROW_IN
from ..match.exact import streak_key
from ..match.kernel import new_hand_scratch
from ..match.score import THROWN_IN, apply_hand, game_array, game_over, settle
from ..rules import RulesError, RuleSet
from .exact import OUTCOMES, check_tiny, every_deal, force_outcomes
from .game import A_PASS, A_RUMBA, I_CTX, I_SCORE, I_SIZE, I_THROWABLE, I_VOID, traverse_deal
from .score_classes import seat_classes
from .tables import Strategy, action_count, to_policy


@njit(cache=True)
def _first_thrower(forced, lo, hi):
    """The first seat of ``lo .. hi-1`` forced to throw in (``hi``: none)."""
    for s in range(lo, hi):
        if forced[s] == P.W_THROW_IN:
            return s
    return hi


@njit(cache=True)
def _counted_once(forced, end, n, t):
    """Seats after ``end`` never speak, so only their first forced outcome counts (the others repeat the hand)."""
    for s in range(end + 1, n):
        if s != t and forced[s] != OUTCOMES[0]:
            return False
    return True


@njit(cache=True)
def deal_records(hands_all, trumps, stocks, n, t, rp, pol, play, actions_count):
    """Seat ``t``'s records over every deal and the others' forced outcomes.

    Per record: deal, ctx, hand score, may throw in, action (-1: no decision, an earlier seat threw in), weight
    (the probability of the others' outcomes), sigma (his own policy's probability of the action), the hand's kind
    and every seat's change (no sit-out penalty) and pass flag. Returns the arrays and the number of records.
    """
    count = hands_all.shape[0]
    combos = 4 ** (n - 1)
    cap = count * combos * actions_count
    deal = np.zeros(cap, dtype=np.int64)
    ints = np.zeros((cap, 5), dtype=np.int64)  # ctx, score, throwable, action, kind
    weight = np.zeros(cap)
    sigma = np.zeros(cap)
    changes = np.zeros((cap, n), dtype=np.int64)
    passed = np.zeros((cap, n), dtype=np.int64)
    deck_mask = U0
    for s in range(n):
        deck_mask |= hands_all[0, s]
    deck_mask |= bit(trumps[0])
    for c in stocks[0]:
        deck_mask |= bit(c)
    m = 0
    rest = deck_mask
    while rest:
        rest &= rest - np.uint64(1)
        m += 1
    scratch = new_scratch(n, m)
    forced = scratch[6]
    probs = scratch[7]
    us = np.full((n, 4), 0.5)
    info = np.zeros(I_SIZE, dtype=np.int64)
    row = np.zeros(actions_count, dtype=np.int64)
    choices = np.zeros(16, dtype=np.int64)
    acts = np.zeros(16, dtype=np.int64)
    full = (np.full(actions_count, -1, dtype=np.int64), np.zeros((actions_count, n), dtype=np.int64),
            np.zeros((actions_count, n), dtype=np.int64), new_hand_scratch(n, m))
    words, throws = pol[2], pol[3]
    k = 0
    for d in range(count):
        for code in range(combos):
            force_outcomes(forced, code, n, t, False)
            info[:] = 0
            prob, chosen = traverse_deal(hands_all[d], trumps[d], stocks[d], n, t, False, rp, pol, play, us,
                                         deck_mask, info, row, scratch, choices, acts, full)
            if info[I_VOID] == 1:  # an earlier seat threw in [D-4]: no decision of his, the hand is void
                if prob > 0.0 and _counted_once(forced, _first_thrower(forced, 0, t), n, t):
                    deal[k] = d
                    ints[k, 3] = -1
                    ints[k, 4] = THROWN_IN
                    weight[k] = prob
                    sigma[k] = 1.0
                    k += 1
                continue
            if prob == 0.0:
                continue
            ctx, x, throwable = info[I_CTX], info[I_SCORE], info[I_THROWABLE]
            pass_ok = False
            rumba_ok = False
            for c in range(chosen):
                pass_ok = pass_ok or acts[c] == A_PASS
                rumba_ok = rumba_ok or acts[c] == A_RUMBA
            q0, q1, q2 = masked_row(words, t, ctx, x, pass_ok, rumba_ok)
            p_throw = throws[t, ctx, x] if throwable == 1 else 0.0
            for c in range(chosen):
                a = acts[c]
                kind = full[0][a]
                end = n
                if choices[c] == C_THROW_IN:
                    end = t
                elif kind == THROWN_IN:
                    end = _first_thrower(forced, t + 1, n)
                w = prob * probs[c]
                if w == 0.0 or not _counted_once(forced, end, n, t):
                    continue
                if choices[c] == C_THROW_IN:
                    own = p_throw
                elif choices[c] == C_PASS:
                    own = (1.0 - p_throw) * q0
                elif choices[c] == C_RUMBA:
                    own = (1.0 - p_throw) * q2
                else:
                    own = (1.0 - p_throw) * q1
                deal[k] = d
                ints[k, 0] = ctx
                ints[k, 1] = x
                ints[k, 2] = throwable
                ints[k, 3] = a
                ints[k, 4] = kind
                weight[k] = w
                sigma[k] = own
                for s in range(n):
                    changes[k, s] = full[1][a, s]
                    passed[k, s] = full[2][a, s]
                k += 1
    return deal, ints, weight, sigma, changes, passed, k


def check_game_tiny(rules: RuleSet, players: int) -> None:
    check_tiny(rules)
    if rules.knock:
        raise RulesError("the exact game does not enumerate the dealer's blind knock: it needs knock = false")
    if rules.speaking_order != "one-round":
        raise RulesError("the exact game needs one round of speaking (round two draws its words)")


@dataclass
class SeatHand:
    """One seat's hand under a profile, summed over deals: by (context, bucket) group and action, the weight of
    each of the hand's results (``outcomes``: indices into the game's list), apart for hands he may throw in."""

    outcomes: np.ndarray  # [k] global outcome ids
    plain: np.ndarray  # [groups, actions, k]: hands he may not throw in
    throwable: np.ndarray  # [groups, actions, k]
    legal: np.ndarray  # [groups, actions]
    void: np.ndarray  # [k]: no decision of his (an earlier throw-in)
    sigma: np.ndarray  # [k]: the profile's distribution of results


class ExactGame:
    """Exact values of a score-aware profile and each player's best response on a tiny rule set."""

    def __init__(self, rules: RuleSet, players: int, abstraction, strategy: Strategy, play: int, cap: int = 40):
        check_game_tiny(rules, players)
        self.rules, self.n, self.abstraction, self.play, self.cap = rules, players, abstraction, play, cap
        self.rp, self.gp = rules_array(rules), game_array(rules)
        self.pol = to_policy(strategy, abstraction)
        self.actions = action_count(rules)
        self.deals = every_deal(rules, players)
        self.bucket = abstraction.bucket_array()
        self.outcome_ids: dict[tuple, int] = {}
        self.outcome_list: list[tuple] = []
        self._hands: dict[tuple, SeatHand] = {}

    # -- one hand ------------------------------------------------------------------------------------------------
    def seat_policy(self, classes: tuple) -> tuple:
        rows = np.array(classes) * self.n + np.arange(self.n)
        pol = self.pol
        return pol.ints[:self.n], pol.values[:self.n], pol.words[rows], pol.throws[rows], pol.exchanges[rows]

    def seat_hand(self, classes: tuple, t: int) -> SeatHand:
        """Seat ``t``'s hand where the seats' score classes are ``classes`` (computed once per distinct set of
        rows: classes the strategy plays alike share it)."""
        pol = self.seat_policy(classes)
        key = (hashlib.sha1(b"".join(np.ascontiguousarray(a).tobytes() for a in pol[2:])).hexdigest(), t)
        if key not in self._hands:
            self._hands[key] = self._seat_hand(pol, t)
        return self._hands[key]

    def _seat_hand(self, pol: tuple, t: int) -> SeatHand:
        hands, trumps, stocks = self.deals
        _d, ints, weight, sigma, changes, passed, k = deal_records(
            hands, trumps, stocks, self.n, t, self.rp, pol, self.play, self.actions)
        ints, weight, sigma, changes, passed = ints[:k], weight[:k], sigma[:k], changes[:k], passed[:k]
        total = float(len(trumps))
        results, o = np.unique(np.column_stack([ints[:, 4], changes, passed]), axis=0, return_inverse=True)
        o = o.reshape(-1)
        local = np.array([self._outcome(int(r[0]), r[1:1 + self.n], r[1 + self.n:]) for r in results])
        groups = P.NCTX * self.abstraction.buckets
        g = ints[:, 0] * self.abstraction.buckets + self.bucket[ints[:, 1]]
        plain = np.zeros((groups, self.actions, len(local)))
        throwable = np.zeros_like(plain)
        legal = np.zeros((groups, self.actions), dtype=bool)
        void = np.zeros(len(local))
        mixed = np.zeros(len(local))
        w = weight / total
        decided = ints[:, 3] >= 0
        np.add.at(void, o[~decided], w[~decided])
        np.add.at(mixed, o, w * sigma)
        for flag, out in ((0, plain), (1, throwable)):
            rows = decided & (ints[:, 2] == flag)
            np.add.at(out, (g[rows], ints[rows, 3], o[rows]), w[rows])
        legal[g[decided], ints[decided, 3]] = True
        return SeatHand(local, plain, throwable, legal, void, mixed)

    def _outcome(self, kind: int, changes, passed) -> int:
        key = (kind, tuple(int(c) for c in changes), tuple(int(p) for p in passed))
        if key not in self.outcome_ids:
            self.outcome_ids[key] = len(self.outcome_list)
            self.outcome_list.append(key)
        return self.outcome_ids[key]

    # -- the game ------------------------------------------------------------------------------------------------
    def classes_of(self, state: tuple) -> tuple:
        scores, passes, dealer = state
        out = np.zeros(self.n, dtype=np.int64)
        seat_classes(np.array(scores, np.int64), np.array(passes, np.int64), dealer, self.rules.goal_score, self.rp,
                     out)
        return tuple(int(c) for c in out)

    def step(self, state: tuple, outcome: int):
        """(next state or None where the game is over or cut, payout per player, cut)."""
        kind, changes, passed = self.outcome_list[outcome]
        scores = np.array(state[0], np.int64)
        passes = np.array(state[1], np.int64)
        dealer = int(apply_hand(scores, passes, state[2], kind, np.array(changes, np.int64),
                                np.array(passed, np.int64), self.rp))
        pay = np.zeros(self.n)
        if game_over(scores, self.gp):
            settle(scores, self.gp, np.zeros(self.n, np.int64), pay)
            return None, pay, False
        if scores.max() > self.cap:
            return None, pay, True
        return (tuple(scores.tolist()), streak_key(passes, self.rules), dealer), pay, False

    def solve(self, start: tuple | None = None, tol: float = 1e-10, max_sweeps: int = 5000) -> dict:
        """Per player: the profile's value at the start, his best response's, the gain per game and per hand dealt,
        the one-hand deviation's gain, the hands a game lasts, and the chance the profile's game is cut off."""
        n = self.n
        if start is None:
            start = (tuple([self.rules.start_score] * n), tuple([0] * n), n - 1)
        states, index, links = [start], {start: 0}, []
        queue = deque([start])
        while queue:  # every state a hand can reach, by any action of any seat
            state = queue.popleft()
            classes = self.classes_of(state)
            seen = set()
            for t in range(n):
                hand = self.seat_hand(classes, t)
                seen.update(int(o) for o in hand.outcomes)
            row = {}
            for o in sorted(seen):
                nxt, pay, cut = self.step(state, o)
                if nxt is not None and nxt not in index:
                    index[nxt] = len(states)
                    states.append(nxt)
                    queue.append(nxt)
                row[o] = (-1 if nxt is None else index[nxt], pay, cut)
            links.append(row)
        out = {}
        for p in range(n):
            out[p] = self._player(p, states, links, tol, max_sweeps)
        out["states"] = len(states)
        return out

    def _player(self, p: int, states: list, links: list, tol: float, max_sweeps: int) -> dict:
        n = self.n
        groups: dict = {}
        for i, state in enumerate(states):
            t = (p - state[2] - 1) % n
            groups.setdefault((self.classes_of(state), t), []).append(i)
        plan = []  # per group of states alike: its hand, next states, payouts, cut flags by local outcome
        for key, rows in groups.items():
            hand = self.seat_hand(*key)
            nxt = np.array([[links[i][int(o)][0] for o in hand.outcomes] for i in rows], dtype=np.int64)
            pay = np.array([[links[i][int(o)][1][p] for o in hand.outcomes] for i in rows])
            cut = np.array([[links[i][int(o)][2] for o in hand.outcomes] for i in rows], dtype=float)
            plan.append((np.array(rows), hand, nxt, pay, cut))
        size = len(states)

        def sweep(values, best, terminal=None):
            new = np.zeros(size)
            for rows, hand, nxt, pay, cut in plan:
                ends = pay if terminal is None else terminal(pay, cut)
                v = np.where(nxt >= 0, values[np.maximum(nxt, 0)], ends)  # [states, k]
                if not best:
                    new[rows] = v @ hand.sigma
                    continue
                q_plain = np.einsum("gak,sk->sga", hand.plain, v)
                q_throw = np.einsum("gak,sk->sga", hand.throwable, v)
                has_throw = hand.throwable[:, -1, :].sum(axis=-1) > 0  # [g]
                word = q_plain[..., :-1] + np.where(has_throw[None, :, None],
                                                    np.maximum(q_throw[..., :-1], q_throw[..., -1:]),
                                                    q_throw[..., :-1])
                word = np.where(hand.legal[None, :, :-1], word, -np.inf)
                present = hand.legal[:, :-1].any(axis=1)
                new[rows] = v @ hand.void + np.where(present[None], word.max(axis=2), 0.0).sum(axis=1)
            return new

        sigma_v = self._iterate(lambda v: sweep(v, False), size, tol, max_sweeps)
        best_v = self._iterate(lambda v: sweep(v, True), size, tol, max_sweeps)
        hands = self._iterate(lambda v: sweep(v, False, lambda pay, cut: np.zeros_like(pay)) + 1.0, size, tol,
                              max_sweeps)
        cut_sigma = self._iterate(lambda v: sweep(v, False, lambda pay, cut: cut), size, tol, max_sweeps)
        gain = best_v[0] - sigma_v[0]
        # one hand's deviation, the profile after it (what the sampled solver measures), averaged over the hands
        # the profile's games deal
        one_hand = sweep(sigma_v, True) - sigma_v
        visits = self._visits(plan, size, tol, max_sweeps)
        return {"value": float(sigma_v[0]), "best_response": float(best_v[0]), "gain_per_game": float(gain),
                "hands_per_game": float(hands[0]), "gain_per_hand": float(gain / hands[0]),
                "one_hand_gain_per_hand": float(visits @ one_hand / visits.sum()),
                "cut_chance": float(cut_sigma[0])}

    @staticmethod
    def _visits(plan: list, size: int, tol: float, max_sweeps: int) -> np.ndarray:
        """Expected hands dealt in each state by the profile's games from the start (state 0)."""
        start = np.zeros(size)
        start[0] = 1.0
        visits = start.copy()
        for _ in range(max_sweeps):
            new = start.copy()
            for rows, hand, nxt, _pay, _cut in plan:
                flow = visits[rows][:, None] * hand.sigma[None, :]
                live = nxt >= 0
                np.add.at(new, nxt[live], flow[live])
            if np.abs(new - visits).max() < tol:
                return new
            visits = new
        raise RuntimeError(f"the profile's state visits did not settle in {max_sweeps} sweeps")

    @staticmethod
    def _iterate(step, size: int, tol: float, max_sweeps: int) -> np.ndarray:
        values = np.zeros(size)
        for _ in range(max_sweeps):
            new = step(values)
            if np.abs(new - values).max() < tol:
                return new
            values = new
        raise RuntimeError(f"value iteration did not settle in {max_sweeps} sweeps (games that need not end: "
                           f"a profile where everybody passes for ever?)")


__all__ = ["ExactGame", "deal_records", "check_game_tiny"]
