"""The αμ bot: PIMC without strategy fusion for the bot's own next moves.

PIMC (:mod:`.pimc`) values a card by solving each sampled world separately, so
in each world it assumes that it will later play the card that is right *for
that world*.  It cannot: a later decision is made knowing no more than the
public play, so the bot must choose one card for every world that is still
possible then.  Where the right later card differs between worlds, PIMC
rates a line that leaves a guess as if the guess were always right: this is
*strategy fusion*, and it can make PIMC prefer a guess to a sure thing.

αμ (Cazenave and Ventos, "The αμ Search Algorithm for the Game of Bridge")
removes it for the searcher's own next ``m`` moves.  It searches a tree over
all sampled worlds at once, whose nodes are the public sequences of actions:

- at the **bot's nodes** it chooses one action for every world of the node
  (the bot holds the same cards in each, and has seen the same play); after
  its ``m``-th move the worlds are solved (``tt.solve``), each separately;
- at an **opponent's node** each world takes the action that is worst for the
  bot in that world (the opponents are assumed to see every card, as PIMC
  assumes of everyone);
- at the **partner's node** each world takes the action the ``rules`` policy
  plays from the partner's own view in that world.  The bot does not choose for
  its partner, who holds cards the bot does not know; and a partner taken to
  see every card (as PIMC takes it) would choose, world by world, the card that
  tells the bot which world it is in, a perfect signal no partner can give,
  which brings strategy fusion back through the partner's cards.  That
  all-seeing partner is still an option (``partner=best``: each world takes
  the best of the partner's legal actions), for measuring what the partner
  model does.

A node's value is not one number but a set of vectors, one entry per world:
the outcomes one strategy of the bot gets in each world.  Only vectors no
other beats in every world are kept (a Pareto front).  The bot's node takes
the union of its actions' fronts; an opponent's node combines its actions'
fronts by taking, world by world, the minimum over the actions legal in that
world, for every choice of one vector per action (the bot's plans after
different public actions are independent); at the partner's node each world
takes its entries from the one action the partner plays in it.  At the root
each action scores the best mean over the vectors of its front, and the bot
plays the best score (ties: the ``rules`` choice).
With ``m=1`` this is exactly PIMC over the same worlds.

The original αμ values worlds as won or lost; here an entry is the solver's
value in the game's units (tricks in Tuppi rami and nolo, 1 or 0 in sooli,
points in the point games), counted from the root: what the bot's side made on
the way to the node (:func:`tricktaker.solver.made`) plus the solver's value
there, so entries of different branches compare.  Pareto fronts and the minimum
and maximum are as meaningful for numbers as for 0 and 1; the score of a vector
is its mean, as PIMC's is its sum.  Sides are the solver's
(:func:`tricktaker.solver.side_of`): in three-player Huutopussi the defenders
are partners.

The search runs in the card play of the games of :data:`SEARCH_CARDS` once the
bot has at most that many cards to play (``search_cards``) and no stock is
left.  Everywhere else (bidding, sooli answers, calls at the root, bigger hands,
Avomarjapussi) the bot plays as :class:`~.pimc.PimcBot` with the same
``worlds`` and ``time``.  A ``time`` budget that runs out during the search
falls back to PIMC's choice over the same worlds (computed first).
Deterministic given ``seed`` when no ``time`` budget binds.
"""

from __future__ import annotations

import math
import random
import time as clock
from collections.abc import Callable, Iterable

from ..engine import Action, State
from .base import Bot, View
from .pimc import PimcBot, candidates, cards_to_play
from .playout import world_view

Policy = Callable[[View, random.Random], Action]

__all__ = ["PARTNERS", "SEARCH_CARDS", "AlphaMuBot", "Front", "pareto"]

Vector = tuple[float, ...]
"""A strategy's outcome in each world of a node, in the node's world order."""

Front = list[Vector]
"""The vectors of a node no other vector of it beats in every world."""

PARTNERS = ("rules", "best")
"""The partner's models of the search (``partner``): its rules card from its view in each world,
or its best card in each world."""

SEARCH_CARDS: dict[str, int] = {"tuppi": 4, "tute": 4, "marjapussi": 4, "bondtolva": 4, "huutopussi": 4}
"""Per game, the most cards the bot may have still to play for the αμ search to run (measured:
docs/bots.md).  The tree grows with every card (each other player's action is a branch), so
this is well below PIMC's :data:`~.pimc.SOLVE_CARDS`.  Not Avomarjapussi: its face-down cards,
which neither player knows, turn up differently in each world, so the bot's own later choices
are not one set for every world, which the search's nodes assume."""


# The solver is imported where it is first used, as in the other bots: it loads numpy, which
# importing the bots (a terminal game with the rules bot) need not wait for.


