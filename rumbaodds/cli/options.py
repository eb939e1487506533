"""The options the commands share, declared once with their checks (ranges in rumbaodds.limits).

Every number is range-checked here, by its click type, before a command runs:
a bad value is ``click.BadParameter``, printed as one line with exit code 2
(errors.OneLineGroup). Paths the user names explicitly must be what they are
said to be (a table folder that exists; not a file where a folder is meant).
"""

from __future__ import annotations

from pathlib import Path

import click

from .. import limits
from ..limits import Limit, LimitError


class Bounded(click.ParamType):
    """A whole number or a finite float within a :class:`~rumbaodds.limits.Limit` (NaN and infinities refused)."""

    def __init__(self, limit: Limit):
        self.limit = limit
        self.name = "integer" if limit.kind == "int" else "number"

    def get_metavar(self, param, ctx=None) -> str:
        return "INTEGER" if self.limit.kind == "int" else "FLOAT"

    def convert(self, value, param, ctx):
        name = param.opts[0] if param is not None and param.opts else (param.name if param is not None else "value")
        if param is not None and param.param_type_name == "argument":
            name = param.human_readable_name
        try:
            return self.limit.parse(value, name)
        except LimitError as exc:
            self.fail(str(exc), param, ctx)

    def __repr__(self) -> str:
        return f"Bounded({self.limit.describe()})"


class PlayerCounts(click.ParamType):
    """Player counts such as ``3-7``, ``5`` or ``3,5``: checked for form here, against the rule set later."""

    name = "counts"

    def convert(self, value, param, ctx):
        text = str(value).replace(" ", "")
        if not text:
            self.fail(f"{param.opts[0]} {value!r}: names no player count (e.g. 3-7, 5 or 3,5)", param, ctx)
        for part in text.split(","):
            bounds = part.split("-", 1)
            if not all(b.isdigit() and len(b) <= 3 for b in bounds):
                self.fail(f"{param.opts[0]}: {part!r} is not a player count or a range such as 3-7", param, ctx)
            numbers = [int(b) for b in bounds]
            if any(not limits.PLAYERS.low <= n <= limits.PLAYERS.high for n in numbers) or numbers != sorted(numbers):
                self.fail(f"{param.opts[0]}: {part!r} is not a player count or a rising range such as 3-7", param, ctx)
        return text


class Scheduler(click.ParamType):
    """``local``, ``dask`` or the address of a Dask scheduler, ``SCHEME://HOST[:PORT]`` (a scheme Dask knows)."""

    name = "scheduler"
    SCHEMES = ("tcp", "tls", "inproc", "ucx", "ws", "wss")

    def convert(self, value, param, ctx):
        text = str(value).strip()
        if text in ("local", "dask"):
            return text
        scheme, sep, rest = text.partition("://")
        host, _, port = rest.rpartition(":") if ":" in rest else (rest, "", "")
        if not sep or scheme not in self.SCHEMES or not host:
            self.fail(f"--scheduler {text!r}: use local, dask or a Dask scheduler's address such as tcp://HOST:8786 "
                      f"(schemes {', '.join(self.SCHEMES)})", param, ctx)
        if port:
            try:
                limits.PORT.parse(port, "--scheduler's port")
            except LimitError as exc:
                self.fail(str(exc), param, ctx)
        return text


class IntList(click.ParamType):
    """Comma-separated whole numbers, one per player (``20,14,7,3,18``), each within ``limit``: one-line errors."""

    name = "list"

    def __init__(self, limit: Limit, example: str):
        self.limit = limit
        self.example = example

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        name = param.opts[0] if param is not None and param.opts else "value"
        try:
            return limits.parse_int_list(self.limit, value, name, self.example)
        except LimitError as exc:
            self.fail(str(exc), param, ctx)


def int_option(*decls, limit: Limit, **kwargs):
    """``click.option`` of a whole number within ``limit``."""
    return click.option(*decls, type=Bounded(limit), **kwargs)


def float_option(*decls, limit: Limit, **kwargs):
    """``click.option`` of a finite float within ``limit``."""
    return click.option(*decls, type=Bounded(limit), **kwargs)


def _existing_folder(default: str):
    """A callback: a table folder named by the user must exist and be a folder; the default one may be absent."""

    def check(ctx, param, value):
        if value is None:  # not given: the default folder, searched when it exists (then the shipped tables)
            return default
        path = Path(value)
        if not path.exists():
            raise click.BadParameter(f"{param.opts[0]} {value}: no such folder", ctx, param)
        if not path.is_dir():
            raise click.BadParameter(f"{param.opts[0]} {value}: not a folder (name the folder of the tables)", ctx,
                                     param)
        return value

    return check


