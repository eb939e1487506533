"""The strategy report: one pipeline from one source of cells (a full table or a sample) to grids, cards, a page.

Action grids a player reads in a second, a printable card, and every decision he meets.

``rumbaodds report`` (``cli/report_cmd.py``) is a thin layer over :func:`make_report`. The package is split
along its ideas:

- :mod:`.shapes`: the rows (trump holdings) and columns (side aces and kings) a player recognises;
- :mod:`.cells`: the one source of cells (situation, weight, each choice's value and loss with its interval),
  from every cell of a packed full table or from a table's frame (a quick table's sample);
- :mod:`.sources`: finding the tables (a full packed one, else a quick one) or building a quick one;
- :mod:`.grids`: a source's cells pooled into boxes with intervals, close and mixed boxes, seat groups, the
  knock strip;
- :mod:`.card`: the rule card, lines read from the top, fitted greedily to the cells of a source;
- :mod:`.lines`: lines in words for one decision each (Rumba, pass, after the passes, exchange, knock, join,
  jack turned), searched over small families: a quick table's card and the decisions a full table does not hold;
- :mod:`.decisions`: what the tables do not hold (after a Rumba call, a knock, passes, plays, a swap), asked
  with ``answer.simulation.ask`` on a sample of hands;
- :mod:`.section`: one player count from its source: grids, card, printed card, ``cards.json``;
- :mod:`.precision`: how a number known within an interval is written (never a wrong sign, ≈0, no false 100%);
- :mod:`.charts`: the colour scales, the interval charts;
- :mod:`.printcard`: the printed card (A4 and A5 PDFs, a PNG);
- :mod:`.blocks`: the page's blocks as HTML (grids with a tap panel, strips, exchange counts, cards);
- :mod:`.page`: the self-contained, phone-friendly HTML page;
- :mod:`.index`: the front page linking every report in the folder;
- :mod:`.trainer_page`: the trainer's page of graded spots;
- :mod:`.build`: the whole report.

Scores count down (negative is good), as everywhere in rumbaodds.
"""

from .build import DPI, NAMED_MODELS, make_report, model_players, parse_players
from .index import write_index
from .section import summary_lines
from .sources import Budget, ReportError

__all__ = ["DPI", "NAMED_MODELS", "Budget", "ReportError", "make_report", "model_players", "parse_players",
           "summary_lines", "write_index"]
