"""The golden whole hands (tests/golden/) agree with the rule book, and the checker can fail.

Each file is checked by ``golden_hands.check_hand``, a reading of RULES.md and
SIMULATION.md that shares no code with the engine. Negative controls change
one thing in a good file (an illegal card, a wrong winner, a wrong score, a
wrong lead, ...) and require the checker to object. The replay of these
files through the engine's twin and kernel is a separate test.
"""

from __future__ import annotations

import copy
import dataclasses
import json

import golden_hands as g
import pytest

from rumbaodds.cards import parse_hand
from rumbaodds.rules import PRESETS, RuleSet

FILES = g.golden_files()
FIELDS_WITHOUT_PAIR = {
    "name": "a label",
    "description": "a label",
    "start_score": "the score sheet's start: one hand's score changes do not depend on it",
    "min_players": "only which table sizes the rule set admits; a hand of n players in range plays the same",
    "max_players": "only which table sizes the rule set admits; a hand of n players in range plays the same",
    "goal_score": "§9, the end of a game: one hand's score changes do not depend on it (tests/test_match_score.py)",
    "winners": "§9 [D-18], who wins a game: not a rule of one hand (tests/test_match_score.py)",
    "score_floor": "§9 [D-19], a score below 0 after a game: not a rule of one hand (tests/test_match_score.py)",
    "payout": "§9 [D-20], who pays whom after a game: not a rule of one hand (tests/test_match_score.py)",
    "suits": "changes only the deck: given the cards in play, no step of RULES.md or SIMULATION.md depends on which "
             "other suits exist (README.md explains why the expert's unseen cards of a missing suit change nothing)",
}
DEAL_KEYS = ("players", "trump_card", "knock", "hands", "stock", "passer_pile", "passes_in_a_row", "decisions",
             "model", "play")


def load(name: str) -> dict:
    return g.load(g.GOLDEN / name)


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_file_agrees_with_the_book(path):
    problems = g.check_hand(str(path), g.load(path))
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("rule_set", ["swiss", "flemish"])
def test_enough_hands_per_rule_set(rule_set):
    hands = [g.load(p) for p in FILES if p.parent.name == rule_set]
    assert len(hands) >= 14
    assert sum(h["play"] == "expert" for h in hands) >= 3
    assert all(g.resolve_rules(h["rules"])["name"] == rule_set for h in hands)


def test_book_presets_name_every_rule_set_field():
    """The checker's presets cover the RuleSet fields (plus normal_lead, added by issue 7)."""
    code_fields = {f.name for f in dataclasses.fields(RuleSet)} - set(g.NOT_RULES)
    assert code_fields | {"normal_lead"} == set(g.SWISS_BOOK)


@pytest.mark.parametrize("name", ["swiss", "flemish"])
def test_book_presets_equal_the_code_presets(name):
    """The two readings of RULES.md agree field by field (normal_lead once the code has it)."""
    code = PRESETS[name]
    for key, value in g.BOOK[name].items():
        if hasattr(code, key):
            assert getattr(code, key) == value, key


def test_every_field_has_a_pair_or_a_reason():
    pairs = g.field_pairs()
    assert set(pairs) | set(FIELDS_WITHOUT_PAIR) == set(g.SWISS_BOOK) | set(g.NOT_RULES)
    assert not set(pairs) & set(FIELDS_WITHOUT_PAIR)


