"""`rumbaodds review FILE`: the hands a player wrote down, every decision graded, skill told apart from luck."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console

from .. import limits
from ..cards import format_card
from ..learning.review import (
    BAND_COLOURS,
    DEFAULT_SAMPLES,
    Review,
    load,
    loss_text,
    review,
    situation_text,
    totals_lines,
    write_html,
    write_parquet,
)
from .errors import UserError, friendly_errors
from .group import main
from .options import json_option, progress_option, samples_option, seed_option, tables_option
from .render import progress_bar


def writable_file(ctx, param, value):
    """An output file named here: not a folder, its folder must exist (checked before any work)."""
    if value is None:
        return None
    path = Path(value)
    if not str(value).strip():
        raise click.BadParameter(f"{param.opts[0]} is empty: name a file", ctx, param)
    if path.is_dir():
        raise click.BadParameter(f"{param.opts[0]} {value}: is a folder, name a file", ctx, param)
    if not path.parent.is_dir():
        raise click.BadParameter(f"{param.opts[0]} {value}: no folder {path.parent}", ctx, param)
    return value


@main.command("review")
@click.argument("file", metavar="FILE")
@tables_option(help="Answer from a built table here where one covers a decision (then the shipped tables).")
@samples_option(limits.ASK_SAMPLES, default=DEFAULT_SAMPLES,
                help="The most deals simulated to settle one decision whose grade the tables leave unsure (a knock: "
                     "a tenth of them).")
@seed_option(help="Seed of the simulations, for a reproducible review (printed when omitted).")
@click.option("--table-only", is_flag=True,
              help="Never simulate: grade from the tables as far as they go (a lower bound where they keep less).")
@click.option("--html", "html_out", default=None, callback=writable_file, metavar="FILE",
              help="Also write the review as a self-contained page.")
@click.option("--parquet", "parquet_out", default=None, callback=writable_file, metavar="FILE",
              help="Also write the graded decisions as a Parquet table (one row a decision).")
@json_option()
@progress_option()
@friendly_errors
def review_command(file, tables_root, samples, seed, table_only, html_out, parquet_out, as_json, progress):
    """Grade every decision of FILE: the points it lost, a band and why; totals for skill and luck.

    FILE holds one decision a line, JSON Lines or CSV with a header, fields
    named like ask's options: rules, players, seat, hand, trump, before,
    passes_in_a_row (and dealer_knocked, swapped_by), then choice (pass, play,
    rumba, join, knock, throw-in), discard (the cards you exchanged, if you
    played) and optionally score (what the hand scored you). For example:

    {"players": 5, "seat": 2, "hand": "HA HK HQ S6 C7", "trump": "H9", "choice": "play", "discard": "S6", "score": -3}

    Points lost: the best choice's expected score change minus yours (scores count down). Bands: best (below 0.05
    points), inaccuracy (below 0.25), mistake (below 1), blunder; too close when the 95% interval includes 0;
    mixed when the solved equilibrium plays both. A bad line is reported with its number and the rest reviewed
    (exit code 1); a file that cannot be read at all is an error (exit code 2).
    """
    entries, bad = load(file)
    with progress_bar(progress, "reviewing", "decisions") as update:
        result = review(entries, bad, tables_root, samples, seed, simulate=not table_only, progress=update)
    result.path = str(file)
    for line in result.bad:
        click.echo(f"rumbaodds: {Path(file).name}: {line.text()}", err=True)
    if html_out:
        write_html(result, html_out)
    if parquet_out:
        write_parquet(result, parquet_out)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        print_review(result)
        for out, what in ((html_out, "page"), (parquet_out, "table")):
            if out:
                click.echo(f"{what} written: {out}")
    if result.bad:
        raise SystemExit(1)
    if not result.reviewed:
        raise UserError(f"{file}: no decision could be reviewed")


def print_review(result: Review) -> None:
    """The graded decisions, the costliest first (two lines each, readable in 80 columns), then the totals."""
    console = Console(highlight=False)
    console.print(f"[bold]{Path(result.path).name}[/bold]: {len(result.reviewed)} decisions, the costliest first "
                  f"(points lost per hand, 95% interval)")
    for r in result.reviewed:
        g = r.grade
        colour = BAND_COLOURS.get(g.band, "white")
        you = g.action + (f", exchanged {' '.join(format_card(c) for c in r.entry.decision.discard)}"
                          if r.entry.decision is not None and r.entry.decision.discard else "")
        luck = "" if r.luck is None else f", luck {r.luck:+.2f}"
        console.print(f"line {r.entry.line:>3}  [bold {colour}]{g.band}[/] {loss_text(g)}: you {you}, best "
                      f"{g.best_text}{luck}")
        why = g.reason + (f" ({'; '.join(g.notes)})" if g.notes else "")
        console.print(f"          {situation_text(r.entry)}: {why}", style="dim")
    for line in totals_lines(result.totals()):
        console.print(line)
    t = result.totals()
    console.print(f"[dim]{t['decisions'] - t['simulated']} answered by the tables, {t['simulated']} simulated (seed "
                  f"{result.seed}). Scores count down like the score sheet: negative is good.[/dim]")
