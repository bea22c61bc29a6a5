"""The PIMC bot: perfect-information Monte Carlo over sampled worlds.

For each decision the bot deals the unseen cards anew many times
(``View.sample_world``), values every candidate action in each world, and
plays the action with the best total.  How a world values an action depends
on where the hand is:

- **Card play the solver can afford** (``solve_cards``: at most that many
  cards still to play; all of it in the contracts of
  :data:`~tricktaker.bots.playout.SOLVED_PLAY`, Tuppi rami and sooli, whose
  full deals solve in milliseconds; while a stock lasts, ``stock_cards``,
  the mover's half of the stock counted): ``tt.solve`` gives the exact
  double-dummy value of every legal action.  This is the classic PIMC of
  bridge and skat programs.
- **Everything else** (bidding, sooli answers, exchanges, declarations before
  play, and the first tricks of games whose full deals are too slow to solve
  many times a second): the action is applied and the world is played to the
  end of the hand by the rollout policy (the ``rules`` policies by default);
  the side's hand reward counts.  Every candidate is rolled out with the same
  random numbers in a world, so the comparison is between actions, not luck.
  Rollouts are noisy, so here the bot leaves the rules policy's choice only
  for an action that beats it by more than ``confidence`` standard errors
  of the paired differences: without that guard, a few lucky rollouts made
  PIMC overbid in Huutopussi's auction and lose to the rules bot.
- **Card play that is not solved**, in the games where rollouts played it
  worse than the rules bot (:data:`UNSOLVED_PLAY`: Tute habanero's stock,
  Huutopussi for three where its budget runs out): the rules bot's card, with no rollout.

With ``phases=solve`` a decision before card play (a bid, a sooli answer, a
discard or a gift) is valued by the solver instead where the game allows it
(:data:`~tricktaker.bots.playout.SOLVED_PLAY`: Tuppi rami and sooli): in each
world the action is applied, the other decisions before card play are made
by the rollout policy, and the card play is solved exactly from its first
card (``phase_time`` seconds at most a solve); the game's scoring of the
solved value is the action's reward (:func:`~tricktaker.bots.playout.solved_playout`,
which the oracle's bidding uses too).  A world where any candidate's hand
is not solved (a nolo, a solve out of time) is rolled out for every
candidate instead, so each world compares its candidates one way.

Ties go to the action the rules policy would choose, so where the worlds do
not tell actions apart (many equal cards) the bot still plays naturally.
Phases with a great many actions (Huutopussi's exchange of 3 cards from 12)
are narrowed to ``max_candidates``: the rules policy's choice and a seeded
sample of the rest.

A solved decision may have a budget of search nodes (``nodes``; by default
:data:`NODE_BUDGET`'s, about a second here, in the games it lists), spent world by world
through ``tt.solve``'s ``node_limit``: a rare deep world never holds the decision up, and a
decision that cannot solve ``min_worlds`` worlds within it is rolled out instead.  Counted
in nodes, the budget stops at the same place on any machine, so the bot stays deterministic
given ``seed`` (and the solves before it in the process).  A ``time`` budget stops sampling
early and bounds each solve too, at the cost of that determinism.
"""

from __future__ import annotations

import math
import random
import statistics
import time as clock
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any, Generic, NamedTuple, TypeVar

from ..engine import Action, Game, State
from .base import Bot, View
from .belief import bids_likelihood, dd_likelihood, flat_likelihood, log_likelihood, weighted_worlds
from .playout import (
    ROLLOUTS,
    SOLVED_PLAY,
    Rollout,
    check_budget,
    hand_over,
    play_out,
    solved_playout,
    solves_whole_hand,
)

PHASES = ("rollout", "solve")
"""How ``pimc`` values decisions before card play: ``rollout`` plays each world out by the rollout
policy, ``solve`` solves its card play from the first card where the game allows it
(:func:`~tricktaker.bots.playout.solved_playout`) and rolls out the rest."""

LIKELIHOODS = {"rules": log_likelihood, "bids": bids_likelihood, "dd": dd_likelihood, "flat": flat_likelihood}
"""The weightings of ``infer``: ``rules`` by how likely each world makes the other players'
actions under the rules model, ``bids`` the same for their actions that are not card plays,
``dd`` by their recent card plays under a double-dummy model, ``flat`` every world alike: uniform
worlds drawn as the weighted ones are, to compare a weighting with on the same worlds
(:mod:`tricktaker.bots.belief`)."""

