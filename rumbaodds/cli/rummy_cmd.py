"""`rumbaodds rummy ...`: can I open with this Rommé / Rummi / Rommé 40 hand, and how soon (rumbaodds.rummy)?"""

from __future__ import annotations

import json

import click

from .. import limits
from ..rummy.cards import parse_rummy_hand, parse_token
from ..rummy.odds import POLICIES, odds
from ..rummy.opening import opening
from ..rummy.rules import get_rummy_rules
from .errors import friendly_errors
from .group import main
from .options import (
    dpi_option,
    int_option,
    json_option,
    players_option,
    progress_option,
    rules_option,
    samples_option,
    seed_option,
)
from .render import print_rummy_odds, print_rummy_opening, print_rummy_table, progress_bar

RULES_HELP = "Rule set: romme, rummi, romme40, or a house-rule TOML file (base = \"romme\" plus fields)."


@main.group()
def rummy() -> None:
    """The rummy family (Rommé, Rummi, Rommé 40): can I open, and how soon?

    Cards are suit then rank (HA, S10, dT, ♣7); a joker is JK (or *).
    What is simulated: docs/RUMMY.md.
    """


@rummy.command("open")
@click.argument("hand")
@rules_option("romme", RULES_HELP, "rules_arg")
@json_option("Print one JSON object.")
@friendly_errors
def open_cmd(hand, rules_arg, as_json):
    """Can I open with HAND? Its opening value, the melds, and the penalty left.

    HAND is 13 cards (as dealt) or 14 (after the draw), e.g.
    "HA H2 H3 D7 S7 JK C9 CT CJ S2 D4 H9 SK". The opening value is the largest
    total of disjoint melds using at most all but one card (one is kept to
    discard), jokers placed for the most points. penalty_left is the smallest
    penalty any set of melds can leave in hand (a separate objective).
    """
    d = opening(hand, rules_arg)
    if as_json:
        click.echo(json.dumps(d))
        return
    print_rummy_opening(d, get_rummy_rules(rules_arg))


@rummy.command("odds")
@click.argument("hand")
@rules_option("romme", RULES_HELP, "rules_arg")
@players_option(False, 4, help="Players at the table (the others draw from the stock too; matters once it runs out).")
@int_option("--turns", limit=limits.RUMMY_TURNS, default=10, show_default=True, help="Your next K draws.")
@samples_option(limits.RUMMY_SAMPLES, 100_000)
@seed_option()
@click.option("--discard", "discard", default=None,
              help="The open discard card: also says whether taking it as your first draw opens (exact).")
@click.option("--policy", type=click.Choice(sorted(POLICIES)), default="keep-high", show_default=True,
              help="Your discard policy's tie-break: keep high cards, or shed penalty points (docs/RUMMY.md).")
@json_option("Print one JSON object.")
@progress_option()
@friendly_errors
def odds_cmd(hand, rules_arg, players, turns, samples, seed, discard, policy, as_json, progress):
    """How likely can I open after each of my next draws? Monte Carlo with 95% intervals.

    HAND is your 13 cards before your next draw. The unknown cards are
    shuffled; the other players' hands are dealt from them; you draw from the
    stock each turn and discard by the policy; nobody takes the others'
    discards. With --discard CARD, also whether taking that open card opens.
    """
    rules = get_rummy_rules(rules_arg)
    rules.check_players(players)
    cards = parse_rummy_hand(hand, rules, (rules.hand_size,))
    if discard is not None:
        parse_token(discard)
    with progress_bar(progress, "simulating") as update:
        result = odds(cards, rules, players=players, turns=turns, samples=samples, seed=seed, discard=discard,
                      policy=policy, progress=update)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
        return
    print_rummy_odds(result, cards, rules, players, samples, policy)


@rummy.command("tables")
@rules_option("romme", RULES_HELP, "rules_arg")
@samples_option(limits.RUMMY_SAMPLES, 100_000, help="Random deals (and as many pairs).")
@seed_option(0)
@int_option("--turns", limit=limits.RUMMY_TURNS, default=15, show_default=True, help="Turns simulated (k = 0..turns).")
@players_option(False, 4)
@json_option("Print one JSON object.")
@progress_option()
@friendly_errors
def tables_cmd(rules_arg, samples, seed, turns, players, as_json, progress):
    """P(can open by turn k) over random dealt hands, by jokers held and by the value at the deal.

    Also the value of a joker: how many turns sooner a hand opens with one of
    its cards swapped for a joker (paired deals, restricted to the horizon).
    """
    from ..rummy.tables import build_table, by_jokers, by_value, joker_value_rows, table_dict

    get_rummy_rules(rules_arg).check_players(players)  # at the door, before the kernels load
    with progress_bar(progress, "dealing") as update:
        table = build_table(rules_arg, samples, seed, turns, players, progress=update)
    if as_json:
        click.echo(json.dumps(table_dict(table)))
        return
    print_rummy_table(table, seed, players, turns, by_jokers(table), by_value(table), joker_value_rows(table))


@rummy.command("report")
@click.option("--out", "out", type=click.Path(file_okay=False), default="reports", show_default=True,
              help="Reports folder: writes OUT/rummy/index.html and relinks OUT/index.html.")
@samples_option(limits.RUMMY_SAMPLES, help="Random deals per rule set [default: 100,000].")
@seed_option(0)
@dpi_option(None, help="Resolution of the charts.")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
@friendly_errors
def report_cmd(out, samples, seed, dpi, quiet):
    """Write the rummy page of the reports: opening odds of random deals for romme, rummi and romme40."""
    from ..rummy.report import DPI, SAMPLES, make_rummy_report

    say = (lambda s: None) if quiet else (lambda s: click.echo(s, err=True))
    page = make_rummy_report(out, SAMPLES if samples is None else samples, seed, DPI if dpi is None else dpi, say)
    click.echo(f"report written: {page}")
