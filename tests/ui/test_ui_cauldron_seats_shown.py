"""Cauldron's seats where a reading at the table found them hidden or empty. At the Market: a strip
of compact cards under the offers, each with its name, Magik, Potions and Spells read from a
chair, at 800x480, 1280x720 and portrait; the Market's own controls a finger's size and in
their place from one purchase to the next; a refusal lies over them and moves nothing; where
the body has no room for the strip (Large text) it goes; a Field choice left open is not the
next game's. In the Omen's phase at 1280x720: no
empty band under the counts."""

from __future__ import annotations

from companion.core.model import Command
from test_ui_cauldron_screens import FOUR, SIX, deal, screen, start, to_the_market, to_turns
from ui_helpers import LAYOUT, frames, resize, shot, tall_shot

from ui.games.cauldron.market import OfferCard
from ui.games.cauldron.seats import LINE_H, CauldronSeatCard


def to_market(app, players=SIX):
    """The Market of the Advanced game (two purchases each), Barb buying first."""
    names = [p["name"] for p in players]
    s = start(app, players, variants=["advanced"])
    deal(s, names)
    to_turns(s, names)
    s.execute(Command("adjust_magik", "Barb", {"delta": 6, "source": "correction"}))
    to_the_market(app, s, "spider_web")
    return s


def strip_cards(app) -> list[CauldronSeatCard]:
    """The seats' cards the window shows under the Market's offers."""
    table = screen(app)
    cards = [c for c in table.seats.cards() if c.get_root_window() is not None
             and c.height > 0 and c.opacity > 0]
    if cards:
        top = max(c.to_window(c.x, c.top)[1] for c in cards)
        offers = [w for w in table.market.walk(restrict=True) if isinstance(w, OfferCard)]
        assert all(o.to_window(o.x, o.y)[1] >= top for o in offers), "the strip is under them"
    return cards


def offer_cards(app) -> list[OfferCard]:
    return [w for w in screen(app).market.walk(restrict=True) if isinstance(w, OfferCard)]


def says_each_seat(app, cards) -> None:
    """Name, Magik, Potions and Spells on each card, as far texts (capitals of 21 px at
    800x480, which the layout check measures in shot())."""
    players = app.summary["players"]
    assert [c.player for c in cards] == [p["name"] for p in players]
    for card, p in zip(cards, players):
        ids = card.ids
        magik = ids.narrow_magik if card.narrow else ids.magik
        assert (ids.name.text, magik.text) == (p["name"], str(p["magik"]))
        assert ids.potions.text == str(len(p["potions"]) + len(p["owed"]))
        assert ids.spells.text == str(p["spells"])
        for label in (ids.name, magik, ids.potions, ids.spells):
            assert label.far and label.width > 0 and label.opacity > 0, (card.player, label)
        assert ids.counters.height > 0 and ids.counters.opacity == 1
        assert card.compact and card.current == (p["name"] == app.prompt["turn"])


def test_the_seats_at_the_market_with_the_markets_controls_in_place(app):
    s = to_market(app)
    for size in ((800, 480), (1280, 720)):
        resize(*size)
        says_each_seat(app, strip_cards(app))
        shot("cauldron_market_seats")
    resize(800, 480)
    s.execute(Command("buy", "Barb", {"item": "basic_spell"}))   # her second purchase next
    frames()
    assert app.prompt["turn"] == "Barb"
    says_each_seat(app, strip_cards(app))
    # the second state of the phase at this size: the layout check's "moved" compares the
    # Market's controls (offers, discount, Pass) with the first one's places
    shot("cauldron_market_seats_bought")
    assert not LAYOUT["cauldron_market_seats_bought_800x480"], \
        LAYOUT["cauldron_market_seats_bought_800x480"]


def test_portrait_three_seats_in_one_row_under_the_offers(app):
    """Portrait (720x1280): three compact cards share one row under the offers; four or more
    would take two rows, more than the offers can give (the strip goes)."""
    to_market(app, SIX[:3])
    try:
        resize(720, 1280)
        cards = strip_cards(app)
        says_each_seat(app, cards)
        assert len({round(c.y) for c in cards}) == 1
        tall_shot("portrait_cauldron_market_seats")
    finally:
        resize(800, 480)


