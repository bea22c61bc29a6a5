"""Bots think outside the event loop, so one slow search never stalls other tables.

A bot's decision runs in a worker process (by default) or thread.  A bot may
only see a :class:`~tricktaker.bots.View`, and a view does not cross a process
boundary (its sampler is a closure), so what is sent is the table's record;
the worker rebuilds the state and hands the bot ``view_of(state, seat)``.  The
worker is server code, like the referee in the arena: the bot itself still
sees only its seat's view.

Three rules keep one table's bot from hurting the others (docs/server.md, Bots):

- A bot spec from a client is checked and capped (:func:`check_spec`): its
  ``time``, ``worlds`` and ``iterations`` may not exceed the operator's
  :class:`BotLimits`, and every search is given the server's time ceiling
  whatever its spec says (:func:`capped_options`), so a table stored before
  the limits existed cannot stall the workers either.
- Quick bots (``random``, ``rules``) decide in a thread of the server: they
  take milliseconds and never queue behind a search or a worker's warm-up.
- Worker processes watch the server's pid and exit when it is gone, even
  after a ``kill -9`` that gave the server no chance to stop them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

__all__ = ["QUICK_BOTS", "BotLimits", "BotPool", "BotSpecError", "capped_options", "check_spec",
           "decide", "seatable"]

log = logging.getLogger("tricktaker.server")

QUICK_BOTS = frozenset({"random", "rules"})
"""Bots that decide in milliseconds: they run in a thread of the server, never behind a search."""

FALLBACK_BOT = "rules"
"""Plays a move for a bot that failed or ran far over its time, so no table is ever stuck."""

PARENT_POLL = 0.5
"""Seconds between a worker's checks that the server that started it is still alive."""

OVERRUN_MARGIN = 10.0
"""Seconds beyond three times its time budget a search may take before it is given up on."""


@dataclass(frozen=True)
class BotLimits:
    """The operator's ceilings on a search bot (``serve --bot-time/--bot-worlds/--bot-iterations``).

    ``time`` is both the most a spec may ask for and the budget every search
    gets: a person at the table should not wait on a rare search that runs
    long (an eight-card Huutopussi endgame solved in every world can take
    15 s).  ``worlds`` and ``iterations`` bound the budgets a spec may name.
    """

    time: float = 3.0
    worlds: int = 1000
    iterations: int = 100_000
    candidates: int = 64
    """The most actions a search may value (``max_candidates``): each one costs a playout per world."""
    threads: int = 1
    """The threads a decision may solve its worlds in (``pimc``'s ``threads``, 2 by default): the
    workers already decide side by side, a process each, so one table's bot taking a second
    core would slow another table's."""


class BotSpecError(ValueError):
    """A bot spec the server refuses: the message names the seat's problem."""


def check_spec(spec: Any, game: str, limits: BotLimits) -> str:
    """The spec, stripped, if this server will run it for ``game``; else :class:`BotSpecError`.

    ``parse_bot`` checks types and ranges (``pimc:worlds=abc``, ``pimc:time=-1``
    would fail on every move); then come the operator's caps, tighter than the
    bots' own ranges (``pimc:time=30`` against ``--bot-time 3``,
    ``pimc:solve_cards=12`` against the game's size the solver affords, ``stock_cards`` likewise
    while a stock lasts), and
    the bot is built once, which catches whatever else its constructor refuses.
    """
    from ..bots import make_bot, parse_bot
    from ..bots.pimc import SOLVE_CARDS, STOCK_SOLVE_CARDS, largest_setting

    if not isinstance(spec, str) or not spec.strip():
        raise BotSpecError("a bot seat names its bot")
    text: str = spec.strip()
    try:
        name, options = parse_bot(text)
    except ValueError as exc:
        raise BotSpecError(str(exc)) from None
    if not seatable(name):
        raise BotSpecError(f"{name} sees every card: it is a yardstick for the arena, not a player")
    caps: dict[str, float] = {"time": limits.time, "worlds": limits.worlds,
                              "iterations": limits.iterations, "max_candidates": limits.candidates,
                              "solve_cards": largest_setting(SOLVE_CARDS, game),
                              "stock_cards": largest_setting(STOCK_SOLVE_CARDS, game)}
    for key, cap in caps.items():
        if isinstance(options.get(key), (int, float)) and options[key] > cap:
            unit = " s" if key == "time" else ""
            raise BotSpecError(f"{name}: {key}={options[key]:g} is over this server's limit of {cap:g}{unit}")
    try:
        make_bot(text, seed=0)
    except ValueError as exc:
        raise BotSpecError(str(exc)) from None
    return text


