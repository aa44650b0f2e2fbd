"""The phones' page in a real browser: Debian's Chromium, headless, driven by Selenium, against
a PhoneServer on 127.0.0.1 fed by a real session of each game. The test stands in for the app's
main thread: it publishes a snapshot after every change and plays what the phones pressed
through the game's input map and gate (``Session.handle_input``), as ui/app.py does.

Chromium missing: skipped on a desktop, a failure in CI (``CI=true``; tests/support/browser.py).
Screenshots of each game at a phone's 390x844 and a tablet's 1024x768 go to screenshots/
(``COMPANION_SHOTS=0`` draws the page the same and writes none)."""

from __future__ import annotations

import os
import random
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Callable

import pytest

from companion.core import Command, CompanionError, InputEvent, Session
from companion.core.narrator import Narrator
from companion.view.snapshot import table_view
from hardware.inbox import Inbox
from tests.companion import cauldron_autoplay, quest_autoplay
from tests.support import autoplay
from tests.support.browser import SIZES, WAIT_S, pressable, seat_names, shown_n, size, text, until
from tests.web import tables
from ui.web.commands import phone_command
from ui.web.server import PhoneServer

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
SAVE_SHOTS = os.environ.get("COMPANION_SHOTS", "1") != "0"


def _move(game: str) -> Callable[[Session, random.Random], Command | InputEvent]:
    """What the Pi plays next in ``game``: a legal move of the game's autoplay."""
    return {"witchs_brew": autoplay.next_command, "cauldron": cauldron_autoplay.next_command,
            "quest": lambda session, rng: quest_autoplay.random_command(session.state, rng)}[game]


#: Each game where a seat's phone has something to press: (game, session, the seat).
GAMES = {
    "witchs_brew": (tables.brew_answering, 0),      # Anna answers Dora's Witch
    "cauldron": (lambda: tables.cauldron(15), 0),     # Anna ends her harvest turn
    "quest": (lambda: tables.quest(0), 0),            # Ann rolls the action dice
}
FINISHED = {
    "witchs_brew": lambda: tables.brew(len(tables.brew_commands())),
    "cauldron": lambda: tables.cauldron(len(tables.cauldron_commands())),
    "quest": lambda: tables.quest(400),
}


class Table:
    """The app's side: a session, its narrator, the numbered snapshots, the server and inbox."""

    def __init__(self, session: Session) -> None:
        self.session, self.narrator, self.n = session, Narrator(session), 0
        self.inbox = Inbox()
        self.server = PhoneServer(self.inbox)
        self.server.start(port=0, addresses=["127.0.0.1"])
        self.publish()

    def publish(self) -> dict[str, Any]:
        self.n += 1
        names = self.session.names
        seat = self.session.prompt().get("seat")
        clock = {"turn": 14.0, "game": 1500.0, "seats": [60.0 * (i + 3) for i in range(len(names))],
                 "seat": seat, "paused": False}
        self.view = table_view(self.session, self.n, self.narrator, clock=clock, turn_limit=90)
        self.server.publish(self.view)
        return self.view

    def play(self, item: Command | InputEvent) -> None:
        """A press on the Pi (touch) or a die it read, then the new snapshot."""
        if isinstance(item, Command):
            self.session.execute(item, "touch")
        else:
            self.session.handle_input(item)
        self.publish()

    def pressed(self) -> list[Any]:
        """Wait for what the phones pressed, then play it as the app's main thread does
        (ui/table/phones.py): each as its own seat's command on the table its page showed
        (``phone_command``), then the gate; a refusal (the table moved on, too) changes
        nothing and is that phone's answer."""
        deadline = time.monotonic() + WAIT_S
        while not len(self.inbox) and time.monotonic() < deadline:
            time.sleep(0.02)
        played = []
        for event in self.inbox.drain():
            try:
                step = self.session.execute(phone_command(self.session, event, self.n),
                                            source=event.source)
                played.append(step)
                self.server.answered(event, "", step=step.n)
            except CompanionError as refusal:
                played.append(refusal)
                self.server.answered(event, str(refusal))
        self.publish()
        return played

    def link(self, seat: int | None = None) -> str:
        links = self.server.links()
        return links["watch"][0] if seat is None else links["seats"][seat]["urls"][0]

    def close(self) -> None:
        self.server.stop()


