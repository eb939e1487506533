"""The rules of one hand as a state machine (``rumbaodds.game``), against RULES.md.

First every golden hand (tests/golden/, worked out by hand from the book) is
replayed move by move through :class:`HandState`: the seats' decisions and
every card of the file are applied, the state must find each one legal and
give the file's words, exchanges, lead, trick winners, tricks and score
changes. Then hand-worked cases clause by clause, and one-field changes of a
rule set that change the legal moves the way the book says.
"""

from __future__ import annotations

import json

import pytest
from golden_hands import golden_files, greedy_card, keep_value, load, read, strength
from golden_hands import legal_cards as book_legal
from test_golden_replay import PileOrder

from rumbaodds.cards import format_card, parse_card, parse_hand
from rumbaodds.game import (
    Choice,
    Exchange,
    HandState,
    IllegalAction,
    Knock,
    Phase,
    Play,
    Say,
    SwapTwo,
    Word,
    hand_returns,
    legal_cards,
)
from rumbaodds.rules import FLEMISH, FOLLOW_FLEMISH, FOLLOW_STECHZWANG, SWISS, rules_from_dict
from rumbaodds.twins.common import Stream

FILES = golden_files()


def cards(text: str) -> list[int]:
    return parse_hand(text)


def card(text: str) -> int:
    return parse_card(text)


# =============================================================================
# Golden hands, move by move
# =============================================================================
def book_word(state: HandState, want: str) -> Word:
    """The seat's wish as the book lets him say it (README: a refused Rumba or pass becomes play)."""
    legal = state.legal_words()
    if want == "throw-in":
        assert Word.THROW_IN in legal, f"seat {state.to_act}: a throw-in the rules do not allow"
        return Word.THROW_IN
    if state.phase is Phase.SPEAK and state.rumba_first:  # round one: only whether he calls Rumba
        return Word.RUMBA if want == "rumba" and Word.RUMBA in legal else Word.NO_RUMBA
    if want == "rumba" and Word.RUMBA in legal:
        return Word.RUMBA
    return Word.PASS if want == "pass" and Word.PASS in legal else Word.PLAY


