/* The point kernel built for Tute for three, with its games' default rules fixed:
 * "Builds for the commonest rules" in _points_c.c. */
#define TT_POINTS_MODULE _points_tute3
#define TT_FIXED(k) TT_TUTE_DEALT(k, 3)
#include "_points_c.c"
