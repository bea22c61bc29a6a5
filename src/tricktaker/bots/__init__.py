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
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .alphamu import PARTNERS, AlphaMuBot
from .base import Bot, Oracle, View, view_of
from .ismcts import IsmctsBot
from .oracle import OracleBot
from .pimc import INFERENCES, PHASES, UNSOLVED_PLAYS, PimcBot
from .pimc import MAX_THREADS as PIMC_MAX_THREADS
from .playout import ROLLOUTS
from .random_bot import RandomBot
from .rules import RulesBot

__all__ = ["BOTS", "BOT_OPTIONS", "DEFAULT_BOT", "AlphaMuBot", "Bot", "BotOption", "BotSpecError",
           "IsmctsBot", "Oracle", "OracleBot", "PimcBot", "RandomBot", "RulesBot", "View",
           "bot_options", "check_bot_options", "make_bot", "parse_bot", "view_of"]

BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "rules": RulesBot,
    "pimc": PimcBot,
    "ismcts": IsmctsBot,
    "oracle": OracleBot,
    "alphamu": AlphaMuBot,
}
"""Every bot by name; each factory takes ``seed`` and the bot's keyword options."""

DEFAULT_BOT = "pimc"
"""The bot ``tricktaker play`` seats by default: the strongest that decides in about a second."""


class BotSpecError(ValueError):
    """A bot spec or option that cannot work; the message names the bot, the option and the rule."""


