"""The phones at the table, on the Pi: the game bar's Phones button starts sharing and
shows the codes, each decoded from the drawn window to its link; the counts follow phones that
connect and leave (real WebSockets on 127.0.0.1); a seat's phone presses through the same gate
and the log says whose phone it was; Stop sharing ends every connection and link; the choice
is remembered, the port is a checked setting, and importing the app does not import aiohttp.
And the page itself in headless Chromium against the running app sharing on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import os
import queue
import socket
import subprocess
import sys
import threading
from pathlib import Path

import aiohttp
import pytest

from test_ui_bgstats import window_codes
from hardware.config import DEMO_CONFIG
from tests.support.browser import pressable, seat_names, shown_n, text, until
from ui.table import settings as table
from ui.widgets.phones import PhonesDialog, counts_words, link_words
from test_ui_screens import announce
from ui_helpers import both_sizes, dialogs, frames, tap, tap_title, texts, wait_for

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Phone(threading.Thread):
    """A phone's page on 127.0.0.1: its WebSocket on its own loop; what it gets is queued."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        host = url.split("/t/")[0]
        self.url, self.origin = url.replace("http://", "ws://") + "/ws", host
        self.got: queue.Queue = queue.Queue()
        self.answered = {}
        self.ready = threading.Event()
        self.loop = asyncio.new_event_loop()
        self.ws = None
        self.start()
        assert self.ready.wait(5), "the phone did not connect"

    def run(self) -> None:
        self.loop.run_until_complete(self._talk())

    async def _talk(self) -> None:
        self.closed = asyncio.Event()
        async with aiohttp.ClientSession() as client:
            async with client.ws_connect(self.url, origin=self.origin) as ws:
                self.ws = ws
                self.ready.set()
                async for message in ws:
                    self.got.put(json.loads(message.data))
        self.got.put(None)                       # the server closed it

    def snapshot(self) -> dict:
        while True:
            message = self.got.get(timeout=5)
            if message is not None and message["type"] == "snapshot" and message["table"]:
                return message["table"]
            self._note(message)

    answered: dict

    def _note(self, message) -> None:
        if message is not None and message["type"] == "answer":
            self.answered[message["id"]] = message

    def heard(self, press: int) -> bool:
        """Whether press ``press`` has its final answer (what has arrived so far, read)."""
        while not self.got.empty():
            self._note(self.got.get())
        return "applied" in self.answered.get(press, {})

    def applied(self, press: int) -> bool:
        return self.heard(press) and self.answered[press]["applied"] is True

    def answer(self, press: int) -> dict:
        """The first answer to press ``press`` (other messages read past)."""
        while press not in self.answered:
            self._note(self.got.get(timeout=5))
        return self.answered.pop(press)

    def send(self, message: dict) -> None:
        asyncio.run_coroutine_threadsafe(self.ws.send_str(json.dumps(message)),
                                         self.loop).result(5)

    def close(self) -> None:
        if not self.ws.closed:
            asyncio.run_coroutine_threadsafe(self.ws.close(), self.loop).result(5)
        self.join(5)


@pytest.fixture
def sharing(app):
    """The table on a free port; sharing stopped afterwards whatever the test did."""
    assert app.change_table_settings(phones_port=free_port()) == ""
    yield app
    app.stop_sharing()
    frames()


def start_brew(app, names=("Anna", "Barb", "Carl")):
    assert app.start_game({"game": "witchs_brew", "players": list(names),
                           "starter": names[0]}) is None
    frames()


def seat_phone(links: dict, seat: int) -> "Phone":
    """The phone of ``seat`` (from 0), on the link's loopback address (tests talk to loopback)."""
    return Phone(next(u for u in links["seats"][seat]["urls"] if "127.0.0.1" in u))


def refused_on_both(app, phone: "Phone", seen: dict, press: int, choice: str) -> str:
    """A choice the phone sends that the table refuses: the phone is told, the Pi shows the
    same words, nothing is played; the refusal dismissed. Its words."""
    steps = len(app.session.steps)
    phone.send({"type": "choose", "choice": choice, "seen": seen["n"], "id": press})
    assert wait_for(lambda: phone.heard(press))
    answer = phone.answered[press]
    assert answer["applied"] is False
    assert app.refusal == answer["why"] and len(app.session.steps) == steps
    app.dismiss_refusal()
    return answer["why"]


