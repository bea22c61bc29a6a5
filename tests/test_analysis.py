"""The hand analysis (tricktaker.analysis): what each play cost on the true deal, the par, and
what may be told to a seat after the hand (docs/solver.md, "Analysis of a finished hand")."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

import tricktaker as tt
from tricktaker.analysis import ANALYSED, HIDDEN, TIMEOUT, analyse_hand, state_at_hand_start
from tricktaker.bots import make_bot, view_of
from tricktaker.cli import main
from tricktaker.engine import State
from tricktaker.solver import solve


def _first_legal_play(state: State) -> None:
    """Play each decision by the first legal action: a weak, deterministic player that loses tricks."""
    while not state.is_over():
        state.apply(state.legal_actions()[0])


def _rules_play(state: State, seed: int = 0) -> None:
    bots = [make_bot("rules", seed=seed + seat) for seat in range(state.game.num_players)]
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(view_of(state, seat)))


def _tuppi_rami(seed: int = 3) -> dict[str, Any]:
    """A whole Tuppi rami hand played by the first legal card, as a record."""
    state = tt.new_game("tuppi", sooli=False).new_hand(seed=seed)
    while state.observation(None)["phase"] == "bid":
        rami = [a for a in state.legal_actions() if a.text == "bid rami" or
                (a.kind == "bid" and a.card is not None and a.card.suit.name in ("hearts", "diamonds"))]
        state.apply(rami[0] if rami else state.legal_actions()[0])
    assert state.observation(None)["contract"] == "rami"
    _first_legal_play(state)
    record: dict[str, Any] = json.loads(state.to_json())
    return record


def _positions(record: dict[str, Any], index: int = 0) -> list[State]:
    """The state before each action of hand ``index``."""
    state = state_at_hand_start(record, index)
    states = []
    for text in record["hands"][index]["actions"]:
        states.append(state.clone())
        state.apply(text)
    return states


def test_each_cost_is_the_solvers_best_value_minus_the_value_of_the_card_played() -> None:
    record = _tuppi_rami()
    analysis = analyse_hand(record, 0, time_limit=None, par=False)
    positions = _positions(record)
    assert analysis.units == "tricks" and len(analysis.decisions) > 20
    for decision in analysis.decisions:
        assert decision.status == ANALYSED
        solution = solve(positions[decision.number])
        assert decision.values == {a.text: v for a, v in solution.values.items()}
        assert decision.cost == solution.value - solution.values[
            next(a for a in solution.values if a.text == decision.action)]
        assert set(decision.best) == {a.text for a in solution.best()}
    for seat in range(4):
        assert analysis.totals[seat] == sum(d.cost or 0 for d in analysis.decisions if d.seat == seat)


def test_a_card_that_gives_away_a_trick_costs_one_trick_in_tuppi_rami() -> None:
    """The costly card's side really ends a trick short: the solve after it says so."""
    record = _tuppi_rami()
    analysis = analyse_hand(record, 0, time_limit=None, par=False)
    positions = _positions(record)
    costly = [d for d in analysis.decisions if d.cost == 1]
    assert costly, "the first-legal-card player gives tricks away"
    decision = costly[0]
    before = positions[decision.number]
    after = positions[decision.number + 1]
    assert decision.action not in decision.best
    side = before.game.side_of(decision.seat)

    def side_total(state: State) -> int:
        """Tricks ``side`` ends the hand with under best play from ``state``: taken + still to take."""
        public = state.observation(None)
        solution = solve(state)
        left = 13 - len(public["tricks"])
        mine = solution.value if state.game.side_of(solution.mover) == side else left - solution.value
        return int(public["tricks_won"][side]) + mine

    assert side_total(after) == side_total(before) - 1 == decision.values[decision.action] + \
        before.observation(None)["tricks_won"][side]


def test_costs_in_a_point_game_are_points_and_agree_with_the_solver() -> None:
    state = tt.new_game("tute").new_hand(seed=2)
    _first_legal_play(state)
    record = json.loads(state.to_json())
    analysis = analyse_hand(record, 0, time_limit=None)
    positions = _positions(record)
    assert analysis.units == "points" and analysis.par is None and analysis.actual is None  # no bidding
    some = [d for d in analysis.decisions if d.number > 20]
    assert some
    for decision in some:
        solution = solve(positions[decision.number])
        assert decision.values == {a.text: v for a, v in solution.values.items()}
        assert decision.cost == solution.value - decision.values[decision.action]
    assert sum(analysis.totals) > 0


