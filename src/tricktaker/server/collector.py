"""Keep Python's cyclic garbage collector from pausing the server for long.

A full collection scans every object the collector tracks: the imported modules
(about 54,000 objects for the server's), every open table's state and story, every
connection.  With 250 tables that took 76-230 ms on a loaded 2-core machine, every few
seconds of play, and every action that arrived meanwhile waited: it was the server's
p99 (227 ms against the bare broadcast server's 10 ms in ``bench/server.py``).

So what lives long is frozen (:func:`gc.freeze`: moved where collections do not
look), at start and then every ``freeze_every`` seconds, and collections scan
only what is new.  Cycles that become garbage after being frozen (a finished
table dropped from memory, a closed connection) wait for a full collection every
``collect_every`` seconds: one pause of that size per quarter of an hour rather
than every few seconds.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

__all__ = ["COLLECT_EVERY", "FREEZE_EVERY", "pace_collector"]

log = logging.getLogger("tricktaker.server")

FREEZE_EVERY = 60.0
"""Seconds between freezes of what has lived so long."""
COLLECT_EVERY = 900.0
"""Seconds between full collections (which also collect what was frozen)."""


async def pace_collector(freeze_every: float = FREEZE_EVERY, collect_every: float = COLLECT_EVERY) -> None:
    """Run for the server's life (cancel it at the end: it unfreezes everything then)."""
    gc.collect()
    gc.freeze()
    last_full = time.monotonic()
    try:
        while True:
            await asyncio.sleep(freeze_every)
            if time.monotonic() - last_full >= collect_every:
                gc.unfreeze()
                started = time.perf_counter()
                gc.collect()
                log.info("full garbage collection: %.0f ms", 1000 * (time.perf_counter() - started))
                last_full = time.monotonic()
            gc.freeze()
    finally:
        gc.unfreeze()
