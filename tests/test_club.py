"""Club tournaments (issue 23): pairings, standings by each game's rule, results taken from the
tables themselves, the director's secret, and a restart (docs/server.md, *Club tournaments*)."""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from server_helpers import Running, Socket, free_port, running, start_server
from sqlalchemy import MetaData, create_engine, insert
from sqlalchemy import Table as SqlTable
from websockets.sync.client import connect

from tricktaker import new_game
from tricktaker.server.club import (
    ClubError,
    balance_sides,
    round_robin,
    seat_token,
    standing_rule,
    standings,
    swiss,
    table_result,
)
from tricktaker.server.club import metadata as club_metadata
from tricktaker.server.pairing import group, meetings, pick_byes, repeats, table_sizes
from tricktaker.server.tables import token_hash

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
            ({"name": "x", "game": "tute", "preset": "cabrero", "options": {"players": 2}}, "bad_request",
             "three to six"),
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
        assert withdraw(srv, tid, secret, 3).json()["withdrawn"] == 3
        three, three_secret = new_tournament(srv, ["Ann", "Bo", "Cy"], **THREE)
        start_round(srv, three, three_secret)
        assert withdraw(srv, three, three_secret, 1).json()["forfeits"] == [1]
    with running(url) as srv:
        after = view(srv, tid, secret)
        assert after["round_list"][0]["complete"]
        assert sum(line["match_points"] for line in after["standings"]) == 4  # a match and a bye
        assert {e["number"]: e.get("withdrawn") for e in after["entrants"]} == {1: None, 2: None, 3: 1}
        points = {line["entrant"]: line["match_points"] for line in view(srv, three)["standings"]}
        assert points == {1: 0, 2: 1.5, 3: 1.5}


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


# -- tables of three or more entrants ----------------------------------------------------


