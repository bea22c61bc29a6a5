/* The point kernel built for Huutopussi for three, with its games' default rules fixed:
 * "Builds for the commonest rules" in _points_c.c. */
#define TT_POINTS_MODULE _points_three
#define TT_FIXED(k) ((k) == R_N ? 3 : (k) == R_FREE ? 0 : (k) == R_PARTNERS ? 0 : (k) == R_LFM ? 0 \
     : (k) == R_STOCKLEN ? 0 : (k) == R_CALLSTOCK ? -1 : TT_ACE_RULES(k))
#include "_points_c.c"
