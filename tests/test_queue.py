"""Play now (docs/server.md): queues that seat waiting people together, or with bots after
the wait they chose.  Over real WebSockets to a server on a loopback port."""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Running, Socket, running

import tricktaker as tt
from tricktaker.server.queue import QUEUE_TURN_TIME, seat_order


def browser_id() -> str:
    return secrets.token_urlsafe(12)


def join(server: Running, game: str, players: int | None = None, preset: str | None = None,
         wait: float = 120, browser: str | None = None) -> tuple[Socket, dict[str, Any]]:
    """A person joins a queue: their socket and the first answer (``queued``, ``seated`` or an error)."""
    ws = server.ws("queue")
    ws.send({"type": "join", "game": game, "players": players, "preset": preset, "wait": wait,
             "browser": browser or browser_id()})
    return ws, ws.recv()


def seated(ws: Socket, timeout: float = 20) -> dict[str, Any]:
    return ws.until("seated", timeout=timeout)


def sit(server: Running, message: dict[str, Any]) -> dict[str, Any]:
    """Open the seat a ``seated`` message hands over; the table's welcome."""
    table = server.ws(message["id"])
    welcome = table.join(message["token"])
    assert welcome["seat"] == message["seat"]
    return welcome


def test_two_people_of_a_two_player_game_are_seated_together(server: Running) -> None:
    first, queued = join(server, "bondtolva", 2)
    assert queued == {"type": "queued", "game": "bondtolva", "players": 2, "preset": None,
                      "waiting": 1, "bots_in": pytest.approx(120, abs=1), "wait": 120}
    assert server.http.get("/api/queues").json()["queues"] == [
        {"game": "bondtolva", "players": 2, "preset": None, "waiting": 1}]
    second, answer = join(server, "bondtolva", 2)
    assert answer["type"] == "seated"
    mine = seated(first)
    assert mine["id"] == answer["id"] and {mine["seat"], answer["seat"]} == {0, 1}
    assert mine["token"] != answer["token"]
    assert [s["kind"] for s in mine["seats"]] == ["human", "human"]
    welcome = sit(server, mine)
    sit(server, answer)
    table = welcome["table"]
    assert table["game"] == "bondtolva" and table["players"] == 2
    assert table["turn_time"] == QUEUE_TURN_TIME
    # the table is stored as any other: the lobby lists it, and the queue is empty again
    listed = server.http.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [mine["id"]]
    assert server.http.get("/api/queues").json()["queues"] == []


def test_a_lone_person_gets_bots_after_the_wait_they_chose(server: Running) -> None:
    start = time.monotonic()
    ws, queued = join(server, "tute", 2, "habanero", wait=1)
    assert queued["type"] == "queued" and queued["bots_in"] == pytest.approx(1, abs=0.2)
    message = seated(ws)
    assert time.monotonic() - start >= 0.9
    people = [s for s in message["seats"] if s["kind"] == "human"]
    bots = [s for s in message["seats"] if s["kind"] == "bot"]
    assert [s["seat"] for s in people] == [message["seat"]] and [b["bot"] for b in bots] == ["rules"]
    table = sit(server, message)["table"]
    assert (table["game"], table["preset"], table["players"]) == ("tute", "habanero", 2)
    # a wait of 0 s: bots at once
    ws, answer = join(server, "tute", 2, "habanero", wait=0)
    assert answer["type"] == "queued" and answer["bots_in"] == 0
    assert seated(ws, timeout=5)["id"] != message["id"]


def test_the_first_wait_to_run_out_seats_everyone_waiting(server: Running) -> None:
    patient, _ = join(server, "tuppi", wait=120)
    hasty, queued = join(server, "tuppi", wait=1)
    assert queued["waiting"] == 2 and queued["bots_in"] == pytest.approx(1, abs=0.2)
    one, two = seated(patient), seated(hasty)
    assert one["id"] == two["id"]
    # partnership game: the two people are opponents, each with a bot partner
    game = tt.new_game("tuppi")
    assert game.side_of(one["seat"]) != game.side_of(two["seat"])
    assert [s["kind"] for s in one["seats"]].count("bot") == 2