def test_a_solve_over_its_time_limit_marks_the_play_not_analysed() -> None:
    state = tt.new_game("tute").new_hand(seed=2)
    _first_legal_play(state)
    analysis = analyse_hand(state.to_json(), 0, time_limit=1e-6, par=False)
    assert analysis.decisions and all(d.status == TIMEOUT for d in analysis.decisions[:5])
    assert analysis.timed_out >= 5
    early = analysis.to_json()["decisions"][0]
    assert "cost" not in early and "values" not in early


def test_the_par_sits_next_to_the_contract_played() -> None:
    record = _tuppi_rami()
    analysis = analyse_hand(record, 0, time_limit=2.0)
    result = record["hands"][0]["result"]
    assert analysis.actual is not None and analysis.par is not None and analysis.par_public
    assert analysis.actual.contract == {"contract": "rami", "declarer": result["declarer"]}
    assert list(analysis.actual.points) == result["points"]
    assert analysis.par.contract["contract"] in ("rami", "nolo")
    assert len(analysis.par.points) == 2
    assert analysis.to_json(public_only=True)["par"] == analysis.par.to_json()


# -- what a seat may be told -------------------------------------------------------------------


def test_a_whole_tuppi_hand_played_out_is_public_to_every_seat() -> None:
    analysis = analyse_hand(_tuppi_rami(), 0, time_limit=None, par=False)
    assert all(d.public for d in analysis.decisions)
    assert all(d["status"] == ANALYSED for d in analysis.to_json(public_only=True)["decisions"])


def test_cards_never_played_hide_the_hand_tuppi_early_end() -> None:
    """An early end leaves cards in the hands that nobody saw: no position may be told."""
    game = tt.new_game("tuppi", sooli=False)
    for seed in range(40):
        state = game.new_hand(seed=seed, scores=[30, 0])
        _rules_play(state, seed)
        if state.observation(None)["previous_hand"]["early_end"]:
            break
    else:
        pytest.fail("no early end in 40 seeded hands")
    analysis = analyse_hand(state.to_json(), 0, time_limit=None, only_public=True)
    assert analysis.decisions and not any(d.public for d in analysis.decisions)
    told = analysis.to_json(public_only=True)
    assert all(d["status"] == HIDDEN and "values" not in d and "best" not in d for d in told["decisions"])
    assert told["par"] is None and told["totals"] == [0, 0, 0, 0]
    # the record's own reader sees everything
    full = analyse_hand(state.to_json(), 0, time_limit=None, par=False).to_json()
    assert all(d["status"] == ANALYSED for d in full["decisions"])


def test_habanero_positions_are_hidden_while_the_stock_lasts() -> None:
    state = tt.new_game("tute", players=2).new_hand(seed=5)
    _rules_play(state)
    analysis = analyse_hand(state.to_json(), 0, time_limit=1.0, par=False, only_public=True)
    stock_left = [d for d in analysis.decisions if d.trick < 12]
    stock_gone = [d for d in analysis.decisions if d.trick >= 13]
    assert stock_left and not any(d.public for d in stock_left)
    assert all(d.status == HIDDEN for d in stock_left)  # not even solved
    if state.observation(None)["previous_hand"].get("tute") is None:
        assert stock_gone and all(d.public and d.status == ANALYSED for d in stock_gone)


def test_an_exchange_hides_the_par_but_not_the_play_huutopussi() -> None:
    """Cards passed between partners: the play after is public, the deal (and so the par) is not."""
    state = tt.new_game("huutopussi").new_hand(seed=1)
    _rules_play(state)
    analysis = analyse_hand(state.to_json(), 0, time_limit=1.0, only_public=True)
    assert analysis.decisions and all(d.public for d in analysis.decisions)
    assert not analysis.par_public and analysis.par is None
    assert analysis.actual is not None
    assert analysis.to_json(public_only=True)["par"] is None


# -- tricktaker replay --analyse ---------------------------------------------------------------


def test_replay_analyse_prints_each_cards_cost_the_totals_and_the_par(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _tuppi_rami()
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path), "--analyse", "--time-limit", "5"]) == 0
    out = capsys.readouterr().out
    analysis = analyse_hand(record, 0, time_limit=5, par=False)
    costly = next(d for d in analysis.decisions if d.cost)
    card = costly.action.removeprefix("play ")
    best = ", ".join(b.removeprefix("play ") for b in costly.best)
    assert f"{card} −{costly.cost} trick" in out and f"(best {best})" in out
    assert "Analysis of hand 1" in out and "Cost per player:" in out
    assert "Played: rami, declarer" in out and "Par: " in out


