"""Golden playthrough files: compare a text with its file, or rewrite it with UPDATE_GOLDEN=1."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"


def check_golden(name: str, text: str) -> None:
    """Fail with a diff when ``text`` differs from ``golden/name``; UPDATE_GOLDEN=1 rewrites it."""
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"{path} missing: run with UPDATE_GOLDEN=1"
    expected = path.read_text()
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                            str(path), "now", n=2))
        pytest.fail(f"golden playthrough changed (UPDATE_GOLDEN=1 to accept):\n{diff[:6000]}")
