"""The choices and entries a seat makes inside its turn, pressed on its phone's page in headless
Chromium (companion/view/options.py, forms.py, ui/web/static/forms.js): Witch's Brew's
Alchemist drop and a brew entered on the form, Cauldron Quest's kept die and a spell cast,
Cauldron's Market purchase, and one with a discount from a card entered on its form.
Each is played through the gate as the app plays it and logged as "<name>'s phone".
Screenshots at 390x844 and 1024x768 go to screenshots/ (``COMPANION_SHOTS=0``: none)."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.support.browser import text, until
from tests.web.test_browser import current, shot, table_of  # noqa: F401 (the fixture)
from tests.web.seat_moments import brew_until, quest_until, waiting


def _opened(browser, table_of, session, seat: int):
    """The seat's phone page on ``session``, current: (the table, the seat's player)."""
    table = table_of(session)
    browser.get(table.link(seat))
    current(browser, table)
    return table, session.names[seat]


def _logged(driver, table, name: str) -> None:
    current(driver, table)
    until(driver, lambda: f"({name}'s phone)" in text(driver, "log"), "the log names the phone")


def _prompt_and_buttons_above_the_fold(driver) -> None:
    """At 390x844 the prompt and the seat's first choice are in sight without scrolling."""
    height = driver.execute_script("return window.innerHeight")
    for css in ("#asks", "#mine h2"):
        top = driver.execute_script(
            "return document.querySelector(arguments[0]).getBoundingClientRect().top", css)
        assert top < height, css


def test_the_alchemist_s_drop_is_returned_from_the_phone(browser, table_of):
    session, seat = brew_until(waiting("trade_drop"))
    table, name = _opened(browser, table_of, session, seat)
    _prompt_and_buttons_above_the_fold(browser)
    shot(browser, "witchs_brew_alchemist_drop")
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "#choices h3")]
    assert headings == ["Return a drop"]
    drop = browser.find_elements(By.CSS_SELECTOR, "#choices button")[0]
    said = drop.text
    drop.click()
    (step,) = table.pressed()
    assert step.command.do == "resolve" and "drop" in step.command.args
    assert step.source == f"{name}'s phone" and step.command.player == name
    until(browser, lambda: text(browser, "answer") == f"Done: Return a drop: {said}", "Done")
    _logged(browser, table, name)


def test_a_brew_is_entered_on_the_phone_s_form(browser, table_of):
    session, seat = brew_until(waiting("brew"))
    table, name = _opened(browser, table_of, session, seat)
    form = browser.find_element(By.CSS_SELECTOR, "#forms form[data-form='brew']")
    least = table.view["controls"][seat]["forms"][0]["fields"][0]["options"][0]["least"]
    points = form.find_element(By.CSS_SELECTOR, "output[data-name='points']")
    assert points.text == str(least)                     # the stack's least, as the rules say
    steppers = form.find_elements(By.CSS_SELECTOR, ".stepper")
    steppers[0].find_elements(By.TAG_NAME, "button")[1].click()         # points + 1
    browser.find_element(By.CSS_SELECTOR, "#forms .send").click()
    shot(browser, "witchs_brew_brew_form")
    (step,) = table.pressed()
    assert step.command.do == "resolve" and step.command.args["potion"]["points"] == least + 1
    assert step.source == f"{name}'s phone"
    until(browser, lambda: text(browser, "answer") == "Done: Brew it", "Done")
    _logged(browser, table, name)


def test_a_card_of_an_earlier_game_fills_the_brew_in_one_tap(browser, table_of):
    from companion.view.forms import brew_cards

    session, seat = brew_until(waiting("brew"))
    table = table_of(session)
    (form,) = table.view["controls"][seat]["forms"]
    stack = form["fields"][0]["options"][-1]
    card = {"stack": stack["value"], "points": stack["least"] + 3, "raven": stack["ravens"][0],
            "pay": {"red": 1}}
    form["cards"] = brew_cards(form, [card])               # as the app adds them
    table.server.publish(table.view)
    browser.get(table.link(seat))
    current(browser, table)
    picks = browser.find_elements(By.CSS_SELECTOR, "#forms .cards button")
    assert len(picks) == 1 and picks[0].text.endswith("1 red")
    picks[0].click()
    shot(browser, "witchs_brew_brew_earlier_card")
    browser.find_element(By.CSS_SELECTOR, "#forms .send").click()
    (step,) = table.pressed()
    assert step.command.args == {"potion": {k: card[k] for k in ("stack", "points", "raven")},
                                 "pay": {"red": 1}}
    assert step.source == f"{session.names[seat]}'s phone"


