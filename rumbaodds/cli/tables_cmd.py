"""`rumbaodds tables build|query|plan|pack|compare`: whole strategy tables, built once and asked instantly."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click
import numpy as np
import pyarrow.parquet as pq

from .. import limits
from ..answer import simulation
from ..answer.pipeline import lookup
from ..cardplay import DEFAULT_PLAY
from ..engine import NUMBERS_TAG
from ..engine.devices import DEVICE_CHOICES, resolve_device
from ..opponents.models import ModelError
from ..opponents.resolve import DEFAULT_HELP, opponent_policy
from ..rules import get_rules
from ..tables import DEFAULT_CHUNK_CELLS, DEFAULT_PRECISION, TableSpec, build_table
from ..tables.neighbours import LOW_BELOW
from ..tables.spec import DEFAULT_MAX_SAMPLES, DEFAULT_MIN_SAMPLES
from .errors import UserError, friendly_errors, interrupted
from .group import main
from .options import (
    Scheduler,
    float_option,
    int_option,
    json_option,
    passes_option,
    players_option,
    progress_option,
    rules_option,
    seat_option,
    seed_option,
    tables_option,
)
from .paths import safe_part
from .render import progress_bar, show_answer

DEFAULT_ROOT = "tables"


def default_folder(spec: TableSpec) -> Path:
    subset = f"-{spec.cells}cells" if spec.cells else ""
    name = (f"{safe_part(spec.rules.name, 'rule set')}-{spec.players}p-{safe_part(spec.policy.name, 'opponent model')}"
            f"-{spec.play}-{safe_part(spec.label(), 'label')}{subset}-seed{spec.seed}-{NUMBERS_TAG}")
    return Path(DEFAULT_ROOT) / name


def _model(name: str, rules, players: int):
    """The opponents' policy (a name, equilibrium, a TOML file, BASE,SEAT=STYLE); a bad one is a one-line error."""
    try:
        return opponent_policy(name, rules, players)
    except ModelError as exc:
        raise UserError(str(exc)) from None


@main.group()
def tables() -> None:
    """Strategy tables for every seat, trump rank and hand class."""


@tables.command("build")
@rules_option()
@players_option()
@float_option("--precision", limit=limits.TABLE_PRECISION, default=None,
              help=f"Adaptive (the default, {DEFAULT_PRECISION:g}): simulate each cell until its decision is "
                   f"resolved or every expected value's 95% half-width is below this many points.")
@int_option("--min-samples", limit=limits.CELL_SAMPLES, default=DEFAULT_MIN_SAMPLES, show_default=True,
            help="Adaptive: fewest deals per cell.")
@int_option("--max-samples", limit=limits.CELL_SAMPLES, default=DEFAULT_MAX_SAMPLES, show_default=True,
            help="Adaptive: most deals per cell.")
@int_option("--samples-per-cell", limit=limits.CELL_SAMPLES, default=None,
            help="Instead of adaptive precision: exactly this many deals per (seat, trump rank, hand class).")
@seed_option(help="Seed: the same seed gives the same table [default: derived from the rule set and player count].")
@click.option("--out", "out", type=click.Path(file_okay=False), default=None,
              help=f"Folder for the table [default: {DEFAULT_ROOT}/<rules>-<players>p-<model>-<play>-...].")
@click.option("--opponents", default=None, help=f"Opponent model, equilibrium or a TOML file {DEFAULT_HELP}.")
@click.option("--play", type=click.Choice(sorted(simulation.POLICIES)), default=DEFAULT_PLAY, show_default=True)
@int_option("--cells", limit=limits.CELLS, default=None,
            help="Only this many (trump rank, hand class) pairs, drawn by how often they occur (quick tables).")
@click.option("--neighbours", is_flag=True, default=False,
              help="One cell per neighbour group (hands alike but for their low side ranks): a hand is answered from "
                   "its group's middle hand, moved and widened by a model fitted on the build's calibration "
                   "(docs/TABLES.md).")
@int_option("--knock-samples", limit=limits.KNOCK_SAMPLES, default=None,
            help="Deals per trump rank of the dealer's knock values (knock.parquet) [default: 2,000, or 4 x "
                   "--samples-per-cell].")
@int_option("--chunk-cells", limit=limits.CHUNK_CELLS, default=DEFAULT_CHUNK_CELLS, show_default=True,
            help="Cells per chunk: the unit of resuming and of Dask tasks.")
