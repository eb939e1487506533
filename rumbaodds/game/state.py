"""One hand of Rumba as a state machine (RULES.md §2-§5), in the manner of OpenSpiel / pokerkit.

A :class:`HandState` holds the deal (hands by seat, the turned card, the
stock), what was said, the exchanges and the tricks. At every point it says
who is to act and what he may do (``legal_actions``, with ``legal_words``,
``legal_exchanges``, ``legal_cards`` per kind); ``apply`` makes a move and
refuses one the rules forbid (:class:`IllegalAction`); ``returns`` gives every
seat's score change once the hand is over. Decisions are the caller's (a
policy, a test, a solver): this module only holds the rules, each clause
citing its RULES.md section or decision tag.

Seats are numbered from the player left of the dealer: seat 0 speaks first,
seat ``players - 1`` is the dealer (§2). Randomness enters in one place, the
shuffle of the passers' cards under the swiss stock (§4.6); it is drawn from
the ``rng`` passed in (anything with ``below(bound)``), so a twin can replay a
kernel's draws exactly.
"""

from __future__ import annotations

import copy
from itertools import combinations

from ..cards import RANKS, card_id
from ..rules import RuleSet
from . import speaking as S
from .actions import Action, Exchange, IllegalAction, Knock, Phase, Play, Say, SwapTwo, Word
from .score import hand_returns
from .tricks import Tricks, suit_of


def two_of_trump(trump_card: int) -> int:
    return card_id(suit_of(trump_card), RANKS.index("2"))


def shuffle_in_place(cards: list[int], rng) -> None:
    """Fisher-Yates over the whole list, ``len(cards)`` draws (the last one is ``below(1)``)."""
    for j in range(len(cards)):
        k = j + rng.below(len(cards) - j)
        cards[j], cards[k] = cards[k], cards[j]


