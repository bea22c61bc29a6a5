"""The club page in a real Chromium (issue 23): a director creates a tournament, registers two
entrants and starts round 1; the table is played out by its seats; the standings update by
themselves, and the round sheet prints alone."""

from __future__ import annotations

import re
from pathlib import Path

from browser_helpers import TIMEOUT_MS, NewPage, require_browser

require_browser()

from playwright.sync_api import expect  # noqa: E402
from server_helpers import running  # noqa: E402
from test_club import play_out  # noqa: E402

expect.set_options(timeout=TIMEOUT_MS)


def test_a_director_runs_a_round_and_the_standings_follow_the_table(tmp_path: Path,
                                                                    new_page: NewPage) -> None:
    with running(str(tmp_path / "club.db")) as srv:
        page = new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{srv.url}/")
        page.get_by_test_id("club-link").click()
        page.get_by_test_id("club-name").fill("Friday Tute")
        page.get_by_test_id("club-game").select_option("tute")
        page.get_by_test_id("club-preset").select_option("habanero")
        page.get_by_test_id("club-create").click()
        page.wait_for_url(re.compile(r"/club/[^/#]+$"))  # the key left the address bar...
        tid = page.url.rsplit("/", 1)[1]
        expect(page.get_by_test_id("club-title")).to_have_text("Friday Tute")
        link = page.get_by_test_id("director-link").inner_text()
        assert re.fullmatch(rf"{re.escape(srv.url)}/club/{tid}#director=\S+", link)  # ...but is shown to keep
        for name in ("Ann", "Bo"):
            page.get_by_test_id("entrant-name").fill(name)
            page.get_by_test_id("entrant-add").click()
        expect(page.get_by_test_id("entrant")).to_have_count(2)
        expect(page.get_by_test_id("entrant-member1")).to_be_hidden()  # two-player Tute: players, not pairs
        page.get_by_test_id("start-round").click()
        board = page.get_by_test_id("board")
        expect(board).to_have_count(1)
        expect(page.get_by_test_id("seat-link")).to_have_count(2)
        expect(page.get_by_test_id("start-round")).to_be_hidden()  # not before the round is over
        links = page.get_by_test_id("seat-link").all_inner_texts()
        seats = page.get_by_test_id("seat-line").all_inner_texts()
        assert seats[0].startswith("Seat 1: Ann") and seats[1].startswith("Seat 2: Bo")

        # each entrant opens their seat link: the table page seats them
        tables = []
        for url in links:
            table_page = new_page()
            table_page.goto(url)
            table_page.wait_for_function("() => document.body.dataset.seq !== undefined")
            back = table_page.get_by_test_id("club-of-table")  # the table links back to its tournament
            expect(back).to_have_text("Friday Tute: round 1, table 1")
            assert back.get_attribute("href") == f"/club/{tid}"
            tables.append(table_page)
        # the seats play it out through the same links (first legal action each turn)
        sheet = srv.http.get(f"/api/club/{tid}", headers={"X-Director": link.split("#director=")[1]}).json()
        last = play_out(srv, sheet["round_list"][0]["tables"][0])
        for table_page in tables:
            table_page.wait_for_function("() => document.body.dataset.over === 'true'")

        # the director's page collects the result by itself and ranks the winner first
        winner = sheet["round_list"][0]["tables"][0]["sides"][last["observation"]["winner"]] \
            if last["observation"].get("winner") is not None else None
        result = board.get_by_test_id("result")
        expect(result).to_contain_text("wins")
        first = page.get_by_test_id("standing").first
        expect(first.locator("[data-col=won]")).to_have_text("1")
        expect(first.locator("[data-col=match_points]")).to_have_text("2")
        if winner is not None:
            assert first.get_attribute("data-entrant") == str(winner)
        expect(page.get_by_test_id("start-round")).to_be_hidden()  # two entrants: one round in all

        # the round sheet prints alone: its table, seats and links; not the standings
        page.get_by_test_id("print-round-1").click()  # headless: the print dialog returns at once
        page.emulate_media(media="print")
        expect(page.get_by_test_id("standings")).to_be_hidden()
        expect(page.get_by_test_id("seat-link").first).to_be_visible()
        page.emulate_media(media="screen")

        # in Finnish
        page.get_by_test_id("lang-select").select_option("fi")
        expect(page.get_by_test_id("round-1").locator("h3")).to_contain_text("Kierros 1")
        expect(result).to_contain_text("voittaa")

        # the public page (no key): the standings, no seat links
        public = new_page()
        public.goto(f"{srv.url}/club/{tid}")
        expect(public.get_by_test_id("standing")).to_have_count(2)
        expect(public.get_by_test_id("seat-line")).to_have_count(2)
        expect(public.get_by_test_id("seat-link")).to_have_count(0)
        expect(public.get_by_test_id("start-round")).to_be_hidden()


