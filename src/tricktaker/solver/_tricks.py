"""The compiled search for trick-count games: alpha-beta on null windows.

This is the hot path of the solver, compiled with Numba.  It answers one
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
  winner of each trick won by rank, with the cards below it in its hand that
  no live card separates from it).  The entry stored for a position then
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
  card and short suits.  In a trick: the second hand plays low when its
  partner, last, wins anyway, else the cheapest card above the card led and
  the third hand's; the third hand plays low when its cards cannot matter,
  wins only above the fourth hand's top card, and otherwise first tries the
  card that makes the fourth hand spend its top card; the fourth hand wins as
  cheaply as it can, or plays low when its partner wins; discards come low
  from long suits, sparing a lone top card and the guard of the second card.
  A side that wants to lose tricks (nolo) orders the other way round: low
  leads into opponents who must win, the highest card that still loses,
  high discards (see :func:`moves_of`).
- **Quick tricks.**  A leader whose side holds the top cards of suits counts
  the sure tricks before searching: its own top cards (and its low cards of a
  suit once those top cards have drawn every other hand's cards there), then
  a suit where it holds the top card and its partner the next one (the top
  card, then a small card to the partner's); or, with an entry to its partner
  (a small card to a partner's top card, or that split suit), all the
  leader's sure tricks first and then the partner's (at most the tricks left:
  the partner plays its other cards to the leader's winners, and has enough of
  them exactly when the two counts fit in the tricks left).  A cut-off pins
  only the top cards it needed.  The second and third hands count them too:
  when their side holds the card that wins the trick whatever the opponent
  still to play does, it wins the trick and then cashes its top cards and,
  with an entry, its partner's, which often decides a test one or two cards
  into the trick.
- **No reference counting.**  Every helper of the search is inlined into it,
  and all of it is compiled without Numba's runtime (:func:`._bits.kernel`),
  with the caller owning the arrays (:func:`new_stack`): passing an array to a
  helper otherwise updates its reference count twice, atomically, and those
  updates took about a third of the time.
- **Prefetching.**  At a trick start the two table buckets are requested from
  memory first, and the sure tricks counted while they arrive.
- **Later tricks.**  A side on lead that needs every trick left fails when
  an opponent holds the top card of every suit its leader can lead, or when
  it can keep the lead only in suits whose top card it holds, each at most
  as often as its longest hand there, and those add up to fewer tricks.
"""

from __future__ import annotations

import numpy as np

from ._bits import SUIT_BITS, kernel
from ._bits import index as _index
from ._bits import popcount as _popcount
from ._bits import prefetch_row as _prefetch_row
from ._bits import suit_mask as _suit_mask
from ._bits import top as _top

BUCKET_BITS = 14
WAYS = 64
"""Entries per bucket.  An entry pinning every suit's top card goes to the bucket of its suit
lengths, leader and those cards' holders; any other to the bucket of the lengths and leader
alone.  A lookup scans both.  A bucket fills from its first way, so a scan stops at the first
way not in use; a full bucket replaces its oldest entry."""
TT_ROWS = (1 << BUCKET_BITS) * WAYS
KEY, MASK1, VALUE1, MASK2, VALUE2, BOUNDS, MOVE, CURSOR = range(8)
"""Columns of a table row: suit lengths; the two pattern words' masks and pinned values (the
leader in the top bits of the first); the generation and bounds (``gen << 16 | lower << 8 |
upper``); the card that last decided the position (tried first next time); and, in a
bucket's first row only, the generation and the way its next new entry replaces once every way
is in use (``gen << 16 | way``): the oldest entry goes first."""

NODES, GENERATION, TRICK_NODES = 0, 1, 2
"""Slots of the ``stats`` array: nodes searched, the table's generation, and the nodes that
start a trick (the count DDS reports as its nodes)."""

OPP_WEIGHT = 10
"""Lead ordering: score lost per card the opponents hold in the suit (a void opponent counts as
the cards in hand plus one).  10 searched the fewest nodes of 3, 6, 10 and 16."""

KILLER_WIN, HINT_WIN, KILLER_LOSE, HINT_LOSE = 126, 32, 47, 19
"""Lead ordering, four hands with partners opposite: the bonus for the lead that last cut at the
same depth and for the card a matching table entry names, when the card wins the trick (or lets
partner win it) and when it loses.  DDS's weights; moving both cards to the front instead
searched 1% more trick starts on 30 deals, and doubling or dropping the bonuses changed under 1%."""


def new_table() -> tuple[np.ndarray, np.ndarray]:
    """A fresh transposition table and its stats array (nodes searched, current generation)."""
    stats = np.zeros(4, dtype=np.int64)
    stats[GENERATION] = 1
    return np.zeros((TT_ROWS, 8), dtype=np.int64), stats


@kernel(inline=True)
def _suit_of(bit: int) -> int:
    return _index(bit) >> 4


@kernel(inline=True)
def _suit_pattern(live: int, h1: int, h2: int, h3: int, s: int) -> int:
    """One suit's pattern: two bits per live card (its holder), the highest card lowest.

    The holder's low bit is set for seats 1 and 3, its high bit for seats 2 and 3, so each
    card costs two tests and no branch on who holds it.
    """
    m = live & _suit_mask(s)
    odd = h1 | h3
    high = h2 | h3
    pat = 0
    while m:
        low = m & -m
        m ^= low
        pat = (pat << 2) | (1 if odd & low else 0) | (2 if high & low else 0)
    return pat


