"""Numba kernels of rumbaodds, each with a plain-Python twin (``twin*.py``).

Their compiled code is cached on disk (``cache=True``) in a folder named after
a digest of this package's source. Numba itself only notices edits to the
file that defines a function, not to the functions it calls from other files,
so without the digest an update of ``tricks.py`` could leave a stale play-out
in the cache of ``playout.py``: a wrong number, silently.
"""

import hashlib
import os
import shutil
import time
from pathlib import Path

from numba.core import config

_package = Path(__file__).resolve().parent.parent
_digest = hashlib.sha256()
for _path in sorted(_package.rglob("*.py")):
    _digest.update(_path.relative_to(_package).as_posix().encode())
    _digest.update(_path.read_bytes())
_base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "rumbaodds")
SOURCE_DIGEST = _digest.hexdigest()[:16]  # names the Numba cache folder
config.CACHE_DIR = os.path.join(_base, f"numba-{SOURCE_DIGEST}")

# The files that determine a strategy table's numbers, and only those: tables are stamped with their digest, so
# an edit of the command line or the report keeps (shipped) tables valid while an edit of any of these makes every
# table stale. tests/test_tables_digest.py fails when a module the table build imports is in neither list.
NUMBERS_FILES = ("__init__.py", "engine/*.py", "game/*.py", "rules.py", "models.py", "cards.py", "handclasses.py",
                 "analysis.py", "stats.py", "conditioning.py", "policies.py", "results.py", "situation.py",
                 "tables/*.py")
# What the opponents' solved strategies are made of (the solver, its abstraction, the shipped files). They reach a
# table only as the opponents' policy arrays, whose own digest every manifest carries and every lookup compares
# (tables.lookup.manifest_matches): re-solving flemish leaves the swiss tables valid, and a table built against a
# strategy that has since changed is never used.
OPPONENT_FILES = ("strategy/*.py", "data/**/*")


def numbers_paths(package: Path = _package, patterns: tuple[str, ...] = NUMBERS_FILES) -> list[Path]:
    """The files of ``patterns`` (``NUMBERS_FILES`` or ``OPPONENT_FILES``) under ``package`` that exist, sorted."""
    found = {p for pattern in patterns for p in package.glob(pattern) if p.is_file()}
    return sorted(p for p in found if "__pycache__" not in p.parts)


def numbers_digest(package: Path = _package) -> str:
    """Digest of the files that determine table numbers (their paths and bytes)."""
    digest = hashlib.sha256()
    for path in numbers_paths(package):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


NUMBERS_DIGEST = numbers_digest()  # stamps strategy tables: numbers of other code are never reused


def _prune_old_caches(keep_days: float = 14.0) -> None:
    """Forget caches of other source versions unused for ``keep_days`` (they never match again)."""
    current = Path(config.CACHE_DIR)
    try:
        for folder in current.parent.glob("numba-*"):
            if folder != current and time.time() - folder.stat().st_mtime > keep_days * 86400:
                shutil.rmtree(folder, ignore_errors=True)
    except OSError:
        pass


_prune_old_caches()
