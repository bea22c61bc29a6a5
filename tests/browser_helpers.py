"""Driving the table page (src/tricktaker/server/static/table.js) in a real browser.

Everything here clicks what a person would click, found through the client's
``data-testid`` hooks, and waits on ``body[data-seq]`` rather than sleeping.
The page's ``window.tricktaker.state`` hook is only read (the hand number, the
legal multi-card actions), never written.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

CHROMIUM = os.environ.get("TRICKTAKER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
if TYPE_CHECKING:
    from playwright.sync_api import Page

NewPage = Callable[..., "Page"]
"""The ``new_page`` fixture (conftest.py): a page in a browser context of its own, whose script
errors fail the test; keyword arguments go to the context (viewport, locale, ...)."""

TIMEOUT_MS = 30_000
"""A bound on any single wait: generous, because the machine may be busy with other work."""

FRENCH = re.compile(r"\b[AKQJT98765432][SHDC]\b")
SPANISH = re.compile(r"\b(?:1[012]|[1-7])[OCEB]\b")

MY_TURN = """() => document.body.dataset.over === 'true' || !!document.querySelector(
  '#hand [data-testid=card][data-legal="true"], #actions [data-testid=action]:not([disabled])')"""
"""True once the page offers something to click (or the match is over)."""


def require_browser() -> None:
    """Skip (or, with ``TRICKTAKER_REQUIRE_BROWSER=1``, fail) when there is no browser to drive."""
    required = os.environ.get("TRICKTAKER_REQUIRE_BROWSER") == "1"
    problem = None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        problem = "playwright is not installed (pip install playwright)"
    if problem is None and not os.access(CHROMIUM, os.X_OK):
        problem = f"no Chromium at {CHROMIUM} (apt-get install chromium, or set TRICKTAKER_CHROMIUM)"
    if problem is not None:
        if required:
            pytest.fail(f"TRICKTAKER_REQUIRE_BROWSER=1 but {problem}", pytrace=False)
        pytest.skip(problem, allow_module_level=True)


def seq(page: Any) -> int:
    return int(page.evaluate("() => document.body.dataset.seq"))


def wait_seq(page: Any, above: int | None = None, equal: int | None = None, timeout: int = TIMEOUT_MS) -> int:
    """Until the page's ``data-seq`` is above ``above`` (or equals ``equal``); returns it."""
    if equal is not None:
        page.wait_for_function("s => Number(document.body.dataset.seq) === s", arg=equal, timeout=timeout)
    else:
        page.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=above, timeout=timeout)
    return seq(page)


def observation(page: Any) -> dict[str, Any]:
    """The observation the page last rendered (read through the client's test hook)."""
    obs: dict[str, Any] = page.evaluate("() => window.tricktaker.state.obs")
    return obs


def seq_and_observation(page: Any) -> tuple[int, dict[str, Any]]:
    """The page's seq and observation read together (a state may arrive between two reads)."""
    now, obs = page.evaluate("() => [Number(document.body.dataset.seq), window.tricktaker.state.obs]")
    return int(now), obs


def hand_number(page: Any) -> int:
    return int(page.evaluate("() => window.tricktaker.state.obs.hand_number"))


def hand_cards(page: Any) -> list[str]:
    """The cards of the page's own hand, as the page draws them."""
    cards: list[str] = page.locator("#hand [data-testid=card]").evaluate_all(
        "els => els.map(e => e.dataset.card)")
    return cards


def all_cards_shown(page: Any) -> set[str]:
    """Every card face anywhere in the document (hand, trick, shown cards, pop-ups)."""
    cards: list[str] = page.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    return set(cards)


def offered(page: Any) -> list[str]:
    """What the page offers to click: its legal cards (``card AS``) and its action buttons."""
    found: list[str] = page.evaluate("""() => {
      const all = (selector) => [...document.querySelectorAll(selector)];
      return [...all('#hand [data-testid=card][data-legal="true"]').map(e => 'card ' + e.dataset.card),
              ...all('#actions [data-testid=action]:not([disabled])').map(e => e.dataset.action)]; }""")
    return found


def wait_my_turn(page: Any, timeout: int = TIMEOUT_MS, extra: str | None = None) -> None:
    """Until the page offers a card or a button (or the match is over, or ``extra`` holds)."""
    if extra is None:
        page.wait_for_function(MY_TURN, timeout=timeout)
    else:
        page.wait_for_function(f"() => ({MY_TURN})() || ({extra})()", timeout=timeout)


def is_my_turn(page: Any) -> bool:
    return bool(page.evaluate(MY_TURN)) and page.evaluate("() => document.body.dataset.over") != "true"


def take_turn(page: Any, rng: random.Random) -> str:
    """Click one of the things the page offers (a legal card, an action button, or a
    selection of cards and Confirm); wait until the server has taken it.  Returns the action."""
    before = seq(page)
    if page.locator("#selection").is_visible():
        legal: list[str] = page.evaluate("() => window.tricktaker.state.legal")
        multi = [a for a in legal if len(a.split(" ")) > 2]
        action = rng.choice(multi)
        for card in action.split(" ")[1:]:
            page.locator(f'#hand [data-testid=card][data-card="{card}"]').click()
        confirm = page.get_by_test_id("confirm-selection")
        assert confirm.get_attribute("data-action") == action
        confirm.click()
    else:
        choices = offered(page)
        if not choices and page.evaluate("() => document.body.dataset.over") != "true":
            # The page showed a lone action for a moment, and the server played it itself
            # (Tables._schedule_bot plays a person's only non-card choice): the next offer.
            page.wait_for_function(f"() => document.body.dataset.seq !== '{before}'", timeout=TIMEOUT_MS)
            wait_my_turn(page)
            return take_turn(page, rng)
        assert choices, "take_turn called when the page offers nothing"
        action = rng.choice(choices)
        if action.startswith("card "):
            target = f'#hand [data-testid=card][data-card="{action[5:]}"]'
        else:
            target = f'#actions [data-testid=action][data-action="{action}"]'
        if not _click(page, target, before):
            # The table moved on while the click waited (the server played a lone action itself,
            # and the page redrew its buttons under the pointer): take the next offer.
            wait_my_turn(page)
            return take_turn(page, rng)
    wait_seq(page, above=before)
    return action


def _click(page: Any, selector: str, before: int) -> bool:
    """Click ``selector``, trying again while the page redraws it; False if the table moved on
    (its ``seq`` is no longer ``before``) before a click landed.  A busy machine can keep an
    element "not stable" for a while: each try waits a few seconds, all of them TIMEOUT_MS."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        try:
            page.locator(selector).click(timeout=5_000)
            return True
        except Exception as exc:  # playwright's TimeoutError: its module is imported lazily
            if type(exc).__name__ != "TimeoutError" or time.monotonic() > deadline:
                raise
            if seq(page) != before:
                return False


def play_turns(page: Any, rng: random.Random, turns: int) -> None:
    """Take ``turns`` turns by clicking, waiting for each in turn."""
    for _ in range(turns):
        wait_my_turn(page)
        assert page.evaluate("() => document.body.dataset.over") != "true"
        take_turn(page, rng)


def collect_frames(page: Any) -> list[str]:
    """Every WebSocket text frame the page receives from now on (across reconnections)."""
    frames: list[str] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(payload if isinstance(payload, str)
                                                             else payload.decode()))

    page.on("websocket", on_socket)
    return frames


def state_frames(frames: list[str]) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, frames) if m.get("type") == "state"]
