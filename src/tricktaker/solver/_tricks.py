"""The native search for trick-count games: alpha-beta on null windows.

This is the hot path of the solver: C in ``_tricks_c.c``, compiled when the
package is installed (nothing is compiled at run time); this module holds its
constants, allocates its table, and re-exports its functions.  It answers one
question, again and again: *can the maximising side make the counted side take
at least ``target`` tricks from here?*  The driver in :mod:`.tricks` turns
those yes/no answers into exact trick counts for every legal card.

A position is four hands as ``int64`` card masks in *strength* layout (bit
``suit * 16 + strength``, a higher bit beating a lower one of the same suit),
the trick on the table (lead suit, best card so far and its seat, the cards
played), and who leads.  ``order[leader, i]`` is the ``i``-th seat to play in
a trick ``leader`` leads, so three-handed tricks (Tuppi's sooli) and ordinary
clockwise tricks use the same code.  Rules: follow suit if you can; the
highest card of the suit led wins (no trumps: Tuppi is always no-trump).

What makes it fast (each is standard in double-dummy solvers):

- **Null-window search.**  Every search is a yes/no test, so a node stops at
  the first move that answers it.
- **Transposition table with partition search** at trick boundaries.  A
  search returns, with its answer, the cards whose *rank* decided it (the
  winner of each trick won by rank; where every card of a hand failed, also
  the cards that hand holds just below such a card with no live card between,
  for they were searched as one with it).  The entry stored for a position then
  only pins, in each suit, who holds the cards from the top down to the
  lowest such card; below that, only how many cards each hand holds matters.
  Many positions that differ in their low cards share one entry.  An entry
  keeps a lower and an upper bound on the counted side's tricks, so searches
  at every target reuse it.  It holds the pinned holders as a mask and a
  value over two pattern words, so matching a position is two ANDs.  Entries
  that leave some suit unpinned all share the bucket of their suit lengths,
  so buckets are wide (64 ways) and a full one replaces its oldest entry: a
  narrow bucket, or replacing at random, lost entries the search needed again
  (two to five times the nodes).
- **Equivalent cards.**  Two cards of one hand with no live card between them
  win exactly the same tricks; only one is searched.  Likewise, once a card
  has failed, the hand's other cards of its suit below every card that
  decided the searches so far would fail alike, and are skipped.
- **Move ordering.**  At a lead, the lead that last cut at the same depth
  goes first, then the card a matching table entry names, then the others.
  With four hands and partners opposite the order follows the shape of DDS's
  (:func:`_lead_scores`): suits where the opponents hold few cards (a void
  opponent counts as many, for its free choice of discards), winners unless
  the second-best card sits over them, finesses and suits the side can set
  up; other seatings (sooli) score top cards, small cards to a partner's top
  card and short suits.  In a trick, as DDS orders them: the second hand
  plays low when its partner, last, wins anyway, else the cheapest card above
  the card led and the third hand's, then low cards that cannot matter, then
  touching honours split; the third hand plays low when its cards cannot matter,
  wins only above the fourth hand's top card, and otherwise first tries the
  card that makes the fourth hand spend its top card; the fourth hand wins as
  cheaply as it can, or plays low when its partner wins; discards come low
  from long suits, sparing a lone top card and the guard of the second card.
  A side that wants to lose tricks (nolo, sooli) orders the other way round:
  leads from its shortest suits, later from a suit more opponents are void
  in, and within a suit the card with the most live cards (the opponents'
  most of all) below it first; the highest card that still loses; high
  discards from short suits (see :func:`moves_of`).
- **Quick tricks.**  A leader whose side holds the top cards of suits counts
  the sure tricks before searching: its own top cards (and its low cards of a
  suit once those top cards have drawn every other hand's cards there), then
  a suit where it holds the top card and its partner the next one (the top
  card, then a small card to the partner's); or, with an entry to its partner
  (a small card to a partner's top card, or that split suit), all the
  leader's sure tricks first and then the partner's (at most the tricks left:
  the partner plays its other cards to the leader's winners, and has enough of
  them exactly when the two counts fit in the tricks left).  And a suit whose two
  top cards the leader and its partner hold between them, one hand with
  exactly two cards of it, the other with more, and no opponent with more
  than two: the two top cards cross between the hands, the opponents are
  out, and the long hand runs the rest (DDS counts the same shape).  A cut-off pins
  only the top cards it needed.  The second and third hands count them too:
  when their side holds the card that wins the trick whatever the opponent
  still to play does, it wins the trick and then cashes its top cards and,
  with an entry, its partner's, which often decides a test one or two cards
  into the trick.
- **An explicit stack.**  The search is one loop over a stack of frames
  (one per card played), every helper inlined into it; the stack lives in the
  C call, the table and counters in the caller's arrays (:func:`new_table`).
  The GIL is released while it runs; it stops at a time limit (TimeoutError)
  or at Ctrl-C, storing nothing more in the table once stopped.
- **Prefetching.**  At a trick start the first eight ways of its two table
  buckets are requested from memory first (a lookup reads about ten, a
  cache line each), and the sure tricks counted while they arrive.
- **Later tricks.**  A side on lead that needs every trick left fails when
  an opponent holds the top card of every suit its leader can lead, or when
  it can keep the lead only in suits whose top card it holds, each at most
  as often as its longest hand there, and those add up to fewer tricks.
"""

