"""The arena: duplicate lineups, deterministic deals, the same results in one process, many, or on Ray;
honest statistics; the command."""

from __future__ import annotations

import json
import math
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from tricktaker import cli
from tricktaker.arena import (
    ArenaConfig,
    DealResult,
    Journal,
    JournalError,
    Play,
    lineups,
    play_deal,
    run_deals,
    summarise,
)
from tricktaker.arena.stats import bradley_terry, mean_interval, wilson


def test_lineups_seat_every_bot_on_every_side() -> None:
    assert lineups(2, 2) == [(0, 1), (1, 0)]
    three = lineups(2, 3)
    assert len(three) == 6
    assert all(set(lineup) == {0, 1} for lineup in three)
    for side in range(3):  # each bot plays each side alone once
        assert sum(1 for lineup in three if lineup[side] == 0 and lineup.count(0) == 1) == 1
    assert sorted(lineups(3, 3)) == sorted({(a, b, c) for a in range(3) for b in range(3) for c in range(3)
                                            if len({a, b, c}) == 3})
    with pytest.raises(ValueError, match="3 bots cannot share a game of 2 sides"):
        lineups(3, 2)


def test_a_duplicate_deal_gives_identical_bots_exactly_the_same_result() -> None:
    """The same cards and the same seeded bots in every lineup: the swap cancels to zero."""
    config = ArenaConfig("tuppi", ("rules", "rules"), deals=6)
    results = [play_deal(config, deal) for deal in range(6)]
    for result in results:
        first, second = result.plays
        assert first.lineup == (0, 1) and second.lineup == (1, 0)
        assert first.points == second.points
    summary = summarise(config.bots, results, matches=False)
    assert summary.pairs[0].difference.value == 0


def test_play_deal_is_deterministic_and_single_lineup_without_duplicate() -> None:
    config = ArenaConfig("tute", ("rules", "random"), deals=4, duplicate=False)
    again = [play_deal(config, d).plays for d in range(4)]
    assert again == [play_deal(config, d).plays for d in range(4)]
    assert [plays[0].lineup for plays in again] == [(0, 1), (1, 0), (0, 1), (1, 0)]


def test_rules_beats_random_clearly_in_tuppi() -> None:
    config = ArenaConfig("tuppi", ("rules", "random"), deals=30)
    summary = summarise(config.bots, run_deals(config), matches=False)
    pair = summary.pairs[0]
    assert pair.difference.low > 0
    assert summary.ratings[0] > summary.ratings[1]
    assert summary.median_decision[0] is not None


def test_matches_count_match_wins() -> None:
    config = ArenaConfig("huutopussi", ("rules", "random"), deals=3, matches=True, options={"players": 3})
    results = run_deals(config)
    plays = [p for r in results for p in r.plays]
    assert len(plays) == 3 * 6 and all(p.winner is not None for p in plays)
    assert all(p.hands >= 1 for p in plays)
    summary = summarise(config.bots, results, matches=True)
    assert summary.pairs[0].unit == "matches"
    assert summary.pairs[0].win_rate.value > 0.5


def test_worker_processes_give_the_same_results_as_one_process() -> None:
    config = ArenaConfig("bondtolva", ("rules", "random"), deals=6)
    serial = sorted(run_deals(config), key=lambda r: r.deal)
    parallel = sorted(run_deals(config, workers=2), key=lambda r: r.deal)
    assert [r.plays for r in serial] == [r.plays for r in parallel]


def test_the_arena_runs_on_a_local_ray_instance() -> None:
    pytest.importorskip("ray")
    config = ArenaConfig("marjapussi", ("rules", "random"), deals=4)
    on_ray = sorted(run_deals(config, workers=2, ray_address="local"), key=lambda r: r.deal)
    assert [r.plays for r in on_ray] == [play_deal(config, d).plays for d in range(4)]


# -- statistics -------------------------------------------------------------------------