def test_a_director_registers_pairs_and_records_a_no_show_in_spanish(tmp_path: Path,
                                                                     new_page: NewPage) -> None:
    """Tuppi under its tournament rules, three pairs: a pair's two players are named, one entrant
    is removed before the start, round 1 has a table and a bye; nobody comes to the table, the
    director records it, and round 2 may start."""
    with running(str(tmp_path / "club.db")) as srv:
        page = new_page(viewport={"width": 1280, "height": 900}, locale="es-ES")
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(f"{srv.url}/club")
        expect(page.get_by_test_id("club-create")).to_have_text("Crear torneo")
        page.get_by_test_id("club-name").fill("Campeonato")
        page.get_by_test_id("club-game").select_option("tuppi")
        expect(page.get_by_test_id("club-preset")).to_have_value("tournament")  # the game's own
        page.get_by_test_id("club-create").click()
        page.wait_for_url(re.compile(r"/club/[^/#]+$"))
        expect(page.get_by_test_id("club-title")).to_have_text("Campeonato")
        for name, first, second in [("Norte", "Aho", "Berg"), ("Sur", "Carl", "Dahl"),
                                    ("Este", "Eno", "Fors"), ("Oeste", "Gus", "Hed")]:
            page.get_by_test_id("entrant-name").fill(name)
            page.get_by_test_id("entrant-member1").fill(first)
            page.get_by_test_id("entrant-member2").fill(second)
            page.get_by_test_id("entrant-add").click()
            expect(page.get_by_test_id("entrant").last).to_contain_text(f"{name} ({first} & {second})")
        page.get_by_test_id("entrant").last.get_by_role("button").click()  # Oeste withdraws
        expect(page.get_by_test_id("entrant")).to_have_count(3)
        page.get_by_test_id("start-round").click()
        expect(page.get_by_test_id("board")).to_have_count(2)  # a table and a bye
        expect(page.get_by_test_id("seat-line")).to_have_count(4)
        lines = page.get_by_test_id("seat-line").all_inner_texts()
        assert lines[0].startswith("Asiento 1: ") and "(" in lines[0]
        assert len(page.get_by_test_id("seat-link").all_inner_texts()) == 4
        expect(page.get_by_test_id("start-round")).to_be_hidden()
        board = page.get_by_test_id("board").first
        board.get_by_role("button", name="ninguno").click()  # neither pair came
        expect(board.get_by_test_id("result")).to_contain_text("no vino ninguno")
        expect(page.get_by_test_id("start-round")).to_have_text("Empezar la ronda 2")
        standings = page.get_by_test_id("standing")
        expect(standings.first.locator("[data-col=byes]")).to_have_text("1")  # the bye leads
        expect(standings.first.locator("[data-col=match_points]")).to_have_text("2")


