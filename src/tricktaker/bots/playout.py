"""Playing a sampled world to the end of its hand: what the search bots build on.

A search bot owns the worlds it samples (``View.sample_world`` returns a fresh
state each time), so it may play them out freely.  This module holds the
pieces every such bot needs, written once:

- :func:`hand_rewards`: what a finished hand was worth to each side, as the
  side's points minus the other sides' average (a zero-sum number, so "more
  for me" and "less for them" count the same);
- :func:`play_out`: play a world to the end of its current hand with a
  rollout policy (uniformly random, or the ``rules`` policies);
- :func:`solved_playout`: play a world's decisions before card play with a
  rollout policy, then solve the card play once from its first card and read
  the hand's result from the solved value (where the game can say it and the
  solve is affordable): what ``pimc:phases=solve`` and the oracle's bidding
  value a bid, a sooli answer or a discard by;
- :func:`world_view`: a :class:`View` of a world the bot already owns, without
  the snapshot copy that :func:`~tricktaker.bots.base.view_of` makes to guard
  the real game, so rollouts with the rules policies stay cheap.

A hand ends when the match moves on to the next hand (``hand_number`` grows) or
the match is over; ``state.hand_points`` then says what it scored.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..engine import Action, State
from .base import View

if TYPE_CHECKING:
    from ..solver import Tables

__all__ = ["ROLLOUTS", "SOLVED_PLAY", "Rollout", "check_budget", "hand_over", "hand_rewards", "play_out",
           "rewards_of", "solved_playout", "solves_whole_hand", "world_view"]

Rollout = Callable[[State, int, random.Random], Action]
"""A rollout policy: the action for ``seat`` (the one to act) in a world the bot owns."""


def world_view(state: State, seat: int) -> View:
    """A view of ``state`` for ``seat`` that reads the state live (no snapshot).

    Only for worlds a bot sampled itself: the real game must go through
    :func:`~tricktaker.bots.base.view_of`, whose snapshot keeps a view valid
    after the game moves on.  The view still carries only ``seat``'s
    observation, so a policy cannot see more than that seat may.
    """

    def no_sampling(rng: random.Random) -> State:
        raise RuntimeError("a rollout view cannot sample worlds")

    def observer() -> dict[str, object]:
        return state.observation(seat)

    legal = state.legal_actions() if state.current_player == seat else []
    return View(seat, legal, state.game, no_sampling, observer)


def _random_rollout(state: State, seat: int, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions())


def _rules_rollout(state: State, seat: int, rng: random.Random) -> Action:
    from .rules import POLICIES  # the rules bot imports this module's siblings; import late

    view = world_view(state, seat)
    if len(view.legal_actions) == 1:
        return view.legal_actions[0]
    return POLICIES[state.game.name](view, rng)


ROLLOUTS: dict[str, Rollout] = {"random": _random_rollout, "rules": _rules_rollout}
"""Rollout policies by name: ``random`` is fastest, ``rules`` plays like the rules bot."""


def hand_over(state: State, hand_number: int) -> bool:
    """True once the hand that was ``hand_number`` has ended (or the match is over)."""
    return state.is_over() or state.hand_number != hand_number


def hand_rewards(state: State) -> list[float]:
    """Each side's reward for the hand just finished: its points minus the other sides' average.

    ``state.hand_points`` is what the last finished hand scored per side (Tuppi's
    contract points, Tute's round points, the Marjapussi family's hand points,
    Huutopussi's change of score).  The rewards sum to zero.  Tute cabrero, where points
    are not the aim, gives ``state.hand_returns()`` instead: -1 to each seat that lost the
    hand, the others who played it sharing what they lose.
    """
    returns: list[float] | None = getattr(state, "hand_returns", lambda: None)()
    if returns is not None:
        return returns
    return rewards_of(getattr(state, "hand_points", None), state.game.num_sides)


def rewards_of(points: Sequence[int] | None, sides: int) -> list[float]:
    """Each side's reward from its hand points: its points minus the other sides' average."""
    if not points:
        return [0.0] * sides
    total = float(sum(points))
    return [p - (total - p) / (sides - 1) for p in map(float, points)]


def play_out(state: State, rollout: Rollout, rng: random.Random) -> list[float]:
    """Play ``state`` (a world the caller owns) to the end of its hand; each side's reward."""
    number = state.hand_number
    while not hand_over(state, number):
        seat = state.current_player
        assert seat is not None
        state.apply(rollout(state, seat, rng))
    return hand_rewards(state)


SOLVED_PLAY: dict[str, frozenset[str]] = {
    "tuppi": frozenset({"rami", "sooli"}),
}
"""Per game, the contracts whose card play is solved from the first card, whole.

A game is here when its state reads the hand's result from one solved value
(``solved_hand_points``) and its full deal solves fast enough to do so in
every sampled world of a decision: Tuppi rami (median 18 ms a full deal at
the opening lead, a median 7 ms a world sampled at the first trick, docs/bots.md)
and sooli (a few ms), but not nolo, whose full deals take from under a second
to tens of seconds.  :func:`solved_playout` solves these hands from their first
card, and ``pimc`` solves their card play from the first card too.  The point
games' solved value is one side's points only (the other side's are not fixed
by it), so their hands are not read from one solve; Huutopussi's full deals
take hundreds of milliseconds besides.  Bondtolva and Marjapussi have no
decision before card play that the solver does not already take.
"""


def solves_whole_hand(game: str, contract: object) -> bool:
    """True when ``game``'s hands in ``contract`` are solved from their first card (:data:`SOLVED_PLAY`)."""
    return contract in SOLVED_PLAY.get(game, frozenset())


def solved_playout(state: State, rollout: Rollout, rng: random.Random,
                   time_limit: float | None, tables: Tables | None = None,
                   threads: int = 1) -> list[float] | None:
    """Play ``state`` (owned by the caller) to its first card with ``rollout``, then solve the play.

    Each side's reward for the hand (as :func:`play_out` gives it) when the hand
    reaches card play in a contract of :data:`SOLVED_PLAY` and its solve
    finishes within ``time_limit`` seconds: the game's own scoring of the
    solved value (``state.solved_hand_points``), every seat playing double
    dummy from the first card.  A hand that ends before card play gives its
    result.  None when the contract is not solved or the solve runs out of
    time; ``state`` is then left at its first card, where the caller may go on
    (by rollouts, or the oracle's double-dummy playout).  ``tables``: the set of tables to
    solve in (:func:`tricktaker.solver.solve`'s own by default), the first of ``threads``.
    """
    from ..solver import SolveError, SolveTimeout, solve

    number = state.hand_number
    while not hand_over(state, number) and getattr(state, "phase", None) != "play":
        seat = state.current_player
        assert seat is not None
        state.apply(rollout(state, seat, rng))
    if hand_over(state, number):
        return hand_rewards(state)
    if not solves_whole_hand(state.game.name, getattr(state, "contract", None)):
        return None
    try:
        solution = solve(state, time_limit=time_limit, tables=tables, threads=threads)
    except (SolveError, SolveTimeout):
        return None
    points = state.solved_hand_points(solution.value)  # type: ignore[attr-defined]
    return rewards_of(points, state.game.num_sides)


def check_budget(what: str, count: int, time: float | None, rollout: str) -> None:
    """Refuse a search budget that cannot work, naming the option (``what`` is the count's name)."""
    if count < 1:
        raise ValueError(f"{what} must be at least 1, not {count}")
    if time is not None and time <= 0:
        raise ValueError(f"time must be positive seconds, not {time}")
    if rollout not in ROLLOUTS:
        raise ValueError(f"unknown rollout {rollout!r} (rollouts: {', '.join(ROLLOUTS)})")