def groupings(entrants: list[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to seat ``entrants`` at tables of ``sizes`` (by brute force, for the check)."""
    if not sizes:
        yield []
        return
    first, rest = entrants[0], entrants[1:]
    for mates in itertools.combinations(rest, sizes[0] - 1):
        left = [e for e in rest if e not in mates]
        for tail in groupings(left, sizes[1:]):
            yield [(first, *mates), *tail]


def test_table_sizes_seat_the_entrants_at_the_games_tables_and_byes_only_where_no_smaller_table_is_allowed(
        ) -> None:
    assert table_sizes(9, 3, 3) == [3, 3, 3]
    assert table_sizes(7, 3, 3) == [3, 3]      # Huutopussi and Tute for three: the seventh has a bye
    assert table_sizes(8, 3, 3) == [3, 3]      # two byes
    assert table_sizes(2, 3, 3) == []
    assert table_sizes(7, 4, 3) == [4, 3]      # Tute cabrero: a table of three rather than byes
    assert table_sizes(6, 4, 3) == [3, 3]
    assert table_sizes(5, 4, 3) == [4]         # 3 + 2 would leave a table of two: one bye
    assert table_sizes(13, 6, 3) == [5, 4, 4]
    # the bye: the fewest byes so far first, then the lowest in the order given
    assert pick_byes([1, 2, 3, 4, 5], Counter(), 2) == [5, 4]
    assert pick_byes([1, 2, 3, 4, 5], Counter({5: 1}), 2) == [4, 3]


@pytest.mark.parametrize("count,sizes", [(6, [3, 3]), (7, [4, 3]), (8, [4, 4]), (9, [3, 3, 3])])
def test_a_grouping_seats_everyone_once_with_the_fewest_repeated_meetings(count: int,
                                                                          sizes: list[int]) -> None:
    """Against every grouping by brute force, over random histories of earlier rounds: the round
    seats each entrant once and no grouping repeats fewer meetings; among the cheapest it is the
    first in the order given (Swiss: the best placed together)."""
    rng = random.Random(count)
    entrants = list(range(1, count + 1))
    for _ in range(12):
        history = []
        for _ in range(rng.randrange(1, 4)):
            rng.shuffle(entrants)
            history += group(entrants, sizes, meetings(history))
        met = meetings(history)
        order = sorted(entrants, key=lambda _: rng.random())
        tables = group(order, sizes, met)
        assert sorted(e for t in tables for e in t) == sorted(order) and [len(t) for t in tables] == sizes
        cost = sum(repeats(t, met) for t in tables)
        every = list(groupings(order, sizes))
        least = min(sum(repeats(t, met) for t in g) for g in every)
        assert cost == least, (history, order, tables)
        first = next(g for g in every if sum(repeats(t, met) for t in g) == least)
        assert sorted(map(sorted, tables)) == sorted(map(sorted, first))


def test_nine_entrants_at_tables_of_three_meet_everyone_once_in_four_rounds() -> None:
    """The mixed schedule of a round robin: nine entrants in four rounds of three tables meet
    each other exactly once (36 pairs), as the best a schedule can do; a fifth round repeats."""
    played: list[tuple[int, ...]] = []
    for _ in range(4):
        played += group(list(range(1, 10)), [3, 3, 3], meetings(played))
    met = meetings(played)
    assert len(met) == 36 and set(met.values()) == {1}
    fifth = group(list(range(1, 10)), [3, 3, 3], met)
    assert sum(repeats(t, met) for t in fifth) == 9


def test_standings_of_tables_of_three_by_place_with_shared_places_byes_and_forfeits() -> None:
    """Match points by place: 2 per entrant placed below, 1 per entrant placed equal, over the
    others at the table; a bye 1; a forfeit puts the absent last (0) and the present share first.
    By hand: A 2 + 1.5 = 3.5; B 1 + 0 (absent) + 1 (bye) = 2; C 0 + 1.5 = 1.5;
    D 1.5 + 2 (alone present) = 3.5; E 0 + 0 (absent) = 0; F 1.5 + 0 (absent) = 1.5."""
    names = {1: "A", 2: "B", 3: "C", 4: "D", 5: "E", 6: "F"}
    results = [
        ([1, 2, 3], {"kind": "played", "winner": 0, "scores": [520, 310, 95], "places": [1, 2, 3]}),
        ([4, 5, 6], {"kind": "played", "winner": None, "scores": [2, 4, 2], "places": [1, 3, 1]}),
        ([1, 3, 5], {"kind": "forfeit", "absent": [2]}),
        ([4, 2, 6], {"kind": "forfeit", "absent": [1, 2]}),
        ([2], {"kind": "bye"}),
    ]
    rule = standing_rule("huutopussi", {"players": 3})
    assert rule.name == "places" and rule.bye == 1
    lines = {line.name: line for line in standings(rule, names, results)}
    points = {name: lines[name].as_dict()["match_points"] for name in names.values()}
    assert points == {"A": 3.5, "B": 2, "C": 1.5, "D": 3.5, "E": 0, "F": 1.5}
    assert (lines["A"].won, lines["A"].byes, lines["D"].drawn) == (1, 1, 1)
    assert (lines["E"].lost, lines["B"].lost) == (2, 2)
    # the difference: own score minus the others' mean; A +317.5, D 2 - 3 = -1
    assert lines["A"].difference == Fraction(635, 2) and lines["D"].difference == -1
    ranked = standings(rule, names, results)
    assert [(line.name, line.rank) for line in ranked][:2] == [("A", 1), ("D", 2)]  # equal points: difference
    # shared ranks on equal keys, and cabrero's lost hands turn the difference round
    cabrero = standing_rule("tute", {"players": 4, "mode": "cabrero"})
    assert cabrero.name == "cabrero" and cabrero.lower_scores
    lines = {line.name: line for line in standings(cabrero, names, results[1:2])}
    assert (lines["D"].difference, lines["F"].difference, lines["E"].difference) == (1, 1, -2)
    assert [line.rank for line in standings(cabrero, names, results[1:2])][:2] == [1, 1]
    # a two-sided tournament keeps win 2, draw 1, a bye 2
    assert standing_rule("tute").name == "match" and standing_rule("tute").bye == 2


@pytest.mark.parametrize("preset,players", [("three", 3), ("cabrero", 4), ("cabrero", 3)])
def test_a_finished_table_of_three_or_more_gives_each_side_its_place(preset: str, players: int) -> None:
    game = new_game("tute", preset=preset, players=players)
    state = game.new_match(seed=5)
    rng = random.Random(5)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    result = table_result(SimpleNamespace(state=state))  # type: ignore[arg-type]
    assert result["scores"] == list(state.scores)
    if game.cabrero:  # type: ignore[attr-defined]
        assert result["places"] == list(state.places)  # type: ignore[attr-defined]
    else:  # the winner first, the others by their rounds won
        assert result["places"][state.winner] == 1  # type: ignore[attr-defined]
        others = [s for s in range(3) if s != state.winner]  # type: ignore[attr-defined]
        a, b = others
        assert (result["places"][a] < result["places"][b]) == (state.scores[a] > state.scores[b])


THREE = {"game": "tute", "preset": "three", "options": {"rounds_to_win": 1}}
"""Tute for three, one round a match: the quickest whole match of a table of three."""


def withdraw(srv: Running, tid: str, secret: str, number: int) -> httpx.Response:
    return srv.http.delete(f"/api/club/{tid}/entrants/{number}", headers=director(srv, secret))


def test_a_tournament_for_three_seats_three_entrants_a_table_and_ranks_them_by_place(tmp_path: Path) -> None:
    """Tute for three, seven players, Swiss: each round two tables of three and a bye to the
    lowest placed who has had none; a table played out gives its places and match points, a
    forfeit with one absent lets the two present share the first place."""
    with running(str(tmp_path / "club.db")) as srv:
        names = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus"]
        tid, secret = new_tournament(srv, names, format="swiss", rounds=3, **THREE)
        info = view(srv, tid)
        assert (info["sides"], info["players"], info["pairs"]) == (3, 3, False)
        assert info["standing_rule"]["name"] == "places" and info["standing_rule"]["bye"] == 1
        first = start_round(srv, tid, secret)
        tables = [t for t in first["tables"] if t["table_id"]]
        byes = [t["sides"][0] for t in first["tables"] if not t["table_id"]]
        assert [len(t["sides"]) for t in tables] == [3, 3] and byes == [7]
        assert sorted(e for t in first["tables"] for e in t["sides"]) == list(range(1, 8))
        assert [s["entrant"] for s in tables[0]["seats"]] == tables[0]["sides"]  # seat n: side n
        assert all("link" in s for s in tables[0]["seats"])
        last = play_out(srv, tables[0])
        answer = srv.http.post(f"/api/club/{tid}/forfeits", headers=director(srv, secret),
                               json={"round": 1, "board": 2, "absent": [tables[1]["sides"][2]]})
        assert answer.status_code == 200, answer.text
        after = view(srv, tid)
        result = after["round_list"][0]["tables"][0]["result"]
        winner = last["observation"]["winner"]
        assert result["places"][winner] == 1 and result["winner"] == winner
        lines = {line["entrant"]: line for line in after["standings"]}
        for side, entrant in enumerate(tables[0]["sides"]):
            below = sum(p > result["places"][side] for p in result["places"])
            equal = result["places"].count(result["places"][side]) - 1
            assert lines[entrant]["match_points"] == (2 * below + equal) / 2
        present = tables[1]["sides"][:2]
        assert [lines[e]["match_points"] for e in present] == [1.5, 1.5]
        assert lines[tables[1]["sides"][2]]["match_points"] == 0 and lines[7]["match_points"] == 1
        for number in (2, 3):  # nobody twice in a round; the bye to someone without one
            round_ = start_round(srv, tid, secret)
            seated = [e for t in round_["tables"] for e in t["sides"]]
            assert sorted(seated) == list(range(1, 8))
            bye = [t["sides"][0] for t in round_["tables"] if not t["table_id"]]
            assert len(bye) == 1 and bye[0] not in byes
            byes += bye
            for table in round_["tables"]:
                if table["table_id"]:
                    srv.http.post(f"/api/club/{tid}/forfeits", headers=director(srv, secret),
                                  json={"round": number, "board": table["board"],
                                        "absent": table["sides"][:1]})


def test_a_tute_cabrero_round_robin_seats_everyone_at_smaller_tables_rather_than_byes(tmp_path: Path) -> None:
    """Tute cabrero for four, seven players: a table of four and one of three (the same rules),
    no bye; the mixed schedule's second round seats nobody with more than the fewest repeats."""
    with running(str(tmp_path / "club.db")) as srv:
        tid, secret = new_tournament(srv, [f"P{n}" for n in range(1, 8)], game="tute", preset="cabrero")
        info = view(srv, tid)
        assert info["standing_rule"]["name"] == "cabrero" and info["smallest_table"] == 3
        assert info["rounds"] == 2  # ceil(6 / 3): each could meet the six others
        first = start_round(srv, tid, secret)
        assert [len(t["sides"]) for t in first["tables"]] == [4, 3]
        small = first["tables"][1]
        assert len(small["seats"]) == 3
        table = srv.app.state.tables.tables[small["table_id"]]
        assert table.game.num_players == 3 and table.game.options["mode"] == "cabrero"
        for table in first["tables"]:
            srv.http.post(f"/api/club/{tid}/forfeits", headers=director(srv, secret),
                          json={"round": 1, "board": table["board"], "absent": table["sides"][-1:]})
        second = start_round(srv, tid, secret)
        met = meetings([tuple(t["sides"]) for t in first["tables"]])
        cost = sum(repeats(t["sides"], met) for t in second["tables"])
        seated = [e for t in second["tables"] for e in t["sides"]]
        assert sorted(seated) == list(range(1, 8))
        assert cost == min(sum(repeats(t, met) for t in g) for g in groupings(list(range(1, 8)), [4, 3]))


def test_withdrawing_an_entrant_keeps_its_results_forfeits_its_open_table_and_pairs_it_no_more(
        tmp_path: Path) -> None:
    """Four players, a round robin (the circle method: 1-4 2-3, 3-1 4-2, 1-2 3-4): after round 1
    Di (4) withdraws (round 1 complete: no forfeit), so in round 2 Bo, Di's opponent, has a bye;
    during round 2 Cy withdraws, so Cy's table without a result is a forfeit; round 3 seats
    Ann and Bo, and Cy against Di is no table.  Refusals change nothing; a restart keeps it all."""
    db = str(tmp_path / "club.db")
    with running(db) as srv:
        tid, secret = new_tournament(srv, ["Ann", "Bo", "Cy", "Di"], **QUICK)
        first = start_round(srv, tid, secret)
        for table in first["tables"]:
            srv.http.post(f"/api/club/{tid}/forfeits", headers=director(srv, secret),
                          json={"round": 1, "board": table["board"], "absent": [table["sides"][1]]})
        answer = withdraw(srv, tid, secret, 4)
        assert answer.status_code == 200 and answer.json() == {"withdrawn": 4, "round": 1, "forfeits": []}
        for number, code in [(4, "withdrawn"), (9, "bad_request")]:
            refused = withdraw(srv, tid, secret, number)
            assert refused.status_code == 400 and refused.json()["code"] == code, refused.text
        assert withdraw(srv, tid, "wrong", 3).json()["code"] == "bad_secret"
        before = view(srv, tid)
        line = next(line for line in before["standings"] if line["entrant"] == 4)
        assert line["withdrawn"] == 1 and line["won"] + line["lost"] + line["byes"] == 1  # round 1 stays
        second = start_round(srv, tid, secret)
        assert [t["sides"] for t in second["tables"]] == [[3, 1], [2]]
        assert second["tables"][1]["result"] == {"kind": "bye"}
        answer = withdraw(srv, tid, secret, 3)
        assert answer.json() == {"withdrawn": 3, "round": 2, "forfeits": [1]}
        result = view(srv, tid)["round_list"][1]["tables"][0]["result"]
        assert result == {"kind": "forfeit", "absent": [0]}
        third = start_round(srv, tid, secret)
        assert [t["sides"] for t in third["tables"]] == [[1, 2]]
        standings_before = view(srv, tid)["standings"]
    with running(db) as srv:  # a restart: still withdrawn, the same standings
        again = view(srv, tid)
        assert again["standings"] == standings_before
        assert {e["number"]: e.get("withdrawn") for e in again["entrants"]} == {1: None, 2: None, 3: 2, 4: 1}
        assert withdraw(srv, tid, secret, 3).json()["code"] == "withdrawn"


def test_withdrawing_from_a_table_of_three_lets_the_others_share_the_first_place(tmp_path: Path) -> None:
    with running(str(tmp_path / "club.db")) as srv:
        tid, secret = new_tournament(srv, ["Ann", "Bo", "Cy"], **THREE)
        table = start_round(srv, tid, secret)["tables"][0]
        assert withdraw(srv, tid, secret, 2).json()["forfeits"] == [1]
        after = view(srv, tid)
        assert after["round_list"][0]["tables"][0]["result"] == {"kind": "forfeit",
                                                                 "absent": [table["sides"].index(2)]}
        points = {line["entrant"]: line["match_points"] for line in after["standings"]}
        assert points == {1: 1.5, 2: 0, 3: 1.5}
        refused = srv.http.post(f"/api/club/{tid}/rounds", headers=director(srv, secret))
        assert refused.json()["code"] == "not_ready"  # two left cannot fill a table of three


def test_a_database_of_the_previous_schema_opens_and_takes_withdrawals(tmp_path: Path) -> None:
    """A server database made before entrants could withdraw (``tt_club_entrants`` without its
    ``withdrawn`` column) opens, keeps its tournament, and gains the column."""
    db = tmp_path / "old.db"
    engine = create_engine(f"sqlite:///{db}")
    old = MetaData()
    for table in club_metadata.tables.values():
        SqlTable(table.name, old, *(column._copy() for column in table.columns if column.name != "withdrawn"))
    old.create_all(engine)
    secret = "old-secret"
    with engine.begin() as conn:
        conn.execute(insert(old.tables["tt_club_tournaments"]).values(
            id="old", name="Old night", game="tute", preset="habanero",
            options=json.dumps(dict(new_game("tute", preset="habanero", rounds_to_win=1).options)),
            format="round_robin", rounds=None, turn_time=0.0, director_hash=token_hash(secret), created=0.0))
        conn.execute(insert(old.tables["tt_club_entrants"]), [
            {"tournament_id": "old", "number": n, "name": name, "members": json.dumps([name])}
            for n, name in enumerate(["Ann", "Bo", "Cy"], start=1)])
    engine.dispose()
    with running(str(db)) as srv:
        assert [e["name"] for e in view(srv, "old")["entrants"]] == ["Ann", "Bo", "Cy"]
        start_round(srv, "old", secret)
        assert withdraw(srv, "old", secret, 3).status_code == 200
        lines = {line["entrant"]: line for line in view(srv, "old")["standings"]}
        assert lines[3]["withdrawn"] == 1 and lines[1]["withdrawn"] is None


@pytest.mark.parametrize("preset", ["three", "rules_2002_three"])
def test_huutopussi_for_three_seats_three_players_a_table_and_the_fourth_has_a_bye(tmp_path: Path,
                                                                                  preset: str) -> None:
    with running(str(tmp_path / "club.db")) as srv:
        tid, secret = new_tournament(srv, ["Ann", "Bo", "Cy", "Di"], game="huutopussi", preset=preset)
        info = view(srv, tid)
        assert (info["sides"], info["smallest_table"], info["rounds"]) == (3, 3, 2)
        first = start_round(srv, tid, secret)
        assert [t["sides"] for t in first["tables"]] == [[1, 2, 3], [4]]
        table = srv.app.state.tables.tables[first["tables"][0]["table_id"]]
        assert table.game.num_players == 3 and table.game.preset == preset
        assert [s["player"] for s in first["tables"][0]["seats"]] == ["Ann", "Bo", "Cy"]
        srv.http.post(f"/api/club/{tid}/forfeits", headers=director(srv, secret),
                      json={"round": 1, "board": 1, "absent": [1, 2, 3]})
        # Di, who had the bye, plays; the bye to the highest number without one, Cy; seat 0 (the
        # first dealer) to those who have not had it, Ann last
        second = start_round(srv, tid, secret)
        assert [t["sides"] for t in second["tables"]] == [[2, 4, 1], [3]]
