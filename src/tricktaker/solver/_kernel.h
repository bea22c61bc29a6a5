/* What both native search kernels (_tricks_c.c, _points_c.c) share: the bit operations on card
 * masks, and the watch that lets a long search stop at a time limit or at Ctrl-C.
 *
 * Cards are bits in a 64-bit mask, 16 per suit, a higher bit the stronger card of its suit.
 * The kernels are compiled by the package's build (setup.py) when it is installed: nothing is
 * compiled at run time.
 */
#ifndef TRICKTAKER_KERNEL_H
#define TRICKTAKER_KERNEL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#if defined(_MSC_VER)
#include <intrin.h>
#include <windows.h>
#define TT_INLINE static __forceinline
#else
#include <time.h>
#define TT_INLINE static inline __attribute__((always_inline))
#endif

typedef int64_t i64;
typedef uint64_t u64;

#define SUIT_BITS 16

/* Number of set bits (cards) in a mask. */
TT_INLINE int popcount(i64 x) {
#if defined(_MSC_VER)
    return (int)__popcnt64((u64)x);
#else
    return __builtin_popcountll((u64)x);
#endif
}

/* The position of a single bit. */
TT_INLINE int bit_index(i64 bit) {
#if defined(_MSC_VER)
    unsigned long i;
    _BitScanForward64(&i, (u64)bit);
    return (int)i;
#else
    return __builtin_ctzll((u64)bit);
#endif
}

/* The bits of one suit. */
TT_INLINE i64 suit_mask(int suit) { return (i64)0xFFFF << (suit * SUIT_BITS); }

/* The suit of a single bit. */
TT_INLINE int suit_of(i64 bit) { return bit_index(bit) >> 4; }

/* The highest bit of a mask (cards never use bit 63), 0 for an empty one: the best card of a
 * suit.  The processor's leading-zero count: both searches ask it at every node. */
TT_INLINE i64 top(i64 m) {
    if (!m) return 0;
#if defined(_MSC_VER)
    unsigned long i;
    _BitScanReverse64(&i, (u64)m);
    return (i64)1 << i;
#else
    return (i64)1 << (63 - __builtin_clzll((u64)m));
#endif
}

/* The cards of m that own holds above every card of m it does not hold: the run own can cash
 * from the top of m.  Bit arithmetic instead of a loop down the suit. */
TT_INLINE i64 top_run(i64 m, i64 own) {
    i64 t = top(m & ~own);
    return t ? m & ~(t | (t - 1)) : m;
}

/* Ask the processor to start loading an address into its caches. */
TT_INLINE void prefetch(const void *p) {
#if defined(_MSC_VER)
    (void)p;
#else
    __builtin_prefetch(p, 0, 3);
#endif
}

/* -- the watch: a time limit and Ctrl-C for a search running without the GIL ---------------- */

