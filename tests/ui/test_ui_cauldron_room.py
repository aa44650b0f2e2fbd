"""Cauldron's seat cards use the room of a larger window: at 1280x720 a card
lists the seat's potion cards (name and Magik) and Spells (kind and count) in readable sizes,
and with height still to spare every card's counters have larger digits; at 800x480 the card
is full already and lists nothing. Screenshots: cauldron_room_*."""

from __future__ import annotations

from companion.core.model import Command
from test_ui_cauldron_screens import FOUR, card, deal, start, to_turns
from ui.games.cauldron.seats import COUNT_FS, CardLine
from ui_helpers import both_sizes, find, frames, resize

NAMES = [p["name"] for p in FOUR]


def seats(app):
    return app.screens.get_screen("cauldron").seats.cards()


def lines(seat):
    return [(line.shape, line.name, line.count)
            for line in find(lambda w: isinstance(w, CardLine), seat)]


def sizes(seat, u):
    """The names' and the counts' font sizes of a card's lines, in units."""
    out = []
    for line in find(lambda w: isinstance(w, CardLine), seat):
        name, count = line.children[1], line.children[0]
        out.append((name.font_size / u, count.font_size / u))
    return out


def test_a_larger_window_lists_the_seats_cards(app):
    s = start(app)
    deal(s, NAMES)
    to_turns(s, NAMES)
    frames()
    resize(1280, 720)
    barb = seats(app)[1]
    assert lines(barb) == [("vial", "Draught 1", "+3"), ("vial", "Elixir 1", "+4"),
                           ("star", "Basic Spell", "2")]
    assert all(name >= 20 and count >= 28 for name, count in sizes(barb, app.u))
    # no seat has a pool yet: every card has height to spare, so every card's digits grow
    assert all(c.roomy for c in seats(app))
    assert barb.ids.potions.font_size >= 40 * app.u
    both_sizes("cauldron_room_cards", portrait=True)
    resize(800, 480)
    # the card is full at 800x480: no lines, the digits at their size
    assert all(not lines(c) and not c.roomy for c in seats(app))
    assert barb.ids.potions.font_size == COUNT_FS * app.fu


def test_the_digits_grow_only_where_every_card_has_the_room(app):
    s = start(app)
    deal(s, NAMES)
    to_turns(s, NAMES)
    s.execute(Command("gather", "Anna", {"ingredients": ["spider_web", "spider_web"]}))
    resize(1280, 720)
    anna, barb = seats(app)[:2]
    assert len(lines(anna)) == 3 and anna.pool == [("spider_web", 2)]
    # Anna's pool leaves her card no height to spare: every card keeps the same digits
    assert not anna.spare and barb.spare
    assert not any(c.roomy for c in seats(app))
    resize(800, 480)


def test_a_seat_with_more_cards_than_room_says_how_many_more(app):
    s = start(app)
    long = "Tincture of the Long Winter Night"
    # Barb's long card first (her Easy one): listed first, it has the room for its two lines
    s.execute(Command("add_potion", "Barb", {"potion": card(long, ["frog_legs", "any"],
                                                            kind="easy", gain=3)}))
    s.execute(Command("add_potion", "Barb", {"potion": card("Elixir 1", ["spider_web"] * 3)}))
    deal(s, [n for n in NAMES if n != "Barb"])
    for i in range(3):
        s.execute(Command("add_potion", "Anna", {
            "potion": card(f"Tincture of the Long Night {i}", ["frog_legs", "any"]),
            "source": "correction"}))
    to_turns(s, NAMES)
    s.execute(Command("gather", "Anna", {"ingredients": ["spider_web", "frog_legs"]}))
    resize(1280, 720)
    anna = seats(app)[0]
    shown = lines(anna)
    # the potions first (the star's count says the Spells), then how many more (its dialog,
    # a tap away, lists them all)
    assert shown[0] == ("vial", "Draught 0", "+3")
    left, said = shown[-1][1].split(" ", 1)
    assert said == "more: tap the card" and len(shown) - 1 + int(left) == 5
    assert all(line[0] == "vial" for line in shown)
    # a long name on two lines, whole (the layout check finds any name cut or shortened)
    (tincture,) = [line for line in find(lambda w: isinstance(w, CardLine), seats(app)[1])
                   if line.name == long]
    assert tincture.height > 40 * app.u
    # each vial drawn within its own line (not where a new line's default height put it)
    for line in find(lambda w: isinstance(w, CardLine), seats(app)[2]):
        icon = line.children[-1]
        y0, shapes = icon.y, icon.drawing.children   # drawn from the icon's lower left
        spans = [(y0 + i.pos[1], y0 + i.pos[1] + i.size[1]) for i in shapes
                 if type(i).__name__ in ("Rectangle", "RoundedRectangle", "Ellipse")]
        spans += [(y0 + min(i.vertices[1::4]), y0 + max(i.vertices[1::4]))
                  for i in shapes if type(i).__name__ == "Mesh"]
        assert spans and all(line.y - 2 <= low and high <= line.top + 2 for low, high in spans)
    both_sizes("cauldron_room_more", portrait=True)


def test_with_hands_on_phones_a_card_says_how_many_potions_never_which(app):
    """Hands on phones: the potion cards in hand are on the seat's phone; the Pi's card keeps the
    vial's count and lists the Spells only."""
    from dataclasses import replace

    app.table_settings = replace(app.table_settings, hands=True)
    try:
        s = start(app)
        deal(s, NAMES)
        to_turns(s, NAMES)
        frames()
        resize(1280, 720)
        frames()
        barb = seats(app)[1]
        assert lines(barb) == [("star", "Basic Spell", "2")]
        assert barb.potions == 2
        both_sizes("cauldron_hands_on_phones")
    finally:
        app.table_settings = replace(app.table_settings, hands=False)
        resize(800, 480)
