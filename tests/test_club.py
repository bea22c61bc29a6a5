"""Club tournaments (issue 23): pairings, standings by each game's rule, results taken from the
tables themselves, the director's secret, and a restart (docs/server.md, *Club tournaments*)."""

from __future__ import annotations

import itertools
import os
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Running, Socket, free_port, running, start_server
from websockets.sync.client import connect

from tricktaker.server.club import ClubError, balance_sides, round_robin, seat_token, standings, swiss

STATIC = Path(__file__).resolve().parents[1] / "src" / "tricktaker" / "server" / "static"
QUICK = {"game": "tute", "preset": "habanero", "options": {"rounds_to_win": 1}}
"""A two-player Tute match of one round: the quickest whole match of a two-sided table."""


# -- pairings -----------------------------------------------------------------------------


@pytest.mark.parametrize("count", [4, 5])
def test_a_round_robin_by_the_circle_method_meets_every_pair_once(count: int) -> None:
    entrants = list(range(1, count + 1))
    rounds = count - 1 if count % 2 == 0 else count
    met: list[frozenset[int]] = []
    byes: list[int] = []
    side0 = dict.fromkeys(entrants, 0)
    for number in range(1, rounds + 1):
        pairings = round_robin(entrants, number)
        seated = [e for pair in pairings for e in pair if e is not None]
        assert sorted(seated) == entrants  # everyone once a round
        met += [frozenset(p) for p in pairings if p[1] is not None]
        byes += [p[0] for p in pairings if p[1] is None]
        for a, b in pairings:
            if b is not None:
                side0[a] += 1
    matches = rounds if count % 2 == 0 else rounds - 1
    assert all(abs(2 * n - matches) <= 1 for n in side0.values()), side0  # side 0 in half, give or take
    assert sorted(met, key=sorted) == sorted((frozenset(p) for p in itertools.combinations(entrants, 2)),
                                             key=sorted)
    assert sorted(byes) == ([] if count % 2 == 0 else entrants)  # odd: each has one bye
    with pytest.raises(ClubError):
        round_robin(entrants, rounds + 1)


def test_swiss_pairs_the_standings_without_a_repeat_and_gives_the_bye_to_the_lowest_without_one() -> None:
    # 1 meets 2 unless 3-4 would then repeat: the search goes back and pairs 1-3, 2-4
    assert swiss([1, 2, 3, 4], {frozenset((3, 4))}, set()) == [(1, 3), (2, 4)]
    assert swiss([1, 2, 3, 4], set(), set()) == [(1, 2), (3, 4)]
    # odd: the bye to the lowest-placed who has not had one
    assert swiss([5, 4, 3, 2, 1], set(), set())[-1] == (1, None)
    assert swiss([5, 4, 3, 2, 1], set(), {1, 2})[-1] == (3, None)
    # every round of a 5-entrant Swiss, the standings shuffled each round: no pairing twice,
    # each entrant one bye
    played: set[frozenset[int]] = set()
    had_bye: list[int] = []
    order = [1, 2, 3, 4, 5]
    for number in range(5):
        pairings = swiss(order, played, set(had_bye))
        for a, b in pairings:
            if b is None:
                had_bye.append(a)
            else:
                assert frozenset((a, b)) not in played
                played.add(frozenset((a, b)))
        order = order[2:] + order[:2] if number % 2 else order[::-1]
    assert sorted(had_bye) == [1, 2, 3, 4, 5] and len(played) == 10
    # side 0 to whoever has had it less often; a tie keeps the better-placed first
    assert balance_sides([(1, 2), (3, 4), (5, None)], {1: 2, 2: 1, 3: 1, 4: 1}) == [(2, 1), (3, 4), (5, None)]
    with pytest.raises(ClubError) as refused:
        swiss(order, played, set(had_bye))  # everyone has met everyone
    assert refused.value.code == "no_pairing"


# -- standings ----------------------------------------------------------------------------


