"""The ISMCTS bot: information-set Monte Carlo tree search, for every phase of every game.

This is single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012).  Each
iteration deals a new world from what the bot knows (``View.sample_world``)
and walks one shared tree in it: the tree's nodes are sequences of actions
from the decision at hand, so one node gathers statistics over every world in
which that sequence was possible.  Because a world decides which actions are
legal further down (an opponent's cards), a child is chosen by UCB among the
children legal *in this world*, and each child counts how often it was
available (its ``available`` count replaces the parent's visits in UCB).

Each node keeps the reward of the side that chose it, so every player in the
tree plays for its own side.  When the walk leaves the tree, the world is
played to the end of the hand by the rollout policy (the ``rules`` policies
by default) and every node on the path is credited with its side's hand
reward (:func:`~tricktaker.bots.playout.hand_rewards`).  Rewards are scaled
by the largest seen so far in the search, so one exploration constant suits
games scored in tricks and in hundreds of points alike.

The search needs nothing from a game beyond the State API, so it works in
bidding, exchanges, declarations and play alike.  A node where the mover has
more than ``max_candidates`` actions (Huutopussi's exchange) keeps the rules
policy's choice and a seeded sample of the rest.  Deterministic given ``seed``
when the ``iterations`` budget binds.
"""

from __future__ import annotations

import math
import time as clock

from ..engine import Action, State
from .base import Bot, View
from .playout import ROLLOUTS, check_budget, hand_over, hand_rewards, play_out, world_view

__all__ = ["IsmctsBot"]


class _Node:
    """Statistics of one action sequence, for the side that chose its last action."""

    __slots__ = ("available", "children", "keep", "reward", "side", "visits")

    def __init__(self, side: int) -> None:
        self.side = side
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.children: dict[Action, _Node] = {}
        self.keep: set[Action] | None = None


class IsmctsBot(Bot):
    """Searches one tree over sampled worlds; plays the most visited action.

    ``iterations``: worlds walked per decision; ``time``: seconds per decision
    at most; ``rollout``: ``rules`` or ``random``; ``exploration``: the UCB
    constant, on rewards scaled to at most 1.
    """

    name = "ismcts"

    def __init__(self, seed: int | None = None, iterations: int = 300, time: float | None = None,
                 rollout: str = "rules", exploration: float = 0.7, max_candidates: int = 12) -> None:
        check_budget("iterations", iterations, time, rollout)
        super().__init__(seed)
        self.iterations = iterations
        self.time = time
        self.rollout = rollout
        self.exploration = exploration
        self.max_candidates = max_candidates
        self._scale = 1.0

    def decide(self, view: View) -> Action:
        root = _Node(side=-1)
        self._scale = 1.0
        deadline = None if self.time is None else clock.perf_counter() + self.time
        for _ in range(self.iterations):
            self._iterate(root, view.sample_world(self._rng))
            if deadline is not None and clock.perf_counter() > deadline:
                break
        legal = [a for a in view.legal_actions if a in root.children]
        return max(legal, key=lambda a: root.children[a].visits)

    def _iterate(self, root: _Node, world: State) -> None:
        """Walk the tree in ``world``, add one node, roll out, and credit the path."""
        rng = self._rng
        number = world.hand_number
        node = root
        path = []
        while not hand_over(world, number):
            seat = world.current_player
            assert seat is not None
            legal = self._choices(node, world, seat)
            for action in legal:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = rng.choice(untried)
                child = node.children[action] = _Node(world.game.side_of(seat))
                child.available = 1
                world.apply(action)
                path.append(child)
                break
            action = self._select(node, legal)
            world.apply(action)
            node = node.children[action]
            path.append(node)
        rewards = hand_rewards(world) if hand_over(world, number) else \
            play_out(world, ROLLOUTS[self.rollout], rng)
        self._scale = max(self._scale, *map(abs, rewards))
        for visited in path:
            visited.visits += 1
            visited.reward += rewards[visited.side]

    def _choices(self, node: _Node, world: State, seat: int) -> list[Action]:
        """The actions searched at ``node`` in this world (narrowed when there are very many)."""
        legal = world.legal_actions()
        if len(legal) <= self.max_candidates:
            return legal
        if node.keep is None:
            from .rules import POLICIES

            preferred = POLICIES[world.game.name](world_view(world, seat), self._rng)
            others = [a for a in legal if a is not preferred]
            node.keep = {preferred, *self._rng.sample(others, self.max_candidates - 1)}
        kept = [a for a in legal if a in node.keep]
        return kept or [self._rng.choice(legal)]

    def _select(self, node: _Node, legal: list[Action]) -> Action:
        """UCB1 over the children available in this world (availability for the parent's visits)."""
        scale, c = self._scale, self.exploration

        def ucb(action: Action) -> float:
            child = node.children[action]
            mean = child.reward / (child.visits * scale)
            return mean + c * math.sqrt(math.log(child.available) / child.visits)

        return max(legal, key=ucb)

    def __repr__(self) -> str:
        return f"IsmctsBot(seed={self.seed!r}, iterations={self.iterations}, time={self.time!r})"
