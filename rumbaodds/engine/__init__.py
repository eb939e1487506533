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
SOURCE_DIGEST = _digest.hexdigest()[:16]  # also stamps strategy tables: numbers of other code are not reused
config.CACHE_DIR = os.path.join(_base, f"numba-{SOURCE_DIGEST}")


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
