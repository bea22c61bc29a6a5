"""Duplicate tournaments against bots (issue 23): the same boards for every entrant, compared.

Against a real server on a loopback port (tests/server_helpers.py), as browsers use it.
"""

from __future__ import annotations

import datetime
import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Running, play_to_end, running

import tricktaker as tt
from tricktaker.server.duplicate import daily_set, imp, matchpoints, net_score, standings

Choose = Callable[[list[str]], str]


def first(legal: list[str]) -> str:
    return legal[0]


def last(legal: list[str]) -> str:
    return legal[-1]


def new_set(srv: Running, **request: Any) -> dict[str, Any]:
    answer = srv.http.post("/api/duplicate/sets", json={"game": "bondtolva", "boards": 2, **request})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def enter(srv: Running, set_id: str, nickname: str) -> dict[str, Any]:
    answer = srv.http.post(f"/api/duplicate/sets/{set_id}/entries", json={"nickname": nickname})
    assert answer.status_code == 201, answer.text
    entry: dict[str, Any] = answer.json()
    return entry


def next_board(srv: Running, entry: dict[str, Any]) -> dict[str, Any]:
    answer = srv.http.post(f"/api/duplicate/entries/{entry['entry']}/next", json={"token": entry["token"]})
    assert answer.status_code == 200, answer.text
    board: dict[str, Any] = answer.json()
    return board


def play_board(srv: Running, entry: dict[str, Any],
               choose: Choose = first) -> tuple[dict[str, Any], tt.State]:
    """Play the entrant's next board to its end with ``choose``; the board and its record."""
    board = next_board(srv, entry)
    ws = srv.ws(board["table"])
    welcome = ws.join(entry["token"])
    assert welcome["table"]["single_hand"] and welcome["table"]["home"].startswith("/duplicate/")
    play_to_end(ws, choose)
    ws.close()
    record = srv.http.get(f"/api/tables/{board['table']}/record")
    assert record.status_code == 200
    return board, tt.load(record.text)


def results(srv: Running, set_id: str, entry: dict[str, Any] | None = None) -> dict[str, Any]:
    if entry is None:
        answer = srv.http.get(f"/api/duplicate/sets/{set_id}")
    else:
        answer = srv.http.get(f"/api/duplicate/sets/{set_id}", params={"entry": entry["entry"]},
                              headers={"X-Entry-Token": entry["token"]})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_matchpoints_and_imps_of_three_entrants_computed_by_hand() -> None:
    """Board 0: Aino 10, Bo 4, Cid 4.  Board 1: Aino -2, Bo 6, Cid 0.  Matchpoints are 2 for
    each entrant beaten and 1 for each tie, of a top of 2 x 2 = 4."""
    assert matchpoints({"a": 10, "b": 4, "c": 4}) == {"a": (4, 100.0), "b": (1, 25.0), "c": (1, 25.0)}
    assert matchpoints({"a": -2, "b": 6, "c": 0}) == {"a": (0, 0.0), "b": (4, 100.0), "c": (2, 50.0)}
    assert matchpoints({"a": 3}) == {"a": (0, 50.0)}  # alone: neither beaten nor beating
    # IMP-like, Tuppi's unit of 4: round(5 ln(1 + d/4)); 8 -> 5.49 -> 5, 4 -> 3.47 -> 3
    assert (imp(8, 4), imp(-8, 4), imp(4, 4), imp(0, 4), imp(10_000, 4)) == (5, -5, 3, 0, 24)
    names = {"a": "Aino", "b": "Bo", "c": "Cid"}
    boards, overall = standings(2, [{"a": 10, "b": 4, "c": 4}, {"a": -2, "b": 6, "c": 0}], 4, names)
    assert [r["nickname"] for r in boards[0]["rows"]] == ["Aino", "Bo", "Cid"]
    assert [r["nickname"] for r in boards[1]["rows"]] == ["Bo", "Cid", "Aino"]
    # overall: the mean of each board's percentage
    assert [(r["nickname"], r["percent"], r["matchpoints"], r["top"]) for r in overall] == [
        ("Bo", 62.5, 5, 8), ("Aino", 50.0, 4, 8), ("Cid", 37.5, 3, 8)]
    # Aino's IMPs: board 0 mean(imp(6), imp(6)) = 5 (5 ln 2.5 = 4.58); board 1 mean(imp(-8), imp(-2)) =
    # mean(-5, -2) = -3.5 (5 ln 1.5 = 2.03)
    assert next(r for r in overall if r["nickname"] == "Aino")["imps"] == 1.5
    # one who has not finished every board comes after those who have, whatever the percentage
    _, partial = standings(2, [{"a": 10, "b": 4}, {"b": 6}], 4, {"a": "Aino", "b": "Bo"})
    assert [(r["nickname"], r["complete"]) for r in partial] == [("Bo", True), ("Aino", False)]