def seatable(name: str) -> bool:
    """Whether bot ``name`` plays from a seat's view, as every bot at a table must: an
    :class:`~tricktaker.bots.base.Oracle` needs the whole state, so only the arena seats it."""
    from ..bots import BOTS
    from ..bots.base import Oracle

    factory = BOTS[name]
    return not (isinstance(factory, type) and issubclass(factory, Oracle))


def capped_options(name: str, options: dict[str, Any], limits: BotLimits) -> dict[str, Any]:
    """``options`` within ``limits``, and a time budget for every bot that takes one.

    Applied to every decision, not only to new specs: a table stored by an
    older server (or with different limits) is held to today's limits.
    """
    from ..bots import bot_options

    takes = bot_options(name)
    out = dict(options)
    for key, most in (("time", limits.time), ("threads", limits.threads)):
        if key in takes:
            asked = out.get(key)
            out[key] = most if not isinstance(asked, (int, float)) else min(asked, most)
    for key, cap in (("worlds", limits.worlds), ("iterations", limits.iterations),
                     ("max_candidates", limits.candidates)):
        if isinstance(out.get(key), int):
            out[key] = min(out[key], cap)
    return out


def decide(record: str, seat: int, spec: str, seed: int, limits: BotLimits) -> str:
    """The canonical text of the action the bot ``spec`` chooses for ``seat`` in ``record``,
    within ``limits`` whatever the spec asks.

    Runs in a worker: imports are local so that a spawned process pays for
    them once, on its first decision.
    """
    from .. import load
    from ..bots import BOTS, parse_bot, view_of

    state = load(record)
    name, options = parse_bot(spec)
    bot = BOTS[name](seed=seed, **capped_options(name, options, limits))
    return bot.act(view_of(state, seat)).text


def _warm() -> None:
    """Solve a small endgame of a trick game and of a point game, so the worker has loaded
    the solver and the bots before a person waits on its first decision."""
    from .. import new_game
    from ..bots.pimc import warm_up

    for name in ("tuppi", "tute"):
        warm_up(new_game(name))


def _watch_parent(parent: int) -> None:
    """In a worker: exit as soon as the server that started it is gone.

    A server killed with SIGKILL cannot stop its workers; without this each
    would wait for work forever (and hold its memory, and keep
    multiprocessing's resource tracker alive).  When the parent dies the
    worker is re-parented, so ``getppid`` changes; polling it works on every
    POSIX system and needs nothing from the server.
    """
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(0)

    threading.Thread(target=watch, name="tricktaker-parent-watch", daemon=True).start()