@kernel(inline=True)
def _patterns(hands: np.ndarray) -> tuple[int, int, int, int, int]:
    """Who holds each live card, and how many cards each hand holds of each suit.

    For each suit, a pattern with two bits per live card (the holder's seat),
    the highest card in the lowest two bits; and ``lengths``, one nibble per
    (seat, suit).  A stored entry pins the lowest ``2k`` bits of a pattern.
    """
    h1 = hands[1]
    h2 = hands[2]
    h3 = hands[3]
    live = hands[0] | h1 | h2 | h3
    lengths = 0
    for seat in range(4):
        for s in range(4):
            lengths |= _popcount(hands[seat] & _suit_mask(s)) << (4 * (4 * seat + s))
    return (lengths, _suit_pattern(live, h1, h2, h3, 0), _suit_pattern(live, h1, h2, h3, 1),
            _suit_pattern(live, h1, h2, h3, 2), _suit_pattern(live, h1, h2, h3, 3))


@kernel(inline=True)
def _bucket(lengths: int, leader: int, tops: int) -> int:
    """The first row of the bucket for suit lengths, leader and the holders of the top cards."""
    h = (lengths ^ (leader << 62)) * -7046029254386353131
    h ^= h >> 29
    h = (h ^ tops) * -4658895280553007687
    h ^= h >> 31
    h *= -7046029254386353131
    return ((h >> 20) & ((1 << BUCKET_BITS) - 1)) * WAYS


@kernel(inline=True)
def _top_cards(live: int, mask1: int, mask2: int) -> int:
    """The live cards an entry pins: the top ``k`` of each suit (two mask bits per card)."""
    out = 0
    for s in range(4):
        word = mask1 if s < 2 else mask2
        k = _popcount((word >> (32 * (s & 1))) & 0x3FFFFFF) >> 1
        m = live & _suit_mask(s)
        while k > 0 and m:  # (a for loop over range(k) here compiled to an endless loop)
            t = _top(m)
            out |= t
            m ^= t
            k -= 1
    return out


@kernel(inline=True)
def _store(tt: np.ndarray, base: int, lengths: int, mask1: int, value1: int, mask2: int,
           value2: int, gen: int, lower: int, upper: int, move: int) -> None:
    """Record bounds for an abstraction: merge with its entry, else take the first free way
    (a full bucket: its oldest entry's)."""
    row = -1
    for w in range(WAYS):
        bounds = tt[base + w, BOUNDS]
        if bounds >> 16 != gen:
            row = base + w
            break
        if tt[base + w, KEY] == lengths and tt[base + w, VALUE1] == value1 \
                and tt[base + w, VALUE2] == value2 and tt[base + w, MASK1] == mask1 \
                and tt[base + w, MASK2] == mask2:
            lo = max(lower, (bounds >> 8) & 0xFF)
            hi = min(upper, bounds & 0xFF)
            tt[base + w, BOUNDS] = gen << 16 | lo << 8 | hi
            if move:
                tt[base + w, MOVE] = move
            return
    if row < 0:
        cursor = tt[base, CURSOR]
        way = cursor & 0xFFFF if cursor >> 16 == gen else 0
        row = base + way
        tt[base, CURSOR] = gen << 16 | ((way + 1) & (WAYS - 1))
    tt[row, KEY] = lengths
    tt[row, MASK1] = mask1
    tt[row, VALUE1] = value1
    tt[row, MASK2] = mask2
    tt[row, VALUE2] = value2
    tt[row, BOUNDS] = gen << 16 | lower << 8 | upper
    tt[row, MOVE] = move


@kernel(inline=True)
def _lookup(tt: np.ndarray, base: int, lengths: int, word1: int, word2: int, gen: int,
            need: int) -> tuple[int, int]:
    """Scan a bucket for an entry matching the position whose bounds decide ``need`` more
    tricks: its row (or -1), and the card a matching entry last found best (or 0)."""
    hint = 0
    for row in range(base, base + WAYS):
        bounds = tt[row, BOUNDS]
        if bounds >> 16 != gen:
            break  # the bucket's ways in use end here
        if tt[row, KEY] != lengths or word1 & tt[row, MASK1] != tt[row, VALUE1] \
                or word2 & tt[row, MASK2] != tt[row, VALUE2]:
            continue
        if (bounds >> 8) & 0xFF >= need or bounds & 0xFF < need:
            return row, hint
        if tt[row, MOVE]:
            hint = tt[row, MOVE]
    return -1, hint


@kernel(inline=True)
def _holder(hands: np.ndarray, card: int) -> int:
    """The seat holding ``card``, or -1 (none, or no card)."""
    for seat in range(4):
        if hands[seat] & card:
            return seat
    return -1


