"""Deal files (RULES.md §7): the Python API of rumbaodds.deals (files and play)."""

import json

import numpy as np
import pytest

from rumbaodds.cards import SUITS, mask_of, parse_card
from rumbaodds.deals.files import (
    Deal,
    DealError,
    check_seat,
    deal_to_json,
    generate_deals,
    parse_deal,
    read_deals,
)
from rumbaodds.deals.play import play_deals
from rumbaodds.rules import FLEMISH, SWISS, RuleSet
from rumbaodds.twins import common as twin

EXAMPLE = (
    '{"rules": "swiss", "trump": "H", "leader": 0, "hands": [["HA","HK","S6","C7","D9"], '
    '["H6","SA","SK","C8","DT"], ["CA","CK","D6","D7","S8"]]}'
)


def cards(*tokens):
    return tuple(parse_card(t) for t in tokens)


def line(**fields):
    base = {"rules": "swiss", "trump": "H", "leader": 0, "hands": [["HA", "S6"], ["H6", "SA"]]}
    base.update(fields)
    return json.dumps(base, ensure_ascii=False)


# -- reading good deals ----------------------------------------------------------------
def test_rules_md_example():
    deal = parse_deal(EXAMPLE)
    assert deal.rules is SWISS
    assert deal.trump == SUITS.index("H")
    assert deal.leader == 0
    assert deal.players == 3 and deal.hand_size == 5
    assert deal.hands[1] == cards("H6", "SA", "SK", "C8", "DT")
    assert deal.masks().dtype == np.uint64
    assert [int(m) for m in deal.masks()] == [mask_of(h) for h in deal.hands]


@pytest.mark.parametrize("trump", ["H", "h", "♥", "♡", " H "])
def test_trump_spellings(trump):
    assert parse_deal(line(trump=trump)).trump == SUITS.index("H")


def test_card_spellings_unicode_ten_and_case():
    deal = parse_deal(line(rules="flemish", hands=[["♠10", "hq", "d2"], ["h10", "♦a", "♣t"]]))
    assert deal.rules is FLEMISH
    assert deal.hands == (cards("ST", "HQ", "D2"), cards("HT", "DA", "CT"))


def test_dict_input_extra_fields_and_default_rules():
    obj = {"trump": "S", "leader": 1, "hands": [["HA"], ["H6"]], "comment": "ignored", "id": 7}
    assert parse_deal(obj).rules is SWISS
    assert parse_deal(obj, default_rules=FLEMISH).rules is FLEMISH


def test_rules_named_by_the_default_house_rule():
    house = SWISS.replace(name="swiss+house", max_players=5)
    deal = parse_deal(line(rules="swiss+house"), default_rules=house)
    assert deal.rules is house
    assert parse_deal(line(rules="SWISS"), default_rules=house).rules is SWISS


def test_trump_card_kept_and_round_trip():
    deal = parse_deal(line(trump_card="H9"))
    assert deal.trump_card == parse_card("H9")
    again = parse_deal(deal_to_json(deal))
    assert again == deal
    assert json.loads(deal_to_json(deal)) == {
        "rules": "swiss", "trump": "H", "trump_card": "H9", "leader": 0, "hands": [["HA", "S6"], ["H6", "SA"]],
    }
    plain = parse_deal(line())
    assert "trump_card" not in json.loads(deal_to_json(plain))
    assert json.loads(deal_to_json(plain, trump_card=parse_card("HT")))["trump_card"] == "HT"


