"""Running an arena's deals: in this process, in worker processes, or on a Ray cluster.

Every deal is an independent task (:func:`~.deals.play_deal` of the config and
the deal's number) whose result depends on nothing else, so the three ways
give the same results; only the order they arrive in differs, and the
summary sorts by deal.
"""

from __future__ import annotations

import functools
import multiprocessing
import signal
from collections.abc import Callable, Collection
from typing import Any

from .deals import ArenaConfig, DealResult, play_deal

__all__ = ["run_deals"]

Progress = Callable[[DealResult], None]


def run_deals(config: ArenaConfig, workers: int = 1, ray_address: str | None = None,
              on_result: Progress | None = None, done: Collection[int] = ()) -> list[DealResult]:
    """Play every deal of ``config`` but those numbered in ``done`` (a journal's, played
    before); call ``on_result`` as each finishes, and return the deals played.

    ``workers`` > 1 uses that many processes ("spawn", so a worker never
    inherits a half-held lock from this process's threads).  ``ray_address``
    sends the deals to Ray instead: an address such as ``ray://host:10001`` or
    ``auto`` joins a running cluster, and ``local`` starts a Ray instance on
    this machine with ``workers`` CPUs.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    report = on_result or (lambda result: None)
    todo = [deal for deal in range(config.deals) if deal not in done]
    if ray_address is not None:
        return _run_ray(config, todo, workers, ray_address, report)
    if workers == 1:
        results = []
        for deal in todo:
            results.append(play_deal(config, deal))
            report(results[-1])
        return results
    results = []
    pool = multiprocessing.get_context("spawn").Pool(workers, initializer=_leave_interrupts_to_the_parent)
    try:
        for result in pool.imap_unordered(functools.partial(play_deal, config), todo):
            results.append(result)
            report(result)
        pool.close()
    finally:
        # On an error or Ctrl-C the deals still running are stopped, not waited for: a journal
        # has kept every deal that finished.
        pool.terminate()
        pool.join()
    return results


def _leave_interrupts_to_the_parent() -> None:
    """A worker ignores Ctrl-C (the terminal sends it to the whole group): the parent stops
    the pool, and no worker prints a traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_ray(config: ArenaConfig, todo: list[int], workers: int, address: str,
             report: Progress) -> list[DealResult]:
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install 'tricktaker[ray]'") from None
    options: dict[str, Any] = {"ignore_reinit_error": True, "include_dashboard": False,
                               "log_to_driver": False}
    if address == "local":
        options["num_cpus"] = workers
    else:
        options["address"] = address
    started_here = not ray.is_initialized()
    ray.init(**options)
    try:
        task = ray.remote(play_deal)
        pending = [task.remote(config, deal) for deal in todo]
        results = []
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            results.append(ray.get(ready[0]))
            report(results[-1])
        return results
    finally:
        if started_here:
            ray.shutdown()
