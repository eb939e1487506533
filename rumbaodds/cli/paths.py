"""Output paths built from safe names only: a name that could leave its folder is a one-line error."""

from __future__ import annotations

from ..rules import is_safe_name
from .errors import UserError


def safe_part(name: str, what: str) -> str:
    """``name`` as one component of a folder name; UserError when it has a separator or other unsafe characters."""
    if not is_safe_name(name):
        raise UserError(f"the {what} name {name!r} cannot be part of a folder name (use letters, digits, + - _ .); "
                        "give it a safe name = \"...\" or name the folder with --out")
    return name
