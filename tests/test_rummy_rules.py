"""Rummy rule sets as data (RULES.md §8): the presets, TOML house rules, refusals naming the field, card parsing,
and rule fields whose change moves the answer the way the book says."""

import pytest

from rumbaodds.cards import CardError
from rumbaodds.rules import RulesError
from rumbaodds.rummy.cards import JOKER, deck_types, parse_rummy_hand, parse_token, unknown_cards
from rumbaodds.rummy.rules import PRESETS, ROMME, ROMME40, RUMMI, RummyRules, get_rummy_rules, rummy_rules_from_dict
from rumbaodds.rummy.solver import solve


def test_presets_match_the_table_of_rules_md_section_8():
    table = {  # cards, players, hand, opening, ace low, joker penalty, ace penalty
        "romme": (2, 6, 2, 4, 13, 30, True, 30, 15),
        "rummi": (2, 3, 2, 4, 13, 40, True, 20, 11),  # [D-11], [D-13]
        "romme40": (2, 2, 2, 4, 13, 40, False, 15, 11),  # [D-11], [D-12]
    }
    for name, row in table.items():
        r = get_rummy_rules(name)
        assert r is PRESETS[name]
        assert (r.decks, r.jokers, r.min_players, r.max_players, r.hand_size, r.opening_threshold, r.ace_low,
                r.joker_penalty, r.ace_penalty) == row
        assert (r.ace_low_value, r.ace_high_value, r.min_real_cards, r.keep_one_card) == (1, 11, 2, True)  # [D-14/16]
        assert r.deck_size == 104 + r.jokers == len(deck_types(r))
    assert (ROMME.jokers_adjacent, ROMME.jokers_at_most_real, ROMME.group_joker_needs_four) == (True, False, False)
    assert (RUMMI.jokers_adjacent, RUMMI.jokers_at_most_real, RUMMI.group_joker_needs_four) == (False, True, True)
    assert (ROMME40.jokers_adjacent, ROMME40.jokers_at_most_real, ROMME40.group_joker_needs_four) == (True, False,
                                                                                                       False)


def test_house_rule_toml(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('base = "romme"\nopening_threshold = 40\njokers = 4\n', encoding="utf-8")
    r = get_rummy_rules(str(path))
    assert r.name == "romme+house" and r.opening_threshold == 40 and r.jokers == 4
    assert r.ace_penalty == ROMME.ace_penalty  # the rest from the base
    assert rummy_rules_from_dict({"base": "rummi", "ace_low": False}).ace_low is False


@pytest.mark.parametrize("data,field", [
    ({"hand_size": 20}, "hand_size"),
    ({"max_players": 9}, "max_players"),  # 9 x 13 cards do not fit the deck
    ({"decks": 3}, "decks"),
    ({"jokers": -1}, "jokers"),
    ({"min_real_cards": 0}, "min_real_cards"),
    ({"opening_threshold": 0}, "opening_threshold"),
    ({"min_players": 5}, "max_players"),
    ({"joker_penalty": 5000}, "joker_penalty"),
    ({"ace_low": 1}, "ace_low"),
    ({"jokers": "six"}, "jokers"),
    ({"base": "gin"}, "base"),
])
def test_impossible_house_rules_are_refused_naming_the_field(data, field):
    with pytest.raises(RulesError, match=rf"field {field}"):
        rummy_rules_from_dict(data)


def test_unknown_fields_and_files_are_refused(tmp_path):
    with pytest.raises(RulesError, match="unknown field 'wild_twos'"):
        rummy_rules_from_dict({"wild_twos": True})
    with pytest.raises(RulesError, match="not found"):
        get_rummy_rules(str(tmp_path / "missing.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("base = \n", encoding="utf-8")
    with pytest.raises(RulesError, match="not valid TOML"):
        get_rummy_rules(str(bad))
    with pytest.raises(RulesError, match="unknown rummy rule set"):
        get_rummy_rules("canasta")


def test_cards_and_jokers_are_read_in_every_spelling():
    assert parse_token("HA") == parse_token("ha") == parse_token("♥A") == 2 * 13 + 12
    assert parse_token("S10") == parse_token("st") == 3 * 13 + 8
    assert parse_token("JK") == parse_token("jk") == parse_token("*") == JOKER
    assert parse_token("CJ") == 0 * 13 + 9  # the jack of clubs, not a joker


@pytest.mark.parametrize("hand,message", [
    ("HA HA HA", "card HA appears 3 times"),
    ("HA XX", "unknown card 'XX'"),
    ("JK JK JK JK", "holds 4 jokers; the rummi deck has 3"),
    ("H1 H2", "unknown card 'H1'"),
])
def test_bad_hands_name_the_problem(hand, message):
    with pytest.raises(CardError, match=message):
        parse_rummy_hand(hand, RUMMI)


def test_hand_sizes_are_checked_when_asked():
    with pytest.raises(CardError, match="has 3 cards; romme needs 13 or 14"):
        parse_rummy_hand("HA H2 H3", ROMME, ROMME.open_hand_sizes)
    one_deck = RummyRules(name="one", decks=1, jokers=2, max_players=3)
    with pytest.raises(CardError, match="appears 2 times"):
        parse_rummy_hand("HA HA", one_deck)


def test_unknown_cards_remove_one_copy_per_card_seen():
    seen = parse_rummy_hand("HA HA JK S2", ROMME)
    left = unknown_cards(ROMME, seen)
    assert len(left) == ROMME.deck_size - 4
    assert left.count(parse_token("HA")) == 0 and left.count(parse_token("S2")) == 1 and left.count(JOKER) == 5


# -- a changed field changes the answer the way the book says ---------------------------------------
def value(hand, rules):
    return solve(parse_rummy_hand(hand, rules), rules, "value").value


def test_keep_one_card_is_the_k_minus_1_rule():
    assert value("H5 H6 H7 H8", ROMME) == 21  # [D-16]: 3 of 4
    assert value("H5 H6 H7 H8", ROMME.replace(keep_one_card=False)) == 26


def test_ace_low_switch():
    assert value("HA H2 H3 C9", ROMME) == 6
    assert value("HA H2 H3 C9", ROMME.replace(ace_low=False)) == 0
    assert value("HA H2 H3 C9", ROMME40.replace(ace_low=True)) == 6
    assert value("HA H2 H3 C9", ROMME.replace(ace_low_value=5)) == 10
    assert value("HQ HK HA C9", ROMME.replace(ace_high_value=15)) == 35


def test_joker_constraint_switches():
    assert value("H5 JK JK H8 C2", ROMME) == 26
    assert value("H5 JK JK H8 C2", ROMME.replace(jokers_adjacent=False)) == 0
    assert value("H7 S7 JK C2", ROMME.replace(group_joker_needs_four=True)) == 0
    assert value("H5 H6 JK JK JK C2", ROMME.replace(jokers_at_most_real=True)) == 26  # JK JK 5 6 or 5 6 JK JK
    assert value("H7 JK JK C2", ROMME.replace(min_real_cards=1)) == 24  # [D-14] lifted: H7 JK JK = 7 + 8 + 9
    assert value("HA JK JK C5", ROMME.replace(min_real_cards=1)) == 33


def test_opening_threshold_decides_can_open():
    from rumbaodds.rummy.opening import opening

    hand = "HA H2 H3 D7 S7 JK C9 CT CJ S2 D4 H9 SK"
    assert opening(hand, ROMME)["can_open"] is True
    assert opening(hand, ROMME.replace(opening_threshold=57))["can_open"] is False
