"""The compiled search for the point games: alpha-beta over card points, calls included.

This is the hot path of the point-game solver (:mod:`.points`).  The search
itself is C (``_points_c.c``, compiled when the package is installed); this
module holds its layout (the constants below, checked against the compiled
module's at import), allocates its arrays and re-exports its functions.  One
kernel serves Tute, the Marjapussi family and Huutopussi: what
differs between them is data (the ``rules`` vector and the card and suit
tables), not code.  The same source is also compiled with the commonest
families of rules fixed (:data:`BUILDS`), which :func:`kernel` picks by the
rules: the same search in fewer instructions.  It answers "what does the maximising side still score from
here?" for a position with every card known, searching every card and every
call (declarations, asks and answers, Tute's cantes, tute and the exchange).

**Cards** are ``int64`` masks in *strength layout*: bit ``suit * 16 +
strength``, a higher bit beating a lower one of its suit, so "the cards that
beat ``b``" is a shift.  The driver translates the engine's cards.

**A position** is one row of the ``int64`` matrix ``S`` (fields ``F_*``):
each seat's available cards (hand, plus face-up cards in Avomarjapussi), the
stock pointer and Tute's upcard, the trick on the table (lead suit, best card
of the suit led and best trump with their seats, points and pips on the
table), trumps, declared suits, the call state (who may call, what was asked,
Tute's order-of-cantes flags), the pending lead rule, and the pip lead the
maximising side holds (for the Marjapussi family's pip point).  Row ``d + 1``
is row ``d`` after one move (copy-make): nothing is undone.

**Moves** are small codes: ``0..63`` play that card; ``MV_DECLARE + s``
declare (or sing) suit ``s``; ``MV_ASK_WHOLE``; ``MV_ASK_HALF + s``;
``MV_ANSWER + s``; ``MV_ANSWER_NO``; ``MV_TUTE``; ``MV_EXCHANGE``; ``MV_PASS``.

**Rules** (``R_*`` indexes of ``rules``): duties in Tute's style (beat the
best card of the suit led even over a trump; overtrump) or the ace-ten style
(follow without beating once the trick is trumped), the partner exception,
no duties while a stock lasts, asks and their order rules, lead from a
marriage, calls only after one's own lead, how a marriage scores (Tute's 20
and 40; Marjapussi's first marriage makes trumps for 2 and later ones score 1;
in Huutopussi every marriage makes trumps for its suit's value), the last
trick bonus, the pip point, tute, the stock and the exchange, and a bonus for
taking every trick of the hand (two-player Huutopussi's läpäri, ``R_SWEEP``,
with ``F_WON`` the sides that have won a trick so far; in the key).

What makes it fast:

- **Null-window tests**: exact values from alpha-beta tests with a window of
  one point; each answer (fail-soft) narrows the interval.  A card's first
  test is at the value of the card before; the next ones gallop away from it
  in the direction of the answers (4 points, then twice as far each time),
  and once the answers have gone both ways the interval is halved (points
  move in uneven steps, so stepping a point at a time as MTD(f) does would
  take many tests).
- **Transposition table** at trick starts, in buckets of two entries (a new
  position replaces an entry of an older solve, else the one with fewer live
  cards); an entry keeps a lower and an upper bound and the best move found.
  The pip lead is not in the key: each bound keeps the lead it was found at
  and serves other leads (a value never falls as the lead rises, and rises by
  at most the pip point).
  Where no stock is left the key is by *relative rank*: per suit, the owner
  and class (points, pips, part in calls) of each live card in rank order, so
  positions that differ only in which equal cards are gone share an entry.
  Avomarjapussi's face-down cards count among the live cards there (owned by
  "face down under seat 0's or seat 1's cards", and the cards lying on them
  marked), with the set of face-down cards itself in the key.  Once no call
  can come (habanero after its last pause), a class is the points alone.
- **Bounds**: the maximiser gains at most the card points still out, the last
  trick, the pip point (unless its pip lead plus every pip still out cannot
  make it positive) and the marriages whose cards its side can still hold,
  minus the points of the opponents' safe trumps; at least the points of its
  own safe trumps (the top run of trumps held by one side, once trumps can no
  longer change and no tute can end the round first; when that side is one
  seat, each of those trumps wins a trick of its own, with the least points
  every other seat can give to it), and the pip point once its pip lead
  exceeds the pips still out.  Habanero's cantes and tute count only while a
  pause with more than two cards in the stock can still come.  At a trick start the leader's
  quick tricks (its top cards cashed at once), or a partner's reached through
  an entry (a suit whose top card the partner holds and every opponent must
  follow), add to its side's sure card points and pips.  These counts run
  while the table entry is loading (the search waits on that load more than
  on anything else), and a cut by them needs no wait for it.
- **Equivalent cards**: two cards of one hand in one suit with no live card
  between them, the same card points and pips, and no part in a call (kings
  and queens of marriages still to be made, Tute's kings and knights and
  exchange cards while a call can still come, face-up cards with a card
  beneath) lead to the same values; one is searched.
- **Move ordering**: the transposition table's move, the lead that last
  refuted at the same depth (killer), then calls, winners of the trick,
  points to a partner who wins, cheap cards to a trick lost.
- **Calls that cannot matter are not searched** (below the root only):
  the minimising side's Tute cantes (they add to its own points and change no
  play; its tute, which ends the round, is searched); an ask the partner must
  answer "no" (it leaves the position as leading at once would, bar limiting
  the asker's own later calls); the minimising side's little marriages in the
  Marjapussi family.  And where a call dominates, leading at once is not
  searched: a maximiser who can sing a cante, or declare a little marriage,
  does so first, since doing it later can only be worth the same.  A seat
  sings its veintes in suit order.
- **The last trick** is counted directly, without a search.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Any

import numpy as np

from . import _points_c
from ._points_c import LAYOUT as _LAYOUT
from ._points_c import apply, gen_moves, root_values

__all__ = ["BUILDS", "apply", "gen_moves", "kernel", "new_stack", "new_table", "root_values"]


def _builds() -> list[tuple[ModuleType, np.ndarray, np.ndarray]]:
    """The kernel's builds for the commonest rules (``_points_c.c``, "Builds for the commonest
    rules": ``setup.py`` compiles each ``_points_<name>.c``), whichever this package holds, each
    with the indexes and values of the rules it fixes; none where the package was built without
    them (MSVC)."""
    from . import __path__ as here

    found = []
    for info in sorted(pkgutil.iter_modules(here), key=lambda info: info.name):
        if not info.name.startswith("_points_") or info.name == "_points_c":
            continue
        module = importlib.import_module(f".{info.name}", __package__)
        fixed: dict[int, int] = module.FIXED
        found.append((module, np.array(sorted(fixed), dtype=np.intp),
                      np.array([fixed[k] for k in sorted(fixed)], dtype=np.int64)))
    return found


BUILDS = _builds()
"""The kernel's builds for families of rules: ``(module, fixed rule indexes, their values)``."""

