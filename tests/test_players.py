"""Players (issue 23): identities made in one click, kept by a secret; seats that record them."""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from pathlib import Path

import pytest
from server_helpers import play_to_end, running
from sqlalchemy import select

from tricktaker.server.players import SECRET_HEADER, PlayerError, Players, check_nickname, player_of
from tricktaker.server.store import Store
from tricktaker.server.store import players as players_table


def make(server, nickname: str) -> dict:
    response = server.http.post("/api/players", json={"nickname": nickname})
    assert response.status_code == 201, response.text
    return response.json()


def test_a_player_is_made_in_one_request_and_only_the_secrets_hash_is_stored(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    with running(db) as server:
        made = make(server, "  Pärttyli  Aho ")
        assert made["nickname"] == "Pärttyli Aho"  # spaces tidied
        assert set(made) == {"id", "nickname", "secret", "created"}
        me = server.http.get("/api/players/me", headers={SECRET_HEADER: made["secret"]})
        assert me.status_code == 200 and me.json()["id"] == made["id"]
        wrong = server.http.get("/api/players/me", headers={SECRET_HEADER: made["secret"] + "x"})
        assert wrong.status_code == 401 and wrong.json()["code"] == "unknown_player"
        public = server.http.get(f"/api/players/{made['id']}").json()
        assert public["nickname"] == "Pärttyli Aho" and "secret" not in json.dumps(public)
    store = Store(db)
    try:
        with store.engine.connect() as conn:
            row = conn.execute(select(players_table)).mappings().one()
        assert row["secret_hash"] == hashlib.sha256(made["secret"].encode()).hexdigest()
        assert made["secret"] not in json.dumps(dict(row))
    finally:
        store.close()


@pytest.mark.parametrize(("nickname", "code", "status"), [
    ("", "nickname_empty", 400),
    ("   ", "nickname_empty", 400),
    (None, "nickname_empty", 400),
    (42, "nickname_empty", 400),
    ("x" * 21, "nickname_long", 400),
    ("A", "nickname_short", 400),
    ("<script>", "nickname_chars", 400),
    ("-dash", "nickname_chars", 400),
    ("tab\there", "nickname_chars", 400),
    ("zero\u200bwidth", "nickname_chars", 400),
    ("PIMC", "nickname_taken", 409),
    ("aino", "nickname_taken", 409),     # "Aino" exists: names are unique whatever their case
    ("AINO", "nickname_taken", 409),
])
def test_taken_empty_overlong_and_odd_nicknames_are_refused_with_a_code(
        tmp_path: Path, nickname: object, code: str, status: int) -> None:
    with running(str(tmp_path / "t.db")) as server:
        make(server, "Aino")
        response = server.http.post("/api/players", json={"nickname": nickname})
        assert response.status_code == status
        assert response.json()["code"] == code


def test_malformed_player_requests_are_refused(tmp_path: Path) -> None:
    with running(str(tmp_path / "t.db")) as server:
        for body in (b"not json", b"[1]", b'{"nickname": "Aino", "admin": true}', b"[" * 2000):
            response = server.http.post("/api/players", content=body)
            assert response.status_code == 400 and response.json()["code"] == "malformed", body[:20]


def test_nicknames_of_every_alphabet_are_welcome() -> None:
    assert check_nickname("Begoña") == "Begoña"
    assert check_nickname("Ääli-Öljy_2") == "Ääli-Öljy_2"
    assert check_nickname("O'Neill J.") == "O'Neill J."
    assert check_nickname("Ane\u0301") == "Ané"  # composed (NFC) as it is stored
    assert check_nickname("अनिता") == "अनिता"  # a vowel sign is a combining mark, part of the letter
    with pytest.raises(PlayerError) as refused:
        check_nickname("\ufb03" * 14)  # 14 characters that fold to 42: the unique key has room for 40
    assert refused.value.code == "nickname_long"


def test_no_signups_refuses_new_players_and_keeps_the_old_ones(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    with running(db) as server:
        made = make(server, "Aino")
    with running(db, signups=False) as server:
        refused = server.http.post("/api/players", json={"nickname": "Bertta"})
        assert refused.status_code == 403 and refused.json()["code"] == "signups_closed"
        assert "no new players" in refused.json()["error"]
        me = server.http.get("/api/players/me", headers={SECRET_HEADER: made["secret"]})
        assert me.status_code == 200 and me.json()["nickname"] == "Aino"
        table = server.http.post("/api/tables", headers={SECRET_HEADER: made["secret"]}, json={
            "game": "bondtolva", "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3})
        assert table.status_code == 201


def test_the_creator_and_a_joining_player_are_recorded_at_their_seats(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    with running(db) as server:
        aino, bertta = make(server, "Aino"), make(server, "Bertta")
        response = server.http.post("/api/tables", headers={SECRET_HEADER: aino["secret"]}, json={
            "game": "tuppi", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                                       {"kind": "human"}, {"kind": "bot", "bot": "random"}]})
        assert response.status_code == 201
        table = response.json()
        first = sit(server, table, 0, aino)
        ws = server.ws(table["id"])
        ws.send({"type": "join", "token": table["seats"][2]["token"], "secret": bertta["secret"]})
        welcome = ws.until("welcome")
        # a page that joined before sees Bertta's nickname arrive with the presence message
        while (presence := first.until("presence"))["players"][2] is None:
            pass
        assert presence["players"] == [{"id": aino["id"], "nickname": "Aino"}, None,
                                       {"id": bertta["id"], "nickname": "Bertta"}, None]
        seats = welcome["table"]["seats"]
        assert (seats[0]["player"], seats[0]["nickname"]) == (aino["id"], "Aino")
        assert (seats[2]["player"], seats[2]["nickname"]) == (bertta["id"], "Bertta")
        assert seats[1]["player"] is None
        # a stranger with the same link does not take the recorded seat over
        carl = make(server, "Carl")
        other = server.ws(table["id"])
        other.send({"type": "join", "token": table["seats"][2]["token"], "secret": carl["secret"]})
        assert other.until("welcome")["table"]["seats"][2]["player"] == bertta["id"]
        # an unknown secret is refused on the API and ignored (unrecorded) in a join
        bad = server.http.post("/api/tables", headers={SECRET_HEADER: "nobody"}, json={"game": "tuppi"})
        assert bad.status_code == 401 and bad.json()["code"] == "unknown_player"
        profile = server.http.get(f"/api/players/{bertta['id']}").json()
        assert [(m["table"], m["seat"], m["game"]) for m in profile["matches"]] == [(table["id"], 2, "tuppi")]
    # the seats keep the ids across a restart, and a row stored before players loads as before
    store = Store(db)
    try:
        stored = store.load_table(table["id"])
        assert stored is not None
        assert [s.get("player") for s in stored.seats] == [aino["id"], None, bertta["id"], None]
    finally:
        store.close()


def test_player_of_reads_the_header_or_a_secret(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "t.db"))
    try:
        players = Players(store)
        player, secret = players.create("Aino")
        assert player_of(secret, players) == player
        assert player_of("wrong", players) is None
        assert player_of(None, players) is None
        with pytest.raises(TypeError):
            player_of(secret)
        again = Players(store)  # a fresh server: from the database, not a cache
        assert again.by_secret(secret) == player
    finally:
        store.close()


def test_a_missing_players_profile_is_404(tmp_path: Path) -> None:
    with running(str(tmp_path / "t.db")) as server:
        assert server.http.get("/api/players/nope").json()["code"] == "no_player"
        assert server.http.get("/p/nope").status_code == 404


# -- ratings (issue 23) --------------------------------------------------------------------

def bondtolva(server, creator: dict, seats: list[dict]) -> dict:
    """A Bondtolva table created by ``creator`` (signed in)."""
    response = server.http.post("/api/tables", headers={SECRET_HEADER: creator["secret"]},
                                json={"game": "bondtolva", "seats": seats})
    assert response.status_code == 201, response.text
    return response.json()


def sit(server, table: dict, seat: int, player: dict | None = None):
    """A socket at ``seat`` of the table, signed in as ``player`` (None: a guest)."""
    ws = server.ws(table["id"])
    ws.send({"type": "join", "token": table["seats"][seat]["token"],
             **({"secret": player["secret"]} if player else {})})
    ws.until("welcome")
    return ws


def play_out(server, table: dict, sockets: list) -> dict:
    """Every person's turns played (a thread each) to the end of the match; its record."""
    threads = [threading.Thread(target=play_to_end, args=(ws,)) for ws in sockets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    record = server.http.get(f"/api/tables/{table['id']}/record")
    assert record.status_code == 200, record.text
    return dict(json.loads(record.text))


def test_a_match_against_bot_levels_is_rated_as_glicko2_says_and_survives_a_restart(tmp_path: Path) -> None:
    from tricktaker.ratings import Rating, rate
    from tricktaker.server.leaderboard import BOT_RATINGS

    db = str(tmp_path / "t.db")
    with running(db) as server:
        aino = make(server, "Aino")
        bots = [{"kind": "bot", "bot": spec} for spec in ("random", "rules", "random")]
        table = bondtolva(server, aino, [{"kind": "human"}, *bots])
        play_out(server, table, [sit(server, table, 0)])  # the creator's seat is Aino's already
        profile = server.http.get(f"/api/players/{aino['id']}").json()
        [match] = profile["matches"]
        played = profile
        won = match["result"]
        assert won in (0.0, 1.0)
        # seat 0 plays with seat 2 (rules) against seats 1 and 3 (random): two games of 1 or 0
        expected = rate(Rating(), [(BOT_RATINGS["random"], won), (BOT_RATINGS["random"], won)])
        assert match["rating_before"] == 1500
        assert match["rating_after"] == pytest.approx(expected.rating)
        [rating] = profile["ratings"]
        assert (rating["game"], rating["players"], rating["matches"]) == ("bondtolva", 4, 1)
        assert rating["rating"] == pytest.approx(expected.rating)
        assert rating["rd"] == pytest.approx(expected.rd)
        board = server.http.get("/api/leaderboard", params={"game": "bondtolva", "players": 4}).json()
        assert [(r["rank"], r["nickname"]) for r in board["ratings"]] == [(1, "Aino")]
        assert board["ratings"][0]["rating"] == pytest.approx(expected.rating)
        assert board["bots"]["pimc"]["rating"] == BOT_RATINGS["pimc"].rating
        # Play again: the next match keeps Aino in her seat, and her profile lists it
        ws = sit(server, table, 0, aino)
        ws.send({"type": "rematch"})
        following = ws.until("rematch")["id"]
        assert server.http.get(f"/api/tables/{following}").json()["seats"][0]["player"] == aino["id"]
        ws.close()
        profile = server.http.get(f"/api/players/{aino['id']}").json()
        assert [m["table"] for m in profile["matches"]] == [following, table["id"]]
    with running(db) as server:  # a restart keeps the ratings, the results and the board
        again = server.http.get(f"/api/players/{aino['id']}").json()
        assert again["ratings"] == played["ratings"] and again["matches"] == profile["matches"]
        assert server.http.get("/api/leaderboard?game=bondtolva&players=4").json() == board
        assert server.http.get("/leaderboard").status_code == 200
        assert server.http.get(f"/p/{aino['id']}").status_code == 200


def test_two_players_rate_each_other_and_a_guest_seat_makes_a_match_unrated(tmp_path: Path) -> None:
    from tricktaker.ratings import Rating, rate
    from tricktaker.server.leaderboard import BOT_RATINGS

    with running(str(tmp_path / "t.db")) as server:
        aino, bertta = make(server, "Aino"), make(server, "Bertta")
        bot = {"kind": "bot", "bot": "random"}
        table = bondtolva(server, aino, [{"kind": "human"}, {"kind": "human"}, bot, bot])
        # Bertta takes seat 1 by its link, signed in: opponents, each with a bot partner
        play_out(server, table, [sit(server, table, 0, aino), sit(server, table, 1, bertta)])
        a = server.http.get(f"/api/players/{aino['id']}").json()["matches"][0]
        b = server.http.get(f"/api/players/{bertta['id']}").json()["matches"][0]
        assert a["result"] + b["result"] == 1.0
        random = BOT_RATINGS["random"]
        expected_a = rate(Rating(), [(Rating(), a["result"]), (random, a["result"])])
        expected_b = rate(Rating(), [(Rating(), b["result"]), (random, b["result"])])
        assert a["rating_after"] == pytest.approx(expected_a.rating)
        assert b["rating_after"] == pytest.approx(expected_b.rating)
        board = server.http.get("/api/leaderboard?game=bondtolva&players=4").json()["ratings"]
        assert [r["nickname"] for r in board] == (["Aino", "Bertta"] if a["result"] else ["Bertta", "Aino"])
        # a person's seat without a player: a friendly, recorded in the profile, not rated
        friendly = bondtolva(server, aino, [{"kind": "human"}, {"kind": "human"}, bot, bot])
        play_out(server, friendly, [sit(server, friendly, 0, aino), sit(server, friendly, 1)])
        profile = server.http.get(f"/api/players/{aino['id']}").json()
        newest = profile["matches"][0]
        assert newest["table"] == friendly["id"] and newest["result"] in (0.0, 1.0)
        assert newest["rating_after"] is None and profile["ratings"][0]["matches"] == 1


def test_the_leaderboard_refuses_an_unknown_game_or_size(tmp_path: Path) -> None:
    with running(str(tmp_path / "t.db")) as server:
        assert server.http.get("/api/leaderboard?game=chess").json()["code"] == "no_game"
        wrong = server.http.get("/api/leaderboard?game=bondtolva&players=3")
        assert wrong.status_code == 400 and wrong.json()["code"] == "bad_request"
        assert server.http.get("/api/leaderboard?game=tute&players=abc").status_code == 400
        empty = server.http.get("/api/leaderboard?game=huutopussi&players=3").json()
        assert (empty["game"], empty["players"], empty["ratings"]) == ("huutopussi", 3, [])


def test_a_result_not_recorded_before_the_server_stopped_is_recorded_at_start_once(tmp_path: Path) -> None:
    """The server stopped between a match's last action and its ratings: the next start rates it,
    and rating the same match again changes nothing."""
    from sqlalchemy import delete, update

    from tricktaker.server.leaderboard import MatchResult, leaderboard, rate_match
    from tricktaker.server.store import ratings, seatings

    db = str(tmp_path / "t.db")
    with running(db) as server:
        aino = make(server, "Aino")
        table = bondtolva(server, aino, [{"kind": "human"}] + [{"kind": "bot", "bot": "rules"}] * 3)
        play_out(server, table, [sit(server, table, 0)])
        before = server.http.get(f"/api/players/{aino['id']}").json()
    store = Store(db)
    try:
        with store.engine.begin() as conn:  # as if the server had died before the ratings
            conn.execute(delete(ratings))
            conn.execute(update(seatings).values(result=None, rating_before=None, rating_after=None))
    finally:
        store.close()
    with running(db) as server:
        after = server.http.get(f"/api/players/{aino['id']}").json()
        assert after["ratings"] == before["ratings"] and after["matches"] == before["matches"]
    store = Store(db)
    try:
        from tricktaker.server.tables import Table

        stored = store.load_table(table["id"])
        assert stored is not None
        rate_match(store, MatchResult.of(Table.rebuild(stored)))  # a second time: no change
        assert Players(store).matches(aino["id"]) == before["matches"]
        assert leaderboard(store, "bondtolva", 4)[0]["matches"] == 1
    finally:
        store.close()


def test_tables_stored_before_players_existed_load_and_list_as_before(tmp_path: Path) -> None:
    from tricktaker.server.store import StoredTable

    db = str(tmp_path / "t.db")
    store = Store(db)
    try:
        store.add_table(StoredTable(id="old", game="tuppi", preset=None, options={}, seed=7,
                                    seats=[{"kind": "human", "bot": None, "token_hash": "x" * 64}]
                                    + [{"kind": "bot", "bot": "random"}] * 3))
    finally:
        store.close()
    with running(db) as server:
        [listed] = server.http.get("/api/tables").json()["tables"]
        assert listed["id"] == "old" and listed["seats"][0]["player"] is None


@pytest.mark.skipif(not os.environ.get("TRICKTAKER_TEST_POSTGRES"),
                    reason="set TRICKTAKER_TEST_POSTGRES to a PostgreSQL URL (.ci/run does)")
def test_players_and_ratings_on_postgresql() -> None:
    """The same tables on PostgreSQL: a player, a rated match and the board, kept across a restart.
    (The database is shared with other tests and runs: the nickname is new each time.)"""
    url = os.environ["TRICKTAKER_TEST_POSTGRES"]
    nickname = f"Pg{time.time_ns() % 10**12}"
    with running(url) as server:
        made = make(server, nickname)
        refused = server.http.post("/api/players", json={"nickname": nickname.upper()})
        assert refused.json()["code"] == "nickname_taken"
        table = bondtolva(server, made, [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3)
        play_out(server, table, [sit(server, table, 0)])
        profile = server.http.get(f"/api/players/{made['id']}").json()
        assert profile["ratings"][0]["matches"] == 1
    with running(url) as server:
        assert server.http.get(f"/api/players/{made['id']}").json() == profile
        assert server.http.get("/api/players/me", headers={SECRET_HEADER: made["secret"]}).status_code == 200


def test_tricktaker_serve_no_signups_reaches_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--no-signups`` is an option of ``tricktaker serve`` and turns sign-ups off in the app."""
    import uvicorn

    from tricktaker import cli

    made: dict[str, object] = {}
    import tricktaker.server as server_package
    real = server_package.create_app
    monkeypatch.setattr(server_package, "create_app", lambda **kw: made.update(kw) or real(**kw))
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    assert cli.main(["serve", "--no-signups", "--db", ":memory:"]) == 0
    assert made["signups"] is False
    assert cli.main(["serve", "--db", ":memory:"]) == 0
    assert made["signups"] is True


def test_a_seat_given_its_player_by_another_module_is_rated_once_and_a_single_hand_never(
        tmp_path: Path) -> None:
    """A module that writes the player into the seats itself (no ``tt_seatings`` row) still
    has the match listed and rated, once; a table of one hand (a duplicate board) is no match."""
    import random

    from tricktaker.server.leaderboard import MatchResult, leaderboard, rate_match
    from tricktaker.server.store import StoredTable
    from tricktaker.server.tables import Table

    store = Store(str(tmp_path / "t.db"))
    try:
        players = Players(store)
        aino, _ = players.create("Aino")
        seats = [{"kind": "human", "bot": None, "player": aino.id, "nickname": "Aino"},
                 {"kind": "bot", "bot": "rules"}]

        def played(table_id: str, single_hand: bool) -> Table:
            stored = StoredTable(id=table_id, game="bondtolva", preset=None, options={"players": 2},
                                 seed=5, seats=[dict(s) for s in seats], single_hand=single_hand)
            store.add_table(stored)
            table = Table.rebuild(stored)
            rng = random.Random(5)
            while not table.state.is_over():
                table.state.apply(rng.choice(table.state.legal_actions()))
            return table

        board = played("board", single_hand=True)
        rate_match(store, MatchResult.of(board))
        assert leaderboard(store, "bondtolva", 2) == [] and players.matches(aino.id) == []
        match = played("match", single_hand=False)
        for _ in range(2):
            rate_match(store, MatchResult.of(match))
        [listed] = players.matches(aino.id)
        assert listed["table"] == "match" and listed["result"] in (0.0, 1.0)
        [rated] = leaderboard(store, "bondtolva", 2)
        assert rated["matches"] == 1 and rated["rating"] == listed["rating_after"]
    finally:
        store.close()
