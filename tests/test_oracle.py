"""The oracle (a bot that sees every card) and the arena's double-dummy loss per card play.

The oracle is the ceiling the other bots are read against, so it must be
exact where it claims to be (no double-dummy loss in card play), and the arena
must hand the true state to it alone: every other bot still sees only its seat.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import tricktaker as tt
from tricktaker import bots as bots_module
from tricktaker.arena import ArenaConfig, play_deal, summarise
from tricktaker.bots import BOTS, Bot, OracleBot, View, make_bot, view_of
from tricktaker.bots.oracle import dd_playout
from tricktaker.engine import Action, State


def test_the_oracle_loses_nothing_double_dummy_and_rules_does() -> None:
    """Every measured card play of the oracle has DD loss 0; the rules bot's do not all."""
    config = ArenaConfig("tuppi", ("oracle:max_candidates=2", "rules"), deals=2, dd_loss=True, dd_time=5.0)
    results = [play_deal(config, deal) for deal in range(2)]
    summary = summarise(config.bots, results, matches=False)
    oracle, rules = summary.dd_loss
    assert oracle is not None and rules is not None
    assert oracle.measured > 20 and oracle.mean.value == 0 and oracle.zero_share == 1.0
    assert all(x == 0 for r in results for x in r.dd_losses[0])
    assert rules.measured > 20 and all(x >= 0 for r in results for x in r.dd_losses[1])


def test_without_dd_loss_nothing_is_measured() -> None:
    config = ArenaConfig("tuppi", ("rules", "random"), deals=1)
    result = play_deal(config, 0)
    assert result.dd_losses == () and summarise(config.bots, [result], matches=False).dd_loss == ()


class _Spy(Bot):
    """Records everything the arena hands it, and plays the first legal action."""

    name = "spy"
    seen: list[Any] = []

    def act(self, view: View) -> Action:
        _Spy.seen.append(view)
        return view.legal_actions[0]

    def decide(self, view: View) -> Action:  # pragma: no cover - act does it all
        return view.legal_actions[0]


