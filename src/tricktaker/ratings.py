"""Glicko-2 ratings: Mark Glickman's system, as his paper "Example of the Glicko-2 system" sets out.

A rating is three numbers: the rating itself (1500 to start), its deviation
``rd`` (how unsure it is: 350 to start, smaller as games are played) and the
``volatility`` (how erratic the player's form is: 0.06 to start).  A rating
period's games all count at once: :func:`rate` takes the player's rating before
the period and each game's opponent (their rating before the period) and score
(1 a win, 0.5 a draw, 0 a loss), and gives the rating after it.  A period
without games only widens the deviation.

``tau`` bounds how fast the volatility may change; Glickman suggests 0.3 to
1.2, and his worked example uses 0.5, as we do.

Pure Python with no dependencies: the server (:mod:`tricktaker.server.leaderboard`)
decides what a match's games are and stores the numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["DEFAULT_RD", "DEFAULT_RATING", "DEFAULT_VOLATILITY", "SCALE", "TAU", "Rating", "expected",
           "rate"]

DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5
"""The system constant: how much the volatility may change in a period."""
SCALE = 400 / math.log(10)
"""173.7178...: from the Glicko scale (1500 ± 350) to Glicko-2's (0 ± 2.01)."""
EPSILON = 1e-6
"""The volatility iteration stops when its bracket is this narrow (Glickman's value)."""


@dataclass(frozen=True)
class Rating:
    """A player's rating on the Glicko scale (what people read: 1500 is a new player)."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE


def _g(phi: float) -> float:
    """How much an opponent's uncertain rating weakens what a game against them says."""
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(player: Rating, opponent: Rating) -> float:
    """The player's expected score against the opponent (0 to 1)."""
    return _e(player.mu, opponent.mu, opponent.phi)


def rate(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period of ``games`` (opponent, score).

    Scores are 0 to 1; an opponent's rating is theirs before the period.  Raises
    ``ValueError`` for a score outside 0..1 or a tau that is not positive.
    """
    if not tau > 0:
        raise ValueError(f"tau must be positive, not {tau!r}")
    phi, sigma = player.phi, player.volatility
    if not games:  # step 6 alone: the deviation grows with the time unplayed
        return Rating(player.rating, min(DEFAULT_RD, math.sqrt(phi * phi + sigma * sigma) * SCALE), sigma)
    mu = player.mu
    inverse_v = 0.0
    improvement = 0.0  # sum of g(phi_j) * (s_j - E_j)
    for opponent, score in games:
        if not 0 <= score <= 1:
            raise ValueError(f"a score is 0 to 1, not {score!r}")
        g = _g(opponent.phi)
        e = _e(mu, opponent.mu, opponent.phi)
        inverse_v += g * g * e * (1 - e)
        improvement += g * (score - e)
    v = 1 / inverse_v
    delta = v * improvement
    sigma = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(DEFAULT_RATING + SCALE * new_mu, SCALE * new_phi, sigma)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of Glickman's f by the Illinois method."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    lower = a
    if delta * delta > phi * phi + v:
        upper = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        upper = a - k * tau
    f_lower, f_upper = f(lower), f(upper)
    while abs(upper - lower) > EPSILON:
        c = lower + (lower - upper) * f_lower / (f_upper - f_lower)
        f_c = f(c)
        if f_c * f_upper <= 0:
            lower, f_lower = upper, f_upper
        else:
            f_lower /= 2
        upper, f_upper = c, f_c
    return math.exp(lower / 2)