def played_from(app, phone: "Phone", seen: dict, press: int, choice: str):
    """A choice the phone sends that the table plays: its step."""
    phone.send({"type": "choose", "choice": choice, "seen": seen["n"], "id": press})
    assert wait_for(lambda: phone.applied(press))
    return app.session.steps[-1]


def the_dialog() -> PhonesDialog:
    (dialog,) = [d for d in dialogs() if isinstance(d, PhonesDialog)]
    return dialog


def test_the_phones_button_shares_and_shows_a_code_per_seat(sharing):
    app = sharing
    start_brew(app)
    assert app.phone_server is None and not app.phones_on
    tap(app.root.ids.game_bar.ids.phones)
    assert app.phones_on and app.table_settings.phones
    dialog = the_dialog()
    links = app.phone_links()
    port = app.table_settings.phones_port
    # only links a phone can reach: loopback only when the machine has no other address
    loopback = f"http://127.0.0.1:{port}/t/{app.phone_server.watch_token}"
    others = [u for u in app.phone_server.links()["watch"] if "127.0.0.1" not in u
              and "[::1]" not in u]
    assert (loopback in links["watch"]) == (not others)
    assert all("127.0.0.1" not in u and "[::1]" not in u for u in links["watch"]) or not others
    assert dialog.url == links["watch"][0] and dialog.caption == "Scan to watch the table"
    assert dialog.links == link_words(links["watch"])
    assert window_codes() == [dialog.url]              # what a phone's camera reads
    assert dialog.ids.code.side >= 0.8 * dialog.ids.code.height > 0
    assert [s["name"] for s in links["seats"]] == ["Anna", "Barb", "Carl"]
    from ui.theme import rgba

    buttons = {b.title: b for b in dialog.ids.choices.children}
    for seat in links["seats"]:                       # each seat's button in its colour
        assert tuple(buttons[seat["name"]].fill) == tuple(rgba(seat["colour"]))
    tap_title("Barb", dialog)
    assert dialog.caption == "Join as Barb"
    assert window_codes() == [links["seats"][1]["urls"][0]]
    assert "No phone yet." in texts(dialog)
    reopen = lambda: (app.open_phones(), frames(), tap_title("Anna", the_dialog()))  # noqa: E731
    both_sizes("phones_dialog", reopen)


def test_counts_follow_the_phones_and_a_seat_s_press_is_gated_and_logged(sharing):
    app = sharing
    start_brew(app, ("Barb", "Anna", "Carl"))
    announce("Warlock")                   # Barb's role: Anna's buttons answer it
    app.open_phones()
    frames()
    links = app.phone_server.links()          # the loopback ones, for this machine's phones
    watcher = Phone(next(u for u in links["watch"] if "127.0.0.1" in u))
    anna = seat_phone(links, 1)
    try:
        assert wait_for(lambda: app.phones_watching == 1 and list(app.phones_seats) == [1])
        assert "1 phone watches. Anna presses on a phone." in texts(the_dialog())
        seen = anna.snapshot()
        assert watcher.snapshot()["n"] == seen["n"]
        assert "controls" not in seen and seen["you"]["seat"] == 1   # her own part, no other's
        offered = [b["button"] for b in seen["you"]["buttons"]]
        steps = len(app.session.steps)
        # undo is the table's, never a seat's: refused by the server, nothing reaches the table
        assert "undo" not in offered
        anna.send({"type": "press", "button": "undo", "seen": seen["n"], "id": 1})
        refused = anna.answer(1)
        assert refused["applied"] is False and "undo" in refused["why"]
        anna.send({"type": "press", "button": offered[0], "seen": seen["n"], "id": 2})
        assert anna.answer(2) == {"type": "answer", "id": 2, "received": True}
        assert wait_for(lambda: len(app.session.steps) == steps + 1)
        assert wait_for(lambda: anna.applied(2))           # and the phone is told it was played
        assert app.session.steps[-1].source == "Anna's phone"
        assert app.log_entries()[-1][0].endswith("(Anna's phone)")   # the press's own line
        after = watcher.snapshot()                  # the watcher sees the change at once
        assert after["n"] > seen["n"] and after["log"][-1]["source"] == "Anna's phone"
        watcher.close()
        assert wait_for(lambda: app.phones_watching == 0)
        assert "Anna presses on a phone." in texts(the_dialog())
    finally:
        watcher.close()
        anna.close()


