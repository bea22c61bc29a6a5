"""Test-wide settings.

The terminal tests play whole matches against the bots ``tricktaker play``
seats by default.  That default is a search bot that thinks for a good part
of a second per decision, which is right for a person and far too slow for
hundreds of test matches, so the tests seat random bots unless they ask for
others (``--bots``).  tests/test_cli_bots.py checks the real default.
"""

from __future__ import annotations

import pytest

from tricktaker import cli


@pytest.fixture(autouse=True)
def _random_bots_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "DEFAULT_BOT", "random")
