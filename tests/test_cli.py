"""The ``tricktaker`` command: play (scripted input), rules, replay, simulate, games, errors."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

import tricktaker as tt
from tricktaker import cli
from tricktaker.bots import make_bot

CARD = re.compile(r"\b(?:[2-9TJQKA])[SHDC]\b")


class Person:
    """The person at the table, scripted: ``answer`` sees the output so far and returns a line.

    It replaces ``cli.read_line``, the one place ``tricktaker play`` reads input,
    and keeps everything printed so far in ``output`` (stdout only).
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                 answer: Callable[[Person], str]) -> None:
        self.capsys = capsys
        self.output = ""
        self.prompts: list[str] = []
        self.answer = answer

        def read_line(prompt: str) -> str:
            self.collect()
            self.prompts.append(prompt)
            if len(self.prompts) > 5000:
                raise AssertionError("the match does not end")
            return self.answer(self)

        monkeypatch.setattr(cli, "read_line", read_line)

    def collect(self) -> str:
        captured = self.capsys.readouterr()
        self.output += captured.out
        self.err = captured.err
        return self.output


def script(lines: list[str]) -> Callable[[Person], str]:
    """Answer with these lines in order, then end the input (EOF)."""
    queue = list(lines)

    def answer(person: Person) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return answer


def first_choice(person: Person) -> str:
    return "1"


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         answer: Callable[[Person], str], *args: str) -> tuple[int, Person]:
    person = Person(monkeypatch, capsys, answer)
    code = cli.main(["play", "tuppi", *args])
    person.collect()
    return code, person


@pytest.fixture(scope="module")
def finished_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole match played through the CLI (first choice every time), saved."""
    path = tmp_path_factory.mktemp("records") / "match.json"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cli, "read_line", lambda prompt: "1")
        assert cli.main(["play", "tuppi", "--seed", "3", "--save", str(path)]) == 0
    return path


# -- play ------------------------------------------------------------------------------------


def test_play_a_whole_match(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                            tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    code, person = play(monkeypatch, capsys, first_choice, "--seed", "3", "--save", str(path))
    assert code == 0
    state = tt.load(path.read_text())
    assert state.is_over()
    assert state.winner is not None or state.draw  # type: ignore[attr-defined]
    out = person.output
    assert "Match over after" in out
    assert "win the match" in out or "draw" in out
    assert out.count("result") >= state.hand_number + 1  # one result panel per hand
    assert f"Hand {state.hand_number + 1}" in out


def test_play_saves_after_every_hand(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    saved_hands: list[int] = []

    def answer(person: Person) -> str:
        if path.exists():
            saved_hands.append(len(json.loads(path.read_text())["hands"]))
        return "1"

    code, _ = play(monkeypatch, capsys, answer, "--seed", "4", "--save", str(path))
    assert code == 0
    # The person bids in every hand, and by then the record already holds that hand:
    # it grows hand by hand while the match is played, not only at the end.
    hands = len(json.loads(path.read_text())["hands"])
    assert sorted(saved_hands) == saved_hands
    assert set(saved_hands) == set(range(1, hands + 1))


def test_play_is_deterministic_given_the_seed(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    records = []
    for name in ("a.json", "b.json"):
        path = tmp_path / name
        play(monkeypatch, capsys, first_choice, "--seed", "8", "--save", str(path))
        records.append(json.loads(path.read_text())["hands"])
    assert records[0] == records[1]


def test_quit_saves_and_exits_0(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    code, person = play(monkeypatch, capsys, script(["quit"]), "--seed", "2", "--save", str(path))
    assert code == 0
    assert "You left the table" in person.output and str(path) in person.output
    state = tt.load(path.read_text())
    assert not state.is_over()
    # Dealer 0: the three bots to the person's left bid before the first prompt.
    assert len(state.history) == 3
    assert state.current_player == 0


def test_end_of_input_saves_and_exits_0(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    path = tmp_path / "eof.json"
    code, person = play(monkeypatch, capsys, script(["1"]), "--seed", "2", "--save", str(path))
    assert code == 0
    assert "End of input" in person.output
    assert len(tt.load(path.read_text()).history) >= 4


def test_bad_entries_get_a_reason_and_a_new_prompt(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, person = play(monkeypatch, capsys, script(["zz", "99", "play AS", "bid 2c", "1", "quit"]),
                        "--seed", "2")
    assert code == 0
    errors = [line for line in person.output.splitlines() if line.startswith("✗")]
    assert len(errors) == 4
    assert "'zz' is not a card" in errors[0]
    assert "there is no choice 99" in errors[1]
    assert "play AS is not possible now" in errors[2]  # the engine's IllegalActionError message
    assert "2C" in errors[3]
    assert person.prompts[:5] == ["bid › "] * 5  # the same question again after each error
    assert "You bid" in person.output


def test_a_bare_card_means_the_only_kind_of_action(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    hand = tt.new_game("tuppi").new_match(seed=2).observation(0)["hand"]
    card = next(c for c in hand if c[0] not in "KQJ2")
    typed = ("10" + card[1] if card[0] == "T" else card).lower()
    code, person = play(monkeypatch, capsys, script([typed, "quit"]), "--seed", "2")
    assert code == 0
    assert f"You bid {card} face down" in person.output


def test_rami_alone_is_a_bid_with_bidding_cards(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, person = play(monkeypatch, capsys, script(["rami", "quit"]), "--seed", "2", "--preset",
                        "tournament")
    assert code == 0
    assert "You bid rami face down" in person.output
    assert "Tournament" in person.output and "of 20" in person.output


def test_help_score_last_show(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, person = play(monkeypatch, capsys, script(["help", "score", "last", "show", "quit"]), "--seed", "2")
    assert code == 0
    out = person.output
    assert "Enter your move as" in out
    assert "This hand" in out
    assert "No trick has been played yet." in out
    assert out.count("Your hand") == 2


def test_last_shows_the_previous_hands_last_trick(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    asked: list[str] = []

    def answer(person: Person) -> str:
        if "Hand 2 ·" in person.output and not asked:
            asked.append(person.output)
            return "last"
        if asked:
            return "quit"
        return "1"

    code, person = play(monkeypatch, capsys, answer, "--seed", "6")
    assert code == 0
    tail = person.output[len(asked[0]):]
    assert "Last trick of the previous hand" in tail
    assert "won by" in tail


def test_the_person_sees_only_their_own_cards(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Before any card is played, the only cards on screen are the person's own hand."""
    hand = set(tt.new_game("tuppi", preset="tournament").new_match(seed=5).observation(1)["hand"])
    code, person = play(monkeypatch, capsys, script(["quit"]), "--seed", "5", "--seat", "1",
                        "--preset", "tournament")
    assert code == 0
    table = person.output.split("Hand 1 ·", 1)[1]
    shown = set(CARD.findall(table))
    assert shown and shown <= hand


