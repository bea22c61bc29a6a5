"""How long ``tt.solve`` takes on the worlds a PIMC bot solves, by cards left to play: the data
behind ``bots.pimc.SOLVE_CARDS``.

For every game and variant, seeded hands are played by the ``rules`` bot; at each card play
(no stock left) a world is sampled from the mover's view, exactly as ``pimc`` samples one,
and solved under a time limit.  Printed per game: the median and the 90th percentile of the
solve time at each number of cards the mover has still to play, with the share of worlds
that hit the limit, and the size ``pimc`` now solves (``SOLVE_CARDS``; a rami: all of it).

``pimc`` values 24 worlds a decision by default and should decide in about a second, so a
size is affordable when its median solve is at most about 40 ms and its slow worlds
(the 90th percentile) stay within a few hundred milliseconds.

``--stock`` also solves the worlds of card plays while a stock lasts (Tute habanero,
Bondtolva for two): the data behind ``bots.pimc.STOCK_SOLVE_CARDS``; their cards left
(``cards_to_play``, as ``pimc`` counts them) are the mover's hand and its half of the stock
still to draw.

Run:  python bench/solve_cards.py [--hands 6] [--limit 2.0] [--games tuppi,tute-pairs] [--stock]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from collections.abc import Sequence

import tricktaker as tt
from tricktaker.bots import Bot, make_bot, view_of
from tricktaker.bots.pimc import SOLVE_CARDS, STOCK_SOLVE_CARDS, cards_to_play, setting
from tricktaker.bots.playout import solves_whole_hand
from tricktaker.engine import State
from tricktaker.solver import SolveError, SolveTimeout, solve
from tricktaker.solver.points import BENCH_VARIANTS

OWN_LIMIT_VARIANTS = {"tute-three": ("tute", {"players": 3}),
                      "huutopussi-two": ("huutopussi", {"players": 2})}
"""Variants the solver bench does not measure whose ``pimc`` limits are their own (``tute/3``,
``huutopussi/2``): the benches of ``pimc``'s limits (this one, ``inference.py``,
``decision_nodes.py``) take them too."""

GAMES = {"tuppi": ("tuppi", {}), "tuppi-rami": ("tuppi", {}), "tuppi-nolo": ("tuppi", {}), **BENCH_VARIANTS,
         **OWN_LIMIT_VARIANTS}
"""Tuppi's hands are mostly rami when the rules bot bids; ``tuppi-rami`` and ``tuppi-nolo`` count
only the hands played in that contract (every sooli offer is passed)."""

CONTRACTS = {"tuppi-rami": "rami", "tuppi-nolo": "nolo"}


def bid_for(state: State, contract: str, bots: Sequence[Bot]) -> bool:
    """Take ``state`` to its play phase with every bid or offer that can pass passing (else
    the seat's bot acts), and tell whether the hand is then played as ``contract``: how the benches
    reach hands of one Tuppi contract (with all four passing, most hands are nolo)."""
    while not state.is_over() and state.observation(None).get("phase") != "play":
        seat = state.current_player
        assert seat is not None
        passes = [a for a in state.legal_actions() if str(a) == "pass"]
        state.apply(passes[0] if passes else bots[seat].act(view_of(state, seat)))
    return state.observation(None).get("contract") == contract


def solve_times(game: tt.Game, hands: int, limit: float, stock: bool = False,
                contract: str | None = None) -> dict[tuple[bool, int], list[float | None]]:
    """Seconds per world solve (None: over ``limit``) by whether a stock lasted and the cards left
    to the mover; with ``stock``, card plays while a stock lasts too; with ``contract``, every
    bid or offer that can pass does, and only hands played as ``contract`` count."""
    times: dict[tuple[bool, int], list[float | None]] = defaultdict(list)
    for seed in range(hands):
        state = game.new_hand(seed=seed, dealer=seed % game.num_players)
        bots = [make_bot("rules", seed=seed * 8 + seat) for seat in range(game.num_players)]
        rng = random.Random(seed)
        if contract is not None and not bid_for(state, contract, bots):
            continue
        while not state.is_over():
            seat = state.current_player
            assert seat is not None
            view = view_of(state, seat)
            observation = view.observation
            to_draw = observation.get("stock_size") or 0
            if observation.get("phase") == "play" and (stock or not to_draw):
                world = view.sample_world(rng)
                started = time.perf_counter()
                try:
                    solve(world, time_limit=limit)
                    spent: float | None = time.perf_counter() - started
                except SolveTimeout:
                    spent = None
                except SolveError:
                    spent = -1.0
                if spent != -1.0:
                    times[bool(to_draw), cards_to_play(observation, seat)].append(spent)
            state.apply(bots[seat].act(view))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=6, help="seeded hands per game (default 6)")
    parser.add_argument("--limit", type=float, default=2.0, help="seconds before a solve counts as too slow")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated (default: all)")
    parser.add_argument("--stock", action="store_true", help="also worlds while a stock lasts")
    args = parser.parse_args()
    for key in args.games.split(","):
        name, options = GAMES[key]
        game = tt.new_game(name, **options)  # type: ignore[arg-type]
        times = solve_times(game, args.hands, args.limit, args.stock, CONTRACTS.get(key))
        size = "all" if solves_whole_hand(name, CONTRACTS.get(key)) else setting(SOLVE_CARDS, game, 0)
        for during_stock in sorted({during for during, _ in times}):
            limits = f"pimc solves {setting(STOCK_SOLVE_CARDS, game, 0)}, while the stock lasts" \
                if during_stock else f"pimc solves {size}"
            print(f"\n{key} ({limits}): cards left, worlds, median ms, 90th percentile ms, "
                  "mean ms, over the limit")
            for stocked, cards in sorted(times, reverse=True):
                if stocked != during_stock:
                    continue
                found = times[stocked, cards]
                spent = sorted(float("inf") if t is None else t for t in found)
                over = sum(t is None for t in found)
                print(f"  {cards:3d} {len(spent):6d} {_ms(spent[len(spent) // 2])} "
                      f"{_ms(spent[min(len(spent) - 1, int(0.9 * len(spent)))])} "
                      f"{_ms(sum(spent) / len(spent))}   {over}")


def _ms(seconds: float) -> str:
    return "   limit" if seconds == float("inf") else f"{seconds * 1000:8.1f}"

if __name__ == "__main__":
    main()
