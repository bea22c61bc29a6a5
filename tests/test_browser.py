"""The browser client of ``tricktaker serve`` end to end: a real Chromium, real clicks.

Each test starts a real server (``server_helpers.running``: a thread, random
bots, no bot delay; the restart test runs ``tricktaker serve`` as a process),
opens its pages in headless Chromium through Playwright and plays by clicking
the cards and buttons a person would, found through the client's
``data-testid`` hooks.  Waits are on ``body[data-seq]`` and on what the page
offers, never on the clock.

Without Playwright or Chromium (``/usr/bin/chromium``, or
``TRICKTAKER_CHROMIUM``) the module is skipped, unless
``TRICKTAKER_REQUIRE_BROWSER=1`` (CI) makes that a failure.
"""

from __future__ import annotations

import json
import random
import re
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    FRENCH,
    SPANISH,
    TIMEOUT_MS,
    NewPage,
    all_cards_shown,
    collect_frames,
    hand_cards,
    hand_number,
    is_my_turn,
    observation,
    offered,
    play_turns,
    require_browser,
    seq,
    seq_and_observation,
    take_turn,
    wait_my_turn,
    wait_seq,
)

require_browser()

from playwright.sync_api import Page, expect  # noqa: E402
from server_helpers import Running, free_port, play_to_end, running, start_server  # noqa: E402

import tricktaker as tt  # noqa: E402

expect.set_options(timeout=TIMEOUT_MS)


def table_id_of(page: Page) -> str:
    match = re.search(r"/t/([^/#?]+)", page.url)
    assert match, page.url
    return match.group(1)


def server_seq(srv: Running, table_id: str) -> int:
    return int(srv.http.get(f"/api/tables/{table_id}").json()["seq"])


def replay(srv: Running, table_id: str) -> tuple[list[tuple[int, str]], list[list[dict[str, Any]]],
                                                  list[list[list[str]]]]:
    """The table's actions, and each seat's observation and legal actions at every seq
    (the spectator last), from a replay of its seed and stored actions."""
    stored = srv.app.state.tables.tables[table_id].stored
    actions = list(stored.actions)
    game = tt.new_game(stored.game, preset=stored.preset, **stored.options)
    state = game.new_match(seed=stored.seed)
    seats = list(range(game.num_players))
    observations, legal = [], []
    for step in range(len(actions) + 1):
        observations.append([state.observation(s) for s in seats] + [state.observation(None)])
        legal.append([[a.text for a in state.legal_actions()] if state.current_player == s else []
                      for s in seats])
        if step < len(actions):
            state.apply(actions[step][1], seat=actions[step][0])
    return actions, observations, legal


def play_together(pages: dict[int, Page], rng: random.Random, stop: Callable[[dict[str, Any]], bool],
                  on_turn: Callable[[int], None] | None = None, limit: int = 500) -> None:
    """Several people at one table, each in its own page, take their turns by clicking
    until ``stop(observation)`` holds.  ``on_turn(seq)`` runs before each person's turn,
    once every page has caught up with the table."""
    first = next(iter(pages.values()))
    for _ in range(limit):
        now, obs = seq_and_observation(first)
        if stop(obs) or obs.get("phase") == "over":
            return
        mover = obs["current_player"]
        if mover in pages:
            page = pages[mover]
            wait_my_turn(page)
            if page.evaluate("() => document.body.dataset.over") == "true":
                return
            now = seq(page)
            if on_turn is not None:
                for other in pages.values():
                    wait_seq(other, equal=now)
                on_turn(now)
            take_turn(page, rng)
        else:  # a bot's turn: it moves by itself
            wait_seq(first, above=now)
    raise AssertionError("the play did not get there")


def settle(pages: dict[int, Page]) -> int:
    """Until the table waits for one of the people and every page shows that position; its seq."""
    first = next(iter(pages.values()))
    for _ in range(500):
        now, obs = seq_and_observation(first)
        mover = obs["current_player"]
        if mover in pages or obs.get("phase") == "over":
            if mover in pages:
                wait_my_turn(pages[mover])
            now = seq(pages[mover]) if mover in pages else now
            for page in pages.values():
                wait_seq(page, equal=now)
            return now
        wait_seq(first, above=now)
    raise AssertionError("the table did not settle")


# -- 1. the lobby, a whole hand, dimmed cards ------------------------------------------------


