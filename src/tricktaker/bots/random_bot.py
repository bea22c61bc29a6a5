"""The random bot: a uniformly random legal action.

It is the baseline every other bot must beat, the driver of fuzz runs and
simulations, and the cheapest opponent for testing front ends.  It draws from
its own generator so that a seeded bot replays the same game exactly, whatever
else in the process uses :mod:`random`.
"""

from __future__ import annotations

from ..engine import Action
from .base import Bot, View

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Picks uniformly among the legal actions; deterministic given ``seed``."""

    name = "random"

    def decide(self, view: View) -> Action:
        return self._rng.choice(view.legal_actions)
