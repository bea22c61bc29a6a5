"""The ``rules`` bot: a per-game heuristic player, the way a sound club player plays.

Each game family has one module with a ``choose(view, rng)`` policy that
reads only the :class:`~tricktaker.bots.base.View` (the seat's observation and
legal actions) and returns one legal action.  The policies follow the
strategy advice of the seed texts (``shared/seeds``): when to bid, what to
exchange, when to declare, how to lead, follow and discard.  They are cheap
(no search), so the search bots also use them to simulate phases they do not
solve.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ...engine import Action
from ..base import Bot, View
from . import huutopussi, marriages, tuppi, tute

__all__ = ["POLICIES", "Policy", "RulesBot", "needless_overtakes"]

Policy = Callable[[View, random.Random], Action]
"""A rules policy: one legal action of ``view`` (``rng`` only breaks ties)."""

POLICIES: dict[str, Policy] = {
    "tuppi": tuppi.choose,
    "tute": tute.choose,
    "marjapussi": marriages.choose,
    "bondtolva": marriages.choose,
    "avomarjapussi": marriages.choose,
    "huutopussi": huutopussi.choose,
}
"""The policy of each game, by the game's registry name."""


def needless_overtakes(view: View) -> set[Action]:
    """The actions that would overtake the partner's sure winner without need (the search bots skip them).

    Only Tuppi's rami has such cards: there a trick counts the same whoever of
    the side takes it, and the side must follow without beating.  In the point
    games (Tute, the Marjapussi family, Huutopussi) the rules often oblige a
    card that beats the trick, and a counting card put on the partner's trick
    is points loaded, not a trick lost: nothing is left out there.
    """
    if view.game.name != "tuppi":
        return set()
    return tuppi.needless_overtakes(view.observation, view.legal_actions)


class RulesBot(Bot):
    """Plays every phase of every game by its game's heuristic policy; deterministic given ``seed``."""

    name = "rules"

    def decide(self, view: View) -> Action:
        return POLICIES[view.game.name](view, self._rng)