@pytest.mark.parametrize("field", sorted(g.field_pairs()))
def test_field_pair_differs_only_in_its_field(field):
    a, b = (g.load(p) for p in g.field_pairs()[field])
    assert len(g.field_pairs()[field]) == 2
    rules_a, rules_b = g.resolve_rules(a["rules"]), g.resolve_rules(b["rules"])
    assert {k for k in rules_a if rules_a[k] != rules_b[k]} == {field}
    for key in DEAL_KEYS:
        if field in g.DECK_FIELDS and key in ("hands", "stock"):
            continue
        assert a.get(key) == b.get(key), key
    if field in g.DECK_FIELDS:  # the deal may differ only by the cards the other deck or hand size adds
        size = lambda d: (len(d["stock"]) + sum(map(len, d["hands"])), len(d["hands"][0]))  # noqa: E731
        small, big = sorted((a, b), key=size)
        cut = [h[len(s):] for s, h in zip(small["hands"], big["hands"])]
        assert all(h[:len(s)] == s for s, h in zip(small["hands"], big["hands"]))
        extra = [c for c in big["stock"] if c not in small["stock"]]
        assert small["stock"] == [c for c in big["stock"] if c not in extra] + [c for h in cut for c in h]
        assert big["stock"][len(big["stock"]) - len(extra):] == extra  # extra cards only at the bottom
    assert a["expected"] != b["expected"]


# =============================================================================
# The checker itself: clauses by hand, and negative controls
# =============================================================================
def legal(hand: str, trick: str, trump: str, rule: str) -> set[str]:
    cards = g.legal_cards(parse_hand(hand), parse_hand(trick), g.suit(parse_hand(trump + "2")[0]), rule)
    return set(g.text(cards))


def test_legality_by_the_clauses_of_section_3():
    # clause 1: follow suit, with a winning card when able (both rules)
    assert legal("H7 HK S6", "H9", "S", "stechzwang") == {"HK"}
    assert legal("H7 H8 S6", "H9", "S", "flemish") == {"H7", "H8"}
    # swiss clause 2: void, must trump, overtrump when able; rule 20: a trump even when unable to overtrump
    assert legal("SQ S7 D6", "H9 SJ", "S", "stechzwang") == {"SQ"}
    assert legal("S7 D6", "H9 SJ", "S", "stechzwang") == {"S7"}
    assert legal("D6 C7", "H9 SJ", "S", "stechzwang") == {"D6", "C7"}  # clause 3
    # flemish: any card when void, but no losing trump while holding a winning one [D-1]
    assert legal("SQ S7 D6", "H9 SJ", "S", "flemish") == {"SQ", "D6"}
    assert legal("S7 D6", "H9 SJ", "S", "flemish") == {"S7", "D6"}
    assert legal("SQ S7", "H9 SJ", "S", "flemish") == {"SQ"}


def test_greedy_and_keep_value_by_hand():
    trump = g.suit(parse_hand("H2")[0])
    assert g.text([g.greedy_card(parse_hand("SA DA CA"), [], trump, "flemish")]) == ["SA"]  # ties C < D < H < S
    assert g.text([g.greedy_card(parse_hand("H3 HK CA"), [], trump, "flemish")]) == ["HK"]  # trumps above all
    assert g.text([g.greedy_card(parse_hand("H3 HK S4"), parse_hand("D9"), trump, "flemish")]) == ["H3"]  # weakest win
    assert g.text([g.greedy_card(parse_hand("S3 D4 D8"), parse_hand("D9"), trump, "flemish")]) == ["D4"]
    cards = parse_hand("HA HK HQ HJ HT S2 SA SK SQ")
    assert [g.keep_value(c, trump, 12) for c in cards] == [6, 5, 4, 3, 2, 0, 3, 1, 0]


def _mutated(name: str, change) -> list[str]:
    data = copy.deepcopy(load(name))
    change(data)
    return g.check_hand(name, data)


def _set_trick_card(data, trick, position, card):
    data["expected"]["tricks"][trick]["cards"][position][1] = card