def test_a_hands_plays_judged_in_threads_are_judged_as_in_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """``threads`` solves several plays at once, each in a set of tables of its own; without a
    time limit the judgements are the same to the last value, and more than one set solved."""
    import tricktaker.solver as solver

    used: set[int] = set()
    real = solver.solve

    def spying_solve(state: State, **kwargs: Any) -> solver.Solution:
        used.add(id(kwargs.get("tables")))
        time.sleep(0.005)  # so the other workers take plays meanwhile
        return real(state, **kwargs)

    record = _tuppi_rami(5)
    one = analyse_hand(record, 0, time_limit=None, par=False)
    monkeypatch.setattr(solver, "solve", spying_solve)
    three = analyse_hand(record, 0, time_limit=None, par=False, threads=3)
    assert three == one and len(one.decisions) > 10
    assert len(used) > 1
    with pytest.raises(ValueError, match="threads must be 1 to 64"):
        analyse_hand(record, 0, par=False, threads=0)


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--time-limit", "0", "--time-limit must be positive"),
    ("--threads", "0", "--threads must be 1 to 64, not 0"),
    ("--threads", "65", "--threads must be 1 to 64, not 65"),
])
def test_replay_analyse_rejects_a_bad_time_limit_or_thread_count(
        option: str, value: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(_tuppi_rami()), encoding="utf-8")
    assert main(["replay", str(path), "--analyse", option, value]) == 2
    assert message in capsys.readouterr().err


def test_avomarjapussi_rows_count_as_their_seats_cards_so_a_hand_played_out_is_public() -> None:
    """Face-down row cards are turned up before they are played: once all 36 are played, every
    position was seen in full; before a card is played, it is not (a hand cut short is hidden)."""
    state = tt.new_game("avomarjapussi").new_hand(seed=1)
    _rules_play(state)
    record = json.loads(state.to_json())
    analysis = analyse_hand(record, 0, time_limit=0.2, only_public=True)
    assert analysis.decisions and all(d.public for d in analysis.decisions)
    assert any(d.status == ANALYSED for d in analysis.decisions)
    cut = dict(record["hands"][0], actions=record["hands"][0]["actions"][:-2], result=None)
    unfinished = analyse_hand(dict(record, hands=[cut], result=None), 0, time_limit=0.2, only_public=True)
    assert unfinished.decisions and not any(d.public for d in unfinished.decisions)


@pytest.mark.parametrize("options", [{"players": 3}, {"players": 3, "kitty_shown": True}])
def test_a_discard_the_result_shows_counts_as_seen_huutopussi_for_three(options: dict[str, Any]) -> None:
    """The declarer's discard is out of play, but the hand's public result names it: the play is
    public at the end.  The declarer's first hand (before the kitty) is not, so neither is the par."""
    state = tt.new_game("huutopussi", **options).new_hand(seed=1)
    _rules_play(state)
    assert state.observation(None)["previous_hand"]["discard"]
    analysis = analyse_hand(state.to_json(), 0, time_limit=1.0, only_public=True)
    assert analysis.decisions and all(d.public for d in analysis.decisions)
    assert not analysis.par_public and analysis.to_json(public_only=True)["par"] is None


def test_the_card_left_face_up_in_the_pack_counts_as_seen_tute_for_three() -> None:
    state = tt.new_game("tute", players=3).new_hand(seed=1)
    _rules_play(state)
    assert state.observation(None)["previous_hand"].get("tute") is None  # played to its last card
    analysis = analyse_hand(state.to_json(), 0, time_limit=0.2, only_public=True, par=False)
    assert analysis.decisions and all(d.public for d in analysis.decisions)


def test_a_hand_redealt_has_no_plays_no_contract_and_no_par_huutopussi() -> None:
    """Seed 7 deals South three sixes: the hand is redealt before any card is played."""
    state = tt.new_game("huutopussi").new_match(seed=7)
    assert "redeal" in {a.text for a in state.legal_actions()}
    state.apply("redeal")
    assert state.hand_number == 1
    analysis = analyse_hand(state.to_json(), 0, time_limit=1.0)
    assert analysis.finished and analysis.decisions == ()
    assert analysis.actual is None and analysis.par is None


def test_replay_analyse_tells_a_point_games_costs_in_points(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tt.new_game("tute").new_hand(seed=2)
    _first_legal_play(state)
    path = tmp_path / "tute.json"
    path.write_text(state.to_json(), encoding="utf-8")
    assert main(["replay", str(path), "--analyse", "--time-limit", "5"]) == 0
    out = capsys.readouterr().out
    analysis = analyse_hand(state.to_json(), 0, time_limit=5, par=False)
    costly = next(d for d in analysis.decisions if d.cost and d.cost > 1)
    assert f"{costly.action.removeprefix('play ')} −{costly.cost} points" in out
    assert re.search(r"in\s+points;\s+0\s+is\s+a\s+best\s+play", out) and "Par:" not in out  # no bidding
