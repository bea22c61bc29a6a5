"""After each hand, what each card cost; on practice tables, a hint on demand.

*Reviews.* When a hand ends, the table's record is sent to a process of its own
(not the bots' workers, so no bot waits behind an analysis) that runs
:func:`tricktaker.analysis.analyse_hand` on the true deal with a time limit
per solve.  The answer is broadcast as a ``review`` message and kept with the
table; a page that joins later gets the reviews done so far, and the hands a
restart forgot are reviewed again when someone joins.  Only what was public
at the hand's end is solved and sent (``analyse_hand(only_public=True)``,
``to_json(public_only=True)``: docs/solver.md, "What a seat may be told"), so
every receiver, spectators included, gets the same message.

*Hints.* On a table created with ``practice``, the seat to move may ask what
the strongest bot (:data:`HINT_BOT`) would play.  The bot decides in the
bots' worker pool from ``view_of(state, seat)`` (:func:`.botpool.decide`),
exactly as if it sat in that seat: never from the true state.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from .botpool import _stop, _watch_parent

__all__ = ["HINT_BOT", "REVIEW_SOLVE_TIME", "Reviewer", "review_hand"]

log = logging.getLogger("tricktaker.server")

HINT_BOT = "pimc"
"""The bot whose choice a hint tells (the strongest, docs/bots.md), within the server's bot limits."""

REVIEW_SOLVE_TIME = 1.0
"""Seconds one solve of a review may take; a slower position is sent as ``timeout``."""


def review_hand(record: str, index: int, solve_time: float = REVIEW_SOLVE_TIME) -> dict[str, Any]:
    """The ``review`` message of hand ``index`` of ``record``: only what was public at its end.

    Runs in the reviewer's process: imports are local so that a spawned process pays for them
    once.  The per-card values are left out (the cost and the best cards are what the page
    shows), which keeps the message small.
    """
    from ..analysis import analyse_hand

    report = analyse_hand(record, index, time_limit=solve_time, only_public=True).to_json(public_only=True)
    for decision in report["decisions"]:
        decision.pop("values", None)
    return {"type": "review", **report, "hand": index + 1}  # the page counts hands from 1


class Reviewer:
    """Reviews hands one at a time in a process of their own (``workers=0``: a thread, for tests)."""

    def __init__(self, workers: int = 1, solve_time: float = REVIEW_SOLVE_TIME) -> None:
        self.solve_time = solve_time
        self.executor: Executor
        if workers > 0:
            self.executor = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                                initializer=_watch_parent, initargs=(os.getpid(),))
        else:
            self.executor = ThreadPoolExecutor(1, thread_name_prefix="tricktaker-review")

    async def review(self, record: str, index: int) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, review_hand, record, index, self.solve_time)

    def close(self) -> None:
        _stop(self.executor)
