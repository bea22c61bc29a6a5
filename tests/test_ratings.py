"""Glicko-2 (tricktaker.ratings) against Glickman's own worked example, and its properties."""

from __future__ import annotations

import math

import pytest

from tricktaker.ratings import SCALE, Rating, expected, rate

PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_glickmans_worked_example() -> None:
    """"Example of the Glicko-2 system": 1500/200/0.06 against 1400/30 (won), 1550/100 and
    1700/300 (lost), tau 0.5, gives 1464.06, 151.52 and 0.05999.  The paper rounds mu' to
    -0.2069 before scaling back; unrounded it is 1464.05, within 0.01 of the paper."""
    after = rate(PLAYER, OPPONENTS, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.015)
    assert after.rd == pytest.approx(151.52, abs=0.005)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)  # 0.0599960 unrounded
    assert after.volatility < 0.06
    # the paper's values on the Glicko-2 scale: mu' = -0.2069, phi' = 0.8722
    assert after.mu == pytest.approx(-0.2069, abs=0.00005)
    assert after.phi == pytest.approx(0.8722, abs=0.00005)


def test_the_examples_intermediate_quantities() -> None:
    """Steps 3 and 4 of the paper: g(phi_j) 0.9955, 0.9531, 0.7242; E 0.639, 0.432, 0.303;
    v = 1.7785, delta = -0.4834 (the paper works from g and E rounded as shown: unrounded,
    v is 1.7790)."""
    g = [1 / math.sqrt(1 + 3 * o.phi ** 2 / math.pi ** 2) for o, _ in OPPONENTS]
    assert g == pytest.approx([0.9955, 0.9531, 0.7242], abs=0.00005)
    e = [expected(PLAYER, o) for o, _ in OPPONENTS]
    assert e == pytest.approx([0.639, 0.432, 0.303], abs=0.0005)
    v = 1 / sum(gj * gj * ej * (1 - ej) for gj, ej in zip(g, e, strict=True))
    assert v == pytest.approx(1.7785, abs=0.001)
    delta = v * sum(gj * (s - ej) for gj, ej, (_, s) in zip(g, e, OPPONENTS, strict=True))
    assert delta == pytest.approx(-0.4834, abs=0.001)  # -0.4839 unrounded
    assert PLAYER.mu == 0 and PLAYER.phi == pytest.approx(1.1513, abs=0.0001)
    assert SCALE == pytest.approx(173.7178, abs=0.0001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = rate(PLAYER, [])
    assert after.rating == PLAYER.rating and after.volatility == PLAYER.volatility
    phi = math.sqrt(PLAYER.phi ** 2 + 0.06 ** 2)
    assert after.rd == pytest.approx(phi * SCALE)
    assert rate(Rating(), []).rd == 350  # never beyond a new player's


def test_a_win_raises_a_loss_lowers_and_a_draw_between_equals_keeps_the_rating() -> None:
    new = Rating()
    assert rate(new, [(Rating(), 1.0)]).rating > 1500 > rate(new, [(Rating(), 0.0)]).rating
    assert rate(new, [(Rating(), 0.5)]).rating == pytest.approx(1500)
    # beating a stronger opponent is worth more than beating a weaker one
    assert rate(new, [(Rating(1800, 60), 1.0)]).rating > rate(new, [(Rating(1200, 60), 1.0)]).rating
    # the games of one period count together: their order does not matter
    assert rate(PLAYER, OPPONENTS) == rate(PLAYER, list(reversed(OPPONENTS)))


def test_two_equal_players_move_by_the_same_amount_in_opposite_directions() -> None:
    a = b = Rating(1500, 200, 0.06)
    winner, loser = rate(a, [(b, 1.0)]), rate(b, [(a, 0.0)])
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rd == pytest.approx(loser.rd) and winner.rd < 200


def test_bad_scores_and_tau_are_refused() -> None:
    with pytest.raises(ValueError, match="a score is 0 to 1"):
        rate(PLAYER, [(Rating(), 2.0)])
    with pytest.raises(ValueError, match="tau must be positive"):
        rate(PLAYER, OPPONENTS, tau=0)


def test_a_large_surprise_raises_the_volatility() -> None:
    """The branch of step 5 where delta^2 > phi^2 + v: a weak player who beats many strong ones."""
    steady = Rating(1500, 50, 0.06)
    shocked = rate(steady, [(Rating(2300, 50), 1.0)] * 10)
    assert shocked.volatility > 0.06
    assert shocked.rating > 1500
