"""``tricktaker`` with the Marjapussi family: Marjapussi, Bondtolva (4 and 2 players), Avomarjapussi.

Play (scripted input, calls and answers), what the person may see, replay, simulate, rules.
"""

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
from tricktaker.engine import State

CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")
CALL_CHOICE = re.compile(r"(\d+) (declare [SHDC]|ask whole|ask half [SHDC])\b")
VARIANTS = [
    pytest.param("marjapussi", [], id="marjapussi"),
    pytest.param("bondtolva", [], id="bondtolva"),
    pytest.param("bondtolva", ["-o", "players=2"], id="bondtolva-two"),
    pytest.param("avomarjapussi", [], id="avomarjapussi"),
]


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], game: str,
         answer: Callable[[Person], str], *args: str) -> tuple[int, Person]:
    person = Person(monkeypatch, capsys, answer)
    code = cli.main(["play", game, *args])
    person.collect()
    return code, person


def errors(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("✗")]


@pytest.fixture(scope="module", params=[pytest.param(tuple(p.values), id=p.id) for p in VARIANTS])
def finished_record(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole match of each variant played through the CLI (first choice every time), saved."""
    game, args = request.param
    path = tmp_path_factory.mktemp("records") / f"{game}.json"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cli, "read_line", lambda prompt: "1")
        assert cli.main(["play", game, "--seed", "3", "--save", str(path), *args]) == 0
    return path


# -- play ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "args"), VARIANTS)
def test_play_a_whole_match(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                            tmp_path: Path, game: str, args: list[str]) -> None:
    path = tmp_path / "m.json"
    code, person = play(monkeypatch, capsys, game, first_choice, "--seed", "3", "--save", str(path), *args)
    assert code == 0
    state = tt.load(path.read_text())
    assert state.is_over() and state.winner is not None
    out = person.output
    assert not errors(out)
    hands = state.hand_number + 1
    for number in range(1, hands + 1):
        assert f"Hand {number} result" in out
    assert f"Match over after {hands} hand" in out
    assert re.search(r"wins? the match", out)
    for word in ("Match", "Trumps", "Points", "Tricks", "Table", "Last trick", "Your hand"):
        assert word in out
    if state.game.num_players == 4:
        assert "Clockwise, seats: You (0) → Left (1) → Partner (2) → Right (3)" in out
        assert "Us " in out and "Them " in out
    else:
        assert "Clockwise, seats: You (0) → Opponent (1)" in out
    if "players=2" in args:
        assert "Stock" in out and "you draw" in out.lower() and "The stock is used up" in out
        assert "aces and tens" in out.lower()
    if game == "avomarjapussi":
        assert "Rows" in out and "face-up cards" in out and "turns up" in out and "▮" in out
    if game == "marjapussi":
        assert "to exactly 12" in out


def prompted_decisions(record: dict[str, Any], seat: int) -> int:
    """Replay a record: the decisions the person had to make (not a forced answer, not the last card)."""
    state = tt.new_game(record["game"], **record["options"]).new_match(seed=record["seed"])
    asked = 0
    for hand in record["hands"]:
        for text in hand["actions"]:
            if state.current_player == seat:
                legal = state.legal_actions()
                obs = state.observation(seat)
                face_up = [up for up, _ in obs["rows"][seat] if up is not None] if "rows" in obs else []
                left = len(obs["hand"]) + len(face_up)
                forced_answer = obs["phase"] == "answer" and len(legal) == 1
                last_card = left == 1 and len(legal) == 1
                asked += not (forced_answer or last_card)
            state.apply(text)
    return asked


@pytest.mark.parametrize(("game", "args"), VARIANTS)
def test_forced_moves_are_not_asked(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                    tmp_path: Path, game: str, args: list[str]) -> None:
    """The person is prompted for real choices only: a forced answer and the last card go by themselves."""
    path = tmp_path / "m.json"
    code, person = play(monkeypatch, capsys, game, first_choice, "--seed", "5", "--save", str(path), *args)
    assert code == 0
    assert len(person.prompts) == prompted_decisions(json.loads(path.read_text()), 0)


def caller(by: str) -> tuple[Callable[[Person], str], list[str]]:
    """Answer 1, except when a call is offered: then make it, by its number or by its short form."""
    made: list[str] = []
    seen = [0]

    def answer(person: Person) -> str:
        fresh = person.output[seen[0]:]
        seen[0] = len(person.output)
        offers = CALL_CHOICE.findall(fresh)
        if not offers:
            return "1"
        number, text = offers[-1]
        made.append(text)
        if by == "number":
            return number
        words = text.lower().split()
        if words[0] == "declare":
            return f"d {words[1]}" if len(made) % 2 else f"declare {words[1]}"
        if words[1] == "whole":
            return "whole"
        return f"half {words[2]}"

    return answer, made


@pytest.mark.parametrize("by", ["number", "text"])
@pytest.mark.parametrize(("game", "args"), VARIANTS)
def test_calls_are_offered_and_made(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                    tmp_path: Path, game: str, args: list[str], by: str) -> None:
    path = tmp_path / "c.json"
    for seed in range(1, 10):
        answer, made = caller(by)
        code, person = play(monkeypatch, capsys, game, answer, "--seed", str(seed), "--save", str(path),
                            *args)
        assert code == 0
        if made:
            break
    else:
        pytest.fail("no call was offered to the person in 9 matches")
    out = person.output
    assert not errors(out)
    assert "You won the trick: lead, or first make one call" in out
    record = json.loads(path.read_text())
    mine = [text for hand in record["hands"] for text in hand["actions"]]
    assert all(call in mine for call in made)
    if any(call.startswith("declare") for call in made):
        assert re.search(r"You declare ♥|You declare ♠|You declare ♦|You declare ♣", out)
    if any(call.startswith("ask") for call in made):
        assert "You ask Partner for" in out
        assert re.search(r"Partner \(seat 2\)(: no|: yes| shows)", out)


def crafted_ask() -> State:
    """Marjapussi: Partner (seat 2) takes the first trick and asks for a whole; seat 0 holds two."""
    deal = ["KS QS KH QH 6C 7C 8D 9D TD", "AS TS JS 9S 8S AH TH JH 9H",
            "AC KC QC JC 9C 8H 7H 6H 6S", "7S AD KD QD JD 7D 6D TC 8C"]
    state = tt.new_game("marjapussi").new_hand(deal=deal, dealer=1)
    for text in ("play AC", "play 8C", "play 6C", "play 8S", "ask whole"):
        state.apply(text)
    assert state.current_player == 0 and len(state.legal_actions()) == 2
    return state


@pytest.mark.parametrize("entry", ["hearts", "2", "answer h", "a ♥"])
def test_the_answer_prompt_says_what_was_asked(entry: str) -> None:
    state = crafted_ask()
    buffer = io.StringIO()
    console = Console(file=buffer, width=200)
    lines = [entry]
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if not lines:
            raise EOFError
        return lines.pop(0)

    bots = {s: make_bot("random", seed=s) for s in (1, 2, 3)}
    assert cli.PlaySession(state, 0, bots, console, console, None, ask=ask).run() == 0
    out = buffer.getvalue()
    assert prompts[0] == "answer › "
    assert "Partner asks you for a whole: you hold more than one marriage; choose which to show " \
           "(spades or hearts)" in out
    assert "1 answer S (spades)" in out and "2 answer H (hearts)" in out
    assert "empty: Partner asked; you must answer" in out
    assert "answer H" in [a.text for a in state.history]
    assert "You show ♥ hearts (KH QH): trumps! Us +2" in out


def test_a_lone_answer_is_given_for_the_person() -> None:
    state = tt.new_game("marjapussi").new_hand(deal=[
        "KS QS AH QH 6C 7C 8D 9D TD", "AS TS JS 9S 8S KH TH JH 9H",
        "AC KC QC JC 9C 8H 7H 6H 6S", "7S AD KD QD JD 7D 6D TC 8C"], dealer=1)
    for text in ("play AC", "play 8C", "play 6C", "play 8S", "ask whole"):
        state.apply(text)
    buffer = io.StringIO()
    console = Console(file=buffer, width=200)

    def ask(prompt: str) -> str:
        raise EOFError

    bots = {s: make_bot("random", seed=s) for s in (1, 2, 3)}
    cli.PlaySession(state, 0, bots, console, console, None, ask=ask).run()
    out = buffer.getvalue()
    assert state.history[5].text == "answer S"
    assert "You show ♠ spades (KS QS): trumps! Us +2" in out


def test_interpret_reads_calls_and_answers() -> None:
    state = crafted_ask()
    console = Console(file=io.StringIO())
    session = cli.PlaySession(state, 0, {s: make_bot("random", seed=s) for s in range(4)},
                              console, console, None)
    answers = state.legal_actions()
    assert session.interpret("hearts", answers) == "answer H"
    assert session.interpret("a s", answers) == "answer S"
    assert session.interpret("♥", answers) == "answer H"
    with pytest.raises(tt.IllegalActionError, match="you must answer truthfully"):
        session.interpret("no", answers)
    with pytest.raises(tt.IllegalActionError, match="which answer"):
        session.interpret("yes", answers)
    no = [tt.Action("answer", "no")]
    assert session.interpret("no", no) == "answer no"
    assert session.interpret("n", no) == "answer no"

    deck = tt.PIQUET_36
    hearts, spades = deck.suit("H"), deck.suit("S")
    play_as = tt.Action("play", deck.card("AS"))
    declare_h, declare_s = tt.Action("declare", hearts), tt.Action("declare", spades)
    whole, half_s = tt.Action("ask", "whole"), tt.Action("ask", "half", spades)
    legal = [play_as, declare_h, whole, half_s]
    assert session.interpret("d h", legal) == "declare H"
    assert session.interpret("dh", legal) == "declare H"
    assert session.interpret("declare hearts", legal) == "declare H"
    assert session.interpret("d", legal) is declare_h
    assert session.interpret("whole", legal) == "ask whole"
    assert session.interpret("w", legal) == "ask whole"
    assert session.interpret("half s", legal) == "ask half S"
    assert session.interpret("half", legal) is half_s
    assert session.interpret("as", legal) == "play AS"
    assert session.interpret("2", legal) is declare_h
    with pytest.raises(tt.IllegalActionError, match="which marriage"):
        session.interpret("d", [play_as, declare_h, declare_s])
    with pytest.raises(tt.IllegalActionError, match="no marriage to declare now"):
        session.interpret("declare", [play_as])
    with pytest.raises(tt.IllegalActionError, match="nobody has asked you"):
        session.interpret("no", legal)


def test_bad_entries_get_a_reason_and_a_new_prompt(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, person = play(monkeypatch, capsys, "marjapussi",
                        script(["zz", "99", "d h", "whole", "answer no", "1", "quit"]), "--seed", "3")
    assert code == 0
    found = errors(person.output)
    assert len(found) == 5
    assert "'zz' is not a card" in found[0]
    assert "there is no choice 99" in found[1]
    assert "declare H is not possible now" in found[2]
    assert "ask whole is not possible now" in found[3]
    assert "nobody has asked" in found[4]
    assert "You play" in person.output


def test_help_score_last_show(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, person = play(monkeypatch, capsys, "marjapussi", script(["help", "score", "last", "show", "quit"]),
                        "--seed", "3")
    assert code == 0
    out = person.output
    assert "Enter your move as" in out and "a call" in out and "half h" in out
    assert "This hand" in out
    assert "No trick has been played yet." in out
    assert out.count("Your hand") == 2


@pytest.mark.parametrize(("game", "args", "word"), [
    ("marjapussi", [], "back to 7"),
    ("marjapussi", [], "to Porvoo: back to 0"),
    ("avomarjapussi", [], "back to 7"),
    ("bondtolva", ["-o", "exact=true"], ", taken off 12:"),
    ("bondtolva", [], "honours"),
    ("marjapussi", ["-o", "pip_tie_carries=true"], "carried over to the next hand"),
])
def test_results_explain_overshoot_and_porvoo(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str],
                                              game: str, args: list[str], word: str) -> None:
    for seed in range(1, 30):
        code, person = play(monkeypatch, capsys, game, first_choice, "--seed", str(seed), *args)
        assert code == 0
        if word in person.output:
            break
    else:
        pytest.fail(f"{word!r} never shown in 29 matches")
    out = person.output
    line = next(line for line in out.splitlines() if word in line)
    if "Porvoo" in word or "off" in word or "back to 7" in word:
        assert re.search(r"│ +(Score)? +(You and Partner|Left and Right|You|Opponent)", line)
    if "off" in word or "back to 7" in word:
        assert re.search(r"\d+ \+ \d+ = \d+, over 12", line)
    if "carried" in word:  # the next hand shows the carried point, and its winner gets it
        assert "│ Carried  1 pip point carried over from equal pips" in out
        assert "+1 carried over" in out[out.index(word):]


def test_the_score_command_explains_the_previous_hand(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    asked: list[str] = []

    def answer(person: Person) -> str:
        if "Hand 2 ·" in person.output and not asked:
            asked.append(person.output)
            return "score"
        return "quit" if asked else "1"

    code, person = play(monkeypatch, capsys, "marjapussi", answer, "--seed", "3")
    assert code == 0
    tail = person.output[len(asked[0]):]
    assert "Previous hand" in tail and "Last trick" in tail and "Pips" in tail


# -- what the person may see ------------------------------------------------------------------------


def visible(obs: dict[str, Any]) -> set[str]:
    """Every card the seat may have seen so far in this hand."""
    cards = set(obs["hand"]) | {c for _, c in obs["trick"]}
    cards |= {c for trick in obs["tricks"] for _, c in trick["cards"]}
    cards |= {c for shown in obs["shown"] for c in shown}
    for _, letter, _ in obs["marriages"]:
        cards |= {f"K{letter}", f"Q{letter}"}
    for row in obs.get("rows", []):
        cards |= {up for up, _ in row if up is not None}
    return cards


def hidden(state: State, record: dict[str, Any], seat: int) -> set[str]:
    """Cards the seat must not see now: the other hands, and (Avomarjapussi) every card still face down."""
    cards = {c.text for s in range(state.game.num_players) if s != seat
             for c in state.hand(s)}  # type: ignore[attr-defined]
    obs = state.observation(seat)
    if "rows" in obs:
        deal = record["hands"][-1]["deal"]
        for s, row in enumerate(obs["rows"]):
            cards |= {deal[2 + 14 * s + k] for k, (_, down) in enumerate(row) if down}
    return cards


@pytest.mark.parametrize(("game", "args"), VARIANTS)
def test_the_person_sees_only_what_the_seat_may_know(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     game: str, args: list[str]) -> None:
    """A few tricks in, from seat 1: own cards, cards played or face up, marriages shown; nothing else."""
    path = tmp_path / "q.json"
    code, person = play(monkeypatch, capsys, game, script(["1"] * 4 + ["quit"]), "--seed", "5",
                        "--seat", "1", "--save", str(path), *args)
    assert code == 0
    text = path.read_text()
    state = tt.load(text)
    assert state.hand_number == 0
    obs = state.observation(1)
    table = person.output.split("Hand 1 ·", 1)[1]
    shown = set(CARD.findall(table))
    assert shown and shown <= visible(obs)
    secret = hidden(state, json.loads(text), 1)
    assert secret and not shown & secret
    if game == "avomarjapussi":
        assert "▮" in table  # face-down cards are marked, never named


def test_avomarjapussi_face_up_cards_are_choices(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, person = play(monkeypatch, capsys, "avomarjapussi", script(["1", "1", "quit"]), "--seed", "3")
    assert code == 0
    out = person.output
    assert "Your hand and your face-up cards [on the table]" in out
    face_up = re.findall(r"\d+ \[([2-9TJQKA][SHDC])\]", out)
    assert face_up, "no face-up card is offered as a numbered choice"
    rows = re.search(r"Rows +1 +2 +3 +4 +5 +6 +7", out)
    assert rows is not None


# -- replay ------------------------------------------------------------------------------------------


def test_replay_shows_every_hand_trick_by_trick(finished_record: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay", str(finished_record)]) == 0
    out = capsys.readouterr().out
    record = json.loads(finished_record.read_text())
    for number in range(1, len(record["hands"]) + 1):
        assert f"Hand {number} result" in out
    assert "won by" in out and "leads" in out and "Match over" in out
    first_plays = [a.split()[1] for a in record["hands"][0]["actions"] if a.startswith("play")]
    assert first_plays and all(card in out for card in first_plays)
    game, options = record["game"], record["options"]
    if game == "avomarjapussi":
        assert "face up" in out and "face down" in out and "turned up:" in out
    elif options.get("players") == 2:
        assert "Stock" in out and "draws:" in out and "the stock is used up" in out
    else:
        assert "South (seat 0)" in out and "N-S" in out and "E-W" in out
    calls = [a for hand in record["hands"] for a in hand["actions"] if not a.startswith("play")]
    if any(a.startswith("ask whole") for a in calls):
        assert "for a whole" in out


def test_replay_one_hand(finished_record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    last = len(json.loads(finished_record.read_text())["hands"])
    assert cli.main(["replay", str(finished_record), "--hand", str(last)]) == 0
    out = capsys.readouterr().out
    assert f"Hand {last} result" in out
    assert f"Hand {last - 1} result" not in out
    assert "the match" in out  # the last hand's result names the match winner


@pytest.mark.parametrize(("game", "args"), VARIANTS)
def test_replay_of_an_unfinished_match(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path, game: str, args: list[str]) -> None:
    path = tmp_path / "half.json"
    play(monkeypatch, capsys, game, script(["1"] * 3 + ["quit"]), "--seed", "5", "--save", str(path), *args)
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Match not finished" in out and "hand not finished" in out


# -- simulate ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "args"), VARIANTS)
def test_simulate_prints_statistics(capsys: pytest.CaptureFixture[str], game: str, args: list[str]) -> None:
    assert cli.main(["simulate", game, "--hands", "60", "--seed", "2", *args]) == 0
    out = capsys.readouterr().out
    assert "60 single hands" in out and "hands/s" in out
    for word in ("Hand points", "Points per hand", "Trumps made", "Marriages per hand", "Pip point",
                 "Porvoo", "need --matches"):
        assert word in out
    per_hand = re.search(r"Marriages per hand (.*)", out)
    assert per_hand is not None
    shares = [float(x) for x in re.findall(r"(\d+\.\d)%", per_hand.group(1))]
    assert abs(sum(shares) - 100) < 0.5


@pytest.mark.parametrize(("game", "args"), VARIANTS)
def test_simulate_matches(capsys: pytest.CaptureFixture[str], game: str, args: list[str]) -> None:
    assert cli.main(["simulate", game, "--hands", "120", "--seed", "1", "--matches", *args]) == 0
    out = capsys.readouterr().out
    assert "120 hands within matches" in out
    assert "Matches finished" in out and "hands each" in out
    if game != "bondtolva":  # Bondtolva keeps points over 12 unless exact
        assert "Went over 12 (dropped to 7)" in out


def test_simulate_is_deterministic_given_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for _ in range(2):
        assert cli.main(["simulate", "bondtolva", "--hands", "40", "--seed", "7", "-o", "players=2"]) == 0
        lines = capsys.readouterr().out.splitlines()
        outputs.append("\n".join(line for line in lines if "hands/s" not in line))
    assert outputs[0] == outputs[1]


# -- rules, games ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["marjapussi", "bondtolva", "avomarjapussi"])
def test_rules_lists_the_summary_every_option_and_preset(capsys: pytest.CaptureFixture[str],
                                                         game: str) -> None:
    assert cli.main(["rules", game]) == 0
    out = capsys.readouterr().out
    cls = tt.GAMES[game]
    assert f"{cls.title} ({game})" in out
    assert "marriage" in out and "Porvoo" in out
    for option in cls.OPTIONS:
        assert option.name in out
    for preset, values in cls.PRESETS.items():
        assert preset in out
        for key, value in values.items():
            assert f"{key}={json.dumps(value)}" in out


def test_games_lists_the_family(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["games"]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if "bondtolva" in line)
    assert "2, 4" in line
    assert "marjapussi" in out and "avomarjapussi" in out
