"""Showing an arena's results: a table in the terminal, a JSON file, a plot."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from .deals import ArenaConfig, DealResult
from .stats import Summary

__all__ = ["check_plotting", "print_summary", "to_json", "write_plot"]


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.1f} ms"


def print_summary(out: Console, config: ArenaConfig, summary: Summary) -> None:
    """The pairwise table (difference per deal, win rate) and each bot's rating and decision time."""
    unit = "match wins" if config.matches else "deals won"
    kind = "duplicate deals" if config.duplicate else "deals"
    out.print(f"[bold]{config.game}[/]: {summary.deals} {kind}, {summary.plays} played "
              f"({'whole matches' if config.matches else 'single hands'})")
    per = "match" if config.matches else "deal"
    pairs = Table("A", "B", f"A - B points per {per} [95% CI]", f"A's {unit} [95% CI]", "clear?")
    for pair in summary.pairs:
        rate = pair.win_rate
        pairs.add_row(summary.bots[pair.a], summary.bots[pair.b], str(pair.difference),
                      f"{rate.value:.1%} [{rate.low:.1%}, {rate.high:.1%}]",
                      "yes" if pair.difference.excludes_zero() else "no")
    out.print(pairs)
    bots = Table("bot", "rating (Elo)", "median per decision")
    for name, rating, median in zip(summary.bots, summary.ratings, summary.median_decision, strict=True):
        bots.add_row(name, f"{rating:.0f}", _ms(median))
    out.print(bots)
    if summary.dd_loss:
        losses = Table("bot", "DD loss per card play [95% CI]", "plays losing nothing", "measured",
                       "skipped (slow)")
        for name, loss in zip(summary.bots, summary.dd_loss, strict=True):
            if loss is None:
                losses.add_row(name, "-", "-", "0", "-")
                continue
            mean = loss.mean
            losses.add_row(name, f"{mean.value:.3f} [{mean.low:.3f}, {mean.high:.3f}]",
                           f"{loss.zero_share:.1%}", str(loss.measured), str(loss.skipped))
        out.print(losses)
        out.print("DD loss: the solver's value of the best action minus that of the card played, on the "
                  "true deal, in the solver's units (docs/solver.md); card plays with a choice only.")


def to_json(config: ArenaConfig, summary: Summary, results: list[DealResult]) -> dict[str, Any]:
    """Everything about the run: the config, the summary and every play of every deal."""
    return {
        "config": dataclasses.asdict(config),
        "summary": dataclasses.asdict(summary),
        "deals": [
            {"deal": r.deal, "plays": [dataclasses.asdict(p) for p in r.plays],
             **({"dd_losses": r.dd_losses, "dd_skipped": r.dd_skipped} if r.dd_losses else {})}
            for r in sorted(results, key=lambda r: r.deal)
        ],
    }


def check_plotting() -> None:
    """Raise RuntimeError now if ``--plot`` could not be written, not after the whole run."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise RuntimeError("--plot needs matplotlib: pip install 'tricktaker[plot]'")


def write_plot(path: Path, config: ArenaConfig, summary: Summary) -> None:
    """A PNG: bot A's running mean advantage over bot B with its 95% band, and the ratings."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError("--plot needs matplotlib: pip install 'tricktaker[plot]'") from None
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4), width_ratios=(2, 1))
    x = range(1, len(summary.running) + 1)
    mean = [m for m, _, _ in summary.running]
    left.fill_between(x, [lo for _, lo, _ in summary.running], [hi for _, _, hi in summary.running],
                      alpha=0.3, label="95% interval")
    left.plot(x, mean, label="mean")
    left.axhline(0, color="black", linewidth=0.8)
    left.set_xlabel("deals")
    left.set_ylabel("points per deal")
    left.set_title(f"{summary.bots[0]} - {summary.bots[1]} ({config.game})")
    left.legend()
    right.bar(summary.bots, summary.ratings)
    right.set_ylim(min(summary.ratings) - 100, max(summary.ratings) + 100)
    right.set_title("ratings (Elo)")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
