"""Plain-Python twin of the whole-hand simulator: the game's state machine driven by the kernel's decisions.

This module follows ``docs/SIMULATION.md`` step by step (deal, conditioning,
the hero's choices, speaking, outcome, exchange, lead, tricks, score). The
rules of the hand are not written here: a :class:`rumbaodds.game.HandState`
holds them (what each seat may say, exchange and play, who leads, the score);
this module deals, draws the random numbers exactly as "Random numbers,
exactly" says, and makes every decision the kernel ``engine/hand.py`` makes:
the opponents by a :class:`~rumbaodds.opponents.policies.Policy`, the exchange by keep
value, the cards by the ``greedy`` or ``expert`` play. Tests require twin and
kernel to agree sample by sample. The earlier seats are dealt by
``condition.py``.

Comments marked "Decision" settle points where the rule book is silent; the
kernel makes the same decisions and SIMULATION.md lists them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ..cards import RANKS, SUITS, card_id
from ..engine import policy as P
from ..engine.keep import keep_value_py as keep_value
from ..game import Exchange, HandState, Knock, Phase, Play, Say, SwapTwo, Tricks, Word, speaking
from ..game.score import hand_returns, passer_change
from ..game.state import shuffle_in_place, two_of_trump
from ..opponents.policies import Policy
from ..rules import RuleSet
from .common import Stream, card_beats, greedy_card, legal_cards, rank_of, strength, suit_of
from .condition import deal_earlier_seats, four_numbers, pick, row, top_of, turn_of

PASS = "pass"
PLAY = "play"
RUMBA = "rumba"
THROW_IN = "throw-in"
WORD = {P.W_PASS: PASS, P.W_PLAY: PLAY, P.W_RUMBA: RUMBA, P.W_NONE: None}
CODE_WORD = {P.W_PASS: Word.PASS, P.W_PLAY: Word.PLAY, P.W_RUMBA: Word.RUMBA, P.W_NONE: Word.NO_RUMBA}
WORD_CODE = {Word.PASS: P.W_PASS, Word.PLAY: P.W_PLAY, Word.RUMBA: P.W_RUMBA, Word.NO_RUMBA: P.W_NONE, None: P.W_NONE}
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
    shuffle_in_place(cards, stream)


def stream_at(state: int) -> Stream:
    """A stream restarted from a saved position."""
    stream = Stream(0, 0)
    stream.state = state
    return stream


def full_deck() -> list[int]:
    return [card_id(s, r) for s in range(len(SUITS)) for r in range(len(RANKS))]


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
        return speaking.jack_forces_play(self.rules, self.trump_card)

    @property
    def rumba_first(self) -> bool:
        return speaking.rumba_first(self.rules, self.knocked)

    def score(self, cards, seat: int) -> int:
        return self.policy.score(cards, self.trump, self.top, seat)

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


def knock_discard(hand, trump_card: int, trump: int) -> int | None:
    """The knocking dealer's decision [D-3]: the turned card for his weakest card (§6) if it is stronger."""
    low = weakest(hand, trump)
    return low if strength(trump_card, trump) > strength(low, trump) else None


def knocker_takes_turned_card(hand: set[int], trump_card: int, trump: int) -> int | None:
    """``knock_discard`` made on ``hand`` in place; returns the card now lying on the table (None when taken)."""
    low = knock_discard(hand, trump_card, trump)
    if low is None:
        return trump_card
    hand.remove(low)  # goes out of play face down
    hand.add(trump_card)
    return None


# =============================================================================
# Speaking (SIMULATION.md step 4): the policy's words, the state's rules
# =============================================================================
@dataclass
class Speaking:
    """What speaking left behind: the hand state after the last word, and the words by name."""

    state: HandState
    refused: bool = False  # the hero wanted a Rumba the rules refused him (a lone flemish dealer): he plays alone

    @property
    def words(self) -> list[str]:
        return [PASS if w in (None, Word.NO_RUMBA) else w.value for w in self.state.words]

    @property
    def rumba_seat(self) -> int | None:
        return self.state.rumba_seat

    @property
    def called(self) -> int | None:
        """Who called Rumba while speaking (before a Rumba nobody joined became a lone play)."""
        return self.state.called

    @property
    def void(self) -> bool:
        """A throw-in [D-4]."""
        return self.state.thrown_in_by is not None

    @property
    def table_card(self) -> int | None:
        return self.state.table_card

    @property
    def active(self) -> list[int]:
        return [s for s, w in enumerate(self.state.words) if w in (Word.PLAY, Word.RUMBA)]