@kernel(inline=True)
def _lead_scores(hands: np.ndarray, seat: int, lho: int, pd: int, rho: int, m_all: int,
                 moves: np.ndarray, scores: np.ndarray, first: int, last: int, seqs: int,
                 killer: int, hint: int) -> None:
    """Score the leads ``moves[first:last]`` of one suit, four hands with partners opposite;
    higher is better.

    The weights follow the shape of DDS's no-trump lead ordering: suits where
    the opponents hold few cards make small trees (a void opponent counts as
    the cards in hand plus one, for its free choice of discards); a card that
    wins the trick (or lets partner win it) goes early unless the second-best
    card sits over it; a finesse or a suit the side can set up (partner with
    the second and third cards) is tried before a low card away from the
    leader's own top card.  To a partner's top card the lowest card goes
    first, and ahead of the leader's own top cards (it keeps the leader's high
    cards and does not block the suit: 3.5% fewer trick starts on 30 deals
    than the highest card first, ranked with the leader's own top cards).
    ``seqs`` marks the cards with equivalent cards below them.  On 60 seeded
    deals this ordering searched about a quarter fewer nodes than the simpler
    one used for other seatings.
    """
    sm = m_all & -m_all
    sm = _suit_mask(_suit_of(sm))
    nl = _popcount(hands[lho] & sm)
    nr = _popcount(hands[rho] & sm)
    np_ = _popcount(hands[pd] & sm)
    rem = _popcount(hands[seat])
    base = -((nl if nl else rem + 1) + (nr if nr else rem + 1)) * 6
    if np_ == 0:
        base -= 9
    w = _top(m_all)
    w2 = _top(m_all ^ w)
    w3 = _top(m_all ^ w ^ w2)
    hw = _holder(hands, w)
    h2 = _holder(hands, w2)
    h3 = _holder(hands, w3)
    partner_wins = _top(hands[pd] & sm) > _top((hands[lho] | hands[rho]) & sm)
    # a card that wins (or lets partner win): better with the second-best card not over it
    win = base
    if h2 == rho:
        if nr != 1:
            win -= 1
    elif h2 == lho:
        win += 22 if nl != 1 else 16
    win += 45 if (h2 != lho or nl == 1) and (h2 != rho or nr == 1) else 18
    # a card that loses: a finesse, a suit to set up, a singleton top card to drop
    lose = base
    if hw == rho or h2 == rho:
        if nr != 1:
            lose -= 10
    elif hw == lho and h2 == pd:
        if np_ != 1:
            lose += 31
    if h2 == pd and h3 == pd:
        lose += 35
    elif (h2 == seat and h3 == pd and np_ > 1) or (h2 == pd and h3 == seat and np_ > 1):
        lose += 25
    drop = (nl == 1 and hw == lho) or (nr == 1 and hw == rho)
    for j in range(first, last):
        b = moves[j]
        rrank = _popcount(m_all & (b - 1)) + 2  # 2 for the lowest card
        if b == w or partner_wins:
            # to a partner's top card, low first, ranked with or above the leader's own winners
            scores[j] = win + (rrank if b == w or hw != pd else 16 - rrank) \
                + (KILLER_WIN if b == killer else HINT_WIN if b == hint else 0)
            continue
        elif drop:
            scores[j] = lose + 28 + rrank
        elif hw == seat:
            scores[j] = lose - 17 + rrank
        elif not seqs & b:
            scores[j] = lose + 12 + rrank
        elif b == w2:
            scores[j] = lose + 48
        else:
            scores[j] = lose + 29 - rrank
        if b == killer:
            scores[j] += KILLER_LOSE
        elif b == hint:
            scores[j] += HINT_LOSE


