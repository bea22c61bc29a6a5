"""Rules-policy rollouts per game: this code against another commit's, on the same worlds, in one run.

``pimc`` values most decisions before the last tricks by playing sampled worlds
to the end of the hand with the ``rules`` policies (``bots.playout.play_out``),
so the cost of one rollout is most of what a decision costs in Tuppi's nolo,
Huutopussi's auction and every first trick.  This bench plays the same
rollouts with two revisions of the package: each game's seeded hands from
``new_hand(seed)``, every hand played out ``--rollouts`` times with the rollout
random numbers seeded alike, timed in CPU seconds (a busy machine disturbs that
far less than the clock), each revision in a fresh process, the two in turns
for ``--rounds`` rounds.  It prints each game's median milliseconds per rollout
for both and their ratio, and checks that both revisions chose the same
actions in every rollout (a digest of every action's text): a change made for
speed must not change a single decision.

Run:  python bench/rollouts.py [--baseline HEAD~1] [--hands 20] [--rollouts 5] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from baseline import export

GAMES = ("tuppi", "tute-pairs", "tute-habanero", "marjapussi", "bondtolva", "bondtolva-two",
         "avomarjapussi", "huutopussi", "huutopussi-three")

CHILD = r"""
import hashlib, json, random, sys, time
import tricktaker as tt
from tricktaker.bots.playout import ROLLOUTS, hand_over
from tricktaker.solver.points import BENCH_VARIANTS

args = json.loads(sys.argv[1])
variants = {"tuppi": ("tuppi", {}), **BENCH_VARIANTS}
rollout = ROLLOUTS["rules"]
out = {}
for name in args["games"]:
    game_name, options = variants[name]
    game = tt.new_game(game_name, **options)
    starts = [game.new_hand(seed=seed) for seed in range(args["hands"])]
    digest = hashlib.sha256()
    count = 0
    begin = time.process_time()
    for start in starts:
        for k in range(args["rollouts"]):
            state = start.clone()
            rng = random.Random(k)
            number = state.hand_number
            while not hand_over(state, number):
                action = rollout(state, state.current_player, rng)
                digest.update(str(action).encode())
                state.apply(action)
            count += 1
    out[name] = {"seconds": (time.process_time() - begin) / count, "digest": digest.hexdigest()}
print(json.dumps(out))
"""


def run_child(src: Path, request: str) -> dict[str, dict[str, object]]:
    """One fresh process of the package at ``src``: per game, CPU seconds a rollout and a digest."""
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run([sys.executable, "-c", CHILD, request], env=env, capture_output=True,
                          text=True)
    if done.returncode:
        raise RuntimeError(f"the rollouts of {src} failed: {done.stderr.strip()[-2000:]}")
    result: dict[str, dict[str, object]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default="HEAD", help="the git revision to compare with (default HEAD)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated (default all)")
    parser.add_argument("--hands", type=int, default=20, help="seeded hands per game (default 20)")
    parser.add_argument("--rollouts", type=int, default=5, help="rollouts per hand (default 5)")
    parser.add_argument("--rounds", type=int, default=3, help="fresh processes per revision, in turns")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]
    unknown = sorted(set(games) - set(GAMES))
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}; choose from {', '.join(GAMES)}")
    request = json.dumps({"games": games, "hands": args.hands, "rollouts": args.rollouts})
    here = Path(__file__).resolve().parent.parent / "src"
    times: dict[str, dict[str, list[float]]] = {g: {"now": [], "then": []} for g in games}
    digests: dict[str, dict[str, object]] = {g: {} for g in games}
    with tempfile.TemporaryDirectory() as tmp:
        then_src = export(args.baseline, here.parent, Path(tmp)) / "src"
        for _ in range(args.rounds):
            for label, src in (("then", then_src), ("now", here)):
                for game, row in run_child(src, request).items():
                    times[game][label].append(float(row["seconds"]))  # type: ignore[arg-type]
                    digests[game][label] = row["digest"]
    print(f"rules rollouts from new_hand(seed), {args.hands} hands x {args.rollouts} rollouts, "
          f"median of {args.rounds} rounds, CPU ms a rollout")
    print(f"{'game':18} {args.baseline[:12]:>12} {'now':>10} {'now/then':>9}  same actions")
    for game in games:
        then = statistics.median(times[game]["then"]) * 1000
        now = statistics.median(times[game]["now"]) * 1000
        same = "yes" if digests[game]["then"] == digests[game]["now"] else "NO"
        print(f"{game:18} {then:12.2f} {now:10.2f} {now / then:9.2f}  {same}")


if __name__ == "__main__":
    main()
