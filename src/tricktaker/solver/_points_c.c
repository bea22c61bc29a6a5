/* The native search for the point games: alpha-beta over card points, calls included.
 *
 * A C port of the search formerly compiled with Numba (see the docstring of _points.py for the
 * data layout: position rows S, rules R, card tables C, suit tables SD, stock ST, transposition
 * table TK/TB, the stack M/SC/W and the stats vector).  One kernel serves Tute, the Marjapussi
 * family and Huutopussi; what differs between them is data, not code (the builds for the
 * commonest rules below fix some of that data at compile time).
 *
 * Every array argument is checked (size, item size) before use, and every index the search
 * computes from the position's data is kept inside its array, so a wrong argument raises
 * TypeError or ValueError rather than crashing the process.
 */
#include "_kernel.h"

/* -- builds for the commonest rules --------------------------------------------------------
 *
 * This source is compiled more than once.  Built alone it is the kernel for every rule set
 * (_points_c).  A build for one family of rules (_points_<name>.c: it defines TT_POINTS_MODULE,
 * the module's name, and TT_FIXED(k), the value it fixes for rule k or TT_FREE, most of them
 * from its style's TT_TUTE_RULES or TT_ACE_RULES below, then includes this file) reads those
 * rules as constants: the compiler folds every test of them and drops the
 * branches of the rules that cannot hold there (the stock, the pip point, the other style's
 * calls), so the same search runs in fewer instructions (Tute in pairs: 14% fewer).  Such a
 * build refuses any other rules (rules_args), and tricktaker.solver._points picks the build whose
 * fixed rules the position's rules match. */
#define TT_FREE INT64_MIN
#ifndef TT_POINTS_MODULE
#define TT_POINTS_MODULE _points_c
#define TT_FIXED(k) TT_FREE
#endif
#define TT_STR_(x) #x
#define TT_STR(x) TT_STR_(x)
#define TT_CAT_(a, b) a##b
#define TT_CAT(a, b) TT_CAT_(a, b)

/* The rules the builds of one style share, as their games deal them by default; a build's
 * TT_FIXED adds its seats and what else its games fix.  Tute's: played counter-clockwise, a
 * duty to overtrump, tute and the cantes, no pips, no lead rules.  The ace-ten games':
 * clockwise, no duty to overtrump, no exchange, no ace shown first. */
#define TT_TUTE_RULES(k)                                                                              \
    ((k) == R_DIR ? -1 : (k) == R_STYLE ? STYLE_TUTE : (k) == R_MUSTOVER ? 1 : (k) == R_PEXC ? 0     \
     : (k) == R_FREE ? 0 : (k) == R_PARTNERS ? 0 : (k) == R_ORDER ? 0 : (k) == R_LFM ? 0             \
     : (k) == R_OWNLEAD ? 0 : (k) == R_MARRY ? MARRY_TUTE : (k) == R_PIPVAL ? 0 : (k) == R_TUTE ? 1  \
     : (k) == R_TOTALPIPS ? 0 : (k) == R_SOTAS ? 0 : (k) == R_MUSTDECL ? 0 : (k) == R_EXCHANY ? 0    \
     : (k) == R_ACESHOW ? 0 : (k) == R_SWEEP ? 0 : TT_FREE)
/* Tute with every card dealt (no stock, no exchange), for n seats. */
#define TT_TUTE_DEALT(k, n) ((k) == R_N ? (n) : (k) == R_STOCKLEN ? 0 : (k) == R_EXCH ? 0 : TT_TUTE_RULES(k))
#define TT_ACE_RULES(k)                                                                               \
    ((k) == R_DIR ? 1 : (k) == R_STYLE ? STYLE_ACE_TEN : (k) == R_MUSTOVER ? 0 : (k) == R_PEXC ? 0   \
     : (k) == R_ORDER ? 0 : (k) == R_TUTE ? 0 : (k) == R_EXCH ? 0 : (k) == R_SOTAS ? 0                \
     : (k) == R_MUSTDECL ? 0 : (k) == R_EXCHANY ? 0 : (k) == R_ACESHOW ? 0 : TT_FREE)

/* -- layout (the Python shim checks these against its own constants at import) ------------- */

enum {
    F_HANDS = 0, F_SP = 4, F_UP = 5, F_LEADER = 6, F_POS = 7, F_TURN = 8, F_LSUIT = 9,
    F_BLED = 10, F_BLSEAT = 11, F_BTR = 12, F_BTSEAT = 13, F_TABLE = 14, F_TPTS = 15,
    F_TPIPS = 16, F_TRUMP = 17, F_DECL = 18, F_GONE = 19, F_PHASE = 20, F_CANCALL = 21,
    F_LT1 = 22, F_LT2 = 23, F_ASKED = 24, F_WHOLE = 26, F_SANG = 28, F_WIN20 = 30,
    F_ASKER = 31, F_ASKKIND = 32, F_WANTED = 33, F_PENDING = 34, F_PIPDIFF = 35,
    F_LAST20 = 36, F_DONE = 37, F_GONEPTS = 38, F_GONEPIPS = 39, F_WON = 40, ROW = 41
};
enum { PH_PLAY = 0, PH_ANSWER = 1, PH_DECLARE = 2 };
enum {
    R_N = 0, R_DIR = 1, R_STYLE = 2, R_MUSTOVER = 3, R_PEXC = 4, R_FREE = 5, R_PARTNERS = 6,
    R_ORDER = 7, R_LFM = 8, R_OWNLEAD = 9, R_MARRY = 10, R_LAST = 11, R_PIPVAL = 12,
    R_TUTE = 13, R_MAXSIDE = 14, R_STOCKLEN = 15, R_CALLSTOCK = 16, R_EXCH = 17, R_KINGS = 18,
    R_KNIGHTS = 19, R_TOTALPTS = 20, R_SIDE = 21, R_DECK = 25, R_SPECIAL = 26,
    R_TOTALPIPS = 27, R_DOWN = 28, R_RELATIVE = 32, R_SOTAS = 33, R_MUSTDECL = 34, R_EXCHANY = 35,
    R_ACESHOW = 36, R_SWEEP = 37, R_SIZE = 40
};
enum { STYLE_TUTE = 0, STYLE_ACE_TEN = 1 };
enum { MARRY_TUTE = 0, MARRY_FIRST_TRUMPS = 1, MARRY_EVERY_TRUMPS = 2 };
enum { C_PTS = 0, C_PIPS = 1, C_UNDER = 2, C_EXCH = 3, C_WEIGHT = 4, C_STOCK = 5, C_CLASS = 6,
       C_ROWS = 7, C_COLS = 64 };
enum { SD_PAIR = 0, SD_MVAL = 1, SD_ROWS = 2 };
enum {
    MV_DECLARE = 64, MV_ASK_WHOLE = 68, MV_ASK_HALF = 72, MV_ANSWER = 76, MV_ANSWER_NO = 80,
    MV_TUTE = 81, MV_EXCHANGE = 82, MV_PASS = 83, MAX_MOVES = 48, MAX_DEPTH = 160
};
enum { KEY_WORDS = 6, TB_LB = 0, TB_UB = 1, TB_MOVE = 2, TB_GEN = 3, TB_PLB = 4, TB_PUB = 5, TB_WORDS = 6 };
/* TB_MOVE holds the best move + 1 (0: none) in its low byte and the live cards of the position
 * above it: the size of its subtree, which decides what a full bucket gives up. */
#define TB_MOVE_BITS 8
enum { S_NODES = 0, S_GEN = 1, STATS = 4, W_COLS = 40, W_KILLER = 36 };
#define INF ((i64)1 << 20)
#define PIP_DECIDED ((i64)1 << 20) /* (pip_lead: beyond any game's pips) */

/* -- the search's context ---------------------------------------------------------------- */

typedef struct {
    i64 *S;          /* rows [depth][ROW] */
    const i64 *R;    /* [R_SIZE] */
    const i64 *C;    /* [C_ROWS][64] */
    const i64 *SD;   /* [2][4] */
    const i64 *ST;   /* [stocklen or 1] */
    i64 *TK;         /* [size][KEY_WORDS] */
    int32_t *TB;     /* [size][TB_WORDS] */
    i64 *M, *SC, *W; /* [depth][MAX_MOVES], [depth][MAX_MOVES], [depth][W_COLS] */
    i64 under;       /* the cards with a face-down card beneath them */
    i64 twins;       /* the cards with another card of their suit of the same points and pips */
    i64 alike[64];   /* by card: the other cards of its suit of the same points and pips */
    i64 down;        /* every seat's face-down cards (Avomarjapussi), 0 in the other games */
    int relative;    /* keys by relative rank allowed (rules[R_RELATIVE], at most 10 cards a suit) */
    int down_keys;   /* relative keys with face-down cards allowed (two seats, 9 cards a suit) */
    int allies;      /* some side has two seats (entry_points has partners to reach) */
    int solo[2];     /* by side: its only seat, or -1 if it has more than one */
    i64 open_pairs[16]; /* by declared suits: the marriage cards of the suits not declared */
    i64 plain_class[64]; /* a card's class by its points and pips alone (no part in calls) */
    int plain_classes; /* how many: the key uses them once no call can come, if at most 8 */
    i64 point_class[64]; /* a card's class by its points alone (the pip point decided) */
    int point_classes; /* how many */
    int rising[2];   /* by table (C_PTS, C_PIPS): whether no card of a suit carries more than one above it */
    u64 tmask;       /* table size - 1 */
    i64 gen;         /* the table's generation (stats[S_GEN]) */
    volatile i64 *locks; /* the table's locks when searches in other threads share it (else NULL) */
    u64 nodes;
    int depth;       /* rows in S, M, SC, W */
    int first_row;   /* the first row searched (its work row is this search's) */
    int open_kept;   /* a trick start's open marriages are kept in its work row (W_OPEN) */
    int plain_useful; /* some card with a part in calls shares its points and pips with another */
    i64 pair_low;    /* the lower card of each suit's marriage */
    int pair_gap;    /* how far above it the other card lies, if the same in every suit, else 0 */
    int stocked;     /* the game has a stock or an up card (else stock_left is always 0) */
    int two_tute;    /* Tute for two (habanero): calls end with the stock (calls_ahead) */
    int max_seats;   /* bit per seat: the seats of the maximiser's side (is_max) */
    int play_out;    /* the most cards a hand at which play_out plays the hand out */
    int stop;        /* 1: time out or interrupt; 2: too deep */
    tt_watch *watch;
} Ctx;

#define S_(d, f) (x->S[(size_t)(d) * ROW + (f)])
/* A rule: what the rules vector says, or, in a build that fixes that rule, its value at compile
 * time (TT_FIXED: "Builds for the commonest rules" below). */
#if defined(__GNUC__)
#define R_(k) (__builtin_constant_p(k) && TT_FIXED(k) != TT_FREE ? TT_FIXED(k) : x->R[(k)])
#else
#define R_(k) (x->R[(k)])
#endif
#define C_(k, i) (x->C[(k) * C_COLS + ((i) & 63)])
#define SD_(k, s) (x->SD[(k) * 4 + ((s) & 3)])
#define M_(d, j) (x->M[(size_t)(d) * MAX_MOVES + (j)])
#define SC_(d, j) (x->SC[(size_t)(d) * MAX_MOVES + (j)])
#define W_(d, j) (x->W[(size_t)(d) * W_COLS + (j)])
/* a seat or side read from data, kept inside its array */
#define SEAT(v) ((int)((v) & 3))

/* The position of a single bit (as popcount(bit - 1), defined for 0 too: 64). */
TT_INLINE int idx(i64 bit) { return popcount(bit - 1); }

TT_INLINE i64 smask(i64 suit) { return suit_mask((int)(suit & 3)); }

/* -- small helpers --------------------------------------------------------------------------- */

/* The cards of bit's suit that beat it (strength layout). */
TT_INLINE i64 beats(i64 bit) {
    return smask(idx(bit) >> 4) & ~((i64)((u64)bit << 1) - 1);
}

/* Cards still to be drawn, Tute's upcard included. */
TT_INLINE i64 stock_left(const Ctx *x, int d) {
    if (!x->stocked) return 0;
    i64 left = R_(R_STOCKLEN) - S_(d, F_SP);
    if (S_(d, F_UP) != 0) left += 1;
    return left;
}

/* The pip point if the maximiser may still (sure = 0) or surely (sure = 1) end with more pips:
 * its lead in pips so far against the pips of every card not yet in a finished trick. */
static i64 pip_point(const Ctx *x, int d, int sure) {
    i64 val = R_(R_PIPVAL);
    if (val == 0) return 0;
    i64 rem = R_(R_TOTALPIPS) - S_(d, F_GONEPIPS);
    i64 lead = S_(d, F_PIPDIFF);
    return (sure ? lead - rem > 0 : lead + rem > 0) ? val : 0;
}

/* Whether the pip point (a game's R_PIPVAL, 0: none) is decided whatever the play from row d:
 * surely the maximiser's, or surely not (pip_point).  From then on no card's pips matter: cards
 * of equal points merge (play_reps), the key classes cards by their points alone
 * (relative_key), and it stays so down the search. */
TT_INLINE int pips_decided(const Ctx *x, int d) {
    return R_(R_PIPVAL) != 0 && (pip_point(x, d, 1) != 0 || pip_point(x, d, 0) == 0);
}

/* Tute for two (habanero): whether a cante or tute may still be declared.  Declarations are
 * made only in the pause after a trick while more than two cards are left in the stock
 * (F_CANCALL), so once the stock is down to four cards or fewer, only a pause open now is left:
 * the next trick leaves at most two.  Every other game: always. */
TT_INLINE int calls_ahead(const Ctx *x, int d) {
    if (!x->two_tute) return 1;
    return stock_left(x, d) > 4 || (S_(d, F_POS) == 0 && S_(d, F_CANCALL) != 0);
}

/* A trick's state in five words, in the rows' order F_LSUIT..F_BTSEAT: the suit led, the best
 * card of that suit and its seat, the best trump (0: none) and its seat.  The search keeps it in
 * its rows, play_out in a PlayOut. */
enum { T_LSUIT = 0, T_BLED = 1, T_BLSEAT = 2, T_BTR = 3, T_BTSEAT = 4, T_WORDS = 5 };
_Static_assert(F_BLED == F_LSUIT + T_BLED && F_BLSEAT == F_LSUIT + T_BLSEAT &&
                   F_BTR == F_LSUIT + T_BTR && F_BTSEAT == F_LSUIT + T_BTSEAT,
               "a row's trick fields follow the trick's order");

/* The seat winning the trick so far: the best trump's, else the best card's of the suit led. */
TT_INLINE int trick_winner(const i64 *trick) {
    return SEAT(trick[T_BTR] != 0 ? trick[T_BTSEAT] : trick[T_BLSEAT]);
}

/* The seat winning the trick on the table at row d. */
TT_INLINE int winner_of(const Ctx *x, int d) { return trick_winner(&S_(d, F_LSUIT)); }

