"""The arena: bots play many deals against each other, and the results say who is stronger.

::

    from tricktaker.arena import ArenaConfig, run_deals, summarise
    config = ArenaConfig("tuppi", bots=("rules", "random"), deals=200)
    summary = summarise(config.bots, run_deals(config, workers=2), config.matches)

``tricktaker arena GAME --bots A,B --deals N`` is the same from the command
line, with a progress bar, a table, ``--json`` and ``--plot``.  See
docs/bots.md for the method (duplicate deals, intervals, ratings).
"""

from .deals import ArenaConfig, DealResult, Play, lineups, play_deal
from .journal import Journal, JournalError
from .report import check_plotting, print_summary, to_json, write_plot
from .runner import run_deals
from .stats import DDLoss, Interval, PairStats, Summary, summarise

__all__ = ["ArenaConfig", "DDLoss", "DealResult", "Interval", "Journal", "JournalError", "PairStats", "Play",
           "Summary", "lineups",
           "play_deal", "check_plotting", "print_summary", "run_deals", "summarise", "to_json", "write_plot"]
