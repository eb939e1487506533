"""`rumbaodds strategy solve|show`: solved opponents, and how a good player at each seat decides."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
import numpy as np
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from .. import limits
from ..rules import get_rules
from .errors import friendly_errors
from .group import main
from .options import int_option, json_option, players_option, progress_option, rules_option, seed_option


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
    enabled = sys.stderr.isatty() if progress is None else progress
    columns = [TextColumn("solving"), BarColumn(), TextColumn("{task.completed}/{task.total} iterations"),
               TextColumn("{task.fields[exploit]}"), TimeElapsedColumn(), TimeRemainingColumn()]
    with Progress(*columns, console=Console(stderr=True), transient=True, disable=not enabled) as bar:
        task = bar.add_task("solve", total=iterations, exploit="")

        def update(done, total, last):
            text = "" if last is None else f"exploitability {last.mean:.3f} [{last.low:.3f}, {last.high:.3f}]"
            bar.update(task, completed=done, total=total, exploit=text)

        solved = run_solve(rule_set, players, iterations, samples, seed, Path(out) if out else None, eval_samples,
                           check_every, update)
    if as_json:
        click.echo(json.dumps({"file": str(solved.path), **solved.meta}))
        return
    _print_exploitability(Console(), solved)
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
    console = Console()
    console.print(f"[bold]{rule_set.name}, {players} players[/bold]: solved strategies "
                  f"({solved.meta['iterations']} iterations, {solved.meta['seconds']:.0f} s); "
                  f"{solved.abstraction.describe()}")
    for seat in lines:
        console.print(f"[bold]{seat['title']}[/bold]")
        for line in seat["lines"]:
            console.print(f"  {line}")
    _print_exploitability(console, solved)
    styles = solved.meta.get("exploit_styles", {})
    if styles:
        table = Table(title="Reading your table: what the best response to a whole table of one style gains over "
                            "playing the equilibrium (points per hand)")
        table.add_column("style")
        for s in range(players):
            table.add_column(f"seat {s}", justify="right")
        for name, per_seat in styles.items():
            table.add_row(name, *[f"{per_seat[str(s)]['mean']:.2f}" for s in range(players)])
        console.print(table)
    if plot:
        console.print(f"chart written: {plot}")


def _print_exploitability(console: Console, solved) -> None:
    ex = solved.exploitability
    table = Table(title="Exploitability: what a best response (same abstraction) gains, points per hand")
    table.add_column("seat")
    table.add_column("gain", justify="right")
    table.add_column("95% interval", justify="right")
    for key in [k for k in ex if k != "total"] + ["total"]:
        e = ex[key]
        table.add_row(key if key == "total" else f"seat {key}", f"{e['mean']:+.3f}",
                      f"[{e['low']:+.3f}, {e['high']:+.3f}]")
    console.print(table)
    console.print(f"[dim]{ex['total']['samples']:,} deals; the response is chosen on half the deals and scored on "
                  f"the other half (docs/STRATEGY.md).[/dim]")


__all__ = ["strategy", "np"]
