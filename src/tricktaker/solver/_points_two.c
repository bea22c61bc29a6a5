/* The point kernel built for the ace-ten games with two seats (Bondtolva for two, Avomarjapussi,
 * Huutopussi for two), what they share fixed: "Builds for the commonest rules" in _points_c.c. */
#define TT_POINTS_MODULE _points_two
#define TT_FIXED(k)                                                                                   \
    ((k) == R_N ? 2 : (k) == R_DIR ? 1 : (k) == R_STYLE ? STYLE_ACE_TEN : (k) == R_MUSTOVER ? 0      \
     : (k) == R_PEXC ? 0 : (k) == R_PARTNERS ? 0 : (k) == R_ORDER ? 0 : (k) == R_TUTE ? 0            \
     : (k) == R_EXCH ? 0 : (k) == R_SOTAS ? 0 : (k) == R_MUSTDECL ? 0 : (k) == R_EXCHANY ? 0         \
     : (k) == R_ACESHOW ? 0 : TT_FREE)
#include "_points_c.c"