_seats, _style = _LAYOUT["R_N"], _LAYOUT["R_STYLE"]  # (lower case: not layout constants)
_BY_SHAPE: dict[tuple[int, int], list[tuple[Any, np.ndarray, bytes]]] = {}
for _module, _indexes, _values in BUILDS:  # (each build fixes the seats and the style)
    _BY_SHAPE.setdefault((_module.FIXED[_seats], _module.FIXED[_style]), []).append(
        (_module, _indexes, _values.tobytes()))


def kernel(rules: np.ndarray) -> Any:
    """The kernel module to search with under ``rules``: the build that fixes rules equal to these
    (the same search in fewer instructions), else the one for every rule set, ``_points_c``.
    Asked at every solve, so it costs a microsecond or two: the builds of the rules' number of
    seats and style, then one comparison of bytes."""
    for module, indexes, values in _BY_SHAPE.get((int(rules[_seats]), int(rules[_style])), ()):
        if rules.take(indexes).tobytes() == values:
            return module
    return _points_c

# -- row fields ------------------------------------------------------------------
F_HANDS = 0  # 0..3: available cards per seat
F_SP = 4  # stock cards drawn so far
F_UP = 5  # Tute's upcard (drawn after the stock), 0 when none
F_LEADER = 6
F_POS = 7  # cards on the table
F_TURN = 8
F_LSUIT = 9  # suit led, -1 at a trick start
F_BLED = 10  # best card of the suit led
F_BLSEAT = 11
F_BTR = 12  # best trump on the table, 0 when none
F_BTSEAT = 13
F_TABLE = 14  # cards on the table
F_TPTS = 15  # their card points
F_TPIPS = 16  # their pips
F_TRUMP = 17  # -1: no trumps
F_DECL = 18  # bit s: suit s declared (sung)
F_GONE = 19  # cards of finished tricks
F_PHASE = 20
F_CANCALL = 21  # the leader may call (declare, ask, sing) before leading
F_LT1 = 22  # lead rule: lead from this mask if possible,
F_LT2 = 23  # else from this one
F_ASKED = 24  # 24, 25: per side, 1 asked whole, 2 asked half (ordered calls)
F_WHOLE = 26  # 26, 27: per side, has asked for a whole (lockout orders: a bit per seat)
F_SANG = 28  # 28, 29: per side, has sung a veinte (Tute pairs)
F_WIN20 = 30  # a veinte was sung in this pause (Tute habanero)
F_ASKER = 31
F_ASKKIND = 32  # -1: ask whole, else the suit of an ask for a half
F_WANTED = 33  # the card asked for (half)
F_PENDING = 34  # Tute pairs: the partner still to be asked to declare, -1 none
F_PIPDIFF = 35  # the maximiser's pips minus the other side's, whole hand
F_LAST20 = 36  # the highest suit sung as a veinte in this turn (-1): veintes go in suit order
F_DONE = 37  # the hand is over
F_GONEPTS = 38  # card points of F_GONE
F_GONEPIPS = 39  # pips of F_GONE
F_WON = 40  # with R_SWEEP: bit 1 the maximising side has won a trick this hand, bit 2 the other side
ROW = 41

