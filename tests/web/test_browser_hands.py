"""Hands on the phones in real browsers: three seats' pages, each in its own headless
Chromium, and the Pi (this test, playing what the phones send as ui/table/phones.py does). The
seats choose their hands on their pages, a role is announced, the seats that do not hold it are
passed at once, the holder's page asks; nothing of one seat's hand reaches another seat's page,
in its DOM or in the messages it received. Cauldron: a seat's page lists its potion cards with
what each needs and enters a new one. Screenshots at 390x844 go to screenshots/."""

from __future__ import annotations

import json
from contextlib import ExitStack

import pytest

from companion.core import CompanionError, Session
from companion.games import get_rules
from companion.games.witchs_brew.roles import ROLES
from companion.view.hands import HAND_KEYS, hand_command, refused_privately
from tests.support.browser import chromium, shown_n, text, until
from tests.web import tables
from tests.web.test_browser import Table, shot

HANDS = {0: ["witch", "druid", "wizard", "warlock", "alchemist"],
         1: ["witch", "wolf_keeper", "snake_hunter", "herb_collector", "fortune_teller"],
         2: ["assistant", "cutpurse", "begging_monk", "druid", "wolf_keeper"]}
TITLES = {key: role.title for key, role in ROLES.items()}
#: Records every message a page receives, before the page's own script runs.
RECORD = """(function () {
  window.__got = [];
  const Real = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    const ws = new Real(url, protocols);
    window.__ws = ws;
    ws.addEventListener("message", (event) => window.__got.push(event.data));
    return ws;
  };
  window.WebSocket.prototype = Real.prototype;
  window.WebSocket.OPEN = Real.OPEN;
})();"""


class HandTable(Table):
    """The Pi's side, playing a seat's hand as the app does (ui/table/phones.py: its refusal
    goes to that phone alone)."""

    def command_for(self, index: int, key: str):
        if not key.startswith(tuple(HAND_KEYS.values())):
            return super().command_for(index, key)
        command = hand_command(self.session, index, key)
        why = refused_privately(self.session, command)
        if why:
            raise CompanionError(why)
        return command


def _open(stack: ExitStack, url: str):
    driver = stack.enter_context(chromium())
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD})
    driver.get(url)
    return driver


def _current(driver, table) -> None:
    until(driver, lambda: shown_n(driver) == table.n, f"snapshot {table.n}")


def _click(driver, element) -> None:
    """A tap where the element is (scrolled to the middle, clear of the sticky header)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def _choose(driver, roles: list[str]) -> None:
    from selenium.webdriver.common.by import By

    for role in roles:
        _click(driver, driver.find_element(By.CSS_SELECTOR, f'#hand button[data-role="{role}"]'))
    _click(driver, driver.find_element(By.CSS_SELECTOR, "#hand button.send"))


def _others_only(seat: int) -> set[str]:
    """Roles another seat holds and this one does not: none may reach this seat's page."""
    mine = set(HANDS[seat])
    return {r for s, roles in HANDS.items() if s != seat for r in roles} - mine


def _received(driver) -> list[dict]:
    return [json.loads(m) for m in driver.execute_script("return window.__got")]


def _check_private(driver, seat: int, played: set[str]) -> None:
    """Neither the page's DOM nor any message it got holds another seat's unplayed card."""
    hidden = _others_only(seat) - played
    page = driver.execute_script("return document.documentElement.outerHTML")
    words = driver.execute_script("return document.body.innerText")
    for role in hidden:
        assert f"the {TITLES[role]}".lower() not in words.lower(), (seat, role)
        assert f'"{role}"' not in page and f"'{role}'" not in page, (seat, role)
    for message in _received(driver):
        table = message.get("table") if message.get("type") == "snapshot" else None
        if not table:
            continue
        assert "hands" not in table and "controls" not in table
        hand = (table.get("you") or {}).get("hand")
        assert table["you"]["seat"] == seat
        if hand:                   # its own: the 12 cards to choose from, flagged for this seat
            assert {c["role"] for c in hand["cards"] if c["chosen"]} <= set(HANDS[seat])
            assert set(hand["left"]) <= set(HANDS[seat])
        # its own role picker (all 12 before it chose) and its hand are its own: the rest of
        # what it got must hold nothing of the others' hands
        table = {**table, "you": {**table["you"], "hand": None, "choices": None}}
        said = json.dumps(table)
        for role in hidden:
            assert f'"{role}"' not in said and f":{role}" not in said, (seat, role)
            assert f"the {TITLES[role]}".lower() not in said.lower(), (seat, role)


