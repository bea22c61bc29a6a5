"""The compiled search for the point games: alpha-beta over card points, calls included.

This is the hot path of the point-game solver (:mod:`.points`), compiled with
Numba.  One kernel serves Tute, the Marjapussi family and Huutopussi: what
differs between them is data (the ``rules`` vector and the card and suit
tables), not code.  It answers "what does the maximising side still score from
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
trick bonus, the pip point, tute, the stock and the exchange.

What makes it fast:

- **Null-window tests**: exact values from alpha-beta tests with a window of
  one point; each answer (fail-soft) narrows the interval, which is halved
  for the next test (points move in uneven steps, so stepping a point at a
  time as MTD(f) does would take many tests).
- **Transposition table** at trick starts; an entry keeps a lower and an upper
  bound and the best move found.  Where every live card is in a hand (no
  stock, no face-down card) the key is by *relative rank*: per suit, the owner
  and class (points, pips, part in calls) of each live card in rank order, so
  positions that differ only in which equal cards are gone share an entry.
- **Bounds**: the maximiser gains at most the card points still out, the last
  trick, the pip point and the marriages whose cards its side can still hold,
  minus the points of the opponents' safe trumps; at least the points of its
  own safe trumps (the top run of trumps held by one side, once trumps can no
  longer change and no tute can end the round first).
- **Equivalent cards**: two cards of one hand in one suit with no live card
  between them, the same card points and pips, and no part in a call (kings
  and queens of marriages still to be made, Tute's kings and knights and
  exchange cards, face-up cards with a card beneath) lead to the same values;
  one is searched.
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

import numpy as np
from numba import njit

from ._bits import index as _index
from ._bits import popcount as _popcount
from ._bits import suit_mask as _suit_mask
from ._bits import top as _top

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
F_WHOLE = 26  # 26, 27: per side, has asked for a whole
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
ROW = 40

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
R_ORDER = 7  # 0 free, 1 ordered, 2 whole first
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
INF = 1 << 20

# stats
S_NODES = 0
S_GEN = 1


def new_table(bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A transposition table of ``2**bits`` entries (keys, bounds) and the stats vector."""
    return (np.zeros((1 << bits, KEY_WORDS), dtype=np.int64),
            np.zeros((1 << bits, 4), dtype=np.int32),
            np.zeros(4, dtype=np.int64))


def new_stack() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The search's position rows, and per depth its moves, their ordering scores and scratch."""
    return (np.zeros((MAX_DEPTH, ROW), dtype=np.int64),
            np.zeros((MAX_DEPTH, MAX_MOVES), dtype=np.int64),
            np.zeros((MAX_DEPTH, MAX_MOVES), dtype=np.int64),
            np.zeros((MAX_DEPTH, 40), dtype=np.int64))


@njit(cache=True, inline="always")
def _beats(bit: int) -> int:
    """The cards of ``bit``'s suit that beat it (strength layout)."""
    return _suit_mask(_index(bit) >> 4) & ~((bit << 1) - 1)


@njit(cache=True, inline="always")
def _stock_left(S: np.ndarray, d: int, R: np.ndarray) -> int:
    """Cards still to be drawn, Tute's upcard included."""
    left = int(R[R_STOCKLEN] - S[d, F_SP])
    if S[d, F_UP] != 0:
        left += 1
    return left


@njit(cache=True, inline="always")
def _winner(S: np.ndarray, d: int) -> int:
    """The seat winning the trick on the table so far."""
    if S[d, F_BTR] != 0:
        return int(S[d, F_BTSEAT])
    return int(S[d, F_BLSEAT])


@njit(cache=True, inline="always")
def _next_seat(R: np.ndarray, seat: int) -> int:
    return int((seat + R[R_DIR] + R[R_N]) % R[R_N])


# -- duties -----------------------------------------------------------------------------


@njit(cache=True, inline="always")
def legal_cards(S: np.ndarray, d: int, R: np.ndarray) -> int:
    """The cards the seat to move may play: the first duty tier its cards meet."""
    seat = S[d, F_TURN]
    cards = int(S[d, seat])
    if S[d, F_POS] == 0:
        t1 = S[d, F_LT1]
        if t1 != 0:
            if cards & t1:
                return int(cards & t1)
            t2 = S[d, F_LT2]
            if cards & t2:
                return int(cards & t2)
        return cards
    if R[R_FREE] != 0 and _stock_left(S, d, R) > 0:
        return cards
    lead = _suit_mask(S[d, F_LSUIT])
    trump = S[d, F_TRUMP]
    tm = _suit_mask(trump) if trump >= 0 else 0
    bt = S[d, F_BTR]
    partner_wins = R[R_N] == 4 and _winner(S, d) % 2 == seat % 2
    if R[R_STYLE] == STYLE_TUTE:
        if R[R_PEXC] != 0 and partner_wins:
            return cards & lead if cards & lead else cards
        x = cards & _beats(S[d, F_BLED])
        if x:
            return x
        x = cards & lead
        if x:
            return x
        if tm != lead:
            if bt != 0 and (R[R_N] == 2 or R[R_MUSTOVER] != 0):
                x = cards & _beats(bt)
                if x:
                    return x
            x = cards & tm
            if x:
                return x
        return cards
    beat = not (R[R_PEXC] != 0 and R[R_PARTNERS] != 0 and partner_wins)
    if bt != 0 and tm != lead:
        x = cards & lead
        if x:
            return x
        if beat:
            x = cards & _beats(bt)
            if x:
                return x
        x = cards & tm
        if x:
            return x
        return cards
    if beat:
        x = cards & _beats(S[d, F_BLED])
        if x:
            return x
    x = cards & lead
    if x:
        return x
    if tm != 0 and tm != lead:
        x = cards & tm
        if x:
            return x
    return cards


