"""The random bot: a uniformly random legal action.

It is the baseline every other bot must beat, the driver of fuzz runs and
simulations, and the cheapest opponent for testing front ends.  It draws from
its own generator so that a seeded bot replays the same game exactly, whatever
else in the process uses :mod:`random`.
"""

from __future__ import annotations

import random

from ..engine import Action
from .base import Bot, View

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Picks uniformly among the legal actions; deterministic given ``seed``."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def act(self, view: View) -> Action:
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has no legal action: it is not its turn")
        return self._rng.choice(view.legal_actions)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"
