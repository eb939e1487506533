"""`rumbaodds game`: from a score state, every player's chance to win the game and expected payout (RULES.md §9)."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from ..analysis import POLICIES
from ..match.api import DEFAULT_GAMES, DEFAULT_SEED, Z95, game_values
from ..rules import get_rules
from .errors import UserError, friendly_errors
from .group import main


def int_list(text: str | None, name: str) -> list[int] | None:
    """``"20,14,7"`` as integers; a bad token is a one-line error naming it."""
    if text is None:
        return None
    out = []
    for token in text.replace(" ", "").split(","):
        try:
            out.append(int(token))
        except ValueError:
            raise UserError(f"{name}: {token!r} is not a whole number (write e.g. 20,14,7)") from None
    return out


@main.command("game")
@click.option("--rules", "rules", default="swiss", show_default=True,
              help="Rule set: swiss, flemish, or a house-rule TOML file (its §9 fields: start_score, payout ...).")
@click.option("--players", type=int, default=None, help="Number of players [default: as many as --scores].")
@click.option("--scores", default=None, help="Every player's score, clockwise, e.g. 20,14,7,3,18 "
                                             "[default: everybody at the start score].")
@click.option("--dealer", type=int, default=None, help="Who deals the next hand (player index) [default: the last "
                                                       "player, so player 0 speaks first].")
@click.option("--passes", default=None, help="Every player's passes in a row so far (swiss rule 17), e.g. 0,2,0,0,1.")
@click.option("--games", type=int, default=DEFAULT_GAMES, show_default=True, help="Games to simulate.")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True, help="Seed (game i depends on it and i).")
@click.option("--opponents", default=None, help="How every player decides [default: equilibrium, the solved "
                                                "strategies]; a style name or TOML file plays that style at all seats.")
@click.option("--play", "play", type=click.Choice(sorted(POLICIES)), default="expert", show_default=True,
              help="Card play of every player.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@friendly_errors
def game_cmd(rules, players, scores, dealer, passes, games, seed, opponents, play, as_json):
    """Every player's chance to win the game from this score state, and his expected payout.

    Hands are simulated one after another (the dealer moving left, streaks of passes carried, void hands dealt
    again) until one or more players reach 0; payouts in stake units, positive = received.
    """
    rule_set = get_rules(rules)
    values = game_values(rule_set, players, int_list(scores, "--scores"), int_list(passes, "--passes"), dealer,
                         games, seed, opponents, play)
    if as_json:
        click.echo(json.dumps(values.to_dict()))
        return
    state = values.state
    table = Table(title=f"{rule_set.name}, {state.players} players, payout {rule_set.payout} "
                        f"({values.games:,} games, seed {values.seed})")
    for name in ("player", "score", "passes", "wins the game", "expected payout"):
        table.add_column(name, justify="right")
    win_half = Z95 * values.p_win_se()
    pay_half = Z95 * values.payout_se()
    for p in range(state.players):
        who = f"{p}" + (" (deals)" if p == state.dealer else "")
        table.add_row(who, str(state.scores[p]), str(state.passes[p]),
                      f"{values.p_win[p]:.1%} ± {win_half[p]:.1%}", f"{values.payout[p]:+.2f} ± {pay_half[p]:.2f}")
    Console().print(table)
    click.echo(f"Payout in stake units (points x stake), positive = received; ± is a 95% interval. "
               f"The chances add up to {values.p_win.sum():.0%} (a shared win counts 1/k to each of k winners; "
               f"{values.ties:,} tied games). Games took {values.mean_deals:.1f} deals on average"
               + (f"; {values.unfinished} did not finish." if values.unfinished else "."))
    if len(set(state.scores)) == 1 and len(set(state.passes)) == 1:
        d = state.dealer
        click.echo(f"Everybody at {state.scores[0]}: dealing first is worth {values.payout[d]:+.2f} ± "
                   f"{pay_half[d]:.2f} stakes to player {d} and a {values.p_win[d]:.1%} chance to win (a fair share: "
                   f"{1 / state.players:.1%}).")