@njit(cache=True, inline="always")
def play_reps(S: np.ndarray, d: int, R: np.ndarray, C: np.ndarray, SD: np.ndarray, legal: int,
              merge: bool, W: np.ndarray) -> int:
    """Each legal card (``W[d, k]``) and the card that stands for it (``W[d, 16 + k]``: itself
    unless ``merge``); return how many.

    Cards merge into a run when they are the seat's own legal cards, adjacent
    among the live cards of their suit, with equal points and pips and no part
    in a call; the run's lowest card stands for all.
    """
    live = R[R_DECK] & ~S[d, F_GONE]
    special = R[R_SPECIAL]
    for s in range(4):
        if not (S[d, F_DECL] >> s) & 1:
            special |= SD[SD_PAIR, s]
    n = 0
    for s in range(4):
        mine = legal & _suit_mask(s)
        if mine == 0:
            continue
        m = live & _suit_mask(s)
        run = 0
        while m:
            low = m & -m
            m ^= low
            if not mine & low:
                run = 0
                continue
            i = _index(low)
            plain = merge and not special & low and C[C_UNDER, i] == 0
            if plain and run != 0:
                j = _index(run)
                if C[C_PTS, i] == C[C_PTS, j] and C[C_PIPS, i] == C[C_PIPS, j]:
                    W[d, n] = low
                    W[d, 16 + n] = run
                    n += 1
                    continue
            W[d, n] = low
            W[d, 16 + n] = low
            n += 1
            run = low if plain else 0
    return n


# -- calls ---------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _is_max(R: np.ndarray, seat: int) -> bool:
    return bool(R[R_SIDE + seat] == R[R_MAXSIDE])


@njit(cache=True, inline="always")
def _tute_decls(S: np.ndarray, d: int, R: np.ndarray, SD: np.ndarray, seat: int, all_sings: bool,
                M: np.ndarray, nm: int) -> int:
    """Tute: append the declarations ``seat`` may make (tute, las cuarenta, veintes).

    Without ``all_sings`` the minimising side's cantes, which cannot change
    the maximiser's points, are left out, and veintes follow suit order.
    """
    hand = S[d, seat]
    if R[R_TUTE] != 0 and (_popcount(hand & R[R_KINGS]) == 4 or _popcount(hand & R[R_KNIGHTS]) == 4):
        M[d, nm] = MV_TUTE
        nm += 1
    if not all_sings and not _is_max(R, seat):
        return nm
    trump = S[d, F_TRUMP]
    side = R[R_SIDE + seat]
    for s in range(4):
        pair = SD[SD_PAIR, s]
        if hand & pair != pair or (S[d, F_DECL] >> s) & 1:
            continue
        if s == trump:
            blocked = S[d, F_WIN20] if R[R_N] == 2 else S[d, F_SANG + side]
            if blocked == 0:
                M[d, nm] = MV_DECLARE + s
                nm += 1
        elif all_sings or s > S[d, F_LAST20]:
            M[d, nm] = MV_DECLARE + s
            nm += 1
    return nm


@njit(cache=True, inline="always")
def _little_ones(S: np.ndarray, d: int, R: np.ndarray) -> bool:
    """Whether marriages are little ones now: worth 1 to their own side and nothing else (the
    Marjapussi family once trumps are made, without a lead rule after marriages)."""
    return bool(R[R_MARRY] == MARRY_FIRST_TRUMPS and S[d, F_TRUMP] >= 0 and R[R_LFM] == 0)


@njit(cache=True, inline="always")
def _family_calls(S: np.ndarray, d: int, R: np.ndarray, SD: np.ndarray, seat: int, root: bool,
                  M: np.ndarray, nm: int) -> int:
    """The Marjapussi family and Huutopussi: append the calls ``seat`` may make now.

    Below the root an ask the partner must answer "no" is left out: it leaves the position
    as leading at once would (bar limiting the asker's own later calls), so it cannot be
    better.  So are the minimising side's little ones, which change nothing it is judged on.
    """
    if not root and _little_ones(S, d, R) and not _is_max(R, seat):
        return nm
    partner = S[d, (seat + 2) % 4] if R[R_PARTNERS] != 0 else 0
    cards = S[d, seat]
    side = R[R_SIDE + seat]
    order = R[R_ORDER]
    asked = S[d, F_ASKED + side] if order != 0 else 0
    declared = S[d, F_DECL]
    if asked == 0:
        for s in range(4):
            pair = SD[SD_PAIR, s]
            if not (declared >> s) & 1 and cards & pair == pair:
                M[d, nm] = MV_DECLARE + s
                nm += 1
    if R[R_PARTNERS] == 0:
        return nm
    gone = S[d, F_GONE]
    if asked < 2:
        able = False
        yes = False
        for s in range(4):
            pair = SD[SD_PAIR, s]
            if not (declared >> s) & 1:
                able |= (cards | gone) & pair == 0
                yes |= partner & pair == pair
        if able and (root or yes):
            M[d, nm] = MV_ASK_WHOLE
            nm += 1
    if order == 2 and S[d, F_WHOLE + side] == 0:
        return nm
    for s in range(4):
        pair = SD[SD_PAIR, s]
        mine = cards & pair
        if not (declared >> s) & 1 and mine != 0 and mine != pair and gone & pair & ~mine == 0 \
                and (root or partner & pair & ~mine):
            M[d, nm] = MV_ASK_HALF + s
            nm += 1
    return nm