NEGATIVE_CONTROLS = {
    # rule 20: seat 1 must still trump SQ with S9, C6 is illegal
    "swiss rule 20": ("swiss/14_stechzwang_rule20.json", lambda d: _set_trick_card(d, 0, 2, "C6"), "may not play"),
    # clause 1: seat 0 must beat HT with HA
    "swiss clause 1": ("swiss/01_normal_dealer_leads.json", lambda d: _set_trick_card(d, 0, 1, "H7"), "may not play"),
    # [D-1]: seat 0 may not under-trump with D9 while holding DK
    "flemish D-1": ("flemish/14_expert_swap_overtrump.json", lambda d: _set_trick_card(d, 2, 2, "D9"), "may not"),
    "not greedy": ("swiss/05_rumba_made.json", lambda d: _set_trick_card(d, 1, 1, "DQ"), "greedy"),
    "wrong winner": ("swiss/06_rumba_lost_rule15.json",
                     lambda d: d["expected"]["tricks"][2].update(winner=0), "goes to seat"),
    "wrong score": ("flemish/05_rumba_lost_first_leads.json",
                    lambda d: d["expected"].update(score_changes=[-3, 10, 5]), "score_changes"),
    "wrong sit-out": ("swiss/02_dealer_passes_sit_out.json",
                      lambda d: d.update(passes_in_a_row=[1, 0, 0, 1]), "score_changes"),
    "wrong draw": ("swiss/01_normal_dealer_leads.json",
                   lambda d: d["expected"]["exchanges"][0].update(drawn=["H7", "ST"]), "exchanges"),
    "wrong discard": ("flemish/02_normal_put_away.json",
                      lambda d: d["expected"]["exchanges"][0].update(discarded=["S4", "C3", "H2"]), "exchanges"),
    "card missing": ("flemish/08_void_nobody_plays.json", lambda d: d["stock"].pop(), "lacks"),
    "card twice": ("swiss/09_void_nobody_plays.json", lambda d: d["stock"].__setitem__(0, "C6"), "twice"),
    "deck": ("swiss/09_void_nobody_plays.json", lambda d: d["stock"].__setitem__(0, "C2"), "not in the deck"),
    "dealer leads flemish": ("flemish/01_issue_example_first_leads.json",
                             lambda d: d.update(expected=load("fields/normal_lead__dealer.json")["expected"]),
                             "the lead is seat 0"),
    "must play after Rumba": ("flemish/04_rumba_made_must_play.json",
                              lambda d: d["expected"]["words"].__setitem__(3, "pass"), "words"),
    "jack forces play": ("flemish/10_jack_turned_normal.json", lambda d: d.update(trump_card="HT") or
                         d["stock"].__setitem__(d["stock"].index("HT"), "HJ"), "words"),
    "passer pile needed": ("swiss/03_exchange_reaches_passers.json", lambda d: d.pop("passer_pile"), "passer_pile"),
    "hand points": ("swiss/19_model_normal.json", lambda d: d.update(hand_points=[7, 4, 15, 6]), "hand_points"),
    "swap": ("flemish/11_two_of_trump_swap.json", lambda d: d["decisions"][1].update(swap_two=False), "table_card"),
    "knock takes": ("swiss/11_knock_takes_trump_card.json", lambda d: d["expected"].update(table_card="HK"),
                    "table_card"),
}


@pytest.mark.parametrize("case", sorted(NEGATIVE_CONTROLS))
def test_checker_rejects_a_changed_file(case):
    name, change, words = NEGATIVE_CONTROLS[case]
    assert g.check_hand(name, load(name)) == []  # the control starts from a good file
    problems = _mutated(name, change)
    assert problems, f"{case}: the checker accepted a wrong file"
    assert any(words in p for p in problems), problems


def test_files_are_plain_json_with_the_documented_keys():
    allowed = {"name", "explains", "notes", "rules", "players", "trump_card", "knock", "hands", "stock", "passer_pile",
               "passes_in_a_row", "decisions", "model", "hand_points", "play", "expected"}
    expected_keys = {"words", "void", "void_reason", "rumba_seat", "table_card", "exchanges", "hands_at_play", "leader",
                     "tricks", "tricks_won", "score_changes"}
    for path in FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data) <= allowed, (path.name, set(data) - allowed)
        assert set(data["expected"]) == expected_keys, path.name
