"""RULES.md §9 as rule-set fields: presets, house TOML values, one-line errors, and no table moved."""

from __future__ import annotations

import pytest

from rumbaodds.match.api import strategy_rules
from rumbaodds.rules import FLEMISH, GAME_DEFAULTS, SWISS, RulesError, load_rules, rules_from_dict
from rumbaodds.tables.lookup import _as_dict, read_manifest
from rumbaodds.tables.pack import SHIPPED, SUFFIX
from rumbaodds.tables.spec import default_seed

# default_seed of the presets before §9 was added (commit ee0ed96): §9 must not move them
SEEDS_BEFORE = {
    "swiss": {3: 5467286153788621025, 4: 7466944703885791118, 5: 1059514487858844302, 6: 1442395815670264313,
              7: 3577495849507846595},
    "flemish": {2: 1072933321129660969, 3: 7834469124929759973, 4: 1044496814933003135, 5: 8547447473534148176,
                6: 3934300719599000308},
}


def test_presets_follow_the_rule_book():
    # §9 table: swiss 20 (seed 000 rule 14), flemish 21; both end at 0 [D-18], floor [D-19], to-winners [D-20]
    assert SWISS.start_score == 20 and FLEMISH.start_score == 21
    for rules in (SWISS, FLEMISH):
        assert (rules.goal_score, rules.winners, rules.score_floor, rules.payout) == (0, "at-goal", True,
                                                                                       "to-winners")
        assert rules.void_counts_as_pass is False  # §9.1: a void hand is no pass unless the rule set says so


def test_presets_keep_their_table_seeds_and_identity():
    for rules in (SWISS, FLEMISH):
        assert not set(GAME_DEFAULTS) & set(rules.to_dict())
        for n, seed in SEEDS_BEFORE[rules.name].items():
            assert default_seed(rules, n) == seed
    # a house game rule changes the identity (its seed), and says so in to_dict
    pairwise = SWISS.replace(payout="pairwise")
    assert pairwise.to_dict()["payout"] == "pairwise" and default_seed(pairwise, 5) != SEEDS_BEFORE["swiss"][5]
    assert pairwise.hand_rules() == SWISS


def test_shipped_tables_still_match_the_swiss_preset():
    paths = sorted(SHIPPED.glob(f"*{SUFFIX}"))
    assert paths
    for path in paths:
        m = read_manifest(path)
        if m["rules"]["name"] == "swiss":
            assert m["rules"] == _as_dict(SWISS) == SWISS.to_dict()


def test_a_house_payout_from_toml(tmp_path):
    path = tmp_path / "pub.toml"
    path.write_text('base = "flemish"\npayout = "pairwise"\nscore_floor = false\nstart_score = 11\n')
    rules = load_rules(path)
    assert (rules.payout, rules.score_floor, rules.start_score, rules.name) == ("pairwise", False, 11, "flemish+pub")
    assert strategy_rules(rules) is FLEMISH  # one hand is the preset's: its solved strategy plays
    assert rules_from_dict({"payout": "win-only", "winners": "lowest"}).winners == "lowest"


@pytest.mark.parametrize("data, words", [
    ({"payout": "to-lowest"}, "field payout: 'to-lowest' must be one of ['to-winners', 'pairwise', 'win-only']"),
    ({"winners": "first"}, "field winners: 'first' must be one of ['at-goal', 'lowest']"),
    ({"score_floor": 1}, "field score_floor: expected true or false"),
    ({"goal_score": "0"}, "field goal_score: expected an integer"),
    ({"start_score": 0}, "field start_score: 0 must be above goal_score (0)"),
])
def test_bad_game_fields_are_one_line_errors(data, words):
    with pytest.raises(RulesError) as err:
        rules_from_dict(data)
    assert words in str(err.value) and "\n" not in str(err.value)