/* trick after seat plays card b, leading it when lead (trumps: suit trump, or -1). */
TT_INLINE void play_to_trick(i64 *trick, i64 b, int seat, int lead, i64 trump) {
    i64 suit = idx(b) >> 4;
    if (lead) {
        trick[T_LSUIT] = suit;
        trick[T_BLED] = b;
        trick[T_BLSEAT] = seat;
        trick[T_BTR] = suit == trump ? b : 0;
        trick[T_BTSEAT] = seat;
        return;
    }
    if (suit == trick[T_LSUIT] && b > trick[T_BLED]) {
        trick[T_BLED] = b;
        trick[T_BLSEAT] = seat;
    }
    if (suit == trump && b > trick[T_BTR]) {
        trick[T_BTR] = b;
        trick[T_BTSEAT] = seat;
    }
}

TT_INLINE int next_seat(const Ctx *x, int seat) {
    return (int)((seat + R_(R_DIR) + R_(R_N)) % R_(R_N));
}

TT_INLINE int is_max(const Ctx *x, int seat) { return (x->max_seats >> SEAT(seat)) & 1; }

/* -- duties ------------------------------------------------------------------------------- */

/* The cards a seat holding cards may play to a trick under way (trumps: suit trump, or -1): led
 * in suit lsuit, whose best card of that suit is bled and best trump btr (0: none), won so far
 * by winner; the first duty tier its cards meet.  (legal_cards adds the lead, a free play while
 * a stock lasts and the first trick's ace; play_out plays its tricks by this alone.) */
TT_INLINE i64 follow_cards(const Ctx *x, i64 cards, int seat, i64 trump, i64 lsuit, i64 bled,
                        i64 btr, int winner) {
    i64 lead = smask(lsuit);
    i64 tm = trump >= 0 ? smask(trump) : 0;
    int partner_wins = R_(R_N) == 4 && winner % 2 == seat % 2;
    i64 v;
    if (R_(R_STYLE) == STYLE_TUTE) {
        if (R_(R_PEXC) != 0 && partner_wins) return (cards & lead) ? (cards & lead) : cards;
        v = cards & beats(bled);
        if (v) return v;
        v = cards & lead;
        if (v) return v;
        if (tm != lead) {
            if (btr != 0 && (R_(R_N) == 2 || R_(R_MUSTOVER) != 0)) {
                v = cards & beats(btr);
                if (v) return v;
            }
            v = cards & tm;
            if (v) return v;
        }
        return cards;
    }
    int beat = !(R_(R_PEXC) != 0 && R_(R_PARTNERS) != 0 && partner_wins);
    if (btr != 0 && tm != lead) {
        v = cards & lead;
        if (v) return v;
        if (beat) {
            v = cards & beats(btr);
            if (v) return v;
        }
        v = cards & tm;
        if (v) return v;
        return cards;
    }
    if (beat) {
        v = cards & beats(bled);
        if (v) return v;
    }
    v = cards & lead;
    if (v) return v;
    if (tm != 0 && tm != lead) {
        v = cards & tm;
        if (v) return v;
    }
    return cards;
}

/* Whether a stock still lets every card be played (R_FREE: no duty while it lasts). */
TT_INLINE int free_play(const Ctx *x, int d) { return R_(R_FREE) != 0 && stock_left(x, d) > 0; }

/* The cards the seat to move may play: the first duty tier its cards meet. */
static i64 legal_cards(const Ctx *x, int d) {
    int seat = SEAT(S_(d, F_TURN));
    i64 cards = S_(d, seat);
    if (S_(d, F_POS) == 0) {
        i64 t1 = S_(d, F_LT1);
        if (t1 != 0) {
            if (cards & t1) return cards & t1;
            i64 t2 = S_(d, F_LT2);
            if (cards & t2) return cards & t2;
        }
        return cards;
    }
    if (free_play(x, d)) return cards;
    if (R_(R_ACESHOW) != 0 && S_(d, F_GONE) == 0) {
        /* the first trick (no trick finished yet): the led suit's ace must show */
        i64 ace = cards & top(R_(R_DECK) & smask(S_(d, F_LSUIT)));
        if (ace) return ace;
    }
    return follow_cards(x, cards, seat, S_(d, F_TRUMP), S_(d, F_LSUIT), S_(d, F_BLED),
                        S_(d, F_BTR), winner_of(x, d));
}

/* The cards seat may yet call with: its hand and face-down cards, its partner's where partners
 * ask each other for marriages, and the stock and the up card (anyone's), none played. */
static i64 call_cards(const Ctx *x, int d, int seat) {
    i64 cards = S_(d, seat) | R_(R_DOWN + seat);
    if (R_(R_PARTNERS) != 0 && R_(R_N) == 4) {
        int partner = (seat + 2) & 3;
        cards |= S_(d, partner) | R_(R_DOWN + partner);
    }
    return (cards | C_(C_STOCK, S_(d, F_SP)) | S_(d, F_UP)) & ~S_(d, F_GONE);
}

/* The marriage cards of the suits whose marriage may still be declared: the suit not declared
 * yet, and both cards still to come into one hand (one side's two hands where partners ask each
 * other for a half or a whole), the stock and the up card counting as anyone's.  Cards never pass
 * between hands in the play, so a pair split between seats that may not ask each other, or with
 * a card played, can no longer be called. */
static i64 open_pairs_now(const Ctx *x, int d) {
    i64 cand = x->open_pairs[S_(d, F_DECL) & 15] & ~S_(d, F_GONE);
    if (cand == 0) return 0;
    /* (partners' cards are one side's: its first seat stands for both) */
    int seats = R_(R_PARTNERS) != 0 && R_(R_N) == 4 ? 2 : (int)R_(R_N);
    i64 open = 0;
    for (int seat = 0; seat < seats; seat++) {
        i64 hold = call_cards(x, d, seat);
        if (x->pair_gap > 0) {  /* every pair is its lower card and the card pair_gap above it */
            i64 both = hold & (i64)((u64)hold >> x->pair_gap) & cand & x->pair_low;
            open |= both | (i64)((u64)both << x->pair_gap);
            continue;
        }
        for (int s = 0; s < 4; s++) {
            i64 pair = SD_(SD_PAIR, s);
            if ((cand & pair) == pair && (hold & pair) == pair) open |= pair;
        }
    }
    return open;
}

/* The work row's column that keeps a trick start's open_pairs_now for the trick's later hands
 * (x->open_kept: set by search at every trick start, and at the root row by root_values).  The
 * cards played since can only have closed a marriage, so for merging cards it stays sound. */
enum { W_OPEN = 39 };

/* open_pairs_now, or (open_kept) what the trick start of row d's trick kept: a superset. */
static i64 open_pairs_row(const Ctx *x, int d) {
    if (x->open_kept) {
        i64 t = d - S_(d, F_POS);
        if (t >= 0 && S_(t, F_POS) == 0) return W_(t, W_OPEN);
    }
    return open_pairs_now(x, d);
}

/* Each legal card (W[d][k]) and the card that stands for it (W[d][16 + k]: itself unless
 * merge); return how many.  Cards merge into a run when they are the seat's own legal cards,
 * adjacent among the live cards of their suit, with equal points and pips (points alone once
 * the pip point is decided: pips_decided) and no part in a call; the run's lowest card stands
 * for all. */
static int play_reps(Ctx *x, int d, i64 legal, int merge) {
    int n = 0;
    if ((legal & (legal - 1)) == 0) {  /* one card (or none): it stands for itself */
        W_(d, 0) = W_(d, 16) = legal;
        return legal != 0;
    }
    if (!merge) {
        for (i64 m = legal; m && n < 16; m &= m - 1) {
            W_(d, n) = W_(d, 16 + n) = m & -m;
            n++;
        }
        return n;
    }
    i64 live = R_(R_DECK) & ~S_(d, F_GONE);
    /* (once no call can come, a card's part in calls no longer matters) */
    i64 special = calls_ahead(x, d) ? R_(R_SPECIAL) | open_pairs_row(x, d) : 0;
    i64 prev = 0, run = 0;
    int by_pips = !pips_decided(x, d);
    /* legal cards in rank order, suit by suit: a card continues the run of the legal card just
     * below it when no live card lies between them */
    for (i64 m = legal; m && n < 16; m &= m - 1) {
        i64 low = m & -m;
        int i = idx(low);
        i64 below = top(live & suit_mask(i >> 4) & (low - 1));
        if (below == 0 || below != prev) run = 0;
        prev = low;
        int plain = !(special & low) && C_(C_UNDER, i) == 0;
        if (plain && run != 0) {
            int j = idx(run);
            if (C_(C_PTS, i) == C_(C_PTS, j) && (!by_pips || C_(C_PIPS, i) == C_(C_PIPS, j))) {
                W_(d, n) = low;
                W_(d, 16 + n) = run;
                n++;
                continue;
            }
        }
        W_(d, n) = low;
        W_(d, 16 + n) = low;
        n++;
        run = plain ? low : 0;
    }
    return n;
}

/* -- calls ---------------------------------------------------------------------------------- */

TT_INLINE int four_of(i64 hand, i64 rank) { return popcount(hand & rank) == 4; }

/* Tute: whether cards hold four reyes, four caballos or (R_SOTAS) four sotas. */
TT_INLINE int has_tute(const Ctx *x, i64 cards) {
    return four_of(cards, R_(R_KINGS)) || four_of(cards, R_(R_KNIGHTS)) ||
           (R_(R_SOTAS) != 0 && four_of(cards, R_(R_SOTAS)));
}

/* Tute: append the declarations seat may make (tute, las cuarenta, veintes).  Without
 * all_sings the minimising side's cantes are left out, and veintes follow suit order. */
static int tute_decls(Ctx *x, int d, int seat, int all_sings, int nm) {
    i64 hand = S_(d, seat);
    if (R_(R_TUTE) != 0 && has_tute(x, hand)) M_(d, nm++) = MV_TUTE;
    if (!all_sings && !is_max(x, seat)) return nm;
    i64 trump = S_(d, F_TRUMP);
    int side = (int)(R_(R_SIDE + seat) & 1);
    for (int s = 0; s < 4; s++) {
        i64 pair = SD_(SD_PAIR, s);
        if ((hand & pair) != pair || ((S_(d, F_DECL) >> s) & 1)) continue;
        if (s == trump) {
            i64 blocked = R_(R_N) == 2 ? S_(d, F_WIN20) : S_(d, F_SANG + side);
            if (blocked == 0) M_(d, nm++) = MV_DECLARE + s;
        } else if (all_sings || s > S_(d, F_LAST20)) {
            M_(d, nm++) = MV_DECLARE + s;
        }
    }
    return nm;
}

/* Whether marriages are little ones now (the Marjapussi family once trumps are made, without
 * a lead rule after marriages). */
TT_INLINE int little_ones(const Ctx *x, int d) {
    return R_(R_MARRY) == MARRY_FIRST_TRUMPS && S_(d, F_TRUMP) >= 0 && R_(R_LFM) == 0;
}

/* The Marjapussi family and Huutopussi: append the calls seat may make now. */
static int family_calls(Ctx *x, int d, int seat, int root, int nm) {
    if (!root && little_ones(x, d) && !is_max(x, seat)) return nm;
    i64 partner = R_(R_PARTNERS) != 0 ? S_(d, (seat + 2) % 4) : 0;
    i64 cards = S_(d, seat);
    int side = (int)(R_(R_SIDE + seat) & 1);
    i64 order = R_(R_ORDER);
    i64 asked = order != 0 ? S_(d, F_ASKED + side) : 0;
    int no_declare = asked != 0, no_whole = asked >= 2;
    if (order >= 3) {  /* per-seat ask lockouts: F_WHOLE has a bit per seat of the side */
        i64 whole = S_(d, F_WHOLE + side), me = 1 << (seat >> 1), half = asked == 2;
        no_declare = order == 3 ? (whole & me) != 0 : (whole & me) != 0 || half;
        no_whole = order == 3 ? (whole & ~me) != 0 : half;
    }
    i64 declared = S_(d, F_DECL);
    if (!no_declare) {
        for (int s = 0; s < 4; s++) {
            i64 pair = SD_(SD_PAIR, s);
            if (!((declared >> s) & 1) && (cards & pair) == pair) M_(d, nm++) = MV_DECLARE + s;
        }
    }
    if (R_(R_PARTNERS) == 0) return nm;
    i64 gone = S_(d, F_GONE);
    if (!no_whole) {
        int able = 0, yes = 0;
        for (int s = 0; s < 4; s++) {
            i64 pair = SD_(SD_PAIR, s);
            if (!((declared >> s) & 1)) {
                able |= ((cards | gone) & pair) == 0;
                yes |= (partner & pair) == pair;
            }
        }
        if (able && (root || yes)) M_(d, nm++) = MV_ASK_WHOLE;
    }
    if (order == 2 && S_(d, F_WHOLE + side) == 0) return nm;
    for (int s = 0; s < 4; s++) {
        i64 pair = SD_(SD_PAIR, s);
        i64 mine = cards & pair;
        if (!((declared >> s) & 1) && mine != 0 && mine != pair && (gone & pair & ~mine) == 0
            && (root || (partner & pair & ~mine)))
            M_(d, nm++) = MV_ASK_HALF + s;
    }
    return nm;
}

/* Append to M[d] (from nm) the calls the seat on lead may make now: Tute's declarations or the
 * Marjapussi family's and Huutopussi's calls; return the new count. */
static int leader_calls(Ctx *x, int d, int seat, int root, int nm) {
    if (R_(R_STYLE) == STYLE_TUTE) return tute_decls(x, d, seat, root, nm);
    return family_calls(x, d, seat, root, nm);
}

/* Whether M[d][start:nm] holds a cante. */
TT_INLINE int sings(const Ctx *x, int d, int start, int nm) {
    for (int j = start; j < nm; j++)
        if (M_(d, j) < MV_ASK_WHOLE) return 1;
    return 0;
}

/* Whether the maximiser should call rather than lead at once (a little one to declare). */
TT_INLINE int declares_first(const Ctx *x, int d, int seat, int nm) {
    if (!little_ones(x, d) || !is_max(x, seat)) return 0;
    for (int j = 0; j < nm; j++)
        if (M_(d, j) < MV_ASK_WHOLE) return 1;
    return 0;
}

/* The true answers to the pending ask. */
static int answers(Ctx *x, int d) {
    i64 cards = S_(d, SEAT(S_(d, F_TURN)));
    int nm = 0;
    i64 kind = S_(d, F_ASKKIND);
    if (kind < 0) {
        for (int s = 0; s < 4; s++) {
            i64 pair = SD_(SD_PAIR, s);
            if (!((S_(d, F_DECL) >> s) & 1) && (cards & pair) == pair) M_(d, nm++) = MV_ANSWER + s;
        }
    } else if (cards & S_(d, F_WANTED)) {
        M_(d, nm++) = MV_ANSWER + (kind & 3);
    }
    if (nm == 0) M_(d, nm++) = MV_ANSWER_NO;
    return nm;
}

/* Whether seat has a declaration worth searching in a Tute pairs window. */
static int tute_has_decl(const Ctx *x, int d, int seat) {
    i64 hand = S_(d, seat);
    if (R_(R_TUTE) != 0 && has_tute(x, hand)) return 1;
    if (!is_max(x, seat)) return 0;
    i64 undeclared = x->open_pairs[S_(d, F_DECL) & 15];
    if (x->pair_gap > 0)  /* (every pair is its lower card and the card pair_gap above it) */
        return (hand & (i64)((u64)hand >> x->pair_gap) & x->pair_low & undeclared) != 0;
    for (int s = 0; s < 4; s++) {
        i64 pair = SD_(SD_PAIR, s);
        if ((hand & pair) == pair && (undeclared & pair) == pair) return 1;
    }
    return 0;
}