def test_matchpoints_and_imps_by_distinct_score_agree_with_every_pair_compared() -> None:
    """The results are counted per distinct score (1,000 entrants x 6 boards: 0.08 s, against
    4-5 s pair by pair, which held up the server's event loop); the same numbers as comparing
    every pair of entrants, on random boards with many ties."""
    import random

    from tricktaker.server.duplicate import cross_imps

    rng = random.Random(23)
    for _ in range(50):
        scores = {f"e{i}": float(rng.choice([-24, -8, 0, 4, 8, 24])) for i in range(rng.randint(1, 30))}
        pairs = {who: [(mine, theirs) for other, theirs in scores.items() if other != who]
                 for who, mine in scores.items()}
        top = 2 * (len(scores) - 1)
        by_pairs = {who: sum(2 if a > b else 1 if a == b else 0 for a, b in p) for who, p in pairs.items()}
        expected = {who: (mp, 100.0 * mp / top if top else 50.0) for who, mp in by_pairs.items()}
        assert matchpoints(scores) == expected
        imps = cross_imps(scores, 4)
        for who, p in pairs.items():
            assert imps[who] == pytest.approx(sum(imp(a - b, 4) for a, b in p) / len(p) if p else 0.0)


def test_net_score_is_the_sides_points_minus_the_others() -> None:
    game = tt.new_game("bondtolva")
    state = game.new_hand(seed=5, dealer=1)
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    points = list(state.hand_points)  # type: ignore[attr-defined]
    assert net_score(state, 0) == (points[0] - points[1], points)
    assert net_score(state, 1) == (points[1] - points[0], points)


def test_the_same_board_gives_the_same_deal_and_bot_play_and_ranks_every_entrant(tmp_path: Path) -> None:
    """Two entrants who play the same cards on a board get the same deal and the same bot play:
    the deal comes from the board's seed, the bots' decisions from the board's seed, seat and
    action number.  A third plays otherwise; the results rank the three by hand-computed
    matchpoints.  The board's deal and results are shown only to those who finished it."""
    with running(str(tmp_path / "d.db")) as srv:
        made = new_set(srv, game="tuppi", boards=2, seat=1, bot="rules")
        assert made["players"] == 4 and made["boards"] == 2 and "seed" not in json.dumps(made)
        ana, ben, cai = (enter(srv, made["id"], name) for name in ("Ana", "Ben", "Cai"))
        board_a, record_a = play_board(srv, ana, first)
        board_b, record_b = play_board(srv, ben, first)
        board_c, record_c = play_board(srv, cai, last)
        assert board_a["board"] == board_b["board"] == board_c["board"] == 0
        assert board_a["table"] != board_b["table"]
        hand_a, hand_b, hand_c = (json.loads(r.to_json())["hands"][0] for r in (record_a, record_b, record_c))
        assert hand_a["deal"] == hand_b["deal"] == hand_c["deal"]
        assert hand_a["dealer"] == hand_b["dealer"] == 0
        assert hand_a["actions"] == hand_b["actions"]  # the same cards, the same bot play
        assert hand_a["actions"] != hand_c["actions"]
        scores = {name: net_score(record, 1)[0] for name, record in
                  (("Ana", record_a), ("Ben", record_b), ("Cai", record_c))}
        assert scores["Ana"] == scores["Ben"]
        expected = {name: 2 * sum(mine > theirs for other, theirs in scores.items() if other != name)
                    + sum(mine == theirs for other, theirs in scores.items() if other != name)
                    for name, mine in scores.items()}
        seen = results(srv, made["id"], ana)
        board0 = seen["boards"][0]
        assert board0["deal"] == hand_a["deal"] and board0["entrants"] == 3
        assert {r["nickname"]: r["matchpoints"] for r in board0["rows"]} == expected
        assert {r["nickname"]: r["score"] for r in board0["rows"]} == scores
        assert {r["nickname"]: r["table"] for r in board0["rows"]}["Cai"] == board_c["table"]
        assert seen["you"] == {"entry": ana["entry"], "nickname": "Ana", "finished": 1}
        assert "deal" not in seen["boards"][1] and "rows" not in seen["boards"][1]
        # the next board is another deal, dealt by the next seat
        board_a2, record_a2 = play_board(srv, ana, first)
        hand_a2 = json.loads(record_a2.to_json())["hands"][0]
        assert board_a2["board"] == 1 and hand_a2["dealer"] == 1 and hand_a2["deal"] != hand_a["deal"]
        assert next_board(srv, ana) == {"done": True, "boards": 2}
        # hidden information: nobody else is shown a board they have not finished
        public = results(srv, made["id"])
        assert public["you"] is None and all("deal" not in b and "rows" not in b for b in public["boards"])
        assert [r["nickname"] for r in public["standings"]][0] == "Ana"  # the only one with both boards
        assert "deal" not in results(srv, made["id"], ben)["boards"][1]
        dan = enter(srv, made["id"], "Dan")
        text = json.dumps(results(srv, made["id"], dan))
        assert all(pile not in text for pile in hand_a["deal"]) and '"deal"' not in text
        # board tables are not in the lobby's list (watching one would show it)
        started = next_board(srv, dan)
        assert started["table"] not in [t["id"] for t in srv.http.get("/api/tables").json()["tables"]]