def test_a_phone_announces_a_role_the_pi_offers_and_barb_s_old_link_ends_in_a_new_game(sharing):
    app = sharing
    start_brew(app, ("Anna", "Barb", "Carl"))             # Anna announces the first role
    app.open_phones()
    frames()
    links = app.phone_server.links()
    anna = seat_phone(links, 0)
    barb = seat_phone(links, 1)
    try:
        seen = anna.snapshot()
        assert {"choice": "role:witch", "label": "The Witch"} in seen["you"]["choices"]
        anna.send({"type": "choose", "choice": "role:witch", "seen": seen["n"], "id": 7})
        assert anna.answer(7)["received"] is True
        assert wait_for(lambda: anna.applied(7))
        step = app.session.steps[-1]
        assert (step.command.do, step.command.args, step.source) == (
            "play_role", {"role": "witch"}, "Anna's phone")
        app.go_home()
        start_brew(app, ("Mia", "Anna", "Carl"))          # Barb is not in the next game
        ended = None
        while ended is None:
            message = barb.got.get(timeout=5)
            ended = message if message is not None and message["type"] == "ended" else None
        assert ended["why"] == ("This link was Barb's seat in the last game: "
                                "scan the table's code again")
        again = anna.snapshot()
        while again["you"] is None or again["you"]["seat"] != 1:
            again = anna.snapshot()                       # Anna's link: her new seat
        assert again["seats"][1]["name"] == "Anna"
    finally:
        anna.close()
        barb.close()


def test_a_press_the_table_moved_on_from_is_answered_in_words_and_plays_nothing(sharing):
    """Anna's phone presses what her buttons could do; before the table plays it, her answer
    is given on the Pi. The phone is told the table moved on, in words; the Pi, where nobody
    erred, shows no refusal, and nothing is played for her or anyone else."""
    from companion.core import Command

    app = sharing
    start_brew(app, ("Barb", "Anna", "Carl"))
    announce("Warlock")                                  # Barb's role: Anna answers it
    app.open_phones()
    frames()
    links = app.phone_server.links()
    anna = seat_phone(links, 1)
    try:
        seen = anna.snapshot()
        button = seen["you"]["buttons"][0]["button"]
        anna.send({"type": "press", "button": button, "seen": seen["n"], "id": 9})
        assert anna.answer(9)["received"] is True         # on the inbox, not played yet
        assert app.send(Command("pass", "Anna"))           # the Pi answers for her first
        assert wait_for(lambda: anna.heard(9))
        answer = anna.answered[9]
        assert answer["applied"] is False and "moved on" in answer["why"]
        assert app.refusal == ""
        assert app.session.steps[-1].source == "touch"    # the phone's press changed nothing
    finally:
        anna.close()


def test_stop_sharing_ends_every_connection_and_link(sharing):
    app = sharing
    start_brew(app)
    app.open_phones()
    frames()
    url = next(u for u in app.phone_server.links()["watch"] if "127.0.0.1" in u)
    phone = Phone(url)
    assert wait_for(lambda: app.phones_watching == 1)
    tap_title("Stop sharing", the_dialog())
    assert not dialogs() and app.phone_server is None and not app.phones_on
    assert not app.table_settings.phones               # remembered: off
    messages = []
    while (message := phone.got.get(timeout=5)) is not None:
        messages.append(message)
    phone.join(5)
    assert wait_for(lambda: app.phones_watching == 0)
    with pytest.raises(OSError):                         # nobody listens any more
        socket.create_connection(("127.0.0.1", int(url.split(":")[2].split("/")[0])), 2).close()


def test_the_settings_row_shares_and_a_restart_shares_again_with_the_same_links(sharing):
    app = sharing
    app.open_table_settings()
    frames()
    screen = app.screens.get_screen("table_settings")
    row = screen.ids.phones
    tap_title("On", row)
    assert app.phones_on and "shared on port" in screen.message
    saved = json.loads(Path(os.environ[table.SETTINGS_ENV]).read_text())
    assert saved["phones"] is True and saved["phones_port"] == app.table_settings.phones_port
    old = app.phone_server.watch_token
    kept = Path(os.environ[table.SETTINGS_ENV]).with_name("phones.json")
    assert kept.exists() and oct(kept.stat().st_mode & 0o777) == "0o600"
    app.close_sharing()                                  # the app closes...
    app.phones_on = False
    app.load_table_settings()                            # ...and starts again
    app.share_remembered()
    assert app.phones_on and app.phone_server.watch_token == old   # open pages reconnect
    app.open_table_settings()
    frames()
    tap_title("Off", screen.ids.phones)
    assert not app.phones_on and "Phones stopped" in screen.message
    assert not kept.exists()                             # Stop sharing: the links are gone
    app.load_table_settings()
    app.share_remembered()
    assert app.phone_server is None


