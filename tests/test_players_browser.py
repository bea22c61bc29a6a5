"""Players and ratings in a real Chromium (issue 23): a player made in one click in the lobby,
a Bondtolva table created and played out by clicking against the ``rules`` bot; the profile
lists the match with its result and rating change, and the leaderboard shows the rating, in
English and in Finnish."""

from __future__ import annotations

import random
import re
from pathlib import Path

from browser_helpers import TIMEOUT_MS, NewPage, require_browser, take_turn, wait_my_turn

require_browser()

from playwright.sync_api import expect  # noqa: E402
from server_helpers import running  # noqa: E402

expect.set_options(timeout=TIMEOUT_MS)


def test_a_player_made_in_one_click_plays_a_rated_match_and_finds_it_on_the_profile_and_board(
        tmp_path: Path, new_page: NewPage) -> None:
    rng = random.Random(23)
    with running(str(tmp_path / "t.db")) as srv:
        page = new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{srv.url}/")
        page.get_by_test_id("nickname").fill("Aino")
        page.get_by_test_id("make-player").click()
        expect(page.get_by_test_id("signed-in")).to_have_text("Playing as Aino")
        other = page.context.new_page()  # the same browser: it already has its player
        other.goto(f"{srv.url}/")
        expect(other.get_by_test_id("signed-in")).to_have_text("Playing as Aino")
        other.close()
        # another browser: a taken name is told in its language, and the form stays for another try
        spanish = new_page()
        spanish.goto(f"{srv.url}/")
        spanish.get_by_test_id("lang-select").select_option("es")
        spanish.get_by_test_id("nickname").fill("AINO")
        spanish.get_by_test_id("make-player").click()
        expect(spanish.locator("#player-error")).to_have_text("Ese apodo ya está cogido: elige otro.")
        expect(spanish.get_by_test_id("make-player")).to_be_visible()
        # "Use on another device": the key link makes another browser this player
        page.locator(".key-link summary").click()
        link = page.get_by_test_id("player-link").input_value()
        assert re.fullmatch(rf"{re.escape(srv.url)}/#player=\S+", link)
        moved = new_page()
        moved.goto(link)
        expect(moved.get_by_test_id("signed-in")).to_have_text("Playing as Aino")
        assert "#player" not in moved.url  # the key left the address bar
        wrong = moved.context.new_page()  # a new tab: a fragment alone does not load the page again
        wrong.goto(f"{srv.url}/#player=not-a-key")
        expect(wrong.locator("#player-error")).to_have_text(re.compile("not known on this server"))
        expect(wrong.get_by_test_id("signed-in")).to_have_text("Playing as Aino")  # still the one it had
        page.get_by_test_id("game-select").select_option("bondtolva")
        page.get_by_test_id("size-select").select_option("2")
        page.get_by_test_id("seat-1-bot").select_option("rules")
        page.get_by_test_id("create-table").click()
        page.wait_for_url(re.compile(r"/t/[^#]+#token="))
        table_id = re.search(r"/t/([^#]+)", page.url).group(1)  # type: ignore[union-attr]
        expect(page.locator(".seat-meta a.nick")).to_have_text("Aino")
        while True:
            wait_my_turn(page, timeout=30_000)
            if page.evaluate("() => document.body.dataset.over") == "true":
                break
            take_turn(page, rng)
        profile = srv.http.get(f"/api/tables/{table_id}").json()["seats"][0]["player"]
        page.goto(f"{srv.url}/")
        page.get_by_test_id("my-profile").click()
        page.wait_for_url(f"{srv.url}/p/{profile}")
        expect(page.get_by_test_id("profile-nickname")).to_have_text("Aino")
        row = page.get_by_test_id("match-row")
        expect(row).to_have_count(1)
        expect(row).to_have_attribute("data-table", table_id)
        expect(row.get_by_test_id("match-result")).to_have_text(re.compile(r"^(Won|Lost)$"))
        data = srv.http.get(f"/api/players/{profile}").json()
        rating = round(data["ratings"][0]["rating"])
        assert rating != 1500 and data["matches"][0]["rating_after"] is not None
        expect(row).to_contain_text(f"1500 → {rating}")
        expect(page.get_by_test_id("rating-row")).to_contain_text(str(rating))
        page.get_by_test_id("lang-select").select_option("fi")
        expect(row.get_by_test_id("match-result")).to_have_text(re.compile(r"^(Voitto|Tappio)$"))
        page.get_by_test_id("rating-row").get_by_role("link").click()  # to the board of that game and size
        page.wait_for_url(re.compile(r"/leaderboard\?game=bondtolva&players=2"))
        expect(page.locator("h2")).to_have_text("Tulostaulu")
        board = page.get_by_test_id("board-row")
        expect(board).to_have_count(1)
        expect(board).to_contain_text("Aino")
        expect(board.get_by_test_id("board-rating")).to_have_text(str(rating))
        page.get_by_test_id("board-size").select_option("4")  # nobody rated at four yet
        expect(page.get_by_test_id("leaderboard")).to_contain_text("Kenelläkään ei ole vielä")