from __future__ import annotations

import numpy as np

from ._tricks_c import LAYOUT as LAYOUT
from ._tricks_c import _lookup as _lookup
from ._tricks_c import _popcount as _popcount
from ._tricks_c import _popcount_compare as _popcount_compare
from ._tricks_c import _store as _store
from ._tricks_c import _top as _top
from ._tricks_c import _top_cards as _top_cards
from ._tricks_c import card_values as card_values
from ._tricks_c import moves_of as moves_of
from ._tricks_c import search as search

BUCKET_BITS = 15
WAYS = 64
"""Rows per bucket: a header and 63 entries.  An entry pinning every suit's top card goes to
the bucket of its suit lengths, leader and those cards' holders; any other to the bucket of the
lengths and leader alone.  A lookup scans both, and the finer buckets of those it finds full
(the kernel's ``KEY_BUT`` and ``KEY_TWO``).  A bucket fills from its first entry, so a scan
stops at the first way not in use; a full bucket replaces its oldest entry."""
TT_ROWS = (1 << BUCKET_BITS) * WAYS
TT_COLS = 4
KEY, VALUE1, VALUE2, META = range(4)
"""Columns of a table row (32 bytes, two to a cache line): suit lengths; the two pattern words'
pinned holders (the leader in the top bits of the first); and ``gen << 32 | pins << 16 |
lower << 12 | upper << 8 | move``: the generation, how many of each suit's top live cards the
entry pins (4 bits a suit), the bounds, and the card that last decided the position as its bit
index plus one (tried first next time).  A bucket's first row is its header, whose ``META`` is
``gen << 32 | way``: the way its next new entry replaces once every way is in use (the oldest
entry goes first)."""
GEN_LIMIT = 1 << 31
"""Generations above this no longer fit an entry: :meth:`TrickSolver.new_search` then clears the
table and starts again at 1."""

NODES, GENERATION, TRICK_NODES = 0, 1, 2
"""Slots of the ``stats`` array: nodes searched, the table's generation, and the nodes that
start a trick (the count DDS reports as its nodes)."""
STATS_SIZE = 4

OPP_WEIGHT = 10
"""Lead ordering: score lost per card the opponents hold in the suit (a void opponent counts as
the cards in hand plus one).  10 searched the fewest nodes of 3, 6, 10 and 16."""

KILLER_WIN, HINT_WIN, KILLER_LOSE, HINT_LOSE = 126, 32, 47, 19
"""Lead ordering, four hands with partners opposite: the bonus for the lead that last cut at the
same depth and for the card a matching table entry names, when the card wins the trick (or lets
partner win it) and when it loses.  DDS's weights; moving both cards to the front instead
searched 1% more trick starts on 30 deals, and doubling or dropping the bonuses changed under 1%."""

MAX_DEPTH = 64
"""Frames of the search stack: one per card played (52 at most)."""
MAX_MOVES = 13
"""Length of the ``moves`` and ``scores`` arrays :func:`moves_of` fills."""


def _check_layout() -> None:
    """One source of truth: the C module's constants must be this module's."""
    ours = {name: globals()[name] for name in LAYOUT}
    if ours != LAYOUT:
        wrong = sorted(name for name in LAYOUT if ours[name] != LAYOUT[name])
        raise ImportError("tricktaker.solver._tricks_c was built with another table layout "
                          f"({', '.join(wrong)}): rebuild the package")


_check_layout()


def new_table() -> tuple[np.ndarray, np.ndarray]:
    """A fresh transposition table and its stats array (nodes searched, current generation)."""
    stats = np.zeros(STATS_SIZE, dtype=np.int64)
    stats[GENERATION] = 1
    return np.zeros((TT_ROWS, TT_COLS), dtype=np.int64), stats
