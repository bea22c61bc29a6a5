"""The oracle: a reference bot that sees every card (the ceiling the other bots are read against).

A bot's points against ``rules`` say little by themselves: is +6 a deal a lot
or a little in Tuppi?  Against a player who sees every hand the question has a
scale: the share of the rules-to-oracle gap a bot closes.  The oracle is that
player, in the double-dummy sense of bridge programs:

- **Card play** (and every other phase the solver takes: Tute's cantes, the
  marriage games' calls and answers): ``tt.solve`` on the true deal, and a best
  action, the ``rules`` choice when it is among the best (so equal cards are
  played naturally).  A solve that takes longer than ``time`` seconds falls
  back to the ``rules`` choice (:attr:`OracleBot.fallbacks` counts those), or
  to an action the solve had found better than it before it stopped
  (:func:`better_known`).
- **Everything else** (bids, sooli answers, exchanges, declarations before
  play): each candidate action is applied to the true deal and the hand is
  played to its end *double dummy where affordable*: every seat plays a
  solver's best action once a solve of at most ``playout_time`` seconds
  succeeds, and the ``rules`` policy until then.  Where the game reads a hand's
  result from one solve at its first card (Tuppi rami and sooli:
  :func:`~tricktaker.bots.playout.solved_playout`, the piece ``pimc:phases=solve``
  values its bids by too), that one solve stands for the double-dummy playout.
  The candidate whose hand ends best for the oracle's side is chosen, ties to
  the ``rules`` choice.

The oracle is not a cheat that any front end can seat: it derives from
:class:`~tricktaker.bots.base.Oracle`, whose :meth:`~.base.Oracle.decide`
refuses a view, and only the arena hands such a bot the state.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..engine import Action, State
from .base import Oracle
from .pimc import MAX_THREADS
from .playout import ROLLOUTS, hand_over, hand_rewards, solved_playout

if TYPE_CHECKING:
    from ..solver import Tables

__all__ = ["OracleBot", "better_known", "dd_playout", "solved_best"]


def _rules_choice(state: State, rng: random.Random) -> Action:
    """What the ``rules`` policy plays for the seat to act, from that seat's observation only
    (the ``rules`` rollout's choice)."""
    seat = state.current_player
    assert seat is not None
    return ROLLOUTS["rules"](state, seat, rng)


def _hand_size(state: State) -> int:
    """Cards in the hand of the seat to act: how a failed solve knows when to try again."""
    seat = state.current_player
    assert seat is not None
    return len(state.observation(seat).get("hand") or ())


def better_known(preferred: Action, values: dict[Action, int]) -> Action:
    """``preferred``, unless ``values`` (the exact values a stopped solve found:
    :attr:`~tricktaker.solver.SolveTimeout.values`) hold it and an action worth more, which is
    then certainly the better play (the first of the best found)."""
    if preferred not in values:
        return preferred
    best = max(values.values())
    return preferred if values[preferred] == best else next(a for a, v in values.items() if v == best)


def solved_best(state: State, time_limit: float, preferred: Action,
                tables: Tables | None = None, threads: int = 1) -> tuple[Action, bool]:
    """A double-dummy best action of ``state`` (``preferred`` if it is one), solved in ``tables``
    (:func:`~tricktaker.solver.solve`'s own by default) and ``threads`` threads, and True; or,
    when the solver does not take this phase or takes longer than ``time_limit``, ``preferred``
    (or an action the stopped solve found better: :func:`better_known`) and False.
    """
    from ..solver import SolveError, SolveTimeout, solve

    try:
        solution = solve(state, time_limit=time_limit, tables=tables, threads=threads)
    except SolveError:
        return preferred, False
    except SolveTimeout as stopped:
        return better_known(preferred, stopped.values), False
    best = solution.best()
    return (preferred if preferred in best else best[0]), True


def dd_playout(state: State, rng: random.Random, solve_time: float,
               tables: Tables | None = None, threads: int = 1) -> list[float]:
    """Play ``state`` (owned by the caller) to the end of its hand, solving in ``tables`` and
    ``threads`` threads; each side's reward.

    Every seat plays the solver's best action where a solve finishes within
    ``solve_time`` seconds, else the ``rules`` choice.  After a solve runs out
    of time it is tried again only once the hand to act is a card shorter
    (deals shrink fast, and a too-big deal stays too big until then).
    """
    number = state.hand_number
    retry_below: int | None = None
    while not hand_over(state, number):
        preferred = _rules_choice(state, rng)
        action = preferred
        if len(state.legal_actions()) > 1:
            size = _hand_size(state)
            if retry_below is None or size < retry_below:
                action, solved = solved_best(state, solve_time, preferred, tables, threads)
                if not solved:
                    retry_below = size
        state.apply(action)
    return hand_rewards(state)


class OracleBot(Oracle):
    """Sees every card: solves the true deal in card play; plays each candidate out double dummy elsewhere.

    ``time``: seconds a card-play solve may take (then the ``rules`` choice);
    ``playout_time``: seconds each solve of a double-dummy playout may take
    before that playout goes on by the ``rules`` policy; ``max_candidates``:
    the most actions played out in a phase the solver does not take (the
    ``rules`` choice and a seeded sample of the rest); ``threads``: how many of those
    candidates are played out at once, each in a thread and a set of tables of its own (the
    same playouts; a solve near its time limit may finish in one run and not in another), and
    how many threads a card-play solve shares (``solve(threads=...)``: the same values).
    """

    name = "oracle"

    def __init__(self, seed: int | None = None, time: float = 10.0, playout_time: float = 0.5,
                 max_candidates: int = 8, threads: int = 1) -> None:
        if not time > 0 or not playout_time > 0:
            raise ValueError(f"time and playout_time must be positive seconds, not {time}, {playout_time}")
        if max_candidates < 1:
            raise ValueError(f"max_candidates must be at least 1, not {max_candidates}")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be 1 to {MAX_THREADS}, not {threads}")
        super().__init__(seed)
        self.threads = threads
        self.time = time
        self.playout_time = playout_time
        self.max_candidates = max_candidates
        self.fallbacks = 0
        """Card-play decisions whose solve ran out of time and took the ``rules`` choice."""

    def decide_on_truth(self, state: State) -> Action:
        from ..solver import SolveError, SolveTimeout, solve

        preferred = _rules_choice(state, self._rng)
        try:
            solution = solve(state, time_limit=self.time, threads=self.threads)
        except SolveTimeout as stopped:
            self.fallbacks += 1
            return better_known(preferred, stopped.values)
        except SolveError:
            return self._best_by_playouts(state, preferred)
        best = solution.best()
        return preferred if preferred in best else best[0]

    def _best_by_playouts(self, state: State, preferred: Action) -> Action:
        """The candidate whose double-dummy playout of the true deal ends best for the mover's side."""
        seat = state.current_player
        assert seat is not None
        side = state.game.side_of(seat)
        others = [a for a in state.legal_actions() if a is not preferred]
        if len(others) >= self.max_candidates:
            others = self._rng.sample(others, self.max_candidates - 1)
        luck = self._rng.getrandbits(64)

        def play_out(action: Action, tables: Tables) -> float:
            child = state.clone()
            child.apply(action)
            rng = random.Random(luck)
            rewards = solved_playout(child, ROLLOUTS["rules"], rng, self.playout_time, tables)
            if rewards is None:  # not read from one solve: play it out, solving each card
                rewards = dd_playout(child, rng, self.playout_time, tables)
            return rewards[side]

        from ..solver.parallel import map_in_threads

        candidates = [preferred, *others]
        scores = dict(zip(candidates, map_in_threads(play_out, candidates, self.threads), strict=True))
        return max(scores, key=lambda a: scores[a])  # first of equals: the rules choice

    def __repr__(self) -> str:
        return f"OracleBot(seed={self.seed!r}, time={self.time})"
