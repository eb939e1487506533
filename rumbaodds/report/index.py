"""The reports' front page: ``reports/index.html`` links every report written into the folder.

Each report (``swiss``, ``flemish``, a house rule, ``rummy``) relinks it after
writing itself, and so do the end-of-game page (``endgame.html``) and the trainer page (``trainer.html``, ``rumbaodds
train --page``). The page's words for each folder come from the rule sets, so
this module knows the rummy family only through :mod:`..rummy.rules`.
"""

from __future__ import annotations

from pathlib import Path

from ..rules import RulesError, get_rules
from ..rummy.rules import DESCRIPTION as RUMMY_DESCRIPTION
from . import page

ENDGAME = "endgame.html"  # report/endgame.py (which imports this module: the words live here)
ENDGAME_DESCRIPTION = ("how often to call Rumba and to play by your distance to 0 and the leader's: the score-aware "
                       "equilibrium against the per-hand one")
TRAINER = "trainer.html"
TRAINER_DESCRIPTION = ("practice the decision: situations dealt as at the table, your choice graded at once by tap "
                       "(each spot simulated until its grade is sure; a phone page, offline once loaded)")


def write_index(out: str | Path) -> Path:
    """Relink ``out/index.html`` to every ``out/*/index.html`` and the trainer page ``out/trainer.html``."""
    out = Path(out)
    entries = []
    for p in sorted(out.glob("*/index.html")):
        name = p.parent.name
        if name == "rummy":  # rumbaodds rummy report
            desc = RUMMY_DESCRIPTION
        else:
            try:
                desc = get_rules(name).description
            except RulesError:
                desc = "house rules"
        entries.append((name, f"{name}/index.html", desc))
    if (out / TRAINER).exists():
        entries.append(("trainer", TRAINER, TRAINER_DESCRIPTION))
    if (out / ENDGAME).exists():
        entries.append(("the end of the game", ENDGAME, ENDGAME_DESCRIPTION))
    path = out / "index.html"
    path.write_text(page.render_index(entries), encoding="utf-8")
    return path


__all__ = ["write_index"]
