"""`rumbaodds game`: from a score state, every player's chance to win the game and expected payout (RULES.md §9)."""

from __future__ import annotations

import json

import click

from .. import limits
from ..answer.simulation import POLICIES
from ..cardplay import DEFAULT_PLAY
from ..match.api import DEFAULT_GAMES, DEFAULT_SEED, game_values
from ..opponents.models import ModelError
from ..rules import RulesError, get_rules
from .errors import UserError, friendly_errors
from .group import main
from .options import (
    IntList,
    int_option,
    json_option,
    players_option,
    progress_option,
    rules_option,
    samples_option,
    scores_option,
    seat_option,
    seed_option,
    streaks_option,
)
from .render import print_game, progress_bar


@main.command("game")
@rules_option(help="Rule set: swiss, flemish, or a house-rule TOML file (its §9 fields: start_score, payout ...).")
@players_option(required=False, help="Number of players [default: as many as --scores].")
@scores_option(help="Every player's score, clockwise, e.g. 20,14,7,3,18 [default: everybody at the start score].")
@click.option("--dealer", type=int, default=None,
            help="Who deals the next hand (player index) [default: the last player, so player 0 speaks first].")
@streaks_option()
@samples_option(limits.GAMES, default=DEFAULT_GAMES, help="Games to simulate.", name="--games")
@seed_option(default=DEFAULT_SEED, help="Seed (game i depends on it and i).")
@click.option("--opponents", default=None, help="How every player decides [default: equilibrium, the score-aware "
                                                "solved strategies]; hand-equilibrium: the per-hand ones, blind to the "
                                                "score; a style name or TOML file plays that style at all seats.")
@click.option("--seat-model", "seat_models", multiple=True, metavar="PLAYER=STYLE",
              help="One player decides by another model than the rest, e.g. 0=hand-equilibrium or 0=bold "
                   "(repeatable; the player keeps it wherever the deal puts him, his knock too).")
@click.option("--play", "play", type=click.Choice(sorted(POLICIES)), default=DEFAULT_PLAY, show_default=True,
              help="Card play of every player.")
@json_option()
@friendly_errors
def game_cmd(rules, players, scores, dealer, passes, games, seed, opponents, seat_models, play, as_json):
    """Every player's chance to win the game from this score state, and his expected payout.

    Hands are simulated one after another (the dealer moving left, streaks of passes carried, void hands dealt
    again) until one or more players reach 0; payouts in stake units, positive = received.
    """
    rule_set = get_rules(rules)
    if passes is not None and any(passes) and not rule_set.sit_out_limit:
        raise UserError(f"--passes: rule set {rule_set.name!r} has no sit-out penalty, so streaks of passes change "
                        f"nothing: drop --passes")
    if seat_models:  # a mixed table, as ask's --seat-model: "BASE,SEAT=STYLE,..."
        opponents = ",".join([opponents or "equilibrium", *seat_models])
    try:
        values = game_values(rule_set, players, scores, passes, dealer, games, seed, opponents, play)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    print_game(values, as_json)


MAP_SAMPLES = limits.Limit(1, 2_000_000, why="the cap of a score-aware ask (match.ask.MAX_SAMPLES), per cell")


def _grid(_ctx, param, value):
    """``START,STOP,STEP`` of scores (IntList has read the numbers): the grid's values."""
    from ..match.maps import grid_values

    if len(value) != 3:
        raise click.BadParameter(f"{param.opts[0]}: {len(value)} numbers, want START,STOP,STEP (e.g. 1,20,3)")
    try:
        return grid_values(*value, name=param.opts[0])
    except RulesError as exc:
        raise click.BadParameter(str(exc)) from None


@main.command("game-map")
@click.argument("hand")
@click.option("--trump", required=True, help="The turned trump card, e.g. H8.")
@players_option()
@seat_option()
@rules_option()
@click.option("--own", "own", type=IntList(limits.SCORE, "1,20,3"), default="1,20,3", show_default=True,
              callback=_grid, help="Your scores: START,STOP,STEP.")
@click.option("--best", "best", type=IntList(limits.SCORE, "1,20,3"), default="1,20,3", show_default=True,
              callback=_grid, help="The best opponent's scores: START,STOP,STEP.")
@int_option("--others", limit=limits.SCORE, default=None,
            help="Every other player's score [default: the start score].")
@int_option("--leader", limit=limits.SEAT, default=None,
            help="The best opponent's seat [default: the seat after yours].")
@samples_option(MAP_SAMPLES, default=2_000, help="Deals per cell and run (each cell: one run chooses the game's best "
                                                 "action, another, on other deals, measures its cost).")
@seed_option(default=0)
@click.option("--opponents", default=None, help="How the others decide [default: equilibrium].")
@click.option("--play", "play", type=click.Choice(sorted(POLICIES)), default=DEFAULT_PLAY, show_default=True,
              help="Card play of every player.")
@json_option()
@progress_option()
@friendly_errors
def game_map_cmd(hand, trump, players, seat, rules, own, best, others, leader, samples, seed, opponents, play, as_json,
                 progress):
    """Where the score changes the decision: HAND's best choice by the game over (own score, best opponent's).

    Every cell is a score-aware ask (`rumbaodds ask --scores`) with the best opponent in --leader and everybody
    else at --others; the map marks where the per-hand answer is wrong and says what following it costs in
    expected payout (stakes, positive = received). Each cell chooses on one run and measures on another (seeds of
    its own), so the cost is not the best of noisy numbers; shares and costs come with their 95% intervals.
    """
    from ..match.maps import map_text, score_map

    try:
        with progress_bar(progress, "map cells") as update:
            result = score_map(hand, trump, players, seat, own, best, rules=rules, others=others, leader=leader,
                               samples=samples, seed=seed, opponents=opponents, play=play, progress=update)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    click.echo(json.dumps(result.to_dict()) if as_json else map_text(result))
