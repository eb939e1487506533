"""`rumbaodds report`: the strategy report (action grids, printable cards, every decision), rumbaodds.report."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..models import ModelError
from ..report import DPI, Budget
from ..report import make_report as _make_report
from ..seeds import check_seed
from . import UserError, friendly_errors, main

_DEFAULT = Budget()


@main.command("report")
@click.option("--rules", default="swiss", show_default=True, help="Rule set: swiss, flemish or a TOML file.")
@click.option("--players", default=None, help="Player counts, e.g. 3-7, 5 or 3,5 [default: all the rules allow].")
@click.option("--tables", "tables", type=click.Path(file_okay=False), default="tables", show_default=True,
              help="Folder of tables; a missing table is built there as a quick table and reused next time.")
@click.option("--out", "out", type=click.Path(file_okay=False), default="reports", show_default=True,
              help="Reports folder: writes OUT/<rules>/index.html, its cards (PNG, PDF) and charts, OUT/index.html.")
@click.option("--cells", type=int, default=_DEFAULT.cells, show_default=True,
              help="Quick tables: (trump rank, hand class) pairs per seat, drawn by how often they occur.")
@click.option("--samples-per-cell", type=int, default=_DEFAULT.samples_per_cell, show_default=True,
              help="Quick tables: simulated deals per cell.")
@click.option("--model-cells", type=int, default=_DEFAULT.model_cells, show_default=True,
              help="Quick tables of the opponent-model comparison: cells per seat.")
@click.option("--knock-samples", type=int, default=_DEFAULT.knock_samples, show_default=True,
              help="Swiss: deals per trump rank for the knock values.")
@click.option("--knock-inner", type=int, default=_DEFAULT.knock_inner, show_default=True,
              help="Swiss: inner deals per knock deal for the dealer's no-knock choice.")
@click.option("--ask-hands", type=int, default=_DEFAULT.ask_hands, show_default=True,
              help="After earlier words: sampled hands per box, each asked with --ask-samples deals.")
@click.option("--ask-samples", type=int, default=_DEFAULT.ask_samples, show_default=True,
              help="Deals per sampled hand after earlier words.")
@click.option("--models", default=None,
              help="Opponent models compared with the base opponents of the cards (the equilibrium, or the "
                   "default style for a house rule without a solved strategy), comma separated [default: "
                   "default, cautious, bold, all].")
@click.option("--model-players", type=int, default=None,
              help="Player count of the comparisons [default: 5 swiss, 4 flemish].")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of quick tables and sampled hands.")
@click.option("--dpi", type=int, default=DPI, show_default=True, help="Resolution of the chart PNGs.")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
@friendly_errors
def report(rules, players, tables, out, cells, samples_per_cell, model_cells, knock_samples, knock_inner, ask_hands,
           ask_samples, models, model_players, seed, dpi, quiet):
    """Write an HTML strategy report: action grids by hand shape, a printable card per player count, and what
    to do after earlier words, with every number's precision.

    Scores count down: a negative expected change is good.
    """
    if dpi < 20:
        raise UserError(f"--dpi must be at least 20, got {dpi}")
    budget = Budget(cells, samples_per_cell, model_cells, knock_samples, knock_inner, ask_hands, ask_samples,
                    check_seed(seed))
    names = None if models is None else [m.strip() for m in models.split(",") if m.strip()]
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


def _check_writable(folder: Path) -> None:
    """Create ``folder`` and write a probe file in it; OSError (cli.friendly_errors: one line, exit 2) if not."""
    folder.mkdir(parents=True, exist_ok=True)
    probe = folder / f".rumbaodds-write-check-{os.getpid()}"
    probe.write_bytes(b"")
    probe.unlink()
