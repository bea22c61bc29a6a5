/* The native search for trick-count games: alpha-beta on null windows (no trumps).
 *
 * This is the hot path of the Tuppi solver, compiled when the package is installed.  The
 * algorithm, and why each part is there, is described in _tricks.py's docstring; this file
 * follows it function for function (the comments name the Python helpers they came from), so
 * the two searched exactly the same nodes when the kernel was ported from Numba.
 *
 * A position is four hands as int64 card masks in strength layout (bit suit * 16 + strength),
 * the trick on the table, and who leads; order[leader][i] is the i-th seat to play in a trick
 * that leader leads, so three-handed tricks (sooli) use the same code.
 *
 * The transposition table and the stats array belong to the caller (numpy arrays, reached
 * through the buffer protocol); the search stack lives on the C stack of each call, so calls
 * on different tables may run in parallel threads: the search releases the GIL while it runs.
 */
#include "_kernel.h"

/* -- layout: the Python shim (_tricks.py) checks these against its own constants ----------- */

#define BUCKET_BITS 15
#define WAYS 64
#define TT_ROWS ((i64)(1 << BUCKET_BITS) * WAYS)
#define TT_COLS 4
enum { KEY, VALUE1, VALUE2, META };
enum { NODES, GENERATION, TRICK_NODES };
#define STATS_SIZE 4
/* Generations are 32 bits of an entry's META: the shim starts the table afresh before this. */
#define GEN_LIMIT ((i64)1 << 31)
#define OPP_WEIGHT 10
#define KILLER_WIN 126
#define HINT_WIN 32
#define KILLER_LOSE 47
#define HINT_LOSE 19
#define MAX_DEPTH 64
#define MAX_MOVES 13
/* The rows of each of a trick start's two buckets asked for while its quick tricks are counted
 * (two rows a cache line): a lookup reads about ten entries and waited on them one by one
 * (docs/solver.md, "Tuppi rami against DDS, deal by deal"). */
#define PREFETCH_WAYS 16

/* One frame of the explicit search stack (one frame per card played). */
typedef struct {
    i64 leader, pos, lead_suit, best, best_seat, table, won, hand, nm, j, result, relevant, base,
        lengths, pa, pb, pc, pd, next_suit, next_best, base2, skip;
} Frame;

/* Everything one search reads and writes. */
typedef struct {
    i64 *hands;      /* [4], played down and restored */
    const i64 *order; /* [4][4] */
    const i64 *side;  /* [4] */
    int tsize;
    i64 maxside, counted, target, gen;
    i64 *tt;          /* [TT_ROWS][TT_COLS] */
    volatile i64 *locks; /* the table's locks when searches in other threads share it (else NULL) */
    Frame f[MAX_DEPTH];
    i64 mv[MAX_DEPTH][MAX_MOVES];
    i64 sc[MAX_MOVES];
    i64 killers[MAX_DEPTH];
} Search;

#define ORDER(order, leader, i) ((order)[(leader) * 4 + (i)])
#define ROW(tt, row) ((tt) + (row) * TT_COLS)

TT_INLINE i64 imax(i64 a, i64 b) { return a > b ? a : b; }
TT_INLINE i64 imin(i64 a, i64 b) { return a < b ? a : b; }
TT_INLINE i64 shl(i64 x, int n) { return (i64)((u64)x << n); }

/* _suit_pattern: one suit's pattern, two bits per live card (its holder), the highest card lowest. */
TT_INLINE i64 suit_pattern(i64 live, i64 h1, i64 h2, i64 h3, int s) {
    i64 m = live & suit_mask(s);
    i64 odd = h1 | h3, high = h2 | h3;
    i64 pat = 0;
    while (m) {
        i64 low = m & -m;
        m ^= low;
        pat = shl(pat, 2) | ((odd & low) ? 1 : 0) | ((high & low) ? 2 : 0);
    }
    return pat;
}

/* _patterns: suit lengths (a nibble per seat and suit) and each suit's pattern. */
TT_INLINE void patterns(const i64 *hands, i64 *lengths, i64 *pat) {
    i64 h1 = hands[1], h2 = hands[2], h3 = hands[3];
    i64 live = hands[0] | h1 | h2 | h3;
    u64 len = 0;
    for (int seat = 0; seat < 4; seat++)
        for (int s = 0; s < 4; s++)
            len |= (u64)popcount(hands[seat] & suit_mask(s)) << (4 * (4 * seat + s));
    *lengths = (i64)len;
    for (int s = 0; s < 4; s++) pat[s] = suit_pattern(live, h1, h2, h3, s);
}

/* The suit lengths and patterns of a trick start from those of the trick start before it (prev),
 * the trick's cards (played) taken out, rather than from every live card: a card's place in its
 * suit's pattern counts the live cards above it, and the pattern's two bits there are its holder. */
TT_INLINE void patterns_after(const Frame *prev, i64 live, i64 played, i64 *lengths, i64 *pat) {
    u64 len = (u64)prev->lengths;
    pat[0] = prev->pa;
    pat[1] = prev->pb;
    pat[2] = prev->pc;
    pat[3] = prev->pd;
    i64 held = live | played; /* the cards the patterns hold, as the cards leave them */
    while (played) {
        i64 c = played & -played;
        played ^= c;
        int s = suit_of(c);
        int place = popcount(held & suit_mask(s) & ~((c << 1) - 1));
        i64 p = pat[s];
        int seat = (int)((p >> (2 * place)) & 3);
        i64 below = ((i64)1 << (2 * place)) - 1;
        pat[s] = (p & below) | ((p >> 2) & ~below);
        len -= (u64)1 << (4 * (4 * seat + s));
        held ^= c;
    }
    *lengths = (i64)len;
}

/* _bucket: the first row of the bucket for suit lengths, leader and the top cards' holders.
 * Numba's arithmetic: wrapping int64 products, arithmetic right shifts. */
TT_INLINE i64 bucket(i64 lengths, i64 leader, i64 tops) {
    i64 h = (i64)((u64)(lengths ^ shl(leader, 62)) * (u64)(i64)-7046029254386353131LL);
    h ^= h >> 29;
    h = (i64)((u64)(h ^ tops) * (u64)(i64)-4658895280553007687LL);
    h ^= h >> 31;
    h = (i64)((u64)h * (u64)(i64)-7046029254386353131LL);
    return ((h >> 20) & ((1 << BUCKET_BITS) - 1)) * WAYS;
}

/* Which bucket an entry goes to (bucket()'s last argument, with the holders of the cards
 * named).  An entry pinning every live suit's top card goes to the bucket of its suit lengths,
 * leader and those cards' holders (KEY_TOPS), any other to the bucket of the lengths and leader
 * alone (KEY_NONE); a lookup scans both.  Once such a bucket is full (its header holds the
 * search's generation), an entry it would take that pins more gets a finer bucket, and a
 * lookup that finds the bucket full scans that one too: from the lengths' bucket, an entry
 * leaving one suit u unpinned goes to the bucket of the other suits' top cards' holders and u
 * (KEY_BUT); from the top cards' bucket, an entry pinning each suit's two top cards (or its
 * only one) to the bucket of those cards' holders (KEY_TWO).  In a deep search every
 * position of some suit lengths and leader would otherwise crowd into one or two buckets, and
 * a look-up in a full bucket reads every way (docs/solver.md, "Full deals are bound by the
 * table"). */
enum { KEY_NONE = 0, KEY_TOPS = 1 << 8, KEY_BUT = 1 << 9, KEY_TWO = 1 << 20 };

/* The holders of the top places cards of each suit (patterns pa-pd), places * 2 bits a suit. */
TT_INLINE i64 holders(i64 pa, i64 pb, i64 pc, i64 pd, int places) {
    i64 m = ((i64)1 << (2 * places)) - 1;
    return (pa & m) | (pb & m) << (2 * places) | (pc & m) << (4 * places) | (pd & m) << (6 * places);
}

/* The finer bucket of an entry that leaves only suit u unpinned (tops: holders(..., 1)). */
TT_INLINE i64 bucket_but(i64 lengths, i64 leader, i64 tops, int u) {
    return bucket(lengths, leader, (tops & ~((i64)3 << (2 * u))) | KEY_BUT | (i64)u << 10);
}

/* An entry's META word: gen << 32 | pins << 16 | lower << 12 | upper << 8 | move, where pins
 * holds 4 bits a suit (how many of its top live cards the entry pins), lower and upper are the
 * bounds (0-13) and move the card last found best, as its bit index plus one (0: none).  A
 * bucket's first row is its header: META = gen << 32 | the way its next new entry replaces once
 * every way is in use (the oldest entry). */
#define META_GEN(m) ((i64)((u64)(m) >> 32))
#define META_PINS(m) (((m) >> 16) & 0xFFFF)
#define META_LOWER(m) (((m) >> 12) & 15)
#define META_UPPER(m) (((m) >> 8) & 15)

/* Two suits' pins (a byte, four bits a suit) as a pattern word's mask: two bits a pinned card,
 * the top card lowest, the second suit's 32 bits up.  Filled when the module loads (pin_tables):
 * a look-up compares an entry's pins with the position at every way it scans. */
static i64 PIN_MASK[256];

static void pin_tables(void) {
    for (int b = 0; b < 256; b++)
        PIN_MASK[b] = (((i64)1 << (2 * (b & 15))) - 1) | shl(((i64)1 << (2 * (b >> 4))) - 1, 32);
}

/* The pattern-word masks of pins: two bits a pinned card, the top card lowest; the leader's
 * bits (the top two of the first word) always. */
TT_INLINE void pin_masks(i64 pins, i64 *mask1, i64 *mask2) {
    *mask1 = -((i64)1 << 62) | PIN_MASK[pins & 255];
    *mask2 = PIN_MASK[(pins >> 8) & 255];
}

/* _pins: the pins of a pair of pattern-word masks (how many cards each suit's two-bit mask covers). */
TT_INLINE i64 mask_pins(i64 mask1, i64 mask2) {
    i64 pins = 0;
    for (int s = 0; s < 4; s++) {
        u64 word = (u64)(s < 2 ? mask1 : mask2);
        pins |= (i64)(popcount((i64)((word >> (32 * (s & 1))) & 0x3FFFFFF)) >> 1) << (4 * s);
    }
    return pins;
}