# -- the shared options ---------------------------------------------------------------------------------------------
def not_empty(ctx, param, value):
    """A name or a file that must be given as text: an empty one is an error (not the current folder)."""
    if value is not None and not str(value).strip():
        raise click.BadParameter(f"{param.opts[0]} is empty: name one (see --help)", ctx, param)
    return value


def rules_option(default: str = "swiss", help: str = "Rule set: swiss, flemish, or a house-rule TOML file.",  # noqa: A002
                 dest: str = "rules"):
    return click.option("--rules", dest, default=default, show_default=True, callback=not_empty, help=help)


def players_option(required: bool = True, default: int | None = None, help: str = "Players at the table."):  # noqa: A002
    return int_option("--players", limit=limits.PLAYERS, required=required, default=default,
                      show_default=default is not None, help=help)


def seat_option(help: str = "Your seat: 0 speaks first (left of the dealer), players-1 is the dealer."):  # noqa: A002
    return int_option("--seat", limit=limits.SEAT, required=True, help=help)


def passes_option(help: str = "Your passes in a row before this hand (swiss: the third costs 5 points)."):  # noqa: A002
    return int_option("--passes-in-a-row", limit=limits.PASSES_IN_A_ROW, default=0, show_default=True, help=help)


def seed_option(default: int | None = None, help: str | None = None, limit: Limit = limits.SEED):  # noqa: A002
    text = help or ("Seed for an exactly reproducible run (printed when omitted)." if default is None else "Seed.")
    return int_option("--seed", limit=limit, default=default, show_default=default is not None,
                      help=f"{text} {limit.describe()}.")


def samples_option(limit: Limit, default: int | None = None, help: str = "Simulated deals.",  # noqa: A002
                   name: str = "--samples"):
    return int_option(name, limit=limit, default=default, show_default=default is not None,
                      help=f"{help} At most {limit.high:,}.")


def precision_option(limit: Limit, help: str):  # noqa: A002
    return float_option("--precision", limit=limit, default=None, help=f"{help} {limit.describe()}.")


def scores_option(help: str = "Every player's score, clockwise, e.g. 20,14,7,3,18.", dest: str = "scores"):  # noqa: A002
    return click.option("--scores", dest, type=IntList(limits.SCORE, "20,14,7,3,18"), default=None, help=help)


def streaks_option(help: str = "Every player's passes in a row so far (swiss rule 17), e.g. 0,2,0,0,1.",  # noqa: A002
                   dest: str = "passes"):
    return click.option("--passes", dest, type=IntList(limits.PASSES_IN_A_ROW, "0,2,0,0,1"), default=None,
                        help=help)


def json_option(help: str = "Print one JSON object instead of a table."):  # noqa: A002
    return click.option("--json", "as_json", is_flag=True, help=help)


def progress_option(help: str = "Progress bar on stderr [default: when stderr is a terminal]."):  # noqa: A002
    return click.option("--progress/--no-progress", default=None, help=help)


def tables_option(default: str = "tables", dest: str = "tables_root",
                  help: str = "Answer instantly from a built table here when one covers the situation."):  # noqa: A002
    """A folder of tables to read: when named, it must exist (no silent fallback to the shipped tables)."""
    return click.option("--tables", dest, type=click.Path(), default=None, show_default=default,
                        callback=_existing_folder(default), help=f"{help} A folder named here must exist.")


def out_folder_option(default: str | None, help: str):  # noqa: A002
    return click.option("--out", "out", type=click.Path(file_okay=False), default=default,
                        show_default=default is not None, help=help)


def dpi_option(default: int | None, help: str = "Resolution of the chart PNGs."):  # noqa: A002
    return int_option("--dpi", limit=limits.DPI, default=default, show_default=default is not None,
                      help=f"{help} {limits.DPI.describe()}.")


__all__ = ["Bounded", "IntList", "scores_option", "streaks_option",
           "PlayerCounts", "Scheduler", "not_empty", "int_option", "float_option", "rules_option",
           "players_option", "seat_option", "passes_option", "seed_option", "samples_option", "precision_option",
           "json_option", "progress_option", "tables_option", "out_folder_option", "dpi_option"]
