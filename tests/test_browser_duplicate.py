"""Duplicate tournaments in a real browser (issue 23): make a set, enter it, play its boards
by clicking, and read the results.  Skipped without Playwright and Chromium, as
tests/test_browser.py is (``TRICKTAKER_REQUIRE_BROWSER=1`` makes that a failure)."""

from __future__ import annotations

import random
import re

from browser_helpers import TIMEOUT_MS, NewPage, require_browser, take_turn, wait_my_turn

require_browser()

from playwright.sync_api import Page, expect  # noqa: E402
from server_helpers import Running  # noqa: E402

expect.set_options(timeout=TIMEOUT_MS)


def play_hand(page: Page, rng: random.Random) -> None:
    """Click through the board's hand until the page says it is over."""
    while page.evaluate("() => document.body.dataset.over") != "true":
        wait_my_turn(page)
        if page.evaluate("() => document.body.dataset.over") == "true":
            break
        take_turn(page, rng)


def test_a_person_enters_a_set_of_two_boards_plays_them_and_reads_the_results(
        server: Running, new_page: NewPage) -> None:
    rng = random.Random(23)
    page = new_page()
    page.goto(server.url + "/")
    page.get_by_test_id("duplicate-link").click()
    expect(page.get_by_test_id("daily-sets").get_by_test_id("set-row")).to_have_count(6)
    # a set of two boards of Bondtolva (six cards each), rules bots
    page.get_by_test_id("game-select").select_option("bondtolva")
    page.get_by_test_id("boards").fill("2")
    page.get_by_test_id("bot-select").select_option("rules")
    page.get_by_test_id("create-set").click()
    page.wait_for_url(re.compile(r"/duplicate/[\w-]+$"))
    expect(page.get_by_test_id("share-link")).to_have_value(page.url)
    share = page.url
    page.get_by_test_id("nickname").fill("Aino")
    page.get_by_test_id("enter").click()
    for board in (1, 2):
        expect(page.get_by_test_id("play-board")).to_have_text(f"Play board {board} of 2")
        page.get_by_test_id("play-board").click()
        page.wait_for_url(re.compile(r"/t/"))
        play_hand(page, rng)
        home = page.get_by_test_id("home-link")
        expect(home).to_be_visible()
        expect(page.get_by_test_id("rematch")).to_be_hidden()
        expect(page.locator("#over-title")).to_have_text("Hand over")  # one hand, not a match
        expect(page.locator("#over-detail")).to_contain_text("Points")
        home.click()
        page.wait_for_url(share)
    expect(page.get_by_test_id("entry-status")).to_contain_text("You have played every board")
    expect(page.get_by_test_id("play-board")).to_be_hidden()
    standings = page.get_by_test_id("standing")
    expect(standings).to_have_count(1)
    expect(standings.first).to_contain_text("Aino")
    expect(standings.first).to_contain_text("2/2")
    expect(standings.first).to_contain_text("50")  # alone on every board: 50%
    boards = page.get_by_test_id("board")
    expect(boards).to_have_count(2)
    expect(boards.last).to_be_visible()
    expect(boards.last.get_by_test_id("board-row")).to_have_count(1)
    expect(page.get_by_test_id("deal")).to_have_count(2)  # finished: the deals are shown
    # on a phone the results fit the screen's width (a board's table scrolls within itself)
    page.set_viewport_size({"width": 390, "height": 844})
    expect(boards.last).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    # a second person, in a browser of their own, sees neither board's deal before playing it
    other = new_page()
    other.goto(server.url + "/duplicate")  # an entry this server does not know (a database started afresh)
    other.evaluate("k => localStorage.setItem(k, JSON.stringify({entry: 'gone', token: 'x'}))",
                   "tricktaker:duplicate:" + share.rsplit("/", 1)[1])
    other.goto(share)
    expect(other.get_by_test_id("nickname")).to_be_visible()  # forgotten: the page offers to enter
    expect(other.get_by_test_id("standing")).to_have_count(1)
    expect(other.get_by_test_id("board")).to_have_count(2)
    expect(other.get_by_test_id("deal")).to_have_count(0)
    expect(other.get_by_test_id("board").first).to_contain_text("Played by 1 so far")
    other.get_by_test_id("nickname").fill("Bo")
    other.get_by_test_id("enter").click()
    other.get_by_test_id("play-board").click()
    other.wait_for_url(re.compile(r"/t/"))
    play_hand(other, rng)
    other.get_by_test_id("home-link").click()
    other.wait_for_url(share)
    expect(other.get_by_test_id("deal")).to_have_count(1)  # board 1 only
    expect(other.get_by_test_id("board").first.get_by_test_id("board-row")).to_have_count(2)
    expect(other.get_by_test_id("standing")).to_have_count(2)
    # the set is listed with its entrants, and the page speaks Finnish
    other.goto(server.url + "/duplicate")
    expect(other.get_by_test_id("recent-sets")).to_contain_text("2")
    other.get_by_test_id("lang-select").select_option("fi")
    expect(other.locator("h2").first).to_have_text("Duplikaattiturnaukset")
