"""The solver against DDS, in one run: opening-lead solves of the same seeded deals.

For each seeded deal (``deal_from_seed(seed, 0, ANGLO_52, ...)``, the leader
``seed % 4``), both solvers give the no-trump tricks of every card the leader
may lead: DDS through ``endplay.dds.solve_board`` and tricktaker through
``TrickSolver.card_values`` (the search behind ``tt.solve`` for Tuppi rami).
Every answer is compared, so a speed number never hides a wrong value.  Both
run single-threaded in this process; the medians and their ratio are printed.

The search is native code compiled when the package is installed; the first
call (import and a first solve, in a fresh process) is measured separately.

Then, for the other games, the median time of ``tt.solve`` on a full deal at
the first card play (``tricktaker.solver.points.bench_points``: the point-game
search, compiled C since the package is built, so there is no first-call
compilation).  Tute habanero deals take 15 s to minutes each and Avomarjapussi
deals up to ten seconds (docs/solver.md), so they run only with ``--all-games``.

Run:  pip install -e ".[bench]"  &&  python bench/solver.py [--deals 100] [--cards 13]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from tricktaker.cards import ANGLO_52
from tricktaker.engine import deal_from_seed
from tricktaker.solver.tricks import TrickPosition, TrickSolver

RANKS = "23456789TJQKA"
CLOCKWISE = tuple(tuple((lead + i) % 4 for i in range(4)) for lead in range(4))
SLOW_VARIANTS = ("tute-habanero", "avomarjapussi")


def deal(seed: int, cards: int) -> list[int]:
    """Seeded deal; with fewer than 13 cards each, the first ``cards`` of each hand by suit order."""
    hands = deal_from_seed(seed, 0, ANGLO_52, [13] * 4)
    if cards == 13:
        return hands
    trimmed = []
    for h in hands:
        bits = [1 << i for i in range(64) if h >> i & 1][:cards]
        trimmed.append(sum(bits))
    return trimmed


def pbn(hands: list[int]) -> str:
    def holding(h: int) -> str:
        return ".".join("".join(RANKS[r - 2] for r in range(14, 1, -1) if h >> (16 * s + r) & 1)
                        for s in (3, 2, 1, 0))
    return "N:" + " ".join(holding(h) for h in hands)


def dds_solve(hands: list[int], leader: int) -> tuple[dict[int, int], int]:
    """DDS's tricks for every card the leader may lead, and the trick starts its search visited."""
    from endplay.dds import solve_board
    from endplay.types import Deal, Denom, Player

    board = Deal(pbn(hands))
    board.trump = Denom.nt
    board.first = Player(leader)
    solved = solve_board(board)
    out = {}
    for card, tricks in solved:
        suit = {"spades": 3, "hearts": 2, "diamonds": 1, "clubs": 0}[card.suit.name]
        out[1 << (16 * suit + RANKS.index(card.rank.abbr) + 2)] = tricks
    # DDS's futureTricks.nodes counts the trick starts it searched (endplay keeps it in _data)
    return out, int(getattr(getattr(solved, "_data", None), "nodes", 0))


FIRST_CALL = """
import time
t = time.perf_counter()
from tricktaker.solver.tricks import TrickPosition, TrickSolver
o = tuple(tuple((l + i) % 4 for i in range(4)) for l in range(4))
TrickSolver().card_values(TrickPosition((1 << 14, 1 << 13, 1 << 12, 1 << 11), o, (0, 1, 0, 1), 0, 0, 0))
print(time.perf_counter() - t)
"""


