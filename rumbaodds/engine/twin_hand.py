"""Plain-Python twin of the whole-hand simulator: the readable specification.

This module follows ``docs/SIMULATION.md`` step by step (deal, conditioning,
the hero's choices, speaking, outcome, exchange, lead, tricks, score). It is
written for reading, not for speed: hands are Python sets of card ids
(``suit * 16 + rank``, cards.py). The Numba kernel ``engine/hand.py``
implements the same procedure and tests require both to agree sample by
sample, so the random numbers are drawn exactly as "Random numbers, exactly"
says: one Fisher-Yates shuffle of the unknown cards per try, one draw for
the renaming of the side suits after the accepted try (step 2b), then, for
every choice of the hero, the swiss passers' cards are shuffled from the
stream position saved after that draw. Nothing else draws a random number.

Comments marked "Decision" settle points where SIMULATION.md is silent; the
kernel must make the same decisions.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ..cards import RANKS, SUITS, card_id
from ..models import OpponentModel, keep_value
from ..rules import RuleSet
from .twin import Stream, card_beats, greedy_card, legal_cards, rank_of, strength, suit_of

MAX_TRIES = 10_000  # SIMULATION.md step 2

PASS = "pass"
PLAY = "play"
RUMBA = "rumba"
THROW_IN = "throw-in"
# the tricks a choice reports when none were played (SIMULATION.md "What a run reports")
NO_TRICKS, LONE_PLAY, VOID = -1, -2, -3
POLICIES = ("greedy", "expert")


# =============================================================================
# Small helpers
# =============================================================================
def top_rank(rules: RuleSet) -> int:
    """Rank index of the deck's highest rank (the ``top`` of the keep values)."""
    return RANKS.index(rules.ranks[-1])


def weakest(cards, trump: int) -> int:
    """Weakest card by the greedy strength order (RULES.md §6)."""
    return min(cards, key=lambda c: strength(c, trump))


def strongest(cards, trump: int) -> int:
    return max(cards, key=lambda c: strength(c, trump))


def keep_order(cards, trump: int, top: int) -> list[int]:
    """Cards from the lowest keep value up; ties broken weakest first by RULES.md §6."""
    return sorted(cards, key=lambda c: (keep_value(c, trump, top), strength(c, trump)))


def points(cards, trump: int, top: int) -> int:
    """Hand points: the sum of the keep values."""
    return sum(keep_value(c, trump, top) for c in cards)


def all_below(rules: RuleSet, cards) -> bool:
    """Every card ranks below ``rules.throw_in_below`` (swiss: all 6..9)."""
    limit = RANKS.index(rules.throw_in_below)
    return all(rank_of(c) < limit for c in cards)


def shuffle(cards: list[int], stream: Stream) -> None:
    """Fisher-Yates over the whole list, ``len(cards)`` draws (the last one is ``below(1)``)."""
    for j in range(len(cards)):
        k = j + stream.below(len(cards) - j)
        cards[j], cards[k] = cards[k], cards[j]


def stream_at(state: int) -> Stream:
    """A stream restarted from a saved position."""
    stream = Stream(0, 0)
    stream.state = state
    return stream


def passer_change(rules: RuleSet, passes_before: int) -> int:
    """Score change of a player who passes a hand that is not void (swiss rule 17)."""
    if rules.sit_out_limit <= 0:
        return 0
    streak = passes_before + 1
    if rules.sit_out_repeats:  # every pass from the limit on costs the penalty
        due = streak >= rules.sit_out_limit
    else:  # the streak restarts after a penalty: every limit-th pass costs it
        due = streak % rules.sit_out_limit == 0
    return rules.sit_out_penalty if due else 0


def full_deck() -> list[int]:
    return [card_id(s, r) for s in range(len(SUITS)) for r in range(len(RANKS))]


