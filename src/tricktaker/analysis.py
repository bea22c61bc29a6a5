"""What each play of a hand cost, on the double-dummy values of the true deal, and the par.

After a hand is over every card is known (to the record, and often to the
players), so each decision can be judged against the exact solver: ``tt.solve``
of the true position gives every legal action's value for the mover's side,
and the action played *cost* the best value minus its own, in the game's
units (tricks in Tuppi, points in the point games).  A cost of 0 is a best
play.  For a game with bidding (Tuppi, Huutopussi) the *par* is the contract
the :class:`~tricktaker.bots.oracle.OracleBot` reaches with every seat bidding
on the true deal, and what that contract scores played double dummy; it is
shown next to the contract actually played.

One piece serves everyone who judges plays: the arena's double-dummy loss
(:func:`judge`), ``tricktaker replay --analyse`` and the server's hand review
(:func:`analyse_hand`).

Solves of full deals can be slow in the point games (hundreds of
milliseconds; Tuppi nolo and Tute habanero far more), so each solve has a
time limit and a position that runs out of it is marked ``timeout``, not
guessed.

**What a seat may be told.** The server sends a finished hand's review to the
seats, so it must not reveal a card a seat never saw.  A position's values
depend on every card still in play, so a position is *public at the hand's
end* only when each seat then held exactly the cards it went on to play to
tricks, and no other card was anywhere unseen (a stock, a discard put away, a
partner sitting out, the dead hand of Huutopussi for two): then everyone has
seen all of them, and who held which.
Avomarjapussi's rows are their seat's cards, face-down ones too (each is
turned up in its column before it is played); a card out of play counts as
seen when it was shown face up to all (Tute for three's trump card) or the
hand's public result names it (Huutopussi's discard with three players).
:attr:`Decision.public` says so; the server sends the values of public
positions only and marks the rest ``hidden``.  The par is public when
the deal itself was (the hand's start is a public position: no early end,
nothing passed or put away).  ``tricktaker replay`` reads a whole record, so
it shows everything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import Card
from .engine import JSON, Action, State
from .record import load

if TYPE_CHECKING:
    from .solver import Tables

__all__ = ["Decision", "HandAnalysis", "Judgement", "Outcome", "analyse_hand", "analyse_record",
           "judge", "short_units", "state_at_hand_start"]

ANALYSED, TIMEOUT, HIDDEN = "analysed", "timeout", "hidden"
"""A decision's ``status``: judged; not judged because the solve ran out of time; not judged
(or not told) because its position was not public at the hand's end."""

CONTRACT_KEYS = ("contract", "declarer", "soloist", "trump")
"""The facts of a public observation that name what a hand is played for."""


@dataclass(frozen=True)
class Judgement:
    """One decision judged on the true state: every legal action's value and what the chosen one cost.

    ``values`` is None when the solver does not take the phase (bids, exchanges:
    not card play) or ran out of time (``timed_out``).
    """

    values: dict[Action, int] | None
    cost: int | None
    units: str = ""
    timed_out: bool = False

    @property
    def best(self) -> list[Action]:
        """The actions that reach the position's value."""
        if not self.values:
            return []
        top = max(self.values.values())
        return [a for a, v in self.values.items() if v == top]


def judge(state: State, action: Action, time_limit: float | None, tables: Tables | None = None) -> Judgement:
    """What ``action`` costs in ``state`` (before it is applied), by a solve of ``state`` itself
    (in ``tables``, by default the process's first set).

    ``state`` must hold the true cards (a finished hand replayed, or the arena's
    referee state): the values are double dummy.  Never changes ``state``.
    """
    from .solver import SolveError, SolveTimeout, solve

    try:
        solution = solve(state, time_limit=time_limit, tables=tables)
    except SolveError:
        return Judgement(None, None)
    except SolveTimeout:
        return Judgement(None, None, timed_out=True)
    return Judgement(dict(solution.values), solution.value - solution.values[action], solution.units)


def short_units(units: str) -> str:
    """The unit a cost is told in: ``tricks``, ``sooli`` (won or lost) or ``points``."""
    if "trick" in units and "points" not in units:
        return "tricks"
    if "sooli" in units:
        return "sooli"
    return "points"