@pytest.fixture
def table_of():
    made: list[Table] = []

    def make(session: Session) -> Table:
        made.append(Table(session))
        return made[-1]

    yield make
    for table in made:
        table.close()


def current(driver, table: Table) -> None:
    """Wait until the page shows the table's newest snapshot, and check its words."""
    until(driver, lambda: shown_n(driver) == table.n, f"snapshot {table.n}")
    view = table.view
    assert text(driver, "asks") == view["asks"] or view["over"]
    assert text(driver, "link") == ""                          # no "reconnecting…" showing


def shot(driver, name: str) -> None:
    """The page at each size as a player holding it sees it (and the phone's whole page)."""
    for width, height in SIZES:
        size(driver, width, height)
        driver.execute_script("window.scrollTo(0, 0)")
        time.sleep(0.15)
        if SAVE_SHOTS:
            SHOTS.mkdir(exist_ok=True)
            driver.save_screenshot(str(SHOTS / f"phones_{name}_{width}x{height}.png"))
    if SAVE_SHOTS:
        size(driver, *SIZES[0])
        full = driver.execute_script("return document.documentElement.scrollHeight")
        size(driver, SIZES[0][0], int(full))
        time.sleep(0.15)
        driver.save_screenshot(str(SHOTS / f"phones_{name}_{SIZES[0][0]}x{SIZES[0][1]}_full.png"))
    size(driver, *SIZES[0])


# -- the tests --------------------------------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_the_page_shows_the_prompt_and_the_seats_then_each_change(browser, table_of, game):
    table = table_of(GAMES[game][0]())
    browser.get(table.link())
    current(browser, table)
    assert text(browser, "title") == table.view["title"]
    assert seat_names(browser) == table.session.names
    assert text(browser, "turn") == f"{table.view['turn']}'s turn"
    for line in table.view["stands"]:
        assert line in text(browser, "stands")
    assert all(line["text"] in text(browser, "log") for line in table.view["log"])
    assert not browser.find_element("id", "mine").is_displayed()   # a watcher has no buttons
    shot(browser, f"{game}_watching")
    rng = random.Random(5)
    for _ in range(3):                                             # presses on the Pi
        table.play(_move(game)(table.session, rng))
        current(browser, table)
        assert table.view["log"][-1]["text"] in text(browser, "log")


@pytest.mark.parametrize("game", list(GAMES))
def test_a_seat_button_on_the_page_plays_as_that_phone(browser, table_of, game):
    make, seat = GAMES[game]
    table = table_of(make())
    name = table.session.names[seat]
    controls = table.view["controls"][seat]
    assert controls["buttons"] or controls["dice"]
    steps = len(table.session.done_steps())
    browser.get(table.link(seat))
    current(browser, table)
    assert text(browser, "mine-title") == f"{name}: the table waits for you"
    size(browser, *SIZES[0])                                 # a phone held upright: 390x844
    bottoms = browser.execute_script(
        "const b = (q) => document.querySelector(q).getBoundingClientRect().bottom;"
        "const all = [...document.querySelectorAll('#buttons button, #dice button')];"
        "return [b('#asks'), Math.max(...all.map((e) => e.getBoundingClientRect().bottom)),"
        "        window.innerHeight];")
    assert bottoms[0] <= bottoms[2] and bottoms[1] <= bottoms[2], bottoms   # above the fold
    shot(browser, f"{game}_seat")
    buttons = pressable(browser)
    labels = ["\n".join(filter(None, (b["label"], b["hint"]))) for b in controls["buttons"]] + [
        str(face) for d in controls["dice"] for face in d["faces"]]
    assert [b.text for b in buttons] == labels
    buttons[0].click()
    played = table.pressed()
    assert len(played) == 1 and not isinstance(played[0], Exception), played
    step = table.session.done_steps()[-1]
    assert len(table.session.done_steps()) == steps + 1 and step is played[0]
    assert step.source == f"{name}'s phone"
    if step.command.player is not None:
        assert step.command.player == name
    current(browser, table)
    assert "phone" in text(browser, "log")                   # the log says where it came from


