"""The web server over real HTTP and WebSockets (docs/server.md): tables, trust, nothing lost.

Each test starts a server on a free loopback port (``server_helpers``) with
bots in a thread and no bot delay, and talks to it as a browser does.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from server_helpers import (
    Running,
    Socket,
    alive,
    descendants,
    free_port,
    play_to_end,
    running,
    start_server,
)
from sqlalchemy.exc import IntegrityError
from test_bots_search import VARIANTS
from websockets.exceptions import ConnectionClosed

import tricktaker as tt
from tricktaker.bots.pimc import SOLVE_CARDS
from tricktaker.server import botpool
from tricktaker.server.store import Store, StoredTable, database_url
from tricktaker.server.tables import token_hash

FRENCH = re.compile(r"\b[AKQJT98765432][SHDC]\b")
SPANISH = re.compile(r"\b(?:1[012]|[1-7])[OCEB]\b")


# -- HTTP ------------------------------------------------------------------------------


def test_pages_and_client_files_are_served(server: Running) -> None:
    lobby = server.http.get("/")
    assert lobby.status_code == 200 and "<html" in lobby.text.lower()
    created = server.create()
    table = server.http.get(f"/t/{created['id']}")
    assert table.status_code == 200 and "<html" in table.text.lower()
    assert server.http.get("/static/cards.js").status_code == 200
    assert server.http.get("/static/no-such-file.js").status_code == 404


def test_games_catalogue_lists_every_game_with_its_deck_options_and_the_bots() -> None:
    from tricktaker.server.tables import game_catalogue

    catalogue = game_catalogue()
    games = {g["name"]: g for g in catalogue["games"]}
    assert set(games) == set(tt.GAMES)
    assert games["tute"]["deck"] == "spanish" and games["tuppi"]["deck"] == "french"
    assert games["tute"]["players"] == [2, 3, 4, 5, 6] and games["huutopussi"]["players"] == [4, 3, 2]
    # the sizes each preset is played at: Tute cabrero alone takes five and six
    assert games["tute"]["preset_players"] == {"pairs": [2, 3, 4], "habanero": [2, 3, 4],
                                               "three": [2, 3, 4], "cabrero": [3, 4, 5, 6]}
    assert games["tuppi"]["presets"]["tournament"]["hand_limit"] == 20
    assert {o["name"] for o in games["tuppi"]["options"]} >= {"sooli", "target"}
    assert [b["name"] for b in catalogue["bots"]] == ["random", "rules", "pimc", "ismcts"]
    assert catalogue["default_bot"] == "pimc"


@pytest.mark.parametrize(("body", "needle"), [
    ({"game": "whist", "seats": []}, "unknown game"),
    ({"game": "tuppi", "options": {"target": -3}, "seats": []}, "target"),
    ({"game": "tuppi", "options": {"colour": 1}, "seats": []}, "unknown option"),
    ({"game": "tuppi", "preset": "pub", "seats": []}, "unknown preset"),
    ({"game": "tuppi", "seats": [{"kind": "human"}]}, "4 seats"),
    ({"game": "tuppi", "seats": [{"kind": "human"}] * 3 + [{"kind": "bot", "bot": "genius"}]}, "unknown bot"),
    ({"game": "tuppi", "seats": [{"kind": "human"}] * 3 + [{"kind": "alien"}]}, "kind must be"),
    ({"game": "tuppi", "seats": [], "colour": "red"}, "unknown field"),
    ([1, 2], "JSON object"),
])
def test_a_bad_table_request_is_refused_with_its_reason(server: Running, body: Any, needle: str) -> None:
    response = server.http.post("/api/tables", json=body)
    assert response.status_code == 400
    assert needle in response.json()["error"]
    assert server.http.get("/api/tables").json()["tables"] == []


def test_a_body_that_is_not_json_or_too_large_is_refused(server: Running) -> None:
    assert server.http.post("/api/tables", content=b"{nope").status_code == 400
    nested = server.http.post("/api/tables", content=b"[" * 5000 + b"]" * 5000)
    assert nested.status_code == 400 and "nested" in nested.json()["error"]
    assert server.http.post("/api/tables", content=b"[" + b" " * 20000 + b"]").status_code == 413


@pytest.mark.parametrize(("spec", "needle"), [
    # within what the bot itself takes, over what this server allows
    ("pimc:time=30", "time=30 is over this server's limit of 3 s"),
    ("pimc:time=30:worlds=500", "time=30 is over this server's limit of 3 s"),
    ("pimc:worlds=5000", "worlds=5000 is over this server's limit of 1000"),
    ("ismcts:iterations=500000", "iterations=500000 is over this server's limit of 100000"),
    # (the limit is the game's own solve size, bots.pimc.SOLVE_CARDS)
    (f"pimc:solve_cards={SOLVE_CARDS['tuppi'] + 3}",
     f"solve_cards={SOLVE_CARDS['tuppi'] + 3} is over this server's limit of {SOLVE_CARDS['tuppi']}"),
    ("pimc:stock_cards=12", "stock_cards=12 is over this server's limit of 0"),  # Tuppi has no stock
    ("pimc:max_candidates=500", "max_candidates=500 is over this server's limit of 64"),
    # what no bot takes (parse_bot's own checks)
    ("pimc:time=1e9", "time"),
    ("ismcts:iterations=999999999999", "iterations"),
    ("pimc:time=30:worlds=100000000", "worlds"),
    ("pimc:worlds=abc", "worlds"),
    ("pimc:worlds=0", "worlds"),
    ("pimc:time=-1", "time"),
    ("pimc:time=nan", "time"),
    ("pimc:rollout=magic", "rollout"),
    ("ismcts:exploration=-2", "exploration"),
    ("pimc:", "key=value"),
    ("oracle", "oracle sees every card"),  # it cannot play from a seat's view
])
def test_a_bot_spec_of_a_wrong_type_or_over_the_servers_limits_is_refused(
        server: Running, spec: str, needle: str) -> None:
    """Each of these was accepted, then either stalled every bot of the server (a search
    of 1e9 s) or failed on every move so that its table was stuck for good."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": spec}, {"kind": "human"}, {"kind": "human"}]
    response = server.http.post("/api/tables", json={"game": "tuppi", "seats": seats})
    assert response.status_code == 400
    assert response.json()["error"].startswith("seat 1: ") and needle in response.json()["error"]
    assert server.http.get("/api/tables").json()["tables"] == []


def test_bot_specs_within_the_limits_are_taken_as_they_are(server: Running) -> None:
    specs = ["pimc:time=0.5:worlds=40", "ismcts:iterations=5000", "pimc:solve_cards=9:time=none", "random"]
    created = server.create("tuppi", specs)
    info = server.http.get(f"/api/tables/{created['id']}").json()
    assert [s["bot"] for s in info["seats"]] == specs


def test_a_created_table_is_listed_with_public_information_only(server: Running) -> None:
    created = server.create("tute", ["human", "rules", "human", "random"])
    tokens = [s.get("token") for s in created["seats"]]
    assert tokens[0] and tokens[2] and tokens[0] != tokens[2] and tokens[1] is None
    assert created["seats"][0]["link"] == f"/t/{created['id']}#token={tokens[0]}"
    listed = server.http.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [created["id"]]
    text = json.dumps(listed)
    assert tokens[0] not in text and not SPANISH.search(text.replace(created["id"], ""))
    assert listed[0]["seats"][1] == {"seat": 1, "kind": "bot", "bot": "rules", "player": None,
                                       "nickname": None, "connected": True}
    assert listed[0]["seats"][0]["connected"] is False


