"""Hand-worked cases for every clause of RULES.md §8.2-§8.4 and §8.6, in each rummy rule set.

Each case is a small hand whose opening value was worked out by hand; the
kernel, the twin and the brute force must all give it. A filler card that
melds with nothing is added where the k - 1 rule [D-16] would otherwise bite.
"""

import pytest

from rumbaodds.rummy.brute import brute_force
from rumbaodds.rummy.cards import JOKER, parse_rummy_hand, parse_token
from rumbaodds.rummy.melds import best_meld, group_meld, sequence_melds
from rumbaodds.rummy.rules import PRESETS, ROMME, ROMME40, RUMMI
from rumbaodds.rummy.solver import solve
from rumbaodds.rummy.twin import solve_twin

NA = None  # the case cannot be dealt in this rule set (more jokers than its deck has)

# (clause, hand, expected opening value in romme, rummi, romme40)
CASES = [
    ("group of 3", "H7 S7 D7 C2", 21, 21, 21),
    ("group of 4", "H7 S7 D7 C7 D2", 28, 28, 28),
    ("group: no suit twice (two decks)", "H7 H7 S7 C2", 0, 0, 0),
    ("group: never more than 4 cards", "H7 S7 D7 C7 H7 D2", 28, 28, 28),
    ("group of aces counts 11 each", "HA SA DA C5", 33, 33, 33),
    ("sequence of 3", "H5 H6 H7 C2", 18, 18, 18),
    ("sequence: one suit only", "H5 S6 H7 C2", 0, 0, 0),
    ("sequence: never around the corner (K-A-2)", "HK HA H2 C5", 0, 0, 0),
    ("ace high after the king (Q-K-A)", "HQ HK HA C5", 31, 31, 31),
    ("ace low before the two (A-2-3): romme40 aces high only", "HA H2 H3 C9", 6, 6, 0),
    ("A-2-3-4: romme40 keeps only 2-3-4", "HA H2 H3 H4 C9", 10, 10, 9),
    ("two decks: the same sequence twice", "H5 H6 H7 H5 H6 H7 C2", 36, 36, 36),
    ("joker at the upper end (stands for H7)", "H5 H6 JK C2", 18, 18, 18),
    ("joker in the middle (H6)", "H5 JK H7 C2", 18, 18, 18),
    ("joker at the lower end when the top is the ace (HQ)", "HK HA JK C2", 31, 31, 31),
    ("joker placed for the most points (HJ, not H8)", "H9 HT JK C2", 29, 29, 29),
    ("joker after J-Q: the king, not the ten", "HJ HQ JK C2", 30, 30, 30),
    ("two jokers side by side: rummi spreads them (JK 5 6 JK)", "H5 H6 JK JK C2", 26, 22, 26),
    ("two jokers side by side inside: refused in rummi", "H5 JK JK H8 C2", 26, 0, 26),
    ("[D-14] at least 2 non-jokers: ace + 2 jokers is no meld", "HA JK JK C5", 0, 0, 0),
    ("[D-14] a seven and two jokers is no meld", "H7 JK JK C2", 0, 0, 0),
    ("[D-15] no more jokers than other cards (rummi: 2 of 3 jokers)", "H5 H6 JK JK JK C2", 35, 22, NA),
    ("[D-15] rummi: a joker in a group of 3 is refused", "H7 S7 JK C2", 21, 0, 21),
    ("[D-15] rummi: a joker in a group of 4 is fine", "H7 S7 D7 JK C2", 28, 28, 28),
    ("[D-15] rummi: two jokers in a group of 4 (2 <= 2 other cards)", "H7 S7 JK JK D2", 28, 28, 28),
    ("[D-15] rummi: aces and a joker need the fourth card", "HA SA JK C5", 33, 0, 33),
    ("[D-16] 4 cards: at most 3 laid (6-7-8, not 5-6-7-8)", "H5 H6 H7 H8", 21, 21, 21),
    ("[D-16] 13 hearts: 12 laid, the two kept", "H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA", 93, 93, 93),
    ("[D-16] 14 cards: all 13 hearts laid, the filler kept", "H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA C5",
     95, 95, 95),
    ("group or sequence: the card goes where it counts most", "H7 S7 D7 H8 H9 C2", 24, 24, 24),
    ("a joker goes to the meld where it counts most", "D7 S7 C9 CT CJ JK H2", 50, 39, 50),
    ("nothing melds", "H2 S5 D9 CK HA", 0, 0, 0),
]


