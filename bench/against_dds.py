"""Single null-window tests, the no-trump search's against DDS's, test by test: where our search
spends more than DDS on the same question, and which branch of the tree the excess is in.

``bench/solver.py`` compares whole solves (every opening lead's value).  A solve is a few dozen
null-window tests, and two searches that ask different tests cannot be compared node for node;
here both answer the same question, "can the side on lead at the root take ``t`` more tricks?",
each with a cold table (DDS keeps its table between calls on one deal, so a solve of another
deal goes between), and both count trick starts.

    python bench/against_dds.py --deals 100
        each deal's root tested at its value and one above it (the two tests any driver needs),
        ours against DDS's, the costliest excesses listed
    python bench/against_dds.py --descend 7 9
        from deal 7's root, test at 9: each card's cost in both searches, then down the card
        where ours exceeds DDS's most, until the two agree; a path of cards may start it
        (``--descend 7 9 HA H5``)

That is how three places where our move order had drifted from DDS's were found (docs/solver.md,
"Move order checked against DDS's, test by test").
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver import CLOCKWISE, RANKS, dds_solve, deal, pbn  # noqa: E402

from tricktaker.solver.tricks import TrickPosition, TrickSolver  # noqa: E402

SUITS = "CDHS"  # the kernel's suit order (bit 16 * suit + rank)


def name(bit: int) -> str:
    i = bit.bit_length() - 1
    return SUITS[i // 16] + RANKS[i % 16 - 2]


def bit_of(card: str) -> int:
    return 1 << (16 * SUITS.index(card[0].upper()) + RANKS.index(card[1].upper()) + 2)


class Tests:
    """One null-window test at a position, by each search, each with a cold table."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.hands = deal(seed, 13)
        self.leader = seed % 4
        self.solver = TrickSolver()

    def root(self) -> TrickPosition:
        side = self.leader % 2
        return TrickPosition(tuple(self.hands), CLOCKWISE, (0, 1, 0, 1), side, side, self.leader)

    def ours(self, pos: TrickPosition, target: int) -> tuple[bool, int]:
        self.solver.new_search()
        before = self.solver.trick_nodes
        made = self.solver.test(pos, target)
        return made, self.solver.trick_nodes - before

    def dds(self, pos: TrickPosition, target: int) -> tuple[bool, int]:
        """DDS's answer to "does the root's side take ``target`` more tricks?" at ``pos``."""
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
        from endplay.types import Card

        # the cards on the table go back to their hands and are played again
        board = _board([h | self._played_by(pos, seat) for seat, h in enumerate(pos.hands)], pos.leader)
        for bit in pos.played:
            board.play(Card(name(bit)))
        mover = pos.to_move
        left = pos.tricks_left
        # DDS's target is the mover's side's tricks, the trick on the table included
        ours_to_move = mover % 2 == pos.counted
        goal = target if ours_to_move else left - target + 1
        if goal <= 0:
            return ours_to_move, 0
        if goal > left:
            return not ours_to_move, 0
        # a solve of another deal first empties DDS's table
        solve_board(_board(deal(self.seed + 1000, 13), 0), SolveMode.TargetOne, 1)
        solved = solve_board(board, SolveMode.TargetOne, goal)
        nodes = int(getattr(getattr(solved, "_data", None), "nodes", 0))
        reached = any(tricks >= goal for _, tricks in solved)
        return (reached if ours_to_move else not reached), nodes

    @staticmethod
    def _played_by(pos: TrickPosition, seat: int) -> int:
        for k, bit in enumerate(pos.played):
            if pos.orders[pos.leader][k] == seat:
                return bit
        return 0


def _board(hands: list[int], first: int) -> Any:
    """An endplay deal of ``hands`` in no trumps, ``first`` to lead."""
    from endplay.types import Deal, Denom, Player

    board = Deal(pbn(hands))
    board.trump = Denom.nt
    board.first = Player(first)
    return board


def survey(deals: int) -> None:
    rows = []
    ours_total = dds_total = 0
    for seed in range(deals):
        tests = Tests(seed)
        values, _ = dds_solve(tests.hands, tests.leader)
        v = max(values.values())
        for t in (v, v + 1):
            if t > 13:
                continue
            made, n = tests.ours(tests.root(), t)
            dmade, dn = tests.dds(tests.root(), t)
            if made != dmade:
                raise SystemExit(f"deal {seed}, test {t}: ours {made}, DDS {dmade}")
            ours_total += n
            dds_total += dn
            rows.append((n - dn, seed, t, n, dn))
    print(f"{deals} deals, tests at each root's value and one above: ours {ours_total:,} trick starts, "
          f"DDS {dds_total:,} ({ours_total / max(dds_total, 1):.3f}x)")
    print("costliest excesses (seed, test: ours / DDS):")
    for _gap, seed, t, n, dn in sorted(rows, reverse=True)[:12]:
        print(f"  {seed:3d} {t:2d}: {n:>9,} / {dn:>9,}  ({n / max(dn, 1):.2f}x)")


def descend(seed: int, target: int, path: list[str]) -> None:
    tests = Tests(seed)
    pos = tests.root()
    for card in path:
        pos, gained = tests.solver.child(pos, bit_of(card))
        target -= gained
    while True:
        here, dhere = tests.ours(pos, target), tests.dds(pos, target)
        kids = []
        for bit in tests.solver.representatives(pos):
            child, gained = tests.solver.child(pos, bit)
            if not any(child.hands):
                continue
            o, d = tests.ours(child, target - gained), tests.dds(child, target - gained)
            kids.append((o[1] - d[1], name(bit), bit, o[1], d[1], gained))
        print(f"{' '.join(path) or '(root)':50s} ours {here[1]:>8,} DDS {dhere[1]:>8,} | "
              + " ".join(f"{k[1]} {k[3]}/{k[4]}" for k in kids))
        if not kids:
            break
        gap, card, bit, n, dn, gained = max(kids)
        if n < 50 or gap < 20:
            break
        pos, _ = tests.solver.child(pos, bit)
        target -= gained
        path.append(card)
    for seat in range(4):
        print(seat, " ".join(name(1 << i) for i in range(64) if pos.hands[seat] >> i & 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=30, help="deals to survey (default 30)")
    parser.add_argument("--descend", nargs="+", metavar="SEED TARGET [CARD ...]",
                        help="walk down the costliest branch of one test")
    args = parser.parse_args()
    if args.descend:
        seed, target, *path = args.descend
        descend(int(seed), int(target), list(path))
    else:
        survey(args.deals)


if __name__ == "__main__":
    main()
