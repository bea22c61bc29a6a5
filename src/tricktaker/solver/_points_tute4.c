/* The point kernel built for Tute with four seats in two sides (Tute in pairs), its rules as the
 * game deals them by default fixed: "Builds for the commonest rules" in _points_c.c. */
#define TT_POINTS_MODULE _points_tute4
#define TT_FIXED(k)                                                                                   \
    ((k) == R_N ? 4 : (k) == R_DIR ? -1 : (k) == R_STYLE ? STYLE_TUTE : (k) == R_MUSTOVER ? 1        \
     : (k) == R_PEXC ? 0 : (k) == R_FREE ? 0 : (k) == R_PARTNERS ? 0 : (k) == R_ORDER ? 0            \
     : (k) == R_LFM ? 0 : (k) == R_OWNLEAD ? 0 : (k) == R_MARRY ? MARRY_TUTE : (k) == R_PIPVAL ? 0   \
     : (k) == R_TUTE ? 1 : (k) == R_STOCKLEN ? 0 : (k) == R_EXCH ? 0 : (k) == R_TOTALPIPS ? 0        \
     : (k) == R_SOTAS ? 0 : (k) == R_MUSTDECL ? 0 : (k) == R_EXCHANY ? 0 : (k) == R_ACESHOW ? 0      \
     : (k) == R_SWEEP ? 0 : TT_FREE)
#include "_points_c.c"
