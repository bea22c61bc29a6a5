"""``tricktaker`` with Tute: play (pairs and habanero, scripted input), cantes, replay, simulate, rules."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from test_cli import Person, first_choice, script

import tricktaker as tt
from tricktaker import cli
from tricktaker.bots import make_bot

CARD = re.compile(r"\b(?:1[0-2]|[1-7])[OCEB]\b")
SING_CHOICE = re.compile(r"(\d+) (sing (?:40|20 [OCEB]))")
VARIANTS = [pytest.param([], id="pairs"), pytest.param(["--players", "2"], id="habanero")]


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         answer: Callable[[Person], str], *args: str) -> tuple[int, Person]:
    person = Person(monkeypatch, capsys, answer)
    code = cli.main(["play", "tute", *args])
    person.collect()
    return code, person


def prompted_decisions(record: dict[str, Any], seat: int) -> tuple[int, int]:
    """Replay a record: (decisions the person had to make, lone passes made for them)."""
    state = tt.new_game("tute", **record["options"]).new_match(seed=record["seed"])
    asked = passes = 0
    for hand in record["hands"]:
        for text in hand["actions"]:
            if state.current_player == seat:
                legal = state.legal_actions()
                obs = state.observation(seat)
                if len(legal) == 1 and legal[0].kind == "pass":
                    passes += 1
                elif not (len(legal) == 1 and len(obs["hand"]) == 1):
                    asked += 1
            state.apply(text)
    return asked, passes


@pytest.fixture(scope="module", params=[[], ["--players", "2"]], ids=["pairs", "habanero"])
def finished_record(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole Tute match played through the CLI (first choice every time), saved."""
    path = tmp_path_factory.mktemp("records") / "tute.json"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cli, "read_line", lambda prompt: "1")
        assert cli.main(["play", "tute", "--seed", "3", "--save", str(path), *request.param]) == 0
    return path


# -- play ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_play_a_whole_match(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                            tmp_path: Path, variant: list[str]) -> None:
    path = tmp_path / "m.json"
    code, person = play(monkeypatch, capsys, first_choice, "--seed", "3", "--save", str(path), *variant)
    assert code == 0
    state = tt.load(path.read_text())
    assert state.is_over() and state.winner is not None  # type: ignore[attr-defined]
    assert state.game.num_players == (2 if variant else 4)
    out = person.output
    rounds = state.hand_number + 1
    for number in range(1, rounds + 1):
        assert f"Round {number} result" in out
    assert f"Match over after {rounds} round" in out
    assert re.search(r"wins? the match", out)
    assert "Trumps" in out and "Points" in out and "Rounds" in out
    if variant:
        assert "You (0) → Opponent (1)" in out and "stock" in out and "upcard" in out
    else:
        assert "Counter-clockwise, seats: You (0) → Right (3) → Partner (2) → Left (1)" in out


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_lone_pass_is_not_asked(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                  tmp_path: Path, variant: list[str]) -> None:
    """The person is prompted exactly for real choices: a lone pass (and the last card) go by themselves."""
    path = tmp_path / "m.json"
    code, person = play(monkeypatch, capsys, first_choice, "--seed", "7", "--save", str(path), *variant)
    assert code == 0
    asked, passes = prompted_decisions(json.loads(path.read_text()), 0)
    assert len(person.prompts) == asked
    if not variant:
        assert passes > 0  # pairs: after tricks someone might still sing, and the person had nothing
    assert not re.search(r"now\s+1 pass\s*$", person.output, re.MULTILINE)