def test_refusals_name_the_problem_and_change_nothing(tmp_path: Path) -> None:
    with running(str(tmp_path / "d.db")) as srv:
        post = srv.http.post
        for request, code in [({"game": "chess"}, "bad_request"),
                              ({"game": "tuppi", "boards": 0}, "bad_request"),
                              ({"game": "tuppi", "boards": 25}, "bad_request"),
                              ({"game": "tuppi", "seat": 4}, "bad_request"),
                              ({"game": "tuppi", "bot": "pimc"}, "bad_request"),
                              ({"game": "tuppi", "players": 3}, "bad_request"),
                              ({"game": "tuppi", "colour": "red"}, "malformed"), ([1], "malformed")]:
            answer = post("/api/duplicate/sets", json=request)
            assert (answer.status_code, answer.json()["code"]) == (400, code), request
        assert post("/api/duplicate/sets", content=b"{nope").json()["code"] == "malformed"
        assert srv.http.get("/api/duplicate").json()["sets"] == []
        made = new_set(srv)
        ana = enter(srv, made["id"], "Ana")
        again = post(f"/api/duplicate/sets/{made['id']}/entries", json={"nickname": " ana "})
        assert (again.status_code, again.json()["code"]) == (409, "entered")
        blank = post(f"/api/duplicate/sets/{made['id']}/entries", json={"nickname": "  "})
        assert (blank.status_code, blank.json()["code"]) == (400, "bad_request")
        missing = post("/api/duplicate/sets/nothing/entries", json={"nickname": "Ana"})
        assert (missing.status_code, missing.json()["code"]) == (404, "no_set")
        stolen = post(f"/api/duplicate/entries/{ana['entry']}/next", json={"token": "guess"})
        assert (stolen.status_code, stolen.json()["code"]) == (403, "bad_token")
        peek = srv.http.get(f"/api/duplicate/sets/{made['id']}", params={"entry": ana["entry"]},
                            headers={"X-Entry-Token": "guess"})
        assert peek.status_code == 403
        assert srv.http.get("/duplicate/nothing").status_code == 404
        assert srv.http.get(f"/duplicate/{made['id']}").status_code == 200
        # tomorrow's daily set is nobody's to practise on
        tomorrow = datetime.datetime.now(datetime.timezone.utc).date() + datetime.timedelta(days=1)
        assert srv.http.get(f"/api/duplicate/sets/daily-{tomorrow}-tuppi").status_code == 404
        # a board's table leads back to its set: no Play again
        board = next_board(srv, ana)
        ws = srv.ws(board["table"])
        ws.join(ana["token"])
        play_to_end(ws)
        ws.send({"type": "rematch"})
        assert ws.until("error")["code"] == "bad_request"