@kernel(inline=True)
def moves_of(hands: np.ndarray, order: np.ndarray, tsize: int, side: np.ndarray,
             leader: int, pos: int, lead_suit: int, best: int, best_seat: int, table: int,
             moves: np.ndarray, scores: np.ndarray, killer: int = 0, hint: int = 0,
             misere: bool = False) -> int:
    """Fill ``moves`` with the legal cards worth searching, best first; return how many.

    One card stands for each run of equivalent cards (no live card between
    them).  ``scores`` is scratch space of the same size.  The order is a
    guess at the best move, which is what makes the null-window searches cut
    early.  At a lead, ``killer`` (the lead that last cut at this depth) and
    ``hint`` (the card a matching table entry names) go early: with four
    hands and partners opposite as bonuses on their scores (DDS's weights), so
    a strong reason in the position can still outrank them; otherwise first.

    ``misere`` says the side to play wants to take few tricks itself (Tuppi's
    nolo: the counted side minimising its own tricks, or the other side
    maximising them).  Then the order turns round: lead the lowest card, first
    into a suit whose every opponent card is higher and last into one the
    opponents are void in; follow with the highest card that still loses,
    else (not last) the lowest; discard the highest.  On 10 random 10-card
    nolo deals this searched about 60% fewer nodes than the trick-winning order.
    """
    seat = order[leader, pos]
    hand = hands[seat]
    cand = hand
    if pos > 0 and hand & _suit_mask(lead_suit):
        cand = hand & _suit_mask(lead_suit)
    live = hands[0] | hands[1] | hands[2] | hands[3] | table
    nm = 0
    partner_wins = pos > 0 and side[best_seat] == side[seat]
    # four hands, partners opposite: the orderings below know who sits where
    we, they = side[order[leader, 0]], side[order[leader, 1]]
    partners = tsize == 4 and we != they and side[order[leader, 2]] == we and side[order[leader, 3]] == they
    third_best = 0
    fourth_top = 0
    fourth_low = 0
    force = 0
    if pos == 2 and tsize == 4:
        fourth = hands[order[leader, 3]] & _suit_mask(lead_suit)
        fourth_top = _top(fourth)
        fourth_low = fourth & -fourth
        mine_s = hand & _suit_mask(lead_suit)
        if fourth_top > best and fourth_top > _top(mine_s):
            # the fourth hand's best card below its top run of cards
            live_s = (hands[0] | hands[1] | hands[2] | hands[3] | table) & _suit_mask(lead_suit)
            rest4 = fourth ^ fourth_top
            above = fourth_top
            while rest4 and not live_s & (above - 1) & ~((_top(rest4) << 1) - 1):
                above = _top(rest4)
                rest4 ^= above
            second = _top(rest4)
            line = second if second > best else (best if side[best_seat] != side[seat] else 0)
            if line:
                over = mine_s & ~((line << 1) - 1)
                force = over & -over
    if pos == 1 and lead_suit >= 0:
        # the second hand wins cheaply with a card above the third hand's cards too
        third_best = _top(live & _suit_mask(lead_suit))
        if tsize == 4:
            third_best = _top(hands[order[leader, 2]] & _suit_mask(lead_suit) | best)
    for s in range(4):
        sm = _suit_mask(s)
        mine = cand & sm
        if mine == 0:
            continue
        length = _popcount(hand & sm)
        m_all = live & sm
        opp_cards = 0
        if pos == 0 and not partners and not misere:
            # a suit where the opponents hold few cards makes a small tree; a void opponent
            # counts as many cards, for its free choice of discards
            for i in range(1, tsize):
                other = order[leader, i]
                if side[other] != side[seat]:
                    n_other = _popcount(hands[other] & sm)
                    opp_cards += OPP_WEIGHT * (n_other if n_other else _popcount(hand) + 1)
        top = _top(m_all)
        others = m_all & ~mine
        first = nm
        rest = mine
        prev = 0
        seqs = 0
        while rest:
            low = rest & -rest
            rest ^= low
            if prev and not others & (low - 1) & ~((prev << 1) - 1):
                moves[nm - 1] = low  # equivalent to the card below it: keep one
                seqs |= low
            else:
                moves[nm] = low
                nm += 1
            prev = low
        partner_top = False
        opp = 0  # the opponents' cards of the suit, for a misere lead
        if pos == 0 and misere:
            for i in range(1, tsize):
                if side[order[leader, i]] != side[seat]:
                    opp |= hands[order[leader, i]] & sm
        elif pos == 0 and partners:
            _lead_scores(hands, seat, order[leader, 1], order[leader, 2], order[leader, 3], m_all, moves,
                         scores, first, nm, seqs, killer, hint)
        elif pos == 0:
            for i in range(1, tsize):
                other = order[leader, i]
                if side[other] == side[seat] and hands[other] & top:
                    partner_top = True
        for j in range(first, nm):
            b = moves[j]
            rank = _index(b) - s * SUIT_BITS
            if misere:
                # this side wants to lose tricks: lead low, into opponents who must win; duck
                # with the highest card that loses; discard high
                if pos == 0:
                    sc = 100 - rank
                    if opp and not opp & (b - 1):
                        sc += 30  # every opponent's card of the suit is higher: they must win
                    elif not opp:
                        sc -= 40  # the opponents are void: the lead wins for this side
                elif s != lead_suit:
                    sc = 100 + rank
                elif b < best:
                    sc = 100 + rank
                elif pos < tsize - 1:
                    sc = 50 - rank
                else:
                    sc = 50 + rank
            elif pos == 0 and partners:
                sc = scores[j]  # scored for the whole suit above
            elif pos == 0:
                if b == top:
                    sc = 100 + rank - opp_cards
                else:
                    sc = (80 - rank if partner_top else 40 - rank + 2 * length) - opp_cards
            elif s != lead_suit:
                # a discard: low from a long suit, not a lone top card nor the guard of a second
                sc = 30 - rank + 3 * length
                if length == 1 and hand & top:
                    sc -= 8
                elif length == 2 and hand & _top(m_all ^ top):
                    sc -= 6
            elif pos == 1 and partners and _top(hands[order[leader, 3]] & sm) > third_best:
                sc = 50 - rank  # partner, last to play, beats the others anyway: play low
            elif pos == 2 and partners and (not partner_wins or best < fourth_top) \
                    and (_top(mine) < best or _top(mine) < fourth_low):
                sc = 50 - rank  # our cards are too low to matter: play low
            elif pos == 2 and partners and not (partner_wins and best > fourth_top):
                sc = 100 - rank if b > best and b > fourth_top else 50 - rank
                if b == force:
                    sc += 20  # the cheapest card that makes the fourth hand spend its top card
            elif partner_wins:
                sc = 50 - rank if b < best else 10 - rank
            elif b > best and (pos == tsize - 1 or pos > 1 or b > third_best):
                sc = 100 - rank  # the cheapest card that wins (second hand: beats the third's)
            else:
                sc = 50 - rank
            scores[j] = sc
    for i in range(1, nm):  # insertion sort, best first
        mv = moves[i]
        sc = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < sc:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = mv
        scores[j + 1] = sc
    if pos == 0 and (misere or not partners):
        # the lead that last cut at this depth goes first, then the card that decided a matching
        # position (the other way round searched 1-2% more nodes)
        for first in (hint, killer):
            if first:
                for j in range(1, nm):
                    if moves[j] == first:
                        for i in range(j, 0, -1):
                            moves[i] = moves[i - 1]
                        moves[0] = first
                        break
    return nm


@kernel(inline=True)
def _longest_other(hands: np.ndarray, seat: int, sm: int) -> int:
    """The most cards of a suit (mask ``sm``) any hand but ``seat``'s holds."""
    longest = 0
    for o in range(4):
        if o != seat:
            longest = max(longest, _popcount(hands[o] & sm))
    return longest


