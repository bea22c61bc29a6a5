"""Every tricktaker game as an OpenSpiel Python game.

Importing this module registers, for every game, ``python_tricktaker_<game>``
(the default rules) and ``python_tricktaker_<game>_<preset>`` for each preset;
every rule option is a game parameter::

    import pyspiel
    import tricktaker.envs.openspiel  # registers the games
    game = pyspiel.load_game("python_tricktaker_tuppi_tournament")
    game = pyspiel.load_game("python_tricktaker_bondtolva", {"players": 2})

A game is one hand.  It starts with one chance node per card: the deck is dealt
card by card, uniformly among the cards left, into the piles of
``Game.pile_sizes(dealer)`` in order (the hands, then Tute's trump card or a
stock, Avomarjapussi's rows, the Huutopussi kitty); the ``dealer`` parameter
fixes the dealer (0 by default).  Then the players act with the action indices
of ``docs/envs.md`` (Huutopussi exchanges and discards card by card).  Returns
are the hand's points for the seat's side minus the other sides' average: the
same rewards as the PettingZoo environment's.

Information-state and observation tensors are the shared encoder's tensor
(:mod:`tricktaker.envs.encoding`); the strings are the seat's
``observation(seat)`` as JSON (the information state keeps the finished
tricks, the observation string drops them).  ``resample_from_infostate`` draws
a world with ``state.sample_world(seat)`` and replays it as an OpenSpiel
history, so information-set search (IS-MCTS) works.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, cast

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

import tricktaker as tt
from tricktaker.engine import Game, IllegalActionError, TrickState

from .encoding import EnvSpec, spec_for
from .session import Session, hand_rewards, indices_of, max_decisions, reward_bound

__all__ = ["GAME_NAMES", "TricktakerGame", "TricktakerState", "game_name", "load"]

PREFIX = "python_tricktaker_"


def game_name(name: str, preset: str | None = None) -> str:
    """The OpenSpiel short name of a game (and preset)."""
    return PREFIX + name + (f"_{preset}" if preset else "")


def load(name: str, preset: str | None = None, **options: Any) -> Any:
    """``pyspiel.load_game`` for a tricktaker game, preset and options."""
    return pyspiel.load_game(game_name(name, preset), options)


def _players(cls: type[Game]) -> tuple[int, int]:
    for option in cls.OPTIONS:
        if option.name == "players" and option.choices:
            counts = [int(c) for c in option.choices]
            return min(counts), max(counts)
    return cls.num_players, cls.num_players


def _game_type(name: str, preset: str | None) -> Any:
    cls = tt.GAMES[name]
    params: dict[str, Any] = cls.default_options()
    if preset is not None:
        params.update(cls.PRESETS[preset])
    params["dealer"] = 0
    low, high = _players(cls)
    return pyspiel.GameType(
        short_name=game_name(name, preset),
        long_name=f"Python tricktaker {cls.title}" + (f" ({preset})" if preset else "") + ", one hand",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=params,
    )


class TricktakerGame(pyspiel.Game):  # type: ignore[misc, unused-ignore]  # pyspiel is untyped
    """One tricktaker game and its options, one hand per episode.

    Each registered name has its own subclass setting ``game_name`` and
    ``preset`` (pyspiel needs a class as the creator: a closure registered
    instead crashes the interpreter at exit).
    """

    game_name = "tuppi"
    preset: str | None = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        options = dict(params or {})
        self.dealer = int(options.pop("dealer", 0))
        game = tt.new_game(self.game_name, **options)
        game.preset = self.preset
        self.tt_game = game
        self.spec = spec = spec_for(game)
        if not 0 <= self.dealer < spec.seats:
            raise ValueError(f"dealer must be a seat 0..{spec.seats - 1}, not {self.dealer}")
        bound = reward_bound(spec)
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_actions,
            max_chance_outcomes=len(spec.cards),
            num_players=spec.seats,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=max_decisions(spec),
        )
        super().__init__(_game_type(self.game_name, self.preset), info, params or {})

    def new_initial_state(self) -> TricktakerState:
        return TricktakerState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TricktakerObserver:
        return TricktakerObserver(self.spec, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                                  params)


class TricktakerState(pyspiel.State):  # type: ignore[misc, unused-ignore]  # pyspiel is untyped
    """A hand: the deal card by card (chance), then the players' actions through a :class:`Session`."""

    def __init__(self, game: TricktakerGame) -> None:
        super().__init__(game)
        self._dealt: list[int] = []
        self._session: Session | None = None

    # -- whose turn

    def current_player(self) -> int:
        session = self._session
        if session is None:
            return int(pyspiel.PlayerId.CHANCE)
        player = session.state.current_player
        return int(pyspiel.PlayerId.TERMINAL) if player is None else player

    def is_terminal(self) -> bool:
        return self._session is not None and self._session.state.current_player is None

    def _legal_actions(self, player: int) -> list[int]:
        assert self._session is not None
        return sorted(self._session.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = set(self._dealt)
        left = [c for c in range(len(self._spec().cards)) if c not in dealt]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _spec(self) -> EnvSpec:
        game: TricktakerGame = self.get_game()
        return game.spec

    # -- acting

    def _apply_action(self, action: int) -> None:
        if self._session is not None:
            self._session.apply(action)
            return
        count = len(self._spec().cards)
        if type(action) is not int or not 0 <= action < count or action in self._dealt:
            # a bad outcome would only fail at the last card, or deal a card twice
            why = "already dealt" if action in self._dealt else f"not a card index 0..{count - 1}"
            raise IllegalActionError(f"chance outcome {action!r} is {why}")
        self._dealt.append(action)
        if len(self._dealt) == count:
            self._start()

    def _start(self) -> None:
        game: TricktakerGame = self.get_game()
        cards = game.spec.cards
        piles, k = [], 0
        for size in game.tt_game.pile_sizes(game.dealer):
            piles.append([cards[c] for c in self._dealt[k:k + size]])
            k += size
        state = game.tt_game.new_hand(deal=piles, dealer=game.dealer)
        assert isinstance(state, TrickState)
        self._session = Session(state, spec=game.spec)

    def _action_to_string(self, player: int, action: int) -> str:
        spec = self._spec()
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {spec.cards[action].text}"
        return spec.action_texts[action]

    def returns(self) -> list[float]:
        session = self._session
        if session is None or session.state.current_player is not None:
            return [0.0] * self.num_players()
        return hand_rewards(session.spec, session.state)

    def __str__(self) -> str:
        if self._session is None:
            cards = self._spec().cards
            return "dealing: " + " ".join(cards[c].text for c in self._dealt)
        return self._session.render()

    # -- information sets

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> Any:
        """A state ``player_id`` cannot tell from this one, drawn by ``state.sample_world``.

        The world is replayed as an OpenSpiel history (its deal card by card,
        then its actions), so the new state is as honest as any other.
        """
        rng = random.Random(int(probability_sampler() * 2**53))
        game: TricktakerGame = self.get_game()
        new = game.new_initial_state()
        session = self._session
        if session is None:  # mid-deal: nobody has seen a card yet
            left = list(range(len(game.spec.cards)))
            rng.shuffle(left)
            for card in left[:len(self._dealt)]:
                new.apply_action(card)
            return new
        world = session.state.sample_world(player_id, rng)
        hand = json.loads(world.to_json())["hands"][-1]
        spec = game.spec
        for pile in hand["deal"]:
            for text in pile.split():
                new.apply_action(spec.card_by_text[text])
        for text in hand["actions"]:
            for index in indices_of(spec, text):
                new.apply_action(index)
        own_picks = session.state.current_player == player_id
        for card in session.picks:
            if own_picks:  # the seat's own picks so far are part of what it knows
                new.apply_action(session.spec.pick_base[_set_kind(session)] + card)
            else:  # another seat's picks are not: draw them anew in the world
                assert new._session is not None
                new.apply_action(rng.choice(new._session.legal()))
        return new


def _set_kind(session: Session) -> str:
    return session.state.legal_actions()[0].kind


class TricktakerObserver:
    """Tensors and strings for OpenSpiel (the PyObserver interface of ``open_spiel/python/observation.py``).

    Both the information state (``perfect_recall=True``) and the observation
    use the encoder's tensor, which already keeps the whole hand (cards played
    by each seat, bids, calls); the strings differ: the information state string
    keeps the list of finished tricks.  Only a player's own view is offered
    (``private_info`` single player, public information on).
    """

    def __init__(self, spec: EnvSpec, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("tricktaker observers give one player's view (private_info=SINGLE_PLAYER, "
                             "public_info=True)")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(spec.size, np.float32)
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        for block in spec.layout.blocks:
            view = self.tensor[block.offset:block.offset + block.size]
            self.dict[block.name] = view if block.kind == "global" else view.reshape(-1, block.width)

    def set_from(self, state: TricktakerState, player: int) -> None:
        session = state._session
        if session is None or player < 0:
            self.tensor.fill(0.0)
            return
        session.tensor(player, out=self.tensor)

    def string_from(self, state: TricktakerState, player: int) -> str:
        session = state._session
        if session is None:
            return f"p{player} dealing {len(state._dealt)}"
        if self.perfect_recall:
            return session.info_string(player)
        return session.observation_string(player)


_CLASSES: list[type[TricktakerGame]] = []


def _register() -> list[str]:
    names = []
    for name, cls in tt.GAMES.items():
        for preset in [None, *cls.PRESETS]:
            short = game_name(name, preset)
            if short not in pyspiel.registered_names():
                cls = cast(type[TricktakerGame], type(
                    f"Tricktaker_{name}_{preset or 'default'}", (TricktakerGame,),
                    {"game_name": name, "preset": preset, "__module__": __name__}))
                _CLASSES.append(cls)
                pyspiel.register_game(_game_type(name, preset), cls)
            names.append(short)
    return names


GAME_NAMES: list[str] = _register()
"""Every registered OpenSpiel name: ``python_tricktaker_<game>`` and ``..._<preset>``."""
