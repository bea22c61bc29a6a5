"""One arena deal: who sits where, and playing the deal under every seating.

Luck of the cards swamps skill over a few hundred hands, so the arena plays
each deal more than once with the bots moved around the table (duplicate, as
in bridge clubs): a bot that gets good cards in one seating gives them to its
opponent in the next.  A *lineup* assigns one bot to each side of the game;
with ``duplicate`` every deal is played under every lineup in which each bot
holds at least one side (two bots in a partnership game: A-B and B-A; two
bots in three-player Huutopussi: each bot alone against two copies of the
other, in every seat).  Without it, deals take the lineups in turn.

Everything here runs in worker processes, so :class:`ArenaConfig` and
:class:`DealResult` are plain picklable data and :func:`play_deal` is a
top-level function.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any

import tricktaker as tt

from ..bots import Bot, Oracle, make_bot, view_of
from ..engine import Action, Game, State

__all__ = ["ArenaConfig", "DealResult", "Play", "lineups", "play_deal"]


@dataclass(frozen=True)
class ArenaConfig:
    """What an arena run plays: the game and its rules, the bots, how many deals and how."""

    game: str
    bots: tuple[str, ...]
    deals: int
    options: dict[str, Any] = field(default_factory=dict)
    preset: str | None = None
    duplicate: bool = True
    matches: bool = False
    """Play whole matches from each deal's seed instead of single hands."""
    seed: int = 1
    dd_loss: bool = False
    """Measure each bot's double-dummy loss per card play (a solve of the true deal per decision)."""
    dd_time: float = 2.0
    """Seconds one double-dummy-loss solve may take; a slower position is counted as skipped."""

    def make_game(self) -> Game:
        return tt.new_game(self.game, preset=self.preset, **self.options)


@dataclass(frozen=True)
class Play:
    """One deal played under one lineup."""

    lineup: tuple[int, ...]
    """The bot (index into ``ArenaConfig.bots``) on each side."""
    points: tuple[float, ...]
    """Each side's points: the hand's ``hand_points``, or a match's summed over its hands (Tute
    cabrero, where points are not the aim: ``hand_returns()``, -1 per loser, summed likewise)."""
    winner: int | None
    """The side that won the match (``matches`` only; None for hands or a draw)."""
    hands: int
    places: tuple[int, ...] | None = None
    """A match that ends with places instead of one winner (Tute cabrero): each side's place."""


@dataclass(frozen=True)
class DealResult:
    """A deal under each of its lineups, and how long each bot took per decision."""

    deal: int
    plays: tuple[Play, ...]
    decision_times: tuple[tuple[float, ...], ...]
    """Seconds per decision, per bot (decisions with one legal action not counted)."""
    dd_losses: tuple[tuple[float, ...], ...] = ()
    """With ``dd_loss``: per bot, what each of its card plays with a choice cost on the true deal
    (the solver's value of the best action minus that of the action played, in the solver's units)."""
    dd_skipped: tuple[int, ...] = ()
    """With ``dd_loss``: per bot, card plays not measured because the solve took longer than ``dd_time``."""


def lineups(bots: int, sides: int) -> list[tuple[int, ...]]:
    """Every assignment of ``bots`` bots to ``sides`` sides that seats each bot at least once."""
    if bots > sides:
        raise ValueError(f"{bots} bots cannot share a game of {sides} sides")
    return [combo for combo in itertools.product(range(bots), repeat=sides) if len(set(combo)) == bots]


def deal_seed(config: ArenaConfig, deal: int) -> int:
    """The seed of deal number ``deal`` (the same for every lineup: that is the duplicate)."""
    return config.seed * 1_000_003 + deal


def play_deal(config: ArenaConfig, deal: int) -> DealResult:
    """Play deal number ``deal`` under its lineups; deterministic given the config and ``deal``."""
    game = config.make_game()
    every = lineups(len(config.bots), game.num_sides)
    chosen = every if config.duplicate else [every[deal % len(every)]]
    times: list[list[float]] = [[] for _ in config.bots]
    loss = _LossLog(config) if config.dd_loss else None
    plays = tuple(_play(config, game, deal, lineup, times, loss) for lineup in chosen)
    if loss is None:
        return DealResult(deal, plays, tuple(tuple(t) for t in times))
    return DealResult(deal, plays, tuple(tuple(t) for t in times),
                      tuple(tuple(x) for x in loss.losses), tuple(loss.skipped))


class _LossLog:
    """Each bot's double-dummy losses in one deal, and the positions too slow to measure."""

    def __init__(self, config: ArenaConfig) -> None:
        self.time = config.dd_time
        self.losses: list[list[float]] = [[] for _ in config.bots]
        self.skipped = [0] * len(config.bots)

    def measure(self, state: State, action: Action, bot: int) -> None:
        """Record what ``action`` costs in ``state`` (before it is applied) if the solver takes this
        phase: :func:`tricktaker.analysis.judge`, which replays and the server's reviews use too."""
        from ..analysis import judge

        verdict = judge(state, action, self.time)
        if verdict.timed_out:
            self.skipped[bot] += 1
        elif verdict.cost is not None:  # None: bidding, exchanges, not card play
            self.losses[bot].append(float(verdict.cost))


def _play(config: ArenaConfig, game: Game, deal: int, lineup: tuple[int, ...],
          times: list[list[float]], loss: _LossLog | None = None) -> Play:
    seed = deal_seed(config, deal)
    seats = range(game.num_players)
    owner = [lineup[game.side_of(seat)] for seat in seats]
    # A seat's bot has the same seed in every lineup, so identical bots replay identically.
    bots = [make_bot(config.bots[owner[seat]], seed=seed * 8 + seat) for seat in seats]
    dealer = deal % game.num_players
    start = game.new_match if config.matches else game.new_hand
    state = start(seed=seed, dealer=dealer)
    points = [0.0] * game.num_sides
    hands = 0
    while not state.is_over():
        number_before = state.hand_number
        _act(state, bots, owner, times, deal, loss)
        if state.is_over() or state.hand_number != number_before:
            hands += 1
            payoff = getattr(state, "hand_returns", lambda: None)()
            for side, p in enumerate(payoff if payoff is not None else state.hand_points or ()):  # type: ignore[attr-defined]
                points[side] += p
            if not config.matches:
                break
    winner = state.winner if config.matches else None  # type: ignore[attr-defined]
    places = getattr(state, "places", None) if config.matches else None
    return Play(lineup, tuple(points), winner, hands, None if places is None else tuple(places))


def _act(state: State, bots: list[Bot], owner: list[int], times: list[list[float]], deal: int,
         loss: _LossLog | None = None) -> None:
    """One decision by the bot to act, timed, with any failure named by deal and seat.

    A bot gets the seat's :class:`~tricktaker.bots.View`, never the state, unless it is an
    :class:`~tricktaker.bots.Oracle` (a reference that sees every card by declaration): only then
    does it get a copy of the true state.
    """
    seat = state.current_player
    assert seat is not None
    bot = bots[seat]
    choices = len(state.legal_actions())
    started = time.perf_counter()
    try:
        if isinstance(bot, Oracle):
            action = bot.act_on_truth(state.clone())
        else:
            action = bot.act(view_of(state, seat))
        elapsed = time.perf_counter() - started
        if loss is not None and choices > 1:
            loss.measure(state, action, owner[seat])
        state.apply(action, seat=seat)
    except Exception as error:
        raise RuntimeError(f"deal {deal}, seat {seat}, bot {bot!r}: {error}") from error
    if choices > 1:
        times[owner[seat]].append(elapsed)
