"""Bad input as one line: ``rumbaodds: error: ...`` on stderr and exit code 2, never a traceback.

:class:`UserError` is the command line's own error; :func:`friendly_errors`
turns the API's input errors (``ValueError`` subclasses that name the
offending token or field) into it, and :class:`OneLineGroup` prints click's
own usage errors (a bad option value, a missing option) the same way.
"""

from __future__ import annotations

import functools
import sys

import click

from ..cards import CardError
from ..limits import LimitError
from ..rules import RulesError

PREFIX = "rumbaodds: error: "


class UserError(click.ClickException):
    """Bad input: printed as ``rumbaodds: error: ...``, exit code 2."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"{PREFIX}{one_line(self.format_message())}", err=True)


def one_line(message: str) -> str:
    """The message on one line (a file name or a nested error may carry a newline)."""
    return " ".join(str(message).split())


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
        except (CardError, RulesError, LimitError) as exc:
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


class OneLineGroup(click.Group):
    """A click group whose usage errors are one line on stderr with exit code 2 (not click's usage block).

    Its subgroups are of the same class (``group_class = type``)."""

    group_class = type

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:  # bare `rumbaodds tables`: its help, as click does
            exc.show()
            sys.exit(exc.exit_code)
        except click.UsageError as exc:
            click.echo(f"{PREFIX}{usage_line(exc)}", err=True)
            sys.exit(2)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        # ctx.exit(n) comes back as n (deals: 1 when lines were skipped); a command's own return value means 0
        sys.exit(code if isinstance(code, int) and not isinstance(code, bool) else 0)


def usage_line(exc: click.UsageError) -> str:
    """One line for click's usage errors; a range check (options.py) already names its option."""
    message = one_line(exc.format_message())
    if isinstance(exc, click.BadParameter) and str(exc.message).startswith("-"):
        return one_line(exc.message)
    where = f"{exc.ctx.command_path} --help" if exc.ctx is not None else "rumbaodds --help"
    return f"{message} (see {where})"