# =============================================================================
# The situation of one question, and how an opponent decides
# =============================================================================
@dataclass(frozen=True)
class Situation:
    rules: RuleSet
    players: int
    seat: int  # the hero's seat
    trump_card: int
    model: OpponentModel
    knocked: bool

    @property
    def dealer(self) -> int:
        return self.players - 1

    @property
    def trump(self) -> int:
        return suit_of(self.trump_card)

    @property
    def top(self) -> int:
        return top_rank(self.rules)

    @property
    def jack_forces_play(self) -> bool:
        """Flemish: a jack of trump turned forces everybody to play (RULES.md §5.2)."""
        return self.rules.jack_of_trump_forces_play and rank_of(self.trump_card) == RANKS.index("J")

    @property
    def two_of_trump(self) -> int | None:
        """The card that may be swapped for the turned card [D-9], or None.

        Decision (SIMULATION.md step 4 is silent): after a knock nobody swaps
        the two of trump (the knocking dealer may hold the turned card; knock
        and swap never meet in the presets). A turned two cannot be swapped.
        """
        if not self.rules.two_of_trump_swap or self.knocked:
            return None
        two = card_id(self.trump, RANKS.index("2"))
        return None if two == self.trump_card else two

    # -- the opponent model (SIMULATION.md "Opponent models") -----------------
    def swaps_two(self, cards: set[int]) -> bool:
        two = self.two_of_trump
        return two is not None and two in cards and self.model.swap_two

    def throws_in(self, cards: set[int]) -> bool:
        return self.rules.throw_in and not self.knocked and self.model.throw_in and all_below(self.rules, cards)

    def wants_rumba(self, cards: set[int]) -> bool:
        return points(cards, self.trump, self.top) >= self.model.rumba_points

    def plays(self, cards: set[int]) -> str:
        """Word of a seat when no Rumba was called (and no knock)."""
        if self.jack_forces_play:
            return PLAY
        return PLAY if points(cards, self.trump, self.top) >= self.model.play_points else PASS

    def answers_rumba(self, cards: set[int]) -> str:
        """Word of a seat after a Rumba call: swiss chooses by the join rule [D-5], flemish must play."""
        if self.jack_forces_play or self.rules.others_after_rumba == "must-play":
            return PLAY
        return PLAY if points(cards, self.trump, self.top) >= self.model.join_points else PASS

    def answers_knock(self, cards: set[int]) -> str:
        """Word of a seat after a knock (also: a seat before a rumba-first caller).

        Decision: SIMULATION.md step 4 says "each other seat joins or not by
        the join rule"; taken literally, so ``others_after_rumba = must-play``
        does not apply to a knock (no preset has both). A jack of trump turned
        still forces play.
        """
        if self.jack_forces_play:
            return PLAY
        return PLAY if points(cards, self.trump, self.top) >= self.model.join_points else PASS

    def exchange_wish(self, cards: set[int]) -> int:
        """How many cards an opponent wants to exchange: keep value below ``discard_below``, up to the limit."""
        low = sum(1 for c in cards if keep_value(c, self.trump, self.top) < self.model.discard_below)
        return min(low, self.rules.exchange_limit)


def knocker_takes_turned_card(hand: set[int], trump_card: int, trump: int) -> int | None:
    """The knocking dealer takes the turned card for his weakest card (§6) if it is stronger [D-3].

    Changes ``hand`` in place; returns the card now lying on the table (None when taken).
    """
    low = weakest(hand, trump)
    if strength(trump_card, trump) > strength(low, trump):
        hand.remove(low)  # goes out of play face down
        hand.add(trump_card)
        return None
    return trump_card


# =============================================================================
# Input checks
# =============================================================================
def _check(rules: RuleSet, players: int, seat: int, hand, trump_card: int, knocked: bool) -> None:
    rules.check_players(players)
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat} is not a seat of {players} players (0..{players - 1})")
    rules.check_cards(list(hand) + [trump_card])
    if len(set(hand)) != len(hand):
        raise ValueError("the hand holds a card twice")
    if len(hand) != rules.hand_size:
        raise ValueError(f"the hand holds {len(hand)} cards, rule set {rules.name!r} deals {rules.hand_size}")
    if trump_card in hand:
        raise ValueError("the turned trump card cannot be in the hand")
    if knocked and not rules.knock:
        raise ValueError(f"rule set {rules.name!r} has no knock")
    if knocked and seat == players - 1:
        raise ValueError("the hero is the dealer: use the knock simulation for a knock")


