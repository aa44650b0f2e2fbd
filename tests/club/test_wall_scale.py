"""The wall at a club's scale, in headless Chromium at 1920x1080 against a real PostgreSQL: 2, 9
and 24 tables, every one of them shown (a page at a time when they do not fit, with the page
said), nothing cut off and no text under 26 px; the club's own name; every table shown as not
known (not green, not "playing") while the server is away; standings with games, wins and
rating side by side and the ranking rule in one line. Screenshots:
screenshots/club_board_{2,9,24}_tables_1920x1080.png and club_board_server_away_1920x1080.png."""

from __future__ import annotations

import random
from datetime import timedelta

import psycopg
import pytest

from companion.club import access
from companion.club.reading import add_season, name_club
from tests.club import making
from tests.club.board_serving import playing, served, set_status
from tests.club.cluster import unique
from tests.club.test_board import _FITS, _n, _shot, _text, _texts, _viewport
from tests.support.browser import until

#: Each page's items: within the list's box, and every item on some page.
_PAGES = """
const out = {};
for (const id of ['tables', 'standings', 'recent']) {
  const list = document.getElementById(id), box = list.getBoundingClientRect();
  const items = [...list.children];
  out[id] = {pages: Number(list.dataset.pages || 0),
             sign: document.getElementById(id + '-page').innerText,
             unpaged: items.filter((e) => !e.dataset.page).length,
             cut: items.filter((e) => !e.hidden).filter((e) => {
               const r = e.getBoundingClientRect();
               return r.bottom > box.bottom + 1 || r.right > box.right + 1;
             }).length,
             names: items.map((e) => e.textContent)};
}
return out;"""

TITLES = (("Witch's Brew", ["Anna", "Ben", "Cleo", "Dora"], [12, 9, 15, 7], ["Set 2 of 3"]),
          ("Cauldron", ["Emil", "Farah", "Gus"], [21, 18, 30], ["Market season"]),
          ("Cauldron Quest", ["Hana", "Ivo"], [None, None], ["Wizard at 5"]))


def _club(url: str, tables: int) -> dict:
    """A club of ``tables`` tables, every fifth one offline, a season, 12 players and 60
    games; its name set by the admin."""
    with psycopg.connect(url, autocommit=True) as admin:
        name_club(admin, "Meeple Café")
        add_season(admin, "Winter 2026", "2026-01-01", "2026-12-31")
        devices = [making.device(admin, f"Table {i}") for i in range(1, tables + 1)]
        players = making.profiles(admin, 12, devices[0])
        rng = random.Random(tables)
        end = making.START.replace(month=11)
        for i in range(60):
            making.add(admin, *making.game_rows(rng, players, devices[i % tables],
                                                end + timedelta(minutes=37 * i)))
        for i, device in enumerate(devices):
            title, names, scores, stands = TITLES[i % 3]
            set_status(admin, device, playing(title, names, scores, stands),
                       ago_s=300 if i % 5 == 4 else 0)
        wall = access.add_wall(admin, unique("ws"))
        rater = access.add_rater(admin, unique("rs"))
    return {"wall": wall, "rater": rater, "names": [f"Table {i}" for i in
                                                    range(1, tables + 1)]}


@pytest.mark.parametrize("tables", [2, 9, 24])
def test_every_table_is_shown_at_a_clubs_scale(club, browser, tables):
    made = _club(club, tables)
    _viewport(browser)
    with served(made["wall"].conninfo, rater=made["rater"].conninfo) as (server, url):
        browser.get(url + "/")
        until(browser, lambda: _n(browser) >= 1, "the first snapshot")
        until(browser, lambda: any("." in t for t in _texts(browser, "#standings td.rating")),
              "the ratings")
        assert _text(browser, "#club") == "Meeple Café"
        assert browser.title == "Meeple Café"
        pages = browser.execute_script(_PAGES)
        shown = pages["tables"]
        # every table is on a page; what a page shows is whole; more than one page is said
        assert sorted(n.split("playing")[0].split("offline")[0].strip()
                      for n in shown["names"]) == sorted(made["names"]) or all(
            any(n in text for text in shown["names"]) for n in made["names"])
        _shot(browser, f"{tables}_tables")
        for name, part in pages.items():
            assert part["unpaged"] == 0 and part["cut"] == 0, (name, part["cut"])
            assert (part["pages"] > 1) == bool(part["sign"]), part
        if shown["pages"] > 1:
            assert f"page 1 of {shown['pages']}" in shown["sign"]
        assert browser.execute_script(_FITS) == {"overflow": [], "small": []}
        heads = browser.execute_script(
            "return [...document.querySelectorAll('#standings tr:first-child')].map("
            "(r) => [...r.children].map((h) => h.textContent))")
        assert heads and all(h in (["", "Player", "Games", "Wins", "Rating"],
                                   ["", "Player", "Games", "Wins", "Won"]) for h in heads)
        assert _text(browser, "#rule") == "Rated by every place; ranked from 3 games."
        assert browser.execute_script("const r = document.getElementById('rule');"
                                      "return r.getClientRects().length === 1 && "
                                      "r.offsetHeight < 40")   # one line
        _shot(browser, f"{tables}_tables")
        if shown["pages"] > 1:      # the pages turn by themselves, and each shows its tables
            until(browser, lambda: "page 2 of" in _text(browser, "#tables-page"),
                  "the second page")
            assert browser.execute_script(_FITS) == {"overflow": [], "small": []}
            _shot(browser, f"{tables}_tables_page_2")


def test_while_the_server_is_away_no_table_is_shown_playing(club, browser):
    made = _club(club, 9)
    _viewport(browser)
    with served(made["wall"].conninfo) as (server, url):
        browser.get(url + "/")
        until(browser, lambda: "playing" in _text(browser, "#tables"), "the tables playing")
        def away() -> None:     # as the board's reader says it (again, if a read came between)
            server.loop.call_soon_threadsafe(server._unreachable, OSError("the server is away"))

        until(browser, lambda: "cannot be reached" in _text(browser, "#link"), "the server away",
              meanwhile=away)
        states = _texts(browser, "#tables li .state")
        assert states and all(s == "not known" for s in states)
        assert "playing" not in _text(browser, "#tables")
        colours = browser.execute_script(
            "return [...document.querySelectorAll('#tables li')].map("
            "(e) => getComputedStyle(e).borderLeftColor)")
        green = "rgb(92, 214, 156)"
        assert colours and green not in colours
        _shot(browser, "server_away")