def replay_golden(path) -> tuple[HandState, dict]:
    data = load(path)
    t = read(str(path), data)
    spec = data["rules"]
    rules = rules_from_dict({"base": spec} if isinstance(spec, str) else spec, source="golden")
    pile = [card(c) for c in data.get("passer_pile", [])]
    rng = PileOrder(pile) if pile and rules.passer_cards == "stock-bottom" else Stream(0, 0)
    state = HandState(rules, t.hands, t.trump_card, t.stock, t.passes, rng)
    if isinstance(rng, PileOrder):
        rng.state = state
    out: dict = {"tricks": [], "exchanges": []}
    if t.knock:  # the knocking dealer takes the turned card for his weakest card when it is stronger [D-3]
        low = min(state.hands[t.dealer], key=lambda c: strength(c, t.trump))
        take = strength(t.trump_card, t.trump) > strength(low, t.trump)
        state.apply(Knock(low if take else None))
    while state.phase in (Phase.SPEAK, Phase.ANSWER):
        s = state.to_act
        if state.may_swap() and t.wants_swap(s):
            state.apply(SwapTwo())
        legal = state.legal_words()
        want = t.wants(s, state.hands[s], state.rumba_seat is not None, Word.THROW_IN in legal)
        state.apply(Say(book_word(state, want)))
    while state.phase is Phase.EXCHANGE:  # the lowest keep values, cut to the stock left
        s = state.to_act
        count = min(t.wish(s, state.hands[s]), len(state.stock))
        thrown = sorted(state.hands[s], key=lambda c: (keep_value(c, t.trump, t.top), strength(c, t.trump)))[:count]
        state.apply(Exchange(tuple(thrown)))
    if state.phase is Phase.PLAY:
        out["hands_at_play"] = [sorted(format_card(c) for c in state.hands[s]) if s in state.active else []
                                for s in range(state.players)]
        out["leader"] = state.leader
        for trick in data["expected"]["tricks"]:
            played = []
            for seat, text in trick["cards"]:
                c = card(text)
                assert state.to_act == seat, f"trick {trick}: seat {state.to_act} is to play, not {seat}"
                assert c in state.legal_cards(), f"trick {trick}: {text} is not legal (§3)"
                book = book_legal(sorted(state.hands[seat]), played, t.trump, rules.follow_rule)
                assert state.legal_cards() == sorted(book), f"trick {trick}: legal cards (§3, the book's reading)"
                if data["play"] == "greedy":
                    assert c == greedy_card(sorted(state.hands[seat]), played, t.trump, rules.follow_rule)
                state.apply(Play(c))
                played.append(c)
            out["tricks"].append(state.tricks.log[-1])
    out["exchanges"] = [{"seat": s, "discarded": [format_card(c) for c in a], "drawn": [format_card(c) for c in b]}
                        for s, a, b in state.exchanges]
    return state, out


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_state_machine_replays_the_golden_hand(path):
    state, out = replay_golden(path)
    want = load(path)["expected"]
    assert state.done
    assert state.void == want["void"], "void"
    assert [None if w is None else w.value for w in state.words] == want["words"], "words"
    assert state.returns() == want["score_changes"], "score changes"
    if want["void"]:
        return
    assert state.rumba_seat == want["rumba_seat"], "rumba seat"
    assert (None if state.table_card is None else format_card(state.table_card)) == want["table_card"]
    assert out["exchanges"] == want["exchanges"], "exchanges"
    assert state.tricks_won == want["tricks_won"], "tricks won"
    if want["hands_at_play"] is None:
        assert state.tricks is None, "the book plays no tricks here"
        return
    assert out["hands_at_play"] == [sorted(h) for h in want["hands_at_play"]], "hands at play"
    assert out["leader"] == want["leader"], "leader"
    winners = [state.active[w] for _lead, _cards, w in out["tricks"]]
    assert winners == [t["winner"] for t in want["tricks"]], "trick winners"


def golden_failures() -> int:
    """How many golden hands the state machine fails to replay as the book worked them out."""
    failed = 0
    for path in FILES:
        try:
            test_state_machine_replays_the_golden_hand(path)
        except AssertionError:
            failed += 1
    return failed


def test_the_golden_replay_catches_a_planted_rule_error(monkeypatch):
    """Negative controls: with the first active player always leading (against [D-8]), or any card legal
    (against §3), many golden hands no longer replay; the rules as written replay them all."""
    import rumbaodds.game.state as state_module
    import rumbaodds.game.tricks as tricks_module

    assert golden_failures() == 0
    with monkeypatch.context() as m:
        m.setattr(state_module, "lead_seat", lambda rules, dealer, active, rumba_seat: active[0])
        assert golden_failures() >= 10
    with monkeypatch.context() as m:
        m.setattr(tricks_module, "legal_cards", lambda hand, *args, **kwargs: sorted(hand))
        assert golden_failures() >= 10


# =============================================================================
# Speaking, clause by clause
# =============================================================================
LOW = "C6 D7 H8 S9 C8"  # every card below ten: may be thrown in [D-4]


def swiss_hand(players=4, hands=None, trump="HK", rules=SWISS, passes=None):
    hands = hands or ["HA HQ SA CA DA", "C9 CT CJ CQ CK", "D6 D8 D9 DT DJ", "S6 S7 S8 ST SJ"][:players]
    dealt = [cards(h) for h in hands]
    used = {c for h in dealt for c in h} | {card(trump)}
    stock = [c for c in rules.deck if c not in used]
    return HandState(rules, dealt, card(trump), stock, passes, Stream(1, 2))


def say(state, *words):
    for w in words:
        state.apply(Say(Word(w)))
    return state


