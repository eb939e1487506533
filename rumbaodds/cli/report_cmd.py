"""`rumbaodds report`: the strategy report (action grids, printable cards, every decision), rumbaodds.report."""

from __future__ import annotations

import os
from pathlib import Path

import click

from .. import limits
from ..opponents.models import ModelError
from ..report import DPI, Budget, parse_players, summary_lines
from ..report import make_report as _make_report
from ..report import model_players as default_model_players
from ..rules import get_rules
from .errors import UserError, friendly_errors
from .group import main
from .options import PlayerCounts, dpi_option, int_option, out_folder_option, rules_option, seed_option

_DEFAULT = Budget()


@main.command("report")
@rules_option()
@click.option("--players", type=PlayerCounts(), default=None,
              help="Player counts, e.g. 3-7, 5 or 3,5 [default: all the rules allow].")
@click.option("--tables", "tables", type=click.Path(file_okay=False), default="tables", show_default=True,
              help="Folder of tables; a missing table is built there as a quick table and reused next time.")
@out_folder_option("reports", help="Reports folder: writes OUT/<rules>/index.html, its cards (PNG, PDF) and charts, "
                                   "OUT/index.html.")
@int_option("--cells", limit=limits.REPORT_COUNT, default=_DEFAULT.cells, show_default=True,
            help="Quick tables: (trump rank, hand class) pairs per seat, drawn by how often they occur.")
@int_option("--samples-per-cell", limit=limits.REPORT_SAMPLES, default=_DEFAULT.samples_per_cell, show_default=True,
            help="Quick tables: simulated deals per cell.")
@int_option("--model-cells", limit=limits.REPORT_COUNT, default=_DEFAULT.model_cells, show_default=True,
            help="Quick tables of the opponent-model comparison: cells per seat.")
@int_option("--knock-samples", limit=limits.REPORT_COUNT, default=_DEFAULT.knock_samples, show_default=True,
            help="Swiss: deals per trump rank for the knock values.")
@int_option("--knock-inner", limit=limits.REPORT_COUNT, default=_DEFAULT.knock_inner, show_default=True,
            help="Swiss: inner deals per knock deal for the dealer's no-knock choice.")
@int_option("--ask-hands", limit=limits.REPORT_COUNT, default=_DEFAULT.ask_hands, show_default=True,
            help="After earlier words: sampled hands per box, each asked with --ask-samples deals.")
@int_option("--ask-samples", limit=limits.REPORT_SAMPLES, default=_DEFAULT.ask_samples, show_default=True,
            help="Deals per sampled hand after earlier words.")
@click.option("--models", default=None,
              help="Opponent models compared with the base opponents of the cards (the equilibrium, or the "
                   "default style for a house rule without a solved strategy), comma separated [default: "
                   "default, cautious, bold, all].")
@int_option("--model-players", limit=limits.PLAYERS, default=None,
            help="Player count of the comparisons [default: 5 swiss, 4 flemish].")
@seed_option(0, help="Seed of quick tables and sampled hands.")
@dpi_option(DPI)
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
@friendly_errors
def report(rules, players, tables, out, cells, samples_per_cell, model_cells, knock_samples, knock_inner, ask_hands,
           ask_samples, models, model_players, seed, dpi, quiet):
    """Write an HTML strategy report: action grids by hand shape, a printable card per player count, and what
    to do after earlier words, with every number's precision.

    Scores count down: a negative expected change is good.
    """
    budget = Budget(cells, samples_per_cell, model_cells, knock_samples, knock_inner, ask_hands, ask_samples, seed)
    names = None if models is None else [m.strip() for m in models.split(",") if m.strip()]
    if names == []:
        raise UserError(f"--models {models!r} names no opponent model (e.g. default,bold)")
    rule_set = get_rules(rules)  # the rule set and player counts at the door, before any folder is made
    counts = parse_players(players, rule_set)
    rule_set.check_players(model_players if model_players is not None else default_model_players(rule_set, counts))
    say = (lambda s: None) if quiet else (lambda s: click.echo(s, err=True))
    for folder in (out, tables):  # before any table is built: a folder that cannot be written is a one-line error
        _check_writable(Path(folder))
    try:
        page = _make_report(rules, players, tables, out, budget, names, model_players, dpi, say)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    except KeyboardInterrupt:
        click.echo(f"rumbaodds: interrupted; finished table chunks are kept under {tables}: run the same command "
                   "to resume", err=True)
        raise SystemExit(130) from None
    click.echo(f"report written: {page}")
    for line in summary_lines(page.parent):  # each player count's card: agreement and loss (cards.json)
        click.echo(line)


def _check_writable(folder: Path) -> None:
    """Create ``folder`` and write a probe file in it; OSError (cli.friendly_errors: one line, exit 2) if not."""
    folder.mkdir(parents=True, exist_ok=True)
    probe = folder / f".rumbaodds-write-check-{os.getpid()}"
    probe.write_bytes(b"")
    probe.unlink()


@main.command("report-endgame")
@out_folder_option("reports", "Folder of the reports.")
@friendly_errors
def report_endgame(out):
    """The end of the game: how often to call Rumba and to play by your distance to 0 and the leader's
    (OUT/endgame.html, from the shipped score-aware strategies; relinks OUT/index.html)."""
    from ..report.endgame import write_endgame

    click.echo(f"written: {write_endgame(out)}")