@kernel(inline=True)
def _runs(live: int, hands: np.ndarray, seat: int, skip_suit: int) -> tuple[int, int, int]:
    """A hand's sure tricks if it keeps the lead: how many, the cards they pin, and the suits
    (bit per suit) whose top card it holds.

    In each suit the hand cashes its unbroken run of top cards; when no other hand holds more
    cards of the suit than that run, the others are void by then and the hand's low cards of
    the suit win too.  Only the run is pinned: the lengths, part of every table key, carry the
    rest.  ``skip_suit`` (or -1) is left out.
    """
    own = hands[seat]
    q = 0
    run = 0
    tops = 0
    for s in range(4):
        sm = _suit_mask(s)
        m = live & sm
        if s == skip_suit or not (m and own & _top(m)):
            continue
        tops |= 1 << s
        r = 0
        while m and own & _top(m):
            t = _top(m)
            run |= t
            m ^= t
            r += 1
        q += r
        if own & m and _longest_other(hands, seat, sm) <= r:
            q += _popcount(own & m)
    return q, run, tops


@kernel(inline=True)
def _split_suit(live: int, hands: np.ndarray, seat: int, mate: int, skip_suit: int) -> int:
    """A suit where ``seat`` holds the top card and its partner ``mate`` the next one, each with
    a second card: both cards (0 if there is none).

    ``seat`` cashes its top card and leads a small card to the partner's, which is then the top
    card: one trick more than the top card alone, with the lead passing to the partner, so it
    is counted after the hand's own sure tricks.  ``skip_suit`` (or -1) is left out.
    """
    for s in range(4):
        if s == skip_suit:
            continue
        sm = _suit_mask(s)
        m = live & sm
        t = _top(m)
        t2 = _top(m ^ t)
        if hands[seat] & t and hands[mate] & t2 and _popcount(hands[seat] & sm) >= 2 \
                and _popcount(hands[mate] & sm) >= 2:
            return t | t2
    return 0


@kernel(inline=True)
def _partner_tricks(live: int, hands: np.ndarray, seat: int, mate: int, skip_suit: int) -> tuple[int, int]:
    """The sure tricks of ``seat``'s partner ``mate`` that ``seat`` can reach, and the cards they
    pin; (-1, 0) without an entry.

    An entry is a card of a suit whose top card the partner holds, or else a split suit (one
    trick more, see :func:`_split_suit`).  ``skip_suit`` (or -1) is left out.
    """
    qp, runp, tops = _runs(live, hands, mate, skip_suit)
    for s in range(4):
        if tops >> s & 1 and hands[seat] & _suit_mask(s):
            return qp, runp
    split = _split_suit(live, hands, seat, mate, skip_suit)
    if split:
        return qp + 1, runp | split
    return -1, 0


@kernel(inline=True)
def _pins(live: int, hands: np.ndarray, seat: int, skip_suit: int, need: int) -> int:
    """The fewest cards to pin for ``need`` of the sure tricks :func:`_runs` counts.

    A cut-off needs only enough sure tricks, so only the top cards of the runs that make them
    up are pinned (all of a run only where its long cards are counted too): fewer pinned cards
    let the table entry serve more positions.
    """
    own = hands[seat]
    pin = 0
    for s in range(4):
        if need <= 0:
            break
        sm = _suit_mask(s)
        m = live & sm
        if s == skip_suit or not (m and own & _top(m)):
            continue
        r = 0
        cards = 0
        while m and own & _top(m):
            t = _top(m)
            cards |= t
            m ^= t
            r += 1
            if r == need:
                break
        if r < need and own & m and _longest_other(hands, seat, sm) <= r:
            need -= _popcount(own & sm)
        else:
            need -= r
        pin |= cards
    return pin


@kernel(inline=True)
def _trick_won(f: np.ndarray, d: int, hands: np.ndarray, order: np.ndarray, side: np.ndarray,
               maxside: int, counted: int, target: int) -> int:
    """Quick tricks for the side of the second or third hand (four hands, partners opposite):
    answer at once, or -1.

    When that side holds the card that wins this trick whatever is played (the hand to play
    or its partner holds a card of the suit led above every card of it still to come from the
    opponent after it, or, third hand, the partner's card on the table is that card), the hand
    with that card leads next.  It cashes its sure tricks in the other suits and its next
    cards of the suit led while they are the top ones (3% fewer trick starts), and with an
    entry to its partner (a card of a suit whose top card the partner holds, or a split suit
    outside the suit led: see :func:`_split_suit`) the partner's after them, as a leader does in
    :func:`_enter` (the partner plays its other cards to this trick and to the winner's; the
    tricks left cap the count).  If those decide the target, the trick need not be searched: the
    winning card and the cashed runs are pinned.  On 30 full deals the partner's tricks here
    took 18% off the trick starts, and the third hand's turn another 5%.
    """
    leader = f[d, F_LEADER]
    pos = f[d, F_POS]
    seat = order[leader, pos]
    # the hand to play's partner, and the opponent still to play after it
    mate = order[leader, 3] if pos == 1 else leader
    third = order[leader, 2] if pos == 1 else order[leader, 3]
    sside = side[seat]
    if side[mate] != sside or side[third] == sside or (sside == counted) != (sside == maxside):
        return -1
    sm = _suit_mask(f[d, F_LEAD_SUIT])
    best = f[d, F_BEST]
    ours = hands[seat] & sm
    if pos == 1:
        ours |= hands[mate] & sm
    elif side[f[d, F_BEST_SEAT]] == sside:
        ours |= best  # the partner's card is winning so far
    if not ours:
        return -1
    t = _top(ours | (hands[third] & sm) | best)
    if not ours & t:
        return -1
    won = f[d, F_WON]
    rem = _popcount(hands[seat])
    hh = seat if hands[seat] & t else mate
    live = hands[0] | hands[1] | hands[2] | hands[3]
    q, run, _ = _runs(live, hands, hh, f[d, F_LEAD_SUIT])
    # this trick, then the winner's next cards of the suit led while they are the top ones
    # (counted after its other sure tricks, so that a cut-off pins them only when needed)
    q_other = q
    q += 1
    m = live & sm & ~t
    while m and hands[hh] & _top(m):
        run |= _top(m)
        m ^= _top(m)
        q += 1
    # the sure tricks after this one that decide the test: for the counted side enough to reach
    # the target, for the other side enough to keep the counted side below it
    need = target - won - 1 if sside == counted else won + rem - target
    if q - 1 >= need:
        pins = _pins(live, hands, hh, f[d, F_LEAD_SUIT], need) | t
        m = live & sm & ~t
        while need > q_other:
            pins |= _top(m)
            m ^= _top(m)
            need -= 1
        f[d, F_RELEVANT] = pins
        return 1 if sside == counted else 0
    # with an entry to its partner, the winner cashes its sure tricks and then the partner's, as a
    # leader does (see _enter)
    qp, runp = _partner_tricks(live, hands, hh, mate if hh == seat else seat, f[d, F_LEAD_SUIT])
    if qp >= 0 and min(rem - 1, q - 1 + qp) >= need:
        f[d, F_RELEVANT] = run | runp | t
        return 1 if sside == counted else 0
    return -1