def test_one_round_words_and_only_the_first_rumba():
    """§4.4: pass, play or rumba; after a Rumba the later players say play or pass [D-5]."""
    state = swiss_hand()
    assert state.legal_words() == [Word.PASS, Word.PLAY, Word.RUMBA]
    say(state, "play", "rumba")
    assert state.legal_words() == [Word.PASS, Word.PLAY]
    with pytest.raises(IllegalAction):
        state.apply(Say(Word.RUMBA))
    say(state, "pass", "play")
    assert state.active == [0, 1, 3] and state.rumba_seat == 1 and state.phase is Phase.PLAY


def test_flemish_rumba_forces_the_later_players_in_the_earlier_stand():
    """§5.4: every player after the caller up to the dealer must play; the choices before him stand."""
    hands = ["C2 C4 D5 S6 S7", "HA HK HQ SA CA", "C3 C5 D6 S8 S9", "D2 D3 D4 S2 S3"]
    state = HandState(FLEMISH, [cards(h) for h in hands], card("H3"), [], None, Stream(0, 0))
    say(state, "pass", "rumba")
    assert state.legal_words() == [Word.PLAY]
    say(state, "play", "play")
    assert [w.value for w in state.words] == ["pass", "rumba", "play", "play"]
    assert state.leader == 1  # [D-10]: the first active player from seat 0 on leads (here the caller himself)


def test_knock_before_anybody_speaks_then_only_join_or_pass():
    """§4.2 rule 7 [D-3]: the dealer knocks first; nobody else calls Rumba or throws in."""
    state = swiss_hand(hands=[LOW, "C9 CT CJ CQ CK", "D6 D8 D9 DT DJ", "S6 S7 S8 ST SJ"])
    assert Knock(None) in state.legal_actions() and Knock(card("S6")) in state.legal_actions()
    state.apply(Knock(card("S6")))  # his S6 goes out of play face down, the turned HK comes in
    assert card("HK") in state.hands[3] and card("S6") not in state.hands[3] and state.table_card is None
    assert state.legal_words() == [Word.PASS, Word.PLAY]  # seat 0 has five cards below ten, still no throw-in
    assert not any(isinstance(a, Knock) for a in state.legal_actions())
    say(state, "play", "pass", "pass")
    assert state.rumba_seat == 3 and state.leader == 3  # §4.7: the knocker leads


def test_no_knock_once_speaking_started_or_without_the_rule():
    state = say(swiss_hand(), "pass")
    with pytest.raises(IllegalAction):
        state.apply(Knock(None))
    assert not swiss_hand(rules=SWISS.replace(knock=False)).may_knock()


def test_throw_in_only_when_all_cards_are_below_ten():
    """[D-4]: 6, 7, 8, 9 only; a ten in the hand forbids it; the hand is void, nobody's pass."""
    low = swiss_hand(hands=[LOW, "C9 CT CJ CQ CK", "D6 D9 DT DJ DQ", "S6 S7 S8 ST SJ"], passes=[2, 2, 2, 2])
    assert Word.THROW_IN in low.legal_words()
    say(low, "throw-in")
    assert low.void and low.returns() == [0, 0, 0, 0]  # not even the third pass costs: void
    ten = swiss_hand(hands=["C6 D7 H8 S9 CT", "C9 CJ CQ CK CA", "D6 D9 DT DJ DQ", "S6 S7 S8 ST SJ"])
    assert Word.THROW_IN not in ten.legal_words()


def test_throw_in_below_field_moves_the_limit():
    """A one-field change: ``throw_in_below = "J"`` lets a hand with a ten be thrown in, ``"9"`` not a nine."""
    hands = ["C6 D7 H8 S9 CT", "C9 CJ CQ CK CA", "D6 D9 DT DJ DQ", "S6 S7 S8 ST SJ"]
    assert Word.THROW_IN in swiss_hand(hands=hands, rules=SWISS.replace(throw_in_below="J")).legal_words()
    assert Word.THROW_IN not in swiss_hand(hands=[LOW] + hands[1:], rules=SWISS.replace(throw_in_below="9")) \
        .legal_words()
    assert Word.THROW_IN not in swiss_hand(hands=[LOW] + hands[1:], rules=SWISS.replace(throw_in=False)).legal_words()


