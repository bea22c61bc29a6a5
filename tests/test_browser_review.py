"""The hand analysis and the practice hint in a real browser (server/review.py, table.js)."""

from __future__ import annotations

import random
import re

from browser_helpers import (
    TIMEOUT_MS,
    NewPage,
    hand_number,
    require_browser,
    take_turn,
    wait_my_turn,
)

require_browser()

from playwright.sync_api import expect  # noqa: E402
from server_helpers import Running  # noqa: E402

expect.set_options(timeout=TIMEOUT_MS)


def test_after_a_hand_each_card_shows_its_cost_and_a_practice_table_gives_hints(
        server: Running, new_page: NewPage) -> None:
    page = new_page()
    page.goto(server.url + "/")
    page.get_by_test_id("game-select").select_option("tuppi")
    for seat in (1, 2, 3):
        page.get_by_test_id(f"seat-{seat}-kind").select_option("bot")
        page.get_by_test_id(f"seat-{seat}-bot").select_option("random")
    page.locator("#options-box > summary").click()
    page.get_by_test_id("option-early_end").uncheck()  # every card is played, so all of it is public
    page.get_by_test_id("option-sooli").uncheck()
    page.get_by_test_id("practice").check()
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/t/[^#]+#token=."))
    match = re.search(r"/t/([^/#?]+)", page.url)
    assert match, page.url
    table_id = match.group(1)
    assert server.http.get(f"/api/tables/{table_id}").json()["practice"] is True

    # a hint on demand: the strongest bot's choice for this seat, one of its legal actions
    wait_my_turn(page)
    hint_button = page.get_by_test_id("hint")
    expect(hint_button).to_be_visible()
    hint_button.click()
    expect(page.get_by_test_id("message")).to_have_text(re.compile(r"^Hint: "))
    hint = page.evaluate("() => window.tricktaker.state.hint")
    assert hint["action"] in page.evaluate("() => window.tricktaker.state.legal")
    hinted = [c for c in hint["action"].split(" ")[1:] if re.fullmatch(r"[AKQJT2-9][SHDC]", c)]
    for card in hinted:
        ringed = page.locator(f'#hand [data-testid=card][data-card="{card}"]')
        expect(ringed).to_have_class(re.compile(r"\bhinted\b"))

    rng = random.Random(3)
    while True:
        wait_my_turn(page, extra="() => window.tricktaker.state.obs.hand_number !== 0")
        if hand_number(page) != 0:
            break
        take_turn(page, rng)

    # the hand is over: its review arrives and the history shows what each card cost
    history = page.get_by_test_id("history")
    page.locator("#history details summary").first.click()
    review = history.get_by_test_id("review")
    expect(review).to_have_count(1)
    stored = server.app.state.tables.tables[table_id].reviews[1]
    analysed = [d for d in stored["decisions"] if d["status"] == "analysed"]
    assert len(analysed) > 20
    costs = review.get_by_test_id("play-cost")
    expect(costs).to_have_count(len(stored["decisions"]))
    expect(costs.first).to_be_visible()  # the hand opened stays open as the next one is played
    shown = costs.evaluate_all(
        "els => els.map(e => [e.dataset.action, Number(e.dataset.seat), e.dataset.status, e.dataset.cost])")
    assert shown == [[d["action"], d["seat"], d["status"], str(d["cost"]) if "cost" in d else ""]
                     for d in stored["decisions"]]
    costly = next((d for d in analysed if d["cost"]), None)
    if costly is not None:
        words = "trick" if stored["units"] == "tricks" else "point"
        told = costs.nth(stored["decisions"].index(costly))
        expect(told).to_contain_text(re.compile(rf"−{costly['cost']} {words}"))
    expect(review).to_contain_text("Cost per player")
    expect(review.get_by_test_id("par")).to_contain_text(re.compile(r"Played: .*\n?.*Par: "))

    # a table that is not for practice offers no hint
    other = server.create("tuppi", ["human", "random", "random", "random"])
    plain = new_page()
    plain.goto(server.url + other["seats"][0]["link"])
    wait_my_turn(plain)
    expect(plain.get_by_test_id("hint")).to_be_hidden()