def rights(legal: list[Word]) -> tuple[bool, bool]:
    """(pass_ok, rumba_ok) of a policy row from the words the rules allow (round one: not calling is the pass)."""
    return Word.PASS in legal or Word.NO_RUMBA in legal, Word.RUMBA in legal


def opponent_speaks(sit: Situation, state: HandState, numbers: list[list[float]]) -> None:
    """Seat ``state.to_act`` (an opponent) swaps, throws in or speaks by the policy, as the kernel decides."""
    s, rules, policy = state.to_act, sit.rules, sit.policy
    codes = [WORD_CODE[w] for w in state.words]
    caller = -1 if state.rumba_seat is None else state.rumba_seat
    if state.phase is Phase.ANSWER:  # rumba-first round two: join / play or pass, knowing the outcome of round one
        players = sum(1 for c in codes[:s] if c == P.W_PLAY)
        ctx = P.CTX_RUMBA + min(players, 2) if state.rumba_seat is not None else P.CTX_OPEN + min(players, 3)
        pass_ok, _ = rights(state.legal_words())
        code = pick(row(policy, s, ctx, sit.score(state.hands[s], s), pass_ok, False), numbers[s][2])
        state.apply(Say(CODE_WORD[code]))
        return
    if state.knocked:
        turn = turn_of(s, codes, caller, True, sit.jack_forces_play, rules)
        pass_ok, rumba_ok = rights(state.legal_words())
        state.apply(Say(CODE_WORD[pick(row(policy, s, turn.ctx, sit.score(state.hands[s], s), pass_ok, rumba_ok),
                                       numbers[s][1])]))
        return
    if state.may_swap() and policy.swaps(s):
        state.apply(SwapTwo())
    legal = state.legal_words()
    if legal == [Word.NO_RUMBA]:  # Decision: no round-one turn after a Rumba, he answers in round two
        state.apply(Say(Word.NO_RUMBA))
        return
    turn = turn_of(s, codes, caller, False, sit.jack_forces_play, rules)
    score = sit.score(state.hands[s], s)
    if Word.THROW_IN in legal and numbers[s][0] < policy.throws[s, turn.ctx, score]:
        state.apply(Say(Word.THROW_IN))  # [D-4]
        return
    pass_ok, rumba_ok = rights(legal)
    code = pick(row(policy, s, turn.ctx, score, pass_ok, rumba_ok), numbers[s][1])
    word = CODE_WORD[code]
    if state.rumba_first and word is not Word.RUMBA:
        word = Word.NO_RUMBA  # round one: not said play or pass yet
    state.apply(Say(word))


def hero_speaks(state: HandState, hero_choice: str) -> bool:
    """The hero's word for his choice (pass, play or rumba); True when the rules refused his Rumba."""
    legal = state.legal_words()
    if hero_choice == RUMBA and Word.RUMBA in legal:
        state.apply(Say(Word.RUMBA))
        return False
    refused = (hero_choice == RUMBA and state.phase is Phase.SPEAK and not state.knocked
               and state.rumba_seat is None)  # a lone flemish dealer cannot call Rumba (§5.5): he plays alone
    if state.phase is Phase.SPEAK and state.rumba_first:
        state.apply(Say(Word.NO_RUMBA))  # round one: his play or pass comes in round two
    else:
        state.apply(Say(Word.PASS if hero_choice == PASS else Word.PLAY))
    return refused


def speak_on(sit: Situation, state: HandState, numbers: list[list[float]], hero_choice: str,
             hero_swaps: bool = True) -> Speaking:
    """From the hero's turn to the end of speaking; the hero swaps the two of trump when he can [D-9]."""
    refused = False
    while state.phase in (Phase.SPEAK, Phase.ANSWER):
        if state.to_act == sit.seat:
            if hero_swaps and state.may_swap():
                state.apply(SwapTwo())
            refused = hero_speaks(state, hero_choice) or refused
        else:
            opponent_speaks(sit, state, numbers)
    return Speaking(state, refused)


