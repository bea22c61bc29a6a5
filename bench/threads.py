"""One position solved in several threads against one thread, in one run (docs/solver.md,
"One position in several threads").

For each game, seeded positions (full deals at the first card play; Tute habanero and
Avomarjapussi a few cards later, Tuppi nolo at its opening lead) are solved with
``tt.solve(state)`` and ``tt.solve(state, threads=N)`` in turns, in one process; every value must
agree.  Printed per game: the median wall time of each, the median of the per-position ratios
(N threads / one), and the nodes searched in all by each.

    python bench/threads.py
    python bench/threads.py --threads 2 --positions 5 --games tute,huutopussi
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import tricktaker as tt
from tricktaker.solver.points import first_play

GAMES: dict[str, tuple[str, dict[str, Any], int]] = {
    "tute-pairs": ("tute", {}, 0),
    "tute-habanero": ("tute", {"players": 2}, 8),
    "marjapussi": ("marjapussi", {}, 0),
    "bondtolva-two": ("bondtolva", {"players": 2}, 0),
    "avomarjapussi": ("avomarjapussi", {}, 8),
    "huutopussi": ("huutopussi", {}, 0),
    "huutopussi-three": ("huutopussi", {"players": 3}, 0),
    "tuppi-nolo": ("tuppi", {}, 0),
}
"""Name -> (game, options, random card plays after the first play)."""


def positions(name: str, first_seed: int, count: int) -> list[tuple[int, tt.State]]:
    """The bench's ``count`` positions of ``name``, by seed from ``first_seed``."""
    game_name, options, plays = GAMES[name]
    game = tt.new_game(game_name, **options)
    out: list[tuple[int, tt.State]] = []
    seed = first_seed
    while len(out) < count:
        if game_name == "tuppi":  # the first legal bids make most hands a nolo; the others are skipped
            state = game.new_match(seed=seed)
            while state.phase != "play":
                state.apply(state.legal_actions()[0])
            if state.observation(None)["contract"] == "nolo":
                out.append((seed, state))
        else:
            state = first_play(game.new_hand(seed=seed), random.Random(seed))
            rng = random.Random(seed)
            for _ in range(plays):
                state.apply(rng.choice(state.legal_actions()))
            out.append((seed, state))
        seed += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=2, help="threads against one (default 2)")
    parser.add_argument("--positions", type=int, default=5, help="seeded positions per game (default 5)")
    parser.add_argument("--seed", type=int, default=2, help="first seed (default 2)")
    parser.add_argument("--games", default=",".join(GAMES), help=f"comma-separated, of {', '.join(GAMES)}")
    args = parser.parse_args()
    tt.solve(positions("tute-pairs", 1, 1)[0][1], threads=args.threads)  # every set's tables made and touched
    print(f"one position in {args.threads} threads against one thread, {args.positions} positions a game")
    for name in args.games.split(","):
        one: list[float] = []
        many: list[float] = []
        nodes = [0, 0]
        for seed, state in positions(name, args.seed, args.positions):
            start = time.perf_counter()
            single = tt.solve(state)
            one.append(time.perf_counter() - start)
            start = time.perf_counter()
            split = tt.solve(state, threads=args.threads)
            many.append(time.perf_counter() - start)
            if split.values != single.values:
                raise SystemExit(f"{name} seed {seed}: values in {args.threads} threads differ from one's")
            nodes[0] += single.nodes
            nodes[1] += split.nodes
        ratio = statistics.median(m / o for m, o in zip(many, one, strict=True))
        print(f"{name:18} one {statistics.median(one) * 1000:9.1f} ms   {args.threads} threads "
              f"{statistics.median(many) * 1000:9.1f} ms   per-position ratio {ratio:.2f}x   "
              f"nodes {nodes[0]:,} / {nodes[1]:,}")


if __name__ == "__main__":
    main()
