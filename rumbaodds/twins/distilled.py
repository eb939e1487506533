"""Plain-Python twin of the ``distilled`` card play (``engine/distilled.py``): the readable specification.

The ``distilled`` player scores each legal card by a weighted sum of
features of the card and of the moment, and plays the best (ties: the
weakest card in the §6 order). The weights are fitted to PIMC's choices
(``rumbaodds/distil``), one vector per follow rule (swiss Stechzwang,
flemish), role (Rumba caller, defender, normal player) and moment (lead,
follow). Everything a feature reads is what the
player knows: his hand, the cards he has not seen, the trick so far, the
tricks won, and which players have shown a void in a suit (by not following it).

Some decisions get more: at some of the Rumba caller's leads (by follow
rule, active players and trick: in swiss the second lead at 3 players and
the first at 7), an ensemble of shallow trees on the same numbers, the
card's and the moment's, adds its score to the weights' (:func:`tree_of`,
:func:`tree_score`, fitted by ``rumbaodds/distil/trees.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game.tricks import card_beats, legal_cards, rank_of, suit_of
from .common import STECHZWANG, strength

ROLE_CALLER, ROLE_DEFENDER, ROLE_NORMAL = 0, 1, 2
LEAD, FOLLOW = 0, 1
CONTEXT_NAMES = ("trumps held", "sure trump tricks", "unseen trumps", "tricks still needed", "cards left",
                 "players after me", "players", "Rumba player winning", "Rumba player still to play",
                 "trick safe for the defence", "every trick needed", "masters held", "sure tricks held",
                 "masters cover the tricks needed", "masters beyond the tricks needed", "masters less tricks needed")
CARD_NAMES = ("trump", "master of its suit", "unseen above", "unseen below", "singleton", "suit length",
              "unseen of its suit", "can be trumped", "wins the trick", "wins for sure", "rank",
              "place among legal cards", "lowest winner", "weakest legal", "strongest legal", "opponent void in suit")
N_CONTEXT, N_CARD = len(CONTEXT_NAMES), len(CARD_NAMES)
N_FEATURES = N_CARD * (1 + N_CONTEXT)  # each card feature alone and times each context feature


@dataclass(frozen=True)
class View:
    """What the player to play knows. Cards are ids (``suit * 16 + rank``); seats index the active players.

    ``unseen``: cards not in his hand, not played (this trick included) and
    not lying face up on the table. ``position``: cards already played to
    this trick (0: he leads), ``win_card`` / ``win_seat``: the card winning it
    so far and its player (None before the lead). ``voids[p]``: suits player
    ``p`` has shown he lacks. ``caller``: the Rumba (or knock) player, None in
    a normal game.
    """

    hand: frozenset[int]
    legal: frozenset[int]
    unseen: frozenset[int]
    trump: int
    me: int
    players: int
    leader: int
    position: int
    win_card: int | None
    win_seat: int | None
    won: tuple[int, ...]
    voids: tuple[frozenset[int], ...]
    caller: int | None
    need: int  # tricks a Rumba needs (rules.rumba_min_tricks)
    low_rank: int  # the deck's lowest and highest rank
    top_rank: int

    @property
    def role(self) -> int:
        if self.caller is None:
            return ROLE_NORMAL
        return ROLE_CALLER if self.me == self.caller else ROLE_DEFENDER


def context(v: View) -> list[float]:
    """The moment, as CONTEXT_NAMES (each scaled to about 0..1)."""
    trumps = sorted((c for c in v.hand if suit_of(c) == v.trump), key=rank_of, reverse=True)
    unseen_trumps = [u for u in v.unseen if suit_of(u) == v.trump]
    top_unseen = max((rank_of(u) for u in unseen_trumps), default=-1)
    sure = 0
    for c in trumps:  # my trumps from the top, each above every unseen trump
        if rank_of(c) > top_unseen:
            sure += 1
        else:
            break
    cards_left = len(v.hand)
    after = v.players - 1 - v.position
    if v.caller is None:
        needed = 1 if v.won[v.me] == 0 else 0  # a normal player fears no trick at all
        all_needed = 0.0
        caller_winning = caller_after = safe = 0.0
    else:
        needed = max(v.need - v.won[v.caller], 0)
        all_needed = 1.0 if 0 < cards_left <= needed else 0.0
        caller_played = (v.caller - v.leader) % v.players < v.position
        caller_winning = 1.0 if v.win_seat == v.caller else 0.0
        caller_after = 1.0 if (v.me != v.caller and not caller_played) else 0.0
        safe = 1.0 if (v.me != v.caller and caller_played and v.win_seat != v.caller) else 0.0
    # masters: my cards with no unseen card of their suit above them; sure: masters nobody can trump either.
    # A caller who holds the tricks he still needs can give up the lead now and take them later (issue 17:
    # without these the distilled caller cashed his aces at the second trick where PIMC led a losing card).
    masters = [c for c in v.hand if not any(suit_of(u) == suit_of(c) and rank_of(u) > rank_of(c) for u in v.unseen)]
    sure_tricks = sum(1 for c in masters if suit_of(c) == v.trump or not unseen_trumps)
    n_masters = len(masters)
    return [len(trumps) / 5, sure / 5, min(len(unseen_trumps), 6) / 6, needed / 3, cards_left / 5, after / 6,
            v.players / 7, caller_winning, caller_after, safe, all_needed, n_masters / 5, sure_tricks / 5,
            float(n_masters >= needed), float(n_masters > needed), (n_masters - needed) / 5]


def opponents(v: View) -> list[int]:
    """Whose voids matter to the player: the caller's for a defender, everybody else's otherwise."""
    if v.caller is not None and v.me != v.caller:
        return [v.caller]
    return [p for p in range(v.players) if p != v.me]


def card_features(v: View, card: int) -> list[float]:
    """The card, as CARD_NAMES."""
    suit, rank = suit_of(card), rank_of(card)
    is_trump = suit == v.trump
    above = sum(1 for u in v.unseen if suit_of(u) == suit and rank_of(u) > rank)
    below = sum(1 for u in v.unseen if suit_of(u) == suit and rank_of(u) < rank)
    length = sum(1 for c in v.hand if suit_of(c) == suit)
    unseen_suit = sum(1 for u in v.unseen if suit_of(u) == suit)
    unseen_trumps = sum(1 for u in v.unseen if suit_of(u) == v.trump)
    win_card = v.win_card
    wins = win_card is None or card_beats(card, win_card, v.trump)
    legal = sorted(v.legal, key=lambda c: strength(c, v.trump))
    place = legal.index(card) / (len(legal) - 1)
    winners = [c for c in legal if win_card is None or card_beats(c, win_card, v.trump)]
    sure_win = wins and above == 0 and (is_trump or unseen_trumps == 0)
    void = any(suit in v.voids[p] for p in opponents(v))
    span = max(v.top_rank - v.low_rank, 1)
    return [float(is_trump), float(above == 0), min(above, 4) / 4, min(below, 6) / 6, float(length == 1), length / 5,
            min(unseen_suit, 8) / 8, float(not is_trump and unseen_trumps > 0), float(v.position > 0 and wins),
            float(v.position > 0 and sure_win), (rank - v.low_rank) / span, place,
            float(v.position > 0 and bool(winners) and card == winners[0]), float(card == legal[0]),
            float(card == legal[-1]), float(void)]


def features(v: View, card: int) -> list[float]:
    """The full feature vector of ``card``: each card feature alone, then times each context feature."""
    a = card_features(v, card)
    c = context(v)
    return a + [x * y for x in a for y in c]


def moment(v: View) -> int:
    return LEAD if v.position == 0 else FOLLOW


MASTER_TERMS = 5  # the moment's last numbers, those of his masters: summed apart (the kernel reads their sum)
NEEDED_TERM = CONTEXT_NAMES.index("tricks still needed")  # summed apart with them


def card_weights(w, ctx: list[float]) -> list[float]:
    """The moment folded into one weight per card feature: ``w[i] + sum_k w[N_CARD + i * N_CONTEXT + k] * ctx[k]``.

    ``w . features(card)`` equals ``card_weights(w, ctx) . card_features(card)``; the kernel sums in this order:
    the terms left to right, but the tricks needed and the last :data:`MASTER_TERMS` summed apart first (the kernel
    reads that sum from a table) and added as one.
    """
    out = []
    for i in range(N_CARD):
        acc = w[i]
        for k in range(N_CONTEXT - MASTER_TERMS):
            if k != NEEDED_TERM:
                acc += w[N_CARD + i * N_CONTEXT + k] * ctx[k]
        tail = 0.0
        for k in [NEEDED_TERM, *range(N_CONTEXT - MASTER_TERMS, N_CONTEXT)]:
            tail += w[N_CARD + i * N_CONTEXT + k] * ctx[k]
        out.append(acc + tail)
    return out


def tree_score(ensemble, row: list[float]) -> float:
    """The score of one card by ``ensemble`` = (count, feature, threshold, leaf): ``row`` is the card's numbers
    then the moment's (32). Each tree is ``feature.shape[1]`` inner nodes in heap order (node i's children 2i+1
    and 2i+2); a row goes left where its number is at most the node's threshold (feature -1: always left). The
    leaves reached are summed, tree by tree."""
    count, feature, threshold, leaf = ensemble
    inner = len(feature[0])
    total = 0.0
    for t in range(count):
        node = 0
        while node < inner:
            j = feature[t][node]
            node = 2 * node + (1 if j < 0 or row[j] <= float(threshold[t][node]) else 2)
        total += float(leaf[t][node - inner])  # float32 kept, summed in float64
    return total


def tree_of(v: View, trees) -> int:
    """The ensemble of ``trees`` = (slot, start, feature, threshold, leaf) that scores this decision, -1 if none:
    only the Rumba caller's leads, by the players (active) and the trick (``slot[players][tricks played]``)."""
    if trees is None or v.role != ROLE_CALLER or v.position != 0:
        return -1
    return int(trees[0][v.players][sum(v.won)])