@dataclass(frozen=True)
class Decision:
    """One action of a hand with a choice in a phase the solver takes (a card, a call)."""

    number: int
    """Its index among the hand's actions (from 0)."""
    trick: int
    """The trick it was played to (from 0)."""
    seat: int
    action: str
    status: str
    """:data:`ANALYSED`, :data:`TIMEOUT` or :data:`HIDDEN`."""
    public: bool
    """Whether its position was public at the hand's end (see the module's docstring)."""
    values: dict[str, int] = field(default_factory=dict)
    """Each legal action's value for the mover's side (empty unless analysed)."""
    cost: int | None = None
    best: tuple[str, ...] = ()

    def to_json(self) -> JSON:
        out: JSON = {"number": self.number, "trick": self.trick, "seat": self.seat,
                     "action": self.action, "status": self.status}
        if self.status == ANALYSED:
            out |= {"cost": self.cost, "best": list(self.best), "values": dict(self.values)}
        return out


@dataclass(frozen=True)
class Outcome:
    """A contract and what each side scored with it (``hand_points``)."""

    contract: dict[str, Any]
    points: tuple[int, ...]

    def to_json(self) -> JSON:
        return {"contract": dict(self.contract), "points": list(self.points)}


@dataclass(frozen=True)
class HandAnalysis:
    """Every judged decision of one hand, each seat's total cost, and the par next to the contract played."""

    game: str
    hand: int
    """The hand's index in the record (from 0)."""
    units: str
    """What costs count: :func:`short_units` of the solver's units (``tricks``, ``points``)."""
    decisions: tuple[Decision, ...]
    totals: tuple[int, ...]
    """Per seat, the sum of its analysed costs."""
    finished: bool
    actual: Outcome | None = None
    """The contract played and its points (games with bidding, finished hands)."""
    par: Outcome | None = None
    """The oracle's contract on the true deal and its double-dummy points, when asked for and public."""
    par_public: bool = False

    @property
    def timed_out(self) -> int:
        return sum(d.status == TIMEOUT for d in self.decisions)

    def to_json(self, public_only: bool = False) -> JSON:
        """The analysis as JSON; ``public_only`` leaves out what was not public at the hand's end
        (the values of hidden positions, and a par whose deal was not public)."""
        decisions = []
        for d in self.decisions:
            if public_only and not d.public:
                decisions.append({"number": d.number, "trick": d.trick, "seat": d.seat,
                                  "action": d.action, "status": HIDDEN})
            else:
                decisions.append(d.to_json())
        totals = [0] * len(self.totals)
        for d in self.decisions:
            if d.cost is not None and (d.public or not public_only):
                totals[d.seat] += d.cost
        show_par = self.par is not None and (self.par_public or not public_only)
        return {"game": self.game, "hand": self.hand, "units": self.units, "decisions": decisions,
                "totals": totals, "finished": self.finished,
                "actual": self.actual.to_json() if self.actual else None,
                "par": self.par.to_json() if show_par and self.par else None}


def state_at_hand_start(record: JSON, index: int) -> State:
    """The state at the start of hand ``index`` of ``record``: the record cut there, replayed by ``load``."""
    hands = [*record["hands"][:index], dict(record["hands"][index], actions=[], result=None)]
    return load(dict(record, hands=hands, result=None))


def _hand_over(state: State, number: int) -> bool:
    return state.is_over() or state.hand_number != number


def _contract(state: State) -> dict[str, Any]:
    public = state.observation(None)
    return {key: public[key] for key in CONTRACT_KEYS if public.get(key) is not None}


def _points(state: State) -> tuple[int, ...]:
    points = getattr(state, "hand_points", None) or ()
    return tuple(int(p) for p in points)


def _held(state: State, seat: int) -> frozenset[Card]:
    """Every card ``seat`` owns now: its hand, and its face-up and face-down rows (Avomarjapussi)."""
    cards = set(state.hand(seat))  # type: ignore[attr-defined]
    for up, down in (getattr(state, "rows", None) or [[]] * (seat + 1))[seat]:
        cards.update(card for card in (up, down) if card is not None)
    return frozenset(cards)


