"""Perfect-information solving: the value of a position, and of each legal action.

``tt.solve(state)`` works on any state in the play phase whose cards are all
known to the caller, such as a world from ``state.sample_world(seat, rng)``.
It plays the rest of the hand out under best play by everyone, the side to
move trying to make its objective as large as it can and every other side as
small (the double-dummy convention), and returns a :class:`Solution`.

The objective depends on the game (``Solution.units`` names it):

- Tuppi rami: tricks the mover's side still takes, the trick on the table
  included (what DDS reports for bridge no-trump).
- Tuppi nolo: tricks the *other* side still takes (the mover's side wants to
  take few, so higher is better for the mover here too).
- Tuppi sooli: 1 if the mover's side wins the contract (the soloist takes no
  trick, for the soloist's side; the soloist takes one, for the rami side).
- Point games (Tute, the Marjapussi family, Huutopussi): the mover's side's
  card points and declaration points from here to the end of the hand.

Each game's adapter lives in its own module; :data:`SOLVERS` maps game names to
them.  The searches themselves are native code (``_tricks_c`` for Tuppi,
``_points_c`` for the point games), compiled by the package's build when it is
installed, so the first solve in a process is as fast as any other.
:mod:`.reference` holds a plain minimax over the State API that the tests use to
check them.

A solve can be stopped: ``solve(state, time_limit=2.0)`` raises
:class:`SolveTimeout` once two seconds have passed, ``solve(state,
node_limit=10**6)`` once the search has visited a million nodes (the same
node on every machine, under any load: a budget that keeps a bot
deterministic), and Ctrl-C interrupts a solve running in the main thread
(:class:`SolveInterrupted`, a ``KeyboardInterrupt``) within a fraction of a
second.  Either way the solver stays usable (nothing half-searched is kept), and
the error's ``values`` are the legal actions whose value was found before the
stop, each exact: a position too big to solve in full still shows those.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from ..engine import Action, IllegalActionError, State
from .reference import Objective, SideOf

if TYPE_CHECKING:
    from .points import PointSolver
    from .tricks import TrickSolver

__all__ = ["OBJECTIVES", "SOLVERS", "Solution", "SolveError", "SolveInterrupted", "SolveTimeout", "Tables",
           "made", "side_of", "solve", "table_sets"]


class SolveError(IllegalActionError):
    """A state the solver cannot work on (not in the play phase, or a game it does not know)."""


class SolveTimeout(TimeoutError):
    """A solve that reached its ``time_limit`` or ``node_limit`` before it had every value.

    A ``TimeoutError``, not a :class:`SolveError`: the state was fine, the budget was short.
    ``values`` holds the legal actions the search had solved before it stopped, each with its
    exact value (as in :attr:`Solution.values`; empty if it had solved none), so a position too
    big for the budget can still show what was found.
    """

    def __init__(self, message: str, values: Mapping[Action, int] | None = None) -> None:
        super().__init__(message)
        self.values: dict[Action, int] = dict(values or {})


class SolveInterrupted(KeyboardInterrupt):
    """Ctrl-C during a solve (a ``KeyboardInterrupt``, so it ends a program as one does), with
    ``values``: the legal actions solved before it, as :attr:`SolveTimeout.values`."""

    def __init__(self, values: Mapping[Action, int] | None = None) -> None:
        super().__init__()
        self.values: dict[Action, int] = dict(values or {})


@dataclass(frozen=True)
class Solution:
    """The value of a position under best play, and the value after each legal action.

    All values are from the point of view of ``mover``'s side and in ``units``;
    higher is always better for the mover.  ``values`` has one entry per legal
    action, in the order of ``state.legal_actions()``.
    """

    mover: int
    value: int
    values: dict[Action, int] = field(default_factory=dict)
    units: str = ""
    nodes: int = field(default=0, compare=False)
    """Search nodes the solve visited: its cost, counted the same on any machine, so a caller can
    spend a budget of them (``solve``'s ``node_limit``) over several solves.  Not part of the
    answer: the same position can cost a little more or less after other solves, whose entries
    in the table change which positions it keeps."""

    def best(self) -> list[Action]:
        """The legal actions that reach the position's value."""
        return [a for a, v in self.values.items() if v == self.value]


class Tables:
    """One set of the searches' transposition tables and stacks (a few dozen MB once used).

    A solve searches in one set and no other solve may use it meanwhile, so each set has its
    own lock and solves on the same set take turns.  Solves on different sets run in parallel
    threads: the native searches release the GIL.  :func:`solve` uses the process's first set
    (:func:`table_sets`) unless given another; a caller that solves in several threads at once
    (``pimc``'s ``threads``) gives each thread a set of its own.  A solve in several threads
    (``solve(threads=N)``) searches with a stack in each of its sets and one table: in the point
    games its first set's :meth:`shared_points` (N times a set's table, kept with the set once
    made).  The solvers are made on first
    use, so a set costs nothing until it solves.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._tricks: TrickSolver | None = None
        self._points: PointSolver | None = None
        self._shared_points: PointSolver | None = None

    @property
    def tricks(self) -> TrickSolver:
        """The no-trump search's solver (Tuppi) of this set."""
        if self._tricks is None:
            from .tricks import TrickSolver

            self._tricks = TrickSolver()
        return self._tricks

    @property
    def points(self) -> PointSolver:
        """The point games' solver of this set."""
        if self._points is None:
            from .points import PointSolver

            self._points = PointSolver()
        return self._points

    def shared_points(self, lanes: int) -> PointSolver:
        """The point solver whose table the ``lanes`` threads of one solve share when this set is
        that solve's first: ``lanes`` times the size of one set's table (rounded up to a power of
        two), so that each thread's search keeps the room it has alone (a deep search in half the
        room searched 1.6 times the nodes).  Made on first use and kept with the set."""
        bits = 19 + (lanes - 1).bit_length()
        if self._shared_points is None or self._shared_points.table_bits < bits:
            from .points import PointSolver

            self._shared_points = PointSolver(table_bits=bits)
        return self._shared_points

    @property
    def nodes(self) -> int:
        """Search nodes visited by this set's solvers (made so far) since they were made."""
        return sum(s.nodes for s in (self._tricks, self._points) if s is not None)


_SETS: list[Tables] = []
_SETS_LOCK = threading.Lock()


def table_sets(n: int) -> list[Tables]:
    """The process's first ``n`` sets of tables, made as needed (the same sets every call); the
    first is :func:`solve`'s own.  A solve's values and node count do not depend on the set it
    runs in, nor on what that set solved before."""
    if n < 1:
        raise ValueError(f"a solve needs at least one set of tables, not {n}")
    with _SETS_LOCK:
        while len(_SETS) < n:
            _SETS.append(Tables())
        return _SETS[:n]


class Solver(Protocol):
    """A game adapter: solves one of its game's states in ``sets`` of tables (one: in this
    thread; several: a thread each, searching a share of the moves) by a ``time.monotonic()``
    deadline (or none) within ``max_nodes`` search nodes (0: no limit; each thread's search),
    raising ``TimeoutError`` at either (or ``KeyboardInterrupt`` at Ctrl-C), having first put
    the legal actions solved by then into ``found``."""

    def __call__(self, state: State, sets: Sequence[Tables], deadline: float | None = None,
                 max_nodes: int = 0, found: dict[Action, int] | None = None) -> Solution: ...


SOLVERS: dict[str, Solver] = {}
"""Game name -> the function that solves its states.  Filled by the game adapters below."""

OBJECTIVES: dict[str, tuple[Objective, SideOf]] = {}
"""Game name -> ``(objective, side_of)``: the solver's units and sides read from the State API
alone (see :mod:`.reference`).  Filled by the game adapters, next to their solvers.

A solver's value counts from the position solved; adding :func:`made` at that position counts
it from the start of the hand, so values of different positions of one hand compare (what a
search over several positions, such as :mod:`tricktaker.bots.alphamu`, needs), and
``reference.minimax_values`` with these two checks the solver."""


def side_of(state: State, seat: int) -> int:
    """The side ``seat`` plays for in the solver's values of ``state`` (the game's sides, except
    where the solver counts others: three-player Huutopussi's declarer against both defenders)."""
    return OBJECTIVES[state.game.name][1](state, seat)


def made(state: State, side: int, hand_number: int) -> int:
    """What ``side`` has made so far of the solver's objective in hand ``hand_number``, which may
    have ended in ``state``: with the solver's value of ``state`` added, the side's value counted
    from the start of that hand."""
    objective = OBJECTIVES[state.game.name][0]
    return objective(state, side, state.is_over() or state.hand_number != hand_number)


def solve(state: State, time_limit: float | None = None, node_limit: int | None = None,
          tables: Tables | None = None, threads: int = 1) -> Solution:
    """The value of ``state`` for the side to move, and of each of its legal actions.

    Raises :class:`SolveError` (a ``ValueError``) for a state outside the play
    phase, a finished match, or a game without a solver, and
    :class:`SolveTimeout` when ``time_limit`` seconds pass first (the time spent
    waiting for another thread's solve counts) or the search visits ``node_limit``
    nodes first (a node is one move tried by the search, counted the same on any
    machine); either way its ``values`` are the actions solved by then, each exact, and
    Ctrl-C raises :class:`SolveInterrupted` (a ``KeyboardInterrupt``) with the same.  Safe to
    call from several threads: solves in the same ``tables`` (by default
    the process's first set, :func:`table_sets`) take turns, solves in different sets run in
    parallel (see :class:`Tables`).

    ``threads`` above 1 searches the position in that many threads at once, each its share of
    the legal actions in a set of tables of its own (``tables`` or the process's first, then
    the next ones of :func:`table_sets`): the same values, sooner on a machine with the cores
    to spare, and a node count that depends on the number of threads.  A node limit counts one
    search's nodes, so it takes one thread.
    """
    from .parallel import MAX_THREADS

    if time_limit is not None and not time_limit > 0:  # (NaN is refused too)
        raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
    if node_limit is not None and (isinstance(node_limit, bool) or not isinstance(node_limit, int)
                                   or node_limit < 1):
        raise ValueError(f"node_limit must be a positive whole number of nodes, not {node_limit!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {threads!r}")
    if threads > 1 and node_limit is not None:
        raise ValueError("a node_limit counts one search's nodes: give it with threads=1 "
                         "(a time_limit bounds a solve in several threads)")
    deadline = None if time_limit is None else time.monotonic() + time_limit
    name = state.game.name
    solver = SOLVERS.get(name)
    if solver is None:
        raise SolveError(f"no solver for {name!r} (solvers: {', '.join(sorted(SOLVERS))})")
    if state.is_over() or state.current_player is None:
        raise SolveError("the match is over: nothing to solve")
    sets = _sets_for(tables, threads)
    held = _hold(sets, deadline, time_limit)
    found: dict[Action, int] = {}
    try:
        return solver(state, sets, deadline=deadline, max_nodes=node_limit or 0, found=found)
    except TimeoutError:
        if deadline is not None and time.monotonic() >= deadline:
            raise SolveTimeout(f"the solve did not finish within its time limit of {time_limit} s",
                               found) from None
        raise SolveTimeout(f"the solve did not finish within its node limit of {node_limit} nodes",
                           found) from None
    except KeyboardInterrupt:
        raise SolveInterrupted(found) from None
    finally:
        for t in held:
            t.lock.release()


def _sets_for(tables: Tables | None, threads: int) -> list[Tables]:
    """The sets of tables a solve in ``threads`` threads searches in: ``tables`` (by default the
    process's first set), then the next of the process's sets."""
    first = tables if tables is not None else table_sets(1)[0]
    others = [t for t in table_sets(threads + 1) if t is not first] if threads > 1 else []
    return [first, *others[:threads - 1]]


def _hold(sets: list[Tables], deadline: float | None, time_limit: float | None) -> list[Tables]:
    """Take the locks of ``sets``, always in the process's order of sets (so two solves that
    want some of the same sets cannot each hold one the other waits for); raise
    :class:`SolveTimeout` if ``deadline`` passes first."""
    order = sets if len(sets) == 1 else sorted(sets, key=lambda t: next((i for i, s in enumerate(_SETS)
                                                                          if s is t), -1))
    held: list[Tables] = []
    for t in order:
        if deadline is None:
            t.lock.acquire()
        elif not t.lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
            for h in held:
                h.lock.release()
            raise SolveTimeout(f"no time left to solve: another solve held the solver for {time_limit} s")
        held.append(t)
    return held


def _register() -> None:
    from . import (
        marriages,  # noqa: F401
        tuppi,  # noqa: F401  (each adapter adds itself to SOLVERS)
        tute,  # noqa: F401
    )


_register()
