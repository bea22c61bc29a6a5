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


def _rows(out: str) -> dict[str, str]:
    """The action rows of solve's table: action -> its value column ("not solved" too)."""
    rows = {}
    for line in out.splitlines():
        match = re.match(r"\s*(play \S+)\s+(\d+|not solved)\s*$", line)
        if match:
            rows[match.group(1)] = match.group(2)
    return rows


def test_a_solve_out_of_time_shows_the_values_it_found(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Stopped by its time limit, solve prints every legal action, the solved ones with their
    exact values, says how many it solved, and exits with 1.  (The stop is made to come at a
    node count here, so the test sees the same partial answer on any machine.)"""
    import tricktaker.solver as solver

    state = tt.new_game("tute").new_match(seed=3)
    cli._advance_to_play(state, None)
    full = solver.solve(state)
    real = solver.solve
    monkeypatch.setattr(solver, "solve",
                        lambda state, time_limit, threads: real(state, node_limit=full.nodes // 2))
    assert cli.main(["solve", "--game", "tute", "--seed", "3", "--time-limit", "9"]) == 1
    out = capsys.readouterr().out
    rows = _rows(out)
    assert set(rows) == {str(action) for action in full.values}
    solved = {action: value for action, value in rows.items() if value != "not solved"}
    assert 0 < len(solved) < len(rows)
    by_text = {str(action): value for action, value in full.values.items()}
    assert all(int(value) == by_text[action] for action, value in solved.items())
    assert "Stopped by --time-limit 9 s after" in out
    assert f"{len(solved)} of {len(rows)} actions solved (their values are exact)" in " ".join(out.split())
    monkeypatch.setattr(solver, "solve", lambda state, time_limit, threads: real(state, node_limit=1024))
    assert cli.main(["solve", "--game", "tute", "--seed", "3", "--time-limit", "9"]) == 1
    out = capsys.readouterr().out
    assert "no action solved yet" in out and not _rows(out)


def test_ctrl_c_stops_a_solve_and_shows_what_it_found() -> None:
    """Ctrl-C in a two-thread solve of a Tuppi nolo (a dozen seconds in full) ends it at once,
    with the rows it had solved and exit code 130."""
    import signal
    import subprocess
    import sys
    import time

    command = [sys.executable, "-m", "tricktaker.cli", "solve", "--game", "tuppi", "--seed", "4"]
    process = subprocess.Popen(command,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert process.stdout is not None
    seen = ""
    while "to play" not in seen:
        line = process.stdout.readline()
        assert line, process.stderr.read() if process.stderr else ""
        seen += line
    time.sleep(1.0)
    process.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    out, err = process.communicate(timeout=30)
    assert time.perf_counter() - sent < 2.0
    assert process.returncode == 130, err
    assert "Stopped by Ctrl-C after" in out
    rows = _rows(out)
    solved = [value for value in rows.values() if value != "not solved"]
    assert not rows or len(rows) == 13  # the table, when anything was solved, lists every card
    assert ("no action solved yet" in out) == (not solved)