def first_call_seconds() -> float:
    """Seconds from import to the first answer, in a new process."""
    out = subprocess.run([sys.executable, "-c", FIRST_CALL], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="seeded deals to solve (default 100)")
    parser.add_argument("--cards", type=int, default=13, help="cards per hand (default 13: full deals)")
    parser.add_argument("--other-deals", type=int, default=5,
                        help="hands per other game (default 5; 0 skips them)")
    parser.add_argument("--all-games", action="store_true",
                        help="also Tute habanero and Avomarjapussi (minutes per deal)")
    parser.add_argument("--nolo-deals", type=int, default=10,
                        help="full deals solved as Tuppi nolo, every opening lead (default 10; 0 skips)")
    parser.add_argument("--baseline", metavar="REV",
                        help="also time the solver of git revision REV on the same deals (bench/baseline.py; "
                             "a revision before the native kernels needs `pip install numba`)")
    args = parser.parse_args()

    print(f"first call: {first_call_seconds():.2f} s (import and a first solve, in a new process)")

    solver = TrickSolver()
    solver.card_values(TrickPosition(tuple(deal(0, 1)), CLOCKWISE, (0, 1, 0, 1), 0, 0, 0))  # warm up
    ours, theirs = [], []
    our_nodes = dds_nodes = 0
    for seed in range(args.deals):
        hands = deal(seed, args.cards)
        leader = seed % 4
        start = time.perf_counter()
        expected, nodes = dds_solve(hands, leader)
        theirs.append(time.perf_counter() - start)
        dds_nodes += nodes
        solver.new_search()
        before = solver.trick_nodes
        start = time.perf_counter()
        got = solver.card_values(TrickPosition(tuple(hands), CLOCKWISE, (0, 1, 0, 1), leader % 2,
                                               leader % 2, leader))
        ours.append(time.perf_counter() - start)
        our_nodes += solver.trick_nodes - before
        if got != expected:
            raise SystemExit(f"deal {seed}: tricktaker {got} != DDS {expected}")
    dds_ms = statistics.median(theirs) * 1000
    our_ms = statistics.median(ours) * 1000
    per_deal = statistics.median(o / t for o, t in zip(ours, theirs, strict=True))
    print(f"{args.deals} deals of {args.cards} cards each, every opening lead, all values equal to DDS")
    print(f"{'DDS (endplay.dds.solve_board)':40} {dds_ms:10.2f} ms median   1.00x")
    print(f"{'tricktaker (C)':40} {our_ms:10.2f} ms median   {our_ms / dds_ms:.2f}x DDS's time")
    print(f"median of the per-deal ratios {per_deal:.2f}x; total time {sum(ours) / sum(theirs):.2f}x")
    print(f"trick starts searched: {our_nodes:,} against DDS's {dds_nodes:,} "
          f"({our_nodes / max(dds_nodes, 1):.2f}x)")

    if args.nolo_deals:
        nolo = nolo_times(solver, args.nolo_deals, args.cards)
        nolo_ms = statistics.median(nolo) * 1000
        rami_ms = statistics.median(ours[: args.nolo_deals]) * 1000
        print(f"\nTuppi nolo, {args.nolo_deals} deals, every opening lead "
              "(the leader's side wants few tricks):")
        print(f"{'tricktaker nolo':40} {nolo_ms:10.2f} ms median   {nolo_ms / rami_ms:.2f}x rami's "
              f"median on the same deals ({rami_ms:.2f} ms), {nolo_ms / dds_ms:.2f}x DDS's rami median")

    game_ms: dict[str, float] = {}
    if args.other_deals:
        game_ms = other_games(args, dds_ms)
    if args.baseline:
        compare_with(args, ours, game_ms)


def nolo_times(solver: TrickSolver, deals: int, cards: int) -> list[float]:
    """Seconds per deal to value every opening lead as nolo: the counted side is the leader's opponents."""
    times = []
    for seed in range(deals):
        hands = deal(seed, cards)
        leader = seed % 4
        solver.new_search()
        start = time.perf_counter()
        solver.card_values(TrickPosition(tuple(hands), CLOCKWISE, (0, 1, 0, 1), leader % 2,
                                         1 - leader % 2, leader))
        times.append(time.perf_counter() - start)
    return times


def compare_with(args: argparse.Namespace, ours: list[float], game_ms: dict[str, float]) -> None:
    """The solver of ``args.baseline`` on the same deals, and this one's time as a ratio of it."""
    from baseline import measure

    print(f"\nagainst the solver of {args.baseline} on the same deals (this solver's time / that one's):")
    other = measure(args.baseline, args.deals if args.cards == 13 else 0, args.other_deals, list(game_ms))
    rami = other["rami"]
    assert isinstance(rami, list) and isinstance(other["games"], dict)
    if rami:
        then_ms = statistics.median(rami) * 1000
        now_ms = statistics.median(ours) * 1000
        print(f"{'tuppi rami':40} {now_ms:10.2f} ms median   {then_ms:10.2f} ms then   "
              f"{now_ms / then_ms:.2f}x")
    for name, then in other["games"].items():
        print(f"{name:40} {game_ms[name]:10.2f} ms median   {then * 1000:10.2f} ms then   "
              f"{game_ms[name] / (then * 1000):.2f}x")


def other_games(args: argparse.Namespace, dds_ms: float) -> dict[str, float]:
    """Full-deal ``tt.solve`` at the first card play of every point game: ms per variant."""
    from tricktaker.solver.points import BENCH_VARIANTS, bench_points

    names = [n for n in BENCH_VARIANTS if args.all_games or n not in SLOW_VARIANTS]
    print("\nfull-deal tt.solve at the first card play (median; the first call also allocates the table):")
    out = {}
    for name, first, median, nodes in bench_points(rounds=args.other_deals, variants=names):
        out[name] = median * 1000
        print(f"{name:40} {median * 1000:10.1f} ms median   {median * 1000 / dds_ms:6.2f}x DDS's Tuppi "
              f"median   {nodes:>11,} nodes median   (first call {first:.2f} s)")
    return out

if __name__ == "__main__":
    main()
