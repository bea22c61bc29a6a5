"""What an arena run measured: score differences with confidence intervals, win rates, ratings.

A deal is the unit of measurement: its lineups are played on the same cards,
so a deal's score difference between two bots has the luck of the cards
largely cancelled, and deals are independent of each other.  Intervals are
95% normal intervals over deals (Wilson's interval for win rates); ratings
are Elo-scaled Bradley-Terry strengths fitted to every pairwise result.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from .deals import DealResult

__all__ = ["DDLoss", "Interval", "PairStats", "Summary", "bradley_terry", "mean_interval", "summarise",
           "wilson"]

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% confidence interval."""

    value: float
    low: float
    high: float

    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0

    def __str__(self) -> str:
        return f"{self.value:+.2f} [{self.low:+.2f}, {self.high:+.2f}]"


def mean_interval(samples: Sequence[float]) -> Interval:
    """The mean of ``samples`` with a 95% normal interval (zero width with fewer than two)."""
    mean = statistics.fmean(samples) if samples else 0.0
    if len(samples) < 2:
        return Interval(mean, mean, mean)
    half = Z95 * statistics.stdev(samples) / math.sqrt(len(samples))
    return Interval(mean, mean - half, mean + half)


def wilson(wins: float, games: int) -> Interval:
    """A win rate (draws as half wins) with Wilson's 95% interval, sound near 0 and 1."""
    if games == 0:
        return Interval(0.5, 0.0, 1.0)
    p = wins / games
    denominator = 1 + Z95 ** 2 / games
    centre = (p + Z95 ** 2 / (2 * games)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / games + Z95 ** 2 / (4 * games ** 2)) / denominator
    return Interval(p, centre - half, centre + half)


def bradley_terry(wins: dict[tuple[int, int], float], players: int, iterations: int = 200) -> list[float]:
    """Elo-scaled ratings (mean 1500) from ``wins[(i, j)]``, i's score against j.

    The minorisation-maximisation fit of Hunter (2004); one virtual draw
    between every pair keeps an unbeaten bot's rating finite.
    """
    score = [[0.5] * players for _ in range(players)]
    for (i, j), w in wins.items():
        score[i][j] += w
    strength = [1.0] * players
    for _ in range(iterations):
        new = []
        for i in range(players):
            won = sum(score[i][j] for j in range(players) if j != i)
            games = sum((score[i][j] + score[j][i]) / (strength[i] + strength[j])
                        for j in range(players) if j != i)
            new.append(won / games)
        mean_log = statistics.fmean(math.log(s) for s in new)
        strength = [s / math.exp(mean_log) for s in new]
    return [1500 + 400 * math.log10(s) for s in strength]


@dataclass(frozen=True)
class PairStats:
    """Bot ``a`` against bot ``b`` over the deals where both played."""

    a: int
    b: int
    difference: Interval
    """a's mean points per side minus b's, per deal."""
    win_rate: Interval
    """a's share of deals (or of matches, with ``matches``) won against b, draws as half."""
    unit: str


@dataclass(frozen=True)
class DDLoss:
    """One bot's double-dummy loss per card play: what its choices cost on the true deals.

    Each measured decision is a card play with a choice whose true position the
    solver valued in time: the value of the best action minus the value of the
    action played, in the solver's units (tricks in Tuppi rami, card points in
    Tute, ...).  0 is perfect double-dummy play.
    """

    mean: Interval
    """Mean loss per measured card play, with a 95% interval over those plays."""
    zero_share: float
    """The share of measured card plays that lost nothing."""
    measured: int
    skipped: int
    """Card plays whose solve took longer than the limit: not in the mean."""


@dataclass(frozen=True)
class Summary:
    bots: tuple[str, ...]
    deals: int
    plays: int
    pairs: tuple[PairStats, ...]
    ratings: tuple[float, ...]
    median_decision: tuple[float | None, ...]
    """Median seconds per decision of each bot (None if it never had a choice)."""
    running: tuple[tuple[float, float, float], ...]
    """Bots 0 and 1: the mean difference and its interval after each deal (for the plot)."""
    dd_loss: tuple[DDLoss | None, ...] = ()
    """Per bot, its double-dummy loss per card play (measured with ``dd_loss`` only; None if
    the bot had no measured card play)."""


