"""`rumbaodds tables build|query`: whole strategy tables, built once and asked instantly."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .. import analysis
from ..answer import document, lookup
from ..engine import SOURCE_DIGEST
from ..models import ModelError, get_model
from ..rules import get_rules
from ..tables import TableSpec, build_table
from . import UserError, friendly_errors, interrupted, main
from .ask_cmd import _print_ask, progress_bar

DEFAULT_ROOT = "tables"


def default_folder(spec: TableSpec) -> Path:
    subset = f"-{spec.cells}cells" if spec.cells else ""
    return Path(DEFAULT_ROOT) / (f"{spec.rules.name}-{spec.players}p-{spec.opponents.name}-{spec.play}"
                                 f"-{spec.samples_per_cell}x{subset}-seed{spec.seed}-{SOURCE_DIGEST[:8]}")


@main.group()
def tables() -> None:
    """Strategy tables for every seat, trump rank and hand class."""


@tables.command("build")
@click.option("--rules", default="swiss", show_default=True, help="Rule set: swiss, flemish or a TOML file.")
@click.option("--players", type=int, required=True, help="Players at the table.")
@click.option("--samples-per-cell", type=int, default=1_000, show_default=True,
              help="Simulated deals per (seat, trump rank, hand class).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed: the same seed gives the same table.")
@click.option("--out", "out", type=click.Path(file_okay=False), default=None,
              help=f"Folder for the table [default: {DEFAULT_ROOT}/<rules>-<players>p-<model>-<play>-...].")
@click.option("--opponents", default="default", show_default=True, help="Opponent model or TOML file.")
@click.option("--play", type=click.Choice(sorted(analysis.POLICIES)), default="expert", show_default=True)
@click.option("--cells", type=int, default=None,
              help="Only this many (trump rank, hand class) pairs, drawn by how often they occur (quick tables).")
@click.option("--chunk-cells", type=int, default=20_000, show_default=True,
              help="Cells per chunk written to disk (the unit of resuming).")
@click.option("--progress/--no-progress", default=None, help="Progress bar [default: when stderr is a terminal].")
@friendly_errors
def build(rules, players, samples_per_cell, seed, out, opponents, play, cells, chunk_cells, progress):
    """Build a table, or resume one: kill it any time, run the same command again."""
    try:
        model = get_model(opponents)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    if chunk_cells < 1:
        raise UserError(f"--chunk-cells must be positive, got {chunk_cells}")
    spec = TableSpec(get_rules(rules), players, model, play, samples_per_cell, analysis._check_seed(seed), cells)
    folder = Path(out) if out else default_folder(spec)
    try:
        with progress_bar(progress, "building") as update:
            path = build_table(spec, folder, chunk_cells=chunk_cells, progress=update)
    except (KeyboardInterrupt, SystemError) as exc:
        if not interrupted(exc):
            raise
        click.echo(f"rumbaodds: interrupted; finished chunks are kept in {folder}: run the same command to resume",
                   err=True)
        raise SystemExit(130) from None
    click.echo(f"table written: {path}")


@tables.command("query")
@click.argument("hand")
@click.option("--trump", required=True, help="The turned trump card, e.g. H9.")
@click.option("--players", type=int, required=True)
@click.option("--seat", type=int, required=True, help="0 speaks first; players-1 is the dealer.")
@click.option("--rules", default="swiss", show_default=True)
@click.option("--passes-in-a-row", type=int, default=0, show_default=True)
@click.option("--opponents", default="default", show_default=True)
@click.option("--play", type=click.Choice(sorted(analysis.POLICIES)), default="expert", show_default=True)
@click.option("--tables", "root", type=click.Path(), default=DEFAULT_ROOT, show_default=True,
              help="A table folder, or a folder of table folders.")
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def query(hand, trump, players, seat, rules, passes_in_a_row, opponents, play, root, as_json):
    """Answer from a built table, instantly (no simulation)."""
    try:
        model = get_model(opponents)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    situation = analysis.make_situation(hand, trump, players, seat, rules, passes_in_a_row)
    result = lookup(root, situation, model, play)
    if result is None:
        raise UserError(f"no table under {root} covers this situation; build one with `rumbaodds tables build "
                        f"--rules {situation.rules.name} --players {players}` or use `rumbaodds ask`")
    show(result, as_json)


def show(result, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(document(result)))
        return
    click.echo(f"From the table {result.meta['table']} (no simulation run):")
    _print_ask(result)