/* -- the move generator ------------------------------------------------------------------ */

/* Whether a seat playing after seat in this trick, on the other side, holds a card that beats
 * best, the card that would then be winning the trick: a higher card of its suit or, void in
 * the led suit, a trump (over best if best is one).  The duties make such a hand play one only
 * sometimes, so this guides the move order and decides nothing. */
static int beaten_later(const Ctx *x, int d, int seat, i64 best) {
    i64 trump = S_(d, F_TRUMP);
    i64 tm = trump >= 0 ? smask(trump) : 0;
    i64 lead = S_(d, F_POS) == 0 ? smask(idx(best) >> 4) : smask(S_(d, F_LSUIT));
    int ruffing = (best & tm) != 0 && tm != lead;
    int o = seat;
    for (i64 p = S_(d, F_POS) + 1; p < R_(R_N); p++) {
        o = next_seat(x, o);
        if (R_(R_SIDE + o) == R_(R_SIDE + seat)) continue;
        i64 h = S_(d, o);
        int void_ = (h & lead) == 0;
        if (ruffing ? void_ && (h & beats(best)) : (h & beats(best)) || (void_ && tm != lead && (h & tm)))
            return 1;
    }
    return 0;
}

/* The cards in the hands of every seat but seat. */
TT_INLINE i64 other_hands(const Ctx *x, int d, int seat) {
    return (S_(d, 0) | S_(d, 1) | S_(d, 2) | S_(d, 3)) & ~S_(d, seat);
}

/* A guess at how good playing b is, for move ordering.  On lead: first a card the partner's
 * top card or ruff takes, or that no other hand beats (unless an opponent can ruff it; a trump
 * after the plain suits' winners), then a lead an opponent ruffs, then low cards.  Later in the
 * trick: first a card that wins the trick now and that no later opponent can beat (most points
 * first; one that no other hand beats in its suit after the others, as it would take a trick of
 * its own later), then the cheapest card that wins for now, then points on the partner's card
 * if no later opponent can beat it (mate_safe, the same for every card of the node), then the
 * cards worth least; a discard (neither the led suit nor trumps) that no other hand beats in its
 * suit goes after the other discards.  While a stock lets every card be played, a following
 * card that wins goes after those that do not, and a trump that does not win after the other
 * cards that do not. */
static i64 play_score(const Ctx *x, int d, int seat, i64 b, int mate_safe) {
    int i = idx(b);
    i64 pts = C_(C_WEIGHT, i);
    int suit = i >> 4;
    int strength = i & 15;
    i64 pos = S_(d, F_POS);
    i64 trump = S_(d, F_TRUMP);
    int free_ = free_play(x, d);
    /* no other hand beats b in its suit: it takes a trick of its own later, unless ruffed */
    i64 others = other_hands(x, d, seat);
    int top_of_suit = b > (others & suit_mask(suit));
    if (pos == 0) {
        /* (stock and face-down cards take no part in this trick; while a stock lets every
         * card be played, a void says nothing) */
        i64 sm = suit_mask(suit);
        i64 tm = trump >= 0 && suit != trump ? suit_mask((int)trump) : 0;
        int ruffed = 0;
        for (int o = 0; o < R_(R_N) && tm != 0; o++)
            if (R_(R_SIDE + o) != R_(R_SIDE + seat) && (free_ || !(S_(d, o) & sm)) && (S_(d, o) & tm))
                ruffed = 1;
        if (ruffed) return 70 - pts - strength;
        /* a trump stays a winner later, where a plain suit's winner may be ruffed, so the trump
         * comes after the other winning leads */
        if (top_of_suit) return (suit == trump ? 80 : 100) + pts;
        if (R_(R_N) == 4 && R_(R_SIDE + ((seat + 2) & 3)) == R_(R_SIDE + seat)) {
            /* the partner's top card of the suit is over every opponent's, or it ruffs */
            i64 mate = S_(d, (seat + 2) & 3);
            i64 theirs = others & ~mate & sm;
            if (theirs != 0 && ((mate & sm) > theirs || ((mate & sm) == 0 && (mate & tm))))
                return 110 + pts;
        }
        return 40 - pts - strength;
    }
    i64 bt = S_(d, F_BTR);
    int wins;
    if (bt != 0)
        wins = suit == trump && b > bt;
    else
        wins = (suit == S_(d, F_LSUIT) && b > S_(d, F_BLED)) || (trump >= 0 && suit == trump);
    if (free_) {
        /* while a stock lets every card be played, a trick's card is seldom worth a winner:
         * the follower ducks first, then wins in the suit led, then with a trump (what cut
         * off after a winner had failed was most often a duck: docs/solver.md) */
        if (wins) return (suit == trump ? 20 : 30) - pts - strength;
    } else if (wins) {
        if (beaten_later(x, d, seat, b)) return 90 - strength;
        return (top_of_suit ? 100 : 120) + pts;  /* (the card that takes a trick later: after) */
    }
    /* a discard keeps back a card no other hand beats in its suit: it takes a trick later */
    int discard = suit != S_(d, F_LSUIT) && suit != trump;
    i64 keep = discard && top_of_suit ? 30 : 0;
    if (mate_safe) return 60 + pts - keep;
    if (free_ && suit == trump) return 30 - pts - strength - keep;  /* (the last duck) */
    return 40 - pts - strength - keep;
}

/* Sort the moves by score, best first: killer (what cut off at the sibling trick start last)
 * ahead of all, then first (the table's move for this position, from a search with another
 * window, which fails more often), then the rest.  A stable insertion sort. */
static int order_moves(Ctx *x, int d, int nm, i64 first, i64 killer) {
    i64 *M = &M_(d, 0), *SC = &SC_(d, 0);
    for (int j = 0; j < nm; j++) {
        if (M[j] == killer)
            SC[j] = (i64)1 << 31;
        else if (M[j] == first)
            SC[j] = (i64)1 << 30;
    }
    for (int i = 1; i < nm; i++) {
        i64 mv = M[i], sc = SC[i];
        int j = i - 1;
        while (j >= 0 && SC[j] < sc) {
            M[j + 1] = M[j];
            SC[j + 1] = SC[j];
            j--;
        }
        M[j + 1] = mv;
        SC[j + 1] = sc;
    }
    return nm;
}

/* Fill M[d] with the moves worth searching, best guess first; return how many.  root lists
 * every legal move (no merging, every cante); first goes to the front. */
static int gen_moves(Ctx *x, int d, i64 first, int root) {
    i64 phase = S_(d, F_PHASE);
    int seat = SEAT(S_(d, F_TURN));
    int nm = 0;
    if (phase == PH_ANSWER) {
        nm = answers(x, d);
        for (int j = 0; j < nm; j++) SC_(d, j) = 0;
        return nm;
    }
    if (phase == PH_DECLARE) {
        nm = tute_decls(x, d, seat, root, 0);
        if (nm == 0 || R_(R_MUSTDECL) == 0) M_(d, nm++) = MV_PASS;
        for (int j = 0; j < nm; j++) SC_(d, j) = 0;
        return order_moves(x, d, nm, first, -1);
    }
    i64 pos = S_(d, F_POS);
    if (R_(R_EXCH) != 0 && (pos == 0 || R_(R_EXCHANY) != 0) && S_(d, F_UP) != 0 &&
        stock_left(x, d) > 2) {
        i64 ex = C_(C_EXCH, idx(S_(d, F_UP)));
        if (ex != 0 && (S_(d, seat) & ex)) {
            SC_(d, nm) = 200;
            M_(d, nm++) = MV_EXCHANGE;
        }
    }
    if (pos == 0) {
        if (S_(d, F_CANCALL) != 0) {
            int calls = nm;
            nm = leader_calls(x, d, seat, root, nm);
            if (R_(R_STYLE) == STYLE_TUTE && !root && is_max(x, seat) && sings(x, d, calls, nm)) {
                for (int j = 0; j < nm; j++) SC_(d, j) = 200;
                return order_moves(x, d, nm, first, -1);
            }
        }
        for (int j = 0; j < nm; j++) SC_(d, j) = 200;
        if (!root && nm && declares_first(x, d, seat, nm)) return order_moves(x, d, nm, first, -1);
    }
    i64 legal = legal_cards(x, d);
    int nc = play_reps(x, d, legal, !root);
    /* a single card needs no score (a call's 200 and the killer's and table move's come first
     * anyway); whether the trick is the mover's side's whatever the later hands hold */
    int scored = nc > 1;
    int mate_safe = scored && pos != 0 && R_(R_SIDE + winner_of(x, d)) == R_(R_SIDE + seat) &&
                    !beaten_later(x, d, seat, S_(d, F_BTR) != 0 ? S_(d, F_BTR) : S_(d, F_BLED));
    for (int j = 0; j < nc && nm < MAX_MOVES; j++) {
        i64 card = W_(d, j);
        if (card != W_(d, 16 + j)) continue;
        M_(d, nm) = idx(card);
        SC_(d, nm) = scored ? play_score(x, d, seat, card, mate_safe) : 0;
        nm++;
    }
    return order_moves(x, d, nm, first, pos == 0 ? W_(d, W_KILLER) : -1);
}

/* -- making a move ----------------------------------------------------------------------- */

/* A marriage of suit for seat's side: trumps, the lead rule; return the maximiser's gain. */
static i64 marry(Ctx *x, int e, int seat, int suit) {
    S_(e, F_DECL) |= (i64)1 << suit;
    i64 mode = R_(R_MARRY), value;
    if (mode == MARRY_FIRST_TRUMPS) {
        if (S_(e, F_TRUMP) < 0) {
            S_(e, F_TRUMP) = suit;
            value = 2;
        } else {
            value = 1;
        }
    } else {
        S_(e, F_TRUMP) = suit;
        value = SD_(SD_MVAL, suit);
    }
    if (R_(R_LFM) != 0) {
        S_(e, F_LT1) = SD_(SD_PAIR, suit);
        S_(e, F_LT2) = 0;
    }
    return is_max(x, seat) ? value : 0;
}

/* Tute: a cante of suit; return the maximiser's gain. */
static i64 sing(Ctx *x, int e, int seat, int suit) {
    S_(e, F_DECL) |= (i64)1 << suit;
    i64 value;
    if (suit == S_(e, F_TRUMP)) {
        value = 40;
    } else {
        value = 20;
        S_(e, F_SANG + (R_(R_SIDE + seat) & 1)) = 1;
        S_(e, F_WIN20) = 1;
        S_(e, F_LAST20) = suit;
    }
    return is_max(x, seat) ? value : 0;
}

/* Apply a call (not a card) to row e; return the maximiser's gain. */
static i64 call(Ctx *x, int e, int seat, i64 mv) {
    if (mv == MV_PASS) {
        S_(e, F_LAST20) = -1;
        i64 partner = S_(e, F_PENDING);
        S_(e, F_PENDING) = -1;
        if (partner >= 0 && tute_has_decl(x, e, SEAT(partner))) {
            S_(e, F_TURN) = SEAT(partner);
        } else {
            S_(e, F_PHASE) = PH_PLAY;
            S_(e, F_TURN) = S_(e, F_LEADER);
        }
        return 0;
    }
    if (mv == MV_TUTE) {
        S_(e, F_DONE) = 1;
        if (is_max(x, seat)) return R_(R_TOTALPTS) - S_(e, F_GONEPTS) + R_(R_LAST);
        return 0;
    }
    if (mv < MV_ASK_WHOLE) {
        int suit = (int)(mv - MV_DECLARE);
        if (R_(R_STYLE) == STYLE_TUTE) return sing(x, e, seat, suit);
        S_(e, F_CANCALL) = 0;
        return marry(x, e, seat, suit);
    }
    int side = (int)(R_(R_SIDE + seat) & 1);
    if (mv == MV_ASK_WHOLE || mv < MV_ANSWER) {
        S_(e, F_CANCALL) = 0;
        S_(e, F_PHASE) = PH_ANSWER;
        S_(e, F_ASKER) = seat;
        S_(e, F_TURN) = (seat + 2) % 4;
        if (mv == MV_ASK_WHOLE) {
            if (S_(e, F_ASKED + side) < 1) S_(e, F_ASKED + side) = 1;
            S_(e, F_WHOLE + side) |= R_(R_ORDER) >= 3 ? 1 << (seat >> 1) : 1;
            S_(e, F_ASKKIND) = -1;
        } else {
            int suit = (int)(mv - MV_ASK_HALF);
            S_(e, F_ASKED + side) = 2;
            S_(e, F_ASKKIND) = suit;
            S_(e, F_WANTED) = SD_(SD_PAIR, suit) & ~S_(e, seat);
        }
        return 0;
    }
    S_(e, F_PHASE) = PH_PLAY;
    S_(e, F_TURN) = SEAT(S_(e, F_ASKER));
    if (mv == MV_ANSWER_NO) return 0;
    return marry(x, e, seat, (int)(mv - MV_ANSWER));
}

/* The trick on row e is complete: score it, draw, and open the pause after it. */
static i64 end_trick(Ctx *x, int e) {
    int winner = winner_of(x, e);
    int mine = is_max(x, winner);
    i64 gain = mine ? S_(e, F_TPTS) : 0;
    if (R_(R_SWEEP) != 0) S_(e, F_WON) |= mine ? 1 : 2;
    S_(e, F_PIPDIFF) += mine ? S_(e, F_TPIPS) : -S_(e, F_TPIPS);
    S_(e, F_GONE) |= S_(e, F_TABLE);
    S_(e, F_GONEPTS) += S_(e, F_TPTS);
    S_(e, F_GONEPIPS) += S_(e, F_TPIPS);
    i64 trick_leader = S_(e, F_LEADER);
    S_(e, F_TABLE) = 0;
    S_(e, F_TPTS) = 0;
    S_(e, F_TPIPS) = 0;
    S_(e, F_POS) = 0;
    S_(e, F_LSUIT) = -1;
    S_(e, F_BLED) = 0;
    S_(e, F_BTR) = 0;
    if (stock_left(x, e) > 0) {
        int who[2] = {winner, SEAT(1 - winner)};
        for (int k = 0; k < 2; k++) {
            i64 sp = S_(e, F_SP);
            if (sp < R_(R_STOCKLEN)) {
                S_(e, who[k]) |= x->ST[sp];
                S_(e, F_SP) = sp + 1;
            } else {
                S_(e, who[k]) |= S_(e, F_UP);
                S_(e, F_UP) = 0;
            }
        }
    }
    int empty = 1;
    for (int s = 0; s < R_(R_N); s++)
        if (S_(e, s) != 0) empty = 0;
    if (empty && stock_left(x, e) == 0) {
        S_(e, F_DONE) = 1;
        if (mine) gain += R_(R_LAST);
        if (S_(e, F_WON) == 1) gain += R_(R_SWEEP);
        if (R_(R_PIPVAL) != 0 && S_(e, F_PIPDIFF) > 0) gain += R_(R_PIPVAL);
        return gain;
    }
    S_(e, F_LEADER) = winner;
    S_(e, F_TURN) = winner;
    i64 left = stock_left(x, e);
    if (R_(R_STYLE) == STYLE_TUTE) {
        if (R_(R_N) == 2) {
            S_(e, F_CANCALL) = left > 2 ? 1 : 0;
        } else {
            int partner = R_(R_N) == 4 ? (winner + 2) % 4 : -1; /* three players: alone */
            if (tute_has_decl(x, e, winner)) {
                S_(e, F_PHASE) = PH_DECLARE;
                S_(e, F_PENDING) = partner;
            } else if (partner >= 0 && tute_has_decl(x, e, partner)) {
                S_(e, F_PHASE) = PH_DECLARE;
                S_(e, F_TURN) = partner;
                S_(e, F_PENDING) = -1;
            }
        }
        return gain;
    }
    int may = S_(e, F_DECL) != 0xF;
    if (R_(R_CALLSTOCK) >= 0 && left <= R_(R_CALLSTOCK)) may = 0;
    if (R_(R_OWNLEAD) != 0 && trick_leader != winner) may = 0;
    S_(e, F_CANCALL) = may ? 1 : 0;
    return gain;
}