def _made(state: State, side: int, hand_number: int) -> float:
    from ..solver import made

    return made(state, side, hand_number)


def _side_of(state: State, seat: int) -> int:
    from ..solver import side_of

    return side_of(state, seat)


def dominates(one: Vector, other: Vector) -> bool:
    """True when ``one`` is at least ``other`` in every world and better in one."""
    return one != other and all(a >= b for a, b in zip(one, other, strict=True))


def pareto(vectors: Iterable[Vector]) -> Front:
    """The distinct vectors that no other one dominates, in a stable order."""
    unique = list(dict.fromkeys(vectors))
    return [v for v in unique if not any(dominates(u, v) for u in unique)]


def _combine(fronts: list[tuple[list[int], Front]], size: int, worst: bool) -> Front:
    """Combine the fronts of the actions at another player's node, world by world.

    ``fronts`` holds, per action, the positions (in the node's world order) of the worlds
    where the action is legal, and its front over those worlds.  Each world takes the
    minimum (``worst``: an opponent) over its legal actions, or the maximum (the partner,
    whose one action per world leaves a single entry to take); every choice of one vector
    per action is a strategy of the bot.
    """
    neutral = math.inf if worst else -math.inf
    pick = min if worst else max
    combined: Front = [(neutral,) * size]
    for positions, front in fronts:
        step: list[Vector] = []
        for base in combined:
            for vector in front:
                merged = list(base)
                for position, value in zip(positions, vector, strict=True):
                    merged[position] = pick(merged[position], value)
                step.append(tuple(merged))
        combined = pareto(step)
    return combined


def _no_policy(view: View, rng: random.Random) -> Action:
    raise RuntimeError("no search is running")


class _OutOfTime(Exception):
    """The search's deadline passed: the bot falls back to PIMC's choice."""


