"""Plain-Python twin of the whole-hand simulator: the readable specification.

This module follows ``docs/SIMULATION.md`` step by step (deal, conditioning,
the hero's choices, speaking, outcome, exchange, lead, tricks, score). It is
written for reading, not for speed: hands are Python sets of card ids
(``suit * 16 + rank``, cards.py). The Numba kernel ``engine/hand.py``
implements the same procedure and tests require both to agree sample by
sample, so the random numbers are drawn exactly as "Random numbers, exactly"
says. The earlier seats are dealt by ``twin_condition.py``; opponents decide
by a :class:`~rumbaodds.policies.Policy`.

Comments marked "Decision" settle points where the rule book is silent; the
kernel makes the same decisions and SIMULATION.md lists them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ..cards import RANKS, SUITS, card_id
from ..models import keep_value
from ..policies import Policy
from ..rules import RuleSet
from . import policy as P
from .twin import Stream, card_beats, greedy_card, legal_cards, rank_of, strength, suit_of
from .twin_condition import deal_earlier_seats, four_numbers, may_throw_in, pick, row, top_of, turn_of

PASS = "pass"
PLAY = "play"
RUMBA = "rumba"
THROW_IN = "throw-in"
WORD = {P.W_PASS: PASS, P.W_PLAY: PLAY, P.W_RUMBA: RUMBA, P.W_NONE: None}
# the tricks a choice reports when none were played (SIMULATION.md "What a run reports")
NO_TRICKS, LONE_PLAY, VOID = -1, -2, -3
POLICIES = ("greedy", "expert")


# =============================================================================
# Small helpers
# =============================================================================
def weakest(cards, trump: int) -> int:
    """Weakest card by the greedy strength order (RULES.md §6)."""
    return min(cards, key=lambda c: strength(c, trump))


def strongest(cards, trump: int) -> int:
    return max(cards, key=lambda c: strength(c, trump))


def keep_order(cards, trump: int, top: int) -> list[int]:
    """Cards from the lowest keep value up; ties broken weakest first by RULES.md §6."""
    return sorted(cards, key=lambda c: (keep_value(c, trump, top), strength(c, trump)))


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


def two_of_trump(trump_card: int) -> int:
    return card_id(suit_of(trump_card), RANKS.index("2"))


# =============================================================================
# The question, and how the opponents decide
# =============================================================================
@dataclass(frozen=True)
class Situation:
    rules: RuleSet
    players: int
    seat: int  # the hero's seat
    trump_card: int
    policy: Policy
    knocked: bool

    @property
    def dealer(self) -> int:
        return self.players - 1

    @property
    def trump(self) -> int:
        return suit_of(self.trump_card)

    @property
    def top(self) -> int:
        return top_of(self.rules)

    @property
    def jack_forces_play(self) -> bool:
        """Flemish: a jack of trump turned forces everybody to play (RULES.md §5.2)."""
        return self.rules.jack_of_trump_forces_play and rank_of(self.trump_card) == RANKS.index("J")

    @property
    def rumba_first(self) -> bool:
        return self.rules.speaking_order == "rumba-first" and not self.knocked

    def score(self, cards, seat: int) -> int:
        return self.policy.score(cards, self.trump, self.top, seat)

    def may_swap(self, cards, table_card: int) -> bool:
        """Decision: only the card first turned can be taken, never after a knock [D-9]."""
        two = two_of_trump(self.trump_card)
        return (self.rules.two_of_trump_swap and not self.knocked and table_card == self.trump_card
                and self.trump_card != two and two in cards)

    def exchange_wish(self, s: int, cards, numbers: list[float], players_before: int) -> int:
        """How many cards opponent ``s`` wants to exchange, before the stock cuts it (by the context he spoke in)."""
        limit = self.rules.exchange_limit
        if self.policy.ints[s, P.P_EXCHANGE_MODE] == P.EXCHANGE_BY_KEEP:
            below = self.policy.ints[s, P.P_DISCARD_BELOW]
            return min(limit, sum(1 for c in cards if keep_value(c, self.trump, self.top) < below))
        ctx = P.CTX_OPEN + min(players_before, 3)
        probs = [float(self.policy.exchanges[s, ctx, self.score(cards, s), k]) for k in range(limit + 1)]
        total = sum(probs)
        if total <= 0.0:
            return 0
        acc = 0.0
        for k, p in enumerate(probs):
            acc += p / total
            if numbers[3] < acc:
                return k
        return limit


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
# Speaking (SIMULATION.md step 4)
# =============================================================================
@dataclass
class Speaking:
    """What speaking left behind."""

    words: list[str]
    rumba_seat: int | None  # the Rumba caller or the knocking dealer
    void: bool  # a throw-in after the hero spoke
    table_card: int | None  # the card face up on the table (None: the knocking dealer took it)
    called: int | None = None  # rumba-first: who called Rumba in round one

    @property
    def active(self) -> list[int]:
        return [s for s, w in enumerate(self.words) if w in (PLAY, RUMBA)]


def speak(sit: Situation, hands: list[set[int]], earlier: list[int], numbers: list[list[float]], hero_choice: str,
          table_card: int | None, rumba_seat: int) -> Speaking:
    """Speaking from the hero's seat to the dealer; ``hands`` change in place by swaps.

    ``earlier``: the words of the seats before the hero (W_* codes); ``numbers``:
    every seat's four decision numbers; ``hero_choice``: pass, play or rumba.
    """
    n, seat, rules, policy = sit.players, sit.seat, sit.rules, sit.policy
    codes: list[int] = list(earlier) + [P.W_NONE] * (n - seat)
    if sit.knocked:
        rumba_seat = sit.dealer
        codes[sit.dealer] = P.W_RUMBA
    for s in range(seat, n):
        if s == seat:
            if hero_choice == RUMBA and rumba_seat < 0:
                rumba_seat = s
                codes[s] = P.W_RUMBA
            elif sit.rumba_first:
                codes[s] = P.W_NONE
            else:
                codes[s] = P.W_PASS if hero_choice == PASS else P.W_PLAY
            continue
        if sit.knocked:
            if s == sit.dealer:
                continue
            turn = turn_of(s, codes, sit.dealer, True, sit.jack_forces_play, rules)
            codes[s] = pick(row(policy, s, turn.ctx, sit.score(hands[s], s), turn.pass_ok, False), numbers[s][1])
            continue
        if sit.may_swap(hands[s], table_card) and policy.swaps(s):
            two = two_of_trump(sit.trump_card)
            hands[s].remove(two)
            hands[s].add(sit.trump_card)
            table_card = two
        if sit.rumba_first and rumba_seat >= 0:
            codes[s] = P.W_NONE  # Decision: no round-one turn after a Rumba, he answers in round two
            continue
        turn = turn_of(s, codes, rumba_seat, False, sit.jack_forces_play, rules)
        score = sit.score(hands[s], s)
        if turn.throw_ok and may_throw_in(hands[s], rules) and numbers[s][0] < policy.throws[s, turn.ctx, score]:
            return Speaking(_names(codes), rumba_seat if rumba_seat >= 0 else None, True, table_card)  # [D-4]
        rumba_ok = turn.rumba_ok
        if not sit.rumba_first and s == sit.dealer and not rules.lone_rumba_allowed \
                and not any(c == P.W_PLAY for c in codes[:s]):
            rumba_ok = False  # a lone player cannot call Rumba (flemish §5.5)
        word = pick(row(policy, s, turn.ctx, score, turn.pass_ok, rumba_ok), numbers[s][1])
        if word == P.W_RUMBA:
            rumba_seat = s
        codes[s] = word if not sit.rumba_first or word == P.W_RUMBA else P.W_NONE
    called = rumba_seat if rumba_seat >= 0 else None
    if sit.rumba_first:
        # round two: everybody but the caller, seat 0 first, says play (join) or pass knowing the outcome
        for s in range(n):
            if s == rumba_seat:
                continue
            if s == seat:
                codes[s] = P.W_PASS if hero_choice == PASS else P.W_PLAY
                continue
            players = sum(1 for c in codes[:s] if c == P.W_PLAY)
            if rumba_seat >= 0:
                ctx = P.CTX_RUMBA + min(players, 2)
                # Decision: "must play" binds the players after the caller (RULES.md §5.4)
                pass_ok = not (sit.jack_forces_play or (rules.others_after_rumba == "must-play" and s > rumba_seat))
            else:
                ctx = P.CTX_OPEN + min(players, 3)
                pass_ok = not sit.jack_forces_play
            codes[s] = pick(row(policy, s, ctx, sit.score(hands[s], s), pass_ok, False), numbers[s][2])
    if rumba_seat >= 0 and not rules.lone_rumba_allowed and not sit.knocked \
            and not any(c == P.W_PLAY for i, c in enumerate(codes) if i != rumba_seat):
        # a Rumba the rules forbid (nobody else plays) is a lone play: lone_player_score
        codes[rumba_seat] = P.W_PLAY
        rumba_seat = -1
    return Speaking(_names(codes), rumba_seat if rumba_seat >= 0 else None, False, table_card, called)


def _names(codes: list[int]) -> list[str]:
    return [WORD.get(c) or PASS for c in codes]


# =============================================================================
# Exchange (SIMULATION.md step 6)
# =============================================================================
def exchange(sit: Situation, hands: list[set[int]], words: list[str], stock: list[int], hero_discards: int,
             numbers: list[list[float]], saved_state: int) -> None:
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
        players_before = sum(1 for e in range(s) if words[e] == PLAY)
        wish = hero_discards if s == sit.seat else sit.exchange_wish(s, hands[s], numbers[s], players_before)
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
                turned_card_on_table: int | None = None, deck=None, log: list | None = None) -> list[int]:
    """Tricks per seat of the active seats (``hands`` in seat order, ``leader`` and ``rumba_player`` index them).

    ``turned_card_on_table``: the card face up on the table (the turned card,
    the two of trump after a swap, None after the knocking dealer took it).
    ``deck``: the rule set's deck, which the expert's unseen cards come from
    (default: all 52 cards). ``log``, if given, receives one ``(leader, [(index, card), ...], winner)`` per trick.
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
        trick = []
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
            trick.append((p, card))
            if p == rumba_player:
                rumba_played = True
            if led_suit is None:
                led_suit, win_card, win_seat = suit_of(card), card, p
            elif card_beats(card, win_card, trump):
                win_card, win_seat = card, p
        tricks[win_seat] += 1
        if log is not None:
            log.append((leader, trick, win_seat))
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
def leader_of(rules: RuleSet, dealer: int, active: list[int], rumba_seat: int | None) -> int:
    """Step 7: the Rumba player (swiss) or the first active from seat 0 [D-10]; a normal game: the dealer
    (swiss [D-8]) or the first active from seat 0 on (flemish §5.7); an inactive dealer: the first active."""
    if rumba_seat is not None:
        return rumba_seat if rules.rumba_lead == "rumba-player" else active[0]
    if rules.normal_lead == "dealer" and dealer in active:
        return dealer
    return active[0]


