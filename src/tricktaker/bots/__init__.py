"""Bots: programs that play any game through the :class:`View` a seat is entitled to.

::

    from tricktaker.bots import make_bot, view_of
    bot = make_bot("random", seed=1)
    state.apply(bot.act(view_of(state, state.current_player)))

``BOTS`` maps each registry name to a factory taking ``seed`` (and the bot's
own keyword options); new bots register here so that every front end
(``tricktaker play --bots``, the arena) can name them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .base import Bot, View, view_of
from .random_bot import RandomBot

__all__ = ["BOTS", "Bot", "RandomBot", "View", "make_bot", "view_of"]

BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}
"""Every bot by name; each factory takes ``seed`` and the bot's keyword options."""


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot by registry name; raise ``ValueError`` listing the known names for an unknown one."""
    factory = BOTS.get(name.lower()) if isinstance(name, str) else None
    if factory is None:
        raise ValueError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})")
    return factory(seed=seed, **options)
