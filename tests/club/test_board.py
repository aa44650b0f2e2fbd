"""The club's wall screen (``companion club board``): what its server answers (GET only, the
phones' headers, nothing taken, 404 elsewhere), and its page in a real headless Chromium at
1920x1080 against a real PostgreSQL: the tables now with the offline one shown, the season's
standings, the latest games, then a new game and a table's new status pushed to the open page
through LISTEN/NOTIFY, and a table turning offline with no notice at all. Screenshots go to
screenshots/club_board_*_1920x1080.png (COMPANION_SHOTS=0: none written)."""

from __future__ import annotations

import os
import random
import time
import urllib.error
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

import psycopg
import pytest

from companion.club import access
from companion.club.board import LATEST
from tests.club import making
from tests.club.board_serving import filled, playing, served, set_status
from tests.support.browser import until
from tests.club.cluster import unique

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
SAVE_SHOTS = os.environ.get("COMPANION_SHOTS", "1") != "0"
WIDTH, HEIGHT = 1920, 1080


@pytest.fixture
def wall(club):
    """The club filled (tests/club/board_serving.py) and a wall screen's read-only settings."""
    with psycopg.connect(club, autocommit=True) as admin:
        made = filled(admin)
        made["wall"] = access.add_wall(admin, unique("w"))
        made["rater"] = access.add_rater(admin, unique("r"))
    made["admin"] = club
    return made


def _get(url: str, method: str = "GET", data: bytes | None = None):
    request = urllib.request.Request(url, method=method, data=data)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as answer:
        return answer.code, dict(answer.headers), answer.read()


def test_the_board_server_only_shows(wall):
    with served(wall["wall"].conninfo) as (server, url):
        status, headers, body = _get(url + "/")
        assert status == 200 and b"/board.js" in body
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"
        for path in ("/board.css", "/board.js"):
            assert _get(url + path)[0] == 200
        for path in ("/../pyproject.toml", "/static/board.js", "/admin", "/board.py"):
            assert _get(url + path)[0] == 404, path
        for method in ("POST", "PUT", "DELETE"):
            assert _get(url + "/", method, b"x")[0] == 405, method
        assert _get(url + "/snapshot.json", "GET", b"x" * 10)[0] == 413
        status, headers, _ = _get(url + "/events", "HEAD")
        assert status == 200 and headers["Content-Type"].startswith("text/event-stream")
        assert "password" not in _get(url + "/snapshot.json")[2].decode()


def _viewport(driver) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})


def _shot(driver, name: str) -> None:
    if SAVE_SHOTS:
        SHOTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(SHOTS / f"club_board_{name}_{WIDTH}x{HEIGHT}.png"))


def _texts(driver, selector: str) -> list[str]:
    """The texts of what ``selector`` finds, read at once (the page redraws as it is told)."""
    return driver.execute_script("return [...document.querySelectorAll(arguments[0])]"
                                 ".map((e) => e.innerText)", selector)


def _text(driver, selector: str) -> str:
    return "\n".join(_texts(driver, selector))


def _n(driver) -> int:
    return int(driver.execute_script("return document.body.dataset.n || 0"))


#: Every part of the page fits the screen (nothing scrolled or cut off), and the smallest text
#: drawn is at least 26 px: across a room.
_FITS = """
const out = {overflow: [], small: []};
if (document.documentElement.scrollHeight > innerHeight ||
    document.documentElement.scrollWidth > innerWidth) out.overflow.push('page');
for (const s of document.querySelectorAll('section'))
  if (s.scrollHeight > s.clientHeight + 1) out.overflow.push(s.className);
for (const e of document.querySelectorAll('body *')) {
  if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
  const size = parseFloat(getComputedStyle(e).fontSize);
  if (size < 26) out.small.push(e.tagName + ' ' + e.textContent.slice(0, 20) + ' ' + size);
}
return out;"""


