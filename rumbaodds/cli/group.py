"""The ``rumbaodds`` command group; the command modules add their commands to it (cli/__init__.py imports them)."""

from __future__ import annotations

import click

from .errors import OneLineGroup


@click.group(cls=OneLineGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rumbaodds")
def main() -> None:
    """Rumba odds: should I call Rumba with this hand?

    Scores follow the score sheet: they count down, so a negative change is good.
    """
