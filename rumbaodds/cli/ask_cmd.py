"""`rumbaodds ask` and `rumbaodds knock`: the questions players bring to the table."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from .. import analysis, answer
from ..cards import format_card
from ..engine.devices import DEVICE_CHOICES, resolve_device
from ..models import ModelError
from ..opponents import DEFAULT_HELP, describe
from . import UserError, friendly_errors, main

SIGN_NOTE = "Scores count down like the score sheet: negative is good; the best choice has the lowest value."


def _remember_seat_models(ctx, _param, value):
    ctx.meta["seat_models"] = value
    return value


def _with_seat_models(ctx, _param, value):
    """``--opponents X --seat-model 3=bold`` is the opponents ``X,3=bold`` (opponents.opponent_policy)."""
    seats = ctx.meta.get("seat_models") or ()
    return ",".join([value or "", *seats]) if seats else value  # "" names no base: the default opponents


def common_options(func):
    """Options shared by `ask` and `knock`."""
    options = [
        click.option("--rules", "rules", default="swiss", show_default=True,
                     help="Rule set: swiss, flemish, or a house-rule TOML file."),
        click.option("--samples", type=int, default=None,
                     help="Number of simulated deals [ask: 200,000; knock: 4,000]."),
        click.option("--precision", type=float, default=None,
                     help="Instead of --samples: simulate until the 95% half-width of every expected value "
                          "is below this many points."),
        click.option("--seed", type=int, default=None,
                     help="Seed for an exactly reproducible run (printed when omitted)."),
        click.option("--opponents", default=None, callback=_with_seat_models,
                     help="How the others decide: equilibrium (solved, docs/STRATEGY.md), or a style: default, "
                          f"cautious, bold, all, or a TOML file (docs/SIMULATION.md) {DEFAULT_HELP}."),
        click.option("--seat-model", "seat_models", multiple=True, is_eager=True, expose_value=False,
                     callback=_remember_seat_models, metavar="SEAT=STYLE",
                     help="One seat plays another style than the rest, e.g. 3=bold (repeatable)."),
        click.option("--play", "play", type=click.Choice(sorted(analysis.POLICIES)), default="expert",
                     show_default=True, help="Card play of every player."),
        click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table."),
        click.option("--progress/--no-progress", default=None,
                     help="Progress bar on stderr [default: when stderr is a terminal]."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


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


def _check_exclusive(samples, precision):
    if samples is not None and precision is not None:
        raise UserError("give --samples or --precision, not both")


@main.command()
@click.argument("hand")
@click.option("--trump", required=True, help="The turned trump card, e.g. H9.")
@click.option("--players", type=int, required=True, help="Players at the table.")
@click.option("--seat", type=int, required=True,
              help="Your seat: 0 speaks first (left of the dealer), players-1 is the dealer.")
@click.option("--passes-in-a-row", type=int, default=0, show_default=True,
              help="Your passes in a row before this hand (swiss: the third costs 5 points).")
@click.option("--before", default=None,
              help="What the earlier seats said, comma separated: pass, play, rumba or - (unknown). "
                   "Default: unknown, but nobody called Rumba or threw in.")
@click.option("--dealer-knocked", is_flag=True, help="The dealer knocked (swiss): you can only join or pass.")
@click.option("--swapped-by", type=int, default=None,
              help="An earlier seat swapped the two of trump for the turned card --trump (flemish): that seat "
                   "holds it and the two lies face up.")
@click.option("--tables", "tables_root", type=click.Path(), default="tables", show_default=True,
              help="Answer instantly from a built table here when one covers the situation (and say so).")
@click.option("--simulate", is_flag=True, help="Always simulate, even when a table covers the situation.")
@click.option("--device", type=click.Choice(DEVICE_CHOICES), default="cpu", show_default=True,
              help="Simulate on the CPU or a CUDA GPU (auto: the GPU if one works); the same numbers.")
@common_options
@friendly_errors
def ask(hand, trump, players, seat, passes_in_a_row, before, dealer_knocked, swapped_by, tables_root, simulate, device,
        rules, samples, opponents, precision, seed, play, as_json, progress):
    """Should I call Rumba with HAND? Expected score change of every choice.

    HAND is your cards, e.g. "HA HK HQ S6 C7" (suit then rank; 10 or T; any
    case; ♠♥♦♣ accepted). Every choice open to you is simulated on the same
    random deals: pass, play (with the best cards to exchange), Rumba and,
    where allowed, throw-in. Opponents follow --opponents; all players
    follow --play.
    """
    _check_exclusive(samples, precision)
    engine = resolve_device(device)  # --device gpu without one: a one-line error before anything runs
    from .tables_cmd import show

    try:
        found = answer.from_table(hand, trump, players, seat, rules, passes_in_a_row, dealer_knocked, before,
                                  opponents, play, samples, precision, seed, tables_root, simulate, swapped_by)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    if found is not None:
        show(found, as_json)
        return
    try:
        with progress_bar(progress, "simulating") as update:
            result = analysis.ask(hand, trump, players, seat, rules=rules, opponents=opponents, play=play,
                                  passes_in_a_row=passes_in_a_row, dealer_knocked=dealer_knocked, before=before,
                                  samples=samples, precision=precision, seed=seed, swapped_by=swapped_by,
                                  progress=update, device=engine)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    if as_json:
        document = answer.document(result)
        if device != "cpu":  # --device gpu|auto: which one ran (the default document stays the web API's)
            document["device"] = engine.as_dict()
        click.echo(json.dumps(document))
        return
    _print_ask(result)
    click.echo(f"Simulated on {engine}.")


def _seat_role(seat: int, players: int) -> str:
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


def _print_ask(result: analysis.AskResult) -> None:
    s = result.situation
    console = Console()
    extra = ""
    if s.swapped_by is not None:
        extra = f", seat {s.swapped_by} swapped the two of trump for it"
    console.print(f"[bold]{' '.join(format_card(c) for c in s.hand)}[/bold], trump card "
                  f"[bold]{format_card(s.trump_card)}[/bold]{extra}, seat {s.seat} of {s.players} "
                  f"({_seat_role(s.seat, s.players)}), {s.rules.name} rules")
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


@main.command()
@click.option("--trump", required=True, help="The turned trump card, e.g. HA.")
@click.option("--players", type=int, required=True, help="Players at the table.")
@click.option("--inner-samples", type=int, default=200, show_default=True,
              help="Deals the dealer simulates per hand when he does not knock, to pick his best choice.")
@click.option("--models", "across", is_flag=True,
              help="Also show how the answer moves across the named opponent models (same deals).")
@common_options
@friendly_errors
def knock(trump, players, inner_samples, across, rules, samples, precision, seed, opponents, play, as_json,
          progress):
    """Dealer: knock on the trump card before looking at your hand?

    Knocking makes you the Rumba player blind: you take the trump card for
    your weakest card if it is stronger. Not knocking, you look at your hand
    and the other players' words and take your best choice (estimated from
    --inner-samples deals per hand).
    """
    _check_exclusive(samples, precision)
    try:
        with progress_bar(progress, "simulating") as update:
            result = analysis.knock(trump, players, rules=rules, opponents=opponents, play=play, samples=samples,
                                    precision=precision, seed=seed, inner_samples=inner_samples, progress=update)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    others = {}
    if across:
        with progress_bar(progress, "other models") as update:
            others = analysis.knock_across_models(trump, players, rules, seed=result.seed, play=play,
                                                  samples=result.samples, inner_samples=inner_samples,
                                                  progress=update)
    if as_json:
        data = result.to_dict()
        if others:
            data["across_models"] = {name: r.to_dict() for name, r in others.items()}
        click.echo(json.dumps(data))
        return
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