class BotPool:
    """Search bots in ``workers`` processes (``0``: one thread of this process, for tests and
    small machines); quick bots and fallback moves in a thread of their own."""

    def __init__(self, workers: int = 2, limits: BotLimits | None = None) -> None:
        self.workers = workers
        self.limits = limits or BotLimits()
        self.quick = ThreadPoolExecutor(1, thread_name_prefix="tricktaker-quick-bot")
        self.executor: Executor = self._new_executor()
        self.warming = 0
        """Warm-up jobs not yet done: a search decision asked for meanwhile waits behind one."""
        self.in_flight = 0
        """Search decisions sent to the workers and not yet answered (queued or running)."""

    def _new_executor(self) -> Executor:
        if self.workers > 0:
            return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                       initializer=_watch_parent, initargs=(os.getpid(),))
        return ThreadPoolExecutor(1, thread_name_prefix="tricktaker-bot")

    def is_quick(self, spec: str) -> bool:
        return spec.split(":", 1)[0].strip().lower() in QUICK_BOTS

    def hard_limit(self, ahead: int = 0) -> float:
        """Seconds after which a search's answer is no longer awaited, when ``ahead``
        searches were queued or running before it.  A bot is given ``limits.time``, so
        one that takes several times that is stuck; a search queued behind others may
        wait for them, each bounded the same way, and only its own share counts."""
        return (3 * self.limits.time + OVERRUN_MARGIN) * (ahead // max(1, self.workers) + 1)

    async def decide(self, record: str, seat: int, spec: str, seed: int) -> str:
        """The bot's action, or the fallback bot's when the bot fails or overruns (logged).

        A failure must never leave a table stuck: a spec that no longer works
        (stored before the checks existed), a worker that died, or a search
        that does not come back in :meth:`hard_limit` seconds is replaced, for
        this move only, by :data:`FALLBACK_BOT` in the quick thread.
        """
        loop = asyncio.get_running_loop()
        limits = self.limits
        if self.is_quick(spec):
            with contextlib.suppress(Exception):
                return await loop.run_in_executor(self.quick, decide, record, seat, spec, seed, limits)
            log.warning("bot %r failed at seat %d; %s plays this move", spec, seat, FALLBACK_BOT)
            return await loop.run_in_executor(self.quick, decide, record, seat, FALLBACK_BOT, seed, limits)
        executor = self.executor
        ahead = self.in_flight + self.warming
        self.in_flight += 1
        try:
            future = loop.run_in_executor(executor, decide, record, seat, spec, seed, limits)
            return await asyncio.wait_for(future, self.hard_limit(ahead))
        except asyncio.CancelledError:
            raise
        except TimeoutError:
            # A warm-up may take minutes on a fresh install (compiling): restarting then
            # would only start it again, so the workers are left to finish it.
            restart = not self.warming
            log.error("bot %r at seat %d took over %.0f s; %s plays this move%s", spec, seat,
                      self.hard_limit(ahead), FALLBACK_BOT, " and the workers restart" if restart else "")
            if restart:
                self._restart(executor)
        except BrokenProcessPool:
            log.error("a bot worker died; %s plays this move and the workers restart", FALLBACK_BOT)
            self._restart(executor)
        except Exception as exc:
            log.error("bot %r at seat %d failed (%s: %s); %s plays this move",
                      spec, seat, type(exc).__name__, exc, FALLBACK_BOT)
        finally:
            self.in_flight -= 1
        return await loop.run_in_executor(self.quick, decide, record, seat, FALLBACK_BOT, seed, limits)

    def warm_up(self) -> None:
        """Load the solver in the workers in the background (one job per worker).  Only
        search bots share those workers; quick bots never wait for it."""
        for _ in range(max(1, self.workers)):
            self.warming += 1
            self.executor.submit(_warm).add_done_callback(self._warmed)

    def _warmed(self, _future: Any) -> None:
        self.warming = max(0, self.warming - 1)

    def _restart(self, broken: Executor) -> None:
        """Replace the search executor (once, however many decisions saw it fail)."""
        if self.executor is not broken:
            return
        self.executor = self._new_executor()
        self.warming = 0
        _stop(broken)

    def close(self) -> None:
        """Stop at once.  A bot cut off mid-search loses nothing: its move was never
        applied, and after a restart the bot whose turn it is decides again."""
        _stop(self.executor)
        self.quick.shutdown(wait=False, cancel_futures=True)


def _stop(executor: Executor) -> None:
    # ProcessPoolExecutor has no public way to stop a running task (Python 3.14
    # adds terminate_workers); without this a search or warm-up delays exit.
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