def cards(text, rules):
    return parse_rummy_hand(text, rules)


@pytest.mark.parametrize("rules_name,column", [("romme", 2), ("rummi", 3), ("romme40", 4)])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_hand_worked_opening_value(case, rules_name, column):
    expected = case[column]
    if expected is NA:
        pytest.skip("more jokers than this deck has")
    rules = PRESETS[rules_name]
    hand = cards(case[1], rules)
    assert solve(hand, rules, "value").value == expected
    assert solve_twin(hand, rules, "value")[0] == expected
    if len(hand) <= 9:
        assert brute_force(hand, rules, "value")[0] == expected


def t(tokens):
    return [parse_token(x) for x in tokens.split()]


def test_joker_layouts_of_the_specification():
    """Where a joker may stand in H2 H3 + JK: 4 (best), or the low ace where aces are low."""
    romme = {m.value: m.layout for m in sequence_melds(t("H2 H3"), 1, ROMME)}
    assert romme == {6: (JOKER, *t("H2 H3")), 9: (*t("H2 H3"), JOKER)}
    romme40 = {m.value: m.layout for m in sequence_melds(t("H2 H3"), 1, ROMME40)}
    assert romme40 == {9: (*t("H2 H3"), JOKER)}
    assert best_meld(t("H2 H3"), 1, ROMME).stands_for == (parse_token("H4"),)
    # K-A + joker: only the queen (A-2 would go around the corner)
    assert [m.stands_for for m in sequence_melds(t("HK HA"), 1, ROMME)] == [(parse_token("HQ"),)]


def test_group_rules_of_the_specification():
    assert group_meld(t("H7 S7"), 1, ROMME).value == 21
    assert group_meld(t("H7 S7"), 1, RUMMI) is None  # [D-15]: a joker only in a group of 4
    assert group_meld(t("H7 S7"), 2, RUMMI).value == 28
    assert group_meld(t("H7 S7 D7 C7"), 1, ROMME) is None  # never 5
    assert group_meld(t("H7"), 2, ROMME) is None  # [D-14]
    assert group_meld(t("H7 H8 H9"), 0, ROMME) is None  # one rank only


def test_rummi_jokers_side_by_side_in_every_layout():
    layouts = [m.layout for m in sequence_melds(t("H5 H6"), 2, RUMMI)]
    assert layouts == [(JOKER, *t("H5 H6"), JOKER)]  # the only layout without two jokers side by side
    assert len(sequence_melds(t("H5 H6"), 2, ROMME)) == 3  # JK JK 5 6 / JK 5 6 JK / 5 6 JK JK


def test_value_and_penalty_objectives_disagree_where_the_ace_is_cheap_to_lay():
    """S4 SA JK S3 C7: the most points is S3 S4 JK (12); the fewest left lays SA JK S3 S4 (A-2-3-4, 10 points)
    and keeps only C7 (7): two different objectives. In romme40 the ace cannot be low."""
    hand = cards("S4 SA JK S3 C7", ROMME)
    value = solve(hand, ROMME, "lex")
    low = solve(hand, ROMME, "penalty")
    assert value.value == 12 and value.penalty_left == 15 + 7
    assert low.penalty_left == 7 and low.value == 10
    assert sorted(low.melds[0].reals) == sorted(t("SA S3 S4"))
    r40 = solve(hand, ROMME40, "penalty")
    assert r40.penalty_left == 11 + 7  # SA stays: 11 points in romme40
    assert brute_force(hand, ROMME, "penalty")[0] == low.weight


@pytest.mark.parametrize("rules", [ROMME, RUMMI, ROMME40], ids=lambda r: r.name)
def test_penalty_points_of_cards_left(rules):
    """§8.6: 2..10 pips, J Q K 10, ace and joker as the table says."""
    hand = cards("H2 H6 S9 DJ CQ HK SA JK", rules)
    s = solve(hand, rules, "penalty")
    assert s.melds == []  # nothing melds (the joker needs two cards of one meld)
    assert s.penalty_left == 2 + 6 + 9 + 10 + 10 + 10 + rules.ace_penalty + rules.joker_penalty
    assert (rules.ace_penalty, rules.joker_penalty) == {"romme": (15, 30), "rummi": (11, 20),
                                                        "romme40": (11, 15)}[rules.name]
