"""Test-wide settings.

The terminal tests play whole matches against the bots ``tricktaker play``
seats by default.  That default is a search bot that thinks for a good part
of a second per decision, which is right for a person and far too slow for
hundreds of test matches, so the tests seat random bots unless they ask for
others (``--bots``).  tests/test_cli_bots.py checks the real default.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from server_helpers import Running, running

from tricktaker import cli

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


@pytest.fixture(autouse=True)
def _random_bots_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "DEFAULT_BOT", "random")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    """A ``tricktaker serve`` app in this process, on a fresh SQLite file (server_helpers.running)."""
    with running(str(tmp_path / "t.db")) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium per browser test module (a module calls ``browser_helpers.require_browser``
    first, so playwright is imported here only where it is there)."""
    from browser_helpers import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Pages, each in a context of its own (its own localStorage: another person's browser).
    Any uncaught error in the pages' scripts fails the test."""
    from browser_helpers import TIMEOUT_MS

    contexts = []
    errors: list[str] = []

    def make(**options: Any) -> Page:
        options.setdefault("viewport", {"width": 1280, "height": 800})
        context = browser.new_context(**options)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"errors in the page's scripts: {errors}"