class AlphaMuBot(Bot):
    """αμ search over sampled worlds for small card-play positions; PIMC everywhere else.

    ``m``: the bot's own moves searched without strategy fusion (1 is PIMC);
    ``worlds``: worlds per decision; ``time``: seconds per decision at most (then
    PIMC's choice); ``search_cards``: search when the bot has at most this many
    cards to play (none: the game's default in :data:`SEARCH_CARDS`); ``partner``: the
    partner's model, ``rules`` (its rules card from its view in each world) or ``best``
    (the best card in each world, as PIMC assumes).
    """

    name = "alphamu"
    listed = False  # a research bot for the arena until it is measured to beat pimc

    def __init__(self, seed: int | None = None, m: int = 2, worlds: int = 24,
                 time: float | None = None, search_cards: int | None = None,
                 partner: str = "rules") -> None:
        if m < 1:
            raise ValueError(f"m must be at least 1, not {m}")
        if partner not in PARTNERS:
            raise ValueError(f"unknown partner model {partner!r} (choices: {', '.join(PARTNERS)})")
        if search_cards is not None and search_cards < 0:
            raise ValueError(f"search_cards must be at least 0, not {search_cards}")
        super().__init__(seed)
        self.m = m
        self.worlds = worlds
        self.time = time
        self.search_cards = search_cards
        self.partner = partner
        self.pimc = PimcBot(seed=seed, worlds=worlds, time=time)
        """Plays every decision the search does not take (its own generator, seeded alike)."""
        self._deadline: float | None = None
        self._seat = self._side = self._hand = 0
        self._policy: Policy = _no_policy
        self._partner_rng = random.Random(0)
        self.searches = 0
        """Decisions taken by the αμ search (not by the PIMC fallback): for tests and measurement."""
        self.last_scores: dict[str, dict[Action, float]] = {}
        """The last search's mean value per world of each root action, by PIMC (each world
        solved alone) and by αμ: what the tests and docs compare."""

    def searches_here(self, view: View) -> bool:
        """True when this decision is card play the αμ search takes."""
        observation = view.observation
        name = view.game.name
        if name not in SEARCH_CARDS or observation.get("phase") != "play" or observation.get("stock_size"):
            return False
        limit = self.search_cards if self.search_cards is not None else SEARCH_CARDS[name]
        return self.m > 1 and cards_to_play(observation, view.seat) <= limit

    def decide(self, view: View) -> Action:
        if not self.searches_here(view):
            return self.pimc.decide(view)
        from .rules import POLICIES

        rng = self._rng
        self._deadline = None if self.time is None else clock.perf_counter() + self.time
        choices = candidates(view, rng, len(view.legal_actions))
        worlds = [view.sample_world(rng) for _ in range(self.worlds)]
        self._seat, self._side = view.seat, _side_of(worlds[0], view.seat)
        self._policy = POLICIES[view.game.name]
        self._partner_rng = random.Random(rng.getrandbits(64))
        self._hand = worlds[0].hand_number
        origin = [_made(w, self._side, self._hand) for w in worlds]
        # PIMC's values first: the answer if the search runs out of time, and the leaves at m=1.
        try:
            leaves = self._solve_all(worlds)
        except _OutOfTime:
            return choices[0]  # not one world solved in time: the rules choice
        pimc_score = {a: sum(values[a] for values in leaves) for a in choices}
        fallback = max(choices, key=lambda a: pimc_score[a])
        try:
            scores = self._root_scores(worlds, origin, choices)
        except _OutOfTime:
            return fallback
        self.searches += 1
        self.last_scores = {"pimc": {a: pimc_score[a] / len(worlds) for a in choices}, "alphamu": scores}
        return max(choices, key=lambda a: scores[a])  # first of equals: the rules choice

    # -- the search ---------------------------------------------------------------------

    def _check_time(self) -> float | None:
        """Seconds left for a solve, or None without a budget; :class:`_OutOfTime` when spent."""
        if self._deadline is None:
            return None
        left = self._deadline - clock.perf_counter()
        if left <= 0:
            raise _OutOfTime
        return left

    def _solve_all(self, worlds: list[State]) -> list[dict[Action, int]]:
        """Each world's solver values of the mover's actions."""
        from ..solver import SolveTimeout, solve

        out = []
        for world in worlds:
            try:
                out.append(solve(world, time_limit=self._check_time()).values)
            except SolveTimeout:
                raise _OutOfTime from None
        return out

    def _root_scores(self, worlds: list[State], origin: list[float],
                     choices: list[Action]) -> dict[Action, float]:
        """Each root action's best mean over the vectors of its front (its mean total per world)."""
        scores: dict[Action, float] = {}
        for action in choices:
            children = []
            for world in worlds:
                child = world.clone()
                child.apply(action)
                children.append(child)
            front = self._value(children, origin, self.m - 1)
            scores[action] = max(sum(v) for v in front) / len(worlds)
        return scores

    def _value(self, worlds: list[State], origin: list[float], moves_left: int) -> Front:
        """The front of a node: ``worlds`` share its public history; ``origin`` their root banks.

        ``moves_left`` counts the bot's moves still searched from here (its next node is a
        leaf when it is 1).
        """
        first = worlds[0]
        if first.is_over() or first.hand_number != self._hand:
            return [tuple(_made(w, self._side, self._hand) - o for w, o in zip(worlds, origin, strict=True))]
        mover = first.current_player
        assert mover is not None
        if mover == self._seat:
            if moves_left <= 1:
                return self._leaf(worlds, origin)
            legal = first.legal_actions()
            vectors: list[Vector] = []
            for action in legal:
                vectors.extend(self._value(self._after(worlds, action), origin, moves_left - 1))
            return pareto(vectors)
        partner = _side_of(first, mover) == self._side
        modelled = partner and self.partner == "rules"
        by_action: dict[Action, list[int]] = {}
        for position, world in enumerate(worlds):
            for action in (self._partner_action(world, mover),) if modelled else world.legal_actions():
                by_action.setdefault(action, []).append(position)
        fronts = []
        for action, positions in by_action.items():
            subset = [worlds[p] for p in positions]
            front = self._value(self._after(subset, action), [origin[p] for p in positions], moves_left)
            fronts.append((positions, front))
        return _combine(fronts, len(worlds), worst=not partner)

    def _partner_action(self, world: State, seat: int) -> Action:
        """What the partner plays in ``world``: the ``rules`` policy, from its own view there."""
        legal = world.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self._policy(world_view(world, seat), self._partner_rng)

    def _leaf(self, worlds: list[State], origin: list[float]) -> Front:
        """The bot's last searched move: one action for every world, each world solved."""
        self._check_time()
        leaves = self._solve_all(worlds)
        offset = [_made(w, self._side, self._hand) - o for w, o in zip(worlds, origin, strict=True)]
        legal = worlds[0].legal_actions()
        return pareto(tuple(off + values[a] for off, values in zip(offset, leaves, strict=True))
                      for a in legal)

    @staticmethod
    def _after(worlds: list[State], action: Action) -> list[State]:
        """Each world with ``action`` applied (copies: the caller's worlds are kept)."""
        out = []
        for world in worlds:
            child = world.clone()
            child.apply(action)
            out.append(child)
        return out

    def __repr__(self) -> str:
        return (f"AlphaMuBot(seed={self.seed!r}, m={self.m}, worlds={self.worlds}, time={self.time!r}, "
                f"partner={self.partner!r})")