INFERENCES = ("none", *LIKELIHOODS)
"""How ``pimc`` draws its worlds: ``none`` uniformly among the consistent deals, else weighted
by one of :data:`LIKELIHOODS`."""


class Weighting(NamedTuple):
    """How ``pimc`` weighs its worlds: ``infer`` (one of :data:`INFERENCES`), ``trust`` and
    ``spread`` (see :class:`PimcBot`)."""

    infer: str
    trust: float
    spread: float


UNIFORM = Weighting("none", 0.8, 0.0)
"""Uniform worlds: the default where :data:`INFERENCE` does not list a game."""

INFERENCE: dict[str, Weighting] = {
    "tuppi": Weighting("rules", 0.5, 0.33),
    "tute/4": Weighting("bids", 0.9, 0.0),
}
"""Per game or variant (:func:`setting`'s keys), ``pimc``'s default weighting of its worlds; a
game not listed draws uniform worlds (:data:`UNIFORM`).  Tute cabrero keeps uniform worlds: it
was not measured.

Tuppi weighs every action of the others (``rules``), softly (``trust`` 0.5) and tempered to keep
a third of the worlds drawn (``spread``).  Judged card by card against the same worlds
unweighted (``bench/inference.py --game tuppi --bots
pimc:infer=rules:trust=0.5:spread=0.33,pimc:infer=flat``, seeds 81-160) it avoided 29% of their
double-dummy loss, -0.68 [-1.20, -0.15] tricks a hand, as it had against ``infer=none`` on
seeds 1-80 (-0.63 [-1.16, -0.09]); a decision takes a median of 0.17 s instead of 0.02 s.

Tute in pairs weighs the cantes (``bids``: the others' actions that are not card plays; a
player who could sing and did not, or sang one suit first, tells where the kings and knights
are).  Judged card by card against the same worlds unweighted (``bench/inference.py --game
tute-pairs --bots pimc:infer=bids:trust=0.9,pimc:infer=flat``, 160 hands, docs/bots.md "Tute's
cantes as evidence") it avoided 26% of their double-dummy loss, -2.81 [-5.04, -0.57] points a
hand.  Weighing Huutopussi's auction and calls, or habanero's cantes, showed no gain against
players that search (docs/bots.md), so those stay options."""

UNSOLVED_PLAYS = ("rollout", "rules")
"""The values of ``unsolved_play`` and of :data:`UNSOLVED_PLAY`."""

__all__ = ["INFERENCE", "INFERENCES", "LIKELIHOODS", "NODE_BUDGET", "PHASES", "SOLVE_CARDS", "THREADS",
           "STOCK_SOLVE_CARDS", "UNIFORM", "UNSOLVED_PLAY", "UNSOLVED_PLAYS", "PimcBot", "Weighting",
           "answered_no", "candidates", "cards_to_play", "largest_setting", "setting", "warm_up",
           "within_solve_limits"]

SOLVE_CARDS: dict[str, int] = {
    "tuppi": 10,
    "tute": 10,
    "tute/3": 11,
    "marjapussi": 9,
    "bondtolva": 6,
    "avomarjapussi": 14,
    "huutopussi": 9,
    "huutopussi/3": 11,
    "huutopussi/2": 11,
}
"""Per game, the most cards still to play (:func:`cards_to_play`) at which a world is solved;
a key ``name/players`` sets one variant's own (:func:`setting`).

The contracts of :data:`~tricktaker.bots.playout.SOLVED_PLAY` (Tuppi rami and sooli) are
solved from their first card whatever the limit here, which is then the limit of the game's
other contracts (Tuppi nolo).  A ``solve_cards`` option on the bot is one limit for every
contract.

Measured with ``bench/solve_cards.py`` on the worlds this bot samples (docs/bots.md): at
these sizes the median solve takes under 30 ms and nine in ten under about 200 ms, and one
card more multiplies the slow ones by five to ten.  Marjapussi solves its whole hand (9
cards) within :data:`NODE_BUDGET`, which played its first trick better than rollouts
(docs/bots.md, "A budget of search nodes").  Tute in pairs (10 cards), Huutopussi for four
and for two (9 and 11 cards), Bondtolva and Tute habanero's play after the stock are solved
from their first card; Tute for three from 11 of its 13 cards; Avomarjapussi counts its rows,
and solves from 14.  Solving those first cards so lost less than their rollouts, judged card
by card (docs/bots.md, "Solved from the first card").  Huutopussi for three solves its whole hand
(11 cards) within :data:`NODE_BUDGET`: judged card by card, solving its second trick avoided
three quarters of the double-dummy loss of rolling it out, and solving its first trick three
quarters of the loss of the rules bot's card it played there before (docs/bots.md).  While a stock lasts,
:data:`STOCK_SOLVE_CARDS` rules instead.
"""