def test_four_people_of_a_four_player_game_sit_at_one_table(server: Running) -> None:
    joined = [join(server, "huutopussi", 4, "four") for _ in range(4)]
    assert [first["waiting"] for _, first in joined[:3]] == [1, 2, 3]
    assert joined[3][1]["type"] == "seated"  # the fourth completes the table at once
    answers = [seated(ws) for ws, _ in joined[:3]] + [joined[3][1]]
    assert len({a["id"] for a in answers}) == 1
    assert sorted(a["seat"] for a in answers) == [0, 1, 2, 3]
    assert all(s["kind"] == "human" for s in answers[0]["seats"])
    for answer in answers:
        sit(server, answer)
    # a fifth waits alone in a fresh queue; a three-player table of the same game is another queue
    fifth, queued = join(server, "huutopussi", 4, "four")
    assert queued["waiting"] == 1
    third, other = join(server, "huutopussi", 3)
    assert other["waiting"] == 1 and other["players"] == 3


def test_people_are_spread_over_the_sides_of_a_partnership_game() -> None:
    for name in tt.GAMES:
        game = tt.new_game(name)
        order = seat_order(game)
        assert sorted(order) == list(range(game.num_players))
        if game.partnerships:
            assert [game.side_of(seat) for seat in order] == [0, 1, 0, 1]