def test_tuppi_standings_are_the_points_collected_while_nousussa_by_hand() -> None:
    """Tuppi's tournament rule: the side that collected more points while nousussa wins, and
    over a tournament the collected points decide, not the matches won.  By hand:
    A 36 + 24 = 60, B 20 + 52 = 72, C 8 + 24 = 32; B is first with fewer match points than A."""
    names = {1: "A", 2: "B", 3: "C"}
    results = [
        ([1, 2], {"kind": "played", "winner": 0, "scores": [0, 0], "collected": [36, 20]}),
        ([2, 3], {"kind": "played", "winner": 0, "scores": [52, 0], "collected": [52, 8]}),
        ([3, 1], {"kind": "played", "winner": None, "scores": [0, 0], "collected": [24, 24]}),
    ]
    table = {line.name: line for line in standings("tuppi", names, results)}
    assert (table["A"].collected, table["B"].collected, table["C"].collected) == (60, 72, 32)
    assert (table["A"].match_points, table["B"].match_points, table["C"].match_points) == (3, 2, 1)
    assert [line.name for line in standings("tuppi", names, results)] == ["B", "A", "C"]
    # another game ranks the same results by match points
    assert [line.name for line in standings("tute", names, results)] == ["A", "B", "C"]
    # a bye credits the entrant's own average collected over its played matches (rounded down)
    with_bye = [*results, ([3], {"kind": "bye"})]
    assert {line.name: line.collected for line in standings("tuppi", names, with_bye)}["C"] == 32 + 16
    # a forfeit: the absent side loses and collects nothing; the other scores as a bye
    forfeit = [([1, 2], {"kind": "forfeit", "absent": [1]})]
    lines = {line.name: line for line in standings("tuppi", names, forfeit)}
    assert lines["A"].match_points == 2 and lines["B"].lost == 1 and lines["B"].collected == 0
    # equal keys share a rank
    assert [line.rank for line in standings("tute", names, [])] == [1, 1, 1]


# -- the server ---------------------------------------------------------------------------


def director(srv: Running, secret: str) -> dict[str, str]:
    return {"X-Director": secret}


def new_tournament(srv: Running, entrants: list[Any], **request: Any) -> tuple[str, str]:
    answer = srv.http.post("/api/club", json={"name": "Club night", **request})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["link"] == f"/club/{body['id']}#director={body['director']}"
    for entrant in entrants:
        entry = entrant if isinstance(entrant, dict) else {"name": entrant}
        added = srv.http.post(f"/api/club/{body['id']}/entrants", json=entry,
                              headers=director(srv, body["director"]))
        assert added.status_code == 201, added.text
    return body["id"], body["director"]


def view(srv: Running, tid: str, secret: str | None = None) -> dict[str, Any]:
    answer = srv.http.get(f"/api/club/{tid}", headers=director(srv, secret) if secret else {})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def start_round(srv: Running, tid: str, secret: str) -> dict[str, Any]:
    answer = srv.http.post(f"/api/club/{tid}/rounds", headers=director(srv, secret))
    assert answer.status_code == 201, answer.text
    return view(srv, tid, secret)["round_list"][-1]  # type: ignore[no-any-return]


def play_out(srv: Running, table: dict[str, Any]) -> dict[str, Any]:
    """Every seat of a round-sheet table joins by its link and plays its first legal action
    until the match is over; returns the last state."""
    socks: list[Socket] = []
    for seat in table["seats"]:
        sock = srv.ws(table["table_id"])
        welcome = sock.join(seat["link"].split("#token=")[1])
        assert welcome["seat"] == seat["seat"]
        socks.append(sock)
    latest = [sock.until("state") for sock in socks]
    while True:
        seq = max(m["seq"] for m in latest)
        latest = [m if m["seq"] == seq else sock.until("state", seq=seq)
                  for m, sock in zip(latest, socks, strict=True)]
        if latest[0]["over"]:
            for sock in socks:
                sock.close()
            return latest[0]
        mover = next((i for i, m in enumerate(latest) if m["legal"]), None)
        if mover is not None:
            socks[mover].send({"type": "act", "action": latest[mover]["legal"][0], "seq": seq})
        latest = [sock.until("state") for sock in socks]