STOCK_SOLVE_CARDS: dict[str, int] = {
    "tute": 13,
    "bondtolva": 11,
}
"""Per game with a stock (Tute habanero, Bondtolva for two), the most cards still to play
(:func:`cards_to_play`: the mover's hand and its half of the stock still to draw) at which a
world is solved while the stock lasts; 0 solves none, and a game not listed has no stock.

A world during the stock is deeper than its card count says, since the order of the stock
is dealt too.  ``bench/solve_cards.py --stock --hands 8`` (docs/bots.md, 2026-11-29): in Tute
habanero 13 cards solve in a median 10 ms (90th percentile 36 ms), 14 in 25 ms (69 ms), 15 in
36 ms (135 ms); in Bondtolva for two 10 cards in 8 ms (25 ms), 11 in 39 ms (131 ms), 12 (its
first card) in 88 ms (335 ms).  Measured in play (``bench/inference.py``), solving halved
``pimc``'s double-dummy loss a card in habanero (0.45 against 0.95 points) and cut it to a third
in Bondtolva for two (0.021 against 0.068), where it also won a duplicate arena of 40 deals by
+0.51 [+0.21, +0.82] points a deal (habanero: +2.70 [-3.03, +8.43], not clear).  Bondtolva for
two's eleventh card solved lost 0.049 points a decision against 0.120 rolled out (its median
decision 0.5 s); its first card (12) lost less too but took 1.4 s a decision at the median, over
a decision's second.  Habanero's 14th and 15th cards solved lost no less than the rules card
over 180 hands, so habanero stays at 13 (docs/bots.md, "Solving while the stock lasts").
"""

UNSOLVED_PLAY: dict[str, str] = {"tute/2": "rules", "huutopussi/3": "rules"}
"""Per game or variant (:func:`setting`'s keys), how a card play is chosen that is not solved
(more cards to play than :data:`SOLVE_CARDS`, or while a stock lasts :data:`STOCK_SOLVE_CARDS`,
or a decision whose budget ran out): ``rollout`` (where not listed) values each candidate by
rollouts of the ``rollout`` policy, as everywhere else; ``rules`` plays the rules bot's card.

Where it is ``rules``, the rollouts chose worse than the rules bot itself, judged card by card
(``bench/inference.py``, docs/bots.md).  In Tute habanero's stock (``--game tute-habanero
--hands 30 --bots pimc,rules``), where the two differed at 14-19 cards to play ``pimc`` lost
707 round points on the true deals to the rules bot's 412: the stock's order is dealt anew in
every world, and a rollout's value then rests on cards neither player can know.  In the first
trick of Huutopussi for three (``--game huutopussi-three --hands 60 --cards 11 --bots
pimc:confidence=100,pimc``, the rules card against the rollouts) the rules card lost 0.32 points
a decision to the rollouts' 3.63, -6.83 [-12.13, -1.54] points a hand.  In Bondtolva for two's
stock the two ways differ in 12 of 821 decisions over 40 hands and neither is measurably
better (``--bots pimc:unsolved_play=rules,pimc``: +0.025 [-0.090, +0.140] hand points a hand
of double-dummy loss), so it keeps its rollouts, as the games not measured do.
"""


MAX_THREADS = 64
"""The most threads a decision may ask for (:data:`tricktaker.solver.parallel.MAX_THREADS`, which
is not imported here so that the solver loads only when a bot first solves)."""