@pytest.mark.parametrize("game", list(FINISHED))
def test_the_end_shows_the_result(browser, table_of, game):
    table = table_of(FINISHED[game]())
    assert table.session.over
    browser.get(table.link(0))
    current(browser, table)
    assert not browser.find_element("id", "now").is_displayed()
    result = text(browser, "result")
    assert table.view["result"]["text"].splitlines()[0] in result
    assert all(s["name"] in result for s in table.view["result"]["seats"])
    shot(browser, f"{game}_result")


def test_after_a_restart_the_page_reconnects_and_is_current(browser, table_of):
    table = table_of(GAMES["witchs_brew"][0]())
    browser.get(table.link(0))
    current(browser, table)
    port = table.server.port
    table.server.stop(keep_tokens=True)
    until(browser, lambda: text(browser, "link-words") == "Not connected: trying again\u2026",
          "Not connected")
    table.play(_move("witchs_brew")(table.session, random.Random(1)))   # the Pi goes on meanwhile
    assert shown_n(browser) == table.n - 1
    table.server.start(port=port, addresses=["127.0.0.1"], keep_tokens=True)
    current(browser, table)
    assert table.server.connected()["seats"] == [0]


def test_stop_sharing_tells_the_page_and_it_stops_trying(browser, table_of):
    table = table_of(GAMES["witchs_brew"][0]())
    browser.get(table.link())
    current(browser, table)
    table.server_port = table.server.port
    table.server.stop()
    stopped = "Sharing stopped: scan the table's new code"
    until(browser, lambda: text(browser, "link-words") == stopped, "stopped sharing")
    browser.find_element("id", "retry").click()          # Retry tries, and does not pretend
    until(browser, lambda: text(browser, "link-words") == "Trying…" or
          text(browser, "link-words") == stopped, "trying")
    until(browser, lambda: text(browser, "link-words") == stopped, "stopped again")
    table.server.start(port=table.server_port, addresses=["127.0.0.1"])   # shares anew
    browser.find_element("id", "retry").click()          # the old link: 404, said so
    until(browser, lambda: text(browser, "link-words") == stopped, "stopped, new tokens")
    assert table.server.connected()["phones"] == 0


def test_a_wrong_token_sees_nothing(browser, table_of):
    table = table_of(GAMES["witchs_brew"][0]())
    good = table.link()
    wrong = good[: -len(table.server.watch_token)] + "0" * 32
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(wrong, timeout=5)
    assert refused.value.code == 404
    browser.get(wrong)
    assert browser.execute_script("return document.body.innerText").strip() == "Not found"
    assert browser.execute_script("return document.getElementById('seats')") is None
    assert table.server.connected()["phones"] == 0


def test_home_says_no_game_and_the_page_follows_the_next_one(browser, table_of):
    table = table_of(GAMES["witchs_brew"][0]())
    browser.get(table.link(0))
    current(browser, table)
    table.server.publish(None)                           # the Pi went Home
    until(browser, lambda: "No game at the table now" in text(browser, "home"), "Home")
    assert not browser.find_element("id", "seats").is_displayed()
    assert not browser.find_element("id", "mine").is_displayed()
    shot(browser, "home")
    table.session = GAMES["quest"][0]()                  # the next game (Anna is not in it)
    table.narrator = Narrator(table.session)
    table.publish()
    until(browser, lambda: shown_n(browser) == table.n, "the next game")
    assert not browser.find_element("id", "home").is_displayed()


def test_a_link_of_a_player_not_in_the_new_game_says_so_and_presses_nothing(browser, table_of):
    table = table_of(GAMES["witchs_brew"][0]())          # Anna, Barb, Carl, Dora
    table.view["play"] = 1
    table.server.publish(table.view)
    browser.get(table.link(1))                           # Barb's
    current(browser, table)
    table.session = Session(autoplay.get_rules("witchs_brew"),
                            {"game": "witchs_brew", "players": ["Mia", "Anna", "Carl"]})
    table.narrator = Narrator(table.session)
    table.n += 1
    table.view = table_view(table.session, table.n, table.narrator)
    table.view["play"] = 2
    table.server.publish(table.view)
    words = "This link was Barb's seat in the last game: scan the table's code again"
    until(browser, lambda: text(browser, "link-words") == words, "the ended link's words")
    assert all(not b.is_enabled() for b in pressable(browser))
    browser.find_element("id", "retry").click()
    until(browser, lambda: text(browser, "link-words") == words, "the same words on Retry")
    assert len(table.inbox) == 0


