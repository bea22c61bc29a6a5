"""Median time per decision of every bot in every game, and IS-MCTS against OpenSpiel's, in one run.

For each game the bot under test sits at seat 0 of seeded single hands with
``rules`` bots at the other seats; every seat-0 decision with more than one
legal action is timed (the view is made before the clock starts, as the
arena does).  The medians are what docs/bots.md quotes; the slowest decision is printed too.

The reference: OpenSpiel's IS-MCTS (``open_spiel.python.algorithms.ismcts``,
random rollouts) deciding the card play of its own bridge
(``bridge(use_double_dummy_result=false)``), against our ``ismcts`` with
random rollouts and the same number of iterations deciding Tuppi card play
(Tuppi rami is bridge no-trump play).  The ratio of the medians is printed:
above 1 means ours takes longer per decision.

Run:  pip install -e ".[bench]"  &&  python bench/bots.py [--hands 3] [--games tuppi,tute]
      python bench/bots.py --games tute-habanero --bots pimc,pimc:stock_cards=0   (no reference)
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import tricktaker as tt
from tricktaker.bots import make_bot, view_of
from tricktaker.solver.points import BENCH_VARIANTS

GAMES = {"tuppi": ("tuppi", {}), **BENCH_VARIANTS}
"""Tuppi and every point-game variant the solver bench measures."""
BOTS = ("random", "rules", "pimc", "ismcts")


def decision_times(name: str, options: dict[str, object], spec: str, hands: int,
                   phase: str | None = None) -> list[float]:
    """Seconds per seat-0 decision (more than one legal action) over ``hands`` seeded hands."""
    game = tt.new_game(name, **options)
    times = []
    for seed in range(hands):
        state = game.new_hand(seed=seed, dealer=seed % game.num_players)
        bots = [make_bot(spec if seat == 0 else "rules", seed=seed * 8 + seat)
                for seat in range(game.num_players)]
        while not state.is_over():
            seat = state.current_player
            assert seat is not None
            view = view_of(state, seat)
            started = time.perf_counter()
            action = bots[seat].act(view)
            if seat == 0 and len(view.legal_actions) > 1 and phase in (None, state.phase):
                times.append(time.perf_counter() - started)
            state.apply(action)
    return times


def openspiel_ismcts_times(iterations: int, deals: int) -> list[float]:
    """Seconds per IS-MCTS card-play decision of OpenSpiel's bridge (auction played at random)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("bridge(use_double_dummy_result=false)")
    rs = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0,
                           max_simulations=iterations, random_state=rs)
    rng = random.Random(1)
    times = []
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            elif state.current_player() == 0 and len(state.legal_actions()) > 1 and _in_play(state):
                started = time.perf_counter()
                action = bot.step(state)
                times.append(time.perf_counter() - started)
                state.apply_action(action)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return times


def _in_play(state: object) -> bool:
    """True in bridge's card play (its actions 0..51 are cards; the auction's are 52 and up)."""
    return max(state.legal_actions()) < 52  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=3, help="seeded hands per game and bot (default 3)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated (default all)")
    parser.add_argument("--iterations", type=int, default=100, help="IS-MCTS iterations for the reference")
    parser.add_argument("--bots", default=",".join(BOTS),
                        help="comma-separated bot specs, e.g. pimc,pimc:stock_cards=0 (default: the four "
                        "bots and the IS-MCTS reference; given, no reference)")
    args = parser.parse_args()
    specs = args.bots.split(",")
    width = max(12, *(len(spec) + 2 for spec in specs))
    print(f"{'game':18}" + "".join(f"{spec:>{width}}" for spec in specs)
          + "   (median / slowest ms per decision)")
    for key in args.games.split(","):
        name, options = GAMES[key]
        cells = []
        for spec in specs:
            times = decision_times(name, options, spec, args.hands)
            cells.append(f"{statistics.median(times) * 1000:.1f} / {max(times) * 1000:.0f}")
        print(f"{key:18}" + "".join(f"{cell:>{width}}" for cell in cells), flush=True)
    if args.bots != ",".join(BOTS):
        return

    spec = f"ismcts:iterations={args.iterations}:rollout=random"
    ours = statistics.median(decision_times("tuppi", {}, spec, args.hands, phase="play"))
    theirs = statistics.median(openspiel_ismcts_times(args.iterations, args.hands))
    print(f"\nIS-MCTS, {args.iterations} iterations, random rollouts, card play:")
    print(f"  OpenSpiel on bridge   {theirs * 1000:9.1f} ms per decision")
    print(f"  tricktaker on Tuppi   {ours * 1000:9.1f} ms per decision")
    print(f"  ratio (ours/theirs)   {ours / theirs:9.2f}")


if __name__ == "__main__":
    main()