@click.option("--scheduler", type=Scheduler(), default="local", show_default=True,
              help="local (this process, every core), dask (a Dask LocalCluster here, --workers processes) or "
                   "the address of a running Dask scheduler, e.g. tcp://HOST:8786.")
@int_option("--workers", limit=limits.WORKERS, default=None,
            help="Worker processes of --scheduler dask [default: cores].")
@click.option("--device", type=click.Choice(DEVICE_CHOICES), default="cpu", show_default=True,
              help="Simulate the cells on the CPU or a CUDA GPU (auto: the GPU if one works; with Dask, each "
                   "worker's own); the same table.")
@progress_option()
@friendly_errors
def build(rules, players, precision, min_samples, max_samples, samples_per_cell, seed, out, opponents, play, cells,
          neighbours, knock_samples, chunk_cells, scheduler, workers, device, progress):
    """Build a table, or resume one: kill it any time, run the same command again."""
    rule_set = get_rules(rules)
    rule_set.check_players(players)
    model = _model(opponents, rule_set, players)
    if min_samples > max_samples:
        raise UserError(f"--min-samples {min_samples} is above --max-samples {max_samples}")
    engine = resolve_device(device) if scheduler == "local" else device  # Dask: resolved on each worker
    spec = TableSpec(rule_set, players, model, play, samples_per_cell, seed, cells, precision, min_samples,
                     max_samples, knock_samples, neighbours=LOW_BELOW if neighbours else None)
    folder = Path(out) if out else default_folder(spec)
    started = time.perf_counter()
    try:
        with progress_bar(progress, "building") as update:
            path = build_table(spec, folder, chunk_cells=chunk_cells, progress=update, scheduler=scheduler,
                               workers=workers, device=engine)
    except (KeyboardInterrupt, SystemError) as exc:
        if not interrupted(exc):
            raise
        click.echo(f"rumbaodds: interrupted; finished chunks are kept in {folder}: run the same command to resume",
                   err=True)
        raise SystemExit(130) from None
    seconds = time.perf_counter() - started
    deals = pq.read_table(path, columns=["samples"]).column("samples").to_numpy()
    click.echo(f"table written: {path}")
    click.echo(f"{len(deals):,} cells, deals per cell mean {deals.mean():,.0f}, median {np.median(deals):,.0f}, "
               f"99th percentile {np.percentile(deals, 99):,.0f}; seed {spec.seed}; this run {seconds:,.1f} s")
    where = f"on {engine}" if scheduler == "local" else f"--device {device} on each Dask worker"
    click.echo(f"cells simulated {where}")
    if spec.neighbours is not None:
        click.echo(f"one cell per neighbour group: answer from it once packed (`rumbaodds tables pack {folder} --out "
                   f"FILE.packed.parquet`)")


@tables.command("query")
@click.argument("hand")
@click.option("--trump", required=True, help="The turned trump card, e.g. H9.")
@players_option()
@seat_option(help="0 speaks first; players-1 is the dealer.")
@rules_option()
@passes_option()
@click.option("--opponents", default=None, help=f"As in build {DEFAULT_HELP}.")
@click.option("--play", type=click.Choice(sorted(simulation.POLICIES)), default=DEFAULT_PLAY, show_default=True)
@tables_option(DEFAULT_ROOT, "root", help="A table folder, or a folder of table folders and packed tables (the "
                                         "shipped ones are also searched).")
@json_option()
@friendly_errors
def query(hand, trump, players, seat, rules, passes_in_a_row, opponents, play, root, as_json):
    """Answer from a built table, instantly (no simulation)."""
    situation = simulation.make_situation(hand, trump, players, seat, rules, passes_in_a_row)
    model = _model(opponents, situation.rules, players)
    result = lookup(root, situation, model, play)
    if result is None:
        raise UserError(f"no table under {root} covers this situation; build one with `rumbaodds tables build "
                        f"--rules {situation.rules.name} --players {players}` or use `rumbaodds ask`")
    show_answer(result, as_json)


@tables.command("plan")
@rules_option()
@int_option("--workers", limit=limits.WORKERS, default=16, show_default=True,
            help="Estimate the time on this many single-core workers too.")
@int_option("--players", "players", limit=limits.PLAYERS, multiple=True,
            help="Only these player counts [default: all].")
@int_option("--sample-cells", limit=limits.CELLS, default=1_000, show_default=True,
            help="Cells simulated per player count to measure the deals and time per cell.")
