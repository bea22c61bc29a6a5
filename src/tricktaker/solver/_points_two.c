/* The point kernel built for the ace-ten games with two seats (Bondtolva for two, Avomarjapussi,
 * Huutopussi for two), with its games' default rules fixed:
 * "Builds for the commonest rules" in _points_c.c. */
#define TT_POINTS_MODULE _points_two
#define TT_FIXED(k) ((k) == R_N ? 2 : (k) == R_PARTNERS ? 0 : TT_ACE_RULES(k))
#include "_points_c.c"