def test_mean_interval_is_the_normal_95_percent_interval() -> None:
    interval = mean_interval([1.0, 2.0, 3.0, 4.0])
    half = 1.959964 * math.sqrt(5 / 3) / 2
    assert (interval.value, interval.low, interval.high) == pytest.approx((2.5, 2.5 - half, 2.5 + half))
    assert interval.excludes_zero()
    assert not mean_interval([-1.0, 1.0]).excludes_zero()


def test_wilson_interval_stays_inside_zero_and_one() -> None:
    rate = wilson(10, 10)
    assert rate.value == 1.0 and rate.high <= 1.0 and 0.6 < rate.low < 0.75
    assert wilson(5, 10).low == pytest.approx(1 - wilson(5, 10).high)


def test_bradley_terry_ratings_follow_the_score() -> None:
    # 3 wins to 1, plus the virtual draw: strengths 3.5 : 1.5
    low, high = sorted(bradley_terry({(0, 1): 3.0, (1, 0): 1.0}, 2))
    assert high - low == pytest.approx(400 * math.log10(3.5 / 1.5), abs=0.5)
    assert (low + high) / 2 == pytest.approx(1500)


# -- the command ---------------------------------------------------------------------------


def test_arena_command_prints_the_table_and_writes_json_and_a_plot(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    out_json, out_png = tmp_path / "duel.json", tmp_path / "duel.png"
    code = cli.main(["arena", "tuppi", "--bots", "rules,random", "--deals", "8", "--seed", "2",
                     "--json", str(out_json), "--plot", str(out_png)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "rules" in printed and "points per deal" in printed and "rating" in printed
    record = json.loads(out_json.read_text())
    assert record["config"]["bots"] == ["rules", "random"]
    assert len(record["deals"]) == 8 and all(len(d["plays"]) == 2 for d in record["deals"])
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "rules"], "--bots takes 2 to 2 bots"),
    (["--bots", "rules,genius"], "unknown bot 'genius'"),
    (["--bots", "rules,pimc:depth=2"], "no option 'depth'"),
    (["--deals", "0"], "--deals must be at least 1"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--json", "/no/such/dir/x.json"], "no directory"),
    (["--journal", "/no/such/dir/x.jsonl"], "no directory"),
])
def test_arena_command_names_bad_arguments(args: list[str], message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["arena", "tuppi", *args]) == 2
    assert message in capsys.readouterr().err


# -- the journal: a long run survives a stop -----------------------------------------------


def test_a_journaled_run_stopped_and_continued_sums_up_as_one_uninterrupted_run(tmp_path: Path) -> None:
    config = ArenaConfig("tuppi", bots=("rules", "random"), deals=6, seed=4)
    whole = summarise(config.bots, run_deals(config), config.matches)
    path = tmp_path / "run.jsonl"
    with Journal(path, ArenaConfig("tuppi", bots=("rules", "random"), deals=4, seed=4)) as first:
        for result in run_deals(ArenaConfig("tuppi", bots=("rules", "random"), deals=4, seed=4)):
            first.add(result)
    # A process killed mid-write leaves half a line: that deal is dropped and played again.
    text = path.read_text()
    path.write_text(text + text.splitlines()[-1][:40])
    played: list[int] = []
    with Journal(path, config) as journal:  # six deals now: extending a run is allowed
        assert sorted(journal.done) == [0, 1, 2, 3]
        new = run_deals(config, on_result=lambda r: played.append(r.deal), done=journal.done)
        for result in new:
            journal.add(result)
        results = list(journal.done.values())
    assert played == [4, 5]
    timeless = {"median_decision": ()}  # the same plays; only the clock differs
    assert replace(summarise(config.bots, results, config.matches), **timeless) == replace(whole, **timeless)
    assert path.read_text().count("\n") == 1 + 6 and path.read_text().endswith("\n")
    with Journal(path, config) as again:
        assert sorted(again.done) == list(range(6))
        assert again.done[5] == next(r for r in new if r.deal == 5)  # read back exactly


