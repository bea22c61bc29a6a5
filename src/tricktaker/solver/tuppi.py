"""Tuppi's play as a no-trump trick-count problem for :class:`.tricks.TrickSolver`.

- **Rami**: the mover's side maximises its own tricks; the value is the tricks
  it still takes, the trick on the table included.  This is bridge no-trump
  double-dummy play, the question DDS answers.
- **Nolo**: every side wants few tricks.  The value is the tricks the *other*
  side still takes, which the mover's side maximises.
- **Sooli**: three play (the soloist's partner sits out), aces rank lowest,
  and the soloist's first trick ends the hand.  The value is 1 if the mover's
  side wins the contract, else 0.

The hand is played to its last trick: ``early_end`` only stops a hand whose
outcome is certain, and the solver answers how many tricks best play takes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import Action, State
from . import OBJECTIVES, SOLVERS, Solution, SolveError, Tables
from .parallel import split_moves
from .reference import fixed_side
from .tricks import TrickPosition

__all__ = ["objective", "position", "solve_tuppi"]

ACE, LOW_ACE = 14, 1
_CLOCKWISE = tuple(tuple((lead + i) % 4 for i in range(4)) for lead in range(4))
_SOOLI_ORDERS = tuple(tuple((lead, (lead + 2) % 4, soloist) for lead in range(4)) for soloist in range(4))
"""Each soloist's trick orders: a rami-side leader, its partner, then the soloist (the soloist's
partner sits out; the soloist's own lead never comes up, since its first trick decides)."""


def _low_aces(mask: int) -> int:
    """Sooli ranks the ace lowest: move each ace's bit below the two."""
    for s in range(4):
        ace = 1 << (16 * s + ACE)
        if mask & ace:
            mask ^= ace | (1 << (16 * s + LOW_ACE))
    return mask


def position(state: State) -> tuple[TrickPosition, bool]:
    """The state's play position in solver terms, and whether aces are low (sooli).

    Reads only the public API: the hands of a world, and the public observation
    (contract, declarer, soloist, the trick on the table).
    """
    return _position(state, state.observation(None))


def _position(state: State, obs: dict[str, Any]) -> tuple[TrickPosition, bool]:
    if obs.get("phase") != "play":
        raise SolveError(f"the solver needs a hand in its play phase, not {obs.get('phase')!r}")
    deck = state.game.deck
    mover = state.current_player
    assert mover is not None
    hands = [deck.mask_of(state.hand(seat)) for seat in range(4)]  # type: ignore[attr-defined]
    played = [deck.card(text).mask for _, text in obs["trick"]]
    leader = obs["trick"][0][0] if obs["trick"] else mover
    soloist = obs["soloist"]
    sides = (0, 1, 0, 1)
    mine = mover % 2
    if soloist is None:
        orders = _CLOCKWISE
        counted = mine if obs["contract"] == "rami" else 1 - mine
        return TrickPosition(tuple(hands), orders, sides, mine, counted, leader, tuple(played)), False
    # sooli: the rami side leads; the soloist's partner sits out
    orders = _SOOLI_ORDERS[soloist]
    hands = [_low_aces(h) for h in hands]
    hands[(soloist + 2) % 4] = 0  # out of play: its cards are no obstacle to the others' runs
    played = [_low_aces(b) for b in played]
    rami = 1 - soloist % 2
    return TrickPosition(tuple(hands), orders, sides, rami, 1 - rami, leader, tuple(played), 1), True


def solve_tuppi(state: State, sets: Sequence[Tables], deadline: float | None = None,
                max_nodes: int = 0, found: dict[Action, int] | None = None) -> Solution:
    """Solve a Tuppi world in its play phase (see the module docstring for the units), in
    ``sets`` (a thread each, searching a share of the cards: :func:`.parallel.split_moves`).

    ``deadline`` (a ``time.monotonic()`` instant) raises ``TimeoutError`` once it passes, and so
    does visiting ``max_nodes`` search nodes (0: no limit; for each thread's search); ``found``
    then gets the values of the cards solved before the stop.
    """
    obs = state.observation(None)
    pos, low_aces = _position(state, obs)
    mover = state.current_player
    assert mover is not None
    solvers = [t.tricks for t in sets]
    # several threads search in the first one's table (a bound one finds serves the others)
    generation = solvers[0].new_search()
    table = (solvers[0], generation) if len(solvers) > 1 else None

    def actions(by_bit: dict[int, int]) -> dict[Action, int]:
        """The legal cards' values from the search's (those it has)."""
        values: dict[Action, int] = {}
        for action in state.legal_actions():
            bit = _low_aces(action.mask) if low_aces else action.mask
            if bit not in by_bit:
                continue
            v = by_bit[bit]
            if low_aces:
                # the search counts whether the soloist takes a trick (>= 1): the rami side's win
                v = min(v, 1)
                v = v if mover % 2 == pos.maxside else 1 - v
            values[action] = v
        return values

    values, nodes = split_moves(solvers, lambda solver, share: solver.card_values(pos, deadline, max_nodes,
                                                                                   share, table),
                                actions, found)
    if len(values) != len(state.legal_actions()):
        raise SolveError("internal: the trick solver's cards differ from the legal actions")
    units = {"rami": "tricks", "nolo": "opponents' tricks"}.get(str(obs["contract"]), "sooli won")
    return Solution(mover, max(values.values()), values, units, nodes)


def objective(state: State, side: int, finished: bool) -> int:
    """What ``side`` has made of the solver's units in the hand so far, read from the public
    observation (``finished``: the hand has just ended, so from its record): rami, the side's
    tricks; nolo, the other side's; sooli, 1 for the side that won it, decided at the end."""
    obs = state.observation(None)
    if finished:
        done = obs["previous_hand"]
        contract, tricks, soloist = done["contract"], done["tricks"], done["soloist"]
    else:
        won = obs["tricks_won"]
        contract, tricks, soloist = obs["contract"], [won[0] + won[2], won[1] + won[3]], obs["soloist"]
    if contract == "rami":
        return int(tricks[side])
    if contract == "nolo":
        return int(tricks[1 - side])
    if not finished:
        return 0
    solo_side = soloist % 2  # the partner sits out, so the side's tricks are the soloist's
    winner = solo_side if tricks[solo_side] == 0 else 1 - solo_side
    return 1 if side == winner else 0


SOLVERS["tuppi"] = solve_tuppi
OBJECTIVES["tuppi"] = (objective, fixed_side)
