"""``tricktaker`` with Huutopussi, four and three players.

Play (the auction, the exchange or the kitty, the raise, the discard, calls),
what the person may see, bad entries, replay, simulate, rules.  Random bots bid
wildly and lose far below zero, so a match with them may never end: these tests
play single hands (``new_hand``) or quit after a hand or two.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from test_cli import Person, script

import tricktaker as tt
from tricktaker import bots, cli
from tricktaker.bots import Bot, View, make_bot
from tricktaker.engine import Action, State

CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")
SIZES = [pytest.param(4, id="four"), pytest.param(3, id="three")]

DEAL4 = ["AH KH QH TH AS TS KC QC AD", "JH 9H 8H 7H 6H JS 9S 8S 7S",
         "KS QS 6S AC TC JC 9C 8C 7C", "6C KD QD TD JD 9D 8D 7D 6D"]
"""Seat 0 (the dealer) holds the hearts and clubs marriages; seat 2 the king and queen of spades."""
DEAL3 = ["AH KH QH TH AS TS KC QC AD JH 9H", "8H 7H 6H JS 9S 8S 7S KD QD TD JD",
         "KS QS 6S AC TC JC 9C 8C 7C 9D 8D", "6C 7D 6D"]
"""Three players: seat 0 holds the hearts and clubs marriages; the kitty is 6C 7D 6D."""


class Passer(Bot):
    """Passes whenever it may, keeps the contract, else takes the first legal action."""

    name = "passer"

    def decide(self, view: View) -> Action:
        legal = view.legal_actions
        return next((a for a in legal if a.kind == "pass"), legal[0])


@pytest.fixture
def passers(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--bots passer``: bots that let the person win the auction."""
    monkeypatch.setitem(bots.BOTS, "passer", Passer)


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         answer: Callable[[Person], str], *args: str) -> tuple[int, Person]:
    person = Person(monkeypatch, capsys, answer)
    code = cli.main(["play", "huutopussi", *args])
    person.collect()
    return code, person


def flat(output: str) -> str:
    """The output with its lines joined: a long sentence wraps at the console's width."""
    return " ".join(output.split())


def errors(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("✗")]


def player(bid: str = "120", raise_to: str = "keep", give: str = "1 2 3", stop: str = "Hand 1 result",
           plays: int | None = None) -> Callable[[Person], str]:
    """Answer the prompts of a hand from the text printed since the last one; quit once ``stop`` is
    shown (or after ``plays`` card prompts)."""
    played = [0]
    seen = [0]

    def answer(person: Person) -> str:
        now = person.output[seen[0]:]
        seen[0] = len(person.output)
        prompt = person.prompts[-1]
        if stop in person.output or (plays is not None and played[0] >= plays):
            return "quit"
        if prompt in ("give › ", "discard › "):
            return give
        if "Raise the contract" in now:
            return raise_to
        if "open the auction: bid" in now:
            return bid if bid != "p" else "50"
        if "Bid more than" in now:
            return bid
        if prompt == "play › " or "play any card" in now or "Lead" in now:
            played[0] += 1
        return "1"

    return answer