# Fields of one frame of the explicit search stack (one frame per card played).
(F_LEADER, F_POS, F_LEAD_SUIT, F_BEST, F_BEST_SEAT, F_TABLE, F_WON, F_HAND, F_NM, F_J, F_RESULT,
 F_RELEVANT, F_BASE, F_LENGTHS, F_PA, F_PB, F_PC, F_PD, F_NEXT_SUIT, F_NEXT_BEST, F_BASE2, F_SKIP) = range(22)
F_COUNT = 22
MAX_DEPTH = 64


def new_stack() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Scratch space for :func:`search`: its frames, each frame's moves, move scores, and the
    last card that cut at each depth.  The caller owns them, so the compiled search allocates
    nothing and needs no reference counting (it is compiled without Numba's runtime)."""
    return (np.zeros((MAX_DEPTH, F_COUNT), dtype=np.int64), np.zeros((MAX_DEPTH, 13), dtype=np.int64),
            np.zeros(13, dtype=np.int64), np.zeros(MAX_DEPTH, dtype=np.int64))


@kernel(inline=True)
def _enter(f: np.ndarray, mv: np.ndarray, sc: np.ndarray, d: int, hands: np.ndarray,
           order: np.ndarray, tsize: int, side: np.ndarray, maxside: int, counted: int,
           target: int, tt: np.ndarray, gen: int, killers: np.ndarray) -> int:
    """Open frame ``d``: answer at once (0 fails, 1 makes), or list its moves (-1).

    ``killers[d]`` is the last card that cut at depth ``d``, tried early.
    """
    leader = f[d, F_LEADER]
    pos = f[d, F_POS]
    won = f[d, F_WON]
    f[d, F_BASE] = -1
    f[d, F_RELEVANT] = 0
    f[d, F_SKIP] = 0
    hint = 0
    if pos == 0:
        rem = _popcount(hands[leader])
        if won >= target:
            return 1
        if won + rem < target:
            return 0
        lengths, pa, pb, pc, pd = _patterns(hands)
        # entries pinning every suit's top card live in a bucket keyed by those cards' holders
        # too; the others in the bucket of the lengths alone
        base = _bucket(lengths, leader, (pa & 3) | (pb & 3) << 2 | (pc & 3) << 4 | (pd & 3) << 6 | 256)
        base2 = _bucket(lengths, leader, 0)
        # the two buckets are fetched from memory while the sure tricks are counted
        _prefetch_row(tt, base)  # type: ignore[call-arg]  # (the typing context is Numba's)
        _prefetch_row(tt, base2)
        lside = side[leader]
        if (lside == counted) == (lside == maxside):
            # the leader's side wants tricks for itself: its top cards are sure tricks
            live = hands[0] | hands[1] | hands[2] | hands[3]
            q, run, _ = _runs(live, hands, leader, -1)
            q_own = q
            run_own = run
            solo = True
            for i in range(1, tsize):
                p = order[leader, i]
                if side[p] != lside:
                    continue
                qp, runp = _partner_tricks(live, hands, leader, p, -1)
                if qp < 0:
                    continue
                # the leader cashes all its own sure tricks first while the partner plays its other
                # cards (it has rem - qp of them), then crosses to the partner's: of the two counts,
                # as many as the tricks left allow
                qp = min(rem, qp + q_own)
                runp |= run_own
                if qp > q:
                    q = qp
                    run = runp
                    solo = False
            if solo and tsize == 4 and side[order[leader, 2]] == lside:
                # last, the leader's top card over its partner's next one: one more trick
                split = _split_suit(live, hands, leader, order[leader, 2], -1)
                if split:
                    q += 1
                    run |= split
                    solo = False
            if lside == counted and won + q >= target:
                f[d, F_RELEVANT] = _pins(live, hands, leader, -1, target - won) if solo else run
                return 1
            if lside != counted and won + rem - q < target:
                f[d, F_RELEVANT] = _pins(live, hands, leader, -1, won + rem - target + 1) if solo else run
                return 0
            # later tricks: a side on lead that needs every trick left keeps the lead only by
            # leading suits whose top card it holds, each at most as often as its longest hand there
            need_all = target - won == rem if lside == counted else target - won == 1
            if need_all and lside != counted:
                for i in range(1, tsize):
                    if side[order[leader, i]] != lside and side[order[leader, i]] != counted:
                        need_all = False  # a third side may take the trick the counted side needs
            if need_all:
                # every suit the leader can lead is topped by an opponent: the lead loses a trick
                pin = 0
                lost = True
                for s in range(4):
                    sm = _suit_mask(s)
                    if hands[leader] & sm:
                        t = _top(live & sm)
                        for i in range(tsize):
                            if side[order[leader, i]] == lside and hands[order[leader, i]] & t:
                                lost = False
                        pin |= t
                if lost:
                    f[d, F_RELEVANT] = pin
                    return 0 if lside == counted else 1
                lsum = 0
                pin = 0
                for s in range(4):
                    sm = _suit_mask(s)
                    m = live & sm
                    if not m:
                        continue
                    t = _top(m)
                    mx = 0
                    ours = False
                    for i in range(tsize):
                        p = order[leader, i]
                        if side[p] == lside:
                            mx = max(mx, _popcount(hands[p] & sm))
                            if hands[p] & t:
                                ours = True
                    if ours:
                        lsum += mx
                    elif mx:
                        pin |= t  # an opponent's top card, in a suit the leader's side holds
                if lsum < rem:
                    f[d, F_RELEVANT] = pin
                    return 0 if lside == counted else 1
        word1 = pa | pb << 32 | leader << 62
        word2 = pc | pd << 32
        for base_row in (base, base2):
            row, move = _lookup(tt, base_row, lengths, word1, word2, gen, target - won)
            if move:
                hint = move
            if row >= 0:
                live = hands[0] | hands[1] | hands[2] | hands[3]
                f[d, F_RELEVANT] = _top_cards(live, tt[row, MASK1], tt[row, MASK2])
                return 1 if (tt[row, BOUNDS] >> 8) & 0xFF >= target - won else 0
        f[d, F_BASE] = base
        f[d, F_BASE2] = base2
        f[d, F_LENGTHS] = lengths
        f[d, F_PA] = pa
        f[d, F_PB] = pb
        f[d, F_PC] = pc
        f[d, F_PD] = pd
    elif (pos == 1 or pos == 2) and tsize == 4:
        ans = _trick_won(f, d, hands, order, side, maxside, counted, target)
        if ans >= 0:
            return ans
    seat = order[leader, pos]
    f[d, F_HAND] = hands[seat]
    f[d, F_NM] = moves_of(hands, order, tsize, side, leader, pos, f[d, F_LEAD_SUIT], f[d, F_BEST],
                          f[d, F_BEST_SEAT], f[d, F_TABLE], mv[d], sc, killers[d], hint,
                          (side[seat] == counted) != (side[seat] == maxside))
    f[d, F_J] = 0
    f[d, F_RESULT] = 0 if side[seat] == maxside else 1
    return -1


@kernel(inline=True)
def _push(f: np.ndarray, mv: np.ndarray, d: int, hands: np.ndarray, order: np.ndarray, tsize: int,
          side: np.ndarray, counted: int) -> None:
    """Play frame ``d``'s current move and set up frame ``d + 1`` for the position after it."""
    leader = f[d, F_LEADER]
    pos = f[d, F_POS]
    seat = order[leader, pos]
    b = mv[d, f[d, F_J]]
    best = f[d, F_BEST]
    if pos == 0:
        nls = _suit_of(b)
        nbest = b
        nseat = seat
    else:
        nls = f[d, F_LEAD_SUIT]
        if b > best and _suit_of(b) == nls:
            nbest = b
            nseat = seat
        else:
            nbest = best
            nseat = f[d, F_BEST_SEAT]
    hands[seat] = f[d, F_HAND] ^ b
    f[d, F_NEXT_SUIT] = nls
    f[d, F_NEXT_BEST] = nbest
    e = d + 1
    if pos == tsize - 1:
        f[e, F_LEADER] = nseat
        f[e, F_POS] = 0
        f[e, F_LEAD_SUIT] = -1
        f[e, F_BEST] = 0
        f[e, F_BEST_SEAT] = -1
        f[e, F_TABLE] = 0
        f[e, F_WON] = f[d, F_WON] + (1 if side[nseat] == counted else 0)
    else:
        f[e, F_LEADER] = leader
        f[e, F_POS] = pos + 1
        f[e, F_LEAD_SUIT] = nls
        f[e, F_BEST] = nbest
        f[e, F_BEST_SEAT] = nseat
        f[e, F_TABLE] = f[d, F_TABLE] | b
        f[e, F_WON] = f[d, F_WON]


@kernel(inline=True)
def _close(f: np.ndarray, mv: np.ndarray, d: int, hands: np.ndarray, target: int, tt: np.ndarray,
           gen: int) -> None:
    """Store frame ``d``'s answer in the table (trick starts only), pinning its relevant cards."""
    base = f[d, F_BASE]
    if base < 0:
        return
    leader = f[d, F_LEADER]
    won = f[d, F_WON]
    relevant = f[d, F_RELEVANT]
    rem = _popcount(hands[leader])
    live = hands[0] | hands[1] | hands[2] | hands[3]
    mask1 = -(1 << 62)  # the leader: bits 62 and 63
    mask2 = 0
    for s in range(4):
        r_s = relevant & _suit_mask(s)
        k = 0
        if r_s:
            low = r_s & -r_s
            k = _popcount(live & _suit_mask(s) & ~(low - 1))
        elif live & _suit_mask(s):
            base = f[d, F_BASE2]
        m = (1 << (2 * k)) - 1
        if s < 2:
            mask1 |= m << (32 * s)
        else:
            mask2 |= m << (32 * (s - 2))
    value1 = (f[d, F_PA] | f[d, F_PB] << 32 | leader << 62) & mask1
    value2 = (f[d, F_PC] | f[d, F_PD] << 32) & mask2
    move = mv[d, f[d, F_J]] if f[d, F_J] < f[d, F_NM] else 0
    if f[d, F_RESULT]:
        _store(tt, base, f[d, F_LENGTHS], mask1, value1, mask2, value2, gen, target - won, rem, move)
    else:
        _store(tt, base, f[d, F_LENGTHS], mask1, value1, mask2, value2, gen, 0, target - won - 1,
               move)


@kernel()
def search(hands: np.ndarray, order: np.ndarray, tsize: int, side: np.ndarray,
           maxside: int, counted: int,
           leader: int, pos: int, lead_suit: int, best: int, best_seat: int, table: int,
           won: int, target: int, tt: np.ndarray, stats: np.ndarray, f: np.ndarray, mv: np.ndarray,
           sc: np.ndarray, killers: np.ndarray) -> tuple[bool, int]:
    """Whether ``maxside`` can make ``counted`` take at least ``target`` tricks in all,
    and the cards whose rank decided it.

    ``won`` is what the counted side has taken since the search's root.  The
    trick in progress is ``lead_suit``, the ``best`` card so far and its
    ``best_seat``, and the ``table`` mask of its cards (``pos`` cards played).
    The search is a depth-first walk over an explicit stack of frames (one per
    card), so it compiles to one loop and caches cleanly.  ``hands`` is
    restored before returning.
    """
    gen = stats[GENERATION]
    killers[:] = 0
    f[0, F_LEADER] = leader
    f[0, F_POS] = pos
    f[0, F_LEAD_SUIT] = lead_suit
    f[0, F_BEST] = best
    f[0, F_BEST_SEAT] = best_seat
    f[0, F_TABLE] = table
    f[0, F_WON] = won
    d = 0
    entering = True
    answer = 0
    relevant = 0
    while True:
        if entering:
            stats[NODES] += 1
            if f[d, F_POS] == 0 and d > 0:
                stats[TRICK_NODES] += 1
            answer = _enter(f, mv, sc, d, hands, order, tsize, side, maxside, counted, target, tt, gen,
                            killers)
            if answer < 0:
                _push(f, mv, d, hands, order, tsize, side, counted)
                d += 1
                continue
            relevant = f[d, F_RELEVANT]
        else:
            # back in frame d with the child's (answer, relevant): take the move back
            seat = order[f[d, F_LEADER], f[d, F_POS]]
            hands[seat] = f[d, F_HAND]
            if f[d, F_POS] == tsize - 1:
                # the winner decided the trick by rank if it beat a card of its suit: pin it and
                # the cards below it in its hand that no live card separates from it
                b = mv[d, f[d, F_J]]
                nbest = f[d, F_NEXT_BEST]
                sm = _suit_mask(f[d, F_NEXT_SUIT])
                if (f[d, F_TABLE] | b) & sm & ~nbest:
                    wh = hands[seat if nbest == b else f[d, F_BEST_SEAT]]
                    below = (hands[0] | hands[1] | hands[2] | hands[3] | f[d, F_TABLE] | b) & sm & (nbest - 1)
                    run = nbest
                    while below:
                        t = _top(below)
                        if not wh & t:
                            break
                        run |= t
                        below ^= t
                    relevant |= run
            is_max = side[seat] == maxside
            if (answer == 1) == is_max:
                killers[d] = mv[d, f[d, F_J]]
                f[d, F_RESULT] = answer
                f[d, F_RELEVANT] = relevant
            else:
                acc = f[d, F_RELEVANT] | relevant
                f[d, F_RELEVANT] = acc
                # the failed card was below every relevant card of its suit: so are the hand's
                # other cards below them, and they fail alike
                b = mv[d, f[d, F_J]]
                sm = _suit_mask(_suit_of(b))
                r_s = acc & sm
                low = r_s & -r_s if r_s else sm
                if b < low:
                    f[d, F_SKIP] |= (low - 1) & sm
                j = f[d, F_J] + 1
                while j < f[d, F_NM] and mv[d, j] & f[d, F_SKIP]:
                    j += 1
                f[d, F_J] = j
                if f[d, F_J] < f[d, F_NM]:
                    _push(f, mv, d, hands, order, tsize, side, counted)
                    d += 1
                    entering = True
                    continue
            _close(f, mv, d, hands, target, tt, gen)
            answer = f[d, F_RESULT]
            relevant = f[d, F_RELEVANT]
        # frame d is answered: return to its parent
        if d == 0:
            return answer == 1, relevant
        d -= 1
        entering = False
