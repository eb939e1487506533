"""Numba kernels of rumbaodds, each with a plain-Python twin (``twin*.py``).

Their compiled code is cached on disk (``cache=True``) in a folder named after
a digest of this package's source. Numba itself only notices edits to the
file that defines a function, not to the functions it calls from other files,
so without the digest an update of ``tricks.py`` could leave a stale play-out
in the cache of ``playout.py``: a wrong number, silently.
"""

import hashlib
import os
from pathlib import Path

from numba.core import config

_package = Path(__file__).resolve().parent.parent
_digest = hashlib.sha256()
for _path in sorted(_package.rglob("*.py")):
    _digest.update(_path.relative_to(_package).as_posix().encode())
    _digest.update(_path.read_bytes())
_base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "rumbaodds")
config.CACHE_DIR = os.path.join(_base, f"numba-{_digest.hexdigest()[:16]}")