/* _top_cards: the live cards an entry pins, the top k of each suit. */
TT_INLINE i64 top_cards(i64 live, i64 pins) {
    i64 out = 0;
    for (int s = 0; s < 4; s++) {
        int k = (int)((pins >> (4 * s)) & 15);
        i64 m = live & suit_mask(s);
        while (k > 0 && m) {
            i64 t = top(m);
            out |= t;
            m ^= t;
            k--;
        }
    }
    return out;
}

/* A card (one bit, or 0) as META's move field, and back. */
TT_INLINE i64 move_code(i64 move) { return move ? (i64)popcount(move - 1) + 1 : 0; }
TT_INLINE i64 move_card(i64 code) { return code ? (i64)1 << (code - 1) : 0; }

/* Whether every way of the bucket at base is in use this generation (its header then holds it). */
TT_INLINE int bucket_full(const i64 *tt, i64 base, i64 gen) { return META_GEN(ROW(tt, base)[META]) == gen; }

/* _store: record bounds for an abstraction: merge with its entry, else take the first free way
 * (a full bucket: its oldest entry's). */
TT_INLINE void store(i64 *tt, i64 base, i64 lengths, i64 pins, i64 value1, i64 value2, i64 gen, i64 lower,
                     i64 upper, i64 move) {
    i64 row = -1;
    for (i64 w = 1; w < WAYS; w++) {
        i64 *r = ROW(tt, base + w);
        i64 meta = r[META];
        if (META_GEN(meta) != gen) {
            row = base + w;
            break;
        }
        if (r[KEY] == lengths && r[VALUE1] == value1 && r[VALUE2] == value2 && META_PINS(meta) == pins) {
            i64 lo = imax(lower, META_LOWER(meta));
            i64 hi = imin(upper, META_UPPER(meta));
            i64 code = move ? move_code(move) : meta & 0xFF;
            r[META] = shl(gen, 32) | shl(pins, 16) | shl(lo, 12) | shl(hi, 8) | code;
            return;
        }
    }
    if (row < 0) {
        i64 header = ROW(tt, base)[META];
        i64 way = META_GEN(header) == gen ? (header & 0xFFFF) : 1;
        row = base + way;
        ROW(tt, base)[META] = shl(gen, 32) | (way + 1 < WAYS ? way + 1 : 1);
    }
    i64 *r = ROW(tt, row);
    r[KEY] = lengths;
    r[VALUE1] = value1;
    r[VALUE2] = value2;
    r[META] = shl(gen, 32) | shl(pins, 16) | shl(lower, 12) | shl(upper, 8) | move_code(move);
}

/* _lookup: the row of an entry matching the position whose bounds decide need more tricks
 * (or -1), and in *hint the card a matching entry last found best (or 0). */
TT_INLINE i64 lookup(const i64 *tt, i64 base, i64 lengths, i64 word1, i64 word2, i64 gen, i64 need,
                     i64 *hint) {
    *hint = 0;
    for (i64 row = base + 1; row < base + WAYS; row++) {
        const i64 *r = ROW(tt, row);
        i64 meta = r[META];
        if (META_GEN(meta) != gen) break; /* the bucket's ways in use end here */
        if (r[KEY] != lengths) continue;
        i64 mask1, mask2;
        pin_masks(META_PINS(meta), &mask1, &mask2);
        if ((word1 & mask1) != r[VALUE1] || (word2 & mask2) != r[VALUE2]) continue;
        if (META_LOWER(meta) >= need || META_UPPER(meta) < need) return row;
        if (meta & 0xFF) *hint = move_card(meta & 0xFF);
    }
    return -1;
}

/* _holder: the seat holding card, or -1. */
TT_INLINE int holder(const i64 *hands, i64 card) {
    for (int seat = 0; seat < 4; seat++)
        if (hands[seat] & card) return seat;
    return -1;
}

/* DDS's relative rank of card b among a suit's live cards m_all: 1 for the top one, 2 for the
 * next, and so on. */
TT_INLINE i64 rel_rank(i64 m_all, i64 b) { return popcount(m_all & ~((b << 1) - 1)) + 1; }

/* _suit_runs: append to moves[nm...] one card of each run of mine (cards with no card of others
 * between them play alike), its highest, from the lowest run up; return the new count, with the
 * cards kept for a run of more than one in *seqs. */
TT_INLINE int suit_runs(i64 mine, i64 others, i64 *moves, int nm, i64 *seqs) {
    i64 rest = mine, prev = 0;
    while (rest) {
        i64 low = rest & -rest;
        rest ^= low;
        if (prev && !(others & (low - 1) & ~((prev << 1) - 1))) {
            moves[nm - 1] = low; /* equivalent to the card below it: keep one */
            *seqs |= low;
        } else {
            moves[nm++] = low;
        }
        prev = low;
    }
    return nm;
}

/* Reverse moves[i..j]. */
TT_INLINE void reverse_moves(i64 *moves, int i, int j) {
    for (; i < j; i++, j--) {
        i64 m = moves[i];
        moves[i] = moves[j];
        moves[j] = m;
    }
}

/* _lead_scores: score the leads moves[first:last] of one suit, four hands with partners
 * opposite (DDS's shape of no-trump lead ordering); higher is better. */
TT_INLINE void lead_scores(const i64 *hands, int seat, int lho, int pd, int rho, i64 m_all,
                           const i64 *moves, i64 *scores, int first, int last, i64 seqs, i64 killer,
                           i64 hint) {
    i64 sm = m_all & -m_all;
    sm = suit_mask(suit_of(sm));
    i64 nl = popcount(hands[lho] & sm);
    i64 nr = popcount(hands[rho] & sm);
    i64 np_ = popcount(hands[pd] & sm);
    i64 rem = popcount(hands[seat]);
    i64 base = -((nl ? nl : rem + 1) + (nr ? nr : rem + 1)) * 6;
    if (np_ == 0) base -= 9;
    i64 w = top(m_all);
    i64 w2 = top(m_all ^ w);
    i64 w3 = top(m_all ^ w ^ w2);
    int hw = holder(hands, w);
    int h2 = holder(hands, w2);
    int h3 = holder(hands, w3);
    int partner_wins = top(hands[pd] & sm) > top((hands[lho] | hands[rho]) & sm);
    i64 win = base;
    if (h2 == rho) {
        if (nr != 1) win -= 1;
    } else if (h2 == lho) {
        win += nl != 1 ? 22 : 16;
    }
    win += ((h2 != lho || nl == 1) && (h2 != rho || nr == 1)) ? 45 : 18;
    i64 lose = base;
    if (hw == rho || h2 == rho) {
        if (nr != 1) lose -= 10;
    } else if (hw == lho && h2 == pd) {
        if (np_ != 1) lose += 31;
    }
    if (h2 == pd && h3 == pd)
        lose += 35;
    else if ((h2 == seat && h3 == pd && np_ > 1) || (h2 == pd && h3 == seat && np_ > 1))
        lose += 25;
    int drop = (nl == 1 && hw == lho) || (nr == 1 && hw == rho);
    for (int j = first; j < last; j++) {
        i64 b = moves[j];
        i64 rrank = rel_rank(m_all, b);
        if (b == w || partner_wins) {
            scores[j] = win + rrank +
                        (b == killer ? KILLER_WIN : b == hint ? HINT_WIN : 0);
            continue;
        } else if (drop) {
            scores[j] = lose + 28 + rrank;
        } else if (hw == seat) {
            scores[j] = lose - 17 + rrank;
        } else if (!(seqs & b)) {
            scores[j] = lose + 12 + rrank;
        } else if (b == w2) {
            scores[j] = lose + 48;
        } else {
            scores[j] = lose + 29 - rrank;
        }
        if (b == killer)
            scores[j] += KILLER_LOSE;
        else if (b == hint)
            scores[j] += HINT_LOSE;
    }
}

