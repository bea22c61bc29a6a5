"""One episode as both environments drive it: actions by index, card picks, tensors, rewards.

The PettingZoo environment and the OpenSpiel game are thin shells around a
:class:`Session`, so the two cannot disagree about what an index means, what a
seat sees or what a hand is worth.

Card sets (the Huutopussi exchange and discard) are chosen one card at a time:
their legal actions number in the hundreds or thousands (every 3 or 4 of 12
cards), so each card of the set is its own step, ``pick give 9H``, taken in
the deck's display order (each set has exactly one order of picks).  When the
last card is picked the whole set is applied to the game.
"""

from __future__ import annotations

import json
import operator
from math import comb
from typing import Any

import numpy as np

import tricktaker as tt
from tricktaker.cards import single_bits
from tricktaker.engine import Action, IllegalActionError, TrickState

from .encoding import Encoder, EnvSpec, FloatArray, spec_for

__all__ = ["Session", "hand_rewards", "indices_of", "match_rewards", "max_decisions", "new_state", "replay",
           "reward_bound"]


def new_state(game: tt.Game, match: bool, seed: int, dealer: int) -> TrickState:
    """A seeded hand (or match) of ``game``."""
    state = game.new_match(seed=seed, dealer=dealer) if match else game.new_hand(seed=seed, dealer=dealer)
    assert isinstance(state, TrickState)
    return state


def hand_rewards(spec: EnvSpec, state: TrickState) -> list[float]:
    """Each seat's reward for the hand just finished: its side's points minus the others' average.

    The points are ``state.hand_points`` (what the hand scored per side: Tuppi's
    contract points, Tute's round points, the Marjapussi family's hand points,
    Huutopussi's change of score).  The rewards sum to zero over the seats.
    """
    returns = getattr(state, "hand_returns", lambda: None)()
    if returns is not None:  # Tute cabrero: -1 to each loser of the hand, the others sharing
        return list(returns)
    points = getattr(state, "hand_points", None)
    if not points:
        return [0.0] * spec.seats
    sides = spec.sides
    total = float(sum(points))
    out = []
    for seat in range(spec.seats):
        own = float(points[spec.game.side_of(seat)])
        out.append(own - (total - own) / (sides - 1))
    return out


def match_rewards(spec: EnvSpec, state: TrickState) -> list[float]:
    """At the end of a match: +1 to the winning side's seats, -1/(sides-1) to the others; 0 on a draw.
    A match that ends with places (Tute cabrero) gives its state's ``returns()``: -1 to each seat
    below the first place, the first place sharing what they lose."""
    if getattr(state, "places", None) is not None:
        returns: list[float] = state.returns()  # type: ignore[attr-defined]
        return returns
    winner = state.winner
    if winner is None:
        return [0.0] * spec.seats
    lose = -1.0 / (spec.sides - 1)
    return [1.0 if spec.game.side_of(s) == winner else lose for s in range(spec.seats)]


def max_decisions(spec: EnvSpec) -> int:
    """An upper bound on the decisions in one hand (the chance nodes of a deal not counted)."""
    return spec.family.max_decisions(spec.game)


def reward_bound(spec: EnvSpec) -> float:
    """The largest reward a seat can get from one hand, in absolute value."""
    return spec.family.reward_bound(spec.game)


def action_index(action: Any) -> int:
    """An action index as a plain int, or :class:`IllegalActionError`: 57.7, ``"69"`` and
    ``True`` are not indices, though ``int()`` would make them ones; numpy integers are."""
    if type(action) is int:
        return action
    if isinstance(action, (bool, float, str, bytes)) or not hasattr(action, "__index__"):
        raise IllegalActionError(f"an action index is a whole number, not {action!r}")
    index: int = operator.index(action)
    return index


