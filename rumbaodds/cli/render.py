"""Everything the command line prints: the answers of ask, knock and the tables, and the progress bar.

The JSON documents are the API's own (``to_dict`` / answer.document); this
module only lays out the human-readable tables. Scores count down like the
score sheet: a negative change is good.
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..answer import document
from ..cards import format_card
from ..policies import describe

SIGN_NOTE = "Scores count down like the score sheet: negative is good; the best choice has the lowest value."


@contextmanager
def progress_bar(enabled: bool | None, label: str):
    """A rich progress bar with rate and time left, or a no-op callback."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield None
        return
    columns = [TextColumn(label), BarColumn(), TextColumn("{task.completed:,}/{task.total:,} deals"),
               TimeElapsedColumn(), TimeRemainingColumn()]
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, planned: int) -> None:
            bar.update(task, completed=done, total=planned)

        yield update


def seat_role(seat: int, players: int) -> str:
    if seat == players - 1:
        return "the dealer, last to speak"
    ordinals = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh"]
    return f"{ordinals[seat]} to speak"


def _rumba_detail(c) -> str:
    o = c.outcomes
    text = (f"succeeds {c.p_success.mean:.1%} [{c.p_success.low:.1%}, {c.p_success.high:.1%}] of the Rumbas "
            f"played; made {o.made:.1%}, lost {o.lost:.1%}, nobody joins {o.uncontested:.1%}")
    if o.void:
        text += f", void (a later player threw in) {o.void:.1%}"
    if o.not_allowed:
        text += f", not allowed (nobody else plays: you play alone) {o.not_allowed:.1%}"
    return text + "; tricks 0-5 when played: " + " ".join(f"{p:.0%}" for p in c.tricks)


def _plan_detail(c) -> str:
    return "then " + "; ".join(f"{when}: {part['choice']} ({part['share']:.0%} of deals)"
                               for when, part in c.plan.items())


def print_ask(result) -> None:
    s = result.situation
    console = Console()
    extra = ""
    if s.swapped_by is not None:
        extra = f", seat {s.swapped_by} swapped the two of trump for it"
    console.print(f"[bold]{' '.join(format_card(c) for c in s.hand)}[/bold], trump card "
                  f"[bold]{format_card(s.trump_card)}[/bold]{extra}, seat {s.seat} of {s.players} "
                  f"({seat_role(s.seat, s.players)}), {s.rules.name} rules")
    ess = result.effective_samples
    effective = f" (effective {ess:,.0f})" if ess is not None and ess < result.samples - 0.5 else ""
    table = Table(title=f"{result.samples:,} deals{effective}, seed {result.seed}")
    table.add_column("choice")
    table.add_column("expected score change", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("detail")
    for name, c in result.actions.items():
        detail = ""
        if name == "play":
            detail = ("exchange " + " ".join(format_card(x) for x in c.discard)) if c.discard else "keep all cards"
        if name == "rumba" and c.p_success is not None:
            detail = _rumba_detail(c)
        if name == "no-rumba" and c.plan:
            detail = _plan_detail(c)
        style = "bold green" if name == result.recommendation else None
        table.add_row(name, f"{c.ev.mean:+.2f}", f"[{c.ev.low:+.2f}, {c.ev.high:+.2f}]", detail, style=style)
    console.print(table)
    if result.margin is not None:
        m = result.margin
        console.print(f"Recommendation: [bold green]{result.recommendation}[/bold green], better than "
                      f"{result.runner_up} by {m.mean:.2f} points per hand (95% interval {m.low:.2f} to "
                      f"{m.high:.2f}).")
    else:
        console.print(f"Recommendation: [bold green]{result.recommendation}[/bold green] (the only choice).")
    for note in result.notes:
        console.print(f"[yellow]Note: {note}.[/yellow]")
    console.print(f"[dim]{SIGN_NOTE} Opponents {describe(result.opponents)}; card play {result.play}.[/dim]")


def print_knock(result, others: dict) -> None:
    """The dealer's knock question as a table (and the same deals against each named model)."""
    console = Console()
    table = Table(title=f"Dealer, trump card {format_card(result.trump_card)}, {result.players} players, "
                        f"{result.rules.name}: {result.samples:,} deals, seed {result.seed}")
    table.add_column("choice")
    table.add_column("expected score change", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("detail")
    for name, est, detail in (
        ("knock", result.knock, f"Rumba succeeds {result.p_success.mean:.1%} "
                                f"[{result.p_success.low:.1%}, {result.p_success.high:.1%}]"),
        ("no knock", result.no_knock, "then: " + ", ".join(f"{k} {v:.0%}" for k, v in
                                                           result.no_knock_choices.items())),
    ):
        style = "bold green" if name == result.recommendation else None
        table.add_row(name, f"{est.mean:+.2f}", f"[{est.low:+.2f}, {est.high:+.2f}]", detail, style=style)
    console.print(table)
    m = result.margin
    console.print(f"Recommendation: [bold green]{result.recommendation}[/bold green]; knocking changes the expected "
                  f"score by {-m.mean:+.2f} points (95% interval {-m.high:+.2f} to {-m.low:+.2f}); "
                  f"nobody joins {result.p_uncontested:.0%} of knocks.")
    if others:
        moved = Table(title="The same deals against each named model")
        for column in ("opponents", "knock", "no knock", "knocking gains", "nobody joins", "answer"):
            moved.add_column(column, justify="right" if column not in ("opponents", "answer") else "left")
        for name, r in others.items():
            gain = r.margin
            moved.add_row(name, f"{r.knock.mean:+.2f}", f"{r.no_knock.mean:+.2f}",
                          f"{gain.mean:+.2f} [{gain.low:+.2f}, {gain.high:+.2f}]", f"{r.p_uncontested:.0%}",
                          r.recommendation)
        console.print(moved)
    console.print(f"[dim]{SIGN_NOTE} Opponents {describe(result.opponents)}; card play {result.play}.[/dim]")


def show_answer(result, as_json: bool) -> None:
    packed = result.meta.get("source") == "packed table"
    if as_json:
        click.echo(json.dumps(document(result)))
        return
    if not packed:
        click.echo(f"From the table {result.meta['table']} (no simulation run):")
        print_ask(result)
        return
    s = result.situation
    meta = result.meta
    click.echo(f"From the packed table {meta['table']} (no simulation run; {result.samples:,} deals, seed "
               f"{result.seed}):")
    click.echo(f"{' '.join(format_card(c) for c in s.hand)}, trump card {format_card(s.trump_card)},"
               f" seat {s.seat} of {s.players}, {s.rules.name} rules")
    for name, choice in result.actions.items():
        click.echo(f"  {name:<8} {choice.ev.mean:+.2f} [{choice.ev.low:+.2f}, {choice.ev.high:+.2f}]")
    p = meta["p_success"]
    exchange = ("exchange " + " ".join(meta["discard"])) if meta["discard"] else "keep all cards"
    click.echo(f"  {'play':<8} with the best exchange: {exchange}")
    click.echo(f"  {'rumba':<8} succeeds {p[0]:.1%} [{p[1]:.1%}, {p[2]:.1%}]")
    m = result.margin
    click.echo(f"Recommendation: {result.recommendation}, better than {result.runner_up} by {m.mean:.2f} points per "
               f"hand (95% interval {m.low:.2f} to {m.high:.2f}).")
    click.echo("Scores count down: a negative change is good. The packed table keeps the decision, not every "
               "choice's value: `rumbaodds ask --simulate` gives them all.")
