"""The ``rumbaodds`` command line: a thin layer over the Python API.

Every command reports bad input as one line on stderr and exit code 2, never a
traceback: :class:`UserError` (and the ``ValueError`` subclasses of the API,
which name the offending token or field) are turned into that line here.
"""

from __future__ import annotations

import functools
import sys

import click

from ..cards import CardError
from ..rules import RulesError


class UserError(click.ClickException):
    """Bad input: printed as ``rumbaodds: error: ...``, exit code 2."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"rumbaodds: error: {self.format_message()}", err=True)


def interrupted(exc: BaseException) -> bool:
    """Ctrl-C, also when it lands inside a Numba kernel (then a SystemError caused by it)."""
    while exc is not None:
        if isinstance(exc, KeyboardInterrupt):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def friendly_errors(func):
    """Turn the API's input errors into one-line :class:`UserError`s, and Ctrl-C into exit code 130."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except (CardError, RulesError) as exc:
            raise UserError(str(exc)) from None
        except OSError as exc:  # a folder or file that cannot be written or read: say which and why
            where = exc.filename if exc.filename is not None else ""
            raise UserError(f"{where}: {exc.strerror or exc}" if where else str(exc)) from None
        except (KeyboardInterrupt, SystemError) as exc:
            if not interrupted(exc):
                raise
            click.echo("rumbaodds: interrupted", err=True)
            raise SystemExit(130) from None

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rumbaodds")
def main() -> None:
    """Rumba odds: should I call Rumba with this hand?

    Scores follow the score sheet: they count down, so a negative change is good.
    """


def _register() -> None:
    from . import (  # noqa: F401  (register their commands)
        ask_cmd,
        deals_cmd,
        game_cmd,
        report_cmd,
        rummy_cmd,
        serve_cmd,
        strategy_cmd,
        tables_cmd,
    )


_register()


def run() -> None:  # pragma: no cover - console entry helper
    sys.exit(main())