def speak(sit: Situation, hands: list[set[int]], earlier: list[int], numbers: list[list[float]], hero_choice: str,
          table_card: int | None, rumba_seat: int = -1, stock=(), saved_state: int = 0, passes: int = 0) -> Speaking:
    """Speaking from the hero's seat to the dealer; ``hands`` change in place by swaps.

    ``hands``: every seat's cards with the knock and an earlier swap made (``table_card`` the card face up);
    ``earlier``: the words of the seats before the hero (W_* codes); ``numbers``: every seat's four decision
    numbers; ``hero_choice``: pass, play or rumba. ``stock`` and ``saved_state`` (the stream position of the
    passers' shuffle) are the hand's, for what follows (``finish_hand``). ``rumba_seat`` is read from ``earlier``.
    """
    state = HandState.resume(sit.rules, hands, sit.trump_card, [CODE_WORD[int(c)] for c in earlier], stock=stock,
                             knocked=sit.knocked, table_card=table_card,
                             passes_in_a_row=[passes if s == sit.seat else 0 for s in range(sit.players)],
                             rng=stream_at(saved_state))
    spoken = speak_on(sit, state, numbers, hero_choice)
    for s in range(sit.players):
        hands[s].clear()
        hands[s].update(state.hands[s])
    return spoken


# =============================================================================
# Exchange (SIMULATION.md step 6)
# =============================================================================
def play_choice(choice: str, rename: dict[int, int]) -> tuple[str, int | frozenset[int]]:
    """(word, what he exchanges) of a choice name: ``play2`` exchanges the 2 cards of lowest keep value,
    ``play:5,23`` the very cards 5 and 23 (card ids as he holds them; ``rename`` is the deal's renaming of the side
    suits, which his hand went through too); any other name exchanges nothing."""
    if choice.startswith(PLAY + ":"):
        named = [int(c) for c in choice[len(PLAY) + 1:].split(",") if c]
        return PLAY, frozenset(renamed(c, rename) for c in named)
    if choice.startswith(PLAY):
        return PLAY, int(choice[len(PLAY):])
    return choice, 0


def exchange_by_policy(sit: Situation, state: HandState, hero_discards: int | frozenset[int],
                       numbers: list[list[float]]) -> None:
    """Normal game: active seats in seat order throw their lowest keep values and draw from the stock top.

    The stock (the state's, with the swiss passers' cards shuffled under it) cuts a wish: nobody discards more
    than the stock can still replace (the state refuses more). ``hero_discards``: how many cards the hero
    exchanges (his lowest keep values), or the very cards he throws (the lowest keep values among them when the
    stock runs short).
    """
    while state.phase is Phase.EXCHANGE:
        s = state.to_act
        players_before = sum(1 for e in range(s) if state.words[e] is Word.PLAY)
        named = hero_discards if s == sit.seat and isinstance(hero_discards, frozenset) else None
        if named is not None:
            count = min(len(named), len(state.stock))
            thrown = keep_order(named, sit.trump, sit.top)[:count]
        else:
            wish = hero_discards if s == sit.seat else sit.exchange_wish(s, state.hands[s], numbers[s],
                                                                         players_before)
            count = min(wish, len(state.stock))
            thrown = keep_order(state.hands[s], sit.trump, sit.top)[:count]
        state.apply(Exchange(tuple(thrown)))


def exchange(sit: Situation, hands: list[set[int]], words: list[str], stock: list[int],
             hero_discards: int | frozenset[int], numbers: list[list[float]], saved_state: int) -> None:
    """The exchange of a normal game whose words are ``words`` (hands change in place).

    Swiss: the passers' cards (seat order, each hand low card id first) are
    shuffled from the saved stream position and put under the stock. Flemish
    puts them away.
    """
    state = HandState.resume(sit.rules, hands, sit.trump_card, [Word(w) for w in words], stock=stock,
                             rng=stream_at(saved_state))
    exchange_by_policy(sit, state, hero_discards, numbers)
    for s in range(sit.players):
        hands[s].clear()
        hands[s].update(state.hands[s])


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