def test_the_wall_in_chromium_is_live(wall, browser):
    _viewport(browser)
    with served(wall["wall"].conninfo, club="Meeple", rater=wall["rater"].conninfo) as (
            server, url):
        browser.get(url + "/")
        until(browser, lambda: _n(browser) >= 1, "the first snapshot")
        until(browser, lambda: "Table 4" in _text(browser, "#tables"),
              "the tables")
        # the board's rater folds the season's games in: every title ranks its top five
        until(browser, lambda: sum(bool(t) for t in _texts(
            browser, "#standings td:first-child")) == 15, "the ratings")
        tables = _text(browser, "#tables")
        assert "Table 1" in tables and "Witch's Brew" in tables and "Set 2 of 3" in tables
        offline = _texts(browser, "#tables li.offline")
        assert [e.splitlines()[0] for e in offline] == ["Table 4", "Table 5"]
        assert "offline" in offline[0] and "not joined" in offline[1]
        standings = _text(browser, "#standings")
        for title in ("Witch's Brew", "Cauldron", "Cauldron Quest"):
            assert title in standings
        assert "Winter 2026" in _text(browser, "#season")
        assert len(_texts(browser, "#recent li")) == LATEST
        _shot(browser, "tables_standings_recent")
        assert browser.execute_script(_FITS) == {"overflow": [], "small": []}

        # a table ends a game: the page has it, pushed, with no reload
        before, loaded = _n(browser), browser.execute_script("return performance.timeOrigin")
        with psycopg.connect(wall["admin"], autocommit=True) as admin:
            rng = random.Random(99)
            game, seats = making.game_rows(rng, wall["players"][:4], wall["devices"][0],
                                           datetime.now(timezone.utc), "witchs_brew")
            started = time.monotonic()
            making.add(admin, game, seats)
            first = seats[0][2]
            until(browser, lambda: first in _texts(browser, "#recent li")[0],
                  "the new game at the top")
            took = time.monotonic() - started
            assert _n(browser) > before
            assert browser.execute_script("return performance.timeOrigin") == loaded
            # a table's new status: pushed too
            set_status(admin, wall["devices"][2], playing(
                "Cauldron Quest", ["Hana", "Ivo"], [None, None], ["Wizard at 9"]))
            until(browser, lambda: "Wizard at 9" in _text(browser, "#tables"),
                  "the new status")
            # Table 2 last heard 89.5 s ago: offline half a second later, with no notice
            set_status(admin, wall["devices"][1], playing(
                "Cauldron", ["Emil", "Farah", "Gus"], [21, 18, 30], ["Market season"]),
                ago_s=89.5)
        until(browser, lambda: "Table 2" in _text(browser, "#tables li.offline"),
              "Table 2 offline")
        print(f"figures: board: a new game on the page {took * 1000:.0f} ms after its commit")
        _shot(browser, "live_new_game_offline")
        assert browser.execute_script(_FITS) == {"overflow": [], "small": []}


def test_an_empty_club_says_so(club, browser):
    _viewport(browser)
    with psycopg.connect(club, autocommit=True) as admin:
        wall = access.add_wall(admin, unique("wz"))
    with served(wall.conninfo) as (server, url):
        browser.get(url + "/")
        until(browser, lambda: _n(browser) >= 1, "the first snapshot")
        assert "No season yet" in _text(browser, "#season")
        assert "No games this season yet" in _text(browser, "#standings")
        assert _texts(browser, "#tables li") == ["No tables yet"]
        assert _texts(browser, "#recent li") == ["No games yet"]
        _shot(browser, "empty_club")


def test_companion_club_board_is_plugged_in():
    """``companion club board`` reaches ui/web/board/ through the companion.club_commands entry
    point, with --listen checked as the parser reads it."""
    import argparse

    from companion.cli.main import build_parser
    from ui.web.board.command import listen_at, run

    parser, _ = build_parser()
    args = parser.parse_args(["club", "board", "--listen", "0.0.0.0:8781", "--season", "S"])
    assert args.club_plugins["board"] is run and args.listen == ("0.0.0.0", 8781)
    assert parser.parse_args(["club", "board"]).listen == ("127.0.0.1", 8780)
    assert listen_at("[::1]:8780") == ("::1", 8780)
    for bad, says in (("localhost:80", "an address and a port"), ("127.0.0.1", "a port"),
                      ("127.0.0.1:0", "not 1 to 65535")):
        with pytest.raises(argparse.ArgumentTypeError, match=says):
            listen_at(bad)


def test_the_board_without_settings_says_so(tmp_path):
    from tests.club.test_club import cli

    code, _, err = cli("club", "board", "--settings", tmp_path / "none.json")
    assert code == 2 and "no club settings" in err


def test_the_wall_says_when_the_club_cannot_be_reached(browser):
    from tests.club.cluster import free_port

    _viewport(browser)
    nowhere = (f"host=127.0.0.1 port={free_port()} dbname=club user=wall "
               "password=never-shown connect_timeout=2")
    with served(nowhere, club="Meeple") as (server, url):
        browser.get(url + "/")
        until(browser, lambda: "cannot be reached" in _text(browser, "#link"),
              "that the club cannot be reached")
        assert "never-shown" not in _get(url + "/snapshot.json")[2].decode()
        assert "never-shown" not in str(server.snapshot)
        assert _texts(browser, "#tables li") == ["Waiting for the club's server"]
        _shot(browser, "unreachable")