def test_a_normal_bot_gets_its_seats_view_never_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seated against the oracle, a normal bot still receives only Views holding its own cards."""
    import tricktaker.arena.deals as deals

    monkeypatch.setitem(BOTS, "spy", _Spy)
    monkeypatch.setattr(_Spy, "seen", [])
    truth: dict[int, dict[str, Any]] = {}  # id(view) -> the seat's own observation of the real state
    real_view_of = deals.view_of

    def recording_view_of(state: State, seat: int) -> View:
        view = real_view_of(state, seat)
        truth[id(view)] = state.observation(seat)
        return view

    monkeypatch.setattr(deals, "view_of", recording_view_of)
    config = ArenaConfig("tute", ("spy", "oracle:max_candidates=2"), deals=1)
    play_deal(config, 0)
    assert _Spy.seen
    for view in _Spy.seen:
        assert type(view) is View and not isinstance(view, State)
        # exactly its seat's observation (which the no-leak tests hold to the seat's knowledge)
        assert view.observation == truth[id(view)]
        assert view.observation["seat"] == view.seat


def test_the_oracle_refuses_to_play_from_a_view() -> None:
    state = tt.new_game("tuppi").new_hand(seed=3)
    with pytest.raises(TypeError, match="sees every card"):
        make_bot("oracle").act(view_of(state, state.current_player))


def test_the_oracle_plays_a_solvers_best_card_on_the_true_deal() -> None:
    """In card play the oracle's action is among the solver's best for the true state."""
    game = tt.new_game("tute")
    state = game.new_hand(seed=5)
    rng = random.Random(0)
    oracle = OracleBot(seed=1)
    checked = 0
    while not state.is_over() and checked < 6:
        legal = state.legal_actions()
        if state.observation(state.current_player)["phase"] == "play" and len(legal) > 1:
            action = oracle.act_on_truth(state.clone())
            assert action in tt.solve(state).best()
            checked += 1
            state.apply(action)
        else:
            state.apply(rng.choice(legal))
    assert checked == 6


def test_a_double_dummy_playout_scores_the_hand() -> None:
    state = tt.new_game("tuppi").new_hand(seed=2)
    rewards = dd_playout(state.clone(), random.Random(1), solve_time=2.0)
    assert len(rewards) == 2 and rewards[0] == -rewards[1]


def test_oracle_options_are_checked() -> None:
    with pytest.raises(bots_module.BotSpecError, match="oracle option time"):
        bots_module.parse_bot("oracle:time=0")
    assert isinstance(make_bot("oracle:playout_time=0.1", seed=1), OracleBot)


def test_the_arena_command_reports_dd_loss_in_the_table_and_the_json(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from tricktaker import cli

    path = tmp_path / "run.json"
    assert cli.main(["arena", "tuppi", "--bots", "rules,random", "--deals", "1", "--dd-loss",
                     "--json", str(path)]) == 0
    out = capsys.readouterr().out
    assert "DD loss per card" in out and "skipped" in out
    data = json.loads(path.read_text())
    rules, random_bot = data["summary"]["dd_loss"]
    assert rules["measured"] > 0 and random_bot["measured"] > 0
    assert random_bot["mean"]["value"] > rules["mean"]["value"]  # random throws tricks away
    assert len(data["deals"][0]["dd_losses"]) == 2
    assert cli.main(["arena", "tuppi", "--bots", "rules,random", "--dd-time", "0"]) == 2


def test_the_oracles_candidates_played_out_in_threads_choose_as_one_thread_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``threads`` plays a bid's candidates out at once, each in a set of tables of its own: with
    time enough for every solve, the same playouts and so the same choices."""
    import tricktaker.solver as solver

    used: set[int] = set()
    real = solver.solve

    def spying_solve(state: State, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("tables") is not None:  # (not the first try, which finds no card play to solve)
            used.add(id(kwargs["tables"]))
        return real(state, *args, **kwargs)

    monkeypatch.setattr(solver, "solve", spying_solve)
    for seed in (3, 4):
        state = tt.new_game("huutopussi").new_hand(seed=seed)
        assert state.phase == "bid"
        choices = []
        for threads in (1, 2):
            used.clear()
            oracle = OracleBot(seed=seed, playout_time=30.0, max_candidates=3, threads=threads)
            choices.append(oracle.act_on_truth(state.clone()))
            assert len(used) == threads  # each candidate's playout solved in its lane's set
        assert choices[0] == choices[1]
    with pytest.raises(ValueError, match="threads must be 1 to 64"):
        OracleBot(threads=0)
    with pytest.raises(bots_module.BotSpecError, match="oracle option threads"):
        bots_module.parse_bot("oracle:threads=65")


def test_the_oracles_card_play_and_playouts_share_its_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card-play decision and each card of a double-dummy playout are solved in the oracle's
    ``threads`` (``solve(threads=...)``): the same values, so the same cards and rewards."""
    import tricktaker.solver as solver

    asked: list[int] = []
    real = solver.solve

    def spying_solve(state: State, *args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs.get("threads", 1))
        return real(state, *args, **kwargs)

    monkeypatch.setattr(solver, "solve", spying_solve)
    state = tt.new_game("tute").new_hand(seed=2)
    rng = random.Random(2)
    while state.phase != "play":
        state.apply(state.legal_actions()[-1])
    for _ in range(6):
        state.apply(rng.choice(state.legal_actions()))
    rewards, cards = [], []
    for threads in (1, 2):
        asked.clear()
        cards.append(OracleBot(seed=1, threads=threads).act_on_truth(state.clone()))
        rewards.append(dd_playout(state.clone(), random.Random(5), 30.0, threads=threads))
        assert asked and set(asked) == {threads}
    assert cards[0] == cards[1] and rewards[0] == rewards[1]


def test_a_stopped_solve_still_plays_what_it_proved_better_than_the_rules_choice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Out of time, the oracle falls back to the ``rules`` choice, unless the stopped solve had
    found that choice's exact value and a better one (``better_known``), in its card play and in
    each card of a double-dummy playout."""
    import tricktaker.bots.oracle as oracle_module
    import tricktaker.solver as solver
    from tricktaker.bots.oracle import better_known, solved_best

    state = tt.new_game("tute").new_hand(seed=2)
    while state.phase != "play":
        state.apply(state.legal_actions()[-1])
    legal = state.legal_actions()
    rules, other, third = legal[0], legal[1], legal[2]
    assert better_known(rules, {rules: 3, other: 5, third: 5}) == other
    assert better_known(rules, {rules: 5, other: 5}) == rules
    assert better_known(rules, {other: 9}) == rules  # its own value unknown: nothing proved
    assert better_known(rules, {}) == rules

    def stopped(found: dict[Action, int]) -> Any:
        def solve(*args: Any, **kwargs: Any) -> Any:
            raise solver.SolveTimeout("the solve did not finish within its time limit of 1 s", found)
        return solve

    monkeypatch.setattr(oracle_module, "_rules_choice", lambda state, rng: rules)
    for found, expected in (({rules: 40, other: 52}, other), ({other: 52}, rules), ({}, rules)):
        monkeypatch.setattr(solver, "solve", stopped(found))
        oracle = OracleBot(seed=1, time=1.0)
        assert oracle.act_on_truth(state.clone()) == expected
        assert oracle.fallbacks == 1
        assert solved_best(state, 1.0, rules) == (expected, False)