def session(state: State, lines: list[str], seat: int = 0,
            bot: Callable[[int], Bot] = lambda s: Passer()) -> tuple[str, list[str]]:
    """Play ``state`` at ``seat`` with these typed lines (then end of input); the output and prompts."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=120)
    queue = list(lines)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if not queue:
            raise EOFError
        return queue.pop(0)

    seats = {s: bot(s) for s in range(state.num_players) if s != seat}
    assert cli.PlaySession(state, seat, seats, console, console, None, ask=ask).run() == 0
    return buffer.getvalue(), prompts


# -- play ------------------------------------------------------------------------------------------


@pytest.mark.usefixtures("passers")
def test_four_players_bid_raise_give_back_by_numbers_and_play_out(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "h.json"
    code, person = play(monkeypatch, capsys, player(bid="120", raise_to="150"), "--seed", "3",
                        "--bots", "passer", "--save", str(path))
    assert code == 0
    out = person.output
    assert not errors(out)
    record = json.loads(path.read_text())
    actions = record["hands"][0]["actions"]
    assert actions[:4] == ["bid 120", "pass", "pass", "pass"]
    given = actions[4].split()[1:]
    assert actions[4].startswith("give") and actions[5] == "raise 150" and actions[6].startswith("give")
    assert "Clockwise, seats: You (0) → Left (1) → Partner (2) → Right (3)" in out
    assert "High bid  none yet: you open at 50 or more (the dealer must)" in out
    assert "Next bid  you: 50..440 in fives" in out
    assert "You open the auction at 120" in out
    assert "Left (seat 1) passes (out of the auction)" in out
    assert "You win the auction at 120: You and Partner need 120 points" in out
    assert f"Partner (seat 2) gives you {' '.join(given)}" in out
    assert f"Your hand   received from Partner: {' '.join(given)} (highlighted)" in out
    assert "1 keep 120 (pass)    2 raise 125   or any number 130..440" in out
    assert "You raise the contract to 150" in out
    returned = actions[6].split()[1:]
    assert f"You give Partner back {' '.join(returned)}" in out
    assert f"Exchange  Partner gave you {' '.join(given)}; you gave back {' '.join(returned)}" in out
    assert "Contract  150 (bid 120, raised)   declarer you: You and Partner" in out
    assert re.search(r"Points +Us \d+ · Them \d+ +You and Partner: \d+ of 150", out)
    assert "Hand 1 result" in out and "Contract    150 by you (bid 120, raised to 150)" in out
    assert re.search(r"Scoring +You and Partner collected \d+ [≥<] 150: (made, \+150|failed, -150)", out)
    assert "first to 500" in out and "Trick 9 →" in out and "the last trick +20" in out


def test_give_back_by_names_and_declare_changing_trumps() -> None:
    """The declarer gives back by card names, then declares hearts and clubs: trumps change, in words."""
    state = tt.new_game("huutopussi").new_hand(deal=DEAL4, dealer=0)
    out, _ = session(state, ["100", "keep", "6s ts ad", "ah", "d h", "kh", "d c", *["1"] * 8])
    assert not errors(out)
    assert state.history[4].text == "give KS QS 6S" and state.history[5].text == "pass"
    assert state.history[6].text == "give TS 6S AD"
    assert "You keep the contract at 100" in out
    assert "You declare ♥ hearts (KH QH): ♥ trumps now, Us +100" in out
    assert "You declare ♣ clubs (KC QC): ♣ trumps now (were ♥), Us +60" in out
    assert "Trumps     no trumps → ♥ 100 → ♣ clubs 60   by you" in out
    assert "Marriages  ♥ 100 You, Us · ♣ 60 You, Us" in out
    assert "1 declare S (trumps, +40)" not in out  # KS QS were not kept
    assert "9 declare H (trumps, +100)" in out or "declare H (trumps, +100)" in out
    assert state.is_over()
    assert "╔═ Single hand" in out and "Hand over" in out


def test_the_partner_gives_by_names_and_sees_what_comes_back() -> None:
    state = tt.new_game("huutopussi").new_hand(deal=DEAL4, dealer=0)
    out, prompts = session(state, ["p", "ks qs 6s", "1"], seat=2)
    assert state.history[:4] == [Action("bid", 50), Action("pass"), Action("pass"), Action("pass")]
    assert "give › " in prompts
    assert "Partner (seat 0) wins the auction at 50: You and Partner need 50 points" in out
    assert "You give Partner 3 cards; then Partner may raise and gives 3 back." in out
    assert "Exchange  You give Partner 3 cards first" in out
    assert "Partner won the auction at 50: give him 3 cards (he gives you 3 back)" in out
    assert "You give Partner KS QS 6S" in out
    back = state.history[6].text.split()[1:]
    assert f"Partner (seat 0) gives you back {' '.join(back)}" in out
    assert f"Your hand   received back from Partner: {' '.join(back)} (highlighted)" in out
    assert f"Exchange  you gave Partner KS QS 6S; received back {' '.join(back)}" in out


@pytest.mark.usefixtures("passers")
def test_three_players_kitty_raise_and_discard_by_numbers(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    code, person = play(monkeypatch, capsys, player(bid="90", raise_to="raise 100"), "--seed", "4",
                        "--players", "3", "--bots", "passer", "--save", str(path))
    assert code == 0
    out = person.output
    assert not errors(out)
    actions = json.loads(path.read_text())["hands"][0]["actions"]
    assert actions[:5] == ["bid 90", "pass", "pass", "raise 100", actions[4]]
    discard = actions[4].split()[1:]
    assert actions[4].startswith("discard") and not any(c[0] in "AT" for c in discard)
    kitty = json.loads(path.read_text())["hands"][0]["deal"][3].split()
    assert "Clockwise, seats: You (0) → Left (1) → Right (2)" in out
    assert f"The kitty: {' '.join(kitty)} — you take it, may raise, and discard 3." in out
    assert f"received from the kitty: {' '.join(kitty)} (highlighted)" in out
    assert "Discard 3 cards face down: they count for you at the end. Not aces or tens (they carry no " \
           "number)" in flat(out)
    assert "You raise the contract to 100" in out
    assert f"You discard {' '.join(discard)}" in out
    assert f"Discard   {' '.join(discard)}" in out
    assert re.search(r"You: \d+ of 100 \(with your", out) and "discard's" in out
    assert "Hand 1 result" in out and "Contract    100 by you (bid 90, raised to 100)" in out


def test_three_players_discard_by_names_and_aces_are_refused() -> None:
    state = tt.new_game("huutopussi", players=3).new_hand(deal=DEAL3, dealer=0)
    out, prompts = session(state, ["80", "keep", "as 9h 6c", "9h 6c 7d", "ah", *["1"] * 12])
    found = errors(out)
    assert len(found) == 1 and "aces and tens may not be discarded: AS" in found[0]
    assert prompts[2:4] == ["discard › ", "discard › "]
    assert state.history[4].text == "discard 9H 7D 6C"
    assert "You discard 9H 7D 6C (0 points, counted for you at the end)" in out
    assert state.is_over()


def test_declaring_after_any_trick_with_three_players() -> None:
    state = tt.new_game("huutopussi", players=3).new_hand(deal=DEAL3, dealer=0)
    out, _ = session(state, ["80", "keep", "9h 6c 7d", "ah", "d h", *["1"] * 12])
    assert "You declare ♥ hearts (KH QH): ♥ trumps now, You +100" in out
    assert "ask whole" not in out  # no partners: no asking


def test_redeal_with_three_sixes(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, person = play(monkeypatch, capsys, script(["redeal", "quit"]), "--seed", "7")
    assert code == 0
    out = person.output
    assert "1 bid 50    2 redeal (three sixes)" in out
    assert "You hold three sixes: you may demand a new deal now (redeal)." in out
    assert "You hold three sixes and demand a redeal: nothing is scored;" in out
    assert "Redeal  You held three sixes: a new deal by the same dealer; nothing scored" in out
    assert "Hand 2 · Us 0 · Them 0" in out and "(A new deal after the redeal.)" in out


def test_a_side_at_minus_500_only_opens_at_50_and_passes() -> None:
    state = tt.new_game("huutopussi").new_hand(deal=DEAL4, dealer=0, scores=[-500, 120])

    def bidder(seat: int) -> Bot:
        return make_bot("random", seed=seat) if seat == 1 else Passer()

    out, prompts = session(state, ["1"] * 20, bot=bidder)
    assert "You and Partner are at -500 or below: no bids, except the dealer's opening 50." in out
    assert "You open the auction at 50 (forced: at -500 or below only the dealer's opening)" in out
    assert "You pass (out of the auction) (forced: your side is at -500 or below)" in out
    assert "at -500 or below, may not bid:" in out
    assert state.history[0].text == "bid 50"
    assert prompts and "bid › " not in prompts  # the forced bid and pass were not asked


def test_bad_entries_get_a_reason_and_the_same_prompt() -> None:
    state = tt.new_game("huutopussi").new_hand(deal=DEAL4, dealer=0)
    lines = ["zz", "7", "as", "1 2 3", "pass", "52", "100",  # the auction
             "9s", "90", "keep",  # the raise
             "1 2", "1 1 2", "1 2 99", "zz 1 2", "9s 1 2", "as ks 6s"]  # giving back
    out, prompts = session(state, lines)
    found = errors(out)
    expected = ["'zz' is not a card, a choice number or a command",
                "there is no choice 7: type a bid (50..440 in fives) or a choice 1..1",
                "AS is a card, but now is the auction",
                "'1 2 3' is not understood: in the auction, type one bid",
                "the dealer must open the bidding at 50 or more",
                "cannot bid 52: bids go from 50 in fives up to 440",
                "9S is a card, but first you raise the contract (a number above 100)",
                "cannot raise to 90: a raise goes above 100",
                "give exactly 3 cards, not 2",
                "AS is named twice: give 3 different cards",
                "there is no card 99 in your hand: the cards are numbered 1..12",
                "'zz' is neither a card nor a card's number",
                "you cannot give 9S: not in hand"]
    assert len(found) == len(expected), found
    for line, words in zip(found, expected, strict=True):
        assert words in line
    assert prompts[:7] == ["bid › "] * 7
    assert prompts[7:10] == ["› "] * 3
    assert prompts[10:16] == ["give › "] * 6
    assert state.history[6].text == "give AS KS 6S"


@pytest.mark.parametrize("options", [{"players": 4}, {"players": 3}, {"players": 4, "exchange": 4}],
                         ids=["four", "three", "exchange-4"])
def test_typed_entries_mean_the_actions(options: dict[str, Any]) -> None:
    """Random hands: every bid, raise, keep, pass and card set, typed as a person would, is that action."""
    game = tt.new_game("huutopussi", **options)
    pick = random.Random(7)
    checked = 0
    for seed in range(6):
        state = game.new_hand(seed=seed)
        while not state.is_over():
            seat = state.current_player
            assert seat is not None
            console = Console(file=io.StringIO())
            person = cli.PlaySession(state, seat, {}, console, console, None)
            legal = state.legal_actions()
            obs = state.observation(seat)
            person.screen.automatic(obs, legal)  # what the person's turn starts with
            action = pick.choice(legal)
            words = action.text.split()
            typed: list[str] = []
            if action.kind in ("give", "discard"):
                numbered = [c for c in obs["hand"] if action.kind == "give" or c[0] not in "AT"]
                numbers = " ".join(str(numbered.index(c) + 1) for c in words[1:])
                names = " ".join(c.lower() for c in reversed(words[1:]))
                typed = [names, numbers, f"{action.kind} {numbers}"]
            elif action.kind in ("bid", "raise"):
                typed = [words[1], action.text]
            elif action.kind == "pass":
                typed = ["keep" if obs["phase"] == "raise" else "p", "pass"]
            for entry in typed:
                copy = state.clone()
                copy.apply(person.interpret(entry, legal))
                assert copy.history[-1] is action, (entry, action)
                checked += 1
            state.apply(action)
    assert checked > 50


def test_help_score_last(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, person = play(monkeypatch, capsys, script(["help", "score", "last", "show", "quit"]), "--seed", "3")
    assert code == 0
    out = person.output
    assert "Enter your move as" in out and "a bid" in out and "1 5 7" in out and "keep" in out
    assert "No trick has been played yet." in out
    assert out.count("Your hand") == 2


def test_the_score_command_explains_the_previous_hand(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    asked: list[str] = []
    first = player(stop="Hand 2 ·")

    def answer(person: Person) -> str:
        if "Hand 2 ·" in person.output:
            if asked:
                return "quit"
            asked.append(person.output)
            return "score"
        return first(person)

    code, person = play(monkeypatch, capsys, answer, "--seed", "3")
    assert code == 0
    later = person.output[len(asked[0]):]
    assert "Previous hand" in later and "Scoring" in later and "Collected" in later


# -- what the person may see ---------------------------------------------------------------------------


def secret_cards(state: State, seat: int) -> set[str]:
    """Cards ``seat`` must not have seen: the other hands (but marriages shown, the cards he gave, the
    public kitty), and with three players another declarer's discard."""
    obs = state.observation(seat)
    hidden = {c.text for s in range(state.num_players) if s != seat
              for c in state.hand(s)}  # type: ignore[attr-defined]
    hidden -= {c for shown in obs["shown"] for c in shown}
    public = set(obs.get("given") or []) | set(obs.get("kitty") or [])
    hidden -= public
    if state.num_players == 3 and obs["declarer"] not in (None, seat):
        # a kitty card the declarer put back was seen by everyone when the kitty was turned up
        hidden |= set(state.observation(obs["declarer"])["discard"] or []) - public
    return hidden


