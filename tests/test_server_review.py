"""The server's hand reviews and practice hints (server/review.py, docs/server.md "Analysis and hints")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Running, running

import tricktaker.bots as bots_module
from tricktaker.server.review import HINT_BOT, review_hand


@pytest.fixture
def server(tmp_path: Path) -> Any:
    with running(str(tmp_path / "t.db"), bot_time=0.5) as srv:
        yield srv


def _play_first_hand(srv: Running, ws: Any) -> dict[str, Any]:
    """Play seat 0's first legal action until hand 1 is over; the first state of hand 2."""
    while True:
        message: dict[str, Any] = ws.until("state")
        if message["observation"]["hand_number"] >= 1 or message["over"]:
            return message
        if message["legal"]:
            ws.send({"type": "act", "action": message["legal"][0], "seq": message["seq"]})


def test_each_finished_hand_gets_a_review_of_what_each_card_cost(server: Running) -> None:
    table = server.create("tute", ["human", "random", "random", "random"])
    ws = server.ws(table["id"])
    ws.join(table["seats"][0]["token"])
    watcher = server.ws(table["id"])
    watcher.join()  # a spectator: the review is public, so it gets the same one
    _play_first_hand(server, ws)
    review = ws.until("review", timeout=60, hand=1)
    assert watcher.until("review", timeout=60, hand=1) == review
    assert review["units"] == "points" and review["finished"] and review["par"] is None  # Tute: no bidding
    decisions = review["decisions"]
    # the table's deal is random, and so is how many plays had a choice; but every lead before
    # the hand's last trick is one (a leader with two cards or more may lead any of them): nine
    # in a whole hand, fewer when a tute sung ends the hand early
    record = server.app.state.tables.tables[table["id"]].state.to_json()
    plays = [a for a in json.loads(record)["hands"][0]["actions"] if a.startswith("play")]
    assert len(decisions) >= len(plays) // 4 - 1 and len(plays) // 4 >= 1
    assert all("values" not in d for d in decisions)  # the message keeps to costs and best cards
    # the server's analysis is tricktaker.analysis on the true deal, where its solves finished
    expected = review_hand(record, 0, solve_time=10.0)["decisions"]
    assert [(d["seat"], d["action"]) for d in decisions] == [(d["seat"], d["action"]) for d in expected]
    analysed = [(d, e) for d, e in zip(decisions, expected, strict=True) if d["status"] == "analysed"]
    assert analysed
    for got, want in analysed:
        assert got["cost"] == want["cost"] and got["best"] == want["best"]
    totals = [0, 0, 0, 0]
    for d, _ in analysed:
        totals[d["seat"]] += d["cost"]
    assert review["totals"] == totals
    # a page that joins later gets the reviews done so far
    late = server.ws(table["id"])
    late.join()
    assert late.until("review", hand=1) == review


def test_a_hand_ended_with_cards_unseen_is_reviewed_without_them(server: Running) -> None:
    """The no-leak rule on the wire: a hidden position carries no cost, no best card, no values."""
    table = server.create("tute", ["human", "random", "random", "random"])
    ws = server.ws(table["id"])
    ws.join(table["seats"][0]["token"])
    _play_first_hand(server, ws)
    review = ws.until("review", timeout=60, hand=1)
    record = server.app.state.tables.tables[table["id"]].state.to_json()
    from tricktaker.analysis import analyse_hand

    full = analyse_hand(record, 0, time_limit=None, par=False)
    public = {d.number for d in full.decisions if d.public}
    for d in review["decisions"]:
        if d["number"] in public:
            assert d["status"] in ("analysed", "timeout")
        else:
            assert d["status"] == "hidden" and set(d) == {"number", "trick", "seat", "action", "status"}


def test_a_practice_table_gives_the_seat_to_move_a_hint_from_its_own_view(
        server: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    real_view_of = bots_module.view_of

    def watched(state: Any, seat: int) -> Any:
        seen.append(seat)
        return real_view_of(state, seat)

    monkeypatch.setattr(bots_module, "view_of", watched)
    table = server.create("tuppi", ["human", "random", "random", "random"], practice=True)
    assert server.http.get(f"/api/tables/{table['id']}").json()["practice"] is True
    ws = server.ws(table["id"])
    ws.join(table["seats"][0]["token"])
    state = ws.until("state")
    while not state["legal"]:
        state = ws.until("state")
    seen.clear()  # the bots wait for seat 0 now: whatever looks at a view from here is the hint
    ws.send({"type": "hint"})
    hint = ws.until("hint", timeout=60)
    assert hint["bot"] == HINT_BOT and hint["seq"] == state["seq"]
    assert hint["action"] in state["legal"]
    assert seen and set(seen) == {0}  # the bot saw seat 0's view, and only that
    # not on another seat's turn (seat 1, a person who never came, is to bid first), nor for a spectator
    waiting = server.create("tuppi", ["human", "human", "random", "random"], practice=True)
    ws = server.ws(waiting["id"])
    ws.join(waiting["seats"][0]["token"])
    assert ws.until("state")["observation"]["current_player"] == 1
    ws.send({"type": "hint"})
    assert ws.until("error")["code"] == "not_your_turn"
    spectator = server.ws(table["id"])
    spectator.join()
    spectator.send({"type": "hint"})
    assert spectator.until("error")["code"] == "not_your_turn"


def test_no_hint_at_a_table_that_is_not_for_practice(server: Running) -> None:
    table = server.create("tuppi", ["human", "random", "random", "random"])
    assert server.http.get(f"/api/tables/{table['id']}").json()["practice"] is False
    ws = server.ws(table["id"])
    ws.join(table["seats"][0]["token"])
    ws.send({"type": "hint"})
    error = ws.until("error")
    assert error["code"] == "not_practice" and "practice tables" in error["message"]


def test_practice_must_be_true_or_false(server: Running) -> None:
    response = server.http.post("/api/tables", json={
        "game": "tuppi", "practice": "yes",
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3})
    assert response.status_code == 400 and "practice must be true or false" in response.json()["error"]


def test_practice_and_the_reviews_survive_a_restart(tmp_path: Path) -> None:
    """The practice choice is stored with the table; the reviews a restart forgot are made again
    when someone joins, and match the ones sent before."""
    db = str(tmp_path / "t.db")
    with running(db, bot_time=0.5) as srv:
        table = srv.create("tute", ["human", "random", "random", "random"], practice=True)
        ws = srv.ws(table["id"])
        ws.join(table["seats"][0]["token"])
        _play_first_hand(srv, ws)
        before = ws.until("review", timeout=60, hand=1)
    with running(db, bot_time=0.5) as srv:
        assert srv.http.get(f"/api/tables/{table['id']}").json()["practice"] is True
        ws = srv.ws(table["id"])
        ws.join(table["seats"][0]["token"])
        after = ws.until("review", timeout=60, hand=1)
        both = before["decisions"] + after["decisions"]
        timed_out = {d["number"] for d in both if d["status"] == "timeout"}
        same = [(b, a) for b, a in zip(before["decisions"], after["decisions"], strict=True)
                if b["number"] not in timed_out]
        assert same and all(b == a for b, a in same)
        state = [m for m in map(json.loads, ws.frames) if m["type"] == "state"][-1]  # came before the review
        while not state["legal"]:
            state = ws.until("state")
        ws.send({"type": "hint"})
        assert ws.until("hint", timeout=60)["action"] in state["legal"]