def hero_hand_after_swap(rules: RuleSet, hand, trump_card: int, knocked: bool = False) -> tuple[set[int], int]:
    """The hero's hand when he speaks, and the card lying face up on the table.

    A hero holding the two of trump swaps it for the turned card before he
    speaks (SIMULATION.md step 3, [D-9]); not after a knock (see
    :attr:`Situation.two_of_trump`).
    """
    cards = set(hand)
    if rules.two_of_trump_swap and not knocked:
        two = card_id(suit_of(trump_card), RANKS.index("2"))
        if two in cards:
            cards.remove(two)
            cards.add(trump_card)
            return cards, two
    return cards, trump_card


# =============================================================================
# The hero's choices
# =============================================================================
def hero_choices(rules: RuleSet, players: int, seat: int, hand, trump_card: int, knocked: bool = False) -> list[str]:
    """``pass``, ``play0`` .. ``play{exchange_limit}``, ``rumba``, ``throw-in`` as the situation allows."""
    _check(rules, players, seat, hand, trump_card, knocked)
    jack_forces_play = rules.jack_of_trump_forces_play and rank_of(trump_card) == RANKS.index("J")
    choices = [] if jack_forces_play else [PASS]
    if knocked:  # only join (no exchange in a knock) or pass
        return choices + ["play0"]
    choices += [f"play{k}" for k in range(rules.exchange_limit + 1)]
    choices.append(RUMBA)
    # Decision: the throw-in test looks at the hand after the two-of-trump swap,
    # the order every seat follows (swap, then throw-in, SIMULATION.md step 4).
    spoken_hand, _ = hero_hand_after_swap(rules, hand, trump_card, knocked)
    if rules.throw_in and all_below(rules, spoken_hand):
        choices.append(THROW_IN)
    return choices


# =============================================================================
# Deal and conditioning (SIMULATION.md steps 1-2)
# =============================================================================
def unknown_cards(rules: RuleSet, hand, trump_card: int) -> list[int]:
    """``U``: the deck minus the hero's hand minus the turned card, in deck order."""
    known = set(hand) | {trump_card}
    return [c for c in rules.deck if c not in known]


def deal_opponents(shuffled: list[int], players: int, seat: int, hand, hand_size: int):
    """Opponent seats in seat order take ``hand_size`` cards each from the front; the rest is the stock."""
    hands: list[set[int]] = []
    front = 0
    for s in range(players):
        if s == seat:
            hands.append(set(hand))
        else:
            hands.append(set(shuffled[front:front + hand_size]))
            front += hand_size
    return hands, shuffled[front:]


def earlier_words(sit: Situation, hands: list[set[int]], before) -> list[str | None] | None:
    """Words of seats 0..seat-1 if the deal agrees with what the hero has seen, else None.

    They did not swap the two of trump, did not throw in, did not call Rumba
    and, when ``before`` is given, said exactly those words. After a knock
    each earlier seat only joined or not. With ``rumba-first`` the earlier
    seats have not said play or pass yet when the hero speaks in round one:
    their words are None here and ``before`` is not used.
    """
    rules = sit.rules
    words: list[str | None] = []
    for s in range(sit.seat):
        cards = hands[s]
        if sit.knocked:
            word = sit.answers_knock(cards)
        else:
            # Decision: "did not swap the two of trump" is conditioned on with
            # rumba-first too (it is seen at his first turn, like the
            # throw-in); SIMULATION.md step 2 names only "no Rumba, no
            # throw-in" for rumba-first, no preset combines the two.
            if sit.swaps_two(cards) or sit.throws_in(cards):
                return None
            # An earlier seat is never the dealer, so the flemish lone-dealer
            # exception does not arise here.
            if sit.wants_rumba(cards):
                return None
            word = None if rules.speaking_order == "rumba-first" else sit.plays(cards)
        # Decision: ``before`` is ignored with rumba-first (SIMULATION.md step
        # 2: only "no Rumba, no throw-in" is conditioned on there).
        if before is not None and word is not None and word != before[s]:
            return None
        words.append(word)
    return words