/* A monotonic clock in seconds (any origin: only differences are used). */
static double tt_clock(void) {
#if defined(_MSC_VER)
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart / (double)f.QuadPart;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

enum { TT_RUNNING = 0, TT_TIMED_OUT = 1, TT_INTERRUPTED = 2, TT_OUT_OF_NODES = 3, TT_CALLED_OFF = 4 };

/* How often a search looks at the clock (in nodes: a fraction of a millisecond, and a few
 * milliseconds while a fresh table is first touched), and how often, in
 * seconds, it takes the GIL back to run Python's signal handlers (Ctrl-C). */
#define TT_POLL_NODES 1024
#define TT_SIGNAL_EVERY 0.05

typedef struct {
    double deadline;        /* on tt_clock(); 0: no time limit */
    double next_signals;    /* when to run the signal handlers next; 0: never (not the main thread) */
    u64 next_poll;          /* node count at which to look again */
    u64 node_stop;          /* node count at which to stop (0: no node limit) */
    PyThreadState *thread;  /* this thread's state while the GIL is released */
    const volatile i64 *call_off; /* another thread sets it non-zero to stop this search (or NULL) */
    int stop;               /* TT_RUNNING, TT_TIMED_OUT, TT_OUT_OF_NODES, TT_CALLED_OFF, or
                             * TT_INTERRUPTED (a Python error is set) */
} tt_watch;

/* Start watching and release the GIL.  ``seconds`` is the time left (<= 0: no limit);
 * ``signals`` says whether to run Python's signal handlers now and then (only the main thread
 * receives them, so the caller passes whether it is that thread); the search stops once its
 * node count, which starts at ``first_node``, reaches ``first_node + max_nodes`` (max_nodes <= 0:
 * no limit).  A node limit, unlike a time limit, stops a search at the same node on any machine
 * under any load, so a bot given one decides the same way everywhere. */
static void tt_watch_begin(tt_watch *w, double seconds, int signals, u64 first_node, i64 max_nodes) {
    double now = tt_clock();
    w->deadline = seconds > 0 ? now + seconds : 0;
    w->next_signals = signals ? now + TT_SIGNAL_EVERY : 0;
    w->next_poll = first_node + TT_POLL_NODES;
    w->node_stop = max_nodes > 0 ? first_node + (u64)max_nodes : 0;
    w->stop = TT_RUNNING;
    w->call_off = NULL;
    w->thread = PyEval_SaveThread();
}

/* The slow part of tt_watch_poll: look at the clock, and run the signal handlers when due. */
static int tt_watch_check(tt_watch *w, u64 nodes) {
    w->next_poll = nodes + TT_POLL_NODES;
    if (w->call_off != NULL && *w->call_off != 0) {
        w->stop = TT_CALLED_OFF;
        return 1;
    }
    if (w->node_stop != 0 && nodes >= w->node_stop) {
        w->stop = TT_OUT_OF_NODES;
        return 1;
    }
    if (w->deadline == 0 && w->next_signals == 0) return 0;
    double now = tt_clock();
    if (w->deadline != 0 && now >= w->deadline) {
        w->stop = TT_TIMED_OUT;
        return 1;
    }
    if (w->next_signals != 0 && now >= w->next_signals) {
        PyEval_RestoreThread(w->thread);
        int failed = PyErr_CheckSignals();
        w->thread = PyEval_SaveThread();
        w->next_signals = tt_clock() + TT_SIGNAL_EVERY;
        if (failed) {
            w->stop = TT_INTERRUPTED;
            return 1;
        }
    }
    return 0;
}

/* Whether the search must stop now (call it once per node with the node count; nearly free). */
TT_INLINE int tt_watch_poll(tt_watch *w, u64 nodes) {
    if (w->stop) return 1;
    if (nodes < w->next_poll) return 0;
    return tt_watch_check(w, nodes);
}

/* Take the GIL back.  Returns 0 when the search ran to its end; otherwise -1 with a Python
 * error set: TimeoutError for the time or node limit (its message says which), or the signal
 * handler's own (KeyboardInterrupt). */
static int tt_watch_end(tt_watch *w) {
    PyEval_RestoreThread(w->thread);
    if (w->stop == TT_TIMED_OUT) {
        PyErr_SetString(PyExc_TimeoutError, "the search reached its time limit");
        return -1;
    }
    if (w->stop == TT_OUT_OF_NODES) {
        PyErr_SetString(PyExc_TimeoutError, "the search reached its node limit");
        return -1;
    }
    if (w->stop == TT_CALLED_OFF) {
        PyErr_SetString(PyExc_TimeoutError, "the search was called off by another thread");
        return -1;
    }
    return w->stop == TT_INTERRUPTED ? -1 : 0;
}

/* After a search stopped with an error set (tt_watch_end returned -1): attach the root moves it
 * finished to that error as its ``found`` attribute, a dict of moves[i] -> values[i] for i < n,
 * so that a caller can still give the exact values found before the stop.  Should the dict
 * fail to build, the error is left as it was. */
static void tt_attach_found(const i64 *moves, const i64 *values, int n) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *found = value != NULL ? PyDict_New() : NULL;
    int ok = found != NULL;
    for (int i = 0; ok && i < n; i++) {
        PyObject *k = PyLong_FromLongLong(moves[i]), *v = PyLong_FromLongLong(values[i]);
        ok = k != NULL && v != NULL && PyDict_SetItem(found, k, v) == 0;
        Py_XDECREF(k);
        Py_XDECREF(v);
    }
    if (ok) ok = PyObject_SetAttrString(value, "found", found) == 0;
    Py_XDECREF(found);
    if (!ok) PyErr_Clear();
    PyErr_Restore(type, value, tb);
}

/* -- arguments: numpy arrays (or any buffer) of int64 / int32, written in place --------------- */

/* A writable, C-contiguous buffer of ``itemsize``-byte items, with a clear error if ``obj`` is
 * not one.  Release it with PyBuffer_Release. */