def test_a_person_creates_a_tuppi_table_in_the_lobby_and_plays_a_whole_hand(
        server: Running, new_page: NewPage) -> None:
    page = new_page()
    page.goto(server.url + "/")
    page.get_by_test_id("game-select").select_option("tuppi")
    expect(page.get_by_test_id("size-select")).to_have_value("4")
    expect(page.get_by_test_id("seat-0-kind")).to_have_value("human")
    for seat in (1, 2, 3):
        page.get_by_test_id(f"seat-{seat}-kind").select_option("bot")
        page.get_by_test_id(f"seat-{seat}-bot").select_option("random")
    # every trick is played: no early end once the hand is decided, and no sooli, which ends
    # when the soloist takes a trick (rule options, set in the lobby)
    page.locator("#options-box > summary").click()
    page.get_by_test_id("option-early_end").uncheck()
    page.get_by_test_id("option-sooli").uncheck()
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/t/[^#]+#token=."))
    table_id = table_id_of(page)
    expect(page.locator("body")).to_have_attribute("data-seat", "0")
    info = server.http.get(f"/api/tables/{table_id}").json()
    assert info["game"] == "tuppi"
    assert info["options"]["early_end"] is False and info["options"]["sooli"] is False
    assert [(s["kind"], s["bot"]) for s in info["seats"]] == [("human", None)] + [("bot", "random")] * 3
    # the lobby kept the table's links: the spectator link is offered for sharing
    expect(page.get_by_test_id("invite-links").locator("input")).to_have_value(f"{server.url}/t/{table_id}")

    rng = random.Random(1)
    first_hand = hand_number(page)
    assert first_hand == 0
    dimmed_tried = False
    turns = 0
    while True:
        wait_my_turn(page, extra=f"() => window.tricktaker.state.obs.hand_number !== {first_hand}")
        if hand_number(page) != first_hand:
            break
        assert page.evaluate("() => document.body.dataset.over") == "false"
        dimmed = page.locator('#hand [data-testid=card][data-legal="false"]')
        if not dimmed_tried and dimmed.count():
            # a dimmed card does not play: the page says why, and nothing is sent to the table
            before, card, cards = seq(page), dimmed.first.get_attribute("data-card"), hand_cards(page)
            message = page.get_by_test_id("message")
            expect(message).to_be_empty()
            dimmed.first.click()
            expect(message).to_have_class(re.compile(r"\bshow\b"))
            expect(message).not_to_be_empty()
            assert seq(page) == before == server_seq(server, table_id)
            assert hand_cards(page) == cards and card in cards
            assert is_my_turn(page)
            dimmed_tried = True
        take_turn(page, rng)
        turns += 1
    assert dimmed_tried, "no turn of the hand had a dimmed card"
    assert turns >= 13  # a bid (unless a bot bid first and ended the bidding) and 13 cards
    # the next hand is dealt, the finished one is summed up on the table and in the history
    assert hand_number(page) == first_hand + 1
    assert server.http.get(f"/api/tables/{table_id}").json()["hand_number"] >= first_hand + 1
    expect(page.locator("#result")).to_be_visible()
    expect(page.get_by_test_id("history").locator("details")).to_have_count(1)
    assert len(hand_cards(page)) == 13


# -- 2. two people at one table, each sees only its own hand ---------------------------------


def test_two_people_in_two_browsers_each_see_only_their_own_hand(server: Running, new_page: NewPage) -> None:
    created = server.create("tuppi", ["human", "random", "human", "random"])
    table_id = created["id"]
    pages = {0: new_page(), 2: new_page()}
    for seat, page in pages.items():
        page.goto(server.url + created["seats"][seat]["link"])
        expect(page.locator("body")).to_have_attribute("data-seat", str(seat))
    snapshots: list[tuple[int, dict[int, list[str]]]] = []

    def check(now: int) -> None:
        hands = {seat: hand_cards(page) for seat, page in pages.items()}
        for seat, page in pages.items():
            seen = all_cards_shown(page)
            for other, hand in hands.items():
                if other != seat:
                    assert not seen & set(hand), (seat, "sees", other, seen & set(hand))
        snapshots.append((now, hands))

    play_together(pages, random.Random(2),
                  stop=lambda obs: len(obs["tricks"]) >= 3 or obs["hand_number"] > 0, on_turn=check)
    assert len(snapshots) >= 4 and {s for _, hands in snapshots for s in hands} == {0, 2}
    # and each page's hand was exactly what the engine dealt that seat at that moment
    _, observations, _ = replay(server, table_id)
    for now, hands in snapshots:
        for seat, hand in hands.items():
            assert hand == observations[now][seat]["hand"], (now, seat)
    # played cards are public: both pages show the same tricks once they agree on the seq
    settle(pages)
    tricks = [observation(p)["tricks"] for p in pages.values()]
    assert tricks[0] == tricks[1]


# -- 3. a spectator ---------------------------------------------------------------------------


def test_a_spectator_watches_from_the_lobby_without_seeing_any_hand(
        server: Running, new_page: NewPage) -> None:
    created = server.create("tuppi", ["human", "random", "random", "random"])
    table_id, token = created["id"], created["seats"][0]["token"]
    player = server.ws(table_id)
    player.join(token)
    page = new_page()
    page.goto(server.url + "/")
    row = page.locator(f'[data-testid=table-row][data-table="{table_id}"]')
    row.get_by_test_id("watch").click()
    page.wait_for_url(f"{server.url}/t/{table_id}")
    body = page.locator("body")
    expect(body).to_have_attribute("data-seat", "spectator")
    wait_seq(page, above=-1)
    start = seq(page)

    def nothing_to_play() -> None:
        expect(page.get_by_test_id("hand").get_by_test_id("card")).to_have_count(0)
        expect(page.get_by_test_id("action-buttons").get_by_test_id("action")).to_have_count(0)
        assert observation(page)["hand"] == []
        assert page.locator(".seat .fan").count() == 4  # every seat's cards, face down

    nothing_to_play()
    expect(page.get_by_test_id("status")).to_contain_text("Watching")
    expect(page.get_by_test_id("trick")).to_be_attached()
    # the person plays (over the WebSocket); the spectator follows every action
    for _ in range(4):
        message = player.until("state")
        while not message["legal"]:
            message = player.until("state")
        player.send({"type": "act", "action": message["legal"][0], "seq": message["seq"]})
    played = player.until("state")["seq"]
    page.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=played)
    assert seq(page) > start
    nothing_to_play()
    # what the page holds is exactly the engine's observation for a spectator
    now, seen = seq_and_observation(page)
    _, observations, _ = replay(server, table_id)
    assert seen == observations[now][-1]


# -- 4. a reload mid-hand -----------------------------------------------------------------------


def test_a_reload_mid_hand_puts_the_person_back_in_the_same_seat_and_hand(
        server: Running, new_page: NewPage) -> None:
    created = server.create("tuppi", ["human", "random", "random", "random"])
    page = new_page()
    page.goto(server.url + created["seats"][0]["link"])
    rng = random.Random(4)
    play_turns(page, rng, 3)
    wait_my_turn(page)
    before, cards, obs, offer = seq(page), hand_cards(page), observation(page), offered(page)
    assert cards and offer
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-seat", "0")
    wait_seq(page, equal=before)
    wait_my_turn(page)
    assert hand_cards(page) == cards
    assert observation(page) == obs  # the same hand, number and all
    assert offered(page) == offer
    take_turn(page, rng)
    assert seq(page) > before


# -- 5. no frame carries a card its seat may not see ---------------------------------------------