/* Row d + 1 := row d after move mv; return what the maximiser gains by it. */
static i64 apply_move(Ctx *x, int d, i64 mv) {
    int e = d + 1;
    memcpy(&S_(e, 0), &S_(d, 0), ROW * sizeof(i64));
    int seat = SEAT(S_(d, F_TURN));
    if (mv == MV_EXCHANGE) {
        i64 up = S_(e, F_UP);
        i64 ex = C_(C_EXCH, idx(up));
        S_(e, seat) = (S_(e, seat) ^ ex) | up;
        S_(e, F_UP) = ex;
        S_(e, F_LAST20) = -1;
        return 0;
    }
    if (mv >= 64) return call(x, e, seat, mv);
    i64 b = (i64)1 << mv;
    S_(e, seat) = (S_(e, seat) ^ b) | C_(C_UNDER, mv);
    i64 pts = C_(C_PTS, mv);
    play_to_trick(&S_(e, F_LSUIT), b, seat, S_(e, F_POS) == 0, S_(e, F_TRUMP));
    if (S_(e, F_POS) == 0) {
        S_(e, F_LT1) = 0;
        S_(e, F_LT2) = 0;
        S_(e, F_TABLE) = b;
        S_(e, F_TPTS) = pts;
        S_(e, F_TPIPS) = C_(C_PIPS, mv);
    } else {
        S_(e, F_TABLE) |= b;
        S_(e, F_TPTS) += pts;
        S_(e, F_TPIPS) += C_(C_PIPS, mv);
    }
    S_(e, F_CANCALL) = 0;
    S_(e, F_WIN20) = 0;
    S_(e, F_LAST20) = -1;
    i64 pos = S_(e, F_POS) + 1;
    if (pos < R_(R_N)) {
        S_(e, F_POS) = pos;
        S_(e, F_TURN) = next_seat(x, seat);
        return 0;
    }
    return end_trick(x, e);
}

/* -- bounds and the transposition table ------------------------------------------------- */

/* The most the maximiser can still gain: points out, the last trick, the pip point if it can
 * still get it, and the marriages whose cards its side may still hold (hands, stock, its
 * face-down cards) while it may still declare them. */
static i64 upper_bound(const Ctx *x, int d) {
    i64 ub = R_(R_TOTALPTS) - S_(d, F_GONEPTS) + R_(R_LAST) + pip_point(x, d, 0);
    if (!(S_(d, F_WON) & 2)) ub += R_(R_SWEEP);
    if (!calls_ahead(x, d)) return ub;
    i64 reach = C_(C_STOCK, S_(d, F_SP)) | S_(d, F_UP);
    for (int seat = 0; seat < R_(R_N); seat++)
        if (is_max(x, seat)) reach |= S_(d, seat) | R_(R_DOWN + seat);
    reach &= ~S_(d, F_GONE);
    i64 mode = R_(R_MARRY);
    i64 trump = S_(d, F_TRUMP);
    int first = trump < 0;
    for (int s = 0; s < 4; s++) {
        i64 pair = SD_(SD_PAIR, s);
        if (((S_(d, F_DECL) >> s) & 1) || (reach & pair) != pair) continue;
        if (mode == MARRY_TUTE) {
            ub += s == trump ? 40 : 20;
        } else if (mode == MARRY_FIRST_TRUMPS) {
            ub += first ? 2 : 1;
            first = 0;
        } else {
            ub += SD_(SD_MVAL, s);
        }
    }
    return ub;
}

/* Whether the trump suit can no longer change (nor appear). */
static int trumps_fixed(const Ctx *x, int d) {
    i64 mode = R_(R_MARRY);
    if (mode == MARRY_TUTE) return 1;
    if (S_(d, F_TRUMP) < 0) return 0;
    if (mode == MARRY_FIRST_TRUMPS) return 1;
    return open_pairs_row(x, d) == 0;
}

/* Whether the maximiser's side (mine = 1), the other (0) or either (-1) may still declare
 * tute: one of its hands holds the four cards (tute_decls), or a stock is left to draw them
 * from; never once a card of each four is played. */
static int may_tute(const Ctx *x, int d, int mine) {
    if (R_(R_TUTE) == 0 || !calls_ahead(x, d)) return 0;
    i64 gone = S_(d, F_GONE);
    if ((gone & R_(R_KINGS)) && (gone & R_(R_KNIGHTS)) && (R_(R_SOTAS) == 0 || (gone & R_(R_SOTAS))))
        return 0;
    if (stock_left(x, d) != 0) return 1;
    for (int seat = 0; seat < R_(R_N); seat++)
        if ((mine < 0 || is_max(x, seat) == mine) && has_tute(x, S_(d, seat))) return 1;
    return 0;
}

/* Whether a call may still come from row d on: not in the play phase with no marriage open
 * (W_OPEN: at a trick start) and no tute in a hand, nor in habanero's last tricks
 * (family_calls, tute_decls).  Once it is false it stays false: cards never pass between hands
 * in the play. */
static int calls_can_come(const Ctx *x, int d) {
    return calls_ahead(x, d) &&
           (S_(d, F_PHASE) != PH_PLAY || W_(d, W_OPEN) != 0 || may_tute(x, d, -1));
}

/* The sum of the k smallest card points among the cards of pool (any number of cards). */
static i64 least_points(const Ctx *x, i64 pool, int k) {
    i64 v[64];
    int n = 0;
    for (i64 m = pool; m; m &= m - 1) v[n++] = C_(C_PTS, idx(m & -m));
    i64 sum = 0;
    for (int r = 0; r < k && r < n; r++) {
        int low = r;
        for (int j = r + 1; j < n; j++)
            if (v[j] < v[low]) low = j;
        i64 t = v[low];
        v[low] = v[r];
        v[r] = t;
        sum += t;
    }
    return sum;
}

/* Points that surely go to the maximiser and to the other side: the cards of the top run of
 * live trumps held in one side's hands (*mine_out, *theirs_out).  When that side is one seat,
 * each of those trumps wins a trick of its own, where every other seat gives a card it holds
 * or will hold (its hand, the stock, its face-down cards): *mine_more and *theirs_more add the
 * least points those cards can carry.  (These cards may be among the ones quick_points counts,
 * so the two are alternatives.) */
static void safe_points(const Ctx *x, int d, i64 *mine_out, i64 *theirs_out, i64 *mine_more,
                        i64 *theirs_more) {
    *mine_out = *theirs_out = *mine_more = *theirs_more = 0;
    i64 trump = S_(d, F_TRUMP);
    if (R_(R_TOTALPTS) == 0 || trump < 0 || !trumps_fixed(x, d)) return;
    i64 m = R_(R_DECK) & ~S_(d, F_GONE) & smask(trump);
    i64 side = -1, pts = 0;
    int k = 0;
    while (m) {
        i64 t = top(m);
        m ^= t;
        i64 owner = -1;
        for (int seat = 0; seat < R_(R_N); seat++)
            if (S_(d, seat) & t) owner = R_(R_SIDE + seat);
        if (owner < 0 || (side >= 0 && owner != side)) break;
        side = owner;
        pts += C_(C_PTS, idx(t));
        k++;
    }
    if (side < 0 || pts == 0) return;
    i64 more = 0;
    int holder = x->solo[side & 1];
    if (holder >= 0) {
        i64 later = (C_(C_STOCK, S_(d, F_SP)) | S_(d, F_UP)) & ~S_(d, F_GONE);
        for (int seat = 0; seat < R_(R_N); seat++)
            if (seat != holder)
                more += least_points(x, S_(d, seat) | later | (R_(R_DOWN + seat) & ~S_(d, F_GONE)), k);
    }
    if (side == R_(R_MAXSIDE)) {
        if (!may_tute(x, d, 0)) {
            *mine_out = pts;
            *mine_more = pts + more;
        }
    } else {
        if (!may_tute(x, d, 1)) {
            *theirs_out = pts;
            *theirs_more = pts + more;
        }
    }
}

/* The sum of the m smallest card points (table C_PTS) or pips (C_PIPS) among the cards of h. */
static i64 smallest_points(const Ctx *x, i64 h, int m, int table) {
    if (x->rising[table & 1]) {  /* (every game's cards so far: the lowest cards carry the least) */
        i64 sum = 0;
        for (; m > 0 && h; m--, h &= h - 1) sum += C_(table, idx(h & -h));
        return sum;
    }
    i64 p[16];
    int n = 0;
    while (h && n < 16) {
        i64 low = h & -h;
        h ^= low;
        i64 v = C_(table, idx(low));
        int j = n++;
        while (j > 0 && p[j - 1] > v) {
            p[j] = p[j - 1];
            j--;
        }
        p[j] = v;
    }
    i64 sum = 0;
    for (int j = 0; j < m && j < n; j++) sum += p[j];
    return sum;
}

/* Quick tricks: card points the leader's side surely takes by leading at once its top cards of
 * the plain suits (the return value) and of trumps (*trumps), from a trick start in the play phase with no stock, no lead rule and no card
 * beneath a face-up one (the caller checks).  In a plain suit the leader cashes the cards that
 * beat every other seat's cards of the suit, as many rounds as every other seat holding trumps
 * can follow (a seat without trumps cannot take a trick of the suit).  Every other seat must
 * follow while it can: it gives at least its smallest cards of the suit.  The leader keeps the
 * lead throughout, and only the leader's side may call in between, so nothing else changes.
 * In trumps the leader cashes the trumps above every other seat's, and every other seat gives at
 * least its smallest trumps while it has them.  The plain suits' and trumps' cards are disjoint,
 * and the plain rounds leave every seat's trumps as they were, so the two add up; the trumps'
 * part and safe_points' are alternatives (the larger counts). */
static i64 quick_points(const Ctx *x, int d, int leader, i64 *trumps, int table) {
    int n = (int)R_(R_N);
    i64 trump = S_(d, F_TRUMP);
    i64 tm = trump >= 0 ? smask(trump) : 0;
    i64 own = S_(d, leader), others = 0;
    int ruffers[4], nr = 0;  /* the other seats holding trumps */
    for (int o = 0; o < n; o++) {
        if (o == leader) continue;
        others |= S_(d, o);
        if (S_(d, o) & tm) ruffers[nr++] = o;
    }
    i64 total = 0;
    *trumps = 0;
    if (trump >= 0) {  /* the leader's trumps above every other seat's: everyone follows or discards */
        i64 mine = own & tm, oth = others & tm;
        i64 above = oth ? mine & ~((top(oth) << 1) - 1) : mine;
        int k = popcount(above);
        if (k > 0) {
            i64 pts = 0;
            for (i64 c = above; c; c &= c - 1) pts += C_(table, idx(c & -c));
            for (int r = 0; r < nr; r++) pts += smallest_points(x, S_(d, ruffers[r]) & tm, k, table);
            *trumps = pts;
        }
    }
    for (int s = 0; s < 4; s++) {
        if (s == trump) continue;
        i64 sm = suit_mask(s);
        i64 mine = own & sm;
        if (!mine) continue;
        i64 oth = others & sm;
        i64 above = oth ? mine & ~((top(oth) << 1) - 1) : mine;
        int k = popcount(above);
        for (int r = 0; r < nr && k > 0; r++) {
            int held = popcount(S_(d, ruffers[r]) & sm);
            if (held < k) k = held;
        }
        if (k == 0) continue;
        for (int r = 0; r < k; r++) {
            i64 t = top(above);
            above ^= t;
            total += C_(table, idx(t));
        }
        for (int o = 0; o < n; o++) {
            if (o == leader) continue;
            i64 h = S_(d, o) & sm;
            if (h) total += smallest_points(x, h, k, table);
        }
    }
    return total;
}

/* The card points (table C_PTS) or pips (C_PIPS) the leader's side surely takes through an
 * entry to a partner (same conditions as quick_points), plus the larger of safe and what the
 * partner's trumps cash.  In a plain suit where the partner holds the top live card and each
 * opponent must follow (it holds the suit, or has no trump to ruff with), the leader leads its
 * cheapest card of the suit, every opponent gives at least its cheapest one, and the partner
 * wins the trick with the top card.  The partner then leads and cashes its quick tricks in the
 * other suits (quick_points on scratch row d + 1, the suit taken out of every hand): that trick
 * left them as they were, bar an opponent's discard, which went to the partner's trick and so
 * makes up for anything it takes off that opponent's later cards.  The best such suit counts;
 * 0 if none. */
static i64 entry_points(const Ctx *x, int d, int leader, i64 safe, int table) {
    if (!x->allies) return 0;
    int n = (int)R_(R_N);
    i64 trump = S_(d, F_TRUMP);
    i64 tm = trump >= 0 ? smask(trump) : 0;
    i64 live = S_(d, 0) | S_(d, 1) | S_(d, 2) | S_(d, 3);
    i64 best = 0;
    for (int partner = 0; partner < n; partner++) {
        if (partner == leader || R_(R_SIDE + partner) != R_(R_SIDE + leader)) continue;
        for (int s = 0; s < 4; s++) {
            if (s == trump) continue;
            i64 sm = suit_mask(s);
            i64 mine = S_(d, leader) & sm;
            i64 t = top(live & sm);
            if (!mine || !(S_(d, partner) & t)) continue;
            i64 pts = C_(table, idx(t)) + smallest_points(x, mine, 1, table);
            int ok = 1;
            for (int o = 0; o < n && ok; o++) {
                if (R_(R_SIDE + o) == R_(R_SIDE + leader)) continue;
                i64 h = S_(d, o) & sm;
                if (h)
                    pts += smallest_points(x, h, 1, table);
                else if (S_(d, o) & tm)
                    ok = 0;
            }
            if (!ok) continue;
            int e = d + 1;  /* (quick_points reads only the hands and the trump suit) */
            for (int o = 0; o < 4; o++) S_(e, o) = S_(d, o) & ~sm;
            S_(e, F_TRUMP) = trump;
            i64 trumps;
            pts += quick_points(x, e, partner, &trumps, table);
            pts += trumps > safe ? trumps : safe;
            if (pts > best) best = pts;
        }
    }
    return best;
}

/* The pip point decided by the leader's quick tricks (same conditions as quick_points), when
 * the pips so far do not decide it yet: the leader's side takes at least the pips of its quick
 * tricks, so its final lead in pips is at least (lead so far) + 2 * (those pips) - (pips still
 * out).  If that settles the pip point for the maximiser, add it to *mine (the caller adds the
 * pip point the pips so far decide, so only one of them counts) and return 0; if it settles it
 * against the maximiser, return the pip point (to take off the upper bound). */