def _this_hand(public: JSON) -> JSON:
    """A public observation without ``previous_hand`` (the cards of an earlier deal)."""
    return {key: value for key, value in public.items() if key != "previous_hand"}


def _cards_named(value: Any, deck: set[str]) -> set[str]:
    """The cards of ``deck`` (by text) named anywhere in a JSON value, alone or in an action's text."""
    found: set[str] = set()
    if isinstance(value, str):
        found.update(word for word in value.split() if word in deck)
    elif isinstance(value, dict):
        for item in value.values():
            found |= _cards_named(item, deck)
    elif isinstance(value, list):
        for item in value:
            found |= _cards_named(item, deck)
    return found


def _in_play(legal: list[Action]) -> bool:
    """Whether a decision is one of card play: a card may be played (a call made instead of a
    lead, in the marriage games, is judged with the cards)."""
    return any(a.kind == "play" for a in legal)


@dataclass
class _Position:
    number: int
    trick: int
    seat: int
    action: Action
    state: State
    public: bool = False


def analyse_hand(record: JSON | str, index: int, time_limit: float | None = 2.0, par: bool = True,
                 only_public: bool = False, par_candidates: int = 4, par_time: float = 0.2,
                 threads: int = 1) -> HandAnalysis:
    """Judge every decision with a choice of hand ``index`` of ``record`` on its true deal.

    ``time_limit`` bounds each solve (a position that needs longer is marked
    ``timeout``).  With ``par`` (games with bidding only), the oracle bids every
    seat on the true deal, each of its candidates played out double dummy with
    solves of ``par_time`` seconds (at most ``par_candidates`` candidates a
    bid), and the contract it reaches is played out double dummy.
    ``only_public`` skips the solves of positions (and a par) that were not
    public at the hand's end, which the server may not tell anyway.  The
    decisions are solved by ``threads`` workers at once, each in a set of tables
    of its own (:func:`~tricktaker.solver.parallel.map_in_threads`): the same
    judgements, sooner, but for a solve near its time limit; so are the par's
    candidates for each bid.
    """
    from .solver.parallel import map_in_threads

    data: JSON = json.loads(record) if isinstance(record, str) else record
    hand = data["hands"][index]
    state = state_at_hand_start(data, index)
    number = state.hand_number
    start = state.clone()
    positions: list[_Position] = []
    held: list[list[frozenset[Card]]] = []
    """Per action: each seat's cards before it."""
    players = state.game.num_players
    plays: list[tuple[int, Card]] = []
    """Each card played in the hand: (actor, card)."""
    play_at: list[int] = []
    """Per action: the cards played before it."""
    contract_state: State | None = None
    bidding = bool(hand["actions"]) and not hand["actions"][0].startswith("play")
    deck = {card.text for card in state.game.deck.cards}
    shown: set[str] = set()
    """Every card of this hand shown face up to everyone at some point (a trump card left in the pack)."""
    for position, text in enumerate(hand["actions"]):
        seat = state.current_player
        assert seat is not None
        shown |= _cards_named(_this_hand(state.observation(None)), deck)
        held.append([_held(state, s) for s in range(players)])
        play_at.append(len(plays))
        legal = state.legal_actions()
        playing = _in_play(legal)
        before = state.clone() if playing else None
        if playing and contract_state is None:
            contract_state = before
        state.apply(text, seat=seat)
        action = state.history[-1]
        if before is not None and len(legal) > 1:
            trick = len(before.observation(None).get("tricks") or [])
            positions.append(_Position(position, trick, seat, action, before))
        if action.kind == "play":
            assert action.card is not None
            plays.append((seat, action.card))
    finished = _hand_over(state, number)

    if finished:  # what the hand's result shows (a Huutopussi discard) is seen too
        shown |= _cards_named(state.observation(None).get("previous_hand"), deck)
    deal = {card for pile in hand["deal"] for card in pile.split()}

    def public_at(position: int) -> bool:
        """Each seat then owned (in its hand or its rows) exactly the cards it played later in the
        hand, and every other card still out was one shown face up to everyone (no stock, no
        hidden discard, nobody sitting out with cards)."""
        if not finished:
            return False
        later: list[set[str]] = [set() for _ in range(players)]
        for actor, card in plays[play_at[position]:]:
            later[actor].add(card.text)
        owned = [{card.text for card in held[position][s]} for s in range(players)]
        out = deal - {card.text for _, card in plays[:play_at[position]]}
        elsewhere = out.difference(*owned)
        return elsewhere <= shown and all(owned[s] == later[s] for s in range(players))

    units = ""
    decisions = []
    totals = [0] * players
    for p in positions:
        p.public = public_at(p.number)
    judged = [p for p in positions if p.public or not only_public]
    verdicts = map_in_threads(lambda p, tables: judge(p.state, p.action, time_limit, tables), judged, threads)
    by_position = {id(p): verdict for p, verdict in zip(judged, verdicts, strict=True)}
    for p in positions:
        verdict = by_position.get(id(p))
        if verdict is None:  # not public, and only public positions asked for
            decisions.append(Decision(p.number, p.trick, p.seat, p.action.text, HIDDEN, False))
            continue
        if verdict.values is None:
            if verdict.timed_out:
                decisions.append(Decision(p.number, p.trick, p.seat, p.action.text, TIMEOUT, p.public))
            continue
        units = units or short_units(verdict.units)
        assert verdict.cost is not None
        totals[p.seat] += verdict.cost
        decisions.append(Decision(p.number, p.trick, p.seat, p.action.text, ANALYSED, p.public,
                                  {a.text: v for a, v in verdict.values.items()}, verdict.cost,
                                  tuple(a.text for a in verdict.best)))
    if not units:
        units = "tricks" if start.game.name == "tuppi" else "points"
    actual = par_outcome = None
    par_public = bool(hand["actions"]) and public_at(0)
    if bidding and finished and contract_state is not None:  # (a hand redealt was never played)
        actual = Outcome(_contract(contract_state), _points(state))
        if par and (par_public or not only_public):
            par_outcome = par_of(start, par_candidates, par_time, time_limit, threads)
    return HandAnalysis(start.game.name, index, units, tuple(decisions), tuple(totals), finished,
                        actual, par_outcome, par_public)


