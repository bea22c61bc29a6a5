"""Bots think outside the event loop, so one slow search never stalls other tables.

A bot's decision runs in a worker process (by default) or thread.  A bot may
only see a :class:`~tricktaker.bots.View`, and a view does not cross a process
boundary (its sampler is a closure), so what is sent is the table's record;
the worker rebuilds the state and hands the bot ``view_of(state, seat)``.  The
worker is server code, like the referee in the arena: the bot itself still
sees only its seat's view.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

__all__ = ["BotPool", "decide"]


def decide(record: str, seat: int, spec: str, seed: int, seconds: float | None = None) -> str:
    """The canonical text of the action the bot ``spec`` chooses for ``seat`` in ``record``,
    in about ``seconds`` at most when the bot takes a time budget and the spec sets none.

    Runs in a worker: imports are local so that a spawned process pays for
    them once, on its first decision.
    """
    from .. import load
    from ..bots import make_bot, view_of

    state = load(record)
    bot = make_bot(spec, seed=seed, **time_budget(spec, seconds))
    return bot.act(view_of(state, seat)).text


def time_budget(spec: str, seconds: float | None) -> dict[str, float]:
    """``{"time": seconds}`` for a search bot whose spec gives no time of its own, else nothing.

    A person at the table should not wait on a rare search that runs long (an
    eight-card Huutopussi endgame solved in every world can take 15 s); a spec
    that names its own ``time`` keeps it.
    """
    from ..bots import bot_options, parse_bot

    name, options = parse_bot(spec)
    if seconds is None or "time" in options or "time" not in bot_options(name):
        return {}
    return {"time": seconds}


def _warm() -> None:
    """Solve a small endgame of a trick game and of a point game: both compiled searches load."""
    from .. import new_game
    from ..bots.pimc import warm_up

    for name in ("tuppi", "tute"):
        warm_up(new_game(name))


class BotPool:
    """``workers`` processes (``0``: one thread in this process, for tests and small machines)."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = workers
        self.executor: Executor
        if workers > 0:
            self.executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        else:
            self.executor = ThreadPoolExecutor(1, thread_name_prefix="tricktaker-bot")

    async def decide(self, record: str, seat: int, spec: str, seed: int, seconds: float | None) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, decide, record, seat, spec, seed, seconds)

    def warm_up(self) -> None:
        """Load the solver in the workers in the background (one job per worker; a fresh
        install compiles it, which takes tens of seconds, and later starts load it from
        Numba's cache).  Decisions queue behind it meanwhile."""
        for _ in range(max(1, self.workers)):
            self.executor.submit(_warm)

    def close(self) -> None:
        """Stop at once.  A bot cut off mid-search loses nothing: its move was never
        applied, and after a restart the bot whose turn it is decides again."""
        # ProcessPoolExecutor has no public way to stop a running task (Python 3.14
        # adds terminate_workers); without this a search or warm-up delays exit.
        processes = list((getattr(self.executor, "_processes", None) or {}).values())
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
