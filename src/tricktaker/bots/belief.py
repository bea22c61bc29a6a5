"""Weighting sampled worlds by what the other players did: inference from bids and plays.

``View.sample_world`` deals the unseen cards uniformly among the deals that
are *consistent* with what a seat has seen: a world where the partner bid rami
on a hand of twos counts as much as one where it held four aces.  Strong card
programs (GIB's auction filter in bridge; Kermit in Skat and Solinas, Rebstock
and Buro 2019) instead weight each world by how likely it makes the actions
seen.  This module does that for every game, with two models of the others:

**The rules model.**  Each other player acts like the ``rules`` policy with
probability ``trust``, and otherwise picks any legal action uniformly.  So an
action seen at a decision with ``n`` legal actions has likelihood
``trust + (1 - trust) / n`` in a world where the ``rules`` policy, given that
player's view in that world, would have played it (or an action that looks the
same to this seat: a hidden bid card; or one of the actions the policy ties at
its best), and ``(1 - trust) / n`` otherwise.  (A first version gave a match
``trust`` and spread the rest over the other ``n - 1``: then a forced card,
likelihood 1, outweighed a matched choice by ``1 / trust``, and worlds where the
others had fewer choices beat the true one.)  A world's
weight is the product over every decision of the other players in the current
hand (the partner's included; a decision with one legal action says nothing).
The ``rules`` policies name one action rather than scoring all, so a softmax
over their preferences was not available; ``trust`` plays the temperature's
part (0 is uniform sampling, near 1 a filter).

**A model of searching players.**  :func:`dd_likelihood` (``infer=dd``) takes
the others to play, with probability ``trust``, a card that is best on the
world's cards (the solver's values), as a searching player's card tends to be
on the true deal; only their recent card plays are scored, since each costs a
solve per world.

**Using it.**  :func:`weighted_worlds` draws ``pool`` times more worlds than
it returns and resamples them in proportion to their weights (systematic
resampling), so the search bots use the returned worlds exactly as they used
uniform ones.  A world drawn twice is returned twice (the same object: value
it once).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from ..engine import Action, State
from .base import View
from .playout import world_view

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

T = TypeVar("T")

__all__ = ["bids_likelihood", "dd_likelihood", "effective_size", "flat_likelihood", "log_likelihood",
           "rewound", "tempering", "weighted_worlds"]


def rewound(world: State) -> tuple[State, list[Action]]:
    """A copy of ``world`` at the start of its current hand (same deal), and the hand's actions.

    Uses the engine's hand log (``HandLog.start`` and ``deal``), as ``State.undo`` does:
    undoing action by action would replay the hand once per action.
    """
    replay = world.clone()
    hand = replay._log[-1]
    actions = list(hand.actions)
    hand.actions = replay._actions = []
    hand.result = None
    replay._start_hand(hand.start, hand.deal)
    return replay, actions


class _Favouring(random.Random):
    """A generator whose ``choice`` picks ``favoured`` when it is among the options.

    The ``rules`` policies use their generator only to break ties (``rng.choice``
    among equally good actions); handed this one, a policy names the seen action
    whenever it was one of its equal best, so a tie is not counted as a mistake.
    """

    def __init__(self, favoured: Action) -> None:
        super().__init__(0)
        self.favoured = favoured

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        for index in range(len(seq)):
            if seq[index] is self.favoured:
                return seq[index]
        return super().choice(seq)


def _looks_the_same(state: State, one: Action, other: Action, seat: int) -> bool:
    """True when ``seat`` cannot tell ``one`` from ``other`` played in ``state`` (a hidden bid card).

    Two different card plays never look the same: a card played to a trick is shown to
    every seat in every game (``tests/test_belief.py`` checks it), so the two copies and
    observations that would say so are skipped on the likelihood's hot path.
    """
    if one.kind == other.kind == "play":
        return one is other
    first, second = state.clone(), state.clone()
    first.apply(one)
    second.apply(other)
    return first.observation(seat) == second.observation(seat)


def log_likelihood(world: State, seat: int, trust: float, plays: bool = True) -> float:
    """The log of how likely the other players' actions of this hand are in ``world`` (see the module).

    ``seat`` is the seat doing the inference: its own actions are the same in
    every world it can sample, so they are left out.  With ``plays`` false only
    the actions that are not card plays count (bids, answers, calls, gifts,
    discards): :func:`bids_likelihood`.
    """
    from .rules import POLICIES

    policy = POLICIES[world.game.name]
    replay, actions = rewound(world)
    total = 0.0
    for action in actions:
        mover = replay.current_player
        assert mover is not None
        if mover != seat and (plays or action.kind != "play"):
            legal = replay.legal_actions()
            if len(legal) > 1:
                model = policy(world_view(replay, mover), _Favouring(action))
                stray = (1 - trust) / len(legal)
                if model is action or _looks_the_same(replay, model, action, seat):
                    total += math.log(trust + stray)
                else:
                    total += math.log(stray)
        replay.apply(action)
    return total


def bids_likelihood(world: State, seat: int, trust: float) -> float:
    """:func:`log_likelihood` of the others' actions that are not card plays.

    The bidding and the calls are where the rules model is close to how the search bots
    act (``pimc`` keeps the rules bid unless its rollouts find one clearly better), and
    where the seeds' conventions speak (Huutopussi's 85 jump with an ace, its 160 suit
    signal); card plays, which ``pimc`` chooses by search, are left out.
    """
    return log_likelihood(world, seat, trust, plays=False)


def flat_likelihood(world: State, seat: int, trust: float) -> float:
    """Every world alike (log-likelihood 0): ``infer=flat``, uniform worlds drawn the weighted way.

    A bot with it draws the same ``pool`` times more worlds as a weighted one of the same seed
    and keeps the same share of them, so where the weights say nothing the two decide on the
    very same worlds: compared with it, rather than with ``infer=none`` (a sample of its own),
    a weighting's effect is not buried under the difference between two samples of worlds.
    """
    return 0.0


DD_NODES = 200_000
"""The most search nodes one past play's solve may visit in :func:`dd_likelihood` (a few
hundredths of a second); a play whose position needs more is taken as a best card."""

DD_WINDOW = 1
"""How far back :func:`dd_likelihood` looks: the others' card plays among the last
``DD_WINDOW`` tricks' worth of plays (``num_players - 1`` plays a trick)."""