def test_play_from_another_seat(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                tmp_path: Path) -> None:
    path = tmp_path / "s2.json"
    code, person = play(monkeypatch, capsys, first_choice, "--seed", "1", "--seat", "2", "--save", str(path))
    assert code == 0
    assert tt.load(path.read_text()).is_over()
    assert "You (seat 2)" in person.output and "Partner (seat 0)" in person.output


def test_interpret_reads_numbers_cards_and_words() -> None:
    state = tt.new_game("tuppi").new_match(seed=1)
    while state.legal_actions()[0].kind != "play":
        state.apply(state.legal_actions()[-1])  # pass on sooli, so a play follows
    seat = state.current_player
    assert seat is not None
    console = Console(file=io.StringIO())
    session = cli.PlaySession(state, seat, {s: make_bot("random", seed=s) for s in range(4)},
                              console, console, None)
    legal = state.legal_actions()
    assert session.interpret("1", legal) is legal[0]
    card = legal[0].card
    assert card is not None
    assert session.interpret(card.text.lower(), legal) == f"play {card.text}"
    assert session.interpret("10s", legal) == "play TS"
    assert session.interpret("play AS", legal) == "play AS"
    assert session.interpret("rami", legal) == "bid rami"
    with pytest.raises(tt.IllegalActionError, match="no choice 0"):
        session.interpret("0", legal)
    with pytest.raises(tt.IllegalActionError, match="not a card"):
        session.interpret("x9", legal)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "bridge"], "unknown game 'bridge'"),
        (["play", "tuppi", "--preset", "casino"], "unknown preset 'casino'"),
        (["play", "tuppi", "--option", "jokers=true"], "unknown option 'jokers'"),
        (["play", "tuppi", "-o", "target=many"], "option target takes a whole number"),
        (["play", "tuppi", "-o", "hand_limit=5"], "hand_limit must be 0 (none) or 16..24"),
        (["play", "tuppi", "-o", "target"], "--option takes key=value"),
        (["play", "tuppi", "--bots", "genius"], "unknown bot 'genius'"),
        (["play", "tuppi", "--seat", "4"], "--seat must be 0..3"),
        (["simulate", "chess"], "unknown game 'chess'"),
        (["rules", "chess"], "unknown game 'chess'"),
        (["replay", "/no/such/record.json"], "cannot read"),
    ],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert cli.main(args) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