def test_a_journal_reads_back_every_field_of_a_deal(tmp_path: Path) -> None:
    """Matches (winner, places) and double-dummy losses come back as they went in."""
    config = ArenaConfig("tute", bots=("rules", "random"), deals=1, options={"players": 3}, matches=True,
                         dd_loss=True)
    result = DealResult(0, (Play((0, 1, 1), (2.0, -1.0, -1.0), None, 3, (1, 2, 2)),
                            Play((1, 0, 0), (-1.0, 2.5, -1.5), 1, 4, None)),
                        ((0.001, 0.002), (0.003,)), ((0.0, 1.5), ()), (1, 0))
    with Journal(tmp_path / "j.jsonl", config) as journal:
        journal.add(result)
    with Journal(tmp_path / "j.jsonl", config) as again:
        assert again.done == {0: result}


def test_a_journal_of_another_run_or_a_damaged_one_is_refused_by_name_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    config = ArenaConfig("tuppi", bots=("rules", "random"), deals=2, seed=4)
    with Journal(path, config) as journal:
        for result in run_deals(config):
            journal.add(result)
    before = path.read_bytes()
    with pytest.raises(JournalError, match=r"another run \(seed: 4 there, 5 now\)"):
        Journal(path, ArenaConfig("tuppi", bots=("rules", "random"), deals=2, seed=5))
    with pytest.raises(JournalError, match=r"bots: \['rules', 'random'\] there, \['random', 'rules'\] now"):
        Journal(path, ArenaConfig("tuppi", bots=("random", "rules"), deals=2, seed=4))
    lines = before.decode().splitlines()
    path.write_text("\n".join([lines[0], '{"deal": 0, "plays": "nonsense"}', lines[2]]) + "\n")
    with pytest.raises(JournalError, match="line 2: not a deal's result"):
        Journal(path, config)
    other = tmp_path / "notes.txt"
    other.write_text("my shopping list\n")
    with pytest.raises(JournalError, match="not an arena journal"):
        Journal(other, config)
    assert other.read_text() == "my shopping list\n"
    path.write_bytes(before)
    with Journal(path, config):
        if sys.platform != "win32":  # a second run on the same journal, started by mistake
            with pytest.raises(JournalError, match="in use by a run going on now"):
                Journal(path, config)
    assert path.read_bytes() == before


def test_arena_command_goes_on_from_its_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "run.jsonl"
    args = ["arena", "tuppi", "--bots", "rules,random", "--seed", "3", "--journal", str(path)]
    assert cli.main([*args, "--deals", "3"]) == 0
    three = capsys.readouterr().out
    assert cli.main([*args, "--deals", "5"]) == 0
    five, log = capsys.readouterr()
    assert "3 of 5 deals already played" in five and "already played" not in three
    # no terminal here, so a line of progress for each deal (every 5% of the run)
    assert "4 of 5 deals: rules - random +" in log and "5 of 5 deals: rules - random +" in log
    assert path.read_text().count("\n") == 1 + 5
    assert cli.main(["arena", "tuppi", "--bots", "rules,random", "--deals", "5", "--seed", "3",
                     "--json", str(tmp_path / "a.json")]) == 0
    capsys.readouterr()
    assert cli.main([*args, "--deals", "5", "--json", str(tmp_path / "b.json")]) == 0
    assert "5 of 5 deals already played" in capsys.readouterr().out
    record_a, record_b = (json.loads((tmp_path / name).read_text()) for name in ("a.json", "b.json"))
    for record in (record_a, record_b):
        del record["summary"]["median_decision"]
    assert record_a["summary"] == record_b["summary"] and record_a["deals"] == record_b["deals"]
    assert cli.main([*args, "--deals", "5", "--dd-loss"]) == 2
    assert "another run (dd_loss: False there, True now)" in capsys.readouterr().err
