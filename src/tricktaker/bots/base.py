"""The bot interface: what a bot may see (a :class:`View`) and what it must do (:class:`Bot`).

A bot never holds the :class:`~tricktaker.engine.State`.  The state knows every
hand, so a bot that could reach it could cheat, even by accident.  Instead the
referee (the CLI, the arena, a test) builds a :class:`View` for the seat to act:
that seat's observation, its legal actions, and a sampler that deals the hidden
cards anew consistently with what the seat knows.  Search bots (PIMC, ISMCTS)
plan on those sampled worlds; simple bots read the observation.

Nothing here is specific to one game, so every game works with every bot.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

from ..engine import Action, Game, State

__all__ = ["Bot", "Oracle", "View", "view_of"]


@dataclass(frozen=True)
class View:
    """Everything one seat may know at one moment, and nothing more.

    ``observation`` is ``state.observation(seat)``; ``legal_actions`` is the
    state's legal actions when this seat is to act, else empty.  ``game`` is the
    rule set (its options are public knowledge).  The state itself is kept out
    of reach: :meth:`sample_world` calls a private closure over a snapshot taken
    when the view was made, so a view stays valid however the real game moves
    on, and its worlds never depend on later actions.
    """

    seat: int
    legal_actions: list[Action]
    game: Game
    _sampler: Callable[[random.Random], State] = field(repr=False, compare=False)
    _observer: Callable[[], dict[str, Any]] = field(repr=False, compare=False)

    @cached_property
    def observation(self) -> dict[str, Any]:
        """``state.observation(seat)`` at the moment the view was made.

        Built on first use from the view's snapshot: a bot that only needs its
        legal actions (the random bot) never pays for it.
        """
        return self._observer()

    def sample_world(self, rng: random.Random) -> State:
        """A full state consistent with this seat's knowledge, hidden cards dealt from ``rng``.

        Each call returns a new, independent state that the caller may play on
        freely; the real game is not affected.
        """
        return self._sampler(rng)

    @property
    def to_act(self) -> bool:
        """True when this seat must act now (it has legal actions)."""
        return bool(self.legal_actions)


def view_of(state: State, seat: int) -> View:
    """The view of ``state`` that ``seat`` is entitled to.

    The sampler closes over a clone, not ``state`` itself: applying further
    actions to ``state`` must not change what an existing view samples.
    """
    if not isinstance(seat, int) or not 0 <= seat < state.num_players:
        raise ValueError(f"seat must be 0..{state.num_players - 1}, not {seat!r}")
    snapshot = state.clone()

    def sampler(rng: random.Random) -> State:
        return snapshot.sample_world(seat, rng)

    def observer() -> dict[str, Any]:
        return snapshot.observation(seat)

    legal = state.legal_actions() if state.current_player == seat else []
    return View(seat, legal, state.game, sampler, observer)


class Bot(ABC):
    """A player program.  Subclasses set ``name`` and implement :meth:`decide`.

    A bot may keep memory between calls (a random generator, a search tree),
    but it learns about the game only from the views it is given.  Every bot
    takes a ``seed`` and draws only from its own generator, so a seeded bot
    replays the same game exactly, whatever else in the process uses
    :mod:`random`.
    """

    name: ClassVar[str]
    """The registry name, as ``make_bot`` and ``tricktaker play --bots`` take it."""

    listed: ClassVar[bool] = True
    """Offered in the server's menu of bots (a research bot may still be named by its spec)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def act(self, view: View) -> Action:
        """Choose one of ``view.legal_actions``: the only one if there is one, else :meth:`decide`."""
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has no legal action: it is not its turn")
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        return self.decide(view)

    @abstractmethod
    def decide(self, view: View) -> Action:
        """Choose among two or more legal actions (``view.legal_actions``)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


class Oracle(Bot):
    """A reference bot that plays from the true state, every hand open: a ceiling, not a player.

    Strength is easier to read against a ceiling: a bot's points as a share of
    the gap between ``rules`` and an oracle.  An oracle cannot work from a
    :class:`View`, so it declares itself by this class, and only a referee that
    means to measure against it (the arena) hands it the state, by
    :meth:`act_on_truth`.  Every other bot still gets only its seat's view: the
    referee decides what to hand over by the bot's class, so a normal bot can
    never ask for more.
    """

    def decide(self, view: View) -> Action:
        raise TypeError(f"{type(self).__name__} sees every card and cannot play from a view: "
                        "only the arena seats it (tricktaker arena GAME --bots oracle,rules)")

    def act_on_truth(self, state: State) -> Action:
        """Choose the action of ``state.current_player`` in ``state`` (a copy the bot may keep)."""
        legal = state.legal_actions()
        if not legal:
            raise ValueError("nobody is to act: the match is over")
        if len(legal) == 1:
            return legal[0]
        return self.decide_on_truth(state)

    @abstractmethod
    def decide_on_truth(self, state: State) -> Action:
        """Choose among two or more legal actions of the true ``state``."""
