"""`rumbaodds game`: from a score state, every player's chance to win the game and expected payout (RULES.md §9)."""

from __future__ import annotations

import click

from .. import limits
from ..analysis import POLICIES
from ..match.api import DEFAULT_GAMES, DEFAULT_SEED, game_values
from ..models import ModelError
from ..rules import get_rules
from .errors import UserError, friendly_errors
from .group import main
from .options import (
    int_option,
    json_option,
    players_option,
    rules_option,
    samples_option,
    scores_option,
    seed_option,
    streaks_option,
)
from .render import print_game


@main.command("game")
@rules_option(help="Rule set: swiss, flemish, or a house-rule TOML file (its §9 fields: start_score, payout ...).")
@players_option(required=False, help="Number of players [default: as many as --scores].")
@scores_option(help="Every player's score, clockwise, e.g. 20,14,7,3,18 [default: everybody at the start score].")
@int_option("--dealer", limit=limits.SEAT, default=None,
            help="Who deals the next hand (player index) [default: the last player, so player 0 speaks first].")
@streaks_option()
@samples_option(limits.GAMES, default=DEFAULT_GAMES, help="Games to simulate.", name="--games")
@seed_option(default=DEFAULT_SEED, help="Seed (game i depends on it and i).")
@click.option("--opponents", default=None, help="How every player decides [default: equilibrium, the solved "
                                                "strategies]; a style name or TOML file plays that style at all seats.")
@click.option("--play", "play", type=click.Choice(sorted(POLICIES)), default="expert", show_default=True,
              help="Card play of every player.")
@json_option()
@friendly_errors
def game_cmd(rules, players, scores, dealer, passes, games, seed, opponents, play, as_json):
    """Every player's chance to win the game from this score state, and his expected payout.

    Hands are simulated one after another (the dealer moving left, streaks of passes carried, void hands dealt
    again) until one or more players reach 0; payouts in stake units, positive = received.
    """
    rule_set = get_rules(rules)
    try:
        values = game_values(rule_set, players, scores, passes, dealer, games, seed, opponents, play)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    print_game(values, as_json)