static i64 quick_pip_point(const Ctx *x, int d, int leader, i64 *mine) {
    i64 val = R_(R_PIPVAL);
    if (val == 0 || pip_point(x, d, 1) != 0 || pip_point(x, d, 0) == 0) return 0;
    i64 trumps;
    i64 sure = quick_points(x, d, leader, &trumps, C_PIPS) + trumps;
    i64 entry = entry_points(x, d, leader, 0, C_PIPS);
    if (entry > sure) sure = entry;
    i64 rem = R_(R_TOTALPIPS) - S_(d, F_GONEPIPS);
    i64 lead = S_(d, F_PIPDIFF);
    if (is_max(x, leader)) {
        if (lead + 2 * sure - rem > 0) *mine += val;
        return 0;
    }
    return lead - 2 * sure + rem > 0 ? 0 : val;
}

/* Every field of a trick-start position beyond the hands and the lead rule, in one word, but the
 * pip lead, which the entry keeps beside its bounds (pip_lead). */
static i64 meta(const Ctx *x, int d) {
    /* once no call can come, what was declared, sung and asked no longer matters; the key says
     * which is the case (a position where a call can still come may hold those fields at 0
     * too) */
    int calls = calls_can_come(x, d);
    i64 up = S_(d, F_UP);
    i64 upi = up != 0 ? idx(up) + 1 : 0;
    i64 m = S_(d, F_LEADER);
    m = m * 4 + S_(d, F_TURN);
    m = m * 8 + S_(d, F_TRUMP) + 1;
    m = m * 2 + calls;
    /* (what was declared counts only through the marriages still open: those suits) */
    int open_suits = 0;
    for (int s = 0; s < 4 && calls; s++)
        if (W_(d, W_OPEN) & SD_(SD_PAIR, s)) open_suits |= 1 << s;
    m = m * 16 + open_suits;
    /* (and whether the leader may call now only if its side holds a card of an open marriage:
     * a declaration needs its own pair, an ask the partner's half or whole) */
    int can = calls && S_(d, F_CANCALL) != 0;
    if (can && R_(R_STYLE) != STYLE_TUTE)
        can = (W_(d, W_OPEN) & call_cards(x, d, SEAT(S_(d, F_LEADER)))) != 0;
    m = m * 2 + can;
    m = m * 4 + S_(d, F_PHASE);
    m = m * 8 + (calls ? S_(d, F_PENDING) + 1 : 0);
    m = m * 8 + S_(d, F_ASKKIND) + 1;
    m = m * 4 + (calls ? S_(d, F_ASKED) : 0);
    m = m * 4 + (calls ? S_(d, F_ASKED + 1) : 0);
    m = m * 4 + (calls ? S_(d, F_WHOLE) : 0);
    m = m * 4 + (calls ? S_(d, F_WHOLE + 1) : 0);
    m = m * 2 + (calls ? S_(d, F_SANG) : 0);
    m = m * 2 + (calls ? S_(d, F_SANG + 1) : 0);
    m = m * 2 + (calls ? S_(d, F_WIN20) : 0);
    m = m * 8 + (calls ? S_(d, F_LAST20) + 1 : 0);
    m = m * 4 + (S_(d, F_WON) & 3);
    m = m * 32 + S_(d, F_SP);
    m = m * 64 + upi;
    return m;
}

/* The maximiser's pip lead so far as a table entry records it: 0 without a pip point, else
 * F_PIPDIFF, or once the pip point is decided (pips_decided) PIP_DECIDED for the maximiser and
 * -PIP_DECIDED against it, above and below every lead that does not decide it: every decided
 * lead plays the same way, also in positions with other pips still out that share a key of
 * the kind that ignores pips (relative_key).  It is not in the key.  A position's value never
 * falls as the lead rises (each line of play ends with the same pips added to it, and only the
 * pip point depends on it), and rises by at most the pip point's worth, so a bound found at
 * one lead holds for others: a lower bound at every higher lead (at a lower one, less the pip
 * point), an upper bound at every lower lead (at a higher one, plus the pip point).  Positions
 * that differ only in who took the pips of the tricks before share one entry. */
static i64 pip_lead(const Ctx *x, int d) {
    if (R_(R_PIPVAL) == 0) return 0;
    i64 lead = S_(d, F_PIPDIFF);
    if (pips_decided(x, d)) return lead > 0 ? PIP_DECIDED : -PIP_DECIDED;
    return lead;
}

/* How the position is keyed: 0 by its cards, 1 by relative rank (relative_key: every live card
 * in a hand), 2 by relative rank with face-down cards (relative_key_down). */
static int relative(const Ctx *x, int d) {
    if (!x->relative || stock_left(x, d) != 0) return 0;
    if (x->down == 0) return 1;
    i64 held = S_(d, F_GONE);
    for (int seat = 0; seat < R_(R_N); seat++) held |= S_(d, seat);
    if ((x->down & ~held) == 0) return 1;
    return x->down_keys && S_(d, F_LT1) == 0 && S_(d, F_LT2) == 0 ? 2 : 0;
}

/* The suits (a bit each) whose cards a relative key classes by their points and pips alone
 * rather than by their part in calls too (when there are at most 8 such classes): every suit
 * once no call can come, else the suits with no open marriage (open_pairs_now) and no special
 * card in a hand.  Inside the search no call can involve such a suit's cards: a declaration or
 * a sing needs the pair in one hand, an ask the partner's half or whole, and cards never pass
 * between hands.  The key says which suits these are (its kind).  Where no card with a part in
 * calls shares its points and pips with another (plain_useful), the classes are the same and
 * every suit counts as not plain, unless the pip point is decided (decided: then a plain suit's
 * cards are classed by their points alone). */
static int plain_suits(const Ctx *x, int d, i64 live, int decided) {
    if (x->plain_classes > 8) return 0;
    if (!calls_ahead(x, d)) return 15;
    if (!x->plain_useful && !decided) return 0;  /* (and a key carried down more often) */
    i64 open = open_pairs_row(x, d) | (live & R_(R_SPECIAL));
    int plain = 0;
    for (int s = 0; s < 4; s++)
        if (!(open & suit_mask(s))) plain |= 1 << s;
    return plain;
}

/* A relative-rank key into k[0..3], one word per suit: for each live card, by its rank among
 * the live cards of its suit, its owner and class (5 bits); and how many there are.  A card of a
 * plain suit (plain_suits) is classed by its points and pips, or by its points alone once the
 * pip point is decided (decided: pips_decided, when there are at most 8 such classes). */
static void relative_key(const Ctx *x, int d, int plain, int decided, i64 *k) {
    int n = (int)R_(R_N);
    i64 live = 0;
    for (int seat = 0; seat < n; seat++) live |= S_(d, seat);
    for (int s = 0; s < 4; s++) k[s] = (i64)((u64)popcount(live & suit_mask(s)) << 52);
    for (int seat = 0; seat < n; seat++) {
        i64 h = S_(d, seat);
        while (h) {
            i64 low = h & -h;
            h ^= low;
            int i = idx(low);
            int place = popcount(live & suit_mask(i >> 4) & (low - 1));
            i64 cls = !((plain >> (i >> 4)) & 1) ? C_(C_CLASS, i)
                      : decided ? x->point_class[i & 63] : x->plain_class[i & 63];
            k[(i >> 4) & 3] |= (i64)((u64)(seat * 8 + (cls & 7)) << ((5 * place) & 63));
        }
    }
}

/* The work row's columns that keep a trick start's relative key for the trick starts below it:
 * the four suit words, the live cards they describe, and their kind: 1 + the suits classed
 * without a part in calls (plain_suits) + 16 once the pip point is decided (those suits then
 * classed by points alone), 0 if the row has no such key. */
enum { W_KEY = 32, W_KEYLIVE = 37, W_KEYKIND = 38 };

/* relative_key from the key of the trick start above it on the search's path (row p, whose
 * live cards include d's: in play no card comes back to a hand), the cards played since taken
 * out: a card's field, at its place among the live cards of its suit, goes, and the fields above
 * it move down one place.  Far cheaper than reading every live card again. */
static void relative_key_after(const Ctx *x, int p, i64 live, i64 *k) {
    i64 held = W_(p, W_KEYLIVE);
    i64 gone = held & ~live;
    for (int s = 0; s < 4; s++) k[s] = W_(p, W_KEY + s);
    while (gone) {
        i64 c = gone & -gone;
        gone ^= c;
        int i = idx(c);
        int s = (i >> 4) & 3;
        int place = popcount(held & suit_mask(s) & (c - 1));
        u64 word = (u64)k[s];
        u64 count = word >> 52;
        u64 body = word & (((u64)1 << 52) - 1);
        u64 below = ((u64)1 << (5 * place)) - 1;
        body = (body & below) | ((body >> 5) & ~below);
        k[s] = (i64)(body | (count - 1) << 52);
        held ^= c;
    }
}

/* A relative-rank key for two seats with face-down cards (Avomarjapussi) into k[0..3] and k[5]:
 * the live cards are the hands' and the face-down ones; each has, by its rank among the live
 * cards of its suit, 6 bits: its owner (seat 0 or 1, or face down under seat 0's or seat 1's
 * cards), whether it lies on a face-down card, and its class.  k[5] holds the face-down cards
 * themselves (and bit 63, which no card uses: no other key's k[5] has it).  Two positions with
 * one key are the same game up to equal cards: the map between their live cards by rank in
 * each suit keeps owners, classes and order, and it maps the face-down cards, the same ones in
 * both, each to itself, and so the cards on them too (the same ones: those on the face-down
 * cards), so every face-down card turns up under the same card in both. */
static void relative_key_down(const Ctx *x, int d, i64 *k) {
    i64 gone = S_(d, F_GONE);
    i64 hidden = x->down & ~gone & ~(S_(d, 0) | S_(d, 1));
    i64 live = S_(d, 0) | S_(d, 1) | hidden;
    i64 seat1 = S_(d, 1) | (hidden & ~R_(R_DOWN));  /* owner bit 0 */
    i64 on = x->under & live;  /* cards lying on a face-down card (it turns up as they go) */
    for (int s = 0; s < 4; s++) {
        u64 word = 0;
        int place = 0;
        for (i64 m = live & suit_mask(s); m; m &= m - 1, place++) {
            i64 low = m & -m;
            int i = idx(low);
            u64 code = (u64)(((hidden & low) != 0) * 32 + ((seat1 & low) != 0) * 16 +
                             ((on & low) != 0) * 8 + (C_(C_CLASS, i) & 7));
            word |= code << ((6 * place) & 63);
        }
        k[s] = (i64)(word | (u64)place << 56);
    }
    k[5] = (i64)((u64)hidden | ((u64)1 << 63));
}

/* Whether table entry (tk, tb) holds key k of this generation. */
TT_INLINE int entry_holds(const Ctx *x, const i64 *tk, const int32_t *tb, const i64 *k) {
    return (i64)tb[TB_GEN] == x->gen && tk[0] == k[0] && tk[1] == k[1] && tk[2] == k[2]
           && tk[3] == k[3] && tk[4] == k[4] && tk[5] == k[5];
}

TT_INLINE u64 mix(u64 h, i64 v) {
    h ^= (u64)v;
    h *= (u64)(-7046029254386353131LL);
    h ^= (h >> 31) & 0x1FFFFFFFFULL;
    return h;
}

/* The sum of the cards' points (table C_PTS) or pips (C_PIPS). */
TT_INLINE i64 card_sum(const Ctx *x, i64 cards, int table) {
    i64 sum = 0;
    for (i64 m = cards; m; m &= m - 1) sum += C_(table, idx(m & -m));
    return sum;
}

/* The maximiser's gain from a last trick where each seat plays the one card it holds
 * (hand[seat]), led by leader: the trick's points and the last trick's bonus to its winner, the
 * sweep if the maximiser's side took every trick, and the pip point, from the pip lead and the
 * tricks taken (F_PIPDIFF, F_WON) before it. */
static i64 last_trick_gain(const Ctx *x, const i64 *hand, int leader, i64 trump, i64 pipdiff,
                           i64 won) {
    /* (a seat not at the table holds no card) */
    i64 cards = hand[0] | hand[1] | hand[2] | hand[3];
    i64 trumps = trump >= 0 ? cards & smask(trump) : 0;
    i64 top_card = top(trumps ? trumps : cards & smask(idx(hand[leader]) >> 4));
    int winner = 0;
    while (winner < 3 && hand[winner] != top_card) winner++;
    i64 gain = 0;
    i64 pips = R_(R_PIPVAL) != 0 ? card_sum(x, cards, C_PIPS) : 0;
    if (is_max(x, winner)) {
        gain = card_sum(x, cards, C_PTS) + R_(R_LAST);
        if (!(won & 2)) gain += R_(R_SWEEP);
        pipdiff += pips;
    } else {
        pipdiff -= pips;
    }
    if (R_(R_PIPVAL) != 0 && pipdiff > 0) gain += R_(R_PIPVAL);
    return gain;
}

/* The gain from a trick start where every seat holds one card and nothing else can happen:
 * the forced last trick, or -1 if that is not the case.  A leader who may call has no call to
 * make unless the move generator's own calls (leader_calls, which writes M[d]) find one: with a
 * card a hand, only a half-marriage ask to a partner holding the other half is left. */
static i64 last_trick(Ctx *x, int d) {
    if (S_(d, F_PHASE) != PH_PLAY || stock_left(x, d) != 0) return -1;
    int n = (int)R_(R_N);
    for (int seat = 0; seat < n; seat++) {
        i64 c = S_(d, seat);
        if (c == 0 || (c & (c - 1)) || C_(C_UNDER, idx(c)) != 0) return -1;
    }
    int leader = SEAT(S_(d, F_TURN));
    if (S_(d, F_CANCALL) != 0 && leader_calls(x, d, leader, 0, 0) != 0) return -1;
    return last_trick_gain(x, &S_(d, F_HANDS), leader, S_(d, F_TRUMP), S_(d, F_PIPDIFF),
                           S_(d, F_WON));
}

/* The most cards a hand at which play_out plays a hand out at once: two (sixteen ways at most
 * through the first of two tricks with four seats), three with two seats (nine through the
 * first of three).  With one card more, the table is looked up first (an answer there saves the
 * whole play), and only a position it does not hold is played out (docs/solver.md, "The last
 * tricks, played out"). */
enum { PLAY_OUT_CARDS = 2, PLAY_OUT_CARDS_TWO = 3 };

/* The last tricks, played out by play_out: the hands, the trick on the table, and what the
 * finished tricks leave for the hand's end (the pip lead, who has won a trick). */
typedef struct {
    i64 hand[4];
    i64 trick[T_WORDS];
    i64 trump, table, pipdiff, won;
} PlayOut;

/* The maximiser's gain from the seat to play at pos in the trick on, to the end of the hand,
 * fail-soft within (alpha, beta); every hand holds the same number of cards at a trick start,
 * and the last trick is counted at once (last_trick_gain).  Like last_trick's plays, these
 * count no search nodes: the trick start that play_out answers is the node. */
static i64 play_on(Ctx *x, PlayOut *t, int seat, int pos, i64 alpha, i64 beta);