def test_play_order_is_counter_clockwise(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, person = play(monkeypatch, capsys, script(["quit"]), "--seed", "3")
    assert code == 0
    out = person.output
    assert "You deal" in out and "Right (seat 3) leads." in out
    plays = re.findall(r"^  (\w+) \(seat (\d)\) plays", out, re.MULTILINE)
    assert plays[:3] == [("Right", "3"), ("Partner", "2"), ("Left", "1")]


def test_preset_habanero_is_two_players(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    path = tmp_path / "h.json"
    code, person = play(monkeypatch, capsys, script(["quit"]), "--seed", "2", "--preset", "habanero",
                        "--save", str(path))
    assert code == 0
    record = json.loads(path.read_text())
    assert record["preset"] == "habanero" and record["options"]["players"] == 2
    assert "habanero, two players" in person.output


def singer(by: str) -> tuple[Callable[[Person], str], list[str]]:
    """Answer 1, except when a cante is offered: then sing it, by its number or by its words."""
    sung: list[str] = []
    seen = [0]

    def answer(person: Person) -> str:
        fresh = person.output[seen[0]:]
        seen[0] = len(person.output)
        offers = SING_CHOICE.findall(fresh)
        if not offers:
            return "1"
        number, text = offers[0]
        sung.append(text)
        if by == "number":
            return number
        words = text.split()
        if words[1] == "40":
            return "40"
        suit = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}[words[2]]
        return f"20 {suit}" if len(sung) % 2 else f"20{words[2].lower()}"

    return answer, sung


@pytest.mark.parametrize("by", ["number", "text"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_cantes_are_offered_and_sung(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path, variant: list[str], by: str) -> None:
    for seed in range(12):
        path = tmp_path / f"s{seed}.json"
        answer, sung = singer(by)
        code, person = play(monkeypatch, capsys, answer, "--seed", str(seed), "--save", str(path), *variant)
        assert code == 0
        if sung:
            break
    else:
        pytest.fail("no cante was offered to the person in 12 matches")
    out = person.output
    assert not any(line.startswith("✗") for line in out.splitlines())
    assert re.search(r"You sing (las cuarenta|veinte) in", out)
    record = json.loads(path.read_text())
    actions = [a for hand in record["hands"] for a in hand["actions"]]
    assert sung[0] in actions
    assert "Sung" in out and "Cantes" in out


def test_bad_entries_get_a_reason_and_a_new_prompt(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, person = play(monkeypatch, capsys,
                        script(["zz", "99", "sing 40", "20", "tute", "9x", "1", "quit"]), "--seed", "3")
    assert code == 0
    errors = [line for line in person.output.splitlines() if line.startswith("✗")]
    assert len(errors) == 6
    assert "'zz' is not a card" in errors[0]
    assert "there is no choice 99" in errors[1]
    assert "sing 40 is not possible now" in errors[2]
    assert "no veinte to sing now" in errors[3]
    assert "tute is not possible now" in errors[4]
    assert "9x" in errors[5].lower()
    assert person.prompts[:7] == ["play › "] * 7  # the same question again after each error
    assert "You play" in person.output


def test_help_score_last_show(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, person = play(monkeypatch, capsys, script(["help", "score", "last", "show", "quit"]), "--seed", "3")
    assert code == 0
    out = person.output
    assert "Enter your move as" in out and "a cante" in out and "previous round" in out
    assert "This round" in out
    assert "No trick has been played yet." in out
    assert out.count("Your hand") == 2


def test_last_shows_the_previous_rounds_last_trick(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    asked: list[str] = []

    def answer(person: Person) -> str:
        if "Round 2 ·" in person.output and not asked:
            asked.append(person.output)
            return "last"
        return "quit" if asked else "1"

    code, person = play(monkeypatch, capsys, answer, "--seed", "6")
    assert code == 0
    tail = person.output[len(asked[0]):]
    assert "Last trick of the previous round" in tail or "Trick 1:" in tail
    assert "won by" in tail


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_person_sees_only_what_the_seat_may_know(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     variant: list[str]) -> None:
    """Before the first prompt: the own hand, the trump card and the cards played, nothing else."""
    path = tmp_path / "q.json"
    code, person = play(monkeypatch, capsys, script(["quit"]), "--seed", "5", "--seat", "1",
                        "--save", str(path), *variant)
    assert code == 0
    state = tt.load(path.read_text())
    obs = state.observation(1)
    allowed = set(obs["hand"]) | {obs["trump_card"]} | {c for _, c in obs["trick"]}
    allowed |= {c for trick in obs["tricks"] for _, c in trick["cards"]}
    table = person.output.split("Round 1 ·", 1)[1]
    shown = set(CARD.findall(table))
    assert shown and shown <= allowed


def test_interpret_reads_cantes_and_cards() -> None:
    state = tt.new_game("tute").new_match(seed=1)
    console = Console(file=io.StringIO())
    seat = state.current_player
    assert seat is not None
    session = cli.PlaySession(state, seat, {s: make_bot("random", seed=s) for s in range(4)},
                              console, console, None)
    deck = tt.SPANISH_40
    copas, bastos = deck.suit("C"), deck.suit("B")
    veinte_c, veinte_b = tt.Action("sing", 20, copas), tt.Action("sing", 20, bastos)
    play_1o = tt.Action("play", deck.card("1O"))
    assert session.interpret("40", [play_1o]) == "sing 40"
    assert session.interpret("las cuarenta", [play_1o]) == "sing 40"
    assert session.interpret("20c", [play_1o]) == "sing 20 C"
    assert session.interpret("20 copas", [play_1o]) == "sing 20 C"
    assert session.interpret("sing 20 bastos", [play_1o]) == "sing 20 B"
    assert session.interpret("veinte oros", [play_1o]) == "sing 20 O"
    assert session.interpret("20", [veinte_c, tt.Action("pass")]) is veinte_c
    with pytest.raises(tt.IllegalActionError, match="which veinte"):
        session.interpret("20", [veinte_c, veinte_b])
    assert session.interpret("1o", [play_1o, veinte_c]) == "play 1O"
    assert session.interpret("2", [play_1o, veinte_c]) is veinte_c
    assert session.interpret("exchange", [play_1o]) == "exchange"
    with pytest.raises(tt.IllegalActionError, match="now the choice is"):
        session.interpret("1o", [veinte_c, tt.Action("pass")])


# -- replay ------------------------------------------------------------------------------------------


def test_replay_shows_every_round_trick_by_trick(finished_record: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay", str(finished_record)]) == 0
    out = capsys.readouterr().out
    record = json.loads(finished_record.read_text())
    for number in range(1, len(record["hands"]) + 1):
        assert f"Round {number} result" in out
    assert "won by" in out and "Trumps" in out and "leads." in out
    assert "Match over" in out
    first_plays = [a.split()[1] for a in record["hands"][0]["actions"] if a.startswith("play")]
    assert first_plays and all(card in out for card in first_plays)
    if record["options"]["players"] == 2:
        assert "Stock" in out and "draws:" in out
    else:
        assert "South (seat 0)" in out and "N-S" in out


def test_replay_one_round(finished_record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    last = len(json.loads(finished_record.read_text())["hands"])
    assert cli.main(["replay", str(finished_record), "--hand", str(last)]) == 0
    out = capsys.readouterr().out
    assert f"Round {last} result" in out
    assert f"Round {last - 1} result" not in out


def test_replay_of_an_unfinished_match(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    path = tmp_path / "half.json"
    play(monkeypatch, capsys, script(["1"] * 6 + ["quit"]), "--seed", "5", "--save", str(path),
         "--players", "2")
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Match not finished" in out and "round not finished" in out


# -- simulate ----------------------------------------------------------------------------------------


def _without_timing(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if "rounds/s" not in line)


@pytest.mark.parametrize(("variant", "sides"),
                         [([], ("N-S", "E-W")), (["--players", "2"], ("South", "North")),
                          (["--players", "3"], ("Seat 0", "Seat 1", "Seat 2"))])
def test_simulate_prints_round_statistics(capsys: pytest.CaptureFixture[str], variant: list[str],
                                          sides: tuple[str, ...]) -> None:
    assert cli.main(["simulate", "tute", "--hands", "60", "--seed", "2", *variant]) == 0
    out = capsys.readouterr().out
    assert "60 single rounds" in out and "rounds/s" in out
    for word in ("Round winners", "Round points", "Cantes per round", "las cuarenta", "veinte", "Tute",
                 "Equal points", "Last trick"):
        assert word in out
    names = "|".join([*sides, r"nobody \(equal points\)"])
    rows = re.findall(rf"^\s+({names})\s+(\d+)\s", out, re.MULTILINE)
    assert sum(int(n) for _, n in rows) == 60
    if len(sides) == 3:  # each alone: the turned card's points are out of play
        assert "less the turned card's points" in " ".join(out.split())


def test_simulate_is_deterministic_given_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for _ in range(2):
        assert cli.main(["simulate", "tute", "--hands", "30", "--seed", "7", "--players", "2"]) == 0
        outputs.append(_without_timing(capsys.readouterr().out))
    assert outputs[0] == outputs[1]


def test_simulate_matches(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "tute", "--hands", "40", "--seed", "1", "--matches",
                     "-o", "rounds_to_win=2"]) == 0
    out = capsys.readouterr().out
    assert "40 rounds within matches" in out
    assert "Matches finished" in out


# -- rules, games, usage ------------------------------------------------------------------------------


def test_rules_lists_every_option_and_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", "tute"]) == 0
    out = capsys.readouterr().out
    game = tt.GAMES["tute"]
    for option in game.OPTIONS:
        assert option.name in out
        assert option.describe() in out
    for preset, values in game.PRESETS.items():
        assert preset in out
        for key, value in values.items():
            assert f"{key}={json.dumps(value)}" in out
    assert "cuarenta" in out and "counter-clockwise" in out


def test_games_lists_tute_with_every_table_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["games"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if "tute" in line)
    assert "2, 3, 4" in line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "tuppi", "--players", "2"], "tuppi is always played by 4"),
        (["play", "tute", "--players", "7"], "option players must be one of 2, 3, 4, 5, 6"),
        (["play", "tute", "--players", "5"], "tute for 5 players is tute cabrero only"),
        (["play", "tute", "--players", "2", "--seat", "2"], "--seat must be 0..1"),
        (["play", "tute", "--preset", "solo"], "unknown preset 'solo'"),
        (["play", "tute", "-o", "rounds_to_win=0"], "rounds_to_win must be between 1 and 99"),
        (["simulate", "tute", "--hands", "0"], "--hands must be at least 1"),
    ],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert cli.main(args) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


@pytest.mark.parametrize(("options", "told"), [
    (["--option", "tute_sotas=true", "--option", "must_declare=true", "--option", "rounds_to_win=2"],
     ["four sotas make tute too", "singing is compulsory", "first to 2 rounds"]),
    (["--players", "2", "--option", "exchange_anytime=true", "--option", "rounds_to_win=2"],
     ["exchange on any turn", "first to 2 rounds"]),
    (["--players", "3", "--option", "rounds_to_win=2"],
     ["three players, each alone", "first to 2 rounds", "out of play", "Left (1)", "Right (2)"]),
], ids=["pairs-variants", "habanero-anytime", "three"])
def test_variant_options_play_a_whole_match_in_the_terminal(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        options: list[str], told: list[str]) -> None:
    """Issue 24's variants in the terminal: told in the introduction, played to the end, saved."""
    path = tmp_path / "v.json"
    code, person = play(monkeypatch, capsys, first_choice, "--seed", "4", "--save", str(path), *options)
    assert code == 0
    flat = " ".join(re.sub("[│╭╮╰╯─]", " ", person.output).split())  # the intro panel wraps
    for text in told:
        assert text in flat
    state = tt.load(path.read_text())
    assert state.is_over() and max(state.scores) == 2  # type: ignore[attr-defined]
    assert not any(line.startswith("✗") for line in person.output.splitlines())
