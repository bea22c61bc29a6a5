"""A plain, obviously correct minimax over the public State API, for checking the solvers.

It tries every legal action on clones of the state, to the end of the hand, and
scores the finished hand with a game's ``objective``: a function that reads,
from a state, what a side has gained so far in the hand being searched
(``finished`` says the hand has just ended, so the numbers must come from the
state's record of the previous hand).  ``side_of(state, seat)`` says which
side a seat plays for in this hand (by default the game's fixed sides).
Exponential, so only for small endgames; its whole point is to share no code
with the compiled searches.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine import Action, State

__all__ = ["Objective", "SideOf", "fixed_side", "minimax_values"]

Objective = Callable[[State, int, bool], int]
"""``objective(state, side, finished)``: what ``side`` has gained in the hand so far."""
SideOf = Callable[[State, int], int]


def fixed_side(state: State, seat: int) -> int:
    """The game's own side of ``seat``: the ``side_of`` of every game whose sides never change."""
    return state.game.side_of(seat)


def minimax_values(state: State, objective: Objective, side_of: SideOf = fixed_side) -> dict[Action, int]:
    """The mover's side's gain from here after each legal action: the mover's side
    maximises, every other side minimises."""
    seat = state.current_player
    assert seat is not None
    side = side_of(state, seat)
    hand = state.hand_number
    start = objective(state, side, False)

    def search(node: State) -> int:
        if node.is_over() or node.hand_number != hand:
            return objective(node, side, True)
        mover = node.current_player
        assert mover is not None
        mine = side_of(node, mover) == side
        results = []
        for action in node.legal_actions():
            child = node.clone()
            child.apply(action)
            results.append(search(child))
        return max(results) if mine else min(results)

    values: dict[Action, int] = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        values[action] = search(child) - start
    return values