class HandState:
    """One hand from the deal to the score.

    ``hands``: every seat's cards as dealt; ``stock``: the undealt cards under the turned card, top first;
    ``passes_in_a_row``: each seat's passes before this hand (swiss rule 17); ``rng``: draws the shuffle of
    the passers' cards (only needed where ``passer_cards`` is ``stock-bottom`` and a normal game is played).
    """

    def __init__(self, rules: RuleSet, hands, trump_card: int, stock=(), passes_in_a_row=None, rng=None):
        n = len(hands)
        if n < 2:
            raise ValueError("a hand needs at least two players")
        dealt = [c for h in hands for c in h] + list(stock)
        if len(set(dealt)) != len(dealt):
            raise ValueError("a card lies twice in the hands and the stock")
        if len({len(set(h)) for h in hands}) != 1:
            raise ValueError("every seat must hold the same number of cards")
        self.rules = rules
        self.players = n
        self.hands: list[set[int]] = [set(h) for h in hands]
        self.trump_card = trump_card
        self.trump = suit_of(trump_card)
        self.table_card: int | None = trump_card  # §4.1 / §5.1: face up on the table, never drawn [D-2]
        self.stock = list(stock)
        self.passes_in_a_row = [0] * n if passes_in_a_row is None else list(passes_in_a_row)
        self.rng = rng
        self.jack_forced = S.jack_forces_play(rules, trump_card)
        self.knocked = False
        self.phase = Phase.SPEAK
        self.to_act: int | None = 0
        self.words: list[Word | None] = [None] * n  # the last word of each seat
        self.rumba_seat: int | None = None
        self.called: int | None = None  # who called Rumba while speaking (before a lone Rumba becomes a lone play)
        self.swapped_by: int | None = None
        self.unasked: set[int] = set()  # rumba-first: seats that had no round-one turn after a Rumba call
        self.thrown_in_by: int | None = None
        self.exchanges: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []  # (seat, discarded, drawn)
        self.active: list[int] = []
        self.leader: int | None = None
        self.tricks: Tricks | None = None
        self._spoke = False  # the seat to act has said his word of this round (a swap comes before it)

    @classmethod
    def resume(cls, rules: RuleSet, hands, trump_card: int, said=(), *, stock=(), knocked: bool = False,
               table_card: int | None = None, passes_in_a_row=None, rng=None) -> HandState:
        """A hand whose knock [D-3] and two-of-trump swap [D-9] are already made in ``hands`` and ``table_card``
        (default: the turned card), then the words ``said`` by seats 0, 1, ... replayed by the rules.

        For callers that deal a hand part-way, as the twins do (the swapper's and the knocker's cards already
        in place); every word is still checked.
        """
        state = cls(rules, hands, trump_card, stock, passes_in_a_row, rng)
        state.table_card = trump_card if table_card is None and not knocked else table_card
        if knocked:
            state.knocked = True
            state.rumba_seat = state.called = state.dealer
            state.words[state.dealer] = Word.RUMBA
        two = two_of_trump(trump_card)
        if state.table_card == two and two != trump_card:
            state.swapped_by = next(s for s in range(state.players) if trump_card in state.hands[s])
        state._next_speaker(0)
        for word in said:
            state.apply(Say(word))
        return state

    # -- reading the state ----------------------------------------------------------------
    @property
    def dealer(self) -> int:
        return self.players - 1

    @property
    def rumba_first(self) -> bool:
        return S.rumba_first(self.rules, self.knocked)

    @property
    def done(self) -> bool:
        return self.phase is Phase.DONE

    @property
    def void(self) -> bool:
        """Thrown in [D-4] or nobody plays [D-6]: no tricks, dealt again."""
        return self.done and (self.thrown_in_by is not None or not self.active)

    @property
    def tricks_won(self) -> list[int | None]:
        """Tricks per seat; None for a seat not in the play (and for everybody when no tricks were played)."""
        out: list[int | None] = [None] * self.players
        if self.tricks is not None:
            for i, s in enumerate(self.active):
                out[s] = self.tricks.won[i]
        return out

    def copy(self) -> HandState:
        """An independent copy of the hand (the rng is shared: give the copy its own to branch the stream)."""
        twin = copy.copy(self)
        twin.hands = [set(h) for h in self.hands]
        twin.stock = list(self.stock)
        twin.passes_in_a_row = list(self.passes_in_a_row)
        twin.words = list(self.words)
        twin.unasked = set(self.unasked)
        twin.exchanges = list(self.exchanges)
        twin.active = list(self.active)
        twin.tricks = copy.deepcopy(self.tricks)
        if twin.tricks is not None:
            for i, s in enumerate(twin.active):
                twin.hands[s] = twin.tricks.hands[i]
        return twin

    # -- what the seat to act may do ------------------------------------------------------------
    def may_knock(self) -> bool:
        """Swiss rule 7 [D-3]: the dealer, before anybody speaks and before looking at his cards."""
        return (self.rules.knock and self.phase is Phase.SPEAK and not self.knocked and self.to_act == 0
                and not self._spoke and self.swapped_by is None and all(w is None for w in self.words))

    def may_swap(self) -> bool:
        """[D-9]: at his turn, before speaking, the two of trump for the turned card; only the card first turned,
        never after a knock."""
        s = self.to_act
        two = two_of_trump(self.trump_card)
        return (self.rules.two_of_trump_swap and self.phase is Phase.SPEAK and not self._spoke and not self.knocked
                and self.table_card == self.trump_card and self.trump_card != two and two in self.hands[s])

    def legal_words(self) -> list[Word]:
        """The words open to the seat to act (§4.2-§4.4, §5.2-§5.5)."""
        s, rules = self.to_act, self.rules
        if self.phase is Phase.SPEAK:
            if self.knocked:  # §4.2: nobody else calls Rumba or throws in; join or pass
                words = [] if S.must_play(rules, s, self.rumba_seat, True, self.jack_forced) else [Word.PASS]
                return words + [Word.PLAY]
            throw = S.may_throw_in(rules, self.hands[s], False, self.rumba_seat is not None)
            if self.rumba_first:  # round one: who calls Rumba; after a call the others answer in round two
                if self.rumba_seat is not None:
                    return [Word.NO_RUMBA]
                return [Word.NO_RUMBA, Word.RUMBA] + ([Word.THROW_IN] if throw else [])
            words = [] if S.must_play(rules, s, self.rumba_seat, False, self.jack_forced) else [Word.PASS]
            words.append(Word.PLAY)
            passed = all(w is Word.PASS for w in self.words[:s])
            if S.may_call_rumba(rules, self.players, s, self.rumba_seat, False, passed):
                words.append(Word.RUMBA)
            return words + ([Word.THROW_IN] if throw else [])
        if self.phase is Phase.ANSWER:  # rumba-first round two: play or pass, knowing the call
            words = [] if S.must_play(rules, s, self.rumba_seat, False, self.jack_forced) else [Word.PASS]
            words.append(Word.PLAY)
            if s in self.unasked and S.may_throw_in(rules, self.hands[s], False, True):
                words.append(Word.THROW_IN)  # his first turn to speak [D-4]
            return words
        return []

    def legal_exchanges(self) -> list[Exchange]:
        """§4.6 / §5.6: 0..exchange_limit of his cards, no more than the stock can still replace (Decision)."""
        if self.phase is not Phase.EXCHANGE:
            return []
        hand = sorted(self.hands[self.to_act])
        most = min(self.rules.exchange_limit, len(self.stock))
        return [Exchange(c) for k in range(most + 1) for c in combinations(hand, k)]

    def legal_cards(self) -> list[int]:
        if self.phase is not Phase.PLAY:
            return []
        return sorted(self.tricks.legal_cards())

    def legal_actions(self) -> list[Action]:
        if self.phase in (Phase.SPEAK, Phase.ANSWER):
            out: list[Action] = []
            if self.may_knock():
                out += [Knock(None)] + [Knock(c) for c in sorted(self.hands[self.dealer])]
            if self.may_swap():
                out.append(SwapTwo())
            return out + [Say(w) for w in self.legal_words()]
        if self.phase is Phase.EXCHANGE:
            return list(self.legal_exchanges())
        if self.phase is Phase.PLAY:
            return [Play(c) for c in self.legal_cards()]
        return []

    # -- moves -------------------------------------------------------------------------------------
    def apply(self, action: Action) -> HandState:
        """Make one move (in place; returns self); an illegal one raises :class:`IllegalAction`."""
        if self.done:
            raise IllegalAction("the hand is over")
        if isinstance(action, Knock):
            self._knock(action)
        elif isinstance(action, SwapTwo):
            if not self.may_swap():
                raise IllegalAction(f"seat {self.to_act} cannot swap the two of trump now [D-9]")
            two = two_of_trump(self.trump_card)
            self.hands[self.to_act] = (self.hands[self.to_act] - {two}) | {self.trump_card}
            self.table_card = two  # the two lies face up in its place
            self.swapped_by = self.to_act
        elif isinstance(action, Say):
            self._say(action.word)
        elif isinstance(action, Exchange):
            self._exchange(action)
        elif isinstance(action, Play):
            if self.phase is not Phase.PLAY or action.card not in self.tricks.legal_cards():
                raise IllegalAction(f"card {action.card} may not be played now (RULES.md §3)")
            self.tricks.play(action.card)
            if self.tricks.done:
                self._finish()
            else:
                self.to_act = self.active[self.tricks.to_play]
        else:
            raise IllegalAction(f"unknown action {action!r}")
        return self

    def _knock(self, action: Knock) -> None:
        if not self.may_knock():
            raise IllegalAction("only the dealer knocks, before anybody speaks, where the rule set has it (rule 7)")
        hand = self.hands[self.dealer]
        if action.discard is not None:
            if action.discard not in hand:
                raise IllegalAction("the knocking dealer gives one of his own cards for the turned card [D-3]")
            hand.discard(action.discard)  # out of play, face down
            hand.add(self.trump_card)
            self.table_card = None
        self.knocked = True
        self.rumba_seat = self.called = self.dealer
        self.words[self.dealer] = Word.RUMBA  # he is the Rumba player (rule 7)
        self._next_speaker(0)

    def _say(self, word: Word) -> None:
        if self.phase not in (Phase.SPEAK, Phase.ANSWER) or word not in self.legal_words():
            raise IllegalAction(f"seat {self.to_act} may not say {word.value} now "
                                f"(may: {', '.join(w.value for w in self.legal_words()) or 'nothing'})")
        s = self.to_act
        self._spoke = True
        if word is Word.THROW_IN:  # [D-4]: the hand is void, dealt again; nobody's pass
            self.words[s] = word
            self.thrown_in_by = s
            self._end(Phase.DONE)
            return
        self.words[s] = word
        if word is Word.RUMBA:
            self.rumba_seat = self.called = s
        self._next_speaker(s + 1)

    def _next_speaker(self, start: int) -> None:
        """The next seat to speak from ``start`` on, or the end of the round."""
        n = self.players
        self._spoke = False
        if self.phase is Phase.SPEAK:
            for s in range(start, n):
                if self.knocked and s == self.dealer:
                    continue  # the knocking dealer has spoken
                if self.rumba_first and self.rumba_seat is not None and s > self.rumba_seat:
                    self.unasked.add(s)  # round one ends for him unasked, but he may still swap first [D-9]
                self.to_act = s
                return
            if self.rumba_first:  # round two, seat 0 first, everybody but the caller
                self.phase = Phase.ANSWER
                start = 0
            else:
                self._end_of_speaking()
                return
        for s in range(start, n):
            if s != self.rumba_seat:
                self.to_act = s
                return
        self._end_of_speaking()

    def _end_of_speaking(self) -> None:
        """§4.5 / §5.5: void, a lone player or lone Rumba without tricks, or the exchange and the play."""
        rules = self.rules
        others = [s for s, w in enumerate(self.words) if w is Word.PLAY and s != self.rumba_seat]
        if self.rumba_seat is not None and not others and not rules.lone_rumba_allowed and not self.knocked:
            # a Rumba the rules forbid (nobody else plays) is a lone play (flemish §5.5)
            self.words[self.rumba_seat] = Word.PLAY
            self.rumba_seat = None
        self.active = [s for s, w in enumerate(self.words) if w in (Word.PLAY, Word.RUMBA)]
        if len(self.active) < 2:  # [D-6] nobody plays: void; one player: he scores without tricks [D-7]
            self._end(Phase.DONE)
            return
        if self.rumba_seat is None:  # §4.6 / §5.6: the exchange, only in a normal game
            if rules.passer_cards == "stock-bottom":  # the passers' cards, shuffled, under the stock
                passers = [c for s in range(self.players) if self.words[s] is Word.PASS for c in sorted(self.hands[s])]
                if passers:
                    if self.rng is None:
                        raise ValueError("the passers' cards go under the stock shuffled: the hand needs an rng")
                    shuffle_in_place(passers, self.rng)
                self.stock += passers
            # flemish: the passers' cards are put away, not into the stock
            self.phase = Phase.EXCHANGE
            self.to_act = self.active[0]
            return
        self._start_play()

    def _exchange(self, action: Exchange) -> None:
        if self.phase is not Phase.EXCHANGE:
            raise IllegalAction("no exchange now: only in a normal game, after speaking (§4.6, §5.6)")
        s = self.to_act
        thrown = tuple(action.discards)
        if len(set(thrown)) != len(thrown) or not set(thrown) <= self.hands[s]:
            raise IllegalAction(f"seat {s} can only exchange cards of his own hand")
        if len(thrown) > min(self.rules.exchange_limit, len(self.stock)):
            raise IllegalAction(f"seat {s} may exchange at most {self.rules.exchange_limit} cards, and no more than "
                                f"the {len(self.stock)} left in the stock")
        drawn = tuple(self.stock[:len(thrown)])
        self.stock = self.stock[len(thrown):]
        self.hands[s] = (self.hands[s] - set(thrown)) | set(drawn)  # the discards are out of play
        self.exchanges.append((s, thrown, drawn))
        later = [a for a in self.active if a > s]
        if later:
            self.to_act = later[0]
        else:
            self._start_play()

    def lead_seat(self) -> int:
        return lead_seat(self.rules, self.dealer, self.active, self.rumba_seat)

    def _start_play(self) -> None:
        self.phase = Phase.PLAY
        self.leader = self.lead_seat()
        self.tricks = Tricks([self.hands[s] for s in self.active], self.active.index(self.leader), self.trump,
                             self.rules.follow_code)
        for i, s in enumerate(self.active):
            self.hands[s] = self.tricks.hands[i]  # one set per seat: the hands shrink as the cards are played
        self.to_act = self.leader

    def _finish(self) -> None:
        self._end(Phase.DONE)

    def _end(self, phase: Phase) -> None:
        self.phase = phase
        self.to_act = None

    # -- the result ----------------------------------------------------------------------------
    def returns(self) -> list[int]:
        """Every seat's score change (§4.8, §5.8); the hand must be over."""
        if not self.done:
            raise ValueError("the hand is not over")
        passed = [w is Word.PASS for w in self.words]
        return hand_returns(self.rules, passed, self.active, self.rumba_seat, self.tricks_won,
                            not self.active, self.thrown_in_by is not None, self.passes_in_a_row)


def lead_seat(rules: RuleSet, dealer: int, active: list[int], rumba_seat: int | None) -> int:
    """Who leads trick one (§4.7 / §5.7): the Rumba player (swiss) or the first active from seat 0 [D-10]; a
    normal game: the dealer (swiss), else the first active player clockwise from the dealer, seat 0, 1, ... [D-8]."""
    if rumba_seat is not None:
        return rumba_seat if rules.rumba_lead == "rumba-player" else active[0]
    if rules.normal_lead == "dealer" and dealer in active:
        return dealer
    return active[0]


__all__ = ["HandState", "lead_seat", "two_of_trump", "shuffle_in_place"]