/* moves_of: fill moves with the legal cards worth searching, best first; return how many. */
TT_INLINE int moves_of(const i64 *hands, const i64 *order, int tsize, const i64 *side, int leader,
                       int pos, int lead_suit, i64 best, int best_seat, i64 table, i64 *moves,
                       i64 *scores, i64 killer, i64 hint, int misere) {
    int seat = (int)ORDER(order, leader, pos);
    i64 hand = hands[seat];
    i64 cand = hand;
    i64 live = hands[0] | hands[1] | hands[2] | hands[3] | table;
    int following = pos > 0 && (hand & suit_mask(lead_suit));
    if (following) {
        cand = hand & suit_mask(lead_suit);
        /* cards with no other live card between them play alike: one run, one move (its
         * highest card, as the loop below would keep), and nothing to order */
        i64 high = top(cand);
        if (!(live & ~cand & (high - 1) & ~((cand & -cand) - 1))) {
            moves[0] = high;
            return 1;
        }
    }
    int nm = 0;
    int partner_wins = pos > 0 && side[best_seat] == side[seat];
    if (pos == tsize - 1 && following) {
        /* the last hand following suit orders its cards without scores: its runs from the
         * lowest up (each run searched as its highest card), the cheapest winner first unless
         * its side has the trick already; a side that wants to lose tricks its highest card
         * under the trick's best first, then its highest winner (what the scores below give,
         * sorted) */
        i64 seqs = 0;
        nm = suit_runs(cand, live & suit_mask(lead_suit) & ~cand, moves, 0, &seqs);
        int first_win = 0;
        while (first_win < nm && moves[first_win] < best) first_win++;
        if (misere) {
            reverse_moves(moves, 0, first_win - 1);
            reverse_moves(moves, first_win, nm - 1);
            return nm;
        }
        if (!partner_wins && first_win > 0 && first_win < nm) {
            i64 lows[MAX_MOVES];
            for (int j = 0; j < first_win; j++) lows[j] = moves[j];
            for (int j = first_win; j < nm; j++) moves[j - first_win] = moves[j];
            for (int j = 0; j < first_win; j++) moves[nm - first_win + j] = lows[j];
        }
        return nm;
    }
    i64 we = side[ORDER(order, leader, 0)], they = side[ORDER(order, leader, 1)];
    int partners = tsize == 4 && we != they && side[ORDER(order, leader, 2)] == we &&
                   side[ORDER(order, leader, 3)] == they;
    i64 third_best = 0, fourth_top = 0, fourth_low = 0, force = 0;
    if (pos == 2 && tsize == 4) {
        i64 fourth = hands[ORDER(order, leader, 3)] & suit_mask(lead_suit);
        fourth_top = top(fourth);
        fourth_low = fourth & -fourth;
        i64 mine_s = hand & suit_mask(lead_suit);
        if (fourth_top > best && fourth_top > top(mine_s)) {
            i64 live_s = (hands[0] | hands[1] | hands[2] | hands[3] | table) & suit_mask(lead_suit);
            i64 rest4 = fourth ^ fourth_top;
            i64 above = fourth_top;
            while (rest4 && !(live_s & (above - 1) & ~((top(rest4) << 1) - 1))) {
                above = top(rest4);
                rest4 ^= above;
            }
            i64 second = top(rest4);
            i64 line = second > best ? second : (side[best_seat] != side[seat] ? best : 0);
            if (line) {
                i64 over = mine_s & ~((line << 1) - 1);
                force = over & -over;
                /* searched as the highest card of its run in this hand (moves_of keeps that) */
                i64 gap = live_s & ~mine_s & ~((force << 1) - 1);
                if (force) force = top(mine_s & ~(force - 1) & (gap ? (gap & -gap) - 1 : ~(i64)0));
            }
        }
    }
    if (pos == 1 && lead_suit >= 0) {
        third_best = top(live & suit_mask(lead_suit));
        if (tsize == 4) third_best = top((hands[ORDER(order, leader, 2)] & suit_mask(lead_suit)) | best);
    }
    for (int s = 0; s < 4; s++) {
        i64 sm = suit_mask(s);
        i64 mine = cand & sm;
        if (mine == 0) continue;
        i64 length = popcount(hand & sm);
        i64 m_all = live & sm;
        i64 opp_cards = 0;
        if (pos == 0 && !partners && !misere) {
            for (int i = 1; i < tsize; i++) {
                int other = (int)ORDER(order, leader, i);
                if (side[other] != side[seat]) {
                    i64 n_other = popcount(hands[other] & sm);
                    opp_cards += OPP_WEIGHT * (n_other ? n_other : popcount(hand) + 1);
                }
            }
        }
        i64 tp = top(m_all);
        i64 others = m_all & ~mine;
        int first = nm;
        i64 seqs = 0;
        nm = suit_runs(mine, others, moves, nm, &seqs);
        int partner_top = 0;
        i64 opp = 0;
        int opp_void = 0; /* (misère leads: the opponents void in the suit) */
        if (pos == 0 && misere) {
            for (int i = 1; i < tsize; i++) {
                int other = (int)ORDER(order, leader, i);
                if (side[other] == side[seat]) continue;
                opp |= hands[other] & sm;
                if (!(hands[other] & sm)) opp_void++;
            }
        } else if (pos == 0 && partners) {
            lead_scores(hands, seat, (int)ORDER(order, leader, 1), (int)ORDER(order, leader, 2),
                        (int)ORDER(order, leader, 3), m_all, moves, scores, first, nm, seqs, killer, hint);
        } else if (pos == 0) {
            for (int i = 1; i < tsize; i++) {
                int other = (int)ORDER(order, leader, i);
                if (side[other] == side[seat] && (hands[other] & tp)) partner_top = 1;
            }
        }
        for (int j = first; j < nm; j++) {
            i64 b = moves[j];
            i64 rank = bit_index(b) - s * SUIT_BITS;
            i64 sc;
            if (misere) {
                if (pos == 0) {
                    /* short suits first (a hand void in a suit throws its dangerous cards
                     * there), the later the more opponents are void in it; in a suit, the card
                     * with the most live cards below it first, the opponents' counted twice
                     * (weights tuned on nolo deals and checked on others: docs/solver.md,
                     * "Tuppi nolo") */
                    sc = 100 - 20 * length - 20 * opp_void +
                         3 * (popcount(m_all & (b - 1)) + popcount(opp & (b - 1)));
                    if (!opp) sc -= 70;
                } else if (s != lead_suit) {
                    /* the highest discard first, by its rank among the live cards: a low card
                     * left at the top of its suit takes a trick as surely as an ace */
                    sc = 100 + popcount(m_all & (b - 1)) - 3 * length;
                } else if (b < best) {
                    sc = 100 + rank;
                } else if (pos < tsize - 1) {
                    sc = 50 - rank;
                } else {
                    sc = 50 + rank;
                }
            } else if (pos == 0 && partners) {
                sc = scores[j];
            } else if (pos == 0) {
                if (b == tp)
                    sc = 100 + rank - opp_cards;
                else
                    sc = (partner_top ? 80 - rank : 40 - rank + 2 * length) - opp_cards;
            } else if (s != lead_suit) {
                sc = 30 - rank + 3 * length;
                if (length == 1 && (hand & tp))
                    sc -= 8;
                else if (length == 2 && (hand & top(m_all ^ tp)))
                    sc -= 6;
            } else if (pos == 1 && partners && top(hands[ORDER(order, leader, 3)] & sm) > third_best) {
                sc = 50 - rank;
            } else if (pos == 1 && partners) {
                /* DDS's second hand: a card above the lead and the third hand's first (the
                 * cheapest), then low cards the last two hands' lowest cards already beat, then
                 * split touching honours, then the others, low ones first */
                i64 third = hands[ORDER(order, leader, 2)] & sm, fourth = hands[ORDER(order, leader, 3)] & sm;
                i64 rrank = rel_rank(m_all, b);
                if (b > best && b > top(third))
                    sc = 81 - rank;
                else if ((third & -third) > b || (fourth & -fourth) > b)
                    sc = rrank - 3;
                else if (b < best)
                    sc = rrank - 11;
                else if (seqs & b)
                    sc = rrank + 10;
                else
                    sc = 13 - rank;
            } else if (pos == 2 && partners && (!partner_wins || best < fourth_top) &&
                       (top(mine) < best || top(mine) < fourth_low)) {
                sc = 50 - rank;
            } else if (pos == 2 && partners && !(partner_wins && best > fourth_top)) {
                sc = (b > best && b > fourth_top) ? 100 - rank : 50 - rank;
                if (b == force) sc += 20;
            } else if (partner_wins) {
                sc = b < best ? 50 - rank : 10 - rank;
            } else if (b > best && (pos == tsize - 1 || pos > 1 || b > third_best)) {
                sc = 100 - rank;
            } else {
                sc = 50 - rank;
            }
            scores[j] = sc;
        }
    }
    for (int i = 1; i < nm; i++) { /* insertion sort, best first */
        i64 mv = moves[i], sc = scores[i];
        int j = i - 1;
        while (j >= 0 && scores[j] < sc) {
            moves[j + 1] = moves[j];
            scores[j + 1] = scores[j];
            j--;
        }
        moves[j + 1] = mv;
        scores[j + 1] = sc;
    }
    if (pos == 0 && (misere || !partners)) {
        i64 firsts[2] = {hint, killer};
        for (int k = 0; k < 2; k++) {
            i64 first = firsts[k];
            if (!first) continue;
            for (int j = 1; j < nm; j++) {
                if (moves[j] == first) {
                    for (int i = j; i > 0; i--) moves[i] = moves[i - 1];
                    moves[0] = first;
                    break;
                }
            }
        }
    }
    return nm;
}

/* _longest_other: the most cards of a suit any hand but seat's holds. */
TT_INLINE int longest_other(const i64 *hands, int seat, i64 sm) {
    int longest = 0;
    for (int o = 0; o < 4; o++)
        if (o != seat) {
            int n = popcount(hands[o] & sm);
            if (n > longest) longest = n;
        }
    return longest;
}

/* _runs: a hand's sure tricks if it keeps the lead (returned), the cards they pin (*run), and
 * the suits whose top card it holds (*tops). */
TT_INLINE i64 runs(i64 live, const i64 *hands, int seat, int skip_suit, i64 *run_out, int *tops_out) {
    i64 own = hands[seat];
    i64 q = 0, run = 0;
    int tops = 0;
    for (int s = 0; s < 4; s++) {
        i64 sm = suit_mask(s);
        i64 m = live & sm;
        if (s == skip_suit) continue;
        i64 cash = top_run(m, own);
        if (!cash) continue;
        tops |= 1 << s;
        i64 r = popcount(cash);
        run |= cash;
        m ^= cash;
        q += r;
        if ((own & m) && longest_other(hands, seat, sm) <= r) q += popcount(own & m);
    }
    *run_out = run;
    *tops_out = tops;
    return q;
}

/* _split_suit: a suit where seat holds the top card and its partner mate the next one, each
 * with a second card: both cards (0 if there is none). */
TT_INLINE i64 split_suit(i64 live, const i64 *hands, int seat, int mate, int skip_suit) {
    for (int s = 0; s < 4; s++) {
        if (s == skip_suit) continue;
        i64 sm = suit_mask(s);
        i64 m = live & sm;
        i64 t = top(m);
        i64 t2 = top(m ^ t);
        if ((hands[seat] & t) && (hands[mate] & t2) && popcount(hands[seat] & sm) >= 2 &&
            popcount(hands[mate] & sm) >= 2)
            return t | t2;
    }
    return 0;
}

/* _partner_tricks: the sure tricks of seat's partner mate that seat can reach (returned; -1
 * without an entry), and the cards they pin (*runp). */
TT_INLINE i64 partner_tricks(i64 live, const i64 *hands, int seat, int mate, int skip_suit, i64 *runp) {
    /* the entry first (a suit whose top card the partner holds and seat can lead), else the
     * split suit; without either the partner's tricks are not counted */
    int entry = 0;
    for (int s = 0; s < 4; s++)
        if (s != skip_suit && (hands[seat] & suit_mask(s)) && (top(live & suit_mask(s)) & hands[mate])) entry = 1;
    i64 split = entry ? 0 : split_suit(live, hands, seat, mate, skip_suit);
    if (!entry && !split) {
        *runp = 0;
        return -1;
    }
    int tops;
    i64 qp = runs(live, hands, mate, skip_suit, runp, &tops);
    if (entry) return qp;
    *runp |= split;
    return qp + 1;
}

