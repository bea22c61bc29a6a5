/* The point kernel built for Tute for two (habanero), with its games' default rules fixed:
 * "Builds for the commonest rules" in _points_c.c. */
#define TT_POINTS_MODULE _points_habanero
#define TT_FIXED(k) ((k) == R_N ? 2 : (k) == R_EXCH ? 1 : TT_TUTE_RULES(k))
#include "_points_c.c"