def test_a_magic_die_is_kept_from_the_phone(browser, table_of):
    session = quest_until("magic")
    seat = session.prompt()["seat"]
    table, name = _opened(browser, table_of, session, seat)
    _prompt_and_buttons_above_the_fold(browser)
    shot(browser, "quest_keep_dice")
    keep = next(b for b in browser.find_elements(By.CSS_SELECTOR, "#choices button")
                if b.text.startswith(("Keep die", "Roll die")))
    keep.click()
    (step,) = table.pressed()
    assert step.command.do == "keep" and step.source == f"{name}'s phone"
    until(browser, lambda: text(browser, "answer").startswith("Done: The magic dice:"), "Done")
    _logged(browser, table, name)


def test_the_spell_of_omniscience_reveals_a_bottle_from_the_phone(browser, table_of):
    session = quest_until("cast", spell="omniscience")
    seat = session.prompt()["seat"]
    table, name = _opened(browser, table_of, session, seat)
    folds = browser.find_elements(By.CSS_SELECTOR, "#choices details.group")
    assert [f.find_element(By.TAG_NAME, "summary").text for f in folds] == [
        f"Bottle {n}: what it holds (6)" for n in range(1, 7)]       # 36 choices, folded up
    _prompt_and_buttons_above_the_fold(browser)
    shot(browser, "quest_reveal")
    folds[1].find_element(By.TAG_NAME, "summary").click()            # bottle 2 opened
    shot(browser, "quest_reveal_bottle_2")
    button = folds[1].find_elements(By.TAG_NAME, "button")[0]
    button.click()
    (step,) = table.pressed()
    assert step.command.do == "reveal" and step.source == f"{name}'s phone"
    assert step.command.args["bottle"] == 2
    _logged(browser, table, name)


def test_a_cellar_is_bought_in_the_market_from_the_phone(browser, table_of):
    from tests.web import tables

    session = tables.cauldron_market()
    seat = session.prompt()["seat"]
    table, name = _opened(browser, table_of, session, seat)
    _prompt_and_buttons_above_the_fold(browser)
    shot(browser, "cauldron_market")
    assert "Buy" in [h.text for h in browser.find_elements(By.CSS_SELECTOR, "#choices h3")]
    next(b for b in browser.find_elements(By.CSS_SELECTOR, "#choices button")
         if b.text.startswith("A Cellar (")).click()      # its price, as the Pi's offer
    (step,) = table.pressed()
    assert step.command.do == "buy" and step.command.args["item"] == "cellar"
    assert step.source == f"{name}'s phone"
    until(browser, lambda: text(browser, "answer").startswith("Done: Buy: A Cellar ("), "Done")
    _logged(browser, table, name)


def test_a_card_read_aloud_is_entered_for_another_seat_on_the_phone(browser, table_of):
    session, seat = brew_until(waiting("table"))
    table, name = _opened(browser, table_of, session, seat)
    other = (seat + 1) % len(session.names)
    form = browser.find_element(By.CSS_SELECTOR, "#forms form[data-form='table']")
    legends = [g.text for g in form.find_elements(By.TAG_NAME, "legend")]
    names = session.names
    assert legends[:len(names)] == [f"{name} (you)"] + [n for n in names if n != name]
    gold = form.find_element(By.CSS_SELECTOR, f"output[data-name='{other}.gold']")
    gold.find_element(By.XPATH, "following-sibling::button").click()    # + 1 gold for them
    shot(browser, "witchs_brew_card_read_aloud")
    browser.find_element(By.CSS_SELECTOR, "#forms .send").click()
    (step,) = table.pressed()
    assert step.command.args["others"] == {session.names[other]: {"gold": 1}}
    assert step.source == f"{name}'s phone"
    _logged(browser, table, name)


