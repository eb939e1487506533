"""Rule sets as data (RULES.md §3-§5): presets, refusals naming the field, house-rule TOML files."""

import pytest

from rumbaodds.cards import parse_card
from rumbaodds.rules import (
    FLEMISH,
    FOLLOW_FLEMISH,
    FOLLOW_STECHZWANG,
    PRESETS,
    SWISS,
    RulesError,
    get_rules,
    load_rules,
    rules_from_dict,
)


def test_swiss_preset_matches_rules_md_section_4():
    r = get_rules("swiss")
    assert r is SWISS and PRESETS["swiss"] is SWISS
    assert r.deck_size == 36 and len(r.deck) == 36 and r.ranks == "6789TJQKA"
    assert sorted(r.suits) == sorted("CDHS")
    assert (r.min_players, r.max_players) == (3, 7)
    assert r.hand_size == 5
    assert r.start_score == 20
    assert r.exchange_limit == 4
    assert r.follow_rule == "stechzwang" and r.follow_code == FOLLOW_STECHZWANG
    assert r.speaking_order == "one-round"
    assert r.passer_cards == "stock-bottom"
    assert r.knock is True
    assert r.throw_in is True and r.throw_in_below == "T"
    assert r.jack_of_trump_forces_play is False and r.two_of_trump_swap is False
    assert r.rumba_lead == "rumba-player"  # [D-8]: the Rumba player leads
    assert r.others_after_rumba == "choose"  # [D-5]
    # Rumba / knock player: -2 per trick with 3..5 tricks, +10 with 0..2, -5 alone.
    assert r.rumba_min_tricks == 3
    assert r.rumba_success_per_trick == -2 and r.rumba_success_flat == 0
    assert r.rumba_fail_score == 10
    assert r.lone_rumba_allowed is True and r.lone_rumba_score == -5
    assert r.lone_player_score == -5  # [D-7]
    # Others: -1 per trick, +5 for none, in any hand.
    assert (r.normal_per_trick, r.normal_no_trick) == (-1, 5)
    assert (r.rumba_others_per_trick, r.rumba_others_no_trick) == (-1, 5)
    # Third pass in a row costs +5 (rule 17).
    assert (r.sit_out_limit, r.sit_out_penalty) == (3, 5)


def test_flemish_preset_matches_rules_md_section_5():
    r = get_rules("Flemish")
    assert r is FLEMISH
    assert r.deck_size == 52 and len(r.deck) == 52 and r.ranks == "23456789TJQKA"
    assert (r.min_players, r.max_players) == (2, 6)
    assert r.hand_size == 5
    assert r.start_score == 21
    assert r.exchange_limit == 3
    assert r.follow_rule == "flemish" and r.follow_code == FOLLOW_FLEMISH
    assert r.passer_cards == "put-away"
    assert r.knock is False and r.throw_in is False
    assert r.jack_of_trump_forces_play is True
    assert r.two_of_trump_swap is True  # [D-9]
    assert r.rumba_lead == "first-after-dealer"  # [D-10]
    assert r.others_after_rumba == "must-play"
    assert r.lone_rumba_allowed is False
    assert r.lone_player_score == -5
    # Rumba player: -10 flat with 3..5 tricks, +10 with 0..2.
    assert r.rumba_min_tricks == 3
    assert r.rumba_success_flat == -10 and r.rumba_success_per_trick == 0
    assert r.rumba_fail_score == 10
    # Others in a Rumba: -2 per trick, +10 for none; normal hand -1 / +5.
    assert (r.rumba_others_per_trick, r.rumba_others_no_trick) == (-2, 10)
    assert (r.normal_per_trick, r.normal_no_trick) == (-1, 5)
    assert r.sit_out_limit == 0  # no sit-out penalty


def test_decks_hold_exactly_their_cards():
    assert parse_card("H6") in SWISS.deck and parse_card("H5") not in SWISS.deck
    assert parse_card("H2") in FLEMISH.deck
    assert len(set(SWISS.deck)) == 36 and len(set(FLEMISH.deck)) == 52
    assert bin(SWISS.deck_mask).count("1") == 36
    assert list(SWISS.deck_array()) == SWISS.deck