/* _long_split: the sure tricks of a side on lead when, in one suit, the leader (seat) and its
 * partner (mate) hold the two top cards between them, each with at least two cards of the suit
 * and one with exactly two, and neither opponent (lho, rho) more than two.  The two top cards
 * cross between the hands (the short hand's top card first, then its other card to the long
 * hand's top card), which empties the opponents, and the long hand keeps the lead with
 * winners only: the suit gives as many tricks as the long hand has cards.  The leader cashes
 * its other sure tricks (q_own of runs(), which counted its top card of this suit once) first;
 * when the partner is the long hand it cashes its own sure tricks last, which needs its cards
 * for both kept while the leader cashes (the count must fit in the rem tricks left).
 * Returns the best count over such suits (-1: none) and the cards it pins in *pin. */
TT_INLINE i64 long_split(i64 live, const i64 *hands, int seat, int mate, int lho, int rho, i64 q_own,
                         i64 run_own, i64 rem, i64 *pin) {
    i64 best = -1;
    for (int s = 0; s < 4; s++) {
        i64 sm = suit_mask(s);
        i64 t1 = top(live & sm);
        i64 t2 = top(live & sm & ~t1);
        if (!t2 || !(hands[seat] & (t1 | t2)) || !(hands[mate] & (t1 | t2))) continue;
        int mine = popcount(hands[seat] & sm), theirs = popcount(hands[mate] & sm);
        if (mine < 2 || theirs < 2 || (mine != 2 && theirs != 2)) continue;
        if (popcount(hands[lho] & sm) > 2 || popcount(hands[rho] & sm) > 2) continue;
        i64 q = q_own - ((hands[seat] & t1) ? 1 : 0);
        i64 cards = run_own | t1 | t2;
        if (mine >= theirs) {
            q += mine;
        } else {
            i64 runp;
            int tops;
            q += theirs + runs(live, hands, mate, s, &runp, &tops);
            if (q > rem) continue;
            cards |= runp;
        }
        if (q > best) {
            best = q;
            *pin = cards;
        }
    }
    return best;
}

/* _pins: the fewest cards to pin for need of the sure tricks runs() counts. */
TT_INLINE i64 pins(i64 live, const i64 *hands, int seat, int skip_suit, i64 need) {
    i64 own = hands[seat];
    i64 pin = 0;
    for (int s = 0; s < 4; s++) {
        if (need <= 0) break;
        i64 sm = suit_mask(s);
        i64 m = live & sm;
        if (s == skip_suit) continue;
        i64 cards = top_run(m, own);
        if (!cards) continue;
        i64 r = popcount(cards);
        for (; r > need; r--) cards &= cards - 1; /* (the top need of them are enough) */
        m ^= cards;
        if (r < need && (own & m) && longest_other(hands, seat, sm) <= r)
            need -= popcount(own & sm);
        else
            need -= r;
        pin |= cards;
    }
    return pin;
}

/* _trick_won: quick tricks for the side of the second or third hand (four hands, partners
 * opposite): answer at once (0 or 1), or -1. */
TT_INLINE int trick_won(Search *S, int d) {
    Frame *fr = &S->f[d];
    const i64 *hands = S->hands, *order = S->order, *side = S->side;
    int leader = (int)fr->leader, pos = (int)fr->pos;
    int seat = (int)ORDER(order, leader, pos);
    int mate = pos == 1 ? (int)ORDER(order, leader, 3) : leader;
    int third = pos == 1 ? (int)ORDER(order, leader, 2) : (int)ORDER(order, leader, 3);
    i64 sside = side[seat];
    if (side[mate] != sside || side[third] == sside || (sside == S->counted) != (sside == S->maxside))
        return -1;
    int lead_suit = (int)fr->lead_suit;
    i64 sm = suit_mask(lead_suit);
    i64 best = fr->best;
    i64 ours = hands[seat] & sm;
    if (pos == 1)
        ours |= hands[mate] & sm;
    else if (side[fr->best_seat] == sside)
        ours |= best;
    if (!ours) return -1;
    i64 t = top(ours | (hands[third] & sm) | best);
    if (!(ours & t)) return -1;
    i64 won = fr->won;
    i64 rem = popcount(hands[seat]);
    /* the tricks the side needs after this one: none of the counts below can give more than
     * the tricks left after it */
    i64 need = sside == S->counted ? S->target - won - 1 : won + rem - S->target;
    if (need > rem - 1) return -1;
    int hh = (hands[seat] & t) ? seat : mate;
    i64 live = hands[0] | hands[1] | hands[2] | hands[3];
    i64 run;
    int tops;
    i64 q = runs(live, hands, hh, lead_suit, &run, &tops);
    i64 q_other = q;
    q += 1;
    i64 m = live & sm & ~t;
    i64 cash = top_run(m, hands[hh]);
    run |= cash;
    q += popcount(cash);
    if (q - 1 >= need) {
        i64 p = pins(live, hands, hh, lead_suit, need) | t;
        m = live & sm & ~t;
        while (need > q_other) {
            p |= top(m);
            m ^= top(m);
            need--;
        }
        fr->relevant = p;
        return sside == S->counted ? 1 : 0;
    }
    i64 runp;
    i64 qp = partner_tricks(live, hands, hh, hh == seat ? mate : seat, lead_suit, &runp);
    if (qp >= 0 && imin(rem - 1, q - 1 + qp) >= need) {
        fr->relevant = run | runp | t;
        return sside == S->counted ? 1 : 0;
    }
    return -1;
}

/* _enter: open frame d: answer at once (0 fails, 1 makes), or list its moves (-1). */
TT_INLINE int enter(Search *S, int d) {
    Frame *fr = &S->f[d];
    i64 *hands = S->hands;
    const i64 *order = S->order, *side = S->side;
    int tsize = S->tsize;
    i64 counted = S->counted, maxside = S->maxside, target = S->target;
    int leader = (int)fr->leader, pos = (int)fr->pos;
    i64 won = fr->won;
    fr->base = -1;
    fr->relevant = 0;
    fr->skip = 0;
    i64 hint = 0;
    if (pos == 0) {
        i64 rem = popcount(hands[leader]);
        if (won >= target) return 1;
        if (won + rem < target) return 0;
        i64 lengths, pat[4];
        if (d >= tsize && S->f[d - tsize].pos == 0) {
            /* the trick start before this one kept its patterns (it searched its moves) */
            const Frame *last = &S->f[d - 1];
            i64 played = last->table | S->mv[d - 1][last->j];
            i64 live = hands[0] | hands[1] | hands[2] | hands[3];
            patterns_after(&S->f[d - tsize], live, played, &lengths, pat);
#ifdef TT_CHECK_PATTERNS
            i64 l2, p2[4];
            patterns(hands, &l2, p2);
            if (l2 != lengths || p2[0] != pat[0] || p2[1] != pat[1] || p2[2] != pat[2] || p2[3] != pat[3])
                __builtin_trap();
#endif
        } else {
            patterns(hands, &lengths, pat);
        }
        i64 pa = pat[0], pb = pat[1], pc = pat[2], pd = pat[3];
        i64 tops = holders(pa, pb, pc, pd, 1);
        i64 base = bucket(lengths, leader, tops | KEY_TOPS);
        i64 base2 = bucket(lengths, leader, KEY_NONE);
        for (int way = 0; way < PREFETCH_WAYS; way += 2) {
            prefetch(ROW(S->tt, base + way));
            prefetch(ROW(S->tt, base2 + way));
        }
        i64 lside = side[leader];
        if ((lside == counted) == (lside == maxside)) {
            i64 live = hands[0] | hands[1] | hands[2] | hands[3];
            i64 run;
            int tops;
            i64 q = runs(live, hands, leader, -1, &run, &tops);
            i64 q_own = q, run_own = run;
            int solo = 1;
            for (int i = 1; i < tsize; i++) {
                int p = (int)ORDER(order, leader, i);
                if (side[p] != lside) continue;
                i64 runp;
                i64 qp = partner_tricks(live, hands, leader, p, -1, &runp);
                if (qp < 0) continue;
                qp = imin(rem, qp + q_own);
                runp |= run_own;
                if (qp > q) {
                    q = qp;
                    run = runp;
                    solo = 0;
                }
            }
            /* the partner opposite, in four-handed tricks: the crossing counts below */
            int mate = tsize == 4 && side[ORDER(order, leader, 2)] == lside ? (int)ORDER(order, leader, 2) : -1;
            if (solo && mate >= 0) {
                i64 split = split_suit(live, hands, leader, mate, -1);
                if (split) {
                    q += 1;
                    run |= split;
                    solo = 0;
                }
            }
            int undecided = lside == counted ? won + q < target : won + rem - q >= target;
            if (undecided && mate >= 0) {
                i64 pin = 0;
                i64 ql = long_split(live, hands, leader, mate, (int)ORDER(order, leader, 1), (int)ORDER(order, leader, 3),
                                    q_own, run_own, rem, &pin);
                if (ql > q) {
                    q = ql;
                    run = pin;
                    solo = 0;
                }
            }
            if (lside == counted && won + q >= target) {
                fr->relevant = solo ? pins(live, hands, leader, -1, target - won) : run;
                return 1;
            }
            if (lside != counted && won + rem - q < target) {
                fr->relevant = solo ? pins(live, hands, leader, -1, won + rem - target + 1) : run;
                return 0;
            }
            int need_all = lside == counted ? target - won == rem : target - won == 1;
            if (need_all && lside != counted) {
                for (int i = 1; i < tsize; i++) {
                    i64 si = side[ORDER(order, leader, i)];
                    if (si != lside && si != counted) need_all = 0;
                }
            }
            if (need_all) {
                i64 pin = 0;
                int lost = 1;
                for (int s = 0; s < 4; s++) {
                    i64 sm = suit_mask(s);
                    if (hands[leader] & sm) {
                        i64 t = top(live & sm);
                        for (int i = 0; i < tsize; i++) {
                            int p = (int)ORDER(order, leader, i);
                            if (side[p] == lside && (hands[p] & t)) lost = 0;
                        }
                        pin |= t;
                    }
                }
                if (lost) {
                    fr->relevant = pin;
                    return lside == counted ? 0 : 1;
                }
                i64 lsum = 0;
                pin = 0;
                for (int s = 0; s < 4; s++) {
                    i64 sm = suit_mask(s);
                    i64 m = live & sm;
                    if (!m) continue;
                    i64 t = top(m);
                    i64 mx = 0;
                    int ours = 0;
                    for (int i = 0; i < tsize; i++) {
                        int p = (int)ORDER(order, leader, i);
                        if (side[p] == lside) {
                            mx = imax(mx, popcount(hands[p] & sm));
                            if (hands[p] & t) ours = 1;
                        }
                    }
                    if (ours)
                        lsum += mx;
                    else if (mx)
                        pin |= t;
                }
                if (lsum < rem) {
                    fr->relevant = pin;
                    return lside == counted ? 0 : 1;
                }
            }
        }
        i64 word1 = pa | shl(pb, 32) | shl(leader, 62);
        i64 word2 = pc | shl(pd, 32);
        i64 bases[7] = {base, base2}; /* and the finer buckets of those found full */
        int nb = 2;
        i64 live = hands[0] | hands[1] | hands[2] | hands[3];
        for (int k = 0; k < nb; k++) {
            i64 move;
            tt_lock(S->locks, (u64)bases[k] / WAYS);
            i64 row = lookup(S->tt, bases[k], lengths, word1, word2, S->gen, target - won, &move);
            if (move) hint = move;
            if (row >= 0) {
                const i64 *r = ROW(S->tt, row);
                fr->relevant = top_cards(live, META_PINS(r[META]));
                int answer = META_LOWER(r[META]) >= target - won ? 1 : 0;
                tt_unlock(S->locks, (u64)bases[k] / WAYS);
                return answer;
            }
            if (k < 2 && bucket_full(S->tt, bases[k], S->gen)) {
                if (k == 0) {
                    bases[nb++] = bucket(lengths, leader, holders(pa, pb, pc, pd, 2) | KEY_TWO);
                } else {
                    for (int u = 0; u < 4; u++)
                        if (live & suit_mask(u)) bases[nb++] = bucket_but(lengths, leader, tops, u);
                }
            }
            tt_unlock(S->locks, (u64)bases[k] / WAYS);
        }
        fr->base = base;
        fr->base2 = base2;
        fr->lengths = lengths;
        fr->pa = pa;
        fr->pb = pb;
        fr->pc = pc;
        fr->pd = pd;
    } else if ((pos == 1 || pos == 2) && tsize == 4) {
        int ans = trick_won(S, d);
        if (ans >= 0) return ans;
    }
    int seat = (int)ORDER(order, leader, pos);
    fr->hand = hands[seat];
    fr->nm = moves_of(hands, order, tsize, side, leader, pos, (int)fr->lead_suit, fr->best,
                      (int)fr->best_seat, fr->table, S->mv[d], S->sc, S->killers[d], hint,
                      (side[seat] == counted) != (side[seat] == maxside));
    fr->j = 0;
    fr->result = side[seat] == maxside ? 0 : 1;
    return fr->nm ? -1 : -2; /* -2: no card to play (an order that is no play) */
}

