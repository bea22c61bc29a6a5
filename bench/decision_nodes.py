"""What a bot's card-play decisions cost in search nodes and seconds, by the cards still to play.

``pimc`` spends a budget of search nodes on each decision it solves
(``NODE_BUDGET``, docs/bots.md, "A budget of search nodes").  This bench
shows where such a budget binds: hands are played by the bot at every seat
(seeded, hand 1 of each seed), and each card-play decision with a choice is
counted by the mover's cards still to play (``cards_to_play``: the hand, rows
and half the stock), with the nodes both solvers visited during it
(``Solution.nodes`` summed, read from the solvers' counters) and its time.
A node count does not depend on the machine's load, so it is the figure to
compare between runs; the seconds show this machine's rate.

Run:  python bench/decision_nodes.py --game marjapussi --hands 6 --bot pimc:solve_cards=9:nodes=0
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

from solve_cards import OWN_LIMIT_VARIANTS

import tricktaker as tt
from tricktaker.bots import make_bot, view_of
from tricktaker.bots.pimc import cards_to_play
from tricktaker.solver import table_sets
from tricktaker.solver.points import BENCH_VARIANTS

GAMES = {"tuppi": ("tuppi", {}), **BENCH_VARIANTS, **OWN_LIMIT_VARIANTS}
"""Tuppi, every point-game variant the solver bench measures, and those with limits of their own."""


def nodes_so_far() -> int:
    """Nodes visited by this process's solvers together, in every set of tables a bot may use."""
    return sum(tables.nodes for tables in table_sets(8))


def decision_costs(key: str, hands: int, spec: str) -> dict[int, list[tuple[int, float]]]:
    """(nodes, seconds) of each card-play decision with a choice, by the mover's cards to play."""
    name, options = GAMES[key]
    game = tt.new_game(name, **options)
    costs: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for seed in range(1, hands + 1):
        state = game.new_hand(seed=seed, dealer=seed % game.num_players)
        hand = state.hand_number
        bots = [make_bot(spec, seed=seed * 16 + seat) for seat in range(game.num_players)]
        while not state.is_over() and state.hand_number == hand:
            seat = state.current_player
            assert seat is not None
            view = view_of(state, seat)
            nodes, started = nodes_so_far(), time.perf_counter()
            action = bots[seat].act(view)
            if view.observation.get("phase") == "play" and len(view.legal_actions) > 1:
                costs[cards_to_play(view.observation, seat)].append(
                    (nodes_so_far() - nodes, time.perf_counter() - started))
            state.apply(action)
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="marjapussi")
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--bot", default="pimc:nodes=0", help="the bot at every seat")
    args = parser.parse_args()
    costs = decision_costs(args.game, args.hands, args.bot)
    print(f"{args.game}, {args.bot}, {args.hands} hands: nodes (seconds) a decision with a choice")
    for cards in sorted(costs, reverse=True):
        nodes = sorted(n for n, _ in costs[cards])
        seconds = sorted(s for _, s in costs[cards])

        def at(values: list[int] | list[float], share: float) -> float:
            return values[min(len(values) - 1, int(share * len(values)))]

        print(f"  {cards:2d} cards, {len(nodes):4d} decisions: median {at(nodes, 0.5):>13,.0f} "
              f"({at(seconds, 0.5):.3f} s), 90th percentile {at(nodes, 0.9):>13,.0f} "
              f"({at(seconds, 0.9):.3f} s), most {nodes[-1]:>13,} ({seconds[-1]:.2f} s)")


if __name__ == "__main__":
    main()
