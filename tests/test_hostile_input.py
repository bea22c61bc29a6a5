"""Issue 20: every promise of the State API and the records, kept under hostile input.

One test (or a parametrized family) per broken promise the fuzz campaign found;
each failed before the fix.  The property-based search that keeps finding such
inputs is ``test_fuzz_properties.py``.
"""

from __future__ import annotations

import importlib.util
import io
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rich.console import Console

import tricktaker as tt
from tricktaker import cli
from tricktaker.bots import BotSpecError, make_bot, parse_bot, view_of
from tricktaker.bots.pimc import answered_no, candidates
from tricktaker.tui.session import PlaySession


def record(state: tt.State) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(state.to_json())
    return data


def load_error(data: Any) -> str:
    with pytest.raises(tt.RecordError) as info:
        tt.load(data if isinstance(data, (str, bytes)) else json.dumps(data))
    return str(info.value)


def first_hand_done(game: tt.Game, seed: int = 1) -> tt.State:
    """A match just after its first hand ended (first legal action every time)."""
    state = game.new_match(seed=seed)
    while state.hand_number == 0 and not state.is_over():
        state.apply(state.legal_actions()[0])
    return state


def huutopussi_at_raise() -> tt.State:
    for seed in range(200):
        state = tt.new_game("huutopussi").new_hand(seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            if any(a.kind == "raise" for a in state.legal_actions()):
                return state
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no deal reached the raise")


# -- 1. the action table ---------------------------------------------------------------------------


def test_float_and_bool_action_arguments_are_refused_and_numpy_ints_become_ints() -> None:
    with pytest.raises(tt.IllegalActionError, match="whole numbers, not 7778.0"):
        tt.Action("bid", 7778.0)  # type: ignore[arg-type]
    with pytest.raises(tt.IllegalActionError, match="not True"):
        tt.Action("bid", True)
    action = tt.Action("bid", np.int64(7777))  # type: ignore[arg-type]
    assert action is tt.Action("bid", 7777) and type(action.args[0]) is int and str(action) == "bid 7777"


def test_an_odd_raise_argument_does_not_make_the_legal_raise_unplayable() -> None:
    state = huutopussi_at_raise()
    with pytest.raises(tt.IllegalActionError):
        tt.Action("raise", 55.0)  # type: ignore[arg-type]
    tt.Action("raise", np.int64(60))  # type: ignore[arg-type]
    raises = [a for a in state.legal_actions() if a.kind == "raise"]
    assert all(type(a.args[0]) is int and str(a) == f"raise {a.args[0]}" for a in raises)
    text = str(raises[0])
    state.clone().apply(text)
    state.apply(raises[0])


# -- 2. observations are values ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tuppi", "tute", "marjapussi", "huutopussi"])
def test_editing_an_observation_does_not_change_the_game(name: str) -> None:
    state = first_hand_done(tt.new_game(name))
    text = state.to_json()
    obs = state.observation(0)
    obs["previous_hand"]["scores"][0] = 999
    obs["previous_hand"]["points"].append(5)
    view = view_of(state, state.current_player)  # type: ignore[arg-type]
    view.observation["previous_hand"]["scores"][1] = 999
    assert state.to_json() == text
    assert tt.load(text).to_json() == text


def _scribble(value: Any) -> None:
    """Change every list and dict inside ``value``, however deep."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["scribbled"] = True
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("scribbled")


@pytest.mark.parametrize("name", list(tt.GAMES))
def test_no_part_of_any_observation_is_shared_with_the_state(name: str) -> None:
    state = tt.new_game(name).new_match(seed=6)
    rng = random.Random(6)
    for _ in range(120):
        if state.is_over():
            break
        text = state.to_json()
        fresh = [json.dumps(state.observation(s), sort_keys=True) for s in (None, *range(state.num_players))]
        for seat in (None, *range(state.num_players)):
            _scribble(state.observation(seat))
        assert state.to_json() == text
        assert fresh == [json.dumps(state.observation(s), sort_keys=True)
                         for s in (None, *range(state.num_players))]
        state.apply(rng.choice(state.legal_actions()))


def test_load_keeps_nothing_of_the_callers_dict() -> None:
    state = first_hand_done(tt.new_game("tuppi"))
    data = record(state)
    loaded = tt.load(data)
    text = loaded.to_json()
    data["start"]["dealer"] = 3
    data["hands"][0]["deal"][0] = "junk"
    data["hands"][1]["actions"].append("junk")
    assert loaded.to_json() == text


# -- 3. the start block -----------------------------------------------------------------------------


def _start_change(game: tt.Game, **start: Any) -> dict[str, Any]:
    data = record(game.new_match(seed=3))
    data["start"].update(start)
    data["result"] = None
    return data


@pytest.mark.parametrize(("name", "options", "start", "fragment"), [
    ("huutopussi", {"players": 3}, {"dealer": 3}, "start dealer must be a seat 0..2, not 3"),
    ("tuppi", {}, {"dealer": 1000}, "start dealer must be a seat 0..3, not 1000"),
    ("tuppi", {}, {"dealer": -1}, "start dealer must be a seat 0..3, not -1"),
    ("tuppi", {}, {"dealer": True}, "start dealer must be a seat 0..3, not True"),
    ("marjapussi", {}, {"carry": "x"}, "start carry must be a whole number, not 'x'"),
    ("marjapussi", {}, {"carry": None}, "start carry must be a whole number, not None"),
    ("marjapussi", {}, {"carry": 1.5}, "start carry must be a whole number, not 1.5"),
    ("marjapussi", {}, {"carry": 3}, "start carry must be a whole number 0..0, not 3"),
    ("tuppi", {}, {"scores": [30, 20]}, "only one side holds points"),
    ("tuppi", {}, {"scores": [500, 0]}, "below the target 52"),
    ("tuppi", {}, {"scores": ["3", 0]}, "a score must be a whole number, not '3'"),
    ("tuppi", {}, {"scores": [1]}, "scores are 2 whole numbers"),
    ("tuppi", {}, {"hand_number": -1}, "start hand_number must be a whole number 0.."),
    ("tuppi", {}, {"totals": [0]}, "start totals are 2 whole numbers"),
    ("tuppi", {}, {"previous": {"points": [1, 0]}}, "previous must be null at hand 0"),
    ("tute", {}, {"scores": [0, 3]}, "rounds won, 0..2"),
    ("tuppi", {}, {"hand_number": 1, "previous": {"points": [0, 0], "scores": [5, 0], "final_trick": None}},
     "previous scores must be the start scores [0, 0]"),
    ("marjapussi", {}, {"hand_number": 1, "previous": {"points": [0, 0], "scores": [0, 0],
                                                       "final_trick": []}}, "final_trick must be null"),
    ("tuppi", {}, {"extra": 1}, "unknown 'extra'"),
])
def test_a_bad_start_block_is_refused_by_name(name: str, options: dict[str, Any], start: dict[str, Any],
                                              fragment: str) -> None:
    msg = load_error(_start_change(tt.new_game(name, **options), **start))
    assert msg.startswith("record: start: ") and fragment in msg


def test_a_missing_start_field_is_named() -> None:
    data = record(tt.new_game("tuppi").new_match(seed=1))
    del data["start"]["hand_number"]
    assert "missing 'hand_number'" in load_error(data)


def test_nan_scores_deep_nesting_and_bad_bytes_are_record_errors() -> None:
    text = tt.new_game("tuppi").new_match(seed=1).to_json()
    text = text.replace('"scores": [\n   0,', '"scores": [NaN,', 1)
    assert "NaN" in text and "NaN is not a JSON number" in load_error(text)
    assert "nested too deeply" in load_error("[" * 100_000 + "]" * 100_000)
    assert "not UTF-8" in load_error(b'{"format": "\xff"}')
    assert "not a JSON record" in load_error(b"")


# -- 4. an unseeded match plays on ------------------------------------------------------------------


def test_a_match_record_without_a_seed_plays_past_its_last_deal() -> None:
    data = record(tt.new_game("tuppi").new_match(seed=5))
    data.update(seed=None, seeded=False, result=None)
    state = tt.load(data)
    while state.hand_number == 0:
        state.apply(state.legal_actions()[0])
    assert state.legal_actions() and isinstance(state.seed, int)
    assert tt.load(state.to_json()).to_json() == state.to_json()
    state.undo()
    assert state.legal_actions()


# -- 5. new_game / new_match arguments --------------------------------------------------------------


@pytest.mark.parametrize("seed", ["7", 1.5, True, -1, 2**64, [1]])
def test_new_match_refuses_a_seed_that_is_not_a_whole_number_in_range(seed: Any) -> None:
    with pytest.raises(tt.OptionError, match="seed must be a whole number"):
        tt.new_game("tuppi").new_match(seed=seed)


def test_a_numpy_seed_and_dealer_are_kept_as_ints_and_the_record_loads() -> None:
    state = tt.new_game("tuppi").new_match(seed=np.int64(3), dealer=np.int64(1))  # type: ignore[arg-type]
    assert type(state.seed) is int and state.dealer == 1  # type: ignore[attr-defined]
    assert tt.load(state.to_json()).to_json() == state.to_json()


@pytest.mark.parametrize("dealer", [True, 4, -1, "0", 0.0])
def test_new_match_and_new_hand_refuse_a_dealer_that_is_not_a_seat(dealer: Any) -> None:
    game = tt.new_game("tuppi")
    with pytest.raises(tt.OptionError, match="dealer must be a seat 0..3"):
        game.new_match(seed=1, dealer=dealer)
    with pytest.raises(tt.OptionError, match="dealer must be a seat 0..3"):
        game.new_hand(seed=1, dealer=dealer)


# -- 6. seats ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 4, "0", 1.0, True])
def test_observation_hand_and_sample_world_refuse_a_seat_that_is_not_one(seat: Any) -> None:
    state = tt.new_game("tuppi").new_match(seed=1)
    for call in (state.observation, state.hand, lambda s: state.sample_world(s, random.Random(1))):
        with pytest.raises(tt.SeatError, match="seat must be a seat 0..3"):
            call(seat)


def test_sample_world_refuses_an_rng_that_is_not_a_random() -> None:
    state = tt.new_game("tuppi").new_match(seed=1)
    with pytest.raises(tt.SeatError, match="random.Random, not int"):
        state.sample_world(0, 1)  # type: ignore[arg-type]


# -- 7. apply -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tuppi", "tute", "marjapussi", "huutopussi", "bondtolva"])
@pytest.mark.parametrize("bad", [["play AS"], {"play": "AS"}, b"play AS", 5, None])
def test_apply_refuses_a_value_that_is_not_an_action_and_changes_nothing(name: str, bad: Any) -> None:
    state = tt.new_game(name).new_match(seed=2)
    while state.phase != "play":  # type: ignore[attr-defined]
        state.apply(state.legal_actions()[0])
    text = state.to_json()
    with pytest.raises(tt.IllegalActionError, match="an action must be an Action or its text"):
        state.apply(bad)
    assert state.to_json() == text


def test_bondtolva_refuses_a_seven_of_the_36_card_deck_by_name() -> None:
    state = tt.new_game("bondtolva").new_match(seed=1)
    seven = tt.Action("play", tt.PIQUET_36.card("7S"))
    with pytest.raises(tt.IllegalActionError, match="7S is not a card of the anglo-24 deck"):
        state.apply(seven)


@pytest.mark.parametrize("text", ["bid ٣", "bid Tſ", "play Aſ"])
def test_action_text_outside_ascii_is_refused_not_read_as_look_alikes(text: str) -> None:
    state = tt.new_game("tuppi").new_match(seed=1)
    before = state.to_json()
    with pytest.raises(tt.IllegalActionError, match="outside ASCII"):
        state.apply(text)
    assert state.to_json() == before


def test_a_five_thousand_digit_number_gets_the_games_message() -> None:
    state = tt.new_game("huutopussi").new_match(seed=1)
    with pytest.raises(tt.IllegalActionError, match="too long a number"):
        state.apply("bid " + "9" * 5000)


# -- 8. environments ------------------------------------------------------------------------------------


def test_an_illegal_pettingzoo_step_right_after_a_hand_keeps_the_rewards() -> None:
    pytest.importorskip("pettingzoo")
    from tricktaker.envs.pettingzoo import env

    e = env("tuppi", episode="match", reward="hand")
    e.reset(seed=3)
    while not any(e.rewards.values()):
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(np.flatnonzero(mask)[0]))
    rewards = dict(e.rewards)
    with pytest.raises(tt.IllegalActionError):
        e.step(-1)
    assert e.rewards == rewards


@pytest.mark.parametrize("action", [57.7, "69", True])
def test_pettingzoo_step_refuses_what_is_not_an_index(action: Any) -> None:
    pytest.importorskip("pettingzoo")
    from tricktaker.envs.pettingzoo import env

    e = env("tuppi")
    e.reset(seed=1)
    with pytest.raises(tt.IllegalActionError, match="an action index is a whole number"):
        e.step(action)


def test_openspiel_chance_nodes_refuse_a_card_out_of_range_or_dealt_twice() -> None:
    pytest.importorskip("pyspiel")
    from tricktaker.envs import openspiel as tos

    state = tos.load("tuppi").new_initial_state()
    for outcome in (52, 10**6):  # -1 is OpenSpiel's own kInvalidAction, refused before us
        with pytest.raises(tt.IllegalActionError, match="not a card index 0..51"):
            state.apply_action(outcome)
    state.apply_action(3)
    with pytest.raises(tt.IllegalActionError, match="already dealt"):
        state.apply_action(3)
    assert str(state) == "dealing: " + tos.load("tuppi").spec.cards[3].text


def test_envs_doc_gives_the_default_reward_the_environment_uses() -> None:
    pytest.importorskip("pettingzoo")
    from tricktaker.envs.pettingzoo import env

    assert env("tuppi", episode="match").reward_mode == "match"
    doc = (Path(__file__).parent.parent / "docs" / "envs.md").read_text()
    assert "by default the same as `episode`" in doc


# -- 9. the loader is strict ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def match_data() -> dict[str, Any]:
    return record(first_hand_done(tt.new_game("tuppi"), seed=4))


def _changed(data: dict[str, Any], change: Any) -> dict[str, Any]:
    copy = json.loads(json.dumps(data))
    change(copy)
    return copy


@pytest.mark.parametrize(("change", "fragment"), [
    (lambda r: r["options"].pop("target"), "options lacks target"),
    (lambda r: r.update(version=1.0), "unsupported record version 1.0"),
    (lambda r: r.update(version=True), "unsupported record version True"),
    (lambda r: r["result"].update(over=0), "the recorded result"),
    (lambda r: r["result"].update(scores=[float(s) for s in r["result"]["scores"]]), "the recorded result"),
    (lambda r: r.pop("result"), "missing field 'result'"),
    (lambda r: r["hands"][0].update(hand_number=7), "the record says hand_number 7"),
    (lambda r: r["hands"][1].pop("hand_number"), "missing field 'hand_number'"),
    (lambda r: r["hands"][0]["result"].update(kept=1), "hand 1: the recorded result"),
    (lambda r: r.update(comment="hi"), "unknown field 'comment'"),
    (lambda r: r["hands"].pop(), "the replay reaches hand 2, but the record lists 1"),
])
def test_the_loader_is_strict_about_what_a_record_says(match_data: dict[str, Any], change: Any,
                                                       fragment: str) -> None:
    assert fragment in load_error(_changed(match_data, change))


# -- 10. bot specs ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "fragment"), [
    ("pimc:worlds=0", "pimc option worlds must be a whole number 1..100000, not 0"),
    ("pimc:time=abc", "pimc option time must be a number above 0"),
    ("pimc:max_candidates=0", "pimc option max_candidates must be a whole number 1..1000, not 0"),
    ("pimc:worlds=2.5", "pimc option worlds must be a whole number 1..100000, not 2.5"),
    ("ismcts:exploration=-1", "ismcts option exploration must be a number 0..100, not -1"),
    ("pimc:confidence=inf", "pimc option confidence must be a number 0..100, not inf"),
])
def test_a_bad_bot_spec_is_refused_when_parsed(spec: str, fragment: str) -> None:
    with pytest.raises(BotSpecError, match=fragment):
        parse_bot(spec)
    with pytest.raises(BotSpecError, match=fragment):
        make_bot(spec)


def test_make_bot_checks_keyword_options_like_spec_options() -> None:
    with pytest.raises(BotSpecError, match="pimc option worlds must be a whole number"):
        make_bot("pimc", worlds=2.5)
    assert parse_bot("pimc:worlds=3:time=none") == ("pimc", {"worlds": 3, "time": None})


@pytest.mark.parametrize("command", [
    ["play", "tuppi", "--bots", "pimc:max_candidates=0"],
    ["simulate", "tuppi", "--bots", "pimc:worlds=2.5", "--hands", "1"],
    ["arena", "tuppi", "--bots", "pimc:time=abc,rules", "--deals", "1"],
])
def test_every_command_refuses_a_bad_bot_spec_without_a_traceback(
        command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(command) != 0
    err = capsys.readouterr().err
    assert "pimc option" in err and "Traceback" not in err


# -- 11. arena --plot -------------------------------------------------------------------------------


def test_arena_plot_without_matplotlib_fails_before_the_run(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    import tricktaker.arena as arena

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))

    def no_run(*args: Any) -> None:
        raise AssertionError("the deals were played before the plot was checked")

    monkeypatch.setattr(arena, "run_deals", no_run)
    code = cli.main(["arena", "tuppi", "--bots", "random,rules", "--deals", "1",
                     "--plot", str(tmp_path / "p.png")])
    assert code != 0 and "--plot needs matplotlib" in capsys.readouterr().err


# -- 12, 13, 15. the terminal -------------------------------------------------------------------------


def _session(state: tt.State, human: int, answers: list[str] | None = None,
             **extra: Any) -> tuple[PlaySession, io.StringIO]:
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None)
    bots = {s: make_bot("random", seed=s) for s in range(state.num_players) if s != human}
    queue = list(answers or [])
    asked = [0]

    def ask(prompt: str) -> str:
        asked[0] += 1
        if asked[0] > 2000:
            raise EOFError  # the first choice is refused over and over: leave, do not hang
        return queue.pop(0) if queue else "1"

    session = PlaySession(state, human, bots, console, console, None, ask=ask, **extra)
    return session, buffer


@pytest.mark.parametrize(("name", "options"), [
    ("tute", {"players": 2}), ("tute", {}), ("bondtolva", {"players": 2}), ("avomarjapussi", {}),
    ("bondtolva", {}), ("marjapussi", {}), ("tuppi", {}), ("huutopussi", {"players": 4}),
])
def test_a_single_hand_in_the_terminal_ends_with_the_hand_not_a_nameless_winner(
        name: str, options: dict[str, Any]) -> None:
    state = tt.new_game(name, **options).new_hand(seed=2)
    session, buffer = _session(state, 0)
    assert session.run() == 0
    out = buffer.getvalue()
    assert state.is_over() and state.winner is None  # type: ignore[attr-defined]
    assert "over" in out and " win the match" not in out and "wins the match" not in out


def test_match_over_counts_one_hand_in_the_singular() -> None:
    from tricktaker.tui.registry import screen_class

    game = tt.new_game("tuppi")
    screen = screen_class("tuppi").for_player(Console(file=io.StringIO()), game, 0)
    assert screen.match_over_title({"hand_number": 0}) == "Match over after 1 hand"
    assert screen.match_over_title({"hand_number": 4}) == "Match over after 5 hands"


def test_a_refused_move_is_said_to_the_person_as_you() -> None:
    state = tt.new_game("tuppi").new_match(seed=1)
    human = state.current_player
    assert human is not None
    mine = {c.text for c in state.hand(human)}
    other = next(c.text for c in tt.ANGLO_52.cards if c.text not in mine)
    session, buffer = _session(state, human, [f"bid {other}", "quit"])
    session.run()
    out = buffer.getvalue()
    assert f"you cannot bid {other}" in out and f"seat {human} cannot" not in out


def test_addressed_to_puts_only_that_seat_in_the_second_person() -> None:
    error = tt.IllegalActionError("must follow suit: seat 2 holds spades and cannot play 9H; seat 21 too")
    assert error.addressed_to(2) == "must follow suit: you hold spades and cannot play 9H; seat 21 too"
    assert error.addressed_to(1) == str(error)


@pytest.mark.parametrize("name", list(tt.GAMES))
def test_rules_at_80_columns_cut_no_word(name: str, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert cli.main(["rules", name]) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    for option in tt.GAMES[name].OPTIONS:
        assert option.doc.split()[-1] in out


def test_play_help_lists_the_table_sizes_of_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for fragment in ("tute: 2, 3, 4, 5 or 6", "bondtolva: 2 or 4", "huutopussi: 2, 3 or 4"):
        assert fragment in out


def test_solve_with_no_play_left_suggests_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tt.new_game("tuppi").new_hand(seed=1)
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    path = tmp_path / "done.json"
    path.write_text(state.to_json())
    assert cli.main(["solve", str(path)]) != 0
    assert "--moves" in capsys.readouterr().err


def test_an_action_made_from_its_whole_text_applies_like_the_text() -> None:
    state = tt.new_game("tuppi").new_match(seed=1)
    seat = state.current_player
    assert seat is not None
    card = next(a for a in state.legal_actions() if a.kind == "bid" and a.card is not None).card
    other = state.clone()
    state.apply(tt.Action(f"bid {card}"))
    other.apply(f"bid {card}")
    assert state.to_json() == other.to_json()


def test_play_pauses_after_each_bot_move_and_not_after_the_persons() -> None:
    state = tt.new_game("tuppi").new_hand(seed=3)
    pauses: list[float] = []
    session, _ = _session(state, 0, bot_delay=0.25, sleep=pauses.append)
    session.run()
    actions = len(state.history)
    assert pauses and set(pauses) == {0.25}
    assert len(pauses) < actions  # none after the person's own moves (nor after the last)


def test_play_bot_delay_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "tuppi", "--bot-delay", "-1"]) != 0
    assert "--bot-delay must be 0..10 seconds" in capsys.readouterr().err


# -- 14. pimc -----------------------------------------------------------------------------------------


def test_pimc_never_repeats_an_ask_its_partner_answered_no() -> None:
    state = tt.new_game("marjapussi").new_hand(seed=0)
    rng = random.Random(0)
    while True:
        seat = state.current_player
        assert seat is not None, "no repeated ask reachable on this deal"
        view = view_of(state, seat)
        repeat = [a for a in state.legal_actions() if a.text in answered_no(view)]
        if repeat:
            break
        state.apply(rng.choice(state.legal_actions()))
    for seed in range(20):
        assert not set(repeat) & set(candidates(view, random.Random(seed), 12))
    bot = make_bot("pimc:worlds=4", seed=1)
    assert bot.act(view) not in repeat