def dd_likelihood(world: State, seat: int, trust: float) -> float:
    """The log of how likely the other players' recent card plays are in ``world`` under a
    double-dummy model: each player plays, with probability ``trust``, a card that is best on this
    world's cards (one the solver values highest at that position), and otherwise any legal card.

    This is the model of a player who searches (``pimc``): it does not see the world, but it
    chooses the card that fares best over the deals it cannot tell apart, so its card tends to be
    a best one on the true deal, and to be a poor one on deals that differ where it mattered.  How
    many cards tie at the top does not matter to such a player, so a best card counts alike
    however many there are (as :func:`log_likelihood` counts a tie of the rules policy).

    Each scored play costs a solve in every world, so only the others' plays among the last
    :data:`DD_WINDOW` tricks' worth are scored, only where ``pimc`` would solve the mover's
    position with the game's limits and no stock is left to draw
    (:func:`~tricktaker.bots.pimc.within_solve_limits`), each solve within :data:`DD_NODES`.
    Each factor is divided by a best card's, so a play not scored counts as a best card and
    cannot make a world likelier than one where it was scored best: a world's log-likelihood is
    0 when every scored play was a best card there.
    """
    from ..solver import SolveError, SolveTimeout, solve
    from .pimc import within_solve_limits

    replay, actions = rewound(world)
    plays = [i for i, a in enumerate(actions) if a.kind == "play"]
    window = set(plays[-DD_WINDOW * (world.num_players - 1):])
    total = 0.0
    for index, action in enumerate(actions):
        mover = replay.current_player
        assert mover is not None
        if index in window and mover != seat:
            legal = replay.legal_actions()
            if len(legal) > 1 and within_solve_limits(world.game, replay.observation(mover), mover,
                                                      stock_cards=0):
                try:
                    values = solve(replay, node_limit=DD_NODES).values
                except (SolveTimeout, SolveError):
                    values = None
                if values is not None and values[action] < max(values.values()):
                    stray = (1 - trust) / len(legal)
                    total += math.log(stray / (trust + stray))
        replay.apply(action)
    return total