@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("seed", [1, 2, 5])
def test_the_person_sees_only_what_the_seat_may_know(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     players: int, seed: int) -> None:
    """From seat 1, a few tricks into the first hand: other hands, an exchange between two others and
    another declarer's discard never appear on screen."""
    path = tmp_path / "s.json"
    code, person = play(monkeypatch, capsys, player(bid="p", plays=3), "--seed", str(seed), "--seat", "1",
                        "--players", str(players), "--save", str(path))
    assert code == 0
    state = tt.load(path.read_text())
    assert state.hand_number == 0 and state.observation(1)["phase"] in ("play", "answer")
    shown = set(CARD.findall(person.output.split("Hand 1 ·", 1)[1]))
    secret = secret_cards(state, 1)
    assert secret and shown and not shown & secret, shown & secret
    declarer = state.declarer  # type: ignore[attr-defined]
    if players == 4 and declarer in (0, 2):
        assert "cards, face down" in person.output  # the exchange, seen from the other side
    if players == 3 and declarer != 1:
        assert "discards 3 cards face down" in person.output


def test_an_opponent_sees_the_exchange_face_down() -> None:
    state = tt.new_game("huutopussi").new_hand(deal=DEAL4, dealer=0)
    out, _ = session(state, ["p", "1", "1"], seat=1)
    given, returned = state.history[4].text.split()[1:], state.history[6].text.split()[1:]
    # Seen from seat 1, the declarer (seat 0) is Right and his partner (seat 2) Left.
    assert "Right (seat 0) wins the auction at 50: Right and Left need 50 points" in out
    assert "Left (seat 2) gives Right 3 cards, face down" in out
    assert "Right (seat 0) gives Left back 3 cards, face down; Right leads" in out
    assert "Exchange  Left gave Right 3 cards; Right gave 3 back   (face down)" in out
    table = out.split("Hand 1 ·", 1)[1]
    leaked = (set(given) | set(returned)) - set(state.observation(1)["hand"])
    played = {c for t in state.observation(1)["tricks"] for _, c in t["cards"]}
    played |= {c for _, c in state.observation(1)["trick"]}
    assert not (set(CARD.findall(table)) & (leaked - played))