class Session:
    """A State, its encoder, and the card picks of a set action in progress."""

    def __init__(self, state: TrickState, strict: bool = False, spec: EnvSpec | None = None) -> None:
        """``spec``: the game's spec when the caller holds it (saves looking it up)."""
        self.spec: EnvSpec = spec if spec is not None else spec_for(state.game)
        self.state = state
        self.strict = strict
        self.encoder = Encoder(self.spec, state, strict)
        self.picks: list[int] = []
        """Cards (display indices) picked so far for the set being chosen."""
        self._sets: _SetChoice | None = None
        self._legal: list[int] | None = None
        self._index: dict[Action, int] = self.spec.index_by_action
        self._objects: dict[int, Action] = self.spec.action_objects
        self._single = state.single_hand
        self._parts = self.spec.family.legal_parts(state)
        self.turn: int | None = state.current_player
        """The seat to act (``state.current_player``, kept as actions are applied here)."""
        self.hand_over = False
        """True right after an action that finished a hand."""
        self.rewards: list[float] = [0.0] * self.spec.seats
        """What the last action earned each seat (non-zero only when it finished a hand)."""
        self.rewarded = False

    def restart(self, state: TrickState) -> None:
        """Go on with another state of the same game (a new episode), reusing the buffers."""
        game, spec = state.game, self.spec
        if game is not self.state.game and (game.name != spec.name or game.options != spec.game.options):
            raise ValueError(f"{game!r} is not the game of this session ({spec.game!r})")
        self.state = state
        self.picks = []
        self._sets = None
        self._legal = None
        self._single = state.single_hand
        self._parts = self.spec.family.legal_parts(state)
        self.turn = state.current_player
        self.hand_over = False
        self.rewards = [0.0] * self.spec.seats
        self.rewarded = False
        self.encoder.start_hand(state)

    # -- reading

    @property
    def current_player(self) -> int | None:
        return self.state.current_player

    def legal(self) -> list[int]:
        """The legal action indices now (cached until the next action), in no particular order."""
        legal = self._legal
        if legal is None:
            actions = self.state.legal_actions()
            if self._choosing_set(actions):
                assert self._sets is not None
                legal = self._sets.next_picks(self.picks)
                if not self.picks:  # an action offered beside the sets (Huutopussi's redeal)
                    get = self._index.get
                    for a in actions:
                        if a.kind != self._sets.kind:
                            i = get(a)
                            legal.append(self._learn(a) if i is None else i)
            else:
                get = self._index.get
                legal = []
                for a in actions:
                    i = get(a)
                    legal.append(self._learn(a) if i is None else i)
            self._legal = legal
        return legal

    def _choosing_set(self, actions: list[Action]) -> bool:
        """Whether the legal actions are card sets, chosen here one card at a time."""
        if not self.spec.pick_base or not actions:
            return False
        first = actions[0]
        if first.kind not in self.spec.pick_base or len(first.args) < 2:
            return False
        if self._sets is None:
            self._sets = _SetChoice(self.spec, actions)
        return True

    def _learn(self, action: Action) -> int:
        """The index of an action met for the first time (then looked up by the object)."""
        i = self.spec.action_index.get(action.text)
        if i is None:
            raise RuntimeError(f"{action.text!r} has no index in the {self.spec.name} action table")
        self._index[action] = i
        self.spec.action_objects[i] = action
        return i

    def mask(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The legal actions as a 0/1 vector over the whole action table."""
        legal = self._legal
        if legal is None and self._parts is not None:
            kind, cards, others = self._parts()
            return self.spec.parts_mask(kind, cards, others)
        marks = bytearray(self.spec.num_actions)
        if legal is None and not self.spec.pick_base:
            get = self._index.get
            for a in self.state.legal_actions():
                i = get(a)
                marks[self._learn(a) if i is None else i] = 1
        else:
            for i in legal if legal is not None else self.legal():
                marks[i] = 1
        return np.frombuffer(marks, np.int8)

    def observe(self, seat: int, over: bool = False) -> dict[str, Any]:
        """PettingZoo's observation of ``seat``: a fresh copy of its tensor and its action mask
        (all zeros unless it is to act and the episode goes on)."""
        turn = self.turn
        spec = self.spec
        mask = spec.zero_mask.copy() if seat != turn or over else self.mask()
        return {"observation": self.encoder.row(seat, self.state.phase, turn), "action_mask": mask}

    def tensor(self, seat: int, out: FloatArray | None = None) -> FloatArray:
        return self.encoder.tensor(self.state, seat, out)

    def action_text(self, index: int) -> str:
        return self.spec.action_texts[index]

    # -- acting

    def apply(self, index: int) -> None:
        """Apply the action with this index for the current player (a pick may only be noted).

        Raises :class:`tricktaker.IllegalActionError` (a ``ValueError``) naming the
        action if it is not legal; nothing changes then.
        """
        if type(index) is not int:
            index = action_index(index)
        saved = self.hand_over, self.rewards, self.rewarded
        self.hand_over = False
        if self.rewarded:
            self.rewards = [0.0] * self.spec.seats
            self.rewarded = False
        try:
            self._apply_index(index)
        except IllegalActionError:
            self.hand_over, self.rewards, self.rewarded = saved  # a refused action changes nothing
            raise

    def _apply_index(self, index: int) -> None:
        action = self._objects.get(index)
        state = self.state
        actor = self.turn
        if (self._sets is not None and not self.picks and action is not None
                and action.kind != self._sets.kind and index in self.legal()):
            self._sets = None  # not a pick: the action offered beside the card sets
        if action is None or actor is None or self._sets is not None:
            if self._sets is not None or index in self.spec.pick_kind_of:
                self._pick(index)
                return
            action = self._unknown(index)
            assert actor is not None
        if self._single:  # the hand ends exactly when the state is over (nobody is to act)
            state.apply(action)
            self._legal = None
            self.turn = turn = state.current_player
            if turn is None and state.is_over():
                self._hand_done()
            if action.kind == "play":
                self.encoder.after_play(state, actor, action.mask)
            else:
                self.encoder.after(state, actor, action)
        else:
            self._apply(state, actor, action)

    def _unknown(self, index: int) -> Action:
        """The Action of an index not met yet, or the game's explanation why it is not legal."""
        spec = self.spec
        if not 0 <= index < spec.num_actions:
            raise IllegalActionError(f"action index {index} is outside 0..{spec.num_actions - 1}")
        if self.state.current_player is None:
            raise IllegalActionError("the game is over")
        self.legal()  # meets the Action objects of the legal indices
        action = spec.action_objects.get(index)
        if action is None or index not in self.legal():
            self.state.apply(spec.action_texts[index])  # raises, saying why
            raise AssertionError(f"{spec.action_texts[index]!r} applied but was not listed as legal")
        return action

    def _apply(self, state: TrickState, actor: int, action: Action) -> None:
        hand_number = state.hand_number
        state.apply(action)
        self._legal = None
        self.turn = state.current_player
        if state.hand_number != hand_number:
            self._hand_done()
            self.encoder.start_hand(state)
            return
        if state.is_over():
            self._hand_done()
        self.encoder.after(state, actor, action)

    def _hand_done(self) -> None:
        self.hand_over = True
        self.rewards = hand_rewards(self.spec, self.state)
        self.rewarded = True

    def _pick(self, index: int) -> None:
        legal = self.legal()
        if index not in legal or self._sets is None:
            text = self.spec.action_texts[index] if 0 <= index < self.spec.num_actions else index
            raise IllegalActionError(f"{text!r} is not legal now"
                                     + (": pick the cards one at a time" if self._sets else ""))
        card = self.spec.pick_kind_of[index][1]
        seat = self.state.current_player
        assert seat is not None
        self.picks.append(card)
        self._legal = None
        if len(self.picks) < self._sets.size:
            self.encoder.set_picking(seat, self.picks)
            return
        action = self._sets.action_for(self.picks)
        self.picks = []
        self._sets = None
        self.encoder.set_picking(seat, [])
        self._apply(self.state, seat, action)

    # -- copies and text

    def clone(self) -> Session:
        new = object.__new__(Session)
        new.__dict__.update(self.__dict__)
        new.state = self.state.clone()
        new._parts = self.spec.family.legal_parts(new.state)
        new.encoder = self.encoder.copy()
        new.picks = list(self.picks)
        new.rewards = list(self.rewards)
        new._legal = None
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Session:
        return self.clone()

    def info_string(self, seat: int) -> str:
        """What ``seat`` knows, as text: its observation (JSON) and its own picks so far."""
        obs = self.state.observation(seat)
        if self.picks and seat == self.state.current_player:
            obs["picking"] = [self.spec.cards[c].text for c in self.picks]
        return json.dumps(obs, sort_keys=True, separators=(",", ":"))

    def observation_string(self, seat: int) -> str:
        """The seat's view now, without the list of finished tricks (not perfect recall)."""
        obs = self.state.observation(seat)
        obs.pop("tricks", None)
        obs.pop("previous_hand", None)
        if self.picks and seat == self.state.current_player:
            obs["picking"] = [self.spec.cards[c].text for c in self.picks]
        return json.dumps(obs, sort_keys=True, separators=(",", ":"))

    def render(self) -> str:
        """The whole table as text, every hand shown (for people watching, not for agents)."""
        state = self.state
        o = state.observation(None)
        game = state.game
        lines = [f"{game!r}  hand {o['hand_number'] + 1}  dealer {o['dealer']}  phase {o['phase']}  "
                 f"to act: {'-' if o['current_player'] is None else 'seat ' + str(o['current_player'])}",
                 f"scores {o['scores']}"]
        skip = {"game", "players", "seat", "hand_number", "dealer", "phase", "current_player", "scores",
                "hand", "hand_sizes", "tricks", "trick", "previous_hand", "legal_actions"}
        extra = [f"{k}: {v}" for k, v in o.items() if k not in skip and v not in (None, [], False)]
        if extra:
            lines.append("  ".join(extra))
        for seat in range(self.spec.seats):
            cards = " ".join(c.text for c in state.hand(seat))
            lines.append(f"seat {seat}: {cards}")
        if self.picks:
            lines.append("picking: " + " ".join(self.spec.cards[c].text for c in self.picks))
        table = "  ".join(f"{s}:{card}" for s, card in o["trick"])
        lines.append(f"tricks played {len(o['tricks'])}  table: {table or '-'}")
        return "\n".join(lines)

    # -- pickling (OpenSpiel serializes states by pickling them)

    def __getstate__(self) -> dict[str, Any]:
        return {"record": self.state.to_json(), "picks": list(self.picks), "strict": self.strict}

    def __setstate__(self, data: dict[str, Any]) -> None:
        again = replay(json.loads(data["record"]), data["strict"])
        self.__dict__.update(again.__dict__)
        for card in data["picks"]:
            self.apply(self.spec.pick_base[again._pick_kind()] + card)

    def _pick_kind(self) -> str:
        actions = self.state.legal_actions()
        return actions[0].kind


def replay(record: dict[str, Any], strict: bool = False) -> Session:
    """A session at the end of a record, its encoder fed the current hand action by action.

    The record is loaded once without the current hand's actions (the hand's
    start), then those actions are applied through the session by index.
    """
    actions = record["hands"][-1]["actions"]
    start = dict(record, hands=[*record["hands"][:-1], dict(record["hands"][-1], actions=[], result=None)],
                 result=None)
    state = tt.load(start)
    assert isinstance(state, TrickState)
    session = Session(state, strict)
    for text in actions:
        for index in indices_of(session.spec, text):
            session.apply(index)
    return session


def indices_of(spec: EnvSpec, text: str) -> list[int]:
    """The action indices of an action's canonical text: one index, or a card set's picks in order."""
    index = spec.action_index.get(text)
    if index is not None:
        return [index]
    kind, *cards = text.split()
    return [spec.pick_base[kind] + c for c in sorted(spec.card_by_text[t] for t in cards)]


class _SetChoice:
    """The legal card sets of one decision, chosen card by card in display order."""

    def __init__(self, spec: EnvSpec, actions: list[Action]) -> None:
        self.spec = spec
        self.kind = actions[0].kind
        self.size = len(actions[0].args)
        actions = [a for a in actions if a.kind == self.kind]  # the card sets, not a redeal beside
        self.base = spec.pick_base[self.kind]
        index = spec.card_index
        self.sets: dict[frozenset[int], Action] = {}
        union = 0
        for a in actions:
            self.sets[frozenset(index[c.mask] for c in _cards(a))] = a
            union |= a.mask
        self.candidates = sorted(index[bit] for bit in single_bits(union))
        # Usually every choice of ``size`` of the candidates is legal; then the next picks
        # follow from counting, else from the list of sets.
        self.all_subsets = len(self.sets) == comb(len(self.candidates), self.size)

    def next_picks(self, picks: list[int]) -> list[int]:
        last = picks[-1] if picks else -1
        need = self.size - len(picks) - 1
        if self.all_subsets:
            cands = self.candidates
            return [self.base + c for j, c in enumerate(cands) if c > last and len(cands) - 1 - j >= need]
        chosen = set(picks)
        nxt = set()
        for cards in self.sets:
            if chosen <= cards:
                rest = sorted(cards - chosen)
                if rest[0] > last:
                    nxt.add(rest[0])
        return [self.base + c for c in sorted(nxt)]

    def action_for(self, picks: list[int]) -> Action:
        return self.sets[frozenset(picks)]


def _cards(action: Action) -> list[Any]:
    return [a for a in action.args if not isinstance(a, (str, int))]
