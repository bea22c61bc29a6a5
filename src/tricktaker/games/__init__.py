"""The games, by name.  Each module registers its :class:`~tricktaker.engine.Game` class here."""

from __future__ import annotations

from ..engine import Game
from .huutopussi import Huutopussi
from .marjapussi import Avomarjapussi, Bondtolva, Marjapussi
from .tuppi import Tuppi
from .tute import Tute

GAMES: dict[str, type[Game]] = {
    g.name: g for g in (Tuppi, Tute, Marjapussi, Bondtolva, Avomarjapussi, Huutopussi)
}
"""Every game tricktaker plays, by the name ``new_game`` takes."""

__all__ = ["GAMES"]