@njit(cache=True, inline="always")
def _sings(M: np.ndarray, d: int, start: int, nm: int) -> bool:
    """Whether ``M[d, start:nm]`` holds a cante.  Singing it now adds its points and changes
    nothing else (its suit is sung; in habanero the order rule lasts this pause only), while
    leading now can at best sing it later: so a maximiser who can sing does not lead yet."""
    for j in range(start, nm):
        if M[d, j] < MV_ASK_WHOLE:
            return True
    return False


@njit(cache=True, inline="always")
def _declares_first(R: np.ndarray, S: np.ndarray, d: int, seat: int, M: np.ndarray, nm: int) -> bool:
    """Whether the maximiser should call rather than lead at once: a little one it can declare
    adds 1 and changes nothing else, while leading now can at best declare it later."""
    if not _little_ones(S, d, R) or not _is_max(R, seat):
        return False
    for j in range(nm):
        if M[d, j] < MV_ASK_WHOLE:
            return True
    return False


@njit(cache=True, inline="always")
def _answers(S: np.ndarray, d: int, SD: np.ndarray, M: np.ndarray) -> int:
    """The true answers to the pending ask."""
    cards = S[d, S[d, F_TURN]]
    nm = 0
    kind = S[d, F_ASKKIND]
    if kind < 0:
        for s in range(4):
            pair = SD[SD_PAIR, s]
            if not (S[d, F_DECL] >> s) & 1 and cards & pair == pair:
                M[d, nm] = MV_ANSWER + s
                nm += 1
    elif cards & S[d, F_WANTED]:
        M[d, nm] = MV_ANSWER + kind
        nm += 1
    if nm == 0:
        M[d, nm] = MV_ANSWER_NO
        nm += 1
    return nm


@njit(cache=True, inline="always")
def _tute_has_decl(S: np.ndarray, d: int, R: np.ndarray, SD: np.ndarray, seat: int) -> bool:
    """Whether ``seat`` has a declaration worth searching in a Tute pairs window: tute, or for
    the maximising side a cante (las cuarenta even where the order rule blocks it: a bound)."""
    hand = S[d, seat]
    if R[R_TUTE] != 0 and (_popcount(hand & R[R_KINGS]) == 4 or _popcount(hand & R[R_KNIGHTS]) == 4):
        return True
    if not _is_max(R, seat):
        return False
    for s in range(4):
        pair = SD[SD_PAIR, s]
        if hand & pair == pair and not (S[d, F_DECL] >> s) & 1:
            return True
    return False


# -- the move generator ---------------------------------------------------------------------


@njit(cache=True, inline="always")
def gen_moves(S: np.ndarray, d: int, R: np.ndarray, C: np.ndarray, SD: np.ndarray,
              M: np.ndarray, SC: np.ndarray, W: np.ndarray, first: int, root: bool) -> int:
    """Fill ``M[d]`` with the moves worth searching, best guess first (``SC[d]`` their ordering
    scores, ``W[d]`` scratch); return how many.

    ``root`` lists every legal move (no merging, every cante) for the driver.
    ``first`` (the transposition table's move, or -1) goes to the front.
    """
    phase = S[d, F_PHASE]
    seat = S[d, F_TURN]
    nm = 0
    if phase == PH_ANSWER:
        nm = _answers(S, d, SD, M)
        for j in range(nm):
            SC[d, j] = 0
        return nm
    if phase == PH_DECLARE:
        nm = _tute_decls(S, d, R, SD, seat, root, M, 0)
        M[d, nm] = MV_PASS
        nm += 1
        for j in range(nm):
            SC[d, j] = 0
        return _order(M, SC, d, nm, first)
    pos = S[d, F_POS]
    if pos == 0:
        if R[R_EXCH] != 0 and S[d, F_UP] != 0 and _stock_left(S, d, R) > 2:
            ex = C[C_EXCH, _index(S[d, F_UP])]
            if ex != 0 and S[d, seat] & ex:
                M[d, nm] = MV_EXCHANGE
                nm += 1
        if S[d, F_CANCALL] != 0:
            if R[R_STYLE] == STYLE_TUTE:
                calls = nm
                nm = _tute_decls(S, d, R, SD, seat, root, M, nm)
                if not root and _is_max(R, seat) and _sings(M, d, calls, nm):
                    for j in range(nm):
                        SC[d, j] = 200
                    return _order(M, SC, d, nm, first)  # leading without a cante is dominated
            else:
                nm = _family_calls(S, d, R, SD, seat, root, M, nm)
        for j in range(nm):
            SC[d, j] = 200
        if not root and nm and _declares_first(R, S, d, seat, M, nm):
            return _order(M, SC, d, nm, first)  # leading without a call is dominated
    legal = legal_cards(S, d, R)
    nc = play_reps(S, d, R, C, SD, legal, not root, W)
    is_max = _is_max(R, seat)
    for j in range(nc):
        card = W[d, j]
        if card != W[d, 16 + j]:
            continue
        M[d, nm] = _index(card)
        SC[d, nm] = _play_score(S, d, R, C, seat, card, is_max)
        nm += 1
    return _order(M, SC, d, nm, first, W[d, 36] if pos == 0 else -1)