def test_a_director_runs_tute_for_three_with_four_players_and_withdraws_one(tmp_path: Path,
                                                                           new_page: NewPage) -> None:
    """Tables of three: four players, round 1 seats a table of three (a seat link for each) and a
    bye; the table is played out and the standings rank by place (2, 1, 0); the director
    withdraws a player, who is marked so and not seated in round 2, a table of the three left."""
    with running(str(tmp_path / "club.db")) as srv:
        page = new_page(viewport={"width": 1280, "height": 900})
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(f"{srv.url}/club")
        page.get_by_test_id("club-name").fill("Tute night")
        page.get_by_test_id("club-game").select_option("tute")
        page.get_by_test_id("club-preset").select_option("cabrero")  # the same rules for 3 to 6
        size = page.get_by_test_id("club-size")
        expect(size).to_have_value("4")
        assert size.locator("option").all_inner_texts() == ["3", "4", "5", "6"]
        size.select_option("5")
        expect(page.locator("#t-entrants-kind")).to_contain_text("tables of 5; when the entrants")
        page.get_by_test_id("club-preset").select_option("three")
        expect(size).to_be_hidden()
        expect(page.locator("#t-entrants-kind")).to_have_text(
            "Entrants are players, each alone at tables of 3.")
        page.get_by_test_id("club-create").click()
        page.wait_for_url(re.compile(r"/club/[^/#]+$"))
        tid = page.url.rsplit("/", 1)[1]
        expect(page.get_by_test_id("director-link")).to_contain_text("#director=")
        secret = page.get_by_test_id("director-link").inner_text().split("#director=")[1]
        for name in ("Ann", "Bo", "Cy", "Di"):
            page.get_by_test_id("entrant-name").fill(name)
            page.get_by_test_id("entrant-add").click()
            expect(page.get_by_test_id("entrant").last).to_contain_text(name)
        expect(page.locator("#rule-doc")).to_contain_text("a table of three: first 2, second 1, third 0")
        page.get_by_test_id("start-round").click()
        round1 = page.get_by_test_id("round-1")
        expect(round1.get_by_test_id("board")).to_have_count(2)  # a table of three and Di's bye
        expect(round1.get_by_test_id("seat-link")).to_have_count(3)
        lines = round1.get_by_test_id("seat-line").all_inner_texts()
        # each plays alone: the seat names the player once, not "Ann (Ann)"
        assert [line.split("\n")[0] for line in lines] == ["Seat 1: Ann", "Seat 2: Bo", "Seat 3: Cy"]
        expect(round1.get_by_test_id("board").last).to_contain_text("Bye Di")
        forfeit_buttons = round1.get_by_test_id("board").first.locator(".forfeits button")
        expect(forfeit_buttons).to_have_count(4)  # each of the three, and all

        sheet = srv.http.get(f"/api/club/{tid}", headers={"X-Director": secret}).json()
        last = play_out(srv, sheet["round_list"][0]["tables"][0])
        winner = sheet["round_list"][0]["tables"][0]["sides"][last["observation"]["winner"]]
        done = srv.http.get(f"/api/club/{tid}").json()["round_list"][0]["tables"][0]["result"]
        names = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di"}
        sides = sheet["round_list"][0]["tables"][0]["sides"]
        by_place = sorted(range(3), key=lambda side: (done["places"][side], side))
        expect(round1.get_by_test_id("result")).to_have_text(" · ".join(  # "1. Cy 3 · 2. Ann 0 · 2. Bo 0"
            f"{done['places'][side]}. {names[sides[side]]} {done['scores'][side]}" for side in by_place))
        standing = page.get_by_test_id("standing")
        expect(standing.first.locator("[data-col=match_points]")).to_have_text("2")
        assert standing.first.get_attribute("data-entrant") == str(winner)
        di = page.get_by_test_id("standing").filter(has_text="Di")
        expect(di.locator("[data-col=match_points]")).to_have_text("1")  # a bye at tables of three

        # Bo withdraws: marked, kept in the standings, not seated in round 2
        bo = page.get_by_test_id("entrant").nth(1)
        bo.get_by_test_id("withdraw").click()
        expect(bo.get_by_test_id("withdrawn")).to_have_text("(withdrawn in round 1)")
        expect(page.get_by_test_id("standing").filter(has_text="Bo")).to_contain_text("withdrawn in round 1")
        page.get_by_test_id("start-round").click()
        round2 = page.get_by_test_id("round-2")
        expect(round2.get_by_test_id("board")).to_have_count(1)
        # (a seat line goes on with the table's link, whose random token may hold "Bo" too)
        seated = [line.split("\n")[0] for line in round2.get_by_test_id("seat-line").all_inner_texts()]
        assert len(seated) == 3 and "Bo" not in {line.split(": ", 1)[1] for line in seated}, seated

        # in Spanish; and the public page shows three seats a table, no links
        page.get_by_test_id("lang-select").select_option("es")
        expect(page.locator("#rule-doc")).to_contain_text("mesa de tres: primero 2")
        expect(bo.get_by_test_id("withdrawn")).to_have_text("(retirado en la ronda 1)")
        public = new_page()
        public.goto(f"{srv.url}/club/{tid}")
        expect(public.get_by_test_id("round-2").get_by_test_id("seat-line")).to_have_count(3)
        expect(public.get_by_test_id("seat-link")).to_have_count(0)
        expect(public.get_by_test_id("withdraw")).to_have_count(0)
