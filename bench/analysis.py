"""How long a hand's analysis takes as the server runs it, per game (docs/server.md, *Analysis and hints*).

Each hand is played by the ``rules`` bot from ``--seeds`` seeded deals, then
``tricktaker.analysis.analyse_hand`` judges it as ``server/review.py`` does:
``--solve-time`` seconds a solve (1 by default), public positions only, with
the par.  Printed per game: the median and the longest time, how many
judged positions were public at the hand's end, and how many solves ran out
of time.

    python bench/analysis.py
    python bench/analysis.py --seeds 5 --solve-time 2
    python bench/analysis.py --all --no-par --threads 2   # as `replay --analyse --no-par`
    python bench/analysis.py --all --threads 2 --games tuppi,huutopussi   # the par in two threads
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import tricktaker as tt
from tricktaker.analysis import analyse_hand
from tricktaker.bots import make_bot, view_of

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("tuppi", {"sooli": False}), ("tute", {}), ("tute", {"players": 2}), ("marjapussi", {}),
    ("bondtolva", {}), ("avomarjapussi", {}), ("huutopussi", {}), ("huutopussi", {"players": 3})]


def played_hand(name: str, options: dict[str, Any], seed: int) -> str:
    """The record of one hand of ``name`` from ``seed``, every seat played by ``rules``."""
    state = tt.new_game(name, **options).new_hand(seed=seed)
    bots = [make_bot("rules", seed=seed + seat) for seat in range(state.game.num_players)]
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(view_of(state, seat)))
    return state.to_json()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="hands per game (default 3)")
    parser.add_argument("--solve-time", type=float, default=1.0,
                        help="seconds a solve (default 1, the server's)")
    parser.add_argument("--threads", type=int, default=1,
                        help="plays solved at once (default 1, the server's; `replay --analyse` uses 2)")
    parser.add_argument("--no-par", dest="par", action="store_false", help="leave out the par")
    parser.add_argument("--all", action="store_true",
                        help="judge every position, not only the public ones (as `replay --analyse`)")
    parser.add_argument("--games", help="comma-separated game names (default: every game)")
    args = parser.parse_args()
    chosen = set(args.games.split(",")) if args.games else {name for name, _ in GAMES}
    for name, options in GAMES:
        if name not in chosen:
            continue
        times: list[float] = []
        public = total = timeouts = 0
        for seed in range(1, args.seeds + 1):
            record = played_hand(name, options, seed)
            started = time.perf_counter()
            report = analyse_hand(record, 0, time_limit=args.solve_time, only_public=not args.all,
                                  par=args.par, threads=args.threads)
            times.append(time.perf_counter() - started)
            public += sum(d.public for d in report.decisions)
            total += len(report.decisions)
            timeouts += report.timed_out
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        print(f"{label:28} median {statistics.median(times):6.2f} s  longest {max(times):6.2f} s  "
              f"public positions {public}/{total}  timed out {timeouts}", flush=True)


if __name__ == "__main__":
    main()
