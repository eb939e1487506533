"""What the asking player knows at his turn to speak, checked as he typed it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import RANKS, CardError, format_card, parse_card, parse_hand
from ..engine.policy import W_NONE, W_PASS, W_PLAY, W_RUMBA
from ..game import Choice, speaking, two_of_trump
from ..rules import RulesError, RuleSet, get_rules

# the words an earlier seat may have said (``-``: not known), as the kernels code them
WORD_CODES = {"pass": W_PASS, "play": W_PLAY, "rumba": W_RUMBA, "-": W_NONE}
WORD_NAMES = {v: k for k, v in WORD_CODES.items()}


@dataclass(frozen=True)
class Situation:
    """The hero's seat, hand, the card turned, and what the earlier seats did."""

    rules: RuleSet
    players: int
    seat: int
    hand: tuple[int, ...]
    trump_card: int
    passes_in_a_row: int = 0
    dealer_knocked: bool = False
    before: tuple[str, ...] = ()
    swapped_by: int | None = None  # an earlier seat swapped the two of trump for the turned card [D-9]

    @property
    def trump(self) -> int:
        return self.trump_card // 16

    @property
    def rumba_called_before(self) -> bool:
        return "rumba" in self.before

    @property
    def jack_forced(self) -> bool:
        return speaking.jack_forces_play(self.rules, self.trump_card)

    @property
    def rumba_first(self) -> bool:
        return speaking.rumba_first(self.rules, self.dealer_knocked)

    @property
    def table_card(self) -> int:
        """The card face up when the hero speaks (the two after an earlier swap)."""
        return two_of_trump(self.trump_card) if self.swapped_by is not None else self.trump_card

    def spoken_hand(self) -> tuple[int, ...]:
        """The hero's hand when he speaks: he swaps the two of trump for the turned card when he can [D-9]."""
        two = two_of_trump(self.trump_card)
        rules = self.rules
        if rules.two_of_trump_swap and not self.dealer_knocked and self.swapped_by is None \
                and self.trump_card != two and two in self.hand:
            return tuple(self.trump_card if c == two else c for c in self.hand)
        return self.hand

    def rumba_allowed(self) -> bool:
        """False where the rules forbid the hero's Rumba and he knows it: a lone flemish dealer (§5.5)."""
        return speaking.may_call_rumba(self.rules, self.players, self.seat, None, False,
                                       all(w == "pass" for w in self.before))

    def choices(self) -> list[Choice]:
        """The choices open to the hero, by the game's speaking rules (``rumbaodds.game.speaking``).

        A choice is his word with, for ``play``, the cards he will exchange in a normal game: pass, play with
        0..exchange_limit discards, Rumba, throw-in. ``before`` words ``-`` are unknown (not a Rumba).
        """
        rules, knocked = self.rules, self.dealer_knocked
        caller = self.players - 1 if knocked else (self.before.index("rumba") if self.rumba_called_before else None)
        out = [] if speaking.must_play(rules, self.seat, caller, knocked, self.jack_forced) else [Choice.PASS]
        if knocked:  # join the knock or pass (§4.2)
            return out + [Choice.PLAY0]
        if caller is not None:  # no exchange in a Rumba (§4.6, §5.6)
            out.append(Choice.PLAY0)
        else:
            out += [Choice.play(k) for k in speaking.exchange_counts(rules)]
            if self.rumba_allowed():
                out.append(Choice.RUMBA)
        # throw-in: at his turn, on the hand he speaks with, unless the dealer knocked [D-4]
        if speaking.may_throw_in(rules, self.spoken_hand(), knocked, caller is not None):
            out.append(Choice.THROW_IN)
        return out

    def before_codes(self) -> list[int]:
        return [WORD_CODES[w] for w in self.before]


