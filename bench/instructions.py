"""Instructions the searches execute, counted by valgrind: a measure that no other load disturbs.

On a shared machine the clock of the same search moves by a fifth from run to run (docs/solver.md,
"Speed"), but the instructions valgrind counts (``--tool=callgrind``) are the same to the last
one.  This bench counts them inside the search's own call only (``--toggle-collect``), in a child
process per part under valgrind:

- Tuppi rami opening leads of ``bench/solver.py``'s seeded deals (every lead, no trumps), and
  DDS's ``SolveBoardInternal`` on the same deals (``endplay``), with each search's trick starts:
  so the two solvers' instructions per trick start compare in one run;
- with ``--nolo-deals N``, Tuppi nolo: every opening lead of ``bench/solver.py``'s deals of ten
  cards a hand, seeds 0 to N - 1, each deal with either side as the one that wants to lose tricks
  (the sample docs/solver.md's "Tuppi nolo" measures on);
- full-deal ``tt.solve`` of point games at the first card play (``new_hand`` seeds from 2),
  inside the point kernel's call, with its nodes;
- with ``--baseline REV``, the same parts for the solver of another commit (``bench/baseline.py``
  builds it), each as a ratio of it.

A change that keeps the nodes and cuts the instructions costs less a node; the clock then gains
about as much in the parts that wait little for memory (docs/solver.md, "Instructions a trick
start"), and more or less where the table's loads dominate.  valgrind runs a search some 50
times slower, so the defaults are small.

Run:  python bench/instructions.py [--deals 20] [--nolo-deals 6] [--games tute-pairs,huutopussi]
      [--seeds 3] [--baseline REV]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from baseline import export

WORK = r"""
import json, random, sys
args = json.loads(sys.argv[1])
part = args["part"]
if part in ("rami", "dds"):
    sys.path.insert(0, args["bench"])
    from solver import CLOCKWISE, dds_solve, deal
    from tricktaker.solver.tricks import TrickPosition, TrickSolver
    solver = TrickSolver()
    count = 0
    for seed in range(args["first"], args["first"] + args["deals"]):
        hands, leader = deal(seed, 13), seed % 4
        if part == "dds":
            count += dds_solve(hands, leader)[1]
            continue
        solver.new_search()
        before = solver.trick_nodes
        solver.card_values(TrickPosition(tuple(hands), CLOCKWISE, (0, 1, 0, 1), leader % 2, leader % 2,
                                         leader))
        count += solver.trick_nodes - before
elif part == "nolo":
    sys.path.insert(0, args["bench"])
    from solver import CLOCKWISE, deal
    from tricktaker.solver.tricks import TrickPosition, TrickSolver
    solver = TrickSolver()
    count = 0
    for seed in range(args["nolo"]):
        hands, leader = deal(seed, 10), seed % 4
        for counted in (0, 1):
            solver.new_search()
            before = solver.trick_nodes
            solver.card_values(TrickPosition(tuple(hands), CLOCKWISE, (0, 1, 0, 1), 1 - counted, counted,
                                             leader))
            count += solver.trick_nodes - before
else:
    import tricktaker as tt
    from tricktaker.solver.points import BENCH_VARIANTS, first_play, shared_solver
    name, options = BENCH_VARIANTS[part]
    game = tt.new_game(name, **options)
    states = [first_play(game.new_hand(seed=s), random.Random(s)) for s in range(2, 2 + args["seeds"])]
    points = shared_solver()
    before = points.nodes
    for state in states:
        tt.solve(state)
    count = points.nodes - before
print(json.dumps({"count": count}))
"""

TOGGLE = {"rami": "py_card_values", "nolo": "py_card_values", "dds": "*SolveBoardInternal*"}
"""The call each part's instructions are counted in (the point games: ``py_root_values``)."""


def counted(src: Path | None, part: str, args: argparse.Namespace) -> tuple[int, int]:
    """(instructions, trick starts or nodes) of one part, run under valgrind with ``src`` first on
    the path (None: the installed package)."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    request = json.dumps({"part": part, "first": 1, "deals": args.deals, "seeds": args.seeds,
                          "nolo": args.nolo_deals,
                          "bench": str(Path(__file__).resolve().parent)})
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        toggle = TOGGLE.get(part, "py_root_values")
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--toggle-collect={toggle}",
                               f"--callgrind-out-file={out}", sys.executable, "-c", WORK, request],
                              env=env, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"{part} failed under valgrind: {done.stderr.strip()[-2000:]}")
        found = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        if found is None:
            raise RuntimeError(f"{part}: valgrind wrote no total")
    count = int(json.loads(done.stdout.strip().splitlines()[-1])["count"])
    return int(found.group(1)), count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20,
                        help="Tuppi rami full deals, seeds from 1 (default 20)")
    parser.add_argument("--nolo-deals", type=int, default=0,
                        help="Tuppi nolo deals of ten cards, seeds from 0, both sides (default 0)")
    parser.add_argument("--games", default="tute-pairs,huutopussi,marjapussi",
                        help="point-game variants of BENCH_VARIANTS, comma-separated ('' for none)")
    parser.add_argument("--seeds", type=int, default=3, help="full deals of each point game (default 3)")
    parser.add_argument("--no-dds", action="store_true", help="leave DDS out")
    parser.add_argument("--baseline", metavar="REV", help="also count the solver of git revision REV")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt install valgrind)")
    parts = ((["rami"] if args.deals else []) + (["nolo"] if args.nolo_deals else [])
             + [g for g in args.games.split(",") if g])
    with tempfile.TemporaryDirectory() as tmp:
        base_src = None
        if args.baseline:
            base_src = export(args.baseline, Path(__file__).resolve().parent.parent, Path(tmp)) / "src"
        dds = counted(None, "dds", args) if args.deals and not args.no_dds else None
        print(f"{'part':18} {'instructions':>16} {'nodes':>12} {'a node':>8}  against")
        for part in parts:
            ins, nodes = counted(None, part, args)
            per = ins / max(nodes, 1)
            notes = []
            if part == "rami" and dds is not None:
                dds_per = dds[0] / max(dds[1], 1)
                notes.append(f"DDS {dds[0]:,} for {dds[1]:,} trick starts ({dds_per:,.0f} a trick start): "
                             f"{ins / dds[0]:.2f}x its instructions, {per / dds_per:.2f}x a trick start")
            if base_src is not None:
                b_ins, b_nodes = counted(base_src, part, args)
                same = "same nodes" if b_nodes == nodes else f"{b_nodes:,} nodes"
                notes.append(f"{args.baseline}: {b_ins:,} ({same}): {ins / b_ins:.3f}x")
            print(f"{part:18} {ins:16,} {nodes:12,} {per:8,.0f}  {'; '.join(notes)}")


if __name__ == "__main__":
    main()
