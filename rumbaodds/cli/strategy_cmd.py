"""`rumbaodds strategy solve|show`: solved opponents, and how a good player at each seat decides."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .. import limits
from ..rules import get_rules
from .errors import UserError, friendly_errors
from .group import main
from .options import int_option, json_option, players_option, progress_option, rules_option, seed_option
from .render import print_exploitability, print_strategy, solve_progress


@main.group()
def strategy() -> None:
    """Solved (equilibrium) opponents: every seat a best response to the others."""


@strategy.command()
@rules_option(help="swiss, flemish or a house-rule TOML file.")
@players_option()
@int_option("--iterations", limit=limits.ITERATIONS, default=80, show_default=True,
            help="Regret-matching iterations in all.")
@int_option("--samples", limit=limits.SOLVE_SAMPLES, default=40_000, show_default=True,
            help="Deals per seat and iteration.")
@int_option("--eval-samples", limit=limits.EVAL_SAMPLES, default=200_000, show_default=True,
            help="Deals per seat for the final exploitability (a quarter at each check).")
@int_option("--check-every", limit=limits.ITERATIONS, default=10, show_default=True,
            help="Measure the exploitability every this many iterations.")
@seed_option(0)
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Strategy file [default: the package's for a preset, the cache for a house rule].")
@json_option()
@progress_option()
@friendly_errors
def solve(rules, players, iterations, samples, eval_samples, check_every, seed, out, as_json, progress):
    """Solve the game of RULES at PLAYERS players; resumable (run the same command again after a kill)."""
    from ..strategy.run import solve as run_solve

    rule_set = get_rules(rules)
    with solve_progress(progress, iterations) as update:
        solved = run_solve(rule_set, players, iterations, samples, seed, Path(out) if out else None, eval_samples,
                           check_every, update)
    if as_json:
        click.echo(json.dumps({"file": str(solved.path), **solved.meta}))
        return
    print_exploitability(solved)
    click.echo(f"strategy written: {solved.path}")


@strategy.command("solve-game")
@rules_option(help="swiss, flemish or a house-rule TOML file (its per-hand strategy solved first).")
@players_option()
@int_option("--iterations", limit=limits.ITERATIONS, default=120, show_default=True,
            help="Regret-matching iterations in all.")
@int_option("--rounds", limit=limits.ITERATIONS, default=2, show_default=True,
            help="Rounds of the game's values: the first from the per-hand equilibrium's games, each later one "
                 "from the games of the previous round's strategy.")
@int_option("--samples", limit=limits.SOLVE_SAMPLES, default=80_000, show_default=True,
            help="Deals per seat and iteration, spread over --states score states.")
@int_option("--states", limit=limits.Limit(1, 10_000, why="score states drawn per iteration"), default=40,
            show_default=True, help="Score states drawn per iteration.")
@int_option("--games", limit=limits.GAMES, default=40_000, show_default=True,
            help="Games simulated for the game's values and the score states.")
@int_option("--eval-samples", limit=limits.EVAL_SAMPLES, default=400_000, show_default=True,
            help="Deals per seat for the final exploitability in stakes.")
@click.option("--values-by-seat", is_flag=True, default=False,
              help="The game's values also by each player's seat in the hand (who deals next), not only by his and "
                   "the leader's distance.")
@seed_option(0)
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Strategy file [default: the package's for a preset, the cache for a house rule].")
@json_option()
@progress_option()
@friendly_errors
def solve_game(rules, players, iterations, rounds, samples, states, games, eval_samples, values_by_seat, seed, out,
               as_json, progress):
    """Solve the score-aware strategies of RULES at PLAYERS (issue 38); resumable (run it again after a kill)."""
    from ..strategy.score_solver import solve_score

    if rounds > iterations:
        raise UserError(f"--rounds {rounds} is more than --iterations {iterations}: every round needs an iteration")
    rule_set = get_rules(rules)
    with solve_progress(progress, iterations) as update:
        solved = solve_score(rule_set, players, iterations, samples, seed, games, states, eval_samples,
                             Path(out) if out else None, lambda done, total: update(done, total, None), rounds,
                             by_seat=values_by_seat)
    if as_json:
        click.echo(json.dumps({"file": str(solved.path), **solved.meta}))
        return
    for title, key in (("score-aware", "exploitability_stakes"),
                       ("per-hand", "hand_equilibrium_exploitability_stakes")):
        per = solved.meta[key]
        click.echo(f"{title} strategies: a best response gains " + ", ".join(
            f"seat {s} {e['mean']:+.3f} [{e['low']:+.3f}, {e['high']:+.3f}]" for s, e in per.items())
            + " stakes per hand (95%)")
    click.echo(f"strategy written: {solved.path}")


@strategy.command()
@rules_option()
@players_option()
@click.option("--plot", type=click.Path(dir_okay=False), default=None, help="Also draw the strategy to this PNG.")
@json_option()
@friendly_errors
def show(rules, players, plot, as_json):
    """How a good player at each seat decides, in words (and a chart with --plot), with its exploitability."""
    from ..strategy.describe import describe_seats, plot_strategy
    from ..strategy.store import find

    rule_set = get_rules(rules)
    rule_set.check_players(players)
    solved = find(rule_set, players)
    lines = describe_seats(solved)
    if plot:
        plot_strategy(solved, plot)
    if as_json:
        click.echo(json.dumps({"file": str(solved.path), "rules": rule_set.name, "players": players,
                               "seats": lines, **{k: v for k, v in solved.meta.items() if k != "history"}}))
        return
    print_strategy(solved, rule_set, players, lines, plot)


__all__ = ["strategy"]