PH_PLAY = 0
PH_ANSWER = 1
PH_DECLARE = 2

# -- rules vector ------------------------------------------------------------------
R_N = 0  # players
R_DIR = 1  # +1 clockwise, -1 counter-clockwise (Tute)
R_STYLE = 2  # STYLE_TUTE or STYLE_ACE_TEN
R_MUSTOVER = 3  # Tute: a void player trumping must overtrump
R_PEXC = 4  # partner exception
R_FREE = 5  # no duties while the stock lasts
R_PARTNERS = 6  # asks allowed
R_ORDER = 7  # 0 free, 1 ordered, 2 whole first, 3/4 per-seat ask lockouts (main form, 2002)
R_LFM = 8  # lead from a marriage just made
R_OWNLEAD = 9  # calls only after winning a trick one led
R_MARRY = 10  # MARRY_TUTE, MARRY_FIRST_TRUMPS, MARRY_EVERY_TRUMPS
R_LAST = 11  # the last trick's bonus
R_PIPVAL = 12  # the pip point (0: none)
R_TUTE = 13  # tute (four kings or knights) may be declared
R_MAXSIDE = 14
R_STOCKLEN = 15  # cards in the stock array
R_CALLSTOCK = 16  # calls only while more than this many cards are in the stock (-1: always)
R_EXCH = 17  # Tute habanero's exchange
R_KINGS = 18
R_KNIGHTS = 19
R_TOTALPTS = 20  # card points in the deck
R_SIDE = 21  # 21..24: the solver's side of each seat
R_DECK = 25  # every card of the deck
R_SPECIAL = 26  # cards never merged as equivalent (tute's kings and knights, exchange cards)
R_TOTALPIPS = 27  # pips in the deck
R_DOWN = 28  # 28..31: the face-down cards each seat started with (Avomarjapussi)
R_RELATIVE = 32  # transposition keys by relative rank (no stock, no rows)
R_SOTAS = 33  # Tute: a third rank whose four cards make tute (option tute_sotas), or 0
R_MUSTDECL = 34  # Tute pairs: a seat asked to declare may pass only with nothing to declare
R_EXCHANY = 35  # Tute habanero: the exchange also before following, not only before a lead
R_ACESHOW = 36  # Huutopussi 2002: in the first trick the holder of the led suit's ace must play it
R_SWEEP = 37  # two-player Huutopussi: what the maximising side gains more by taking every trick
R_SIZE = 40

