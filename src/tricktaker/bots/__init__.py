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

import inspect
from collections.abc import Callable
from typing import Any

from .base import Bot, View, view_of
from .ismcts import IsmctsBot
from .pimc import PimcBot
from .random_bot import RandomBot
from .rules import RulesBot

__all__ = ["BOTS", "DEFAULT_BOT", "Bot", "IsmctsBot", "PimcBot", "RandomBot", "RulesBot", "View",
           "bot_options", "make_bot", "parse_bot", "view_of"]

BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "rules": RulesBot,
    "pimc": PimcBot,
    "ismcts": IsmctsBot,
}
"""Every bot by name; each factory takes ``seed`` and the bot's keyword options."""

DEFAULT_BOT = "pimc"
"""The bot ``tricktaker play`` seats by default: the strongest that decides in about a second."""


def _value(text: str) -> Any:
    """An option value from text: an int, a float, or the text itself."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def bot_options(name: str) -> list[str]:
    """The options the registered bot ``name`` takes: its factory's keywords, ``seed`` aside."""
    return [p for p in inspect.signature(BOTS[name]).parameters if p != "seed"]


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """Split a bot spec, ``name`` or ``name:key=value:key=value``, into its name and options.

    Raise ``ValueError`` naming the problem: an unknown bot, an option it does
    not take, or a piece that is not ``key=value``.
    """
    name, *pieces = spec.strip().split(":")
    name = name.strip().lower()
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})")
    takes = bot_options(name)
    options: dict[str, Any] = {}
    for piece in pieces:
        key, sep, raw = piece.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"bot option must be key=value, not {piece!r} in {spec!r}")
        if key not in takes:
            raise ValueError(f"bot {name!r} has no option {key!r} (options: {', '.join(takes) or 'none'})")
        options[key] = _value(raw.strip())
    return name, options


def make_bot(spec: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot from its registry name or spec (``"pimc:worlds=40"``); ``options`` add to the spec's.

    Raise ``ValueError`` naming an unknown bot, an unknown option or a bad value.
    """
    if not isinstance(spec, str):
        raise ValueError(f"a bot is named by text, not {spec!r} (bots: {', '.join(BOTS)})")
    name, parsed = parse_bot(spec)
    parsed.update(options)
    try:
        return BOTS[name](seed=seed, **parsed)
    except TypeError as error:
        raise ValueError(f"bot {name!r}: {error}") from None