def test_three_seats_choose_on_their_phones_and_the_non_holders_pass_at_once():
    from selenium.webdriver.common.by import By

    session = Session(get_rules("witchs_brew"), {"players": ["Anna", "Barb", "Carl"]})
    table = HandTable(session)
    with ExitStack() as stack:
        stack.callback(table.close)
        pages = [_open(stack, table.link(seat)) for seat in range(3)]
        for page in pages:
            _current(page, table)
            until(page, lambda: "choose your 5 role cards" in text(page, "hand"), "the choice")
        shot(pages[0], "witchs_brew_hand_choose")
        for seat, page in enumerate(pages):
            _choose(page, HANDS[seat])
            (step,) = table.pressed()
            assert step.command.do == "choose_hand" and sorted(step.command.args["roles"]) == sorted(HANDS[seat])
            until(page, lambda: text(page, "answer") == "Done: your hand", "Done")
        assert session.summary()["hands_chosen"] == ["Anna", "Barb", "Carl"]
        for page in pages:
            _current(page, table)
        # Anna's role picker offers only the roles in her hand
        picker = [b.text for b in pages[0].find_elements(By.CSS_SELECTOR, "#choices button")]
        assert sorted(picker) == sorted(f"The {TITLES[r]}" for r in HANDS[0])
        _click(pages[0], next(b for b in pages[0].find_elements(By.CSS_SELECTOR, "#choices button")
                              if b.text == "The Druid"))
        (step,) = table.pressed()
        assert [e.type for e in step.events] == ["role_played", "answered"]   # Barb passed
        assert step.events[1].automatic and step.events[1].data["seat"] == 1
        for page in pages:
            _current(page, table)
        carl = pages[2]
        until(carl, lambda: "You hold the Druid" in text(carl, "hand"), "Carl asked")
        labels = [b.text.split("\n")[0] for b in carl.find_elements(By.CSS_SELECTOR,
                                                                    "#buttons button")]
        assert labels == ["\u201cI am the Druid!\u201d", "So be it!"]      # no Pass
        assert "Barb: pass" in text(pages[0], "log-lines")
        assert not pages[1].find_elements(By.CSS_SELECTOR, "#buttons button")  # nothing to do
        shot(carl, "witchs_brew_hand_asked")
        for seat, page in enumerate(pages):
            _check_private(page, seat, played={"druid"})
        _click(carl, carl.find_element(By.CSS_SELECTOR, "#buttons button"))  # claims
        (step,) = table.pressed()
        assert step.command.do == "claim" and session.summary()["last_round"]["holder"] == "Carl"
        _current(carl, table)
        until(carl, lambda: "4 cards left" in text(carl, "hand"), "Carl's cards left")
        for seat, page in enumerate(pages):
            _current(page, table)
            _check_private(page, seat, played={"druid"})


def test_a_wrong_hand_is_refused_naming_the_field_on_that_phone():
    session = Session(get_rules("witchs_brew"), {"players": ["Anna", "Barb", "Carl"]})
    table = HandTable(session)
    with ExitStack() as stack:
        stack.callback(table.close)
        page = _open(stack, table.link(0))
        _current(page, table)
        # the page's button waits for 5 different cards: send what a broken page would
        page.execute_script("window.__ws.send(JSON.stringify({type: 'choose', choice: "
                            "'hand:witch,witch,druid,wizard,warlock', seen: %d, id: 99}))"
                            % table.n)
        (refusal,) = table.pressed()
        assert isinstance(refusal, CompanionError)
        until(page, lambda: any('"id":99' in m and "listed twice" in m
                                for m in page.execute_script("return window.__got")),
              "the refusal")
        assert session.state["hands"] == {}
        _current(page, table)
        _choose(page, HANDS[0])
        table.pressed()
        _current(page, table)
        until(page, lambda: "Your hand, set 1: 5 cards left" in text(page, "hand"), "the hand")


@pytest.mark.parametrize("steps", [15])
def test_the_cauldron_page_lists_the_seats_cards_with_what_each_needs(steps):
    from selenium.webdriver.common.by import By

    session = tables.cauldron(steps)
    table = HandTable(session)
    anna = session.state["players"][0]
    with ExitStack() as stack:
        stack.callback(table.close)
        page = _open(stack, table.link(0))
        _current(page, table)
        until(page, lambda: "Your potion cards" in text(page, "hand"), "the cards")
        items = page.find_elements(By.CSS_SELECTOR, "#hand .potions li")
        assert [i.text.split(" (+")[0] for i in items] == [p["name"] for p in anna["potions"]]
        for item in items:
            state = item.find_element(By.CSS_SELECTOR, ".state").text
            assert state == "Can brew now" or state.startswith(("Missing: ", "Advanced"))
        form = page.find_element(By.CSS_SELECTOR, "#hand form.new-card")
        form.find_element(By.CSS_SELECTOR, "input").send_keys("Moon Tea")
        inputs = form.find_elements(By.CSS_SELECTOR, "input")
        inputs[2].send_keys("frog_legs, spider_web")
        shot(page, "cauldron_hand")
        _click(page, form.find_element(By.CSS_SELECTOR, "button"))
        (step,) = table.pressed()
        assert step.command.do == "add_potion" and step.command.args["potion"]["name"] == "Moon Tea"
        _current(page, table)
        until(page, lambda: "Moon Tea" in text(page, "hand"), "the new card")
        # the other seats' pages and the watching page say how many, never which
        other = _open(stack, table.link(1))
        _current(other, table)
        assert "Moon Tea" not in other.execute_script("return document.documentElement.outerHTML")
        assert all("Moon Tea" not in m for m in other.execute_script("return window.__got"))