def test_options_are_typed(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                           tmp_path: Path) -> None:
    path = tmp_path / "o.json"
    code, _ = play(monkeypatch, capsys, script(["quit"]), "--seed", "1", "--save", str(path),
                   "-o", "sooli=false", "--option", "target=12")
    assert code == 0
    options = json.loads(path.read_text())["options"]
    assert options["sooli"] is False and options["target"] == 12


# -- rules, games, version --------------------------------------------------------------------------


def test_rules_lists_every_option_and_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", "tuppi"]) == 0
    out = capsys.readouterr().out
    game = tt.GAMES["tuppi"]
    for option in game.OPTIONS:
        assert option.name in out
        assert option.describe() in out
    for preset, values in game.PRESETS.items():
        assert preset in out
        for key in values:
            assert f"{key}=" in out
    assert "nousussa" in out.lower()


def test_games_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["games"]) == 0
    assert "tuppi" in capsys.readouterr().out
    assert cli.main(["--version"]) == 0
    assert tt.__version__ in capsys.readouterr().out


# -- replay ------------------------------------------------------------------------------------------


def test_replay_shows_every_hand_trick_by_trick(finished_record: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay", str(finished_record)]) == 0
    out = capsys.readouterr().out
    record = json.loads(finished_record.read_text())
    for number in range(1, len(record["hands"]) + 1):
        assert f"Hand {number} result" in out
    assert "won by" in out and "Contract" in out
    assert "Match over" in out
    # Every card played in the first hand appears in the replay.
    first_plays = [a.split()[1] for a in record["hands"][0]["actions"] if a.startswith("play")]
    assert first_plays and all(card in out for card in first_plays)


def test_replay_one_hand(finished_record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    last = len(json.loads(finished_record.read_text())["hands"])
    assert cli.main(["replay", str(finished_record), "--hand", str(last)]) == 0
    out = capsys.readouterr().out
    assert f"Hand {last} result" in out
    assert f"Hand {last - 1} result" not in out
    assert cli.main(["replay", str(finished_record), "--hand", str(last + 1)]) == 2
    assert "--hand must be" in capsys.readouterr().err


def test_replay_of_an_unfinished_match(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    path = tmp_path / "half.json"
    play(monkeypatch, capsys, script(["1"] * 20 + ["quit"]), "--seed", "5", "--save", str(path))
    assert cli.main(["replay", str(path)]) == 0
    assert "Match not finished" in capsys.readouterr().out


def test_replay_of_a_tampered_record_exits_2(finished_record: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(finished_record.read_text())
    actions = record["hands"][0]["actions"]
    index = next(i for i, a in enumerate(actions) if a.startswith("play"))
    actions[index] = actions[index + 1]  # the next player's card: not in the leader's hand
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(record))
    assert cli.main(["replay", str(bad)]) == 2
    captured = capsys.readouterr()
    assert f"action {index + 1}" in captured.err
    assert captured.out == ""

    bad.write_text("{not json")
    assert cli.main(["replay", str(bad)]) == 2
    assert "not a JSON record" in capsys.readouterr().err


# -- simulate ----------------------------------------------------------------------------------------


def _without_timing(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if "hands/s" not in line)


def test_simulate_prints_the_contract_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "tuppi", "--hands", "60", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "60 single hands" in out and "hands/s" in out
    for word in ("Contracts", "rami", "nolo", "sooli", "Early ends", "declaring side"):
        assert word in out
    counts = re.findall(r"^\s+(rami|nolo|sooli)\s+(\d+)\s", out, re.MULTILINE)
    assert sum(int(n) for _, n in counts) == 60


def test_simulate_is_deterministic_given_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for _ in range(2):
        assert cli.main(["simulate", "tuppi", "--hands", "40", "--seed", "7"]) == 0
        outputs.append(_without_timing(capsys.readouterr().out))
    assert outputs[0] == outputs[1]
    assert cli.main(["simulate", "tuppi", "--hands", "40", "--seed", "8"]) == 0
    assert _without_timing(capsys.readouterr().out) != outputs[0]


def test_simulate_matches_with_a_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "tuppi", "--hands", "80", "--seed", "1", "--matches",
                     "--preset", "tournament"]) == 0
    out = capsys.readouterr().out
    assert "80 hands within matches" in out
    assert "sooli" not in out.split("Contracts", 1)[1].split("made:", 1)[0]