def test_the_buyer_buys_with_a_discount_on_the_phone_s_form(browser, table_of):
    """Cauldron's Market: Barb (2 Magik) picks a Cellar (3 Magik) on the discount form, takes
    1 Magik off and buys: the Pi's buy with its discount, played as her phone's; her prompt and
    buttons stay in sight at 390x844."""
    from companion.core import Command
    from tests.web.test_view_forms_cauldron import _market

    session, seat = _market()
    table, name = _opened(browser, table_of, session, seat)
    _prompt_and_buttons_above_the_fold(browser)
    form = browser.find_element(By.CSS_SELECTOR, "#forms form[data-form='discount']")
    assert form.find_element(By.TAG_NAME, "h3").text == "Buy with a discount from a card"
    cellar = form.find_element(By.CSS_SELECTOR, "button[data-value='cellar']")
    assert cellar.text.split("\n") == ["A Cellar", "3 Magik"]            # its full price
    assert not form.find_elements(By.CSS_SELECTOR, "button[aria-pressed='true']")  # none yet
    cellar.click()
    form = browser.find_element(By.CSS_SELECTOR, "#forms form[data-form='discount']")
    assert form.find_element(By.CSS_SELECTOR, "button[data-value='cellar']").get_attribute(
        "aria-pressed") == "true"
    off = form.find_element(By.CSS_SELECTOR, "output[data-name='discount']")
    assert off.text == "0"
    off.find_element(By.XPATH, "following-sibling::button").click()     # 1 Magik off
    form = browser.find_element(By.CSS_SELECTOR, "#forms form[data-form='discount']")
    assert form.find_element(By.CSS_SELECTOR, "output[data-name='discount']").text == "1"
    shot(browser, "cauldron_market_discount")
    browser.find_element(By.CSS_SELECTOR, "#forms form[data-form='discount'] .send").click()
    (step,) = table.pressed()
    assert step.command == Command("buy", name, {"item": "cellar", "discount": 1})
    assert step.source == f"{name}'s phone"
    assert table.session.state["players"][seat]["magik"] == 0           # 3 - 1 paid
    until(browser, lambda: text(browser, "answer") == "Done: Buy", "Done")
    _logged(browser, table, name)


def test_the_advanced_game_s_second_purchase_starts_a_new_entry(browser, table_of):
    """Two purchases a turn: after the first is bought with 1 Magik off, the form for the
    second has nothing picked and no Magik off (what was entered is not carried over)."""
    import random

    from companion.core import Session
    from companion.games.cauldron import RULES
    from tests.companion import cauldron_autoplay

    rng = random.Random(4)
    session = Session(RULES, cauldron_autoplay.setup_for(3, ["advanced"]))
    while session.prompt()["phase"] != "market":
        session.execute(cauldron_autoplay.next_command(session, rng))
    seat = session.prompt()["seat"]
    table, name = _opened(browser, table_of, session, seat)
    form = "#forms form[data-form='discount']"
    cheap = min(table.view["controls"][seat]["forms"][0]["fields"][0]["options"],
                key=lambda o: o["price"])
    browser.find_element(By.CSS_SELECTOR, f"{form} button[data-value='{cheap['value']}']").click()
    browser.find_element(By.CSS_SELECTOR, f"{form} output[data-name='discount']").find_element(
        By.XPATH, "following-sibling::button").click()
    browser.find_element(By.CSS_SELECTOR, f"{form} .send").click()
    (step,) = table.pressed()
    assert step.command.args["discount"] == 1 and step.source == f"{name}'s phone"
    current(browser, table)
    assert table.session.prompt()["seat"] == seat
    assert not browser.find_elements(By.CSS_SELECTOR, f"{form} button[aria-pressed='true']")
    assert browser.find_element(By.CSS_SELECTOR, f"{form} output[data-name='discount']").text == "0"
    assert browser.find_element(By.CSS_SELECTOR, f"{form} h3").text.endswith("purchase 2 of 2")