@njit(cache=True, inline="always")
def _play_score(S: np.ndarray, d: int, R: np.ndarray, C: np.ndarray, seat: int, b: int,
                is_max: bool) -> int:
    """A guess at how good playing ``b`` is, for move ordering."""
    i = _index(b)
    pts = int(C[C_WEIGHT, i])
    suit = i >> 4
    strength = i & 15
    pos = S[d, F_POS]
    trump = S[d, F_TRUMP]
    if pos == 0:
        live = R[R_DECK] & ~S[d, F_GONE] & _suit_mask(suit) & ~S[d, seat]
        if b > live:  # the highest card out in its suit
            return 100 + pts
        return 40 - pts - strength
    bt = S[d, F_BTR]
    if bt != 0:
        wins = suit == trump and b > bt
    else:
        wins = (suit == S[d, F_LSUIT] and b > S[d, F_BLED]) or (trump >= 0 and suit == trump)
    ours = R[R_SIDE + _winner(S, d)] == R[R_SIDE + seat]
    last = pos == R[R_N] - 1
    if ours:
        if wins:
            return 20 - pts
        return 60 + pts
    if wins:
        if last:
            return 120 + pts - strength
        return 90 - strength
    return 40 - pts - strength


@njit(cache=True, inline="always")
def _order(M: np.ndarray, SC: np.ndarray, d: int, nm: int, first: int, killer: int = -1) -> int:
    """Sort the moves by score, best first: ``first`` (the table's move) ahead of all, and
    ``killer`` (what refuted a sibling) ahead of its peers."""
    for j in range(nm):
        if M[d, j] == first:
            SC[d, j] = 1 << 30
        elif M[d, j] == killer:
            SC[d, j] += 1 << 20
    for i in range(1, nm):
        mv = M[d, i]
        sc = SC[d, i]
        j = i - 1
        while j >= 0 and SC[d, j] < sc:
            M[d, j + 1] = M[d, j]
            SC[d, j + 1] = SC[d, j]
            j -= 1
        M[d, j + 1] = mv
        SC[d, j + 1] = sc
    return nm


# -- making a move -------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _marry(S: np.ndarray, e: int, R: np.ndarray, SD: np.ndarray, seat: int, suit: int) -> int:
    """A marriage of ``suit`` for ``seat``'s side: trumps, the lead rule; return the maximiser's gain."""
    S[e, F_DECL] |= 1 << suit
    mode = R[R_MARRY]
    if mode == MARRY_FIRST_TRUMPS:
        if S[e, F_TRUMP] < 0:
            S[e, F_TRUMP] = suit
            value = 2
        else:
            value = 1
    else:
        S[e, F_TRUMP] = suit
        value = SD[SD_MVAL, suit]
    if R[R_LFM] != 0:
        S[e, F_LT1] = SD[SD_PAIR, suit]
        S[e, F_LT2] = 0
    return value if _is_max(R, seat) else 0


@njit(cache=True, inline="always")
def _sing(S: np.ndarray, e: int, R: np.ndarray, seat: int, suit: int) -> int:
    """Tute: a cante of ``suit``; return the maximiser's gain."""
    S[e, F_DECL] |= 1 << suit
    if suit == S[e, F_TRUMP]:
        value = 40
    else:
        value = 20
        S[e, F_SANG + R[R_SIDE + seat]] = 1
        S[e, F_WIN20] = 1
        S[e, F_LAST20] = suit
    return value if _is_max(R, seat) else 0


@njit(cache=True, inline="always")
def _call(S: np.ndarray, e: int, R: np.ndarray, SD: np.ndarray, seat: int, mv: int) -> int:
    """Apply a call (not a card) to row ``e``; return the maximiser's gain."""
    if mv == MV_PASS:
        S[e, F_LAST20] = -1
        partner = S[e, F_PENDING]
        S[e, F_PENDING] = -1
        if partner >= 0 and _tute_has_decl(S, e, R, SD, partner):
            S[e, F_TURN] = partner
        else:
            S[e, F_PHASE] = PH_PLAY
            S[e, F_TURN] = S[e, F_LEADER]
        return 0
    if mv == MV_TUTE:
        S[e, F_DONE] = 1
        if _is_max(R, seat):
            return int(R[R_TOTALPTS] - S[e, F_GONEPTS] + R[R_LAST])
        return 0
    if mv < MV_ASK_WHOLE:
        suit = mv - MV_DECLARE
        if R[R_STYLE] == STYLE_TUTE:
            return _sing(S, e, R, seat, suit)
        S[e, F_CANCALL] = 0
        return _marry(S, e, R, SD, seat, suit)
    side = R[R_SIDE + seat]
    if mv == MV_ASK_WHOLE or mv < MV_ANSWER:
        S[e, F_CANCALL] = 0
        S[e, F_PHASE] = PH_ANSWER
        S[e, F_ASKER] = seat
        S[e, F_TURN] = (seat + 2) % 4
        if mv == MV_ASK_WHOLE:
            if S[e, F_ASKED + side] < 1:
                S[e, F_ASKED + side] = 1
            S[e, F_WHOLE + side] = 1
            S[e, F_ASKKIND] = -1
        else:
            suit = mv - MV_ASK_HALF
            S[e, F_ASKED + side] = 2
            S[e, F_ASKKIND] = suit
            S[e, F_WANTED] = SD[SD_PAIR, suit] & ~S[e, seat]
        return 0
    S[e, F_PHASE] = PH_PLAY
    S[e, F_TURN] = S[e, F_ASKER]
    if mv == MV_ANSWER_NO:
        return 0
    return _marry(S, e, R, SD, seat, mv - MV_ANSWER)


