"""Witch's Brew hands on the Pi: the table screen shows only who has chosen; a seat
without a phone chooses behind the Hidden entry, which shows the hand only while it is open
and keeps a refusal inside itself; the set waits for a seat that chose before; the seats that
do not hold the announced role are passed at once. Screenshots at 800x480 and 1280x720."""

from __future__ import annotations

from dataclasses import replace

from companion.core.model import Command
from test_ui_screens import announce, start, table
from ui_helpers import both_sizes, button, frames, tap, tap_title, texts

THREE = ["Anna", "Barb", "Carl"]
ANNA = ["witch", "druid", "wizard", "warlock", "alchemist"]
BARB = ["witch", "wolf_keeper", "snake_hunter", "herb_collector", "fortune_teller"]
SECRET = ("Snake hunter", "Herb collector", "Fortune teller")      # Barb's alone


def hands_on(app, on=True):
    app.table_settings = replace(app.table_settings, hands=on)


def pick(entry, title: str) -> None:
    """Tap a card of the entry, scrolled into sight first (the grid scrolls at 800x480)."""
    b = button(title, entry)
    b.parent.parent.scroll_to(b, padding=0, animate=False)
    frames()
    tap(b)


def on_screen(app) -> str:
    return " ".join(texts(app.root))


def test_the_pi_shows_who_has_chosen_and_carl_chooses_behind_the_hidden_entry(app):
    hands_on(app)
    try:
        s = start(app, THREE)
        s.execute(Command("choose_hand", "Anna", {"roles": ANNA}))      # on their phones
        s.execute(Command("choose_hand", "Barb", {"roles": BARB}))
        app.refresh_all() if hasattr(app, "refresh_all") else table(app).refresh()
        frames()
        said = on_screen(app)
        assert "Hands chosen: Anna, Barb. Not yet: Carl" in said
        assert not any(title in said for title in SECRET)               # never which cards
        both_sizes("witchs_brew_hands_chosen")
        def open_entry():
            tap_title("Carl")                # its Hidden entry
            frames()

        both_sizes("witchs_brew_hidden_entry", before=open_entry)
        from ui_helpers import close_dialogs
        close_dialogs()
        open_entry()
        entry = app.root_window.children[0]
        assert "Only Carl looks" in entry.heading.text
        for title in ["Assistant", "Cutpurse", "Begging monk", "Druid", "Witch", "Wizard"]:
            pick(entry, title)
        assert "(5 chosen)" in entry.heading.text          # a sixth is not taken
        pick(entry, "Witch")
        pick(entry, "Wolf keeper")
        tap(button("Choose these 5", entry))
        frames()
        assert s.state["hands"]["2"] and sorted(s.state["hands"]["2"]) == sorted(
            ["assistant", "cutpurse", "begging_monk", "druid", "wolf_keeper"])
        from ui.games.witchs_brew.hands_panel import HiddenEntry
        assert not any(isinstance(w, HiddenEntry) for w in app.root_window.children)
        assert not entry.children and entry.picked == []          # nothing of it kept
        # every seat chose: the role picker is back; Anna announces the Warlock: nobody else
        # holds it, both are passed at once and the round is over
        announce("Warlock")
        frames()
        assert [a for a in s.summary()["answers"]] == []
        assert s.summary()["last_round"]["holder"] == "Anna"
        assert any("Barb: pass" in line for _, lines in s.log() for line in lines)
    finally:
        hands_on(app, False)


def test_a_refused_hand_is_said_inside_the_entry_only(app):
    hands_on(app)
    try:
        start(app, THREE, variants=["excluded_roles"])
        s = app.session
        s.execute(Command("reveal_excluded", None, {"roles": ["witch", "cutpurse"]}))
        table(app).refresh()
        frames()
        tap_title("Barb")                              # its Hidden entry
        frames()
        entry = app.root_window.children[0]
        assert button("Witch", entry).disabled                   # face up in the middle
        s.execute(Command("choose_hand", "Barb", {"roles": ANNA[1:] + ["assistant"]}))
        for title in ["Druid", "Wizard", "Warlock", "Alchemist", "Assistant"]:
            pick(entry, title)
        tap(button("Choose these 5", entry))                     # chosen meanwhile: refused
        assert "already chose a hand" in entry.error.text
        assert not app.refusal                                   # nothing on the table screen
        tap(button("Close (nothing is kept)", entry))
        frames()
        from ui.games.witchs_brew.hands_panel import HiddenEntry
        assert not any(isinstance(w, HiddenEntry) for w in app.root_window.children)
    finally:
        hands_on(app, False)


def test_the_set_waits_for_a_seat_that_chose_before(app):
    s = start(app, THREE)
    s.execute(Command("choose_hand", "Carl", {"roles": ["assistant", "cutpurse", "begging_monk",
                                                        "druid", "wolf_keeper"]}))
    state = s.state
    state = {**state, "round": 2}                  # what a set's end leaves, by hand
    s._state = {**state, "round": 1, "hands": {}, "hands_on": [2]}
    app._on_change(s, None)                        # what every change tells the screens
    frames()
    assert s.prompt()["phase"] == "choose"
    assert "Hands chosen: nobody yet. Not yet: Anna, Barb, Carl" in on_screen(app)
    assert "Announce now" not in on_screen(app)
    assert table(app).turn_text == "Choose your hands"
    assert table(app).role_title == "Choose hands"
    both_sizes("witchs_brew_hands_wait")


def test_a_whole_game_with_hands_on_phones_and_carl_on_the_hidden_entry(app):
    """Hands on phones, whole: a game plays through with Anna and Barb choosing on their phones
    (as the app plays a phone's hand) and Carl behind the Pi's Hidden entry every set; nobody
    with a hand forgets a card, and the record holds every set's hands."""
    import random

    from companion.games.witchs_brew import hands as hd
    from companion.games.witchs_brew.roles import ROLES
    from tests.support.autoplay import next_command

    hands_on(app)
    rng = random.Random(7)
    try:
        s = start(app, THREE)
        entries = 0
        for _ in range(1500):
            if s.over:
                break
            state = s.state
            pool = [r for r in ROLES if r not in (state["excluded"] or [])]
            phone = next((seat for seat in (0, 1) if hd.cannot_choose(state, seat) is None), None)
            if phone is not None:
                app.send(Command("choose_hand", THREE[phone], {"roles": rng.sample(pool, 5)}),
                         source=f"{THREE[phone]}'s phone")
            elif hd.cannot_choose(state, 2) is None:
                tap_title("Carl")                # its Hidden entry
                frames()
                entry = app.root_window.children[0]
                for key in rng.sample(pool, 5):
                    pick(entry, ROLES[key].title)
                tap(button("Choose these 5", entry))
                entries += 1
            else:
                assert app.send(next_command(s, rng)), app.refusal
            frames()
        assert s.over and entries == s.state["set"]
        record = s.summary()["hands"]
        assert len(record) == s.state["set"] and all(set(r["hands"]) == set(THREE)
                                                     for r in record)
        assert not any(e.type == "card_forfeited" for st in s.done_steps() for e in st.events)
    finally:
        hands_on(app, False)
