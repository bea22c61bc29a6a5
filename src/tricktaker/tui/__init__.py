"""The terminal front end's pieces: one screen per game, and the one play loop they share.

``tricktaker.cli`` parses the command line and calls into here:

- :mod:`.common`: card and suit looks, seat and side names;
- :mod:`.screen`: the base :class:`Screen` (hand with numbered choices,
  replay and simulation hooks) and :class:`SimStats`;
- :mod:`.session`: :class:`PlaySession`, the prompt loop, saving and narration;
- :mod:`.marriages`: :class:`MarriageScreen`, what the Marjapussi family and
  Huutopussi screens share (calls, answers, duties, the trick's winner);
- :mod:`.tuppi`, :mod:`.tute`, :mod:`.marjapussi` (also Bondtolva and
  Avomarjapussi), :mod:`.huutopussi`: each game's panels, narration, replay
  and statistics.
"""

from __future__ import annotations

from .common import Look, Seats
from .registry import SCREENS, screen_class
from .screen import Screen, SimStats
from .session import PlaySession

__all__ = ["SCREENS", "Look", "PlaySession", "Screen", "Seats", "SimStats", "screen_class"]
