"""Two revisions' solvers timed in turns, in CPU seconds: the reference for a change to the kernels
or to how they are built, when the machine is busy.

``bench/solver.py --baseline REV`` times the other revision once, after this one, by the clock;
on a loaded machine (other jobs on both cores) a few per cent between the two is noise.  This
bench builds both revisions (``bench/baseline.py``'s ``export``: the worktree for ``.``), then
runs the same fixed work in a new process for each, alternating A, B, A, B, ... and timing
each part by the process's CPU time: Tuppi rami opening leads (every lead of seeded full deals)
and full deals of the point games at the first card play.  It checks that both searched the same
nodes (a build flag or a reordering of the code must not change the search) and prints, per
part, each side's median over the rounds and B's median as a ratio of A's.

Run:  python bench/ab.py 4bc94f7 .  [--rounds 4] [--deals 30] [--seeds 20]

A change that reorders the search changes its nodes; ``--seeds 20`` then solves seeds 2-21 of
every point game (a larger sample than the fixed deals) and the node counts of both are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from baseline import export

WORK = r"""
import json, random, sys, time
from tricktaker.cards import ANGLO_52
from tricktaker.engine import deal_from_seed
from tricktaker.solver.tricks import TrickPosition, TrickSolver
import tricktaker as tt
from tricktaker.solver.points import BENCH_VARIANTS, first_play, shared_solver

args = json.loads(sys.argv[1])
order = tuple(tuple((lead + i) % 4 for i in range(4)) for lead in range(4))
solver = TrickSolver()
solver.card_values(TrickPosition((1 << 14, 1 << 13, 1 << 12, 1 << 11), order, (0, 1, 0, 1), 0, 0, 0))
out = {}
start, nodes = time.process_time(), 0
for seed in range(args["deals"]):
    hands = deal_from_seed(seed, 0, ANGLO_52, [13] * 4)
    solver.new_search()
    before = solver.nodes
    solver.card_values(TrickPosition(tuple(hands), order, (0, 1, 0, 1), seed % 2, seed % 2, seed % 4))
    nodes += solver.nodes - before
out["tuppi rami"] = [time.process_time() - start, nodes]
points = shared_solver()
for name, seeds in args["games"].items():
    game_name, options = BENCH_VARIANTS[name]
    game = tt.new_game(game_name, **options)
    states = [first_play(game.new_hand(seed=s), random.Random(s)) for s in seeds]
    start, before = time.process_time(), points.nodes
    for state in states:
        tt.solve(state)
    out[name] = [time.process_time() - start, points.nodes - before]
print(json.dumps(out))
"""

GAMES = {"marjapussi": [3, 4, 5], "tute-pairs": [3], "huutopussi": [2, 3], "huutopussi-three": [2, 3],
         "bondtolva-two": [4, 5]}
"""Point-game deals (``new_hand`` seeds) of the work: about 0.3-0.7 s of CPU each row."""


def build(rev: str, repo: Path, into: Path) -> Path:
    """Revision ``rev`` built under ``into`` (``.``: the worktree as it is); its ``src``."""
    if rev == ".":
        shutil.copytree(repo, into, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".git", "build", "*.so", "__pycache__"))
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=into,
                       check=True, capture_output=True)
        return into / "src"
    return export(rev, repo, into) / "src"


def run(src: Path, deals: int, games: dict[str, list[int]]) -> dict[str, list[float]]:
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run([sys.executable, "-c", WORK, json.dumps({"deals": deals, "games": games})],
                          env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"the work failed under {src}: {done.stderr.strip()[-2000:]}")
    result: dict[str, list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", help="revision A (the reference), e.g. HEAD~1; '.' is the worktree")
    parser.add_argument("b", help="revision B")
    parser.add_argument("--rounds", type=int, default=4, help="runs of each, alternating (default 4)")
    parser.add_argument("--deals", type=int, default=30, help="Tuppi rami full deals (default 30)")
    parser.add_argument("--seeds", type=int, default=0,
                        help="solve seeds 2..N+1 of every point game instead of the fixed deals")
    args = parser.parse_args()
    games = {name: list(range(2, args.seeds + 2)) for name in GAMES} if args.seeds else GAMES
    repo = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        srcs = [build(rev, repo, Path(tmp) / side) for rev, side in ((args.a, "a"), (args.b, "b"))]
        times: list[dict[str, list[float]]] = [{}, {}]
        nodes: list[dict[str, int]] = [{}, {}]
        for _ in range(args.rounds):
            for side, src in enumerate(srcs):
                for part, (seconds, count) in run(src, args.deals, games).items():
                    times[side].setdefault(part, []).append(seconds)
                    nodes[side][part] = int(count)
    print(f"A = {args.a}, B = {args.b}: median CPU seconds over {args.rounds} alternating rounds")
    for part in times[0]:
        a, b = statistics.median(times[0][part]), statistics.median(times[1][part])
        same = "same nodes" if nodes[0][part] == nodes[1][part] else \
            f"NODES DIFFER: {nodes[0][part]:,} / {nodes[1][part]:,}"
        print(f"{part:20} A {a:7.3f} s   B {b:7.3f} s   B/A {b / a:5.2f}   ({same})")


if __name__ == "__main__":
    main()