def test_throw_in_after_a_rumba_call_by_the_field():
    hands = ["HA HQ SA CA DA", LOW, "D6 D9 DT DJ DQ", "S6 S7 S8 ST SJ"]
    assert Word.THROW_IN in say(swiss_hand(hands=hands), "rumba").legal_words()
    strict = SWISS.replace(throw_in_after_rumba=False)
    assert Word.THROW_IN not in say(swiss_hand(hands=hands, rules=strict), "rumba").legal_words()


def test_jack_of_trump_forces_everybody_to_play_rumba_still_asked():
    """§5.2: with the jack of trump turned nobody may pass; Rumba is still asked."""
    hands = ["C2 C4 D5 S6 S7", "C3 C5 D6 S8 S9", "D2 D3 D4 S2 S3"]
    state = HandState(FLEMISH, [cards(h) for h in hands], card("HJ"), [], None, Stream(0, 0))
    assert state.legal_words() == [Word.PLAY, Word.RUMBA]
    flipped = HandState(FLEMISH.replace(jack_of_trump_forces_play=False), [cards(h) for h in hands], card("HJ"))
    assert flipped.legal_words() == [Word.PASS, Word.PLAY, Word.RUMBA]


def test_flemish_lone_dealer_cannot_call_rumba():
    """§5.5: a dealer who heard everybody pass would play alone: no Rumba; after a play he may call it."""
    hands = ["C2 C4 D5 S6 S7", "C3 C5 D6 S8 S9", "HA HK HQ SA CA"]
    state = say(HandState(FLEMISH, [cards(h) for h in hands], card("H3")), "pass", "pass")
    assert state.legal_words() == [Word.PASS, Word.PLAY]
    state = say(HandState(FLEMISH, [cards(h) for h in hands], card("H3"), [], None, Stream(0, 0)), "play", "pass")
    assert Word.RUMBA in state.legal_words()


def test_two_of_trump_swap_at_his_turn_before_speaking():
    """[D-9]: the holder of the two of trump takes the turned card; the two lies face up; once, not after a word."""
    hands = ["C3 C4 D5 S6 S7", "H2 C5 D6 S8 S9", "D2 D3 D4 S2 S3"]
    state = HandState(FLEMISH, [cards(h) for h in hands], card("HA"), [], None, Stream(0, 0))
    assert not state.may_swap()  # seat 0 has no two
    say(state, "pass")
    assert SwapTwo() in state.legal_actions()
    state.apply(SwapTwo())
    assert card("HA") in state.hands[1] and card("H2") not in state.hands[1] and state.table_card == card("H2")
    assert not state.may_swap()
    with pytest.raises(IllegalAction):
        state.apply(SwapTwo())
    off = HandState(FLEMISH.replace(two_of_trump_swap=False), [cards(h) for h in hands], card("HA"))
    say(off, "pass")
    assert not off.may_swap()


def test_rumba_first_two_rounds():
    """§4.4 rumba-first: round one asks only for Rumba; round two everybody but the caller plays or passes."""
    rules = SWISS.replace(speaking_order="rumba-first")
    state = swiss_hand(rules=rules)
    assert state.legal_words() == [Word.NO_RUMBA, Word.RUMBA]
    say(state, "-", "rumba")
    assert state.legal_words() == [Word.NO_RUMBA]  # no round-one turn after the call
    say(state, "-", "-")
    assert state.phase is Phase.ANSWER and state.to_act == 0
    say(state, "play", "pass", "play")  # seats 0, 2, 3; the caller is skipped
    assert [w.value for w in state.words] == ["play", "rumba", "pass", "play"] and state.phase is Phase.PLAY


# =============================================================================
# Outcomes of speaking, exchange, lead
# =============================================================================
def test_void_when_nobody_plays():
    """[D-6]: void, no score; a pass of the streak only where ``void_counts_as_pass``."""
    state = say(swiss_hand(passes=[2, 0, 2, 1]), "pass", "pass", "pass", "pass")
    assert state.void and state.returns() == [0, 0, 0, 0]
    counted = say(swiss_hand(rules=SWISS.replace(void_counts_as_pass=True), passes=[2, 0, 2, 1]),
                  "pass", "pass", "pass", "pass")
    assert counted.returns() == [5, 0, 5, 0]