/* _push: play frame d's current move and set up frame d + 1 for the position after it. */
TT_INLINE void push(Search *S, int d) {
    Frame *fr = &S->f[d], *nx = &S->f[d + 1];
    i64 leader = fr->leader, pos = fr->pos;
    int seat = (int)ORDER(S->order, leader, pos);
    i64 b = S->mv[d][fr->j];
    i64 best = fr->best;
    i64 nls, nbest, nseat;
    if (pos == 0) {
        nls = suit_of(b);
        nbest = b;
        nseat = seat;
    } else {
        nls = fr->lead_suit;
        if (b > best && suit_of(b) == nls) {
            nbest = b;
            nseat = seat;
        } else {
            nbest = best;
            nseat = fr->best_seat;
        }
    }
    S->hands[seat] = fr->hand ^ b;
    fr->next_suit = nls;
    fr->next_best = nbest;
    if (pos == S->tsize - 1) {
        nx->leader = nseat;
        nx->pos = 0;
        nx->lead_suit = -1;
        nx->best = 0;
        nx->best_seat = -1;
        nx->table = 0;
        nx->won = fr->won + (S->side[nseat] == S->counted ? 1 : 0);
    } else {
        nx->leader = leader;
        nx->pos = pos + 1;
        nx->lead_suit = nls;
        nx->best = nbest;
        nx->best_seat = nseat;
        nx->table = fr->table | b;
        nx->won = fr->won;
    }
}

/* _close: store frame d's answer in the table (trick starts only), pinning its relevant cards. */
TT_INLINE void close_frame(Search *S, int d) {
    Frame *fr = &S->f[d];
    i64 base = fr->base;
    if (base < 0) return;
    const i64 *hands = S->hands;
    i64 leader = fr->leader, won = fr->won, relevant = fr->relevant;
    i64 rem = popcount(hands[leader]);
    i64 live = hands[0] | hands[1] | hands[2] | hands[3];
    i64 pins = 0;
    int unpinned = 0, free_suit = 0, two = 1; /* two: each suit's two top cards (or one) pinned */
    for (int s = 0; s < 4; s++) {
        i64 r_s = relevant & suit_mask(s);
        i64 held = live & suit_mask(s);
        int n = popcount(held);
        if (r_s) {
            i64 low = r_s & -r_s;
            int k = popcount(held & ~(low - 1));
            pins |= (i64)k << (4 * s);
            if (k < 2 && n >= 2) two = 0;
        } else if (n) {
            base = fr->base2;
            unpinned++;
            free_suit = s;
            two = 0;
        }
    }
    /* the finer bucket, should the entry's own be full */
    i64 fine = -1;
    if (unpinned == 1)
        fine = bucket_but(fr->lengths, leader, holders(fr->pa, fr->pb, fr->pc, fr->pd, 1), free_suit);
    else if (two)
        fine = bucket(fr->lengths, leader, holders(fr->pa, fr->pb, fr->pc, fr->pd, 2) | KEY_TWO);
    if (fine >= 0) {
        tt_lock(S->locks, (u64)base / WAYS);
        int full = bucket_full(S->tt, base, S->gen);
        tt_unlock(S->locks, (u64)base / WAYS);
        if (full) base = fine;
    }
    i64 mask1, mask2;
    pin_masks(pins, &mask1, &mask2);
    i64 value1 = (fr->pa | shl(fr->pb, 32) | shl(leader, 62)) & mask1;
    i64 value2 = (fr->pc | shl(fr->pd, 32)) & mask2;
    i64 move = fr->j < fr->nm ? S->mv[d][fr->j] : 0;
    tt_lock(S->locks, (u64)base / WAYS);
    if (fr->result)
        store(S->tt, base, fr->lengths, pins, value1, value2, S->gen, S->target - won, rem, move);
    else
        store(S->tt, base, fr->lengths, pins, value1, value2, S->gen, 0, S->target - won - 1, move);
    tt_unlock(S->locks, (u64)base / WAYS);
}

/* search: whether maxside can make counted take at least target tricks in all (returned, 0 or
 * 1; -1 when the watch stopped it, -2 at a seat with no card to play), and in *relevant_out the cards whose rank decided it.
 * hands is restored before returning, also after a stop; a stopped search stores nothing more
 * in the table (bounds from unfinished subtrees would be wrong). */
static int run_search(Search *S, i64 *stats, int leader, int pos, int lead_suit, i64 best,
                      int best_seat, i64 table, i64 won, tt_watch *w, u64 *nodes, i64 *relevant_out) {
    i64 saved[4];
    memcpy(saved, S->hands, sizeof saved);
    const i64 *order = S->order, *side = S->side;
    i64 *hands = S->hands;
    int tsize = S->tsize;
    memset(S->killers, 0, sizeof S->killers);
    Frame *f0 = &S->f[0];
    f0->leader = leader;
    f0->pos = pos;
    f0->lead_suit = lead_suit;
    f0->best = best;
    f0->best_seat = best_seat;
    f0->table = table;
    f0->won = won;
    int d = 0;
    int entering = 1;
    int answer = 0;
    i64 relevant = 0;
    for (;;) {
        Frame *fr = &S->f[d];
        if (entering) {
            if (tt_watch_poll(w, ++*nodes)) {
                memcpy(S->hands, saved, sizeof saved);
                return -1;
            }
            stats[NODES] += 1;
            if (fr->pos == 0 && d > 0) stats[TRICK_NODES] += 1;
            answer = enter(S, d);
            if (answer == -2) {
                memcpy(S->hands, saved, sizeof saved);
                return -2;
            }
            if (answer < 0) {
                push(S, d);
                d++;
                continue;
            }
            relevant = fr->relevant;
        } else {
            int seat = (int)ORDER(order, fr->leader, fr->pos);
            hands[seat] = fr->hand;
            if (fr->pos == tsize - 1) {
                i64 b = S->mv[d][fr->j];
                i64 nbest = fr->next_best;
                i64 sm = suit_mask((int)fr->next_suit);
                if ((fr->table | b) & sm & ~nbest) relevant |= nbest;
            }
            int is_max = side[seat] == S->maxside;
            if ((answer == 1) == is_max) {
                S->killers[d] = S->mv[d][fr->j];
                fr->result = answer;
                fr->relevant = relevant;
            } else {
                /* Every card of this hand must fail.  Its cards touching b from below were
                 * merged into b (moves_of searches one card of a sequence); where b's rank
                 * decided, theirs would too, so they are pinned with it.  (Where a card
                 * succeeds, only that card's line counts, and nothing more is pinned.) */
                i64 b = S->mv[d][fr->j];
                if (relevant & b) {
                    i64 all = hands[0] | hands[1] | hands[2] | hands[3] | fr->table;
                    relevant |= top_run(all & suit_mask(suit_of(b)) & (b - 1), fr->hand);
                }
                i64 acc = fr->relevant | relevant;
                fr->relevant = acc;
                i64 sm = suit_mask(suit_of(b));
                i64 r_s = acc & sm;
                i64 low = r_s ? (r_s & -r_s) : sm;
                if (b < low) fr->skip |= (low - 1) & sm;
                i64 j = fr->j + 1;
                while (j < fr->nm && (S->mv[d][j] & fr->skip)) j++;
                fr->j = j;
                if (fr->j < fr->nm) {
                    push(S, d);
                    d++;
                    entering = 1;
                    continue;
                }
            }
            close_frame(S, d);
            answer = (int)fr->result;
            relevant = fr->relevant;
        }
        if (d == 0) {
            *relevant_out = relevant;
            return answer == 1;
        }
        d--;
        entering = 0;
    }
}