/* play_on once the trick's last card is down: its points to its winner, then the next trick. */
TT_INLINE i64 trick_done(Ctx *x, PlayOut *t, i64 alpha, i64 beta) {
    int winner = trick_winner(t->trick);
    int mine = is_max(x, winner);
    i64 won = t->won | (R_(R_SWEEP) != 0 ? (mine ? 1 : 2) : 0);
    i64 pips = R_(R_PIPVAL) != 0 ? card_sum(x, t->table, C_PIPS) : 0;
    i64 pipdiff = t->pipdiff + (mine ? pips : -pips);
    i64 gain = mine ? card_sum(x, t->table, C_PTS) : 0;
    if ((t->hand[winner] & (t->hand[winner] - 1)) == 0)  /* one card a hand: the last trick */
        return gain + last_trick_gain(x, t->hand, winner, t->trump, pipdiff, won);
    PlayOut next = *t;
    next.table = 0;
    next.pipdiff = pipdiff;
    next.won = won;
    return gain + play_on(x, &next, winner, 0, alpha - gain, beta - gain);
}

static i64 play_on(Ctx *x, PlayOut *t, int seat, int pos, i64 alpha, i64 beta) {
    i64 cards = t->hand[seat];
    i64 *trick = t->trick;
    i64 legal = pos == 0 ? cards
                         : follow_cards(x, cards, seat, t->trump, trick[T_LSUIT], trick[T_BLED],
                                        trick[T_BTR], trick_winner(trick));
    int maxing = is_max(x, seat);
    i64 best = maxing ? -INF : INF;
    i64 before[T_WORDS];  /* (put back after each card) */
    memcpy(before, trick, sizeof before);
    i64 b;
    for (i64 m = legal; m; m ^= b) {
        /* the leader's higher card first, a follower's lower one (1-3% fewer instructions than
         * the higher card first everywhere: callgrind, Tute in pairs, Huutopussi, Marjapussi) */
        b = pos == 0 ? top(m) : m & -m;
        if (b & x->twins) {
            /* a card next to one already tried among the cards in hand and on the table, of
             * the same points and pips, plays the same from here on: it is not tried (no call
             * can come in a play-out; this hand's cards are the ones it held before the loop) */
            i64 live = t->hand[0] | t->hand[1] | t->hand[2] | t->hand[3] | cards | t->table;
            i64 near = pos == 0 ? live & beats(b) : top(live & suit_mask(idx(b) >> 4) & (b - 1));
            if (near & -near & legal & x->alike[idx(b)]) continue;
        }
        t->hand[seat] = cards ^ b;
        t->table ^= b;
        play_to_trick(trick, b, seat, pos == 0, t->trump);
        i64 v = pos + 1 == R_(R_N) ? trick_done(x, t, alpha, beta)
                                   : play_on(x, t, next_seat(x, seat), pos + 1, alpha, beta);
        t->table ^= b;
        memcpy(trick, before, sizeof before);
        if (maxing) {
            if (v > best) {
                best = v;
                if (best >= beta) break;
                if (best > alpha) alpha = best;
            }
        } else if (v < best) {
            best = v;
            if (best <= alpha) break;
            if (best < beta) beta = best;
        }
    }
    t->hand[seat] = cards;
    return best;
}

/* The gain from a trick start where every hand holds two to most cards (none with a face-down
 * card beneath it), no stock is left, the lead is free and no call can come any more, or -1 if
 * that is not the case: played out here (fail-soft within (alpha, beta)), with no key, bound or
 * table entry of its own.  The few ways through those tricks cost less than keying the position
 * and waiting for its table entry (most = x->play_out: a fifth to a third of a full deal's
 * nodes), or than searching it move by move once the table did not hold it (x->play_out + 1,
 * the search's caller keeping the answer in the table). */
static i64 play_out(Ctx *x, int d, i64 live, i64 alpha, i64 beta, int most) {
    int n = (int)R_(R_N);
    PlayOut t;
    int k = popcount(S_(d, 0));
    if (k < 2 || k > most) return -1;
    for (int seat = 0; seat < 4; seat++) {
        t.hand[seat] = seat < n ? S_(d, seat) : 0;
        if (seat < n && popcount(t.hand[seat]) != k) return -1;
    }
    if (S_(d, F_PHASE) != PH_PLAY || S_(d, F_LT1) != 0 || stock_left(x, d) != 0 ||
        (live & x->under) || (R_(R_ACESHOW) != 0 && S_(d, F_GONE) == 0) || calls_can_come(x, d))
        return -1;
    memset(t.trick, 0, sizeof t.trick);  /* (set by the lead) */
    t.trump = S_(d, F_TRUMP);
    t.table = 0;
    t.pipdiff = S_(d, F_PIPDIFF);
    t.won = S_(d, F_WON);
    return play_on(x, &t, SEAT(S_(d, F_TURN)), 0, alpha, beta);
}

/* -- the search ------------------------------------------------------------------------ */

/* Table entry tb's lower and upper bounds at pip lead (pip_lead). */
TT_INLINE i64 entry_lower(const Ctx *x, const int32_t *tb, i64 lead) {
    return tb[TB_LB] - (lead >= tb[TB_PLB] ? 0 : R_(R_PIPVAL));
}

TT_INLINE i64 entry_upper(const Ctx *x, const int32_t *tb, i64 lead) {
    return tb[TB_UB] + (lead <= tb[TB_PUB] ? 0 : R_(R_PIPVAL));
}

/* Narrow the table entry (tk, tb) at slot, if it still holds key k, to a search's fail-soft
 * answer within (alpha, beta), and keep its best move (-1: none). */
static void store_bounds(Ctx *x, i64 slot, const i64 *tk, int32_t *tb, const i64 *k, i64 best,
                         i64 alpha, i64 beta, i64 best_move, i64 lead) {
    tt_lock(x->locks, (u64)slot >> 1);
    if (entry_holds(x, tk, tb, k)) {
        /* a bound replaces the entry's when it is tighter at this pip lead, or as tight and
         * good for more leads (pip_lead) */
        if (best < beta) {
            if (best < entry_upper(x, tb, lead)) {
                tb[TB_UB] = (int32_t)best;
                tb[TB_PUB] = (int32_t)lead;
            } else if (best == tb[TB_UB] && lead > tb[TB_PUB]) {
                tb[TB_PUB] = (int32_t)lead;
            }
        }
        if (best > alpha) {
            if (best > entry_lower(x, tb, lead)) {
                tb[TB_LB] = (int32_t)best;
                tb[TB_PLB] = (int32_t)lead;
            } else if (best == tb[TB_LB] && lead < tb[TB_PLB]) {
                tb[TB_PLB] = (int32_t)lead;
            }
        }
        tb[TB_MOVE] = (int32_t)((tb[TB_MOVE] & ~((1 << TB_MOVE_BITS) - 1)) | (best_move + 1));
    }
    tt_unlock(x->locks, (u64)slot >> 1);
}

/* The maximiser's gain from row d on, fail-soft within (alpha, beta).  On a stop (x->stop)
 * it returns at once and stores nothing more in the table. */
static i64 search(Ctx *x, int d, i64 alpha, i64 beta) {
    x->nodes++;
    if (tt_watch_poll(x->watch, x->nodes)) {
        x->stop = 1;
        return 0;
    }
    if (d + 2 > x->depth) {
        x->stop = 2;
        return 0;
    }
    i64 slot = -1;
    i64 first = -1;
    i64 k[KEY_WORDS] = {0, 0, 0, 0, 0, 0};
    i64 *tk = NULL;
    int32_t *tb = NULL;
    i64 lead = 0;
    if (S_(d, F_POS) == 0) {
        i64 last = last_trick(x, d);
        if (last >= 0) return last;
        /* the cards in hand (the key's and the quick points' condition; a seat not at the
         * table holds none) */
        i64 live = S_(d, 0) | S_(d, 1) | S_(d, 2) | S_(d, 3);
        W_(d, W_OPEN) = open_pairs_now(x, d);  /* (open_pairs_row reads it from here on) */
        i64 out = play_out(x, d, live, alpha, beta, x->play_out);
        if (out >= 0) return out;
        int rel = relative(x, d);
        int kind = 0;
        k[5] = S_(d, F_LT1) | S_(d, F_LT2);
        if (rel == 1) {
            int decided = x->point_classes <= 8 && pips_decided(x, d);
            int plain = plain_suits(x, d, live, decided);
            kind = 1 + plain + 16 * decided;
            int p = d - 1;
            while (p >= x->first_row && S_(p, F_POS) != 0) p--;
            if (p >= x->first_row && W_(p, W_KEYKIND) == kind) {
                relative_key_after(x, p, live, k);
#ifdef TT_CHECK_KEYS
                i64 k2[KEY_WORDS] = {0, 0, 0, 0, 0, 0};
                relative_key(x, d, plain, decided, k2);
                if (k2[0] != k[0] || k2[1] != k[1] || k2[2] != k[2] || k2[3] != k[3]) __builtin_trap();
#endif
            } else {
                relative_key(x, d, plain, decided, k);
            }
            for (int s = 0; s < 4; s++) W_(d, W_KEY + s) = k[s];
            W_(d, W_KEYLIVE) = live;
            W_(d, W_KEYKIND) = kind;
        } else if (rel == 2) {
            relative_key_down(x, d, k);
            W_(d, W_KEYKIND) = 0;
        } else {
            for (int s = 0; s < 4; s++) k[s] = S_(d, s);
            W_(d, W_KEYKIND) = 0;
        }
        k[4] = meta(x, d) * 2 + (rel != 0);
        k[5] |= (i64)((u64)kind << 58);  /* (above every card of a relative key: derive) */
        u64 h = 0x1234567;
        for (int j = 0; j < KEY_WORDS; j++) h = mix(h, k[j]);
        /* a bucket of two entries (slot, slot + 1) */
        slot = (i64)((h >> 7) & x->tmask & ~(u64)1);
        tk = &x->TK[(size_t)slot * KEY_WORDS];
        tb = &x->TB[(size_t)slot * TB_WORDS];
        /* the entries are most often in no cache: load them while the bounds are computed (a
         * bucket's keys span two or three cache lines) */
        prefetch(tk);
        prefetch(tk + KEY_WORDS);
        prefetch(tk + 2 * KEY_WORDS - 1);
        prefetch(tb);
        prefetch(tb + 2 * TB_WORDS - 1);
        lead = pip_lead(x, d);
        /* the position's own bounds, counted while the entry loads (the search waits on that
         * load more than on any count) */
        i64 safe_mine, safe_theirs, mine, theirs;
        safe_points(x, d, &safe_mine, &safe_theirs, &mine, &theirs);
        i64 ub = upper_bound(x, d) - theirs;
        if (S_(d, F_PHASE) == PH_PLAY && S_(d, F_LT1) == 0 && stock_left(x, d) == 0) {
            if (!(live & x->under)) {
                int leader = SEAT(S_(d, F_TURN));
                if (R_(R_TOTALPTS) != 0) {  /* (the Marjapussi family has no card points) */
                    i64 trumps;
                    i64 plain = quick_points(x, d, leader, &trumps, C_PTS);
                    i64 safe = is_max(x, leader) ? safe_mine : safe_theirs;
                    i64 sure = plain + (trumps > safe ? trumps : safe);
                    i64 entry = entry_points(x, d, leader, safe, C_PTS);
                    if (entry > sure) sure = entry;
                    if (is_max(x, leader)) {
                        if (sure > mine) mine = sure;
                    } else if (sure > theirs) {
                        ub -= sure - theirs;
                    }
                }
                ub -= quick_pip_point(x, d, leader, &mine);
            }
        }
        mine += pip_point(x, d, 1);
        /* a cut by these bounds needs no wait for the entry */
        if (ub <= alpha) return ub;
        if (beta <= mine) return mine;
        u64 bucket = (u64)slot >> 1;
        tt_lock(x->locks, bucket);
        int found = entry_holds(x, tk, tb, k);
        if (!found) {
            i64 *tk2 = tk + KEY_WORDS;
            int32_t *tb2 = tb + TB_WORDS;
            found = entry_holds(x, tk2, tb2, k);
            /* on a miss the new entry replaces one of an older search, else the one of the
             * smaller subtree (fewer live cards), the second on a tie */
            if (found || (i64)tb2[TB_GEN] != x->gen
                || ((i64)tb[TB_GEN] == x->gen
                    && tb2[TB_MOVE] >> TB_MOVE_BITS <= tb[TB_MOVE] >> TB_MOVE_BITS)) {
                tk = tk2;
                tb = tb2;
                slot++;
            }
        }
        if (found) {
            i64 lb_t = entry_lower(x, tb, lead), ub_t = entry_upper(x, tb, lead);
            first = (tb[TB_MOVE] & ((1 << TB_MOVE_BITS) - 1)) - 1;
            tt_unlock(x->locks, bucket);
            if (lb_t >= beta) return lb_t;
            if (ub_t <= alpha) return ub_t;
        } else {
            int cards = 0;
            for (int seat = 0; seat < R_(R_N); seat++) cards += popcount(S_(d, seat));
            memcpy(tk, k, sizeof k);
            tb[TB_GEN] = (int32_t)x->gen;
            tb[TB_LB] = (int32_t)mine;
            tb[TB_UB] = (int32_t)ub;
            tb[TB_PLB] = tb[TB_PUB] = (int32_t)lead;
            tb[TB_MOVE] = cards << TB_MOVE_BITS;
            tt_unlock(x->locks, bucket);
        }
        /* one card a hand above play_out's own: played out once the table has not answered,
         * whether it missed or held bounds that do not cut (the entry keeps its move) */
        i64 played = play_out(x, d, live, alpha, beta, x->play_out + 1);
        if (played >= 0) {
            store_bounds(x, slot, tk, tb, k, played, alpha, beta, first, lead);
            return played;
        }
    }
    int nm = gen_moves(x, d, first, 0);
    int maxing = is_max(x, (int)S_(d, F_TURN));
    i64 a = alpha, b = beta;
    i64 best = maxing ? -INF : INF;
    i64 best_move = -1;
    for (int j = 0; j < nm; j++) {
        i64 mv = M_(d, j);
        i64 g = apply_move(x, d, mv);
        i64 v;
        if (S_(d + 1, F_DONE) != 0) {
            v = g;
        } else {
            v = g + search(x, d + 1, a - g, b - g);
            if (x->stop) return 0;
        }
        if (maxing) {
            if (v > best) {
                best = v;
                best_move = mv;
                if (best >= b) {
                    W_(d, W_KILLER) = mv;
                    break;
                }
                if (best > a) a = best;
            }
        } else {
            if (v < best) {
                best = v;
                best_move = mv;
                if (best <= a) {
                    W_(d, W_KILLER) = mv;
                    break;
                }
                if (best < b) b = best;
            }
        }
    }
    if (slot >= 0) store_bounds(x, slot, tk, tb, k, best, alpha, beta, best_move, lead);
    return best;
}

/* The first step of exact()'s gallop from its guess, in points. */
#define GALLOP 4

/* The exact gain from row d: null-window tests, each asking "at least test?" and narrowing
 * [lo, hi] to its fail-soft answer.  Without a guess the tests halve the interval.  With one
 * (the value of the last card of its suit, else of the card before: usually near) the first
 * test is at the guess and the next ones gallop away from it in the direction of the answers,
 * GALLOP points and then twice as far each time, never past the middle of the interval, until
 * the answers have gone both ways; from then on they halve.  A test near the value costs the
 * most, and the halving from the whole range of points spent several of them on both sides of
 * it. */