@float_option("--precision", limit=limits.TABLE_PRECISION, default=None,
              help=f"As in build [default: {DEFAULT_PRECISION:g}].")
@int_option("--min-samples", limit=limits.CELL_SAMPLES, default=None,
            help=f"As in build [default: {DEFAULT_MIN_SAMPLES}].")
@int_option("--max-samples", limit=limits.CELL_SAMPLES, default=None,
            help=f"As in build [default: {DEFAULT_MAX_SAMPLES}].")
@click.option("--neighbours", is_flag=True, default=False, help="As in build: one cell per neighbour group.")
@click.option("--opponents", default=None, help=f"As in build {DEFAULT_HELP}.")
@click.option("--play", type=click.Choice(sorted(simulation.POLICIES)), default=DEFAULT_PLAY, show_default=True)
@json_option()
@progress_option()
@friendly_errors
def plan(rules, workers, players, sample_cells, precision, min_samples, max_samples, neighbours, opponents, play,
         as_json, progress):
    """How big and how long: the full table of every player count, measured on a sample of cells."""
    from ..tables.plan import plan_tables, totals

    if min_samples is not None and max_samples is not None and min_samples > max_samples:
        raise UserError(f"--min-samples {min_samples} is above --max-samples {max_samples}")
    rule_set = get_rules(rules)
    for n in players:
        rule_set.check_players(n)
    for n in list(players) or range(rule_set.min_players, rule_set.max_players + 1):
        _model(opponents, rule_set, n)  # a bad model or a missing strategy: one line, before anything runs
    with progress_bar(progress, "measuring") as update:
        rows = plan_tables(rule_set, opponents, play, list(players) or None, sample_cells, workers,
                           precision=precision, min_samples=min_samples, max_samples=max_samples, progress=update,
                           neighbours=LOW_BELOW if neighbours else None)
    total = totals(rows)
    if as_json:
        click.echo(json.dumps({"rules": rule_set.name, "rows": rows, "total": total}))
        return
    first = rows[0]
    click.echo(f"{rule_set.name}: adaptive precision {first['precision']:g} points, {first['min_samples']:,}.."
               f"{first['max_samples']:,} deals per cell; deals measured on {first['sampled']:,} random cells per "
               f"player count; time here with {first['threads_here']} threads, and on {workers} single-core "
               f"workers of this speed")
    click.echo(f"{'players':>7}  {'cells':>12}  {'deals/cell mean':>15}  {'median':>6}  {'p99':>6}  "
               f"{'deals total':>12}  {'hours here':>10}  {f'hours on {workers}':>12}")
    for r in rows:
        click.echo(f"{r['players']:>7}  {r['cells']:>12,}  {r['deals_mean']:>15,.0f}  {r['deals_median']:>6,.0f}  "
                   f"{r['deals_p99']:>6,.0f}  {r['deals_total']:>12,.3g}  {r['hours_here']:>10,.2f}  "
                   f"{r['hours_on_workers']:>12,.2f}")
    click.echo(f"{'all':>7}  {total['cells']:>12,}  {'':>15}  {'':>6}  {'':>6}  {total['deals_total']:>12,.3g}  "
               f"{total['hours_here']:>10,.2f}  {total['hours_on_workers']:>12,.2f}")


@tables.command("pack")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--out", "out", type=click.Path(dir_okay=False), required=True,
              help="The packed table file (name it *.packed.parquet to be found by ask --tables).")
@friendly_errors
def pack(folder, out):
    """Write the compact decision table of a full table (best choice, margin, Rumba success, exchange, deals)."""
    from ..tables.pack import pack_table, packed_size

    path = pack_table(folder, out)
    size = packed_size(path)
    click.echo(f"packed: {path} ({size['cells']:,} cells, {size['bytes'] / 1e6:,.2f} MB, "
               f"{size['bytes_per_cell']:.2f} bytes per cell)")


@tables.command("compare")
@click.argument("old", type=click.Path(dir_okay=False, exists=True))
@click.argument("new", type=click.Path(dir_okay=False, exists=True))
@json_option()
@friendly_errors
def compare(old, new, as_json):
    """What moved from one packed table to another of the same rules and players (after a rebuild): best choices,
    the Rumba threshold by hand points, the knock."""
    from ..tables.compare import compare as compare_tables
    from ..tables.compare import compare_lines

    result = compare_tables(old, new)
    if as_json:
        click.echo(json.dumps(result))
    else:
        for line in compare_lines(result):
            click.echo(line)