THREADS = 2
"""The threads ``pimc`` solves a decision's worlds in by default, each in a set of tables of its
own (:func:`tricktaker.solver.parallel.solve_worlds`, which gives exactly one thread's answer,
so the cards played do not depend on it).  Two uses both cores of this project's machine; more
would cost each process 96 MB of tables a thread and crowd an arena's worker processes, so it
is not the machine's core count: ``pimc:threads=8`` asks for more, ``threads=1`` for one."""


NODE_BUDGET: dict[str, int] = {
    "tuppi": 10_000_000,
    "marjapussi": 6_500_000,
    "huutopussi/3": 9_000_000,
    "tute/4": 10_000_000,
}
"""Per game (or ``name/players``, :func:`setting`), the search nodes a card-play decision's
solves may visit in all by default: about a second of this project's 2-core build machine
(docs/bots.md); a game not listed has no limit.  A node is a searched position: the last
tricks the point kernel plays out count none, so its budgets follow what a node costs there
(10 million each until 2026-11-29, when the play-outs grew: docs/bots.md).  Tute in pairs,
solved from its first card since 2026-11-29, has 10 million too: its decisions at 10 cards took
a median of 7.4 million nodes (0.5 s) and at most 40 million in 8 hands
(``bench/decision_nodes.py --game tute-pairs --hands 8 --bot pimc:nodes=0``), and a rare opening
lead took 9.7 s (``tricktaker play tute --seed 654836``).  A cap of 40 million came first; 10
million takes that lead a quarter of its time, and judged card by card on 120 hands at 10 cards
it lost no more than 40 million (0.83 against 1.05 points a decision, -0.69 [-2.12, +0.74] a
hand; docs/bots.md).
A budget in nodes rather than seconds stops every search at the same node on any machine and
under any load, so the bot stays deterministic given its seed; where the budget does not solve
``min_worlds`` worlds the decision is rolled out instead.

Measured card by card against no budget (``bench/inference.py``, docs/bots.md): in Tuppi it
caps a rami's deepest first tricks at no measurable cost, and it lets Marjapussi solve its
whole hand, and Huutopussi for three its whole hand.  In Huutopussi for four it cost points
(its first trick often needs 10-40 million nodes, and a decision on fewer worlds or rolled out
plays worse), so there, as in the games not measured, the solves are not limited."""


V = TypeVar("V")


def setting(table: Mapping[str, V], game: Game, default: V) -> V:
    """A per-game setting of ``table`` for ``game``: its variant's own (key ``name/players``, such
    as ``huutopussi/3``) where listed, else the game's (key ``name``), else ``default``."""
    return table.get(f"{game.name}/{game.num_players}", table.get(game.name, default))


def largest_setting(table: Mapping[str, int], name: str) -> int:
    """The largest setting of ``table`` over the variants of the game ``name`` (0 if none): what a
    limit that holds for every variant of the game may allow."""
    return max((value for key, value in table.items() if key.split("/")[0] == name), default=0)


def candidates(view: View, rng: random.Random, limit: int) -> list[Action]:
    """The actions worth valuing, the rules policy's choice first (it wins ties).

    All legal actions when there are at most ``limit``; else the rules choice
    and a seeded sample of the rest.  Never an ask its partner already answered
    no (:func:`answered_no`), nor a card that would overtake the partner's sure
    winner without need (:func:`~tricktaker.bots.rules.needless_overtakes`):
    in a world those can tie with the natural play or win by an accident of
    the deal, and a partner who sees them stops trusting the bot.
    """
    from .rules import POLICIES, needless_overtakes

    preferred = POLICIES[view.game.name](view, rng)
    futile = answered_no(view)
    overtakes = needless_overtakes(view)
    others = [a for a in view.legal_actions
              if a is not preferred and a.text not in futile and a not in overtakes]
    if len(others) >= limit:
        others = rng.sample(others, limit - 1)
    return [preferred, *others]


def answered_no(view: View) -> set[str]:
    """The asks this seat made in the hand that its partner answered ``answer no``.

    The partner's hand only loses cards, so the answer cannot change: asking
    again only spends the call.  In a world the repeat costs nothing either,
    so rollout noise could make it look best; it is never a candidate.
    """
    calls = view.observation.get("calls") or []
    return {text for (seat, text), (_, reply) in zip(calls, calls[1:], strict=False)
            if seat == view.seat and text.startswith("ask") and reply == "answer no"}