# -- bad deals: every kind names its line, token and reason ---------------------------------------
BAD = [
    # (line text, token, words of the reason)
    (line(hands=[["HX", "S6"], ["H6", "SA"]]), "HX", "unknown card"),
    (line(hands=[["HA", 5], ["H6", "SA"]]), "5", "unknown card"),
    (line(hands=[["HA", "H2"], ["H6", "SA"]]), "H2", "not in the swiss deck"),
    (line(hands=[["HA", "S6"], ["H6", "♥a"]]), "♥a", "duplicate card"),
    (line(hands=[["HA", "HA"], ["H6", "SA"]]), "HA", "duplicate card"),
    (line(hands=[["HA", "S6"], ["H6"]]), None, "hands of different sizes"),
    (line(hands=[[], []]), None, "wrong hand size"),
    (line(hands=[["HA", "HK", "HQ", "HJ", "HT", "H9"], ["SA", "SK", "SQ", "SJ", "ST", "S9"]]), None,
     "wrong hand size"),
    (line(hands=[["HA", "S6"]]), None, "too few hands"),
    (line(hands=[[c] for c in ["HA", "HK", "HQ", "HJ", "HT", "H9", "H8", "H7"]]), None, "too many hands"),
    (line(hands="HA S6"), None, "hands must be a list"),
    (line(hands=["HA S6", "H6 SA"]), None, "hand 0 must be a list"),
    (line(leader=2), "2", "leader out of range"),
    (line(leader=-1), "-1", "leader out of range"),
    (line(leader="0"), '"0"', "leader must be an integer"),
    (line(leader=True), "true", "leader must be an integer"),
    (line(rules="jass"), "jass", "unknown rule set"),
    (line(rules=3), "3", "rule set name"),
    (line(trump="X"), "X", "unknown suit"),
    (line(trump=2), "2", "trump must be a suit letter"),
    (line(trump_card="S9"), "S9", "not of the trump suit"),
    (line(trump_card="HA"), "HA", "also in hand 0"),
    (line(trump_card="HZ"), "HZ", "unknown card"),
    ('{"rules": "swiss", "trump": "H", "hands": [["HA"], ["H6"]]}', "leader", "missing field 'leader'"),
    ('{"rules": "swiss", "leader": 0, "hands": [["HA"], ["H6"]]}', "trump", "missing field 'trump'"),
    ('{"rules": "swiss", "trump": "H", "leader": 0}', "hands", "missing field 'hands'"),
    ('{"rules": "swiss", "trump": "H", "leader": 0, "hands": [["HA"], ["H6"]]', None, "bad JSON"),
    ("[1, 2]", None, "must be a JSON object"),
    (b'{"trump": "\xff"}', None, "not valid UTF-8"),
]


@pytest.mark.parametrize("text, token, reason", BAD)
def test_bad_deal(text, token, reason):
    with pytest.raises(DealError) as info:
        parse_deal(text, SWISS, 3)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.line == 3
    assert err.token == token
    assert reason in err.reason
    message = str(err)
    assert message.startswith("line 3: ")
    assert reason in message and "\n" not in message
    if token is not None:
        assert repr(token) in message


def test_message_format():
    with pytest.raises(DealError, match=r"^line 3: card 'HX': unknown card"):
        parse_deal(line(hands=[["HX", "S6"], ["H6", "SA"]]), SWISS, 3)


def test_trump_suit_not_in_a_house_deck():
    two_suits = RuleSet(name="hs", suits="HS", ranks="23456789TJQKA", max_players=4)
    with pytest.raises(DealError, match=r"^line 1: trump 'C': suit C is not in the hs deck"):
        parse_deal(line(rules="hs", trump="C"), two_suits, 1)
    with pytest.raises(DealError, match=r"card 'C6': not in the hs deck"):
        parse_deal(line(rules="hs", hands=[["HA", "C6"], ["H6", "SA"]]), two_suits, 1)


def test_deal_constructor_checks_too():
    with pytest.raises(DealError, match="duplicate card"):
        Deal(SWISS, 2, 0, (cards("HA", "S6"), cards("HA", "SA")))
    with pytest.raises(DealError, match="leader out of range"):
        Deal(SWISS, 2, 5, (cards("HA", "S6"), cards("H6", "SA")))
    deal = Deal(SWISS, 2, 0, [list(cards("HA", "S6")), list(cards("H6", "SA"))])
    assert deal.hands == (cards("HA", "S6"), cards("H6", "SA"))


def test_check_seat():
    deal = parse_deal(line(leader=1))
    assert check_seat(deal, 0) == 0
    assert check_seat(deal, "leader") == 1
    with pytest.raises(DealError, match=r"seat '2': seat out of range"):
        check_seat(deal, 2)


# -- read_deals -------------------------------------------------------------------------------
def test_read_deals_numbers_lines_and_skips_blanks():
    lines = ["\ufeff" + line(leader=0), "", "   \n", line(leader=1) + "\n"]
    deals = list(read_deals(lines))
    assert [d.line for d in deals] == [1, 4]
    assert [d.leader for d in deals] == [0, 1]


