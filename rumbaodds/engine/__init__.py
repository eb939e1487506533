"""Numba kernels of rumbaodds, each with a plain-Python twin (``twin*.py``).

Their compiled code is cached on disk (``cache=True``) in a folder named after
a digest of the kernel files (:data:`KERNEL_FILES`: every module that defines
a kernel and the modules it imports). Numba itself only notices edits to the
file that defines a function, not to the functions it calls from other files,
so without the digest an update of ``tricks.py`` could leave a stale play-out
in the cache of ``playout.py``: a wrong number, silently. Files without
kernels (the command line, the report, the tables' I/O) are not in the key:
editing them recompiles nothing.

Tables are stamped with :data:`NUMBERS_VERSION`, not with a digest of code:
``tests/test_shipped_validity.py`` recomputes a fixed sample of every shipped
table's cells with today's code and requires the very same packed values, so
a refactor keeps shipped tables valid and any change that moves a number fails
until the version is bumped and the tables rebuilt.
"""

import hashlib
import os
import shutil
import time
from pathlib import Path

from numba.core import config

# The version of the numbers: bump it by one with any deliberate change that moves a table number (a rule of the
# kernels, a seed stream, the stopping rule, a column's definition, the packed quantisation). Tables carry it in
# their manifest ("numbers") and are used only by code of the same version; after a bump, rebuild and repack the
# shipped tables (README, "Building tables"). A change that moves a number WITHOUT a bump fails the recomputation
# test of the shipped tables (tests/test_shipped_validity.py).
NUMBERS_VERSION = 5  # 5: the distilled weights also fitted to 7-player Rumbas, trees at their 2nd/3rd lead

# The files whose edits must recompile kernels: the modules that define Numba kernels (njit, cuda.jit) and the
# package modules they import (their constants are frozen into the compiled code). tests/test_kernel_cache.py
# fails when a kernel module or one of its imports is missing here.
KERNEL_FILES = ("engine/*.py", "cards.py", "cardplay.py", "rules.py", "stats.py", "opponents/policies.py",
                "rummy/candidates.py", "rummy/odds.py", "rummy/solver.py", "rummy/cards.py", "rummy/rules.py",
                "rummy/melds.py", "strategy/abstraction.py", "strategy/exact.py", "strategy/exact_game.py",
                "strategy/game.py", "strategy/tables.py", "strategy/score_classes.py", "match/choice.py",
                "match/exact.py", "match/kernel.py", "match/score.py", "match/scored.py", "report/line_sums.py",
                "seeds.py", "limits.py")

_package = Path(__file__).resolve().parent.parent


def kernel_paths(package: Path = _package, patterns: tuple[str, ...] = KERNEL_FILES) -> list[Path]:
    """The files of ``patterns`` under ``package`` that exist, sorted."""
    found = {p for pattern in patterns for p in package.glob(pattern) if p.is_file()}
    return sorted(p for p in found if "__pycache__" not in p.parts)


def kernel_digest(package: Path = _package) -> str:
    """Digest of the kernel files (their paths and bytes): names the Numba cache folder."""
    digest = hashlib.sha256()
    for path in kernel_paths(package):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


KERNEL_DIGEST = kernel_digest()
_base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "rumbaodds")
config.CACHE_DIR = os.path.join(_base, f"numba-{KERNEL_DIGEST}")  # engine/gpu.py puts the CUDA cache there too
# A short tag of the numbers version for folder names (tables built by the CLI and the report).
NUMBERS_TAG = f"n{NUMBERS_VERSION}"


def _prune_old_caches(keep_days: float = 14.0) -> None:
    """Forget caches of other kernel versions unused for ``keep_days`` (they never match again)."""
    current = Path(config.CACHE_DIR)
    try:
        for folder in current.parent.glob("numba-*"):
            if folder != current and time.time() - folder.stat().st_mtime > keep_days * 86400:
                shutil.rmtree(folder, ignore_errors=True)
    except OSError:
        pass


_prune_old_caches()