def test_a_refusal_lies_over_the_market_and_the_offers_keep_their_place(app):
    """A refusal is a sheet over the whole window now: the Market under it keeps its strip,
    and each offer says its name and price alone, never half a sentence."""
    to_market(app)
    before = {o.item: tuple(o.to_window(*o.pos)) for o in screen(app).market.walk(restrict=True)
              if isinstance(o, OfferCard)}
    app.refuse("Advanced Potions can be bought only after Rituals of Power")
    frames()
    shot("cauldron_market_refused")
    offers = [o for o in screen(app).market.walk(restrict=True) if isinstance(o, OfferCard)]
    assert {o.item: tuple(o.to_window(*o.pos)) for o in offers} == before
    for o in offers:
        assert [w.text for w in o.children[::-1]] == [o.title, str(
            next(x["cost"] for x in app.summary["market"]["offers"] if x["item"] == o.item))]
    app.dismiss_refusal()
    frames()
    says_each_seat(app, strip_cards(app))


def test_large_text_shows_the_market_whole_rather_than_a_cramped_strip(app, tmp_path,
                                                                      monkeypatch):
    monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "settings.json"))
    app.load_table_settings()
    assert app.change_table_settings(text_size="large") == ""
    try:
        to_market(app, SIX[:3])
        assert not strip_cards(app)           # a quarter larger: the Market keeps its room
        for size in ((800, 480), (1280, 720)):
            resize(*size)
            shot("cauldron_market_large_text")
            # every offer's name at Large text's size: a shorter word where the whole one
            # does not fit its card (at 800x480 "Advanced Potion" fell back to the normal size)
            names = {c.title: c.children[-1] for c in offer_cards(app)}
            assert all(n.grow == app.font_factor for n in names.values()), \
                {t: n.font_size / app.u for t, n in names.items()}
            short = {t: n.text for t, n in names.items() if n.text != t}
            assert short == ({"Advanced Spell": "Adv. Spell", "Advanced Potion": "Adv. Potion"}
                             if size == (800, 480) else {}), size
    finally:
        resize(800, 480)
        monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "none.json"))
        app.load_table_settings()
        frames()


def test_the_omens_seats_at_1280x720_give_their_room_to_the_counts(app):
    """1280x720 (1045x588 units) left each card of the Omen's phase an empty band of about
    56 units under its counts (too short for two lines of its cards): the counters' row takes
    it, its digits larger, level across the row."""
    names = [p["name"] for p in FOUR]
    s = start(app, FOUR)
    deal(s, names)
    s.execute(Command("begin"))
    frames()
    assert app.prompt["phase"] == "omen"
    try:
        resize(1280, 720)
        cards = screen(app).seats.cards()
        for card in cards:
            under = card.ids.card_rows.height + card.ids.pool_rows.height
            assert under < LINE_H * app.fu, (card.player, under / app.u)
            assert card.roomy and card.ids.potions.font_size == 40 * app.fu
        assert len({round(c.ids.counters.height) for c in cards}) == 1
        shot("cauldron_omen_seats")
    finally:
        resize(800, 480)


def test_a_field_choice_left_open_is_not_the_next_games(app):
    """The Market's panel serves every game: a Field choice left open when a table went home
    opened again at the next game's Market (same season, buyer and purchases left)."""
    to_market(app)
    market = screen(app).market
    market.buy(next(o for o in market.offers if o["item"] == "field"))
    assert market.pending is not None
    app.go_home()
    frames()
    to_market(app)
    assert market.pending is None and not market.marking
    assert any(isinstance(w, OfferCard) for w in market.walk(restrict=True))


def test_the_simple_game_counts_no_spells(app):
    """The Simple Game uses no Spells: the seats' cards (at the turns and in the Market's
    strip) show no star and no count of none; the other games' cards show both."""
    names = [p["name"] for p in FOUR]
    s = start(app, FOUR, variants=["simple"])
    deal(s, names)
    to_turns(s, names)
    frames()
    for card in screen(app).seats.cards():
        assert not card.spells_used and card.ids.spells.text == "", card.player
        assert card.ids.counters.children[-5].width == 0        # the star (after the vial)
        assert card.ids.potions.text == "2"
    app.go_home()
    to_market(app, SIX[:3])
    cards = strip_cards(app)
    assert [(c.spells_used, c.ids.spells.text) for c in cards] == \
        [(True, str(p["spells"])) for p in app.summary["players"]]