def test_the_daily_set_is_made_from_the_date_alone(tmp_path: Path) -> None:
    day = datetime.date(2026, 11, 26)
    assert daily_set(day, "tuppi") == daily_set(day, "tuppi")
    assert daily_set(day, "tuppi").boards != daily_set(day + datetime.timedelta(days=1), "tuppi").boards
    assert daily_set(day, "tuppi").boards != daily_set(day, "tute").boards
    assert [dealer for _, dealer in daily_set(day, "tuppi").boards] == [0, 1, 2, 3, 0, 1]
    today = datetime.datetime.now(datetime.timezone.utc).date()
    deals = []
    for name in ("one.db", "two.db"):  # two servers, two databases: the same boards
        with running(str(tmp_path / name)) as srv:
            overview = srv.http.get("/api/duplicate").json()
            assert overview["today"] == today.isoformat()
            assert {s["game"] for s in overview["daily"]} == set(tt.GAMES)
            daily = next(s for s in overview["daily"] if s["game"] == "bondtolva")
            assert daily["id"] == f"daily-{today}-bondtolva" and daily["boards"] == 6
            entry = enter(srv, daily["id"], "Ana")
            _, record = play_board(srv, entry)
            deals.append(json.loads(record.to_json())["hands"][0]["deal"])
    seed, dealer = daily_set(today, "bondtolva").boards[0]
    expected = json.loads(tt.new_game("bondtolva").new_hand(seed=seed, dealer=dealer).to_json())
    assert deals[0] == deals[1] == expected["hands"][0]["deal"]


def test_sets_entries_and_boards_survive_a_restart(tmp_path: Path) -> None:
    """A board half played when the server stops resumes after the restart, and its score is
    recorded when it ends; a board that ended as the server went down is scored at the start."""
    db = str(tmp_path / "d.db")
    with running(db) as srv:
        made = new_set(srv)
        ana, ben = enter(srv, made["id"], "Ana"), enter(srv, made["id"], "Ben")
        play_board(srv, ben)
        board = next_board(srv, ana)
        ws = srv.ws(board["table"])
        ws.join(ana["token"])
        state = ws.until("state")
        while not state["legal"]:
            state = ws.until("state")
        ws.send({"type": "act", "action": state["legal"][0], "seq": state["seq"]})
        ws.until("state", seq=state["seq"] + 1)
    with sqlite3.connect(db) as conn:  # as if the server died before Ben's score was written
        conn.execute("UPDATE tt_dup_boards SET score = NULL WHERE entry_id = ?", (ben["entry"],))
    with running(db) as srv:
        assert next_board(srv, ana) == board  # the same table, resumed
        seen = results(srv, made["id"], ben)
        assert seen["you"]["finished"] == 1 and seen["boards"][0]["rows"][0]["nickname"] == "Ben"
        ws = srv.ws(board["table"])
        ws.join(ana["token"])
        assert play_to_end(ws)["over"]
        ws.close()
        seen = results(srv, made["id"], ana)
        assert seen["you"]["finished"] == 1 and seen["boards"][0]["entrants"] == 2
        assert next_board(srv, ana)["board"] == 1


@pytest.mark.skipif(not os.environ.get("TRICKTAKER_TEST_POSTGRES"),
                    reason="set TRICKTAKER_TEST_POSTGRES to a PostgreSQL URL (.ci/run does)")
def test_a_duplicate_set_on_postgresql() -> None:
    url = os.environ["TRICKTAKER_TEST_POSTGRES"]
    with running(url) as srv:
        made = new_set(srv, boards=1)
        ana, ben = enter(srv, made["id"], "Ana"), enter(srv, made["id"], "Ben")
        play_board(srv, ana)
    with running(url) as srv:  # and after a restart
        play_board(srv, ben)
        seen = results(srv, made["id"], ana)
        assert seen["boards"][0]["entrants"] == 2 and len(seen["standings"]) == 2
        assert all(r["complete"] for r in seen["standings"])


