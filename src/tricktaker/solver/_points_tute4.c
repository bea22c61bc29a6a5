/* The point kernel built for Tute with four seats in two sides (Tute in pairs), with its games' default rules fixed:
 * "Builds for the commonest rules" in _points_c.c. */
#define TT_POINTS_MODULE _points_tute4
#define TT_FIXED(k) TT_TUTE_DEALT(k, 4)
#include "_points_c.c"
