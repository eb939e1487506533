"""Plain-Python twin of ``scored.select_policy``: the policy of one hand when players see the score.

Written from the rule of issue 38 and ``strategy/score_classes.py``'s docstring, not from the kernel: a player's
class is his own distance to the goal and the leader's, each bucketed at 1, 2, 3, 4-5, 6-8, 9+, and whether a pass
now costs him the sit-out penalty (``RuleSet.pass_penalty``). The games themselves are ``twin.continue_game``'s,
which takes :func:`table_policy` in place of a fixed policy.
"""

from __future__ import annotations

import bisect

import numpy as np

from ..opponents.policies import Policy

DISTANCE_STARTS = (1, 2, 3, 4, 6, 9)


def plain_class(rules, scores, passes, player: int) -> int:
    goal = rules.goal_score
    own = scores[player] - goal
    lead = min(s - goal for q, s in enumerate(scores) if q != player)

    def bucket(distance):
        return max(0, bisect.bisect_right(DISTANCE_STARTS, distance) - 1)

    due = 1 if rules.pass_penalty(int(passes[player])) > 0 else 0
    return (bucket(own) * len(DISTANCE_STARTS) + bucket(lead)) * 2 + due


def table_policy(rules, table):
    """A function (scores, passes, dealer) -> (this hand's Policy by seat, the dealer's knock) for ``table``."""

    def at(scores, passes, dealer):
        n = len(scores)
        rows = [[], [], [], [], []]
        for s in range(n):
            p = (dealer + 1 + s) % n
            if table.aware[p] == 0:
                c = plain_class(rules, scores, passes, p)
                source = (table.stack[0][s], table.stack[1][s], table.stack[2][c, s], table.stack[3][c, s],
                          table.stack[4][c, s])
            else:
                source = tuple(a[p, s] for a in table.fixed)
            for i, a in enumerate(source):
                rows[i].append(a)
        if table.aware[dealer] == 0:
            knock = table.knock_stack[plain_class(rules, scores, passes, dealer)]
        else:
            knock = table.fixed_knock[dealer]
        return Policy("table", n, *(np.stack(r) for r in rows)), knock

    return at


__all__ = ["table_policy", "plain_class"]