def test_a_port_taken_or_out_of_range_is_said_naming_the_field(sharing, monkeypatch):
    app = sharing
    import ui.web.server

    monkeypatch.setattr(ui.web.server, "local_addresses", lambda: ["127.0.0.1"])
    assert app.change_table_settings(phones_port=80) == (
        "Not changed: phones_port must be a whole number from 1024 to 65535, not 80.")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert app.change_table_settings(phones_port=port) == ""
        problem = app.start_sharing()
    assert problem.startswith(f"Phones not shared: port {port} cannot be used")
    assert "phones_port" in problem and app.phone_server is None and not app.phones_on
    settings, said = table.parse_settings({"phones": "yes", "phones_port": 99999})
    assert (settings.phones, settings.phones_port) == (False, table.PHONES_PORT)
    assert any("phones_port must be" in p for p in said) and any("phones must be" in p
                                                                  for p in said)


def test_counts_in_words():
    assert counts_words(0, [], []) == "No phone yet."
    assert counts_words(2, [0, 2], ["Anna", "Barb", "Carl"]) == (
        "2 phones watch. Anna and Carl press on their phones.")


def test_importing_the_app_imports_no_aiohttp():
    """The first frame waits for no web server: aiohttp and ui.web load when sharing starts."""
    code = ("import sys, ui.app; print(sorted(m for m in sys.modules "
            "if m.split('.')[0] == 'aiohttp' or m.startswith('ui.web')))")
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("setup", [
    {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"], "starter": "Anna"},
    {"game": "cauldron", "players": ["Anna", "Barb"],
     "milestones": {"magik_overflow": 12, "rituals_of_power": 18, "the_breaking": 27}},
    {"game": "quest", "players": ["Anna", "Leo", "Dad"],
     "needed": ["rotten_egg", "newt_eye", "bat_wing"]},
], ids=lambda setup: setup["game"])
def test_every_game_is_shared_from_its_start_to_leaving_it(sharing, setup):
    app = sharing
    assert app.start_sharing() == "" and app.phone_server._snapshot is None   # home: no game
    assert app.start_game(setup) is None
    frames()
    first = app.phone_server._snapshot
    assert first["game"] == setup["game"] and [s["name"] for s in first["seats"]] == \
        setup["players"]
    assert first["asks"] == app.prompt.get("text", "")
    assert len(first["controls"]) == len(setup["players"])
    assert first["clock"]["paused"] is False
    app.toggle_pause()                                  # the phones' clocks stop too
    paused = app.phone_server._snapshot
    assert paused["n"] > first["n"] and paused["clock"]["paused"] is True
    app.toggle_pause()
    app.go_home()
    assert app.phone_server._snapshot is None           # left: no seat can press


def test_the_page_in_a_browser_follows_the_pi_and_presses_as_anna_s_phone(
        sharing, browser, monkeypatch):
    """Chromium against the app sharing on 127.0.0.1; every wait pumps Kivy's frames, so the
    main thread drains the inbox and publishes as it does at the table."""
    app = sharing
    import ui.web.server

    monkeypatch.setattr(ui.web.server, "local_addresses", lambda: ["127.0.0.1"])
    start_brew(app, ("Barb", "Carl", "Anna"))
    assert app.start_sharing() == ""
    links = app.phone_links()
    (watch,) = links["watch"]
    assert watch.startswith("http://127.0.0.1:")
    published = lambda: app.phone_server._snapshot["n"]           # noqa: E731
    current = lambda: until(browser, lambda: shown_n(browser) == published(),   # noqa: E731
                            f"snapshot {published()}", meanwhile=lambda: frames(1))
    browser.get(watch)
    current()
    assert text(browser, "asks") == app.prompt["text"]
    assert seat_names(browser) == ["Barb", "Carl", "Anna"]
    announce("Warlock")                          # a touch on the Pi: Barb's role
    current()
    assert text(browser, "asks") == app.prompt["text"] and app.prompt["seat"] == 1
    pin = app.devices.pin_factory.pin(DEMO_CONFIG.buttons["seat2.pass"])
    press = threading.Thread(target=lambda: (pin.drive_low(), pin.drive_high()))
    press.start()                                 # Carl's pass on his GPIO button
    press.join(2)
    assert wait_for(lambda: app.session.steps[-1].source == "gpio")
    current()
    assert app.session.steps[-1].command.player == "Carl"
    assert "Carl" in text(browser, "log") and app.prompt["seat"] == 2

    browser.get(links["seats"][2]["urls"][0])     # Anna's seat code, opened
    current()
    assert text(browser, "mine-title") == "Anna: the table waits for you"
    steps = len(app.session.steps)
    buttons = pressable(browser)
    assert [b.text.split("\n")[0] for b in buttons] == [
        b["label"] for b in app.phone_server._snapshot["controls"][2]["buttons"]]
    buttons[0].click()
    until(browser, lambda: len(app.session.steps) == steps + 1, "Anna's press played",
          meanwhile=lambda: frames(1))
    step = app.session.steps[-1]
    assert step.source == "Anna's phone" and step.command.player == "Anna"
    assert app.log_entries()[-1][0].endswith("(Anna's phone)")   # the press's own line
    current()
    assert "Anna's phone" in text(browser, "log")

    app.stop_sharing()
    until(browser, lambda: "Sharing stopped: scan the table's new code" in text(browser, "link-words"),
          "stopped sharing",
          meanwhile=lambda: frames(1))


def test_a_hand_from_a_phone_is_played_and_its_refusal_goes_to_that_phone_alone(sharing):
    """Hands on phones, on the running app: with Hands on phones a seat's page may choose its hand;
    the app plays it as choose_hand from that phone, the Pi's log says only that a hand was
    chosen, and a refused hand (its words quote the cards) is told to the phone, never shown on
    the Pi. Without the setting the phone is offered no hand."""
    from dataclasses import replace

    app = sharing
    start_brew(app, ("Anna", "Barb", "Carl"))
    app.open_phones()
    frames()
    links = app.phone_server.links()
    barb = seat_phone(links, 1)
    try:
        seen = barb.snapshot()
        assert seen["you"]["hand"] is None                # the setting is off by default
        app.table_settings = replace(app.table_settings, hands=True)
        app.publish_table()
        seen = barb.snapshot()
        assert seen["you"]["hand"]["may_choose"]
        barb.send({"type": "choose", "choice": "hand:witch,witch,druid,wizard,warlock",
                   "seen": seen["n"], "id": 1})
        assert barb.answer(1)["received"] is True

        def final():
            while not barb.got.empty():
                barb._note(barb.got.get())
            return barb.answered.get(1)

        assert wait_for(lambda: final() is not None)     # the main thread played it
        answer = final()
        assert answer["applied"] is False and "listed twice" in answer["why"]
        assert not app.refusal                            # nothing of it on the Pi
        barb.send({"type": "choose", "choice": "hand:witch,druid,wizard,warlock,alchemist",
                   "seen": seen["n"], "id": 2})
        assert wait_for(lambda: barb.applied(2))
        step = app.session.steps[-1]
        assert (step.command.do, step.source) == ("choose_hand", "Barb's phone")
        assert "Barb chose a hand for this set" in app.log_tail
        assert "Wizard" not in app.log_tail
    finally:
        app.table_settings = replace(app.table_settings, hands=False)
        barb.close()


def test_a_brew_entered_on_a_phone_is_played_and_a_wrong_field_is_said_on_both(sharing):
    """The running app plays a seat's entry (companion/view/forms.py) from its phone: the form
    offers the card brewed in the last game; a value out of the form's bounds is refused
    naming the field, on the Pi and to the phone, and changes nothing; a good one is the Pi's
    brew command, logged as that phone's."""
    from companion.core import Command

    app = sharing

    def to_the_brew() -> None:
        start_brew(app, ("Anna", "Barb", "Carl"))
        assert app.send(Command("play_role", "Anna", {"role": "witch"}))
        assert app.send(Command("pass", "Barb")) and app.send(Command("pass", "Carl"))

    to_the_brew()                                         # last game: a card Anna brewed
    assert app.send(Command("resolve", "Anna", {
        "potion": {"stack": "copper", "points": 3}, "pay": {"red": 1, "green": 1}}))
    app.go_home()
    to_the_brew()
    app.open_phones()
    frames()
    anna = seat_phone(app.phone_server.links(), 0)
    try:
        seen = anna.snapshot()
        (form,) = seen["you"]["forms"]
        assert form["form"] == "brew" and seen["you"]["waits"]
        assert form["cards"] == [{"stack": "copper", "points": 3, "raven": False,   # one tap
                                  "pay": {"red": 1, "green": 1}}]
        why = refused_on_both(app, anna, seen, 1, 'brew:{"points": 100}')
        assert why.startswith("points: a whole number")
        step = played_from(app, anna, seen, 2, 'brew:{"stack": "iron", "points": 4, "pay.red": 1}')
        assert step.source == "Anna's phone" and step.command == Command("resolve", "Anna", {
            "potion": {"stack": "iron", "points": 4, "raven": False}, "pay": {"red": 1}})
    finally:
        anna.close()


def test_a_purchase_with_a_discount_from_the_buyer_s_phone_is_played_as_the_pi_s(sharing):
    """Cauldron's Market: the buyer's phone buys with a card's discount. A
    Cellar beyond Barb's 2 Magik is not among her plain purchases but is on the discount form
    at its full price; with no Magik off the rules refuse it in the Pi's words, on the Pi and
    to the phone, and nothing changes; with 1 off it is the Pi's buy, logged as her phone,
    and she pays 3 - 1. Another seat's phone has no such form."""
    from companion.core import Command
    from test_ui_cauldron_screens import FOUR, deal, start, to_the_market, to_turns

    app = sharing
    names = [p["name"] for p in FOUR]
    s = start(app, FOUR)
    deal(s, names)
    to_turns(s, names)
    to_the_market(app, s, "spider_web")
    app.open_phones()
    frames()
    links = app.phone_server.links()
    barb, carl = seat_phone(links, 1), seat_phone(links, 2)
    try:
        assert carl.snapshot()["you"]["forms"] == []
        seen = barb.snapshot()
        (form,) = seen["you"]["forms"]
        assert form["form"] == "discount" and seen["you"]["waits"]
        cellar = next(o for o in form["fields"][0]["options"] if o["value"] == "cellar")
        assert (cellar["label"], cellar["note"], cellar["price"]) == ("A Cellar", "3 Magik", 3)
        assert form["fields"][0]["value"] == ""           # nothing bought by a stray tap
        assert "buy:cellar" not in [c["choice"] for c in seen["you"]["choices"]]
        assert app.summary["players"][1]["magik"] == 2
        assert refused_on_both(app, barb, seen, 1, "discount:{}") == \
            "item: pick one (What is bought)"                # Buy before a pick: nothing
        assert refused_on_both(app, barb, seen, 2, 'discount:{"item": "cellar", "discount": 0}'
                               ) == "Barb has 2 Magik: a Cellar costs 3 (the cost is paid in Magik)"
        step = played_from(app, barb, seen, 3, 'discount:{"item": "cellar", "discount": 1}')
        assert step.source == "Barb's phone" and step.command == Command(
            "buy", "Barb", {"item": "cellar", "discount": 1})
        assert app.summary["players"][1]["magik"] == 0 and \
            len(app.summary["players"][1]["cellars"]) == 1
        assert "Barb bought a Cellar for 2 Magik (Barb's phone)" in app.log_tail, app.log_tail
    finally:
        barb.close()
        carl.close()


def test_cauldron_s_ui_lends_the_phones_the_earlier_potion_cards(monkeypatch):
    """What a game's UI adds to the phones' snapshot is lent by the game (``app.games``), never
    imported by the app's phones part: Cauldron's hands get the earlier games' cards, 30 at
    most, and a seat without a hand stays without."""
    from ui.games import GAMES
    from ui.games.cauldron import potion

    seen = [{"name": f"Card {n}", "ingredients": {}} for n in range(40)]
    monkeypatch.setattr(potion, "earlier_catalogue", lambda app: seen)
    snapshot = {"hands": [None, {"cards": []}]}
    GAMES["cauldron"].phone_extras(None, snapshot)
    assert snapshot["hands"] == [None, {"cards": [], "catalogue": seen[:30]}]
    assert GAMES["quest"].phone_extras is None and GAMES["witchs_brew"].open_fix is None