@njit(cache=True, inline="always")
def apply(S: np.ndarray, d: int, mv: int, R: np.ndarray, C: np.ndarray, SD: np.ndarray,
          ST: np.ndarray) -> int:
    """Row ``d + 1`` := row ``d`` after move ``mv``; return what the maximiser gains by it."""
    e = d + 1
    for k in range(ROW):
        S[e, k] = S[d, k]
    seat = S[d, F_TURN]
    if mv == MV_EXCHANGE:  # Tute habanero: the leader's 7 or 2 of trumps for the upcard
        up = S[e, F_UP]
        ex = C[C_EXCH, _index(up)]
        S[e, seat] = (S[e, seat] ^ ex) | up
        S[e, F_UP] = ex
        S[e, F_LAST20] = -1
        return 0
    if mv >= 64:
        return _call(S, e, R, SD, seat, mv)
    b = 1 << mv
    S[e, seat] = (S[e, seat] ^ b) | C[C_UNDER, mv]
    suit = mv >> 4
    pts = C[C_PTS, mv]
    trump = S[e, F_TRUMP]
    if S[e, F_POS] == 0:
        S[e, F_LSUIT] = suit
        S[e, F_BLED] = b
        S[e, F_BLSEAT] = seat
        S[e, F_BTR] = b if suit == trump else 0
        S[e, F_BTSEAT] = seat
        S[e, F_LT1] = 0
        S[e, F_LT2] = 0
        S[e, F_TABLE] = b
        S[e, F_TPTS] = pts
        S[e, F_TPIPS] = C[C_PIPS, mv]
    else:
        if suit == S[e, F_LSUIT] and b > S[e, F_BLED]:
            S[e, F_BLED] = b
            S[e, F_BLSEAT] = seat
        if suit == trump and (S[e, F_BTR] == 0 or b > S[e, F_BTR]):
            S[e, F_BTR] = b
            S[e, F_BTSEAT] = seat
        S[e, F_TABLE] |= b
        S[e, F_TPTS] += pts
        S[e, F_TPIPS] += C[C_PIPS, mv]
    S[e, F_CANCALL] = 0
    S[e, F_WIN20] = 0
    S[e, F_LAST20] = -1
    pos = S[e, F_POS] + 1
    if pos < R[R_N]:
        S[e, F_POS] = pos
        S[e, F_TURN] = _next_seat(R, seat)
        return 0
    return _end_trick(S, e, R, SD, ST)


@njit(cache=True, inline="always")
def _end_trick(S: np.ndarray, e: int, R: np.ndarray, SD: np.ndarray, ST: np.ndarray) -> int:
    """The trick on row ``e`` is complete: score it, draw, and open the pause after it."""
    winner = _winner(S, e)
    mine = _is_max(R, winner)
    gain = S[e, F_TPTS] if mine else 0
    S[e, F_PIPDIFF] += S[e, F_TPIPS] if mine else -S[e, F_TPIPS]
    S[e, F_GONE] |= S[e, F_TABLE]
    S[e, F_GONEPTS] += S[e, F_TPTS]
    S[e, F_GONEPIPS] += S[e, F_TPIPS]
    trick_leader = S[e, F_LEADER]
    S[e, F_TABLE] = 0
    S[e, F_TPTS] = 0
    S[e, F_TPIPS] = 0
    S[e, F_POS] = 0
    S[e, F_LSUIT] = -1
    S[e, F_BLED] = 0
    S[e, F_BTR] = 0
    if _stock_left(S, e, R) > 0:
        loser = 1 - winner
        for who in (winner, loser):
            sp = S[e, F_SP]
            if sp < R[R_STOCKLEN]:
                S[e, who] |= ST[sp]
                S[e, F_SP] = sp + 1
            else:
                S[e, who] |= S[e, F_UP]
                S[e, F_UP] = 0
    empty = True
    for s in range(R[R_N]):
        if S[e, s] != 0:
            empty = False
    if empty and _stock_left(S, e, R) == 0:
        S[e, F_DONE] = 1
        if mine:
            gain += R[R_LAST]
        if R[R_PIPVAL] != 0 and S[e, F_PIPDIFF] > 0:
            gain += R[R_PIPVAL]
        return gain
    S[e, F_LEADER] = winner
    S[e, F_TURN] = winner
    left = _stock_left(S, e, R)
    if R[R_STYLE] == STYLE_TUTE:
        if R[R_N] == 2:
            S[e, F_CANCALL] = 1 if left > 2 else 0
        else:
            partner = (winner + 2) % 4
            if _tute_has_decl(S, e, R, SD, winner):
                S[e, F_PHASE] = PH_DECLARE
                S[e, F_PENDING] = partner
            elif _tute_has_decl(S, e, R, SD, partner):
                S[e, F_PHASE] = PH_DECLARE
                S[e, F_TURN] = partner
                S[e, F_PENDING] = -1
        return gain
    may = S[e, F_DECL] != 0xF
    if R[R_CALLSTOCK] >= 0 and left <= R[R_CALLSTOCK]:
        may = False
    if R[R_OWNLEAD] != 0 and trick_leader != winner:
        may = False
    S[e, F_CANCALL] = 1 if may else 0
    return gain