def test_read_deals_bytes():
    lines = [b"\xef\xbb\xbf" + line().encode(), b"\n", line(trump="♠").encode("utf-8") + b"\r\n"]
    assert [d.trump for d in read_deals(lines)] == [2, 3]


def test_read_deals_stops_at_the_first_bad_line_after_yielding_the_good_ones():
    lines = [line(), line(leader=9), line()]
    got = []
    with pytest.raises(DealError, match="^line 2: leader '9'"):
        for deal in read_deals(lines):
            got.append(deal)
    assert len(got) == 1


def test_read_deals_skip_invalid():
    errors = []
    lines = [line(), "nonsense", line(leader=1), line(hands=[["HA", "HX"], ["S6", "SA"]])]
    deals = list(read_deals(lines, skip_invalid=True, on_error=errors.append))
    assert [d.line for d in deals] == [1, 3]
    assert [(e.line, e.token) for e in errors] == [(2, None), (4, "HX")]


def test_read_deals_check_hook():
    lines = [line(), json.dumps({"trump": "H", "leader": 0, "hands": [["HA"], ["S6"], ["H6"]]})]
    got = list(read_deals(lines, check=lambda d: check_seat(d, 2), skip_invalid=True, on_error=lambda e: None))
    assert [d.line for d in got] == [2]
    with pytest.raises(DealError, match="^line 1: seat '2'"):
        list(read_deals(lines, check=lambda d: check_seat(d, 2)))


# -- generate ---------------------------------------------------------------------------------
@pytest.mark.parametrize("rules, players, hand_size", [(SWISS, 3, 5), (SWISS, 7, 5), (FLEMISH, 2, 3), (FLEMISH, 6, 5)])
def test_generate_matches_the_dealing_twin(rules, players, hand_size):
    deals = list(generate_deals(rules, players, 40, hand_size, seed=11, batch=7))
    assert len(deals) == 40
    for i, deal in enumerate(deals):
        hands, trump_card, leader = twin.deal(rules.deck, players, hand_size, 11, i)
        assert [set(h) for h in deal.hands] == hands
        assert deal.trump_card == trump_card and deal.trump == trump_card // 16
        assert deal.leader == leader
        assert deal.rules is rules
        assert parse_deal(deal_to_json(deal), rules) == deal


def test_generate_reproducible_and_batch_independent():
    a = list(generate_deals(SWISS, 4, 30, seed=5, batch=4096))
    b = list(generate_deals(SWISS, 4, 30, seed=5, batch=1))
    c = list(generate_deals(SWISS, 4, 30, seed=6))
    assert a == b
    assert a != c
    big = list(generate_deals(SWISS, 3, 2, seed=2**64 - 1))
    assert len(big) == 2


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(players=1), "players"),
        (dict(players=8), "players"),
        (dict(hand_size=0), "hand size"),
        (dict(hand_size=6), "hand size"),
        (dict(count=-1), "count"),
        (dict(seed=-1), "seed"),
        (dict(seed=2**64), "seed"),
    ],
)
def test_generate_refuses_bad_arguments_at_the_call(kwargs, words):
    args = dict(rules=SWISS, players=3, count=1) | kwargs
    with pytest.raises(ValueError, match=words):
        generate_deals(**args)


# -- play ---------------------------------------------------------------------------------
def test_play_matches_the_greedy_twin_on_mixed_deals():
    deals = []
    for rules, players, hand_size, seed in [(SWISS, 3, 5, 1), (FLEMISH, 5, 4, 2), (SWISS, 2, 1, 3), (FLEMISH, 3, 5, 4)]:
        deals += list(generate_deals(rules, players, 50, hand_size, seed))
    deals = deals[::2] + deals[1::2]  # interleave the groups
    tricks = play_deals(deals)
    assert tricks.shape == (len(deals), 5)
    for deal, row in zip(deals, tricks, strict=False):
        expect = twin.play_greedy([set(h) for h in deal.hands], deal.leader, deal.trump, deal.rules.follow_code)
        assert row[: deal.players].tolist() == expect
        assert (row[deal.players:] == -1).all()
        assert row[: deal.players].sum() == deal.hand_size