static i64 exact(Ctx *x, int d, i64 guess) {
    i64 lo = 0;
    i64 hi = upper_bound(x, d);
    i64 test;
    int dir = 0, bracketed = guess < 0;
    i64 step = GALLOP;
    if (guess >= 0) {
        test = guess > lo + 1 ? guess : lo + 1;
        if (test > hi) test = hi;
    } else {
        test = (hi + 1) / 2;
    }
    while (lo < hi) {
        i64 g = search(x, d, test - 1, test);
        if (x->stop) return 0;
        int up = g >= test ? 1 : -1;
        if (up > 0)
            lo = g;
        else
            hi = g;
        if (dir == up)
            step *= 2;
        else if (dir != 0)
            bracketed = 1;
        dir = up;
        i64 mid = (lo + hi + 1) / 2;
        if (bracketed)
            test = mid;
        else if (up > 0)
            test = lo + step < mid ? lo + step : mid;
        else
            test = hi - step + 1 > mid ? hi - step + 1 : mid;
    }
    return lo;
}

/* Every legal move at row 0 and the maximiser's exact gain after it; return how many.  With a
 * share (tt_share_arg), only the moves this search takes: of the moves that need a search, those
 * tt_take gives it, and each move equivalent to an earlier one with that one. */
static int root_values_impl(Ctx *x, i64 *out_moves, i64 *out_values, volatile i64 *share) {
    /* no killer moves from an earlier call: a solve's nodes then depend on its position alone,
     * not on what the solver searched before (the table's older entries are never read) */
    for (int d = 0; d < x->depth; d++) W_(d, W_KILLER) = -1;
    W_(0, W_OPEN) = open_pairs_now(x, 0);
    i64 moves[MAX_MOVES], values[MAX_MOVES];
    int ours[MAX_MOVES], known[MAX_MOVES];
    int nm = gen_moves(x, 0, -1, 1);
    for (int j = 0; j < nm; j++) moves[j] = M_(0, j);
    i64 legal = S_(0, F_PHASE) == PH_PLAY ? legal_cards(x, 0) : 0;
    int nc = play_reps(x, 0, legal, 1);
    /* a card's tests start from the value of the last card of its suit, else of the card
     * before: the cards of a suit lead to the most alike tricks */
    i64 guess = -1, by_suit[4] = {-1, -1, -1, -1};
    int n = 0;
    i64 slot = 0, taken = share ? tt_take(share) : 0; /* (slots count the moves that need a search) */
    for (int j = 0; j < nm; j++) {
        i64 mv = moves[j];
        int same = -1; /* an earlier move this one is equivalent to */
        if (mv < 64) {
            i64 rep = (i64)1 << mv;
            for (int k = 0; k < nc; k++)
                if (W_(0, k) == rep) rep = W_(0, 16 + k);
            if (rep != (i64)1 << mv) {
                for (int i = 0; i < j; i++)
                    if (moves[i] == idx(rep)) same = i;
            }
        }
        if (same >= 0) {
            ours[j] = ours[same];
            known[j] = known[same];
            values[j] = values[same];
        } else if (x->stop) {
            /* stopped: the moves still to search stay unknown, but the equivalents of those
             * already found are written out, so the caller gets every value the search has */
            ours[j] = known[j] = 0;
        } else {
            ours[j] = !share || slot == taken;
            known[j] = 0;
            slot++;
            if (ours[j]) {
                /* (a call has no suit) */
                i64 *suit_value = mv < 64 ? &by_suit[(mv >> 4) & 3] : NULL;
                i64 g = apply_move(x, 0, mv);
                i64 v;
                if (S_(1, F_DONE) != 0) {
                    v = g;
                } else {
                    i64 from = suit_value && *suit_value >= 0 ? *suit_value : guess;
                    v = g + exact(x, 1, from < 0 ? -1 : from - g);
                    if (x->stop) continue;
                }
                values[j] = v;
                known[j] = 1;
                guess = v;
                if (suit_value) *suit_value = v;
                if (share) taken = tt_take(share);
            }
        }
        if (ours[j] && known[j]) {
            out_moves[n] = mv;
            out_values[n] = values[j];
            n++;
        }
    }
    return n;
}

/* -- arguments ------------------------------------------------------------------------- */

#define MAX_BUFS 14

typedef struct {
    Py_buffer views[MAX_BUFS];
    int n;
} Bufs;

static void release(Bufs *b) {
    for (int i = 0; i < b->n; i++) PyBuffer_Release(&b->views[i]);
    b->n = 0;
}

/* An array of itemsize-byte integers with at least min_items items, and (if cols > 0) a
 * whole number of rows of cols items, 2-dimensional if it has a shape of more than one axis. */
static void *arg(Bufs *b, PyObject *obj, Py_ssize_t itemsize, const char *name, Py_ssize_t rows,
                 Py_ssize_t cols, Py_ssize_t *rows_out) {
    Py_buffer *v = &b->views[b->n];
    if (tt_buffer(obj, v, itemsize, name) < 0) return NULL;
    b->n++;
    Py_ssize_t items = v->len / itemsize;
    if (cols > 0) {
        if (v->ndim != 2 || v->shape == NULL || v->shape[1] != cols || v->shape[0] < rows) {
            PyErr_Format(PyExc_ValueError, "%s must be a 2-d array of shape (>= %zd, %zd)", name,
                         rows, cols);
            return NULL;
        }
        if (rows_out) *rows_out = v->shape[0];
    } else if (items < rows) {
        PyErr_Format(PyExc_ValueError, "%s must hold at least %zd items", name, rows);
        return NULL;
    }
    return v->buf;
}

static int bad(const char *what) {
    PyErr_Format(PyExc_ValueError, "invalid position or rules: %s", what);
    return -1;
}

/* The rules, card tables and stock (R, C, SD, ST) into x, checked enough that no index the
 * search computes from them leaves its array. */
static int rules_args(Ctx *x, Bufs *b, PyObject *R, PyObject *C, PyObject *SD, PyObject *ST) {
    if (!(x->R = arg(b, R, 8, "rules", R_SIZE, 0, NULL))) return -1;
    if (!(x->C = arg(b, C, 8, "cards", C_ROWS, C_COLS, NULL))) return -1;
    if (!(x->SD = arg(b, SD, 8, "suits", SD_ROWS, 4, NULL))) return -1;
    if (!(x->ST = arg(b, ST, 8, "stock", 1, 0, NULL))) return -1;
    Py_ssize_t stock_items = b->views[b->n - 1].len / 8;
    i64 n = x->R[R_N];
    if (n < 2 || n > 4) return bad("rules[R_N] must be 2, 3 or 4");
    if (x->R[R_DIR] != 1 && x->R[R_DIR] != -1) return bad("rules[R_DIR] must be 1 or -1");
    i64 sl = x->R[R_STOCKLEN];
    if (sl < 0 || sl > 63 || sl > stock_items) return bad("rules[R_STOCKLEN] exceeds the stock");
    for (int s = 0; s < 4; s++)
        if (x->R[R_SIDE + s] < 0 || x->R[R_SIDE + s] > 1) return bad("rules[R_SIDE + s] must be 0 or 1");
    for (int k = 0; k < R_SIZE; k++)
        if (TT_FIXED(k) != TT_FREE && x->R[k] != TT_FIXED(k)) {
            PyErr_Format(PyExc_ValueError, "the kernel %s is built for rules[%d] = %lld, not %lld",
                         TT_STR(TT_POINTS_MODULE), k, (long long)TT_FIXED(k), (long long)x->R[k]);
            return -1;
        }
    return 0;
}

/* Tables the search derives from the rules once per call. */
/* Number the deck's cards by their value into cls (0 for a card not in the deck): cards of
 * equal points, and with pips of equal pips too, share a number; return how many. */
static int value_classes(const Ctx *x, int pips, i64 *cls) {
    i64 seen[64]; /* the first card of each class */
    int classes = 0;
    for (int i = 0; i < 64; i++) {
        cls[i] = 0;
        if (!((x->R[R_DECK] >> i) & 1)) continue;
        int c = 0;
        while (c < classes && (x->C[C_PTS * C_COLS + seen[c]] != x->C[C_PTS * C_COLS + i]
                               || (pips && x->C[C_PIPS * C_COLS + seen[c]] != x->C[C_PIPS * C_COLS + i])))
            c++;
        if (c == classes) seen[classes++] = i;
        cls[i] = c;
    }
    return classes;
}

static void derive(Ctx *x) {
    /* (an up card: Tute's for two; a game without a stock never deals one) */
    x->two_tute = x->R[R_STYLE] == STYLE_TUTE && x->R[R_N] == 2;
    x->stocked = x->R[R_STOCKLEN] > 0 || x->two_tute || x->S[F_UP] != 0;
    x->play_out = x->R[R_N] == 2 ? PLAY_OUT_CARDS_TWO : PLAY_OUT_CARDS;
    x->max_seats = 0;
    for (int seat = 0; seat < 4; seat++)
        if (x->R[R_SIDE + seat] == x->R[R_MAXSIDE]) x->max_seats |= 1 << seat;
    x->pair_low = 0;
    x->pair_gap = -1;
    for (int s = 0; s < 4; s++) {
        i64 pair = x->SD[SD_PAIR * 4 + s];
        if (popcount(pair) != 2) {
            x->pair_gap = 0;
            continue;
        }
        i64 low = pair & -pair;
        int gap = idx(pair ^ low) - idx(low);
        x->pair_low |= low;
        x->pair_gap = x->pair_gap < 0 || x->pair_gap == gap ? gap : 0;
    }
    if (x->pair_gap < 0) x->pair_gap = 0;
    for (int decl = 0; decl < 16; decl++) {
        i64 open = 0;
        for (int s = 0; s < 4; s++)
            if (!((decl >> s) & 1)) open |= x->SD[SD_PAIR * 4 + s];
        x->open_pairs[decl] = open;
    }
    x->under = 0;
    for (int i = 0; i < 64; i++)
        if (x->C[C_UNDER * C_COLS + i] != 0) x->under |= (i64)1 << i;
    x->down = 0;
    for (int seat = 0; seat < x->R[R_N]; seat++) x->down |= x->R[R_DOWN + seat];
    x->solo[0] = x->solo[1] = -1;
    int seats[2] = {0, 0};
    for (int seat = 0; seat < x->R[R_N]; seat++) {
        int side = (int)(x->R[R_SIDE + seat] & 1);
        x->solo[side] = seat;
        seats[side]++;
    }
    for (int side = 0; side < 2; side++)
        if (seats[side] != 1) x->solo[side] = -1;
    x->allies = 0;
    for (int a = 0; a < x->R[R_N]; a++)
        for (int b = a + 1; b < x->R[R_N]; b++)
            if (x->R[R_SIDE + a] == x->R[R_SIDE + b]) x->allies = 1;
    x->plain_classes = value_classes(x, 1, x->plain_class);
    x->point_classes = value_classes(x, 0, x->point_class);
    /* the play-outs' equal cards: the deck's cards of one suit and one plain class */
    x->twins = 0;
    for (int i = 0; i < 64; i++) {
        x->alike[i] = 0;
        for (int j = i & 48; j < (i & 48) + 16; j++)
            if (j != i && ((x->R[R_DECK] >> i) & (x->R[R_DECK] >> j) & 1)
                && x->plain_class[j] == x->plain_class[i])
                x->alike[i] |= (i64)1 << j;
        if (x->alike[i]) x->twins |= (i64)1 << i;  /* (a mask, so the play-outs test it at once) */
    }
    i64 special = x->R[R_SPECIAL];
    for (int s = 0; s < 4; s++) special |= x->SD[SD_PAIR * 4 + s];
    x->plain_useful = 0;
    for (int i = 0; i < 64; i++) {
        if (!((x->R[R_DECK] & special) >> i & 1)) continue;
        for (int j = 0; j < 64; j++)
            if (j != i && ((x->R[R_DECK] >> j) & 1) && x->plain_class[j] == x->plain_class[i]
                && x->C[C_CLASS * C_COLS + j] != x->C[C_CLASS * C_COLS + i])
                x->plain_useful = 1;
    }
    for (int table = 0; table < 2; table++) {
        x->rising[table] = 1;
        i64 last = -1;
        for (int i = 0; i < 64; i++) {
            if ((i & 15) == 0) last = -1;
            if (!((x->R[R_DECK] >> i) & 1)) continue;
            i64 v = x->C[table * C_COLS + i];
            if (v < last) x->rising[table] = 0;
            last = v;
        }
    }
    x->relative = x->R[R_RELATIVE] != 0;  /* a key word holds 10 cards of 5 bits and the count */
    x->down_keys = x->relative && x->R[R_N] == 2 && x->R[R_DECK] >= 0;  /* (or 9 of 6 bits) */
    for (int s = 0; s < 4; s++) {
        int cards = popcount(x->R[R_DECK] & suit_mask(s));
        if (cards > 10) x->relative = x->down_keys = 0;
        if (cards > 9) x->down_keys = 0;
    }
    if ((u64)x->R[R_DECK] >> 58) x->relative = x->down_keys = 0;  /* (bits 58-63 tag the keys) */
}

/* The fields of row d that the search uses as indexes. */
static int check_row(const Ctx *x, int d) {
    i64 n = x->R[R_N];
    if (S_(d, F_TURN) < 0 || S_(d, F_TURN) >= n) return bad("row[F_TURN]");
    if (S_(d, F_LEADER) < 0 || S_(d, F_LEADER) >= n) return bad("row[F_LEADER]");
    if (S_(d, F_SP) < 0 || S_(d, F_SP) > x->R[R_STOCKLEN]) return bad("row[F_SP]");
    if (S_(d, F_POS) < 0 || S_(d, F_POS) >= n) return bad("row[F_POS]");
    if (S_(d, F_PHASE) < 0 || S_(d, F_PHASE) > 2) return bad("row[F_PHASE]");
    if (S_(d, F_TRUMP) < -1 || S_(d, F_TRUMP) > 3) return bad("row[F_TRUMP]");
    if (S_(d, F_PENDING) < -1 || S_(d, F_PENDING) > 3) return bad("row[F_PENDING]");
    if (S_(d, F_ASKKIND) < -1 || S_(d, F_ASKKIND) > 3) return bad("row[F_ASKKIND]");
    if (S_(d, F_ASKER) < -1 || S_(d, F_ASKER) > 3) return bad("row[F_ASKER]");
    if (S_(d, F_LSUIT) < -1 || S_(d, F_LSUIT) > 3) return bad("row[F_LSUIT]");
    if (S_(d, F_DECL) < 0 || S_(d, F_DECL) > 15) return bad("row[F_DECL]");
    if (S_(d, F_LAST20) < -1 || S_(d, F_LAST20) > 3) return bad("row[F_LAST20]");
    for (int s = 0; s < 4; s++)
        if (S_(d, s) < 0 || popcount(S_(d, s)) > 16) return bad("a hand");
    return 0;
}