def test_one_player_plays_scores_minus_five_without_tricks():
    """[D-7]: the only player scores -5 as if he took all five tricks; the third pass in a row costs +5."""
    state = say(swiss_hand(passes=[0, 2, 0, 7]), "pass", "pass", "play", "pass")
    assert state.done and state.tricks is None
    assert state.returns() == [0, 5, -5, 5]


def test_lone_rumba_and_lone_knock():
    state = say(swiss_hand(), "rumba", "pass", "pass", "pass")
    assert state.returns() == [-5, 0, 0, 0]  # rule 10
    state = swiss_hand().apply(Knock(None))
    assert say(state, "pass", "pass", "pass").returns() == [0, 0, 0, -5]


def test_exchange_limit_and_stock():
    """§4.6: 0..4 cards in swiss, §5.6: 0..3 in flemish; a field change moves the limit; the stock cuts it."""
    state = say(swiss_hand(players=3), "play", "play", "play")
    assert state.phase is Phase.EXCHANGE and state.to_act == 0
    assert max(len(e.discards) for e in state.legal_exchanges()) == 4
    three = say(swiss_hand(players=3, rules=SWISS.replace(exchange_limit=3)), "play", "play", "play")
    assert max(len(e.discards) for e in three.legal_exchanges()) == 3
    with pytest.raises(IllegalAction):
        three.apply(Exchange(tuple(sorted(three.hands[0]))[:4]))
    top = three.stock[:2]
    thrown = tuple(sorted(three.hands[0])[:2])
    three.apply(Exchange(thrown))
    assert set(top) <= three.hands[1 - 1] and not set(thrown) & three.hands[0]
    short = say(swiss_hand(players=3), "play", "play", "play")
    short.stock = short.stock[:1]
    assert max(len(e.discards) for e in short.legal_exchanges()) == 1


def test_flemish_passers_cards_are_put_away_swiss_under_the_stock():
    f_hands = ["C2 C4 D5 S6 S7", "C3 C5 D6 S8 S9", "D2 D3 D4 S2 S3"]
    f = say(HandState(FLEMISH, [cards(h) for h in f_hands], card("H3"), cards("HA HK")), "play", "pass", "play")
    assert f.stock == cards("HA HK")
    s = say(swiss_hand(players=3), "play", "pass", "play")
    assert sorted(s.stock[-5:]) == sorted(cards("C9 CT CJ CQ CK"))


@pytest.mark.parametrize("rules, words, leader", [
    (SWISS, ["play", "play", "play", "play"], 3),  # [D-8]: the dealer leads a normal game
    (SWISS, ["pass", "play", "play", "pass"], 1),  # the dealer out: the first active from seat 0
    (SWISS, ["play", "pass", "rumba", "play"], 2),  # §4.7: the Rumba player leads
    (SWISS.replace(rumba_lead="first-after-dealer"), ["play", "pass", "rumba", "play"], 0),  # [D-10] as a field
    (SWISS.replace(normal_lead="first-after-dealer"), ["play", "play", "play", "play"], 0),
])
def test_lead(rules, words, leader):
    state = say(swiss_hand(rules=rules), *words)
    while state.phase is Phase.EXCHANGE:
        state.apply(Exchange())
    assert state.leader == leader and state.to_act == leader


def test_flemish_rumba_first_active_leads_D10():
    hands = ["C2 C4 D5 S6 S7", "C3 C5 D6 S8 S9", "HA HK HQ SA CA", "D2 D3 D4 S2 S3"]
    state = say(HandState(FLEMISH, [cards(h) for h in hands], card("H3")), "pass", "play", "rumba", "play")
    assert state.leader == 1  # not the Rumba player (seat 2)