# =============================================================================
# Speaking (SIMULATION.md step 4)
# =============================================================================
@dataclass
class Speaking:
    """What speaking left behind."""

    words: list[str]
    rumba_seat: int | None  # the Rumba caller or the knocking dealer
    void: bool  # a throw-in or nobody plays
    table_card: int | None  # the card face up on the table (None: the knocking dealer took it)

    @property
    def active(self) -> list[int]:
        return [s for s, w in enumerate(self.words) if w in (PLAY, RUMBA)]


def speak(sit: Situation, hands: list[set[int]], earlier: list[str | None], hero_word: str,
          table_card: int) -> Speaking:
    """Speaking from the hero's seat to the dealer; ``hands`` change in place by swaps.

    ``hero_word`` is ``pass``, ``play``, ``rumba`` or ``throw-in``.
    """
    n, seat, rules = sit.players, sit.seat, sit.rules
    words: list[str | None] = list(earlier) + [None] * (n - seat)

    def result(void: bool, rumba_seat: int | None) -> Speaking:
        return Speaking([w if w is not None else PASS for w in words], rumba_seat, void, table_card)

    # -- after a knock: everybody else joins or not (both speaking orders) --------
    if sit.knocked:
        words[sit.dealer] = RUMBA
        words[seat] = PLAY if hero_word == PLAY else PASS
        for s in range(seat + 1, sit.dealer):
            words[s] = sit.answers_knock(hands[s])
        return result(False, sit.dealer)

    def swap_if_model_does(s: int) -> None:
        nonlocal table_card
        if sit.swaps_two(hands[s]) and table_card == sit.trump_card:
            hands[s].remove(sit.two_of_trump)
            hands[s].add(sit.trump_card)
            table_card = sit.two_of_trump

    if hero_word == THROW_IN:  # [D-4]: void, nobody's pass
        words[seat] = PASS
        return result(True, None)

    # -- one-round (default) -------------------------------------------------------
    if rules.speaking_order == "one-round":
        rumba_seat = None
        if hero_word == RUMBA:
            nobody_plays_yet = all(w == PASS for w in words[:seat])
            if not rules.lone_rumba_allowed and seat == sit.dealer and nobody_plays_yet:
                # A Rumba the rules forbid (flemish: a dealer who would be the
                # only player cannot call it) becomes a lone play; it scores
                # lone_player_score.
                words[seat] = PLAY
            else:
                words[seat] = RUMBA
                rumba_seat = seat
        else:
            words[seat] = hero_word
        for s in range(seat + 1, n):
            swap_if_model_does(s)
            if sit.throws_in(hands[s]) and (rumba_seat is None or rules.throw_in_after_rumba):
                # A throw-in is possible at a seat's turn even after a Rumba
                # call (RULES.md §4.3 only excludes a knock), unless the rule
                # set's throw_in_after_rumba says otherwise.
                return result(True, rumba_seat)
            nobody_else_plays = all(w == PASS for w in words[:s])
            lone_dealer = not rules.lone_rumba_allowed and s == sit.dealer and nobody_else_plays
            if rumba_seat is None and sit.wants_rumba(hands[s]) and not lone_dealer:
                words[s] = RUMBA
                rumba_seat = s
            elif rumba_seat is not None:
                words[s] = sit.answers_rumba(hands[s])
            else:
                words[s] = sit.plays(hands[s])
        return result(False, rumba_seat)

    # -- rumba-first: round one asks Rumba, round two play or pass -------------------
    rumba_seat = seat if hero_word == RUMBA else None
    for s in range(seat + 1, n):  # seats before the hero: conditioned, nothing happened
        swap_if_model_does(s)
        if sit.throws_in(hands[s]) and (rumba_seat is None or rules.throw_in_after_rumba):
            return result(True, rumba_seat)
        # Decision: in round one nobody knows yet who will play, so the dealer
        # may call Rumba; a Rumba nobody joins where the rules forbid a lone
        # Rumba scores lone_player_score (see score_changes).
        if rumba_seat is None and sit.wants_rumba(hands[s]):
            rumba_seat = s
    for s in range(n):
        if s == rumba_seat:
            words[s] = RUMBA
        elif s == seat:
            words[s] = PASS if hero_word == PASS else PLAY  # the hero's play means join
        elif rumba_seat is not None and s < rumba_seat:
            # Decision: "must play" binds the players after the caller (RULES.md
            # §5.4); seats before him answer by the join rule (jack: play).
            words[s] = sit.answers_knock(hands[s])
        elif rumba_seat is not None:
            words[s] = sit.answers_rumba(hands[s])
        else:
            words[s] = sit.plays(hands[s])
    return result(False, rumba_seat)