STYLE_TUTE = 0
STYLE_ACE_TEN = 1
MARRY_TUTE = 0
MARRY_FIRST_TRUMPS = 1
MARRY_EVERY_TRUMPS = 2

# -- tables ---------------------------------------------------------------------------
C_PTS = 0  # card points by card index
C_PIPS = 1  # pips (tie-break tables folded in, base 256)
C_UNDER = 2  # the face-down card beneath a face-up one
C_EXCH = 3  # Tute: the trump that may be exchanged for this upcard
C_WEIGHT = 4  # how much a card is worth, for move ordering only
C_STOCK = 5  # by stock pointer: the stock cards still to be drawn (Tute's upcard apart)
C_CLASS = 6  # 0..7: cards of one class have the same points, pips and part in calls
C_ROWS = 7
SD_PAIR = 0  # the king and queen (rey and caballo) of each suit
SD_MVAL = 1  # a marriage's value per suit (Huutopussi)

# -- moves ------------------------------------------------------------------------------
MV_DECLARE = 64
MV_ASK_WHOLE = 68
MV_ASK_HALF = 72
MV_ANSWER = 76
MV_ANSWER_NO = 80
MV_TUTE = 81
MV_EXCHANGE = 82
MV_PASS = 83
MAX_MOVES = 48
MAX_DEPTH = 160

# -- transposition table ---------------------------------------------------------------
KEY_WORDS = 6
TB_LB = 0
TB_UB = 1
TB_MOVE = 2
TB_GEN = 3
TB_PLB = 4  # the pip lead the lower bound was found at (and holds from: see the kernel's pip_lead)
TB_PUB = 5  # the pip lead the upper bound was found at (and holds up to)
TB_WORDS = 6
INF = 1 << 20

# stats
S_NODES = 0
S_GEN = 1
STATS = 4
# per depth: legal cards and their stand-ins (0..31), killer (36), and a trick start's relative key
# (32..35) with its live cards (37) and kind (38), for the trick starts below it
W_COLS = 40
W_KILLER = 36  # the move that cut off at this depth's last trick start, tried early by the next
# a share of one position's moves between threads (_kernel.h), with the spin locks of a table
# they search together: two counters, then 1,024 locks a cache line apart
TT_SHARE_LOCKED_SIZE = 8 + 1024 * 8


def new_table(bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A transposition table of ``2**bits`` entries (keys, bounds) and the stats vector."""
    return (np.zeros((1 << bits, KEY_WORDS), dtype=np.int64),
            np.zeros((1 << bits, TB_WORDS), dtype=np.int32),
            np.zeros(STATS, dtype=np.int64))


def new_stack() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The search's position rows, and per depth its moves, their ordering scores and scratch."""
    return (np.zeros((MAX_DEPTH, ROW), dtype=np.int64),
            np.zeros((MAX_DEPTH, MAX_MOVES), dtype=np.int64),
            np.zeros((MAX_DEPTH, MAX_MOVES), dtype=np.int64),
            np.zeros((MAX_DEPTH, W_COLS), dtype=np.int64))


def _check_layout() -> None:
    """The compiled module must have been built from the same layout as these constants: the
    same values, and every constant here known to it (a kernel built before a rules field was
    added would silently ignore that rule)."""
    here = globals()
    ours = {name for name, value in here.items() if name.isupper() and type(value) is int}
    wrong = sorted(name for name in ours | set(_LAYOUT) if here.get(name) != _LAYOUT.get(name))
    wrong += [module.__name__ for module, _, _ in BUILDS if module.LAYOUT != _LAYOUT]
    if wrong:
        raise ImportError("tricktaker.solver._points_c was built for another layout "
                          f"({', '.join(wrong)} differ): rebuild the package")


_check_layout()