# -- bounds and the transposition table -------------------------------------------------------------


@njit(cache=True, inline="always")
def upper_bound(S: np.ndarray, d: int, R: np.ndarray, C: np.ndarray, SD: np.ndarray) -> int:
    """The most the maximiser can still gain: points out, the last trick, pip point, and the
    marriages whose cards its side may still hold (hands, stock, its face-down cards)."""
    ub = int(R[R_TOTALPTS] - S[d, F_GONEPTS] + R[R_LAST] + R[R_PIPVAL])
    reach = C[C_STOCK, S[d, F_SP]] | S[d, F_UP]
    for seat in range(R[R_N]):
        if _is_max(R, seat):
            reach |= S[d, seat] | R[R_DOWN + seat]
    reach &= ~S[d, F_GONE]
    mode = R[R_MARRY]
    trump = S[d, F_TRUMP]
    first = trump < 0
    for s in range(4):
        pair = SD[SD_PAIR, s]
        if (S[d, F_DECL] >> s) & 1 or reach & pair != pair:
            continue
        if mode == MARRY_TUTE:
            ub += 40 if s == trump else 20
        elif mode == MARRY_FIRST_TRUMPS:
            ub += 2 if first else 1
            first = False
        else:
            ub += SD[SD_MVAL, s]
    return ub


@njit(cache=True, inline="always")
def _trumps_fixed(S: np.ndarray, d: int, R: np.ndarray, SD: np.ndarray) -> bool:
    """Whether the trump suit can no longer change (nor appear)."""
    mode = R[R_MARRY]
    if mode == MARRY_TUTE:
        return True
    if S[d, F_TRUMP] < 0:
        return False
    if mode == MARRY_FIRST_TRUMPS:
        return True
    gone = S[d, F_GONE]
    for s in range(4):  # Huutopussi: any marriage still possible would change trumps
        if not (S[d, F_DECL] >> s) & 1 and gone & SD[SD_PAIR, s] == 0:
            return False
    return True


@njit(cache=True, inline="always")
def _may_tute(S: np.ndarray, d: int, R: np.ndarray, mine: bool) -> bool:
    """Whether the maximiser's side (``mine``) or the other may still declare tute."""
    if R[R_TUTE] == 0:
        return False
    if _stock_left(S, d, R) != 0:
        return True  # a draw may complete it
    reach = 0
    for seat in range(R[R_N]):
        if _is_max(R, seat) == mine:
            reach |= S[d, seat]
    return bool(reach & R[R_KINGS] == R[R_KINGS] or reach & R[R_KNIGHTS] == R[R_KNIGHTS])


@njit(cache=True, inline="always")
def safe_points(S: np.ndarray, d: int, R: np.ndarray, C: np.ndarray, SD: np.ndarray) -> tuple[int, int]:
    """Points that surely go to the maximiser and to the other side: the cards of the top run of
    live trumps held in one side's hands.  Each wins whatever trick it is played to, once trumps
    can no longer change; (0, 0) while a tute could end the round before they are played."""
    trump = S[d, F_TRUMP]
    if trump < 0 or not _trumps_fixed(S, d, R, SD):
        return 0, 0
    m = R[R_DECK] & ~S[d, F_GONE] & _suit_mask(trump)
    side = -1
    pts = 0
    while m:
        top = _top(m)
        m ^= top
        owner = -1
        for seat in range(R[R_N]):
            if S[d, seat] & top:
                owner = R[R_SIDE + seat]
        if owner < 0 or (side >= 0 and owner != side):
            break
        side = owner
        pts += C[C_PTS, _index(top)]
    if side < 0 or pts == 0:
        return 0, 0
    if side == R[R_MAXSIDE]:
        return (0, 0) if _may_tute(S, d, R, False) else (pts, 0)
    return (0, 0) if _may_tute(S, d, R, True) else (0, pts)


@njit(cache=True, inline="always")
def _meta(S: np.ndarray, d: int, R: np.ndarray) -> int:
    """Every field of a trick-start position beyond the hands and the lead rule, in one word."""
    pipdiff = 0
    if R[R_PIPVAL] != 0:  # the pip lead matters only up to the pips still out
        rem = R[R_TOTALPIPS] - S[d, F_GONEPIPS] + 1
        pipdiff = min(max(S[d, F_PIPDIFF], -rem), rem)
    up = S[d, F_UP]
    upi = _index(up) + 1 if up != 0 else 0
    m = int(S[d, F_LEADER])
    m = m * 4 + S[d, F_TURN]
    m = m * 8 + S[d, F_TRUMP] + 1
    m = m * 16 + S[d, F_DECL]
    m = m * 2 + S[d, F_CANCALL]
    m = m * 4 + S[d, F_PHASE]
    m = m * 8 + S[d, F_PENDING] + 1
    m = m * 8 + S[d, F_ASKKIND] + 1
    m = m * 4 + S[d, F_ASKED]
    m = m * 4 + S[d, F_ASKED + 1]
    m = m * 2 + S[d, F_WHOLE]
    m = m * 2 + S[d, F_WHOLE + 1]
    m = m * 2 + S[d, F_SANG]
    m = m * 2 + S[d, F_SANG + 1]
    m = m * 2 + S[d, F_WIN20]
    m = m * 8 + S[d, F_LAST20] + 1
    m = m * 32 + S[d, F_SP]
    m = m * 64 + upi
    return int(m * 8192 + pipdiff + 4096)


