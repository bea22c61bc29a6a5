"""tricktaker: traditional trick-taking card games (Tuppi, Tute, Marjapussi, ...) for play and research.

The public face::

    import tricktaker as tt
    game = tt.new_game("tuppi", preset="tournament")
    state = game.new_match(seed=7)
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    text = state.to_json(); again = tt.load(text)

See ``docs/api.md`` for the State API and ``docs/rules/`` for each game.
"""

from __future__ import annotations

from typing import Any

from .cards import ANGLO_52, DECKS, PIQUET_36, SHORT_24, SPANISH_40, Card, CardParseError, CardSet, Deck
from .engine import Action, Game, IllegalActionError, OptionError, SeatError, State
from .games import GAMES
from .record import RecordError, load

__version__ = "0.1.0"

__all__ = [
    "ANGLO_52",
    "DECKS",
    "GAMES",
    "PIQUET_36",
    "SHORT_24",
    "SPANISH_40",
    "Action",
    "Card",
    "CardParseError",
    "CardSet",
    "Deck",
    "Game",
    "IllegalActionError",
    "OptionError",
    "RecordError",
    "SeatError",
    "State",
    "load",
    "new_game",
    "solve",
]


def new_game(name: str, preset: str | None = None, **options: Any) -> Game:
    """A game by name, with a preset and options as keywords.

    Unknown names, presets and options raise :class:`OptionError` (a ``ValueError``)
    listing the valid ones.
    """
    game = GAMES.get(name.lower()) if isinstance(name, str) else None
    if game is None:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    return game(preset=preset, **options)


def solve(state: State, time_limit: float | None = None, node_limit: int | None = None,
          threads: int = 1) -> Any:
    """The value of ``state`` (every card known) and of each legal action: a
    :class:`tricktaker.solver.Solution`.  See ``docs/solver.md``.

    ``time_limit`` (seconds) makes it raise :class:`tricktaker.solver.SolveTimeout` when
    the answer takes longer, ``node_limit`` when the search visits more nodes; ``threads``
    searches the legal actions in that many threads at once (the same values).  The solver is
    imported on first use: it needs NumPy and its native searches, which the core does not.
    """
    from .solver import solve as _solve

    return _solve(state, time_limit=time_limit, node_limit=node_limit, threads=threads)
