"""Solving on several cores: the worlds of one decision, with the answer of one core, and the
moves of one position.

A PIMC decision solves a couple of dozen worlds of one position.  The native searches release
the GIL, so solves in different sets of tables (:class:`~tricktaker.solver.Tables`) run on
different cores at once.  :func:`solve_worlds` gives exactly the solutions that solving the
worlds one after another would give, whatever the number of threads, the machine or its load
(but for a time limit, which no machine meets the same way twice):

- a solve's values are exact, and its node count depends on its position alone, not on the
  set of tables nor on what that set solved before (each solve starts a new generation of its
  table and reads no older entry; the searches keep no move from an earlier call);
- so a node budget is spent as one thread would spend it: each world is solved with what the
  worlds before it in order left at most, and afterwards the worlds are walked in order with
  their node counts, stopping where one thread would have stopped.

The first world is solved alone.  When it was small (fewer than :data:`PARALLEL_NODES` search
nodes) the rest are solved in this thread too: a small solve's time is mostly Python, which
runs in one thread at a time.  Otherwise ``threads`` workers take the other worlds in order,
each in a set of tables of its own; at most one world per worker is solved past the point where
the budget turns out to be spent.

:func:`split_moves` solves one position in several threads (``solve(state, threads=N)``): the
kernels' searches share a count of the position's moves taken, so each move is searched by one
of them, and the first to fail calls the others off.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager
from typing import Protocol, TypeVar

import numpy as np

from .. import solver as _package
from ..engine import Action, State
from . import Solution, SolveTimeout, Tables, table_sets

__all__ = ["MAX_THREADS", "PARALLEL_NODES", "fits", "map_in_threads", "solve_worlds", "split_moves",
           "table_generation"]

T = TypeVar("T")
R = TypeVar("R")

PARALLEL_NODES = 20_000
"""The search nodes a decision's first world must take before the others are spread over the
threads: about 2 ms of search on this project's 2-core machine, above the cost of handing work
to another thread."""

MAX_THREADS = 64
"""The most threads a call may use."""

POLL_NODES = 1024
"""How often, in nodes, a search looks at its node limit (the kernels' ``TT_POLL_NODES``)."""

# (solves go through ``_package.solve``, looked up at each call, so a spy on
# ``tricktaker.solver.solve`` sees them all)
_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    """The process's helper threads, for the workers after the first (which runs in the caller)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(MAX_THREADS - 1, thread_name_prefix="tricktaker-solve")
        return _POOL


def fits(nodes: int, limit: int | None) -> bool:
    """Whether a solve that visits ``nodes`` nodes finishes under ``node_limit=limit``: a search
    looks at its count every :data:`POLL_NODES` nodes and stops at the first look that finds the
    limit reached."""
    return limit is None or nodes // POLL_NODES * POLL_NODES < limit


def _time_left(deadline: float | None) -> float | None:
    """Seconds from now to ``deadline`` (a ``time.perf_counter`` instant), at least a millisecond."""
    return None if deadline is None else max(deadline - time.perf_counter(), 1e-3)


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() > deadline


class _Work:
    """The distinct worlds of one call and what has been learnt of them, shared by its workers."""

    def __init__(self, worlds: list[State], node_limit: int | None, deadline: float | None) -> None:
        self.worlds = worlds
        self.node_limit = node_limit
        self.deadline = deadline
        self.results: list[Solution | None] = [None] * len(worlds)
        self.done = [False] * len(worlds)
        self.next = 0
        self.prefix = 0
        """How many worlds from the first are done and solved, and ``spent`` their nodes."""
        self.spent = 0
        self.stopped = False
        self.spent_after: int | None = None
        """The world after which the node budget was spent, if it was."""
        self.lock = threading.Lock()

    def take(self) -> tuple[int, int | None] | None:
        """The next world to solve and its node limit (what the worlds before it left at most),
        or None once there is nothing more worth solving."""
        with self.lock:
            if self.stopped or self.next >= len(self.worlds) or _past(self.deadline):
                return None
            i = self.next
            self.next += 1
            return i, self._left()

    def finish(self, i: int, solution: Solution | None) -> None:
        """World ``i`` solved (None: out of time or nodes); work out where one thread would stop."""
        with self.lock:
            self.results[i] = solution
            self.done[i] = True
            while self.prefix < len(self.worlds) and self.done[self.prefix]:
                solved = self.results[self.prefix]
                if solved is None or not fits(solved.nodes, self._left()):
                    self.stopped = True
                    return
                self.spent += solved.nodes
                self.prefix += 1
                left = self._left()
                if left is not None and left < 1:
                    self.stopped = True
                    self.spent_after = self.prefix - 1
                    return

    def stop(self) -> None:
        with self.lock:
            self.stopped = True

    def _left(self) -> int | None:
        return None if self.node_limit is None else self.node_limit - self.spent

    def step(self, tables: Tables) -> bool:
        """Solve the next world worth solving in ``tables``; False when there is none."""
        job = self.take()
        if job is None:
            return False
        i, limit = job
        solution: Solution | None
        try:
            solution = _package.solve(self.worlds[i], time_limit=_time_left(self.deadline), node_limit=limit,
                                      tables=tables)
        except SolveTimeout:
            solution = None
        self.finish(i, solution)
        return True

    def run(self, tables: Tables) -> None:
        """A worker: solve worlds in ``tables`` until there is nothing more worth solving."""
        while self.step(tables):
            pass


def _run_workers(run: Callable[[Tables], None], lanes: list[Tables], stop: Callable[[], None]) -> None:
    """``run`` once in each of ``lanes``: the first in this thread (where Ctrl-C reaches a
    search), the others in helper threads; on Ctrl-C or an error, ``stop`` is called, so that
    the others end after the solve they are in, and it is raised here."""
    futures = [_pool().submit(run, tables) for tables in lanes[1:]]
    try:
        run(lanes[0])
        for future in futures:
            future.result()
    except BaseException:
        stop()
        raise


def map_in_threads(fn: Callable[[T, Tables], R], items: Sequence[T], threads: int = 1) -> list[R]:
    """``fn(item, tables)`` for each of ``items``, in order, by ``threads`` workers that take the
    items in turn, each solving in a set of tables of its own: for solves that do not depend on
    one another, each with its own limits (the judgements of a hand's analysis).  Results do
    not depend on the number of threads as long as ``fn``'s do not depend on time."""
    if not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be 1 to {MAX_THREADS}, not {threads}")
    results: dict[int, R] = {}
    lock = threading.Lock()
    cursor = [0]

    def run(tables: Tables) -> None:
        while True:
            with lock:
                i = cursor[0]
                if i >= len(items):
                    return
                cursor[0] += 1
            results[i] = fn(items[i], tables)

    def stop() -> None:
        with lock:
            cursor[0] = len(items)

    _run_workers(run, table_sets(min(threads, max(1, len(items)))), stop)
    return [results[i] for i in range(len(items))]  # every item was done, or this raised


def solve_worlds(worlds: Sequence[State], threads: int = 1, deadline: float | None = None,
                 node_limit: int | None = None) -> list[Solution | None]:
    """The solution of each of ``worlds``, in order, as one thread solving them in turn would
    find them (None: not solved).

    A world given more than once (the same object) is solved once.  ``deadline`` (a
    ``time.perf_counter`` instant) and ``node_limit`` (search nodes in all, None: no limit) bound
    the call as they would bound one thread: the worlds are taken in order, each solve gets what
    the ones before it left, and the first that runs out of time or nodes, or leaves no time or
    nodes, ends the solved worlds.
    """
    if not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be 1 to {MAX_THREADS}, not {threads}")
    first: dict[int, int] = {}  # a world's id -> its index among the distinct worlds
    distinct: list[State] = []
    for world in worlds:
        if id(world) not in first:
            first[id(world)] = len(distinct)
            distinct.append(world)
    work = _Work(distinct, node_limit, deadline)
    lanes = table_sets(threads)
    work.step(lanes[0])  # the first world alone: is the decision big enough to share?
    first_solved = work.results[0] if distinct else None
    if first_solved is not None and first_solved.nodes < PARALLEL_NODES:
        lanes = lanes[:1]
    _run_workers(work.run, lanes, work.stop)
    out: list[Solution | None] = []
    for world in worlds:  # as one thread would have counted them: it stops at the budget's end
        j = first[id(world)]
        if j >= work.prefix:
            break
        out.append(work.results[j])
        if j == work.spent_after:
            break
    return out + [None] * (len(worlds) - len(out))


class _Counted(Protocol):
    @property
    def nodes(self) -> int: ...


S = TypeVar("S", bound=_Counted)


@contextmanager
def table_generation(stats: np.ndarray, index: int, generation: int) -> Iterator[None]:
    """``generation`` in ``stats[index]``, where a kernel reads its table's generation, for one
    search call.  A lane of :func:`split_moves` that searches the first lane's table must search
    with that table's generation; its solver's own count comes back afterwards, even after an
    error, since it must never go back (the old entries of the solver's own table would then
    pass for new ones)."""
    own = int(stats[index])
    stats[index] = generation
    try:
        yield
    finally:
        stats[index] = own


def split_moves(solvers: Sequence[S], search: Callable[[S, np.ndarray | None], dict[int, int]],
                actions: Callable[[dict[int, int]], dict[Action, int]],
                found: dict[Action, int] | None = None) -> tuple[dict[Action, int], int]:
    """One position's action values, searched by ``solvers`` (each of its own set of tables) in a
    thread each at once, and the search nodes they cost: ``search(solver, share)`` in each lane
    (the first in this thread, where Ctrl-C reaches a search) gives move values by the kernel's
    codes, merged and turned into the values of actions by ``actions``.

    The lanes' searches share ``share``, an int64 array (the kernels' ``tt_share``): each
    walks the position's moves in the same order and searches those it takes from the shared
    count, each with the moves equivalent to it, so every move's value comes from exactly one
    lane and a lane that finishes early takes more.  The array also holds the spin locks that
    lanes searching one transposition table together take around its entries (the first lane's
    table, in both kernels: ``points.solution``, ``tuppi.solve_tuppi``).  The first lane to fail (out of time,
    Ctrl-C, an error) calls the others off through the array's first item; this returns, or
    raises that first failure, only once every lane has stopped, so no set of tables is still in
    use.  Before it raises, ``found`` (if given) gets the values every lane had found (a stopped
    kernel search gives them as its error's ``found``): each exact, so a solve that ran out of
    time can still show them.  One solver searches every move with no array.
    """
    from . import _points

    start = sum(solver.nodes for solver in solvers)
    threads = len(solvers)
    share = np.zeros(_points.TT_SHARE_LOCKED_SIZE, dtype=np.int64) if threads > 1 else None
    results: list[dict[int, int]] = [{} for _ in range(threads)]
    failures: list[BaseException] = []
    lock = threading.Lock()

    def run(lane: int) -> None:
        try:
            results[lane] = search(solvers[lane], share)
        except BaseException as exc:
            results[lane] = dict(getattr(exc, "found", {}))
            with lock:
                if not failures:  # the first failure; the others' follow from calling them off
                    failures.append(exc)
                if share is not None:
                    share[0] = 1

    futures = [_pool().submit(run, lane) for lane in range(1, threads)]
    try:
        run(0)
        wait(futures)
    except BaseException:  # Ctrl-C outside a search: call the others off, and wait for them
        if share is not None:
            share[0] = 1
        wait(futures)
        raise
    merged: dict[int, int] = {}
    for values in results:
        merged.update(values)
    if failures:
        if found is not None:
            found.update(actions(merged))
        raise failures[0]
    return actions(merged), sum(solver.nodes for solver in solvers) - start
