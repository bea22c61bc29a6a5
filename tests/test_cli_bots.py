"""``tricktaker play --bots``: the default bot, per-seat bots, bot options, and errors."""

from __future__ import annotations

from pathlib import Path

import pytest

import tricktaker as tt
from tricktaker import bots, cli


def test_play_seats_the_default_bot(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(cli, "DEFAULT_BOT", bots.DEFAULT_BOT)
    made = []
    real = cli.make_bot

    def spy(spec: str, seed: int | None = None) -> bots.Bot:
        made.append(spec)
        return real("random", seed=seed)  # the seats are checked; the play itself need not be strong

    monkeypatch.setattr(cli, "make_bot", spy)
    monkeypatch.setattr(cli, "read_line", lambda prompt: "q")
    cli.main(["play", "tuppi", "--seed", "1"])
    assert made == ["pimc"] * 3


def test_play_takes_one_bot_per_seat_with_options(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    monkeypatch.setattr(cli, "read_line", lambda prompt: "1")
    code = cli.main(["play", "bondtolva", "--seed", "2", "--save", str(path),
                     "--bots", "rules,pimc:worlds=2,ismcts:iterations=10"])
    assert code == 0
    assert tt.load(path.read_text()).is_over()


@pytest.mark.parametrize(("bots_arg", "message"), [
    ("rules,pimc", "--bots takes one bot name or 3 names"),
    ("minimax", "unknown bot 'minimax'"),
    ("oracle", "oracle sees every card: only the arena seats it"),
    ("pimc:speed=9", "bot 'pimc' has no option 'speed'"),
])
def test_play_names_a_bad_bots_argument(bots_arg: str, message: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "tuppi", "--bots", bots_arg]) == 2
    assert message in capsys.readouterr().err