# =============================================================================
# Tricks (§3)
# =============================================================================
H, S, D, C = 2, 3, 1, 0


def test_stechzwang():
    """Seed 000 rules 18-20: follow suit winning if able; else trump, overtrumping if able; rule 20."""
    follow = FOLLOW_STECHZWANG
    assert legal_cards(cards("S7 SK D9"), S, card("SQ"), H, follow) == {card("SK")}  # clause 1, winning
    assert legal_cards(cards("S7 S8 D9"), S, card("SQ"), H, follow) == set(cards("S7 S8"))  # clause 1, cannot win
    assert legal_cards(cards("H7 HK D9"), S, card("H9"), H, follow) == {card("HK")}  # clause 2, overtrump
    assert legal_cards(cards("H7 H8 D9"), S, card("H9"), H, follow) == set(cards("H7 H8"))  # rule 20: still trump
    assert legal_cards(cards("D7 C8"), S, card("SQ"), H, follow) == set(cards("D7 C8"))  # clause 3
    assert legal_cards(cards("D7 C8 HA"), None, None, H, follow) == set(cards("D7 C8 HA"))  # the leader: any


def test_flemish_follow_and_no_under_trumping_D1():
    follow = FOLLOW_FLEMISH
    assert legal_cards(cards("S7 SK D9"), S, card("SQ"), H, follow) == {card("SK")}
    # void in spades: trumping is free, but not with a losing trump while holding a winning one [D-1]
    assert legal_cards(cards("H7 HK D9"), S, card("H9"), H, follow) == set(cards("HK D9"))
    # no winning trump: any card, the losing trump too
    assert legal_cards(cards("H7 H8 D9"), S, card("H9"), H, follow) == set(cards("H7 H8 D9"))


def test_follow_rule_field_changes_the_legal_cards():
    hand = cards("H7 HK D9")
    assert legal_cards(hand, S, card("H9"), H, SWISS.replace(follow_rule="flemish").follow_code) == set(cards("HK D9"))
    assert legal_cards(hand, S, card("H9"), H, SWISS.follow_code) == {card("HK")}


def test_play_checks_every_card_and_the_winner_leads():
    hands = ["HA S7 C9 D6 D7", "HK SA CT D8 D9", "H6 DA CA S6 S8"]
    state = say(swiss_hand(players=3, hands=hands, trump="H9"), "play", "play", "play")
    while state.phase is Phase.EXCHANGE:
        state.apply(Exchange())
    assert state.leader == 2  # the dealer
    with pytest.raises(IllegalAction):
        state.apply(Play(card("HA")))  # not his turn
    state.apply(Play(card("DA")))
    assert state.legal_cards() == [card("D6"), card("D7")]  # seat 0 follows diamonds (cannot beat the ace)
    state.apply(Play(card("D6")))
    with pytest.raises(IllegalAction):
        state.apply(Play(card("HK")))  # seat 1 holds diamonds
    state.apply(Play(card("D8")))
    assert state.to_act == 2 and state.tricks_won == [0, 0, 1]


# =============================================================================
# Score tables (§4.8, §5.8)
# =============================================================================
@pytest.mark.parametrize("rules, rumba, tricks, want", [
    (SWISS, 0, [3, 1, 1], [-6, -1, -1]),
    (SWISS, 0, [5, 0, 0], [-10, 5, 5]),
    (SWISS, 0, [2, 1, 2], [10, -1, -2]),  # rule 15 shape
    (SWISS, None, [2, 0, 3], [-2, 5, -3]),
    (FLEMISH, 0, [3, 2, 0], [-10, -4, 10]),
    (FLEMISH, 0, [1, 2, 2], [10, -4, -4]),
    (FLEMISH, None, [0, 4, 1], [5, -4, -1]),
])
def test_score_tables(rules, rumba, tricks, want):
    assert hand_returns(rules, [False] * 3, [0, 1, 2], rumba, tricks, False, False, [0, 0, 0]) == want