def par_of(start: State, candidates: int = 4, playout_time: float = 0.2,
           time_limit: float | None = 2.0, threads: int = 1) -> Outcome:
    """The par of the hand ``start`` is at the beginning of: the contract the oracle reaches
    bidding every seat on the true deal, and what it scores played out double dummy.  Each
    bid's candidates are played out in ``threads`` threads at once, and the contract's play is
    solved card by card in as many."""
    import random

    from .bots.oracle import OracleBot, dd_playout

    state = start.clone()
    number = state.hand_number
    seed = random.Random(f"par:{number}:{state.dealer}")  # type: ignore[attr-defined]
    oracles = [OracleBot(seed=seed.randrange(2**31), time=time_limit or 2.0, playout_time=playout_time,
                         max_candidates=candidates, threads=threads) for _ in range(state.game.num_players)]
    while not _hand_over(state, number) and not _in_play(state.legal_actions()):
        seat = state.current_player
        assert seat is not None
        state.apply(oracles[seat].act_on_truth(state.clone()), seat=seat)
    contract = _contract(state)
    dd_playout(state, random.Random(number), playout_time if time_limit is None else time_limit,
               threads=threads)
    return Outcome(contract, _points(state))


def analyse_record(record: JSON | str, time_limit: float | None = 2.0, hands: list[int] | None = None,
                   par: bool = True, threads: int = 1) -> list[HandAnalysis]:
    """:func:`analyse_hand` of each hand of ``record`` (or of the ``hands`` indices given)."""
    data: JSON = json.loads(record) if isinstance(record, str) else record
    chosen = range(len(data["hands"])) if hands is None else hands
    return [analyse_hand(data, index, time_limit, par, threads=threads) for index in chosen]
