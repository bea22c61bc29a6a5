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
them.  :mod:`.reference` holds a plain minimax over the State API that the
tests use to check the compiled searches.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from ..engine import Action, IllegalActionError, State

__all__ = ["SOLVERS", "Solution", "SolveError", "solve"]


class SolveError(IllegalActionError):
    """A state the solver cannot work on (not in the play phase, or a game it does not know)."""


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

    def best(self) -> list[Action]:
        """The legal actions that reach the position's value."""
        return [a for a, v in self.values.items() if v == self.value]


_ONE_AT_A_TIME = threading.Lock()
"""The solvers keep one transposition table and search stack per process, so one solve runs at
a time: a front end warms the solver up in a background thread while its bots already play,
and two searches sharing those buffers would read each other's positions."""

Solver = Callable[[State], Solution]
SOLVERS: dict[str, Solver] = {}
"""Game name -> the function that solves its states.  Filled by the game adapters below."""


def solve(state: State) -> Solution:
    """The value of ``state`` for the side to move, and of each of its legal actions.

    Raises :class:`SolveError` (a ``ValueError``) for a state outside the play
    phase, a finished match, or a game without a solver.  Safe to call from
    several threads: they take turns (see ``_ONE_AT_A_TIME``).
    """
    name = state.game.name
    solver = SOLVERS.get(name)
    if solver is None:
        raise SolveError(f"no solver for {name!r} (solvers: {', '.join(sorted(SOLVERS))})")
    if state.is_over() or state.current_player is None:
        raise SolveError("the match is over: nothing to solve")
    with _ONE_AT_A_TIME:
        return solver(state)


def _register() -> None:
    from . import (
        marriages,  # noqa: F401
        tuppi,  # noqa: F401  (each adapter adds itself to SOLVERS)
        tute,  # noqa: F401
    )


_register()