def test_rule15_example_and_the_third_pass():
    """Rule 15: A Rumba with 2 tricks, B, C, D one each: A +10, the others -1; E passes a third time: +5."""
    got = hand_returns(SWISS, [False, False, False, False, True], [0, 1, 2, 3], 0, [2, 1, 1, 1, None], False, False,
                       [0, 0, 0, 0, 2])
    assert got == [10, -1, -1, -1, 5]
    assert hand_returns(SWISS.replace(sit_out_penalty=3), [True, False, False], [1, 2], None, [None, 2, 3], False,
                        False, [4, 0, 0])[0] == 3


def test_whole_hand_returns():
    hands = ["HA S7 C9 D6 D7", "HK SA CT D8 D9", "H6 DA CA S6 S8"]
    state = say(swiss_hand(players=3, hands=hands, trump="H9"), "play", "rumba", "play")
    while not state.done:
        state.apply(Play(state.legal_cards()[0]))
    won = state.tricks_won
    assert sum(won) == 5
    assert state.returns()[1] == (-2 * won[1] if won[1] >= 3 else 10)


# =============================================================================
# Choices
# =============================================================================
def test_a_deal_that_cannot_be_is_refused():
    with pytest.raises(ValueError, match="twice"):
        HandState(SWISS, [cards("HA S6"), cards("HA S7")], card("H9"))
    with pytest.raises(ValueError, match="same number"):
        HandState(SWISS, [cards("HA S6"), cards("S7")], card("H9"))


def test_choice_names_round_trip():
    names = ["pass", "play0", "play3", "rumba", "throw-in"]
    assert [Choice(n) for n in names] == names  # a str enum: equal to the names documents and tables use
    assert Choice("play2") is Choice.play(2) and Choice.PLAY2.exchanged == 2 and Choice.PLAY2.action == "play"
    assert Choice.PLAY2.word is Word.PLAY and Choice.THROW_IN.word is Word.THROW_IN and not Choice.RUMBA.is_play
    assert json.dumps({Choice.PASS: Choice.PLAY1}) == '{"pass": "play1"}'
    for bad in ("play", "play9", "Pass"):
        with pytest.raises(ValueError):
            Choice(bad)
    with pytest.raises(ValueError):
        Choice.play(6)


# =============================================================================
# The keep value, one definition (engine/keep.py) read everywhere
# =============================================================================
def test_keep_value_by_the_book_and_every_reader_agrees():
    """SIMULATION.md: trump A 6, K 5, Q 4, J 3, lower 2; side A 3, K 1, lower 0 (swiss, top = ace)."""
    import random

    import numpy as np

    from rumbaodds.cards import mask_of
    from rumbaodds.engine import policy as P
    from rumbaodds.engine.keep import keep_value, keep_value_py, keep_value_table
    from rumbaodds.opponents.models import keep_value as model_keep_value
    from rumbaodds.opponents.policies import keep_value_table as policy_table

    top = 12
    assert [keep_value_py(c, H, top) for c in cards("HA HK HQ HJ HT H6 SA SK SQ D6")] == [6, 5, 4, 3, 2, 2, 3, 1, 0, 0]
    table = keep_value_table()
    assert list(table[1, :6]) == [6, 5, 4, 3, 2, 2] and list(table[0, :3]) == [3, 1, 0]
    assert (policy_table() == table).all()
    for c in SWISS.deck:
        assert model_keep_value(c, S, top) == keep_value_py(c, S, top) == keep_value(c, S, top)
        assert table[int(c // 16 == S), top - c % 16] == keep_value_py(c, S, top)
    rnd = random.Random(5)
    for _ in range(200):
        hand = rnd.sample(FLEMISH.deck, 5)
        trump, below = rnd.randrange(4), rnd.randrange(8)
        want = sum(1 for c in hand if keep_value_py(c, trump, top) < below)
        assert int(P.keep_discards(np.uint64(mask_of(hand)), trump, top, 5, below)) == want
        assert int(P.keep_discards(np.uint64(mask_of(hand)), trump, top, 2, below)) == min(2, want)