def test_no_frame_a_page_receives_names_a_card_its_seat_may_not_see(
        server: Running, new_page: NewPage) -> None:
    created = server.create("tuppi", ["human", "random", "human", "random"])
    table_id = created["id"]
    pages, frames = {}, {}
    for seat in (0, 2):
        pages[seat] = new_page()
        frames[seat] = collect_frames(pages[seat])
        pages[seat].goto(server.url + created["seats"][seat]["link"])
        expect(pages[seat].locator("body")).to_have_attribute("data-seat", str(seat))
    play_together(pages, random.Random(5), stop=lambda obs: obs["hand_number"] > 0)
    final = settle(pages)
    for page in pages.values():  # and the story a reload gets, with every card in it
        page.reload()
        wait_seq(page, equal=final)
    for page in pages.values():
        page.context.close()  # no more frames: the lists are complete
    actions, observations, legal = replay(server, table_id)
    assert observations[final][0]["hand_number"] == 1
    for seat, received in frames.items():
        seen: set[str] = set()
        seqs = []
        stories = 0
        for frame in received:
            message = json.loads(frame)
            if message["type"] == "history":
                joined = final if stories else 0  # first at the page's opening, then at its reload
                stories += 1
                saw = {card for obs in observations[:joined + 1]
                       for card in FRENCH.findall(json.dumps(obs[seat]))}
                named = set(FRENCH.findall(json.dumps(message["lines"])))
                assert named <= saw and (named or not joined), seat  # the reload's story names cards
                results = [obs[seat]["previous_hand"] for obs in observations[:joined + 1]]
                assert all(hand["result"] in results for hand in message["hands"]), seat
                continue
            if message["type"] == "review":  # a finished hand's analysis: only cards the seat saw in it
                hand = message["hand"] - 1
                saw = {card for obs in observations[:final + 1] for card in FRENCH.findall(json.dumps(
                    obs[seat] if obs[seat]["hand_number"] == hand else obs[seat].get("previous_hand")))}
                named = set(FRENCH.findall(json.dumps(message["decisions"])))
                assert named <= saw, (seat, named - saw)
                continue
            if message["type"] != "state":
                assert not FRENCH.search(frame.replace(table_id, "")), (seat, frame)
                continue
            seqs.append(message["seq"])
            assert message["observation"] == observations[message["seq"]][seat], (seat, message["seq"])
            assert message["legal"] == legal[message["seq"]][seat]
            seen |= set(FRENCH.findall(json.dumps(message["observation"])))
            if message["event"] is not None:
                named = set(FRENCH.findall(message["event"]["action"]))
                assert named <= seen, (seat, message["event"])
        assert stories == 2, seat  # (a review may come after the page closed: not counted)
        first_visit = seqs[:seqs.index(final) + 1]
        assert first_visit == list(range(seqs[0], final + 1)), seat  # the page followed every action


# -- 6. the server is killed mid-hand and started again ------------------------------------------


def test_the_page_reconnects_by_itself_after_the_server_is_killed_and_restarted(
        tmp_path: Path, new_page: NewPage) -> None:
    import httpx

    db, port = str(tmp_path / "kill.db"), free_port()
    url = f"http://127.0.0.1:{port}"
    process = start_server(port, db)
    try:
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3
        created = httpx.post(f"{url}/api/tables", json={"game": "tuppi", "seats": seats}).json()
        page = new_page()
        page.goto(url + created["seats"][0]["link"])
        rng = random.Random(6)
        play_turns(page, rng, 3)
        wait_my_turn(page)
        before, cards, obs = seq(page), hand_cards(page), observation(page)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        expect(page.locator("#conn")).to_be_visible()  # "Reconnecting…"
        process = start_server(port, db)
        expect(page.locator("#conn")).to_be_hidden(timeout=45_000)
        wait_seq(page, equal=before)
        wait_my_turn(page)
        assert hand_cards(page) == cards and observation(page) == obs
        take_turn(page, rng)
        shown = seq(page)
        assert shown > before
        # The table's summary counts every action the page has been shown.  Polled for a few
        # seconds: once in a CI run under load it answered one action short (23 against 24).
        deadline = time.monotonic() + 5
        while (stored := httpx.get(f"{url}/api/tables/{created['id']}").json()["seq"]) < shown:
            assert time.monotonic() < deadline, f"the summary says seq {stored}, the page showed {shown}"
            time.sleep(0.1)
    finally:
        process.kill()
        process.wait(10)


# -- 7. a phone ----------------------------------------------------------------------------------


def test_on_a_phone_the_legal_cards_can_be_tapped_and_played(server: Running, new_page: NewPage) -> None:
    created = server.create("tute", ["human", "random", "random", "random"])
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                    device_scale_factor=2)
    page.goto(server.url + created["seats"][0]["link"])
    rng = random.Random(7)
    for _ in range(10):  # until a card is to be played (Tute may first ask to sing or exchange)
        wait_my_turn(page)
        if page.locator('#hand [data-testid=card][data-legal="true"]').count():
            break
        take_turn(page, rng)
    legal = page.locator('#hand [data-testid=card][data-legal="true"]')
    assert legal.count()
    cards = hand_cards(page)
    assert all(SPANISH.fullmatch(c) for c in cards), cards
    # nothing sticks out sideways, and every legal card's centre is on screen and is that card
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    for i in range(legal.count()):
        card = legal.nth(i)
        card.scroll_into_view_if_needed()
        box = card.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert card.evaluate("""el => { const r = el.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return hit !== null && hit.closest('[data-testid=card]') === el; }"""), card.get_attribute(
            "data-card")
    chosen = legal.nth(rng.randrange(legal.count()))
    name = chosen.get_attribute("data-card")
    before = seq(page)
    chosen.tap()
    wait_seq(page, above=before)
    assert name not in hand_cards(page)
    assert name in {c for _, c in observation(page)["trick"]} | {
        c for t in observation(page)["tricks"] for _, c in t["cards"]}


def test_an_avomarjapussi_hand_and_rows_are_in_view_on_a_laptop_screen(server: Running,
                                                                        new_page: NewPage) -> None:
    created = server.create("avomarjapussi", ["human", "random"])
    page = new_page()  # 1280x800
    page.goto(server.url + created["seats"][0]["link"])
    wait_my_turn(page)
    cards = page.locator("#hand [data-testid=card]")
    assert cards.count() == 4 + 7  # four in the hand, and the face-up cards of the seven columns
    boxes = [cards.nth(i).bounding_box() for i in range(cards.count())]
    lowest = max(box["y"] + box["height"] for box in boxes if box is not None)
    assert lowest <= 800, f"the hand ends {lowest - 800:.0f}px below the window"