def test_tuppi_results_come_from_the_tables_and_rank_by_points_collected_while_nousussa(
        tmp_path: Path) -> None:
    with running(str(tmp_path / "club.db")) as srv:
        tid, secret = new_tournament(
            srv, [{"name": "Aho & Berg", "members": ["Aho", "Berg"]},
                  {"name": "Carl & Dahl", "members": ["Carl", "Dahl"]},
                  {"name": "Eno & Fors", "members": ["Eno", "Fors"]}],
            game="tuppi", options={"hand_limit": 16})
        info = view(srv, tid)
        assert info["preset"] == "tournament"
        assert info["options"]["bid_cards"] and not info["options"]["sooli"]
        assert info["rounds"] == 3 and info["pairs"]
        first = start_round(srv, tid, secret)
        played = [t for t in first["tables"] if t["table_id"]]
        bye = [t for t in first["tables"] if not t["table_id"]]
        assert len(played) == 1 and len(bye) == 1 and bye[0]["result"] == {"kind": "bye"}
        table = played[0]
        # who sits where: side 0's pair at seats 0 and 2, side 1's at 1 and 3
        names = {e["number"]: e for e in info["entrants"]}
        assert [s["player"] for s in table["seats"]] == [
            names[table["sides"][0]]["members"][0], names[table["sides"][1]]["members"][0],
            names[table["sides"][0]]["members"][1], names[table["sides"][1]]["members"][1]]
        refused = srv.http.post(f"/api/club/{tid}/rounds", headers=director(srv, secret))
        assert refused.status_code == 400 and refused.json()["code"] == "not_ready"
        last = play_out(srv, table)
        totals = last["observation"]["totals"]
        after = view(srv, tid)
        result = after["round_list"][0]["tables"][0]["result"]
        assert result["collected"] == totals and result["kind"] == "played"
        lines = {line["entrant"]: line for line in after["standings"]}
        for side, entrant in enumerate(table["sides"]):
            assert lines[entrant]["collected"] == totals[side]
            assert lines[entrant]["played"] == 1
        assert lines[bye[0]["sides"][0]]["byes"] == 1
        expected = sorted(lines.values(), key=lambda line: (-line["collected"], -line["match_points"],
                                                            -line["difference"], line["entrant"]))
        assert [line["entrant"] for line in after["standings"]] == [line["entrant"] for line in expected]
        assert after["round_list"][0]["complete"]
        assert start_round(srv, tid, secret)["tables"]  # round 2 starts once round 1 is complete


def test_a_wrong_director_secret_is_refused_and_the_public_sees_no_seat_links(tmp_path: Path) -> None:
    with running(str(tmp_path / "club.db")) as srv:
        tid, secret = new_tournament(srv, ["Ann", "Bo"], **QUICK)
        wrong = {"X-Director": secret[:-2] + "xx"}
        for method, path, body in [("POST", "rounds", None), ("POST", "entrants", {"name": "Cy"}),
                                   ("POST", "forfeits", {"round": 1, "board": 1, "absent": [1]}),
                                   ("GET", "", None), ("DELETE", "entrants/1", None)]:
            answer = srv.http.request(method, f"/api/club/{tid}/{path}".rstrip("/"), json=body, headers=wrong)
            assert answer.status_code == 403 and answer.json()["code"] == "bad_secret", (method, path)
            answer = srv.http.request(method, f"/api/club/{tid}/{path}".rstrip("/"), json=body)
            if method != "GET":  # no secret at all is refused the same way
                assert answer.status_code == 403 and answer.json()["code"] == "bad_secret", (method, path)
        assert [e["name"] for e in view(srv, tid)["entrants"]] == ["Ann", "Bo"]  # nothing changed
        start_round(srv, tid, secret)
        public = view(srv, tid)
        assert not public["director"]
        assert all("link" not in seat for seat in public["round_list"][0]["tables"][0]["seats"])
        assert srv.http.get("/api/club/nothing").status_code == 404
        assert srv.http.get("/club/nothing").status_code == 404


def test_bad_tournament_requests_are_refused_with_a_clear_reason(tmp_path: Path) -> None:
    with running(str(tmp_path / "club.db")) as srv:
        for request, code, words in [
            ({"name": "x", "game": "huutopussi", "preset": "three"}, "bad_request", "two sides"),
            ({"name": "x", "game": "tuppi", "format": "knockout"}, "bad_request", "format"),
            ({"name": "x", "game": "tuppi", "format": "swiss"}, "bad_request", "rounds"),
            ({"name": "x", "game": "nope"}, "bad_request", "nope"),
            ({"name": "", "game": "tuppi"}, "bad_request", "name"),
            ({"name": "x", "game": "tuppi", "seats": []}, "malformed", "seats"),
        ]:
            answer = srv.http.post("/api/club", json=request)
            assert answer.status_code == 400 and answer.json()["code"] == code, request
            assert words in answer.json()["error"], answer.json()
        tid, secret = new_tournament(srv, ["Ann"], game="tuppi")
        for entrant, words in [({"name": "Ann"}, "already"), ({"name": "Bo", "members": ["Bo"]}, "2 player"),
                               ({"name": "Bo", "score": 3}, "score")]:
            answer = srv.http.post(f"/api/club/{tid}/entrants", json=entrant, headers=director(srv, secret))
            assert answer.status_code == 400 and words in answer.json()["error"], answer.json()
        refused = srv.http.post(f"/api/club/{tid}/rounds", headers=director(srv, secret))
        assert refused.json()["code"] == "not_ready"  # one entrant
        srv.http.post(f"/api/club/{tid}/entrants", json={"name": "Bo"}, headers=director(srv, secret))
        start_round(srv, tid, secret)
        for forfeit in [{"round": 1, "board": 1, "absent": [[1]]}, {"round": 1, "board": 1, "absent": [3]},
                        {"round": 1, "board": 1, "absent": [1, 1]}, {"round": 1, "board": 1, "absent": []},
                        {"round": [1], "board": 1, "absent": [1]}, {"round": 1, "board": 1},
                        {"round": 1, "board": 1, "absent": [1], "score": [52, 0]}]:
            answer = srv.http.post(f"/api/club/{tid}/forfeits", json=forfeit, headers=director(srv, secret))
            assert answer.status_code == 400, forfeit
            assert answer.json()["code"] in ("bad_request", "malformed"), forfeit
        assert view(srv, tid)["round_list"][0]["tables"][0]["result"] is None  # nothing recorded


