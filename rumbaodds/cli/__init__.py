"""The ``rumbaodds`` command line: a thin layer over the Python API.

This module only assembles it: the group is in :mod:`.group`, the one-line
errors in :mod:`.errors`, the shared options and their range checks in
:mod:`.options`, all printing in :mod:`.render`; each command module adds its
commands to the group and is imported below. Every command reports bad input
as one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import sys

from .errors import UserError, friendly_errors, interrupted
from .group import main


def _register() -> None:
    from . import (  # noqa: F401  (register their commands)
        ask_cmd,
        deals_cmd,
        game_cmd,
        report_cmd,
        review_cmd,
        rummy_cmd,
        serve_cmd,
        strategy_cmd,
        tables_cmd,
        train_cmd,
    )


_register()


def run() -> None:  # pragma: no cover - console entry helper
    sys.exit(main())


__all__ = ["main", "run", "UserError", "friendly_errors", "interrupted"]