def warm_up(game: Game, seed: int = 0) -> None:
    """Solve one small endgame of ``game``, so that the solver's tables are allocated before a bot
    needs them.

    The searches are compiled when the package is installed, so this costs only the first
    touch of the tables (a few hundred milliseconds at most); the bot workers of ``tricktaker
    serve`` call it as they start, so the first bot decision of a table does not pay it.
    """
    from ..solver import solve

    if getattr(game, "cabrero", False):
        return  # Tute cabrero is never solved (the solver counts points, not losing places)
    rng = random.Random(seed)
    state = game.new_hand(seed=seed)
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        observation = state.observation(seat)
        if observation.get("phase") == "play" and cards_to_play(observation, seat) <= 2 \
                and not observation.get("stock_size"):
            solve(state)
            return
        state.apply(rng.choice(state.legal_actions()))


def _clearly_better(challenger: list[float], incumbent: list[float], z: float,
                    distinct: float | None = None) -> bool:
    """True when ``challenger`` beats ``incumbent`` by more than ``z`` standard errors, world by world.

    Both were scored in the same worlds with the same random numbers, so the
    paired differences carry little of the luck of the deal.  ``distinct`` is how
    many independent worlds the scores are worth when some world was drawn more
    than once (:func:`distinct_worlds`; default: every score its own world): the
    standard error is the spread over the square root of that, and below two
    worlds' worth no spread is known, so nothing is clearly better.
    """
    diffs = [c - i for c, i in zip(challenger, incumbent, strict=True)]
    mean = statistics.fmean(diffs)
    if len(diffs) < 2:
        return mean > 0
    worth = len(diffs) if distinct is None else distinct
    if worth < 2:
        return False
    return mean > z * statistics.stdev(diffs) / math.sqrt(worth)


T = TypeVar("T")


class _ByWorld(Generic[T]):
    """A value kept per world object, for worlds drawn more than once by weight (the same object
    each time).  Keyed by identity, so each world is held with its value: a world let go could
    hand its id to the next one drawn."""

    def __init__(self) -> None:
        self._items: dict[int, tuple[State, T]] = {}

    def __contains__(self, world: State) -> bool:
        return id(world) in self._items

    def __getitem__(self, world: State) -> T:
        return self._items[id(world)][1]

    def __setitem__(self, world: State, value: T) -> None:
        self._items[id(world)] = (world, value)


def distinct_worlds(drawn: list[int]) -> float:
    """What a sample with repeats is worth in independent worlds: Kish's effective size of the
    repeat counts, ``(sum m)^2 / sum m^2`` (``len(drawn)`` when no world repeats, 1 when one
    world was drawn every time)."""
    counts = Counter(drawn)
    return len(drawn) ** 2 / sum(m * m for m in counts.values()) if drawn else 0.0


def within_solve_limits(game: Game, observation: dict[str, Any], seat: int, solve_cards: int | None = None,
                        stock_cards: int | None = None) -> bool:
    """True when ``seat``'s position (its ``observation``) is card play that ``pimc`` solves: at most
    ``solve_cards`` cards to play, or while a stock lasts ``stock_cards`` (None: the game's
    :data:`SOLVE_CARDS` and :data:`STOCK_SOLVE_CARDS`, and the contracts solved whole).  Never in
    Tute cabrero, whose losing places the solver does not count."""
    if observation.get("phase") != "play" or getattr(game, "cabrero", False):
        return False
    stock = bool(observation.get("stock_size"))
    limit, table = (stock_cards, STOCK_SOLVE_CARDS) if stock else (solve_cards, SOLVE_CARDS)
    if limit is None:  # the game's own limits
        if not stock and solves_whole_hand(game.name, observation.get("contract")):
            return True
        limit = setting(table, game, 0)
    return cards_to_play(observation, seat) <= limit


def cards_to_play(observation: dict[str, Any], seat: int) -> int:
    """The cards ``seat`` has still to play this hand: its hand, in Avomarjapussi its rows too,
    and while a stock lasts its half of the stock (the two players draw one card each a trick)."""
    rows = observation.get("rows")
    in_rows = sum((up is not None) + bool(down) for up, down in rows[seat]) if rows else 0
    return len(observation["hand"]) + in_rows + (observation.get("stock_size") or 0) // 2