def test_swiss_rounds_follow_the_standings_without_repeats_and_a_forfeit_is_the_directors_only_say(
        tmp_path: Path) -> None:
    with running(str(tmp_path / "club.db")) as srv:
        tid, secret = new_tournament(srv, ["Ann", "Bo", "Cy", "Di", "Ed"], format="swiss", rounds=3, **QUICK)
        met: set[frozenset[int]] = set()
        byes: list[int] = []
        for number in range(1, 4):
            round_ = start_round(srv, tid, secret)
            assert round_["number"] == number
            for table in round_["tables"]:
                if table["table_id"] is None:
                    byes.append(table["sides"][0])
                    continue
                assert frozenset(table["sides"]) not in met
                met.add(frozenset(table["sides"]))
                # side 1 did not come: side 0 wins by forfeit
                answer = srv.http.post(f"/api/club/{tid}/forfeits", headers=director(srv, secret), json={
                    "round": number, "board": table["board"], "absent": [table["sides"][1]]})
                assert answer.status_code == 200, answer.text
                again = srv.http.post(f"/api/club/{tid}/forfeits", headers=director(srv, secret), json={
                    "round": number, "board": table["board"], "absent": [table["sides"][0]]})
                assert again.status_code == 400  # a result once recorded stays
        assert len(set(byes)) == 3
        finished = srv.http.post(f"/api/club/{tid}/rounds", headers=director(srv, secret))
        assert finished.json()["code"] == "finished"
        lines = view(srv, tid)["standings"]
        assert sum(line["match_points"] for line in lines) == 2 * (len(met) + len(byes))


