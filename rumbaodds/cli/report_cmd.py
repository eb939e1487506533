"""`rumbaodds report`: an HTML strategy report with charts and a rule card (rumbaodds.report)."""

from __future__ import annotations

import click

from .. import analysis
from ..models import ModelError
from ..report import DPI, QUICK_CELLS, QUICK_KNOCK_INNER, QUICK_KNOCK_SAMPLES, QUICK_SAMPLES, REPORT_MODELS, Budget
from ..report import make_report as _make_report
from . import UserError, friendly_errors, main


@main.command("report")
@click.option("--rules", default="swiss", show_default=True, help="Rule set: swiss, flemish or a TOML file.")
@click.option("--players", default=None, help="Player counts, e.g. 3-7, 5 or 3,5 [default: all the rules allow].")
@click.option("--tables", "tables", type=click.Path(file_okay=False), default="tables", show_default=True,
              help="Folder of tables; a missing table is built there as a quick table and reused next time.")
@click.option("--out", "out", type=click.Path(file_okay=False), default="reports", show_default=True,
              help="Reports folder: writes OUT/<rules>/index.html, its PNGs, and OUT/index.html.")
@click.option("--cells", type=int, default=QUICK_CELLS, show_default=True,
              help="Quick tables: (trump rank, hand class) pairs per seat, drawn by how often they occur.")
@click.option("--samples-per-cell", type=int, default=QUICK_SAMPLES, show_default=True,
              help="Quick tables: simulated deals per cell.")
@click.option("--knock-samples", type=int, default=QUICK_KNOCK_SAMPLES, show_default=True,
              help="Quick tables (swiss): deals per trump rank for the knock values.")
@click.option("--knock-inner", type=int, default=QUICK_KNOCK_INNER, show_default=True,
              help="Quick tables (swiss): inner deals per knock deal for the dealer's no-knock choice.")
@click.option("--models", default=",".join(REPORT_MODELS), show_default=True,
              help="Opponent models compared at one player count.")
@click.option("--model-players", type=int, default=None,
              help="Player count of the opponent-model comparison [default: 5 swiss, 4 flemish].")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of quick tables.")
@click.option("--dpi", type=int, default=DPI, show_default=True, help="Resolution of the PNG charts.")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
@friendly_errors
def report(rules, players, tables, out, cells, samples_per_cell, knock_samples, knock_inner, models, model_players,
           seed, dpi, quiet):
    """Write an HTML report: when to call Rumba, knock and sit out, with a rule card.

    Scores count down: a negative expected change is good.
    """
    if dpi < 20:
        raise UserError(f"--dpi must be at least 20, got {dpi}")
    budget = Budget(cells, samples_per_cell, knock_samples, knock_inner, analysis._check_seed(seed))
    names = [m.strip() for m in models.split(",") if m.strip()]
    say = (lambda s: None) if quiet else (lambda s: click.echo(s, err=True))
    try:
        page = _make_report(rules, players, tables, out, budget, names, model_players, dpi, say)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    except KeyboardInterrupt:
        click.echo(f"rumbaodds: interrupted; finished table chunks are kept under {tables}: run the same command "
                   "to resume", err=True)
        raise SystemExit(130) from None
    click.echo(f"report written: {page}")
