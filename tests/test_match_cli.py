"""`rumbaodds game`: chances that add up to one, a JSON object, and one-line errors with exit code 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rumbaodds.cli import main
from rumbaodds.match.api import table_assumes, table_for
from rumbaodds.rules import get_rules


def run(*args):
    return CliRunner().invoke(main, ["game", *args])


def test_game_json_adds_up():
    result = run("--rules", "flemish", "--scores", "5,9,14", "--games", "2000", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    players = data["per_player"]
    assert data["games"] == 2000 and data["players"] == 3 and data["dealer"] == 2
    assert abs(sum(p["p_win"] for p in players) - 1) < 1e-9 and abs(sum(p["payout"] for p in players)) < 1e-9
    assert players[0]["p_win"] > players[2]["p_win"]
    assert all(p["p_win_95"][0] <= p["p_win"] <= p["p_win_95"][1] for p in players)
    # issue 38: by default every player sees the score where a score-aware equilibrium is shipped; either way the
    # answer says what it assumed
    table = table_for(get_rules("swiss"), 3)
    assert data["players_see_the_score"] == table.sees_score and data["assumes"] == table_assumes(table)


def test_game_table_names_the_first_dealer():
    result = run("--rules", "flemish", "--players", "4", "--scores", "21,21,21,21", "--games", "500")
    assert result.exit_code == 0, result.output
    assert "dealing first is worth" in result.output and "to player 3" in result.output
    assert "positive = received" in result.output
    table = table_for(get_rules("flemish"), 4)  # what the game assumed of its players, said (issue 38)
    assert "Assumed: " + table_assumes(table) in " ".join(result.output.split())


@pytest.mark.parametrize("args, words", [
    (["--scores", "20,x,20"], "--scores: 'x' is not a whole number"),
    (["--scores", "20,,20"], "--scores: '' is not a whole number"),
    (["--scores", "20,5000,20"], "--scores must be 1..999 (a player's score in a game: at 0 or below it is over)"),
    (["--scores", "20,-3,20"], "--scores must be 1..999"),
    (["--scores", ",".join(["20"] * 60)], "--scores: 60 numbers"),
    (["--scores", "20,20,20", "--passes", "0,-1,0"], "--passes must be 0..99"),
    (["--scores", "20,20,20", "--dealer", "-1"], "--dealer: player -1 does not exist with 3 players (0..2)"),
    (["--rules", "flemish", "--scores", "20,20,20", "--passes", "0,2,0"], "'flemish' has no sit-out penalty"),
    (["--players", "3", "--games", "99999999999"], "--games must be 1..10,000,000"),
    (["--players", "3", "--seed", "-1"], "--seed must be 0..2**63-1"),
    (["--players", "4", "--scores", "20,20,20"], "--scores: 3 scores for 4 players"),
    (["--scores", "20,0,20"], "at 0 or below it is over"),
    (["--scores", "20,20,20", "--dealer", "3"], "--dealer: player 3 does not exist"),
    (["--scores", "20,20,20", "--passes", "0,1"], "--passes: 2 streaks for 3 players"),
    (["--players", "9"], "9 players: rule set 'swiss' allows 3..7"),
    (["--players", "3", "--games", "0"], "--games must be 1..10,000,000"),
    (["--rules", "nope", "--players", "3"], "unknown rule set 'nope'"),
])
def test_bad_input_is_one_line_and_exit_2(args, words):
    result = run(*args)
    assert result.exit_code == 2
    assert words in result.output and len(result.output.strip().splitlines()) == 1, result.output


def test_unfinished_games_give_no_chance_that_ignores_them():
    """Everybody always plays (style all): the scores drift away from 0 and most games never end. The answer says
    how many and gives bounds, never a chance over the finished games alone; the negative control (the solved
    opponents) finishes every game and gives chances that add up to one."""
    result = run("--players", "5", "--opponents", "all", "--games", "40", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["unfinished"] > 0 and "did not finish" in data["note"]
    for p in data["per_player"]:
        assert p["p_win"] is None and p["payout"] is None
        low, high = p["p_win_bounds"]
        assert 0 <= low <= high <= 1 and high - low >= data["unfinished"] / data["games"] - 1e-12
    text = run("--players", "5", "--opponents", "all", "--games", "40")
    assert "did not finish within 10,000 hands" in text.output and "fair share" not in text.output
    control = json.loads(run("--players", "5", "--games", "200", "--json").stdout)
    assert control["unfinished"] == 0 and abs(sum(p["p_win"] for p in control["per_player"]) - 1) < 1e-9


def test_seat_model_seats_one_style_at_a_table_of_equilibrium_players():
    """game --seat-model 0=all: player 0 always plays (never passes, never calls), the others keep the solved
    strategies; he wins less and pays, where the control (everybody solved) is about even."""
    mixed = json.loads(run("--players", "5", "--seat-model", "0=all", "--games", "8000", "--seed", "1",
                           "--json").stdout)
    control = json.loads(run("--players", "5", "--games", "8000", "--seed", "1", "--json").stdout)
    assert mixed["opponents"] == "equilibrium,0=all" and control["opponents"] == "equilibrium"
    assert mixed["per_player"][0]["payout_95"][1] < control["per_player"][0]["payout_95"][0]
    result = run("--players", "5", "--seat-model", "7=bold")
    assert result.exit_code == 2 and "player 7 does not exist" in result.output  # a player: the deal moves
