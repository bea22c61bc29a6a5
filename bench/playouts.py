"""Random playouts per second: tricktaker's games against OpenSpiel's bridge, in one run.

Both sides are driven the same way, from a Python loop through each library's
public API: ask for the legal actions, pick one with ``random.choice``, apply
it, until the deal is over.  OpenSpiel plays ``bridge(use_double_dummy_result=
false)``: its 52 chance actions (the deal), a random auction and, unless all
pass, the 52 cards of the play.  tricktaker plays single Tuppi hands from
``game.new_hand(seed=i)``: the deal, four bids, sooli answers, and the play.

Tuppi hands have a different shape from bridge deals: with random bidders most
club-rules hands become sooli, which ends at the soloist's first trick.  So
three Tuppi rows are measured: club rules (the default), the tournament
preset (no sooli, every hand plays out), and full hands with early end off.
The headline ratio is the default rules' median over OpenSpiel's median;
every row is printed with its own ratio.

Tute rows follow, the same way: single rounds from ``game.new_hand(seed=i)`` of
pairs (4 players, 40 cards in 10 tricks, cantes offered after tricks) and of
habanero (2 players, 20 tricks with a stock, exchanges and cantes); a "deal"
in those rows is one round.  Their ratio column relates them to OpenSpiel's
bridge deals like the others; the headline stays Tuppi's.

The Marjapussi family follows: single hands of marjapussi (36 cards, 9 tricks,
calls offered after every trick), bondtolva with 4 players (24 cards) and with
2 (a stock), and avomarjapussi (18 tricks from hands and face-up rows); then
huutopussi for 4 and 3 players (a random auction, the exchange or the kitty
and discard, whose legal lists hold every 3-card choice, and the play).

Run:  pip install -e ".[bench]"  &&  python bench/playouts.py [--seconds 2] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import tricktaker as tt


def tuppi_runner(**options: object) -> Callable[[int, random.Random], int]:
    return hand_runner("tuppi", **options)


def hand_runner(name: str, **options: object) -> Callable[[int, random.Random], int]:
    """Random single hands of a game through the public API: ``new_hand(seed=i)``, random legal actions."""
    game = tt.new_game(name, **options)  # type: ignore[arg-type]

    def run(n: int, rng: random.Random) -> int:
        choice = rng.choice
        actions = 0
        for i in range(n):
            state = game.new_hand(seed=i)
            while not state.is_over():
                state.apply(choice(state.legal_actions()))
                actions += 1
        return actions

    return run


def openspiel_runner() -> Callable[[int, random.Random], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("bridge(use_double_dummy_result=false)")

    def run(n: int, rng: random.Random) -> int:
        choice = rng.choice
        actions = 0
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
                actions += 1
        return actions

    return run


def rate(run: Callable[[int, random.Random], int], seconds: float, rounds: int) -> tuple[float, float]:
    """Median deals per second over ``rounds`` timed rounds, and actions per deal."""
    rng = random.Random(1)
    run(50, rng)  # warm caches
    start = time.perf_counter()
    n = 50
    while time.perf_counter() - start < 0.2:
        run(n, rng)
        n *= 2
    per_round = max(50, int(n / (time.perf_counter() - start) * seconds))
    rates, acts = [], 0
    for _ in range(rounds):
        t0 = time.perf_counter()
        acts = run(per_round, rng)
        rates.append(per_round / (time.perf_counter() - t0))
    return statistics.median(rates), acts / per_round


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one timed round")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds per row (median)")
    args = parser.parse_args()

    rows: list[tuple[str, float, float]] = []
    reference = openspiel_runner()
    ref_rate = None
    if reference is None:
        print("OpenSpiel is not installed (pip install -e '.[bench]'): no reference row")
    else:
        ref_rate, ref_acts = rate(reference, args.seconds, args.rounds)
        rows.append(("OpenSpiel bridge (use_double_dummy_result=false)", ref_rate, ref_acts))
    for label, options in [
        ("tricktaker tuppi, club rules (default)", {}),
        ("tricktaker tuppi, preset tournament", {"preset": "tournament"}),
        ("tricktaker tuppi, no sooli, no early end", {"sooli": False, "early_end": False}),
    ]:
        r, a = rate(tuppi_runner(**options), args.seconds, args.rounds)
        rows.append((label, r, a))
    for label, name, options in [
        ("tricktaker tute, pairs (4 players), one round", "tute", {"preset": "pairs"}),
        ("tricktaker tute, habanero (2 players), one round", "tute", {"preset": "habanero"}),
        ("tricktaker marjapussi, one hand", "marjapussi", {}),
        ("tricktaker bondtolva, 4 players, one hand", "bondtolva", {}),
        ("tricktaker bondtolva, 2 players, one hand", "bondtolva", {"players": 2}),
        ("tricktaker avomarjapussi, one hand", "avomarjapussi", {}),
        ("tricktaker huutopussi, 4 players, one hand", "huutopussi", {}),
        ("tricktaker huutopussi, 3 players, one hand", "huutopussi", {"players": 3}),
    ]:
        r, a = rate(hand_runner(name, **options), args.seconds, args.rounds)
        rows.append((label, r, a))

    print(f"{'system':52} {'deals/s':>10} {'actions/deal':>13} {'ratio':>7}")
    for label, r, a in rows:
        ratio = f"{r / ref_rate:6.2f}x" if ref_rate else "   n/a"
        print(f"{label:52} {r:10.0f} {a:13.1f} {ratio:>7}")
    if ref_rate:
        print(f"\nratio (tricktaker tuppi default rules / OpenSpiel bridge): {rows[1][1] / ref_rate:.2f}x "
              f"(median of {args.rounds} rounds of {args.seconds:g} s)")


if __name__ == "__main__":
    main()