def chosen_card(tricks: Tricks, policy: str, universe: set[int], on_table: set[int], rumba_player: int | None) -> int:
    """The card of the player to play in ``tricks`` by the ``greedy`` or ``expert`` play."""
    p, trump = tricks.to_play, tricks.trump
    if policy == "greedy":
        return greedy_card(tricks.legal_cards(), tricks.led_suit, tricks.win_card, trump)
    unseen = universe - tricks.hands[p] - tricks.played - on_table
    rumba_played = any(i == rumba_player for i, _ in tricks.trick)
    partner_wins = (rumba_player is not None and p != rumba_player and rumba_played
                    and tricks.win_index != rumba_player)
    return expert_card(tricks.hands[p], unseen, trump, tricks.follow, led_suit=tricks.led_suit,
                       win_card=tricks.win_card, is_rumba_player=p == rumba_player, partner_wins=partner_wins,
                       last_to_play=len(tricks.trick) == len(tricks.hands) - 1)


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
    tricks = Tricks(hands, leader, trump, follow)
    universe = set(full_deck() if deck is None else deck)
    on_table = set() if turned_card_on_table is None else {turned_card_on_table}
    while not tricks.done:
        tricks.play(chosen_card(tricks, policy, universe, on_table, rumba_player))
    if log is not None:
        log.extend(tricks.log)
    return tricks.won


def play_out(state: HandState, policy: str) -> None:
    """The tricks of a hand state, every card by the play ``policy`` (the state checks each one, §3)."""
    universe = set(state.rules.deck)
    on_table = set() if state.table_card is None else {state.table_card}
    rumba = None if state.rumba_seat is None else state.active.index(state.rumba_seat)
    while state.phase is Phase.PLAY:
        state.apply(Play(chosen_card(state.tricks, policy, universe, on_table, rumba)))


