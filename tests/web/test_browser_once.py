"""A phone's press in Chromium is played once and its page tells the truth about it: a
double tap sends one press; a press the network stalls greys the page out at once (no second
press, no "press again"), and when the network comes back the page learns the press's real
fate from the table ("Done"), not "Refused" for an action that was played; a waiting seat's
page says whose turn it is from its first frame. The table plays what the pages send as the
app's main thread does (tests/web/test_browser.py's Table: ``phone_command``, then the gate)."""

from __future__ import annotations

import socket
import threading
import time

from companion.games.cauldron.dice import expected_roll
from tests.support.browser import WAIT_S, pressable, text, until
from tests.web import tables
from tests.web.test_browser import Table, current, table_of  # noqa: F401 (a fixture)
from tests.web.test_once import _turn_order_roll


class StallRelay(threading.Thread):
    """A TCP relay on 127.0.0.1 to the server; while ``stalled`` it holds what either side
    sends and delivers it, in order, once released (a phone's network stalling, as TCP does:
    nothing is lost, it arrives late)."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.target, self.stalled = port, threading.Event()
        self.released = threading.Condition()
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
                with self.released:
                    self.released.wait_for(lambda: not self.stalled.is_set())
                b.sendall(data)
        except OSError:
            pass

    def release(self) -> None:
        with self.released:
            self.stalled.clear()
            self.released.notify_all()

    def close(self) -> None:
        self.release()
        self.listener.close()


def _stale(driver) -> bool:
    return driver.execute_script("return document.body.classList.contains('stale')")


def test_a_waiting_seat_s_page_says_whose_turn_it_is_from_its_first_frame(browser, table_of):
    table = table_of(tables.brew_answering())
    waiting = [(seat, part["waiting"]) for seat, part in enumerate(table.view["controls"])
               if part["waiting"]]
    assert waiting, "the seeded table has a seat that only waits"
    seat, words = waiting[0]
    browser.get(table.link(seat))
    current(browser, table)
    assert text(browser, "answer") == words          # not an empty box until the next change
    assert words.startswith("Waiting: ") and table.view["turn"] in words


def test_a_double_tap_on_a_die_sends_one_roll_and_the_page_says_it_was_played(browser,
                                                                             table_of):
    from selenium.webdriver import ActionChains

    table = table_of(tables.cauldron(_turn_order_roll()))
    roller = expected_roll(table.session.state)[1][0]   # the first of the turn order's roll
    browser.get(table.link(roller))
    current(browser, table)
    die = pressable(browser)[-1]                     # a face of the die the game asks for
    ActionChains(browser).double_click(die).perform()
    time.sleep(0.5)                                  # a second message would be on its way
    played = table.pressed()
    assert len(played) == 1 and not isinstance(played[0], Exception), played
    assert played[0].source == f"{table.session.names[roller]}'s phone"
    assert played[0].command.player == table.session.names[roller]
    until(browser, lambda: text(browser, "answer").startswith("Done"), "the roll played")
    assert len(table.inbox) == 0


def test_a_stalled_press_greys_the_page_then_learns_it_was_played(browser, table_of):
    table = table_of(tables.brew_answering())
    relay = StallRelay(table.server.port)
    served = table.server.hosts()
    table.server.hosts = lambda: served | {f"127.0.0.1:{relay.port}"}
    try:
        browser.get(table.link(0).replace(f":{table.server.port}/", f":{relay.port}/"))
        current(browser, table)
        relay.stalled.set()
        pressable(browser)[0].click()
        until(browser, lambda: text(browser, "answer").startswith("No answer yet"),
              "the press not answered in time")
        assert _stale(browser)                       # greyed out at once, not 18 s later
        assert all(not b.is_enabled() for b in pressable(browser))
        assert "press again" not in text(browser, "answer").lower()
        relay.release()                              # the stalled press arrives now
        played = table.pressed()
        assert len(played) == 1 and not isinstance(played[0], Exception), played
        until(browser, lambda: text(browser, "answer").startswith("Done"),
              "the page told the press was played")
        until(browser, lambda: not _stale(browser), "the page live again")
        current(browser, table)
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline and not len(table.inbox):
            time.sleep(0.05)
        assert len(table.inbox) == 0                 # nothing pressed a second time
    finally:
        relay.close()
