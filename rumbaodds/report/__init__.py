"""The strategy report: action grids a player reads in a second, a printable card, and every decision he meets.

``rumbaodds report`` (``cli/report_cmd.py``) is a thin layer over :func:`make_report`. The package is split
along its ideas:

- :mod:`.shapes`: the rows (trump holdings) and columns (side aces and kings) a player recognises;
- :mod:`.data`: finding or building the tables, and each cell's values as ``ask`` reads them;
- :mod:`.grids`: cells pooled into boxes with intervals, close and mixed boxes, seat groups, the knock strip;
- :mod:`.card`: the rule card, lines in words ordered by the points they save;
- :mod:`.decisions`: what the tables do not hold (after a Rumba call, a knock, passes, plays, a swap), asked
  with ``analysis.ask`` on a sample of hands;
- :mod:`.precision`: how a number known within an interval is written (never a wrong sign, ≈0, no false 100%);
- :mod:`.charts`: the printable card (PNG, PDF) and the interval charts, on fixed colour scales;
- :mod:`.page`: the self-contained, phone-friendly HTML page;
- :mod:`.index`: the front page linking every report in the folder;
- :mod:`.full`, :mod:`.fullgrid`, :mod:`.rulecard`, :mod:`.fullpage`, :mod:`.printcard`, :mod:`.fullbuild`:
  the same from every cell of a full (packed) table: grids weighted by how often each hand is dealt, the rule
  card fitted greedily to them, boxes that show their values on a tap, the printed card (A4 and A5 PDFs);
- :mod:`.build`: the whole report.

Scores count down (negative is good), as everywhere in rumbaodds.
"""

from .build import DPI, NAMED_MODELS, make_report, model_players, parse_players
from .data import Budget, ReportError
from .fullbuild import summary_lines
from .index import write_index

__all__ = ["DPI", "NAMED_MODELS", "Budget", "ReportError", "make_report", "model_players", "parse_players",
           "summary_lines", "write_index"]