def test_a_person_who_leaves_or_closes_the_page_leaves_the_queue(server: Running) -> None:
    leaver, _ = join(server, "bondtolva", 2)
    leaver.send({"type": "leave"})
    assert leaver.until("left")
    closer, _ = join(server, "bondtolva", 2)
    closer.close()
    deadline = time.monotonic() + 5
    while server.http.get("/api/queues").json()["queues"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.http.get("/api/queues").json()["queues"] == []
    # the next person waits alone: nobody was seated with someone gone
    last, queued = join(server, "bondtolva", 2)
    assert queued["waiting"] == 1
    # who left may join again (from the same browser)
    browser = browser_id()
    again, first = join(server, "tute", 2, browser=browser)
    again.send({"type": "leave"})
    again.until("left")
    again.send({"type": "join", "game": "tute", "players": 2, "wait": 60, "browser": browser})
    assert again.until("queued")["waiting"] == 1


@pytest.mark.parametrize(("join_message", "code", "needle"), [
    ({"game": "whist"}, "bad_request", "unknown game"),
    ({"game": "tute", "preset": "pub"}, "bad_request", "unknown preset"),
    ({"game": "tute", "preset": "habanero", "players": 4}, "bad_request", "habanero"),
    ({"game": "tuppi", "players": 3}, "bad_request", "played by 4"),
    ({"game": "tute", "players": 5}, "bad_request", "players"),
    ({"game": "tute", "players": "2"}, "malformed", "players"),
    ({"game": "tute", "wait": -1}, "bad_request", "wait"),
    ({"game": "tute", "wait": 3600}, "bad_request", "wait"),
    ({"game": "tute", "wait": "soon"}, "bad_request", "wait"),
    ({"game": "tute", "browser": "x"}, "malformed", "browser"),
    ({"game": "tute", "browser": None}, "malformed", "browser"),
    ({"game": 7}, "malformed", "game"),
])
def test_a_bad_join_is_refused_with_its_reason(server: Running, join_message: dict[str, Any],
                                              code: str, needle: str) -> None:
    ws = server.ws("queue")
    ws.send({"type": "join", "wait": 30, "browser": browser_id()} | join_message)
    answer = ws.recv()
    assert answer["type"] == "error" and answer["code"] == code and needle in answer["message"]
    assert server.http.get("/api/queues").json()["queues"] == []


def test_a_second_join_from_the_same_browser_or_socket_is_refused(server: Running) -> None:
    browser = browser_id()
    first, _ = join(server, "tuppi", browser=browser)
    second, answer = join(server, "bondtolva", 2, browser=browser)  # another tab, another queue
    assert answer["type"] == "error" and answer["code"] == "already_queued"
    first.send({"type": "join", "game": "tuppi", "wait": 30, "browser": browser_id()})
    assert first.until("error")["code"] == "malformed"
    first.send({"type": "sit"})
    assert "unknown message type" in first.until("error")["message"]
    first.send("[" * 2000)
    assert first.until("error")["code"] == "malformed"
    assert server.http.get("/api/queues").json()["queues"] == [
        {"game": "tuppi", "players": 4, "preset": None, "waiting": 1}]


def test_the_queues_are_bounded(server: Running) -> None:
    """At most :data:`PER_ADDRESS` places from one address, and a queue never holds a table's
    worth of people: the queues cannot grow without end."""
    queues = server.app.state.queues
    queues.per_address = 2
    join(server, "tuppi")
    join(server, "bondtolva", 2)
    _, full = join(server, "tuppi")
    assert full["type"] == "error" and full["code"] == "queue_full"
    assert sum(q["waiting"] for q in server.http.get("/api/queues").json()["queues"]) == 2
    # each queue holds fewer people than its table seats: the next one makes a table
    queues.per_address = 100
    for _ in range(7):
        join(server, "bondtolva", 2)
        assert all(q["waiting"] < q["players"] for q in server.http.get("/api/queues").json()["queues"])


def test_joins_are_rate_limited_with_new_tables(tmp_path: Path) -> None:
    with running(str(tmp_path / "t.db"), tables_per_minute=2) as server:
        _, first = join(server, "tuppi")
        leaver, second = join(server, "tuppi")
        assert first["type"] == second["type"] == "queued"
        _, limited = join(server, "tuppi")
        assert limited["type"] == "error" and limited["code"] == "rate_limited"
        # a table request and a join take from the same bucket of the address
        assert server.http.post("/api/tables", json={}).status_code == 429


def test_a_queue_table_is_stored_and_resumes_after_a_restart_while_the_queue_does_not(
        tmp_path: Path) -> None:
    """The tables a queue makes are stored as any other; the queues themselves are memory."""
    db = str(tmp_path / "t.db")
    with running(db) as server:
        first, _ = join(server, "bondtolva", 2)
        _, answer = join(server, "bondtolva", 2)
        mine = seated(first)
        table = server.ws(mine["id"])
        table.join(mine["token"])
        state = table.until("state")
        join(server, "tuppi")  # still waiting when the server stops
    with running(db) as server:
        assert server.http.get("/api/queues").json()["queues"] == []
        again = server.ws(answer["id"])
        welcome = again.join(answer["token"])
        assert welcome["seat"] == answer["seat"] and welcome["table"]["turn_time"] == QUEUE_TURN_TIME
        assert again.until("state")["seq"] == state["seq"]


def test_a_signed_in_person_takes_their_player_into_the_seat_and_waits_once(server: Running) -> None:
    """The queue carries each person's player into their seat, so the match can be rated;
    one player waits in one queue at a time (else they could be seated against themselves)."""
    aino, pablo = (server.http.post("/api/players", json={"nickname": name}).json()
                   for name in ("Aino", "Pablo"))
    first = server.ws("queue")
    first.send({"type": "join", "game": "bondtolva", "players": 2, "wait": 60, "browser": browser_id(),
                "secret": aino["secret"]})
    assert first.recv()["type"] == "queued"
    twin = server.ws("queue")  # Aino from another browser
    twin.send({"type": "join", "game": "bondtolva", "players": 2, "wait": 60, "browser": browser_id(),
               "secret": aino["secret"]})
    refused = twin.recv()
    assert refused["code"] == "already_queued" and "player" in refused["message"]
    second = server.ws("queue")
    second.send({"type": "join", "game": "bondtolva", "players": 2, "wait": 60, "browser": browser_id(),
                 "secret": pablo["secret"]})
    answer = second.until("seated")
    mine = seated(first)
    by_seat = {mine["seat"]: aino, answer["seat"]: pablo}
    info = server.http.get(f"/api/tables/{mine['id']}").json()
    assert [(s["player"], s["nickname"]) for s in info["seats"]] == [
        (by_seat[seat]["id"], by_seat[seat]["nickname"]) for seat in (0, 1)]
    assert [s["nickname"] for s in answer["seats"]] == [by_seat[0]["nickname"], by_seat[1]["nickname"]]
    profile = server.http.get(f"/api/players/{aino['id']}").json()
    assert [m["table"] for m in profile["matches"]] == [mine["id"]]
    # a guest (and a secret nobody has) waits and plays without a player
    guest = server.ws("queue")
    guest.send({"type": "join", "game": "tute", "players": 2, "wait": 0, "browser": browser_id(),
                "secret": "nobody-has-this-secret"})
    alone = guest.until("seated")
    info = server.http.get(f"/api/tables/{alone['id']}").json()
    assert [s["player"] for s in info["seats"]] == [None, None]


def test_people_joining_at_once_are_each_seated_once_at_full_tables(server: Running) -> None:
    """Twelve people join a two-player queue at the same moment: six tables of two people,
    every person seated exactly once, nobody left waiting."""
    from concurrent.futures import ThreadPoolExecutor

    def person(_: int) -> dict[str, Any]:
        ws, first = join(server, "tute", 2, "habanero")
        return first if first["type"] == "seated" else seated(ws)

    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(person, range(12)))
    tables: dict[str, list[int]] = {}
    for answer in answers:
        tables.setdefault(answer["id"], []).append(answer["seat"])
    assert len(tables) == 6 and all(sorted(seats) == [0, 1] for seats in tables.values())
    assert len({answer["token"] for answer in answers}) == 12
    assert server.http.get("/api/queues").json()["queues"] == []
