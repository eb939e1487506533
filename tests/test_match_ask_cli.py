"""`ask --scores` with a knocked hand and with everybody's streaks (issue 21 item 3, RULES.md §9.1, swiss rule 17)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from rumbaodds.cli import main
from rumbaodds.rules import get_rules

WEAK = ["ask", "ST C7 D8 S9 C6", "--trump", "H8", "--players", "5", "--seat", "2"]


def ask_json(*args):
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_a_knocked_hand_offers_join_or_pass_by_the_game_too():
    """The dealer knocked (swiss): the others can only join (play without exchange) or pass, in the game block too."""
    data = ask_json("ask", "HA HK S6 C7 D9", "--trump", "H8", "--players", "5", "--seat", "2", "--dealer-knocked",
                    "--scores", "15,17,4,19,12", "--samples", "800", "--seed", "3")
    assert data["dealer_knocked"] is True
    game = data["game"]
    assert set(game["actions"]) == {"pass", "play"} and game["actions"]["play"]["choice"] == "play0"
    assert set(data["actions"]) == {"pass", "play"}
    assert game["per_hand_recommendation"] == data["recommendation"]
    for entry in game["actions"].values():
        assert entry["payout_95"][0] <= entry["payout"] <= entry["payout_95"][1] and 0 <= entry["p_win"] <= 1
    result = CliRunner().invoke(main, ["ask", "HA HK S6 C7 D9", "--trump", "H8", "--players", "5", "--seat", "4",
                                       "--dealer-knocked", "--scores", "15,17,4,19,12"])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1  # the dealer cannot join himself


def test_the_third_pass_penalty_moves_the_pass_value():
    """Swiss rule 17: with two passes in a row a third pass costs 5 points (4.98 here: a void hand costs nothing).
    At 9 points those 5 points are a large share of the way home, so the pass loses many stakes of expected payout
    by the game and play becomes the best choice; the others' choices do not move (same deals, same seed). Control:
    the streak of another seat does not move the player's pass value this hand."""
    penalty = get_rules("swiss").pass_penalty(2)
    assert penalty == 5
    common = [*WEAK, "--scores", "15,17,9,19,12", "--samples", "1500", "--seed", "3"]
    fresh = ask_json(*common, "--passes", "0,0,0,0,0")
    tired = ask_json(*common, "--passes", "0,0,2,0,0")
    same = ask_json(*common, "--passes-in-a-row", "2")
    other = ask_json(*common, "--passes", "0,2,0,0,0")
    assert fresh["recommendation"] == "pass" and tired["recommendation"] == "play"
    assert fresh["actions"]["pass"]["ev"] == 0 and 4.5 < tired["actions"]["pass"]["ev"] <= penalty
    assert tired["actions"]["rumba"]["ev"] == fresh["actions"]["rumba"]["ev"]
    before, after = fresh["game"]["actions"]["pass"], tired["game"]["actions"]["pass"]
    assert before["payout"] - after["payout"] > 8 and after["payout_95"][1] < before["payout_95"][0]
    assert tired["game"]["recommendation"] == "play" and not tired["game"]["score_changes_the_choice"]
    assert same["game"] == tired["game"]  # --passes-in-a-row 2 is everybody else at 0
    assert other["actions"]["pass"]["ev"] == 0  # control: another seat's streak is not the player's penalty


def _refused(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    return result.output


def test_streaks_given_twice_must_agree():
    """--passes says seat 2 passed twice, --passes-in-a-row 0 says he did not: refused, never one silently used."""
    text = _refused(*WEAK, "--scores", "20,20,20,20,20", "--passes", "0,0,2,0,0", "--passes-in-a-row", "0")
    assert "disagree" in text
    agree = ask_json(*WEAK, "--scores", "20,20,20,20,20", "--passes", "0,0,2,0,0", "--passes-in-a-row", "2",
                     "--samples", "400", "--seed", "1")
    assert agree["game"]["passes"] == [0, 0, 2, 0, 0]


def test_streaks_refused_where_the_rules_have_no_sit_out_penalty():
    text = _refused("ask", "SA SK D7 C8 H9", "--trump", "S5", "--players", "4", "--seat", "2", "--rules",
                    "flemish", "--scores", "21,21,21,21", "--passes", "0,2,0,0")
    assert "'flemish' has no sit-out penalty" in text


def test_scores_error_quotes_the_range_a_game_allows():
    assert "--scores must be 1..999" in _refused(*WEAK, "--scores", "20,20,-4,20,20")


def test_which_rumbas_end_the_game():
    """RULES.md §4.8 / §9: swiss scores a Rumba -2 a trick (3 to 5 tricks: -6 to -10) and a lone one -5; flemish
    -10 whatever the tricks, and no lone Rumba."""
    from rumbaodds.match.ask import rumba_finish

    swiss, flemish = get_rules("swiss"), get_rules("flemish")
    assert rumba_finish(swiss, 5) == "any successful Rumba ends the game for him"
    assert rumba_finish(swiss, 6) == "a Rumba that takes 3 or more tricks ends the game for him"  # a lone -5: no
    assert rumba_finish(swiss, 8) == "a Rumba that takes 4 or more tricks ends the game for him"
    assert rumba_finish(swiss, 10) == "a Rumba that takes all 5 tricks ends the game for him"
    assert rumba_finish(swiss, 11) == ""
    assert rumba_finish(flemish, 10) == "any successful Rumba ends the game for him"
    assert rumba_finish(flemish, 11) == ""


def test_the_rumba_note_only_where_a_rumba_is_recommended():
    """The issue's command: at 10 points only a 5-trick Rumba ends the game, and the note says so where the game
    recommends the Rumba; where neither the hand nor the game recommends one, no word on what a Rumba would do."""
    from types import SimpleNamespace

    from rumbaodds.match.ask import rumba_note

    result = CliRunner().invoke(main, ["ask", "HA SA HQ C7 D9", "--trump", "H8", "--players", "5", "--seat", "2",
                                       "--scores", "20,20,10,10,20", "--samples", "2000", "--seed", "0"])
    assert "at 10 points" in result.output and "a successful Rumba ends the game" not in result.output
    # what the answer assumes, said: every player by the score-aware equilibrium (issue 38), this hand too
    assert "every player decides each hand by the score-aware equilibrium" in " ".join(result.output.split())
    assert "Opponents score-aware equilibrium" in " ".join(result.output.split())
    situation = SimpleNamespace(rules=get_rules("swiss"), seat=2)
    state = SimpleNamespace(scores=(20, 20, 10, 10, 20))
    answer = lambda game, hand: SimpleNamespace(recommendation=game, state=state,  # noqa: E731
                                                hand=SimpleNamespace(recommendation=hand, situation=situation))
    assert rumba_note(answer("rumba", "play")) == "a Rumba that takes all 5 tricks ends the game for him"
    assert rumba_note(answer("play", "rumba")) == "a Rumba that takes all 5 tricks ends the game for him"
    assert rumba_note(answer("play", "pass")) == ""