# =============================================================================
# Exchange (SIMULATION.md step 6)
# =============================================================================
def exchange(sit: Situation, hands: list[set[int]], words: list[str], stock: list[int], hero_discards: int,
             saved_state: int) -> None:
    """Normal game: active seats in seat order discard and draw from the stock top (hands change in place).

    Swiss: the passers' cards (seat order, each hand low card id first) are
    shuffled from the saved stream position and put under the stock. Flemish
    puts them away. Nobody discards more than the stock can still replace.
    """
    stock = list(stock)
    if sit.rules.passer_cards == "stock-bottom":
        passers = [c for s in range(sit.players) if words[s] == PASS for c in sorted(hands[s])]
        shuffle(passers, stream_at(saved_state))
        stock += passers
    for s in range(sit.players):
        if words[s] != PLAY:
            continue
        wish = hero_discards if s == sit.seat else sit.exchange_wish(hands[s])
        count = min(wish, len(stock))
        thrown = keep_order(hands[s], sit.trump, sit.top)[:count]
        hands[s] -= set(thrown)  # out of play
        hands[s] |= set(stock[:count])
        stock = stock[count:]


# =============================================================================
# Card play (SIMULATION.md "Card play")
# =============================================================================
def expert_card(hand, unseen, trump: int, follow: int, *, led_suit: int | None = None, win_card: int | None = None,
                is_rumba_player: bool = False, partner_wins: bool = False, last_to_play: bool = False) -> int:
    """The ``expert`` card.

    ``unseen``: cards not in his hand, not played (this trick included) and not
    the card lying on the table. ``partner_wins``: a Rumba or knock, he is a
    defender, the Rumba player has already played to this trick and another
    defender wins it now.
    """
    hand = set(hand)
    if led_suit is None:
        trumps = [c for c in hand if suit_of(c) == trump]
        if trumps:
            best = max(trumps, key=rank_of)
            master = not any(suit_of(u) == trump and rank_of(u) > rank_of(best) for u in unseen)
            if master and (is_rumba_player or len(trumps) >= 2):
                return best
            if is_rumba_player and len(trumps) >= 2:  # the Rumba player draws trumps
                return best
        side_masters = [
            c for c in hand
            if suit_of(c) != trump and not any(suit_of(u) == suit_of(c) and rank_of(u) > rank_of(c) for u in unseen)
        ]
        if side_masters:
            return strongest(side_masters, trump)
        return weakest(hand, trump)
    legal = legal_cards(hand, led_suit, win_card, trump, follow)
    if partner_wins:
        return weakest(legal, trump)
    winning = [c for c in legal if card_beats(c, win_card, trump)]
    if winning:
        if last_to_play:
            return weakest(winning, trump)
        safe = [c for c in winning if not any(card_beats(u, c, trump) for u in unseen)]
        if safe:
            return weakest(safe, trump)
        return strongest(winning, trump)  # nothing is safe: make overtaking as hard as possible
    return weakest(legal, trump)


