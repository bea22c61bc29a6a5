"""Two bots judged on the same positions: what each one's card costs on the true deal.

A duplicate arena compares two bots by the scores of whole deals, where one
deal's luck swamps a small difference in play: in Tuppi, Tute and Huutopussi
32 deals left every interval of the weighted-worlds comparison wide around
zero (docs/bots.md).  This bench asks the question the weighting is meant to
answer, one decision at a time, with far less noise:

1. hands are played by ``--players`` bots (default ``pimc``) at every seat;
2. at each card-play decision with a choice, both bots of ``--bots`` decide
   from the mover's view (same seed, so they draw the same uniform worlds);
3. where they disagree, the true position is solved once and each choice's
   double-dummy loss (best value minus its value, in the game's units) is read
   off (:func:`tricktaker.analysis.judge`); where they agree the difference
   is 0 and nothing is solved.

With ``--judge playout`` a disagreement is judged instead by playing the true
deal out from each choice: the mover goes on with the bot that chose, every
other seat with a ``--players`` bot seeded alike in both playouts, and each
choice's "loss" is what its playout made short of the other's (in the
solver's units, :func:`tricktaker.solver.made`). That scores what a search
such as ``alphamu`` aims at, the hand's real result; the double-dummy loss
cannot, since PIMC's own rule minimises it (docs/bots.md).

It prints the mean loss per decision of each bot, their difference with a
95% interval, how often they disagreed, and (judged double dummy) the share
of the second bot's loss the first avoids: with ``--bots BOT,rules`` that is
the share of the rules-to-oracle gap in card play BOT closes, on the same
positions (the oracle's loss is 0 by definition).  The interval is over hands
(each hand's summed difference is one observation), since the decisions of
one hand share a deal and are not independent.

Run:  python bench/inference.py --game tuppi --hands 40 [--bots pimc:infer=rules,pimc]
      python bench/inference.py --game tute-pairs --hands 60 --bots alphamu,pimc --judge playout
      python bench/inference.py --game tuppi-nolo --hands 60 --cards 11 --bots pimc:solve_cards=11,pimc
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from dataclasses import dataclass, field

from solve_cards import CONTRACTS, OWN_LIMIT_VARIANTS, bid_for

import tricktaker as tt
from tricktaker.analysis import judge
from tricktaker.bots import make_bot, view_of
from tricktaker.bots.pimc import cards_to_play
from tricktaker.engine import Action, State
from tricktaker.solver import made, side_of
from tricktaker.solver.points import BENCH_VARIANTS

GAMES = {"tuppi": ("tuppi", {}), "tuppi-nolo": ("tuppi", {}), **BENCH_VARIANTS, **OWN_LIMIT_VARIANTS}
"""Tuppi, every point-game variant the solver bench measures, and two games whose ends keep cards
hidden with no partner at the table (three-player Tute, each alone; Huutopussi for two, with its
dead hand): where a search such as ``alphamu`` meets strategy fusion with no partner model.
``tuppi-nolo`` plays only nolo hands (every seat passes; seeds dealt into another contract are
skipped), where ``pimc`` solves fewer cards than in a rami."""

T_975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
         10: 2.23, 15: 2.13, 20: 2.09, 30: 2.04, 60: 2.00}
"""Student's t at 97.5% by degrees of freedom (between listed ones, the next lower one's)."""


def t_975(df: int) -> float:
    return next((T_975[k] for k in sorted(T_975, reverse=True) if df >= k), 12.71) if df < 120 else 1.96


@dataclass
class Tally:
    """The losses of the two bots, per decision and summed per hand."""

    decisions: int = 0
    disagreed: int = 0
    unsolved: int = 0
    loss_a: float = 0.0
    loss_b: float = 0.0
    hand_a: list[float] = field(default_factory=list)
    hand_b: list[float] = field(default_factory=list)
    """Each hand's summed loss of the first bot and of the second."""
    seconds_a: list[float] = field(default_factory=list)
    seconds_b: list[float] = field(default_factory=list)
    by_cards: dict[int, list[float]] = field(default_factory=dict)
    """By the mover's cards still to play (``pimc.cards_to_play``): decisions, disagreements,
    and each bot's summed loss, so the report shows where in the hand the difference lies."""
    seconds_by_cards: dict[int, tuple[list[float], list[float]]] = field(default_factory=dict)
    """By the mover's cards still to play: each bot's seconds per decision."""