@njit(cache=True, inline="always")
def _relative(S: np.ndarray, d: int, R: np.ndarray) -> bool:
    """Whether the position is keyed by relative rank: every live card is in a hand (the stock
    is empty and no face-down card is left) and the card classes fit the key."""
    if R[R_RELATIVE] == 0 or _stock_left(S, d, R) != 0:
        return False
    held = S[d, F_GONE]
    down = 0
    for seat in range(R[R_N]):
        held |= S[d, seat]
        down |= R[R_DOWN + seat]
    return bool(down & ~held == 0)


@njit(cache=True, inline="always")
def _relative_key(S: np.ndarray, d: int, R: np.ndarray, C: np.ndarray, W: np.ndarray) -> None:
    """A relative-rank key into ``W[d, 32:36]``, one word per suit: for each live card, by its
    rank among the live cards of its suit, its owner and class (5 bits); and how many there are.

    Two trick-start positions whose suits read the same, with the same other
    fields, have the same value: which cards of equal class are gone, and
    where in the rank order they were, cannot matter.
    """
    n = R[R_N]
    live = 0
    for seat in range(n):
        live |= S[d, seat]
    for s in range(4):
        W[d, 32 + s] = _popcount(live & _suit_mask(s)) << 52
    for seat in range(n):
        h = S[d, seat]
        while h:
            low = h & -h
            h ^= low
            i = _index(low)
            place = _popcount(live & _suit_mask(i >> 4) & (low - 1))
            W[d, 32 + (i >> 4)] |= (seat * 8 + C[C_CLASS, i]) << (5 * place)


@njit(cache=True, inline="always")
def _mix(h: int, x: int) -> int:
    h ^= x
    h *= -7046029254386353131
    h ^= (h >> 31) & 0x1FFFFFFFF
    return h


@njit(cache=True, inline="always")
def _last_trick(S: np.ndarray, d: int, R: np.ndarray, C: np.ndarray, ST: np.ndarray) -> int:
    """The gain from a trick start where every seat holds one card and nothing else can happen
    (no call, no stock, no card beneath): the forced last trick, or -1 if that is not the case."""
    if S[d, F_PHASE] != PH_PLAY or S[d, F_CANCALL] != 0 or _stock_left(S, d, R) != 0:
        return -1
    n = R[R_N]
    for seat in range(n):
        c = S[d, seat]
        if c == 0 or c & (c - 1) or C[C_UNDER, _index(c)] != 0:
            return -1
    leader = S[d, F_TURN]
    trump = S[d, F_TRUMP]
    lead = S[d, leader]
    lsuit = _index(lead) >> 4
    best = lead
    best_seat = leader
    btr = 0
    bt_seat = -1
    pts = 0
    pips = 0
    for seat in range(n):
        c = S[d, seat]
        i = _index(c)
        pts += C[C_PTS, i]
        pips += C[C_PIPS, i]
        suit = i >> 4
        if suit == lsuit and c > best:
            best = c
            best_seat = seat
        if suit == trump and c > btr:
            btr = c
            bt_seat = seat
    winner = bt_seat if btr != 0 else best_seat
    gain = 0
    pipdiff = S[d, F_PIPDIFF]
    if _is_max(R, winner):
        gain = pts + R[R_LAST]
        pipdiff += pips
    else:
        pipdiff -= pips
    if R[R_PIPVAL] != 0 and pipdiff > 0:
        gain += R[R_PIPVAL]
    return gain


# -- the search ---------------------------------------------------------------------------------------