# -- playing -------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_person_plays_a_whole_match_of_every_variant_with_bots(tmp_path: Path, variant: str) -> None:
    name, options = VARIANTS[variant]
    options = dict(options)
    preset = options.pop("preset", None)
    players = tt.new_game(name, preset=preset, **options).num_players
    with running(str(tmp_path / "t.db")) as srv:
        # rules bots, and a person who passes when he can: random bidding would keep a
        # Huutopussi match from ever reaching 500
        created = srv.create(name, ["human"] + ["rules"] * (players - 1), preset=preset, options=options)
        ws = srv.ws(created["id"])
        assert ws.join(created["seats"][0]["token"])["seat"] == 0
        last = play_to_end(ws, choose=lambda legal: "pass" if "pass" in legal else legal[len(legal) // 2])
        record = srv.http.get(f"/api/tables/{created['id']}/record")
        assert record.status_code == 200
        state = tt.load(record.text)
        assert state.is_over() and last["observation"] == state.observation(0)
        assert last["seq"] == len(state.history)


def test_two_people_and_a_spectator_share_one_table(server: Running) -> None:
    created = server.create("tuppi", ["human", "random", "human", "random"], options={"target": 12})
    a, b, watcher = (server.ws(created["id"]) for _ in range(3))
    a.join(created["seats"][0]["token"])
    b.join(created["seats"][2]["token"])
    assert watcher.join()["seat"] is None
    first = watcher.until("state")
    assert first["observation"]["hand"] == [] and first["legal"] == []
    assert a.until("presence", connected=[True, True, True, True])
    b.close()
    assert a.until("presence", connected=[True, True, False, True])
    # the second person comes back on the same link and finds the same position
    b = server.ws(created["id"])
    b.join(created["seats"][2]["token"])
    rejoined = b.until("state")
    assert rejoined["seq"] == server.http.get(f"/api/tables/{created['id']}").json()["seq"]
    with ThreadPoolExecutor(2) as pool:
        a_future = pool.submit(play_to_end, a)
        b_end = play_to_end(b, first=rejoined)
        a_end = a_future.result()
    spectator_end = None
    while spectator_end is None:
        message = watcher.until("state")
        assert message["observation"]["hand"] == [] and message["legal"] == []
        if message["over"]:
            spectator_end = message
    assert spectator_end["seq"] == a_end["seq"] == b_end["seq"]
    assert a_end["observation"]["hand_number"] == spectator_end["observation"]["hand_number"]


def test_refused_messages_name_the_problem_and_change_nothing(server: Running) -> None:
    created = server.create("tuppi", ["human", "human", "human", "human"])
    sockets = [server.ws(created["id"]) for _ in range(4)]
    for seat, ws in enumerate(sockets):
        ws.join(created["seats"][seat]["token"])
    state = sockets[1].until("state")  # seat 1 leads the bidding after dealer 0
    seq = state["seq"]
    mover = next(i for i, ws in enumerate(sockets) if i == state["observation"]["current_player"])
    other = (mover + 1) % 4
    cases = [
        (sockets[other], {"type": "act", "action": "pass"}, "not_your_turn"),
        (sockets[mover], {"type": "act", "action": "play ZZ"}, "illegal"),
        (sockets[mover], {"type": "act", "action": "fly away"}, "illegal"),
        (sockets[mover], {"type": "act", "action": 7}, "malformed"),
        (sockets[mover], {"type": "act"}, "malformed"),
        (sockets[mover], {"type": "act", "action": "pass", "seq": seq + 5}, "stale"),
        (sockets[mover], {"type": "act", "action": "pass", "seq": "x"}, "malformed"),
        (sockets[mover], {"type": "dance"}, "malformed"),
        (sockets[mover], {"no": "type"}, "malformed"),
        (sockets[mover], "not json", "malformed"),
        (sockets[mover], b"\x00\x01", "malformed"),
        (sockets[mover], {"type": "act", "action": "x" * 5000}, "too_large"),
        (sockets[mover], {"type": "join"}, "malformed"),
    ]
    for ws, message, code in cases:
        ws.send(message)
        answer = ws.until("error")
        assert answer["code"] == code, (message, answer)
        assert answer["message"]
    info = server.http.get(f"/api/tables/{created['id']}").json()
    assert info["seq"] == seq


def test_why_explains_a_refused_card_with_the_engine_reason(server: Running) -> None:
    created = server.create("tuppi", ["human", "human", "human", "human"])
    ws = server.ws(created["id"])
    ws.join(created["seats"][2]["token"])
    ws.send({"type": "why", "action": "bid 2C"})
    answer = ws.until("why")
    assert "not your turn" in answer["message"]
    assert (answer["code"], answer["params"]) == ("turn", {})


def test_why_carries_the_refusals_code_and_params_for_the_page_to_translate(server: Running) -> None:
    """Issue 21: the page says the reason in the person's language by its code, not its English."""
    created = server.create("tuppi", ["human", "human", "human", "human"])
    codes = []
    for seat in range(4):
        ws = server.ws(created["id"])
        ws.join(created["seats"][seat]["token"])
        ws.send({"type": "why", "action": "play 2C"})
        answer = ws.until("why")
        assert answer["message"] and answer["params"] == {}
        codes.append(answer["code"])
        if answer["code"] == "not_now":  # the mover: a malformed action's reason has no code
            ws.send({"type": "why", "action": "bid nonsense"})
            plain = ws.until("why")
            assert plain["message"] and (plain["code"], plain["params"]) == (None, {})
    assert sorted(codes) == ["not_now", "turn", "turn", "turn"]


def test_a_refused_move_carries_the_engines_reason_code_for_the_page_to_translate(server: Running) -> None:
    """A refused ``act`` says why as a ``why`` answer does: the English message, and the
    engine's reason code and params (a card in the auction: ``not_now``)."""
    created = server.create("tuppi", ["human", "human", "human", "human"])
    ws = server.ws(created["id"])
    ws.join(created["seats"][1]["token"])  # seat 1 leads the bidding after dealer 0
    assert ws.until("state")["legal"]
    ws.send({"type": "act", "action": "play 2C"})
    answer = ws.until("error")
    assert answer["code"] == "illegal" and "not possible now" in answer["message"]
    assert (answer["reason"], answer["params"]) == ("not_now", {})
    ws.send({"type": "act", "action": "bid nonsense"})
    plain = ws.until("error")
    assert plain["code"] == "illegal" and (plain["reason"], plain["params"]) == (None, {})


def test_bad_tokens_and_unknown_tables_are_refused(server: Running) -> None:
    created = server.create()
    ws = server.ws(created["id"])
    ws.send({"type": "join", "token": "guess"})
    assert ws.until("error")["code"] == "bad_token"
    ws.send({"type": "act", "action": "pass"})
    assert ws.until("error")["code"] == "not_joined"
    lost = server.ws("nosuchtable")
    lost.send({"type": "join"})
    assert lost.until("error")["code"] == "no_table"


def test_a_message_that_trips_a_bug_gets_an_internal_error_and_the_connection_lives_on(
        server: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    from tricktaker.server.tables import Tables

    async def broken(*_args: Any) -> str:
        raise KeyError("a bug")

    monkeypatch.setattr(Tables, "why", broken)
    created = server.create()
    ws = server.ws(created["id"])
    ws.join(created["seats"][0]["token"])
    ws.send({"type": "why", "action": "play 2C"})
    assert ws.until("error")["code"] == "internal"
    ws.send({"type": "ping"})
    assert ws.until("pong")


def test_the_page_of_a_missing_table_is_not_found(server: Running) -> None:
    """A wrong or expired link: the page answers 404 (and, joining, hears ``no_table``,
    which the browser test shows it tells the person)."""
    missing = server.http.get("/t/nosuchtable")
    assert missing.status_code == 404 and "<html" in missing.text.lower()
    created = server.create("tuppi", ["human", "random", "random", "random"], options={"target": 8})
    assert server.http.get(f"/t/{created['id']}").status_code == 200
    ws = server.ws(created["id"])
    ws.join(created["seats"][0]["token"])
    play_to_end(ws)
    ws.close()
    assert server.http.get(f"/t/{created['id']}").status_code == 200  # a finished table still has its page


def test_a_deeply_nested_message_is_refused_and_the_connection_lives_on(server: Running) -> None:
    """Before: a RecursionError in the server's log, the connection closed, no ``error``."""
    created = server.create()
    ws = server.ws(created["id"])
    ws.join()
    ws.send("[" * 1500 + "]" * 1500)
    assert ws.until("error")["code"] == "malformed"
    ws.send('{"type": "why", "action": ' + "[" * 1900 + "]" * 1900 + "}")
    assert ws.until("error")["code"] == "malformed"
    ws.send({"type": "ping"})
    assert ws.until("pong")


def test_a_flood_is_refused_and_then_the_connection_closed(tmp_path: Path) -> None:
    with running(str(tmp_path / "t.db"), rate=10, burst=30) as server:
        flood(server)


def flood(server: Running) -> None:
    created = server.create()
    ws = server.ws(created["id"])
    ws.join()
    for _ in range(200):
        try:
            ws.send({"type": "ping"})
        except Exception:
            break
    codes = []
    try:
        while True:
            message = ws.recv(timeout=5)
            if message["type"] == "error":
                codes.append(message["code"])
    except Exception:
        pass  # closed by the server
    assert "flood" in codes
    assert ws.conn.close_code == 1008


def test_an_oversized_frame_closes_the_connection(server: Running) -> None:
    created = server.create()
    ws = server.ws(created["id"])
    ws.join()
    ws.send("x" * 100_000)
    with pytest.raises(ConnectionClosed):
        for _ in range(10):
            ws.recv(timeout=5)
    assert ws.conn.close_code == 1009


def test_the_record_is_only_shown_once_the_match_is_over(server: Running) -> None:
    created = server.create()
    response = server.http.get(f"/api/tables/{created['id']}/record")
    assert response.status_code == 403 and "over" in response.json()["error"]
    assert server.http.get("/api/tables/nope/record").status_code == 404


# -- no leaks --------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["tuppi", "tute-pairs", "huutopussi", "huutopussi-three",
                                     "avomarjapussi", "tuppi-tournament"])
def test_no_frame_carries_a_card_its_seat_may_not_see(tmp_path: Path, variant: str) -> None:
    """Every frame is the engine's observation for that seat (checked against a replay of the
    record), and an action's text reaches other seats only when it names no hidden card."""
    name, options = VARIANTS[variant]
    options = dict(options)
    preset = options.pop("preset", None)
    players = tt.new_game(name, preset=preset, **options).num_players
    pattern = SPANISH if name == "tute" else FRENCH
    with running(str(tmp_path / "t.db")) as srv:
        created = srv.create(name, ["human"] * players, preset=preset, options=options)
        sockets = [srv.ws(created["id"]) for _ in range(players)]
        for seat, ws in enumerate(sockets):
            ws.join(created["seats"][seat]["token"])
        spectator = srv.ws(created["id"])
        spectator.join()
        for _ in range(600):  # about two hands, every seat a person
            for ws in sockets:
                while True:
                    message = ws.recv()
                    if message["type"] == "state":
                        break
                if message["legal"]:
                    ws.send({"type": "act", "action": message["legal"][-1], "seq": message["seq"]})
            if message["observation"]["hand_number"] >= 2 or message["over"]:
                break
        time.sleep(0.3)
        for ws in sockets:
            ws.close()
        spectator.close()
    # replay the table's stored actions to know what each seat was entitled to at every seq
    store = Store(str(tmp_path / "t.db"))
    stored = store.load_table(created["id"])
    store.close()
    assert stored is not None
    actions = stored.actions
    game = tt.new_game(name, preset=preset, **options)
    replay = game.new_match(seed=stored.seed)
    observations: list[list[Any]] = []
    for step in range(len(actions) + 1):
        observations.append([replay.observation(s) for s in range(players)] + [replay.observation(None)])
        if step < len(actions):
            replay.apply(actions[step][1], seat=actions[step][0])
    for seat, ws in enumerate([*sockets, spectator]):
        index = seat if seat < players else players
        seen: set[str] = set()
        for frame in ws.frames:
            message = json.loads(frame)
            if message["type"] == "history":
                assert message["lines"] == message["hands"] == []  # every socket joined at seq 0
                continue
            if message["type"] == "review":  # after a hand: only cards this seat has seen by then
                assert set(pattern.findall(frame.replace(created["id"], ""))) <= seen, (seat, frame)
                continue
            if message["type"] != "state":
                assert not pattern.search(frame.replace(created["id"], "")), frame
                continue
            assert message["observation"] == observations[message["seq"]][index]
            seen |= set(pattern.findall(json.dumps(message["observation"])))
            if message["event"] is not None:
                assert set(pattern.findall(message["event"]["action"])) <= seen, (seat, message["event"])


# -- nothing lost ------------------------------------------------------------------------


def seen_by(game: tt.Game, seed: int, actions: list[tuple[int, str]], seat: int | None
            ) -> tuple[list[dict[str, Any]], list[Any], int]:
    """From a replay: every action as ``seat`` may read it, each finished hand's result as
    its observation showed it when the hand ended, and the tricks played."""
    state = game.new_match(seed=seed)
    events, results, tricks = [], [], 0
    for actor, text in actions:
        hand, before = state.hand_number, len(state.observation(None)["tricks"] or [])
        state.apply(text, seat=actor)
        kind, *args = text.split(" ")
        private = kind in game.PRIVATE_ACTIONS and seat != actor
        events.append({"seat": actor, "action": kind, "cards": len(args)} if private
                      else {"seat": actor, "action": text})
        if state.hand_number != hand or state.is_over():
            results.append(state.observation(seat)["previous_hand"])
            tricks += before + 1 if results[-1].get("final_trick") else before
    return events, results, tricks


@pytest.mark.parametrize("variant", ["tuppi", "huutopussi", "tute-pairs"])
def test_a_late_joiner_gets_the_whole_story_as_its_seat_saw_it(tmp_path: Path, variant: str) -> None:
    """A reload, a second device or a spectator arriving late: the events of the match and
    every earlier hand's result come from the server (before, only from the page that
    watched them happen), each as that seat was entitled to see it."""
    name, options = VARIANTS[variant]
    options = dict(options)
    preset = options.pop("preset", None)
    game = tt.new_game(name, preset=preset, **options)
    players = game.num_players
    with running(str(tmp_path / "t.db")) as srv:
        created = srv.create(name, ["human"] + ["rules"] * (players - 1), preset=preset, options=options)
        ws = srv.ws(created["id"])
        ws.join(created["seats"][0]["token"])
        message = ws.until("state")
        while message["observation"]["hand_number"] < 2 and not message["over"]:
            if message["legal"]:
                action = "pass" if "pass" in message["legal"] else message["legal"][0]
                ws.send({"type": "act", "action": action, "seq": message["seq"]})
            message = ws.until("state")
        ws.close()
        for seat in [0, None]:
            late = srv.ws(created["id"])
            late.join(created["seats"][0]["token"] if seat == 0 else None)
            history = late.until("history")
            state = late.until("state")
            stored = srv.app.state.tables.tables[created["id"]].stored
            actions = stored.actions[:state["seq"]]
            events, results, tricks = seen_by(game, stored.seed, actions, seat)
            lines = history["lines"]
            told = [{k: v for k, v in line.items() if k != "bids"} for line in lines if "seat" in line]
            assert told == events
            assert [h["result"] for h in history["hands"]] == results
            assert [h["number"] for h in history["hands"]] == list(range(1, len(results) + 1))
            this_hand = 0 if state["over"] else len(state["observation"]["tricks"])
            assert len([line for line in lines if "trick" in line]) == tricks + this_hand
            new_hands = len(results) - 1 if state["over"] else len(results)  # no new hand after the last
            assert [line["hand"] for line in lines if "hand" in line] == list(range(2, new_hands + 2))
            late.close()


def test_a_persons_lone_choice_that_is_not_a_card_is_played_for_them(server: Running) -> None:
    """Tute's lone "pass" (nothing to sing), Huutopussi's forced pass or answer: a prompt
    with one button.  Here the person never answers one, and the match still ends.  (The deal
    is the server's own, and a person who takes no trick is never asked to sing: up to five
    one-round matches, until one had such a prompt.)"""
    lone = 0
    for _ in range(5):
        created = server.create("tute", ["human", "rules", "rules", "rules"], options={"rounds_to_win": 1})
        ws = server.ws(created["id"])
        ws.join(created["seats"][0]["token"])
        message = ws.until("state")
        while not message["over"]:
            legal = message["legal"]
            if len(legal) > 1 or legal and legal[0].startswith("play "):
                ws.send({"type": "act", "action": legal[0], "seq": message["seq"]})
            message = ws.until("state")
        state = tt.load(server.http.get(f"/api/tables/{created['id']}/record").text)
        assert state.is_over()
        replay = state.game.new_match(seed=state.seed)
        for action in state.history:
            legal = replay.legal_actions()
            lone += replay.current_player == 0 and len(legal) == 1 and legal[0].kind != "play"
            replay.apply(action)
        if lone:
            break
    assert lone > 0


def test_another_seats_private_action_is_told_by_its_kind_and_number_of_cards(server: Running) -> None:
    """Before, "Partner gives ? cards", even to the partner who got them."""
    created = server.create("tuppi", ["human"] * 4)
    table = server.app.state.tables.tables[created["id"]]
    assert table.event_for(2, 0, "give 2S 3H 4D") == {"seat": 0, "action": "give", "cards": 3}
    assert table.event_for(0, 0, "give 2S 3H 4D") == {"seat": 0, "action": "give 2S 3H 4D"}
    assert table.event_for(None, 1, "play 2S") == {"seat": 1, "action": "play 2S"}


def test_a_person_who_does_not_move_in_time_has_the_move_played_for_them(tmp_path: Path) -> None:
    with running(str(tmp_path / "t.db"), turn_time=0.6) as srv:
        created = srv.create("tuppi", ["human", "random", "random", "random"])
        ws = srv.ws(created["id"])
        ws.join(created["seats"][0]["token"])
        mine = ws.until("state")
        while not mine["legal"]:
            mine = ws.until("state")
        assert mine["timer"]["seat"] == 0 and 0 < mine["timer"]["seconds"] <= 0.6
        started = time.monotonic()
        assert ws.until("timeout", timeout=5) == {"type": "timeout", "seat": 0, "away": False}
        after = ws.until("state", timeout=5)
        assert after["seq"] == mine["seq"] + 1 and after["event"]["seat"] == 0
        assert after["event"]["action"] in mine["legal"]
        assert 0.5 < time.monotonic() - started < 3
    with running(str(tmp_path / "u.db")) as srv:  # no turn time: a person's turn waits
        created = srv.create("tuppi", ["human", "random", "random", "random"])
        ws = srv.ws(created["id"])
        ws.join(created["seats"][0]["token"])
        mine = ws.until("state")
        while not mine["legal"]:
            mine = ws.until("state")
        assert mine["timer"] is None
        with pytest.raises(TimeoutError):
            ws.until("state", timeout=1.5)


def keep_playing(srv: Running, table_id: str, ws: Socket, seat: int, seconds: float,
                 until: Callable[[], bool] = lambda: False) -> None:
    """``ws`` plays ``seat``'s turns at once (the first legal action) for ``seconds``, or until
    ``until()``; it reads the position from the server (the socket's states are skipped)."""
    table = srv.app.state.tables.tables[table_id]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not until():
        with contextlib.suppress(Exception):  # the server's thread may move meanwhile
            if table.state.current_player == seat:
                ws.send({"type": "act", "action": table.state.legal_actions()[0].text, "seq": table.seq})
        with contextlib.suppress(TimeoutError):
            ws.recv(0.05)


def test_an_absent_persons_turns_wait_only_the_absent_time(tmp_path: Path) -> None:
    """A person who never opened the page does not hold the others for the whole turn time
    each turn; a table nobody is at waits for its people rather than play itself out."""
    with running(str(tmp_path / "t.db"), turn_time=60, absent_time=0.2) as srv:
        created = srv.create("tuppi", ["human", "random", "human", "random"])
        ws = srv.ws(created["id"])
        ws.join(created["seats"][2]["token"])  # seat 0 never comes; seat 2 plays at once
        keep_playing(srv, created["id"], ws, 2, 20,
                     until=lambda: srv.http.get(f"/api/tables/{created['id']}").json()["seq"] >= 20)
        assert srv.http.get(f"/api/tables/{created['id']}").json()["seq"] >= 20, "the absent seat held it"
        ws.close()
        time.sleep(0.5)  # seat 2 gone as well: nobody is held up, nobody plays for them
        held = srv.http.get(f"/api/tables/{created['id']}").json()["seq"]
        time.sleep(1.5)
        assert srv.http.get(f"/api/tables/{created['id']}").json()["seq"] <= held + 1


def test_after_a_restart_nobody_is_absent_while_the_pages_reconnect(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    store = Store(db)
    tokens = [f"token{seat}" for seat in range(4)]
    store.add_table(StoredTable(id="back", game="tuppi", preset=None, options={}, seed=2,
                                seats=[{"kind": "human", "bot": None, "token_hash": digest}
                                       for digest in map(token_hash, tokens)]))
    store.close()
    with running(db, turn_time=60, absent_time=0.2) as srv:
        ws = srv.ws("back")
        ws.join(tokens[0])  # one page is back at once; the others are still reconnecting
        table = srv.app.state.tables.tables["back"]
        keep_playing(srv, "back", ws, 0, 1.5)
        assert all(seat == 0 for seat, _ in table.stored.actions)  # nobody played for the others
    with running(db, turn_time=60, absent_time=0.2) as srv:  # a new table's absent people do not wait
        created = srv.create("tuppi", ["human"] * 4)
        ws = srv.ws(created["id"])
        ws.join(created["seats"][0]["token"])
        keep_playing(srv, created["id"], ws, 0, 1.5)
        assert srv.http.get(f"/api/tables/{created['id']}").json()["seq"] >= 2


def test_each_table_chooses_its_turn_time_and_the_servers_is_the_default(tmp_path: Path) -> None:
    """Issue 21: the turn timer is chosen per table in the lobby (off for friends, on for a
    public table); ``--turn-time`` is only the default."""
    with running(str(tmp_path / "t.db"), turn_time=0) as srv:
        assert srv.http.get("/api/games").json()["turn_time"] == 0
        timed = srv.create("tuppi", ["human", "random", "random", "random"], turn_time=0.6)
        assert srv.http.get(f"/api/tables/{timed['id']}").json()["turn_time"] == 0.6
        ws = srv.ws(timed["id"])
        ws.join(timed["seats"][0]["token"])
        mine = ws.until("state")
        while not mine["legal"]:
            mine = ws.until("state")
        assert mine["timer"]["seat"] == 0 and 0 < mine["timer"]["seconds"] <= 0.6
        assert ws.until("timeout", timeout=5)["seat"] == 0
        for bad in (-1, 601, "30", True):
            response = srv.http.post("/api/tables", json={"game": "tuppi", "turn_time": bad,
                                                          "seats": [{"kind": "human"}] * 4})
            assert response.status_code == 400 and "turn_time" in response.json()["error"]
    with running(str(tmp_path / "u.db"), turn_time=45) as srv:
        assert srv.http.get("/api/games").json()["turn_time"] == 45
        default = srv.create("tuppi", ["human"] * 4)
        friends = srv.create("tuppi", ["human"] * 4, turn_time=0)
        assert srv.http.get(f"/api/tables/{default['id']}").json()["turn_time"] == 45
        assert srv.http.get(f"/api/tables/{friends['id']}").json()["turn_time"] == 0
        ws = srv.ws(friends["id"])
        ws.join(friends["seats"][0]["token"])
        assert ws.until("state")["timer"] is None
    with running(str(tmp_path / "u.db"), turn_time=45) as srv:  # kept across a restart
        assert srv.http.get(f"/api/tables/{friends['id']}").json()["turn_time"] == 0


def test_an_away_persons_seat_is_played_by_a_bot_after_the_grace_until_they_come_back(tmp_path: Path) -> None:
    """Issue 21: without any turn timer, a person who joined and then lost their connection
    is shown as away to everyone with the time until a bot takes over; after the grace the
    ``rules`` bot plays each of their turns; when they come back the seat is theirs again."""
    with running(str(tmp_path / "t.db"), absent_time=1.0) as srv:
        created = srv.create("tuppi", ["human", "random", "human", "random"])
        table_id = created["id"]
        watcher = srv.ws(table_id)
        watcher.join(created["seats"][2]["token"])
        leaver = srv.ws(table_id)
        leaver.join(created["seats"][0]["token"])
        assert leaver.until("state")["timer"] is None
        leaver.close()
        presence = watcher.until("presence", connected=[True, True, True, True])
        presence = watcher.until("presence", connected=[False, True, True, True])
        assert presence["away"][0] is not None and 0 < presence["away"][0] <= 1.0
        assert presence["away"][1:] == [None, None, None]
        table = srv.app.state.tables.tables[table_id]

        def play_seat_2() -> None:
            """The watcher plays its own turns (states it skipped while waiting included)."""
            with contextlib.suppress(Exception):  # the server's thread may move meanwhile
                if table.state.current_player == 2:
                    watcher.send({"type": "act", "action": table.state.legal_actions()[0].text,
                                  "seq": table.seq})

        played_for_0 = 0
        deadline = time.monotonic() + 30
        while played_for_0 < 3:
            assert time.monotonic() < deadline, "the away seat held the table"
            play_seat_2()
            with contextlib.suppress(TimeoutError):
                message = watcher.recv(0.3)
                if message["type"] == "timeout":
                    assert message == {"type": "timeout", "seat": 0, "away": True}
                    played_for_0 += 1
        # back: the seat is theirs, no bot plays it any more
        back = srv.ws(table_id)
        back.join(created["seats"][0]["token"])
        presence = watcher.until("presence", connected=[True, True, True, True])
        assert presence["away"] == [None] * 4
        mine = back.until("state")
        while not mine["legal"]:
            play_seat_2()
            with contextlib.suppress(TimeoutError):
                mine = back.until("state", timeout=0.3)
        time.sleep(2.0)  # twice the grace: nobody plays for the person who is back
        assert srv.http.get(f"/api/tables/{table_id}").json()["seq"] == mine["seq"]
        assert mine["timer"] is None


def test_a_finished_match_reopened_numbers_its_last_hand_as_the_live_page_did(server: Running) -> None:
    created = server.create("tuppi", ["human", "random", "random", "random"], options={"target": 8})
    ws = server.ws(created["id"])
    ws.join(created["seats"][0]["token"])
    end = play_to_end(ws)
    ws.close()
    again = server.ws(created["id"])
    again.join()
    hands = again.until("history")["hands"]
    assert hands[-1]["number"] == end["observation"]["hand_number"] + 1 == len(hands)
    assert hands[-1]["result"] == end["observation"]["previous_hand"] is not None


def _our_choice(ws: Socket) -> dict[str, Any]:
    """The next state where this seat has a real choice.  A lone non-card action (Tute's
    pass with nothing to sing) is played by the server itself, so it is not a place to stop."""
    while True:
        message = ws.until("state")
        legal = message["legal"]
        if len(legal) > 1 or (len(legal) == 1 and legal[0].startswith("play ")):
            return message


def _no_sooli(legal: list[str]) -> str:
    """The first legal action, but never Tuppi's sooli: a lost sooli costs 24 points, and a
    few of them end the match before the test is done with it."""
    return next(action for action in legal if action != "sooli")


def test_every_action_is_stored_before_it_is_broadcast(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    with running(db) as srv:
        created = srv.create("tuppi", ["human"] * 4)
        sockets = [srv.ws(created["id"]) for _ in range(4)]
        for seat, ws in enumerate(sockets):
            ws.join(created["seats"][seat]["token"])
        store = Store(db)
        for _ in range(30):
            for ws in sockets:
                message = ws.until("state")
                if message["legal"]:
                    ws.send({"type": "act", "action": _no_sooli(message["legal"]), "seq": message["seq"]})
                if message["event"] is not None:
                    stored = store.load_table(created["id"])
                    assert stored is not None and len(stored.actions) >= message["seq"]
        store.close()


def test_a_server_killed_mid_hand_resumes_every_table_exactly(tmp_path: Path) -> None:
    """A real ``tricktaker serve`` process, killed with SIGKILL mid-hand and started again."""
    db = str(tmp_path / "kill.db")
    port = free_port()

    def start() -> subprocess.Popen[bytes]:
        return start_server(port, db)

    from websockets.sync.client import connect

    process = start()
    sockets = contextlib.ExitStack()
    try:
        import httpx
        bots: list[dict[str, Any]] = [{"kind": "bot", "bot": "rules"}] * 3
        tables = [httpx.post(f"http://127.0.0.1:{port}/api/tables",
                             json={"game": game, "seats": [{"kind": "human"}, *bots]}).json()
                  for game in ("tuppi", "tute")]
        before = []
        for table in tables:
            ws = Socket(sockets.enter_context(connect(f"ws://127.0.0.1:{port}/ws/{table['id']}")))
            ws.join(table["seats"][0]["token"])
            for _ in range(12):  # play a few of our turns, then stop at our turn mid-hand
                message = _our_choice(ws)
                ws.send({"type": "act", "action": _no_sooli(message["legal"]), "seq": message["seq"]})
            before.append(_our_choice(ws))
            # The socket stays open until the kill: a person who left would have a bot play their
            # turn once ABSENT_TIME is over, which a slow machine reaches before the kill.
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        process = start()
        for table, old in zip(tables, before, strict=True):
            ws = Socket(sockets.enter_context(connect(f"ws://127.0.0.1:{port}/ws/{table['id']}")))
            ws.join(table["seats"][0]["token"])
            again = ws.until("state")
            assert again["seq"] == old["seq"] and again["observation"] == old["observation"]
            assert again["legal"] == old["legal"]
            ws.send({"type": "act", "action": again["legal"][0], "seq": again["seq"]})
            assert ws.until("state")["seq"] == old["seq"] + 1
            ws.close()
    finally:
        sockets.close()
        process.kill()
        process.wait(10)


def test_a_join_while_an_action_is_being_stored_sees_the_position_of_its_seq(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An action is applied, then stored, then broadcast.  Before, a join in between got
    the position with the action in it under the old seq (so the mover's next click
    was stale, and a turn's timer misread)."""
    real = Store.add_actions

    def slow(store: Store, rows: list[Any]) -> None:
        time.sleep(0.6)
        real(store, rows)

    monkeypatch.setattr(Store, "add_actions", slow)
    with running(str(tmp_path / "t.db")) as srv:
        created = srv.create("tuppi", ["human"] * 4)
        sockets = [srv.ws(created["id"]) for _ in range(4)]
        for seat, ws in enumerate(sockets):
            ws.join(created["seats"][seat]["token"])
        states = [ws.until("state") for ws in sockets]
        mover = next(seat for seat, state in enumerate(states) if state["legal"])
        sockets[mover].send({"type": "act", "action": states[mover]["legal"][0], "seq": 0})
        time.sleep(0.3)  # the action is applied and its write under way
        late = srv.ws(created["id"])
        late.join()
        seen = late.until("state")
        game = tt.new_game("tuppi")
        stored = srv.app.state.tables.tables[created["id"]].stored
        replay = game.new_match(seed=stored.seed)
        for seat, text in stored.actions[:seen["seq"]]:
            replay.apply(text, seat=seat)
        assert seen["observation"] == replay.observation(None)


def test_bots_resume_after_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    store = Store(db)
    game = tt.new_game("tuppi", target=8)
    stored = StoredTable(id="resume", game="tuppi", preset=None, options=dict(game.options), seed=3,
                         seats=[{"kind": "bot", "bot": "random"}] * 4)
    store.add_table(stored)
    store.close()
    with running(db) as srv:
        deadline = time.monotonic() + 60
        while srv.http.get("/api/tables/resume/record").status_code != 200:
            assert time.monotonic() < deadline, "the bots did not finish the resumed match"
            time.sleep(0.1)
        assert tt.load(srv.http.get("/api/tables/resume/record").text).is_over()


# -- bots off the event loop --------------------------------------------------------------


def test_a_slow_bot_does_not_hold_up_other_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = botpool.decide

    def slow(record: str, seat: int, spec: str, seed: int, limits: botpool.BotLimits) -> str:
        if spec == "rules":
            time.sleep(3)
        return real(record, seat, spec, seed, limits)

    monkeypatch.setattr(botpool, "decide", slow)
    with running(str(tmp_path / "t.db")) as srv:
        srv.create("tuppi", ["rules", "human", "human", "human"])  # dealer 0: seat 1 bids first...
        slow_table = srv.create("tuppi", ["human", "rules", "rules", "rules"])
        assert slow_table
        fast = srv.create("tuppi", ["human"] * 4)
        sockets = [srv.ws(fast["id"]) for _ in range(4)]
        for seat, ws in enumerate(sockets):
            ws.join(fast["seats"][seat]["token"])
        started = time.monotonic()
        for _ in range(8):
            for ws in sockets:
                message = ws.until("state")
                if message["legal"]:
                    ws.send({"type": "act", "action": message["legal"][0], "seq": message["seq"]})
        assert time.monotonic() - started < 2.5


def test_quick_bots_never_wait_behind_a_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``random`` and ``rules`` decide in a thread of their own: a search (or a worker's
    warm-up) that takes long holds up search bots only.  Before, one such search made a
    ``random`` move at another table take 37 s."""
    real = botpool.decide

    def slow_search(record: str, seat: int, spec: str, seed: int, limits: botpool.BotLimits) -> str:
        if spec.startswith("pimc"):
            time.sleep(4)
        return real(record, seat, spec, seed, limits)

    monkeypatch.setattr(botpool, "decide", slow_search)
    with running(str(tmp_path / "t.db")) as srv:
        srv.create("tuppi", ["pimc", "pimc", "pimc", "pimc"])
        time.sleep(0.3)  # the search is under way
        quick = srv.create("tuppi", ["human", "random", "rules", "random"])
        ws = srv.ws(quick["id"])
        ws.join(quick["seats"][0]["token"])
        started = time.monotonic()
        message = ws.until("state")
        while message["seq"] < 12:
            if message["legal"]:
                ws.send({"type": "act", "action": message["legal"][0], "seq": message["seq"]})
            message = ws.until("state")
        assert time.monotonic() - started < 2.5


def test_a_state_names_the_bot_that_is_thinking_and_whether_the_bots_are_starting(
        server: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    real = botpool.decide

    def slow(record: str, seat: int, spec: str, seed: int, limits: botpool.BotLimits) -> str:
        time.sleep(0.5)
        return real(record, seat, spec, seed, limits)

    monkeypatch.setattr(botpool, "decide", slow)
    server.app.state.tables.pool.warming = 1  # as while the worker processes load the solver
    created = server.create("tuppi", ["human", "pimc", "rules", "human"])  # dealer 0: seat 1 bids first
    ws = server.ws(created["id"])
    ws.join(created["seats"][0]["token"])
    first = ws.until("state")
    assert first["thinking"] == {"seat": 1, "starting": True}  # a search waits for the warm-up
    second = ws.until("state", seq=1)
    assert second["thinking"] == {"seat": 2, "starting": False}  # a quick bot never does
    assert ws.until("state", seq=2)["thinking"] is None  # a person's turn


def test_a_broken_or_greedy_stored_bot_neither_sticks_its_table_nor_stalls_others(tmp_path: Path) -> None:
    """Tables stored before the spec checks existed: ``pimc:worlds=abc`` failed on every
    try (its table stuck for good, across restarts); ``pimc:time=1e9`` held a worker for
    ever (``time=3600`` is as much as a bot takes now, still an hour a move).  Now the
    failing bot's move is played by ``rules`` (and logged), and every search is held to
    the server's time, whatever its spec says."""
    db = str(tmp_path / "t.db")
    store = Store(db)
    options = dict(tt.new_game("tuppi", target=8).options)
    for table_id, spec in (("broken", "pimc:worlds=abc"), ("greedy", "pimc:time=3600:worlds=100000"),
                           ("quick", "random")):
        store.add_table(StoredTable(id=table_id, game="tuppi", preset=None, options=options, seed=5,
                                    seats=[{"kind": "bot", "bot": spec}] * 4))
    store.close()
    with running(db, bot_time=0.2) as srv:
        started = time.monotonic()
        while srv.http.get("/api/tables/quick/record").status_code != 200:
            assert time.monotonic() < started + 20, "the random bots' match did not finish"
            time.sleep(0.1)
        while srv.http.get("/api/tables/broken").json()["seq"] < 20:
            assert time.monotonic() < started + 30, "the table whose bot fails is stuck"
            time.sleep(0.1)
        greedy = srv.http.get("/api/tables/greedy").json()["seq"]
        time.sleep(2)  # at 0.2 s a move (not an hour), several moves
        assert srv.http.get("/api/tables/greedy").json()["seq"] >= greedy + 4


def test_a_search_that_does_not_come_back_is_replaced_by_rules_for_that_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = botpool.decide

    def hung(record: str, seat: int, spec: str, seed: int, limits: botpool.BotLimits) -> str:
        if spec.startswith("pimc"):
            time.sleep(5)  # a search stuck far beyond its budget (of 0.1 s)
        return real(record, seat, spec, seed, limits)

    monkeypatch.setattr(botpool, "decide", hung)
    monkeypatch.setattr(botpool, "OVERRUN_MARGIN", 0.5)
    with running(str(tmp_path / "t.db"), bot_time=0.1) as srv:  # gives up after 0.8 s
        assert srv.app.state.tables.pool.hard_limit() == pytest.approx(0.8)
        created = srv.create("tuppi", ["human", "pimc", "human", "human"])  # seat 1 bids first
        started = time.monotonic()
        while srv.http.get(f"/api/tables/{created['id']}").json()["seq"] < 1:
            assert time.monotonic() - started < 5, "the table waited on the stuck search"
            time.sleep(0.05)
        info = srv.http.get(f"/api/tables/{created['id']}").json()
        assert info["seats"][1]["bot"] == "pimc"  # the seat keeps its bot: one move was replaced


def test_search_bots_are_held_to_the_servers_limits_whatever_their_spec() -> None:
    limits = botpool.BotLimits(time=2.0, worlds=50, iterations=400)
    # one thread a decision (the workers decide side by side), whatever the spec asks
    assert botpool.capped_options("pimc", {}, limits) == {"time": 2.0, "threads": 1}
    assert botpool.capped_options("pimc", {"time": 9, "worlds": 10**8, "threads": 8}, limits) \
        == {"time": 2.0, "worlds": 50, "threads": 1}
    assert botpool.capped_options("pimc", {"time": 0.5}, limits) == {"time": 0.5, "threads": 1}
    assert botpool.capped_options("pimc", {"threads": 3}, botpool.BotLimits(threads=2))["threads"] == 2
    capped = botpool.capped_options("ismcts", {"iterations": 10**12}, limits)
    assert capped == {"time": 2.0, "iterations": 400}
    assert botpool.capped_options("rules", {}, limits) == {}
    # a search that would run for minutes stops near the server's time
    state = tt.new_game("tute").new_match(seed=2)
    seat = state.current_player
    assert seat is not None
    started = time.monotonic()
    action = botpool.decide(state.to_json(), seat, "pimc:worlds=100000:time=100", 1,
                            botpool.BotLimits(time=0.3, worlds=10**6))
    assert time.monotonic() - started < 5
    assert action in [a.text for a in state.legal_actions()]


def test_bot_workers_exit_when_the_server_is_killed(tmp_path: Path) -> None:
    """``kill -9`` gives the server no chance to stop its workers: they notice by
    themselves (their parent pid changes) and exit, and multiprocessing's resource
    tracker with them.  Before, two workers of 190 MB each stayed for good."""
    process = start_server(free_port(), str(tmp_path / "t.db"), workers=2)
    try:
        deadline = time.monotonic() + 60
        while len(helpers := descendants(process.pid)) < 2:  # the two workers, warming up
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.2)
        time.sleep(1)
        helpers = descendants(process.pid)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    deadline = time.monotonic() + 15
    while left := [pid for pid in helpers if alive(pid)]:
        if time.monotonic() > deadline:
            for pid in left:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            raise AssertionError(f"{len(left)} of the server's {len(helpers)} helper processes outlived it")
        time.sleep(0.2)


def test_bots_think_in_worker_processes(tmp_path: Path) -> None:
    with running(str(tmp_path / "t.db"), workers=1) as srv:
        created = srv.create("tute", ["human", "rules", "rules", "rules"])
        ws = srv.ws(created["id"])
        ws.join(created["seats"][0]["token"])
        message = ws.until("state")
        for _ in range(20):
            if message["legal"]:
                ws.send({"type": "act", "action": message["legal"][0], "seq": message["seq"]})
            message = ws.until("state", timeout=120)
        assert message["seq"] >= 20


# -- storage -----------------------------------------------------------------------------


def storage_urls(tmp_path: Path) -> list[str]:
    urls = [str(tmp_path / "store.db")]
    if os.environ.get("TRICKTAKER_TEST_POSTGRES"):
        urls.append(os.environ["TRICKTAKER_TEST_POSTGRES"])
    return urls


def test_database_urls() -> None:
    assert database_url("games.db") == "sqlite:///games.db"
    assert database_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_store_keeps_tables_and_actions_in_order(tmp_path: Path, backend: str) -> None:
    if backend == "postgresql":
        url = os.environ.get("TRICKTAKER_TEST_POSTGRES")
        if not url:
            pytest.skip("set TRICKTAKER_TEST_POSTGRES to a PostgreSQL URL (.ci/run does)")
    else:
        url = str(tmp_path / "store.db")
    store = Store(url)
    table_id = f"t{time.time_ns()}"
    stored = StoredTable(id=table_id, game="tuppi", preset=None, options={"target": 8}, seed=11,
                         seats=[{"kind": "human", "bot": None, "token_hash": "ab"}] * 4)
    store.add_table(stored)
    assert store.has_table(table_id) and not store.has_table(f"no{table_id}")
    store.add_actions([(table_id, 0, 1, "bid 7H", False), (table_id, 1, 2, "pass", True)])
    with pytest.raises(IntegrityError):
        store.add_actions([(table_id, 1, 2, "pass", False)])  # one history: a position is written once
    loaded = store.load_table(table_id)
    assert loaded is not None
    assert loaded.actions == [(1, "bid 7H"), (2, "pass")] and loaded.status == "over"
    assert loaded.options == {"target": 8} and loaded.seats == stored.seats
    assert table_id not in [t.id for t in store.load_tables()]
    assert table_id in [t.id for t in store.load_tables(None)]
    assert loaded.next_id is None
    following = StoredTable(id=f"n{time.time_ns()}", game="tuppi", preset=None, options={"target": 8},
                            seed=12, seats=stored.seats)
    store.add_next_table(table_id, following)
    linked = store.load_table(table_id)
    assert linked is not None and linked.next_id == following.id
    assert store.load_table(following.id) is not None
    store.close()


def test_a_database_made_before_the_next_match_link_is_upgraded_in_place(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:  # the schema as the first release of the server made it
        conn.execute("CREATE TABLE tt_tables (id VARCHAR(32) PRIMARY KEY, game VARCHAR(32) NOT NULL, "
                     "preset VARCHAR(32), options TEXT NOT NULL, seed INTEGER NOT NULL, seats TEXT NOT NULL, "
                     "status VARCHAR(16) NOT NULL, created FLOAT NOT NULL)")
        conn.execute("INSERT INTO tt_tables VALUES ('old', 'tute', NULL, '{}', 3, '[]', 'over', 1.0)")
    store = Store(str(db))
    old = store.load_table("old")
    assert old is not None and old.game == "tute" and old.next_id is None
    store.add_next_table("old", StoredTable(id="new", game="tute", preset=None, options={}, seed=4, seats=[]))
    old = store.load_table("old")
    assert old is not None and old.next_id == "new"
    store.close()
    Store(str(db)).close()  # a second start finds the column there


@pytest.mark.skipif(not os.environ.get("TRICKTAKER_TEST_POSTGRES"),
                    reason="set TRICKTAKER_TEST_POSTGRES to a PostgreSQL URL (.ci/run does)")
def test_a_match_on_postgresql() -> None:
    with running(os.environ["TRICKTAKER_TEST_POSTGRES"]) as srv:
        created = srv.create("bondtolva", ["human", "random", "random", "random"])
        ws = srv.ws(created["id"])
        ws.join(created["seats"][0]["token"])
        assert tt.load(srv.http.get(f"/api/tables/{created['id']}/record").text
                       if play_to_end(ws)["over"] else "").is_over()


def test_group_commit_stores_the_good_actions_of_a_batch_with_a_bad_one(tmp_path: Path) -> None:
    """Actions arriving together are committed together; a failing one fails alone."""
    import asyncio

    from tricktaker.server.botpool import BotPool
    from tricktaker.server.tables import Tables

    db = str(tmp_path / "t.db")

    async def scenario() -> list[Any]:
        tables = Tables(Store(db), BotPool(0), 0)
        for name in ("a", "b"):
            tables.store.add_table(StoredTable(id=name, game="tuppi", preset=None, options={}, seed=1,
                                               seats=[{"kind": "human"}] * 4))
        tables.store.add_actions([("a", 0, 1, "bid 7H", False)])
        results = await asyncio.gather(
            tables._write(("a", 0, 1, "pass", False)),   # position 0 is taken: refused
            tables._write(("b", 0, 1, "bid 7H", False)),
            tables._write(("a", 1, 2, "bid 5S", False)),
            return_exceptions=True)
        await tables.close()
        return results

    results = asyncio.run(scenario())
    assert isinstance(results[0], Exception) and results[1:] == [None, None]
    store = Store(db)
    assert [len(t.actions) for t in store.load_tables()] == [2, 1]
    store.close()


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_actions_not_declared_private_show_only_public_cards(variant: str) -> None:
    """``Game.PRIVATE_ACTIONS`` is complete: every card an action of another kind names is
    in the public observation right after it, so its text may go to every seat."""
    import random

    name, options = VARIANTS[variant]
    options = dict(options)
    preset = options.pop("preset", None)
    game = tt.new_game(name, preset=preset, **options)
    pattern = SPANISH if name == "tute" else FRENCH
    for seed in range(3):
        state = game.new_match(seed=seed)
        rng = random.Random(seed)
        while state.hand_number < 2 and not state.is_over():
            action = rng.choice(state.legal_actions())
            state.apply(action)
            if action.kind not in game.PRIVATE_ACTIONS:
                public = set(pattern.findall(json.dumps(state.observation(None))))
                assert set(pattern.findall(action.text)) <= public, (variant, action.text)


def test_a_finished_table_leaves_memory_when_its_last_client_goes_and_can_still_be_seen(
        server: Running) -> None:
    created = server.create("tuppi", ["human", "random", "random", "random"], options={"target": 8})
    ws = server.ws(created["id"])
    ws.join(created["seats"][0]["token"])
    end = play_to_end(ws)
    ws.close()
    manager = server.app.state.tables
    deadline = time.monotonic() + 10
    while created["id"] in manager.tables:
        assert time.monotonic() < deadline, "the finished table stayed in memory"
        time.sleep(0.05)
    assert server.http.get(f"/api/tables/{created['id']}").json()["status"] == "over"
    again = server.ws(created["id"])
    again.join(created["seats"][0]["token"])
    last = again.until("state")
    assert last["over"] and last["seq"] == end["seq"] and last["observation"] == end["observation"]


def test_one_address_may_create_only_so_many_tables_a_minute(tmp_path: Path) -> None:
    with running(str(tmp_path / "t.db"), tables_per_minute=3) as srv:
        for _ in range(3):
            srv.create()
        body = {"game": "tuppi", "seats": [{"kind": "human"}] * 4}
        refused = srv.http.post("/api/tables", json=body)
        assert refused.status_code == 429 and "3 new tables a minute" in refused.json()["error"]
        assert refused.json()["code"] == "rate_limited" and refused.json()["limit"] == 3  # for the lobby
        assert len(srv.http.get("/api/tables").json()["tables"]) == 3


def test_serve_refuses_negative_settings(capsys: pytest.CaptureFixture[str]) -> None:
    from tricktaker.cli import main

    assert main(["serve", "--tables-per-minute", "-1"]) == 2
    assert "cannot be negative" in capsys.readouterr().err


def test_the_lobby_lists_the_newest_open_tables_first(
        server: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    from tricktaker.server import app as app_module

    monkeypatch.setattr(app_module, "LISTED_TABLES", 2)
    ids = [server.create()["id"] for _ in range(3)]
    listed = server.http.get("/api/tables").json()
    assert [t["id"] for t in listed["tables"]] == ids[::-1][:2] and listed["more"] == 1


def test_a_finished_table_starts_its_next_match_with_the_same_seats_and_links(server: Running) -> None:
    created = server.create("tuppi", ["human", "random", "human", "random"], options={"target": 8})
    a, b, watcher = (server.ws(created["id"]) for _ in range(3))
    a.join(created["seats"][0]["token"])
    b.join(created["seats"][2]["token"])
    watcher.join()
    a.send({"type": "rematch"})
    assert a.until("error")["code"] == "not_over"
    with ThreadPoolExecutor(1) as pool:
        b_future = pool.submit(play_to_end, b)
        play_to_end(a)
        b_future.result()
    watcher.send({"type": "rematch"})
    assert watcher.until("error")["code"] == "not_your_turn"
    a.send({"type": "rematch"})
    b.send({"type": "rematch"})  # both click: one new table
    ids = {ws.until("rematch")["id"] for ws in (a, b, watcher)} | {a.until("rematch")["id"]}
    assert len(ids) == 1 and created["id"] not in ids
    new_id = ids.pop()
    info = server.http.get(f"/api/tables/{new_id}").json()
    assert info["status"] == "playing" and info["options"]["target"] == 8 and info["seq"] >= 0
    assert [(s["kind"], s["bot"]) for s in info["seats"]] == [("human", None), ("bot", "random")] * 2
    again = server.ws(new_id)
    assert again.join(created["seats"][2]["token"])["seat"] == 2  # the old link's token, the new table


def test_asking_again_for_the_next_match_after_a_restart_gives_the_same_table(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    with running(db) as server:
        created = server.create("tuppi", ["human", "random", "random", "random"], options={"target": 8})
        token = created["seats"][0]["token"]
        ws = server.ws(created["id"])
        ws.join(token)
        play_to_end(ws)
        ws.send({"type": "rematch"})
        first = ws.until("rematch")["id"]
    with running(db) as server:  # a player who was away comes back to the old table and asks
        ws = server.ws(created["id"])
        ws.join(token)
        ws.send({"type": "rematch"})
        assert ws.until("rematch")["id"] == first
        assert server.http.get(f"/api/tables/{first}").json()["status"] == "playing"


# -- languages (issue 21) ----------------------------------------------------------------

STATIC = Path(tt.__file__).parent / "server" / "static"


def i18n_tables() -> dict[str, set[str]]:
    """The keys of each language's table in ``i18n.js`` (``const en = {...};`` and so on)."""
    source = (STATIC / "i18n.js").read_text()
    found = {}
    for lang in ("en", "fi", "es"):
        body = re.search(rf"^const {lang} = {{\n(.*?)^}};", source, re.S | re.M)
        assert body is not None, lang
        found[lang] = set(re.findall(r"(?:^|[\s,])(\w+): [\"`]", body.group(1), re.M))
    return found


def test_every_text_of_the_pages_has_a_finnish_and_a_spanish_version() -> None:
    """Every key of the English table, every key the pages ask for (``t("...")``,
    ``data-i18n``), every error code the server sends and every table status has a
    Finnish and a Spanish text: before, Finnish and Spanish stopped at the lobby."""
    tables = i18n_tables()
    used = set()
    for path in STATIC.glob("*.js"):
        code = re.sub(r"^\s*//.*$", "", path.read_text(), flags=re.M)  # not the comments' examples
        used |= set(re.findall(r"\bt\(\s*\"(\w+)\"", code))
    for path in STATIC.glob("*.html"):
        used |= set(re.findall(r'data-i18n(?:-title)?="(\w+)"', path.read_text()))
    server = Path(tt.__file__).parent / "server"
    codes = set()
    for path in (server / "tables.py", server / "app.py", server / "queue.py", server / "players.py",
                 server / "duplicate.py"):
        codes |= set(re.findall(r'(?:TableError|PlayerError|error)\(\s*"(\w+)"', path.read_text()))
    assert "rate_limited" in codes  # the lobby's refusals have codes too (http_error)
    assert {"no_table", "storage", "too_large", "not_over", "flood", "stale"} <= codes
    needed = used | {f"err_{code}" for code in codes} | {"status_playing", "status_over"}
    assert needed <= tables["en"], sorted(needed - tables["en"])
    for lang in ("fi", "es"):
        missing = (tables["en"] | needed) - tables[lang]
        assert not missing, f"{lang} lacks {sorted(missing)}"
    source = (STATIC / "i18n.js").read_text()
    finnish = source[source.index("const fi = {"):source.index("const es = {")]
    score, points = (re.search(rf'^  {key}: "([^"]*)"', finnish, re.M) for key in ("score", "points"))
    assert score and points and score.group(1) != points.group(1)  # once "Pisteet" twice in one result


def test_every_game_option_and_preset_is_told_in_three_languages() -> None:
    """The lobby's catalogue (how to play, presets, option names, explanations and named
    values) in Finnish and Spanish, from ``catalogue-i18n.json``; English names too."""
    from tricktaker.server.tables import game_catalogue

    text = json.loads((STATIC / "catalogue-i18n.json").read_text())
    for game in game_catalogue()["games"]:
        values = {c for o in game["options"] for c in o["choices"] or [] if isinstance(c, str)}
        for lang in ("en", "fi", "es"):
            table = text[lang]
            assert set(game["presets"]) <= set(table["presets"]), (lang, game["name"])
            assert {o["name"] for o in game["options"]} <= set(table["labels"]), (lang, game["name"])
            assert values <= set(table["values"]), (lang, game["name"])
            if lang != "en":  # English explanations come from the games themselves
                assert game["name"] in table["summaries"], (lang, game["name"])
                docs = {f"{game['name']}.{o['name']}" for o in game["options"]}
                assert docs <= set(table["docs"]), (lang, sorted(docs - set(table["docs"])))


def test_tricktaker_serve_keeps_the_collectors_pauses_short(tmp_path: Path) -> None:
    """Issue 21, the bench's p99: a full garbage collection scanned every object of the
    process (modules, tables, connections) and stalled every table for 76-230 ms.  With
    ``pace_gc`` (which ``tricktaker serve`` sets) what lives long is frozen and not scanned;
    the server's end unfreezes it."""
    import gc

    assert gc.get_freeze_count() == 0
    with running(str(tmp_path / "t.db"), pace_gc=True) as srv:
        srv.create("tuppi", ["human"] * 4)
        assert gc.get_freeze_count() > 10_000
        started = time.perf_counter()
        gc.collect(2)
        assert time.perf_counter() - started < 5  # frozen objects are not scanned (a sanity bound)
    assert gc.get_freeze_count() == 0