def played_out(state: State, action: Action, spec: str, players: str, seed: int) -> float:
    """What the mover's side makes from ``state`` (in the solver's units) when it plays ``action``
    and the hand is played to its end: the mover by a new ``spec`` bot, every other seat by a new
    ``players`` bot, each seeded from ``seed`` alone, so two calls differ only by the mover's bot."""
    mover = state.current_player
    assert mover is not None
    hand, side = state.hand_number, side_of(state, mover)
    bots = [make_bot(spec if s == mover else players, seed=seed * 16 + s) for s in range(state.num_players)]
    world = state.clone()
    start = made(world, side, hand)
    world.apply(action)
    while not world.is_over() and world.hand_number == hand:
        seat = world.current_player
        assert seat is not None
        world.apply(bots[seat].act(view_of(world, seat)))
    return made(world, side, hand) - start


def judge_by_playout(state: State, first: Action, second: Action, specs: tuple[str, str], players: str,
                     seed: int) -> dict[Action, float]:
    """Each choice's result on the true deal played out (see :func:`played_out`), its bot going on."""
    return {first: played_out(state, first, specs[0], players, seed),
            second: played_out(state, second, specs[1], players, seed)}


def play_hand(game: tt.Game, seed: int, players: str, specs: tuple[str, str], tally: Tally,
              time_limit: float, by_playout: bool = False, contract: str | None = None,
              only_cards: frozenset[int] = frozenset()) -> bool:
    """One hand by ``players`` bots; every card decision with a choice judged for both ``specs``
    (double dummy, or ``by_playout``: by the hand played out from each choice), or with
    ``only_cards`` only those where the mover has that many cards to play.  With ``contract``,
    the bidding passes and a hand not played as ``contract`` is skipped (False)."""
    state: State = game.new_hand(seed=seed, dealer=seed % game.num_players)
    seats = [make_bot(players, seed=seed * 16 + s) for s in range(game.num_players)]
    if contract is not None and not bid_for(state, contract, seats):
        return False
    hand_a = hand_b = 0.0
    decisions_seen = 0
    while not state.is_over():
        mover = state.current_player
        assert mover is not None
        view = view_of(state, mover)
        legal = view.legal_actions
        if (len(legal) > 1 and any(a.kind == "play" for a in legal)
                and (not only_cards or cards_to_play(view.observation, mover) in only_cards)):
            decision_seed = seed * 1000 + decisions_seen
            started = time.perf_counter()
            first = make_bot(specs[0], seed=decision_seed).act(view_of(state, mover))
            tally.seconds_a.append(time.perf_counter() - started)
            started = time.perf_counter()
            second = make_bot(specs[1], seed=decision_seed).act(view_of(state, mover))
            tally.seconds_b.append(time.perf_counter() - started)
            tally.decisions += 1
            decisions_seen += 1
            cards = cards_to_play(view.observation, mover)
            row = tally.by_cards.setdefault(cards, [0, 0, 0.0, 0.0])
            timing = tally.seconds_by_cards.setdefault(cards, ([], []))
            timing[0].append(tally.seconds_a[-1])
            timing[1].append(tally.seconds_b[-1])
            row[0] += 1
            if first != second:
                tally.disagreed += 1
                row[1] += 1
                values = (judge_by_playout(state, first, second, specs, players, decision_seed)
                          if by_playout else judge(state, first, time_limit).values)
                if values is None:
                    tally.unsolved += 1
                else:
                    top = max(values.values())
                    cost_a = top - values[first]
                    cost_b = top - values[second]
                    tally.loss_a += cost_a
                    tally.loss_b += cost_b
                    row[2] += cost_a
                    row[3] += cost_b
                    hand_a += cost_a
                    hand_b += cost_b
        state.apply(seats[mover].act(view))
    tally.hand_a.append(hand_a)
    tally.hand_b.append(hand_b)
    return True


