"""Tute cabrero in the browser and the server: a table each alone, losers, places (issue 24)."""

from __future__ import annotations

import random
import re

from browser_helpers import TIMEOUT_MS, NewPage, observation, require_browser, take_turn, wait_my_turn

require_browser()

from playwright.sync_api import expect  # noqa: E402
from server_helpers import Running  # noqa: E402

import tricktaker as tt  # noqa: E402

expect.set_options(timeout=TIMEOUT_MS)


def test_cabrero_a_table_of_four_each_alone_plays_to_the_end_in_the_browser(
        server: Running, new_page: NewPage) -> None:
    """Four seats each alone: the seat across is not a partner, a finished round names its
    losers and why, and the match ends with places (the survivors win together)."""
    created = server.create("tute", ["human", "rules", "rules", "rules"], preset="cabrero",
                            options={"losses_out": 2})
    table_id = created["id"]
    info = server.http.get(f"/api/tables/{table_id}").json()
    assert info["partnerships"] is False and info["options"]["mode"] == "cabrero"
    page = new_page()
    page.goto(f"{server.url}/t/{table_id}#token={created['seats'][0]['token']}")
    wait_my_turn(page)
    assert observation(page)["out"] == [False] * 4
    expect(page.locator("#pos-top .seat-name")).to_have_text("Across")
    expect(page.locator(".seat.ours")).to_have_count(0)
    rng = random.Random(5)
    while page.evaluate("() => document.body.dataset.over") != "true":
        wait_my_turn(page)
        if page.evaluate("() => document.body.dataset.over") == "true":
            break
        take_turn(page, rng)
    history = page.get_by_test_id("history")
    expect(history).to_contain_text(re.compile(r"The middle loses|No trick|Capote|after singing"))
    record = tt.load(server.http.get(f"/api/tables/{table_id}/record").text)
    places = record.places
    assert places is not None and record.is_over()
    # several may win together: the page reads the places, not a single winner
    expect(page.locator("#over-winner")).to_have_text("You win!" if places[0] == 1 else "You lose.")
    # a hand's review judges nothing here (the solver refuses cabrero), and says why
    expect(page.get_by_test_id("review-nothing").first).to_be_attached()


def test_cabrero_from_the_lobby_for_three_with_its_explanation_in_spanish(
        server: Running, new_page: NewPage) -> None:
    """The lobby offers the preset (named in the page's language), explains the option, and a
    three-seat cabrero table is made from it: 13 cards each, the turned card out of play."""
    page = new_page()
    page.goto(server.url + "/")
    page.evaluate("() => localStorage.setItem('tricktaker:lang', 'es')")
    page.reload()
    page.get_by_test_id("game-select").select_option("tute")
    page.get_by_test_id("preset-select").select_option("cabrero")
    expect(page.get_by_test_id("preset-select").locator("option:checked")).to_have_text("Cabrero (3-6 solos)")
    expect(page.get_by_test_id("option-mode")).to_have_value("cabrero")
    expect(page.locator("#options")).to_contain_text("pierde la mano el del medio")
    page.get_by_test_id("size-select").select_option("3")
    for seat in (1, 2):
        page.get_by_test_id(f"seat-{seat}-kind").select_option("bot")
        page.get_by_test_id(f"seat-{seat}-bot").select_option("rules")
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/t/[^#]+#token=."))
    table_id = re.search(r"/t/([^/#?]+)", page.url).group(1)  # type: ignore[union-attr]
    info = server.http.get(f"/api/tables/{table_id}").json()
    assert info["preset"] == "cabrero" and info["options"]["players"] == 3
    assert info["options"]["mode"] == "cabrero"
    wait_my_turn(page)
    obs = observation(page)
    assert obs["out"] == [False] * 3 and obs["trump_card"] not in obs["hand"]


def test_cabrero_a_table_of_six_from_the_lobby_seats_everyone_around_the_felt(
        server: Running, new_page: NewPage) -> None:
    """The lobby offers five and six seats for cabrero only; a six-seat table draws the far
    seats in the top corners, each trick card toward its player, and plays to the end."""
    page = new_page()
    page.goto(server.url + "/")
    page.get_by_test_id("game-select").select_option("tute")
    page.get_by_test_id("preset-select").select_option("pairs")
    sizes = page.get_by_test_id("size-select").locator("option")
    expect(sizes).to_have_text(["2 players", "3 players", "4 players"])
    page.get_by_test_id("preset-select").select_option("cabrero")
    expect(sizes).to_have_text(["3 players", "4 players", "5 players", "6 players"])
    page.get_by_test_id("size-select").select_option("6")
    page.locator("#options-box > summary").click()
    page.get_by_test_id("option-losses_out").fill("1")
    for seat in range(1, 6):
        page.get_by_test_id(f"seat-{seat}-kind").select_option("bot")
        page.get_by_test_id(f"seat-{seat}-bot").select_option("rules")
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/t/[^#]+#token=."))
    table_id = re.search(r"/t/([^/#?]+)", page.url).group(1)  # type: ignore[union-attr]
    info = server.http.get(f"/api/tables/{table_id}").json()
    assert info["options"]["players"] == 6 and info["options"]["losses_out"] == 1
    wait_my_turn(page)
    obs = observation(page)
    assert obs["out"] == [False] * 6 and len(obs["hand"]) == 6 and obs["trump_card"] not in obs["hand"]
    expect(page.locator(".seat")).to_have_count(6)
    expect(page.locator("#score")).not_to_contain_text("(to ")  # lost hands count toward no target
    for spot, name in (("left", "Left"), ("top-left", "Far left"), ("top", "Across"),
                       ("top-right", "Far right"), ("right", "Right")):
        expect(page.locator(f"#pos-{spot} .seat-name")).to_have_text(name)
    boxes = {spot: page.locator(f"#pos-{spot}").bounding_box() for spot in ("top-left", "top", "top-right")}
    assert boxes["top-left"]["x"] < boxes["top"]["x"] < boxes["top-right"]["x"]  # type: ignore[index]
    rng = random.Random(6)
    corners = set()
    while page.evaluate("() => document.body.dataset.over") != "true":
        wait_my_turn(page)
        if page.evaluate("() => document.body.dataset.over") == "true":
            break
        corners |= set(page.evaluate(
            "() => [...document.querySelectorAll('#trick .card')].map((c) => c.className)"
            ".filter((c) => c.includes('at-top-'))"))
        take_turn(page, rng)
    assert corners, "the far seats' cards lie toward the top corners"
    record = tt.load(server.http.get(f"/api/tables/{table_id}/record").text)
    assert record.is_over() and record.places is not None