def test_a_tournament_survives_a_restart_links_and_results_included(tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    with running(db) as srv:
        tid, secret = new_tournament(srv, ["Ann", "Bo"], **QUICK)
        table = start_round(srv, tid, secret)["tables"][0]
        token = table["seats"][0]["link"].split("#token=")[1]
        assert token == seat_token(secret, tid, 1, 1, 0)
        mine = srv.http.get(f"/api/club/tables/{table['table_id']}").json()  # its page links back
        assert mine == {"id": tid, "name": "Club night", "round": 1, "board": 1}
        other = srv.create("tute", ["human", "random"], preset="habanero")
        assert srv.http.get(f"/api/club/tables/{other['id']}").json()["code"] == "no_tournament"
    with running(db) as srv:  # a new server on the same database
        again = view(srv, tid, secret)
        assert again["round_list"][0]["tables"][0]["seats"] == table["seats"]  # the sheet is the same
        last = play_out(srv, again["round_list"][0]["tables"][0])
        winner = last["observation"].get("winner")
    with running(db) as srv:
        after = view(srv, tid)
        result = after["round_list"][0]["tables"][0]["result"]
        assert result["kind"] == "played"
        champion = after["standings"][0]
        assert champion["won"] == 1 and champion["match_points"] == 2
        if winner is not None:
            assert champion["entrant"] == table["sides"][winner]


def test_tournaments_and_rounds_count_against_the_new_tables_a_minute(tmp_path: Path) -> None:
    """A round creates tables: like a new tournament it takes one of the address's new tables,
    so nobody fills the server's memory with rounds of forfeited tables."""
    with running(str(tmp_path / "club.db"), tables_per_minute=2) as srv:
        tid, secret = new_tournament(srv, ["Ann", "Bo"], **QUICK)
        start_round(srv, tid, secret)
        refused = srv.http.post("/api/club", json={"name": "Again", **QUICK})
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"


def test_an_entrant_linked_to_a_player_is_seated_as_that_player(tmp_path: Path) -> None:
    """Issue 23's identities: an entrant may name its player id; the round's table then seats
    that player, so the match is in their profile.  An unknown id is refused."""
    with running(str(tmp_path / "club.db")) as srv:
        made = srv.http.post("/api/players", json={"nickname": "Ann"})
        assert made.status_code == 201, made.text
        ann = made.json()["id"]
        tid, secret = new_tournament(srv, [{"name": "Ann", "player_ids": [ann]}, "Bo"], **QUICK)
        refused = srv.http.post(f"/api/club/{tid}/entrants", headers=director(srv, secret),
                                json={"name": "Cy", "player_ids": ["nobody"]})
        assert refused.status_code == 400 and "nobody" in refused.json()["error"]
        table = start_round(srv, tid, secret)["tables"][0]
        seat = next(s["seat"] for s in table["seats"] if s["player"] == "Ann")
        stored = srv.app.state.tables.tables[table["table_id"]].stored.seats
        assert stored[seat]["player"] == ann and "player" not in stored[1 - seat]
        profile = srv.http.get(f"/api/players/{ann}").json()
        assert [m["table"] for m in profile["matches"]] == [table["table_id"]], profile


def test_a_tournament_survives_a_server_killed_mid_round(tmp_path: Path) -> None:
    """``tricktaker serve`` killed with SIGKILL during round 1: after a start on the same
    database the sheet, a table's moves and the tournament are as they were."""
    db, port = str(tmp_path / "club.db"), free_port()
    http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    process = start_server(port, db)
    try:
        made = http.post("/api/club", json={"name": "Club night", **QUICK}).json()
        tid, key = made["id"], {"X-Director": made["director"]}
        for name in ("Ann", "Bo"):
            assert http.post(f"/api/club/{tid}/entrants", json={"name": name}, headers=key).status_code == 201
        assert http.post(f"/api/club/{tid}/rounds", headers=key).status_code == 201
        before = http.get(f"/api/club/{tid}", headers=key).json()
        table = before["round_list"][0]["tables"][0]
        for seat in table["seats"]:  # the seat to move plays one card
            with connect(f"ws://127.0.0.1:{port}/ws/{table['table_id']}") as conn:
                ws = Socket(conn)
                ws.join(seat["link"].split("#token=")[1])
                state = ws.until("state")
                if state["legal"]:
                    ws.send({"type": "act", "action": state["legal"][0], "seq": state["seq"]})
                    ws.until("state", seq=state["seq"] + 1)
                    break
        process.kill()
        process.wait(10)
        process = start_server(port, db)
        after = http.get(f"/api/club/{tid}", headers=key).json()
        assert after["round_list"] == before["round_list"] and after["standings"] == before["standings"]
        assert http.get(f"/api/tables/{table['table_id']}").json()["seq"] == state["seq"] + 1
    finally:
        http.close()
        process.kill()
        process.wait(10)


@pytest.mark.skipif(not os.environ.get("TRICKTAKER_TEST_POSTGRES"),
                    reason="set TRICKTAKER_TEST_POSTGRES to a PostgreSQL URL (.ci/run does)")
def test_a_tournament_on_postgresql() -> None:
    url = os.environ["TRICKTAKER_TEST_POSTGRES"]
    with running(url) as srv:
        tid, secret = new_tournament(srv, ["Ann", "Bo", "Cy"], **QUICK)
        first = start_round(srv, tid, secret)
        play_out(srv, next(t for t in first["tables"] if t["table_id"]))
    with running(url) as srv:
        after = view(srv, tid, secret)
        assert after["round_list"][0]["complete"]
        assert sum(line["match_points"] for line in after["standings"]) == 4  # a match and a bye


def test_every_club_text_and_error_code_has_three_languages() -> None:
    """The club page's keys, and every error code club.py sends, in English, Finnish and Spanish."""
    from test_server import i18n_tables

    tables = i18n_tables()
    code = re.sub(r"^\s*//.*$", "", (STATIC / "club.js").read_text(), flags=re.M)
    used = set(re.findall(r"\bt\(\s*\"(\w+)\"", code))
    used |= set(re.findall(r'data-i18n(?:-title)?="(\w+)"', (STATIC / "club.html").read_text()))
    source = (Path(__file__).resolve().parents[1] / "src" / "tricktaker" / "server" / "club.py").read_text()
    codes = set(re.findall(r'ClubError\(\s*"(\w+)"', source))
    assert {"bad_secret", "no_pairing", "not_ready", "finished", "started", "no_tournament"} <= codes
    needed = used | {f"err_{c}" for c in codes}
    for lang in ("en", "fi", "es"):
        assert not needed - tables[lang], (lang, sorted(needed - tables[lang]))