@njit(cache=True)
def search(S: np.ndarray, d: int, alpha: int, beta: int, R: np.ndarray, C: np.ndarray,
           SD: np.ndarray, ST: np.ndarray, TK: np.ndarray, TB: np.ndarray,
           M: np.ndarray, SC: np.ndarray, W: np.ndarray, stats: np.ndarray) -> int:
    """The maximiser's gain from row ``d`` on, fail-soft within ``(alpha, beta)``."""
    stats[S_NODES] += 1
    slot = -1
    first = -1
    k0 = 0
    k1 = 0
    k2 = 0
    k3 = 0
    k4 = 0
    k5 = 0
    if S[d, F_POS] == 0:
        last = _last_trick(S, d, R, C, ST)
        if last >= 0:
            return last
        mine, theirs = safe_points(S, d, R, C, SD)
        ub = upper_bound(S, d, R, C, SD) - theirs
        if ub <= alpha:
            return ub
        if beta <= mine:
            return mine
        relative = _relative(S, d, R)
        if relative:
            _relative_key(S, d, R, C, W)
            k0 = W[d, 32]
            k1 = W[d, 33]
            k2 = W[d, 34]
            k3 = W[d, 35]
        else:
            k0 = S[d, 0]
            k1 = S[d, 1]
            k2 = S[d, 2]
            k3 = S[d, 3]
        k4 = _meta(S, d, R) * 2 + relative
        k5 = S[d, F_LT1] | S[d, F_LT2]
        h = _mix(_mix(_mix(_mix(_mix(_mix(0x1234567, k0), k1), k2), k3), k4), k5)
        slot = (h >> 7) & (TK.shape[0] - 1)
        if TB[slot, TB_GEN] == stats[S_GEN] and TK[slot, 0] == k0 and TK[slot, 1] == k1 \
                and TK[slot, 2] == k2 and TK[slot, 3] == k3 and TK[slot, 4] == k4 and TK[slot, 5] == k5:
            lb_t = int(TB[slot, TB_LB])  # int64 throughout: Numba's cache mishandles a
            ub_t = int(TB[slot, TB_UB])  # recursive function whose returns need casts
            if lb_t >= beta:
                return lb_t
            if ub_t <= alpha:
                return ub_t
            first = int(TB[slot, TB_MOVE])
        else:
            TK[slot, 0] = k0
            TK[slot, 1] = k1
            TK[slot, 2] = k2
            TK[slot, 3] = k3
            TK[slot, 4] = k4
            TK[slot, 5] = k5
            TB[slot, TB_GEN] = stats[S_GEN]
            TB[slot, TB_LB] = mine
            TB[slot, TB_UB] = ub
            TB[slot, TB_MOVE] = -1
    nm = gen_moves(S, d, R, C, SD, M, SC, W, first, False)
    is_max = _is_max(R, S[d, F_TURN])
    a = alpha
    b = beta
    best = -INF if is_max else INF
    best_move = -1
    for j in range(nm):
        mv = M[d, j]
        g = apply(S, d, mv, R, C, SD, ST)
        if S[d + 1, F_DONE] != 0:
            v = g
        else:
            v = g + search(S, d + 1, a - g, b - g, R, C, SD, ST, TK, TB, M, SC, W, stats)
        if is_max:
            if v > best:
                best = v
                best_move = mv
                if best >= b:
                    W[d, 36] = mv
                    break
                if best > a:
                    a = best
        else:
            if v < best:
                best = v
                best_move = mv
                if best <= a:
                    W[d, 36] = mv
                    break
                if best < b:
                    b = best
    if slot >= 0 and TK[slot, 0] == k0 and TK[slot, 1] == k1 and TK[slot, 2] == k2 \
            and TK[slot, 3] == k3 and TK[slot, 4] == k4 and TK[slot, 5] == k5 \
            and TB[slot, TB_GEN] == stats[S_GEN]:
        if best < beta and best < TB[slot, TB_UB]:
            TB[slot, TB_UB] = best
        if best > alpha and best > TB[slot, TB_LB]:
            TB[slot, TB_LB] = best
        TB[slot, TB_MOVE] = best_move
    return best


@njit(cache=True)
def exact(S: np.ndarray, d: int, guess: int, R: np.ndarray, C: np.ndarray, SD: np.ndarray,
          ST: np.ndarray, TK: np.ndarray, TB: np.ndarray, M: np.ndarray, SC: np.ndarray,
          W: np.ndarray, stats: np.ndarray) -> int:
    """The exact gain from row ``d``: null-window tests, the first at ``guess``, then halving
    the interval the fail-soft answers leave (points move in uneven steps, so stepping one
    point at a time, as MTD(f) does, would take many tests)."""
    lo = 0
    hi = upper_bound(S, d, R, C, SD)
    test = min(max(guess, lo + 1), hi) if guess >= 0 else (hi + 1) // 2
    while lo < hi:
        g = search(S, d, test - 1, test, R, C, SD, ST, TK, TB, M, SC, W, stats)
        if g >= test:
            lo = g
        else:
            hi = g
        test = (lo + hi + 1) // 2
    return lo


@njit(cache=True)
def _int(x: int) -> int:
    """``x`` typed as a plain int64, not as a literal."""
    return x + 0


@njit(cache=True)
def root_values(S: np.ndarray, R: np.ndarray, C: np.ndarray, SD: np.ndarray, ST: np.ndarray,
                TK: np.ndarray, TB: np.ndarray, M: np.ndarray, SC: np.ndarray, W: np.ndarray,
                stats: np.ndarray, out_moves: np.ndarray, out_values: np.ndarray) -> int:
    """Every legal move at row 0 and the maximiser's exact gain after it; return how many.

    Equivalent cards (see :func:`play_reps`) share one search.
    """
    # Depths are passed as int64 variables, never literals: Numba would compile a literal-typed
    # copy of the recursive search, which its cache then loads wrongly (numba issue 6713).
    top = _int(0)
    child = _int(1)
    nm = gen_moves(S, top, R, C, SD, M, SC, W, _int(-1), True)
    for j in range(nm):
        out_moves[j] = M[0, j]
    legal = legal_cards(S, top, R) if S[0, F_PHASE] == PH_PLAY else 0
    nc = play_reps(S, top, R, C, SD, legal, True, W)
    guess = _int(-1)  # none yet: start halfway
    for j in range(nm):
        mv = out_moves[j]
        if mv < 64:
            rep = 1 << mv
            for k in range(nc):
                if W[0, k] == rep:
                    rep = W[0, 16 + k]
            if rep != 1 << mv:
                done = False
                for i in range(j):
                    if out_moves[i] == _index(rep):
                        out_values[j] = out_values[i]
                        done = True
                if done:
                    continue
        g = apply(S, top, mv, R, C, SD, ST)
        if S[1, F_DONE] != 0:
            v = g
        else:
            v = g + exact(S, child, guess - g, R, C, SD, ST, TK, TB, M, SC, W, stats)
        out_values[j] = v
        guess = v
    return nm