def test_play_empty_and_unknown_policy():
    assert play_deals([]).shape == (0, 0)
    with pytest.raises(ValueError, match="unknown policy"):
        play_deals([parse_deal(line())], policy="random")


# -- solve --------------------------------------------------------------------------------
# Hand-checked double-dummy values (RULES.md §6). Seats count from the first hand.
#
# A (swiss, trump S, seat 0 leads SA CA CK against S6 D6 D7): leading SA draws the
#   only trump (seat 1 must follow spades), then CA and CK stand: 3 tricks for
#   seat 0 and 0 for seat 1. Leading a club first would lose one: seat 1 is void
#   in clubs and must trump (Stechzwang).
# B (swiss, trump C, seat 0 leads; hands C8 H6 | HT SK | CT SJ), seat 0 makes 1:
#   leading C8 loses it to CT (seat 2 must follow clubs and win), then SJ is won
#   by SK; but leading H6: seat 1 must win with HT, seat 2 is void in hearts and
#   must trump with CT (Stechzwang) and wins; seat 2 then leads its last card SJ,
#   seat 0 is void and must trump with C8, and SK cannot beat it: 1 trick.
# C (B under flemish rules), seat 0 makes 0: after the H6 lead seat 2 may now
#   throw SJ instead of trumping; seat 1 wins with HT and leads SK, seat 0 trumps
#   with C8 and seat 2 over-trumps with CT. The C8 lead still loses as in B.
# D (B with seat 2 leading, --seat leader means seat 2), 1 trick: leading CT wins
#   (seat 0 follows with C8, seat 1 has no club and no trump), then SJ loses to
#   SK; leading SJ instead, seat 0 must trump with C8 and win, then leads H6 and
#   seat 2 must trump it with CT: 1 trick either way.
HAND_CHECKED = [
    # (line, seat, tricks)
    ('{"rules": "swiss", "trump": "S", "leader": 0, "hands": [["SA","CA","CK"], ["S6","D6","D7"]]}', 0, 3),
    ('{"rules": "swiss", "trump": "S", "leader": 0, "hands": [["SA","CA","CK"], ["S6","D6","D7"]]}', 1, 0),
    ('{"rules": "swiss", "trump": "C", "leader": 0, "hands": [["C8","H6"], ["HT","SK"], ["CT","SJ"]]}', 0, 1),
    ('{"rules": "flemish", "trump": "C", "leader": 0, "hands": [["C8","H6"], ["HT","SK"], ["CT","SJ"]]}', 0, 0),
    ('{"rules": "swiss", "trump": "C", "leader": 2, "hands": [["C8","H6"], ["HT","SK"], ["CT","SJ"]]}', "leader", 1),
]


@pytest.fixture(scope="module")
def dd():
    return pytest.importorskip("rumbaodds.engine.dd")


def test_solve_hand_checked(dd):
    from rumbaodds.deals.play import solve_deals

    for text, seat, expect in HAND_CHECKED:
        deal = parse_deal(text)
        assert solve_deals([deal], seat).tolist() == [expect], text
        assert dd.dd_tricks(deal.masks(), deal.leader, deal.trump, deal.rules.follow_code, check_seat(deal, seat)) \
            == expect


def test_solve_batched_matches_one_by_one(dd):
    from rumbaodds.deals.play import solve_deals

    deals = list(generate_deals(SWISS, 3, 20, 3, seed=9)) + list(generate_deals(FLEMISH, 2, 20, 4, seed=9))
    deals = deals[::2] + deals[1::2]
    got = solve_deals(deals, "leader")
    for deal, value in zip(deals, got, strict=False):
        assert value == dd.dd_tricks(deal.masks(), deal.leader, deal.trump, deal.rules.follow_code, deal.leader)
    got0 = solve_deals(deals, 1)
    assert got0.tolist() == [
        dd.dd_tricks(d.masks(), d.leader, d.trump, d.rules.follow_code, 1) for d in deals
    ]


def test_solve_seat_out_of_range(dd):
    from rumbaodds.deals.play import solve_deals

    deal = parse_deal(HAND_CHECKED[0][0], SWISS, 4)
    with pytest.raises(DealError, match=r"^line 4: seat '2': seat out of range"):
        solve_deals([deal], 2)
