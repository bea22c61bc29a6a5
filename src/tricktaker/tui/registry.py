"""Which screen draws which game."""

from __future__ import annotations

from ..engine import OptionError
from .huutopussi import HuutopussiScreen
from .marjapussi import MarjapussiScreen
from .screen import Screen
from .tuppi import TuppiScreen
from .tute import TuteScreen

__all__ = ["SCREENS", "screen_class"]

SCREENS: dict[str, type[Screen]] = {
    "tuppi": TuppiScreen, "tute": TuteScreen,
    "marjapussi": MarjapussiScreen, "bondtolva": MarjapussiScreen, "avomarjapussi": MarjapussiScreen,
    "huutopussi": HuutopussiScreen,
}
"""Every game the terminal front end can show, by game name."""


def screen_class(name: str) -> type[Screen]:
    """The screen of a game; raise :class:`OptionError` naming the games that have one."""
    cls = SCREENS.get(name)
    if cls is None:
        raise OptionError(f"the terminal does not support {name} yet (games: {', '.join(SCREENS)})")
    return cls