/* -- the driver: every legal card's value (TrickSolver.card_values, in C) -------------------- */

/* A position of the driver: the hands, and the trick on the table. */
typedef struct {
    i64 hands[4];
    int leader, npl, lead_suit, best_seat;
    i64 best, table, cap;
} Pos;

TT_INLINE int to_move(const Search *S, const Pos *p) { return (int)ORDER(S->order, p->leader, p->npl); }

/* TrickSolver.test: whether maxside makes counted take at least target more tricks (0 or 1;
 * negative when stopped). */
static int pos_test(Search *S, i64 *stats, const Pos *p, i64 target, tt_watch *w, u64 *nodes) {
    i64 h[4], relevant;
    memcpy(h, p->hands, sizeof h);
    S->hands = h;
    S->target = target;
    return run_search(S, stats, p->leader, p->npl, p->lead_suit, p->best, p->best_seat, p->table, 0, w,
                      nodes, &relevant);
}

/* TrickSolver.value: step from the guess up while the target is made, or down while it is not. */
static int pos_value(Search *S, i64 *stats, const Pos *p, i64 guess, tt_watch *w, u64 *nodes, i64 *out) {
    i64 n = popcount(p->hands[to_move(S, p)]);
    i64 hi = imin(n, p->cap);
    i64 v = imax(0, imin(hi, guess));
    int r;
    if (v > 0) {
        if ((r = pos_test(S, stats, p, v, w, nodes)) < 0) return r;
        if (!r) {
            v--;
            while (v > 0) {
                if ((r = pos_test(S, stats, p, v, w, nodes)) < 0) return r;
                if (r) break;
                v--;
            }
            *out = v;
            return 0;
        }
    }
    while (v < hi) {
        if ((r = pos_test(S, stats, p, v + 1, w, nodes)) < 0) return r;
        if (!r) break;
        v++;
    }
    *out = v;
    return 0;
}

/* TrickSolver.child: the position after bit is played, and the tricks it gave counted (0, 1). */
static i64 pos_child(const Search *S, const Pos *p, i64 bit, Pos *c) {
    int seat = to_move(S, p);
    *c = *p;
    c->hands[seat] ^= bit;
    if (p->npl == 0) {
        c->lead_suit = suit_of(bit);
        c->best = bit;
        c->best_seat = seat;
    } else if (suit_of(bit) == p->lead_suit && bit > p->best) {
        c->best = bit;
        c->best_seat = seat;
    }
    c->table |= bit;
    c->npl++;
    if (c->npl < S->tsize) return 0;
    i64 gained = S->side[c->best_seat] == S->counted ? 1 : 0;
    c->leader = c->best_seat;
    c->npl = 0;
    c->lead_suit = -1;
    c->best = 0;
    c->best_seat = -1;
    c->table = 0;
    c->cap -= gained;
    return gained;
}

/* TrickSolver.estimate: the first guess from the counted side's share of the high-card points
 * (Python's round: half to even). */
static i64 pos_estimate(const Search *S, const Pos *p) {
    i64 ours = 0, total = 0;
    for (int seat = 0; seat < 4; seat++) {
        i64 pts = 0;
        for (int strength = 11; strength < 15; strength++) {
            i64 m = 0;
            for (int s = 0; s < 4; s++) m |= (i64)1 << (SUIT_BITS * s + strength);
            pts += (strength - 10) * popcount(p->hands[seat] & m);
        }
        total += pts;
        if (S->side[seat] == S->counted) ours += pts;
    }
    i64 n = popcount(p->hands[to_move(S, p)]);
    double g = (double)(n - 1) / 2.0 + ((double)ours - (double)total / 2.0) * (double)n / 26.0;
    i64 f = (i64)g; /* Python's round(): floor, then half to even (no libm needed) */
    if ((double)f > g) f--;
    double frac = g - (double)f;
    i64 r = frac > 0.5 ? f + 1 : frac < 0.5 ? f : (f % 2 == 0 ? f : f + 1);
    return imax(0, imin(imin(n, p->cap), r));
}

/* TrickSolver.card_values: each legal card's value, searched for one card of each run of
 * equivalent cards (in moves_of's order), the others copied; cards[] and values[] in that order,
 * *count of them.  Returns 0, or negative when stopped (-1) or no seat can play (-2); after a
 * stop, the cards found so far (and their equivalents) are still in cards[] and values[]. */
static int pos_card_values(Search *S, i64 *stats, const Pos *p, tt_watch *w, i64 *cards, i64 *values,
                           volatile i64 *share, int *count) {
    u64 nodes = 0;
    i64 reps[MAX_MOVES], scores[MAX_MOVES];
    int mover = to_move(S, p);
    i64 ms = S->side[mover];
    int nr = moves_of(p->hands, S->order, S->tsize, S->side, p->leader, p->npl, p->lead_suit, p->best,
                      p->best_seat, p->table, reps, scores, 0, 0, (ms == S->counted) != (ms == S->maxside));
    i64 guess = pos_estimate(S, p);
    i64 by_suit[4];
    int have_suit[4] = {0, 0, 0, 0};
    i64 seen[64];
    memset(seen, 0, sizeof seen);
    int n = 0, failed = 0;
    i64 taken = share ? tt_take(share) : 0; /* with a share, the card to search next (tt_take) */
    for (int i = 0; i < nr; i++) {
        if (share && i != taken) continue; /* another search's card */
        i64 bit = reps[i];
        Pos c;
        i64 gained = pos_child(S, p, bit, &c);
        int suit = suit_of(bit);
        i64 v;
        failed = pos_value(S, stats, &c, (have_suit[suit] ? by_suit[suit] : guess) - gained, w, &nodes, &v);
        if (failed < 0) break;
        v += gained;
        by_suit[suit] = v;
        have_suit[suit] = 1;
        cards[n] = bit;
        values[n] = v;
        n++;
        if (share) taken = tt_take(share);
        seen[v]++;
        if (seen[v] >= (guess >= 0 && guess < 64 ? seen[guess] : 0)) guess = v;
    }
    /* the other legal cards: each takes the value of a searched card it is equivalent to (of
     * this search's; with a share, the others' go with theirs; after a stop, of those found) */
    int searched = n;
    i64 hand = p->hands[mover];
    i64 live = p->hands[0] | p->hands[1] | p->hands[2] | p->hands[3] | p->table;
    i64 suit_cards = p->lead_suit >= 0 ? hand & suit_mask(p->lead_suit) : 0;
    i64 rest = suit_cards ? suit_cards : hand;
    while (rest) {
        i64 bit = rest & -rest;
        rest ^= bit;
        int known = 0;
        for (int i = 0; i < searched; i++)
            if (cards[i] == bit) known = 1;
        if (known) continue;
        for (int i = 0; i < searched; i++) {
            i64 rep = cards[i];
            i64 lo = bit < rep ? bit : rep, hi = bit < rep ? rep : bit;
            i64 between = (hi - 1) & ~((lo << 1) - 1);
            if (suit_of(lo) == suit_of(hi) && !(live & between & ~hand)) {
                cards[n] = bit;
                values[n] = values[i];
                n++;
                break;
            }
        }
    }
    *count = n;
    return failed;
}

/* -- Python interface --------------------------------------------------------------------- */