# =============================================================================
# Score (RULES.md §4.8, §5.8; SIMULATION.md step 9)
# =============================================================================
def score_changes(rules: RuleSet, players: int, words, tricks, rumba_seat: int | None = None, knocked: bool = False,
                  passes_in_a_row=None) -> list[int]:
    """Score change per seat for one finished hand, by the game's score tables (``game.score``).

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
    active = [s for s, w in enumerate(words) if w in (PLAY, RUMBA)]
    if len(active) >= 2 and THROW_IN not in words and sum(tricks[s] for s in active) != rules.hand_size:
        raise ValueError(f"tricks {[tricks[s] for s in active]} of the active seats do not add up to {rules.hand_size}")
    return hand_returns(rules, [w == PASS for w in words], active, rumba_seat, tricks, not active,
                        THROW_IN in words, passes)


# =============================================================================
# One hand after speaking: outcome, exchange, lead, tricks, score
# =============================================================================
def finish_hand(sit: Situation, spoken: Speaking, hero_discards: int | frozenset[int], numbers: list[list[float]],
                policy: str, passes: int) -> tuple[int, int, bool]:
    """(score change of seat ``sit.seat``, his tricks or -1, contested) of one hand after speaking."""
    state, seat = spoken.state, sit.seat
    if state.thrown_in_by is not None:  # step 5: a throw-in, void, nobody's pass [D-4]
        return 0, -1, False
    state.passes_in_a_row = [passes if s == seat else 0 for s in range(sit.players)]
    if not state.active:  # nobody plays: void [D-6]; a pass only where the rule set counts it
        return state.returns()[seat], -1, False
    if state.words[seat] is Word.PASS:
        # Decision: the hero's score as a passer does not depend on the tricks,
        # so they are not played: (penalty or 0, -1, False).
        return passer_change(sit.rules, passes), -1, False
    if len(state.active) < 2:  # lone Rumba / knock or lone player: no tricks
        return state.returns()[seat], -1, False
    exchange_by_policy(sit, state, hero_discards, numbers)
    play_out(state, policy)
    return state.returns()[seat], state.tricks_won[seat], True


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
    from ..answer.situation import make_situation

    return make_situation(list(hand), trump_card, players, seat, rules, 0, knocked, before, swapped_by).choices()


def deal_sample(rules: RuleSet, players: int, seat: int, hand, trump_card: int, policy: Policy, plan,
                passes: int = 0, knocked: bool = False, swapped_by: int | None = None, seed: int = 0, index: int = 0):
    """Steps 1-3 of sample ``index``: (Situation, the hand state at the hero's turn, every seat's numbers, the
    stream position of the passers' shuffle, the earlier seats' deal with its tries and weight, the side suits'
    renaming {old suit: new suit} of step 2b)."""
    hand = list(hand)
    swapper = -1 if swapped_by is None else swapped_by
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

    # Step 3: the hand as dealt, the knock [D-3], and the earlier seats' swap [D-9] and words, by the rules.
    if swapper >= 0:  # he was dealt the two and swapped it for the turned card at his turn
        hands[swapper] = (hands[swapper] - {trump_card}) | {two}
    state = HandState(rules, hands, trump_card, stock, [passes if s == seat else 0 for s in range(players)])
    if knocked:  # the knocking dealer takes the turned card for his weakest card if it is stronger [D-3]
        state.apply(Knock(knock_discard(state.hands[sit.dealer], trump_card, sit.trump)))
    for s in range(seat):
        if s == swapper:
            state.apply(SwapTwo())
        state.apply(Say(CODE_WORD[int(earlier.words[s])]))
    return sit, state, numbers, saved_state, earlier, rename


def simulate_sample(rules: RuleSet, players: int, seat: int, hand, trump_card: int, policy: Policy, plan,
                    card_play: str, passes: int = 0, knocked: bool = False, swapped_by: int | None = None,
                    seed: int = 0, index: int = 0, choices=None):
    """(tries, weight, {choice: (score change, tricks or code, contested, round-one caller or -1)}) of one sample.

    ``plan``: the conditioning plan (``rumbaodds.answer.conditioning.make_plan``); ``choices``: names, default all.
    """
    if card_play not in POLICIES:
        raise ValueError(f"unknown play policy {card_play!r} (use {' or '.join(POLICIES)})")
    hand = list(hand)
    if choices is None:
        from ..answer.situation import WORD_NAMES

        before = [WORD_NAMES[int(w)] for w in plan.words[:seat]]
        choices = hero_choices(rules, players, seat, hand, trump_card, knocked, before, swapped_by)
    sit, state, numbers, saved_state, earlier, rename = deal_sample(rules, players, seat, hand, trump_card, policy,
                                                                    plan,
                                                            passes, knocked, swapped_by, seed, index)

    results = {}
    for choice in choices:
        if choice == THROW_IN:  # [D-4]: void, nobody's pass
            results[choice] = (0, VOID, False, -1)
            continue
        mine = state.copy()
        mine.rng = stream_at(saved_state)
        word, discards = play_choice(choice, rename)
        spoken = speak_on(sit, mine, numbers, word)
        caller = spoken.called if sit.rumba_first and not spoken.void and spoken.called is not None else -1
        outcome = finish_hand(sit, spoken, discards, numbers, card_play, passes)
        if spoken.void:  # a throw-in after he spoke: reported apart from "no tricks played"
            outcome = (outcome[0], VOID, outcome[2])
        elif word == RUMBA and (spoken.called == seat or spoken.refused) and spoken.rumba_seat != seat:
            outcome = (outcome[0], LONE_PLAY, outcome[2])  # refused: he plays alone
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
    state = HandState(rules, hands, trump_card, stock, rng=stream_at(stream.state))
    state.apply(Knock(knock_discard(state.hands[dealer], trump_card, sit.trump)))
    while state.phase is Phase.SPEAK:  # everybody else joins or not, in seat order (the knock context)
        opponent_speaks(sit, state, numbers)
    return finish_hand(sit, Speaking(state), 0, numbers, card_play, 0)


__all__ = [
    "hero_choices",
    "deal_sample",
    "simulate_sample",
    "simulate_knock_sample",
    "score_changes",
    "play_tricks",
    "play_out",
    "expert_card",
    "speak",
    "speak_on",
    "exchange",
    "exchange_by_policy",
    "finish_hand",
    "knock_discard",
]