def test_a_player_with_an_identity_enters_a_set_once_under_their_nickname(tmp_path: Path) -> None:
    """A signed-in player (``X-Player-Secret``) enters as themselves: their nickname, one entry
    per player per set whatever nickname the request names, and the board in their matches."""
    with running(str(tmp_path / "p.db")) as srv:
        made = srv.http.post("/api/players", json={"nickname": "Aino"})
        assert made.status_code == 201, made.text
        player = made.json()
        header = {"X-Player-Secret": player["secret"]}
        tournament = new_set(srv, boards=1)
        path = f"/api/duplicate/sets/{tournament['id']}/entries"
        entry = srv.http.post(path, json={"nickname": "Someone"}, headers=header)
        assert entry.status_code == 201 and entry.json()["nickname"] == "Aino"
        stranger = srv.http.post(path, json={"nickname": "Bo"}, headers={"X-Player-Secret": "nobody"})
        assert (stranger.status_code, stranger.json()["code"]) == (401, "unknown_player")
        board, _ = play_board(srv, entry.json())
        matches = srv.http.get(f"/api/players/{player['id']}").json()["matches"]
        assert [m["table"] for m in matches] == [board["table"]]
        assert matches[0].get("rating_after") is None  # one hand against bots is not a rated match
        # on another device the player gets their entry back, with a new token for their boards
        again = srv.http.post(path, json={"nickname": "Other"}, headers=header)
        assert again.status_code == 201
        renewed = again.json()
        assert renewed["entry"] == entry.json()["entry"] and renewed["nickname"] == "Aino"
        assert renewed["resumed"] and renewed["token"] != entry.json()["token"]
        assert results(srv, tournament["id"], renewed)["you"]["finished"] == 1
        old = srv.http.get(f"/api/duplicate/sets/{tournament['id']}", params={"entry": renewed["entry"]},
                           headers={"X-Entry-Token": entry.json()["token"]})
        assert old.status_code == 403
        ws = srv.ws(board["table"])
        assert ws.join(renewed["token"])["seat"] == 0
        ws.close()
        ws = srv.ws(board["table"])
        ws.send({"type": "join", "token": entry.json()["token"]})
        assert ws.until("error")["code"] == "bad_token"
        assert len(results(srv, tournament["id"])["standings"]) == 1  # still one entry


def test_yesterdays_daily_sets_stay_with_their_results_and_todays_are_new(tmp_path: Path) -> None:
    """The daily sets change with the date; a past day's set that someone entered is listed
    under the earlier days and keeps its results, and a past day nobody opened is not made."""
    import asyncio

    from tricktaker.server.botpool import BotLimits, BotPool
    from tricktaker.server.duplicate import Duplicate
    from tricktaker.server.store import Store
    from tricktaker.server.tables import TableError, Tables

    day = [datetime.date(2026, 11, 25)]

    async def scenario() -> None:
        tables = Tables(Store(str(tmp_path / "days.db")), BotPool(0, BotLimits()), bot_delay=0)
        duplicate = Duplicate(tables, today=lambda: day[0])
        await tables.start()
        await duplicate.start()
        first = await duplicate.overview()
        assert first["past"] == [] and first["daily"][0]["id"] == "daily-2026-11-25-tuppi"
        await duplicate.enter("daily-2026-11-25-tuppi", {"nickname": "Ana"})
        day[0] = datetime.date(2026, 11, 26)
        second = await duplicate.overview()
        assert second["daily"][0]["id"] == "daily-2026-11-26-tuppi"
        assert [(s["id"], s["entrants"]) for s in second["past"]] == [("daily-2026-11-25-tuppi", 1)]
        assert (await duplicate.results("daily-2026-11-25-tuppi"))["standings"][0]["nickname"] == "Ana"
        with pytest.raises(TableError) as never:
            await duplicate.find_set("daily-2026-11-24-tuppi")
        assert never.value.code == "no_set"
        await tables.close()

    asyncio.run(scenario())


def test_a_board_just_over_counts_before_its_score_is_written(tmp_path: Path) -> None:
    """The score is written just after the last card is told; a page that goes back to the set
    at once must find the board finished, not be sent to it again."""
    db = str(tmp_path / "race.db")
    with running(db) as srv:
        made = new_set(srv)
        ana = enter(srv, made["id"], "Ana")
        board, _ = play_board(srv, ana)
        with sqlite3.connect(db) as conn:  # as if the page came back before the listener ran
            conn.execute("UPDATE tt_dup_boards SET score = NULL")
        assert results(srv, made["id"], ana)["you"]["finished"] == 1
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE tt_dup_boards SET score = NULL")
        assert next_board(srv, ana)["board"] == 1