# -- replay ------------------------------------------------------------------------------------------


@pytest.fixture(params=SIZES)
def two_hands(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
              capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Path:
    """A match of each size played through the CLI until hand 2 starts, saved."""
    path = tmp_path / "two.json"
    code, _ = play(monkeypatch, capsys, player(stop="Hand 2 ·"), "--seed", "9", "--players",
                   str(request.param), "--save", str(path))
    assert code == 0
    return path


def test_replay_shows_the_auction_exchange_and_tricks(two_hands: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay", str(two_hands)]) == 0
    out = capsys.readouterr().out
    record = json.loads(two_hands.read_text())
    actions = record["hands"][0]["actions"]
    assert "Hand 1 result" in out and "Auction: " in out and "won by" in out
    assert "Match not finished" in out
    first_plays = [a.split()[1] for a in actions if a.startswith("play")]
    assert first_plays and all(card in out for card in first_plays)
    if record["options"].get("players") == 3:
        assert "Kitty" in out and "discards" in out
    else:
        assert "South (seat 0)" in out and "N-S" in out
        gives = [a for a in actions if a.startswith("give")]
        assert all(" ".join(g.split()[1:]) in out for g in gives)
    assert cli.main(["replay", str(two_hands), "--hand", "1"]) == 0
    one = capsys.readouterr().out
    assert "Hand 1 result" in one and "Hand 2 ·" not in one


def test_replay_of_a_redeal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                            tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    play(monkeypatch, capsys, script(["redeal", "quit"]), "--seed", "7", "--save", str(path))
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Auction: South redeal" in out and "Redeal  South (seat 0) held three sixes" in out
    assert "hand not finished" in out


# -- simulate, rules ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", SIZES)
def test_simulate_prints_statistics(capsys: pytest.CaptureFixture[str], players: int) -> None:
    assert cli.main(["simulate", "huutopussi", "--hands", "50", "--seed", "2",
                     "--players", str(players)]) == 0
    out = capsys.readouterr().out
    assert "50 single hands" in out and "hands/s" in out
    for word in ("Contracts by size", "Per side", "Marriages per hand", "Läpiajo", "Raised",
                 "need --matches"):
        assert word in out
    played = re.search(r"Hands played (\d+); redeals for three sixes (\d+)", out)
    assert played is not None and int(played.group(1)) + int(played.group(2)) == 50


@pytest.mark.parametrize("players", SIZES)
def test_simulate_matches(capsys: pytest.CaptureFixture[str], players: int) -> None:
    assert cli.main(["simulate", "huutopussi", "--hands", "60", "--seed", "1", "--matches",
                     "--players", str(players)]) == 0
    out = capsys.readouterr().out
    assert "60 hands within matches" in out and "Per side" in out


def test_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", "huutopussi"]) == 0
    out = capsys.readouterr().out
    cls = tt.GAMES["huutopussi"]
    assert "Huutopussi (huutopussi)" in out and "kitty" in out and "500" in out
    for option in cls.OPTIONS:
        assert option.name in out
    for preset, values in cls.PRESETS.items():
        assert preset in out
        for key, value in values.items():
            assert f"{key}={json.dumps(value)}" in out