/* A buffer argument of at least ``items`` int64 items. */
static int get_i64(PyObject *obj, Py_buffer *view, Py_ssize_t items, const char *name) {
    if (tt_buffer(obj, view, 8, name) < 0) return -1;
    if (view->len / 8 < items) {
        PyErr_Format(PyExc_ValueError, "%s must hold at least %zd int64 items, not %zd", name, items,
                     view->len / 8);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int get_int(PyObject *obj, i64 *out, const char *name) {
    long long v = PyLong_AsLongLong(obj);
    if (v == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s must be an int", name);
        }
        return -1;
    }
    *out = (i64)v;
    return 0;
}

static int check_nargs(const char *fn, Py_ssize_t nargs, Py_ssize_t lo, Py_ssize_t hi) {
    if (nargs < lo || nargs > hi) {
        if (lo == hi)
            PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", fn, lo, nargs);
        else
            PyErr_Format(PyExc_TypeError, "%s() takes %zd to %zd arguments (%zd given)", fn, lo, hi, nargs);
        return -1;
    }
    return 0;
}

static void release(Py_buffer *views, int n) {
    for (int i = 0; i < n; i++) PyBuffer_Release(&views[i]);
}

/* The play must be one the search can walk without leaving its arrays: tsize 3 or 4 seats,
 * every order entry a seat, the leader's order distinct seats starting with itself, at most 13
 * cards a hand and the hands still to play this trick one card longer than those that played,
 * the other seats empty.  (Rows of seats that never lead may be anything: sooli's soloist
 * never leads in a search, since its first trick decides.)  A later trick whose order reaches
 * an empty hand stops the search with ValueError.  Wrong values give wrong answers or that
 * error, never a crash. */
static int check_position(const i64 *hands, const i64 *order, i64 tsize, i64 leader, i64 pos,
                          i64 lead_suit, i64 best_seat) {
    if (tsize != 3 && tsize != 4) {
        PyErr_SetString(PyExc_ValueError, "tsize must be 3 or 4");
        return -1;
    }
    if (leader < 0 || leader > 3 || pos < 0 || pos >= tsize) {
        PyErr_SetString(PyExc_ValueError, "leader must be a seat (0-3) and pos in range(tsize)");
        return -1;
    }
    for (int i = 0; i < 16; i++) {
        if (i % 4 < tsize && (order[i] < 0 || order[i] > 3)) {
            PyErr_SetString(PyExc_ValueError, "order must hold seats (0-3)");
            return -1;
        }
    }
    int in_play = 0;
    for (int i = 0; i < tsize; i++) {
        i64 p = ORDER(order, leader, i);
        if (in_play >> p & 1) {
            PyErr_SetString(PyExc_ValueError, "order[leader] must list distinct seats");
            return -1;
        }
        in_play |= 1 << p;
    }
    if (ORDER(order, leader, 0) != leader) {
        PyErr_SetString(PyExc_ValueError, "order[leader] must start with the leader");
        return -1;
    }
    for (int p = 0; p < 4; p++) {
        if (!(in_play >> p & 1) && hands[p]) {
            PyErr_SetString(PyExc_ValueError, "a seat outside the play must hold no card");
            return -1;
        }
    }
    int n = popcount(hands[ORDER(order, leader, pos)]);
    for (int i = 0; i < tsize; i++) {
        i64 h = hands[ORDER(order, leader, i)];
        if (h < 0 || popcount(h) != (i < pos ? n - 1 : n)) {
            PyErr_SetString(PyExc_ValueError,
                            "the hands still to play this trick must hold one card more than those that played");
            return -1;
        }
    }
    if (n > MAX_MOVES || (pos > 0 && n < 1)) {
        PyErr_SetString(PyExc_ValueError, "a hand holds at most 13 cards");
        return -1;
    }
    if (pos > 0 && (lead_suit < 0 || lead_suit > 3 || best_seat < 0 || best_seat > 3 ||
                    !(in_play >> best_seat & 1))) {
        PyErr_SetString(PyExc_ValueError, "mid-trick, lead_suit must be a suit and best_seat a seat in play");
        return -1;
    }
    return 0;
}

/* The position arguments search() and card_values() share, parsed and checked.  The buffers
 * stay held from a successful parse_position() until position_release(); the search reads the
 * copies of the small arrays, since the caller's may change meanwhile. */
typedef struct {
    Py_buffer views[5];
    int nv;
    i64 tsize, maxside, counted, leader, pos, lead_suit, best, best_seat, table;
    i64 extra[2]; /* the caller's own ints, from args[12] on */
    double time_left;
    int signals;
    i64 max_nodes;
    i64 *tt, *stats;
    i64 hands[4], order[16], side[4];
} Position;

static void position_release(Position *P) {
    release(P->views, P->nv);
    P->nv = 0;
}

/* args as for search(): hands, order, tsize, side, maxside, counted, leader, pos, lead_suit,
 * best, best_seat, table, then nextra ints named extra_names (checked by check_extra once
 * time_left and signals are read), then tt, stats, time_left, signals, max_nodes. */
static int parse_position(PyObject *const *args, int nextra, const char *const *extra_names,
                          int (*check_extra)(const i64 *extra), Position *P) {
    memset(P, 0, sizeof *P);
    if (get_int(args[2], &P->tsize, "tsize") < 0 || get_int(args[4], &P->maxside, "maxside") < 0 ||
        get_int(args[5], &P->counted, "counted") < 0 || get_int(args[6], &P->leader, "leader") < 0 ||
        get_int(args[7], &P->pos, "pos") < 0 || get_int(args[8], &P->lead_suit, "lead_suit") < 0 ||
        get_int(args[9], &P->best, "best") < 0 || get_int(args[10], &P->best_seat, "best_seat") < 0 ||
        get_int(args[11], &P->table, "table") < 0)
        return -1;
    for (int i = 0; i < nextra; i++)
        if (get_int(args[12 + i], &P->extra[i], extra_names[i]) < 0) return -1;
    int tail = 12 + nextra; /* tt, stats, time_left, signals, max_nodes */
    P->time_left = PyFloat_AsDouble(args[tail + 2]);
    if (P->time_left == -1.0 && PyErr_Occurred()) return -1;
    P->signals = PyObject_IsTrue(args[tail + 3]);
    if (P->signals < 0) return -1;
    if (get_int(args[tail + 4], &P->max_nodes, "max_nodes") < 0) return -1;
    if (check_extra(P->extra) < 0) return -1;
    const struct {
        int arg;
        Py_ssize_t items;
        const char *name;
    } bufs[5] = {
        {0, 4, "hands"}, {1, 16, "order"}, {3, 4, "side"},
        {tail, TT_ROWS * TT_COLS, "tt"}, {tail + 1, STATS_SIZE, "stats"},
    };
    for (; P->nv < 5; P->nv++)
        if (get_i64(args[bufs[P->nv].arg], &P->views[P->nv], bufs[P->nv].items, bufs[P->nv].name) < 0)
            goto fail;
    i64 *hands = P->views[0].buf, *order = P->views[1].buf, *side = P->views[2].buf;
    P->tt = P->views[3].buf;
    P->stats = P->views[4].buf;
    if (check_position(hands, order, P->tsize, P->leader, P->pos, P->lead_suit, P->best_seat) < 0) goto fail;
    if ((P->table | P->best) < 0) {
        PyErr_SetString(PyExc_ValueError, "cards never use bit 63");
        goto fail;
    }
    if (P->stats[GENERATION] < 1 || P->stats[GENERATION] >= GEN_LIMIT) {
        PyErr_SetString(PyExc_ValueError, "stats[GENERATION] must be within 1 and GEN_LIMIT");
        goto fail;
    }
    memcpy(P->hands, hands, sizeof P->hands);
    memcpy(P->order, order, sizeof P->order);
    memcpy(P->side, side, sizeof P->side);
    return 0;
fail:
    position_release(P);
    return -1;
}

/* A Search over P's copies and table (NULL with MemoryError). */
static Search *position_search(Position *P) {
    Search *S = PyMem_RawMalloc(sizeof(Search));
    if (!S) {
        PyErr_NoMemory();
        return NULL;
    }
    S->order = P->order;
    S->side = P->side;
    S->tsize = (int)P->tsize;
    S->maxside = P->maxside;
    S->counted = P->counted;
    S->gen = P->stats[GENERATION];
    S->tt = P->tt;
    S->locks = NULL;
    return S;
}

static PyObject *no_play(void) {
    PyErr_SetString(PyExc_ValueError, "the search reached a seat with no card to play: the orders are no play");
    return NULL;
}

static int check_won_target(const i64 *extra) {
    if (extra[0] < -64 || extra[0] > 64 || extra[1] < -64 || extra[1] > 64) {
        PyErr_SetString(PyExc_ValueError, "won and target must be trick counts");
        return -1;
    }
    return 0;
}

static int check_cap(const i64 *extra) {
    if (extra[0] < 0 || extra[0] > 64) {
        PyErr_SetString(PyExc_ValueError, "cap must be a trick count");
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(search_doc,
"search(hands, order, tsize, side, maxside, counted, leader, pos, lead_suit, best, best_seat,\n"
"       table, won, target, tt, stats, time_left, signals, max_nodes) -> (made, relevant)\n\n"
"Whether maxside can make counted take at least target tricks in all, and the cards whose rank\n"
"decided it.  hands (int64[4]) is played down and restored; order is int64[4, 4]; side int64[4];\n"
"tt and stats come from new_table().  The GIL is released while it runs.  time_left (seconds,\n"
"<= 0: none) raises TimeoutError when reached; signals runs Python's signal handlers now and\n"
"then (pass whether this is the main thread), so Ctrl-C raises KeyboardInterrupt; max_nodes\n"
"(<= 0: none) raises TimeoutError once the search has visited that many nodes.  A stopped\n"
"search leaves the table as it was at the stop, holding only finished subtrees' bounds.");

static PyObject *py_search(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_nargs("search", nargs, 19, 19) < 0) return NULL;
    static const char *const names[2] = {"won", "target"};
    Position P;
    if (parse_position(args, 2, names, check_won_target, &P) < 0) return NULL;
    i64 won = P.extra[0], target = P.extra[1];
    Search *S = position_search(&P);
    if (!S) {
        position_release(&P);
        return NULL;
    }
    S->hands = P.hands;
    S->target = target;
    tt_watch w;
    i64 relevant = 0;
    u64 nodes = 0;
    tt_watch_begin(&w, P.time_left, P.signals, 0, P.max_nodes);
    int made = run_search(S, P.stats, (int)P.leader, (int)P.pos, (int)P.lead_suit, P.best, (int)P.best_seat,
                          P.table, won, &w, &nodes, &relevant);
    int stopped = tt_watch_end(&w);
    PyMem_RawFree(S);
    position_release(&P);
    if (stopped < 0) return NULL;
    if (made == -2) return no_play();
    return Py_BuildValue("(OL)", made ? Py_True : Py_False, (long long)relevant);
}

PyDoc_STRVAR(card_values_doc,
"card_values(hands, order, tsize, side, maxside, counted, leader, pos, lead_suit, best, best_seat,\n"
"            table, cap, tt, stats, time_left, signals, max_nodes, share) -> dict[int, int]\n\n"
"TrickSolver.card_values in one call: the counted side's tricks from here after each legal card.\n"
"The arguments are search()'s, with cap (the most tricks worth counting) for won and target.\n"
"The GIL is released for the whole call; time_left, signals and max_nodes (for the whole call) as for search().\n"
"share (None: every card; else an int64 array of at least 2 shared by searches of this position\n"
"in other threads) gives this search only the cards it takes from share[1], and share[0] set\n"
"non-zero stops it with TimeoutError; an array of TT_SHARE_LOCKED_SIZE also holds the locks it\n"
"takes around tt, a table those searches share.  A stopped search's error has a found attribute: the cards it had\n"
"finished, each with its value (a dict, as returned).");

static PyObject *py_card_values(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_nargs("card_values", nargs, 19, 19) < 0) return NULL;
    static const char *const names[1] = {"cap"};
    Py_buffer share_view;
    int share_held;
    volatile i64 *share;
    if (tt_share_arg(args[18], &share_view, &share_held, &share) < 0) return NULL;
    Position P;
    if (parse_position(args, 1, names, check_cap, &P) < 0) {
        if (share_held) PyBuffer_Release(&share_view);
        return NULL;
    }
    i64 pos = P.pos;
    Pos root;
    memcpy(root.hands, P.hands, sizeof root.hands);
    root.leader = (int)P.leader;
    root.npl = (int)pos;
    root.lead_suit = pos ? (int)P.lead_suit : -1;
    root.best = pos ? P.best : 0;
    root.best_seat = pos ? (int)P.best_seat : -1;
    root.table = pos ? P.table : 0;
    root.cap = P.extra[0];
    Search *S = position_search(&P);
    if (!S) {
        position_release(&P);
        if (share_held) PyBuffer_Release(&share_view);
        return NULL;
    }
    S->locks = share_held ? tt_share_locks(share, share_view.len / 8) : NULL;
    i64 cards[MAX_MOVES], values[MAX_MOVES];
    tt_watch w;
    tt_watch_begin(&w, P.time_left, P.signals, 0, P.max_nodes);
    w.call_off = share ? &share[TT_SHARE_CALL_OFF] : NULL;
    int n = 0;
    int r = pos_card_values(S, P.stats, &root, &w, cards, values, share, &n);
    int stopped = tt_watch_end(&w);
    PyMem_RawFree(S);
    position_release(&P);
    if (share_held) PyBuffer_Release(&share_view);
    if (stopped < 0) {
        tt_attach_found(cards, values, n);
        return NULL;
    }
    if (r < 0) return no_play();
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *k = PyLong_FromLongLong(cards[i]), *v = PyLong_FromLongLong(values[i]);
        if (!k || !v || PyDict_SetItem(out, k, v) < 0) {
            Py_XDECREF(k);
            Py_XDECREF(v);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(k);
        Py_DECREF(v);
    }
    return out;
}

PyDoc_STRVAR(moves_of_doc,
"moves_of(hands, order, tsize, side, leader, pos, lead_suit, best, best_seat, table, moves,\n"
"         scores, killer=0, hint=0, misere=False) -> int\n\n"
"Fill moves (int64[13]) with the legal cards worth searching, best first; return how many.\n"
"scores (int64[13]) is scratch space.");

static PyObject *py_moves_of(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_nargs("moves_of", nargs, 12, 15) < 0) return NULL;
    Py_buffer views[5];
    int nv = 0;
    i64 tsize = 0, leader = 0, pos = 0, lead_suit = 0, best = 0, best_seat = 0, table = 0, killer = 0,
        hint = 0;
    int misere = 0;
    if (get_int(args[2], &tsize, "tsize") < 0 || get_int(args[4], &leader, "leader") < 0 ||
        get_int(args[5], &pos, "pos") < 0 || get_int(args[6], &lead_suit, "lead_suit") < 0 ||
        get_int(args[7], &best, "best") < 0 || get_int(args[8], &best_seat, "best_seat") < 0 ||
        get_int(args[9], &table, "table") < 0)
        return NULL;
    if (nargs > 12 && get_int(args[12], &killer, "killer") < 0) return NULL;
    if (nargs > 13 && get_int(args[13], &hint, "hint") < 0) return NULL;
    if (nargs > 14 && (misere = PyObject_IsTrue(args[14])) < 0) return NULL;
    if (get_i64(args[0], &views[nv], 4, "hands") < 0) goto fail;
    nv++;
    if (get_i64(args[1], &views[nv], 16, "order") < 0) goto fail;
    nv++;
    if (get_i64(args[3], &views[nv], 4, "side") < 0) goto fail;
    nv++;
    if (get_i64(args[10], &views[nv], MAX_MOVES, "moves") < 0) goto fail;
    nv++;
    if (get_i64(args[11], &views[nv], MAX_MOVES, "scores") < 0) goto fail;
    nv++;
    const i64 *hands = views[0].buf, *order = views[1].buf, *side = views[2].buf;
    if (check_position(hands, order, tsize, leader, pos, lead_suit, best_seat) < 0) goto fail;
    int nm = moves_of(hands, order, (int)tsize, side, (int)leader, (int)pos, (int)lead_suit, best,
                      (int)best_seat, table, views[3].buf, views[4].buf, killer, hint, misere);
    release(views, nv);
    return PyLong_FromLong(nm);
fail:
    release(views, nv);
    return NULL;
}