static int tt_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be a writable C-contiguous array", name);
        return -1;
    }
    const char *fmt = view->format ? view->format : "B";
    char kind = fmt[strlen(fmt) - 1];
    if (view->itemsize != itemsize || !strchr("bhilqBHILQ", kind)) {
        PyErr_Format(PyExc_TypeError, "%s must hold %zd-byte integers, not %zd-byte items", name,
                     itemsize, view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* One position solved by several searches at once, a thread each: they share an int64 array,
 * ``share``.  share[TT_SHARE_CALL_OFF] stops them all once set non-zero (TT_CALLED_OFF: the first
 * to fail sets it); share[TT_SHARE_NEXT] counts the root's moves to search taken so far.  Each
 * search walks the root's moves in the same order and searches those it takes (tt_take), so a
 * search that finishes early takes more.  The argument is None (no sharing: every move) or such
 * an array; *held says whether view needs releasing.
 *
 * An array of TT_SHARE_LOCKED_SIZE items also holds TT_LOCKS spin locks, each on a cache line of
 * its own (TT_LOCK_STRIDE items apart, from TT_SHARE_LOCKS): searches that share one
 * transposition table take the lock of a bucket's stripe (tt_lock) around every read and write
 * of its entries, so none reads an entry half written by another. */
enum { TT_SHARE_CALL_OFF = 0, TT_SHARE_NEXT = 1, TT_SHARE_SIZE = 2, TT_SHARE_LOCKS = 8,
       TT_LOCK_STRIDE = 8, TT_LOCKS = 1024 };
#define TT_SHARE_LOCKED_SIZE (TT_SHARE_LOCKS + TT_LOCKS * TT_LOCK_STRIDE)

static inline int tt_share_arg(PyObject *obj, Py_buffer *view, int *held, volatile i64 **share) {
    *held = 0;
    *share = NULL;
    if (obj == Py_None) return 0;
    if (tt_buffer(obj, view, 8, "share") < 0) return -1;
    if (view->len < TT_SHARE_SIZE * 8) {
        PyErr_Format(PyExc_ValueError, "share must hold at least %d items", TT_SHARE_SIZE);
        PyBuffer_Release(view);
        return -1;
    }
    *held = 1;
    *share = (volatile i64 *)view->buf;
    return 0;
}

/* The spin locks of a share of ``items`` items, or NULL when it holds none. */
static inline volatile i64 *tt_share_locks(volatile i64 *share, Py_ssize_t items) {
    return share != NULL && items >= TT_SHARE_LOCKED_SIZE ? &share[TT_SHARE_LOCKS] : NULL;
}

/* Take (tt_lock) and give back (tt_unlock) the lock of the stripe that ``bucket`` falls in, in
 * ``locks`` (tt_share_locks; NULL: the table is this search's own, and nothing is locked).  A
 * lock is held only for the few reads or writes of one bucket's entries, so a spin is short. */
TT_INLINE void tt_lock(volatile i64 *locks, u64 bucket) {
    if (locks == NULL) return;
    volatile i64 *l = &locks[(bucket & (TT_LOCKS - 1)) * TT_LOCK_STRIDE];
#if defined(_MSC_VER)
    while (_InterlockedExchange64((volatile __int64 *)l, 1) != 0)
        while (*l != 0) YieldProcessor();
#else
    while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE) != 0)
        while (__atomic_load_n(l, __ATOMIC_RELAXED) != 0) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
#endif
}

TT_INLINE void tt_unlock(volatile i64 *locks, u64 bucket) {
    if (locks == NULL) return;
    volatile i64 *l = &locks[(bucket & (TT_LOCKS - 1)) * TT_LOCK_STRIDE];
#if defined(_MSC_VER)
    _InterlockedExchange64((volatile __int64 *)l, 0);
#else
    __atomic_store_n(l, 0, __ATOMIC_RELEASE);
#endif
}

/* The number of the next root move to search that no other search has taken (from 0). */
TT_INLINE i64 tt_take(volatile i64 *share) {
#if defined(_MSC_VER)
    return _InterlockedExchangeAdd64((volatile __int64 *)&share[TT_SHARE_NEXT], 1);
#else
    return __atomic_fetch_add(&share[TT_SHARE_NEXT], 1, __ATOMIC_RELAXED);
#endif
}

#endif