def make_situation(hand, trump, players: int, seat: int, rules="swiss", passes_in_a_row: int = 0,
                   dealer_knocked: bool = False, before: Sequence[str] | str | None = None,
                   swapped_by: int | None = None) -> Situation:
    """Check everything the player typed; raise CardError / RulesError naming the problem."""
    rules = get_rules(rules)
    rules.check_players(players)
    if not 0 <= seat < players:
        raise RulesError(f"seat {seat} does not exist with {players} players (seats 0..{players - 1}, "
                         f"{players - 1} is the dealer)")
    cards = parse_hand(hand)
    if len(cards) != rules.hand_size:
        raise CardError(f"a {rules.name} hand has {rules.hand_size} cards, got {len(cards)}: "
                        f"{' '.join(format_card(c) for c in cards)}")
    rules.check_cards(cards)
    trump_card = parse_card(trump) if isinstance(trump, str) else int(trump)
    rules.check_cards([trump_card])
    if trump_card in cards:
        raise CardError(f"the trump card {format_card(trump_card)} cannot also be in the hand", format_card(trump_card))
    if passes_in_a_row < 0:
        raise RulesError(f"passes in a row must be 0 or more, got {passes_in_a_row}")
    if dealer_knocked:
        if not rules.knock:
            raise RulesError(f"rule set {rules.name!r} has no knock")
        if seat == players - 1:
            raise RulesError("the dealer cannot ask after his own knock: use `rumbaodds knock`")
    if swapped_by is not None:
        _check_swap(rules, seat, cards, trump_card, dealer_knocked, swapped_by)
    words = _parse_before(before, seat, rules, dealer_knocked)
    if rules.jack_of_trump_forces_play and trump_card % 16 == RANKS.index("J") and "pass" in words:
        raise RulesError("--before: with the jack of trump turned everybody must play, nobody passes")
    return Situation(rules, players, seat, tuple(cards), trump_card, passes_in_a_row, dealer_knocked, words,
                     swapped_by)


def _check_swap(rules: RuleSet, seat: int, cards, trump_card: int, knocked: bool, swapped_by: int) -> None:
    two = two_of_trump(trump_card)
    if not rules.two_of_trump_swap:
        raise RulesError(f"--swapped-by: rule set {rules.name!r} has no swap of the two of trump")
    if knocked:
        raise RulesError("--swapped-by: nobody swaps the two of trump after a knock")
    if not 0 <= swapped_by < seat:
        raise RulesError(f"--swapped-by {swapped_by}: must be an earlier seat (0..{seat - 1})" if seat else
                         "--swapped-by: seat 0 speaks first, no earlier seat can have swapped")
    if trump_card == two:
        raise RulesError(f"--swapped-by: the turned card {format_card(trump_card)} is the two itself")
    if two in cards:
        raise CardError(f"--swapped-by: you hold the two of trump {format_card(two)}, nobody else can have swapped it",
                        format_card(two))


def _parse_before(before, seat: int, rules: RuleSet, knocked: bool) -> tuple[str, ...]:
    if before is None or before == "":
        return ("-",) * seat
    items = [w.strip().lower() for w in (before.split(",") if isinstance(before, str) else before)]
    if len(items) != seat:
        raise RulesError(f"--before needs one word per earlier seat (seats 0..{seat - 1}): got {len(items)}")
    for i, word in enumerate(items):
        if word not in WORD_CODES:
            raise RulesError(f"--before: seat {i} said {word!r}; use pass, play, rumba or -")
    if items.count("rumba") > 1:
        raise RulesError("--before: only the first Rumba of a hand is allowed")
    if knocked and "rumba" in items:
        raise RulesError("--before: nobody calls Rumba after a knock")
    if rules.speaking_order == "rumba-first" and not knocked and any(w in ("pass", "play") for w in items):
        raise RulesError("--before: with speaking order rumba-first the earlier seats have only said whether they "
                         "call Rumba when you first speak: use rumba or -")
    if "rumba" in items and rules.others_after_rumba == "must-play" and not rules.speaking_order == "rumba-first":
        after = items[items.index("rumba") + 1:]
        if "pass" in after:
            raise RulesError(f"--before: in {rules.name}, every seat after a Rumba must play")
    return tuple(items)


__all__ = ["Situation", "make_situation", "WORD_CODES", "WORD_NAMES"]
