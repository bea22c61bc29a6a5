"""PettingZoo AEC environments for every tricktaker game and variant.

    from tricktaker.envs.pettingzoo import env
    e = env("tuppi", preset="tournament")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else policy(obs["observation"], obs["action_mask"])
        e.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (the seats).  Observations are
``{"observation": float32 tensor, "action_mask": int8 mask}``; the tensor and
the action indices are documented in ``docs/envs.md``.  Episodes are one hand
(default) or a whole match (``episode="match"``), with rewards at the end of
each hand (``reward="hand"``: the side's hand points minus the others') or only
at the end of the match (``reward="match"``: +1 for the winners).

``env()`` returns the environment itself, without PettingZoo's wrappers: they
double the cost of a step.  The environment checks what they would (reset
first; ``None`` only for finished agents; illegal actions raise
``ValueError`` naming the action).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]

import tricktaker as tt
from tricktaker.engine import IllegalActionError, OptionError

from .encoding import spec_for
from .session import Session, action_index, match_rewards, new_state

__all__ = ["TricktakerEnv", "env", "raw_env"]

EPISODES = ("hand", "match")
RENDER_MODES = ("ansi", "human")


def env(game: str = "tuppi", **options: Any) -> TricktakerEnv:
    """A PettingZoo AEC environment for ``game`` with its options (see :class:`TricktakerEnv`)."""
    return TricktakerEnv(game, **options)


raw_env = env


class TricktakerEnv(AECEnv):  # type: ignore[misc, unused-ignore]  # AECEnv is untyped
    """One tricktaker game as a PettingZoo AEC environment.

    ``game`` and game options (``preset=...``, ``players=...``, any option of the
    game) choose the rules.  Environment options, all keyword-only:

    - ``episode``: ``"hand"`` (default) or ``"match"``;
    - ``reward``: ``"hand"`` (default) or ``"match"`` (needs ``episode="match"``);
    - ``max_hands``: truncate a match after this many hands (random Huutopussi
      bidders may never finish one);
    - ``dealer``: a fixed first dealer; by default drawn from the seed;
    - ``render_mode``: ``"ansi"`` (``render()`` returns the table as text) or
      ``"human"`` (prints it).
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": "tricktaker_v0", "is_parallelizable": False}

    def __init__(self, game: str = "tuppi", *, episode: str = "hand", reward: str | None = None,
                 max_hands: int | None = None, dealer: int | None = None, render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        if episode not in EPISODES:
            raise OptionError(f"episode must be one of {', '.join(EPISODES)}, not {episode!r}")
        reward = reward or episode
        if reward not in EPISODES or (reward == "match" and episode != "match"):
            raise OptionError("reward is 'hand', or 'match' with episode='match'")
        if render_mode not in (None, *RENDER_MODES):
            raise OptionError(f"render_mode must be one of {', '.join(RENDER_MODES)}, or None")
        self.game = tt.new_game(game, **options)
        self.episode, self.reward_mode, self.max_hands = episode, reward, max_hands
        self.fixed_dealer = dealer
        self.render_mode = render_mode
        self.session: Session | None = None
        self._rng = random.Random()
        n = self.game.num_players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.spec = spec = spec_for(self.game)
        self.metadata = dict(self.metadata, name=f"tricktaker_{self.game.name}_v0")
        self.action_spaces = {a: spaces.Discrete(spec.num_actions) for a in self.possible_agents}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(spec.low, spec.high, (spec.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (spec.num_actions,), np.int8),
        }) for a in self.possible_agents}
        self._rewarded = False
        self._over = False
        """The episode has ended: every agent left steps with None."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (or start a new match); ``seed`` fixes this and every later episode.

        ``options`` is accepted for PettingZoo's signature and not used: the rules are
        fixed when the environment is made.
        """
        if seed is not None:
            self._rng = random.Random(seed)
        n = self.game.num_players
        dealer = self.fixed_dealer if self.fixed_dealer is not None else self._rng.randrange(n)
        state = new_state(self.game, self.episode == "match", self._rng.getrandbits(48), dealer)
        session = self.session
        if session is None:
            self.session = session = Session(state, spec=self.spec)
        else:
            session.restart(state)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._rewarded = False
        self._over = False
        self._skip_agent_selection: str | None = None
        self.agent_selection = self._to_act(session)

    def observe(self, agent: str) -> dict[str, Any]:
        session = self.session
        if session is None:
            raise RuntimeError("call reset() before observe()")
        return session.observe(self._seat[agent], self._over)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """As ``AECEnv.last``: the observation of the agent to act (made fresh), its cumulative
        reward, terminated, truncated, info.  (``observe`` written out: this runs every step.)"""
        agent = self.agent_selection
        obs = None
        if observe:
            session = self.session
            if session is None:
                raise RuntimeError("call reset() before observe()")
            obs = session.observe(self._seat[agent], self._over)
        return (obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """As ``AECEnv.agent_iter``: the agent to act, until every agent is done (or ``max_iter``
        steps); a generator, which costs less per step than PettingZoo's iterator object."""
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def step(self, action: Any) -> None:
        session = self.session
        if session is None:
            raise RuntimeError("call reset() before step()")
        if self._over:
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for finished agents")
        index = action_index(action)
        saved = dict(self.rewards), self._cumulative_rewards[agent], self._rewarded
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        try:
            session.apply(index)
        except IllegalActionError:
            # refused: the rewards of the hand that just ended stay readable
            self.rewards, self._cumulative_rewards[agent], self._rewarded = saved
            raise
        if session.hand_over:
            self._end_of_hand(session)
            if self._over:
                return
        seat = session.turn
        assert seat is not None, "the game is over"
        self.agent_selection = self.possible_agents[seat]
        if self.render_mode == "human":
            self.render()

    def _end_of_hand(self, session: Session) -> None:
        state = session.state
        over = state.is_over()
        if self.reward_mode == "hand":
            rewards = session.rewards
        elif over:
            rewards = match_rewards(session.spec, state)
        else:
            rewards = [0.0] * len(self.agents)
        for agent, value in zip(self.possible_agents, rewards, strict=True):
            self.rewards[agent] = value
            self._cumulative_rewards[agent] += value
        self._rewarded = True
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_hands is not None and state.hand_number >= self.max_hands:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            return
        self._over = True
        self.agent_selection = self.agents[0]
        if self.render_mode == "human":
            self.render()

    def _was_dead_step(self, action: Any) -> None:
        """``AECEnv._was_dead_step`` for this environment, where every agent finishes at once:
        the agent leaves, the next finished agent is the first one left, and when none is left
        the selection goes back to the first that left (as PettingZoo's own, which looks through
        every agent at every step)."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        assert self.terminations[agent] or self.truncations[agent], "only finished agents leave"
        del self.terminations[agent], self.truncations[agent], self.rewards[agent]
        del self._cumulative_rewards[agent], self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        if agents:
            if self._skip_agent_selection is None:
                self._skip_agent_selection = agent
            self.agent_selection = agents[0]
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        self._clear_rewards()
        self._rewarded = False

    def _to_act(self, session: Session) -> str:
        seat = session.state.current_player
        assert seat is not None, "the game is over"
        return self.possible_agents[seat]

    def _live(self) -> Session:
        if self.session is None:
            raise RuntimeError("call reset() before using the environment")
        return self.session

    # -- text

    def render(self) -> str | None:
        """The table as text (every hand shown): returned in ``ansi`` mode, printed in ``human`` mode."""
        text = self._live().render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.session = None
