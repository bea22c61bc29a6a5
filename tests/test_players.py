"""Players (issue 23): identities made in one click, kept by a secret; seats that record them."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from server_helpers import running
from sqlalchemy import select

from tricktaker.server.players import SECRET_HEADER, Players, check_nickname, player_of
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
        ws = server.ws(table["id"])
        ws.send({"type": "join", "token": table["seats"][2]["token"], "secret": bertta["secret"]})
        welcome = ws.until("welcome")
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