class PimcBot(Bot):
    """Samples worlds, values each candidate action in each, plays the best total.

    ``worlds``: worlds per decision; ``time``: seconds per decision at most (at
    least one world is always used); ``rollout``: the policy that plays worlds
    to the end of the hand (``rules`` or ``random``); ``solve_cards``: override
    :data:`SOLVE_CARDS` for the game (0 never solves); ``stock_cards``: override
    :data:`STOCK_SOLVE_CARDS`, the same while a stock lasts (0 never solves then);
    ``max_candidates``: the most actions valued; ``confidence``: standard errors by which a rolled-out
    action must beat the rules choice to be played instead; ``infer``: ``rules`` weights
    the worlds by the other players' actions, ``bids`` by those that are not card plays
    (:mod:`~tricktaker.bots.belief`: ``pool``
    times more worlds drawn and resampled, each other player taken to play the rules
    action with probability ``trust``, the weights tempered to keep an effective
    ``spread`` share of the worlds drawn), ``flat`` weighs every world alike (uniform worlds drawn
    as a weighted bot of the same seed draws them), ``none`` samples uniformly; ``infer``,
    ``trust`` and ``spread`` not given are the game's :data:`INFERENCE` (:meth:`weighting`);
    ``phases``: ``solve`` values decisions before card play by solving each world's
    card play from its first card where the game allows it (:data:`PHASES`), each
    solve given ``phase_time`` seconds at most; ``nodes``: the search nodes a card-play
    decision's solves may visit in all (none: the game's :data:`NODE_BUDGET`; 0: no limit), and
    ``min_worlds``: the fewest worlds it must solve within that (or ``time``), else it is
    rolled out instead; ``unsolved_play``: ``rollout`` or ``rules``, how a card play is chosen
    that is not solved (none: the game's :data:`UNSOLVED_PLAY`; ``stock_play`` is its old name);
    ``threads``: the threads a card-play decision's worlds are solved in (:data:`THREADS`), and
    with ``phases=solve`` the threads each world's solve from the first card shares.
    """

    name = "pimc"

    def __init__(self, seed: int | None = None, worlds: int = 24, time: float | None = None,
                 rollout: str = "rules", solve_cards: int | None = None,
                 stock_cards: int | None = None, max_candidates: int = 12, confidence: float = 1.5,
                 infer: str | None = None, trust: float | None = None, pool: int = 3, phases: str = "rollout",
                 phase_time: float = 0.1, spread: float | None = None, nodes: int | None = None,
                 min_worlds: int = 8, unsolved_play: str | None = None,
                 stock_play: str | None = None, threads: int = THREADS) -> None:
        check_budget("worlds", worlds, time, rollout)
        if nodes is not None and nodes < 0:
            raise ValueError(f"nodes must be 0 (no limit) or more, not {nodes}")
        if min_worlds < 1:
            raise ValueError(f"min_worlds must be at least 1, not {min_worlds}")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be 1 to {MAX_THREADS}, not {threads}")
        for key, value in (("unsolved_play", unsolved_play), ("stock_play", stock_play)):
            if value is not None and value not in UNSOLVED_PLAYS:
                raise ValueError(f"unknown {key} {value!r} (choices: {', '.join(UNSOLVED_PLAYS)})")
        if unsolved_play is not None and stock_play is not None and unsolved_play != stock_play:
            raise ValueError("stock_play is the old name of unsolved_play: give one of them")
        if infer is not None and infer not in INFERENCES:
            raise ValueError(f"unknown infer {infer!r} (choices: {', '.join(INFERENCES)})")
        if trust is not None and not 0 < trust < 1:
            raise ValueError(f"trust must be between 0 and 1, not {trust}")
        if pool < 1:
            raise ValueError(f"pool must be at least 1, not {pool}")
        if spread is not None and not 0 <= spread <= 1:
            raise ValueError(f"spread must be between 0 and 1, not {spread}")
        if phases not in PHASES:
            raise ValueError(f"unknown phases {phases!r} (choices: {', '.join(PHASES)})")
        if not phase_time > 0:
            raise ValueError(f"phase_time must be positive seconds, not {phase_time}")
        super().__init__(seed)
        self.worlds = worlds
        self.time = time
        self.rollout = rollout
        self.solve_cards = solve_cards
        self.stock_cards = stock_cards
        self.max_candidates = max_candidates
        self.confidence = confidence
        self.infer = infer
        self.trust = trust
        self.pool = pool
        self.spread = spread
        self.phases = phases
        self.phase_time = phase_time
        self.nodes = nodes
        self.min_worlds = min_worlds
        self.unsolved_play = unsolved_play or stock_play
        self.threads = threads

    def _solves(self, view: View) -> bool:
        """True when this decision is card play small enough for the solver."""
        return within_solve_limits(view.game, view.observation, view.seat, self.solve_cards, self.stock_cards)

    def _plays_by_rules(self, view: View) -> bool:
        """True for a card play (not solved: the caller's part) that :data:`UNSOLVED_PLAY` (or
        ``unsolved_play``) leaves to the rules bot rather than to rollouts."""
        if view.observation.get("phase") != "play":
            return False
        return (self.unsolved_play or setting(UNSOLVED_PLAY, view.game, "rollout")) == "rules"

    def decide(self, view: View) -> Action:
        rng = self._rng
        choices = candidates(view, rng, self.max_candidates)
        deadline = None if self.time is None else clock.perf_counter() + self.time
        scores = self._solved_scores(view, choices, deadline) if self._solves(view) else None
        solved = scores is not None
        preferred = choices[0]  # the rules choice, first of equals
        if scores is None and self._plays_by_rules(view):
            return preferred
        distinct = None
        if scores is None:
            scores, distinct = self._rolled_out_scores(view, choices, deadline)
        best = max(choices, key=lambda a: sum(scores[a]))
        if solved or best is preferred or _clearly_better(scores[best], scores[preferred], self.confidence,
                                                          distinct):
            return best
        return preferred

    def weighting(self, game: Game) -> Weighting:
        """How this bot weighs its worlds in ``game``: the game's :data:`INFERENCE` (Tute cabrero
        and the games not listed: :data:`UNIFORM`), with each of ``infer``, ``trust`` and
        ``spread`` given to the bot in its place.  With an ``infer`` of its own the bot's
        ``trust`` and ``spread`` not given are :data:`UNIFORM`'s (0.8 and 0), not the table's."""
        table = UNIFORM if getattr(game, "cabrero", False) else setting(INFERENCE, game, UNIFORM)
        if self.infer is not None:
            table = UNIFORM._replace(infer=self.infer)
        return Weighting(table.infer, table.trust if self.trust is None else self.trust,
                         table.spread if self.spread is None else self.spread)

    def _worlds(self, view: View, deadline: float | None = None) -> Iterator[State]:
        """The worlds of one decision: uniform, or weighted by the other players' actions (fewer
        of them once ``deadline`` passes while they are weighed)."""
        weighting = self.weighting(view.game)
        weigh = LIKELIHOODS.get(weighting.infer)
        if weigh is not None:
            return iter(weighted_worlds(view, self._rng, self.worlds, self.pool, weighting.trust, weigh,
                                        spread=weighting.spread, deadline=deadline))
        return (view.sample_world(self._rng) for _ in range(self.worlds))

    def _solved_scores(self, view: View, choices: list[Action],
                       deadline: float | None) -> dict[Action, list[float]] | None:
        """Each candidate's double-dummy value in each world solved within the budget, or None
        when fewer than ``min_worlds`` worlds were solved before the ``nodes`` or ``time`` budget
        ran out: the decision is then rolled out, as one too big to solve is."""
        from ..solver.parallel import solve_worlds

        budget = setting(NODE_BUDGET, view.game, 0) if self.nodes is None else self.nodes
        solutions = solve_worlds(list(self._worlds(view, deadline)), self.threads, deadline, budget or None)
        solved = [solution.values for solution in solutions if solution is not None]
        if len(solved) < min(self.min_worlds, self.worlds):
            return None
        return {action: [values[action] for values in solved] for action in choices}

    def _rolled_out_scores(self, view: View, choices: list[Action],
                           deadline: float | None) -> tuple[dict[Action, list[float]], float]:
        """Each candidate's reward in each world, played out by the rollout policy (or, with
        ``phases=solve``, before card play, its card play solved where the game allows it),
        and how many independent worlds the scores are worth (:func:`distinct_worlds`).

        A world drawn twice by weight (``infer``) is played out once and counted twice: a
        second rollout of the same deal by the same policy would come out the same, and
        counted as a new world it would make the rules choice's guard believe in a
        difference it has seen once.
        """
        rng = self._rng
        scores: dict[Action, list[float]] = {action: [] for action in choices}
        side = view.game.side_of(view.seat)
        rollout = ROLLOUTS[self.rollout]
        phase_solving = (self.phases == "solve" and view.observation.get("phase") != "play"
                         and view.game.name in SOLVED_PLAY)
        done: _ByWorld[list[float]] = _ByWorld()
        drawn: list[int] = []
        for world in self._worlds(view, deadline):
            luck = rng.getrandbits(64)
            drawn.append(id(world))
            if world not in done:
                if phase_solving:
                    limit = self.phase_time if deadline is None else \
                        max(min(self.phase_time, deadline - clock.perf_counter()), 1e-3)
                    results = _solved_world(world, choices, rollout, luck, limit, self.threads)
                    rewards = [result[side] for result in results]
                else:
                    rewards = []
                    for action in choices:
                        child = world.clone()
                        child.apply(action)
                        rewards.append(play_out(child, rollout, random.Random(luck))[side])
                done[world] = rewards
            for action, reward in zip(choices, done[world], strict=True):
                scores[action].append(reward)
            if deadline is not None and clock.perf_counter() > deadline:
                break
        return scores, distinct_worlds(drawn)

    def __repr__(self) -> str:
        inference = f", infer={self.infer!r}" if self.infer is not None else ""
        phases = f", phases={self.phases!r}" if self.phases != "rollout" else ""
        return f"PimcBot(seed={self.seed!r}, worlds={self.worlds}, time={self.time!r}{inference}{phases})"