def finish_hand(sit: Situation, hands: list[set[int]], spoken: Speaking, stock: list[int], hero_discards: int,
                numbers: list[list[float]], saved_state: int, policy: str, passes: int) -> tuple[int, int, bool]:
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
        # so they are not played: (penalty or 0, -1, False).
        return passer_change(rules, passes), -1, False
    passes_in_a_row = [passes if s == seat else 0 for s in range(n)]
    if not contested:  # lone Rumba / knock or lone player: no tricks
        change = score_changes(rules, n, spoken.words, [None] * n, spoken.rumba_seat, sit.knocked, passes_in_a_row)
        return change[seat], -1, False
    if spoken.rumba_seat is None:
        exchange(sit, hands, spoken.words, stock, hero_discards, numbers, saved_state)
    leader = leader_of(rules, sit.dealer, active, spoken.rumba_seat)
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


def hero_choices(rules: RuleSet, players: int, seat: int, hand, trump_card: int, knocked: bool = False,
                 before=None, swapped_by: int | None = None) -> list[str]:
    """The hero's choices, from the API's Situation (one definition of what is allowed)."""
    from ..situation import make_situation

    return make_situation(list(hand), trump_card, players, seat, rules, 0, knocked, before, swapped_by).choices()


def simulate_sample(rules: RuleSet, players: int, seat: int, hand, trump_card: int, policy: Policy, plan,
                    card_play: str, passes: int = 0, knocked: bool = False, swapped_by: int | None = None,
                    seed: int = 0, index: int = 0, choices=None):
    """(tries, weight, {choice: (score change, tricks or code, contested, round-one caller or -1)}) of one sample.

    ``plan``: the conditioning plan (``rumbaodds.conditioning.make_plan``); ``choices``: names, default all.
    """
    if card_play not in POLICIES:
        raise ValueError(f"unknown play policy {card_play!r} (use {' or '.join(POLICIES)})")
    hand = list(hand)
    swapper = -1 if swapped_by is None else swapped_by
    if choices is None:
        from ..conditioning import WORD_NAMES

        before = [WORD_NAMES[int(w)] for w in plan.words[:seat]]
        choices = hero_choices(rules, players, seat, hand, trump_card, knocked, before, swapped_by)
    sit = Situation(rules, players, seat, trump_card, policy, knocked)
    two = two_of_trump(trump_card)
    known = set(hand) | {trump_card} | ({two} if swapper >= 0 else set())
    unknown = [c for c in rules.deck if c not in known]  # U, in deck order
    stream = Stream(seed, index)

    # Steps 1-2: the earlier seats as the hero saw them, then the rest of the shuffle.
    earlier = deal_earlier_seats(rules, players, seat, unknown, trump_card, policy, plan, knocked, swapper, stream)
    hands = earlier.hands + [set(hand)]
    rest = list(earlier.rest)
    for _s in range(seat + 1, players):
        hands.append(set(rest[:rules.hand_size]))
        rest = rest[rules.hand_size:]
    stock = rest
    numbers = earlier.numbers + [[0.0] * 4] + [four_numbers(stream) for _ in range(seat + 1, players)]
    # Step 2b: rename the side suits by an order drawn for this deal.
    orders = side_suit_orders(rules, sit.trump)
    rename = orders[stream.below(len(orders))]
    hands = [{renamed(c, rename) for c in h} for h in hands]
    stock = [renamed(c, rename) for c in stock]
    saved_state = stream.state

    table_card: int | None = two if swapper >= 0 else trump_card
    if knocked:  # the knocking dealer takes the turned card for his weakest card if it is stronger [D-3]
        table_card = knocker_takes_turned_card(hands[sit.dealer], trump_card, sit.trump)
    if sit.may_swap(hands[seat], table_card):  # step 3: the hero swaps the two of trump before he speaks
        hands[seat].remove(two)
        hands[seat].add(trump_card)
        table_card = two

    results = {}
    for choice in choices:
        if choice == THROW_IN:  # [D-4]: void, nobody's pass
            results[choice] = (0, VOID, False, -1)
            continue
        my_hands = [set(h) for h in hands]
        word, discards = (PLAY, int(choice[len(PLAY):])) if choice.startswith(PLAY) else (choice, 0)
        spoken = speak(sit, my_hands, earlier.words, numbers, word, table_card, earlier.rumba_seat)
        caller = spoken.called if sit.rumba_first and not spoken.void and spoken.called is not None else -1
        outcome = finish_hand(sit, my_hands, spoken, stock, discards, numbers, saved_state, card_play, passes)
        if spoken.void:  # a throw-in after he spoke: reported apart from "no tricks played"
            outcome = (outcome[0], VOID, outcome[2])
        elif word == RUMBA and spoken.called == seat and spoken.rumba_seat != seat:  # refused: he plays alone
            outcome = (outcome[0], LONE_PLAY, outcome[2])
        results[choice] = (*outcome, caller)
    return earlier.tries, earlier.weight, results