def ensemble_of(trees, e: int):
    """(count, feature, threshold, leaf) of ensemble ``e``: its trees, ``start[e]`` to ``start[e + 1]`` of the
    pooled arrays (``trees`` = (slot, start, feature, threshold, leaf))."""
    a, b = int(trees[1][e]), int(trees[1][e + 1])
    return b - a, trees[2][a:b], trees[3][a:b], trees[4][a:b]


def distilled_card(v: View, weights, trees=None) -> int:
    """The card with the highest score ``weights[role][moment] . features`` (plus :func:`tree_score` of the
    ensemble :func:`tree_of` names); ties: the weakest (§6 order). ``trees``: (slot, start, feature, threshold,
    leaf) of the follow rule, or None."""
    folded = card_weights(weights[v.role][moment(v)], context(v))
    e = tree_of(v, trees)
    best, best_score = None, None
    for card in sorted(v.legal, key=lambda c: strength(c, v.trump)):  # weakest first: a later card must score more
        score = 0.0
        for wi, fi in zip(folded, card_features(v, card), strict=True):
            score += wi * fi
        if e >= 0:
            score += tree_score(ensemble_of(trees, e), card_features(v, card) + context(v))
        if best is None or score > best_score:
            best, best_score = card, score
    return best


def play_hand(hands, leader: int, trump: int, follow: int, caller: int | None, need: int, deck, weights,
              turned: int | None = None, trees=None) -> list[int]:
    """Tricks per player: ``hands`` (active players in seat order) played to the end, everybody ``distilled``.

    ``turned``: the card face up on the table, seen by all; ``deck``: the rule set's cards; ``weights``:
    (follow rule, role, moment, feature); ``trees``: engine/distilled_trees.py ``TREES`` (slots by follow rule,
    then the ensembles), or None.
    """
    trees = None if trees is None else (trees[0][follow], *trees[1:])
    hands = [set(h) for h in hands]
    n = len(hands)
    ranks = [rank_of(c) for c in deck]
    outside = set(deck) - ({turned} if turned is not None else set())
    won = [0] * n
    voids: list[set[int]] = [set() for _ in range(n)]
    for _ in range(len(hands[0])):
        led = win_card = win_seat = None
        for pos in range(n):
            p = (leader + pos) % n
            legal = legal_cards(hands[p], led, win_card, trump, follow)
            view = View(hand=frozenset(hands[p]), legal=frozenset(legal), unseen=frozenset(outside - hands[p]),
                        trump=trump, me=p, players=n, leader=leader, position=pos, win_card=win_card,
                        win_seat=win_seat, won=tuple(won), voids=tuple(frozenset(v) for v in voids), caller=caller,
                        need=need, low_rank=min(ranks), top_rank=max(ranks))
            card = next(iter(legal)) if len(legal) == 1 else distilled_card(view, weights[follow], trees)
            hands[p].discard(card)
            outside.discard(card)
            if led is None:
                led, win_card, win_seat = suit_of(card), card, p
                continue
            if suit_of(card) != led:  # not following shows a void (RULES.md §3)
                voids[p].add(led)
                if follow == STECHZWANG and suit_of(card) != trump:  # nor trumping, under Stechzwang: no trump
                    voids[p].add(trump)
            if card_beats(card, win_card, trump):
                win_card, win_seat = card, p
        won[win_seat] += 1
        leader = win_seat
    return won


__all__ = ["play_hand", "View", "ROLE_CALLER", "ROLE_DEFENDER", "ROLE_NORMAL", "LEAD", "FOLLOW", "N_FEATURES",
           "CONTEXT_NAMES",
           "CARD_NAMES", "context", "card_features", "card_weights", "features", "distilled_card", "tree_score",
           "tree_of", "ensemble_of"]