def test_the_lobby_fits_a_phone(server: Running, new_page: NewPage) -> None:
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(server.url + "/")
    expect(page.get_by_test_id("seat-3-bot")).to_be_attached()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def test_a_change_of_language_rewrites_the_table_and_its_log(server: Running, new_page: NewPage) -> None:
    created = server.create("tuppi", ["human", "random", "random", "random"], options={"early_end": False})
    page = new_page()
    page.goto(server.url + created["seats"][0]["link"])
    page.get_by_test_id("lang-select").select_option("en")
    rng = random.Random(5)
    log = page.locator("#log")
    while "takes the trick" not in log.inner_text():  # play until a trick is won
        wait_my_turn(page)
        take_turn(page, rng)
    page.get_by_test_id("lang-select").select_option("fi")
    expect(log).to_contain_text("ottaa tikin")
    assert "takes the trick" not in log.inner_text()
    expect(page.get_by_test_id("last-trick")).not_to_have_text("Last trick")
    page.get_by_test_id("lang-select").select_option("es")
    expect(log).to_contain_text("gana la baza")


def test_the_trumps_and_the_stock_are_shown_on_the_felt(server: Running, new_page: NewPage) -> None:
    habanero = server.create("tute", ["human", "random"], options={"players": 2})
    page = new_page()
    page.goto(server.url + habanero["seats"][0]["link"])
    corner = page.get_by_test_id("trump")
    expect(corner).to_be_visible()
    obs = observation(page)
    expect(corner.locator("[data-card]")).to_have_attribute("data-card", obs["trump_card"])
    expect(corner).to_contain_text(f"Stock: {obs['stock_size']}")
    tuppi = server.create("tuppi", ["human", "random", "random", "random"])
    page.goto(server.url + tuppi["seats"][0]["link"])
    expect(page.locator("body")).to_have_attribute("data-seat", "0")
    expect(corner).to_be_hidden()  # Tuppi has no trumps


def test_play_again_takes_everyone_to_the_next_match_in_the_same_seat(
        server: Running, new_page: NewPage) -> None:
    created = server.create("tuppi", ["human", "random", "random", "random"], options={"target": 8})
    ws = server.ws(created["id"])
    ws.join(created["seats"][0]["token"])
    play_to_end(ws)  # the person plays the match out over a socket; the page comes at the end
    ws.close()
    page = new_page()
    page.goto(server.url + created["seats"][0]["link"])
    expect(page.locator("body")).to_have_attribute("data-over", "true")
    page.get_by_test_id("rematch").click()
    page.wait_for_url(re.compile(r"/t/(?!" + re.escape(created["id"]) + r")[^#]+#token=."))
    assert page.url.endswith("#token=" + created["seats"][0]["token"])
    expect(page.locator("body")).to_have_attribute("data-seat", "0")
    expect(page.locator("body")).to_have_attribute("data-over", "false")
    new_id = table_id_of(page)
    assert server.http.get(f"/api/tables/{new_id}").json()["game"] == "tuppi"


# -- robustness (issue 21) ------------------------------------------------------------------------


def test_a_link_to_a_missing_table_says_so_and_offers_the_lobby(server: Running, new_page: NewPage) -> None:
    """Before, the page showed "Connecting…" for ever."""
    page = new_page()
    page.goto(server.url + "/t/nosuchtable#token=abc")
    gone = page.get_by_test_id("no-table")
    expect(gone).to_be_visible()
    expect(gone).to_contain_text("no table here")
    expect(page.locator("#conn")).to_be_hidden()
    page.get_by_test_id("to-lobby").click()
    page.wait_for_url(server.url + "/")