def _bot_points(result: DealResult, bot: int) -> float | None:
    """The mean points per side that ``bot`` held in this deal's plays (None if it sat out)."""
    held = [p for play in result.plays for side, p in enumerate(play.points) if play.lineup[side] == bot]
    return statistics.fmean(held) if held else None


def _match_score(result: DealResult, a: int, b: int) -> tuple[float, int]:
    """a's match wins against b in this deal's plays (draws half), and the plays that count."""
    won, counted = 0.0, 0
    for play in result.plays:
        if a not in play.lineup or b not in play.lineup:
            continue
        counted += 1
        if play.places is not None:  # several may win (Tute cabrero): the better mean place
            mine, theirs = (statistics.fmean(p for side, p in enumerate(play.places)
                                             if play.lineup[side] == x) for x in (a, b))
            won += 1.0 if mine < theirs else 0.0 if mine > theirs else 0.5
        elif play.winner is None:
            won += 0.5
        elif play.lineup[play.winner] == a:
            won += 1
        elif play.lineup[play.winner] != b:
            counted -= 1  # a third bot won: no result between a and b
    return won, counted


def summarise(bots: Sequence[str], results: Sequence[DealResult], matches: bool) -> Summary:
    """Pairwise differences and win rates, ratings and decision times over ``results``."""
    ordered = sorted(results, key=lambda r: r.deal)
    pairs = []
    wins: dict[tuple[int, int], float] = {}
    running: list[tuple[float, float, float]] = []
    for a in range(len(bots)):
        for b in range(a + 1, len(bots)):
            diffs = []
            won, games = 0.0, 0
            for result in ordered:
                pa, pb = _bot_points(result, a), _bot_points(result, b)
                if pa is None or pb is None:
                    continue
                diffs.append(pa - pb)
                if (a, b) == (0, 1):
                    running.append(_as_tuple(mean_interval(diffs)))
                if matches:
                    w, n = _match_score(result, a, b)
                    won, games = won + w, games + n
                else:
                    won += 1.0 if pa > pb else 0.5 if pa == pb else 0.0
                    games += 1
            rate = wilson(won, games)
            wins[(a, b)], wins[(b, a)] = won, games - won
            pairs.append(PairStats(a, b, mean_interval(diffs), rate, "matches" if matches else "deals"))
    times = [[t for r in ordered for t in r.decision_times[i]] for i in range(len(bots))]
    return Summary(
        bots=tuple(bots),
        deals=len(ordered),
        plays=sum(len(r.plays) for r in ordered),
        pairs=tuple(pairs),
        ratings=tuple(bradley_terry(wins, len(bots))),
        median_decision=tuple(statistics.median(t) if t else None for t in times),
        running=tuple(running),
        dd_loss=_dd_losses(len(bots), ordered),
    )


def _dd_losses(bots: int, results: Sequence[DealResult]) -> tuple[DDLoss | None, ...]:
    """Each bot's :class:`DDLoss` over ``results``; empty when they were played without ``dd_loss``."""
    if not any(r.dd_losses for r in results):
        return ()
    out: list[DDLoss | None] = []
    for bot in range(bots):
        losses = [x for r in results if r.dd_losses for x in r.dd_losses[bot]]
        skipped = sum(r.dd_skipped[bot] for r in results if r.dd_skipped)
        if not losses:
            out.append(None)
            continue
        zero = sum(1 for x in losses if x == 0) / len(losses)
        out.append(DDLoss(mean_interval(losses), zero, len(losses), skipped))
    return tuple(out)


def _as_tuple(interval: Interval) -> tuple[float, float, float]:
    return interval.value, interval.low, interval.high