class Relay(threading.Thread):
    """A TCP relay on 127.0.0.1 that forwards to the server until ``drop`` is set; then it
    keeps every socket open and forwards nothing, both ways (a network gone silent)."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.target, self.drop = port, threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.start()

    def run(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:
                return
            far = socket.create_connection(("127.0.0.1", self.target))
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                if not self.drop.is_set():
                    b.sendall(data)
        except OSError:
            pass

    def close(self) -> None:
        self.listener.close()


def test_a_silent_network_shows_not_connected_and_a_press_is_not_answered(browser, table_of):
    table = table_of(GAMES["witchs_brew"][0]())
    relay = Relay(table.server.port)
    served = table.server.hosts()
    table.server.hosts = lambda: served | {f"127.0.0.1:{relay.port}"}   # the relay's address
    try:
        link = table.link(0).replace(f":{table.server.port}/", f":{relay.port}/")
        browser.get(link)
        current(browser, table)
        relay.drop.set()                                 # sockets open, no traffic
        began = time.monotonic()
        pressable(browser)[0].click()
        until(browser, lambda: text(browser, "answer").startswith("No answer yet"),
              "the press not answered")
        assert time.monotonic() - began < 2.0 + 0.5      # said within 2 s
        assert all(not b.is_enabled() for b in pressable(browser))   # and nothing live
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(browser, 25, poll_frequency=0.2).until(
            lambda _d: text(browser, "link-words").startswith("Not connected"),
            message="the page never said Not connected")
        assert time.monotonic() - began < 25
        clock = text(browser, "turn-clock")
        assert all(not b.is_enabled() for b in pressable(browser))
        time.sleep(2.2)
        assert text(browser, "turn-clock") == clock       # stopped: nothing here is live
        shot(browser, "not_connected")
        assert len(table.inbox) == 0                      # nothing reached the table
    finally:
        relay.close()


def test_the_role_picker_on_the_holder_s_phone_announces_the_role(browser, table_of):
    from selenium.webdriver.common.by import By

    table = table_of(tables.brew(0))                  # Anna announces the set's first role
    browser.get(table.link(0))
    current(browser, table)
    roles = browser.find_elements(By.CSS_SELECTOR, "#choices button")
    assert [r.text for r in roles] == [c["label"] for c in table.view["controls"][0]["choices"]]
    shot(browser, "witchs_brew_role_picker")
    next(r for r in roles if r.text == "The Witch").click()
    (step,) = table.pressed()
    assert step.command.do == "play_role" and step.command.args == {"role": "witch"}
    assert step.source == "Anna's phone" and step.command.player == "Anna"
    until(browser, lambda: text(browser, "answer") == "Done: The Witch", "Done")


def test_an_open_page_is_current_again_after_the_table_is_killed_and_starts(browser, tmp_path):
    """SIGKILL, no goodbye, then the next start with the kept tokens on the same port: the page
    says Not connected meanwhile, then is live again by itself, nobody touching it."""
    import signal

    from tests.web.test_limits import Child
    from tests.web.test_passes import _free_port

    path, port = tmp_path / "phones.json", _free_port()

    def start():
        child = Child(256, str(path), str(port))
        return child.proc, child.info

    first, info = start()
    again = None
    try:
        browser.get(f"http://127.0.0.1:{port}/t/{info['seats'][0]}")
        until(browser, lambda: shown_n(browser) == 7, "the table")
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        until(browser, lambda: text(browser, "link-words").startswith("Not connected"),
              "Not connected")
        again, _ = start()
        until(browser, lambda: text(browser, "link") == "", "live again")
        assert pressable(browser) and all(b.is_enabled() for b in pressable(browser))
    finally:
        for proc in (first, again):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(10)