def play_tricks(hands, leader: int, trump: int, follow: int, policy: str, rumba_player: int | None = None,
                turned_card_on_table: int | None = None, deck=None) -> list[int]:
    """Tricks per seat of the active seats (``hands`` in seat order, ``leader`` and ``rumba_player`` index them).

    ``turned_card_on_table``: the card face up on the table (the turned card,
    the two of trump after a swap, None after the knocking dealer took it).
    ``deck``: the rule set's deck, which the expert's unseen cards come from
    (default: all 52 cards).
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown play policy {policy!r} (use {' or '.join(POLICIES)})")
    hands = [set(h) for h in hands]
    n = len(hands)
    if len({len(h) for h in hands}) != 1:
        raise ValueError("all hands must hold the same number of cards")
    universe = set(full_deck() if deck is None else deck)
    on_table = set() if turned_card_on_table is None else {turned_card_on_table}
    played: set[int] = set()
    tricks = [0] * n
    for _ in range(len(hands[0])):
        led_suit = win_card = win_seat = None
        rumba_played = False
        for k in range(n):
            p = (leader + k) % n
            if policy == "greedy":
                legal = legal_cards(hands[p], led_suit, win_card, trump, follow)
                card = greedy_card(legal, led_suit, win_card, trump)
            else:
                unseen = universe - hands[p] - played - on_table
                partner_wins = (rumba_player is not None and p != rumba_player and rumba_played
                                and win_seat != rumba_player)
                card = expert_card(hands[p], unseen, trump, follow, led_suit=led_suit, win_card=win_card,
                                   is_rumba_player=p == rumba_player, partner_wins=partner_wins,
                                   last_to_play=k == n - 1)
            hands[p].remove(card)
            played.add(card)
            if p == rumba_player:
                rumba_played = True
            if led_suit is None:
                led_suit, win_card, win_seat = suit_of(card), card, p
            elif card_beats(card, win_card, trump):
                win_card, win_seat = card, p
        tricks[win_seat] += 1
        leader = win_seat
    return tricks


# =============================================================================
# Score (RULES.md §4.8, §5.8; SIMULATION.md step 9)
# =============================================================================
def score_changes(rules: RuleSet, players: int, words, tricks, rumba_seat: int | None = None, knocked: bool = False,
                  passes_in_a_row=None) -> list[int]:
    """Score change per seat for one finished hand.

    ``words`` per seat: ``pass``, ``play``, ``rumba`` (``knock`` is read as
    ``rumba``; any ``throw-in`` makes the hand void). ``tricks`` per seat:
    None for passers, and for everybody when no tricks were played (a lone
    player or lone Rumba). ``rumba_seat`` defaults to the seat that said
    ``rumba``, or the dealer when ``knocked``. ``passes_in_a_row``: passes
    before this hand, per seat (default none).
    """
    words = ["rumba" if w == "knock" else w for w in words]
    if len(words) != players:
        raise ValueError(f"{len(words)} words for {players} players")
    bad = [w for w in words if w not in (PASS, PLAY, RUMBA, THROW_IN)]
    if bad:
        raise ValueError(f"unknown word {bad[0]!r}")
    passes = [0] * players if passes_in_a_row is None else list(passes_in_a_row)
    if rumba_seat is None:
        rumba_seat = players - 1 if knocked else next((s for s, w in enumerate(words) if w == RUMBA), None)
    changes = [0] * players
    active = [s for s, w in enumerate(words) if w in (PLAY, RUMBA)]
    if THROW_IN in words:  # [D-4]: void, nobody's pass
        return changes
    if not active:  # [D-6]: void; a pass only where the rule set counts it
        if rules.void_counts_as_pass:
            changes = [passer_change(rules, passes[s]) for s in range(players)]
        return changes
    for s, w in enumerate(words):
        if w == PASS:
            changes[s] = passer_change(rules, passes[s])
    if len(active) == 1:
        lone = active[0]
        if lone == rumba_seat and rules.lone_rumba_allowed:
            changes[lone] = rules.lone_rumba_score
        else:
            # [D-7] lone player; also a Rumba nobody joined where the rules
            # forbid a lone Rumba (it is a lone play).
            changes[lone] = rules.lone_player_score
        return changes
    if sum(tricks[s] for s in active) != rules.hand_size:
        raise ValueError(f"tricks {[tricks[s] for s in active]} of the active seats do not add up to {rules.hand_size}")
    for s in active:
        k = tricks[s]
        if s == rumba_seat:
            if k >= rules.rumba_min_tricks:
                changes[s] = rules.rumba_success_flat + rules.rumba_success_per_trick * k
            else:
                changes[s] = rules.rumba_fail_score
        elif rumba_seat is not None:
            changes[s] = rules.rumba_others_per_trick * k if k >= 1 else rules.rumba_others_no_trick
        else:
            changes[s] = rules.normal_per_trick * k if k >= 1 else rules.normal_no_trick
    return changes


# =============================================================================
# One hand after speaking: outcome, exchange, lead, tricks, score
# =============================================================================
def finish_hand(sit: Situation, hands: list[set[int]], spoken: Speaking, stock: list[int], hero_discards: int,
                saved_state: int, policy: str, passes: int) -> tuple[int, int, bool]:
    """(score change of seat ``sit.seat``, his tricks or -1, contested) of one hand after speaking."""
    n, seat, rules = sit.players, sit.seat, sit.rules
    active = spoken.active
    if spoken.void:  # step 5: a throw-in, void, nobody's pass [D-4]
        return 0, -1, False
    if not active:  # nobody plays: void [D-6]; a pass only where the rule set counts it
        counts = rules.void_counts_as_pass and spoken.words[seat] == PASS
        return (passer_change(rules, passes) if counts else 0), -1, False
    contested = len(active) >= 2
    if spoken.words[seat] == PASS:
        # Decision: the hero's score as a passer does not depend on the tricks,
        # so they are not played: (penalty or 0, -1, False). Always
        # ``contested == (tricks >= 0)``.
        return passer_change(rules, passes), -1, False
    passes_in_a_row = [passes if s == seat else 0 for s in range(n)]
    if not contested:  # lone Rumba / knock or lone player: no tricks
        change = score_changes(rules, n, spoken.words, [None] * n, spoken.rumba_seat, sit.knocked, passes_in_a_row)
        return change[seat], -1, False
    if spoken.rumba_seat is None:
        exchange(sit, hands, spoken.words, stock, hero_discards, saved_state)
    # step 7: lead
    if spoken.rumba_seat is not None and rules.rumba_lead == "rumba-player":
        leader = spoken.rumba_seat
    elif spoken.rumba_seat is None and sit.dealer in active:
        leader = sit.dealer
    else:
        leader = active[0]  # first active seat from seat 0 on ([D-8], [D-10])
    won = play_tricks(
        [hands[s] for s in active],
        active.index(leader),
        sit.trump,
        rules.follow_code,
        policy,
        None if spoken.rumba_seat is None else active.index(spoken.rumba_seat),
        spoken.table_card,
        deck=rules.deck,
    )
    tricks = [None] * n
    for s, k in zip(active, won, strict=False):
        tricks[s] = k
    change = score_changes(rules, n, spoken.words, tricks, spoken.rumba_seat, sit.knocked, passes_in_a_row)
    return change[seat], tricks[seat], True


# =============================================================================
# Public: one sample of a question, one sample of a blind knock
# =============================================================================
def side_suit_orders(rules: RuleSet, trump: int) -> list[dict[int, int]]:
    """Every renaming of the side suits, in lexicographic order: {old suit: new suit}."""
    sides = sorted(SUITS.index(x) for x in rules.suits if SUITS.index(x) != trump)
    return [dict(zip(sides, order, strict=True)) for order in itertools.permutations(sides)]


def renamed(card: int, rename: dict[int, int]) -> int:
    return rename.get(suit_of(card), suit_of(card)) * 16 + rank_of(card)


def simulate_sample(rules: RuleSet, players: int, seat: int, hand, trump_card: int, model: OpponentModel,
                    policy: str, passes: int = 0, knocked: bool = False, before=None, seed: int = 0,
                    index: int = 0) -> tuple[int, dict[str, tuple[int, int, bool]]]:
    """(tries used, {choice: (hero score change, hero tricks or -1, contested)}) of sample ``index``."""
    hand = list(hand)
    choices = hero_choices(rules, players, seat, hand, trump_card, knocked)
    if policy not in POLICIES:
        raise ValueError(f"unknown play policy {policy!r} (use {' or '.join(POLICIES)})")
    if before is not None:
        before = tuple(before)
        if len(before) != seat or any(w not in (PASS, PLAY) for w in before):
            raise ValueError(f"before must give 'pass' or 'play' for each of the seats 0..{seat - 1}")
    sit = Situation(rules, players, seat, trump_card, model, knocked)

    # Steps 1-2: deal the unknown cards, redraw from the same stream until the
    # earlier seats agree with what the hero has seen.
    unknown = unknown_cards(rules, hand, trump_card)
    stream = Stream(seed, index)
    for tries in range(1, MAX_TRIES + 1):
        shuffled = list(unknown)  # every try shuffles U from deck order
        shuffle(shuffled, stream)
        hands, stock = deal_opponents(shuffled, players, seat, hand, rules.hand_size)
        earlier = earlier_words(sit, hands, before)
        if earlier is not None:
            break
    else:
        raise ValueError(
            f"no deal out of {MAX_TRIES} agrees with what the hero has seen: the situation is (almost) "
            f"impossible under the opponent model {model.name!r}"
        )
    # Step 2b: rename the side suits by an order drawn for this deal, so that
    # the card play's fixed C < D < H < S tie-break favours no side suit.
    orders = side_suit_orders(rules, sit.trump)
    rename = orders[stream.below(len(orders))]
    hands = [{renamed(c, rename) for c in h} for h in hands]
    stock = [renamed(c, rename) for c in stock]
    hand = [renamed(c, rename) for c in hand]
    saved_state = stream.state

    table_card = trump_card
    if knocked:
        # The knocking dealer takes the turned card for his weakest card if it is stronger [D-3].
        hands[sit.dealer] = set(hands[sit.dealer])
        table_card = knocker_takes_turned_card(hands[sit.dealer], trump_card, sit.trump)

    results: dict[str, tuple[int, int, bool]] = {}
    for choice in choices:
        my_hands = [set(h) for h in hands]
        my_table = table_card
        if not knocked:  # step 3: the hero swaps the two of trump before he speaks
            my_hands[seat], my_table = hero_hand_after_swap(rules, hand, trump_card)
        if choice.startswith(PLAY):
            hero_word, discards = PLAY, int(choice[len(PLAY):])
        else:
            hero_word, discards = choice, 0
        spoken = speak(sit, my_hands, earlier, hero_word, my_table)
        outcome = finish_hand(sit, my_hands, spoken, stock, discards, saved_state, policy, passes)
        if spoken.void:  # a throw-in after he spoke: reported apart from "no tricks played"
            outcome = (outcome[0], VOID, outcome[2])
        elif hero_word == RUMBA and spoken.rumba_seat != seat:  # his Rumba was not allowed: he plays alone
            outcome = (outcome[0], LONE_PLAY, outcome[2])
        results[choice] = outcome
    return tries, results


def simulate_knock_sample(rules: RuleSet, players: int, trump_card: int, model: OpponentModel, policy: str,
                          seed: int = 0, index: int = 0) -> tuple[int, int, bool]:
    """(score change, tricks or -1, contested) of the dealer who knocks blind, sample ``index``."""
    if not rules.knock:
        raise ValueError(f"rule set {rules.name!r} has no knock")
    rules.check_players(players)
    rules.check_cards([trump_card])
    if policy not in POLICIES:
        raise ValueError(f"unknown play policy {policy!r} (use {' or '.join(POLICIES)})")
    dealer = players - 1
    # The hero sees nothing before knocking: one try, no conditioning.
    shuffled = [c for c in rules.deck if c != trump_card]
    stream = Stream(seed, index)
    shuffle(shuffled, stream)
    size = rules.hand_size
    hero_hand = set(shuffled[:size])  # the hero's hand is dealt first from the front
    hands, stock = deal_opponents(shuffled[size:], players, dealer, hero_hand, size)
    sit = Situation(rules, players, dealer, trump_card, model, knocked=True)
    table_card = knocker_takes_turned_card(hands[dealer], trump_card, sit.trump)
    words = [sit.answers_knock(hands[s]) for s in range(dealer)] + [RUMBA]
    spoken = Speaking(words, dealer, False, table_card)
    return finish_hand(sit, hands, spoken, stock, 0, stream.state, policy, 0)


__all__ = [
    "hero_choices",
    "simulate_sample",
    "simulate_knock_sample",
    "score_changes",
    "play_tricks",
    "expert_card",
    "speak",
    "exchange",
    "MAX_TRIES",
]