static int table_args(PyObject *const *args, Py_buffer *view, i64 *base) {
    if (get_i64(args[0], view, TT_ROWS * TT_COLS, "tt") < 0) return -1;
    if (get_int(args[1], base, "base") < 0) {
        PyBuffer_Release(view);
        return -1;
    }
    if (*base < 0 || *base % WAYS || *base + WAYS > TT_ROWS) {
        PyErr_SetString(PyExc_ValueError, "base must be the first row of a bucket");
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *py_store(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_nargs("_store", nargs, 11, 11) < 0) return NULL;
    i64 v[9];
    static const char *names[9] = {"lengths", "mask1", "value1", "mask2", "value2", "gen", "lower", "upper", "move"};
    for (int i = 0; i < 9; i++)
        if (get_int(args[2 + i], &v[i], names[i]) < 0) return NULL;
    if (v[6] < 0 || v[6] > 15 || v[7] < 0 || v[7] > 15) {
        PyErr_SetString(PyExc_ValueError, "lower and upper must be within 0-15");
        return NULL;
    }
    if (v[5] < 1 || v[5] >= GEN_LIMIT) {
        PyErr_SetString(PyExc_ValueError, "gen must be within 1 and GEN_LIMIT");
        return NULL;
    }
    Py_buffer view;
    i64 base = 0;
    if (table_args(args, &view, &base) < 0) return NULL;
    i64 pins = mask_pins(v[1], v[3]);
    i64 mask1, mask2;
    pin_masks(pins, &mask1, &mask2);
    store(view.buf, base, v[0], pins, v[2] & mask1, v[4] & mask2, v[5], v[6], v[7], v[8]);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *py_lookup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_nargs("_lookup", nargs, 7, 7) < 0) return NULL;
    i64 v[5];
    static const char *names[5] = {"lengths", "word1", "word2", "gen", "need"};
    for (int i = 0; i < 5; i++)
        if (get_int(args[2 + i], &v[i], names[i]) < 0) return NULL;
    Py_buffer view;
    i64 base, hint;
    if (table_args(args, &view, &base) < 0) return NULL;
    i64 row = lookup(view.buf, base, v[0], v[1], v[2], v[3], v[4], &hint);
    PyBuffer_Release(&view);
    return Py_BuildValue("(LL)", (long long)row, (long long)hint);
}

static PyObject *py_top_cards(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_nargs("_top_cards", nargs, 3, 3) < 0) return NULL;
    i64 live, mask1, mask2;
    if (get_int(args[0], &live, "live") < 0 || get_int(args[1], &mask1, "mask1") < 0 ||
        get_int(args[2], &mask2, "mask2") < 0)
        return NULL;
    return PyLong_FromLongLong(top_cards(live, mask_pins(mask1, mask2)));
}

static PyObject *py_top(PyObject *self, PyObject *arg) {
    (void)self;
    i64 m;
    if (get_int(arg, &m, "m") < 0) return NULL;
    return PyLong_FromLongLong(top(m));
}

static PyObject *py_popcount(PyObject *self, PyObject *arg) {
    (void)self;
    i64 m;
    if (get_int(arg, &m, "m") < 0) return NULL;
    return PyLong_FromLong(popcount(m));
}

/* The comparisons of card counts with small numbers that the search makes, computed as the
 * search computes them (the inlined popcount): the test that caught a miscompiled popcount. */
static PyObject *py_popcount_compare(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_nargs("_popcount_compare", nargs, 2, 2) < 0) return NULL;
    i64 x, k;
    if (get_int(args[0], &x, "x") < 0 || get_int(args[1], &k, "k") < 0) return NULL;
    int n = popcount(x);
    return Py_BuildValue("(OOOOO)", n >= 2 ? Py_True : Py_False, n <= 1 ? Py_True : Py_False,
                         n > 2 ? Py_True : Py_False, n < 3 ? Py_True : Py_False,
                         n >= k ? Py_True : Py_False);
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))py_search, METH_FASTCALL, search_doc},
    {"moves_of", (PyCFunction)(void (*)(void))py_moves_of, METH_FASTCALL, moves_of_doc},
    {"card_values", (PyCFunction)(void (*)(void))py_card_values, METH_FASTCALL, card_values_doc},
    {"_store", (PyCFunction)(void (*)(void))py_store, METH_FASTCALL,
     "_store(tt, base, lengths, mask1, value1, mask2, value2, gen, lower, upper, move): record bounds."},
    {"_lookup", (PyCFunction)(void (*)(void))py_lookup, METH_FASTCALL,
     "_lookup(tt, base, lengths, word1, word2, gen, need) -> (row or -1, hint)"},
    {"_top_cards", (PyCFunction)(void (*)(void))py_top_cards, METH_FASTCALL,
     "_top_cards(live, mask1, mask2) -> the live cards an entry pins"},
    {"_top", py_top, METH_O, "_top(m) -> the highest bit of m, 0 for none"},
    {"_popcount", py_popcount, METH_O, "_popcount(m) -> the number of set bits"},
    {"_popcount_compare", (PyCFunction)(void (*)(void))py_popcount_compare, METH_FASTCALL,
     "_popcount_compare(x, k) -> (n >= 2, n <= 1, n > 2, n < 3, n >= k) for n = popcount(x)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_tricks_c",
    "The native no-trump search (see tricktaker.solver._tricks).", -1, methods,
    NULL, NULL, NULL, NULL,
};

static int add_layout(PyObject *layout, const char *name, long long value) {
    PyObject *v = PyLong_FromLongLong(value);
    if (!v) return -1;
    int r = PyDict_SetItemString(layout, name, v);
    Py_DECREF(v);
    return r;
}

PyMODINIT_FUNC PyInit__tricks_c(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    pin_tables();
    PyObject *layout = PyDict_New();
    if (!layout) goto fail;
    struct { const char *name; long long value; } items[] = {
        {"BUCKET_BITS", BUCKET_BITS}, {"WAYS", WAYS}, {"TT_ROWS", TT_ROWS}, {"TT_COLS", TT_COLS},
        {"KEY", KEY}, {"VALUE1", VALUE1}, {"VALUE2", VALUE2}, {"META", META}, {"GEN_LIMIT", GEN_LIMIT},
        {"NODES", NODES},
        {"GENERATION", GENERATION}, {"TRICK_NODES", TRICK_NODES}, {"STATS_SIZE", STATS_SIZE},
        {"OPP_WEIGHT", OPP_WEIGHT}, {"KILLER_WIN", KILLER_WIN}, {"HINT_WIN", HINT_WIN},
        {"KILLER_LOSE", KILLER_LOSE}, {"HINT_LOSE", HINT_LOSE}, {"MAX_DEPTH", MAX_DEPTH},
        {"MAX_MOVES", MAX_MOVES},
    };
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++)
        if (add_layout(layout, items[i].name, items[i].value) < 0) {
            Py_DECREF(layout);
            goto fail;
        }
    if (PyModule_AddObject(m, "LAYOUT", layout) < 0) {
        Py_DECREF(layout);
        goto fail;
    }
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