def report(name: str, specs: tuple[str, str], tally: Tally, by_playout: bool = False) -> None:
    per_hand = [a - b for a, b in zip(tally.hand_a, tally.hand_b, strict=True)]
    hands = len(per_hand)
    mean = statistics.fmean(per_hand)
    spread = statistics.stdev(per_hand) if hands > 1 else math.inf
    half = t_975(hands - 1) * spread / math.sqrt(hands) if hands > 1 else math.inf
    per = max(tally.decisions, 1)
    print(f"{name}: {hands} hands, {tally.decisions} card decisions with a choice, "
          f"{tally.disagreed} disagreements ({100 * tally.disagreed / per:.1f}%), "
          f"{tally.unsolved} not solved in time")
    print(f"  loss per decision: {specs[0]} {tally.loss_a / per:.4f}, {specs[1]} {tally.loss_b / per:.4f}")
    print(f"  {specs[0]} - {specs[1]} per hand: {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}] "
          f"(negative: the first loses less)")
    if tally.loss_b > 0 and hands > 1 and not by_playout:
        # The share of the second bot's loss the first avoids: against ``rules``, the share of
        # the rules-to-oracle gap in card play the first closes (the oracle loses nothing).
        # Its interval by the delta method for a ratio of means over hands.
        ratio = tally.loss_a / tally.loss_b
        residuals = [a - ratio * b for a, b in zip(tally.hand_a, tally.hand_b, strict=True)]
        error = statistics.stdev(residuals) / math.sqrt(hands) / statistics.fmean(tally.hand_b)
        half = t_975(hands - 1) * error
        print(f"  share of {specs[1]}'s loss {specs[0]} avoids: {1 - ratio:.1%} "
              f"[{1 - ratio - half:.1%}, {1 - ratio + half:.1%}]")
    print(f"  median seconds per decision: {statistics.median(tally.seconds_a):.3f} / "
          f"{statistics.median(tally.seconds_b):.3f}")
    print("  by the mover's cards still to play: decisions (disagreed), each bot's loss per decision, "
          "each bot's median ms per decision")
    for cards in sorted(tally.by_cards, reverse=True):
        n, split, loss_a, loss_b = tally.by_cards[cards]
        times_a, times_b = tally.seconds_by_cards[cards]
        print(f"  {cards:4} cards: {int(n):5} ({int(split):4})   {loss_a / n:.4f} / {loss_b / n:.4f}   "
              f"{1000 * statistics.median(times_a):.0f} / {1000 * statistics.median(times_b):.0f} ms")


def card_counts(text: str) -> frozenset[int]:
    """``--cards``: comma-separated counts of cards to play, each at least 1."""
    try:
        counts = frozenset(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of card counts: {text!r}") from None
    if any(count < 1 for count in counts):
        raise argparse.ArgumentTypeError(f"card counts are at least 1: {text!r}")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="tuppi", choices=sorted(GAMES))
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1, help="the first hand's seed")
    parser.add_argument("--bots", default="pimc:infer=rules,pimc", help="the two bots compared")
    parser.add_argument("--players", default="pimc", help="the bot at every seat of the hands played")
    parser.add_argument("--cards", type=card_counts, default=frozenset(),
                        help="judge only decisions where the mover has these many cards to play "
                             "(comma-separated; default: every one): where the two bots can differ")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per true-deal solve")
    parser.add_argument("--judge", choices=("dd", "playout"), default="dd",
                        help="dd: each choice's double-dummy loss; playout: each choice's hand played "
                             "out by the bots, the chooser going on (for searches such as alphamu that "
                             "aim at the real result, which double-dummy values do not score)")
    args = parser.parse_args()
    name, options = GAMES[args.game]
    game = tt.new_game(name, **options)
    a, b = args.bots.split(",")
    tally = Tally()
    contract = CONTRACTS.get(args.game)
    seed = args.seed
    while len(tally.hand_a) < args.hands:
        if seed >= args.seed + 20 * args.hands:
            raise SystemExit(f"{args.game}: only {len(tally.hand_a)} of {20 * args.hands} seeds "
                             f"dealt a hand played as {contract}")
        play_hand(game, seed, args.players, (a, b), tally, args.time_limit, args.judge == "playout", contract,
                  args.cards)
        seed += 1
    report(args.game, (a, b), tally, args.judge == "playout")


if __name__ == "__main__":
    main()
