/* The point kernel built for the ace-ten games with four seats in two sides (Marjapussi, Bondtolva,
 * Huutopussi), with its games' default rules fixed:
 * "Builds for the commonest rules" in _points_c.c. */
#define TT_POINTS_MODULE _points_ace4
#define TT_FIXED(k) ((k) == R_N ? 4 : (k) == R_FREE ? 0 : (k) == R_PARTNERS ? 1 : (k) == R_STOCKLEN ? 0 \
     : (k) == R_CALLSTOCK ? -1 : (k) == R_SWEEP ? 0 : TT_ACE_RULES(k))
#include "_points_c.c"
