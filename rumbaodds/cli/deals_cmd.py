"""``rumbaodds deals``: generate, play and solve deal files (RULES.md §7).

Files are read as a stream and the kernels run on batches of deals, so a file
of any length runs in bounded memory; output keeps file order. A bad line
stops the run (exit 2) after the lines before it have been printed; with
``--skip-invalid`` it is reported, skipped, and the exit code is 1.
"""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Callable

import click

from .. import limits
from ..cardplay import DEFAULT_PLAY
from ..deals.files import BATCH, Deal, DealError, check_seat, deal_to_json, generate_deals, read_deals
from ..deals.play import POLICIES, play_deals
from ..rules import get_rules
from .errors import UserError, friendly_errors
from .group import main
from .options import int_option, not_empty, players_option, seed_option

_RULES_HELP = "Rule set: a preset (swiss, flemish) or a house-rule TOML file."


def rules_option(help_text: str = _RULES_HELP):
    return click.option("--rules", "rules_name", default="swiss", show_default=True, metavar="R", callback=not_empty,
                        help=help_text)


skip_option = click.option(
    "--skip-invalid", is_flag=True, help="Report bad lines on stderr and skip them (exit code 1) instead of stopping."
)
file_argument = click.argument("file", metavar="FILE")


@main.group("deals")
def deals() -> None:
    """Deal files: one JSON deal per line (RULES.md §7). FILE may be - for standard input."""


def _emit(lines: list[str]) -> None:
    if lines:
        click.echo("\n".join(lines))


def _open(path: str):
    if path == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")  # noqa: SIM115 - closed by _stream
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None


def _stream(path: str, rules, skip_invalid: bool, process: Callable[[list[Deal]], list[str]],
            check: Callable[[Deal], object] | None = None) -> None:
    """Read deals from ``path``, run ``process`` on batches, print its lines; exit 2 / 1 as documented."""
    skipped = 0

    def report(exc: DealError) -> None:
        nonlocal skipped
        skipped += 1
        click.echo(f"rumbaodds: skipped {exc}", err=True)

    stream = _open(path)
    pending: list[Deal] = []
    try:
        for deal in read_deals(stream, rules, skip_invalid, report, check):
            pending.append(deal)
            if len(pending) >= BATCH:
                _emit(process(pending))
                pending = []
    except DealError as exc:
        _emit(process(pending))  # the lines before the bad one are printed first
        raise UserError(str(exc)) from None
    except OSError as exc:
        _emit(process(pending))
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None
    finally:
        if path != "-":
            stream.close()
    _emit(process(pending))
    if skipped:
        click.get_current_context().exit(1)


@deals.command("play")
@file_argument
@click.option("--policy", type=click.Choice(POLICIES), default=DEFAULT_PLAY, show_default=True,
              help="Card play of every hand: greedy (RULES.md §6), expert, distilled or pimc (docs/SIMULATION.md "
                   "\"Card play\"); default: the card play of ask.")
@click.option("--rumba", "rumba", type=int, default=None, metavar="K",
              help="Play each deal as a Rumba called by hand K (an index into hands); the others defend. "
                   "Default: a normal game.")
@click.option("--worlds", type=click.IntRange(1, 1024), default=None, metavar="K",
              help="pimc: worlds dealt per decision (default 32).")
@click.option("--infer-call", "infer", is_flag=True,
              help="pimc with --rumba K: the defenders draw hand K from the hands that call Rumba at seat K "
                   "under the equilibrium (docs/SIMULATION.md, pimc).")
@rules_option(_RULES_HELP + " Used for lines without a \"rules\" field.")
@skip_option
@friendly_errors
def play_cmd(file: str, policy: str, rumba: int | None, worlds: int | None, infer: bool, rules_name: str,
             skip_invalid: bool) -> None:
    """Play each deal of FILE out; print {"tricks": [...]} per deal, tricks per hand.

    A deal's "turned" (or "trump_card") card is seen by expert and pimc.
    """
    if infer and (policy != "pimc" or rumba is None):
        raise UserError("--infer-call is what PIMC defenders hear: it goes with --policy pimc --rumba K")
    rules = get_rules(rules_name)
    done = 0

    def process(batch: list[Deal]) -> list[str]:
        nonlocal done
        if not batch:
            return []
        tricks = play_deals(batch, policy, rumba=rumba, worlds=worlds, first=done, infer=infer)
        done += len(batch)
        return [json.dumps({"tricks": row[: d.players].tolist()}) for d, row in zip(batch, tricks, strict=False)]

    check = None if rumba is None else (lambda deal: check_seat(deal, rumba))
    _stream(file, rules, skip_invalid, process, check)


def _parse_seat(text: str) -> int | str:
    value = text.strip().lower()
    if value == "leader":
        return "leader"
    try:
        seat = int(value)
    except ValueError:
        raise UserError(f"--seat {text!r}: use a hand index (0, 1, ...) or 'leader'") from None
    if seat < 0:
        raise UserError(f"--seat {text!r}: a hand index is 0 or more")
    return seat


@deals.command("solve")
@file_argument
@click.option("--seat", "seat_text", required=True, metavar="K|leader",
              help="Hand to solve for: an index into hands, or each deal's leader.")
@rules_option(_RULES_HELP + " Used for lines without a \"rules\" field.")
@skip_option
@friendly_errors
def solve_cmd(file: str, seat_text: str, rules_name: str, skip_invalid: bool) -> None:
    """Double-dummy value of each deal of FILE for one hand; print {"dd_tricks": k} per deal."""
    seat = _parse_seat(seat_text)
    rules = get_rules(rules_name)
    try:
        from ..deals.play import solve_deals
        from ..engine import dd  # noqa: F401  (fail early, before any output)
    except ImportError as exc:
        raise UserError(f"the double-dummy solver is not available ({exc})") from None

    def process(batch: list[Deal]) -> list[str]:
        if not batch:
            return []
        values = solve_deals(batch, seat)
        return [json.dumps({"dd_tricks": int(v)}) for v in values]

    _stream(file, rules, skip_invalid, process, check=lambda deal: check_seat(deal, seat))


@deals.command("generate")
@rules_option()
@players_option(help="Hands per deal (2 up to the rule set's table size).")
@int_option("--count", limit=limits.DEAL_COUNT, required=True, help="Number of deals.")
@int_option("--cards", "hand_size", limit=limits.HAND_SIZE, default=5, show_default=True, help="Cards per hand.")
@seed_option(limit=limits.DEAL_SEED,
             help="Random seed; the same seed gives the same file. Without it a seed is picked and printed on stderr.")
@friendly_errors
def generate_cmd(rules_name: str, players: int, count: int, hand_size: int, seed: int | None) -> None:
    """Write --count random deals as JSON Lines: shuffle, deal, turn the next card for trump, random leader."""
    rules = get_rules(rules_name)
    picked = seed is None
    if picked:
        seed = secrets.randbits(63)
    try:
        deals_iter = generate_deals(rules, players, count, hand_size, seed)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if picked:
        click.echo(f"rumbaodds: seed {seed} (repeat with --seed {seed})", err=True)
    lines: list[str] = []
    for deal in deals_iter:
        lines.append(deal_to_json(deal))
        if len(lines) >= BATCH:
            _emit(lines)
            lines = []
    _emit(lines)