def effective_size(logs: list[float], power: float) -> float:
    """Kish's effective sample size of the weights ``exp(power * log)``: ``(sum w)^2 / sum w^2``.

    It is the number of equally weighted worlds that would average as steadily:
    ``len(logs)`` for equal weights, 1 when one world carries all the weight.
    """
    top = max(logs)
    weights = [math.exp(power * (x - top)) for x in logs]
    return sum(weights) ** 2 / sum(w * w for w in weights)


def tempering(logs: list[float], least: float) -> float:
    """The largest power in [0, 1] at which the weights keep an effective sample size of ``least``.

    Each action that the model did not expect divides a world's weight by 5 to
    20, so after a few tricks one or two worlds carry the whole sample and PIMC
    averages over those alone (docs/bots.md measured 2-10 distinct deals among
    24 kept).  Raising the likelihoods to a power below 1 (tempering, as in
    sequential Monte Carlo) keeps the order of the worlds but flattens the
    weights; the power is the highest that still leaves ``least`` effective
    worlds, so the weighting is used in full while it is mild.
    """
    if least <= 1 or effective_size(logs, 1.0) >= least:
        return 1.0
    low, high = 0.0, 1.0  # effective_size(low) >= least > effective_size(high)
    for _ in range(30):
        middle = (low + high) / 2
        if effective_size(logs, middle) >= least:
            low = middle
        else:
            high = middle
    return low


def weighted_worlds(view: View, rng: random.Random, count: int, pool: int, trust: float,
                    weigh: Callable[[State, int, float], float] = log_likelihood,
                    spread: float = 0.0, deadline: float | None = None) -> list[State]:
    """``count`` worlds for ``view``'s seat, drawn in proportion to the likelihood of what it has seen.

    ``pool * count`` worlds are sampled uniformly and resampled by weight
    (systematic resampling: one random offset, so a world of weight w is drawn
    ``pool * count * w`` times, rounded up or down).  With ``spread`` above 0 the
    likelihoods are tempered (:func:`tempering`) so that the weights keep an
    effective sample size of at least ``spread * pool * count`` worlds.  Once
    ``deadline`` (a :func:`time.perf_counter` instant) passes no more worlds are
    drawn, and one world is kept for each ``pool`` drawn (at least one): scoring
    each world replays its hand, so a bot's time budget must bound it too.
    """
    if pool == 1 and count == 1:
        return [view.sample_world(rng)]  # nothing to choose among: no weighing
    candidates: list[State] = []
    logs: list[float] = []
    for _ in range(count * pool):
        world = view.sample_world(rng)
        candidates.append(world)
        logs.append(weigh(world, view.seat, trust))
        if deadline is not None and time.perf_counter() > deadline:
            count = min(count, max(1, len(candidates) // pool))
            break
    power = tempering(logs, spread * len(logs)) if spread > 0 else 1.0
    top = max(logs)
    weights = [math.exp(power * (x - top)) for x in logs]
    total = sum(weights)
    step = total / count
    mark = rng.random() * step
    chosen: list[State] = []
    running = 0.0
    for world, weight in zip(candidates, weights, strict=True):
        running += weight
        while mark < running and len(chosen) < count:
            chosen.append(world)
            mark += step
    while len(chosen) < count:  # rounding at the very end
        chosen.append(candidates[-1])
    return chosen
