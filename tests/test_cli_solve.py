"""``tricktaker solve``: the deal and the value of each legal action, from a record or a seed."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import tricktaker as tt
from tricktaker import cli


def late_rami(seed: int, tricks_left: int) -> tt.State:
    game = tt.new_game("tuppi", early_end=False)
    rng = random.Random(seed)
    for attempt in range(200):
        state = game.new_match(seed=seed * 100 + attempt)
        while state.phase != "play":
            state.apply(rng.choice(state.legal_actions()))
        if state.contract != "rami":
            continue
        while len(state.hand(state.current_player)) > tricks_left:
            state.apply(rng.choice(state.legal_actions()))
        return state
    raise AssertionError("no rami hand")


def test_solve_a_record_prints_the_deal_and_every_value(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    state = late_rami(2, 5)
    path = tmp_path / "hand.json"
    path.write_text(state.to_json(), encoding="utf-8")
    assert cli.main(["solve", str(path)]) == 0
    out = capsys.readouterr().out
    solution = tt.solve(state)
    for action, value in solution.values.items():
        assert any(str(action) in line and line.split()[-1] == str(value) for line in out.splitlines())
    for card in state.hand(state.current_player):
        assert str(card) in out
    assert f"Seat {state.current_player} to play: value {solution.value} tricks" in out
    assert re.search(r"solved in \d+\.\d\d s in 2 threads, [\d,]+ search nodes", " ".join(out.split())), out
    assert cli.main(["solve", str(path), "--threads", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"solved in \d+\.\d\d s, [\d,]+ search nodes", " ".join(out.split())), out


def test_solve_moves_reach_the_play() -> None:
    """``--moves`` applies bids first; phases before play then take the first legal action."""
    state = tt.new_game("tuppi", preset="tournament").new_match(seed=9)
    cli._advance_to_play(state, "bid rami; bid nolo")
    assert state.phase == "play"
    assert [str(a) for a in state.history[:2]] == ["bid rami", "bid nolo"]


def test_solve_reports_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["solve"]) == 2
    assert "record FILE or --game" in capsys.readouterr().err
    assert cli.main(["solve", "--game", "tuppi", "--moves", "play XX"]) == 2
    assert "--moves" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert cli.main(["solve", str(bad)]) == 2
    assert "bad.json" in capsys.readouterr().err
    for threads in ("0", "65"):
        assert cli.main(["solve", "--game", "tuppi", "--threads", threads]) == 2
        captured = capsys.readouterr()
        assert f"--threads must be 1 to 64, not {threads}" in captured.err
        assert "to play" not in captured.out  # refused before anything is dealt or solved