def _solved_world(world: State, choices: list[Action], rollout: Rollout, luck: int,
                  time_limit: float, threads: int = 1) -> list[list[float]]:
    """Each candidate's rewards in ``world``: solved from the first card where every candidate's
    hand is (:func:`~tricktaker.bots.playout.solved_playout`), else all rolled out.

    Each candidate is applied and the decisions before card play are made by
    ``rollout`` with the same random numbers.  Candidates that reach the same
    first card (two red bid cards of one rami, in Tuppi) share one solve, and in
    a rolled-out world one rollout when nothing public tells them apart either.
    """
    starts: list[State] = []
    for action in choices:
        child = world.clone()
        child.apply(action)
        rng = random.Random(luck)
        while not hand_over(child, world.hand_number) and getattr(child, "phase", None) != "play":
            seat = child.current_player
            assert seat is not None
            child.apply(rollout(child, seat, rng))
        starts.append(child)
    keys = [_play_start(child) for child in starts]
    if all(hand_over(child, world.hand_number)
           or solves_whole_hand(world.game.name, getattr(child, "contract", None)) for child in starts):
        solved: dict[tuple[Any, ...], list[float] | None] = {}
        for key, child in zip(keys, starts, strict=True):
            if key not in solved:
                solved[key] = solved_playout(child.clone(), rollout, random.Random(luck), time_limit,
                                             threads=threads)
                if solved[key] is None:
                    break
        else:
            return [solved[key] for key in keys]  # type: ignore[misc]
    rolled: dict[tuple[Any, ...], list[float]] = {}
    results = []
    for key, child in zip(keys, starts, strict=True):
        seen = (key, repr(child.observation(None)))
        if seen not in rolled:
            rolled[seen] = play_out(child, rollout, random.Random(luck))
        results.append(rolled[seen])
    return results


def _play_start(state: State) -> tuple[Any, ...]:
    """What fixes a hand's double-dummy result at its first card: every hand, the contract, the leader."""
    public = state.observation(None)
    contract = tuple(public.get(key) for key in ("contract", "declarer", "soloist", "trump"))
    hands = tuple(tuple(state.observation(seat).get("hand") or ()) for seat in range(state.num_players))
    return (state.hand_number, state.is_over(), hands, contract, state.current_player)