def simulate_knock_sample(rules: RuleSet, players: int, trump_card: int, policy: Policy, card_play: str,
                          seed: int = 0, index: int = 0) -> tuple[int, int, bool]:
    """(score change, tricks or -1, contested) of the dealer who knocks blind, sample ``index``."""
    if not rules.knock:
        raise ValueError(f"rule set {rules.name!r} has no knock")
    rules.check_players(players)
    rules.check_cards([trump_card])
    dealer = players - 1
    # The hero sees nothing before knocking: one shuffle, no conditioning.
    shuffled = [c for c in rules.deck if c != trump_card]
    stream = Stream(seed, index)
    shuffle(shuffled, stream)
    size = rules.hand_size
    hero_hand = set(shuffled[:size])  # the dealer's hand is dealt first from the front
    hands = [set(shuffled[size * (s + 1):size * (s + 2)]) for s in range(dealer)] + [hero_hand]
    stock = shuffled[size * players:]
    numbers = [four_numbers(stream) for _ in range(dealer)] + [[0.0] * 4]
    sit = Situation(rules, players, dealer, trump_card, policy, knocked=True)
    table_card = knocker_takes_turned_card(hands[dealer], trump_card, sit.trump)
    codes: list[int] = []
    for s in range(dealer):  # everybody else joins or not, in seat order (the knock context)
        turn = turn_of(s, codes, dealer, True, sit.jack_forces_play, rules)
        codes.append(pick(row(policy, s, turn.ctx, sit.score(hands[s], s), turn.pass_ok, False), numbers[s][1]))
    spoken = Speaking(_names(codes) + [RUMBA], dealer, False, table_card)
    return finish_hand(sit, hands, spoken, stock, 0, numbers, stream.state, card_play, 0)


__all__ = [
    "hero_choices",
    "simulate_sample",
    "simulate_knock_sample",
    "score_changes",
    "play_tricks",
    "expert_card",
    "speak",
    "exchange",
    "leader_of",
]
