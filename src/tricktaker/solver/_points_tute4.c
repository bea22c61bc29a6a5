/* The point kernel built for Tute with four seats in two sides (Tute in pairs), with its games' default rules fixed:
 * "Builds for the commonest rules" in _points_c.c. */
#define TT_POINTS_MODULE _points_tute4
#define TT_FIXED(k) ((k) == R_N ? 4 : (k) == R_STOCKLEN ? 0 : (k) == R_EXCH ? 0 : TT_TUTE_RULES(k))
#include "_points_c.c"
