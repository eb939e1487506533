"""`rumbaodds serve`: the question of `rumbaodds ask` on a local web page, and as JSON for scripts."""

from __future__ import annotations

import logging
import signal
from pathlib import Path

import click

from .. import limits
from ..engine.compiled import StderrHandler
from ..opponents.models import MODELS, ModelError, get_model
from ..rules import PRESETS, get_rules
from .errors import UserError, friendly_errors
from .group import main
from .options import int_option, tables_option

TRAINER = "reports/trainer.html"  # the trainer's page as the README makes it (`rumbaodds train --page`)

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def check_host(host: str) -> str:
    """The address to listen on, or a one-line refusal: an empty host would make the server listen on every
    interface unasked (issue 37); say 0.0.0.0 to mean that."""
    if not host.strip():
        raise UserError("--host is empty: name an address, e.g. 127.0.0.1 (this machine only) or 0.0.0.0 (every "
                        "network interface)")
    if host != host.strip() or any(c.isspace() for c in host):
        raise UserError(f"--host {host!r} holds spaces: name one address, e.g. 127.0.0.1")
    return host


def configure_logging(verbose: bool) -> None:
    """The server's own log on stderr, every request with ``-v``. Only the ``rumbaodds`` loggers: the root logger
    and every other library's stay as they are, so ``-v`` never turns on Numba's compiler log (63 MB in three
    minutes when ``-v`` set the root logger to DEBUG; issue 36)."""
    ours = logging.getLogger("rumbaodds")
    if not any(isinstance(h, StderrHandler) for h in ours.handlers):
        handler = StderrHandler()
        handler.setFormatter(logging.Formatter("rumbaodds serve: %(message)s"))
        ours.addHandler(handler)
    ours.setLevel(logging.DEBUG if verbose else logging.INFO)  # the root logger keeps no handler: said once


def _trainer_file(ctx, param, value):
    """The trainer's page: a file named with --trainer must exist; the default is served only where it is."""
    if value is None:
        return TRAINER
    if not Path(value).is_file():
        raise click.BadParameter(f"no file {value!r} (make it with `rumbaodds train --page {value}`)")
    return value


def _stop(signum, frame):
    raise KeyboardInterrupt


def _named(items, presets, what: str) -> dict:
    out = {}
    for item in items:
        name = item.name.lower()
        if name in presets or name in out:
            raise UserError(f"{what} {item.name!r} is named like another one: give it its own name = \"...\"")
        out[name] = item
    return out


@main.command()
@int_option("--port", limit=limits.PORT, default=8000, show_default=True,
            help=f"Port to listen on, {limits.PORT.describe()} (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets other machines of the network use the page. Requests must "
                   "name localhost or this address (with 0.0.0.0: any IP address or this machine's name).")
@tables_option(help="Answer instantly from a built table here when one covers the question (like `ask`).")
@click.option("--rules", "rule_files", multiple=True, type=click.Path(dir_okay=False),
              help="A house-rule TOML file to offer on the page besides swiss and flemish (repeatable).")
@click.option("--opponents", "model_files", multiple=True, type=click.Path(dir_okay=False),
              help="An opponent-model TOML file to offer on the page (repeatable).")
@click.option("--trainer", "trainer", type=click.Path(dir_okay=False), default=None, callback=_trainer_file,
              show_default=TRAINER, help="The trainer's page (`rumbaodds train --page FILE`), served at /trainer and "
                                         "linked from the page; a file named here must exist.")
@click.option("-v", "--verbose", is_flag=True, help="Log every request.")
@friendly_errors
def serve(port, host, tables_root, rule_files, model_files, trainer, verbose):
    """A local web page: tap your cards, see every choice with its expected score change.

    The page and GET /api/ask?hand=HA+HK+HQ+S6+C7&trump=H9&players=5&seat=2
    (parameters named like `rumbaodds ask`'s options: rules, before, opponents,
    play, samples, precision, seed, passes_in_a_row, dealer_knocked, simulate)
    answer exactly like `rumbaodds ask --json`: from a table when one covers
    the question, else by simulation. The kernels compile in the background at
    start (about 40 s the first time, then cached), each path in a process of
    its own, so a compile never holds up answers on another path; table
    answers do not wait for them. One request simulates a few seconds at most (samples up to
    500,000, precision 0.05 or coarser); a few more wait their turn, beyond
    that the server answers 503. Only requests naming localhost (or --host)
    are answered.
    """
    from ..web.app import App
    from ..web.server import make_server

    host = check_host(host)
    configure_logging(verbose)
    try:
        models = _named([get_model(f) for f in model_files], MODELS, "opponent model")
    except ModelError as exc:
        raise UserError(str(exc)) from None
    app = App(tables_root, _named([get_rules(f) for f in rule_files], PRESETS, "rule set"), models, trainer=trainer)
    try:
        server = make_server(app, host, port, verbose)
    except OSError as exc:
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    signal.signal(signal.SIGTERM, _stop)  # `kill` stops it like Ctrl-C
    app.start_warmup(extras=True)
    click.echo(f"rumbaodds serve: {server.url}  (Ctrl-C stops it; the simulator warms up in the background)")
    if app.has_trainer():
        click.echo(f"rumbaodds serve: the trainer at {server.url}trainer ({trainer})")
    if host not in LOOPBACK:
        where = "every network interface" if host in ("0.0.0.0", "::") else f"the address {host}"
        click.echo(f"rumbaodds serve: listening on {where}, not only this machine: other machines of the network "
                   f"can use the page", err=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        click.echo("rumbaodds serve: stopped", err=True)
    finally:
        server.server_close()
        app.simulations.close()