def test_the_page_says_which_bot_is_thinking(
        server: Running, new_page: NewPage, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot's turn reads "Left (bot) is thinking…", not only "Waiting for Left"."""
    from tricktaker.server import botpool

    real = botpool.decide

    def slow(record: str, seat: int, spec: str, seed: int, limits: botpool.BotLimits) -> str:
        time.sleep(1.5)
        return real(record, seat, spec, seed, limits)

    monkeypatch.setattr(botpool, "decide", slow)
    created = server.create("tuppi", ["human", "rules", "human", "human"])  # dealer 0: seat 1 bids first
    page = new_page()
    page.goto(server.url + created["seats"][0]["link"])
    expect(page.get_by_test_id("status")).to_contain_text("(bot) is thinking")


def test_a_reload_keeps_the_events_and_the_earlier_hands(server: Running, new_page: NewPage) -> None:
    """Before, the events panel and the earlier hands lived only in the page: a reload
    turned 14 lines into 1, and a table at hand 3 showed only hand 2.  (A target out of reach:
    random play can end a match at 52 before its third hand.)"""
    created = server.create("tuppi", ["human", "random", "random", "random"], options={"target": 1000})
    page = new_page()
    page.goto(server.url + created["seats"][0]["link"])
    rng = random.Random(8)
    wait_seq(page, above=-1)
    while hand_number(page) < 2:
        wait_my_turn(page)
        take_turn(page, rng)
    wait_my_turn(page)
    lines = page.locator("#log li").all_inner_texts()
    earlier = page.locator("#history details summary").all_inner_texts()
    assert len(lines) > 10 and earlier == ["Hand 2", "Hand 1"]
    before = seq(page)
    page.reload()
    wait_seq(page, equal=before)
    wait_my_turn(page)
    assert page.locator("#log li").all_inner_texts() == lines
    assert page.locator("#history details summary").all_inner_texts() == earlier
    second = new_page()  # another device, and a spectator arriving late
    second.goto(server.url + f"/t/{created['id']}")
    wait_seq(second, equal=before)
    assert second.locator("#history details summary").all_inner_texts() == earlier
    assert len(second.locator("#log li").all_inner_texts()) == len(lines)


RESULT_CLEAR = """() => {
  window.resultProblems = [];
  const check = () => {
    const box = document.getElementById('result');
    const obs = window.tricktaker.state.obs || {};
    if (obs.hand_number >= 1 && (obs.trick || []).length) window.nextTrickSeen = true;
    if (box.hidden) return;
    window.resultSeen = true;
    if ((obs.trick || []).length) window.resultProblems.push('over the next trick');
    const r = box.getBoundingClientRect(), c = document.getElementById('center').getBoundingClientRect();
    const s = document.getElementById('status').getBoundingClientRect();
    if (r.bottom > c.bottom + 1 || r.top < c.top - 1) window.resultProblems.push('outside the centre');
    if (r.bottom > s.top && r.top < s.bottom) window.resultProblems.push('over the status');
  };
  new MutationObserver(check).observe(document.body, {subtree: true, childList: true, attributes: true});
}"""
"""Records, at every change of the page, whether the hand's result covers what it must not."""


def test_the_hand_result_never_covers_the_next_trick_or_the_turn_on_a_phone(
        server: Running, new_page: NewPage) -> None:
    """Before, the box stayed 9 s over the next hand's first trick, and on a phone over
    "Your turn"."""
    created = server.create("tuppi", ["human", "random", "random", "random"])
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(server.url + created["seats"][0]["link"])
    page.evaluate(RESULT_CLEAR)
    rng = random.Random(3)
    wait_seq(page, above=-1)
    while hand_number(page) < 1 or not is_my_turn(page):
        wait_my_turn(page)
        take_turn(page, rng)
    assert page.evaluate("() => window.resultSeen")
    # Until a card of the second hand's first trick has been drawn (the observer saw it: a
    # trick the bots finish after the person's lead is empty again by the time Python looks).
    while not page.evaluate("() => window.nextTrickSeen"):
        wait_my_turn(page, extra="() => window.nextTrickSeen")
        if page.evaluate("() => window.nextTrickSeen"):
            break
        take_turn(page, rng)
    # The observer checked the box at the moment the trick appeared ('over the next trick');
    # by now a short hand (a sooli lost at its first trick) may have shown the next result.
    assert page.evaluate("() => window.resultProblems") == []


def test_small_things_a_person_seat_has_no_bot_selector_and_a_spectator_reads_the_score(
        server: Running, new_page: NewPage) -> None:
    """Seat 0 showed a disabled bot selector; bot names were cut ("(def"); a spectator's
    score read "Seat 0 + 2 0"; court cards' grey panel looked dimmed."""
    page = new_page(viewport={"width": 390, "height": 844})
    page.goto(server.url + "/")
    page.get_by_test_id("game-select").select_option("tuppi")
    expect(page.get_by_test_id("seat-0-bot")).to_be_hidden()
    expect(page.get_by_test_id("seat-1-bot")).to_be_visible()
    labels = page.get_by_test_id("seat-1-bot").locator("option").all_inner_texts()
    assert labels and not any("default" in label for label in labels)  # said beside it, not in it
    expect(page.locator("#seats .seat-row").nth(1)).to_contain_text("the default level")
    page.get_by_test_id("seat-1-kind").select_option("human")
    expect(page.get_by_test_id("seat-1-bot")).to_be_hidden()
    created = server.create("tuppi", ["human", "random", "random", "random"])
    watcher = new_page()
    watcher.goto(server.url + f"/t/{created['id']}")
    expect(watcher.get_by_test_id("score")).to_contain_text("Seats 0 & 2: 0")
    expect(watcher.get_by_test_id("score")).to_contain_text("Seats 1 & 3: 0")
    panel = watcher.evaluate("""async () => {
      const { cardSVG } = await import('/static/cards.js');
      return cardSVG('KS', 'french').querySelector('rect[x="24"]').getAttribute('opacity'); }""")
    assert panel is None  # an opaque light panel, not a see-through tint of the suit's colour


def test_the_turn_clock_counts_down_and_says_when_a_bot_played_for_the_person(
        tmp_path: Path, new_page: NewPage) -> None:
    with running(str(tmp_path / "timed.db"), turn_time=3) as srv:
        created = srv.create("tuppi", ["human", "random", "random", "random"])
        page = new_page()
        page.goto(srv.url + created["seats"][0]["link"])
        wait_my_turn(page)
        clock = page.get_by_test_id("turn-clock")
        expect(clock).to_be_visible()
        expect(clock).to_have_text(re.compile(r"0:0[0-3]"))
        before = seq(page)
        expect(page.get_by_test_id("message")).to_contain_text("Your time ran out", timeout=10_000)
        wait_seq(page, above=before)


def card_reasons() -> list[str]:
    """The engine's reasons for refused card plays, one of each kind, over every game."""
    reasons: dict[str, str] = {}
    for name in tt.GAMES:
        game = tt.new_game(name)
        for seed in range(4):
            state, rng = game.new_match(seed=seed), random.Random(seed)
            for _ in range(300):
                if state.is_over():
                    break
                # the page asks with the verb of the seat's legal card actions ("bid 7H"), else "play"
                mover = state.current_player
                verbs = {a.text.split(" ")[0] for a in state.legal_actions()
                         if len(a.text.split(" ")) == 2 and FRENCH.fullmatch(a.text.split(" ")[1])}
                for seat, verb in [(seat, "play") for seat in range(game.num_players)] + [
                        (mover, verb) for verb in verbs if mover is not None]:
                    for card in state.observation(seat).get("hand", []):
                        trial = state.clone()
                        try:
                            trial.apply(f"{verb} {card}", seat=seat)
                        except tt.IllegalActionError as exc:
                            shape = re.sub(r"\b(?:1[012]|[1-9TJQKA])[SHDCOEB]\b|\d+|spades|hearts|diamonds"
                                           r"|clubs|oros|copas|espadas|bastos", "#", str(exc))
                            reasons.setdefault(shape, str(exc))
                state.apply(rng.choice(state.legal_actions()))
    return list(reasons.values())


def test_every_reason_for_a_refused_card_is_told_in_the_persons_language(
        server: Running, new_page: NewPage) -> None:
    """Tapping a dimmed card asks the engine why; its English reason is retold in Finnish
    and Spanish (a new rule's reason without a translation fails here)."""
    reasons = card_reasons()
    assert len(reasons) >= 5
    page = new_page()
    page.goto(server.url + "/")
    untold = page.evaluate("""async (reasons) => {
      const i18n = await import('/static/i18n.js');
      const left = [];
      for (const lang of ['fi', 'es']) {
        i18n.setLang(lang);
        // the plain refusal is for reasons of a newer server: each known one has its own text
        for (const r of reasons) {
          if ([r, i18n.t('err_illegal')].includes(i18n.reason(r))) left.push(`${lang}: ${r}`);
        }
      }
      i18n.setLang('en');
      return left; }""", reasons)
    assert untold == []


def test_a_refusal_is_told_by_its_code_and_params(server: Running, new_page: NewPage) -> None:
    """Issue 21: the server's ``why`` gives the refusal's code and params; the page says it by
    them (the suit in the person's words), whatever the English text, which stays the fallback."""
    page = new_page()
    page.goto(server.url + "/")
    told = page.evaluate("""async () => {
      const i18n = await import('/static/i18n.js');
      i18n.setLang('fi');
      const out = [i18n.reason('anything', 'trump', { lead: 'copas', suit: 'hearts' }),
                   i18n.reason('must overtrump: seat 1 holds a trump', null, {}),
                   i18n.reason('a reason the page does not know', 'no_such_code', {})];
      i18n.setLang('en');
      out.push(i18n.reason('a reason the page does not know', 'no_such_code', {}));
      return out; }""")
    assert told[0] == "Sinulla ei ole maata copas (kupit): on lyötävä valtilla (hertta)."
    assert told[1] == "On ylitettävä valtilla: sinulla on korkeampi valtti."
    assert told[2] != "a reason the page does not know"
    assert told[3] == "a reason the page does not know"


# -- issue 21: languages beyond the lobby, the turn time per table, absent people ----------

CATALOGUE_TEXT = json.loads(
    (Path(tt.__file__).parent / "server" / "static" / "catalogue-i18n.json").read_text())
ENGLISH_WORDS = ("Score", "Your turn", "Rule options", "How to play", "Points", "playing", "Seats", "Players")


@pytest.mark.parametrize("lang", ["fi", "es"])
def test_the_lobby_and_a_table_speak_finnish_and_spanish_throughout(
        server: Running, new_page: NewPage, lang: str) -> None:
    """Before, Finnish and Spanish stopped at the lobby's own labels: the how-to-play text,
    the options, their explanations and values, the table status and a match's winner
    were English ("Us win.", "Gana Ellos")."""
    text = CATALOGUE_TEXT[lang]
    page = new_page()
    page.add_init_script(f"localStorage.setItem('tricktaker:lang', '{lang}')")
    page.goto(server.url + "/")
    page.get_by_test_id("game-select").select_option("marjapussi")
    expect(page.locator("#game-help")).to_have_text(text["summaries"]["marjapussi"])
    values = page.get_by_test_id("option-first_lead").locator("option").all_text_contents()
    assert values == [text["values"]["ace"], text["values"]["ace_or_spade"]]
    expect(page.locator("label[for=opt-first_lead]")).to_have_text(text["labels"]["first_lead"])
    expect(page.locator("#options")).to_contain_text(text["docs"]["marjapussi.first_lead"])
    page.get_by_test_id("game-select").select_option("tuppi")
    presets = page.get_by_test_id("preset-select").locator("option").all_text_contents()
    assert text["presets"]["tournament"] in presets
    server.create("tuppi", ["human", "random", "random", "random"])
    expect(page.get_by_test_id("table-row").first).to_be_visible()
    lobby_text = page.locator("body").inner_text()
    assert not [word for word in ENGLISH_WORDS if re.search(rf"\b{word}\b", lobby_text)], lobby_text
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/t/"))
    wait_my_turn(page)
    table_text = page.locator("body").inner_text()
    assert not [word for word in ENGLISH_WORDS if re.search(rf"\b{word}\b", table_text)], table_text
    # a finished match, told to a spectator and to a player as whole sentences
    created = server.create("tuppi", ["human", "random", "random", "random"], options={"target": 8})
    ws = server.ws(created["id"])
    ws.join(created["seats"][0]["token"])
    end = play_to_end(ws)
    winner = end["observation"]["winner"]
    watcher = new_page()
    watcher.add_init_script(f"localStorage.setItem('tricktaker:lang', '{lang}')")
    watcher.goto(server.url + f"/t/{created['id']}")
    told = {"fi": f"Paikat {winner} ja {winner + 2} voittivat.",
            "es": f"Ganan los asientos {winner} y {winner + 2}."}
    expect(watcher.locator("#over-winner")).to_have_text(told[lang])
    player = new_page()
    player.add_init_script(f"localStorage.setItem('tricktaker:lang', '{lang}')")
    player.goto(server.url + created["seats"][0]["link"])
    mine = {"fi": ("Voitit!", "Hävisit."), "es": ("¡Has ganado!", "Has perdido.")}[lang]
    expect(player.locator("#over-winner")).to_have_text(mine[0] if winner == 0 else mine[1])


def test_the_lobby_chooses_the_tables_turn_time(tmp_path: Path, new_page: NewPage) -> None:
    """The turn timer is the table's choice in the lobby (off for friends); the server's
    ``--turn-time`` only sets the choice it starts at."""
    with running(str(tmp_path / "t.db"), turn_time=60) as srv:
        page = new_page()
        page.goto(srv.url + "/")
        choice = page.get_by_test_id("turn-time-select")
        expect(choice).to_have_value("60")
        choice.select_option("0")
        page.get_by_test_id("create-table").click()
        page.wait_for_url(re.compile(r"/t/"))
        wait_my_turn(page)
        expect(page.get_by_test_id("turn-clock")).to_be_hidden()
        assert srv.http.get(f"/api/tables/{table_id_of(page)}").json()["turn_time"] == 0
        page.goto(srv.url + "/")
        page.get_by_test_id("turn-time-select").select_option("20")
        page.get_by_test_id("create-table").click()
        page.wait_for_url(re.compile(r"/t/"))
        wait_my_turn(page)
        expect(page.get_by_test_id("turn-clock")).to_have_text(re.compile(r"0:(1\d|20)"))
        assert srv.http.get(f"/api/tables/{table_id_of(page)}").json()["turn_time"] == 20


def test_an_away_person_is_shown_to_all_a_bot_plays_for_them_and_they_reclaim_the_seat(
        tmp_path: Path, new_page: NewPage) -> None:
    """Without a turn timer: a person whose page is gone is marked away for everyone, with
    the seconds until a bot takes over; then a bot plays each of their turns; when they
    open their link again the seat is theirs and nobody plays for them."""
    rng = random.Random(21)
    with running(str(tmp_path / "t.db"), absent_time=2.0) as srv:
        created = srv.create("tuppi", ["human", "random", "human", "random"])
        leaver = new_page()
        leaver.goto(srv.url + created["seats"][0]["link"])
        partner = new_page()
        partner.goto(srv.url + created["seats"][2]["link"])
        wait_seq(leaver, above=-1)
        leaver.close()
        away = partner.get_by_test_id("away-0")
        expect(away).to_have_text(re.compile(r"a bot plays in [12] s"))
        expect(away).to_have_text("away: a bot plays", timeout=10_000)
        bot_played = partner.get_by_test_id("message")
        for _ in range(40):  # the partner plays; the away seat's turns are played for it
            if "is away: a bot played" in (bot_played.inner_text() or ""):
                break
            wait_my_turn(partner,
                         extra="() => document.getElementById('message').innerText.includes('is away')")
            if is_my_turn(partner):
                take_turn(partner, rng)
        expect(bot_played).to_contain_text("is away: a bot played for them")
        back = new_page()
        back.goto(srv.url + created["seats"][0]["link"])
        expect(partner.get_by_test_id("away-0")).to_have_count(0)
        table_id = created["id"]
        for _ in range(40):  # until it is the person's own turn again
            wait_my_turn(back, extra="() => window.tricktaker.state.obs.current_player === 2")
            if is_my_turn(back):
                break
            wait_my_turn(partner)
            take_turn(partner, rng)
        held = server_seq(srv, table_id)
        time.sleep(3)  # beyond the grace: the seat is the person's again
        assert server_seq(srv, table_id) == held and is_my_turn(back)


def test_the_lobby_tells_the_servers_refusal_in_the_persons_language(
        tmp_path: Path, new_page: NewPage) -> None:
    """A refused table request has a code and its parameters; the lobby says it in Spanish
    (before, the server's English sentence)."""
    with running(str(tmp_path / "t.db"), tables_per_minute=2) as srv:
        srv.create()
        srv.create()  # the same address as the browser's: its bucket is empty now
        page = new_page()
        page.add_init_script("localStorage.setItem('tricktaker:lang', 'es')")
        page.goto(srv.url + "/")
        page.get_by_test_id("create-table").click()
        expect(page.locator("#create-error")).to_contain_text("Como mucho 2 mesas nuevas por minuto")


def test_play_now_seats_two_browsers_together_and_a_lone_one_with_bots(tmp_path: Path,
                                                                       new_page: NewPage) -> None:
    """Play now (docs/server.md): two browsers that join the Bondtolva-for-two queue land at
    one table, in the two seats; one that joins Tute habanero with a wait of 0 s lands at
    once against a bot; a second tab of a browser already waiting is refused; a closed page
    leaves its queue."""
    with running(str(tmp_path / "t.db")) as srv:
        one, two = new_page(), new_page()
        for page in (one, two):
            page.goto(srv.url + "/")
            page.get_by_test_id("now-game").select_option("bondtolva")
            page.get_by_test_id("now-size").select_option("2")
            page.get_by_test_id("now-wait").select_option("120")
        one.get_by_test_id("now-join").click()
        expect(one.get_by_test_id("now-status")).to_contain_text("1 of 2")
        # another tab of the same browser cannot take a second place
        tab = one.context.new_page()
        tab.goto(srv.url + "/")
        tab.get_by_test_id("now-game").select_option("tuppi")
        tab.get_by_test_id("now-join").click()
        expect(tab.get_by_test_id("now-error")).to_contain_text("already waits in a queue")
        tab.close()
        expect(two.get_by_test_id("now-others")).to_contain_text("1 waiting")  # someone waits for you
        two.get_by_test_id("now-join").click()
        one.wait_for_url(re.compile(r"/t/"))
        two.wait_for_url(re.compile(r"/t/"))
        table_id = table_id_of(one)
        assert table_id_of(two) == table_id
        seated = "() => window.tricktaker && Number.isInteger(window.tricktaker.state.seat)"
        seats = [page.wait_for_function(seated) and page.evaluate("() => window.tricktaker.state.seat")
                 for page in (one, two)]
        assert sorted(seats) == [0, 1]
        info = srv.http.get(f"/api/tables/{table_id}").json()
        assert info["game"] == "bondtolva" and info["turn_time"] == 45
        assert [(s["kind"], s["connected"]) for s in info["seats"]] == [("human", True), ("human", True)]
        # a lone browser with no wait: at once, against the queue's bot
        three = new_page()
        three.goto(srv.url + "/")
        three.get_by_test_id("now-game").select_option("tute")
        three.get_by_test_id("now-preset").select_option("habanero")
        expect(three.get_by_test_id("now-size")).to_have_value("2")
        three.get_by_test_id("now-wait").select_option("0")
        three.get_by_test_id("now-join").click()
        three.wait_for_url(re.compile(r"/t/"))
        wait_my_turn(three)
        info = srv.http.get(f"/api/tables/{table_id_of(three)}").json()
        assert (info["game"], info["preset"]) == ("tute", "habanero")
        assert sorted((s["kind"], s["bot"]) for s in info["seats"]) == [("bot", "rules"), ("human", None)]
        # a page closed while waiting leaves the queue
        four = new_page()
        four.goto(srv.url + "/")
        four.get_by_test_id("now-game").select_option("marjapussi")
        four.get_by_test_id("now-join").click()
        expect(four.get_by_test_id("now-status")).to_contain_text("1 of 4")
        assert srv.http.get("/api/queues").json()["queues"][0]["game"] == "marjapussi"
        four.close()
        deadline = time.monotonic() + 10
        while srv.http.get("/api/queues").json()["queues"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert srv.http.get("/api/queues").json()["queues"] == []


def test_a_page_waiting_in_a_queue_joins_again_after_a_restart(tmp_path: Path, new_page: NewPage) -> None:
    """The queues are the server's memory only: a page that waits when ``tricktaker serve``
    is killed joins its queue again by itself once the server is back, and is seated."""
    import httpx

    db, port = str(tmp_path / "queue.db"), free_port()
    url = f"http://127.0.0.1:{port}"
    process = start_server(port, db)
    try:
        page = new_page()
        page.goto(url + "/")
        page.get_by_test_id("now-game").select_option("bondtolva")
        page.get_by_test_id("now-size").select_option("2")
        page.get_by_test_id("now-wait").select_option("120")
        page.get_by_test_id("now-join").click()
        expect(page.get_by_test_id("now-status")).to_contain_text("1 of 2")
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        expect(page.get_by_test_id("now-status")).to_contain_text("Joining again")
        process = start_server(port, db)
        expect(page.get_by_test_id("now-status")).to_contain_text("1 of 2", timeout=45_000)
        other = new_page()
        other.goto(url + "/")
        other.get_by_test_id("now-game").select_option("bondtolva")
        other.get_by_test_id("now-size").select_option("2")
        other.get_by_test_id("now-join").click()
        page.wait_for_url(re.compile(r"/t/"))
        other.wait_for_url(re.compile(r"/t/"))
        assert table_id_of(page) == table_id_of(other)
        assert httpx.get(f"{url}/api/queues").json()["queues"] == []
    finally:
        process.kill()
        process.wait(10)


def test_a_three_player_tute_table_from_the_lobby_plays_a_whole_round(server: Running,
                                                                     new_page: NewPage) -> None:
    """Issue 24: Tute for three (each alone) and a variant option, chosen in the lobby and
    played in the browser to the end of a round; the turned trump card shows on the felt."""
    page = new_page()
    page.goto(server.url + "/")
    page.get_by_test_id("game-select").select_option("tute")
    page.get_by_test_id("size-select").select_option("3")
    expect(page.get_by_test_id("seat-2-kind")).to_be_attached()
    expect(page.get_by_test_id("seat-3-kind")).not_to_be_attached()
    for seat in (1, 2):
        page.get_by_test_id(f"seat-{seat}-kind").select_option("bot")
        page.get_by_test_id(f"seat-{seat}-bot").select_option("random")
    page.locator("#options-box > summary").click()
    page.get_by_test_id("option-must_declare").check()
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/t/[^#]+#token=."))
    table_id = table_id_of(page)
    info = server.http.get(f"/api/tables/{table_id}").json()
    assert info["options"]["players"] == 3 and info["options"]["must_declare"] is True
    wait_my_turn(page)
    obs = observation(page)
    assert obs["players"] == 3 and len(obs["hand"]) >= 12  # 13, less one if a bot led to us
    turned = page.get_by_test_id("trump").locator("[data-card]")
    expect(turned).to_have_attribute("data-card", obs["trump_card"])
    assert obs["trump_card"] not in obs["hand"]
    rng = random.Random(3)
    first = hand_number(page)
    while True:
        wait_my_turn(page, extra=f"() => window.tricktaker.state.obs.hand_number !== {first}"
                                 " || document.body.dataset.over === 'true'")
        if hand_number(page) != first or page.evaluate("() => document.body.dataset.over") == "true":
            break
        take_turn(page, rng)
    expect(page.get_by_test_id("history").locator("details")).to_have_count(1)  # the round, summed up
    assert server.http.get(f"/api/tables/{table_id}").json()["hand_number"] >= 1


def test_a_two_player_huutopussi_table_from_the_lobby_plays_a_whole_hand(server: Running,
                                                                         new_page: NewPage) -> None:
    """Issue 24: Huutopussi for two (the 2002 ruleset's preset) chosen in the lobby, two seats,
    played by clicking to the end of a hand; the table tells the dead hand's size, never its
    cards, and the hand's result is summed up."""
    page = new_page()
    page.goto(server.url + "/")
    page.get_by_test_id("game-select").select_option("huutopussi")
    page.get_by_test_id("preset-select").select_option("rules_2002_two")
    expect(page.get_by_test_id("seat-1-kind")).to_be_attached()
    expect(page.get_by_test_id("seat-2-kind")).not_to_be_attached()
    page.get_by_test_id("seat-1-kind").select_option("bot")
    page.get_by_test_id("seat-1-bot").select_option("random")
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/t/[^#]+#token=."))
    table_id = table_id_of(page)
    info = server.http.get(f"/api/tables/{table_id}").json()
    assert info["options"]["players"] == 2 and info["preset"] == "rules_2002_two"
    wait_my_turn(page)
    obs = observation(page)
    assert obs["players"] == 2 and len(obs["hand"]) >= 10 and len(obs["hand_sizes"]) == 2
    expect(page.locator("body")).to_contain_text("Dead hand")
    rng = random.Random(5)
    first = hand_number(page)
    while True:
        wait_my_turn(page, extra=f"() => window.tricktaker.state.obs.hand_number !== {first}"
                                 " || document.body.dataset.over === 'true'")
        if hand_number(page) != first or page.evaluate("() => document.body.dataset.over") == "true":
            break
        obs = observation(page)
        seen = set(obs["hand"]) | set(obs["kitty"] or []) | set(obs["discard"] or [])
        seen |= {c for _, c in obs["trick"]} | {c for t in obs["tricks"] for _, c in t["cards"]}
        seen |= {c for cards in obs["shown"] for c in cards}  # a declared marriage is shown to all
        shown = page.evaluate("() => [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card)")
        assert set(shown) <= seen, "a card the seat never saw (the dead hand's) is on the page"
        take_turn(page, rng)
    expect(page.get_by_test_id("history").locator("details")).to_have_count(1)
