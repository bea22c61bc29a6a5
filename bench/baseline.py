"""Another commit's solver, measured on the same deals in this run (the reference of a change).

``measure(rev, ...)`` copies the package's sources at git revision ``rev`` into a temporary
folder (``git archive``), imports them in a child process, and times the same work
``bench/solver.py`` times: Tuppi rami opening leads of the seeded deals, and full-deal
``tt.solve`` at the first card play of each point-game variant.  The child needs what that
revision needed: for the commits before the native kernels, Numba (``pip install numba``); its
first solve, which compiles, is left out of the times.  A revision whose sources hold C kernels
is built in place first (a C compiler and setuptools suffice).

Run alone:  python bench/baseline.py REV [--deals 100] [--other-deals 5]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

CHILD = r"""
import json, random, statistics, sys, time
from tricktaker.cards import ANGLO_52
from tricktaker.engine import deal_from_seed
from tricktaker.solver.tricks import TrickPosition, TrickSolver

args = json.loads(sys.argv[1])
order = tuple(tuple((lead + i) % 4 for i in range(4)) for lead in range(4))
solver = TrickSolver()
solver.card_values(TrickPosition((1 << 14, 1 << 13, 1 << 12, 1 << 11), order, (0, 1, 0, 1), 0, 0, 0))
rami = []
for seed in range(args["deals"]):
    hands = deal_from_seed(seed, 0, ANGLO_52, [13] * 4)
    leader = seed % 4
    solver.new_search()
    start = time.perf_counter()
    solver.card_values(TrickPosition(tuple(hands), order, (0, 1, 0, 1), leader % 2, leader % 2, leader))
    rami.append(time.perf_counter() - start)
games = {}
if args["variants"]:
    from tricktaker.solver.points import bench_points
    for row in bench_points(rounds=args["other_deals"], variants=args["variants"]):
        games[row[0]] = row[2]  # (variant, first, median, ...): older revisions give three items
print(json.dumps({"rami": rami, "games": games}))
"""


def export(rev: str, repo: Path, into: Path) -> Path:
    """The package's sources (and build files) at ``rev``, unpacked under ``into``; its root."""
    archive = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", rev],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    if (into / "setup.py").exists():  # C kernels: build them where the sources are
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=into,
                       check=True, capture_output=True)
    return into


def measure(rev: str, deals: int, other_deals: int, variants: list[str],
            repo: Path | None = None) -> dict[str, object]:
    """Times of revision ``rev``'s solver: ``{"rami": [s per deal], "games": {variant: median s}}``."""
    repo = repo or Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        root = export(rev, repo, Path(tmp))
        env = dict(os.environ, PYTHONPATH=str(root / "src"), NUMBA_CACHE_DIR=str(Path(tmp) / "numba"))
        request = json.dumps({"deals": deals, "other_deals": other_deals if variants else 0,
                              "variants": variants})
        done = subprocess.run([sys.executable, "-c", CHILD, request], env=env, cwd=tmp,
                              capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"the solver of {rev} failed: {done.stderr.strip()[-2000:]}")
        result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rev", help="a git revision, e.g. HEAD~3")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--other-deals", type=int, default=5)
    parser.add_argument("--variants", default="tute-pairs,marjapussi,bondtolva,bondtolva-two,huutopussi,"
                                              "huutopussi-three")
    args = parser.parse_args()
    variants = [v for v in args.variants.split(",") if v] if args.other_deals else []
    print(json.dumps(measure(args.rev, args.deals, args.other_deals, variants), indent=1))


if __name__ == "__main__":
    main()
