"""What a score-aware player knows of the score: his *score class* (issue 38).

A player's decisions may depend on the score state through three things:
his own distance to the goal, the distance of the opponent closest to it
(the leader), and whether a pass now costs him the sit-out penalty (his
passes in a row, swiss rule 17; never in flemish). Who deals is his seat,
which every strategy knows already. Distances are bucketed where they still
matter: 1, 2, 3, 4-5, 6-8 and 9 or more points from the goal, the last being
"far": a table where everybody is far decides much as the per-hand
equilibrium does. ``class = (own bucket * 6 + leader bucket) * 2 + due``.
The kernel form (``seat_classes``) and the plain one (``score_class``) are
one definition used by the game simulator, the solver and ``ask``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine.hand import pass_penalty

EDGES = np.array([1, 2, 3, 4, 6, 9], dtype=np.int64)  # lowest distance of each bucket
DISTANCE_BUCKETS = len(EDGES)
CLASSES = DISTANCE_BUCKETS * DISTANCE_BUCKETS * 2
BUCKET_NAMES = ("1", "2", "3", "4-5", "6-8", "9+")


@njit(cache=True, inline="always")
def distance_bucket(distance):
    """The bucket of a distance to the goal (1 or more; 0 or below is over and reads as 1)."""
    b = 0
    for i in range(1, EDGES.shape[0]):
        if distance >= EDGES[i]:
            b = i
    return b


@njit(cache=True)
def class_of(scores, passes, player, goal, rp):
    """The score class of ``player`` in the score state (``scores``, ``passes`` by player)."""
    n = scores.shape[0]
    lead = 1 << 30
    for q in range(n):
        if q != player and scores[q] - goal < lead:
            lead = scores[q] - goal
    due = 1 if pass_penalty(passes[player], rp) > 0 else 0
    return (distance_bucket(scores[player] - goal) * DISTANCE_BUCKETS + distance_bucket(lead)) * 2 + due


@njit(cache=True)
def seat_classes(scores, passes, dealer, goal, rp, out):
    """``out[s]``: the score class of the player at seat ``s`` of a hand dealt by ``dealer`` (§2)."""
    n = scores.shape[0]
    for s in range(n):
        out[s] = class_of(scores, passes, (dealer + 1 + s) % n, goal, rp)


def score_class(rules, scores, passes, player: int) -> int:
    """Plain Python: the score class of ``player`` (scores and passes by player)."""
    from ..engine.rules_layout import rules_array

    return int(class_of(np.asarray(scores, dtype=np.int64), np.asarray(passes, dtype=np.int64), int(player),
                        int(rules.goal_score), rules_array(rules)))


def describe_class(c: int) -> str:
    """A class in words: "own 1, leader 9+, a pass costs the penalty"."""
    rest, due = divmod(int(c), 2)
    own, lead = divmod(rest, DISTANCE_BUCKETS)
    return (f"own {BUCKET_NAMES[own]}, leader {BUCKET_NAMES[lead]}"
            + (", a pass costs the sit-out penalty" if due else ""))


__all__ = ["EDGES", "CLASSES", "DISTANCE_BUCKETS", "BUCKET_NAMES", "distance_bucket", "class_of", "seat_classes",
           "score_class", "describe_class"]