static int stack_args(Ctx *x, Bufs *b, PyObject *S, PyObject *M, PyObject *SC, PyObject *W,
                      Py_ssize_t min_rows) {
    Py_ssize_t rows[4];
    if (!(x->S = arg(b, S, 8, "rows", min_rows, ROW, &rows[0]))) return -1;
    if (M && !(x->M = arg(b, M, 8, "moves", min_rows, MAX_MOVES, &rows[1]))) return -1;
    if (SC && !(x->SC = arg(b, SC, 8, "scores", min_rows, MAX_MOVES, &rows[2]))) return -1;
    if (W && !(x->W = arg(b, W, 8, "work", min_rows, W_COLS, &rows[3]))) return -1;
    Py_ssize_t depth = rows[0];
    if (M) {
        for (int i = 1; i < 4; i++)
            if (rows[i] < depth) depth = rows[i];
    }
    x->depth = depth > MAX_DEPTH * 4 ? MAX_DEPTH * 4 : (int)depth;
    return 0;
}

/* A fresh context and no buffers held yet, for a call at row d of the stack (checked). */
static int row_call(Ctx *x, Bufs *b, Py_ssize_t d) {
    memset(x, 0, sizeof *x);
    b->n = 0;
    if (d < 0 || d >= MAX_DEPTH * 4) {
        PyErr_SetString(PyExc_ValueError, "d out of range");
        return -1;
    }
    return 0;
}

/* -- the module's functions ----------------------------------------------------------------- */

PyDoc_STRVAR(root_values_doc,
"root_values(S, R, C, SD, ST, TK, TB, M, SC, W, stats, out_moves, out_values, time_left, signals,\n"
"            max_nodes, share)\n"
"--\n\n"
"Every legal move at row 0 of S and the maximiser's exact gain after it (into out_moves and\n"
"out_values); return how many.  The search releases the GIL.  time_left (seconds, <= 0: no\n"
"limit) stops it with TimeoutError; signals runs Python's signal handlers now and then, so\n"
"Ctrl-C stops it (pass whether this is the main thread); max_nodes (<= 0: no limit) stops it\n"
"with TimeoutError once it has visited that many nodes.  A stopped search stores nothing\n"
"more in the table, and its error's found attribute holds the moves it had finished\n"
"(move -> gain, a dict).  share (None: every move; else an int64 array of at least 2 shared\n"
"by searches of this position in other threads) gives this search only the moves it takes from\n"
"share[1], and share[0] set non-zero stops it with TimeoutError; an array of\n"
"TT_SHARE_LOCKED_SIZE also holds the locks it takes around TK and TB, a table those searches\n"
"share.");

static PyObject *py_root_values(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *oS, *oR, *oC, *oSD, *oST, *oTK, *oTB, *oM, *oSC, *oW, *ostats, *oom, *oov, *oshare;
    double time_left;
    int signals;
    long long max_nodes;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOdpLO:root_values", &oS, &oR, &oC, &oSD, &oST, &oTK,
                          &oTB, &oM, &oSC, &oW, &ostats, &oom, &oov, &time_left, &signals, &max_nodes,
                          &oshare))
        return NULL;
    Ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    Ctx *x = &ctx;
    Bufs b;
    b.n = 0;
    Py_ssize_t tk_rows = 0, tb_rows = 0;
    i64 *stats, *out_moves, *out_values;
    if (rules_args(x, &b, oR, oC, oSD, oST) < 0) goto fail;
    if (stack_args(x, &b, oS, oM, oSC, oW, 2) < 0) goto fail;
    if (!(x->TK = arg(&b, oTK, 8, "keys", 1, KEY_WORDS, &tk_rows))) goto fail;
    if (!(x->TB = arg(&b, oTB, 4, "bounds", tk_rows, TB_WORDS, &tb_rows))) goto fail;
    if (tk_rows < 2 || (tk_rows & (tk_rows - 1))) {  /* (buckets of two entries) */
        PyErr_SetString(PyExc_ValueError, "the table's size must be a power of two, at least 2");
        goto fail;
    }
    if (!(stats = arg(&b, ostats, 8, "stats", STATS, 0, NULL))) goto fail;
    if (!(out_moves = arg(&b, oom, 8, "out_moves", MAX_MOVES, 0, NULL))) goto fail;
    if (!(out_values = arg(&b, oov, 8, "out_values", MAX_MOVES, 0, NULL))) goto fail;
    volatile i64 *share = NULL;
    x->locks = NULL;
    if (oshare != Py_None) {
        if (!(share = arg(&b, oshare, 8, "share", TT_SHARE_SIZE, 0, NULL))) goto fail;
        x->locks = tt_share_locks(share, b.views[b.n - 1].len / 8);
    }
    if (check_row(x, 0) < 0) goto fail;
    derive(x);
    x->tmask = (u64)tk_rows - 1;
    {
        /* A small search uses the start of the table only: its entries stay in the caches.  Only
         * once the stock is out (with a stock to draw from, few cards can still mean a deep
         * search), and one bit per live card (face-down ones included): 2**13 entries for 16. */
        int bits = 13 + popcount(x->R[R_DECK] & ~x->S[F_GONE]) - 16;
        if (bits < 12) bits = 12;
        if (stock_left(x, 0) == 0 && ((u64)1 << bits) - 1 < x->tmask) x->tmask = ((u64)1 << bits) - 1;
    }
    x->gen = stats[S_GEN];
    x->nodes = (u64)stats[S_NODES];
    tt_watch w;
    x->watch = &w;
    tt_watch_begin(&w, time_left, signals, x->nodes, (i64)max_nodes);
    w.call_off = share ? &share[TT_SHARE_CALL_OFF] : NULL;
    x->first_row = 1;  /* (row 0 is the root, whose moves are applied, not searched) */
    x->open_kept = 1;
    int n = root_values_impl(x, out_moves, out_values, share);
    stats[S_NODES] = (i64)x->nodes;
    if (x->stop == 2) {
        PyEval_RestoreThread(w.thread);
        PyErr_SetString(PyExc_ValueError, "the search went deeper than its stack");
        goto fail;
    }
    if (tt_watch_end(&w) < 0) {
        tt_attach_found(out_moves, out_values, n);
        goto fail;
    }
    release(&b);
    return PyLong_FromLong(n);
fail:
    release(&b);
    return NULL;
}

PyDoc_STRVAR(gen_moves_doc,
"gen_moves(S, d, R, C, SD, M, SC, W, first, root)\n--\n\n"
"Fill M[d] with the moves worth searching at row d of S, best guess first (SC[d] their\n"
"ordering scores, W[d] scratch); return how many.  root lists every legal move.");

static PyObject *py_gen_moves(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *oS, *oR, *oC, *oSD, *oM, *oSC, *oW;
    Py_ssize_t d;
    long long first;
    int root;
    if (!PyArg_ParseTuple(args, "OnOOOOOOLp:gen_moves", &oS, &d, &oR, &oC, &oSD, &oM, &oSC, &oW,
                          &first, &root))
        return NULL;
    Ctx ctx;
    Ctx *x = &ctx;
    Bufs b;
    if (row_call(x, &b, d) < 0) return NULL;
    if (!(x->R = arg(&b, oR, 8, "rules", R_SIZE, 0, NULL))) goto fail;
    if (!(x->C = arg(&b, oC, 8, "cards", C_ROWS, C_COLS, NULL))) goto fail;
    if (!(x->SD = arg(&b, oSD, 8, "suits", SD_ROWS, 4, NULL))) goto fail;
    if (x->R[R_N] < 2 || x->R[R_N] > 4) {
        bad("rules[R_N] must be 2, 3 or 4");
        goto fail;
    }
    if (x->R[R_STOCKLEN] < 0 || x->R[R_STOCKLEN] > 63) {
        bad("rules[R_STOCKLEN]");
        goto fail;
    }
    for (int s = 0; s < 4; s++)
        if (x->R[R_SIDE + s] < 0 || x->R[R_SIDE + s] > 1) {
            bad("rules[R_SIDE + s] must be 0 or 1");
            goto fail;
        }
    if (stack_args(x, &b, oS, oM, oSC, oW, d + 1) < 0) goto fail;
    if (check_row(x, (int)d) < 0) goto fail;
    derive(x);
    int n = gen_moves(x, (int)d, first, root);
    release(&b);
    return PyLong_FromLong(n);
fail:
    release(&b);
    return NULL;
}

PyDoc_STRVAR(apply_doc,
"apply(S, d, mv, R, C, SD, ST)\n--\n\n"
"Row d + 1 of S := row d after move mv; return what the maximiser gains by it.");

static PyObject *py_apply(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *oS, *oR, *oC, *oSD, *oST;
    Py_ssize_t d;
    long long mv;
    if (!PyArg_ParseTuple(args, "OnLOOOO:apply", &oS, &d, &mv, &oR, &oC, &oSD, &oST)) return NULL;
    Ctx ctx;
    Ctx *x = &ctx;
    Bufs b;
    if (row_call(x, &b, d) < 0) return NULL;
    if (mv < 0 || mv > MV_PASS) {
        PyErr_SetString(PyExc_ValueError, "not a move code");
        return NULL;
    }
    if (rules_args(x, &b, oR, oC, oSD, oST) < 0) goto fail;
    if (stack_args(x, &b, oS, NULL, NULL, NULL, d + 2) < 0) goto fail;
    if (check_row(x, (int)d) < 0) goto fail;
    if (mv == MV_EXCHANGE && S_(d, F_UP) == 0) {
        bad("an exchange without an upcard");
        goto fail;
    }
    derive(x);
    i64 g = apply_move(x, (int)d, mv);
    release(&b);
    return PyLong_FromLongLong(g);
fail:
    release(&b);
    return NULL;
}

static PyMethodDef methods[] = {
    {"root_values", py_root_values, METH_VARARGS, root_values_doc},
    {"gen_moves", py_gen_moves, METH_VARARGS, gen_moves_doc},
    {"apply", py_apply, METH_VARARGS, apply_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, TT_STR(TT_POINTS_MODULE),
    "The point games' search kernel in C (see tricktaker.solver._points).", -1, methods,
    NULL, NULL, NULL, NULL,
};

#define LAYOUT(name) {#name, name}
static const struct {
    const char *name;
    long long value;
} layout[] = {
    LAYOUT(F_HANDS), LAYOUT(F_SP), LAYOUT(F_UP), LAYOUT(F_LEADER), LAYOUT(F_POS), LAYOUT(F_TURN),
    LAYOUT(F_LSUIT), LAYOUT(F_BLED), LAYOUT(F_BLSEAT), LAYOUT(F_BTR), LAYOUT(F_BTSEAT),
    LAYOUT(F_TABLE), LAYOUT(F_TPTS), LAYOUT(F_TPIPS), LAYOUT(F_TRUMP), LAYOUT(F_DECL),
    LAYOUT(F_GONE), LAYOUT(F_PHASE), LAYOUT(F_CANCALL), LAYOUT(F_LT1), LAYOUT(F_LT2),
    LAYOUT(F_ASKED), LAYOUT(F_WHOLE), LAYOUT(F_SANG), LAYOUT(F_WIN20), LAYOUT(F_ASKER),
    LAYOUT(F_ASKKIND), LAYOUT(F_WANTED), LAYOUT(F_PENDING), LAYOUT(F_PIPDIFF), LAYOUT(F_LAST20),
    LAYOUT(F_DONE), LAYOUT(F_GONEPTS), LAYOUT(F_GONEPIPS), LAYOUT(F_WON), LAYOUT(ROW),
    LAYOUT(PH_PLAY), LAYOUT(PH_ANSWER), LAYOUT(PH_DECLARE),
    LAYOUT(R_N), LAYOUT(R_DIR), LAYOUT(R_STYLE), LAYOUT(R_MUSTOVER), LAYOUT(R_PEXC),
    LAYOUT(R_FREE), LAYOUT(R_PARTNERS), LAYOUT(R_ORDER), LAYOUT(R_LFM), LAYOUT(R_OWNLEAD),
    LAYOUT(R_MARRY), LAYOUT(R_LAST), LAYOUT(R_PIPVAL), LAYOUT(R_TUTE), LAYOUT(R_MAXSIDE),
    LAYOUT(R_STOCKLEN), LAYOUT(R_CALLSTOCK), LAYOUT(R_EXCH), LAYOUT(R_KINGS), LAYOUT(R_KNIGHTS),
    LAYOUT(R_TOTALPTS), LAYOUT(R_SIDE), LAYOUT(R_DECK), LAYOUT(R_SPECIAL), LAYOUT(R_TOTALPIPS),
    LAYOUT(R_DOWN), LAYOUT(R_RELATIVE), LAYOUT(R_SOTAS), LAYOUT(R_MUSTDECL), LAYOUT(R_EXCHANY),
    LAYOUT(R_ACESHOW), LAYOUT(R_SWEEP),
    LAYOUT(R_SIZE),
    LAYOUT(STYLE_TUTE), LAYOUT(STYLE_ACE_TEN), LAYOUT(MARRY_TUTE), LAYOUT(MARRY_FIRST_TRUMPS),
    LAYOUT(MARRY_EVERY_TRUMPS), LAYOUT(W_KILLER),
    LAYOUT(C_PTS), LAYOUT(C_PIPS), LAYOUT(C_UNDER), LAYOUT(C_EXCH), LAYOUT(C_WEIGHT),
    LAYOUT(C_STOCK), LAYOUT(C_CLASS), LAYOUT(C_ROWS), LAYOUT(SD_PAIR), LAYOUT(SD_MVAL),
    LAYOUT(MV_DECLARE), LAYOUT(MV_ASK_WHOLE), LAYOUT(MV_ASK_HALF), LAYOUT(MV_ANSWER),
    LAYOUT(MV_ANSWER_NO), LAYOUT(MV_TUTE), LAYOUT(MV_EXCHANGE), LAYOUT(MV_PASS),
    LAYOUT(MAX_MOVES), LAYOUT(MAX_DEPTH), LAYOUT(KEY_WORDS), LAYOUT(TB_LB), LAYOUT(TB_UB),
    LAYOUT(TB_MOVE), LAYOUT(TB_GEN), LAYOUT(TB_PLB), LAYOUT(TB_PUB), LAYOUT(TB_WORDS), LAYOUT(INF), LAYOUT(S_NODES),
    LAYOUT(S_GEN), LAYOUT(STATS), LAYOUT(W_COLS), LAYOUT(TT_SHARE_LOCKED_SIZE),
};

PyMODINIT_FUNC TT_CAT(PyInit_, TT_POINTS_MODULE)(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    PyObject *d = PyDict_New();
    if (!d) goto fail;
    for (size_t i = 0; i < sizeof layout / sizeof layout[0]; i++) {
        PyObject *v = PyLong_FromLongLong(layout[i].value);
        if (!v || PyDict_SetItemString(d, layout[i].name, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(d);
            goto fail;
        }
        Py_DECREF(v);
    }
    if (PyModule_AddObject(m, "LAYOUT", d) < 0) {
        Py_DECREF(d);
        goto fail;
    }
    /* FIXED: {rule index: value} of the rules this build fixes (empty for _points_c) */
    PyObject *fixed = PyDict_New();
    if (!fixed) goto fail;
    for (int k = 0; k < R_SIZE; k++) {
        if (TT_FIXED(k) == TT_FREE) continue;
        PyObject *key = PyLong_FromLong(k), *v = PyLong_FromLongLong((long long)TT_FIXED(k));
        int err = !key || !v || PyDict_SetItem(fixed, key, v) < 0;
        Py_XDECREF(key);
        Py_XDECREF(v);
        if (err) {
            Py_DECREF(fixed);
            goto fail;
        }
    }
    if (PyModule_AddObject(m, "FIXED", fixed) < 0) {
        Py_DECREF(fixed);
        goto fail;
    }
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