def test_check_players():
    for n in range(3, 8):
        SWISS.check_players(n)
    for n in range(2, 7):
        FLEMISH.check_players(n)
    for rules, n in [(SWISS, 2), (SWISS, 8), (FLEMISH, 1), (FLEMISH, 7)]:
        with pytest.raises(RulesError, match=str(n)):
            rules.check_players(n)


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"hand_size": 0}, "hand_size"),
        ({"hand_size": 6}, "hand_size"),
        ({"max_players": 8}, "max_players"),  # 8 x 5 + 1 = 41 > 36 cards
        ({"ranks": "TJQKA"}, "max_players"),  # 20 cards for 7 players
        ({"follow_rule": "jass"}, "follow_rule"),
        ({"ranks": "A6789TJQK"}, "ranks"),
        ({"ranks": "6789TJQKA1"}, "ranks"),
        ({"ranks": "66789"}, "ranks"),
        ({"ranks": ""}, "ranks"),
        ({"suits": "H"}, "suits"),
        ({"suits": "HX"}, "suits"),
        ({"suits": "HH"}, "suits"),
        ({"min_players": 1}, "min_players"),
        ({"min_players": 5, "max_players": 4}, "max_players"),
        ({"speaking_order": "random"}, "speaking_order"),
        ({"passer_cards": "burn"}, "passer_cards"),
        ({"rumba_lead": "dealer"}, "rumba_lead"),
        ({"others_after_rumba": "maybe"}, "others_after_rumba"),
        ({"exchange_limit": 6}, "exchange_limit"),
        ({"exchange_limit": -1}, "exchange_limit"),
        ({"throw_in_below": "X"}, "throw_in_below"),
        ({"rumba_min_tricks": 0}, "rumba_min_tricks"),
        ({"rumba_min_tricks": 6}, "rumba_min_tricks"),
        ({"sit_out_limit": -1}, "sit_out_limit"),
        ({"two_of_trump_swap": True}, "two_of_trump_swap"),  # swiss deck has no two
        ({"ranks": "6789TQKA", "max_players": 5, "jack_of_trump_forces_play": True}, "jack_of_trump_forces_play"),
    ],
)
def test_impossible_rule_sets_refused_naming_field(changes, field):
    with pytest.raises(RulesError) as info:
        SWISS.replace(**changes)
    assert f"field {field}" in str(info.value)


def test_small_valid_variant_is_accepted():
    tiny = SWISS.replace(name="tiny", ranks="QKA", hand_size=2, min_players=2, max_players=3, exchange_limit=1,
                         rumba_min_tricks=2)
    assert tiny.deck_size == 12
    assert tiny != SWISS


def test_house_rule_toml_loads(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(
        'base = "flemish"\n'
        "start_score = 15\n"
        "exchange_limit = 2\n"
        "two_of_trump_swap = false\n"
        'speaking_order = "rumba-first"\n'
        "rumba_others_no_trick = 7\n",
        encoding="utf-8",
    )
    r = get_rules(path)
    assert r.start_score == 15 and r.exchange_limit == 2 and r.two_of_trump_swap is False
    assert r.speaking_order == "rumba-first" and r.rumba_others_no_trick == 7
    # everything not overridden comes from the flemish preset
    assert r.deck_size == 52 and r.follow_rule == "flemish" and r.max_players == 6
    assert r.rumba_success_flat == -10 and r.jack_of_trump_forces_play is True
    assert "flemish" in r.name
    assert get_rules(str(path)) == r
    assert load_rules(path) == r


def test_house_rule_toml_default_base_is_swiss(tmp_path):
    path = tmp_path / "plain.toml"
    path.write_text("start_score = 30\n", encoding="utf-8")
    r = get_rules(path)
    assert r.start_score == 30 and r.deck_size == 36 and r.follow_rule == "stechzwang"


@pytest.mark.parametrize(
    "body, field",
    [
        ('base = "flemish"\nstart_scor = 15\n', "start_scor"),
        ('base = "flemish"\n[extras]\nx = 1\n', "extras"),
        ('base = "flemish"\nstart_score = "15"\n', "start_score"),
        ('base = "flemish"\nstart_score = 1.5\n', "start_score"),
        ('base = "flemish"\nhand_size = true\n', "hand_size"),
        ('base = "flemish"\nknock = 1\n', "knock"),
        ('base = "flemish"\nfollow_rule = 1\n', "follow_rule"),
        ('base = "flemish"\nfollow_rule = "jass"\n', "follow_rule"),
        ('base = "flemish"\nhand_size = 0\n', "hand_size"),
        ('base = "bridge"\n', "base"),
    ],
)
def test_bad_toml_refused_naming_field(tmp_path, body, field):
    path = tmp_path / "bad.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        get_rules(path)
    assert field in str(info.value)


def test_toml_not_found_and_not_toml(tmp_path):
    with pytest.raises(RulesError, match="not found"):
        get_rules(tmp_path / "missing.toml")
    path = tmp_path / "broken.toml"
    path.write_text("base = \n", encoding="utf-8")
    with pytest.raises(RulesError, match="TOML"):
        get_rules(path)


def test_unknown_preset_name_refused():
    with pytest.raises(RulesError, match="jass"):
        get_rules("jass")


def test_rules_from_dict_same_checks():
    assert rules_from_dict({"base": "swiss", "exchange_limit": 3}).exchange_limit == 3
    with pytest.raises(RulesError, match="nonsense"):
        rules_from_dict({"nonsense": 1})