@dataclass(frozen=True)
class BotOption:
    """One bot option: its type and range, checked when a spec is parsed (not mid-game).

    ``kind`` is ``int``, ``float`` or ``str``; ``choices`` limit text values;
    ``nullable`` allows ``None`` (written ``none`` in a spec).
    """

    kind: type
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    nullable: bool = False
    above: float | None = None
    """A strict lower bound (``time`` must be above 0 seconds)."""
    doc: str = ""

    def rule(self) -> str:
        """What is allowed, as the end of a sentence: ``a whole number 1..100000``."""
        if self.choices:
            text = "one of " + ", ".join(self.choices)
        else:
            text = "a whole number" if self.kind is int else "a number"
            if self.above is not None:
                text += f" above {_num(self.above)}"
                if self.maximum is not None:
                    text += f" and at most {_num(self.maximum)}"
            elif self.minimum is not None and self.maximum is not None:
                text += f" {_num(self.minimum)}..{_num(self.maximum)}"
            elif self.minimum is not None:
                text += f" >= {_num(self.minimum)}"
        return text + (" or none" if self.nullable else "")

    def check(self, bot: str, key: str, value: Any) -> Any:
        """The value as the bot takes it, or :class:`BotSpecError` saying what is allowed."""
        bad = BotSpecError(f"{bot} option {key} must be {self.rule()}, not {_shown(value)}")
        if isinstance(value, str) and value.strip().lower() in self.choices:
            return value.strip().lower()  # a choice named none (pimc's infer) is that choice
        if value is None or (isinstance(value, str) and value.strip().lower() == "none"):
            if self.nullable:
                return None
            raise bad
        if self.kind is str:
            if not isinstance(value, str) or value.strip().lower() not in self.choices:
                raise bad
            return value.strip().lower()
        number: float
        if isinstance(value, str):
            text = value.strip()
            try:
                number = int(text) if self.kind is int else float(text)
            except ValueError:
                raise bad from None
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad
        else:
            number = value
        if self.kind is int and (isinstance(number, float) or not isinstance(number, int)):
            raise bad
        if not math.isfinite(number):
            raise bad
        if ((self.minimum is not None and number < self.minimum)
                or (self.above is not None and number <= self.above)
                or (self.maximum is not None and number > self.maximum)):
            raise bad
        return int(number) if self.kind is int else float(number)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _shown(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 30 else text[:27] + "..."


_TIME = BotOption(float, maximum=3600, above=0, nullable=True, doc="seconds per decision at most")
_ROLLOUT = BotOption(str, choices=tuple(ROLLOUTS), doc="the policy that plays worlds to the end")

BOT_OPTIONS: dict[str, dict[str, BotOption]] = {
    "random": {},
    "rules": {},
    "pimc": {
        "worlds": BotOption(int, 1, 100_000, doc="worlds per decision"),
        "time": _TIME,
        "rollout": _ROLLOUT,
        "solve_cards": BotOption(int, 0, 52, nullable=True, doc="solve worlds with at most this many "
                                 "cards to play, in every contract (none: the game's default, "
                                 "whole hands of Tuppi rami and sooli)"),
        "stock_cards": BotOption(int, 0, 52, nullable=True, doc="while a stock lasts, solve worlds with "
                                 "at most this many cards to play, the mover's half of the stock "
                                 "counted (0: never; none: the game's default)"),
        "max_candidates": BotOption(int, 1, 1000, doc="the most actions valued"),
        "confidence": BotOption(float, 0, 100, doc="standard errors a rollout must win by"),
        "infer": BotOption(str, choices=INFERENCES, doc="weight worlds by the other "
                           "players' actions under the rules model (rules), by those that are not card "
                           "plays (bids), by their recent card plays under a double-dummy model (dd), "
                           "every world alike but drawn as weighted ones are (flat), or not (none); "
                           "not given: the game's default, pimc.INFERENCE"),
        "trust": BotOption(float, 0.01, 0.99, doc="with infer: the chance a player plays "
                           "the model's action (the rules action; with dd a best card); not given: "
                           "the game's default with its infer, else 0.8"),
        "pool": BotOption(int, 1, 100, doc="with infer: worlds drawn per world kept"),
        "spread": BotOption(float, 0, 1, doc="with infer: temper the weights to keep at least "
                            "this share of the worlds drawn as their effective number (0: no tempering; not "
                            "given: the game's default with its infer, else 0)"),
        "phases": BotOption(str, choices=PHASES, doc="value decisions before card play "
                            "by rollouts, or by solving the card play from its first card where the "
                            "game allows it (solve)"),
        "phase_time": BotOption(float, maximum=3600, above=0, doc="with phases=solve: seconds each "
                                "solve from the first card may take"),
        "nodes": BotOption(int, 0, 10**12, nullable=True, doc="search nodes a card-play decision's "
                           "solves may visit in all (0: no limit; none: the game's default)"),
        "min_worlds": BotOption(int, 1, 100_000, doc="the fewest worlds a card-play decision must "
                                "solve within its budget, else it is rolled out"),
        "unsolved_play": BotOption(str, choices=UNSOLVED_PLAYS, nullable=True, doc="a card play "
                                   "not solved is valued by rollouts or is the rules bot's card (none: "
                                   "the game's default)"),
        "stock_play": BotOption(str, choices=UNSOLVED_PLAYS, nullable=True, doc="the old name of "
                                "unsolved_play"),
        "threads": BotOption(int, 1, PIMC_MAX_THREADS, doc="threads a card-play decision's worlds are "
                             "solved in"),
    },
    "ismcts": {
        "iterations": BotOption(int, 1, 1_000_000, doc="worlds walked per decision"),
        "time": _TIME,
        "rollout": _ROLLOUT,
        "exploration": BotOption(float, 0, 100, doc="the UCB constant"),
        "max_candidates": BotOption(int, 1, 1000, doc="the most actions valued"),
    },
    "alphamu": {
        "m": BotOption(int, 1, 5, doc="the bot's own moves searched without strategy fusion (1: PIMC)"),
        "worlds": BotOption(int, 1, 1000, doc="worlds per decision"),
        "time": _TIME,
        "search_cards": BotOption(int, 0, 13, nullable=True, doc="search when the bot has at most "
                                  "this many cards to play (none: the game's default)"),
        "partner": BotOption(str, choices=PARTNERS, doc="the partner's model in the search: "
                             "the rules policy from its view, or the best card in each world"),
    },
    "oracle": {
        "time": BotOption(float, maximum=3600, above=0, doc="seconds a card-play solve may take"),
        "playout_time": BotOption(float, maximum=3600, above=0,
                                  doc="seconds each solve of a double-dummy playout may take"),
        "max_candidates": BotOption(int, 1, 1000, doc="the most actions played out"),
        "threads": BotOption(int, 1, PIMC_MAX_THREADS, doc="candidates played out at once, a thread each"),
    },
}
"""Every bot's options with their types and ranges: the one place specs are checked against
(``parse_bot``, ``make_bot``, and so every front end: ``play``, ``simulate``, ``arena``, the
server).  A front end may add tighter caps of its own after ``parse_bot``."""


_ANY = BotOption(str)
"""Stands for an option of a bot with no :data:`BOT_OPTIONS` entry: passed on as given."""


def bot_options(name: str) -> list[str]:
    """The options the registered bot ``name`` takes (see :data:`BOT_OPTIONS`)."""
    if name in BOT_OPTIONS:
        return list(BOT_OPTIONS[name])
    return [key for key in inspect.signature(BOTS[name]).parameters if key != "seed"]


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """Split a bot spec, ``name`` or ``name:key=value:key=value``, into its name and options.

    Every value is checked against :data:`BOT_OPTIONS` (type and range) and
    converted, so a spec that parses makes a bot that runs.  Raise
    :class:`BotSpecError` (a ``ValueError``) naming the problem: an unknown
    bot, an option it does not take, a piece that is not ``key=value``, a
    value out of range ("pimc option worlds must be a whole number
    1..100000, not 0").
    """
    if not isinstance(spec, str):
        raise BotSpecError(f"a bot is named by text, not {spec!r} (bots: {', '.join(BOTS)})")
    name, *pieces = spec.strip().split(":")
    name = name.strip().lower()
    if name not in BOTS:
        raise BotSpecError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})")
    options: dict[str, Any] = {}
    for piece in pieces:
        key, sep, raw = piece.partition("=")
        key = key.strip()
        if not sep or not key:
            raise BotSpecError(f"bot option must be key=value, not {piece!r} in {spec!r}")
        options[key] = raw
    return name, check_bot_options(name, options)


def check_bot_options(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` for bot ``name``, each checked and converted (text or values alike)."""
    takes = BOT_OPTIONS.get(name)
    if takes is None:  # a bot registered in BOTS alone (a test's stub): its keywords, unchecked
        takes = {key: _ANY for key in inspect.signature(BOTS[name]).parameters if key != "seed"}
    checked: dict[str, Any] = {}
    for key, value in options.items():
        option = takes.get(key)
        if option is None:
            raise BotSpecError(f"bot {name!r} has no option {key!r} (options: {', '.join(takes) or 'none'})")
        checked[key] = value if option is _ANY else option.check(name, key, value)
    return checked


def make_bot(spec: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot from its registry name or spec (``"pimc:worlds=40"``); ``options`` add to the spec's.

    Raise ``ValueError`` naming an unknown bot, an unknown option or a bad value.
    """
    name, parsed = parse_bot(spec)
    parsed.update(check_bot_options(name, options))
    return BOTS[name](seed=seed, **parsed)
